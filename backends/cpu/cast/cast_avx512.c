/* AVX-512 cast kernels, 16 floats at a time, bit-identical to the scalar
 * reference. The same arithmetic as the AVX2 kernels with mask registers
 * and the narrowing moves (vpmovdw, vpmovdb). BF16 deliberately avoids
 * vcvtneps2bf16: it treats float32 subnormal inputs as zero whatever
 * MXCSR says, and the integer rounding is as fast at memory bandwidth.
 * Compiled with -mavx512f -mavx512bw -mavx512vl -mavx512dq. */
#include <immintrin.h>

#include "cast.h"

#define V 16

/* Reading ahead keeps enough cache misses in flight: with a few dozen
 * instructions per cache line, the out-of-order window alone does not, and
 * a large cast then runs at half of memcpy's bandwidth. */
#define PREFETCH_AHEAD 4096
static inline void read_ahead(const void *p, int64_t i, size_t es) {
  __builtin_prefetch((const char *)p + i * (int64_t)es + PREFETCH_AHEAD, 0, 3); /* _mm_prefetch got dropped by gcc 12 here */
}

static void tail(lt__cast_fn scalar, void *dst, size_t dsize, const void *src, size_t ssize, int64_t done, int64_t n) {
  if (done < n) scalar((char *)dst + done * (int64_t)dsize, (const char *)src + done * (int64_t)ssize, n - done);
}

/* Outputs this large are written with non-temporal stores: they will not
 * be read back from cache, and skipping the read-for-ownership of each
 * destination line is worth a quarter of the bandwidth here (a 4 -> 2
 * byte narrowing pass: 65% of memcpy with ordinary stores, 82% streamed). */
#define STREAM_MIN_BYTES ((int64_t)8 << 20)

/* How a kernel writes: `head` elements go to the scalar kernel first so
 * that the vector stores (of `width` bytes) are aligned for streaming. */
typedef struct writer {
  bool stream;
  int64_t head;
} writer;

static writer plan_writes(const void *dst, size_t des, int64_t n, size_t width) {
  uintptr_t a = (uintptr_t)dst;
  if (n * (int64_t)des < STREAM_MIN_BYTES || a % des) return (writer){false, 0};
  int64_t head = (int64_t)(((width - a % width) % width) / des);
  return (writer){true, head < n ? head : n};
}

static inline void put128(void *p, __m128i v, bool stream) {
  if (stream) _mm_stream_si128((__m128i *)p, v);
  else _mm_storeu_si128((__m128i *)p, v);
}
static inline void put256(void *p, __m256i v, bool stream) {
  if (stream) _mm256_stream_si256((__m256i *)p, v);
  else _mm256_storeu_si256((__m256i *)p, v);
}
static inline void put512(void *p, __m512i v, bool stream) {
  if (stream) _mm512_stream_si512(p, v);
  else _mm512_storeu_si512(p, v);
}

static inline __m512i load16(const void *p) { return _mm512_loadu_si512(p); }
static inline __m512i splat(int v) { return _mm512_set1_epi32(v); }
static inline __mmask16 nan_mask(__m512i abs) { return _mm512_cmpgt_epi32_mask(abs, splat(0x7F800000)); }

/* ---- F16 ---- */

/* 16 floats to F16: round to nearest even in hardware (exact for every
 * non-NaN input), NaNs to the canonical quiet NaN with their sign. */
static inline __attribute__((always_inline)) __m256i f16_lanes(__m512i bits, lt_cast_mode mode) {
  const __m512 lim = _mm512_set1_ps(65504.0f), nlim = _mm512_set1_ps(-65504.0f);
  __m512 x = _mm512_castsi512_ps(bits);
  if (mode == LT_CAST_SATURATE) x = _mm512_max_ps(nlim, _mm512_min_ps(lim, x)); /* NaNs pass */
  __m256i h = _mm512_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __mmask16 nan = nan_mask(_mm512_and_si512(bits, splat(0x7FFFFFFF)));
  if (nan) {
    __m256i canon = _mm512_cvtepi32_epi16(
        _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi32(bits, 16), splat(0x8000)), splat(0x7E00)));
    h = _mm256_mask_blend_epi16(nan, h, canon);
  }
  return h;
}

