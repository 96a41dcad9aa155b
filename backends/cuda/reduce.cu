/* The CUDA reductions: lt_sum, lt_mean, lt_amax, lt_amin and lt_argmax
 * (lt__red_args), lt_reduce's folds (lt__reduce_args) and softmax.
 *
 * A fold is split into units of (output, part): each block folds one
 * unit's elements (threads take every 256th element, then a tree over the
 * block), so that one large output still spreads over many blocks and
 * each thread's running sum stays short. With several parts per output a
 * second kernel merges the parts in order. Values are converted to the
 * compute type as the CPU converts them. amax, amin and argmax give the
 * CPU's result exactly (the first index among equal values, the first
 * NaN); integer sums wrap in uint64 exactly as on the CPU; float sums and
 * products associate differently from the CPU's blocked pairwise order,
 * so they agree to rounding, not bit for bit. */
#include <cuda_runtime.h>

#include "cuda_backend.h"
#include "cuda_launch.cuh"
#include "scalar.cuh"

extern "C" {
#include "dtype.h"
#include "error.h"
#include "libtensor/rearrange.h"
}

namespace {

enum fold_op { F_SUM, F_MEAN, F_MAX, F_MIN, F_ARGMAX, F_PROD };

/* Elements a thread folds before the tree (sets the parts per output),
 * and the most units a call splits into: enough blocks to fill a GPU
 * several times over, and at most 2 MiB of partial folds. */
constexpr long long PER_THREAD = 64;
constexpr long long MAX_UNITS = 65536;

struct fold_geom {
  int n_keep, n_red;
  long long shape[LT_MAX_DIMS];
  long long st[LT_MAX_DIMS];
};

struct fold_params {
  fold_op op;
  lt_dtype compute;    /* LT_F32, LT_F64 or LT_I64 */
  lt_dtype src_dt, dst_dt;
  const char *src;
  char *dst;
  long long count;     /* reduced elements per output */
  long long parts;     /* units per output */
  bool mean_in_f32;    /* lt_mean in F32 rounds the quotient to F32 first */
};

/* A partial fold. Sums and products in f (an F32 one holds a float) or i
 * (wrapping); extrema keep the best value and its index `at`. */
struct fold {
  double f;
  long long i;
  long long at;
  int state; /* 0 nothing yet, 1 a value, 2 a NaN (which wins) */
};

__device__ fold fold_empty(const fold_params &p) {
  fold s;
  s.f = p.op == F_PROD ? 1.0 : 0.0;
  s.i = p.op == F_PROD ? 1 : 0;
  s.at = 0;
  s.state = 0;
  return s;
}

__device__ bool extremum(fold_op op) { return op == F_MAX || op == F_MIN || op == F_ARGMAX; }

/* Folds element k (flat index within the output's reduced elements). */
__device__ void fold_in(fold &s, const fold_params &p, dev_scalar v, long long k) {
  typedef unsigned long long u64;
  if (!extremum(p.op)) {
    if (p.compute == LT_I64) {
      u64 x = (u64)dev_as_i64(v);
      s.i = p.op == F_PROD ? (long long)((u64)s.i * x) : (long long)((u64)s.i + x);
    } else if (p.compute == LT_F32) {
      float x = dev_as_f32(v), a = (float)s.f;
      s.f = p.op == F_PROD ? (double)(a * x) : (double)(a + x);
    } else {
      double x = dev_as_f64(v);
      s.f = p.op == F_PROD ? s.f * x : s.f + x;
    }
    s.state = 1;
    return;
  }
  bool lower = p.op == F_MIN;
  if (p.compute == LT_I64) {
    long long x = dev_as_i64(v);
    if (s.state == 0 || (lower ? x < s.i : x > s.i)) s.i = x, s.at = k, s.state = 1;
    return;
  }
  if (s.state == 2) return; /* an earlier NaN of this thread stands */
  double x = p.compute == LT_F32 ? (double)dev_as_f32(v) : dev_as_f64(v);
  if (isnan(x)) s.f = x, s.at = k, s.state = 2;
  else if (s.state == 0 || (lower ? x < s.f : x > s.f)) s.f = x, s.at = k, s.state = 1;
}

/* The fold of a and b (in any order: extrema break ties by index). */
__device__ fold combine(const fold &a, const fold &b, const fold_params &p) {
  typedef unsigned long long u64;
  if (!extremum(p.op)) {
    fold r = a;
    if (p.compute == LT_I64)
      r.i = p.op == F_PROD ? (long long)((u64)a.i * (u64)b.i) : (long long)((u64)a.i + (u64)b.i);
    else if (p.compute == LT_F32)
      r.f = p.op == F_PROD ? (double)((float)a.f * (float)b.f) : (double)((float)a.f + (float)b.f);
    else
      r.f = p.op == F_PROD ? a.f * b.f : a.f + b.f;
    r.state = a.state | b.state;
    return r;
  }
  if (a.state == 0) return b;
  if (b.state == 0) return a;
  if (a.state == 2 || b.state == 2) {
    if (a.state == 2 && b.state == 2) return a.at < b.at ? a : b;
    return a.state == 2 ? a : b;
  }
  bool lower = p.op == F_MIN;
  if (p.compute == LT_I64) {
    if (a.i != b.i) return (lower ? a.i < b.i : a.i > b.i) ? a : b;
  } else if (a.f != b.f) {
    return (lower ? a.f < b.f : a.f > b.f) ? a : b;
  }
  return a.at < b.at ? a : b;
}

/* Stores output o's result, as the CPU's store_result. */
__device__ void store_result(const fold_params &p, const fold &s, long long o) {
  dev_scalar v = {p.compute == LT_I64, 0.0, 0};
  switch (p.op) {
  case F_MEAN:
    v.f = s.f / (double)p.count;
    if (p.mean_in_f32) v.f = dev_f32_to_f64(dev_f64_to_f32(v.f));
    break;
  case F_ARGMAX: v.is_int = true, v.i = s.at; break;
  default:
    if (v.is_int) v.i = s.i;
    else v.f = s.f;
    break;
  }
  dev_store(p.dst_dt, p.dst + o * dev_dtype_size(p.dst_dt), v, LT_CAST_DEFAULT);
}

__global__ void fold_kernel(const __grid_constant__ fold_geom g, const __grid_constant__ fold_params p, long long outs,
                            fold *partials) {
  __shared__ fold sh[LT__CUDA_THREADS];
  long long es = dev_dtype_size(p.src_dt);
  int last = g.n_keep + g.n_red - 1;
  for (long long u = blockIdx.x; u < outs * p.parts; u += gridDim.x) {
    long long o = u / p.parts, part = u % p.parts;
    long long begin = p.count * part / p.parts, end = p.count * (part + 1) / p.parts;
    long long base = 0, rest = o;
    for (int d = g.n_keep - 1; d >= 0; d--) {
      base += rest % g.shape[d] * g.st[d];
      rest /= g.shape[d];
    }
    fold s = fold_empty(p);
    for (long long k = begin + threadIdx.x; k < end; k += blockDim.x) {
      long long off = base;
      if (g.n_red == 1) {
        off += k * g.st[last];
      } else {
        long long r = k;
        for (int d = last; d >= g.n_keep; d--) {
          off += r % g.shape[d] * g.st[d];
          r /= g.shape[d];
        }
      }
      fold_in(s, p, dev_load(p.src_dt, p.src + off * es), k);
    }
    sh[threadIdx.x] = s;
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w /= 2) {
      if ((int)threadIdx.x < w) sh[threadIdx.x] = combine(sh[threadIdx.x], sh[threadIdx.x + w], p);
      __syncthreads();
    }
    if (threadIdx.x == 0) {
      if (p.parts == 1) store_result(p, sh[0], o);
      else partials[u] = sh[0];
    }
    __syncthreads();
  }
}

