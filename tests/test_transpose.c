/* The transpose kernels of backends/cpu/transpose: every path this CPU
 * runs, for every element size, against the naive loop, byte for byte,
 * on every shape up to 70 x 70 (all partial-tile combinations), with
 * padded, large and power-of-two leading dimensions, from and to
 * unaligned pointers, on larger shapes, and past the size where the
 * vector paths switch to streaming stores (with and without memory for
 * their stage); the destination's padding must stay untouched. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "support/check_helpers.h"
#include "transpose_tiled.h"

static const char *const PATH_NAMES[LT__TRANSPOSE_NPATHS] = {"scalar", "avx2", "avx512", "avx512vbmi"};
static const size_t SIZES[4] = {1, 2, 4, 8};

/* Static so that a failing assert leaks nothing under CK_FORK=no; large
 * enough for 1000 x 777 eight-byte elements with padded rows. */
#define BUF_BYTES (8u << 20)
static _Alignas(64) unsigned char src_buf[BUF_BYTES], got_buf[BUF_BYTES], want_buf[BUF_BYTES];

typedef struct layout {
  int64_t rows, cols, src_ld, dst_ld;
  size_t src_off, dst_off; /* bytes past a 64-byte boundary */
} layout;

typedef struct kernel_under_test {
  lt__transpose_fn fn;
  size_t es;
  const char *path;
} kernel_under_test;

/* The loop test index _i names one (path, size) pair: path * 4 + size. */
static kernel_under_test kernel_of(int i) {
  kernel_under_test k = {NULL, SIZES[i % 4], PATH_NAMES[i / 4]};
  k.fn = lt__transpose_kernel(k.es, (lt__transpose_path)(i / 4));
  /* a path that shares this size's kernel with the one before it (the
   * VBMI path's 2- to 8-byte kernels) adds nothing to test */
  if (i / 4 > 0 && k.fn == lt__transpose_kernel(k.es, (lt__transpose_path)(i / 4 - 1))) k.fn = NULL;
  return k;
}

/* The always-streaming kernel of kernel_of(i)'s path and size, or NULL
 * where kernel_of's is. Past the cached limit a path's own kernel
 * streams too, except where that limit is larger (lt__streams_output):
 * the tests of streaming past it check both. */
static kernel_under_test streamed_kernel_of(int i) {
  static const char *const names[LT__TRANSPOSE_NPATHS] = {"scalar streamed", "avx2 streamed", "avx512 streamed",
                                                          "avx512vbmi streamed"};
  kernel_under_test k = kernel_of(i);
  if (k.fn) k.fn = lt__transpose_streamed_kernel(k.es, (lt__transpose_path)(i / 4));
  k.path = names[i / 4];
  return k;
}

