/* Internal to backends/cpu/transpose: the loops every path shares. They
 * cut a transpose into square tiles of one cache line a side, so that a
 * tile reads and writes whole lines and no line has to stay cached from
 * one tile to another, hand the partial tiles around them to an edge
 * kernel, and pick plain or streaming stores by the output's size. */
#ifndef LT_TRANSPOSE_TILED_H
#define LT_TRANSPOSE_TILED_H

#include <stdbool.h>
#include <string.h>

#include "alloc.h"
#include "stream.h"
#include "transpose.h"
#include "vendor.h"

/* Where a tile's output goes: row i of the tile is the 64 bytes at
 * dst + i * dld (leading dimension in bytes). stream asks for streaming
 * stores, which need whole aligned lines; when the rows are not all
 * line-aligned, stage holds 128 bytes (64-byte aligned) per tile row that
 * carry each row's last segments from one tile to the next along it
 * (two, or one where the path splices lines in registers), and the flags
 * place this tile in the rows' run of tiles. */
typedef struct lt__tile_out {
  char *dst;
  int64_t dld;
  bool stream;
  char *stage;              /* NULL: rows line-aligned, stream directly */
  char *ends;               /* NULL, or 128 bytes per tile row: its first segment, then its last (see lt__flush_ends) */
  int unit;                 /* 4, 2 or 1: the largest of these dividing every row's address */
  int segs;                 /* tiles along the rows in this call: 1, or 2 (see lt__tiling) */
  bool first, second, last; /* the (first) tile's index along the rows: 0, 1, last */
} lt__tile_out;

/* Transposes out->segs full tiles along the source rows (a tile per line
 * of each destination row); the source's leading dimension in bytes. */
typedef void (*lt__tile_fn)(const lt__tile_out *out, const char *src, int64_t sld);

/* Past this many destination bytes (source and destination together
 * outgrow a 2 MiB L2), plain stores turn into scattered read-for-ownership
 * misses that run at a third of memory bandwidth or less; streaming
 * stores read nothing. Up to it, plain stores are as fast and keep the
 * output cached for whoever reads it next. */
#define LT__CACHED_MAX_BYTES (1 << 20)

/* Streaming walks the source in strips of at least this many rows (the
 * side of the tiles a call takes along the rows, if more: 32 F32 rows
 * for a pair): fewer streams than the L2 prefetcher follows, now that
 * each row is also read ahead in software (single F32 tiles, 512 MiB: 2-D
 * transpose with odd sides 61% -> 72% of memcpy at 16 rows instead of
 * 32, BHTD (0,3,1,2) 48% -> 61%, the rest unchanged; 64 rows worse. With
 * pairs, strips of 32 rows gain more than the extra streams cost). */
#define LT__STRIP_ROWS 16

/* Streaming covers the destination in panels of this many rows: long
 * source runs for the prefetcher (8 KiB of 4-byte elements), few enough
 * destination pages for the TLB, and at most 256 KiB of stage. */
#define LT__PANEL_ROWS 2048

typedef struct lt__tiling {
  char *dst;
  const char *src;
  int64_t dld, sld, es;         /* leading dimensions in bytes */
  int64_t r0, c0, nrows, ncols; /* the full tiles: [r0, r0 + nrows) x [c0, c0 + ncols) */
  int64_t t;                    /* tile side in elements */
  int unit;                     /* as in lt__tile_out */
  /* Tiles a streamed tile call may take along the rows: 2 where the path
   * can, so that each destination row gets two adjacent lines back to
   * back. Rows a power of two apart otherwise take one line each from a
   * bank of the memory that they all share: streaming 64 bytes to each of
   * 512 rows 2 KiB apart in turn runs at half of sequential speed, 128
   * bytes at full. */
  int max_segs;
  int64_t tail;       /* elements of each destination row past the full tiles */
  bool packed;        /* each destination row starts where the one before ends, off a line */
  bool off_lines;     /* some of the full tiles' destination rows start off a line */
  char *seams;        /* NULL, or the caller's seams (see lt__transpose_seamed_fn): 128 bytes a column */
} lt__tiling;

static inline int64_t lt__min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* Elements to skip before ptr + n * es is 64-byte aligned for every row:
 * 0 when the rows' alignments differ or the elements are misaligned. */