/* One thread per output: its parts merged in order. */
__global__ void merge_kernel(const __grid_constant__ fold_params p, long long outs, const fold *partials) {
  for (long long o = (long long)blockIdx.x * blockDim.x + threadIdx.x; o < outs; o += (long long)gridDim.x * blockDim.x) {
    fold s = partials[o * p.parts];
    for (long long k = 1; k < p.parts; k++) s = combine(s, partials[o * p.parts + k], p);
    store_result(p, s, o);
  }
}

lt_status run_fold(const fold_geom &g, fold_params p, const char *op) {
  long long outs = 1;
  for (int d = 0; d < g.n_keep; d++) outs *= g.shape[d];
  if (outs == 0) return LT_OK;
  /* Outputs split only while there are few of them: many outputs fill
   * the GPU by themselves. */
  long long most = MAX_UNITS / outs;
  p.parts = (p.count + LT__CUDA_THREADS * PER_THREAD - 1) / (LT__CUDA_THREADS * PER_THREAD);
  if (p.parts > most) p.parts = most;
  if (p.parts < 1) p.parts = 1;
  int index;
  cudaGetDevice(&index);
  fold *partials = NULL;
  size_t bytes = (size_t)(outs * p.parts) * sizeof(fold);
  if (p.parts > 1 && !(partials = (fold *)lt__cuda_scratch(index, bytes, op))) return LT_ERR_NOMEM;
  long long units = outs * p.parts;
  unsigned blocks = units < (long long)LT__CUDA_MAX_BLOCKS ? (unsigned)units : LT__CUDA_MAX_BLOCKS;
  fold_kernel<<<blocks, LT__CUDA_THREADS>>>(g, p, outs, partials);
  if (partials) merge_kernel<<<lt__cuda_blocks(outs), LT__CUDA_THREADS>>>(p, outs, partials);
  cudaError_t e = cudaGetLastError();
  if (partials) lt__cuda_cache_free(index, partials, bytes); /* later work on the stream runs after the merge */
  return e == cudaSuccess ? LT_OK : lt__cuda_fail(e, op, "reduction kernel");
}

