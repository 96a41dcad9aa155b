/* True transposes of the CPU strided copy: the planner names the copy's
 * source unit dim (transpose_dim, k) and its destination unit dim (the
 * innermost); the tile kernels transpose those two, once per index of the
 * other dims (the outer indices), split over the thread pool by outer
 * indices, by blocks of source rows or by columns of k; streamed ones in
 * bands of source rows where that measured faster (banded_rows,
 * lagged_bands.c). */
#include "tiled_transpose.h"

#include "alloc.h"
#include "dtype.h"
#include "channel_transpose.h"
#include "grouped_transpose.h"
#include "lagged_bands.h"
#include "libtensor/threads.h"
#include "odometer.h"
#include "pool.h"
#include "stream.h"
#include "transpose.h"
#include "transpose_tiling.h"
#include "vendor.h"

/* A true transpose a, done by the tile kernels. */
typedef struct lt__tile_job {
  const lt__copy_args *a;
  lt__transpose_fn fn;
  bool streamed; /* fn streams (lt__transpose_best_streamed's, or the lagged kernel): fence after the last call */
  int64_t band;  /* source rows per call (see banded_rows, lt__lagged_band); all of them unless banded */
  int64_t side;  /* slices a call may take side by side (see side_by_side); 1: one */
  lt__transpose_side_fn side_fn; /* NULL: side by side through fn, a slice at a time */
} lt__tile_job;

/* Can the tile kernel do this copy? Same dtype, and positive leading
 * dimensions (a negative stride on either unit dim takes the general
 * path). */
static bool tileable(const lt__copy_args *a) {
  if (a->kind != LT__PLAN_TRANSPOSE || a->dst_dtype != a->src_dtype) return false;
  int in = a->ndim - 1, k = a->transpose_dim;
  return a->src_strides[in] >= 1 && a->dst_strides[k] >= 1;
}

/* The innermost of the outer dims (those other than k and the
 * innermost), which the odometer steps first: -1 where there is none. */
static int odometer_inner(const lt__copy_args *a) {
  int in = a->ndim - 1, k = a->transpose_dim;
  return in - 1 == k ? in - 2 : in - 1;
}

/* Outer indices per thread from which threads split a transpose by them
 * (see lt__tiled_transpose). */
enum { OUTER_PER_THREAD = 2 };

/* With fewer outer indices than that, a thread that would get less than
 * this much of each source row from a split by columns gets a range of
 * whole rows instead: the columns' short runs of every row read slowly,
 * and whole rows read as one stream. Xeon, F32 2-D transposes at 512
 * MiB, two threads, same-run ratio to a two-thread memcpy, two runs each
 * in turn, columns -> rows: 524288 x 256 0.74-0.76 -> 0.81-0.82, 262144 x
 * 512 0.66-0.78 -> 0.82-0.83, 131072 x 1024 0.61-0.63 -> 0.85-0.87;
 * 65536 x 2048 (4 KiB a thread) 0.86-0.87 against 0.84-0.86, 32768 x
 * 4096 level, 11585^2 0.77-0.78 against 0.73-0.74. bench_access --threads
 * 2 at 512 MiB, (2,0,1): F32 0.73-0.76 -> 0.80-0.81, BF16 0.52-0.53 ->
 * 0.57, U8 0.44 -> 0.51-0.53. */
enum { ROW_SPLIT_SHARE_BYTES = 4096 };

/* That split by rows has each thread write a part of every destination
 * row. Streamed, those parts go straight to memory; cached, the two cores
 * pull lines from each other where the parts meet: a line of every row
 * where they meet off a line; where they meet on lines the loss measured
 * as large (the cores' prefetchers running on past the seam, it seems;
 * not measured). So a cached transpose splits by rows only where each
 * thread's part of a destination row is at least this long, and
 * otherwise by columns, each thread then writing whole rows. Xeon, two
 * threads, F32 in cache, the two splits in turn sample by sample (1 ms
 * each, 200-300 pairs, median of the pairs' ratios), rows -> columns: 2-D
 * transposes of a 512 x 512 source (1 KiB of each destination row a
 * thread) 1.26x as fast, 256 x 512 2.45x, 500 x 524 (parts meeting off a
 * line) 1.97x, 1000 x 1000 1.10x; (0,2,1) of [2, 512, 256] 1.62x, of [3,
 * 300, 300] 2.85x (bf16 2.54x); bf16 2048 x 128 (2 KiB) 1.21x; longer
 * parts ran faster by rows: F32 2048 x 128 (4 KiB) 0.95x, 4000 x 64
 * (8000 bytes) 0.82x, bf16 4096 x 128 (4 KiB) 0.90x; F32 1024 x 128 (2
 * KiB) 0.96x, and 1024 x 64, 2048 x 64, 1536 x 128 level. bench_access
 * --threads 2 at 1 MiB (OPENBLAS_NUM_THREADS=1, whose spin at load would
 * take a core), three runs each in turn, the 2-D transpose 0.356-0.387 ->
 * 0.413-0.420 of a two-thread memcpy, the rest level. At 8 MiB, two
 * builds in turn, two runs each: 1448^2 35.7-37.5 -> 40.4-41.8 GB/s,
 * (0,2,1) of [2, 1024, 1024] 44.9-45.0 -> 51.4-52.6, 3000 x 700 36.3-36.5
 * -> 36.6-43.4. */
