/* A transpose whose destination's innermost dim is short: BHTD permuted
 * to (3,2,1,0), say, where the destination's inner dim is B = 4. Taken
 * one dim pair at a time, each call moves 4 x 64 elements and writes
 * 16-byte pieces a whole destination row apart (35% of memcpy). But the
 * destination's inner dims (H, B) are dense together: seen as rows of one
 * 2-D transpose (rows (h, b), columns d), each destination row d holds
 * H * B contiguous elements. Those rows are not evenly spaced in the
 * source (b is the outer of the two there), so they are first gathered,
 * each a contiguous run of the source, into a buffer; the tile kernels
 * then transpose the buffer into whole destination lines. (Copies too
 * small to stream skip the buffer where the CPU has a kernel that reads
 * the rows where they lie, on Intel cores only up to 1 MiB: see
 * reads_in_place and group_cols; streamed ones with many rows read a
 * block of every row first, then the rows where they lie: see
 * pulls_blocks; on Intel cores and Zen 4, streamed ones whose rows run
 * on go a band of rows at a time, where they lie: see grouped_bands.c.) */
#include "grouped_transpose.h"

#include <string.h>

#include "alloc.h"
#include "dtype.h"
#include "grouped_plan.h"
#include "libtensor/threads.h"
#include "odometer.h"
#include "pool.h"
#include "stream.h"
#include "transpose.h"
#include "vendor.h"

/* A call's buffer holds its rows x chunk elements: BUF_BYTES on the
 * stack unless a long buffer is taken (lt__group_take_outer,
 * grouped_rows.c); a call has at most GROUP_MAX_ROWS rows, so that a
 * tile's width of columns always fits. */
enum { BUF_BYTES = 32768 };

/* The group's rows are as many streams through the source, more than the
 * hardware prefetcher follows: each gather asks for the rows of the group
 * call this many on (into L2, or L1 on Zen 5: ask_ahead). BHTD
 * (3,2,1,0) F32 at 512 MiB: 68% of memcpy without, 72-75% with 1, 2 or 4
 * (into L2). */
enum { GROUP_AHEAD = 2 };

/* Zen 5 asks for those lines into L1 (prefetcht0), which it measured
 * ahead of L2's hint (prefetcht1): F32 (3,2,1,0), same-run ratio to
 * memcpy, two runs each in turn, L2 -> L1: bench_access's BHTD at 64
 * MiB 0.74-0.84 -> 0.86, at 512 MiB 0.72-0.73 -> 0.76-0.77 (level,
 * 0.72-0.77, with a switch between the two in one build), two threads
 * at 512 MiB 0.90 -> 0.89; [2, 4, T, 64] at 64 MiB 0.69-0.71 ->
 * 0.84-0.87, at 512 MiB 0.70-0.75 -> 0.86-0.90; [2, 12, T, 64] at 64
 * MiB 0.72-0.79 -> 0.85; [3, 5, T, 64] at 64 MiB 0.54-0.58 -> 0.52, at
 * 512 MiB 0.50-0.53 -> 0.55; [8, 8, T, 64] level; bf16 BHTD at 64 MiB
 * 0.60-0.65 -> 0.74-0.75, at 512 MiB 0.53-0.55 -> 0.56; u8 level. Zen
 * 4 measured L2's hint ahead (the hint switched sample by sample in
 * one process, speed ratio L1 -> L2, one thread, (3,2,1,0) of: F32 [3,
 * 5, T, 64] at 512 MiB 1.67, [2, 4, T, 64] at 64 and 512 MiB
 * 1.47-1.51, [4, 12, T, 128] 1.01; bf16 BHTD level; u8 BHTD at 512 MiB
 * 1.21 (two threads 1.25), at 64 MiB 1.33, [2, 4, T, 64] 1.26, [4, 12,
 * T, 32] 1.12), and keeps it, as do Intel cores (L1's not measured
 * there). Asking six calls ahead took BHTD at 512 MiB to 0.77-0.81
 * (Zen 5), but lost where a call has fewer rows ([3, 5, T, 64] 0.54 ->
 * 0.48, [2, 4, T, 64] 0.85-0.89 -> 0.77-0.81, at 512 MiB). */
