/* The CUDA backend's table: device memory through the caching allocator,
 * raw transfers between host and device memory, and the kernels. */
#include <cuda_runtime_api.h>

#include "cuda_backend.h"
#include "error.h"

static bool cuda_available(int index) { return index >= 0 && index < lt__cuda_device_count(); }

static void *cuda_alloc(int index, size_t nbytes) {
  int prev;
  if (lt__cuda_enter(index, &prev, "alloc") != LT_OK) return NULL;
  void *p = lt__cuda_cache_alloc(index, nbytes);
  lt__cuda_leave(prev);
  return p;
}

static void cuda_free(int index, void *p, size_t nbytes) {
  int prev;
  if (lt__cuda_enter(index, &prev, "free") != LT_OK) return;
  lt__cuda_cache_free(index, p, nbytes);
  lt__cuda_leave(prev);
}

static void cuda_fill_zero(int index, void *p, size_t nbytes) {
  int prev;
  if (lt__cuda_enter(index, &prev, "fill_zero") != LT_OK) return;
  (void)cudaMemset(p, 0, nbytes);
  lt__cuda_leave(prev);
}

/* Synchronous: when it returns, the bytes are at dst (and src may be
 * reused), whichever sides are host or device memory. */
static lt_status cuda_transfer(void *dst, lt_device dst_dev, const void *src, lt_device src_dev, size_t nbytes) {
  int prev;
  int index = dst_dev.kind == LT_CUDA ? dst_dev.index : src_dev.index;
  lt_status s = lt__cuda_enter(index, &prev, "transfer");
  if (s != LT_OK) return s;
  cudaError_t e = cudaMemcpy(dst, src, nbytes, cudaMemcpyDefault);
  if (e == cudaSuccess) e = cudaStreamSynchronize(0);
  s = e == cudaSuccess ? LT_OK : lt__cuda_fail(e, "transfer", "cudaMemcpy");
  lt__cuda_leave(prev);
  return s;
}

const lt__backend lt__cuda_backend = {
    .name = "cuda",
    .available = cuda_available,
    .alloc = cuda_alloc,
    .free = cuda_free,
    .fill_zero = cuda_fill_zero,
    .transfer = cuda_transfer,
    .copy = lt__cuda_copy,
    .reduce = lt__cuda_reduce,
    .elementwise = lt__cuda_elementwise,
    .reduce_dims = lt__cuda_reduce_dims,
    .softmax = lt__cuda_softmax,
    .matmul = lt__cuda_matmul,
};
