/* AVX-512 cast kernels, bit-identical to the scalar reference: encoders
 * write one 64-byte output line at a time, decoders widen 16 values at a
 * time. The same arithmetic as the AVX2 kernels with mask registers and
 * the narrowing moves. The integer BF16 encoder avoids vcvtneps2bf16,
 * which treats float32 subnormal inputs as zero whatever MXCSR says; CPUs
 * with AVX512_BF16 get a path of their own below that uses it with a
 * fix-up. Compiled with -mavx512f -mavx512bw -mavx512vl -mavx512dq. */
#include <immintrin.h>

#include "cast.h"
#include "stream.h"

#define V 16

/* Reading ahead (see LT__READ_AHEAD): with a few dozen instructions per
 * cache line, the out-of-order window alone keeps too few misses in
 * flight, and a large cast runs at half of memcpy's bandwidth. */
static inline void read_ahead(const void *p, int64_t i, size_t es) {
  lt__prefetch_l2((const char *)p + i * (int64_t)es + LT__READ_AHEAD, 1);
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

static inline void put512(void *p, __m512i v, bool stream) {
  if (stream) _mm512_stream_si512(p, v);
  else _mm512_storeu_si512(p, v);
}

static inline __m512i load16(const void *p) { return _mm512_loadu_si512(p); }
static inline __m512i splat(int v) { return _mm512_set1_epi32(v); }
static inline __mmask16 nan_mask(__m512i abs) { return _mm512_cmpgt_epi32_mask(abs, splat(0x7F800000)); }
/* One instruction where nan_mask needs two; vfpclassps's NaN test does
 * not depend on MXCSR (its denormal test does: under DAZ it sees none). */
static inline __mmask16 is_nan(__m512i bits) { return _mm512_fpclass_ps_mask(_mm512_castsi512_ps(bits), 0x81); }

/* ---- F16 ---- */

/* 16 floats to F16: round to nearest even in hardware (exact for every
 * non-NaN input), NaNs to the canonical quiet NaN with their sign. */
static inline __attribute__((always_inline)) __m256i f16_lanes(__m512i bits, lt_cast_mode mode) {
  const __m512 lim = _mm512_set1_ps(65504.0f), nlim = _mm512_set1_ps(-65504.0f);
  __m512 x = _mm512_castsi512_ps(bits);
  if (mode == LT_CAST_SATURATE) x = _mm512_max_ps(nlim, _mm512_min_ps(lim, x)); /* NaNs pass */
  __m256i h = _mm512_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __mmask16 nan = is_nan(bits);
  if (nan) {
    __m256i canon = _mm512_cvtepi32_epi16(
        _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi32(bits, 16), splat(0x8000)), splat(0x7E00)));
    h = _mm256_mask_blend_epi16(nan, h, canon);
  }
  return h;
}

/* ---- the encode loop: F32 to one 64-byte output line at a time ---- */

/* Converts the floats of one output line (64 / destination size of them)
 * and returns the line. */
typedef __m512i (*line_fn)(const float *src, lt_cast_mode mode);

/* A long streamed encode reads PAGES pages of its source at once, one
 * output line from each in turn: the hardware prefetcher follows each
 * page as a stream of its own, and several streams keep more of memory's
 * bandwidth busy than one (F32 -> F16 at 256 MiB: 87% of memcpy from one
 * stream, 92-93% from four with each prefetched two blocks ahead, 88% from
 * eight). */
#define PAGE 4096
#define PAGES 4

/* Encodes n floats to a format of des bytes with line() (a constant: the
 * loop is inlined per format and mode), scalar() for the unaligned head
 * and the last partial line. */
static inline __attribute__((always_inline)) void encode_lines(void *dst, const void *src, int64_t n, size_t des,
                                                               lt_cast_mode mode, line_fn line, lt__cast_fn scalar) {
  const float *s = src;
  char *d = dst;
  const int64_t per_line = 64 / (int64_t)des;
  writer w = plan_writes(dst, des, n, 64);
  tail(scalar, dst, des, src, 4, 0, w.head);
  int64_t i = w.head;
  if (w.stream) {
    const int64_t page = PAGE / 4, block = PAGES * page; /* in floats */
    for (; i + block <= n; i += block)
      for (int64_t j = 0; j < page; j += per_line)
        for (int p = 0; p < PAGES; p++) {
          const float *at = s + i + p * page + j;
          lt__prefetch_l2((const char *)at + 2 * PAGES * PAGE, per_line * 4);
          _mm512_stream_si512((__m512i *)(d + (at - s) * (int64_t)des), line(at, mode));
        }
  }
  for (; i + per_line <= n; i += per_line) {
    lt__prefetch_l2((const char *)(s + i) + LT__READ_AHEAD, per_line * 4);
    put512(d + i * (int64_t)des, line(s + i, mode), w.stream);
  }
  if (w.stream) _mm_sfence();
  tail(scalar, dst, des, src, 4, i, n);
}

/* Two halves of 16 narrow results as one 64-byte line. */
static inline __m512i line_of(__m256i lo, __m256i hi) {
  return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
}

static inline __attribute__((always_inline)) __m512i f16_line(const float *s, lt_cast_mode mode) {
  return line_of(f16_lanes(load16(s), mode), f16_lanes(load16(s + V), mode));
}

static void to_f16(void *d, const void *s, int64_t n) {
  encode_lines(d, s, n, 2, LT_CAST_DEFAULT, f16_line, lt__cast_scalar_table.encode[0][0]);
}
static void to_f16_sat(void *d, const void *s, int64_t n) {
  encode_lines(d, s, n, 2, LT_CAST_SATURATE, f16_line, lt__cast_scalar_table.encode[0][1]);
}
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

