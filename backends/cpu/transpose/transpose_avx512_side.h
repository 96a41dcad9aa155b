/* Internal to transpose_avx512.c (compiled with its AVX-512 flags),
 * included once after its tiles: n transposes side by side through a
 * stage (lt__transpose_side_fn), the stage's rows out in stores of the
 * width that measured best for their length, and SIDE, which makes a
 * kernel of a path's tile and edge. */
#ifndef LT_TRANSPOSE_AVX512_SIDE_H
#define LT_TRANSPOSE_AVX512_SIDE_H

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "transpose_side.h"
#include "vendor.h"

/* One stage row of run bytes out, a line at a time in 16-byte moves,
 * its four loads before its four stores (named: GCC merges an array of
 * them into one 64-byte move), then any 16-byte pieces and the tail,
 * called rather than inlined, for rows under SIDE_WIDE_RUN bytes. Zen 5,
 * same-run ratio to memcpy, two runs each in turn, (2,1,0) side by side,
 * a slice at a time -> through this: F32 [32, 64, 128] (rows of 256
 * bytes) 0.56 -> 0.57-0.58 (0.61-0.62 before the pieces and tails were
 * added, when the loop's loads were aligned ones), [16, 64, 256] (128
 * bytes) 0.26 -> 0.37 (0.31 before); measured before the tails: bf16
 * [64, 64, 128] 0.48 -> 0.51-0.53, [32, 64, 256] 0.24 -> 0.29; u8 [64,
 * 128, 128] and [128, 64, 128] 0.33-0.36 -> 0.33-0.37; F64 [8, 32, 128]
 * 0.18-0.19 -> 0.24. Inlined into the loop over rows, [16, 64, 256] ran
 * at 0.26 ([32, 64, 128] level); one 16-byte load and store after
 * another, inlined, 0.26-0.31 and 0.51-0.58. */
static inline void side_move16(char *dst, const char *from) {
  _mm_storeu_si128((__m128i *)(void *)dst, _mm_loadu_si128((const __m128i *)(const void *)from));
}

__attribute__((noinline)) static void side_narrow_row(char *dst, const char *from, int64_t run) {
  int64_t off = 0;
  for (; off + 64 <= run; off += 64) {
    const __m128i *p = (const __m128i *)(const void *)(from + off);
    __m128i *q = (__m128i *)(void *)(dst + off);
    __m128i a = _mm_loadu_si128(p), b = _mm_loadu_si128(p + 1), c = _mm_loadu_si128(p + 2), d = _mm_loadu_si128(p + 3);
    _mm_storeu_si128(q, a);
    _mm_storeu_si128(q + 1, b);
    _mm_storeu_si128(q + 2, c);
    _mm_storeu_si128(q + 3, d);
  }
  for (; off + 16 <= run; off += 16) side_move16(dst + off, from + off);
  if (off == run) return;
  if (run < 16) memcpy(dst + off, from + off, (size_t)(run - off));
  else side_move16(dst + run - 16, from + run - 16); /* the last 16 bytes, over some already written */
}

/* Stage rows of at least this many bytes leave in 64-byte stores,
 * shorter ones through side_narrow_row. Zen 5, F32 (2,1,0), same-run
 * ratio to memcpy, two runs each, side_narrow_row -> 64-byte stores: 64^3
 * (rows of 512 bytes into rows 16 KiB apart) 0.61 -> 0.62, [128, 64, 32]
 * (1 KiB, 32 KiB apart) 0.54 -> 0.56-0.58, [64, 32, 128] (column blocks)
 * level; but rows of 256 bytes 8 KiB apart ([32, 64, 128]) 0.53 -> 0.31
 * and 128 bytes 4 KiB apart ([16, 64, 256]) 0.31-0.32 -> 0.23, against
 * 16-byte moves inlined. Asking for the next row's lines as each row goes
 * measured level or behind (64^3 0.61-0.63 without, 0.59-0.62 with). */
enum { SIDE_WIDE_RUN = 512 };

/* The stage's cols rows of run bytes out to dst's, dld bytes apart; a
 * wide row's last 64 bytes end it, over some already written. */
static void side_rows_out(char *dst, int64_t dld, const char *stage, int64_t run, int64_t cols) {
  for (int64_t c = 0; c < cols; c++) {
    char *row = dst + c * dld;
    const char *from = stage + c * run;
    if (run < SIDE_WIDE_RUN) {
      side_narrow_row(row, from, run);
      continue;
    }
    int64_t off = 0;
    for (; off + 64 <= run; off += 64) _mm512_storeu_si512(row + off, _mm512_loadu_si512(from + off));
    if (off < run) _mm512_storeu_si512(row + run - 64, _mm512_loadu_si512(from + run - 64));
  }
}