static uint64_t next_random(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

static void fill_random(unsigned char *p, size_t n, uint64_t seed) {
  uint64_t s = seed * 0x9E3779B97F4A7C15u + 1;
  for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(next_random(&s) >> 56);
}

static void naive_transpose(unsigned char *dst, const unsigned char *src, const layout *l, size_t es) {
  for (int64_t r = 0; r < l->rows; r++)
    for (int64_t c = 0; c < l->cols; c++)
      memcpy(dst + (size_t)(c * l->dst_ld + r) * es, src + (size_t)(r * l->src_ld + c) * es, es);
}

/* Bytes past the destination's extent that must stay untouched too. */
#define GUARD_BYTES 65536

/* The first of the n bytes where got_buf and want_buf differ, or n where
 * none does (memcmp first: Check reports every passing assert through a
 * pipe). */
static size_t first_difference(size_t n) {
  if (memcmp(got_buf, want_buf, n) == 0) return n;
  size_t i = 0;
  while (got_buf[i] == want_buf[i]) i++;
  return i;
}

/* Fails the test where got_buf and want_buf differ in their first n
 * bytes: the case (printf's fmt and the rest), then the first differing
 * byte, counted from the destination's start at off. */
__attribute__((format(printf, 3, 4))) static void assert_bytes_match(size_t n, size_t off, const char *fmt, ...) {
  size_t i = first_difference(n);
  if (i == n) return;
  char what[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  ck_abort_msg("%s: byte %lld is %#x, want %#x", what, (long long)i - (long long)off, got_buf[i], want_buf[i]);
}

/* Runs k on l and compares the whole destination extent, padding
 * included, and GUARD_BYTES past it with the naive loop's. */
static void check_layout(const kernel_under_test *k, const layout *l) {
  size_t src_bytes = (size_t)(l->rows * l->src_ld) * k->es + l->src_off;
  size_t extent = (size_t)(l->cols * l->dst_ld) * k->es + l->dst_off;
  ck_assert_msg(src_bytes <= BUF_BYTES && extent <= BUF_BYTES, "layout too large for the test buffers");
  size_t dst_bytes = extent + GUARD_BYTES < BUF_BYTES ? extent + GUARD_BYTES : BUF_BYTES;
  fill_random(src_buf, src_bytes, (uint64_t)(l->rows * 1000 + l->cols));
  memset(got_buf, 0xA5, dst_bytes);
  memset(want_buf, 0xA5, dst_bytes);
  naive_transpose(want_buf + l->dst_off, src_buf + l->src_off, l, k->es);
  k->fn((char *)got_buf + l->dst_off, l->dst_ld, (const char *)src_buf + l->src_off, l->src_ld, l->rows, l->cols);
  lt__stream_fence(); /* the streamed kernels leave it to their caller */
  assert_bytes_match(dst_bytes, l->dst_off,
                     "%s es=%zu rows=%lld cols=%lld src_ld=%lld dst_ld=%lld src_off=%zu dst_off=%zu", k->path,
                     k->es, (long long)l->rows, (long long)l->cols, (long long)l->src_ld, (long long)l->dst_ld,
                     l->src_off, l->dst_off);
}

static int64_t at_least_1(int64_t n) { return n > 0 ? n : 1; }

START_TEST(every_shape_up_to_70_by_70_matches_the_naive_loop) {
  kernel_under_test k = kernel_of(_i);
  if (!k.fn) return;
  for (int64_t rows = 0; rows <= 70; rows++)
    for (int64_t cols = 0; cols <= 70; cols++) {
      layout l = {rows, cols, at_least_1(cols), at_least_1(rows), 0, 0};
      check_layout(&k, &l);
    }
}
END_TEST

START_TEST(padded_leading_dimensions_leave_the_padding_untouched) {
  kernel_under_test k = kernel_of(_i);
  if (!k.fn) return;
  for (int64_t rows = 1; rows <= 70; rows += 3)
    for (int64_t cols = 1; cols <= 70; cols += 5) {
      layout l = {rows, cols, cols + 37, rows + 129, 0, 0};
      check_layout(&k, &l);
    }
}
END_TEST

START_TEST(large_leading_dimensions_match_the_naive_loop) {
  kernel_under_test k = kernel_of(_i);
  if (!k.fn) return;
  layout l = {20, 30, 40000, 30001, 0, 0};
  check_layout(&k, &l);
}
END_TEST

/* Few rows and many columns: the edge kernels' banded loop over several
 * bands, with a partial last one, and the thin kernels (2 to 15 source
 * rows), which stream packed destinations past the cached limit (on Zen
 * 5 a larger one; the streamed kernels stream these too), from and to
 * unaligned pointers too. */
START_TEST(thin_shapes_match_the_naive_loop) {
  kernel_under_test k = kernel_of(_i), streamed_k = streamed_kernel_of(_i);
  if (!k.fn) return;
  static const int64_t rows[] = {1, 3, 12, 15};
  for (int i = 0; i < 4; i++) {
    layout l = {rows[i], 1000, 1000, rows[i], 0, 0};
    check_layout(&k, &l);
    layout t = {1000, rows[i], rows[i], 1000, 0, 0};
    check_layout(&k, &t);
  }
  static const layout streamed[] = {
      {12, 30000, 30000, 12, 0, 0}, {12, 30001, 30003, 12, 4, 8},
      {2, 70001, 70001, 2, 0, 0},   {7, 40000, 40000, 9, 0, 0}};
  for (int i = 0; i < 4; i++) {
    check_layout(&k, &streamed[i]);
    check_layout(&streamed_k, &streamed[i]);
  }
  /* Packed output just past the cached limit for every element size
   * (bytes included: their thin kernel takes 64 columns a step, and
   * streams four steps at a time), off its lines by three elements. */
  int64_t wide = (1 << 20) / (13 * (int64_t)k.es) + 1001;
  layout past = {13, wide, wide + 5, 13, 0, 3 * k.es};
  check_layout(&k, &past);
  check_layout(&streamed_k, &past);
}
END_TEST

/* Rows a power of two apart share cache sets; only speed may suffer. */
START_TEST(power_of_two_leading_dimensions_match_the_naive_loop) {
  kernel_under_test k = kernel_of(_i);
  if (!k.fn) return;
  layout l = {130, 67, 512, 256, 0, 0};
  check_layout(&k, &l);
  /* Destination rows 4 KiB apart and source rows closer, which Zen 5
   * walks down columns with staggered stores (see lt__tiles_staggered):
   * partial tiles on both sides, a column of two tiles (fewer than the
   * parts), a column of ten tiles (more than the parts of every tile
   * size) and a partial one, and rows off a line (which walk as usual). */
  const int64_t ld = 4096 / (int64_t)k.es;
  const layout far[] = {{300, 37, 40, ld, 0, 0},
                        {2 * 64 / (int64_t)k.es, 70, 70, ld, 0, 0},
                        {10 * 64 / (int64_t)k.es + 5, 70, 70, ld, 0, 0},
                        {300, 37, 40, ld, 0, 4}};
  for (int i = 0; i < 4; i++) check_layout(&k, &far[i]);
  /* Rows 4 KiB apart on both sides, a source no taller than wide, which
   * Zen 5 copies into a buffer first (see lt__tiles_buffered): from a
   * line and from 8 bytes past one (the full tiles then start further
   * in), and one too large for the buffer. */
  const layout both[] = {{40, 70, ld, ld, 0, 0}, {40, 70, ld, ld, 8, 0}, {100, 140, ld, ld, 0, 0}};
  for (int i = 0; i < 3; i++) check_layout(&k, &both[i]);
}
END_TEST

/* Destination rows a few bytes short of or past 4 KiB (packed rows of
 * 4080 and 4120 bytes, and padded ones of 4092), which Intel cores walk
 * along the source's rows: partial tiles on both sides, and a source of
 * one and of several tile columns; and rows staged on AMD cores. */
START_TEST(rows_near_a_multiple_of_4_kib_match_the_naive_loop) {
  kernel_under_test k = kernel_of(_i);
  if (!k.fn) return;
  const int64_t e = (int64_t)k.es, short_rows = 4080 / e, long_rows = 4120 / e;
  const layout near[] = {{short_rows, 40, 43, short_rows, 0, 0},
                         {long_rows, 100, 100, long_rows, 4, 0},
                         {short_rows - 5, 70, 70, 4092 / e, 0, 8}};
  for (int i = 0; i < 3; i++) check_layout(&k, &near[i]);
  /* Rows within 8 bytes of a multiple, which AMD cores transpose through
   * a stage (see lt__tiles_staged): several blocks of rows and of
   * columns, the last of each partial (60 and 50 columns: 48 of full
   * tiles, a block and a half of 4- and 8-byte ones), 8 bytes past a
   * multiple of 8 KiB, and full tiles starting further in on both
   * sides; and 12 bytes short of and past a multiple, which Zen 4
   * stages too. */
  const layout staged[] = {{300, 60, 61, 4088 / e, 0, 0}, {700, 50, 50, 8200 / e, 0, 0},
                           {300, 60, 64, 4104 / e, 8, 8}, {300, 60, 61, 4084 / e, 0, 0},
                           {200, 70, 70, 8204 / e, 0, 8}};
  for (int i = 0; i < 5; i++) check_layout(&k, &staged[i]);
}
END_TEST

START_TEST(unaligned_pointers_match_the_naive_loop) {
  kernel_under_test k = kernel_of(_i);
  if (!k.fn) return;
  static const size_t offsets[] = {1, 3, 8, 17, 33, 63};
  for (size_t so = 0; so < 6; so++)
    for (size_t d = 0; d < 6; d++) {
      /* Byte offsets that are not a multiple of es would misalign the
       * elements themselves; the kernels must not care. */
      layout l = {69, 71, 75, 70, offsets[so], offsets[d]};
      check_layout(&k, &l);
    }
}
END_TEST

START_TEST(large_shapes_match_the_naive_loop) {
  kernel_under_test k = kernel_of(_i);
  if (!k.fn) return;
  static const layout shapes[] = {
      {1000, 777, 777, 1000, 0, 0},
      {777, 1000, 1003, 780, 5, 9},
      {257, 1031, 1031, 257, 0, 0},
      {64, 4096, 4096, 64, 0, 0},
      {4096, 3, 3, 4096, 0, 0},
  };
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) check_layout(&k, &shapes[i]);
}
END_TEST

/* The fewest bytes the full tiles of l can hold, wherever the kernel
 * starts them (less than a line in on each side). */
static int64_t full_tile_bytes_at_least(const layout *l, size_t es) {
  int64_t line = 64 / (int64_t)es;
  int64_t r = l->rows - (line - 1), c = l->cols - (line - 1);
  return r > 0 && c > 0 ? (r / line * line) * (c / line * line) * (int64_t)es : 0;
}

/* Columns that make k rows of full tiles hold more than the cached limit
 * (with rows = (k + 1) * line - 1, the kernel finds exactly k). */
static int64_t cols_past_the_cached_limit(int64_t k, size_t es) {
  int64_t line = 64 / (int64_t)es;
  return LT__CACHED_MAX_BYTES / (int64_t)es / (k * line) + 2 * line;
}

/* Past LT__CACHED_MAX_BYTES the vector paths switch to streaming stores
 * (on Zen 5 past a larger limit; the streamed kernels stream here too),
 * staging each destination line that a tile row straddles: aligned rows
 * with the full tiles starting a few elements in, rows of every alignment
 * (odd leading dimensions), misaligned elements (rows two bytes apart in
 * alignment, or one), and runs of one, two and three tiles along the
 * destination rows. */
START_TEST(destinations_past_the_cached_limit_match_the_naive_loop) {
  kernel_under_test k = kernel_of(_i), streamed = streamed_kernel_of(_i);
  if (!k.fn) return;
  int64_t line = 64 / (int64_t)k.es;
  int64_t cols = 300, rows = LT__CACHED_MAX_BYTES / (int64_t)k.es / (cols - 2 * line) + 2 * line + 1;
  int64_t aligned_ld = (rows / line + 2) * line;
  const layout layouts[] = {
      {rows, cols, (cols / line + 2) * line, aligned_ld, 64 - 3 * k.es, 64 - 5 * k.es},
      {rows, cols, cols + 1, rows + 1, 0, 0},
      {rows, cols, cols, aligned_ld + 1, 1, 3},
      {rows, cols, cols + 3, rows + 1, 0, 2},
      {2 * line - 1, cols_past_the_cached_limit(1, k.es), cols_past_the_cached_limit(1, k.es) + 1, 2 * line + 1, 0, 0},
      {3 * line - 1, cols_past_the_cached_limit(2, k.es), cols_past_the_cached_limit(2, k.es), 3 * line - 1, 0, 0},
      {4 * line - 1, cols_past_the_cached_limit(3, k.es), cols_past_the_cached_limit(3, k.es), 4 * line + 7, 0, 0},
  };
  for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++) {
    ck_assert_int_gt(full_tile_bytes_at_least(&layouts[i], k.es), LT__CACHED_MAX_BYTES);
    check_layout(&k, &layouts[i]);
    check_layout(&streamed, &layouts[i]);
  }
}
END_TEST

