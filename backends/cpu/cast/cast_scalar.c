/* Portable scalar cast kernels: integer bit manipulation only, so they do
 * not depend on the FPU rounding mode. Encoding rounds the exact float32
 * value to nearest even once: a normal result by adding the rounding bias
 * to the float32 bit pattern (the carry walks into the exponent as it
 * should), a subnormal one by shifting the 24-bit significand. */
#include <string.h>

#include "cast.h"

typedef struct narrow {
  int m, bias;          /* mantissa bits, exponent bias */
  bool has_inf;
  uint32_t max_finite;  /* magnitude bits */
  uint32_t nan;         /* magnitude bits of the NaN produced */
  int sign_shift;       /* 15 for 16-bit formats, 7 for 8-bit */
} narrow;

static const narrow F16 = {10, 15, true, 0x7BFF, 0x7E00, 15};
static const narrow BF16 = {7, 127, true, 0x7F7F, 0x7FC0, 15};
static const narrow E4M3 = {3, 7, false, 0x7E, 0x7F, 7};
static const narrow E5M2 = {2, 15, true, 0x7B, 0x7E, 7};

static inline uint32_t rne_shift(uint32_t v, int s) {
  if (s >= 32) return 0;
  uint32_t q = v >> s, rem = v & ((1u << s) - 1), half = 1u << (s - 1);
  return q + (rem > half || (rem == half && (q & 1)));
}

static inline uint32_t encode(uint32_t f, const narrow *t, lt_cast_mode mode) {
  uint32_t s = (f >> 31) << t->sign_shift, a = f & 0x7FFFFFFFu;
  uint32_t inf = t->has_inf ? t->max_finite + 1 : t->nan; /* IEEE: max finite + 1 is inf */
  uint32_t over = mode == LT_CAST_SATURATE ? t->max_finite : t->has_inf ? inf : t->max_finite;
  if (a > 0x7F800000u) return s | t->nan;
  if (a == 0x7F800000u) return s | (mode == LT_CAST_SATURATE ? t->max_finite : inf);
  int e = (int)(a >> 23) - 127, emin = 1 - t->bias;
  uint32_t q;
  if (e >= emin) {
    uint32_t drop = 23 - (uint32_t)t->m;
    uint32_t r = a + ((1u << (drop - 1)) - 1) + ((a >> drop) & 1);
    uint32_t rebias = (uint32_t)(127 - t->bias) << t->m;
    q = (r >> drop) - rebias;
  } else {
    uint32_t sig = a >= 0x00800000u ? (a & 0x7FFFFFu) | 0x800000u : a;
    int ef = a >= 0x00800000u ? e : -126;
    q = rne_shift(sig, 23 + emin - t->m - ef);
  }
  return s | (q > t->max_finite ? over : q);
}

static uint16_t f32_to_f16_bits(uint32_t f, lt_cast_mode m) { return (uint16_t)encode(f, &F16, m); }
static uint16_t f32_to_bf16_bits(uint32_t f, lt_cast_mode m) { return (uint16_t)encode(f, &BF16, m); }
static uint8_t f32_to_e4m3_bits(uint32_t f, lt_cast_mode m) { return (uint8_t)encode(f, &E4M3, m); }
static uint8_t f32_to_e5m2_bits(uint32_t f, lt_cast_mode m) { return (uint8_t)encode(f, &E5M2, m); }

/* Widening is exact; NaNs keep their payload's top bits and are quieted. */
static inline uint32_t decode(uint32_t h, const narrow *t) {
  uint32_t s = (h >> t->sign_shift) << 31, a = h & ((1u << t->sign_shift) - 1);
  uint32_t field = a >> t->m, frac = a & ((1u << t->m) - 1), top = (1u << (t->sign_shift - t->m)) - 1;
  bool nan = t->has_inf ? field == top && frac : a == t->nan;
  if (nan) return s | 0x7FC00000u | (frac << (23 - t->m));
  if (t->has_inf && field == top) return s | 0x7F800000u;
  if (field == 0) { /* zero or subnormal: frac * 2^(1 - bias - m), normalised */
    if (frac == 0) return s;
    if (t->bias == 127) return s | (frac << (23 - t->m)); /* BF16: float32's own subnormals */
    int p = 31 - __builtin_clz(frac);
    return s | ((uint32_t)(128 - t->bias - t->m + p) << 23) | ((frac << (23 - p)) & 0x7FFFFFu);
  }
  return s | ((field + 127 - (uint32_t)t->bias) << 23) | (frac << (23 - t->m));
}

static uint32_t f16_bits_to_f32(uint16_t h) { return decode(h, &F16); }
static uint32_t bf16_bits_to_f32(uint16_t h) { return decode(h, &BF16); }
static uint32_t e4m3_bits_to_f32(uint8_t h) { return decode(h, &E4M3); }
static uint32_t e5m2_bits_to_f32(uint8_t h) { return decode(h, &E5M2); }

#define ENCODER(name, T, conv, mode)                                      \
  static void name(void *dst, const void *src, int64_t n) {               \
    const char *s = src;                                                  \
    char *d = dst;                                                        \
    for (int64_t i = 0; i < n; i++) {                                     \
      uint32_t f;                                                         \
      memcpy(&f, s + 4 * i, 4);                                           \
      T h = conv(f, mode);                                                \
      memcpy(d + sizeof(T) * i, &h, sizeof(T));                           \
    }                                                                     \
  }

#define DECODER(name, T, conv)                                            \
  static void name(void *dst, const void *src, int64_t n) {               \
    const char *s = src;                                                  \
    char *d = dst;                                                        \
    for (int64_t i = 0; i < n; i++) {                                     \
      T h;                                                                \
      memcpy(&h, s + sizeof(T) * i, sizeof(T));                           \
      uint32_t f = conv(h);                                               \
      memcpy(d + 4 * i, &f, 4);                                           \
    }                                                                     \
  }

ENCODER(to_f16, uint16_t, f32_to_f16_bits, LT_CAST_DEFAULT)
ENCODER(to_f16_sat, uint16_t, f32_to_f16_bits, LT_CAST_SATURATE)
ENCODER(to_bf16, uint16_t, f32_to_bf16_bits, LT_CAST_DEFAULT)
ENCODER(to_bf16_sat, uint16_t, f32_to_bf16_bits, LT_CAST_SATURATE)
ENCODER(to_e4m3, uint8_t, f32_to_e4m3_bits, LT_CAST_DEFAULT)
ENCODER(to_e4m3_sat, uint8_t, f32_to_e4m3_bits, LT_CAST_SATURATE)
ENCODER(to_e5m2, uint8_t, f32_to_e5m2_bits, LT_CAST_DEFAULT)
ENCODER(to_e5m2_sat, uint8_t, f32_to_e5m2_bits, LT_CAST_SATURATE)
DECODER(from_f16, uint16_t, f16_bits_to_f32)
DECODER(from_bf16, uint16_t, bf16_bits_to_f32)
DECODER(from_e4m3, uint8_t, e4m3_bits_to_f32)
DECODER(from_e5m2, uint8_t, e5m2_bits_to_f32)

const lt__cast_table lt__cast_scalar_table = {
    .encode = {{to_f16, to_f16_sat}, {to_bf16, to_bf16_sat}, {to_e4m3, to_e4m3_sat}, {to_e5m2, to_e5m2_sat}},
    .decode = {from_f16, from_bf16, from_e4m3, from_e5m2},
};