static inline void ask_ahead(const char *p, int64_t bytes, bool into_l1) {
  if (into_l1) lt__prefetch_l1(p, bytes);
  else lt__prefetch_l2(p, bytes);
}

/* On Intel cores, copies of up to this many bytes read the group's rows
 * in place where the CPU has the kernel (see group_cols): source and
 * destination then stay in a 2 MiB L2 together. Past it the lines come
 * from further out, and the gather, which asks for each row's run two
 * calls ahead, reads them faster (BHTD (3,2,1,0) F32 on a Xeon, gathered
 * -> in place: 1.5 MiB 0.71 -> 0.61-0.62, 2 MiB 0.90 -> 0.65, 4 MiB 0.92
 * -> 0.64-0.67). Zen 5 reads in place faster at every size the calls do
 * not stream, though its L2 is 1 MiB (F32, same-run ratio to memcpy, two
 * runs of two rounds each, gathered -> in place, (3,2,1,0) of [4, 12, T,
 * 64]: T = 170 (2 MiB) 0.47-0.51 -> 0.79-0.85, T = 340 (4 MiB) 0.48 ->
 * 0.69-0.75, T = 500 (6 MiB) 0.47-0.50 -> 0.63-0.70, T = 640 (7.5 MiB)
 * 0.27-0.29 -> 0.30-0.39; T = 128 and 256, rows a power of two apart,
 * 0.27-0.33 -> 0.35-0.39). */
enum { IN_PLACE_MAX_BYTES_INTEL = 1 << 20 };

/* Whether a copy of bytes, streamed or not, reads its rows in place. */
static bool reads_in_place(int64_t bytes, bool streamed) {
  return lt__intel_cores() ? bytes <= IN_PLACE_MAX_BYTES_INTEL : !streamed;
}

/* A streamed copy whose group has many rows reads as many streams at
 * once, in short visits (a call's run of each row), and one core reads
 * such streams at half the rate of one long run: 48 streams, 512 bytes a
 * visit, 17-27 GB/s where memory gives a sequential read 42-44 (the same
 * reads in runs of 16 KiB: 34, 64 KiB: 39), slower still where the
 * rows lie some distances apart (BHTD (3,2,1,0) F32 at 512 MiB, the
 * gather alone: T = 43690, 19 ms; T = 43000, 30 ms). So the calls go in
 * blocks: each row's next PULL_BLOCK_BYTES / rows bytes are read first,
 * row after row in long runs (lt__pull), into L2 (1 MiB a core on Zen 4
 * and 5), and the calls then transpose the block from there into
 * streaming stores, reading the rows where they lie. F32 (3,2,1,0),
 * same-run ratio to memcpy, two runs of each build in turn, gathered ->
 * pulled: at 512 MiB [4, 12, 43000, 64] 0.57-0.58 -> 0.82-0.83, [8, 8,
 * 30000, 64] 0.55-0.56 -> 0.77-0.81, [4, 12, 40960, 64] 0.56-0.62 ->
 * 0.75-0.80, bench_access's BHTD [4, 12, 43690, 64] 0.74 -> 0.83-0.85
 * (two threads 0.89-0.93 -> 1.04); but [8, 8, 32768, 64] 0.76-0.78 ->
 * 0.72-0.73. At 64 MiB [4, 12, 5400, 64] 0.60-0.64 -> 0.83-0.84,
 * bench_access's BHTD 0.84-0.86 -> 0.79-0.81. Over [4, 12, T, 64] with
 * T = 43000 and 43690 and [8, 8, T, 64] with T = 30000 and 32768 at 512
 * MiB, blocks of 1 MiB measured 0.74-0.85, 512 KiB 0.71-0.74, 1.5 MiB
 * 0.70-0.84; the next block read a few rows per call, beside the calls
 * of this one, 0.63-0.76 against 0.70-0.85; over the first three, the
 * rows asked for instead of read (prefetcht0 or prefetcht1) 0.47-0.64
 * against 0.78-0.79. With fewer rows the gather reads fast enough ([2,
 * 4, T, 64], 8 rows: 0.84-0.86 gathered, 0.80-0.84 pulled). Intel
 * cores pull only 2-byte elements: see pulls_blocks. */