/* Two halves of 16 narrow results as one 64-byte line: a streaming store
 * of a whole line measured faster than two of half a line. */
static inline __m512i line_of(__m256i lo, __m256i hi) {
  return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
}

/* F32 to a 16-bit format (table index fmt) with lanes() for each 16
 * floats: whole 64-byte lines, then one half line, then the scalar tail.
 * Inlined with lanes constant, so each format gets its own loop. */
typedef __m256i (*lanes16_fn)(__m512i bits, lt_cast_mode mode);
static inline __attribute__((always_inline)) void encode16(void *dst, const void *src, int64_t n, lt_cast_mode mode,
                                                           int fmt, lanes16_fn lanes) {
  const float *s = src;
  char *d = dst;
  writer w = plan_writes(dst, 2, n, 64);
  tail(lt__cast_scalar_table.encode[fmt][mode], dst, 2, src, 4, 0, w.head);
  int64_t i = w.head;
  for (; i + 2 * V <= n; i += 2 * V) {
    read_ahead(src, i, 4);
    read_ahead(src, i + V, 4);
    put512(d + 2 * i, line_of(lanes(load16(s + i), mode), lanes(load16(s + i + V), mode)), w.stream);
  }
  for (; i + V <= n; i += V) put256(d + 2 * i, lanes(load16(s + i), mode), w.stream);
  if (w.stream) _mm_sfence();
  tail(lt__cast_scalar_table.encode[fmt][mode], dst, 2, src, 4, i, n);
}

static void to_f16(void *d, const void *s, int64_t n) { encode16(d, s, n, LT_CAST_DEFAULT, 0, f16_lanes); }
static void to_f16_sat(void *d, const void *s, int64_t n) { encode16(d, s, n, LT_CAST_SATURATE, 0, f16_lanes); }
static void from_f16(void *dst, const void *src, int64_t n) {
  const char *s = src;
  float *d = dst;
  writer w = plan_writes(dst, 4, n, 64);
  tail(lt__cast_scalar_table.decode[0], dst, 4, src, 2, 0, w.head);
  int64_t i = w.head;
  for (; i + V <= n; i += V) {
    read_ahead(src, i, 2);
    put512(d + i, _mm512_castps_si512(_mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(s + 2 * i)))), w.stream);
  }
  if (w.stream) _mm_sfence();
  tail(lt__cast_scalar_table.decode[0], dst, 4, src, 2, i, n);
}

/* ---- BF16 ---- */

/* 16 floats to BF16 by integer rounding to nearest even (vcvtneps2bf16
 * would flush subnormal inputs), NaNs to the quiet NaN with their sign. */
static inline __attribute__((always_inline)) __m256i bf16_lanes(__m512i b, lt_cast_mode mode) {
  __m512i abs = _mm512_and_si512(b, splat(0x7FFFFFFF));
  __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(abs, 16), splat(1));
  __m512i mag = _mm512_srli_epi32(_mm512_add_epi32(abs, _mm512_add_epi32(splat(0x7FFF), lsb)), 16);
  mag = _mm512_mask_mov_epi32(mag, nan_mask(abs), splat(0x7FC0));
  if (mode == LT_CAST_SATURATE) mag = _mm512_mask_mov_epi32(mag, _mm512_cmpeq_epi32_mask(mag, splat(0x7F80)), splat(0x7F7F));
  return _mm512_cvtepi32_epi16(_mm512_or_si512(mag, _mm512_and_si512(_mm512_srli_epi32(b, 16), splat(0x8000))));
}

static void to_bf16(void *d, const void *s, int64_t n) { encode16(d, s, n, LT_CAST_DEFAULT, 1, bf16_lanes); }
static void to_bf16_sat(void *d, const void *s, int64_t n) { encode16(d, s, n, LT_CAST_SATURATE, 1, bf16_lanes); }

