/* The CPU reduction kernel of lt_sum, lt_mean, lt_amax, lt_amin and
 * lt_argmax. Each output folds the reduced elements in the order of an
 * odometer over the reduced dims (densest innermost), a chunk at a time
 * (converted to the compute type, or read in place). Sums are blocked and
 * pairwise: each chunk is summed in eight lanes, and chunk sums merge like
 * a binary counter, so the error grows with log(n) and 2^24 F32 ones sum
 * to exactly 2^24. Many outputs split over the thread pool; a single large
 * one splits its reduced elements instead and merges the parts in order;
 * outputs whose own dim is the densest advance together (columns). */
#include <math.h>
#include <string.h>

#include "alloc.h"
#include "cpu_kernels.h"
#include "dtype.h"
#include "ew_ops.h"
#include "layout.h"
#include "pool.h"
#include "runs.h"

enum { CHUNK = LT__RUN_CHUNK, PARTS_MAX = 64 };

/* The state of one fold. Float sums sit in a cascade of partial sums
 * (level k holds about 2^k chunks); integers sum in uint64 (wrapping);
 * max/min/argmax keep the best value (floats as double, which holds every
 * float dtype exactly; integers as int64) and its flat index. */
typedef struct fold {
  double cascade[64];
  int level[64];
  int top;
  uint64_t isum;
  int64_t ibest;
  double best;
  int64_t best_at;
  bool seen, nan;
} fold;

typedef struct job {
  const lt__red_args *a;
  int64_t count;     /* reduced elements per output */
  int64_t parts;     /* > 1: one output, split into this many ranges */
  fold part[PARTS_MAX];
} job;

static double add_in(lt_dtype ct, double x, double y) { return ct == LT_F32 ? (double)((float)x + (float)y) : x + y; }

static void cascade_push(fold *f, lt_dtype ct, double v) {
  int t = f->top;
  f->cascade[t] = v;
  f->level[t] = 0;
  while (t > 0 && f->level[t - 1] == f->level[t]) {
    f->cascade[t - 1] = add_in(ct, f->cascade[t - 1], f->cascade[t]);
    f->level[t - 1]++;
    t--;
  }
  f->top = t + 1;
}

static double cascade_total(const fold *f, lt_dtype ct) {
  double s = 0;
  for (int t = f->top - 1; t >= 0; t--) s = add_in(ct, f->cascade[t], s);
  return s;
}

/* Folds value i of vals (n values of ct) for max, min or argmax; its
 * flat index is at. */
static void fold_best(fold *f, lt__red_op op, lt_dtype ct, const void *vals, int64_t i, int64_t at) {
  if (ct == LT_I64) {
    int64_t v = ((const int64_t *)vals)[i];
    if (!f->seen || (op == LT__RED_AMIN ? v < f->ibest : v > f->ibest)) {
      f->ibest = v;
      f->best_at = at;
      f->seen = true;
    }
    return;
  }
  if (f->nan) return;
  double v = ct == LT_F32 ? ((const float *)vals)[i] : ((const double *)vals)[i];
  bool better = op == LT__RED_AMIN ? v < f->best : v > f->best;
  if (!f->seen || better || isnan(v)) {
    f->best = v;
    f->best_at = at;
    f->seen = true;
    f->nan = isnan(v);
  }
}

static bool is_sum(lt__red_op op) { return op == LT__RED_SUM || op == LT__RED_MEAN; }

/* Folds n values of ct (in vals) whose first has flat index `at`. */
static void fold_chunk(fold *f, lt__red_op op, lt_dtype ct, const void *vals, int64_t n, int64_t at) {
  if (!is_sum(op)) {
    for (int64_t i = 0; i < n; i++) fold_best(f, op, ct, vals, i, at + i);
  } else if (ct == LT_I64) {
    for (int64_t i = 0; i < n; i++) f->isum += (uint64_t)((const int64_t *)vals)[i];
  } else {
    cascade_push(f, ct, ct == LT_F32 ? (double)lt__sum_f32(vals, n) : lt__sum_f64(vals, n));
  }
}

/* Folds reduced elements [begin, end) (flat, row-major over the reduced
 * dims) of the output whose reduced block starts at base. */
