/* The CUDA elementwise kernel: one thread per output element, offsets of
 * the destination and both inputs decoded from its flat index over the
 * core's merged dims, each input converted to the compute type (F32, F64
 * or I64) exactly as the CPU backend converts it, the op applied in that
 * type, and the result rounded once into the destination's dtype. The
 * arithmetic is the CPU's expression for expression, built without
 * contraction into fused multiply-adds (-fmad=false), so +, -, *, /, sqrt,
 * max, min, abs, neg and relu give the CPU's bits; exp, log, tanh, erf
 * come from CUDA's libm, whose results may differ from glibc's in the last
 * place. An input with every stride 0 (a scalar, possibly the host double
 * of lt_add_scalar) is read once on the host and passed by value. */
#include <cuda_runtime.h>
#include <string.h>

#include "cuda_backend.h"
#include "cuda_launch.cuh"
#include "scalar.cuh"

extern "C" {
#include "dtype.h"
#include "error.h"
}

namespace {

struct ew_geom {
  int ndim;
  long long shape[LT_MAX_DIMS];
  long long st[3][LT_MAX_DIMS]; /* dst, in0, in1; elements */
};

struct ew_params {
  lt__ew_op op;
  int ninputs;
  char *dst;
  lt_dtype dst_dt;
  const char *src[2];
  lt_dtype src_dt[2];
  bool konst[2];       /* input read once on the host: its value is kval */
  dev_scalar kval[2];
};

template <typename C> __device__ C as_compute(dev_scalar v);
template <> __device__ float as_compute<float>(dev_scalar v) { return dev_as_f32(v); }
template <> __device__ double as_compute<double>(dev_scalar v) { return dev_as_f64(v); }
template <> __device__ long long as_compute<long long>(dev_scalar v) { return dev_as_i64(v); }

__device__ dev_scalar from_compute(float x) { return dev_from_f32(x); }
__device__ dev_scalar from_compute(double x) { return dev_from_f64(x); }
__device__ dev_scalar from_compute(long long x) { return dev_from_i64(x); }

/* NaN in either input wins (torch.maximum / torch.minimum); NaN stays NaN
 * through relu. As ew_ops.c's macros. */
template <typename T> __device__ __forceinline__ T maximum(T a, T b) { return a != a || a > b ? a : b; }
template <typename T> __device__ __forceinline__ T minimum(T a, T b) { return a != a || a < b ? a : b; }

__device__ float apply(lt__ew_op op, float a, float b) {
  switch (op) {
  case LT__EW_ADD: return a + b;
  case LT__EW_SUB: return a - b;
  case LT__EW_MUL: return a * b;
  case LT__EW_DIV: return a / b;
  case LT__EW_MAX: return maximum(a, b);
  case LT__EW_MIN: return minimum(a, b);
  case LT__EW_NEG: return -a;
  case LT__EW_ABS: return fabsf(a);
  case LT__EW_EXP: return expf(a);
  case LT__EW_LOG: return logf(a);
  case LT__EW_SQRT: return sqrtf(a);
  case LT__EW_RSQRT: return 1 / sqrtf(a);
  case LT__EW_TANH: return tanhf(a);
  case LT__EW_SIGMOID: return a >= 0 ? 1 / (1 + expf(-a)) : expf(a) / (1 + expf(a));
  case LT__EW_RELU: return a > 0 || a != a ? a : 0;
  case LT__EW_GELU: return (float)0.5 * a * (1 + erff(a * (float)0.70710678118654752440));
  case LT__EW_SILU: return a / (1 + expf(-a));
  }
  return 0;
}

__device__ double apply(lt__ew_op op, double a, double b) {
  switch (op) {
  case LT__EW_ADD: return a + b;
  case LT__EW_SUB: return a - b;
  case LT__EW_MUL: return a * b;
  case LT__EW_DIV: return a / b;
  case LT__EW_MAX: return maximum(a, b);
  case LT__EW_MIN: return minimum(a, b);
  case LT__EW_NEG: return -a;
  case LT__EW_ABS: return fabs(a);
  case LT__EW_EXP: return exp(a);
  case LT__EW_LOG: return log(a);
  case LT__EW_SQRT: return sqrt(a);
  case LT__EW_RSQRT: return 1 / sqrt(a);
  case LT__EW_TANH: return tanh(a);
  case LT__EW_SIGMOID: return a >= 0 ? 1 / (1 + exp(-a)) : exp(a) / (1 + exp(a));
  case LT__EW_RELU: return a > 0 || a != a ? a : 0;
  case LT__EW_GELU: return (double)0.5 * a * (1 + erf(a * (double)0.70710678118654752440));
  case LT__EW_SILU: return a / (1 + exp(-a));
  }
  return 0;
}

/* Integers wrap: the arithmetic is done in uint64. */
__device__ long long apply(lt__ew_op op, long long a, long long b) {
  typedef unsigned long long u64;
  switch (op) {
  case LT__EW_ADD: return (long long)((u64)a + (u64)b);
  case LT__EW_SUB: return (long long)((u64)a - (u64)b);
  case LT__EW_MUL: return (long long)((u64)a * (u64)b);
  case LT__EW_MAX: return a > b ? a : b;
  case LT__EW_MIN: return a < b ? a : b;
  case LT__EW_NEG: return (long long)(0 - (u64)a);
  case LT__EW_ABS: return a < 0 ? (long long)(0 - (u64)a) : a;
  case LT__EW_RELU: return a > 0 ? a : 0;
  default: return 0; /* the core gives every other op a float result */
  }
}

template <typename C, typename I>
__global__ void ew_kernel(const __grid_constant__ ew_geom g, const __grid_constant__ ew_params p, I n) {
  long long es[3] = {dev_dtype_size(p.dst_dt), dev_dtype_size(p.src_dt[0]), dev_dtype_size(p.src_dt[1])};
  for (I i = (I)blockIdx.x * (I)blockDim.x + (I)threadIdx.x; i < n; i += (I)gridDim.x * (I)blockDim.x) {
    I off[3] = {0, 0, 0}, rest = i;
    for (int k = g.ndim - 1; k >= 0; k--) {
      I s = (I)g.shape[k];
      I idx = rest % s;
      rest /= s;
      for (int j = 0; j < 3; j++) off[j] += idx * (I)g.st[j][k];
    }
    C x[2] = {0, 0};
    for (int j = 0; j < p.ninputs; j++)
      x[j] = p.konst[j] ? as_compute<C>(p.kval[j])
                        : as_compute<C>(dev_load(p.src_dt[j], p.src[j] + (long long)off[j + 1] * es[j + 1]));
    /* Cannot fail: the core stores a result only into its category or a higher one. */
    dev_store(p.dst_dt, p.dst + (long long)off[0] * es[0], from_compute(apply(p.op, x[0], x[1])), LT_CAST_DEFAULT);
  }
}

/* ---- host side ---- */

bool all_zero(const long long *st, int ndim) {
  for (int k = 0; k < ndim; k++)
    if (st[k] != 0) return false;
  return true;
}

/* The one element of a stride-0 input, read where it lives (device
 * memory, or host memory such as lt_add_scalar's double). */
lt_status read_constant(const char *p, lt_dtype dt, dev_scalar *out) {
  char buf[8];
  size_t es = lt__dtype_size(dt);
  cudaPointerAttributes at;
  cudaError_t e = cudaPointerGetAttributes(&at, p);
  if (e != cudaSuccess) return lt__cuda_fail(e, "elementwise", "cudaPointerGetAttributes");
  if (at.type == cudaMemoryTypeDevice || at.type == cudaMemoryTypeManaged) {
    e = cudaMemcpy(buf, p, es, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) return lt__cuda_fail(e, "elementwise", "reading a broadcast scalar");
  } else {
    memcpy(buf, p, es);
  }
  lt__scalar v = lt__scalar_load(dt, buf);
  *out = dev_scalar{v.is_int, v.f, (long long)v.i};
  return LT_OK;
}

bool fits32(const ew_geom &g, long long n, long long threads) {
  if (n + threads > INT32_MAX) return false;
  for (int j = 0; j < 3; j++) {
    long long reach = 0;
    for (int k = 0; k < g.ndim; k++) reach += (g.shape[k] - 1) * (g.st[j][k] < 0 ? -g.st[j][k] : g.st[j][k]);
    if (reach > INT32_MAX) return false;
  }
  return true;
}

template <typename C>
void launch(const ew_geom &g, const ew_params &p, long long n) {
  unsigned blocks = lt__cuda_blocks(n);
  if (fits32(g, n, (long long)blocks * LT__CUDA_THREADS)) ew_kernel<C, int><<<blocks, LT__CUDA_THREADS>>>(g, p, (int)n);
  else ew_kernel<C, long long><<<blocks, LT__CUDA_THREADS>>>(g, p, n);
}

lt_status run(const lt__ew_args *a) {
  ew_geom g = {};
  ew_params p = {};
  g.ndim = a->ndim;
  long long n = 1;
  for (int k = 0; k < a->ndim; k++) {
    g.shape[k] = a->shape[k];
    n *= a->shape[k];
    for (int j = 0; j < 3; j++) g.st[j][k] = a->strides[j][k];
  }
  p.op = a->op;
  p.ninputs = a->ninputs;
  p.dst = a->dst;
  p.dst_dt = a->dst_dtype;
  p.src_dt[1] = LT_F32;
  for (int j = 0; j < a->ninputs; j++) {
    p.src[j] = a->src[j];
    p.src_dt[j] = a->src_dtype[j];
    if (all_zero(g.st[j + 1], g.ndim)) {
      p.konst[j] = true;
      lt_status s = read_constant(a->src[j], a->src_dtype[j], &p.kval[j]);
      if (s != LT_OK) return s;
    }
  }
  if (a->compute == LT_F32) launch<float>(g, p, n);
  else if (a->compute == LT_F64) launch<double>(g, p, n);
  else launch<long long>(g, p, n);
  cudaError_t e = cudaGetLastError();
  return e == cudaSuccess ? LT_OK : lt__cuda_fail(e, "elementwise", "kernel launch");
}

} // namespace

extern "C" lt_status lt__cuda_elementwise(const lt__ew_args *a) {
  int prev;
  lt_status s = lt__cuda_enter_ptr(a->dst, &prev, "elementwise");
  if (s != LT_OK) return s;
  s = run(a);
  lt__cuda_leave(prev);
  return s;
}
