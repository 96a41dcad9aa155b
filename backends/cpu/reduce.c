/* The CPU reduction kernel: for each output element (an odometer over the
 * kept dims) fold the reduced dims. Floats accumulate in double and round
 * once on store; integers accumulate in int64 with two's-complement wrap.
 * NaN propagates through max and min, as in NumPy. */
#include <math.h>
#include <string.h>

#include "cpu_kernels.h"
#include "dtype.h"
#include "libtensor/rearrange.h"

typedef struct acc {
  double f;
  uint64_t i;       /* unsigned, so that wrapping is defined */
  bool started;
} acc;

static void fold(acc *a, lt__scalar v, int op, bool is_int) {
  if (is_int) {
    uint64_t x = (uint64_t)v.i;
    int64_t cur = (int64_t)a->i;
    switch (op) {
    case LT_SUM: case LT_MEAN: a->i += x; break;
    case LT_PROD: a->i *= x; break;
    case LT_MAX: if (!a->started || v.i > cur) a->i = x; break;
    default: if (!a->started || v.i < cur) a->i = x; break;
    }
  } else {
    switch (op) {
    case LT_SUM: case LT_MEAN: a->f += v.f; break;
    case LT_PROD: a->f *= v.f; break;
    default: {
      bool better = op == LT_MAX ? v.f > a->f : v.f < a->f;
      if (!a->started || isnan(v.f) || (better && !isnan(a->f))) a->f = v.f;
      break;
    }
    }
  }
  a->started = true;
}

/* Folds every element of the reduced dims starting at src. */
static acc reduce_one(const lt__reduce_args *a, const char *src, size_t es, int64_t count, bool is_int) {
  acc r = {.f = a->op == LT_PROD ? 1.0 : 0.0, .i = a->op == LT_PROD ? 1u : 0u};
  const int64_t *shape = a->shape + a->n_keep, *strides = a->src_strides + a->n_keep;
  int64_t idx[LT_MAX_DIMS] = {0}, off = 0;
  for (int64_t k = 0; k < count; k++) {
    fold(&r, lt__scalar_load(a->dtype, src + off * (int64_t)es), a->op, is_int);
    for (int d = a->n_red - 1; d >= 0; d--) {
      off += strides[d];
      if (++idx[d] < shape[d]) break;
      off -= strides[d] * shape[d];
      idx[d] = 0;
    }
  }
  return r;
}

lt_status lt__cpu_reduce(const lt__reduce_args *a) {
  size_t es = lt__dtype_size(a->dtype);
  bool is_int = !lt__dtype_is_float(a->dtype);
  int64_t count = 1, outs = 1;
  for (int d = 0; d < a->n_red; d++) count *= a->shape[a->n_keep + d];
  for (int d = 0; d < a->n_keep; d++) outs *= a->shape[d];
  int64_t idx[LT_MAX_DIMS] = {0}, off = 0;
  for (int64_t o = 0; o < outs; o++) {
    acc r = reduce_one(a, a->src + off * (int64_t)es, es, count, is_int);
    lt__scalar v = {.is_int = is_int, .f = r.f, .i = (int64_t)r.i};
    if (a->op == LT_MEAN) v.f = r.f / (double)count;
    lt__scalar_store(a->dtype, a->dst + o * (int64_t)es, v, LT_CAST_DEFAULT);
    for (int d = a->n_keep - 1; d >= 0; d--) {
      off += a->src_strides[d];
      if (++idx[d] < a->shape[d]) break;
      off -= a->src_strides[d] * a->shape[d];
      idx[d] = 0;
    }
  }
  return LT_OK;
}
