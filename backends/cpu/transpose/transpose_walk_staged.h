/* Internal to backends/cpu/transpose: the cached walks that AMD cores
 * take through a stage in L1 where a tile's lines would crowd a few of
 * L1's sets (rows a multiple of 4 KiB apart, or just off one): tiles
 * staggered out in parts, slices buffered first, or blocks staged as the
 * destination's rows (lt__tiles_cached picks among them). "The walks
 * above" in the comments below are transpose_walk_cached.h's plain walks
 * and the ones before in this file. */
#ifndef LT_TRANSPOSE_WALK_STAGED_H
#define LT_TRANSPOSE_WALK_STAGED_H

#include <string.h>

#include "transpose_tiling.h"
#include "vendor.h"

/* F32 destination rows a multiple of 4 KiB apart put the 16 lines that
 * a tile writes into one of L1's sets, more than its 12 ways, and
 * storing them in a burst costs Zen 5 more than reading 16 such lines
 * (64^3 (2,0,1), rows 16 KiB apart on the destination's side, 0.42-0.45
 * of memcpy; (1,2,0), the same on the source's, 0.75). So where Zen 5
 * walks those down a column of tiles, each tile goes to a stage in L1 and
 * its rows leave in LT__STAGGER_PARTS parts, part p one tile after part
 * p - 1: the stores at each step go to four tiles' lines, four sets, four
 * lines to a set. F32, same-run ratio to memcpy, two runs of two rounds
 * each, down columns -> staggered in 2 or 4 parts: 64^3 (2,0,1)
 * 0.40-0.45 -> 0.60-0.63 -> 0.66-0.68, 4096 x 64 (the same) 0.42-0.45 ->
 * 0.66, 1024 x 64 0.21 -> 0.36 -> 0.37-0.38, 2048 x 128 0.42-0.43 ->
 * 0.55 -> 0.59-0.60, 8192 x 32 0.45 -> 0.62-0.64 -> 0.66-0.73, 4 x 1024
 * x 64 (0,2,1) 0.45 -> 0.60 -> 0.66-0.69; 8 parts 0.47-0.62 and 16
 * 0.38-0.45 on 64^3 (2,0,1). 2- and 1-byte tiles (32 and 64 rows) put
 * twice and four times as many lines into the set and ran slower still;
 * staggered, eight rows to a part did best (same-run ratio to memcpy, a
 * run each; bf16 in 2, 4, 8 or 16 parts: 64 x 64 x 128 (2,0,1) 0.25 ->
 * 0.40, 0.56, 0.52, 0.50; 4096 x 128 0.24 -> 0.40, 0.55, 0.54, 0.48;
 * 2048 x 256 0.24 -> 0.36, 0.48, 0.45, 0.43; u8 in 2, 4 or 8 parts: 64 x
 * 64 x 256 (2,0,1) 0.18 -> 0.22, 0.30, 0.41; 8192 x 128 0.18 -> 0.21,
 * 0.31, 0.42). 8-byte tiles were not measured. Intel cores keep their
 * walks: on a Xeon (AVX-512 with AMX), bench_access at 1 MiB, two runs
 * each in turn, staggered: (2,0,1) 0.54-0.59 -> 0.48, (2,1,0) 0.45-0.59
 * -> 0.33-0.39; (2,1,0)'s slices buffered (below) 0.32-0.34. */
#define LT__STAGGER_PARTS(es) ((es) == 1 ? 8 : 4)

static inline bool lt__zen_staggered(const lt__tiling *g) {
  return g->es <= 4 && g->dld % 4096 == 0 && !g->off_lines;
}

/* The walk through stage, which holds LT__STAGGER_PARTS(es) tiles of t
 * rows of 64 bytes. */
static inline __attribute__((always_inline)) void lt__tiles_staggered_via(const lt__tiling *g, lt__tile_fn tile,
                                                                          char *stage, int64_t es) {
  int64_t t = g->t, P = LT__STAGGER_PARTS(es), per = t / P, n = g->nrows / t;
  for (int64_t c = g->c0; c < g->c0 + g->ncols; c += t) {
    /* destination rows c to c + t from the first full tile on; each
     * tile takes the next 64 bytes of them */
    char *rows = g->dst + c * g->dld + g->r0 * g->es;
    for (int64_t k = 0; k < n + P - 1; k++) {
      if (k < n) {
        lt__tile_out out = {.dst = stage + k % P * t * 64, .dld = 64, .segs = 1};
        tile(&out, g->src + (g->r0 + k * t) * g->sld + c * g->es, g->sld);
      }
      for (int64_t p = 0; p < P; p++) /* part p of tile k - p */
        if (k - p >= 0 && k - p < n)
          for (int64_t j = p * per; j < (p + 1) * per; j++)
            memcpy(rows + (k - p) * 64 + j * g->dld, stage + (k - p) % P * t * 64 + j * 64, 64);
    }
  }
}