static inline int64_t lt__align_skip(const char *ptr, int64_t ld_bytes, int64_t es) {
  uintptr_t mis = (uintptr_t)ptr % 64;
  if (ld_bytes % 64 != 0 || mis % (uintptr_t)es != 0) return 0;
  return (int64_t)((64 - mis) % 64) / es;
}

static inline __attribute__((always_inline)) void lt__tile_at(const lt__tiling *g, int64_t r, int64_t c,
                                                              lt__tile_fn tile, bool stream, char *stage, char *ends,
                                                              int segs) {
  lt__tile_out out = {.dst = g->dst + c * g->dld + r * g->es,
                      .dld = g->dld,
                      .stream = stream,
                      .stage = stage,
                      .ends = ends,
                      .unit = g->unit,
                      .segs = segs,
                      .first = r == g->r0,
                      .second = r == g->r0 + g->t,
                      .last = r + segs * g->t == g->r0 + g->nrows};
  tile(&out, g->src + r * g->sld + c * g->es, g->sld);
}

/* Asks for the line at p into L1. GCC 12 deleted a loop of nothing but
 * __builtin_prefetch once it was inlined here (the loop computes
 * nothing), which dropped the destination lines below without a word;
 * an asm statement stays. */
static inline void lt__prefetch_kept(const char *p) {
#if defined(__x86_64__) && defined(__GNUC__)
  __asm__ volatile("prefetcht0 %0" : : "m"(*p));
#else
  __builtin_prefetch(p, 1, 3);
#endif
}

/* Asks for the destination lines of tile (r, c) for writing: the first
 * line of each of its rows' 64 bytes, and with both, where the rows are
 * off a line, the second line they cover too. */
static inline void lt__tile_lines_for_writing(const lt__tiling *g, int64_t r, int64_t c, bool both) {
  char *q = g->dst + c * g->dld + r * g->es;
  for (int64_t j = 0; j < g->t; j++) {
    lt__prefetch_kept(q + j * g->dld);
    if (both && g->off_lines) lt__prefetch_kept(q + j * g->dld + 63);
  }
}

/* Asks for the source of the tile below tile (r, c), if any, into L1, and
 * for tiles of at most 16 rows, its destination lines for writing (see
 * lt__tiles_cached): one per row. Asking for both lines of rows off a
 * line measured level or worse there (Xeon, F32 in cache, same-run ratio
 * to memcpy, two runs each, one -> both: 500 x 500 0.73-0.74 ->
 * 0.70-0.71, 60 x 66 x 62 (2,1,0) 0.66-0.68 -> 0.64, 509 x 515 0.69 ->
 * 0.66-0.67, 1016 x 64 and 1100 x 64 level). */
static inline void lt__tile_below(const lt__tiling *g, int64_t r, int64_t c) {
  if (r + g->t >= g->r0 + g->nrows) return;
  const char *p = g->src + (r + g->t) * g->sld + c * g->es;
  for (int64_t i = 0; i < g->t; i++) __builtin_prefetch(p + i * g->sld, 0, 3);
  if (g->es >= 4) lt__tile_lines_for_writing(g, r + g->t, c, false);
}

/* Asks for the destination lines of the tile after (r, c) in a walk
 * along the source's rows (see lt__rows_near_pages), for tiles of at
 * most 16 rows: both lines of each row where the rows are off a line,
 * since the next tile's rows are other rows, whose second lines nothing
 * has touched. Xeon, F32 in cache, same-run ratio to memcpy, two runs
 * each, none -> first lines -> both: 1020 x 64 (BHTD (0,3,1,2) at 1 MiB)
 * 0.52-0.53 -> 0.62-0.64 -> 0.78-0.83, 3068 x 64 0.45-0.46 -> 0.52-0.54
 * -> 0.77, 1020 x 256 0.47-0.50 -> 0.37-0.38 -> 0.80-0.83. */
static inline void lt__tile_after(const lt__tiling *g, int64_t r, int64_t c) {
  if (c + g->t >= g->c0 + g->ncols) c = g->c0 - g->t, r += g->t;
  if (r < g->r0 + g->nrows && g->es >= 4) lt__tile_lines_for_writing(g, r, c + g->t, true);
}