/* Where the tiles stream (lt__streams_output): past 1 MiB of output on
 * Intel cores, 4 MiB on Zen 4 (and any others), 8 MiB on Zen 5, but past
 * 1 MiB on every one where either side's rows lie on or near a multiple
 * of 4 KiB. */
START_TEST(tiles_stream_past_the_cached_limit_for_this_cpu) {
  const int64_t MiB = 1 << 20, dld = 2900 * 4, sld = 2600 * 4;
  int64_t limit = lt__intel_cores() ? MiB : lt__zen5_cores() ? 8 * MiB : 4 * MiB;
  ck_assert(!lt__streams_output(limit, dld, sld)); /* this CPU's limit itself */
  ck_assert(lt__streams_output(limit + 1, dld, sld));
  ck_assert(!lt__streams_output(MiB, dld, sld));
  ck_assert(lt__streams_output(2 * MiB, 4096 * 3 + 4, sld)); /* destination rows near a page multiple */
  ck_assert(lt__streams_output(2 * MiB, dld, 8192));         /* source rows on one */
  ck_assert(!lt__streams_output(MiB, dld, 8192));
  ck_assert(lt__streams_output(8 * MiB + 1, dld, sld));
  /* a thin kernel's packed output, its rows 8 bytes apart, counts as on pages */
  ck_assert(lt__streams_output(2 * MiB, 8, 3000));
}
END_TEST

