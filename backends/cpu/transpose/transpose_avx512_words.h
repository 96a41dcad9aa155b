/* Internal to transpose_avx512.c (compiled with its AVX-512 flags),
 * included once after transpose_emit.h, whose LT__UNROLL it uses: the
 * 16 x 16 word transpose, which the whole-row tiles there use too, and
 * the kernels for the narrow parts of a transpose built on it: the
 * partial tiles around the full ones (masked 16 x 16 blocks, and for
 * bytes and halves blocks of 64 bytes of columns) and transposes of 2
 * to 15 source rows (thin). */
#ifndef LT_TRANSPOSE_AVX512_WORDS_H
#define LT_TRANSPOSE_AVX512_WORDS_H

#include <immintrin.h>
#include <stdint.h>

#include "stream.h"
#include "transpose_tiled.h"

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

/* ---- partial tiles: masked 16 x 16 blocks ---- */

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
 * 0.18). Bands thinner than MASKED_MIN stay scalar where they are also
 * shorter than MASKED_LONG, or thinner than MASKED_THIN: a block then
 * carries 16 shuffles per element row for a few elements (68^3 (1,2,0),
 * 4-element bands: 0.30 -> 0.22 masked, when masked blocks came in).
 * Bands of 4 to 7 elements along MASKED_LONG or more went faster masked
 * on Zen 5 (F32, same-run ratio to memcpy, two rounds each, scalar ->
 * masked: (0,2,1) of [144, 32, 23] 0.20-0.21 -> 0.29, [144, 34, 23] 0.18
 * -> 0.24, [100, 37, 37] 0.26 -> 0.33, [100, 70, 70] 0.55-0.57 ->
 * 0.65-0.67, 68^3 (1,2,0) 0.30 -> 0.31, (2,1,0) of [60, 66, 62] 0.46-0.49
 * -> 0.45-0.47; bf16 (0,2,1) of [100, 37, 37] 0.12 -> 0.20, [100, 70, 70]
 * 0.30 -> 0.43, [80, 80, 81] (1,2,0) level; u8 [100, 70, 70] 0.13 ->
 * 0.24-0.26, the rest level; bench_access at 1 MiB level for all three),
 * where all bands of 4 to 7 lost some shapes (F32 (2,1,0) of [60, 66, 62]
 * 0.57 -> 0.48, bf16 0.32 -> 0.27). Bytes and halves now take blocks of
 * 64 bytes of columns instead (narrow_edge, below), and come here only
 * for bands thinner than MASKED_MIN. */
enum { MASKED_MIN = 8, MASKED_THIN = 4, MASKED_LONG = 32 };
static inline __attribute__((always_inline)) void masked_edge(char *dst, int64_t dst_ld, const char *src,
                                                              int64_t src_ld, int64_t rows, int64_t cols, size_t es) {
  const int64_t e = (int64_t)es, sld = src_ld * e, dld = dst_ld * e;
  const int64_t thin = lt__min64(rows, cols), along = rows + cols - thin;
  if (thin < MASKED_THIN || (thin < MASKED_MIN && along < MASKED_LONG)) {
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

/* ---- transposes of 2 to 15 source rows, and blocks of 64 bytes of columns ---- */

/* Thin transposes (thin, below) stream packed runs THIN_GROUPS steps at
 * a time, and read each row THIN_AHEAD bytes ahead into L2, as the tiled
 * kernels read theirs. */
enum { THIN_GROUPS = 4, THIN_AHEAD = 2048 };

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
  const bool stream =
      dst_ld == rows && (policy == LT__STREAM_ALWAYS || lt__streams_output(cols * rows * e, rows * e, sld));
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

#endif