enum { CACHED_ROW_SPLIT_MIN_BYTES = 4096 };

/* Whether threads split a transpose of few outer indices by source rows
 * (see lt__tiled_transpose), rather than by columns. */
static bool splits_rows(const lt__copy_args *a, int64_t es, int threads, bool streamed) {
  int in = a->ndim - 1, k = a->transpose_dim;
  if (a->shape[k] * es >= ROW_SPLIT_SHARE_BYTES * threads) return false;
  return streamed || a->shape[in] * es >= CACHED_ROW_SPLIT_MIN_BYTES * threads;
}

/* Source rows [r0, r1) by columns [c0, c1) of dim k, for every index of
 * the other outer dims: one call each. */
static void transpose_box(const lt__tile_job *j, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
  const lt__copy_args *a = j->a;
  int64_t es = (int64_t)lt__dtype_size(a->dst_dtype);
  int in = a->ndim - 1, k = a->transpose_dim;
  char *dst = a->dst + (c0 * a->dst_strides[k] + r0) * es;
  const char *src = a->src + (r0 * a->src_strides[in] + c0) * es;
  lt__odometer o = {.dst_off = 0};
  do
    j->fn(dst + o.dst_off, a->dst_strides[k], src + o.src_off, a->src_strides[in], r1 - r0, c1 - c0);
  while (lt__odometer_step(&o, a, in, k, es, es));
  if (j->streamed) lt__stream_fence();
}

/* Columns [c0, c1) of dim k (rows of the destination, so threads write
 * disjoint lines), every source row. */
static void transpose_cols(void *ctx, int64_t c0, int64_t c1) {
  const lt__tile_job *j = ctx;
  transpose_box(j, 0, j->a->shape[j->a->ndim - 1], c0, c1);
}

/* Blocks [b0, b1) of ROW_BLOCK source rows (destination columns), every
 * column of k: the pool gives each thread one range of blocks, one call
 * per outer index. A block is the largest tile's side, so that threads
 * meet between tiles and a transpose of a few hundred rows still has a
 * block for each thread. */
enum { ROW_BLOCK = 64 };

static void transpose_rows(void *ctx, int64_t b0, int64_t b1) {
  const lt__tile_job *j = ctx;
  int64_t rows = j->a->shape[j->a->ndim - 1], r1 = b1 * ROW_BLOCK < rows ? b1 * ROW_BLOCK : rows;
  transpose_box(j, b0 * ROW_BLOCK, r1, 0, j->a->shape[j->a->transpose_dim]);
}

/* Bands [b0, b1) of j->band source rows, every column of k, a call per
 * band: the lagged kernel takes a band a call (lt__lagged_band). */
static void transpose_bands(void *ctx, int64_t b0, int64_t b1) {
  const lt__tile_job *j = ctx;
  int64_t rows = j->a->shape[j->a->ndim - 1];
  for (int64_t b = b0; b < b1; b++)
    transpose_box(j, b * j->band, (b + 1) * j->band < rows ? (b + 1) * j->band : rows, 0,
                  j->a->shape[j->a->transpose_dim]);
}