static inline __attribute__((always_inline)) __m512i bf16_line(const float *s, lt_cast_mode mode) {
  return line_of(bf16_lanes(load16(s), mode), bf16_lanes(load16(s + V), mode));
}

static void to_bf16(void *d, const void *s, int64_t n) {
  encode_lines(d, s, n, 2, LT_CAST_DEFAULT, bf16_line, lt__cast_scalar_table.encode[1][0]);
}
static void to_bf16_sat(void *d, const void *s, int64_t n) {
  encode_lines(d, s, n, 2, LT_CAST_SATURATE, bf16_line, lt__cast_scalar_table.encode[1][1]);
}

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

/* ---- BF16 with AVX512_BF16 (a path of its own: not every AVX-512 CPU has it) ---- */

/* vcvtne2ps2bf16 rounds 32 floats to nearest even in one instruction,
 * but it flushes subnormal inputs to zero and keeps NaN payloads: a line
 * holding either is redone by the integer lanes above. vfpclassps finds
 * both in one instruction per 16 floats, at the price of obeying
 * MXCSR.DAZ (under which it sees no subnormals), so a caller running with
 * DAZ set (as -ffast-math programs do) gets the integer path throughout.
 * F32 -> BF16 at 256 MiB: 84% of memcpy by integer lanes, 90-93% here. */
#define MXCSR_DAZ 0x0040
#define BF16_ISA __attribute__((target("avx512bf16")))

static inline BF16_ISA __attribute__((always_inline)) __m512i bf16_hw_line(const float *s, lt_cast_mode mode) {
  const __m512 lim = _mm512_castsi512_ps(splat(0x7F7F0000)), nlim = _mm512_castsi512_ps(splat((int)0xFF7F0000));
  __m512 a = _mm512_loadu_ps(s), b = _mm512_loadu_ps(s + V);
  if (_mm512_fpclass_ps_mask(a, 0xA1) | _mm512_fpclass_ps_mask(b, 0xA1)) /* NaN or subnormal */
    return bf16_line(s, mode);
  /* Saturating: every finite value above the largest BF16 rounds to it
   * or to inf, and so does inf; clamped first, it rounds to itself. */
  if (mode == LT_CAST_SATURATE) {
    a = _mm512_max_ps(nlim, _mm512_min_ps(lim, a));
    b = _mm512_max_ps(nlim, _mm512_min_ps(lim, b));
  }
  return (__m512i)_mm512_cvtne2ps_pbh(b, a);
}

static BF16_ISA void to_bf16_hw(void *d, const void *s, int64_t n) {
  if (_mm_getcsr() & MXCSR_DAZ) to_bf16(d, s, n);
  else encode_lines(d, s, n, 2, LT_CAST_DEFAULT, bf16_hw_line, lt__cast_scalar_table.encode[1][0]);
}
static BF16_ISA void to_bf16_hw_sat(void *d, const void *s, int64_t n) {
  if (_mm_getcsr() & MXCSR_DAZ) to_bf16_sat(d, s, n);
  else encode_lines(d, s, n, 2, LT_CAST_SATURATE, bf16_hw_line, lt__cast_scalar_table.encode[1][1]);
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

/* 64 floats to one line of FP8 codes: the codes (at most 0xFF in 32-bit
 * lanes) narrow by two saturating packs, which work within 128-bit lanes,
 * and one permutation restores the order of the four quarter-lines. */
static inline __attribute__((always_inline)) __m512i fp8_line(const float *s, const fp8 *t, lt_cast_mode mode) {
  __m512i ab = _mm512_packus_epi32(fp8_encode16(load16(s), t, mode), fp8_encode16(load16(s + V), t, mode));
  __m512i cd = _mm512_packus_epi32(fp8_encode16(load16(s + 2 * V), t, mode), fp8_encode16(load16(s + 3 * V), t, mode));
  /* Lane L of the packed bytes holds dwords a_L b_L c_L d_L; out wants
   * a_0..a_3 b_0..b_3 ...: a 4x4 transpose of dwords. */
  const __m512i order = _mm512_set_epi32(15, 11, 7, 3, 14, 10, 6, 2, 13, 9, 5, 1, 12, 8, 4, 0);
  return _mm512_permutexvar_epi32(order, _mm512_packus_epi16(ab, cd));
}

static inline __attribute__((always_inline)) __m512i e4m3_line(const float *s, lt_cast_mode mode) {
  return fp8_line(s, &E4M3, mode);
}
static inline __attribute__((always_inline)) __m512i e5m2_line(const float *s, lt_cast_mode mode) {
  return fp8_line(s, &E5M2, mode);
}

static void to_e4m3(void *d, const void *s, int64_t n) {
  encode_lines(d, s, n, 1, LT_CAST_DEFAULT, e4m3_line, lt__cast_scalar_table.encode[2][0]);
}
static void to_e4m3_sat(void *d, const void *s, int64_t n) {
  encode_lines(d, s, n, 1, LT_CAST_SATURATE, e4m3_line, lt__cast_scalar_table.encode[2][1]);
}
static void to_e5m2(void *d, const void *s, int64_t n) {
  encode_lines(d, s, n, 1, LT_CAST_DEFAULT, e5m2_line, lt__cast_scalar_table.encode[3][0]);
}
static void to_e5m2_sat(void *d, const void *s, int64_t n) {
  encode_lines(d, s, n, 1, LT_CAST_SATURATE, e5m2_line, lt__cast_scalar_table.encode[3][1]);
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

/* Only F32 -> BF16 differs from the table above on AVX512_BF16 CPUs. */
const lt__cast_table lt__cast_avx512bf16_table = {
    .encode = {{NULL, NULL}, {to_bf16_hw, to_bf16_hw_sat}, {NULL, NULL}, {NULL, NULL}},
};