/* The stage on the stack, sized for the tile (parts x 4 KiB / es): 32
 * KiB for bytes, 8 KiB for halves, 4 KiB for words. es is g->es, passed
 * down as each kernel's constant (the compiler does not always see the
 * field as one), so that each keeps only its own stage: a caller's stack
 * (grouped_transpose.c's buffer is on it too, and the buffered walk's)
 * pays for no more than its tiles need. */
static inline __attribute__((always_inline)) void lt__tiles_staggered(const lt__tiling *g, lt__tile_fn tile,
                                                                      int64_t es) {
  if (es == 1) {
    _Alignas(64) char stage[LT__STAGGER_PARTS(1) * 4096];
    lt__tiles_staggered_via(g, tile, stage, 1);
  } else if (es == 2) {
    _Alignas(64) char stage[LT__STAGGER_PARTS(2) * 2048];
    lt__tiles_staggered_via(g, tile, stage, 2);
  } else {
    _Alignas(64) char stage[LT__STAGGER_PARTS(4) * 1024];
    lt__tiles_staggered_via(g, tile, stage, es);
  }
}

/* Where both sides' rows lie a multiple of 4 KiB apart (the slices of
 * 64^3 (2,1,0)), each tile's 16 source lines share one of L1's sets and
 * its 16 destination lines another, and Zen 5 ran such slices at a third
 * of memcpy by any of the walks above. A slice of at most
 * LT__BUFFERED_MAX_BYTES whose source has no more rows than columns is
 * copied first, row by row, into a buffer in L1, and the staggered walk
 * transposes it from there. F32, same-run ratio to memcpy, two rounds
 * each, (2,1,0) of [64, 64, 64] (bench_access at 1 MiB) 0.31-0.32 ->
 * 0.44-0.45, [32, 64, 128] 0.22 -> 0.33, [16, 64, 256] 0.14 ->
 * 0.19-0.20, [32, 32, 128] 0.13 -> 0.20, [64, 16, 64] 0.17 -> 0.23-0.24,
 * [64, 256, 64] (4 MiB) 0.34 -> 0.43-0.44; sources with more rows than
 * columns lost ([128, 64, 32] 0.40 -> 0.34-0.35, [256, 64, 16] 0.37 ->
 * 0.33, [128, 32, 32] 0.26 -> 0.23) and keep the walks above. Of 64^3's
 * time, the copy alone takes 0.8 of a memcpy's and the transposes alone
 * 1.3: they do not overlap, which leaves the rest of the gap. bf16
 * (2,1,0), staggered -> buffered, a run each: [64, 64, 128] 0.17 -> 0.25,
 * [32, 64, 256] 0.16 -> 0.21; byte tiles measured level or behind (u8
 * [64, 64, 256] 0.18 -> 0.17, [64, 128, 128] 0.18 -> 0.16) and keep the
 * staggered walk. On AMD cores, batches of slices that lie side by side
 * (those above among them) now go several slices to a call through a
 * stage instead (tiled_transpose.c), and come here only one at a time:
 * a last slice, or without memory for the stage. */
#define LT__BUFFERED_MAX_BYTES 16384

static inline bool lt__zen_buffered(const lt__tiling *g, int64_t es) {
  return es >= 2 && lt__zen_staggered(g) && g->sld % 4096 == 0 && g->nrows <= g->ncols &&
         g->nrows * g->ncols * g->es <= LT__BUFFERED_MAX_BYTES;
}

static inline __attribute__((always_inline)) void lt__tiles_buffered(const lt__tiling *g, lt__tile_fn tile,
                                                                     int64_t es) {
  _Alignas(64) char buf[LT__BUFFERED_MAX_BYTES];
  int64_t row = g->ncols * g->es;
  for (int64_t r = 0; r < g->nrows; r++)
    memcpy(buf + r * row, g->src + (g->r0 + r) * g->sld + g->c0 * g->es, (size_t)row);
  lt__tiling b = *g; /* the same tiles, read from the buffer */
  b.dst = g->dst + g->c0 * g->dld + g->r0 * g->es;
  b.src = buf;
  b.sld = row;
  b.r0 = b.c0 = 0;
  lt__tiles_staggered(&b, tile, es);
}

