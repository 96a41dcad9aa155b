/* AVX-512 transpose kernels: tiles of one 64-byte vector a side (64 x 64
 * bytes, 32 x 32 halves, 16 x 16 words, 8 x 8 doubles). Compiled with
 * -mavx512f -mavx512bw -mavx512vl -mavx512dq; partial tiles go to the
 * scalar kernels. */
#include <immintrin.h>

#include "transpose_tiled.h"

typedef __m512i vec;
enum { VBYTES = 64, LANES = VBYTES / 16 };

/* 16 bytes from p, then 16 from p + step. */
static inline __m256i load_pair(const char *p, int64_t step) {
  __m128i lo = _mm_loadu_si128((const __m128i *)p), hi = _mm_loadu_si128((const __m128i *)(p + step));
  return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
}

/* Lane l from p + l * lane_step: 16 bytes of each of LANES source rows. */
static inline vec load_lanes(const char *p, int64_t lane_step) {
  __m512i lo = _mm512_castsi256_si512(load_pair(p, lane_step));
  return _mm512_inserti64x4(lo, load_pair(p + 2 * lane_step, lane_step), 1);
}

static inline vec load_vec(const char *p) { return _mm512_loadu_si512(p); }
static inline void store_vec(char *p, vec v) { _mm512_storeu_si512(p, v); }
/* p is aligned to the vector: only whole aligned lines are streamed. */
static inline void stream_vec(char *p, vec v) { _mm512_stream_si512((void *)p, v); }

/* Interleaves the w-byte elements of the low (high) halves of each lane. */
static inline vec unpack_lo(vec a, vec b, size_t w) {
  switch (w) {
  case 1: return _mm512_unpacklo_epi8(a, b);
  case 2: return _mm512_unpacklo_epi16(a, b);
  case 4: return _mm512_unpacklo_epi32(a, b);
  default: return _mm512_unpacklo_epi64(a, b);
  }
}

static inline vec unpack_hi(vec a, vec b, size_t w) {
  switch (w) {
  case 1: return _mm512_unpackhi_epi8(a, b);
  case 2: return _mm512_unpackhi_epi16(a, b);
  case 4: return _mm512_unpackhi_epi32(a, b);
  default: return _mm512_unpackhi_epi64(a, b);
  }
}

#include "transpose_emit.h"
#include "transpose_lanes.h"

static void tile1(const lt__tile_out *out, const char *src, int64_t sld) { line_tile(out, src, sld, 1); }
static void tile2(const lt__tile_out *out, const char *src, int64_t sld) { line_tile(out, src, sld, 2); }
static void tile4(const lt__tile_out *out, const char *src, int64_t sld) { line_tile(out, src, sld, 4); }
static void tile8(const lt__tile_out *out, const char *src, int64_t sld) { line_tile(out, src, sld, 8); }

/* Each element size twice: streaming when one call's output outgrows the
 * caches, and streaming always (for batches of small transposes). */
#define KERNELS(N, INDEX)                                                                                        \
  static void transpose##N(char *dst, int64_t dst_ld, const char *src, int64_t src_ld, int64_t rows, int64_t cols) { \
    if (lt__transpose_tiled(dst, dst_ld, src, src_ld, rows, cols, N, tile##N, LT__STREAM_IF_LARGE,              \
                            lt__transpose_scalar_table[INDEX]))                                                 \
      _mm_sfence();                                                                                             \
  }                                                                                                             \
  static void streamed##N(char *dst, int64_t dst_ld, const char *src, int64_t src_ld, int64_t rows, int64_t cols) { \
    if (lt__transpose_tiled(dst, dst_ld, src, src_ld, rows, cols, N, tile##N, LT__STREAM_ALWAYS,                \
                            lt__transpose_scalar_table[INDEX]))                                                 \
      _mm_sfence();                                                                                             \
  }
KERNELS(1, 0)
KERNELS(2, 1)
KERNELS(4, 2)
KERNELS(8, 3)

const lt__transpose_fn lt__transpose_avx512_table[4] = {transpose1, transpose2, transpose4, transpose8};
const lt__transpose_fn lt__transpose_avx512_streamed_table[4] = {streamed1, streamed2, streamed4, streamed8};
