/* AVX-512 transpose kernels: tiles of one 64-byte vector a side (64 x 64
 * bytes, 32 x 32 halves, 16 x 16 words, 8 x 8 doubles; the byte tiles
 * also take AVX512-VBMI where the CPU has it); one thin kernel for
 * transposes of 2 to 15 source rows of 1-, 2- and 4-byte elements; for
 * the partial tiles, blocks of 64 bytes of columns (bytes and halves)
 * or masked 16 x 16 blocks (words, and thin bands); and the same tiles
 * read from rows that lie anywhere (transpose_rows_*, for grouped
 * transposes in cache). Compiled with -mavx512f -mavx512bw -mavx512vl
 * -mavx512dq; 8-byte partial tiles go to the scalar kernel. */
#include <immintrin.h>

#include "stream.h"
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

/* The destination line that starts mis bytes before a row segment cur:
 * the last mis bytes of the segment before it, prev, then cur's first
 * 64 - mis. mis is a multiple of unit (2 or 4): one two-source
 * permutation of words or halves. */
#define LT__SPLICE_MIN_UNIT 2
static inline vec lt__splice(vec prev, vec cur, size_t mis, int unit) {
  if (unit >= 4) {
    __m512i idx = _mm512_add_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                   _mm512_set1_epi32(16 - (int)(mis / 4)));
    return _mm512_permutex2var_epi32(prev, idx, cur);
  }
  __m512i idx = _mm512_add_epi16(_mm512_set_epi16(31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15,
                                                  14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
                                 _mm512_set1_epi16((short)(32 - mis / 2)));
  return _mm512_permutex2var_epi16(prev, idx, cur);
}

/* Pairs of tiles for elements of 4 and 8 bytes. A pair of byte tiles
 * would hold 32 vectors of results, more than there are registers, and
 * pairs of 2-byte tiles measured slower than single ones (16384^2 at 512
 * MiB: 55% of memcpy against 59%). */
#define LT__TILE_PAIRS 1

#include "transpose_emit.h"
#include "transpose_lanes.h"

/* ---- thin transposes: 2 to 15 source rows, 2- and 4-byte elements ---- */

/* 16 x 16 floats: r[i] holds source row i on entry, column i on exit. */
static inline __attribute__((always_inline)) void transpose16_ps(__m512 *r) {
  __m512 t[16];
  LT__UNROLL for (int i = 0; i < 16; i += 2) {
    t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
  }
  LT__UNROLL for (int i = 0; i < 16; i += 4) {
    r[i] = _mm512_shuffle_ps(t[i], t[i + 2], 0x44);
    r[i + 1] = _mm512_shuffle_ps(t[i], t[i + 2], 0xEE);
    r[i + 2] = _mm512_shuffle_ps(t[i + 1], t[i + 3], 0x44);
    r[i + 3] = _mm512_shuffle_ps(t[i + 1], t[i + 3], 0xEE);
  }
  LT__UNROLL for (int h = 0; h < 16; h += 8)
    LT__UNROLL for (int i = 0; i < 4; i++) {
      t[h + i] = _mm512_shuffle_f32x4(r[h + i], r[h + i + 4], 0x88);
      t[h + i + 4] = _mm512_shuffle_f32x4(r[h + i], r[h + i + 4], 0xDD);
    }
  LT__UNROLL for (int i = 0; i < 8; i++) {
    r[i] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0x88);
    r[i + 8] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0xDD);
  }
}

/* ---- partial tiles: the frame around the full tiles, 1-, 2- and 4-byte ---- */

static inline __attribute__((always_inline)) __m512 masked_load(const char *p, __mmask16 m, size_t es) {
  if (es == 4) return _mm512_maskz_loadu_ps(m, p);
  if (es == 1) return _mm512_castsi512_ps(_mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(m, p)));
  return _mm512_castsi512_ps(_mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(m, p)));
}

static inline __attribute__((always_inline)) void masked_store(char *p, __mmask16 m, __m512 v, size_t es) {
  if (es == 4) _mm512_mask_storeu_ps(p, m, v);
  else if (es == 1) _mm_mask_storeu_epi8(p, m, _mm512_cvtepi32_epi8(_mm512_castps_si512(v)));
  else _mm256_mask_storeu_epi16(p, m, _mm512_cvtepi32_epi16(_mm512_castps_si512(v)));
}

static inline __mmask16 first_lanes(int64_t n) { return (__mmask16)(0xFFFFu >> (16 - n)); }

/* A block of nr x nc (1..16 each) elements: masked loads of nr rows of nc
 * (masked-off lanes read nothing, so no byte past the block is touched),
 * the 16 x 16 register transpose, masked stores of nc rows of nr. */
static inline __attribute__((always_inline)) void masked_block(char *dst, int64_t dld, const char *src, int64_t sld,
                                                               int64_t nr, int64_t nc, size_t es) {
  const __mmask16 cols = first_lanes(nc), rows = first_lanes(nr);
  __m512 r[16];
  LT__UNROLL for (int i = 0; i < 16; i++) r[i] = i < nr ? masked_load(src + i * sld, cols, es) : _mm512_setzero_ps();
  transpose16_ps(r);
  LT__UNROLL for (int j = 0; j < 16; j++)
    if (j < nc) masked_store(dst + j * dld, rows, r[j], es);
}