/* A streamed batch of transposes whose source rows run on from one
 * outer index to the next (the innermost outer dim steps one row: (2,1,0)
 * of a cube, rows i of src[i][j][k] over j) goes in bands of source rows,
 * each band through every outer index before the next: each of the
 * band's rows is then read as one long run, where a whole transpose per
 * outer index reads every row for one row's length and jumps to the next.
 * Xeon (AVX-512 with AMX, 2 MiB L2), F32 (2,1,0), same-run ratio to
 * memcpy: 512^3, one thread, medians of 7, four runs, whole 0.58-0.59,
 * bands of 64 rows 0.77-0.82, 128 0.80-0.83, 256 0.71, 32 0.70-0.74;
 * bench_access, three runs in turn, whole -> bands of 512 bytes: 512 MiB
 * 0.62-0.64 -> 0.75-0.81, two threads 0.65-0.66 -> 0.79-0.81, 64 MiB
 * 1.19-1.30 -> 1.40-1.45. Bands start destination rows on a line only
 * where the rows do (bands of 100 rows of 500^3: 0.64 -> 0.44), so only
 * line-aligned destinations take them. Zen 5 reads whole rows faster
 * and takes no bands: bench_access (2,1,0), two runs each in turn,
 * bands of 512 bytes -> whole rows (2 KiB): 512 MiB 0.72-0.76 ->
 * 0.80-0.85 (bands of 256 bytes 0.66-0.70, 1 KiB 0.76-0.79), 64 MiB
 * 0.72-0.76 -> 0.78-0.79, two threads at 512 MiB level (1.02-1.05).
 * (F32 rows a multiple of 32 KiB apart go in lagged bands instead: see
 * lt__lagged_band.) */
enum { BAND_BYTES = 512 };

static int64_t banded_rows(const lt__copy_args *a, int64_t es) {
  int in = a->ndim - 1, k = a->transpose_dim;
  if (!lt__intel_cores()) return a->shape[in];
  int b = odometer_inner(a);
  int64_t rows = a->shape[in], band = BAND_BYTES / es;
  bool runs_on = b >= 0 && a->src_strides[b] == a->shape[k];
  bool lines = a->dst_strides[k] * es % 64 == 0 && (uintptr_t)a->dst % 64 == 0;
  return runs_on && lines && rows > band ? band : rows;
}

/* A batch of transposes whose slices lie side by side on both sides
 * (the odometer's innermost dim steps one slice's columns in the source
 * and its rows in the destination: (2,1,0) of a cube, slices j of
 * src[i][j][k]) has each destination row continue from one slice into
 * the next. Where the destination's rows lie on a multiple of 4 KiB or
 * within a few bytes of one (lt__rows_on_pages), AMD cores transpose
 * SIDE_RUN_BYTES of those rows' worth of slices at once into a stage in
 * L1 laid out as the destination, and copy its rows out whole: each
 * destination row then gets one run of SIDE_RUN_BYTES, where a slice at
 * a time gives it the slice's rows (256 bytes for 64^3), and runs that
 * short, 64 rows 16 KiB apart, wait on memory one line after another.
 * On Zen 5, storing 1 MiB as 256-byte runs of rows 16 KiB apart took
 * 2.0-2.3 times a memcpy of 1 MiB, as 512-byte runs 0.78-0.94, 1 KiB
 * runs 0.56, sequentially 0.49-0.52 (three runs).
 * Same-run ratio to memcpy, two rounds each, the walks before (the
 * buffered and staged ones of transpose_walk_cached.h, mostly) -> side
 * by side, (2,1,0) of: F32 [64, 64, 64] 0.44-0.45 -> 0.54-0.56, [32, 64,
 * 128] 0.36 -> 0.55, [32, 32, 32] 0.17 -> 0.24, [16, 64, 16] 0.12 ->
 * 0.20, [40, 128, 32] 0.17 -> 0.29, [64, 256, 64] (4 MiB) 0.43 -> 0.53,
 * [63, 65, 64] (destination rows 4 bytes short of 16 KiB) 0.25 -> 0.40,
 * [32, 64, 100] 0.17 -> 0.37, [31, 33, 64] 0.10 -> 0.23, [64, 64, 63]
 * 0.38-0.42 -> 0.36-0.37; bf16 [64, 64, 128] 0.25 -> 0.46, [64, 64, 64]
 * 0.15 -> 0.24, [63, 65, 128] 0.10 -> 0.31; u8 [64, 128, 128] 0.18 ->
 * 0.33-0.36, [64, 64, 64] 0.08 -> 0.15, [63, 65, 256] 0.04 -> 0.19, [32,
 * 64, 128] level; F64 [32, 32, 32] 0.17 -> 0.21, [32, 128, 32] 0.40 ->
 * 0.43. Runs of 1 KiB lost (F32 64^3 0.40), as did a stage past 32 KiB
 * and destination rows further from a multiple of 4 KiB (48^3 0.36 ->
 * 0.34, 80^3 0.65 -> 0.46). Intel cores keep a slice at a time: on a
 * Xeon (AVX-512 with AMX), bench_access at 1 MiB, F32 (2,1,0), four
 * runs in turn, 0.46-0.55 -> 0.41-0.49 side by side. */
