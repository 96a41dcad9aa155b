/* AVX2 + F16C cast kernels, 8 floats at a time, bit-identical to the
 * scalar reference. F16 uses the hardware conversion (exact with round to
 * nearest even for every non-NaN input) with NaNs made canonical; BF16 and
 * FP8 use integer arithmetic on the float32 bits, which is exact whatever
 * the MXCSR rounding mode. Compiled with -mavx2 -mf16c. */
#include <immintrin.h>
#include <string.h>

#include "cast.h"
#include "stream.h"

#define V 8

/* Reading ahead (see LT__READ_AHEAD): with a few dozen instructions per
 * cache line, the out-of-order window alone keeps too few misses in
 * flight, and a large cast runs at half of memcpy's bandwidth. */
static inline void read_ahead(const void *p, int64_t i, size_t es) {
  lt__prefetch_l2((const char *)p + i * (int64_t)es + LT__READ_AHEAD, 1);
}

/* Converts the tail (fewer than V elements) with the scalar kernel. */
static void tail(lt__cast_fn scalar, void *dst, size_t dsize, const void *src, size_t ssize, int64_t done, int64_t n) {
  if (done < n) scalar((char *)dst + done * (int64_t)dsize, (const char *)src + done * (int64_t)ssize, n - done);
}

static inline __m256i load8_f32_bits(const void *p) { return _mm256_loadu_si256((const __m256i *)p); }

static inline __m256i is_nan(__m256i abs) { return _mm256_cmpgt_epi32(abs, _mm256_set1_epi32(0x7F800000)); }

/* ---- F16 ---- */

/* The hardware's NaN keeps a payload; ours is the canonical quiet NaN. */
static inline __m128i f16_fix_nan(__m128i h, __m256i bits) {
  __m256i abs = _mm256_and_si256(bits, _mm256_set1_epi32(0x7FFFFFFF));
  __m256i nan = is_nan(abs);
  if (_mm256_testz_si256(nan, nan)) return h;
  __m256i canon = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi32(bits, 16), _mm256_set1_epi32(0x8000)),
                                  _mm256_set1_epi32(0x7E00));
  __m256i fixed32 = _mm256_blendv_epi8(_mm256_cvtepu16_epi32(h), canon, nan);
  __m256i packed = _mm256_packus_epi32(fixed32, fixed32);
  return _mm256_castsi256_si128(_mm256_permute4x64_epi64(packed, 0x08));
}

static inline __attribute__((always_inline)) void f16_encode(void *dst, const void *src, int64_t n, lt_cast_mode mode) {
  const float *s = src;
  char *d = dst;
  const __m256 lim = _mm256_set1_ps(65504.0f), nlim = _mm256_set1_ps(-65504.0f);
  int64_t i = 0;
  for (; i + V <= n; i += V) {
    read_ahead(src, i, 4);
    __m256i bits = load8_f32_bits(s + i);
    __m256 x = _mm256_castsi256_ps(bits);
    /* min/max return their second operand for a NaN, so NaNs pass. */
    if (mode == LT_CAST_SATURATE) x = _mm256_max_ps(nlim, _mm256_min_ps(lim, x));
    __m128i h = f16_fix_nan(_mm256_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC), bits);
    _mm_storeu_si128((__m128i *)(d + 2 * i), h);
  }
  tail(lt__cast_scalar_table.encode[0][mode], dst, 2, src, 4, i, n);
}

static void to_f16(void *d, const void *s, int64_t n) { f16_encode(d, s, n, LT_CAST_DEFAULT); }
static void to_f16_sat(void *d, const void *s, int64_t n) { f16_encode(d, s, n, LT_CAST_SATURATE); }

static void from_f16(void *dst, const void *src, int64_t n) {
  const char *s = src;
  float *d = dst;
  int64_t i = 0;
  for (; i + V <= n; i += V) {
    read_ahead(src, i, 2);
    _mm256_storeu_ps(d + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(s + 2 * i))));
  }
  tail(lt__cast_scalar_table.decode[0], dst, 4, src, 2, i, n);
}

/* ---- BF16 ---- */

/* 16-bit results in the low halves of 8 lanes -> 8 contiguous uint16. */
static inline __m128i pack16(__m256i v) {
  __m256i p = _mm256_packus_epi32(v, v);
  return _mm256_castsi256_si128(_mm256_permute4x64_epi64(p, 0x08));
}

