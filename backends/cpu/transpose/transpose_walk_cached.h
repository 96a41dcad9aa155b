/* Internal to backends/cpu/transpose: the walk over a transpose's tiles
 * with plain stores, for outputs that stay cached, and what it asks for
 * ahead of each tile. */
#ifndef LT_TRANSPOSE_WALK_CACHED_H
#define LT_TRANSPOSE_WALK_CACHED_H

#include <string.h>

#include "stream.h"
#include "transpose_tiling.h"
#include "transpose_walk_staged.h"
#include "vendor.h"

/* Asks for the destination lines of tile (r, c) for writing: the first
 * line of each of its rows' 64 bytes, and with both, where the rows are
 * off a line, the second line they cover too. */
static inline void lt__tile_lines_for_writing(const lt__tiling *g, int64_t r, int64_t c, bool both) {
  char *q = g->dst + c * g->dld + r * g->es;
  for (int64_t j = 0; j < g->t; j++) {
    lt__prefetch_l1(q + j * g->dld, 1);
    if (both && g->off_lines) lt__prefetch_l1(q + j * g->dld + 63, 1);
  }
}

/* Asks for writing for the line in which each destination row of tile
 * (r, c) ends: where the rows lie on lines, the row's one line; where
 * off, the line it reaches past the tile above's, whose last line it
 * starts in. */
static inline void lt__tile_new_lines(const lt__tiling *g, int64_t r, int64_t c) {
  char *q = g->dst + c * g->dld + r * g->es + 63;
  for (int64_t j = 0; j < g->t; j++) lt__prefetch_l1(q + j * g->dld, 1);
}

/* Asks for the source of the tile below tile (r, c), if any, into L1 (both
 * lines of each source row where those rows lie off lines: a row's second
 * line is its own, and its first was last read a column of tiles ago), and
 * for the destination lines it will be first to write (see
 * lt__tiles_cached): for tiles of 4 and 8 bytes always, for those of 2 and
 * 1 only where the destination rows lie off lines. Those asks once took
 * each row's first line, which, off lines, tile (r, c) has just written:
 * the line past it was the one to ask for. Xeon, in cache, the switch
 * flipped sample by sample (200 to 300 samples), speed ratio, first lines
 * (none for 2 and 1 bytes) -> new lines: F32 500 x 500 1.044x, 362 x 724
 * 1.093x, 1000 x 250 1.024x; F64 (0,2,1) of [50, 50, 52] 1.177x, 362 x 362
 * 1.045x; bf16 724 x 724 (rows 1448 bytes apart) 1.275x; u8 1000 x 1000
 * 1.193x. bench_access at 1 MiB, two runs each in turn: bf16 2-D 0.39-0.40
 * -> 0.50-0.51, u8 (2,0,1) 0.41 -> 0.46-0.49, F64 (0,2,1) 0.53-0.55 ->
 * 0.60-0.61, F64 (1,2,0) 0.64-0.65 -> 0.69, the rest level. On lines, 2-
 * and 1-byte tiles measured the asks slower (bench_access, two runs each:
 * bf16 704 x 704 0.62 -> 0.56-0.58, u8 1024 x 1024 0.46-0.48 ->
 * 0.40-0.41). Asking for both lines of rows off a line had measured level
 * or worse (F32, same-run ratio to memcpy, two runs each, first -> both:
 * 500 x 500 0.73-0.74 -> 0.70-0.71, 60 x 66 x 62 (2,1,0) 0.66-0.68 ->
 * 0.64, 509 x 515 0.69 -> 0.66-0.67). The AVX2 tiles, timed through the
 * kernel table on the same Xeon: F32 500 x 500 1.08x, bf16 700 x 700 1.04x
 * and 724 x 724 0.98-0.99x, u8 1000 x 1000 0.95-0.96x. The source's second
 * lines, against the first alone (sample by sample, 200 to 300 samples):
 * F32 500 x 500 1.024x, 362 x 724 1.032x; F64 362 x 362 1.015x; bf16 724 x
 * 724 1.109x; u8 1000 x 1000 1.048x; rows on lines, where there is no
 * second line, level (bf16 704 x 704); the AVX2 tiles 1.025x (F32 500 x
 * 500), 1.052-1.104x (bf16 700 x 700 and 724 x 724), 1.046x (u8 1000 x
 * 1000). bench_access at 1 MiB, three runs each in turn: bf16 2-D
 * 0.50-0.51 -> 0.55-0.56, the rest level. */