static void fold_range(const lt__red_args *a, const char *base, int64_t begin, int64_t end, fold *f) {
  const int64_t *shape = a->shape + a->n_keep, *strides = a->src_strides + a->n_keep;
  int inner = a->n_red - 1;
  int64_t n_in = shape[inner];
  _Alignas(64) char buf[CHUNK * 8];
  for (int64_t k = begin; k < end;) {
    int64_t rest = k, off = rest % n_in * strides[inner];
    int64_t take = n_in - rest % n_in;
    rest /= n_in;
    for (int d = inner - 1; d >= 0; d--) {
      off += rest % shape[d] * strides[d];
      rest /= shape[d];
    }
    if (take > end - k) take = end - k;
    if (take > CHUNK) take = CHUNK;
    lt__run r = lt__run_make(base + off * (int64_t)lt__dtype_size(a->src_dtype), strides[inner], a->src_dtype,
                             a->compute, false);
    fold_chunk(f, a->op, a->compute, lt__run_load(buf, a->compute, &r, take), take, k);
    k += take;
  }
}

/* Merges part b (which follows a in flat order) into a. */
static void merge(fold *a, const fold *b, lt__red_op op, lt_dtype ct) {
  if (is_sum(op)) {
    a->isum += b->isum;
    double s = cascade_total(b, ct);
    if (b->top > 0) cascade_push(a, ct, s);
    return;
  }
  if (!b->seen || a->nan) return;
  bool better = ct == LT_I64 ? (op == LT__RED_AMIN ? b->ibest < a->ibest : b->ibest > a->ibest)
                             : (op == LT__RED_AMIN ? b->best < a->best : b->best > a->best);
  if (!a->seen || better || b->nan) *a = *b;
}

static void store_result(const lt__red_args *a, const fold *f, int64_t count, char *dst) {
  lt__scalar v = {.is_int = a->compute == LT_I64};
  switch (a->op) {
  case LT__RED_SUM:
    if (v.is_int) v.i = (int64_t)f->isum;
    else v.f = cascade_total(f, a->compute);
    break;
  case LT__RED_MEAN: v.f = cascade_total(f, a->compute) / (double)count; break;
  case LT__RED_ARGMAX: v = (lt__scalar){.is_int = true, .i = f->best_at}; break;
  default:
    if (v.is_int) v.i = f->ibest;
    else v.f = f->best;
    break;
  }
  if (a->op == LT__RED_MEAN && a->compute == LT_F32) v.f = (float)v.f;
  lt__scalar_store(a->dst_dtype, dst, v, LT_CAST_DEFAULT);
}

/* The start of output o's reduced block (o decoded over the kept dims). */
static const char *output_base(const lt__red_args *a, int64_t o) {
  int64_t off = 0;
  for (int d = a->n_keep - 1; d >= 0; d--) {
    off += o % a->shape[d] * a->src_strides[d];
    o /= a->shape[d];
  }
  return a->src + off * (int64_t)lt__dtype_size(a->src_dtype);
}

static void outputs(void *ctx, int64_t begin, int64_t end) {
  const job *j = ctx;
  size_t des = lt__dtype_size(j->a->dst_dtype);
  for (int64_t o = begin; o < end; o++) {
    fold f = {.top = 0};
    fold_range(j->a, output_base(j->a, o), 0, j->count, &f);
    store_result(j->a, &f, j->count, j->a->dst + o * (int64_t)des);
  }
}

static void parts(void *ctx, int64_t begin, int64_t end) {
  job *j = ctx;
  for (int64_t p = begin; p < end; p++) {
    memset(&j->part[p], 0, sizeof j->part[p]);
    fold_range(j->a, j->a->src, j->count * p / j->parts, j->count * (p + 1) / j->parts, &j->part[p]);
  }
}

/* ---- columns: the innermost kept dim is the densest ----
 * Reducing over outer dims (a column sum of a row-major matrix) one output
 * at a time would stream the whole input once per output. Instead a block
 * of up to COLS outputs along the innermost kept dim advances together
 * through the reduced elements, one dense row segment at a time; sums add
 * BLOCK rows lane by lane and push each block's lane sums into the lane's
 * cascade. */
enum { COLS = 256, BLOCK = 64 };

static bool columns_fit(const lt__red_args *a) {
  if (a->n_keep == 0) return false;
  uint64_t m = lt__stride_mag(a->src_strides[a->n_keep - 1]);
  for (int d = a->n_keep; d < a->n_keep + a->n_red; d++) {
    if (a->shape[d] > 1 && lt__stride_mag(a->src_strides[d]) <= m) return false;
  }
  return true;
}