/* The edge kernel of the 1-, 2- and 4-byte tiles: the bands around the
 * full tiles (up to a tile's side less one on each side, where the full
 * tiles start at the first aligned row and column) in masked blocks of up
 * to 16 x 16, where the scalar loop moved one element at a time (F32
 * (2,1,0) of 60 x 64 x 68 in cache, where each slice's frame is about
 * half its elements: 0.09 -> 0.32 of memcpy; 509 x 515 0.44-0.53 ->
 * 0.50-0.56). Bytes widen to words for the 16 x 16 transpose, as halves
 * do; their tiles are 64 a side, so the frame is most of a transpose of
 * a hundred or so (bench_access --dtype u8 at 1 MiB, cubes of 101, two
 * runs in turn: (0,2,1) 0.035 -> 0.20-0.21, (2,1,0) 0.033-0.035 ->
 * 0.16-0.17, (1,2,0) 0.05-0.08 -> 0.21-0.23; BHTD (0,2,3,1) 0.02-0.03 ->
 * 0.18). Bands thinner than MASKED_MIN stay scalar: a block then carries
 * 16 shuffles per element row for a few elements (68^3 (1,2,0),
 * 4-element bands: 0.30 -> 0.22 masked). Bytes and halves now take
 * blocks of 64 bytes of columns instead (narrow_edge, below), and come
 * here only for bands thinner than MASKED_MIN. */
enum { MASKED_MIN = 8 };
static inline __attribute__((always_inline)) void masked_edge(char *dst, int64_t dst_ld, const char *src,
                                                              int64_t src_ld, int64_t rows, int64_t cols, size_t es) {
  const int64_t e = (int64_t)es, sld = src_ld * e, dld = dst_ld * e;
  if (rows < MASKED_MIN || cols < MASKED_MIN) {
    lt__transpose_scalar_table[es == 4 ? 2 : es == 2 ? 1 : 0](dst, dst_ld, src, src_ld, rows, cols);
    return;
  }
  for (int64_t c = 0; c < cols; c += 16)
    for (int64_t r = 0; r < rows; r += 16)
      masked_block(dst + c * dld + r * e, dld, src + r * sld + c * e, sld, lt__min64(16, rows - r),
                   lt__min64(16, cols - c), es);
}

static void edge4(char *dst, int64_t dst_ld, const char *src, int64_t src_ld, int64_t rows, int64_t cols) {
  masked_edge(dst, dst_ld, src, src_ld, rows, cols, 4);
}

/* Thin transposes (thin, below) stream packed runs THIN_GROUPS steps at
 * a time, and read each row THIN_AHEAD bytes ahead into L2, as the tiled
 * kernels read theirs. */
enum { THIN_GROUPS = 4, THIN_AHEAD = 2048 };

/* Where a whole-row tile reads its source rows: row i at src + i * sld,
 * or, where rows is not NULL, at rows[i] + off (rows that lie anywhere,
 * see rows_walk). The strided kernels pass a constant NULL, so that their
 * loads stay a base plus a stride. */
typedef struct tile_src {
  const char *src;
  int64_t sld;
  const char *const *rows;
  int64_t off;
} tile_src;

static inline __attribute__((always_inline)) const float *src_row(tile_src s, int64_t i) {
  return (const float *)(const void *)(s.rows ? s.rows[i] + s.off : s.src + i * s.sld);
}

/* The kernels that read rows where they lie (grouped_transpose.c): whole
 * tiles with plain stores, down columns, each then asking for the tile
 * below's source rows and destination lines, as the cached walk does on
 * Intel cores (lt__tiles_cached). On a Xeon, same-run ratio to memcpy,
 * BHTD (3,2,1,0): F32 of [4, 12, 85, 64], three runs each, without
 * asking 0.65-0.69, asking for the source alone 0.66-0.69, for both
 * 0.76-0.82; bench_access at 1 MiB, five runs each in turn, u8 0.31-0.48
 * without the destination lines, 0.45-0.53 with (where the cached walk's
 * byte tiles had measured them behind, lt__tile_below), bf16 level.
 * tile must inline (always_inline): called, F32's tiles measured 0.59-0.69
 * against 0.80-0.83 (bench_access at 1 MiB, two runs each). */
static inline __attribute__((always_inline)) void rows_walk(char *dst, int64_t dst_ld, const char *const *rows,
                                                            int64_t nrows, int64_t ncols, int64_t es,
                                                            void (*tile)(const lt__tile_out *, tile_src)) {
  const int64_t t = 64 / es, dld = dst_ld * es;
  for (int64_t c = 0; c < ncols; c += t)
    for (int64_t r = 0; r < nrows; r += t) {
      lt__tile_out out = {.dst = dst + c * dld + r * es, .dld = dld, .segs = 1};
      tile(&out, (tile_src){.rows = rows + r, .off = c * es});
      if (r + t >= nrows) continue;
      for (int64_t i = 0; i < t; i++) __builtin_prefetch(rows[r + t + i] + c * es, 0, 3);
      for (int64_t j = 0; j < t; j++) __builtin_prefetch(out.dst + j * dld + t * es, 1, 3);
    }
}