/* One F32 tile of two slices: rows 0-7 from a, 8-15 from b (both sld
 * bytes apart), each transposed row out as two halves, the second half
 * bytes after the first. Called, not inlined: inlined into
 * side_pairs4's loops, GCC kept the 16 rows' addresses apart and spilled
 * them, and pairs ran at 0.74-0.78 of one slice's speed on 64^3 (two
 * processes), where called they run at 1.09. */
__attribute__((noinline)) static void side_pair_tile4(char *o, int64_t run, int64_t half, const char *a,
                                                       const char *b, int64_t sld) {
  __m512 v[16];
  LT__UNROLL for (int x = 0; x < 8; x++) {
    v[x] = _mm512_loadu_ps((const float *)(const void *)(a + x * sld));
    v[x + 8] = _mm512_loadu_ps((const float *)(const void *)(b + x * sld));
  }
  transpose16_ps(v);
  LT__UNROLL for (int y = 0; y < 16; y++) {
    _mm256_storeu_ps((float *)(void *)(o + y * run), _mm512_castps512_ps256(v[y]));
    _mm256_storeu_ps((float *)(void *)(o + y * run + half), _mm512_extractf32x8_ps(v[y], 1));
  }
}

/* F32 slices side by side on Zen 4 go in pairs: each tile takes 8 rows
 * of one slice and the same 8 of the next, where a tile of one slice
 * takes 16 rows, so that a band of tiles reads 8 source rows at once
 * where it read 16. The halves' stores cost Zen 4 no more than whole
 * rows' (it stores a 64-byte vector as two halves). Zen 4, one thread, a
 * temporary switch flipped sample by sample (11 to 15 samples), speed
 * ratio one slice -> pairs, (2,1,0) of: [64, 64, 64] 1.09, [32, 64, 128]
 * 1.13, [16, 64, 256] 1.06, [64, 256, 64] 1.15, [64, 32, 128] 1.12, [64,
 * 16, 256] 1.10, [32, 32, 32] 1.10, [128, 64, 32] 1.02, [40, 128, 32]
 * 1.01, [63, 65, 64] 1.00; two threads, [64, 64, 64] 1.02. Why is not
 * settled: the rows of a 64^3 lie 16 KiB apart, in one set of L1's, yet
 * in a model of the tiles alone, rows a line further apart (other sets)
 * slowed both walks (one slice 0.82, pairs 0.73 of their speed). Not
 * measured on Zen 5, which keeps a slice at a time. An odd last slice
 * takes the path's tiles, and every slice its partial ones. */
static inline bool side_in_pairs(void) { return lt__other_cores(); }

static void side_pairs4(char *stage, const char *src, int64_t sld, int64_t rows, int64_t cols, int64_t n,
                        int64_t src_step) {
  const int64_t run = n * rows * 4, nr = rows / 16 * 16, nc = cols / 16 * 16, paired = n / 2 * 2;
  for (int64_t r = 0; r < nr; r += 8)
    for (int64_t s = 0; s < paired; s += 2)
      for (int64_t c = 0; c < nc; c += 16) {
        const char *a = src + s * src_step * 4 + r * sld + c * 4;
        side_pair_tile4(stage + c * run + (s * rows + r) * 4, run, rows * 4, a, a + src_step * 4, sld);
      }
  lt__side_full_tiles(stage, src, sld, rows, cols, n, paired, src_step, 4, tile4);
  lt__side_partial_tiles(stage, src, sld, rows, cols, n, src_step, 4, edge4);
}

/* n slices side by side (lt__transpose_side_fn): the tiles into the
 * stage (F32 on Zen 4 in pairs of slices), then its rows out. */
#define SIDE(N, TILE, EDGE, ATTR)                                                                                   \
  ATTR static void side_##TILE(char *dst, int64_t dst_ld, const char *src, int64_t src_ld, int64_t rows,            \
                               int64_t cols, int64_t n, int64_t src_step, char *stage) {                             \
    if (N == 4 && side_in_pairs()) side_pairs4(stage, src, src_ld * N, rows, cols, n, src_step);                    \
    else lt__tiles_side_by_side(stage, src, src_ld * N, rows, cols, n, src_step, N, TILE, EDGE);                    \
    side_rows_out(dst, dst_ld * N, stage, n * rows * N, cols);                                                      \
  }

#endif
