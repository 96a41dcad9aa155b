/* CUDA devices: how many answer, switching the thread's current device
 * around a call (and back, so an embedding program keeps its own), and
 * CUDA errors as the library's LT_ERR_DEVICE. */
#include <pthread.h>

#include <cuda_runtime_api.h>

#include "cuda_backend.h"
#include "error.h"

static pthread_once_t count_once = PTHREAD_ONCE_INIT;
static int device_count;

static void count_devices(void) {
  /* Without a driver cudaGetDeviceCount fails (cudaErrorInsufficientDriver
   * or cudaErrorNoDevice) and may leave the count untouched: any error
   * means no device. */
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) n = 0;
  (void)cudaGetLastError(); /* the failure is not this thread's to report later */
  device_count = n;
}

int lt__cuda_device_count(void) {
  pthread_once(&count_once, count_devices);
  return device_count;
}

lt_status lt__cuda_fail(int err, const char *op, const char *what) {
  cudaError_t e = (cudaError_t)err;
  (void)cudaGetLastError(); /* clear a non-sticky error so the next call starts clean */
  return lt__fail(LT_ERR_DEVICE, "%s: %s: %s: %s", op, what, cudaGetErrorName(e), cudaGetErrorString(e));
}

lt_status lt__cuda_enter(int index, int *prev, const char *op) {
  *prev = -1;
  if (index < 0 || index >= lt__cuda_device_count())
    return lt__fail(LT_ERR_DEVICE, "%s: cuda:%d is not available (%d CUDA device(s) answer)", op, index,
                    lt__cuda_device_count());
  int cur = 0;
  cudaError_t e = cudaGetDevice(&cur);
  if (e != cudaSuccess) return lt__cuda_fail(e, op, "cudaGetDevice");
  if (cur != index) {
    e = cudaSetDevice(index);
    if (e != cudaSuccess) return lt__cuda_fail(e, op, "cudaSetDevice");
    *prev = cur;
  }
  return LT_OK;
}

lt_status lt__cuda_enter_ptr(const void *p, int *prev, const char *op) {
  struct cudaPointerAttributes at;
  cudaError_t e = cudaPointerGetAttributes(&at, p);
  if (e != cudaSuccess) return lt__cuda_fail(e, op, "cudaPointerGetAttributes");
  if (at.type != cudaMemoryTypeDevice && at.type != cudaMemoryTypeManaged) {
    *prev = -1;
    return lt__fail(LT_ERR_DEVICE, "%s: %p is not CUDA device memory", op, p);
  }
  return lt__cuda_enter(at.device, prev, op);
}

void lt__cuda_leave(int prev) {
  if (prev >= 0) (void)cudaSetDevice(prev);
}

int lt__cuda_capability(int index) {
  int major = 0, minor = 0;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, index) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, index) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return major * 10 + minor;
}