static inline void lt__tile_below(const lt__tiling *g, int64_t r, int64_t c) {
  if (r + g->t >= g->r0 + g->nrows) return;
  const char *p = g->src + (r + g->t) * g->sld + c * g->es;
  bool src_off_lines = ((uintptr_t)p | (uintptr_t)g->sld) % 64 != 0;
  for (int64_t i = 0; i < g->t; i++) {
    __builtin_prefetch(p + i * g->sld, 0, 3);
    if (src_off_lines) __builtin_prefetch(p + i * g->sld + 63, 0, 3);
  }
  if (g->es >= 4 || g->off_lines) lt__tile_new_lines(g, r + g->t, c);
}

/* Asks for the destination lines of the tile after (r, c) in a walk
 * along the source's rows (see lt__rows_near_pages): both lines of each
 * row where the rows are off a line, since the next tile's rows are
 * other rows, whose second lines nothing has touched. Xeon, F32 in
 * cache, same-run ratio to memcpy, two runs each, none -> first lines ->
 * both: 1020 x 64 (BHTD (0,3,1,2) at 1 MiB) 0.52-0.53 -> 0.62-0.64 ->
 * 0.78-0.83, 3068 x 64 0.45-0.46 -> 0.52-0.54 -> 0.77, 1020 x 256
 * 0.47-0.50 -> 0.37-0.38 -> 0.80-0.83. 2- and 1-byte tiles walk along
 * rows only near pages, where the rows are always off lines, and gain
 * as much (the switch flipped sample by sample, 200 samples, speed
 * ratio, none -> both: bf16 BHTD (0,3,1,2) of [4, 12, 170, 64] 1.322x,
 * 2050 x 256 1.116x; u8 BHTD (0,3,1,2) of [4, 12, 341, 64] 1.101x, 4095
 * x 256 1.040x; first lines alone against both, bf16 2050 x 256 0.911x,
 * u8 4095 x 256 0.979x; the AVX2 tiles through the kernel table, none
 * -> both, bf16 2050 x 256 1.044x, u8 4095 x 256 1.010x). bench_access
 * at 1 MiB, two runs each in turn: bf16 BHTD (0,3,1,2) 0.37 ->
 * 0.52-0.55, u8 0.29-0.30 -> 0.32-0.34, the rest level. */
