/* The CPU softmax and log-softmax kernel: per slice along the dim, three
 * passes over the input (max; sum of exp(x - max); the outputs), each a
 * chunk at a time in the compute type, so that no slice length needs a
 * buffer and exp never overflows. Slices split over the thread pool. */
#include <math.h>

#include "cpu_kernels.h"
#include "dtype.h"
#include "pool.h"
#include "runs.h"

enum { CHUNK = LT__RUN_CHUNK };

static double value(lt_dtype ct, const void *v, int64_t i) {
  return ct == LT_F32 ? ((const float *)v)[i] : ((const double *)v)[i];
}

static void set(lt_dtype ct, void *v, int64_t i, double x) {
  if (ct == LT_F32)
    ((float *)v)[i] = (float)x;
  else
    ((double *)v)[i] = x;
}

/* The max of the slice (NaN if any element is NaN). */
static double slice_max(const lt__softmax_args *a, lt__run r) {
  _Alignas(64) char buf[CHUNK * 8];
  double m = -INFINITY;
  for (int64_t i = 0; i < a->n; i += CHUNK) {
    int64_t k = a->n - i < CHUNK ? a->n - i : CHUNK;
    const void *v = lt__run_load(buf, a->compute, &r, k);
    for (int64_t j = 0; j < k; j++) {
      double x = value(a->compute, v, j);
      if (x > m || isnan(x)) m = x;
    }
    lt__run_skip(&r, k);
  }
  return m;
}

/* The sum of exp(x - m) over the slice, in the compute type. */
static double slice_sum_exp(const lt__softmax_args *a, lt__run r, double m) {
  _Alignas(64) char buf[CHUNK * 8];
  double s = 0;
  for (int64_t i = 0; i < a->n; i += CHUNK) {
    int64_t k = a->n - i < CHUNK ? a->n - i : CHUNK;
    const void *v = lt__run_load(buf, a->compute, &r, k);
    for (int64_t j = 0; j < k; j++) {
      double x = value(a->compute, v, j);
      s = a->compute == LT_F32 ? (double)((float)s + expf((float)(x - m))) : s + exp(x - m);
    }
    lt__run_skip(&r, k);
  }
  return s;
}

static void slice(const lt__softmax_args *a, const char *src, char *dst) {
  lt__run in = lt__run_make(src, a->src_stride, a->dtype, a->compute, false);
  lt__run out = lt__run_make(dst, a->dst_stride, a->dtype, a->compute, true);
  double m = slice_max(a, in), s = slice_sum_exp(a, in, m), log_s = log(s);
  bool f32 = a->compute == LT_F32;
  _Alignas(64) char buf[CHUNK * 8], res[CHUNK * 8];
  for (int64_t i = 0; i < a->n; i += CHUNK) {
    int64_t k = a->n - i < CHUNK ? a->n - i : CHUNK;
    const void *v = lt__run_load(buf, a->compute, &in, k);
    for (int64_t j = 0; j < k; j++) {
      double x = value(a->compute, v, j) - m;
      double y = a->log ? (f32 ? (float)((float)x - (float)log_s) : x - log_s)
                        : (f32 ? expf((float)x) / (float)s : exp(x) / s);
      set(a->compute, res, j, y);
    }
    lt__run_store(&out, a->compute, res, k, false);
    lt__run_skip(&in, k);
    lt__run_skip(&out, k);
  }
}

static void slices(void *ctx, int64_t begin, int64_t end) {
  const lt__softmax_args *a = ctx;
  int64_t es = (int64_t)lt__dtype_size(a->dtype);
  for (int64_t o = begin; o < end; o++) {
    int64_t rest = o, so = 0, d_off = 0;
    for (int d = a->n_outer - 1; d >= 0; d--) {
      so += rest % a->outer_shape[d] * a->outer_src[d];
      d_off += rest % a->outer_shape[d] * a->outer_dst[d];
      rest /= a->outer_shape[d];
    }
    slice(a, a->src + so * es, a->dst + d_off * es);
  }
}

lt_status lt__cpu_softmax(const lt__softmax_args *a) {
  int64_t outer = 1;
  for (int d = 0; d < a->n_outer; d++) outer *= a->outer_shape[d];
  lt__parallel_for(outer, outer * a->n * 3 * (int64_t)lt__dtype_size(a->dtype), slices, (void *)a);
  return LT_OK;
}