enum { SIDE_RUN_BYTES = 512, SIDE_STAGE_BYTES = 32768 };

/* Slices too large for two in the stage go two at a time, a block of at
 * least SIDE_MIN_COLUMNS columns at a time (runs of up to 1 KiB), for 4-
 * and 8-byte elements. Same-run ratio to memcpy, two rounds each, (2,1,0)
 * of: F32 [64, 16, 100] 0.09-0.14 -> 0.23, [64, 16, 256] 0.40 -> 0.52,
 * [64, 32, 128] 0.40 -> 0.52, [128, 16, 128] 0.36 -> 0.39; F64 [32, 16,
 * 100] 0.10-0.16 -> 0.38, [32, 32, 128] 0.18 -> 0.44, [64, 8, 128] 0.25
 * -> 0.68. Runs of 2 KiB lost (F32 [256, 4, 256] 0.40 -> 0.30); halves
 * and bytes measured mixed (bf16 [128, 16, 256] 0.16 -> 0.37, [64, 16,
 * 256] 0.18 -> 0.10), as did more slices than two (bf16 [32, 16, 512]
 * eight at a time 0.50 -> 0.24). */
enum { SIDE_MIN_COLUMNS = 32 };

/* Slices a call may take side by side (above): at least 2, or 1 where
 * the batch does not qualify. */
static int64_t side_by_side(const lt__copy_args *a, int64_t es, bool streamed) {
  int in = a->ndim - 1, k = a->transpose_dim, b = odometer_inner(a);
  if (streamed || b < 0 || lt__intel_cores()) return 1;
  int64_t rows = a->shape[in], cols = a->shape[k];
  bool side = a->src_strides[b] == cols && a->dst_strides[b] == rows;
  if (!side || !lt__rows_on_pages(a->dst_strides[k] * es)) return 1;
  int64_t n = SIDE_RUN_BYTES / (rows * es) > 2 ? SIDE_RUN_BYTES / (rows * es) : 2;
  while (n > 2 && n * rows * cols * es > SIDE_STAGE_BYTES) n--;
  if (n * rows * cols * es <= SIDE_STAGE_BYTES) return n; /* whole slices */
  return es >= 4 && n * rows * es * SIDE_MIN_COLUMNS <= SIDE_STAGE_BYTES ? n : 1;
}

/* n slices side by side from dst and src (see side_by_side), through
 * stage, as many columns at a time as it holds: each slice's transpose
 * into its columns of the stage's rows, then the rows out; or, where the
 * CPU has the kernel (AVX-512), the kernel's tiles in bands across the
 * slices and its stores of the rows (transpose_side.h,
 * transpose_avx512.c): bench_access at 1 MiB, F32 (2,1,0), two runs of
 * three rounds each in turn, 0.56-0.57 -> 0.62-0.63. Every source row at
 * once: only cached batches go side by side, and only streamed ones in
 * bands. */
static void transpose_side_by_side(const lt__tile_job *j, char *dst, const char *src, int64_t n, char *stage) {
  const lt__copy_args *a = j->a;
  int64_t es = (int64_t)lt__dtype_size(a->dst_dtype);
  int in = a->ndim - 1, k = a->transpose_dim;
  int64_t rows = a->shape[in], cols = a->shape[k], run = n * rows * es;
  int64_t block = SIDE_STAGE_BYTES / run;
  for (int64_t c0 = 0; c0 < cols; c0 += block) {
    int64_t nc = cols - c0 < block ? cols - c0 : block;
    if (j->side_fn) {
      j->side_fn(dst + c0 * a->dst_strides[k] * es, a->dst_strides[k], src + c0 * es, a->src_strides[in], rows, nc, n,
                 cols, stage);
      continue;
    }
    for (int64_t s = 0; s < n; s++)
      j->fn(stage + s * rows * es, n * rows, src + (s * cols + c0) * es, a->src_strides[in], rows, nc);
    for (int64_t c = 0; c < nc; c++) lt__copy_row(dst + (c0 + c) * a->dst_strides[k] * es, stage + c * run, run);
  }
}