static void from_bf16(void *dst, const void *src, int64_t n) {
  const char *s = src;
  float *d = dst;
  writer w = plan_writes(dst, 4, n, 64);
  tail(lt__cast_scalar_table.decode[1], dst, 4, src, 2, 0, w.head);
  int64_t i = w.head;
  for (; i + V <= n; i += V) {
    read_ahead(src, i, 2);
    __m512i f = _mm512_slli_epi32(_mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(s + 2 * i))), 16);
    __mmask16 nan = nan_mask(_mm512_and_si512(f, splat(0x7FFFFFFF)));
    f = _mm512_mask_or_epi32(f, nan, f, splat(0x00400000)); /* quiet */
    put512(d + i, f, w.stream);
  }
  if (w.stream) _mm_sfence();
  tail(lt__cast_scalar_table.decode[1], dst, 4, src, 2, i, n);
}

/* ---- FP8 ---- */

typedef struct fp8 {
  int m, bias;
  int max_finite, nan;
  bool has_inf;
} fp8;

static const fp8 E4M3 = {3, 7, 0x7E, 0x7F, false};
static const fp8 E5M2 = {2, 15, 0x7B, 0x7E, true};

/* 16 float32 -> 16 FP8 codes in 32-bit lanes. Normal results round by
 * adding the rounding bias to the bits; subnormal ones are |x| scaled to
 * units of the smallest subnormal (exact: a power of two) and converted
 * with embedded round-to-nearest-even, which ignores MXCSR. (Only float32
 * subnormals could meet DAZ there, and they encode to 0 either way.) */
static inline __attribute__((always_inline)) __m512i fp8_encode16(__m512i b, const fp8 *t, lt_cast_mode mode) {
  __m512i abs = _mm512_and_si512(b, splat(0x7FFFFFFF));
  int drop = 23 - t->m, emin = 1 - t->bias;
  __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(abs, drop), splat(1));
  __m512i r = _mm512_add_epi32(abs, _mm512_add_epi32(splat((1 << (drop - 1)) - 1), lsb));
  __m512i code = _mm512_sub_epi32(_mm512_srli_epi32(r, drop), splat((127 - t->bias) << t->m));
  __mmask16 sub = _mm512_cmplt_epi32_mask(abs, splat((emin + 127) << 23));
  __m512 scaled = _mm512_mul_ps(_mm512_castsi512_ps(abs), _mm512_set1_ps((float)(1 << (t->m - emin))));
  code = _mm512_mask_mov_epi32(code, sub, _mm512_cvt_roundps_epi32(scaled, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  /* Finite overflow and inf: clamp (codes of finite inputs fit in 31 bits;
   * inf and NaN inputs may have wrapped, and are fixed next). */
  bool saturate = mode == LT_CAST_SATURATE || !t->has_inf;
  int over = saturate ? t->max_finite : t->max_finite + 1;
  code = _mm512_min_epu32(code, splat(over));
  /* NaN stays NaN; E4M3 has no inf, so by default inf becomes NaN too. */
  int special_above = (!t->has_inf && mode == LT_CAST_DEFAULT) ? 0x7F7FFFFF : 0x7F800000;
  code = _mm512_mask_mov_epi32(code, _mm512_cmpgt_epi32_mask(abs, splat(special_above)), splat(t->nan));
  return _mm512_ternarylogic_epi32(code, _mm512_srli_epi32(b, 24), splat(0x80), 0xF8); /* code | (b>>24 & 0x80) */
}

static inline __attribute__((always_inline)) void fp8_encode(void *dst, const void *src, int64_t n, const fp8 *t, lt_cast_mode mode, lt__cast_fn scalar) {
  const float *s = src;
  char *d = dst;
  writer w = plan_writes(dst, 1, n, 16);
  tail(scalar, dst, 1, src, 4, 0, w.head);
  int64_t i = w.head;
  /* Unrolled: more loads in flight per instruction window (16 -> 12 GB/s
   * without at 256 MiB). */
#pragma GCC unroll 2
  for (; i + V <= n; i += V) {
    read_ahead(src, i, 4);
    put128(d + i, _mm512_cvtepi32_epi8(fp8_encode16(load16(s + i), t, mode)), w.stream);
  }
  if (w.stream) _mm_sfence();
  tail(scalar, dst, 1, src, 4, i, n);
}

static void to_e4m3(void *d, const void *s, int64_t n) {
  fp8_encode(d, s, n, &E4M3, LT_CAST_DEFAULT, lt__cast_scalar_table.encode[2][0]);
}
static void to_e4m3_sat(void *d, const void *s, int64_t n) {
  fp8_encode(d, s, n, &E4M3, LT_CAST_SATURATE, lt__cast_scalar_table.encode[2][1]);
}
static void to_e5m2(void *d, const void *s, int64_t n) {
  fp8_encode(d, s, n, &E5M2, LT_CAST_DEFAULT, lt__cast_scalar_table.encode[3][0]);
}
static void to_e5m2_sat(void *d, const void *s, int64_t n) {
  fp8_encode(d, s, n, &E5M2, LT_CAST_SATURATE, lt__cast_scalar_table.encode[3][1]);
}

/* E5M2 is the top byte of an F16: widen through the F16 conversion. */
static void from_e5m2(void *dst, const void *src, int64_t n) {
  const uint8_t *s = src;
  float *d = dst;
  writer w = plan_writes(dst, 4, n, 64);
  tail(lt__cast_scalar_table.decode[3], dst, 4, src, 1, 0, w.head);
  int64_t i = w.head;
  for (; i + V <= n; i += V) {
    read_ahead(src, i, 1);
    __m256i h = _mm256_slli_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(s + i))), 8);
    put512(d + i, _mm512_castps_si512(_mm512_cvtph_ps(h)), w.stream);
  }
  if (w.stream) _mm_sfence();
  tail(lt__cast_scalar_table.decode[3], dst, 4, src, 1, i, n);
}