/* Cached output: strips of a tile's rows of the side whose rows lie
 * further apart, each walked along its rows, so that those rows are read
 * or written in order, while the other side, whose rows lie close, is
 * covered down a column of tiles (one span of close rows per tile). With
 * the far side crossed down columns instead, every tile lands on a tile's
 * worth of new far-apart lines (F32 on Zen 5, same-run ratio to memcpy,
 * rows 16 KiB apart on one side and 256 B on the other: 64^3 (1,2,0)
 * 0.50 -> 0.73, 64 x 4096 0.35 -> 0.75; walking the near side's strips
 * instead lost as much: 4096 x 64 0.47 -> 0.19). When banded and the
 * source has at most LT__BAND_TILES tiles' rows, in bands of that
 * many tile columns instead, row by row: a band is at most 16 KiB of
 * each side, which stays in L1 while its source rows are read along, 16
 * streams the prefetcher follows, where walking down each column of
 * tiles revisits every source row once per column (AVX2 words on Zen 3,
 * same-run ratio to memcpy: 64 x 4096 0.30 -> 0.48, 48 x 2048 0.42 ->
 * 0.50, 64 x 64 with rows 16 KiB apart 0.26 -> 0.29; taller sources,
 * where a band outgrows L1, measured slower this way: 528^2 0.66 ->
 * 0.37). Other walks measured on Zen 4 (F32, 1 MiB, AVX-512 tiles) and
 * not taken: tiles along diagonals, so that each tile's lines fall in
 * other cache sets than the last one's on both sides, gained 7% on
 * 512^2 (rows 2 KiB apart) but lost 6% on 256^2 and left 64^3 (2,1,0)
 * level (eight processes each, in turn); asking for the tile one to four
 * ahead, into L1 or L2, was level or worse; and two passes, strips of 32
 * to 128 source rows read along into a buffer and then copied out as
 * rows, took 512^2 from 0.50 to 0.41 of memcpy. Intel cores measured
 * the opposite of Zen 5, and always go down columns of tiles, writing
 * the destination's rows in order whichever side's rows lie further
 * apart: on a Xeon (AVX-512 with AMX), F32, same-run ratio to memcpy,
 * medians of three, two or three runs each, source rows further apart,
 * along them -> down columns: 64 x 4096 0.46-0.48 -> 0.65-0.69, 64^3 (1,2,0)
 * 0.45 -> 0.69-0.71, 128 x 2048 0.45-0.49 -> 0.61, 256 x 1024 0.44-0.46
 * -> 0.55-0.67, 500 x 524 0.45 -> 0.62-0.63, 100 x 2600 0.42 ->
 * 0.55-0.59, 32 x 8192 0.58 -> 0.77; 64 x 256 and 48 x 2000 level.
 * There, too, asking for the next tile down into L1 after each tile
 * pays (lt__tile_below): F32, same-run ratio to memcpy, three runs
 * each, 64^3 (2,1,0) 0.37-0.43 -> 0.46-0.53, 512^2 0.54-0.59 ->
 * 0.58-0.61 (bench_access at 1 MiB, three runs in turn: (2,1,0)
 * 0.38-0.39 -> 0.46-0.50, the 2-D transpose 0.52-0.56 -> 0.57-0.62, the
 * rest level; bf16 and u8 level). Tiles of 4- and 8-byte elements (16
 * rows or fewer) also ask for the destination lines the tile below will
 * write, for writing: F32, bench_access at 1 MiB, three runs each, 2-D
 * 0.57-0.62 -> 0.61-0.64, (0,2,1) 0.64-0.65 -> 0.70-0.71, (2,1,0)
 * 0.48-0.49 -> 0.51-0.54, the rest level; F64, two runs, 2-D 0.55-0.59 ->
 * 0.64-0.66, (2,0,1) 0.58-0.61 -> 0.66-0.68, (2,1,0) 0.49-0.52 ->
 * 0.62-0.63; but bf16's 32 and u8's 64 rows a tile measured mixed or
 * slower (u8 2-D 0.43 -> 0.37-0.38). */
#define LT__BAND_TILES 4