enum { PULL_BLOCK_BYTES = 1 << 20, PULL_MIN_ROWS = 16 };

/* A block fills L2, so its rows' lines must spread over L2's sets: where
 * the group's dims step by multiples of L2_SET_PERIOD (Zen 5: 1 MiB, 16
 * ways), every row's block falls on the same sets, which hold 16 lines
 * each, and the block is gone from L2 before the calls read it. The
 * gather, which reads each line into its buffer as it comes, then
 * measured ahead where PULL_MAX_DEPTH rows or more crowd the same sets:
 * F32 (3,2,1,0), same-run ratio to memcpy, one run each in turn, pulled
 * -> gathered, 64 rows: [4, 16, 16384, 64] 0.74 -> 0.81, [2, 32, 8192,
 * 64] 0.72 -> 0.84, [8, 8, 32768, 64] 0.74 -> 0.78; 128 rows: [4, 32,
 * 2048, 128] 0.52 -> 0.72, [8, 16, 1024, 64] 0.55 -> 0.63; two threads
 * [2, 32, 8192, 64] 0.64 -> 0.84, [8, 8, 32768, 64] 0.77 -> 0.87; bf16
 * level (0.66-0.68 -> 0.64, 0.65 -> 0.66-0.68, 0.65 -> 0.68, 0.40 and
 * 0.39). Fewer rows keep the pull: 48 ([4, 12, 40960, 64]) 0.79 pulled,
 * 0.56 gathered, 32 ([4, 8, 32768, 64]) 0.84 and 0.82; so do 128 rows
 * that spread ([4, 32, 2000, 128] 0.72 and 0.57). */
enum { L2_SET_PERIOD = 65536, PULL_MAX_DEPTH = 64 };

bool lt__blocks_crowd_sets(const int64_t *row_at, int64_t rows) {
  enum { SETS = L2_SET_PERIOD / 64 };
  uint8_t depth[SETS] = {0};
  int64_t lines = (PULL_BLOCK_BYTES / rows + 63) / 64;
  for (int64_t r = 0; r < rows; r++) {
    int64_t first = (row_at[r] % L2_SET_PERIOD + L2_SET_PERIOD) % L2_SET_PERIOD / 64;
    for (int64_t l = 0; l < lines && l < SETS; l++)
      if (++depth[(first + l) % SETS] >= PULL_MAX_DEPTH) return true;
  }
  return false;
}

/* Intel cores pull blocks of 2-byte elements only, and only where the band
 * walk does not take the plan (grouped_bands.c, decided first) and the
 * group is not a tile_inner one (not measured there). On a Xeon (AVX-512
 * with AMX), same-run ratio to memcpy, runs in turn, gathered -> pulled:
 * bench_access --dtype bf16 BHTD (3,2,1,0) (rows off lines), one build with
 * a switch, nine runs each, at 512 MiB 0.39-0.50 -> 0.42-0.51 (medians 0.41
 * -> 0.44), at 64 MiB 0.75-0.96 -> 0.80-1.09 (0.85 -> 0.88); two builds,
 * three runs each, at 512 MiB 0.42-0.48 -> 0.43-0.50, at 64 MiB 0.72-0.86
 * -> 0.90-1.02; bf16 (3,2,1,0) of [4, 12, 87380, 64] (rows on lines)
 * 0.46-0.47 -> 0.51-0.52, of [2, 12, 174762, 64] 0.40-0.44 -> 0.47-0.48
 * (two runs each). Banded plans stay ahead (bf16 [4, 8, 131072, 64]
 * 0.49-0.51 banded, 0.36 pulled; [4, 16, 65536, 64] and [8, 8, 65536, 64]
 * level), and F32 lost pulled (gathered, [2, 12, 87381, 64] 0.46-0.47 ->
 * 0.42-0.43; banded, [4, 12, 43000, 64] 0.87-0.88 -> 0.61-0.63). */