/* F32 tiles from whole-row loads and the 16 x 16 register transpose
 * instead of gathered lanes: each source line is loaded once, where the
 * lanes load it in four 16-byte pieces, one per pass, and a line that
 * shares its cache set with the tile's other rows (rows a power of two
 * apart) may be gone by the next pass. Cached tiles (plain stores), on an
 * AVX-512 Xeon: bench_transpose 256^2 0.37-0.45 -> 0.61-0.68 of memcpy,
 * 64^2 (in L1) 0.17 -> 0.28; bench_access at 1 MiB, 2-D 0.36-0.39 ->
 * 0.49-0.53, (1,2,0) 0.40-0.48 -> 0.52-0.66, BHTD (0,3,1,2) 0.39-0.44 ->
 * 0.51-0.56 (three runs in turn). Streamed tiles take whole rows too, a
 * pair parking the first tile's 16 results in L1 while the second's are
 * computed (both at once would need 48 registers): on Zen 5 at 512 MiB,
 * same-run ratio to memcpy, lanes -> whole rows: (2,1,0) 0.57-0.63 ->
 * 0.74, (1,2,0) 0.82-0.83 -> 0.90-0.92, (2,0,1) 0.96-0.98 -> 1.03-1.06,
 * 2-D 0.69-0.80 -> 0.80. Where the source's rows lie close (under 1 KiB
 * apart), the lanes' lines stay cached between passes, and Zen 5 measured
 * them faster there (BHTD (0,3,1,2), rows 256 bytes apart: 1.09-1.10
 * against 0.92-0.96), but Zen 4 measured them much slower (one thread,
 * same-run A/B: BHTD (0,3,1,2) at 512 MiB 0.70 -> 0.87; 2-D at 256 MiB,
 * 200 columns 0.75 -> 0.82, 128 columns 0.97 -> 1.07, 64 columns 1.06 ->
 * 1.12, 256 and more level): whole rows meet the bandwidth target on
 * both, the lanes on one. */
static inline __attribute__((always_inline)) void rows_tile4(const lt__tile_out *out, tile_src src, emit_mode mode,
                                                             int segs) {
  _Alignas(64) __m512 first[16];
  __m512 r[16];
  LT__UNROLL for (int s = 0; s < segs; s++) {
    LT__UNROLL for (int i = 0; i < 16; i++) r[i] = _mm512_loadu_ps(src_row(src, 16 * s + i));
    transpose16_ps(r);
    if (s + 1 < segs) {
      LT__UNROLL for (int j = 0; j < 16; j++) first[j] = r[j];
    }
  }
  LT__UNROLL for (int j = 0; j < 16; j++) {
    vec v[2] = {_mm512_castps_si512(segs == 2 ? first[j] : r[j]), _mm512_castps_si512(r[j])};
    if (mode == EMIT_PLAIN) _mm512_storeu_ps((float *)(void *)(out->dst + j * out->dld), r[j]);
    else emit_row(out, out->dst + j * out->dld, j, v, mode, segs);
  }
}

static inline __attribute__((always_inline)) void plain_tile4(const lt__tile_out *out, tile_src src) {
  rows_tile4(out, src, EMIT_PLAIN, 1);
}

static void transpose_rows_f32(char *dst, int64_t dst_ld, const char *const *rows, int64_t nrows, int64_t ncols) {
  rows_walk(dst, dst_ld, rows, nrows, ncols, 4, plain_tile4);
}
const lt__transpose_rows_fn lt__transpose_rows_avx512_f32 = transpose_rows_f32;

static void tile4(const lt__tile_out *out, const char *src, int64_t sld) {
  const tile_src rows = {.src = src, .sld = sld};
  switch (emit_mode_of(out)) {
  case EMIT_PLAIN: rows_tile4(out, rows, EMIT_PLAIN, 1); break;
  case EMIT_STREAM:
    if (out->segs == 2) rows_tile4(out, rows, EMIT_STREAM, 2);
    else rows_tile4(out, rows, EMIT_STREAM, 1);
    break;
  case EMIT_STAGED:
    if (out->segs == 2) rows_tile4(out, rows, EMIT_STAGED, 2);
    else rows_tile4(out, rows, EMIT_STAGED, 1);
    break;
  case EMIT_SPLICED:
    if (out->segs == 2) rows_tile4(out, rows, EMIT_SPLICED, 2);
    else rows_tile4(out, rows, EMIT_SPLICED, 1);
    break;
  }
}