/* Destination rows that lie within 32 bytes of a multiple of 4 KiB, but
 * not on one, put the 16 lines a tile writes down a column into a few of
 * L1's sets (rows 4080 bytes apart: four rows to a set), each line half
 * written until the tile below finishes it; every set then takes lines
 * from four tiles in a row, more than its ways. Intel cores walk those
 * along the source's rows instead: each pass over the row of tiles
 * spreads its lines over the sets, and finishes the last pass's. Xeon,
 * F32 in cache, same-run ratio to memcpy, two runs each, down columns ->
 * along rows: 1020 x 64 (BHTD (0,3,1,2) at 1 MiB) 0.27-0.28 -> 0.44,
 * 1020 x 128 0.27 -> 0.44-0.45, 1020 x 256 0.38-0.39 -> 0.52-0.54, 1030 x
 * 64 0.28 -> 0.38-0.41, 3068 x 64 0.27-0.28 -> 0.43-0.48, 3068 x 80
 * 0.33-0.35 -> 0.50-0.52; 2046 x 64 (8 bytes short of 8 KiB) 0.24-0.26
 * either way. Rows 32 bytes short or more keep the columns: 1016 x 64
 * 0.69-0.71 against 0.53, 2040 x 64 0.75-0.76 against 0.53-0.55; so do
 * rows on a multiple (1024 x 64 0.44 against 0.41-0.42). */
static inline bool lt__rows_near_pages(int64_t ld_bytes) {
  int64_t off = ld_bytes % 4096;
  return off != 0 && (off < 32 || off > 4096 - 32);
}

static inline __attribute__((always_inline)) void lt__tiles_cached(const lt__tiling *g, lt__tile_fn tile,
                                                                   bool banded) {
  if (banded && g->nrows <= LT__BAND_TILES * g->t) {
    for (int64_t cb = g->c0; cb < g->c0 + g->ncols; cb += LT__BAND_TILES * g->t)
      for (int64_t r = g->r0; r < g->r0 + g->nrows; r += g->t)
        for (int64_t c = cb; c < g->c0 + g->ncols && c < cb + LT__BAND_TILES * g->t; c += g->t)
          lt__tile_at(g, r, c, tile, false, NULL, NULL, 1);
    return;
  }
  bool intel = lt__intel_cores();
  if (intel ? lt__rows_near_pages(g->dld) : g->sld > g->dld) {
    for (int64_t r = g->r0; r < g->r0 + g->nrows; r += g->t)
      for (int64_t c = g->c0; c < g->c0 + g->ncols; c += g->t) {
        lt__tile_at(g, r, c, tile, false, NULL, NULL, 1);
        if (intel) lt__tile_after(g, r, c);
      }
    return;
  }
  for (int64_t c = g->c0; c < g->c0 + g->ncols; c += g->t)
    for (int64_t r = g->r0; r < g->r0 + g->nrows; r += g->t) {
      lt__tile_at(g, r, c, tile, false, NULL, NULL, 1);
      if (intel) lt__tile_below(g, r, c);
    }
}

/* A streamed tile then asks for the source of the tile this far ahead
 * along its strip's walk (columns [cb, cb + width) of the panel), into
 * L2: a strip reads LT__STRIP_ROWS rows at once, as many streams as the
 * hardware prefetcher follows, and one thread's demand loads keep too few
 * lines in flight to use memory's bandwidth. Four tiles ahead measured
 * best (F32 11600^2: 75% of memcpy without, 88% at 256 bytes, 80% at
 * 512, 70% at 2048; prefetching into L1 no better). In a panel narrower
 * than that, the tile ahead lies in the next strip (BHTD (0,3,1,2), 64
 * columns: 67% -> 78%, where reading ahead along the row had read lines
 * of this strip). A streamed tile asks after its own loads, which then
 * get the line-fill buffers first (the panels' walk, tuned on Zen 3,
 * still asks before): on a Xeon (AVX-512 with AMX), F32 at 512 MiB,
 * same-run ratio to memcpy, three runs in turn, before -> after:
 * (0,2,1) 0.75-0.78 -> 0.84-0.87, (1,2,0) 0.73-0.74 -> 0.80-0.82, (2,0,1)
 * 0.73-0.74 -> 0.77-0.82, BHTD (0,3,1,2) 0.55-0.58 -> 0.69-0.72, (2,1,0)
 * 0.73-0.75 -> 0.79-0.80, the 2-D transpose 0.69-0.74 -> 0.62-0.72; at 64
 * MiB (0,3,1,2) 1.02-1.06 -> 1.28-1.30, the rest level or ahead (not
 * measured on Zen). Before, source rows a multiple of 64 KiB apart (a
 * tile's lines all in one set of L2) went 128 bytes ahead, which Zen 4
 * had measured ahead of 256 there ((2,1,0) of 512^3 0.74-0.79 ->
 * 0.80-0.84); asked for after the loads, (2,1,0) on the Xeon measured
 * 0.59-0.61 at 64 bytes, 0.62-0.70 at 128, 0.79 at 256, 0.54-0.57 at 512. */