/* Moves a block's lane sums into the lanes' folds and clears them. */
static void flush_lanes(fold *lanes, lt_dtype ct, void *acc, int64_t w) {
  for (int64_t i = 0; i < w; i++) {
    if (ct == LT_I64) lanes[i].isum += (uint64_t)((int64_t *)acc)[i];
    else cascade_push(&lanes[i], ct, ct == LT_F32 ? (double)((float *)acc)[i] : ((double *)acc)[i]);
  }
  memset(acc, 0, (size_t)w * 8);
}

/* Outputs [o * K + j0, + w) of a column job: lanes holds w folds. */
static void column_block(const job *j, fold *lanes, int64_t o, int64_t j0, int64_t w) {
  const lt__red_args *a = j->a;
  int nk = a->n_keep, inner = nk + a->n_red - 1;
  int64_t K = a->shape[nk - 1], es = (int64_t)lt__dtype_size(a->src_dtype);
  const char *base = output_base(a, o * K + j0);
  _Alignas(64) char buf[COLS * 8], acc[COLS * 8];
  memset(lanes, 0, sizeof(fold) * (size_t)w);
  memset(acc, 0, sizeof acc);
  int64_t idx[LT_MAX_DIMS] = {0}, off = 0;
  for (int64_t r = 0; r < j->count; r++) {
    lt__run run = lt__run_make(base + off * es, a->src_strides[nk - 1], a->src_dtype, a->compute, false);
    const void *v = lt__run_load(buf, a->compute, &run, w);
    if (is_sum(a->op)) {
      lt__ew_apply(LT__EW_ADD, a->compute, acc, acc, false, v, false, w); /* lane by lane, vectorised */
      if (r % BLOCK == BLOCK - 1) flush_lanes(lanes, a->compute, acc, w);
    } else {
      for (int64_t i = 0; i < w; i++) fold_best(&lanes[i], a->op, a->compute, v, i, r);
    }
    for (int d = inner; d >= nk; d--) { /* the next reduced element */
      off += a->src_strides[d];
      if (++idx[d - nk] < a->shape[d]) break;
      off -= a->src_strides[d] * a->shape[d];
      idx[d - nk] = 0;
    }
  }
  if (is_sum(a->op)) flush_lanes(lanes, a->compute, acc, w);
  size_t des = lt__dtype_size(a->dst_dtype);
  for (int64_t i = 0; i < w; i++) store_result(a, &lanes[i], j->count, a->dst + (o * K + j0 + i) * (int64_t)des);
}

static void columns(void *ctx, int64_t begin, int64_t end) {
  const job *j = ctx;
  int64_t K = j->a->shape[j->a->n_keep - 1], blocks = (K + COLS - 1) / COLS;
  fold *lanes = lt__alloc(sizeof(fold) * COLS, 64);
  for (int64_t u = begin; u < end; u++) {
    int64_t o = u / blocks, j0 = u % blocks * COLS, w = K - j0 < COLS ? K - j0 : COLS;
    if (lanes) {
      column_block(j, lanes, o, j0, w);
      continue;
    }
    outputs((void *)j, o * K + j0, o * K + j0 + w); /* no memory for lanes: one output at a time */
  }
  if (lanes) lt__free(lanes, sizeof(fold) * COLS, 64);
}

lt_status lt__cpu_reduce_dims(const lt__red_args *a) {
  job j = {.a = a, .count = 1};
  int64_t outs = 1;
  for (int d = 0; d < a->n_keep; d++) outs *= a->shape[d];
  for (int d = a->n_keep; d < a->n_keep + a->n_red; d++) j.count *= a->shape[d];
  int64_t work = outs * j.count * (int64_t)lt__dtype_size(a->src_dtype);
  if (columns_fit(a) && j.count > 1) {
    int64_t K = a->shape[a->n_keep - 1];
    lt__parallel_for(outs / K * ((K + COLS - 1) / COLS), work, columns, &j);
    return LT_OK;
  }
  if (outs > 1 || j.count < CHUNK * 8) {
    lt__parallel_for(outs, work, outputs, &j);
    return LT_OK;
  }
  /* One output: split its elements into ordered parts, merged left to right. */
  j.parts = j.count / (CHUNK * 8) < PARTS_MAX ? j.count / (CHUNK * 8) : PARTS_MAX;
  lt__parallel_for(j.parts, work, parts, &j);
  for (int64_t p = 1; p < j.parts; p++) merge(&j.part[0], &j.part[p], a->op, a->compute);
  store_result(a, &j.part[0], j.count, a->dst);
  return LT_OK;
}
