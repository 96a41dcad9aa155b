/* The CPU elementwise kernel. The core has planned the loops (dims in
 * dst's order, merged): an outer odometer walks rows of the innermost dim,
 * and each row is done in chunks that fit in L1: inputs converted to the
 * compute type (or read in place when they already are it, densely), the
 * op applied by a tight loop the compiler vectorises, the result stored
 * (or written in place). A transposed input is read in 2-D tiles through
 * the transpose kernels so that every cache line it touches is used.
 * Large ops are split over the library's thread pool. */
#include <string.h>

#include "alloc.h"
#include "cpu_kernels.h"
#include "dtype.h"
#include "ew_ops.h"
#include "pool.h"
#include "runs.h"
#include "transpose.h"

/* A transposed input is staged a band of BAND_ROWS output rows at a time,
 * as wide as the rows up to BAND_MAX_ROW_BYTES of the input's elements
 * (8192 F32; a stage of about 2 MiB, from the allocator once per range of
 * work). Whole rows keep the other operands' reads and dst's writes
 * sequential, and 64 rows give the tiled input runs of 256 bytes, read
 * ahead (see PREFETCH_MAX_RUN). An add with one transposed input at 256
 * MiB, side 8192, Zen 5, same-run ratio to memcpy: 0.53-0.56 with the
 * earlier bands of 256 columns by 240 rows; full rows by 24 rows
 * 0.50-0.56, 32 rows 0.61-0.72, 48 rows 0.67-0.70, 64 rows 0.71-0.79
 * (0.79-0.80 once the other operands were no longer read ahead, below),
 * 128 rows 0.50-0.60; 4096 columns by 64 rows 0.59-0.63. Rows not
 * starting a cache line (side 8079): 0.39-0.44 before, 0.68-0.75 now. */
enum { BAND_ROWS = 64, BAND_MAX_ROW_BYTES = 32768 };
/* The stage's rows are padded by one line: a leading dimension of a
 * multiple of 4 KiB would put a tile's rows in one L1 set. */
enum { STAGE_PAD = 64 };
/* The tiled input is transposed into the stage STRIP of its rows at a
 * time (each read for the band's height, one page visit per row), with
 * the lines of the strip PREFETCH_STRIPS ahead asked for into L2 first
 * when its runs are shorter than PREFETCH_MAX_RUN bytes: its rows are far
 * apart, and a few lines per row are too few for the hardware prefetcher
 * to follow. Longer runs it follows itself, and the prefetch instructions
 * would only hold the fill buffers (the earlier bands of 240 rows, side
 * 8192, runs of 960 bytes: 58-60% of memcpy with them, 63-65% without;
 * side 8095, 252 bytes: 39% with, 35-37% without). The other operands' rows,
 * whole rows in sequence, are left to the hardware prefetcher: asking
 * for them two rows ahead measured 0.73 of memcpy against 0.79-0.80
 * without (side 8192; side 8079 0.70-0.73 against 0.68-0.75). */
enum { STRIP = 16, PREFETCH_STRIPS = 2, PREFETCH_MAX_RUN = 512 };
enum { CHUNK = LT__RUN_CHUNK };

typedef struct plan {
  const lt__ew_args *a;
  lt__run op[3];   /* dst, in0, in1 */
  bool stream;     /* dst is dense and too large to keep cached: stream it */
  bool read_ahead[3]; /* inputs (1, 2) too large to stay cached: read them ahead */
  int64_t band_cols, stage_ld; /* the stage of a transposed input (BAND_ROWS rows) */
} plan;

/* ---- one row ---- */

/* Streamed output in pieces of this many elements: reads and streaming
 * writes interleave best (an add at 256 MiB: 18.7 GB/s at 256, 16.5 at
 * 1024, same run). */
enum { STREAM_PIECE = 256 };

/* The common case: every operand already of the compute type, inputs
 * dense or broadcast, dst dense; no conversion, no staging of inputs. */
static bool plain_row(const plan *p, const lt__run *o) {
  const lt__ew_args *a = p->a;
  if (o[0].dt != a->compute || o[0].stride != 1 || a->result != a->compute) return false;
  for (int j = 1; j <= a->ninputs; j++)
    if (o[j].dt != a->compute || (o[j].stride != 1 && o[j].stride != 0)) return false;
  return true;
}