static void *failing_alloc(size_t size, size_t align, void *ctx) { return NULL; }
static void unused_free(void *p, size_t size, size_t align, void *ctx) {}
static void restore_allocator(void) { lt_set_allocator(NULL); }

/* Streaming to rows that are not line-aligned needs a stage from the
 * allocator; without one the kernel stays on plain stores. */
START_TEST(streaming_without_memory_for_its_stage_still_matches_the_naive_loop) {
  kernel_under_test k = kernel_of(_i), streamed = streamed_kernel_of(_i);
  if (!k.fn) return;
  int64_t cols = 300, rows = LT__CACHED_MAX_BYTES / (int64_t)k.es / (cols - 128) + 129;
  layout l = {rows, cols, cols + 1, rows + 1, 0, 0};
  lt_allocator none = {failing_alloc, unused_free, NULL};
  lt_set_allocator(&none);
  check_layout(&k, &l);
  check_layout(&streamed, &l);
}
END_TEST

/* The always-streaming kernels, which batches of small transposes use:
 * every small shape and misalignment must still match. */
START_TEST(streamed_kernels_match_the_naive_loop_on_small_and_unaligned_shapes) {
  kernel_under_test k = {lt__transpose_best_streamed(SIZES[_i]), SIZES[_i], "best streamed"};
  ck_assert_ptr_nonnull(k.fn);
  for (int64_t rows = 0; rows <= 70; rows += 3)
    for (int64_t cols = 0; cols <= 70; cols += 7) {
      layout l = {rows, cols, at_least_1(cols), at_least_1(rows), 0, 0};
      check_layout(&k, &l);
    }
  static const size_t offsets[] = {1, 8, 33};
  for (size_t so = 0; so < 3; so++)
    for (size_t d = 0; d < 3; d++) {
      layout l = {69, 130, 131, 70, offsets[so], offsets[d]};
      check_layout(&k, &l);
    }
  /* Destination rows a multiple of 128 bytes apart, an element off one,
   * and from a pointer off a line: Intel cores stream halves there in
   * pairs of tiles too (takes_pairs); two strips of pairs, then rows
   * past the last full tile. */
  const int64_t ld = 1536 / (int64_t)k.es;
  const layout bit6[] = {{140, 100, 100, ld, 0, 0}, {140, 100, 100, ld + 1, 0, 0}, {140, 100, 100, ld, 0, 6}};
  for (int i = 0; i < 3; i++) check_layout(&k, &bit6[i]);
}
END_TEST

/* Streamed kernels that go through panels (the AVX2 path's words and
 * doubles; LT__PANEL_COLS columns by LT__PANEL_ROW_BYTES of destination
 * row), and the others on the same shapes: several panels each way with
 * partial last ones, destination rows of every alignment (whose runs
 * hand their last partial line to the next panel down), offset pointers,
 * a single panel down the rows, rows too far apart for panels, and
 * source rows past the last full tile that the edge kernel reads a
 * chunk of columns at a time (lt__edge_pulled). */
START_TEST(streamed_panels_match_the_naive_loop) {
  kernel_under_test k = {lt__transpose_best_streamed(SIZES[_i]), SIZES[_i], "best streamed"};
  int64_t line = 64 / (int64_t)k.es, panel_rows = LT__PANEL_ROW_BYTES / (int64_t)k.es;
  int64_t rows = 2 * panel_rows + line + 3, cols = 2 * LT__PANEL_COLS + 3 * line + 5;
  const layout layouts[] = {
      {rows, cols, cols, rows, 0, 0},
      {rows, cols, cols + 1, rows + 1, 0, 0},
      {rows, cols, cols + 3, rows + 5, 64 - 3 * k.es, 2 * k.es},
      {rows, cols, cols, (rows / line + 1) * line, 0, 64 - line / 2 * k.es},
      {2 * line + 1, cols, cols, 2 * line + 3, 0, k.es},
      {3 * line - 1, cols, cols, 3 * line + 1, 0, 0}, /* tail rows a tile less one, read in chunks of columns */
      {rows, 3 * line, 3 * line, LT__PANEL_MAX_LD / (int64_t)k.es + 1, 0, 0},
  };
  for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++) check_layout(&k, &layouts[i]);
}
END_TEST

/* Packed destination rows off a line, past the cached limit: the lines
 * between one row's full tiles and the next row's go out after each
 * panel of destination rows, with the row's tail (the source's last
 * rows, short of a tile) gathered into them. Several panels (five of
 * LT__PANEL_ROWS, the last narrower, or on Intel cores two or three of
 * up to LT__PANEL_ROWS_INTEL); tails of none to a tile less one;
 * destinations off their elements' alignment (staged rather than
 * spliced lines). */
START_TEST(packed_destinations_over_several_panels_match_the_naive_loop) {
  kernel_under_test k = kernel_of(_i), streamed = streamed_kernel_of(_i);
  if (!k.fn) return;
  int64_t line = 64 / (int64_t)k.es, cols = 2 * LT__PANEL_ROWS_INTEL + 37, full_cols = cols / line * line;
  int64_t full_rows = (LT__CACHED_MAX_BYTES / (full_cols * (int64_t)k.es) / line + 3) * line;
  const int64_t tails[] = {0, 1, line / 2 + 1, line - 1};
  const size_t offsets[][2] = {{0, 0}, {3 * k.es, k.es}, {0, 64 - k.es}, {k.es, 1}};
  for (size_t t = 0; t < sizeof tails / sizeof tails[0]; t++)
    for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; o++) {
      int64_t rows = full_rows + tails[t];
      layout l = {rows, cols, cols, rows, offsets[o][0], offsets[o][1]};
      ck_assert_int_gt(full_tile_bytes_at_least(&l, k.es), LT__CACHED_MAX_BYTES);
      check_layout(&k, &l);
      check_layout(&streamed, &l);
    }
}
END_TEST

