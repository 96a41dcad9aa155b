/* The CUDA strided copy. The core's planner has put the dims in the
 * destination's order and merged them; here each kind of loop gets its
 * kernel: one dense span is cudaMemcpyAsync; a true transpose (the
 * source's unit-stride dim is not the destination's) goes through 2-D
 * tiles in shared memory so that both sides are read and written
 * coalesced; dense runs are moved as the widest aligned word (up to 16
 * bytes) that divides them; anything else, and every dtype conversion, is
 * one thread per element with the offsets decoded from its flat index.
 * Conversions use the CPU reference's arithmetic (scalar.cuh), so they
 * are bit-identical to it; a float that is NaN or out of range for an
 * integer destination fails the copy as on the CPU. */
#include <cuda_runtime.h>

#include "cuda_backend.h"
#include "cuda_launch.cuh"
#include "scalar.cuh"

extern "C" {
#include "dtype.h"
#include "error.h"
}

namespace {

/* The copy's dims (destination order); strides in elements of the
 * element type the kernel moves. */
struct geom {
  int ndim;
  long long shape[LT_MAX_DIMS];
  long long dst[LT_MAX_DIMS];
  long long src[LT_MAX_DIMS];
};

/* The destination and source offsets of row-major flat index `flat`. */
template <typename I>
__device__ __forceinline__ void offsets(const geom &g, I flat, I *d, I *s) {
  I od = 0, os = 0;
  for (int k = g.ndim - 1; k >= 0; k--) {
    I n = (I)g.shape[k];
    I i = flat % n;
    flat /= n;
    od += i * (I)g.dst[k];
    os += i * (I)g.src[k];
  }
  *d = od;
  *s = os;
}

template <typename T, typename I>
__global__ void move_kernel(const __grid_constant__ geom g, T *dst, const T *src, I n) {
  for (I i = (I)blockIdx.x * (I)blockDim.x + (I)threadIdx.x; i < n; i += (I)gridDim.x * (I)blockDim.x) {
    I d, s;
    offsets(g, i, &d, &s);
    dst[d] = src[s];
  }
}

/* The first failing element of a conversion: its value, for the message. */
struct fail_record {
  unsigned int failed;
  double value;
};

template <typename I>
__global__ void convert_kernel(const __grid_constant__ geom g, char *dst, lt_dtype dt, const char *src, lt_dtype st,
                               lt_cast_mode mode, I n, fail_record *fail) {
  long long des = dev_dtype_size(dt), ses = dev_dtype_size(st);
  for (I i = (I)blockIdx.x * (I)blockDim.x + (I)threadIdx.x; i < n; i += (I)gridDim.x * (I)blockDim.x) {
    I d, s;
    offsets(g, i, &d, &s);
    dev_scalar v = dev_load(st, src + (long long)s * ses);
    if (!dev_store(dt, dst + (long long)d * des, v, mode) && atomicCAS(&fail->failed, 0u, 1u) == 0u)
      fail->value = v.f;
  }
}

/* ---- true transposes ----
 * x runs along the innermost dim (unit stride in dst), y along the dim
 * with unit stride in src; the other dims are "outer", one z each. */
struct tgeom {
  long long nx, ny, sx, dy;  /* sizes; src stride along x, dst stride along y */
  int nouter;
  long long outer_shape[LT_MAX_DIMS], outer_dst[LT_MAX_DIMS], outer_src[LT_MAX_DIMS];
  long long n_outer;
};

template <typename T, int TILE>
__global__ void transpose_kernel(const __grid_constant__ tgeom g, T *dst, const T *src) {
  __shared__ T tile[TILE][TILE + 1];
  for (long long z = blockIdx.z; z < g.n_outer; z += gridDim.z) {
    long long od = 0, os = 0, rest = z;
    for (int k = g.nouter - 1; k >= 0; k--) {
      long long i = rest % g.outer_shape[k];
      rest /= g.outer_shape[k];
      od += i * g.outer_dst[k];
      os += i * g.outer_src[k];
    }
    for (long long by = blockIdx.y; by * TILE < g.ny; by += gridDim.y) {
      for (long long bx = blockIdx.x; bx * TILE < g.nx; bx += gridDim.x) {
        long long x0 = bx * TILE, y0 = by * TILE;
        for (int j = threadIdx.y; j < TILE; j += blockDim.y) { /* reads run along y */
          long long x = x0 + j, y = y0 + threadIdx.x;
          if (x < g.nx && y < g.ny) tile[j][threadIdx.x] = src[os + x * g.sx + y];
        }
        __syncthreads();
        for (int j = threadIdx.y; j < TILE; j += blockDim.y) { /* writes run along x */
          long long x = x0 + threadIdx.x, y = y0 + j;
          if (x < g.nx && y < g.ny) dst[od + x + y * g.dy] = tile[threadIdx.x][j];
        }
        __syncthreads();
      }
    }
  }
}

/* ---- host side ---- */

long long numel_of(const geom &g) {
  long long n = 1;
  for (int k = 0; k < g.ndim; k++) n *= g.shape[k];
  return n;
}

/* True when 32-bit indices can address every offset and flat index. */
bool fits32(const geom &g, long long n, long long threads) {
  if (n + threads > INT32_MAX) return false;
  long long reach_d = 0, reach_s = 0;
  for (int k = 0; k < g.ndim; k++) {
    reach_d += (g.shape[k] - 1) * (g.dst[k] < 0 ? -g.dst[k] : g.dst[k]);
    reach_s += (g.shape[k] - 1) * (g.src[k] < 0 ? -g.src[k] : g.src[k]);
  }
  return reach_d <= INT32_MAX && reach_s <= INT32_MAX;
}

/* Reinterprets a same-dtype copy whose innermost dim is dense on both
 * sides as a copy of wider words (16, 8, 4 or 2 bytes) when the run
 * length, every outer stride and both pointers allow; returns the word
 * size (es when no wider one fits). */
size_t widen(geom *g, size_t es, const char *dst, const char *src) {
  int in = g->ndim - 1;
  if (in < 0 || g->dst[in] != 1 || g->src[in] != 1) return es;
  long long bytes = g->shape[in] * (long long)es;
  for (long long w = 16; w > (long long)es; w /= 2) {
    bool ok = bytes % w == 0 && ((uintptr_t)dst | (uintptr_t)src) % (uintptr_t)w == 0;
    for (int k = 0; k < in && ok; k++)
      ok = (g->dst[k] * (long long)es) % w == 0 && (g->src[k] * (long long)es) % w == 0;
    if (!ok) continue;
    g->shape[in] = bytes / w;
    for (int k = 0; k < in; k++) {
      g->dst[k] = g->dst[k] * (long long)es / w;
      g->src[k] = g->src[k] * (long long)es / w;
    }
    return (size_t)w;
  }
  return es;
}

template <typename T>
void launch_move(const geom &g, char *dst, const char *src) {
  long long n = numel_of(g);
  unsigned blocks = lt__cuda_blocks(n);
  if (fits32(g, n, (long long)blocks * LT__CUDA_THREADS))
    move_kernel<T, int><<<blocks, LT__CUDA_THREADS>>>(g, (T *)dst, (const T *)src, (int)n);
  else
    move_kernel<T, long long><<<blocks, LT__CUDA_THREADS>>>(g, (T *)dst, (const T *)src, n);
}

void move(const geom &g, size_t w, char *dst, const char *src) {
  switch (w) {
  case 1: launch_move<uint8_t>(g, dst, src); break;
  case 2: launch_move<uint16_t>(g, dst, src); break;
  case 4: launch_move<uint32_t>(g, dst, src); break;
  case 8: launch_move<unsigned long long>(g, dst, src); break;
  default: launch_move<uint4>(g, dst, src); break;
  }
}

/* Can the tile kernel do this copy? Same dtype and positive strides along
 * the two unit dims (the CPU backend's rule). */
bool tileable(const lt__copy_args *a) {
  if (a->kind != LT__PLAN_TRANSPOSE || a->dst_dtype != a->src_dtype) return false;
  int in = a->ndim - 1, k = a->transpose_dim;
  return a->src_strides[in] >= 1 && a->dst_strides[k] >= 1;
}

template <typename T, int TILE>
void launch_transpose(const tgeom &g, char *dst, const char *src) {
  long long bx = (g.nx + TILE - 1) / TILE, by = (g.ny + TILE - 1) / TILE;
  dim3 grid((unsigned)(bx < INT32_MAX ? bx : INT32_MAX), (unsigned)(by < 65535 ? by : 65535),
            (unsigned)(g.n_outer < 65535 ? g.n_outer : 65535));
  /* Each block row of threads spans a whole tile width: 32 elements of 4
   * or 8 bytes, 64 of 1 or 2 bytes, so that every warp moves whole
   * segments. */
  transpose_kernel<T, TILE><<<grid, dim3(TILE, 256 / TILE)>>>(g, (T *)dst, (const T *)src);
}

void transpose(const lt__copy_args *a, size_t es) {
  int in = a->ndim - 1, k = a->transpose_dim;
  tgeom g = {};
  g.nx = a->shape[in];
  g.ny = a->shape[k];
  g.sx = a->src_strides[in];
  g.dy = a->dst_strides[k];
  g.n_outer = 1;
  for (int d = 0; d < in; d++) {
    if (d == k) continue;
    g.outer_shape[g.nouter] = a->shape[d];
    g.outer_dst[g.nouter] = a->dst_strides[d];
    g.outer_src[g.nouter] = a->src_strides[d];
    g.n_outer *= a->shape[d];
    g.nouter++;
  }
  switch (es) {
  case 1: launch_transpose<uint8_t, 64>(g, a->dst, a->src); break;
  case 2: launch_transpose<uint16_t, 64>(g, a->dst, a->src); break;
  case 4: launch_transpose<uint32_t, 32>(g, a->dst, a->src); break;
  default: launch_transpose<unsigned long long, 32>(g, a->dst, a->src); break;
  }
}

/* Only a float going to a wider-range-checked integer can fail. */
bool conversion_can_fail(lt_dtype dt, lt_dtype st) {
  return lt__dtype_is_float(st) && (dt == LT_I32 || dt == LT_I64 || dt == LT_U8);
}

lt_status convert(const geom &g, const lt__copy_args *a, int index) {
  const char *op = "copy";
  long long n = numel_of(g);
  fail_record *fail = NULL;
  bool check = conversion_can_fail(a->dst_dtype, a->src_dtype);
  if (check) {
    fail = (fail_record *)lt__cuda_scratch(index, sizeof *fail, op);
    if (!fail) return LT_ERR_NOMEM;
    cudaMemsetAsync(fail, 0, sizeof *fail, 0);
  }
  unsigned blocks = lt__cuda_blocks(n);
  if (fits32(g, n, (long long)blocks * LT__CUDA_THREADS))
    convert_kernel<int><<<blocks, LT__CUDA_THREADS>>>(g, a->dst, a->dst_dtype, a->src, a->src_dtype, a->mode, (int)n,
                                                     fail);
  else
    convert_kernel<long long><<<blocks, LT__CUDA_THREADS>>>(g, a->dst, a->dst_dtype, a->src, a->src_dtype, a->mode, n,
                                                           fail);
  lt_status s = LT_OK;
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) s = lt__cuda_fail(e, op, "conversion kernel");
  if (check) {
    fail_record got = {0, 0.0};
    if (s == LT_OK) {
      e = cudaMemcpy(&got, fail, sizeof got, cudaMemcpyDeviceToHost);
      if (e != cudaSuccess) s = lt__cuda_fail(e, op, "reading the conversion's status");
    }
    lt__cuda_cache_free(index, fail, sizeof *fail);
    if (s == LT_OK && got.failed)
      s = lt__fail(LT_ERR_ARG, "%s value %.17g is NaN or out of range for %s", lt_dtype_name(a->src_dtype), got.value,
                   lt_dtype_name(a->dst_dtype));
  }
  return s;
}

