/* The dtype table and the scalar reference conversions. Narrow float
 * formats (IEEE binary16, bfloat16, OCP FP8 E4M3 and E5M2) are encoded
 * from the exact value with integer arithmetic, rounding to nearest even
 * exactly once, so that no cast ever double-rounds. */
#include "dtype.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "error.h"

static const struct {
  const char *name;
  size_t size;
  bool is_float;
} dtype_table[LT_NUM_DTYPES] = {
    [LT_F32] = {"f32", 4, true},      [LT_F16] = {"f16", 2, true},
    [LT_BF16] = {"bf16", 2, true},    [LT_F8_E4M3] = {"f8_e4m3", 1, true},
    [LT_F8_E5M2] = {"f8_e5m2", 1, true}, [LT_F64] = {"f64", 8, true},
    [LT_I32] = {"i32", 4, false},     [LT_I64] = {"i64", 8, false},
    [LT_U8] = {"u8", 1, false},       [LT_BOOL] = {"bool", 1, false},
};

bool lt__dtype_valid(lt_dtype dt) { return (unsigned)dt < LT_NUM_DTYPES; }

bool lt__dtype_is_float(lt_dtype dt) { return lt__dtype_valid(dt) && dtype_table[dt].is_float; }

size_t lt__dtype_size(lt_dtype dt) { return dtype_table[dt].size; }

LT_API size_t lt_dtype_size(lt_dtype dt) {
  if (!lt__dtype_valid(dt)) {
    lt__fail(LT_ERR_ARG, "dtype_size: %d is not a dtype", (int)dt);
    return 0;
  }
  lt__ok();
  return dtype_table[dt].size;
}

LT_API const char *lt_dtype_name(lt_dtype dt) {
  return lt__dtype_valid(dt) ? dtype_table[dt].name : "invalid";
}

/* ---- narrow float formats ---------------------------------------------- */

typedef struct float_format {
  int ebits, mbits, bias;
  bool has_inf;         /* IEEE-style all-ones exponent; E4M3 has none */
  uint32_t max_finite;  /* magnitude bits of the largest finite value */
  uint32_t nan;         /* magnitude bits of the NaN we produce */
} float_format;

static const float_format F16 = {5, 10, 15, true, 0x7BFF, 0x7E00};
static const float_format BF16 = {8, 7, 127, true, 0x7F7F, 0x7FC0};
static const float_format E4M3 = {4, 3, 7, false, 0x7E, 0x7F};
static const float_format E5M2 = {5, 2, 15, true, 0x7B, 0x7E};
/* float32 too: int64 -> f32 must round once, which a C conversion does not
 * promise everywhere (valgrind, for one, rounds through a double). */
static const float_format F32 = {8, 23, 127, true, 0x7F7FFFFF, 0x7FC00000};

static uint32_t sign_bit(const float_format *f) { return 1u << (f->ebits + f->mbits); }
static uint32_t inf_bits(const float_format *f) { return ((1u << f->ebits) - 1) << f->mbits; }

/* m / 2^s rounded to nearest, ties to even; s may be <= 0 (exact shift). */
static uint64_t round_shift(uint64_t m, int s) {
  if (s <= 0) return m << -s;
  if (s > 64) return 0;
  if (s == 64) return m > (1ull << 63) ? 1 : 0; /* a tie at 2^63 rounds to 0 */
  uint64_t q = m >> s, rem = m & ((1ull << s) - 1), half = 1ull << (s - 1);
  if (rem > half || (rem == half && (q & 1))) q++;
  return q;
}

static uint32_t overflow_bits(const float_format *f, lt_cast_mode mode) {
  return (mode == LT_CAST_SATURATE || !f->has_inf) ? f->max_finite : inf_bits(f);
}

/* Encodes (-1)^neg * m * 2^e, m > 0. */
static uint32_t encode_finite(const float_format *f, bool neg, uint64_t m, int e, lt_cast_mode mode) {
  int p = 63 - __builtin_clzll(m);
  int E = p + e; /* the value lies in [2^E, 2^(E+1)) */
  int emin = 1 - f->bias;
  int emax = (f->has_inf ? (1 << f->ebits) - 2 : (1 << f->ebits) - 1) - f->bias;
  uint32_t s = neg ? sign_bit(f) : 0;
  if (E > emax + 1) return s | overflow_bits(f, mode);
  int Eq = E > emin ? E : emin;           /* subnormals share emin's quantum */
  uint64_t q = round_shift(m, Eq - f->mbits - e);
  /* q carries the implicit bit for normals, so adding the exponent field
   * this way also handles rounding up into the next binade. */
  uint64_t bits = ((uint64_t)(Eq - emin) << f->mbits) + q;
  if (bits > f->max_finite) return s | overflow_bits(f, mode);
  return s | (uint32_t)bits;
}

static uint32_t encode_double(const float_format *f, double d, lt_cast_mode mode) {
  uint64_t b;
  memcpy(&b, &d, sizeof b);
  bool neg = b >> 63;
  int exp = (int)((b >> 52) & 0x7FF);
  uint64_t frac = b & ((1ull << 52) - 1);
  uint32_t s = neg ? sign_bit(f) : 0;
  if (exp == 0x7FF) {
    if (frac) return s | f->nan;
    if (mode == LT_CAST_SATURATE) return s | f->max_finite;
    return s | (f->has_inf ? inf_bits(f) : f->nan);
  }
  if (exp == 0 && frac == 0) return s;
  if (exp == 0) return encode_finite(f, neg, frac, -1074, mode);
  return encode_finite(f, neg, frac | (1ull << 52), exp - 1075, mode);
}