/* The odometer over the outer dims (those other than k and the
 * innermost, in row-major order) at outer index i. */
static lt__odometer odometer_at(const lt__copy_args *a, int64_t i) {
  int64_t es = (int64_t)lt__dtype_size(a->dst_dtype);
  return lt__odometer_at(a, a->ndim - 1, a->transpose_dim, i, es, es);
}

/* Outer indices [i0, i1), every column of k each, a band of rows at a
 * time. */
static void transpose_outer(void *ctx, int64_t i0, int64_t i1) {
  const lt__tile_job *j = ctx;
  const lt__copy_args *a = j->a;
  int64_t es = (int64_t)lt__dtype_size(a->dst_dtype);
  int in = a->ndim - 1, k = a->transpose_dim;
  lt__odometer at = odometer_at(a, i0);
  /* without a stage, one slice at a time */
  char *stage = j->side > 1 ? lt__alloc(SIDE_STAGE_BYTES, 64) : NULL;
  int b = odometer_inner(a);
  for (int64_t r0 = 0; r0 < a->shape[in]; r0 += j->band) {
    char *dst = a->dst + r0 * es;
    const char *src = a->src + r0 * a->src_strides[in] * es;
    int64_t rows = a->shape[in] - r0 < j->band ? a->shape[in] - r0 : j->band;
    lt__odometer o = at;
    for (int64_t i = i0, n; i < i1; i += n) {
      /* slices up to the end of the range or of the innermost dim */
      n = stage ? j->side : 1;
      if (n > i1 - i) n = i1 - i;
      if (n > a->shape[b] - o.idx[b]) n = a->shape[b] - o.idx[b];
      if (n > 1) transpose_side_by_side(j, dst + o.dst_off, src + o.src_off, n, stage);
      else j->fn(dst + o.dst_off, a->dst_strides[k], src + o.src_off, a->src_strides[in], rows, a->shape[k]);
      for (int64_t s = 0; s < n; s++) lt__odometer_step(&o, a, in, k, es, es);
    }
  }
  lt__free(stage, SIDE_STAGE_BYTES, 64);
  if (j->streamed) lt__stream_fence();
}

/* A streamed batch of small transposes whose outputs lie back to back
 * (the destination dense as a whole), each output's rows off lines:
 * (0,1,3,2) of [B, H, T, D] with T odd, attention's keys turned to D x
 * T. Streamed from the tiles, each slice starts and ends its rows inside
 * lines (the first and the last in plain stores) and pays a walk's
 * set-up for a few KiB. Here each slice is transposed into a stage in
 * L1 with plain stores, and the stages go out as one run of streaming
 * stores (lt__run_stream), which keeps whole the lines that one slice's
 * output shares with the next. Same-run ratio to memcpy, streamed from
 * the tiles -> staged, F32 (0,1,3,2) of: [32, 16, 77, 64] (slices of
 * 19 KiB) 0.42-0.44 -> 0.48-0.52, [128, 16, 77, 64] 0.36-0.38 -> 0.45,
 * [64, 16, 50, 64] 0.38 -> 0.64-0.70, [64, 16, 150, 32] 0.55-0.56 ->
 * 0.65-0.66, [32, 16, 97, 64] 0.51-0.54 -> 0.54-0.56; (0,2,1) of [2000,
 * 33, 47] 0.32-0.33 -> 0.57-0.62; bf16 [64, 16, 77, 64] 0.27-0.28 ->
 * 0.45-0.46, [32, 16, 197, 64] 0.44 -> 0.56-0.61. Slices of 32 KiB came
 * level ([32, 16, 127, 64], [16, 16, 257, 32]), larger ones and rows on
 * lines lost (F32 [64, 12, 197, 64] 0.66-0.71 -> 0.55, [32, 16, 64, 64]
 * 0.68 -> 0.50-0.51). */
enum { STAGED_SLICE_MAX_BYTES = 32768 };

static bool stages_slices(const lt__copy_args *a, int64_t es) {
  int in = a->ndim - 1, k = a->transpose_dim;
  if (k != in - 1 || a->shape[in] * es % 64 == 0) return false;
  int64_t dense = 1;
  for (int d = in; d >= 0; d--) {
    if (a->dst_strides[d] != dense) return false;
    dense *= a->shape[d];
  }
  return a->shape[in] * a->shape[k] * es <= STAGED_SLICE_MAX_BYTES;
}