lt_status run_copy(const lt__copy_args *a, int index) {
  geom g = {};
  g.ndim = a->ndim;
  for (int k = 0; k < a->ndim; k++) {
    g.shape[k] = a->shape[k];
    g.dst[k] = a->dst_strides[k];
    g.src[k] = a->src_strides[k];
  }
  if (a->dst_dtype != a->src_dtype) return convert(g, a, index);
  size_t es = lt__dtype_size(a->dst_dtype);
  if (a->kind == LT__PLAN_SPAN) {
    cudaError_t e = cudaMemcpyAsync(a->dst, a->src, (size_t)numel_of(g) * es, cudaMemcpyDeviceToDevice, 0);
    return e == cudaSuccess ? LT_OK : lt__cuda_fail(e, "copy", "cudaMemcpyAsync");
  }
  if (tileable(a)) transpose(a, es);
  else move(g, widen(&g, es, a->dst, a->src), a->dst, a->src);
  cudaError_t e = cudaGetLastError();
  return e == cudaSuccess ? LT_OK : lt__cuda_fail(e, "copy", "copy kernel");
}

} // namespace

extern "C" lt_status lt__cuda_copy(const lt__copy_args *a) {
  int prev, index;
  lt_status s = lt__cuda_enter_ptr(a->dst, &prev, "copy");
  if (s != LT_OK) return s;
  cudaGetDevice(&index);
  s = run_copy(a, index);
  lt__cuda_leave(prev);
  return s;
}