static inline void lt__tile_after(const lt__tiling *g, int64_t r, int64_t c) {
  if (c + g->t >= g->c0 + g->ncols) c = g->c0 - g->t, r += g->t;
  if (r < g->r0 + g->nrows) lt__tile_lines_for_writing(g, r, c + g->t, true);
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
 * write, for writing (where the rows lie off lines, 2- and 1-byte tiles
 * too: lt__tile_below): F32, bench_access at 1 MiB, three runs each, 2-D
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
 * from four tiles in a row, more than its ways. Those walk along the
 * source's rows instead, on every core: each pass over the row of tiles
 * spreads its lines over the sets, and finishes the last pass's. Xeon,
 * F32 in cache, same-run ratio to memcpy, two runs each, down columns ->
 * along rows: 1020 x 64 (BHTD (0,3,1,2) at 1 MiB) 0.27-0.28 -> 0.44,
 * 1020 x 128 0.27 -> 0.44-0.45, 1020 x 256 0.38-0.39 -> 0.52-0.54, 1030 x
 * 64 0.28 -> 0.38-0.41, 3068 x 64 0.27-0.28 -> 0.43-0.48, 3068 x 80
 * 0.33-0.35 -> 0.50-0.52; 2046 x 64 (8 bytes short of 8 KiB) 0.24-0.26
 * either way. Rows 32 bytes short or more keep the columns: 1016 x 64
 * 0.69-0.71 against 0.53, 2040 x 64 0.75-0.76 against 0.53-0.55; so do
 * rows on a multiple (1024 x 64 0.44 against 0.41-0.42). Zen 5, the same
 * programs, two runs of two rounds each, the walk before (down columns,
 * the source's rows lying closer) -> along rows: 1020 x 128 0.36-0.38 ->
 * 0.50-0.54, 1020 x 256 0.40-0.43 -> 0.54-0.65, 1030 x 64 0.31-0.33 ->
 * 0.47-0.49, 3068 x 64 0.48-0.50 -> 0.65-0.66, BHTD (0,3,1,2) at 1 MiB
 * ([4, 12, 85, 64]) 0.53-0.59 -> 0.59-0.73; 1016 x 64 level. */
static inline bool lt__rows_near_pages(int64_t ld_bytes) {
  int64_t off = ld_bytes % 4096;
  return off != 0 && (off < 32 || off > 4096 - 32);
}

/* Where Intel cores walk along the source's rows: destination rows near
 * a page multiple (above), and F32 sources at most LT__BAND_TILES tiles
 * wide, whose strips of tiles then read each source line once, in
 * order, where walking down the columns reads every source row once per
 * column of tiles. Xeon, F32 in cache, same-run ratio to memcpy, three
 * rounds each, down columns -> along rows: 1016 x 64 0.67 -> 0.85, 3000
 * x 64 0.64 -> 0.77, 300 x 64 0.64 -> 0.75, 2040 x 64 0.75 -> 0.81, 4096
 * x 64 0.45-0.52 -> 0.54-0.58, 64^3 (0,2,1) (64 x 64 slices, rows 256
 * bytes apart on both sides) 0.61 -> 0.70, 64^3 (2,1,0) (64 x 64 slices
 * 16 KiB apart) 0.47 -> 0.53. Destination rows a multiple of 2 KiB apart
 * lost that way where the source was under 512 KiB and taller than
 * LT__BAND_TILES tiles (512 x 64 0.63 -> 0.48, 1024 x 64 0.44 -> 0.42,
 * 2048 x 32 0.43 -> 0.42), so those keep the columns; from 512 KiB up
 * they measured mixed or ahead (4096 x 32 0.44 -> 0.43, 4096 x 48 0.51
 * -> 0.47-0.50 in two runs, 8192 x 32 0.54 -> 0.56, 4096 x 64 above).
 * bench_access at 1 MiB, two runs each in turn: (2,0,1) 0.48 ->
 * 0.54-0.56, (0,2,1) 0.67-0.68 -> 0.71-0.72, (2,1,0) 0.51-0.52 ->
 * 0.53-0.55, the rest level. 8-byte tiles measured level (F64 there),
 * and 2- and 1-byte ones level or slower (bf16 2-D 0.56 -> 0.45).
 * (Transposes whose rows lie a multiple of 512 bytes apart on both
 * sides, 64^3 (2,1,0) among them, take the diagonals below first.) */
static inline bool lt__intel_along_rows(const lt__tiling *g) {
  if (lt__rows_near_pages(g->dld)) return true;
  if (g->es != 4 || g->ncols > LT__BAND_TILES * g->t) return false;
  bool short_cols = g->nrows <= LT__BAND_TILES * g->t;
  bool large = g->nrows * g->ncols * g->es >= LT__CACHED_MAX_BYTES / 2;
  return g->dld % 2048 != 0 || short_cols || large;
}

/* Where both sides' rows lie a multiple of 512 bytes apart, each tile's
 * 16 lines on a side fall in at most eight of L1's sets, and the next
 * tile down a column (or along a row) keeps one side's sets. Intel cores
 * walk such transposes of 4-byte elements along diagonals of the tiles
 * (tile (i, (i + d) mod n) for d = 0, 1, ...), so that each tile's lines
 * fall in other sets than the last one's on both sides, asking for the
 * next tile's source lines and destination lines as the other walks do.
 * Xeon, F32 in cache, same-run ratio to memcpy, three rounds each, the
 * walk before -> diagonals: 512 x 512 0.58-0.61 -> 0.70-0.72, 1024 x 256
 * 0.48-0.50 -> 0.57-0.61, 256 x 1024 0.60-0.63 -> 0.69-0.73, 256 x 256
 * 0.65 -> 0.68, 128 x 2048 0.57 -> 0.74, 640 x 384 0.60 -> 0.72, 128 x
 * 128 0.65 -> 0.70, 2048 x 128 0.44-0.45 -> 0.51-0.52, 128 x 512 level;
 * slices of (0,2,1): 4 x 256 x 256 0.63-0.69 -> 0.73-0.85, 16 x 128 x 128
 * 0.60-0.62 -> 0.66-0.78, 64^3 (2,1,0) level; without the asks, slower
 * than before (512 x 512 0.46, 1024 x 256 0.37). Rows 256 bytes apart or
 * off a multiple lost (64^3 (0,2,1) 0.82 -> 0.71, 4096 x 64 0.56 ->
 * 0.49, 500 x 524 0.77 -> 0.45); U8 1024 x 1024 measured level.
 * bench_access at 1 MiB, three runs each in turn: the 2-D transpose
 * (512^2) 0.62-0.65 -> 0.72, (2,1,0) 0.53-0.54 -> 0.56, the rest level.
 * Zen 4 had measured diagonals without asks ahead on 512^2 and behind
 * on 256^2. */
static inline bool lt__intel_diagonals(const lt__tiling *g) {
  return g->es == 4 && g->sld % 512 == 0 && g->dld % 512 == 0;
}

/* Zen 5 takes the diagonals (with the asks) where both sides' rows lie a
 * multiple of 1 KiB apart, each tile's 16 lines on a side in at most
 * four of L1's sets. F32, same-run ratio to memcpy, two runs of two
 * rounds each, the walk before -> diagonals: 512 x 512 0.51-0.56 ->
 * 0.61-0.66 (without the asks 0.61), 256 x 1024 0.39 -> 0.54-0.55, 1024
 * x 256 0.40-0.41 -> 0.46, 2048 x 512 0.53 -> 0.54-0.56; slices of
 * (0,2,1): 2 x 256 x 256 0.41-0.47 -> 0.43-0.81, 4 x 256 x 256 0.62-0.63
 * -> 0.64-0.67, but 8 x 256 x 256 (2 MiB) 0.78-0.83 -> 0.70-0.76 and 16
 * x 256 x 256 0.71-0.76 -> 0.68-0.73: batches past L2 lose, and a
 * call cannot tell. Rows a multiple of 512 bytes apart but not of 1 KiB
 * lost or gained little (128 x 128 0.40 -> 0.37, 128 x 512 0.43 ->
 * 0.41, 16 x 128 x 128 0.62-0.66 -> 0.67-0.68), as did one side's rows
 * off a multiple (128 x 2048 0.63-0.67 -> 0.53-0.54, 640 x 384 0.59 ->
 * 0.54-0.55); 64^3 (2,1,0) level. Zen 4 walks these otherwise (below). */
static inline bool lt__zen_diagonals(const lt__tiling *g) {
  return g->es == 4 && g->sld % 1024 == 0 && g->dld % 1024 == 0;
}

/* Zen 4 (AMD's cores with AVX-512 before Zen 5, whose F32 tiles are 16
 * rows) measured the diagonals behind where Zen 5 gains, and walks
 * those transposes down the columns of tiles instead. Where the
 * source's rows lie a multiple of 2 KiB apart, each tile also asks for
 * the source lines of the tile to its right, into L2: the next
 * column's, a whole column of tiles ahead. Down a column, the lines a
 * tile reads all fall in one or two of L1's sets and in a few dozen of
 * L2's; a column's lines fill those, and the next column's lie in the
 * sets beside them. Zen 4, F32, a switch flipped sample by sample in
 * one process (16 to 20 samples), speed ratio to the diagonals, down
 * columns without -> with the asks: 512 x 512 1.07 -> 1.15, 2 x 512 x
 * 512 (0,2,1) 1.08 -> 1.17, 256 x 1024 0.83 -> 1.07; where the rows lie
 * 1 KiB apart the asks measured no better or worse: 256 x 256 1.30 ->
 * 1.14, 512 x 256 1.20 -> 1.09, 4 x 256 x 256 (0,2,1) 1.21 -> 1.19,
 * 1024 x 256 1.11 -> 1.00. bench_access at 1 MiB, this walk and the
 * diagonals' build in turn, two runs each: the 2-D transpose (512^2)
 * 0.56-0.57 -> 0.64 of memcpy, the rest level. */
static inline bool lt__zen4_f32(const lt__tiling *g) {
  return lt__other_cores() && g->es == 4 && g->t == 16;
}

/* Where Zen 4's F32 kernel walks with its own plain tile
 * (lt__own_walks' cached; transpose_avx512_cached.h has the figures):
 * every cached walk but those of rows near a page multiple. */
static inline bool lt__zen4_own_cached(const lt__tiling *g) {
  return lt__zen4_f32(g) && !lt__rows_near_pages(g->dld);
}

static inline __attribute__((always_inline)) void lt__tiles_down_asking_right(const lt__tiling *g,
                                                                              lt__tile_fn tile) {
  bool ask = g->sld % 2048 == 0;
  for (int64_t c = g->c0; c < g->c0 + g->ncols; c += g->t)
    for (int64_t r = g->r0; r < g->r0 + g->nrows; r += g->t) {
      if (ask && c + g->t < g->c0 + g->ncols) {
        const char *right = g->src + r * g->sld + (c + g->t) * g->es;
        for (int64_t i = 0; i < g->t; i++) __builtin_prefetch(right + i * g->sld, 0, 2);
      }
      lt__tile_at(g, r, c, tile, false, NULL, NULL, 1);
    }
}

static inline __attribute__((always_inline)) void lt__tiles_diagonal(const lt__tiling *g, lt__tile_fn tile) {
  int64_t nr = g->nrows / g->t, nc = g->ncols / g->t;
  for (int64_t d = 0; d < nc; d++)
    for (int64_t i = 0; i < nr; i++) {
      lt__tile_at(g, g->r0 + i * g->t, g->c0 + (i + d) % nc * g->t, tile, false, NULL, NULL, 1);
      int64_t next_i = i + 1 < nr ? i + 1 : 0, next_d = i + 1 < nr ? d : d + 1;
      if (next_d == nc) continue; /* the last tile */
      int64_t r = g->r0 + next_i * g->t, c = g->c0 + (next_i + next_d) % nc * g->t;
      const char *p = g->src + r * g->sld + c * g->es;
      for (int64_t k = 0; k < g->t; k++) __builtin_prefetch(p + k * g->sld, 0, 3);
      lt__tile_lines_for_writing(g, r, c, false);
    }
}

/* Zen 4 (and any cores but Intel's and Zen 5's) walks along the
 * source's rows too where the others walk down the columns (the last
 * walk of lt__tiles_cached, for what none before it takes: source rows
 * no farther apart than the destination's among them), for tiles of 1,
 * 2 and 4 bytes whose rows are a line (AVX-512's, as measured), where
 * the transpose holds from a quarter of LT__CACHED_MAX_BYTES to all of
 * it. Zen 4, a switch flipped sample by sample in one process (11 to 15
 * samples, a process a shape unless counted), speed ratio down columns
 * -> along rows: F32 300 x 300 1.18, 500 x 500 1.06-1.08, 520 x 500
 * 1.11-1.14; bf16 724 x 724 (bench_access's 2-D at 1 MiB, six
 * processes) 1.04-1.12, 800 x 600 1.09, 512 x 300 1.07, (2,0,1) of [80,
 * 80, 81] (bench_access's) 1.08-1.09; u8 1000 x 1000 1.05, 1020 x 1020
 * (four processes) 1.06-1.07, 1024 x 1024 (bench_access's) 1.04;
 * bench_access's other permutations at 1 MiB level (F32, bf16, u8);
 * smaller transposes level or a little behind (F32 200 x 200 1.00, 100
 * x 100 0.99, bf16 64 x 64 0.99); F64 mixed (350 x 350 0.98, 360 x 340
 * 1.06), so it keeps the columns. bench_access itself, a process a run,
 * swings more than that with where the pages fall (bf16 2-D, four runs
 * of each build in turn, middle halves of the ratio to memcpy:
 * 0.38-0.42 -> 0.39-0.47). */
static inline bool lt__zen4_along_rows(const lt__tiling *g) {
  int64_t bytes = g->nrows * g->ncols * g->es;
  return lt__other_cores() && g->es <= 4 && g->t * g->es == 64 && bytes >= LT__CACHED_MAX_BYTES / 4 &&
         bytes <= LT__CACHED_MAX_BYTES;
}

/* The tiles of g one row of tiles after another; on Intel cores each
 * asks for the lines of the tile after it (lt__tile_after). */
static inline __attribute__((always_inline)) void lt__tiles_along_rows(const lt__tiling *g, lt__tile_fn tile,
                                                                       bool intel) {
  for (int64_t r = g->r0; r < g->r0 + g->nrows; r += g->t)
    for (int64_t c = g->c0; c < g->c0 + g->ncols; c += g->t) {
      lt__tile_at(g, r, c, tile, false, NULL, NULL, 1);
      if (intel) lt__tile_after(g, r, c);
    }
}

/* The cached walk that fits g (the comments above, and those of
 * transpose_walk_staged.h); es is g->es as the kernel's constant (see
 * lt__tiles_staggered). */
static inline __attribute__((always_inline)) void lt__tiles_cached(const lt__tiling *g, lt__tile_fn tile,
                                                                   bool banded, int64_t es) {
  if (banded && g->nrows <= LT__BAND_TILES * g->t) {
    for (int64_t cb = g->c0; cb < g->c0 + g->ncols; cb += LT__BAND_TILES * g->t)
      for (int64_t r = g->r0; r < g->r0 + g->nrows; r += g->t)
        for (int64_t c = cb; c < g->c0 + g->ncols && c < cb + LT__BAND_TILES * g->t; c += g->t)
          lt__tile_at(g, r, c, tile, false, NULL, NULL, 1);
    return;
  }
  bool intel = lt__intel_cores();
  if (!intel && lt__zen_buffered(g, es)) {
    lt__tiles_buffered(g, tile, es);
    return;
  }
  if (!intel && lt__zen_staged(g)) {
    lt__tiles_staged(g, tile, es);
    return;
  }
  if (intel ? lt__intel_diagonals(g) : lt__zen_diagonals(g)) {
    if (lt__zen4_f32(g)) lt__tiles_down_asking_right(g, tile);
    else lt__tiles_diagonal(g, tile);
    return;
  }
  if (intel ? lt__intel_along_rows(g) : lt__rows_near_pages(g->dld) || g->sld > g->dld) {
    lt__tiles_along_rows(g, tile, intel);
    return;
  }
  if (!intel && lt__zen_staggered(g)) {
    if (lt__zen4_f32(g)) lt__tiles_staged_columns(g, tile, es);
    else lt__tiles_staggered(g, tile, es);
    return;
  }
  if (lt__zen4_along_rows(g)) {
    lt__tiles_along_rows(g, tile, false);
    return;
  }
  for (int64_t c = g->c0; c < g->c0 + g->ncols; c += g->t)
    for (int64_t r = g->r0; r < g->r0 + g->nrows; r += g->t) {
      lt__tile_at(g, r, c, tile, false, NULL, NULL, 1);
      if (intel) lt__tile_below(g, r, c);
    }
}

#endif
