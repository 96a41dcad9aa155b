/* Device code: libtensor/dtype.c's scalar reference conversions, ported
 * line for line so that every CUDA kernel converts exactly as the CPU
 * reference does (narrow floats encoded from the exact value with integer
 * arithmetic, rounding to nearest even once). Where the CPU reference
 * leans on a hardware conversion between float and double, the x86 result
 * for NaNs (sign and payload kept, quiet bit set) is built explicitly: a
 * GPU conversion may hand back a canonical NaN instead. */
#ifndef LT_CUDA_SCALAR_CUH
#define LT_CUDA_SCALAR_CUH

#include <stdint.h>

#include "libtensor/copy.h"
#include "libtensor/types.h"

/* As lt__scalar: floats as the double that holds them exactly, integers
 * (bool and u8 included) as int64. */
struct dev_scalar {
  bool is_int;
  double f;
  long long i;
};

struct dev_format {
  int ebits, mbits, bias;
  bool has_inf;
  uint32_t max_finite, nan;
};

/* The narrow formats of dtype.c (F16, BF16, E4M3, E5M2) and F32 for the
 * integer-to-F32 encoding. */
static __device__ __forceinline__ dev_format dev_format_of(lt_dtype dt) {
  switch (dt) {
  case LT_F16: return dev_format{5, 10, 15, true, 0x7BFFu, 0x7E00u};
  case LT_BF16: return dev_format{8, 7, 127, true, 0x7F7Fu, 0x7FC0u};
  case LT_F8_E4M3: return dev_format{4, 3, 7, false, 0x7Eu, 0x7Fu};
  case LT_F8_E5M2: return dev_format{5, 2, 15, true, 0x7Bu, 0x7Eu};
  default: return dev_format{8, 23, 127, true, 0x7F7FFFFFu, 0x7FC00000u};
  }
}

static __device__ __forceinline__ bool dev_is_narrow(lt_dtype dt) {
  return dt == LT_F16 || dt == LT_BF16 || dt == LT_F8_E4M3 || dt == LT_F8_E5M2;
}

static __device__ __forceinline__ bool dev_is_float(lt_dtype dt) {
  return dt == LT_F32 || dt == LT_F64 || dev_is_narrow(dt);
}

/* Element size, as lt__dtype_size. */
static __device__ __forceinline__ long long dev_dtype_size(lt_dtype dt) {
  switch (dt) {
  case LT_F64: case LT_I64: return 8;
  case LT_F32: case LT_I32: return 4;
  case LT_F16: case LT_BF16: return 2;
  default: return 1;
  }
}

static __device__ __forceinline__ uint32_t dev_sign_bit(const dev_format &f) { return 1u << (f.ebits + f.mbits); }
static __device__ __forceinline__ uint32_t dev_inf_bits(const dev_format &f) {
  return ((1u << f.ebits) - 1) << f.mbits;
}

/* m / 2^s rounded to nearest, ties to even; s may be <= 0 (exact shift). */
static __device__ __forceinline__ unsigned long long dev_round_shift(unsigned long long m, int s) {
  if (s <= 0) return m << -s;
  if (s > 64) return 0;
  if (s == 64) return m > (1ull << 63) ? 1 : 0;
  unsigned long long q = m >> s, rem = m & ((1ull << s) - 1), half = 1ull << (s - 1);
  if (rem > half || (rem == half && (q & 1))) q++;
  return q;
}

static __device__ __forceinline__ uint32_t dev_overflow_bits(const dev_format &f, lt_cast_mode mode) {
  return (mode == LT_CAST_SATURATE || !f.has_inf) ? f.max_finite : dev_inf_bits(f);
}

/* Encodes (-1)^neg * m * 2^e, m > 0. */
static __device__ uint32_t dev_encode_finite(const dev_format &f, bool neg, unsigned long long m, int e,
                                             lt_cast_mode mode) {
  int p = 63 - __clzll((long long)m);
  int E = p + e;
  int emin = 1 - f.bias;
  int emax = (f.has_inf ? (1 << f.ebits) - 2 : (1 << f.ebits) - 1) - f.bias;
  uint32_t s = neg ? dev_sign_bit(f) : 0;
  if (E > emax + 1) return s | dev_overflow_bits(f, mode);
  int Eq = E > emin ? E : emin;
  unsigned long long q = dev_round_shift(m, Eq - f.mbits - e);
  unsigned long long bits = ((unsigned long long)(Eq - emin) << f.mbits) + q;
  if (bits > f.max_finite) return s | dev_overflow_bits(f, mode);
  return s | (uint32_t)bits;
}