static inline __attribute__((always_inline)) void bf16_encode(void *dst, const void *src, int64_t n, lt_cast_mode mode) {
  const float *s = src;
  char *d = dst;
  const __m256i one = _mm256_set1_epi32(1), bias = _mm256_set1_epi32(0x7FFF);
  const __m256i absmask = _mm256_set1_epi32(0x7FFFFFFF), sign16 = _mm256_set1_epi32(0x8000);
  const __m256i inf = _mm256_set1_epi32(0x7F80), max = _mm256_set1_epi32(0x7F7F);
  int64_t i = 0;
  for (; i + V <= n; i += V) {
    read_ahead(src, i, 4);
    __m256i b = load8_f32_bits(s + i);
    __m256i abs = _mm256_and_si256(b, absmask);
    __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(abs, 16), one);
    __m256i mag = _mm256_srli_epi32(_mm256_add_epi32(abs, _mm256_add_epi32(bias, lsb)), 16);
    __m256i nan = is_nan(abs);
    mag = _mm256_blendv_epi8(mag, _mm256_set1_epi32(0x7FC0), nan);
    if (mode == LT_CAST_SATURATE) mag = _mm256_blendv_epi8(mag, max, _mm256_cmpeq_epi32(mag, inf));
    __m256i h = _mm256_or_si256(mag, _mm256_and_si256(_mm256_srli_epi32(b, 16), sign16));
    _mm_storeu_si128((__m128i *)(d + 2 * i), pack16(h));
  }
  tail(lt__cast_scalar_table.encode[1][mode], dst, 2, src, 4, i, n);
}

static void to_bf16(void *d, const void *s, int64_t n) { bf16_encode(d, s, n, LT_CAST_DEFAULT); }
static void to_bf16_sat(void *d, const void *s, int64_t n) { bf16_encode(d, s, n, LT_CAST_SATURATE); }

static void from_bf16(void *dst, const void *src, int64_t n) {
  const char *s = src;
  float *d = dst;
  const __m256i absmask = _mm256_set1_epi32(0x7FFFFFFF), quiet = _mm256_set1_epi32(0x00400000);
  int64_t i = 0;
  for (; i + V <= n; i += V) {
    read_ahead(src, i, 2);
    __m256i f = _mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(s + 2 * i))), 16);
    __m256i nan = is_nan(_mm256_and_si256(f, absmask));
    f = _mm256_or_si256(f, _mm256_and_si256(nan, quiet));
    _mm256_storeu_si256((__m256i *)(d + i), f);
  }
  tail(lt__cast_scalar_table.decode[1], dst, 4, src, 2, i, n);
}

/* ---- FP8 ---- */

typedef struct fp8 {
  int m, bias;
  uint32_t max_finite, nan, inf_or_nan;  /* inf_or_nan: what default mode gives for inf */
  bool has_inf;
} fp8;

static const fp8 E4M3 = {3, 7, 0x7E, 0x7F, 0x7F, false};
static const fp8 E5M2 = {2, 15, 0x7B, 0x7E, 0x7C, true};

/* 8 float32 bit patterns -> 8 FP8 codes in 32-bit lanes. */
static inline __attribute__((always_inline)) __m256i fp8_encode8(__m256i b, const fp8 *t, lt_cast_mode mode) {
  const __m256i absmask = _mm256_set1_epi32(0x7FFFFFFF), one = _mm256_set1_epi32(1);
  __m256i abs = _mm256_and_si256(b, absmask);
  int drop = 23 - t->m, emin = 1 - t->bias;
  /* Normal results: add the rounding bias to the bits, drop, rebias. */
  __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(abs, drop), one);
  __m256i r = _mm256_add_epi32(abs, _mm256_add_epi32(_mm256_set1_epi32((1 << (drop - 1)) - 1), lsb));
  __m256i qn = _mm256_sub_epi32(_mm256_srli_epi32(r, drop), _mm256_set1_epi32((127 - t->bias) << t->m));
  /* Subnormal results: shift the 24-bit significand by (23 + emin - m - e). */
  __m256i e = _mm256_sub_epi32(_mm256_srli_epi32(abs, 23), _mm256_set1_epi32(127));
  __m256i is_norm32 = _mm256_cmpgt_epi32(abs, _mm256_set1_epi32(0x007FFFFF));
  __m256i sig = _mm256_blendv_epi8(abs, _mm256_or_si256(_mm256_and_si256(abs, _mm256_set1_epi32(0x7FFFFF)),
                                                        _mm256_set1_epi32(0x800000)), is_norm32);
  e = _mm256_blendv_epi8(_mm256_set1_epi32(-126), e, is_norm32);
  __m256i sh = _mm256_sub_epi32(_mm256_set1_epi32(23 + emin - t->m), e);
  sh = _mm256_min_epi32(sh, _mm256_set1_epi32(31));
  __m256i q = _mm256_srlv_epi32(sig, sh);
  __m256i rem = _mm256_sub_epi32(sig, _mm256_sllv_epi32(q, sh));
  __m256i half = _mm256_sllv_epi32(one, _mm256_sub_epi32(sh, one));
  __m256i up = _mm256_or_si256(_mm256_cmpgt_epi32(rem, half),
                               _mm256_and_si256(_mm256_cmpeq_epi32(rem, half),
                                                _mm256_cmpeq_epi32(_mm256_and_si256(q, one), one)));
  __m256i qs = _mm256_sub_epi32(q, up); /* up is -1 where rounding up */
  __m256i is_sub = _mm256_cmpgt_epi32(_mm256_set1_epi32(emin), _mm256_sub_epi32(_mm256_srli_epi32(abs, 23), _mm256_set1_epi32(127)));
  __m256i code = _mm256_blendv_epi8(qn, qs, is_sub);
  /* Overflow (finite), then inf and NaN. Codes are < 2^31 here, so signed
   * compares work; a huge input can make qn wrap, so test the input too. */
  uint32_t over = mode == LT_CAST_SATURATE ? t->max_finite : t->has_inf ? t->max_finite + 1 : t->max_finite;
  __m256i big = _mm256_or_si256(_mm256_cmpgt_epi32(code, _mm256_set1_epi32((int)t->max_finite)),
                                _mm256_cmpgt_epi32(abs, _mm256_set1_epi32(0x7F000000)));
  code = _mm256_blendv_epi8(code, _mm256_set1_epi32((int)over), big);
  uint32_t inf_code = mode == LT_CAST_SATURATE ? t->max_finite : t->inf_or_nan;
  code = _mm256_blendv_epi8(code, _mm256_set1_epi32((int)inf_code), _mm256_cmpeq_epi32(abs, _mm256_set1_epi32(0x7F800000)));
  code = _mm256_blendv_epi8(code, _mm256_set1_epi32((int)t->nan), is_nan(abs));
  __m256i sign = _mm256_and_si256(_mm256_srli_epi32(b, 24), _mm256_set1_epi32(0x80));
  return _mm256_or_si256(code, sign);
}