static bool intel_pulls(const lt__group_plan *g, bool tile_inner) { return g->es == 2 && !tile_inner; }

/* Whether a streamed plan pulls its calls' rows in blocks, choosing the
 * kernel its calls then take (g->in_place into destination rows on lines,
 * g->in_place_seamed off them): where the calls' runs continue one another
 * in each row (dim outer's indices back to back in the source), the group
 * has PULL_MIN_ROWS rows or more, the elements are of 2 or 4 bytes, this
 * CPU has that kernel, and the blocks do not crowd L2's sets
 * (lt__blocks_crowd_sets; a tile_inner group, which the tile kernels would
 * take otherwise, pulls regardless); on Intel cores only where intel_pulls
 * allows. Calls it cannot take gather: see group_cols. Seamed, F32
 * (3,2,1,0) of [2, 12, 87381, 64] (rows of 96 bytes a T index, every other
 * one off a line), same-run ratio to memcpy, two runs of each build in
 * turn: 0.48-0.49 gathered -> 0.62-0.64 pulled; bf16 BHTD (bench_access's,
 * T odd) level (0.57-0.60 -> 0.59-0.60), as on lines (T even: 0.77-0.78 ->
 * 0.79). Bytes gather: u8 BHTD with T a multiple of 4 (rows on lines)
 * measured 0.67-0.69 gathered, 0.53-0.61 pulled. */
static bool pulls_blocks(lt__group_plan *g, bool tile_inner) {
  const lt__copy_args *a = g->a;
  if (lt__intel_cores() && !intel_pulls(g, tile_inner)) return false;
  if (!g->streamed || g->outer < 0 || a->src_strides[g->outer] != a->shape[g->k] ||
      g->rows < PULL_MIN_ROWS || g->es < 2 || (!tile_inner && lt__blocks_crowd_sets(g->row_at, g->rows)))
    return false;
  if (lt__group_rows_on_lines(a, (int64_t)g->es)) g->in_place = lt__transpose_rows_streamed_kernel(g->es);
  else if (g->seamed) g->in_place_seamed = lt__transpose_rows_seamed_kernel(g->es);
  return g->in_place || g->in_place_seamed;
}

/* How one thread's calls go: q indices of dim outer and chunk columns
 * per call, gathered into buf; ahead bytes from one call's source to that
 * of GROUP_AHEAD calls on. */
typedef struct group_calls {
  int64_t q, chunk, ahead;
  char *buf;
} group_calls;

/* Columns [c0, c1) of a call's rows transposed from where they lie, where
 * the plan has a kernel for that and the call fits it: whole tiles; for
 * the streaming kernel, destination rows on lines (another dim may shift
 * a call's off them: see pulls_blocks); for the seamed one, two tiles of
 * rows or more and the calls' seam run. Returns whether it did. */
static bool in_place_cols(const lt__group_plan *g, lt__seam_run *run, char *dst, const char *src, int64_t rows,
                          int64_t c0, int64_t c1) {
  int64_t es = (int64_t)g->es, dld = g->a->dst_strides[g->k], t = 64 / es;
  char *to = dst + c0 * dld * es;
  bool tiles = rows % t == 0 && (c1 - c0) % t == 0;
  bool plain = g->in_place && tiles && (!g->pull_rows || (uintptr_t)to % 64 == 0);
  bool seamed = g->in_place_seamed && run && tiles && rows >= 2 * t;
  if (!plain && !seamed) return false;
  const char *at[GROUP_MAX_ROWS];
  for (int64_t r = 0; r < rows; r++) at[r] = src + g->row_at[r] + c0 * es;
  if (plain) {
    g->in_place(to, dld, at, rows, c1 - c0);
    return true;
  }
  g->in_place_seamed(to, dld, at, rows, c1 - c0, lt__seam_run_next(run));
  lt__seam_run_step(run, to, rows * es, true);
  return true;
}

