/* Internal to backends/cpu/transpose: the tiles of n transposes side by
 * side (lt__transpose_side_fn) into their stage. A vector path includes
 * it and writes the stage's rows out with its own stores. */
#ifndef LT_TRANSPOSE_SIDE_H
#define LT_TRANSPOSE_SIDE_H

#include "transpose_tiled.h"

/* The stage is laid out as the destination: row c holds slice 0's rows
 * elements of column c, then slice 1's, and so on. The tiles go a band
 * of t source rows at a time across every slice, so that each source row
 * is read along all its slices' columns in one pass, where slice after
 * slice reads each row once per slice. Zen 5, F32 (2,1,0), same-run
 * ratio to memcpy, two runs each, slice after slice -> bands across
 * them: [64, 64, 64] 0.60 -> 0.62, [128, 64, 32] 0.48-0.49 -> 0.56-0.58,
 * [64, 32, 128] (column blocks) 0.55-0.58 -> 0.58-0.59, [32, 64, 128]
 * 0.59-0.60 -> 0.60-0.61, [16, 64, 256] level (0.31). Each slice's
 * partial tiles, past the full ones, go to the path's edge kernel; the
 * stage's rows then start off a line wherever a slice's rows are not
 * whole tiles. Same-run ratio to memcpy, two runs each in turn, a slice
 * at a time -> the kernel: F32 (2,1,0) of [63, 65, 64] 0.43 -> 0.45-0.46,
 * [65, 63, 64] 0.35-0.36 -> 0.41, [40, 128, 32] 0.27-0.29 -> 0.33-0.34,
 * [31, 33, 64], [32, 64, 100], [64, 16, 100] and [64, 64, 63] level;
 * bf16 [63, 65, 128] 0.33-0.35 -> 0.37-0.38; u8 [63, 65, 256] level; F64
 * [31, 33, 32] 0.17-0.18 -> 0.19-0.20, [32, 16, 100] 0.22-0.23 ->
 * 0.24-0.26. Here the full tiles of slices first to n - 1, those before
 * first being a path's own (transpose_avx512_side.h). */
static inline __attribute__((always_inline)) void lt__side_full_tiles(char *stage, const char *src, int64_t sld,
                                                                      int64_t rows, int64_t cols, int64_t n,
                                                                      int64_t first, int64_t src_step, int64_t es,
                                                                      lt__tile_fn tile) {
  const int64_t t = 64 / es, run = n * rows * es, nr = rows / t * t, nc = cols / t * t;
  for (int64_t r = 0; r < nr; r += t)
    for (int64_t s = first; s < n; s++)
      for (int64_t c = 0; c < nc; c += t) {
        lt__tile_out out = {
            .dst = stage + c * run + (s * rows + r) * es, .dld = run, .unit = es < 4 ? (int)es : 4, .segs = 1};
        tile(&out, src + s * src_step * es + r * sld + c * es, sld);
      }
}

/* Each slice's partial tiles: the columns past the full tiles, then the
 * rows. */
static inline void lt__side_partial_tiles(char *stage, const char *src, int64_t sld, int64_t rows, int64_t cols,
                                          int64_t n, int64_t src_step, int64_t es, lt__transpose_fn edge) {
  const int64_t t = 64 / es, run = n * rows * es, nr = rows / t * t, nc = cols / t * t;
  for (int64_t s = 0; s < n; s++) {
    char *to = stage + s * rows * es;
    const char *from = src + s * src_step * es;
    lt__edge(edge, to + nc * run, n * rows, from + nc * es, sld / es, nr, cols - nc);
    lt__edge(edge, to + nr * es, n * rows, from + nr * sld, sld / es, rows - nr, cols);
  }
}

/* Every tile of the n slices: the full ones of slices first on, then
 * every slice's partial ones. */
static inline __attribute__((always_inline)) void lt__tiles_side_by_side(char *stage, const char *src, int64_t sld,
                                                                         int64_t rows, int64_t cols, int64_t n,
                                                                         int64_t src_step, int64_t es,
                                                                         lt__tile_fn tile, lt__transpose_fn edge) {
  lt__side_full_tiles(stage, src, sld, rows, cols, n, 0, src_step, es, tile);
  lt__side_partial_tiles(stage, src, sld, rows, cols, n, src_step, es, edge);
}

#endif