static uint32_t encode_int(const float_format *f, int64_t i, lt_cast_mode mode) {
  if (i == 0) return 0;
  uint64_t mag = i < 0 ? -(uint64_t)i : (uint64_t)i;
  return encode_finite(f, i < 0, mag, 0, mode);
}

static double decode(const float_format *f, uint32_t h) {
  bool neg = h & sign_bit(f);
  uint32_t field = (h >> f->mbits) & ((1u << f->ebits) - 1);
  uint32_t frac = h & ((1u << f->mbits) - 1);
  uint32_t mag = h & (sign_bit(f) - 1);
  double v;
  bool nan = f->has_inf ? field == (1u << f->ebits) - 1 && frac : mag == f->nan;
  if (nan) {
    /* Widening keeps the payload in the top mantissa bits and quiets it,
     * as the hardware conversions (vcvtph2ps, cvtss2sd) do. */
    uint64_t b = (neg ? 1ull << 63 : 0) | 0x7FF8000000000000ull | ((uint64_t)frac << (52 - f->mbits));
    memcpy(&v, &b, sizeof v);
    return v;
  }
  if (f->has_inf && field == (1u << f->ebits) - 1) v = INFINITY;
  else if (field == 0) v = ldexp((double)frac, 1 - f->bias - f->mbits);
  else v = ldexp((double)(frac | (1u << f->mbits)), (int)field - f->bias - f->mbits);
  return neg ? -v : v;
}

static const float_format *narrow_format(lt_dtype dt) {
  switch (dt) {
  case LT_F16: return &F16;
  case LT_BF16: return &BF16;
  case LT_F8_E4M3: return &E4M3;
  case LT_F8_E5M2: return &E5M2;
  default: return NULL;
  }
}

/* ---- scalar load/store --------------------------------------------------- */

lt__scalar lt__scalar_load(lt_dtype dt, const void *p) {
  lt__scalar v = {0};
  switch (dt) {
  case LT_F32: { float x; memcpy(&x, p, 4); v.f = x; break; }
  case LT_F64: memcpy(&v.f, p, 8); break;
  case LT_F16: case LT_BF16: {
    uint16_t h; memcpy(&h, p, 2); v.f = decode(narrow_format(dt), h); break;
  }
  case LT_F8_E4M3: case LT_F8_E5M2: v.f = decode(narrow_format(dt), *(const uint8_t *)p); break;
  case LT_I32: { int32_t x; memcpy(&x, p, 4); v.is_int = true; v.i = x; break; }
  case LT_I64: v.is_int = true; memcpy(&v.i, p, 8); break;
  case LT_U8: v.is_int = true; v.i = *(const uint8_t *)p; break;
  case LT_BOOL: v.is_int = true; v.i = *(const uint8_t *)p != 0; break;
  }
  return v;
}

/* Float to integer: truncation toward zero, within [lo, hi]. The bounds are
 * powers of two (or exact small integers), so the comparisons are exact. */
static bool float_to_int(double d, double lo, double hi_exclusive, int64_t *out) {
  if (isnan(d)) return false;
  double t = trunc(d);
  if (!(t >= lo && t < hi_exclusive)) return false;
  *out = (int64_t)t;
  return true;
}

static bool store_int(lt_dtype dt, void *p, lt__scalar v) {
  int64_t i = v.i;
  if (!v.is_int) {
    if (dt == LT_BOOL) { *(uint8_t *)p = v.f != 0; return true; } /* NaN is true */
    bool ok = dt == LT_I32   ? float_to_int(v.f, -2147483648.0, 2147483648.0, &i)
              : dt == LT_I64 ? float_to_int(v.f, -9223372036854775808.0, 9223372036854775808.0, &i)
                             : float_to_int(v.f, 0.0, 256.0, &i);
    if (!ok) return false;
  }
  switch (dt) {
  case LT_I32: { int32_t x = (int32_t)(uint32_t)(uint64_t)i; memcpy(p, &x, 4); break; }
  case LT_I64: memcpy(p, &i, 8); break;
  case LT_U8: *(uint8_t *)p = (uint8_t)(uint64_t)i; break;
  default: *(uint8_t *)p = i != 0; break;
  }
  return true;
}

bool lt__scalar_store(lt_dtype dt, void *p, lt__scalar v, lt_cast_mode mode) {
  const float_format *f = narrow_format(dt);
  if (f) {
    uint32_t h = v.is_int ? encode_int(f, v.i, mode) : encode_double(f, v.f, mode);
    if (f->ebits + f->mbits == 15) { uint16_t x = (uint16_t)h; memcpy(p, &x, 2); }
    else *(uint8_t *)p = (uint8_t)h;
    return true;
  }
  if (dt == LT_F32) {
    float x;
    if (v.is_int) {
      uint32_t b = encode_int(&F32, v.i, mode);
      memcpy(&x, &b, 4);
    } else {
      x = (float)v.f;
    }
    if (mode == LT_CAST_SATURATE && isinf(x)) x = copysignf(FLT_MAX, x);
    memcpy(p, &x, 4);
    return true;
  }
  if (dt == LT_F64) {
    double x = v.is_int ? (double)v.i : v.f;
    if (mode == LT_CAST_SATURATE && isinf(x)) x = copysign(DBL_MAX, x);
    memcpy(p, &x, 8);
    return true;
  }
  return store_int(dt, p, v);
}