#define LT__TILE_READ_AHEAD 256

static inline void lt__tile_read_ahead(const lt__tiling *g, int64_t r, int64_t c, int64_t cb, int64_t width,
                                       int64_t strip, int segs) {
  int64_t k = c - cb + LT__TILE_READ_AHEAD / g->es; /* columns into the walk from cb */
  int64_t ra = r + k / width * strip;
  if (ra >= g->r0 + g->nrows) return;
  const char *p = g->src + ra * g->sld + (cb + k % width) * g->es;
  for (int64_t i = 0; i < segs * g->t; i++) __builtin_prefetch(p + i * g->sld, 0, 2);
}

/* Packed destination rows off a line: the line where row c's last
 * streamed line ends and row c + 1's first begins holds row c's last mis
 * bytes, its tail (the edge elements past the full tiles, gathered here
 * from the source's last rows) and row c + 1's first bytes, one or two
 * whole lines, which go out streamed after the panel's tiles. Written by
 * the tiles and the edge kernel as they went, those lines took plain
 * stores that missed, and each held every streaming store behind it
 * until memory answered (same-run ratio to memcpy at 512 MiB: F32
 * batches of 201 x 816 0.73-0.75 -> 0.82-0.91; bench_access --dtype u8,
 * three runs in turn, (0,2,1) 0.33-0.48 -> 0.54-0.60, (1,2,0) 0.33-0.49
 * -> 0.53-0.60; bf16 (0,2,1) 0.60-0.63 -> 0.61-0.82, (1,2,0) 0.54-0.69
 * -> 0.66-0.78). Only the panel's first head and last tail, whose lines
 * it shares with other panels' rows, get plain stores. */
static inline void lt__flush_ends(const lt__tiling *g, int64_t cb, int64_t width, const char *ends, char *tails,
                                  lt__transpose_fn edge) {
  const int64_t r_end = g->r0 + g->nrows, tail_bytes = g->tail * g->es;
  /* the tails of the panel's rows, packed, by the edge kernel's vectors */
  if (g->tail > 0) edge(tails, g->tail, g->src + r_end * g->sld + cb * g->es, g->sld / g->es, g->tail, width);
  for (int64_t c = cb; c < cb + width; c++) {
    char *head = g->dst + c * g->dld + g->r0 * g->es;
    const char *kept = ends + (c - cb) * 128;
    size_t mis = (uintptr_t)head % 64, n = mis + (size_t)tail_bytes; /* mis: the last segment's too */
    if (c == cb) memcpy(head, kept, 64 - mis);
    _Alignas(64) char line[192];
    memcpy(line, kept + 128 - mis, mis);
    memcpy(line + mis, tails + (c - cb) * tail_bytes, (size_t)tail_bytes);
    char *at = head + g->nrows * g->es - mis;
    if (c + 1 == cb + width) {
      memcpy(at, line, n);
      continue;
    }
    size_t next = 64 - (uintptr_t)(head + g->dld) % 64; /* row c + 1's bytes up to its first line's end */
    memcpy(line + n, kept + 128, next);
    lt__stream_copy(at, line, n + next);
  }
}

/* Streamed output: along strips of source rows, which the hardware
 * prefetcher follows, while the streaming stores scatter over the panel's
 * destination rows at no cost; the tiles of a strip that continue the
 * same destination rows go back to back. Returns false, having written
 * nothing, when the stage cannot be allocated; sets *merged where the
 * packed rows' tails were written too (lt__flush_ends). */