/* A transpose cut along its source rows into seamed calls (rows[i] source
 * rows each), every call's destination rows starting where the last
 * call's ended, or (backwards) the calls taken last first, so that none
 * starts where the one before ended; the seams written through an
 * lt__seam_run: the whole destination extent, padding included, must
 * match the naive loop's. */
static void check_seamed(lt__transpose_seamed_fn fn, size_t es, const layout *l, const int64_t *rows, int ncalls,
                         bool backwards) {
  static _Alignas(64) char seams[2 * 192 * 128];
  size_t src_bytes = (size_t)(l->rows * l->src_ld) * es + l->src_off;
  size_t dst_bytes = (size_t)(l->cols * l->dst_ld) * es + l->dst_off;
  ck_assert(src_bytes <= BUF_BYTES && dst_bytes <= BUF_BYTES && l->cols <= 192);
  fill_random(src_buf, src_bytes, (uint64_t)(l->rows * 1000 + l->cols));
  memset(got_buf, 0xA5, dst_bytes);
  memset(want_buf, 0xA5, dst_bytes);
  naive_transpose(want_buf + l->dst_off, src_buf + l->src_off, l, es);
  lt__seam_run run = {seams, l->cols, l->dst_ld * (int64_t)es, 0, NULL};
  int64_t start[4], total = 0, seamed = 0;
  for (int i = 0; i < ncalls; total += rows[i++]) start[i] = total;
  for (int k = 0; k < ncalls; k++) {
    int i = backwards ? ncalls - 1 - k : k;
    char *dst = (char *)got_buf + l->dst_off + start[i] * (int64_t)es;
    const char *src = (const char *)src_buf + l->src_off + start[i] * l->src_ld * (int64_t)es;
    bool s = fn(dst, l->dst_ld, src, l->src_ld, rows[i], l->cols, lt__seam_run_next(&run));
    lt__seam_run_step(&run, dst, rows[i] * (int64_t)es, s);
    seamed += s;
  }
  lt__seam_run_finish(&run);
  lt__stream_fence();
  ck_assert_int_eq(total, l->rows);
  size_t i = 0;
  while (i < dst_bytes && got_buf[i] == want_buf[i]) i++;
  ck_assert_msg(i == dst_bytes,
                "es=%zu rows=%lld cols=%lld dst_ld=%lld dst_off=%zu, %lld calls seamed%s: byte %lld is %#x, want %#x",
                es, (long long)l->rows, (long long)l->cols, (long long)l->dst_ld, l->dst_off, (long long)seamed,
                backwards ? " backwards" : "", (long long)i - (long long)l->dst_off, got_buf[i], want_buf[i]);
}

/* Seamed calls (lt__transpose_seamed_fn), the way grouped_transpose.c
 * makes them: destination rows of every alignment, whole lines apart or
 * not, one call or several, tiles of every count from two, calls that do
 * not fit (a tile's side or less, rows short of a tile) between those
 * that do, which must close the seamed run before them and open a new
 * one after, and calls that do not continue the last one's rows. Bytes,
 * halves and words; no kernel for doubles. */
START_TEST(seamed_calls_along_the_rows_match_the_naive_loop) {
  size_t es = SIZES[_i];
  lt__transpose_seamed_fn fn = lt__transpose_seamed_kernel(es);
  if (es == 8) ck_assert_ptr_null(fn);
  if (!fn) return;
  int64_t t = 64 / (int64_t)es;
  const int64_t splits[][4] = {{2 * t, 2 * t, 2 * t, 2 * t}, {3 * t, 2 * t, 5 * t, 2 * t}, {4 * t, 0, 0, 0},
                               {2 * t, t, 2 * t, 3 * t},     {2 * t, t + 3, 3 * t, 2 * t}, {t - 1, 2 * t, 2 * t, 1}};
  const int64_t pads[] = {0, 1, 2, 5, t / 2 + 3, t};
  const size_t offsets[] = {0, es, 32};
  for (size_t p = 0; p < sizeof splits / sizeof splits[0]; p++)
    for (int64_t cols = t; cols <= 3 * t; cols += 2 * t)
      for (size_t d = 0; d < sizeof pads / sizeof pads[0]; d++)
        for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; o++) {
          int ncalls = 0;
          int64_t rows = 0;
          while (ncalls < 4 && splits[p][ncalls] > 0) rows += splits[p][ncalls++];
          layout l = {rows, cols, cols, rows + pads[d], 0, offsets[o]};
          check_seamed(fn, es, &l, splits[p], ncalls, false);
          check_seamed(fn, es, &l, splits[p], ncalls, true);
        }
}
END_TEST

/* Without the stage, a seamed call writes everything itself and says so. */
START_TEST(seamed_calls_without_memory_for_the_stage_match_the_naive_loop) {
  size_t es = SIZES[_i];
  lt__transpose_seamed_fn fn = lt__transpose_seamed_kernel(es);
  if (!fn) return;
  int64_t t = 64 / (int64_t)es, split[] = {2 * t, 3 * t};
  layout l = {5 * t, t, t, 5 * t + 1, 0, 0};
  lt_allocator none = {failing_alloc, unused_free, NULL};
  lt_set_allocator(&none);
  check_seamed(fn, es, &l, split, 2, false);
}
END_TEST

