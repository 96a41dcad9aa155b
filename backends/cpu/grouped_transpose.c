/* A transpose whose destination's innermost dim is short: BHTD permuted
 * to (3,2,1,0), say, where the destination's inner dim is B = 4. Taken
 * one dim pair at a time, each call moves 4 x 64 elements and writes
 * 16-byte pieces a whole destination row apart (35% of memcpy). But the
 * destination's inner dims (H, B) are dense together: seen as rows of one
 * 2-D transpose (rows (h, b), columns d), each destination row d holds
 * H * B contiguous elements. Those rows are not evenly spaced in the
 * source (b is the outer of the two there), so they are first gathered,
 * each a contiguous run of the source, into a buffer in L1; the tile
 * kernels then transpose the buffer into whole destination lines. */
#include "grouped_transpose.h"

#include <string.h>

#include "dtype.h"
#include "odometer.h"
#include "pool.h"
#include "stream.h"
#include "transpose.h"

/* The buffer holds rows x chunk elements; a group has at most
 * GROUP_MAX_ROWS rows, so that a tile's width of columns always fits. */
enum { BUF_BYTES = 32768, GROUP_MAX_ROWS = 512 };

/* The group's rows are as many streams through the source, more than the
 * hardware prefetcher follows: each gather asks for the rows of the group
 * call this many on into L2. BHTD (3,2,1,0) F32 at 512 MiB: 68% of memcpy
 * without, 72-75% with 1, 2 or 4. */
enum { GROUP_AHEAD = 2 };

/* Each destination row should get whole 128-byte pairs of lines per call:
 * streaming 3 lines (192 bytes) to each of 64 rows 8 MiB apart in turn
 * runs at 19 GB/s, 2 or 4 lines at 25. */
enum { PAIR_BYTES = 128 };

typedef struct group_plan {
  const lt__copy_args *a;
  int k, first;   /* the source's unit dim; the group's outermost dim */
  int outer;      /* the dim just outside the group, taken q indices per call; -1: none */
  int64_t rows;   /* elements of the group: the 2-D transpose's rows */
  int64_t q;      /* indices of dim outer per call (1 without one) */
  int64_t chunk;  /* columns gathered at a time */
  int64_t ahead;  /* bytes from one call's source to that of GROUP_AHEAD calls on */
  size_t es;
  lt__transpose_fn fn;
  int64_t row_at[GROUP_MAX_ROWS]; /* bytes from a call's first source element to each of its rows' */
} group_plan;

/* The group: the innermost dims, outward from the last, over which the
 * destination is dense, until they hold a tile's side of rows (t). -1
 * where there is none: the inner dim is a tile or more already (the tile
 * kernels take it as it is), or the destination is not dense that far. */
static int group_first(const lt__copy_args *a, int64_t t, int64_t *rows) {
  int in = a->ndim - 1, k = a->transpose_dim;
  if (a->shape[in] >= t) return -1;
  int64_t p = 1;
  for (int j = in; j > k; j--) {
    if (a->dst_strides[j] != p) return -1;
    p *= a->shape[j];
    if (p > GROUP_MAX_ROWS) return -1;
    if (p >= t) {
      *rows = p;
      return j;
    }
  }
  return -1;
}

/* Where the dim just outside the group continues the destination's
 * dense run (and is not k), a call takes q of its indices: the fewest
 * that fill whole pairs of lines, within GROUP_MAX_ROWS rows. */
static void take_outer(group_plan *g) {
  const lt__copy_args *a = g->a;
  int o = g->first - 1;
  g->outer = -1, g->q = 1;
  if (o < 0 || o == g->k || a->dst_strides[o] != g->rows) return;
  g->outer = o;
  int64_t q = 1;
  while (g->rows * q * (int64_t)g->es % PAIR_BYTES != 0 && 2 * q * g->rows <= GROUP_MAX_ROWS) q *= 2;
  g->q = g->rows * q * (int64_t)g->es % PAIR_BYTES == 0 ? q : 1;
}

/* Every row's source offset: an odometer over the group's dims, then the
 * same rows again for each further index of dim outer. */