static inline __attribute__((always_inline)) bool lt__tiles_streamed(const lt__tiling *g, lt__tile_fn tile,
                                                                     lt__transpose_fn edge, bool *merged) {
  bool aligned = g->dld % 64 == 0 && (uintptr_t)(g->dst + g->r0 * g->es) % 64 == 0;
  *merged = !g->seams && g->packed && g->nrows > g->t; /* else a row of one tile, which writes it whole */
  int64_t panel = lt__min64(LT__PANEL_ROWS, g->ncols);
  /* the stage, then the ends and the tails, 128, 128 and under 64 bytes a row */
  size_t stage_bytes = aligned ? 0 : (size_t)panel * (*merged ? 320 : 128);
  char *stage = aligned ? NULL : lt__alloc(stage_bytes, 64), *ends = *merged && stage ? stage + panel * 128 : NULL;
  if (!aligned && !stage) return *merged = false;
  int64_t strip = g->max_segs * g->t > LT__STRIP_ROWS ? g->max_segs * g->t : LT__STRIP_ROWS;
  int64_t r_end = g->r0 + g->nrows, c_end = g->c0 + g->ncols;
  for (int64_t cb = g->c0; cb < c_end; cb += panel) {
    int64_t width = lt__min64(panel, c_end - cb);
    char *row_ends = g->seams ? g->seams + (cb - g->c0) * 128 : ends; /* the rows' first and last segments */
    for (int64_t rs = g->r0; rs < r_end; rs += strip)
      for (int64_t c = cb; c < cb + width; c += g->t)
        for (int64_t r = rs, end = lt__min64(rs + strip, r_end), segs; r < end; r += segs * g->t) {
          segs = r + g->max_segs * g->t <= end ? g->max_segs : 1;
          lt__tile_at(g, r, c, tile, true, stage ? stage + (c - cb) * 128 : NULL,
                      row_ends ? row_ends + (c - cb) * 128 : NULL, (int)segs);
          lt__tile_read_ahead(g, r, c, cb, width, strip, (int)segs);
        }
    if (ends) lt__flush_ends(g, cb, width, ends, ends + panel * 128, edge);
  }
  lt__free(stage, stage_bytes, 64);
  return true;
}

/* Streamed output through panels in cache, for memories that want long
 * runs on both sides. A panel is up to LT__PANEL_COLS columns by
 * LT__PANEL_ROW_BYTES / es source rows: its tiles go with plain stores
 * into a buffer holding the panel's destination rows (a strip of tile
 * rows at a time, which keeps the reads at one tile's rows, as many
 * streams as the prefetcher follows), then each of those rows goes out as
 * one run of streaming stores. Zen 3 streams one 64-byte line to each of
 * many rows in turn at a third of the rate it streams four (6-8 GB/s
 * against 18-21, F32 rows of 8192 and 11584), and reads 32 or more rows at
 * once at half the rate of 16, so no walk of single tiles pleases both
 * sides there. The panels go down a band of columns, so that each
 * destination row's runs follow one another. Without memory for the
 * buffer, the caller walks single tiles instead. */
#define LT__PANEL_ROW_BYTES 512
#define LT__PANEL_COLS 512
/* Panels pay where destination rows lie close: F32 on Zen 3, same-run
 * ratio to memcpy, batches of 512 MiB of squares of side 512, 1024 and
 * 2048: 0.42 -> 0.46, 0.44 -> 0.49, 0.47 -> 0.50; 4096^2 0.80 -> 0.82.
 * Rows further apart stream single tiles as fast or faster (8192^2 and
 * 12288^2 level; 8208^2 and 11584^2 0.70-0.76 against 0.44-0.51 through
 * panels). In cache, panels cost more than they save (500^2: 0.44
 * against 0.29). */
#define LT__PANEL_MAX_LD 16384

/* Streams one destination row's run of a panel, the n bytes at row, to
 * dst. A row not 64-byte aligned would start and end its run inside
 * lines that its neighbouring runs share, and a plain store that misses
 * holds every streaming store behind it until memory answers (1.4 GB/s
 * for such runs of 512 bytes on Zen 3): so the run's last mis bytes wait
 * in the 64 bytes before row (its slot) to go out with the next run's
 * first line. Only the first run's head and the last run's tail, the
 * ends of the whole destination row, get plain stores. */