/* 2-byte tiles (32 x 32 halves) from whole-row loads too, where the lanes
 * loaded each line in four pieces. Each 16 of the tile's rows go through
 * the 16 x 16 word transpose, a word being two adjacent halves of a row:
 * register j then holds word column j of those rows, the halves of
 * columns 2j and 2j + 1 interleaved. One two-source permute per
 * destination row takes its column's halves from both groups of rows.
 * Zen 4, bench_access --dtype bf16, three runs in turn, lanes -> whole
 * rows: at 512 MiB 2-D 0.42-0.44 -> 0.75-0.76 of memcpy, (0,2,1)
 * 0.62-0.63 -> 0.75-0.77, (1,2,0) 0.54-0.61 -> 0.71-0.73, (2,1,0)
 * 0.48-0.51 -> 0.61, BHTD (0,3,1,2) 0.60 -> 0.74-0.75, (3,2,1,0) 0.36 ->
 * 0.41-0.43; at 1 MiB 2-D 0.29-0.40 -> 0.38-0.44, (1,2,0) 0.46 ->
 * 0.49-0.52, (2,0,1) 0.32-0.33 -> 0.37, the others level or a little
 * ahead. */
static const uint16_t EVEN_HALVES[32] = {0,  2,  4,  6,  8,  10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30,
                                         32, 34, 36, 38, 40, 42, 44, 46, 48, 50, 52, 54, 56, 58, 60, 62};

static inline __attribute__((always_inline)) void rows_tile2(const lt__tile_out *out, tile_src src, emit_mode mode) {
  _Alignas(64) __m512 top[16];
  __m512 r[16];
  LT__UNROLL for (int i = 0; i < 16; i++) r[i] = _mm512_loadu_ps(src_row(src, i));
  transpose16_ps(r);
  LT__UNROLL for (int j = 0; j < 16; j++) top[j] = r[j];
  LT__UNROLL for (int i = 0; i < 16; i++) r[i] = _mm512_loadu_ps(src_row(src, 16 + i));
  transpose16_ps(r);
  const __m512i even = _mm512_loadu_si512(EVEN_HALVES), odd = _mm512_add_epi16(even, _mm512_set1_epi16(1));
  LT__UNROLL for (int j = 0; j < 16; j++) {
    vec a = _mm512_castps_si512(top[j]), b = _mm512_castps_si512(r[j]);
    vec col[2] = {_mm512_permutex2var_epi16(a, even, b), _mm512_permutex2var_epi16(a, odd, b)};
    LT__UNROLL for (int k = 0; k < 2; k++)
      emit_row(out, out->dst + (2 * j + k) * out->dld, 2 * j + k, &col[k], mode, 1);
  }
}

static inline __attribute__((always_inline)) void plain_tile2(const lt__tile_out *out, tile_src src) {
  rows_tile2(out, src, EMIT_PLAIN);
}

static void transpose_rows_f16(char *dst, int64_t dst_ld, const char *const *rows, int64_t nrows, int64_t ncols) {
  rows_walk(dst, dst_ld, rows, nrows, ncols, 2, plain_tile2);
}
const lt__transpose_rows_fn lt__transpose_rows_avx512_f16 = transpose_rows_f16;

static void tile2(const lt__tile_out *out, const char *src, int64_t sld) {
  const tile_src rows = {.src = src, .sld = sld};
  switch (emit_mode_of(out)) {
  case EMIT_PLAIN: rows_tile2(out, rows, EMIT_PLAIN); break;
  case EMIT_STREAM: rows_tile2(out, rows, EMIT_STREAM); break;
  case EMIT_STAGED: rows_tile2(out, rows, EMIT_STAGED); break;
  case EMIT_SPLICED: rows_tile2(out, rows, EMIT_SPLICED); break;
  }
}

/* Byte tiles (64 x 64) from whole-row loads, where the CPU has
 * AVX512-VBMI (two-source byte permutes). Each 16 of the tile's rows go
 * through the 16 x 16 word transpose: register j of group g then holds
 * bytes 4j .. 4j + 3 of rows 16g .. 16g + 15, a word per row. For the
 * four destination rows 4j + t, one permute of groups 0 and 1 gathers
 * byte t of every word for t = 0, 1 (BYTE_PICK) and another for t = 2, 3
 * (BYTE_PICK + 2), groups 2 and 3 likewise, and one lane shuffle per row
 * orders its four 16-byte pieces. Zen 4, bench_access --dtype u8,
 * three runs in turn, lanes -> whole rows: at 512 MiB 2-D 0.55-0.56 ->
 * 0.65-0.75 of memcpy, (1,2,0) 0.34-0.37 -> 0.44-0.45, (2,1,0) 0.33-0.36
 * -> 0.42-0.43, BHTD (0,3,1,2) 0.46-0.52 -> 0.63-0.64; at 1 MiB 2-D
 * 0.19-0.21 -> 0.38-0.40, (1,2,0) 0.24-0.25 -> 0.27-0.29; the others
 * level. */
static const uint8_t BYTE_PICK[64] = {
    /* byte 0 of each word of a, then of b */
    0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60,
    64, 68, 72, 76, 80, 84, 88, 92, 96, 100, 104, 108, 112, 116, 120, 124,
    /* byte 1 of each word of a, then of b */
    1, 5, 9, 13, 17, 21, 25, 29, 33, 37, 41, 45, 49, 53, 57, 61,
    65, 69, 73, 77, 81, 85, 89, 93, 97, 101, 105, 109, 113, 117, 121, 125};