static void do_plain_row(const plan *p, const lt__run *o, int64_t n) {
  const lt__ew_args *a = p->a;
  int64_t es = (int64_t)o[0].es;
  bool s0 = o[1].stride == 0, s1 = a->ninputs == 2 && o[2].stride == 0;
  const char *x0 = o[1].p, *x1 = a->ninputs == 2 ? o[2].p : NULL;
  char *y = (char *)o[0].p;
  if (!p->stream) {
    lt__ew_apply(a->op, a->compute, y, x0, s0, x1, s1, n);
    return;
  }
  _Alignas(64) char out[STREAM_PIECE * 8];
  /* The first piece ends where dst's lines begin, so that only the row's
   * first and last lines are partial (each partial line is a plain store,
   * which reads the line first). */
  int64_t head = (int64_t)((64 - (uintptr_t)y % 64) % 64) / es;
  for (int64_t i = 0, k; i < n; i += k) {
    k = i == 0 && head ? head : STREAM_PIECE;
    if (k > n - i) k = n - i;
    /* Read ahead (LT__READ_AHEAD); a tiled op's rows read ahead by rows. */
    if (!a->tiled && !s0 && p->read_ahead[1]) lt__prefetch_l2(x0 + (i * es + LT__READ_AHEAD), k * es);
    if (!a->tiled && x1 && !s1 && p->read_ahead[2]) lt__prefetch_l2(x1 + (i * es + LT__READ_AHEAD), k * es);
    lt__ew_apply(a->op, a->compute, out, s0 ? x0 : x0 + i * es, s0, s1 || !x1 ? x1 : x1 + i * es, s1, k);
    lt__stream_copy(y + i * es, out, (size_t)(k * es));
  }
}

/* Applies the op to n elements of the lt__runs (each at its start and
 * stride), CHUNK at a time. */
static void do_row(const plan *p, const lt__run *ops, int64_t n) {
  const lt__ew_args *a = p->a;
  lt_dtype ct = a->compute;
  if (plain_row(p, ops)) {
    do_plain_row(p, ops, n);
    return;
  }
  _Alignas(64) char in[2][CHUNK * 8], out[CHUNK * 8];
  lt__run o[3];
  memcpy(o, ops, sizeof o);
  for (int64_t i = 0; i < n; i += CHUNK) {
    int64_t k = n - i < CHUNK ? n - i : CHUNK;
    const void *x[2] = {NULL, NULL};
    bool scalar[2] = {false, false};
    for (int j = 0; j < a->ninputs; j++) {
      scalar[j] = o[j + 1].stride == 0;
      x[j] = lt__run_load(in[j], ct, &o[j + 1], scalar[j] ? 1 : k);
    }
    void *y = o[0].dt == ct && o[0].stride == 1 && !p->stream ? (void *)o[0].p : out;
    lt__ew_apply(a->op, ct, y, x[0], scalar[0], x[1], scalar[1], k);
    if (a->result != ct && a->result != o[0].dt) { /* into the result's dtype first (a wrap or a rounding), then dst's */
      char *r = in[0]; /* the inputs are consumed: reuse their buffer */
      lt__run stage = lt__run_make(r, 1, a->result, ct, true);
      lt__run_store(&stage, ct, y, k, false);
      stage = lt__run_make(r, 1, a->result, ct, false);
      y = (void *)lt__run_load(out, ct, &stage, k);
    }
    lt__run_store(&o[0], ct, y, k, p->stream);
    for (int j = 0; j < 3; j++) lt__run_skip(&o[j], k);
  }
}

/* The lt__runs at the start of outer index `row` (an odometer position
 * over dims 0..nouter-1, decoded from the flat index). */
static void runs_at(const plan *p, int nouter, int64_t row, lt__run *o) {
  const lt__ew_args *a = p->a;
  memcpy(o, p->op, sizeof(lt__run) * 3);
  for (int d = nouter - 1; d >= 0; d--) {
    int64_t i = row % a->shape[d];
    row /= a->shape[d];
    for (int j = 0; j < 3; j++) o[j].p += i * a->strides[j][d] * (int64_t)o[j].es;
  }
}

static void rows_plain(void *ctx, int64_t begin, int64_t end) {
  const plan *p = ctx;
  const lt__ew_args *a = p->a;
  int inner = a->ndim - 1;
  for (int64_t r = begin; r < end; r++) {
    lt__run o[3];
    runs_at(p, inner, r, o);
    for (int j = 0; j < 3; j++) o[j].stride = a->strides[j][inner];
    do_row(p, o, a->shape[inner]);
  }
  if (p->stream) lt__stream_fence();
}

/* ---- tiles for a transposed input ---- */

/* One band (or less): rows r0.. of dim ndim-2, cols c0.. of the innermost
 * dim. The tiled input is transposed into the dense stage first. */
static void do_tile(const plan *p, const lt__run *base, char *stage, int64_t r0, int64_t nr, int64_t c0,
                    int64_t nc) {
  const lt__ew_args *a = p->a;
  int t = a->tiled, rd = a->ndim - 2, cd = a->ndim - 1;
  const lt__run *x = &base[t];
  /* stage[r][c] = x[r, c]; x has unit stride along r, stride sc along c. */
  const char *x0 = x->p + (r0 + c0 * a->strides[t][cd]) * (int64_t)x->es;
  int64_t sx = a->strides[t][cd] * (int64_t)x->es, es = (int64_t)x->es;
  lt__transpose_fn tr = lt__transpose_best(x->es);
  for (int64_t c = 0; c < nc; c += STRIP) {
    const char *ahead = x0 + (c + PREFETCH_STRIPS * STRIP) * sx;
    if (nr * es < PREFETCH_MAX_RUN)
      for (int64_t i = 0; i < STRIP; i++) lt__prefetch_l2(ahead + i * sx, nr * es);
    tr(stage + c * es, p->stage_ld, x0 + c * sx, a->strides[t][cd], nc - c < STRIP ? nc - c : STRIP, nr);
  }
  for (int64_t r = 0; r < nr; r++) {
    lt__run o[3];
    memcpy(o, base, sizeof o);
    for (int j = 0; j < 3; j++) {
      o[j].p += ((r0 + r) * a->strides[j][rd] + c0 * a->strides[j][cd]) * (int64_t)o[j].es;
      o[j].stride = a->strides[j][cd];
    }
    o[t].p = stage + r * p->stage_ld * (int64_t)x->es;
    o[t].stride = 1;
    do_row(p, o, nc);
  }
}