static inline void lt__panel_flush_row(char *dst, char *row, int64_t n, bool first, bool last) {
  int64_t mis = (int64_t)((uintptr_t)dst % 64);
  if (mis == 0 || (first && last)) {
    lt__stream_copy(dst, row, (size_t)n);
    return;
  }
  if (first) lt__stream_copy(dst, row, (size_t)(n - mis));
  else lt__stream_copy(dst - mis, row - mis, (size_t)n);
  if (last) memcpy(dst + n - mis, row + n - mis, (size_t)mis);
  else memcpy(row - mis, row + n - mis, (size_t)mis);
}

static inline __attribute__((always_inline)) bool lt__tiles_paneled(const lt__tiling *g, lt__tile_fn tile) {
  int64_t h_max = lt__min64(LT__PANEL_ROW_BYTES / g->es, g->nrows), w_max = lt__min64(LT__PANEL_COLS, g->ncols);
  int64_t pitch = 64 + h_max * g->es; /* a row's slot, then its run */
  size_t bytes = (size_t)(pitch * w_max);
  char *panel = lt__alloc(bytes, 64);
  if (!panel) return false;
  int64_t r_end = g->r0 + g->nrows, c_end = g->c0 + g->ncols;
  for (int64_t cb = g->c0, w; cb < c_end; cb += w) {
    w = lt__min64(w_max, c_end - cb);
    for (int64_t r0 = g->r0, h; r0 < r_end; r0 += h) {
      h = lt__min64(h_max, r_end - r0);
      for (int64_t rs = r0; rs < r0 + h; rs += g->t)
        for (int64_t c = cb; c < cb + w; c += g->t) {
          lt__tile_read_ahead(g, rs, c, cb, w, g->t, 1); /* past the panel's last strip: the next panel down */
          lt__tile_out out = {.dst = panel + (c - cb) * pitch + 64 + (rs - r0) * g->es, .dld = pitch, .segs = 1};
          tile(&out, g->src + rs * g->sld + c * g->es, g->sld);
        }
      for (int64_t c = 0; c < w; c++)
        lt__panel_flush_row(g->dst + (cb + c) * g->dld + r0 * g->es, panel + c * pitch + 64, h * g->es,
                            r0 == g->r0, r0 + h == r_end);
    }
  }
  lt__free(panel, bytes, 64);
  return true;
}

/* Calls edge on a band unless it is empty: a kernel called on a matrix
 * that is all full tiles should cost no more than its tiles. */
static inline void lt__edge(lt__transpose_fn edge, char *dst, int64_t dst_ld, const char *src, int64_t src_ld,
                            int64_t rows, int64_t cols) {
  if (rows > 0 && cols > 0) edge(dst, dst_ld, src, src_ld, rows, cols);
}

/* When a kernel streams its output: never (the path's tiles cannot), when
 * this call's output outgrows the caches, or always (a caller making many
 * small calls that together outgrow them: a batch of transposes). */
typedef enum lt__stream_policy { LT__STREAM_NEVER, LT__STREAM_IF_LARGE, LT__STREAM_ALWAYS } lt__stream_policy;

/* How a streamed transpose walks its tiles: single tiles or pairs along
 * strips of source rows, streaming straight to the destination
 * (lt__tiles_streamed), or through panels (lt__tiles_paneled) where the
 * destination's rows lie within LT__PANEL_MAX_LD bytes of each other and
 * single tiles otherwise; a path that walks panels also walks short
 * cached transposes in bands (lt__tiles_cached). Each path takes what
 * measured best on the machines it was tuned on. */
typedef enum lt__stream_walk { LT__WALK_TILES, LT__WALK_TILE_PAIRS, LT__WALK_PANELS } lt__stream_walk;

/* Whether a streamed call can leave its destination rows' ends in seams
 * (lt__transpose_seamed_fn): whole tiles only, at least two along each
 * destination row, from source rows that need no band before their
 * first full tile, into destination rows not all on lines (rows on
 * lines have no partial lines to leave). Leading dimensions in bytes. */
static inline bool lt__seams_fit(const char *dst, int64_t dld, const char *src, int64_t sld, int64_t rows,
                                 int64_t cols, int64_t es) {
  int64_t t = 64 / es;
  bool lines = dld % 64 == 0 && (uintptr_t)dst % 64 == 0;
  return !lines && rows % t == 0 && rows >= 2 * t && cols % t == 0 && cols > 0 && lt__align_skip(src, sld, es) == 0;
}