static void fill_row_offsets(group_plan *g) {
  const lt__copy_args *a = g->a;
  int64_t idx[LT_MAX_DIMS] = {0}, off = 0;
  for (int64_t r = 0; r < g->rows; r++) {
    g->row_at[r] = off;
    for (int d = a->ndim - 1; d >= g->first; d--) {
      off += a->src_strides[d] * (int64_t)g->es;
      if (++idx[d] < a->shape[d]) break;
      off -= a->src_strides[d] * (int64_t)g->es * a->shape[d];
      idx[d] = 0;
    }
  }
  for (int64_t i = 1; i < g->q; i++)
    for (int64_t r = 0; r < g->rows; r++)
      g->row_at[i * g->rows + r] = g->row_at[r] + i * a->src_strides[g->outer] * (int64_t)g->es;
}

/* Columns [c0, c1) of dim k for the first `rows` rows of a call: gathered
 * a chunk at a time, then transposed into the destination. */
static void group_cols(const group_plan *g, char *dst, const char *src, int64_t rows, int64_t c0, int64_t c1) {
  _Alignas(64) char buf[BUF_BYTES];
  const lt__copy_args *a = g->a;
  int64_t es = (int64_t)g->es, dld = a->dst_strides[g->k];
  for (int64_t c = c0; c < c1; c += g->chunk) {
    int64_t w = c1 - c < g->chunk ? c1 - c : g->chunk;
    for (int64_t r = 0; r < rows; r++) {
      lt__prefetch_l2(src + g->ahead + g->row_at[r] + c * es, w * es);
      memcpy(buf + r * w * es, src + g->row_at[r] + c * es, (size_t)(w * es));
    }
    g->fn(dst + c * dld * es, dld, buf, w, rows, w);
  }
}

/* One thread's columns [c0, c1) of dim k, for every index of the dims
 * outside the group and k: dim outer q indices per call, the others by
 * the odometer. */
static void group_range(void *ctx, int64_t c0, int64_t c1) {
  const group_plan *g = ctx;
  const lt__copy_args *a = g->a;
  int64_t es = (int64_t)g->es, n = g->outer >= 0 ? a->shape[g->outer] : 1;
  int64_t dst_step = g->outer >= 0 ? a->dst_strides[g->outer] * es : 0;
  int64_t src_step = g->outer >= 0 ? a->src_strides[g->outer] * es : 0;
  lt__odometer o = {.dst_off = 0};
  do
    for (int64_t i = 0; i < n; i += g->q)
      group_cols(g, a->dst + o.dst_off + i * dst_step, a->src + o.src_off + i * src_step,
                 (n - i < g->q ? n - i : g->q) * g->rows, c0, c1);
  while (lt__odometer_step(&o, a, g->outer >= 0 ? g->outer : g->first, g->k, es, es));
}

/* Bytes from one call's source to the next's: along dim outer, or the
 * innermost of the odometer's dims. */
static int64_t call_step(const group_plan *g) {
  if (g->outer >= 0) return g->q * g->a->src_strides[g->outer] * (int64_t)g->es;
  for (int d = g->first - 1; d >= 0; d--)
    if (d != g->k) return g->a->src_strides[d] * (int64_t)g->es;
  return 0;
}

bool lt__grouped_transpose(const lt__copy_args *a) {
  size_t es = lt__dtype_size(a->dst_dtype);
  group_plan g = {.a = a, .k = a->transpose_dim, .es = es};
  int64_t t = 64 / (int64_t)es, numel = 1;
  g.first = group_first(a, t, &g.rows);
  if (g.first < 0) return false;
  for (int d = 0; d < a->ndim; d++) numel *= a->shape[d];
  take_outer(&g);
  /* As many whole tiles of columns as the buffer holds. */
  g.chunk = BUF_BYTES / (g.q * g.rows * (int64_t)es) / t * t;
  /* The calls' outputs are small, but together they outgrow the caches. */
  g.fn = numel * (int64_t)es >= LT__STREAM_MIN_BYTES ? lt__transpose_best_streamed(es) : lt__transpose_best(es);
  fill_row_offsets(&g);
  g.ahead = GROUP_AHEAD * call_step(&g);
  lt__parallel_for(a->shape[g.k], numel * (int64_t)es * 2, group_range, &g);
  return true;
}