__attribute__((target("avx512vbmi"))) static inline __attribute__((always_inline)) void
rows_tile1(const lt__tile_out *out, tile_src src, emit_mode mode) {
  _Alignas(64) __m512 parked[3][16];
  __m512 r[16];
  LT__UNROLL for (int g = 0; g < 4; g++) {
    LT__UNROLL for (int i = 0; i < 16; i++) r[i] = _mm512_loadu_ps(src_row(src, 16 * g + i));
    transpose16_ps(r);
    if (g < 3) LT__UNROLL for (int j = 0; j < 16; j++) parked[g][j] = r[j];
  }
  const __m512i pick01 = _mm512_loadu_si512(BYTE_PICK), pick23 = _mm512_add_epi8(pick01, _mm512_set1_epi8(2));
  LT__UNROLL for (int j = 0; j < 16; j++) {
    __m512i g0 = _mm512_castps_si512(parked[0][j]), g1 = _mm512_castps_si512(parked[1][j]);
    __m512i g2 = _mm512_castps_si512(parked[2][j]), g3 = _mm512_castps_si512(r[j]);
    __m512i lo01 = _mm512_permutex2var_epi8(g0, pick01, g1), hi01 = _mm512_permutex2var_epi8(g0, pick23, g1);
    __m512i lo23 = _mm512_permutex2var_epi8(g2, pick01, g3), hi23 = _mm512_permutex2var_epi8(g2, pick23, g3);
    vec row[4] = {_mm512_shuffle_i64x2(lo01, lo23, 0x44), _mm512_shuffle_i64x2(lo01, lo23, 0xEE),
                  _mm512_shuffle_i64x2(hi01, hi23, 0x44), _mm512_shuffle_i64x2(hi01, hi23, 0xEE)};
    LT__UNROLL for (int t = 0; t < 4; t++)
      emit_row(out, out->dst + (4 * j + t) * out->dld, 4 * j + t, &row[t], mode, 1);
  }
}

__attribute__((target("avx512vbmi"))) static inline __attribute__((always_inline)) void
plain_tile1(const lt__tile_out *out, tile_src src) {
  rows_tile1(out, src, EMIT_PLAIN);
}

__attribute__((target("avx512vbmi"))) static void transpose_rows_u8(char *dst, int64_t dst_ld, const char *const *rows,
                                                                   int64_t nrows, int64_t ncols) {
  rows_walk(dst, dst_ld, rows, nrows, ncols, 1, plain_tile1);
}
const lt__transpose_rows_fn lt__transpose_rows_avx512vbmi_u8 = transpose_rows_u8;

__attribute__((target("avx512vbmi"))) static void tile1_rows(const lt__tile_out *out, const char *src, int64_t sld) {
  const tile_src rows = {.src = src, .sld = sld};
  switch (emit_mode_of(out)) {
  case EMIT_PLAIN: rows_tile1(out, rows, EMIT_PLAIN); break;
  case EMIT_STREAM: rows_tile1(out, rows, EMIT_STREAM); break;
  case EMIT_STAGED: rows_tile1(out, rows, EMIT_STAGED); break;
  case EMIT_SPLICED: rows_tile1(out, rows, EMIT_SPLICED); break;
  }
}

/* A transpose of 2 to 15 source rows (12 attention heads moved
 * innermost, say) has no full tile, and the edge kernel went element by
 * element, or for bytes and halves in 16 x 16 blocks that widen each
 * element to a word (64 shuffles for 16 columns). Here each row gives 64
 * bytes of columns in one masked load (rows past the last read nothing),
 * the 16 x 16 word transpose leaves in register j the word j of every
 * row, and for bytes and halves one permute per register gathers the 4 /
 * es destination rows that word holds: back to back, (4 / es) * rows
 * elements, where the destination rows are packed (dst_ld == rows), one
 * to each 16 elements otherwise. Packed runs that outgrow the caches go
 * through an L1 buffer and out streamed. Xeon, bench_access, BHTD
 * (0,2,3,1) (12 rows), one thread, two runs each, 1 MiB, 64 MiB and 512
 * MiB: u8, edge blocks -> this, 0.18-0.19 -> 0.69-0.72 of memcpy,
 * 0.59-0.67 -> 1.34-1.38, 0.47-0.48 -> 0.98-0.99; bf16, 16 columns
 * widened -> 32 columns permuted, 0.35-0.36 -> 0.64-0.66, 1.23-1.31 ->
 * 1.34-1.36, 0.89-0.92 -> 1.01-1.03. */
static bool thin_fits(int64_t rows, int64_t cols, size_t es) {
  return rows >= 2 && rows < 16 && cols >= 64 / (int64_t)es;
}

/* The permute of thin: element k of the result is element
 * (4 / es) * i + t of the register, for destination row t (of those it
 * holds) and source row i; es-byte entries. */
static void thin_pick(void *pick, int64_t rows, bool packed, size_t es) {
  const int64_t per = 4 / (int64_t)es, n = 64 / (int64_t)es;
  for (int64_t k = 0; k < n; k++) {
    int64_t t = packed ? k / rows : k / 16, i = packed ? k % rows : k % 16;
    int64_t at = t < per && i < rows ? per * i + t : 0;
    if (es == 1) ((uint8_t *)pick)[k] = (uint8_t)at;
    else ((uint16_t *)pick)[k] = (uint16_t)at;
  }
}