/* Columns [c0, c1) of dim k for the rows of m indices of dim outer (the
 * first m * g->rows rows): gathered a chunk at a time, each group row's m
 * pieces in turn (one run of the source where they lie back to back),
 * then transposed into the destination; or, where the plan has a kernel
 * that reads rows where they lie and both sides are whole tiles,
 * transposed by it straight from the source. In cache the gather's
 * copies cost more than the transpose saves by reading a dense buffer:
 * on a Xeon (AVX-512 with AMX), F32, same-run ratio to memcpy, two or
 * more runs each, gathered -> in place, (3,2,1,0) of [4, 12, 85, 64] (1
 * MiB, bench_access's BHTD) 0.49-0.54 -> 0.77-0.85, [8, 6, 85, 64]
 * 0.53-0.55 -> 0.79-0.81, [4, 4, 200, 64] 0.54-0.60 -> 0.77-0.78, [2,
 * 16, 36, 32] 0.41 -> 0.65-0.66, [3, 5, 40, 64] 0.29-0.30 -> 0.50;
 * bf16, bench_access at 1 MiB, two runs each, BHTD (3,2,1,0) 0.45-0.48
 * -> 0.67-0.71; u8 0.34 -> 0.49-0.50. On Zen 5, bench_access at 1 MiB,
 * two runs each in turn: F32 BHTD (3,2,1,0) 0.47-0.48 -> 0.74-0.76, bf16
 * 0.35-0.39 -> 0.62, u8 0.23 -> 0.41-0.46; with the small C program, F32
 * (3,2,1,0) of [4, 12, 85, 64] 0.31-0.39 -> 0.68-0.69, [8, 6, 85, 64]
 * 0.34-0.42 -> 0.64-0.68, [4, 4, 200, 64] 0.37-0.41 -> 0.48-0.55, [2, 16,
 * 36, 32] 0.24-0.25 -> 0.35-0.36, [3, 5, 40, 64] 0.17 -> 0.30-0.32. */
static void group_cols(const lt__group_plan *g, const group_calls *c, lt__seam_run *run, char *dst, const char *src,
                       int64_t m, int64_t c0, int64_t c1) {
  const lt__copy_args *a = g->a;
  int64_t es = (int64_t)g->es, dld = a->dst_strides[g->k], rows = m * g->rows;
  if (in_place_cols(g, run, dst, src, rows, c0, c1)) return;
  for (int64_t col = c0; col < c1; col += c->chunk) {
    int64_t w = c1 - col < c->chunk ? c1 - col : c->chunk;
    for (int64_t row = 0; row < g->rows; row++)
      for (int64_t i = 0; i < m; i++) {
        int64_t r = i * g->rows + row;
        ask_ahead(src + c->ahead + g->row_at[r] + col * es, w * es, g->ask_l1);
        memcpy(c->buf + r * w * es, src + g->row_at[r] + col * es, (size_t)(w * es));
      }
    char *to = dst + col * dld * es;
    if (run) lt__seam_run_step(run, to, rows * es, g->seamed(to, dld, c->buf, w, rows, w, lt__seam_run_next(run)));
    else g->fn(to, dld, c->buf, w, rows, w);
  }
}

/* Bytes from one call's source to the next's, calls of q indices of dim
 * outer: along dim outer, or the innermost of the odometer's dims. */
static int64_t call_step(const lt__group_plan *g, int64_t q) {
  if (g->outer >= 0) return q * g->a->src_strides[g->outer] * (int64_t)g->es;
  for (int d = g->first - 1; d >= 0; d--)
    if (d != g->k) return g->a->src_strides[d] * (int64_t)g->es;
  return 0;
}