static __device__ uint32_t dev_encode_double(const dev_format &f, double d, lt_cast_mode mode) {
  unsigned long long b = (unsigned long long)__double_as_longlong(d);
  bool neg = b >> 63;
  int exp = (int)((b >> 52) & 0x7FF);
  unsigned long long frac = b & ((1ull << 52) - 1);
  uint32_t s = neg ? dev_sign_bit(f) : 0;
  if (exp == 0x7FF) {
    if (frac) return s | f.nan;
    if (mode == LT_CAST_SATURATE) return s | f.max_finite;
    return s | (f.has_inf ? dev_inf_bits(f) : f.nan);
  }
  if (exp == 0 && frac == 0) return s;
  if (exp == 0) return dev_encode_finite(f, neg, frac, -1074, mode);
  return dev_encode_finite(f, neg, frac | (1ull << 52), exp - 1075, mode);
}

static __device__ uint32_t dev_encode_int(const dev_format &f, long long i, lt_cast_mode mode) {
  if (i == 0) return 0;
  unsigned long long mag = i < 0 ? 0ull - (unsigned long long)i : (unsigned long long)i;
  return dev_encode_finite(f, i < 0, mag, 0, mode);
}

/* Widening a narrow format to double is exact; NaNs keep the payload in the
 * top mantissa bits and are quieted (as dtype.c's decode). */
static __device__ double dev_decode(const dev_format &f, uint32_t h) {
  bool neg = (h & dev_sign_bit(f)) != 0;
  uint32_t field = (h >> f.mbits) & ((1u << f.ebits) - 1);
  uint32_t frac = h & ((1u << f.mbits) - 1);
  uint32_t mag = h & (dev_sign_bit(f) - 1);
  bool nan = f.has_inf ? (field == (1u << f.ebits) - 1 && frac) : mag == f.nan;
  if (nan) {
    unsigned long long b = (neg ? 1ull << 63 : 0) | 0x7FF8000000000000ull | ((unsigned long long)frac << (52 - f.mbits));
    return __longlong_as_double((long long)b);
  }
  double v;
  if (f.has_inf && field == (1u << f.ebits) - 1) v = __longlong_as_double(0x7FF0000000000000ll);
  else if (field == 0) v = ldexp((double)frac, 1 - f.bias - f.mbits);
  else v = ldexp((double)(frac | (1u << f.mbits)), (int)field - f.bias - f.mbits);
  return neg ? -v : v;
}

/* float -> double as x86's cvtss2sd: exact, NaNs quieted with payload. */
static __device__ __forceinline__ double dev_f32_to_f64(float x) {
  uint32_t b = __float_as_uint(x);
  if ((b & 0x7FFFFFFFu) > 0x7F800000u) {
    unsigned long long d = ((unsigned long long)(b >> 31) << 63) | 0x7FF8000000000000ull |
                           ((unsigned long long)(b & 0x7FFFFFu) << 29);
    return __longlong_as_double((long long)d);
  }
  return (double)x;
}

/* double -> float as x86's cvtsd2ss: round to nearest even; NaNs keep sign
 * and the payload's top bits, quieted. */
static __device__ __forceinline__ float dev_f64_to_f32(double d) {
  unsigned long long b = (unsigned long long)__double_as_longlong(d);
  if ((b & 0x7FFFFFFFFFFFFFFFull) > 0x7FF0000000000000ull) {
    uint32_t f = (uint32_t)(b >> 63) << 31 | 0x7FC00000u | (uint32_t)((b >> 29) & 0x3FFFFFu);
    return __uint_as_float(f);
  }
  return __double2float_rn(d);
}