__attribute__((target("avx512vbmi"))) static inline __attribute__((always_inline)) __m512i
permute_bytes(__m512i idx, __m512i v) {
  return _mm512_permutexvar_epi8(idx, v);
}
/* Bytes without AVX512-VBMI, into the unpacked layout alone: an in-lane
 * shuffle gathers byte t of the lane's four words into its dword t, then
 * a dword permute takes dword t of every lane into lane t. Xeon, its
 * VBMI hidden from the selection, bench_access --dtype u8 at 1 MiB, two
 * runs each, masked blocks -> this, in thin and the edge: (0,2,1)
 * 0.24-0.25 -> 0.40-0.42 of memcpy, (1,2,0) 0.32-0.33 -> 0.42-0.43,
 * (2,0,1) 0.33-0.34 -> 0.47-0.48, (2,1,0) 0.23-0.24 -> 0.33-0.35, BHTD
 * (0,2,3,1) 0.18-0.19 -> 0.51-0.53; the rest level. */
static const int8_t BYTE_T_OF_WORDS[16] = {0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15};
static inline __attribute__((always_inline)) __m512i permute_bytes_bw(__m512i idx, __m512i v) {
  (void)idx;
  const __m512i within = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)BYTE_T_OF_WORDS));
  const __m512i across = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
  return _mm512_permutexvar_epi32(across, _mm512_shuffle_epi8(v, within));
}
static inline __attribute__((always_inline)) __m512i permute_halves(__m512i idx, __m512i v) {
  return _mm512_permutexvar_epi16(idx, v);
}
/* Words: register j is destination row j as it stands. */
static inline __attribute__((always_inline)) __m512i permute_none(__m512i idx, __m512i v) {
  (void)idx;
  return v;
}

/* Stores the first count of the destination rows that a permuted
 * register of bytes or halves holds one to each 16 elements (4 / es of
 * them), lanes m of each, the rows ld_bytes apart. */
static inline __attribute__((always_inline)) void store_split_rows(char *row, int64_t ld_bytes, __mmask16 m,
                                                                   __m512i v, size_t es, int64_t count) {
  if (es == 2) {
    _mm256_mask_storeu_epi16(row, m, _mm512_castsi512_si256(v));
    if (count > 1) _mm256_mask_storeu_epi16(row + ld_bytes, m, _mm512_extracti64x4_epi64(v, 1));
    return;
  }
  _mm_mask_storeu_epi8(row, m, _mm512_castsi512_si128(v));
  if (count > 1) _mm_mask_storeu_epi8(row + ld_bytes, m, _mm512_extracti32x4_epi32(v, 1));
  if (count > 2) _mm_mask_storeu_epi8(row + 2 * ld_bytes, m, _mm512_extracti32x4_epi32(v, 2));
  if (count > 3) _mm_mask_storeu_epi8(row + 3 * ld_bytes, m, _mm512_extracti32x4_epi32(v, 3));
}

/* Stores the destination rows that permuted register v holds: per rows
 * of es bytes each, ld elements apart (packed: back to back). */
static inline __attribute__((always_inline)) void thin_store(char *row, int64_t ld, bool packed, int64_t rows,
                                                             __m512i v, size_t es) {
  const int64_t per = 4 / (int64_t)es, e = (int64_t)es;
  const __mmask16 one_row = (__mmask16)((1u << rows) - 1);
  if (es == 4) _mm512_mask_storeu_epi32(row, one_row, v);
  else if (packed && es == 1) _mm512_mask_storeu_epi8(row, ~0ull >> (64 - per * rows), v);
  else if (packed) _mm512_mask_storeu_epi16(row, (__mmask32)(~0u >> (32 - per * rows)), v);
  else store_split_rows(row, ld * e, one_row, v, es, per);
}

/* The partial tiles of bytes and halves the way thin goes: blocks of up
 * to 16 source rows by 64 bytes of columns, loads and stores masked to
 * the block (masked-off lanes touch nothing), where masked_block widens
 * each element to a word and takes 16 columns. Bands thinner than
 * MASKED_MIN still go to masked_edge (2 or 4 measured no better).
 * bench_access at 1 MiB, one thread, two runs each, masked_block ->
 * narrow_block: u8 (cubes of 101, whose frame is most of each slice)
 * (0,2,1) 0.24-0.26 -> 0.39-0.40 of memcpy, (1,2,0) 0.32-0.33 ->
 * 0.44-0.45, (2,0,1) 0.34-0.35 -> 0.53, (2,1,0) 0.24-0.25 -> 0.34;
 * bf16 (cubes of 80) (0,2,1) 0.45-0.46 -> 0.52-0.56, (2,0,1) 0.55-0.59
 * -> 0.64-0.66, (2,1,0) 0.50-0.52 -> 0.53-0.57; the rest level, and
 * level or ahead at 64 and 512 MiB (one run each). */