/* Calls of q indices through buf, of bytes: as many whole tiles of
 * columns as it holds. */
static group_calls calls_of(const lt__group_plan *g, int64_t q, char *buf, size_t bytes) {
  int64_t t = 64 / (int64_t)g->es;
  return (group_calls){.q = q,
                       .chunk = (int64_t)bytes / (q * g->rows * (int64_t)g->es) / t * t,
                       .ahead = GROUP_AHEAD * call_step(g, q),
                       .buf = buf};
}

/* Streamed calls along dim outer continue the same destination rows
 * (columns [c0, c1) of dim k, in one chunk), each where the last ended:
 * where the seamed kernel runs, they go through a seam run (see
 * lt__transpose_seamed_fn), whose seams are allocated here; else seams
 * is NULL. Xeon, bench_access BHTD (3,2,1,0) at 512 MiB (destination
 * rows 32 and 16 bytes off a line), same-run ratio to memcpy, two runs
 * each in turn: BF16 0.36-0.37 -> 0.49-0.50, U8 0.27-0.28 -> 0.44 (F32,
 * whose rows are on lines, level). */
static lt__seam_run seam_run_of(const lt__group_plan *g, const group_calls *c, int64_t c0, int64_t c1) {
  int64_t n = c1 - c0;
  bool fits = g->seamed && g->outer >= 0 && !g->in_place && n <= c->chunk;
  char *seams = fits ? lt__alloc((size_t)(2 * n * 128), 64) : NULL;
  return (lt__seam_run){.seams = seams, .n = n, .dld = g->a->dst_strides[g->k] * (int64_t)g->es};
}

/* Reads the next n indices of dim outer of each of the group's rows
 * into the caches, from the call's source src (see pulls_blocks). */
static void pull_block(const lt__group_plan *g, const char *src, int64_t n) {
  int64_t bytes = n * g->a->src_strides[g->outer] * (int64_t)g->es;
  for (int64_t r = 0; r < g->rows; r++) lt__pull(src + g->row_at[r], bytes);
}

/* Indices of dim outer per pulled block, a multiple of the calls' q; 0
 * where the calls do not pull (the plan's rule, or a share of part of
 * each row's columns, whose runs would be runs no more). */
static int64_t pull_indices(const lt__group_plan *g, const group_calls *c, int64_t c0, int64_t c1) {
  if (!g->pull_rows || c0 != 0 || c1 != g->a->shape[g->k]) return 0;
  int64_t n = g->pull_rows / (g->a->src_strides[g->outer] * (int64_t)g->es) / c->q * c->q;
  return n > c->q ? n : c->q;
}

/* One thread's share: columns [c0, c1) of dim k and indices [i0, i1) of
 * dim outer ([0, 1) without one), q per call, for every index of the
 * other dims outside the group and k (the odometer). Without memory for
 * the long buffer, q_lines at a time through the stack's. */
static void group_box(const lt__group_plan *g, int64_t c0, int64_t c1, int64_t i0, int64_t i1) {
  const lt__copy_args *a = g->a;
  if (g->bands && (c1 - c0) % (64 / (int64_t)g->es) == 0) {
    lt__group_band_box(g, c0, c1, i0, i1);
    return;
  }
  _Alignas(64) char stack[BUF_BYTES];
  char *heap = g->long_bytes ? lt__alloc(g->long_bytes, 64) : NULL;
  group_calls c = heap ? calls_of(g, g->q, heap, g->long_bytes) : calls_of(g, g->q_lines, stack, BUF_BYTES);
  lt__seam_run run = seam_run_of(g, &c, c0, c1);
  int64_t es = (int64_t)g->es;
  int64_t dst_step = g->outer >= 0 ? a->dst_strides[g->outer] * es : 0;
  int64_t src_step = g->outer >= 0 ? a->src_strides[g->outer] * es : 0;
  int64_t block = pull_indices(g, &c, c0, c1);
  lt__odometer o = {.dst_off = 0};
  do
    for (int64_t i = i0; i < i1; i += c.q) {
      const char *src = a->src + o.src_off + i * src_step;
      if (block && (i - i0) % block == 0) pull_block(g, src, i1 - i < block ? i1 - i : block);
      group_cols(g, &c, run.seams ? &run : NULL, a->dst + o.dst_off + i * dst_step, src, i1 - i < c.q ? i1 - i : c.q,
                 c0, c1);
    }
  while (lt__odometer_step(&o, a, g->outer >= 0 ? g->outer : g->first, g->k, es, es));
  if (run.seams) {
    lt__seam_run_finish(&run);
    lt__free(run.seams, (size_t)(2 * run.n * 128), 64);
  }
  if (g->streamed) lt__stream_fence();
  lt__free(heap, g->long_bytes, 64);
}