/* n slices side by side (lt__transpose_side_fn) against the naive loop,
 * the destination's extent and GUARD_BYTES past it: rows and columns of
 * whole tiles and partial ones, stage rows of under 16 bytes, under 512
 * (16-byte moves) and over 512 off a multiple of 64 (64-byte ones, the
 * last over the one before), slices with gaps between them on both
 * sides, destinations off a line; two, three and four slices (F32 on Zen
 * 4 takes them in pairs, an odd one last). No kernel without AVX-512. */
static void check_side(lt__transpose_side_fn fn, size_t es, int64_t rows, int64_t cols, int64_t n, int64_t pad,
                       size_t dst_off) {
  static _Alignas(64) char stage[32768];
  int64_t src_step = cols + pad, src_ld = n * src_step + pad, dst_ld = n * rows + pad;
  size_t src_bytes = (size_t)(rows * src_ld) * es, extent = (size_t)(cols * dst_ld) * es + dst_off;
  size_t dst_bytes = extent + GUARD_BYTES;
  ck_assert(src_bytes <= BUF_BYTES && dst_bytes <= BUF_BYTES && (size_t)(n * rows * cols) * es <= sizeof stage);
  fill_random(src_buf, src_bytes, (uint64_t)(rows * 1000 + cols * 10 + n));
  memset(got_buf, 0xA5, dst_bytes);
  memset(want_buf, 0xA5, dst_bytes);
  for (int64_t s = 0; s < n; s++)
    for (int64_t r = 0; r < rows; r++)
      for (int64_t c = 0; c < cols; c++)
        memcpy(want_buf + dst_off + (size_t)(c * dst_ld + s * rows + r) * es,
               src_buf + (size_t)(r * src_ld + s * src_step + c) * es, es);
  fn((char *)got_buf + dst_off, dst_ld, (const char *)src_buf, src_ld, rows, cols, n, src_step, stage);
  assert_bytes_match(dst_bytes, dst_off, "es=%zu rows=%lld cols=%lld n=%lld pad=%lld dst_off=%zu", es,
                     (long long)rows, (long long)cols, (long long)n, (long long)pad, dst_off);
}

START_TEST(slices_side_by_side_match_the_naive_loop) {
  size_t es = SIZES[_i];
  lt__transpose_side_fn fn = lt__transpose_side_kernel(es);
  if (!fn) return;
  int64_t t = 64 / (int64_t)es, wide = 512 / (2 * (int64_t)es) + 1; /* two slices of wide rows: over 512 bytes */
  const int64_t rows[] = {1, 2, t - 1, t, t + 1, 2 * t + 3, wide};
  const int64_t cols[] = {1, t - 1, t, t + 5, 2 * t};
  for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++)
    for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++)
      for (int64_t n = 2; n <= 4; n++)
        for (int64_t pad = 0; pad <= 3; pad += 3) {
          if ((size_t)(n * rows[r] * cols[c]) * es > 32768) continue;
          check_side(fn, es, rows[r], cols[c], n, pad, 0);
          check_side(fn, es, rows[r], cols[c], n, pad, 3 * es);
        }
}
END_TEST

/* A band through the lagged kernel (lt__transpose_lagged_kernel)
 * against the naive loop, the destination's extent and GUARD_BYTES past
 * it (the kernel streams, so the check fences first). Two whole strips
 * (LT__LAGGED_ROWS rows) on lines: one tile's columns, one chunk, a
 * chunk and a tile (the last chunk short), several chunks; and calls the
 * kernel passes to the streamed tiles: other rows, columns past whole
 * tiles, destination rows off a line, a destination off a line. F32
 * only; no kernel without AVX-512. */
static void check_lagged(lt__transpose_fn fn, int64_t rows, int64_t cols, int64_t pad, size_t dst_off) {
  const size_t es = 4;
  int64_t src_ld = cols + 16, dst_ld = rows + pad;
  size_t src_bytes = (size_t)(rows * src_ld) * es, extent = (size_t)(cols * dst_ld) * es + dst_off;
  size_t dst_bytes = extent + GUARD_BYTES;
  ck_assert(src_bytes <= BUF_BYTES && dst_bytes <= BUF_BYTES);
  fill_random(src_buf, src_bytes, (uint64_t)(rows * 1000 + cols * 10 + pad));
  memset(got_buf, 0xA5, dst_bytes);
  memset(want_buf, 0xA5, dst_bytes);
  for (int64_t r = 0; r < rows; r++)
    for (int64_t c = 0; c < cols; c++)
      memcpy(want_buf + dst_off + (size_t)(c * dst_ld + r) * es, src_buf + (size_t)(r * src_ld + c) * es, es);
  fn((char *)got_buf + dst_off, dst_ld, (const char *)src_buf, src_ld, rows, cols);
  lt__stream_fence();
  assert_bytes_match(dst_bytes, dst_off, "rows=%lld cols=%lld pad=%lld dst_off=%zu", (long long)rows,
                     (long long)cols, (long long)pad, dst_off);
}

START_TEST(lagged_bands_match_the_naive_loop) {
  lt__transpose_fn fn = lt__transpose_lagged_kernel(4);
  ck_assert_ptr_null(lt__transpose_lagged_kernel(2));
  if (!fn) return;
  const int64_t rows[] = {LT__LAGGED_ROWS, 16, LT__LAGGED_ROWS + 1}, cols[] = {16, 32, 48, 160, 21};
  for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++)
    for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++) {
      check_lagged(fn, rows[r], cols[c], 0, 0);
      check_lagged(fn, rows[r], cols[c], 16, 0);
      check_lagged(fn, rows[r], cols[c], 1, 0);
      check_lagged(fn, rows[r], cols[c], 0, 4);
    }
}
END_TEST