/* E4M3 bits shifted into F16's layout are the same value times 2^-8
 * (biases 7 and 15), subnormals included: widen through the F16
 * conversion and scale back exactly. The one NaN code becomes a NaN. */
static void from_e4m3(void *dst, const void *src, int64_t n) {
  const uint8_t *s = src;
  float *d = dst;
  const __m256i mag_mask = _mm256_set1_epi16(0x7F), sign_mask = _mm256_set1_epi16(0x80);
  writer w = plan_writes(dst, 4, n, 64);
  tail(lt__cast_scalar_table.decode[2], dst, 4, src, 1, 0, w.head);
  int64_t i = w.head;
  for (; i + V <= n; i += V) {
    read_ahead(src, i, 1);
    __m256i c = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(s + i)));
    __m256i mag = _mm256_and_si256(c, mag_mask);
    __m256i h = _mm256_or_si256(_mm256_slli_epi16(mag, 7), _mm256_slli_epi16(_mm256_and_si256(c, sign_mask), 8));
    __m512 f = _mm512_mul_ps(_mm512_cvtph_ps(h), _mm512_set1_ps(256.0f));
    __mmask16 nan = _mm256_cmpeq_epi16_mask(mag, mag_mask);
    __m512i bits = _mm512_mask_or_epi32(_mm512_castps_si512(f), nan, _mm512_castps_si512(f), splat(0x7FF00000));
    put512(d + i, bits, w.stream);
  }
  if (w.stream) _mm_sfence();
  tail(lt__cast_scalar_table.decode[2], dst, 4, src, 1, i, n);
}

const lt__cast_table lt__cast_avx512_table = {
    .encode = {{to_f16, to_f16_sat}, {to_bf16, to_bf16_sat}, {to_e4m3, to_e4m3_sat}, {to_e5m2, to_e5m2_sat}},
    .decode = {from_f16, from_bf16, from_e4m3, from_e5m2},
};