fold_geom geom_of(int n_keep, int n_red, const int64_t *shape, const int64_t *st) {
  fold_geom g = {};
  g.n_keep = n_keep;
  g.n_red = n_red;
  for (int d = 0; d < n_keep + n_red; d++) g.shape[d] = shape[d], g.st[d] = st[d];
  return g;
}

/* ---- softmax: one block per slice, three passes as the CPU ---- */

struct softmax_params {
  bool log;
  lt_dtype dtype, compute;
  int n_outer;
  long long outer_shape[LT_MAX_DIMS], outer_src[LT_MAX_DIMS], outer_dst[LT_MAX_DIMS];
  long long slices, n, src_stride, dst_stride;
  const char *src;
  char *dst;
};

__device__ double block_reduce(double v, double *sh, bool is_max, bool f32) {
  sh[threadIdx.x] = v;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if ((int)threadIdx.x < w) {
      double a = sh[threadIdx.x], b = sh[threadIdx.x + w];
      sh[threadIdx.x] = is_max ? (isnan(a) ? a : (isnan(b) || b > a) ? b : a)
                               : (f32 ? (double)((float)a + (float)b) : a + b);
    }
    __syncthreads();
  }
  double r = sh[0];
  __syncthreads();
  return r;
}

__global__ void softmax_kernel(const __grid_constant__ softmax_params p) {
  __shared__ double sh[LT__CUDA_THREADS];
  long long es = dev_dtype_size(p.dtype);
  bool f32 = p.compute == LT_F32;
  for (long long o = blockIdx.x; o < p.slices; o += gridDim.x) {
    long long so = 0, dof = 0, rest = o;
    for (int d = p.n_outer - 1; d >= 0; d--) {
      long long i = rest % p.outer_shape[d];
      rest /= p.outer_shape[d];
      so += i * p.outer_src[d];
      dof += i * p.outer_dst[d];
    }
    const char *src = p.src + so * es;
    char *dst = p.dst + dof * es;
    double m = -INFINITY;
    for (long long j = threadIdx.x; j < p.n; j += blockDim.x) {
      dev_scalar v = dev_load(p.dtype, src + j * p.src_stride * es);
      double x = f32 ? (double)dev_as_f32(v) : dev_as_f64(v);
      if (x > m || isnan(x)) m = x;
    }
    m = block_reduce(m, sh, true, f32);
    double s = 0;
    for (long long j = threadIdx.x; j < p.n; j += blockDim.x) {
      dev_scalar v = dev_load(p.dtype, src + j * p.src_stride * es);
      double x = f32 ? (double)dev_as_f32(v) : dev_as_f64(v);
      s = f32 ? (double)((float)s + expf(dev_f64_to_f32(x - m))) : s + exp(x - m);
    }
    s = block_reduce(s, sh, false, f32);
    double log_s = log(s);
    for (long long j = threadIdx.x; j < p.n; j += blockDim.x) {
      dev_scalar v = dev_load(p.dtype, src + j * p.src_stride * es);
      double x = (f32 ? (double)dev_as_f32(v) : dev_as_f64(v)) - m;
      double y;
      if (f32) {
        float xf = dev_f64_to_f32(x);
        y = p.log ? (double)(xf - dev_f64_to_f32(log_s)) : (double)(expf(xf) / dev_f64_to_f32(s));
      } else {
        y = p.log ? x - log_s : exp(x) / s;
      }
      dev_store(p.dtype, dst + j * p.dst_stride * es, dev_scalar{false, y, 0}, LT_CAST_DEFAULT);
    }
  }
}