/* For the rows kernels: nrows source rows of ncols random elements,
 * row_step elements apart from lead bytes into src_buf (off any line),
 * listed in rows in the reverse of their order there; want_buf gets
 * their transpose dst_off bytes in, its rows dst_ld elements apart, and
 * both destination buffers 0xA5 over dst_bytes. */
static void rows_case(const char **rows, int64_t nrows, int64_t ncols, int64_t row_step, size_t lead, int64_t dst_ld,
                      size_t dst_off, size_t dst_bytes, size_t es) {
  size_t src_bytes = (size_t)(nrows * row_step) * es + lead;
  ck_assert(src_bytes <= BUF_BYTES && dst_bytes <= BUF_BYTES);
  fill_random(src_buf, src_bytes, (uint64_t)(nrows * 1000 + ncols * 10 + dst_ld));
  for (int64_t r = 0; r < nrows; r++)
    rows[r] = (const char *)src_buf + lead + (size_t)((nrows - 1 - r) * row_step) * es;
  memset(got_buf, 0xA5, dst_bytes);
  memset(want_buf, 0xA5, dst_bytes);
  for (int64_t r = 0; r < nrows; r++)
    for (int64_t c = 0; c < ncols; c++)
      memcpy(want_buf + dst_off + (size_t)(c * dst_ld + r) * es, rows[r] + (size_t)c * es, es);
}

/* The kernels that read rows where they lie (lt__transpose_rows_fn),
 * with plain stores and streaming ones, against the naive loop over the
 * destination's extent and GUARD_BYTES past it: nrows rows scattered
 * over the source at offsets off any line, in the reverse of their order
 * there, into destination rows on lines (the streaming kernel's
 * condition) that have padding after their nrows elements. No kernel
 * without AVX-512 (U8: VBMI) or for 8-byte elements. */
static void check_rows(lt__transpose_rows_fn fn, bool streamed, size_t es, int64_t nrows, int64_t ncols) {
  enum { MAX_ROWS = 256 };
  int64_t dst_ld = nrows + 64 / (int64_t)es; /* a line of padding after each row */
  const char *rows[MAX_ROWS];
  size_t dst_bytes = (size_t)(ncols * dst_ld) * es + GUARD_BYTES;
  ck_assert(nrows <= MAX_ROWS);
  rows_case(rows, nrows, ncols, ncols + 7, 5, dst_ld, 0, dst_bytes, es);
  fn((char *)got_buf, dst_ld, rows, nrows, ncols);
  lt__stream_fence();
  assert_bytes_match(dst_bytes, 0, "%s es=%zu nrows=%lld ncols=%lld", streamed ? "streamed" : "plain", es,
                     (long long)nrows, (long long)ncols);
}

START_TEST(rows_read_where_they_lie_match_the_naive_loop) {
  size_t es = SIZES[_i];
  int64_t t = 64 / (int64_t)es;
  for (int streamed = 0; streamed <= 1; streamed++) {
    lt__transpose_rows_fn fn = streamed ? lt__transpose_rows_streamed_kernel(es) : lt__transpose_rows_kernel(es);
    ck_assert_msg((fn == NULL) == (es == 8 || !lt__transpose_kernel(es, LT__TRANSPOSE_AVX512) ||
                                   (es == 1 && !lt__transpose_kernel(es, LT__TRANSPOSE_AVX512VBMI))),
                  "es=%zu: a kernel where AVX-512 runs, none elsewhere", es);
    if (!fn) continue;
    for (int64_t nr = 1; nr <= 4; nr++)
      for (int64_t nc = 1; nc <= 3; nc++) check_rows(fn, streamed, es, nr * t, nc * t);
  }
}
END_TEST

/* The seamed rows kernel (lt__transpose_rows_seamed_fn) as the grouped
 * transposes call it: two calls that continue the same destination rows
 * (the first n1 source rows, then the next n2), each leaving its rows'
 * ends in seams, and an lt__seam_run writing the lines where they meet
 * and the rows' ends; into rows off lines (dst_off bytes past a line,
 * rows dst_ld elements apart) that have padding after them, which must
 * stay untouched, as must GUARD_BYTES past the extent. */
static void check_rows_seamed(lt__transpose_rows_seamed_fn fn, size_t es, int64_t n1, int64_t n2, int64_t ncols,
                              int64_t pad, size_t dst_off) {
  enum { MAX_ROWS = 512 };
  static _Alignas(64) char seams[2 * 192 * 128];
  int64_t nrows = n1 + n2, dst_ld = nrows + pad;
  const char *rows[MAX_ROWS];
  size_t dst_bytes = (size_t)(ncols * dst_ld) * es + dst_off + GUARD_BYTES;
  ck_assert(nrows <= MAX_ROWS && ncols <= 192);
  rows_case(rows, nrows, ncols, ncols + 3, 7, dst_ld, dst_off, dst_bytes, es);
  char *dst = (char *)got_buf + dst_off;
  lt__seam_run run = {.seams = seams, .n = ncols, .dld = dst_ld * (int64_t)es};
  fn(dst, dst_ld, rows, n1, ncols, lt__seam_run_next(&run));
  lt__seam_run_step(&run, dst, n1 * (int64_t)es, true);
  fn(dst + n1 * (int64_t)es, dst_ld, rows + n1, n2, ncols, lt__seam_run_next(&run));
  lt__seam_run_step(&run, dst + n1 * (int64_t)es, n2 * (int64_t)es, true);
  lt__seam_run_finish(&run);
  lt__stream_fence();
  assert_bytes_match(dst_bytes, dst_off, "seamed es=%zu n1=%lld n2=%lld ncols=%lld pad=%lld dst_off=%zu", es,
                     (long long)n1, (long long)n2, (long long)ncols, (long long)pad, dst_off);
}

