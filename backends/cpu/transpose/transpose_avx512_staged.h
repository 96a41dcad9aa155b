/* Internal to transpose_avx512.c (compiled with its AVX-512 flags),
 * included once after transpose_avx512_words.h, whose 16 x 16 word
 * transpose it uses: the staged walks of transpose_walk_staged.h for
 * F32 tiles, written out with the tile inlined, which the cached walks
 * take through lt__tiling's staged. The generic walk calls the tile
 * through lt__tile_fn, and a model of that walk outside the library,
 * its tile inlined, ran faster on the library's own buffers (F32
 * (2,0,1) of 64^3 at 1 MiB, same-run ratio to memcpy: 0.62-0.63
 * against 0.53-0.55). Zen 4, the switch flipped sample by sample in
 * one process (20 samples), speed ratio generic -> this: staged
 * columns (rows a multiple of 4 KiB apart) 4096 x 64 ((2,0,1) of 64^3)
 * 1.23, 1024 x 64 1.32, 8192 x 32 1.16, 2048 x 128 1.06, (0,2,1) of
 * [4, 1024, 64] 1.15, (2,0,1) of [32, 64, 128] 1.23; staged near a
 * multiple, 1025 x 64 1.26, 4095 x 64 1.12, 1023 x 256 1.16, 2050 x
 * 100 1.22, (2,0,1) of [63, 65, 64] 1.19. Zen 5 takes the near-page
 * walk too (not measured there); Intel cores take neither.
 * Such code is fragile: a first form (the caller's stage, a block's
 * tiles a row of tiles at a time, each stage row loaded whole before
 * its stores) ran at 0.80-0.86 of the model's speed in six builds (64^3
 * (2,0,1), same process; level with the generic walk where both were
 * timed) and level with the model in a seventh, moving with where the
 * code fell; this form ran level with the model (0.59-0.63 of memcpy)
 * with its code at each of four offsets (0, 16, 32 and 48 bytes on).
 * Which of the three differences matters was not measured. */
#ifndef LT_TRANSPOSE_AVX512_STAGED_H
#define LT_TRANSPOSE_AVX512_STAGED_H

#include <immintrin.h>
#include <stdint.h>

#include "transpose_tiled.h"

/* One tile into the stage: 16 source rows from p, sld bytes apart, to
 * 16 stage rows LT__STAGED_RUN_BYTES apart. */
static inline __attribute__((always_inline)) void stage_tile4(char *stage, const char *p, int64_t sld) {
  __m512 r[16];
  LT__UNROLL for (int i = 0; i < 16; i++, p += sld) r[i] = _mm512_loadu_ps(p);
  transpose16_ps(r);
  LT__UNROLL for (int j = 0; j < 16; j++)
    _mm512_store_ps((float *)(void *)(stage + j * LT__STAGED_RUN_BYTES), r[j]);
}

/* n bytes (a multiple of 64) of a stage row out to d; unrolled where the
 * row is whole. */
static inline __attribute__((always_inline)) void stage_row_out(char *d, const char *row, int64_t n) {
  if (n == LT__STAGED_RUN_BYTES) {
    LT__UNROLL for (int x = 0; x < LT__STAGED_RUN_BYTES; x += 64)
      _mm512_storeu_ps((float *)(void *)(d + x), _mm512_load_ps((const float *)(const void *)(row + x)));
    return;
  }
  for (int64_t x = 0; x < n; x += 64)
    _mm512_storeu_ps((float *)(void *)(d + x), _mm512_load_ps((const float *)(const void *)(row + x)));
}

/* The staged walk (lt__tiles_staged_via) for 4-byte elements, through
 * a stage of its own: blocks of LT__STAGED_RUN_BYTES / 4 source rows by
 * stage_bytes / LT__STAGED_RUN_BYTES columns, a block's tiles a column
 * of tiles at a time, then its rows out. */
static void staged4(const lt__tiling *g, int64_t stage_bytes) {
  _Alignas(64) char stage[LT__STAGED_BYTES];
  const int64_t run = LT__STAGED_RUN_BYTES, block_rows = run / 4, block_cols = stage_bytes / run;
  const int64_t sld = g->sld, dld = g->dld;
  for (int64_t cb = g->c0; cb < g->c0 + g->ncols; cb += block_cols)
    for (int64_t rb = g->r0; rb < g->r0 + g->nrows; rb += block_rows) {
      int64_t nr = lt__min64(block_rows, g->r0 + g->nrows - rb), nc = lt__min64(block_cols, g->c0 + g->ncols - cb);
      for (int64_t c = 0; c < nc; c += 16) {
        const char *p = g->src + rb * sld + (cb + c) * 4;
        for (int64_t r = 0; r < nr; r += 16, p += 16 * sld) stage_tile4(stage + c * run + r * 4, p, sld);
      }
      char *d = g->dst + cb * dld + rb * 4;
      for (int64_t c = 0; c < nc; c++, d += dld) stage_row_out(d, stage + c * run, nr * 4);
    }
}

#endif