static inline __attribute__((always_inline)) void narrow_block(char *dst, int64_t dst_ld, const char *src,
                                                               int64_t src_ld, int64_t nr, int64_t nc, size_t es,
                                                               __m512i idx, __m512i (*permute)(__m512i, __m512i)) {
  const int64_t e = (int64_t)es, per = 4 / e;
  const __mmask64 cols = ~0ull >> (64 - nc * e);
  __m512 r[16];
  LT__UNROLL for (int i = 0; i < 16; i++)
    r[i] = i < nr ? _mm512_castsi512_ps(_mm512_maskz_loadu_epi8(cols, src + i * src_ld * e)) : _mm512_setzero_ps();
  transpose16_ps(r);
  LT__UNROLL for (int j = 0; j < 16; j++)
    if (per * j < nc)
      store_split_rows(dst + per * j * dst_ld * e, dst_ld * e, (__mmask16)((1u << nr) - 1),
                       permute(idx, _mm512_castps_si512(r[j])), es, lt__min64(per, nc - per * j));
}

static inline __attribute__((always_inline)) void narrow_edge(char *dst, int64_t dst_ld, const char *src,
                                                              int64_t src_ld, int64_t rows, int64_t cols, size_t es,
                                                              __m512i (*permute)(__m512i, __m512i)) {
  if (rows < MASKED_MIN || cols < MASKED_MIN) {
    masked_edge(dst, dst_ld, src, src_ld, rows, cols, es);
    return;
  }
  _Alignas(64) char pick[64];
  thin_pick(pick, 16, false, es);
  const __m512i idx = _mm512_load_si512(pick);
  const int64_t e = (int64_t)es, w = 64 / e;
  for (int64_t c = 0; c < cols; c += w)
    for (int64_t r = 0; r < rows; r += 16)
      narrow_block(dst + (c * dst_ld + r) * e, dst_ld, src + (r * src_ld + c) * e, src_ld, lt__min64(16, rows - r),
                   lt__min64(w, cols - c), es, idx, permute);
}

__attribute__((target("avx512vbmi"))) static void narrow_edge1(char *dst, int64_t dst_ld, const char *src,
                                                               int64_t src_ld, int64_t rows, int64_t cols) {
  narrow_edge(dst, dst_ld, src, src_ld, rows, cols, 1, permute_bytes);
}
static void narrow_edge1_bw(char *dst, int64_t dst_ld, const char *src, int64_t src_ld, int64_t rows,
                            int64_t cols) {
  narrow_edge(dst, dst_ld, src, src_ld, rows, cols, 1, permute_bytes_bw);
}
static void narrow_edge2(char *dst, int64_t dst_ld, const char *src, int64_t src_ld, int64_t rows, int64_t cols) {
  narrow_edge(dst, dst_ld, src, src_ld, rows, cols, 2, permute_halves);
}

/* permute: the path's (packs: into the packed layout where the rows are
 * packed); edge: the partial blocks past the last whole step. */
static inline __attribute__((always_inline)) bool thin(char *dst, int64_t dst_ld, const char *src, int64_t src_ld,
                                                       int64_t rows, int64_t cols, lt__stream_policy policy, size_t es,
                                                       __m512i (*permute)(__m512i, __m512i), bool packs,
                                                       lt__transpose_fn edge) {
  const int64_t e = (int64_t)es, step = 64 / e, per = 4 / e, sld = src_ld * e;
  const bool stream = dst_ld == rows && (policy == LT__STREAM_ALWAYS || cols * rows * e > LT__CACHED_MAX_BYTES);
  const bool packed = dst_ld == rows && packs;
  _Alignas(64) char pick[64];
  if (es < 4) thin_pick(pick, rows, packed, es);
  const __m512i idx = es < 4 ? _mm512_load_si512(pick) : _mm512_setzero_si512();
  const int64_t run = step * rows * e; /* bytes of one step's packed output */
  _Alignas(64) char buf[THIN_GROUPS * 64 * 15];
  int64_t c = 0, g = 0;
  for (; c + step <= cols; c += step) {
    __m512 r[16];
    LT__UNROLL for (int i = 0; i < 16; i++) {
      const char *p = src + (i < rows ? i : 0) * sld + c * e;
      if (i < rows) __builtin_prefetch(p + THIN_AHEAD, 0, 2);
      r[i] = _mm512_castsi512_ps(_mm512_maskz_loadu_epi8(i < rows ? ~0ull : 0, p));
    }
    transpose16_ps(r);
    char *out = stream ? buf + g * run : dst + c * dst_ld * e;
    LT__UNROLL for (int j = 0; j < 16; j++)
      thin_store(out + per * j * dst_ld * e, dst_ld, packed, rows, permute(idx, _mm512_castps_si512(r[j])), es);
    if (stream && ++g == THIN_GROUPS) {
      lt__stream_copy(dst + (c + step - step * g) * dst_ld * e, buf, (size_t)(g * run));
      g = 0;
    }
  }
  if (g) lt__stream_copy(dst + (c - step * g) * dst_ld * e, buf, (size_t)(g * run));
  lt__edge(edge, dst + c * dst_ld * e, dst_ld, src + c * e, src_ld, rows, cols - c);
  return stream;
}

