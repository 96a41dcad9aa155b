/* Internal to backends/cpu/transpose: two streamed transposes of one
 * shape whose tiles go in turn (lt__transpose_pair_fn), and PAIR, which
 * makes such a kernel of a path's tile. A caller pairs two transposes
 * whose source rows would otherwise crowd the same sets of L2: rows a
 * multiple of 128 KiB apart put every row's line of a tile in one set of
 * a 2 MiB 16-way L2, and one strip of them fills it (see
 * tiled_transpose.c, lagged_band). */
#ifndef LT_TRANSPOSE_PAIR_H
#define LT_TRANSPOSE_PAIR_H

#include "transpose_tiled.h"

/* Whether two transposes of rows x cols can go as a pair: whole tiles
 * only, every source and destination row on a line (the pair streams
 * straight from its tiles, with no stage and no edges). Leading
 * dimensions in bytes. */
static inline bool lt__pair_fits(const char *dst, const char *dst2, int64_t dld, const char *src, const char *src2,
                                 int64_t sld, int64_t rows, int64_t cols, int64_t es) {
  int64_t t = 64 / es;
  uintptr_t at = (uintptr_t)dst | (uintptr_t)dst2 | (uintptr_t)src | (uintptr_t)src2;
  return rows > 0 && cols > 0 && rows % t == 0 && cols % t == 0 && dld % 64 == 0 && sld % 64 == 0 && at % 64 == 0;
}

/* The tile at (r, c) of one of the pair, streamed. */
static inline __attribute__((always_inline)) void lt__pair_tile(char *dst, const char *src, int64_t dld, int64_t sld,
                                                                int64_t r, int64_t c, int64_t rows, int64_t es,
                                                                lt__tile_fn tile) {
  int64_t t = 64 / es;
  lt__tile_out out = {.dst = dst + c * dld + r * es,
                      .dld = dld,
                      .stream = true,
                      .unit = 4,
                      .segs = 1,
                      .first = r == 0,
                      .second = r == t,
                      .last = r + t == rows};
  tile(&out, src + r * sld + c * es, sld);
}

/* Asks for the source lines of the tile LT__TILE_READ_AHEAD bytes on
 * along the strip of rows [r, r + t), where the strip has one. */
static inline void lt__pair_read_ahead(const char *src, int64_t sld, int64_t r, int64_t c, int64_t cols, int64_t es) {
  int64_t ca = c + LT__TILE_READ_AHEAD / es;
  if (ca >= cols) return;
  const char *p = src + r * sld + ca * es;
  for (int64_t i = 0; i < 64 / es; i++) __builtin_prefetch(p + i * sld, 0, 2);
}

/* Both transposes a strip of tile rows at a time, the first's tile and
 * then the second's at each step along it (unfenced: the caller fences).
 * Leading dimensions in bytes; the pair fits (lt__pair_fits). */
static inline __attribute__((always_inline)) void lt__tiles_pair(char *dst, const char *src, char *dst2,
                                                                 const char *src2, int64_t dld, int64_t sld,
                                                                 int64_t rows, int64_t cols, int64_t es,
                                                                 lt__tile_fn tile) {
  int64_t t = 64 / es;
  for (int64_t r = 0; r < rows; r += t)
    for (int64_t c = 0; c < cols; c += t) {
      lt__pair_tile(dst, src, dld, sld, r, c, rows, es, tile);
      lt__pair_tile(dst2, src2, dld, sld, r, c, rows, es, tile);
      lt__pair_read_ahead(src, sld, r, c, cols, es);
      lt__pair_read_ahead(src2, sld, r, c, cols, es);
    }
}

/* pair_TILE: the pair kernel of a path's tile of N-byte elements, or two
 * calls of its streamed kernel where the pair does not fit. */
#define PAIR(N, TILE, ATTR)                                                                                           \
  ATTR static void pair_##TILE(char *dst, const char *src, char *dst2, const char *src2, int64_t dst_ld,             \
                               int64_t src_ld, int64_t rows, int64_t cols) {                                         \
    if (lt__pair_fits(dst, dst2, dst_ld * N, src, src2, src_ld * N, rows, cols, N)) {                                \
      lt__tiles_pair(dst, src, dst2, src2, dst_ld * N, src_ld * N, rows, cols, N, TILE);                             \
      return;                                                                                                        \
    }                                                                                                                \
    streamed_##TILE(dst, dst_ld, src, src_ld, rows, cols);                                                           \
    streamed_##TILE(dst2, dst_ld, src2, src_ld, rows, cols);                                                         \
  }

#endif