/* Destination rows within LT__PAGE_NEAR bytes of a multiple of 4 KiB, but
 * not on one, drift by a few bytes a row, so that a tile's rows stay on
 * one or two of L1's sets (16 F32 rows 4 bytes apart span one line);
 * every walk above left them at a fifth of memcpy or less. On AMD cores
 * their tiles go instead into a stage laid out as the destination, a
 * block of LT__STAGED_RUN_BYTES of source rows by as many columns as the
 * stage holds, tile rows along the source's rows, and each block's rows
 * leave whole, one run of LT__STAGED_RUN_BYTES per destination row. Zen
 * 5, same-run ratio to memcpy, two rounds each, the walk before ->
 * staged: F32 transposes of 1025 x 64 (rows 4100 bytes apart) 0.07 ->
 * 0.34, 1023 x 256 0.14 -> 0.43, 2050 x 100 0.22 -> 0.39, 4095 x 64 0.16
 * -> 0.52, (2,0,1) of [63, 65, 64] 0.16 -> 0.51 ((2,1,0) 0.17 -> 0.27
 * slice by slice; its slices now go side by side, tiled_transpose.c);
 * bf16 2049 x 128 0.06-0.08 -> 0.31-0.37, 4095 x 64 0.08 -> 0.36; u8 4097
 * x 256 0.14 -> 0.42-0.44, 4095 x 256 0.12 -> 0.34, 4088 x 256 0.31 ->
 * 0.32-0.39; F64 511 x 64 0.18 -> 0.26, 1023 x 32 0.21 -> 0.27. Rows 12
 * bytes off were level or slower (F32 1021 x 64 0.36 -> 0.35-0.36, bf16
 * 2042 x 128 0.40 -> 0.36), 16 and more slower (F32 1020 x 64 0.47 ->
 * 0.37, BHTD (0,3,1,2) at 1 MiB 0.69 -> 0.57), and rows on a multiple,
 * which keep the walks above, mostly level or slower (1024 x 64 0.42 ->
 * 0.36, 1024 x 96 0.39 -> 0.36, 64^3 (2,0,1) level, 4096 x 50 0.36 ->
 * 0.40; the slices of [64, 16, 100] (2,1,0) 0.09 -> 0.25, which now go
 * side by side). Runs of 256 bytes lost (1025 x 64 0.18), 1024 gained
 * nothing; a stage of 32 KiB (64 columns) against 16 was mixed for F32
 * (4095 x 64 0.52 against 0.59, 1023 x 256 0.55 against 0.45), level for
 * bf16, and needed for bytes, whose tiles are 64 columns wide. Intel
 * cores were measured only on rows a multiple of 4 KiB apart, and lost
 * there (a Xeon, F32, bench_access at 1 MiB, four runs each in turn,
 * their walks -> staged: (2,0,1) 0.53-0.58 -> 0.49-0.53, (2,1,0)
 * 0.46-0.50 -> 0.43-0.45; runs of 1 KiB, 16 KiB of stage, 0.55-0.56 ->
 * 0.42-0.45 and 0.45-0.49 -> 0.34-0.39). */
#define LT__STAGED_RUN_BYTES 512

/* Zen 4 takes rows up to LT__PAGE_NEAR_ZEN4 bytes off a multiple too,
 * for 1-, 2- and 4-byte elements: rows 12 bytes off, generic walk
 * (along the source's rows) -> staged, one thread, a switch flipped
 * sample by sample in one process (20 samples), speed ratio: F32 1021
 * x 32 1.62, 1021 x 64 1.54, 1021 x 128 1.49, 1021 x 256 1.46, 1027 x
 * 64 1.80, 1027 x 256 1.56, 2045 x 64 1.52, 3069 x 64 1.50, (0,2,1) of
 * [8, 1021, 64] 1.44; bf16 2042 x 64 1.30, 2042 x 128 1.23; u8 4084 x
 * 256 1.34. Rows 16 bytes off and more were mixed (F32, two processes
 * each: 1020 x 64 1.17-1.32, 1020 x 128 0.87-0.92, BHTD (0,3,1,2) of
 * [4, 12, 85, 64] 1.00-1.07, 1018 x 64 0.76-0.81, 1030 x 64 0.80-0.81)
 * and keep the walks above; 8-byte elements were not measured. Zen 5
 * keeps LT__PAGE_NEAR: rows 12 bytes off measured level or slower
 * there (above). */