static int64_t outer_size(const lt__group_plan *g) { return g->outer >= 0 ? g->a->shape[g->outer] : 1; }

/* Calls [b, e) of q indices of dim outer, every column. */
static void split_by_calls(void *ctx, int64_t b, int64_t e) {
  const lt__group_plan *g = ctx;
  int64_t n = outer_size(g);
  group_box(g, 0, g->a->shape[g->k], b * g->q, e * g->q < n ? e * g->q : n);
}

/* Columns [c0, c1) of dim k, every index of dim outer. */
static void split_by_cols(void *ctx, int64_t c0, int64_t c1) {
  const lt__group_plan *g = ctx;
  group_box(g, c0, c1, 0, outer_size(g));
}

/* Threads take whole calls of dim outer where there are a few per thread:
 * split by columns, each would read part of every source line, and the
 * long runs would be runs no more (BHTD (3,2,1,0), 64 columns: two
 * threads 0.34-0.84 of a two-thread memcpy by columns). */
enum { CALLS_PER_THREAD = 2 };

bool lt__grouped_transpose(const lt__copy_args *a) {
  size_t es = lt__dtype_size(a->dst_dtype);
  lt__group_plan g = {.a = a, .k = a->transpose_dim, .es = es};
  int64_t t = 64 / (int64_t)es, numel = 1;
  for (int d = 0; d < a->ndim; d++) numel *= a->shape[d];
  /* The calls' outputs are small, but together they outgrow the caches. */
  g.streamed = numel * (int64_t)es >= LT__STREAM_MIN_BYTES;
  g.first = lt__group_first(a, t, &g.rows);
  bool tile_inner = false;
  if (g.first < 0 && g.streamed) {
    g.first = lt__tile_group_first(a, t, &g.rows);
    tile_inner = g.first >= 0;
  }
  if (g.first < 0) return false;
  lt__group_take_outer(&g, g.streamed);
  g.fn = g.streamed ? lt__transpose_best_streamed(es) : lt__transpose_best(es);
  g.seamed = g.streamed ? lt__transpose_seamed_kernel(es) : NULL;
  lt__group_fill_row_offsets(&g);
  g.bands = lt__group_walks_bands(&g, numel * (int64_t)es); /* Intel cores and Zen 4 only */
  g.pull_rows = !g.bands && pulls_blocks(&g, tile_inner) ? PULL_BLOCK_BYTES / g.rows : 0;
  if (tile_inner && !g.pull_rows) return false; /* gathered or banded, such a group was not measured */
  if (g.bands) g.in_place = lt__transpose_rows_streamed_kernel(es);
  else if (!g.pull_rows && reads_in_place(numel * (int64_t)es, g.streamed)) g.in_place = lt__transpose_rows_kernel(es);
  g.ask_l1 = lt__zen5_cores();
  int64_t calls = (outer_size(&g) + g.q - 1) / g.q;
  if (g.outer >= 0 && calls >= CALLS_PER_THREAD * lt_get_num_threads())
    lt__parallel_for(calls, numel * (int64_t)es * 2, split_by_calls, &g);
  else
    lt__parallel_for(a->shape[g.k], numel * (int64_t)es * 2, split_by_cols, &g);
  return true;
}