/* Inlined into each kernel, so that tile becomes a direct, inlined call.
 * Returns whether it streamed:
 * streaming stores are weakly ordered, so the caller must then fence
 * before returning (later plain stores, such as the caller's
 * synchronisation, must not pass them). seams: NULL, or where a call
 * that fits (lt__seams_fit) and streams leaves its rows' first and last
 * segments, writing none of their partial lines; a call that does not
 * stream (no memory for the stage) writes everything itself. */
static inline __attribute__((always_inline)) bool lt__transpose_tiled(char *dst, int64_t dst_ld, const char *src,
                                                                      int64_t src_ld, int64_t rows, int64_t cols,
                                                                      int64_t es, lt__tile_fn tile, lt__stream_policy policy,
                                                                      lt__transpose_fn edge, lt__stream_walk walk,
                                                                      char *seams) {
  lt__tiling g = {.dst = dst,
                  .src = src,
                  .dld = dst_ld * es,
                  .sld = src_ld * es,
                  .es = es,
                  .t = 64 / es,
                  .max_segs = walk == LT__WALK_TILE_PAIRS ? 2 : 1,
                  .seams = seams && lt__seams_fit(dst, dst_ld * es, src, src_ld * es, rows, cols, es) ? seams : NULL};
  /* Full tiles start where destination rows (r0) and source rows (c0)
   * begin a cache line, where the leading dimensions allow it. */
  uintptr_t rows_at = (uintptr_t)dst | (uintptr_t)g.dld;
  g.unit = rows_at % 4 == 0 ? 4 : rows_at % 2 == 0 ? 2 : 1;
  /* (With seams, every destination row's first segment goes to them, on
   * a line or not.) */
  g.r0 = g.seams ? 0 : lt__min64(lt__align_skip(dst, g.dld, es), rows);
  g.c0 = lt__min64(lt__align_skip(src, g.sld, es), cols);
  g.nrows = (rows - g.r0) / g.t * g.t;
  g.ncols = (cols - g.c0) / g.t * g.t;
  g.tail = rows - g.r0 - g.nrows;
  g.packed = dst_ld == rows && g.dld % 64 != 0; /* so r0 is 0 */
  g.off_lines = g.dld % 64 != 0 || (uintptr_t)(dst + g.r0 * es) % 64 != 0;
  bool large = g.nrows * g.ncols * es > LT__CACHED_MAX_BYTES, merged = false;
  bool stream = (policy == LT__STREAM_ALWAYS || (policy == LT__STREAM_IF_LARGE && large)) && g.nrows > 0 &&
                g.ncols > 0 &&
                ((walk == LT__WALK_PANELS && !g.seams && g.dld <= LT__PANEL_MAX_LD && lt__tiles_paneled(&g, tile)) ||
                 lt__tiles_streamed(&g, tile, edge, &merged));
  if (!stream) lt__tiles_cached(&g, tile, walk == LT__WALK_PANELS);
  int64_t r_end = g.r0 + g.nrows, c_end = g.c0 + g.ncols;
  /* The frame around the full tiles: top and bottom bands over all
   * columns (but those of the full tiles where merged wrote them), then
   * left and right bands beside the tiles. */
  lt__edge(edge, dst, dst_ld, src, src_ld, g.r0, cols);
  if (merged) {
    lt__edge(edge, dst + r_end * es, dst_ld, src + r_end * g.sld, src_ld, rows - r_end, g.c0);
    lt__edge(edge, dst + c_end * g.dld + r_end * es, dst_ld, src + r_end * g.sld + c_end * es, src_ld, rows - r_end,
             cols - c_end);
  } else {
    lt__edge(edge, dst + r_end * es, dst_ld, src + r_end * g.sld, src_ld, rows - r_end, cols);
  }
  lt__edge(edge, dst + g.r0 * es, dst_ld, src + g.r0 * g.sld, src_ld, g.nrows, g.c0);
  lt__edge(edge, dst + c_end * g.dld + g.r0 * es, dst_ld, src + g.r0 * g.sld + c_end * es, src_ld, g.nrows,
           cols - c_end);
  return stream;
}

#endif