/* Byte tiles from the lanes, where the CPU has no AVX512-VBMI. */
static void tile1(const lt__tile_out *out, const char *src, int64_t sld) { line_tile(out, src, sld, 1); }

static void tile8(const lt__tile_out *out, const char *src, int64_t sld) { line_tile(out, src, sld, 8); }

/* The thin kernel where it fits, else the tiles; whether it streamed
 * (streaming stores are weakly ordered: the caller then fences). */
static inline __attribute__((always_inline)) bool transpose_any(char *dst, int64_t dst_ld, const char *src,
                                                                int64_t src_ld, int64_t rows, int64_t cols, size_t es,
                                                                lt__tile_fn tile, lt__stream_policy policy,
                                                                lt__transpose_fn edge) {
  if (es == 1 && thin_fits(rows, cols, 1)) /* where the CPU has no AVX512-VBMI */
    return thin(dst, dst_ld, src, src_ld, rows, cols, policy, 1, permute_bytes_bw, false, narrow_edge1_bw);
  if (es == 2 && thin_fits(rows, cols, 2))
    return thin(dst, dst_ld, src, src_ld, rows, cols, policy, 2, permute_halves, true, narrow_edge2);
  if (es == 4 && thin_fits(rows, cols, 4))
    return thin(dst, dst_ld, src, src_ld, rows, cols, policy, 4, permute_none, true, edge4);
  return lt__transpose_tiled(dst, dst_ld, src, src_ld, rows, cols, (int64_t)es, tile, policy, edge,
                             es >= 4 ? LT__WALK_TILE_PAIRS : LT__WALK_TILES);
}

/* Each tile twice: streaming when one call's output outgrows the caches,
 * and streaming always (for batches of small transposes); with the
 * masked edge for 1, 2 and 4 bytes, the scalar one for 8. ATTR: the
 * target the tile needs beyond the file's, so that it inlines. */
#define KERNELS(N, TILE, EDGE, ATTR)                                                                                 \
  ATTR static void transpose_##TILE(char *dst, int64_t dst_ld, const char *src, int64_t src_ld, int64_t rows,        \
                                    int64_t cols) {                                                                  \
    if (transpose_any(dst, dst_ld, src, src_ld, rows, cols, N, TILE, LT__STREAM_IF_LARGE, EDGE)) _mm_sfence();       \
  }                                                                                                                  \
  ATTR static void streamed_##TILE(char *dst, int64_t dst_ld, const char *src, int64_t src_ld, int64_t rows,         \
                                   int64_t cols) {                                                                   \
    if (transpose_any(dst, dst_ld, src, src_ld, rows, cols, N, TILE, LT__STREAM_ALWAYS, EDGE)) _mm_sfence();         \
  }
KERNELS(1, tile1, narrow_edge1_bw, )
KERNELS(1, tile1_rows, narrow_edge1, __attribute__((target("avx512vbmi"))))
KERNELS(2, tile2, narrow_edge2, )
KERNELS(4, tile4, edge4, )
KERNELS(8, tile8, lt__transpose_scalar_table[3], )

/* Bytes on the AVX512-VBMI path: thin where it fits, else the tiles. */
__attribute__((target("avx512vbmi"))) static void transpose_bytes_vbmi(char *dst, int64_t dst_ld, const char *src,
                                                                       int64_t src_ld, int64_t rows, int64_t cols) {
  if (!thin_fits(rows, cols, 1)) transpose_tile1_rows(dst, dst_ld, src, src_ld, rows, cols);
  else if (thin(dst, dst_ld, src, src_ld, rows, cols, LT__STREAM_IF_LARGE, 1, permute_bytes, true, narrow_edge1))
    _mm_sfence();
}
__attribute__((target("avx512vbmi"))) static void streamed_bytes_vbmi(char *dst, int64_t dst_ld, const char *src,
                                                                      int64_t src_ld, int64_t rows, int64_t cols) {
  if (!thin_fits(rows, cols, 1)) streamed_tile1_rows(dst, dst_ld, src, src_ld, rows, cols);
  else if (thin(dst, dst_ld, src, src_ld, rows, cols, LT__STREAM_ALWAYS, 1, permute_bytes, true, narrow_edge1))
    _mm_sfence();
}

/* Bytes from the lanes here, from whole rows on the AVX512-VBMI path
 * (which the selection prefers where the CPU has it); the other sizes are
 * the same kernels on both. */
const lt__transpose_fn lt__transpose_avx512_table[4] = {transpose_tile1, transpose_tile2, transpose_tile4,
                                                        transpose_tile8};
const lt__transpose_fn lt__transpose_avx512_streamed_table[4] = {streamed_tile1, streamed_tile2, streamed_tile4,
                                                                 streamed_tile8};
const lt__transpose_fn lt__transpose_avx512vbmi_table[4] = {transpose_bytes_vbmi, transpose_tile2, transpose_tile4,
                                                            transpose_tile8};
const lt__transpose_fn lt__transpose_avx512vbmi_streamed_table[4] = {streamed_bytes_vbmi, streamed_tile2,
                                                                     streamed_tile4, streamed_tile8};