/* Outer indices [i0, i1) through the stage (above); without memory for
 * it, streamed straight from the tiles. */
static void staged_slices(void *ctx, int64_t i0, int64_t i1) {
  const lt__tile_job *j = ctx;
  const lt__copy_args *a = j->a;
  int64_t es = (int64_t)lt__dtype_size(a->dst_dtype);
  int in = a->ndim - 1, k = a->transpose_dim;
  int64_t rows = a->shape[in], cols = a->shape[k], bytes = rows * cols * es;
  char *stage = lt__alloc((size_t)bytes, 64);
  lt__odometer o = odometer_at(a, i0);
  lt__transpose_fn streamed = stage ? NULL : lt__transpose_best_streamed((size_t)es);
  lt__run_stream s;
  lt__run_stream_begin(&s, a->dst + i0 * bytes);
  for (int64_t i = i0; i < i1; i++) {
    const char *src = a->src + o.src_off;
    if (streamed) {
      streamed(a->dst + i * bytes, rows, src, a->src_strides[in], rows, cols);
    } else {
      j->fn(stage, rows, src, a->src_strides[in], rows, cols);
      lt__run_stream_put(&s, stage, 0, 1, bytes, false);
    }
    lt__odometer_step(&o, a, in, k, es, es);
  }
  if (stage) lt__run_stream_end(&s);
  lt__stream_fence();
  lt__free(stage, (size_t)bytes, 64);
}

bool lt__tiled_transpose(const lt__copy_args *a, int64_t numel, int64_t bytes) {
  /* A batch of transposes whose slices are each small but together
   * outgrow the caches streams every slice. */
  size_t es = lt__dtype_size(a->dst_dtype);
  bool batch_large = numel * (int64_t)es >= LT__STREAM_MIN_BYTES;
  if (!tileable(a)) return false;
  switch (lt__channel_transpose(a, numel, bytes)) {
  case LT__CHANNELS_GATHERS: return false;
  case LT__CHANNELS_DONE: return true;
  case LT__CHANNELS_TILES: break;
  }
  if (lt__grouped_transpose(a)) return true;
  int64_t outer = numel / (a->shape[a->ndim - 1] * a->shape[a->transpose_dim]);
  if (batch_large && stages_slices(a, (int64_t)es)) {
    /* fn cached: stages in L1 */
    lt__tile_job staged = {a, lt__transpose_best(es), false, a->shape[a->ndim - 1], 1, NULL};
    lt__parallel_for(outer, bytes, staged_slices, &staged);
    return true;
  }
  lt__tile_job j = {a, batch_large ? lt__transpose_best_streamed(es) : lt__transpose_best(es), batch_large,
                    a->shape[a->ndim - 1], side_by_side(a, (int64_t)es, batch_large), NULL};
  if (batch_large) j.band = banded_rows(a, (int64_t)es);
  lt__transpose_fn lagged =
      batch_large && lt__lagged_band(a, (int64_t)es, outer, j.band) ? lt__transpose_lagged_kernel(es) : NULL;
  if (lagged) j.fn = lagged, j.band = LT__LAGGED_ROWS;
  if (j.side > 1) j.side_fn = lt__transpose_side_kernel(es);
  /* Threads take whole outer indices where there are a few per thread:
   * split by columns, two threads would each read every source line of
   * a narrow transpose (BHTD (0,3,1,2): 64 columns) for half its bytes.
   * Short of that, they split the source's rows where a split by columns
   * would leave each thread under ROW_SPLIT_SHARE_BYTES of every source
   * row (and, cached, where each thread then writes enough of every
   * destination row: splits_rows), and its columns otherwise. */
  int threads = lt_get_num_threads();
  if (lagged && outer == 1)
    lt__parallel_for((a->shape[a->ndim - 1] + j.band - 1) / j.band, bytes, transpose_bands, &j);
  else if (outer >= OUTER_PER_THREAD * threads)
    lt__parallel_for(outer, bytes, transpose_outer, &j);
  else if (splits_rows(a, (int64_t)es, threads, j.streamed))
    lt__parallel_for((a->shape[a->ndim - 1] + ROW_BLOCK - 1) / ROW_BLOCK, bytes, transpose_rows, &j);
  else
    lt__parallel_for(a->shape[a->transpose_dim], bytes, transpose_cols, &j);
  return true;
}