START_TEST(seamed_rows_read_where_they_lie_match_the_naive_loop) {
  size_t es = SIZES[_i];
  int64_t t = 64 / (int64_t)es;
  lt__transpose_rows_seamed_fn fn = lt__transpose_rows_seamed_kernel(es);
  ck_assert_msg((fn == NULL) == (lt__transpose_rows_streamed_kernel(es) == NULL), "es=%zu", es);
  if (!fn) return;
  /* rows a line apart plus 1, 2, 4, 32 bytes and none; destinations on
   * a line and off it; calls of two and three tiles */
  static const int64_t pad_bytes[] = {65, 66, 68, 96, 64};
  for (size_t p = 0; p < sizeof pad_bytes / sizeof pad_bytes[0]; p++) {
    if (pad_bytes[p] % (int64_t)es) continue;
    int64_t pad = pad_bytes[p] / (int64_t)es;
    for (size_t off = 0; off < 64; off += 24 - 24 % es)
      for (int64_t nc = 1; nc <= 3; nc += 2) {
        check_rows_seamed(fn, es, 2 * t, 3 * t, nc * t, pad, off);
        check_rows_seamed(fn, es, 3 * t, 2 * t, nc * t, pad, off);
      }
  }
}
END_TEST

START_TEST(best_kernel_exists_for_every_element_size) {
  for (size_t i = 0; i < 4; i++) ck_assert_msg(lt__transpose_best(SIZES[i]) != NULL, "es=%zu", SIZES[i]);
}
END_TEST

START_TEST(scalar_path_always_runs) {
  for (size_t i = 0; i < 4; i++) ck_assert_ptr_nonnull(lt__transpose_kernel(SIZES[i], LT__TRANSPOSE_SCALAR));
}
END_TEST

START_TEST(other_element_sizes_and_paths_have_no_kernel) {
  static const size_t bad[] = {0, 3, 5, 16};
  for (size_t i = 0; i < 4; i++) {
    ck_assert_ptr_null(lt__transpose_best(bad[i]));
    for (int p = 0; p < LT__TRANSPOSE_NPATHS; p++)
      ck_assert_ptr_null(lt__transpose_kernel(bad[i], (lt__transpose_path)p));
  }
  ck_assert_ptr_null(lt__transpose_kernel(4, LT__TRANSPOSE_NPATHS));
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("transpose");
  int pairs = LT__TRANSPOSE_NPATHS * 4;

  TCase *shapes = tcase_create("shapes");
  tcase_set_timeout(shapes, 300); /* the sweeps under valgrind */
  tcase_add_loop_test(shapes, every_shape_up_to_70_by_70_matches_the_naive_loop, 0, pairs);
  tcase_add_loop_test(shapes, padded_leading_dimensions_leave_the_padding_untouched, 0, pairs);
  tcase_add_loop_test(shapes, large_leading_dimensions_match_the_naive_loop, 0, pairs);
  tcase_add_loop_test(shapes, power_of_two_leading_dimensions_match_the_naive_loop, 0, pairs);
  tcase_add_loop_test(shapes, thin_shapes_match_the_naive_loop, 0, pairs);
  tcase_add_loop_test(shapes, rows_near_a_multiple_of_4_kib_match_the_naive_loop, 0, pairs);
  tcase_add_loop_test(shapes, unaligned_pointers_match_the_naive_loop, 0, pairs);
  tcase_add_loop_test(shapes, large_shapes_match_the_naive_loop, 0, pairs);
  tcase_add_loop_test(shapes, destinations_past_the_cached_limit_match_the_naive_loop, 0, pairs);
  tcase_add_test(shapes, tiles_stream_past_the_cached_limit_for_this_cpu);
  tcase_add_loop_test(shapes, streamed_kernels_match_the_naive_loop_on_small_and_unaligned_shapes, 0, 4);
  tcase_add_loop_test(shapes, streamed_panels_match_the_naive_loop, 0, 4);
  tcase_add_loop_test(shapes, packed_destinations_over_several_panels_match_the_naive_loop, 0, pairs);
  tcase_add_loop_test(shapes, seamed_calls_along_the_rows_match_the_naive_loop, 0, 4);
  tcase_add_loop_test(shapes, slices_side_by_side_match_the_naive_loop, 0, 4);
  tcase_add_test(shapes, lagged_bands_match_the_naive_loop);
  tcase_add_loop_test(shapes, rows_read_where_they_lie_match_the_naive_loop, 0, 4);
  tcase_add_loop_test(shapes, seamed_rows_read_where_they_lie_match_the_naive_loop, 0, 4);
  suite_add_tcase(s, shapes);

  TCase *no_memory = tcase_create("no_memory");
  tcase_add_checked_fixture(no_memory, NULL, restore_allocator);
  tcase_add_loop_test(no_memory, streaming_without_memory_for_its_stage_still_matches_the_naive_loop, 0, pairs);
  tcase_add_loop_test(no_memory, seamed_calls_without_memory_for_the_stage_match_the_naive_loop, 0, 4);
  suite_add_tcase(s, no_memory);

  TCase *select = tcase_create("select");
  tcase_add_test(select, best_kernel_exists_for_every_element_size);
  tcase_add_test(select, scalar_path_always_runs);
  tcase_add_test(select, other_element_sizes_and_paths_have_no_kernel);
  suite_add_tcase(s, select);
  return s;
}

int main(void) { return lt_run_suite(suite()); }
