/* Internal to transpose_avx512.c (compiled with its AVX-512 flags),
 * included once after its streamed kernels: the F32 kernel of a lagged
 * band (lt__transpose_lagged_kernel), two strips of 16 source rows whose
 * lines would crowd the same sets of L2 together (see lagged_bands.c).
 * The second strip goes LAG_COLS columns behind the first, so that at
 * any moment the two read lines in different sets; the first strip's
 * tiles wait in a stage in L1 until the second's tiles over the same
 * columns are done, and each destination row then gets its two lines,
 * 128 bytes, streamed back to back. Streamed from each tile as it is
 * done, a destination row's two lines go out a chunk apart in time (as
 * in the lagged bands before, the two strips' tiles in turn), and memory
 * takes them more slowly: Xeon, bench_access (2,1,0) at 512 MiB,
 * same-run ratio to memcpy, two runs each in turn, both strips streamed
 * from their tiles 0.62-0.63, the first staged and both lines of a row
 * together 0.71-0.72. */
#ifndef LT_TRANSPOSE_AVX512_LAGGED_H
#define LT_TRANSPOSE_AVX512_LAGGED_H

#include <immintrin.h>
#include <stdint.h>

/* A chunk: two tiles' columns, two lines of each source row. Chunks of
 * 64 columns measured level (0.72-0.73). With both strips staged (the
 * second's rows then copied out of its own stage), the same runs: the
 * second strip one chunk behind 0.71-0.72, two or four behind
 * 0.69-0.71, eight 0.67-0.71; asking for the source lines one, two or
 * four chunks ahead 0.69-0.70, 0.68-0.69, 0.65-0.67; and bands of three
 * or four strips, each a chunk behind the one before, 0.58-0.62 and
 * 0.55-0.61 (more rows at once than L2's sets hold). */
enum { LAG_COLS = 32 };

/* Whether the lagged kernel takes a call: two whole strips on whole
 * tiles, every destination row on a line. Leading dimensions in
 * elements. */
static inline bool lagged_fits(const char *dst, int64_t dst_ld, int64_t rows, int64_t cols) {
  return rows == LT__LAGGED_ROWS && cols > 0 && cols % 16 == 0 && (uintptr_t)dst % 64 == 0 && dst_ld * 4 % 64 == 0;
}

/* The first strip's tiles over w columns from src into stage, a tile's
 * 16 rows of 64 bytes after another. */
static inline void lagged_first(char *stage, const char *src, int64_t sld, int64_t w) {
  for (int64_t t = 0; t < w; t += 16) {
    lt__tile_out out = {.dst = stage + t * 64, .dld = 64, .segs = 1};
    rows_tile4(&out, (tile_src){.src = src + t * 4, .sld = sld}, EMIT_PLAIN, 1);
  }
}

/* The second strip's tiles over w columns from src, each destination
 * row's line streamed after the first strip's from stage. */
static inline void lagged_second(char *dst, int64_t dld, const char *src, int64_t sld, const char *stage, int64_t w) {
  for (int64_t t = 0; t < w; t += 16) {
    __m512 r[16];
    LT__UNROLL for (int i = 0; i < 16; i++) r[i] = _mm512_loadu_ps((const float *)(const void *)(src + i * sld));
    transpose16_ps(r);
    LT__UNROLL for (int j = 0; j < 16; j++) {
      char *q = dst + j * dld;
      stream_vec(q, load_vec(stage + j * 64));
      stream_vec(q + 64, _mm512_castps_si512(r[j]));
    }
    src += 64, dst += 16 * dld, stage += 16 * 64;
  }
}

/* A lagged band (above), unfenced; any other call to the streamed tile
 * kernel. Leading dimensions in elements. */
static void lagged_tile4(char *dst, int64_t dst_ld, const char *src, int64_t src_ld, int64_t rows, int64_t cols) {
  if (!lagged_fits(dst, dst_ld, rows, cols)) {
    streamed_tile4(dst, dst_ld, src, src_ld, rows, cols);
    return;
  }
  _Alignas(64) char stage[2][LAG_COLS * 64]; /* the first strip's last two chunks */
  int64_t dld = dst_ld * 4, sld = src_ld * 4, chunks = (cols + LAG_COLS - 1) / LAG_COLS;
  const char *second = src + 16 * sld;
  for (int64_t x = 0; x <= chunks; x++) {
    int64_t c = x * LAG_COLS; /* the first strip's chunk */
    if (x < chunks) lagged_first(stage[x & 1], src + c * 4, sld, cols - c < LAG_COLS ? cols - c : LAG_COLS);
    if (x == 0) continue;
    c -= LAG_COLS; /* the second's, a chunk behind */
    lagged_second(dst + c * dld, dld, second + c * 4, sld, stage[(x - 1) & 1], cols - c < LAG_COLS ? cols - c : LAG_COLS);
  }
}

#endif