#define LT__PAGE_NEAR_ZEN4 12

static inline bool lt__zen_staged(const lt__tiling *g) {
  int64_t off = g->dld % 4096;
  int64_t near = !lt__zen5_cores() && g->es <= 4 ? LT__PAGE_NEAR_ZEN4 : LT__PAGE_NEAR;
  return off != 0 && (off <= near || off >= 4096 - near);
}

/* The staged walk through stage, of stage_bytes. */
static inline __attribute__((always_inline)) void lt__tiles_staged_via(const lt__tiling *g, lt__tile_fn tile,
                                                                       char *stage, int64_t stage_bytes, int64_t es) {
  const int64_t run = LT__STAGED_RUN_BYTES, block_rows = run / es, block_cols = stage_bytes / run;
  for (int64_t cb = g->c0; cb < g->c0 + g->ncols; cb += block_cols)
    for (int64_t rb = g->r0; rb < g->r0 + g->nrows; rb += block_rows) {
      int64_t nr = lt__min64(block_rows, g->r0 + g->nrows - rb), nc = lt__min64(block_cols, g->c0 + g->ncols - cb);
      for (int64_t r = rb; r < rb + nr; r += g->t)
        for (int64_t c = cb; c < cb + nc; c += g->t) {
          lt__tile_out out = {.dst = stage + (c - cb) * run + (r - rb) * es, .dld = run, .segs = 1};
          tile(&out, g->src + r * g->sld + c * es, g->sld);
        }
      for (int64_t c = 0; c < nc; c++) lt__copy_row(g->dst + (cb + c) * g->dld + rb * es, stage + c * run, nr * es);
    }
}

/* Stages of the walks below: a whole number of tiles wide (see
 * lt__tiles_staggered on es), 32 KiB for bytes, whose tiles are 64
 * columns, 16 KiB for the rest; 8 KiB for Zen 4's column of F32
 * tiles. */
#define LT__STAGED_BYTES (32 * LT__STAGED_RUN_BYTES)
#define LT__STAGED_COLUMN_BYTES (16 * LT__STAGED_RUN_BYTES)

/* The stage on the stack, or the kernel's own walk (g->staged) with
 * one of its own. */
static inline __attribute__((always_inline)) void lt__tiles_staged(const lt__tiling *g, lt__tile_fn tile,
                                                                   int64_t es) {
  if (es == 1) {
    _Alignas(64) char stage[64 * LT__STAGED_RUN_BYTES];
    lt__tiles_staged_via(g, tile, stage, sizeof stage, 1);
  } else if (g->staged) {
    g->staged(g, LT__STAGED_BYTES);
  } else {
    _Alignas(64) char stage[LT__STAGED_BYTES];
    lt__tiles_staged_via(g, tile, stage, sizeof stage, es);
  }
}

/* Zen 4's F32 tiles (lt__zen4_f32) where Zen 5 staggers them: blocks
 * of one column of tiles, the tiles of LT__STAGED_RUN_BYTES / 4 source
 * rows staged and their 16 destination rows written out a run at a
 * time, each a run of 8 lines on one row where a tile's rows would
 * take 16 lines of one of L1's sets. Zen 4, a switch flipped sample by
 * sample in one process (16 to 30 samples), speed ratio to the
 * staggered walk: 4096 x 64 ((2,0,1) of 64^3) 1.16-1.17, 1024 x 64 1.64,
 * 8192 x 32 1.17, 2048 x 128 1.14, (0,2,1) of [4, 1024, 64] 1.29, (2,0,1)
 * of [32, 64, 128] 1.16; runs of 1 KiB measured 1.11-1.17, and stages
 * of four columns of tiles, runs of 256 bytes to 1 KiB, 0.91-0.94
 * (4096 x 64). bench_access --permute 2,0,1 --shape 64,64,64 at 1 MiB,
 * the staggered walk's build and this one in turn, six runs each (runs
 * differ with where the pages fall): 43.2-48.2 GB/s -> 51.8-53.7. */
static inline __attribute__((always_inline)) void lt__tiles_staged_columns(const lt__tiling *g, lt__tile_fn tile,
                                                                          int64_t es) {
  if (g->staged) {
    g->staged(g, LT__STAGED_COLUMN_BYTES);
    return;
  }
  _Alignas(64) char stage[LT__STAGED_COLUMN_BYTES];
  lt__tiles_staged_via(g, tile, stage, sizeof stage, es);
}

#endif