static inline __attribute__((always_inline)) void fp8_encode(void *dst, const void *src, int64_t n, const fp8 *t, lt_cast_mode mode, lt__cast_fn scalar) {
  const float *s = src;
  char *d = dst;
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  int64_t i = 0;
  for (; i + 4 * V <= n; i += 4 * V) {
    read_ahead(src, i, 4);
    __m256i a = fp8_encode8(load8_f32_bits(s + i), t, mode);
    __m256i b = fp8_encode8(load8_f32_bits(s + i + 8), t, mode);
    __m256i c = fp8_encode8(load8_f32_bits(s + i + 16), t, mode);
    __m256i e = fp8_encode8(load8_f32_bits(s + i + 24), t, mode);
    __m256i ab = _mm256_packus_epi32(a, b), ce = _mm256_packus_epi32(c, e);
    __m256i bytes = _mm256_packus_epi16(ab, ce);
    _mm256_storeu_si256((__m256i *)(d + i), _mm256_permutevar8x32_epi32(bytes, order));
  }
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
  int64_t i = 0;
  for (; i + V <= n; i += V) {
    read_ahead(src, i, 1);
    __m128i bytes = _mm_loadl_epi64((const __m128i *)(s + i));
    __m128i h = _mm_slli_epi16(_mm_cvtepu8_epi16(bytes), 8);
    _mm256_storeu_ps(d + i, _mm256_cvtph_ps(h));
  }
  tail(lt__cast_scalar_table.decode[3], dst, 4, src, 1, i, n);
}

/* E4M3: normals rebias into float32 bits; subnormals are m * 2^-9, exact
 * in float arithmetic; the one NaN code keeps its payload, quieted. */
static void from_e4m3(void *dst, const void *src, int64_t n) {
  const uint8_t *s = src;
  float *d = dst;
  int64_t i = 0;
  for (; i + V <= n; i += V) {
    read_ahead(src, i, 1);
    __m256i c = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(s + i)));
    __m256i sign = _mm256_slli_epi32(_mm256_and_si256(c, _mm256_set1_epi32(0x80)), 24);
    __m256i mag = _mm256_and_si256(c, _mm256_set1_epi32(0x7F));
    __m256i normal = _mm256_add_epi32(_mm256_slli_epi32(mag, 20), _mm256_set1_epi32(120 << 23));
    __m256 sub = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_and_si256(mag, _mm256_set1_epi32(7))),
                               _mm256_set1_ps(1.0f / 512));
    __m256i is_sub = _mm256_cmpgt_epi32(_mm256_set1_epi32(8), mag);
    __m256i f = _mm256_blendv_epi8(normal, _mm256_castps_si256(sub), is_sub);
    f = _mm256_blendv_epi8(f, _mm256_set1_epi32(0x7FF00000), _mm256_cmpeq_epi32(mag, _mm256_set1_epi32(0x7F)));
    _mm256_storeu_si256((__m256i *)(d + i), _mm256_or_si256(f, sign));
  }
  tail(lt__cast_scalar_table.decode[2], dst, 4, src, 1, i, n);
}

const lt__cast_table lt__cast_avx2_table = {
    .encode = {{to_f16, to_f16_sat}, {to_bf16, to_bf16_sat}, {to_e4m3, to_e4m3_sat}, {to_e5m2, to_e5m2_sat}},
    .decode = {from_f16, from_bf16, from_e4m3, from_e5m2},
};