/* The entries' common frame: enter dst's device, run, leave. */
template <typename F>
lt_status on_device_of(const void *dst, const char *op, F body) {
  int prev;
  lt_status s = lt__cuda_enter_ptr(dst, &prev, op);
  if (s != LT_OK) return s;
  s = body();
  lt__cuda_leave(prev);
  return s;
}

} // namespace

extern "C" lt_status lt__cuda_reduce_dims(const lt__red_args *a) {
  static const fold_op ops[] = {F_SUM, F_MEAN, F_MAX, F_MIN, F_ARGMAX};
  return on_device_of(a->dst, "reduce", [&] {
    fold_params p = {};
    p.op = ops[a->op];
    p.compute = a->compute;
    p.src_dt = a->src_dtype;
    p.dst_dt = a->dst_dtype;
    p.src = a->src;
    p.dst = a->dst;
    p.count = 1;
    for (int d = a->n_keep; d < a->n_keep + a->n_red; d++) p.count *= a->shape[d];
    p.mean_in_f32 = a->compute == LT_F32;
    return run_fold(geom_of(a->n_keep, a->n_red, a->shape, a->src_strides), p, "reduce");
  });
}

/* lt_reduce's folds: floats in double, integers in int64, rounded once on
 * store (as the CPU's reduce.c). */
extern "C" lt_status lt__cuda_reduce(const lt__reduce_args *a) {
  return on_device_of(a->dst, "reduce", [&] {
    fold_params p = {};
    switch (a->op) {
    case LT_SUM: p.op = F_SUM; break;
    case LT_MEAN: p.op = F_MEAN; break;
    case LT_MAX: p.op = F_MAX; break;
    case LT_MIN: p.op = F_MIN; break;
    default: p.op = F_PROD; break;
    }
    p.compute = lt__dtype_is_float(a->dtype) ? LT_F64 : LT_I64;
    p.src_dt = p.dst_dt = a->dtype;
    p.src = a->src;
    p.dst = a->dst;
    p.count = 1;
    for (int d = a->n_keep; d < a->n_keep + a->n_red; d++) p.count *= a->shape[d];
    p.mean_in_f32 = false;
    return run_fold(geom_of(a->n_keep, a->n_red, a->shape, a->src_strides), p, "reduce");
  });
}

extern "C" lt_status lt__cuda_softmax(const lt__softmax_args *a) {
  return on_device_of(a->dst, a->log ? "log_softmax" : "softmax", [&] {
    softmax_params p = {};
    p.log = a->log;
    p.dtype = a->dtype;
    p.compute = a->compute;
    p.n_outer = a->n_outer;
    p.slices = 1;
    for (int d = 0; d < a->n_outer; d++) {
      p.outer_shape[d] = a->outer_shape[d];
      p.outer_src[d] = a->outer_src[d];
      p.outer_dst[d] = a->outer_dst[d];
      p.slices *= a->outer_shape[d];
    }
    p.n = a->n;
    p.src_stride = a->src_stride;
    p.dst_stride = a->dst_stride;
    p.src = a->src;
    p.dst = a->dst;
    if (p.slices == 0 || p.n == 0) return LT_OK;
    unsigned blocks = p.slices < (long long)LT__CUDA_MAX_BLOCKS ? (unsigned)p.slices : LT__CUDA_MAX_BLOCKS;
    softmax_kernel<<<blocks, LT__CUDA_THREADS>>>(p);
    cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? LT_OK : lt__cuda_fail(e, a->log ? "log_softmax" : "softmax", "kernel launch");
  });
}