/* Rows r0 .. r0+nr-1 of dim ndim-2 (operands at base), untiled. */
static void plain_rows(const plan *p, const lt__run *base, int64_t r0, int64_t nr) {
  const lt__ew_args *a = p->a;
  int rd = a->ndim - 2, cd = a->ndim - 1;
  for (int64_t r = r0; r < r0 + nr; r++) {
    lt__run o[3];
    memcpy(o, base, sizeof o);
    for (int j = 0; j < 3; j++) {
      o[j].p += r * a->strides[j][rd] * (int64_t)o[j].es;
      o[j].stride = a->strides[j][cd];
    }
    do_row(p, o, a->shape[cd]);
  }
}

static void rows_tiled(void *ctx, int64_t begin, int64_t end) {
  const plan *p = ctx;
  const lt__ew_args *a = p->a;
  int64_t nrows = a->shape[a->ndim - 2], ncols = a->shape[a->ndim - 1];
  int64_t rows = BAND_ROWS, cols = p->band_cols, blocks = (nrows + rows - 1) / rows;
  size_t stage_bytes = (size_t)(rows * p->stage_ld) * p->op[a->tiled].es;
  char *stage = lt__alloc(stage_bytes, 64);
  for (int64_t u = begin; u < end; u++) {
    lt__run o[3];
    runs_at(p, a->ndim - 2, u / blocks, o);
    int64_t r0 = u % blocks * rows, nr = nrows - r0 < rows ? nrows - r0 : rows;
    if (!stage) { /* no memory for the stage: the same rows, read in place (slower, never wrong) */
      plain_rows(p, o, r0, nr);
      continue;
    }
    for (int64_t c0 = 0; c0 < ncols; c0 += cols)
      do_tile(p, o, stage, r0, nr, c0, ncols - c0 < cols ? ncols - c0 : cols);
  }
  if (p->stream) lt__stream_fence();
  if (stage) lt__free(stage, stage_bytes, 64);
}

/* ---- entry ---- */

/* Inputs are read ahead only where they outgrow the caches
 * (lt__outgrows_cache). A broadcast row, read again for every row of the
 * output, stays in L1 or L2: asking for it ahead adds instructions for
 * lines already there and, at each row's end, for lines past it. An add with a
 * broadcast row at 256 MiB, 14 runs in turn with and without: median
 * 0.77 of memcpy with (0.64-0.92), 0.86 without (0.70-0.95). */
lt_status lt__cpu_elementwise(const lt__ew_args *a) {
  plan p = {.a = a};
  p.op[0] = lt__run_make(a->dst, 1, a->dst_dtype, a->compute, true);
  for (int j = 0; j < 2; j++)
    p.op[j + 1] = lt__run_make(j < a->ninputs ? a->src[j] : NULL, 1, j < a->ninputs ? a->src_dtype[j] : LT_F32,
                               a->compute, false);
  if (a->ndim == 0) { /* one element */
    do_row(&p, p.op, 1);
    return LT_OK;
  }
  int64_t outer = 1, bytes = 0;
  int lead = a->tiled ? a->ndim - 2 : a->ndim - 1;
  for (int d = 0; d < lead; d++) outer *= a->shape[d];
  int64_t numel = outer * a->shape[a->ndim - 1];
  if (a->tiled) {
    int64_t ncols = a->shape[a->ndim - 1], es = (int64_t)p.op[a->tiled].es, max_cols = BAND_MAX_ROW_BYTES / es;
    p.band_cols = ncols < max_cols ? ncols : max_cols;
    p.stage_ld = p.band_cols + STAGE_PAD / es;
    int64_t blocks = (a->shape[a->ndim - 2] + BAND_ROWS - 1) / BAND_ROWS;
    numel *= a->shape[a->ndim - 2];
    outer *= blocks;
  }
  for (int j = 0; j <= a->ninputs; j++) bytes += numel * (int64_t)p.op[j].es;
  p.stream = a->strides[0][a->ndim - 1] == 1 && numel * (int64_t)p.op[0].es >= LT__STREAM_MIN_BYTES;
  for (int j = 1; j <= a->ninputs; j++) p.read_ahead[j] = lt__outgrows_cache(a->ndim, a->shape, a->strides[j], p.op[j].es);
  lt__parallel_for(outer, bytes, a->tiled ? rows_tiled : rows_plain, &p);
  return LT_OK;
}