/* Reads one element of dtype dt at p (as lt__scalar_load). */
static __device__ dev_scalar dev_load(lt_dtype dt, const char *p) {
  dev_scalar v = {false, 0.0, 0};
  switch (dt) {
  case LT_F32: v.f = dev_f32_to_f64(*(const float *)p); break;
  case LT_F64: v.f = *(const double *)p; break;
  case LT_F16: case LT_BF16: v.f = dev_decode(dev_format_of(dt), *(const uint16_t *)p); break;
  case LT_F8_E4M3: case LT_F8_E5M2: v.f = dev_decode(dev_format_of(dt), *(const uint8_t *)p); break;
  case LT_I32: v.is_int = true; v.i = *(const int32_t *)p; break;
  case LT_I64: v.is_int = true; v.i = *(const long long *)p; break;
  case LT_U8: v.is_int = true; v.i = *(const uint8_t *)p; break;
  case LT_BOOL: v.is_int = true; v.i = *(const uint8_t *)p != 0; break;
  }
  return v;
}

/* Float to integer: truncation toward zero within [lo, hi). */
static __device__ __forceinline__ bool dev_float_to_int(double d, double lo, double hi_exclusive, long long *out) {
  if (isnan(d)) return false;
  double t = trunc(d);
  if (!(t >= lo && t < hi_exclusive)) return false;
  *out = (long long)t;
  return true;
}

static __device__ bool dev_store_int(lt_dtype dt, char *p, dev_scalar v) {
  long long i = v.i;
  if (!v.is_int) {
    if (dt == LT_BOOL) {
      *(uint8_t *)p = v.f != 0; /* NaN is true */
      return true;
    }
    bool ok = dt == LT_I32   ? dev_float_to_int(v.f, -2147483648.0, 2147483648.0, &i)
              : dt == LT_I64 ? dev_float_to_int(v.f, -9223372036854775808.0, 9223372036854775808.0, &i)
                             : dev_float_to_int(v.f, 0.0, 256.0, &i);
    if (!ok) return false;
  }
  switch (dt) {
  case LT_I32: *(int32_t *)p = (int32_t)(uint32_t)(unsigned long long)i; break;
  case LT_I64: *(long long *)p = i; break;
  case LT_U8: *(uint8_t *)p = (uint8_t)(unsigned long long)i; break;
  default: *(uint8_t *)p = i != 0; break;
  }
  return true;
}

/* Writes v as dtype dt at p (as lt__scalar_store). False, nothing written,
 * for a NaN or out-of-range float going to an integer dtype. */
static __device__ bool dev_store(lt_dtype dt, char *p, dev_scalar v, lt_cast_mode mode) {
  if (dev_is_narrow(dt)) {
    dev_format f = dev_format_of(dt);
    uint32_t h = v.is_int ? dev_encode_int(f, v.i, mode) : dev_encode_double(f, v.f, mode);
    if (f.ebits + f.mbits == 15) *(uint16_t *)p = (uint16_t)h;
    else *(uint8_t *)p = (uint8_t)h;
    return true;
  }
  if (dt == LT_F32) {
    float x;
    if (v.is_int) x = __uint_as_float(dev_encode_int(dev_format_of(LT_F32), v.i, mode));
    else x = dev_f64_to_f32(v.f);
    if (mode == LT_CAST_SATURATE && isinf(x)) x = copysignf(3.40282346638528859812e+38f, x);
    *(float *)p = x;
    return true;
  }
  if (dt == LT_F64) {
    double x = v.is_int ? (double)v.i : v.f;
    if (mode == LT_CAST_SATURATE && isinf(x)) x = copysign(1.7976931348623157e308, x);
    *(double *)p = x;
    return true;
  }
  return dev_store_int(dt, p, v);
}

/* ---- the compute types of the elementwise, reduction and softmax kernels
 * (runs.c's load_generic and store_generic) ---- */

static __device__ __forceinline__ float dev_as_f32(dev_scalar v) {
  return v.is_int ? (float)v.i : dev_f64_to_f32(v.f);
}
static __device__ __forceinline__ double dev_as_f64(dev_scalar v) { return v.is_int ? (double)v.i : v.f; }
static __device__ __forceinline__ long long dev_as_i64(dev_scalar v) { return v.is_int ? v.i : (long long)v.f; }

static __device__ __forceinline__ dev_scalar dev_from_f32(float x) { return dev_scalar{false, dev_f32_to_f64(x), 0}; }
static __device__ __forceinline__ dev_scalar dev_from_f64(double x) { return dev_scalar{false, x, 0}; }
static __device__ __forceinline__ dev_scalar dev_from_i64(long long x) { return dev_scalar{true, 0.0, x}; }

#endif
