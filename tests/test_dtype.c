/* Specification of dtypes and casts: the dtype table, lt_cast/lt_to
 * between F32, F64, I32, I64, U8 and BOOL (truncation, range failures,
 * wrapping, rounding once), and the narrow float formats F16, BF16, FP8
 * E4M3 and E5M2: targeted encodings, every bit pattern decoded against
 * the format definition, and narrow-to-narrow casts rounded once. */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "support/check_helpers.h"

static const lt_dtype all_dtypes[] = {LT_F32, LT_F16, LT_BF16, LT_F8_E4M3, LT_F8_E5M2,
                                      LT_F64, LT_I32, LT_I64,  LT_U8,      LT_BOOL};
#define NUM_DTYPES ((int)(sizeof all_dtypes / sizeof all_dtypes[0]))

static size_t dsize(lt_dtype dt) {
  switch (dt) {
  case LT_F64: case LT_I64: return 8;
  case LT_F32: case LT_I32: return 4;
  case LT_F16: case LT_BF16: return 2;
  default: return 1;
  }
}

static double p2(int e) { return ldexp(1.0, e); }

static uint32_t f32_bits(float f) {
  uint32_t b;
  memcpy(&b, &f, 4);
  return b;
}

static float f32_from_bits(uint32_t b) {
  float f;
  memcpy(&f, &b, 4);
  return f;
}

static double f64_from_bits(uint64_t b) {
  double d;
  memcpy(&d, &b, 8);
  return d;
}

/* Casts n elements of src (dtype sdt, 1-D) to ddt and reads the result. */
static void cast_ok(lt_dtype sdt, const void *src, int64_t n, lt_dtype ddt, lt_cast_mode mode, void *out) {
  lt_tensor *t = lt_from_data(src, sdt, 1, &n);
  LT_ASSERT_OK_PTR(t);
  lt_tensor *c = lt_cast(t, ddt, mode);
  LT_ASSERT_OK_PTR(c);
  ck_assert_int_eq(lt_dtype_of(c), ddt);
  LT_ASSERT_GEOMETRY(c, 1, (&n), ((int64_t[]){1}), 0);
  LT_ASSERT_OK(lt_read(c, out, (size_t)n * dsize(ddt)));
  lt_release(c);
  lt_release(t);
}

static void cast_fails(lt_dtype sdt, const void *src, int64_t n, lt_dtype ddt, lt_cast_mode mode) {
  lt_tensor *t = lt_from_data(src, sdt, 1, &n);
  LT_ASSERT_OK_PTR(t);
  LT_ASSERT_FAILS(lt_cast(t, ddt, mode), LT_ERR_ARG);
  lt_release(t);
}

/* One F64 value to a narrow dtype: the result bits. */
static uint32_t narrow_of(lt_dtype dt, double x, lt_cast_mode mode) {
  unsigned char out[2] = {0, 0};
  cast_ok(LT_F64, &x, 1, dt, mode, out);
  return dsize(dt) == 2 ? (uint32_t)out[0] | (uint32_t)out[1] << 8 : out[0];
}

/* One F32 value (given by its bits) to a narrow dtype. */
static uint32_t narrow_of_f32(lt_dtype dt, uint32_t fbits, lt_cast_mode mode) {
  float x = f32_from_bits(fbits);
  unsigned char out[2] = {0, 0};
  cast_ok(LT_F32, &x, 1, dt, mode, out);
  return dsize(dt) == 2 ? (uint32_t)out[0] | (uint32_t)out[1] << 8 : out[0];
}

#if defined(__GNUC__)
#define LT_TEST_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define LT_TEST_PRINTF(f, a)
#endif

#define ASSERT_BITS(got, want) \
  ck_assert_msg((got) == (want), "%s = 0x%X, want 0x%X", #got, (unsigned)(got), (unsigned)(want))

/* ---- the format definitions, written independently of the library ------------- */

typedef struct fmt {
  lt_dtype dt;
  int ebits, mbits, bias;
  bool has_inf; /* IEEE-style; E4M3 has none and only S.1111.111 is NaN */
} fmt;

static const fmt F16 = {LT_F16, 5, 10, 15, true};
static const fmt BF16 = {LT_BF16, 8, 7, 127, true};
static const fmt E4M3 = {LT_F8_E4M3, 4, 3, 7, false};
static const fmt E5M2 = {LT_F8_E5M2, 5, 2, 15, true};
static const fmt *const narrow_fmts[] = {&F16, &BF16, &E4M3, &E5M2};

static uint32_t fmt_sign(const fmt *f) { return 1u << (f->ebits + f->mbits); }
static uint32_t fmt_field_max(const fmt *f) { return (1u << f->ebits) - 1; }
static uint32_t fmt_frac_max(const fmt *f) { return (1u << f->mbits) - 1; }
static uint32_t fmt_inf(const fmt *f) { return fmt_field_max(f) << f->mbits; }
static uint32_t fmt_max_finite(const fmt *f) {
  return f->has_inf ? ((fmt_field_max(f) - 1) << f->mbits) | fmt_frac_max(f)
                    : (fmt_field_max(f) << f->mbits) | (fmt_frac_max(f) - 1);
}

static bool fmt_is_nan(const fmt *f, uint32_t b) {
  uint32_t field = (b >> f->mbits) & fmt_field_max(f), frac = b & fmt_frac_max(f);
  if (f->has_inf) return field == fmt_field_max(f) && frac != 0;
  return field == fmt_field_max(f) && frac == fmt_frac_max(f);
}

static double ref_decode(const fmt *f, uint32_t b) {
  bool neg = b & fmt_sign(f);
  uint32_t field = (b >> f->mbits) & fmt_field_max(f), frac = b & fmt_frac_max(f);
  double v;
  if (fmt_is_nan(f, b)) v = NAN;
  else if (f->has_inf && field == fmt_field_max(f)) v = INFINITY;
  else if (field == 0) v = ldexp((double)frac, 1 - f->bias - f->mbits);
  else v = ldexp((double)(frac + (1u << f->mbits)), (int)field - f->bias - f->mbits);
  return neg ? -v : v;
}

/* Rounds x to the format: nearest, ties to even (rint in the default
 * rounding mode), with the quantum of x's binade (or of the smallest
 * normal binade for subnormals), then applies the overflow rule. */
static uint32_t ref_encode(const fmt *f, double x, lt_cast_mode mode) {
  uint32_t sign = signbit(x) ? fmt_sign(f) : 0;
  uint32_t nan = f->has_inf ? fmt_inf(f) | (1u << (f->mbits - 1)) : fmt_sign(f) - 1;
  uint32_t over = (mode == LT_CAST_SATURATE || !f->has_inf) ? fmt_max_finite(f) : fmt_inf(f);
  if (isnan(x)) return sign | nan;
  if (isinf(x)) return sign | (mode == LT_CAST_SATURATE ? fmt_max_finite(f) : f->has_inf ? fmt_inf(f) : nan);
  double a = fabs(x);
  if (a == 0) return sign;
  int emin = 1 - f->bias, e = ilogb(a);
  if (e < emin) e = emin;
  double q = ldexp(1.0, e - f->mbits);
  double v = rint(a / q) * q;
  if (v > ref_decode(f, fmt_max_finite(f))) return sign | over;
  if (v == 0) return sign;
  int ev = ilogb(v);
  if (ev < emin) return sign | (uint32_t)(v / ldexp(1.0, emin - f->mbits));
  uint32_t frac = (uint32_t)(v / ldexp(1.0, ev - f->mbits) - ldexp(1.0, f->mbits));
  return sign | ((uint32_t)(ev + f->bias) << f->mbits) | frac;
}

static int fmt_count(const fmt *f) { return 1 << (1 + f->ebits + f->mbits); }

/* Every bit pattern of f, as raw little-endian elements of f's dtype. */
static void *all_patterns(const fmt *f) {
  int n = fmt_count(f);
  if (n == 65536) {
    uint16_t *p = malloc(sizeof(uint16_t) * 65536);
    for (int i = 0; i < n; i++) p[i] = (uint16_t)i;
    return p;
  }
  uint8_t *p = malloc(256);
  for (int i = 0; i < n; i++) p[i] = (uint8_t)i;
  return p;
}

static uint32_t pattern_at(const fmt *f, const void *p, int i) {
  return fmt_count(f) == 65536 ? ((const uint16_t *)p)[i] : ((const uint8_t *)p)[i];
}

/* ---- the dtype table ------------------------------------------------------------ */

START_TEST(dtype_size_of_every_dtype) {
  static const size_t want[] = {4, 2, 2, 1, 1, 8, 4, 8, 1, 1};
  for (int k = 0; k < NUM_DTYPES; k++) ck_assert_uint_eq(lt_dtype_size(all_dtypes[k]), want[k]);
}
END_TEST

START_TEST(dtype_name_of_every_dtype) {
  static const char *const want[] = {"f32", "f16", "bf16", "f8_e4m3", "f8_e5m2",
                                     "f64", "i32", "i64",  "u8",      "bool"};
  for (int k = 0; k < NUM_DTYPES; k++) ck_assert_str_eq(lt_dtype_name(all_dtypes[k]), want[k]);
}
END_TEST

START_TEST(invalid_dtype_has_size_0_and_name_invalid) {
  ck_assert_uint_eq(lt_dtype_size((lt_dtype)LT_NUM_DTYPES), 0);
  ck_assert_int_eq(lt_last_status(), LT_ERR_ARG);
  ck_assert_uint_eq(lt_dtype_size((lt_dtype)-1), 0);
  ck_assert_int_eq(lt_last_status(), LT_ERR_ARG);
  ck_assert_str_eq(lt_dtype_name((lt_dtype)LT_NUM_DTYPES), "invalid");
  ck_assert_str_eq(lt_dtype_name((lt_dtype)-1), "invalid");
}
END_TEST

/* ---- casts between the wide dtypes --------------------------------------------- */

static void pack(lt_dtype dt, double v, void *p) {
  switch (dt) {
  case LT_F32: { float x = (float)v; memcpy(p, &x, 4); break; }
  case LT_F64: memcpy(p, &v, 8); break;
  case LT_I32: { int32_t x = (int32_t)v; memcpy(p, &x, 4); break; }
  case LT_I64: { int64_t x = (int64_t)v; memcpy(p, &x, 8); break; }
  default: *(uint8_t *)p = (uint8_t)v; break;
  }
}

static double unpack(lt_dtype dt, const void *p) {
  switch (dt) {
  case LT_F32: { float x; memcpy(&x, p, 4); return x; }
  case LT_F64: { double x; memcpy(&x, p, 8); return x; }
  case LT_I32: { int32_t x; memcpy(&x, p, 4); return x; }
  case LT_I64: { int64_t x; memcpy(&x, p, 8); return (double)x; }
  default: return *(const uint8_t *)p;
  }
}

/* Each source row: values exact in its dtype, and what each kind of
 * target must hold: floats the same value, I32/I64 the truncation, U8 the
 * truncation or the two's-complement wrap, BOOL whether it is nonzero. */
typedef struct cast_row {
  lt_dtype src;
  double vals[6], to_float[6], to_int[6], to_u8[6], to_bool[6];
} cast_row;

static const cast_row cast_rows[] = {
    {LT_F32, {0, 1, 2.75, -0.5, 127.5, 255.25}, {0, 1, 2.75, -0.5, 127.5, 255.25}, {0, 1, 2, 0, 127, 255},
     {0, 1, 2, 0, 127, 255}, {0, 1, 1, 1, 1, 1}},
    {LT_F64, {0, 1, 2.75, -0.5, 127.5, 255.25}, {0, 1, 2.75, -0.5, 127.5, 255.25}, {0, 1, 2, 0, 127, 255},
     {0, 1, 2, 0, 127, 255}, {0, 1, 1, 1, 1, 1}},
    {LT_I32, {0, 1, -1, 200, 256, -129}, {0, 1, -1, 200, 256, -129}, {0, 1, -1, 200, 256, -129},
     {0, 1, 255, 200, 0, 127}, {0, 1, 1, 1, 1, 1}},
    {LT_I64, {0, 1, -1, 200, 256, -129}, {0, 1, -1, 200, 256, -129}, {0, 1, -1, 200, 256, -129},
     {0, 1, 255, 200, 0, 127}, {0, 1, 1, 1, 1, 1}},
    {LT_U8, {0, 1, 255, 128, 7, 200}, {0, 1, 255, 128, 7, 200}, {0, 1, 255, 128, 7, 200},
     {0, 1, 255, 128, 7, 200}, {0, 1, 1, 1, 1, 1}},
    {LT_BOOL, {0, 1, 1, 0, 1, 0}, {0, 1, 1, 0, 1, 0}, {0, 1, 1, 0, 1, 0}, {0, 1, 1, 0, 1, 0}, {0, 1, 1, 0, 1, 0}},
};

START_TEST(cast_between_every_pair_of_wide_dtypes_gives_exact_values) {
  static const lt_dtype targets[] = {LT_F32, LT_F64, LT_I32, LT_I64, LT_U8, LT_BOOL};
  for (size_t r = 0; r < sizeof cast_rows / sizeof cast_rows[0]; r++) {
    const cast_row *row = &cast_rows[r];
    unsigned char src[6 * 8];
    for (int i = 0; i < 6; i++) pack(row->src, row->vals[i], src + i * dsize(row->src));
    for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
      lt_dtype dt = targets[t];
      const double *want = dt == LT_F32 || dt == LT_F64 ? row->to_float
                           : dt == LT_I32 || dt == LT_I64 ? row->to_int
                           : dt == LT_U8                  ? row->to_u8
                                                          : row->to_bool;
      unsigned char out[6 * 8];
      for (int m = 0; m < 2; m++) {
        cast_ok(row->src, src, 6, dt, (lt_cast_mode)m, out);
        for (int i = 0; i < 6; i++)
          ck_assert_msg(unpack(dt, out + i * dsize(dt)) == want[i], "%s -> %s element %d: got %.17g, want %.17g",
                        lt_dtype_name(row->src), lt_dtype_name(dt), i, unpack(dt, out + i * dsize(dt)), want[i]);
      }
    }
  }
}
END_TEST

START_TEST(cast_to_the_same_dtype_copies_into_new_storage) {
  for (int k = 0; k < NUM_DTYPES; k++) {
    lt_dtype dt = all_dtypes[k];
    unsigned char bytes[4 * 8];
    for (size_t i = 0; i < sizeof bytes; i++) bytes[i] = (unsigned char)(i % 2); /* valid in every dtype */
    lt_tensor *t = lt_from_data(bytes, dt, 1, (int64_t[]){4});
    lt_stats_reset(LT_HOST);
    lt_tensor *c = lt_cast(t, dt, LT_CAST_DEFAULT);
    LT_ASSERT_OK_PTR(c);
    ck_assert_ptr_ne(c, t);
    ck_assert(!lt_shares_storage(c, t));
    ck_assert_int_eq(lt_dtype_of(c), dt);
    ck_assert_int_eq(memcmp(lt_data(c), bytes, 4 * dsize(dt)), 0);
    lt_stats s = lt_stats_get(LT_HOST);
    ck_assert_int_eq(s.copies, 1);
    ck_assert_int_eq(s.bytes_copied, (int64_t)(4 * dsize(dt)));
    lt_release(c);
    lt_release(t);
  }
}
END_TEST

START_TEST(cast_of_a_strided_view_is_row_major) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){2, 3});
  lt_tensor *t = lt_transpose(a, 0, 1);
  lt_tensor *c = lt_cast(t, LT_I64, LT_CAST_DEFAULT);
  LT_ASSERT_OK_PTR(c);
  LT_ASSERT_GEOMETRY(c, 2, ((int64_t[]){3, 2}), ((int64_t[]){2, 1}), 0);
  int64_t got[6];
  LT_ASSERT_OK(lt_read(c, got, sizeof got));
  const int64_t want[6] = {0, 3, 1, 4, 2, 5};
  for (int i = 0; i < 6; i++) ck_assert_int_eq(got[i], want[i]);
  lt_release(c);
  lt_release(t);
  lt_release(a);
}
END_TEST

START_TEST(cast_rejects_an_invalid_dtype_or_mode) {
  lt_tensor *a = lt_zeros(LT_F32, 1, (int64_t[]){2}, LT_HOST);
  LT_ASSERT_FAILS(lt_cast(a, (lt_dtype)LT_NUM_DTYPES, LT_CAST_DEFAULT), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_cast(a, LT_F16, (lt_cast_mode)2), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_cast(NULL, LT_F16, LT_CAST_DEFAULT), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_to(NULL, LT_F16), LT_ERR_ARG);
  lt_release(a);
}
END_TEST

START_TEST(to_is_cast_in_default_mode) {
  double v[2] = {1e300, 0.5};
  lt_tensor *t = lt_from_data(v, LT_F64, 1, (int64_t[]){2});
  lt_tensor *c = lt_to(t, LT_F32);
  LT_ASSERT_OK_PTR(c);
  ck_assert_int_eq(lt_dtype_of(c), LT_F32);
  float got[2];
  LT_ASSERT_OK(lt_read(c, got, sizeof got));
  ck_assert(isinf(got[0]) && got[0] > 0);
  ck_assert(got[1] == 0.5f);
  lt_release(c);
  lt_release(t);
}
END_TEST

/* ---- float to integer ---------------------------------------------------------- */

START_TEST(float_to_int_truncates_toward_zero) {
  const double src[6] = {2.9, -2.9, 0.5, -0.5, 1e9 + 0.75, -1e9 - 0.75};
  int32_t i32[6];
  int64_t i64[6];
  cast_ok(LT_F64, src, 6, LT_I32, LT_CAST_DEFAULT, i32);
  cast_ok(LT_F64, src, 6, LT_I64, LT_CAST_DEFAULT, i64);
  const int64_t want[6] = {2, -2, 0, 0, 1000000000, -1000000000};
  for (int i = 0; i < 6; i++) {
    ck_assert_int_eq(i32[i], want[i]);
    ck_assert_int_eq(i64[i], want[i]);
  }
  const float fsrc[3] = {-7.75f, 16777216.0f, 0x1p62f};
  cast_ok(LT_F32, fsrc, 3, LT_I64, LT_CAST_DEFAULT, i64);
  ck_assert_int_eq(i64[0], -7);
  ck_assert_int_eq(i64[1], 16777216);
  ck_assert_int_eq(i64[2], INT64_C(1) << 62);
}
END_TEST

START_TEST(float_to_i32_accepts_values_whose_truncation_fits) {
  const double src[2] = {2147483647.9, -2147483648.9};
  int32_t out[2];
  cast_ok(LT_F64, src, 2, LT_I32, LT_CAST_DEFAULT, out);
  ck_assert_int_eq(out[0], INT32_MAX);
  ck_assert_int_eq(out[1], INT32_MIN);
}
END_TEST

START_TEST(float_to_i32_out_of_range_fails_with_arg) {
  cast_fails(LT_F64, (double[]){0, 2147483648.0}, 2, LT_I32, LT_CAST_DEFAULT);
  cast_fails(LT_F64, (double[]){-2147483649.0}, 1, LT_I32, LT_CAST_DEFAULT);
  cast_fails(LT_F32, (float[]){3e9f}, 1, LT_I32, LT_CAST_DEFAULT);
  cast_fails(LT_F64, (double[]){2147483648.0}, 1, LT_I32, LT_CAST_SATURATE);
}
END_TEST

START_TEST(float_to_i64_covers_exactly_the_int64_range) {
  const double src[2] = {9223372036854774784.0 /* 2^63 - 1024 */, -9223372036854775808.0};
  int64_t out[2];
  cast_ok(LT_F64, src, 2, LT_I64, LT_CAST_DEFAULT, out);
  ck_assert_int_eq(out[0], INT64_C(9223372036854774784));
  ck_assert_int_eq(out[1], INT64_MIN);
  cast_fails(LT_F64, (double[]){9223372036854775808.0}, 1, LT_I64, LT_CAST_DEFAULT);
  cast_fails(LT_F64, (double[]){-9223372036854777856.0}, 1, LT_I64, LT_CAST_DEFAULT);
  cast_fails(LT_F32, (float[]){0x1p63f}, 1, LT_I64, LT_CAST_DEFAULT);
}
END_TEST

START_TEST(float_to_u8_covers_0_to_255_after_truncation) {
  const double src[3] = {255.99, -0.99, 17.5};
  uint8_t out[3];
  cast_ok(LT_F64, src, 3, LT_U8, LT_CAST_DEFAULT, out);
  ck_assert_uint_eq(out[0], 255);
  ck_assert_uint_eq(out[1], 0);
  ck_assert_uint_eq(out[2], 17);
  cast_fails(LT_F64, (double[]){256.0}, 1, LT_U8, LT_CAST_DEFAULT);
  cast_fails(LT_F64, (double[]){-1.0}, 1, LT_U8, LT_CAST_DEFAULT);
  cast_fails(LT_F32, (float[]){1000.0f}, 1, LT_U8, LT_CAST_SATURATE);
}
END_TEST

START_TEST(nan_to_int_fails_with_arg) {
  static const lt_dtype ints[] = {LT_I32, LT_I64, LT_U8};
  for (int k = 0; k < 3; k++) {
    cast_fails(LT_F64, (double[]){1, NAN}, 2, ints[k], LT_CAST_DEFAULT);
    cast_fails(LT_F32, (float[]){NAN}, 1, ints[k], LT_CAST_DEFAULT);
    cast_fails(LT_F64, (double[]){NAN}, 1, ints[k], LT_CAST_SATURATE);
  }
}
END_TEST

START_TEST(inf_to_int_fails_with_arg) {
  static const lt_dtype ints[] = {LT_I32, LT_I64, LT_U8};
  for (int k = 0; k < 3; k++) {
    cast_fails(LT_F64, (double[]){INFINITY}, 1, ints[k], LT_CAST_DEFAULT);
    cast_fails(LT_F32, (float[]){-INFINITY}, 1, ints[k], LT_CAST_DEFAULT);
    cast_fails(LT_F64, (double[]){-INFINITY}, 1, ints[k], LT_CAST_SATURATE);
  }
}
END_TEST

START_TEST(narrow_float_to_int_truncates_and_fails_on_nan_inf_and_range) {
  int32_t i32[3];
  const uint16_t h[3] = {0x7BFF /* 65504 */, 0xC100 /* -2.5 */, 0x3BFF /* 0.99951171875 */};
  cast_ok(LT_F16, h, 3, LT_I32, LT_CAST_DEFAULT, i32);
  ck_assert_int_eq(i32[0], 65504);
  ck_assert_int_eq(i32[1], -2);
  ck_assert_int_eq(i32[2], 0);
  cast_fails(LT_F16, (uint16_t[]){0x7C00}, 1, LT_I32, LT_CAST_DEFAULT);
  cast_fails(LT_F8_E4M3, (uint8_t[]){0x7F}, 1, LT_I64, LT_CAST_DEFAULT);
  cast_fails(LT_F8_E5M2, (uint8_t[]){0x7B /* 57344 */}, 1, LT_U8, LT_CAST_DEFAULT);
  cast_fails(LT_BF16, (uint16_t[]){0x7FC0}, 1, LT_U8, LT_CAST_DEFAULT);
}
END_TEST

/* ---- bool ---------------------------------------------------------------------- */

START_TEST(float_to_bool_is_true_exactly_for_nonzero) {
  const double src[6] = {0.0, -0.0, 0.5, -3, 1e-300, INFINITY};
  uint8_t out[6];
  cast_ok(LT_F64, src, 6, LT_BOOL, LT_CAST_DEFAULT, out);
  const uint8_t want[6] = {0, 0, 1, 1, 1, 1};
  for (int i = 0; i < 6; i++) ck_assert_uint_eq(out[i], want[i]);
  const uint16_t h[3] = {0x8000 /* -0 */, 0x0001 /* 2^-24 */, 0x3C00};
  cast_ok(LT_F16, h, 3, LT_BOOL, LT_CAST_DEFAULT, out);
  ck_assert_uint_eq(out[0], 0);
  ck_assert_uint_eq(out[1], 1);
  ck_assert_uint_eq(out[2], 1);
}
END_TEST

START_TEST(int_to_bool_is_true_for_nonzero_not_wrapped) {
  const int64_t src[5] = {0, 1, -1, 256, INT64_C(1) << 40};
  uint8_t out[5];
  cast_ok(LT_I64, src, 5, LT_BOOL, LT_CAST_DEFAULT, out);
  const uint8_t want[5] = {0, 1, 1, 1, 1};
  for (int i = 0; i < 5; i++) ck_assert_uint_eq(out[i], want[i]);
  cast_ok(LT_I32, (int32_t[]){256, -256, 0}, 3, LT_BOOL, LT_CAST_DEFAULT, out);
  ck_assert_uint_eq(out[0], 1);
  ck_assert_uint_eq(out[1], 1);
  ck_assert_uint_eq(out[2], 0);
  cast_ok(LT_U8, (uint8_t[]){0, 2, 255}, 3, LT_BOOL, LT_CAST_DEFAULT, out);
  ck_assert_uint_eq(out[0], 0);
  ck_assert_uint_eq(out[1], 1);
  ck_assert_uint_eq(out[2], 1);
}
END_TEST

START_TEST(bool_to_every_dtype_is_zero_or_one) {
  const uint8_t src[2] = {0, 1};
  /* one in each format: f32 0x3F800000, f16 0x3C00, bf16 0x3F80, e4m3 0x38, e5m2 0x3C */
  static const uint64_t one_bits[] = {0x3F800000, 0x3C00, 0x3F80, 0x38, 0x3C,
                                      0x3FF0000000000000ull, 1, 1, 1, 1};
  for (int k = 0; k < NUM_DTYPES; k++) {
    unsigned char out[16];
    cast_ok(LT_BOOL, src, 2, all_dtypes[k], LT_CAST_DEFAULT, out);
    size_t es = dsize(all_dtypes[k]);
    uint64_t zero = 0, one = 0;
    memcpy(&zero, out, es);
    memcpy(&one, out + es, es);
    ck_assert_msg(zero == 0, "%s: false is 0x%llX", lt_dtype_name(all_dtypes[k]), (unsigned long long)zero);
    ck_assert_msg(one == one_bits[k], "%s: true is 0x%llX", lt_dtype_name(all_dtypes[k]), (unsigned long long)one);
  }
}
END_TEST

/* ---- integer to integer ----------------------------------------------------------- */

START_TEST(i64_to_i32_wraps_as_twos_complement) {
  const int64_t src[5] = {(INT64_C(1) << 32) + 5, INT64_C(1) << 31, -(INT64_C(1) << 31) - 1, -1, INT64_MAX};
  int32_t out[5];
  cast_ok(LT_I64, src, 5, LT_I32, LT_CAST_DEFAULT, out);
  const int32_t want[5] = {5, INT32_MIN, INT32_MAX, -1, -1};
  for (int i = 0; i < 5; i++) ck_assert_int_eq(out[i], want[i]);
}
END_TEST

START_TEST(i64_to_u8_wraps_modulo_256) {
  const int64_t src[5] = {300, -1, -256, 255, 256};
  uint8_t out[5];
  cast_ok(LT_I64, src, 5, LT_U8, LT_CAST_DEFAULT, out);
  const uint8_t want[5] = {44, 255, 0, 255, 0};
  for (int i = 0; i < 5; i++) ck_assert_uint_eq(out[i], want[i]);
}
END_TEST

START_TEST(i32_to_u8_wraps_modulo_256) {
  uint8_t out[3];
  cast_ok(LT_I32, (int32_t[]){-2, 511, 128}, 3, LT_U8, LT_CAST_SATURATE, out);
  ck_assert_uint_eq(out[0], 254);
  ck_assert_uint_eq(out[1], 255);
  ck_assert_uint_eq(out[2], 128);
}
END_TEST

START_TEST(u8_widens_without_sign_extension) {
  int32_t i32[2];
  int64_t i64[2];
  cast_ok(LT_U8, (uint8_t[]){200, 255}, 2, LT_I32, LT_CAST_DEFAULT, i32);
  cast_ok(LT_U8, (uint8_t[]){200, 255}, 2, LT_I64, LT_CAST_DEFAULT, i64);
  ck_assert_int_eq(i32[0], 200);
  ck_assert_int_eq(i32[1], 255);
  ck_assert_int_eq(i64[0], 200);
  ck_assert_int_eq(i64[1], 255);
}
END_TEST

START_TEST(i32_to_i64_sign_extends) {
  int64_t out[2];
  cast_ok(LT_I32, (int32_t[]){-5, INT32_MIN}, 2, LT_I64, LT_CAST_DEFAULT, out);
  ck_assert_int_eq(out[0], -5);
  ck_assert_int_eq(out[1], INT32_MIN);
}
END_TEST

/* ---- integer to float --------------------------------------------------------------- */

START_TEST(i64_to_f32_rounds_to_nearest_even) {
  const int64_t t24 = INT64_C(1) << 24;
  const int64_t src[5] = {t24 + 1, t24 + 3, t24 + 2, -(t24 + 1), INT64_MAX};
  float out[5];
  cast_ok(LT_I64, src, 5, LT_F32, LT_CAST_DEFAULT, out);
  ck_assert(out[0] == 0x1p24f);
  ck_assert(out[1] == 0x1p24f + 4);
  ck_assert(out[2] == 0x1p24f + 2);
  ck_assert(out[3] == -0x1p24f);
  ck_assert(out[4] == 0x1p63f);
}
END_TEST

START_TEST(i64_to_f32_rounds_once_not_through_f64) {
  /* 2^60 + 2^36 + 1 is just above the f32 midpoint 2^60 + 2^36; through f64
   * it would first become 2^60 + 2^36 and then tie down to 2^60. */
  const int64_t src[2] = {(INT64_C(1) << 60) + (INT64_C(1) << 36) + 1, -((INT64_C(1) << 60) + (INT64_C(1) << 36) + 1)};
  float out[2];
  cast_ok(LT_I64, src, 2, LT_F32, LT_CAST_DEFAULT, out);
  ck_assert(out[0] == 0x1p60f + 0x1p37f);
  ck_assert(out[1] == -(0x1p60f + 0x1p37f));
}
END_TEST

START_TEST(i64_to_f64_rounds_to_nearest_even) {
  const int64_t t53 = INT64_C(1) << 53;
  const int64_t src[5] = {t53 + 1, t53 + 3, INT64_MAX, INT64_MIN, -(t53 + 1)};
  double out[5];
  cast_ok(LT_I64, src, 5, LT_F64, LT_CAST_DEFAULT, out);
  ck_assert(out[0] == 0x1p53);
  ck_assert(out[1] == 0x1p53 + 4);
  ck_assert(out[2] == 0x1p63);
  ck_assert(out[3] == -0x1p63);
  ck_assert(out[4] == -0x1p53);
}
END_TEST

START_TEST(i32_to_f32_rounds_to_nearest_even) {
  float out[3];
  cast_ok(LT_I32, (int32_t[]){INT32_MAX, 16777217, -16777219}, 3, LT_F32, LT_CAST_DEFAULT, out);
  ck_assert(out[0] == 0x1p31f);
  ck_assert(out[1] == 16777216.0f);
  ck_assert(out[2] == -16777220.0f);
}
END_TEST

START_TEST(int_to_narrow_floats_rounds_once_from_the_exact_integer) {
  /* f16: 2049 ties to 2048 (even), 2051 ties to 2052; 65520 overflows */
  uint16_t h[3];
  cast_ok(LT_I64, (int64_t[]){2049, 2051, 65520}, 3, LT_F16, LT_CAST_DEFAULT, h);
  ASSERT_BITS(h[0], 0x6800);
  ASSERT_BITS(h[1], 0x6802);
  ASSERT_BITS(h[2], 0x7C00);
  cast_ok(LT_I32, (int32_t[]){65520, -70000, 0}, 3, LT_F16, LT_CAST_SATURATE, h);
  ASSERT_BITS(h[0], 0x7BFF);
  ASSERT_BITS(h[1], 0xFBFF);
  ASSERT_BITS(h[2], 0x0000);
  /* bf16: 2^60 + 2^52 + 1 is just above the midpoint; through f64 or f32 it
   * would tie down to 2^60 (0x5D80) */
  uint16_t b[1];
  cast_ok(LT_I64, (int64_t[]){(INT64_C(1) << 60) + (INT64_C(1) << 52) + 1}, 1, LT_BF16, LT_CAST_DEFAULT, b);
  ASSERT_BITS(b[0], 0x5D81);
  uint8_t e[3];
  cast_ok(LT_I32, (int32_t[]){1000, -1000, 3}, 3, LT_F8_E4M3, LT_CAST_DEFAULT, e);
  ASSERT_BITS(e[0], 0x7E);
  ASSERT_BITS(e[1], 0xFE);
  ASSERT_BITS(e[2], 0x44);
  cast_ok(LT_I64, (int64_t[]){61440, 57344, -3}, 3, LT_F8_E5M2, LT_CAST_DEFAULT, e);
  ASSERT_BITS(e[0], 0x7C);
  ASSERT_BITS(e[1], 0x7B);
  ASSERT_BITS(e[2], 0xC2);
}
END_TEST

/* ---- f64 <-> f32 ---------------------------------------------------------------------- */

START_TEST(f64_to_f32_rounds_to_nearest_even) {
  const double src[4] = {1 + p2(-24), 1 + 3 * p2(-24), 1 + p2(-24) + p2(-50), 0.1};
  float out[4];
  cast_ok(LT_F64, src, 4, LT_F32, LT_CAST_DEFAULT, out);
  ASSERT_BITS(f32_bits(out[0]), 0x3F800000u);
  ASSERT_BITS(f32_bits(out[1]), 0x3F800002u);
  ASSERT_BITS(f32_bits(out[2]), 0x3F800001u);
  ASSERT_BITS(f32_bits(out[3]), 0x3DCCCCCDu);
}
END_TEST

START_TEST(f64_to_f32_overflow_is_inf_by_default) {
  const double src[4] = {1e300, -1e300, (double)FLT_MAX + p2(103), (double)FLT_MAX + p2(103) - p2(80)};
  float out[4];
  cast_ok(LT_F64, src, 4, LT_F32, LT_CAST_DEFAULT, out);
  ASSERT_BITS(f32_bits(out[0]), 0x7F800000u);
  ASSERT_BITS(f32_bits(out[1]), 0xFF800000u);
  ASSERT_BITS(f32_bits(out[2]), 0x7F800000u); /* the tie rounds to even: 2^128 */
  ASSERT_BITS(f32_bits(out[3]), 0x7F7FFFFFu);
}
END_TEST

START_TEST(f64_to_f32_overflow_saturates_to_flt_max) {
  const double src[4] = {1e300, -1e300, (double)FLT_MAX + p2(103), 3.5};
  float out[4];
  cast_ok(LT_F64, src, 4, LT_F32, LT_CAST_SATURATE, out);
  ck_assert(out[0] == FLT_MAX);
  ck_assert(out[1] == -FLT_MAX);
  ck_assert(out[2] == FLT_MAX);
  ck_assert(out[3] == 3.5f);
}
END_TEST

START_TEST(f64_inf_to_f32_saturates_to_flt_max_and_nan_stays_nan) {
  const double src[3] = {INFINITY, -INFINITY, NAN};
  float out[3];
  cast_ok(LT_F64, src, 3, LT_F32, LT_CAST_SATURATE, out);
  ck_assert(out[0] == FLT_MAX);
  ck_assert(out[1] == -FLT_MAX);
  ck_assert(isnan(out[2]));
}
END_TEST

START_TEST(f64_to_f32_keeps_subnormals_and_signed_zero) {
  const double src[5] = {p2(-149), p2(-150), 3 * p2(-151), -0.0, -p2(-160)};
  float out[5];
  cast_ok(LT_F64, src, 5, LT_F32, LT_CAST_DEFAULT, out);
  ASSERT_BITS(f32_bits(out[0]), 0x00000001u);
  ASSERT_BITS(f32_bits(out[1]), 0x00000000u);
  ASSERT_BITS(f32_bits(out[2]), 0x00000001u);
  ASSERT_BITS(f32_bits(out[3]), 0x80000000u);
  ASSERT_BITS(f32_bits(out[4]), 0x80000000u);
}
END_TEST

START_TEST(f64_nan_and_inf_to_f32_keep_their_sign) {
  const double src[3] = {f64_from_bits(0xFFF8000000000000ull), -INFINITY, INFINITY};
  float out[3];
  cast_ok(LT_F64, src, 3, LT_F32, LT_CAST_DEFAULT, out);
  ck_assert(isnan(out[0]) && signbit(out[0]));
  ASSERT_BITS(f32_bits(out[1]), 0xFF800000u);
  ASSERT_BITS(f32_bits(out[2]), 0x7F800000u);
}
END_TEST

START_TEST(f32_to_f64_is_exact) {
  const float src[5] = {FLT_MAX, 0x1p-149f, -0.0f, 0.1f, f32_from_bits(0xFFC00000u)};
  double out[5];
  cast_ok(LT_F32, src, 5, LT_F64, LT_CAST_DEFAULT, out);
  ck_assert(out[0] == (double)FLT_MAX);
  ck_assert(out[1] == p2(-149));
  ck_assert(out[2] == 0 && signbit(out[2]));
  ck_assert(out[3] == 13421773 * p2(-27));
  ck_assert(isnan(out[4]) && signbit(out[4]));
}
END_TEST

/* ---- F16 ----------------------------------------------------------------------------- */

START_TEST(f16_max_finite_is_65504_and_values_below_65520_round_to_it) {
  for (int m = 0; m < 2; m++) {
    ASSERT_BITS(narrow_of(LT_F16, 65504, (lt_cast_mode)m), 0x7BFF);
    ASSERT_BITS(narrow_of(LT_F16, 65519.99, (lt_cast_mode)m), 0x7BFF);
    ASSERT_BITS(narrow_of(LT_F16, -65519.99, (lt_cast_mode)m), 0xFBFF);
  }
}
END_TEST

START_TEST(f16_overflow_is_inf_by_default_and_65504_when_saturating) {
  ASSERT_BITS(narrow_of(LT_F16, 65520, LT_CAST_DEFAULT), 0x7C00);
  ASSERT_BITS(narrow_of(LT_F16, -65520, LT_CAST_DEFAULT), 0xFC00);
  ASSERT_BITS(narrow_of(LT_F16, 1e10, LT_CAST_DEFAULT), 0x7C00);
  ASSERT_BITS(narrow_of(LT_F16, 65520, LT_CAST_SATURATE), 0x7BFF);
  ASSERT_BITS(narrow_of(LT_F16, -65520, LT_CAST_SATURATE), 0xFBFF);
  ASSERT_BITS(narrow_of(LT_F16, 1e10, LT_CAST_SATURATE), 0x7BFF);
}
END_TEST

START_TEST(f16_inf_stays_inf_by_default_and_becomes_65504_when_saturating) {
  ASSERT_BITS(narrow_of(LT_F16, INFINITY, LT_CAST_DEFAULT), 0x7C00);
  ASSERT_BITS(narrow_of(LT_F16, -INFINITY, LT_CAST_DEFAULT), 0xFC00);
  ASSERT_BITS(narrow_of(LT_F16, INFINITY, LT_CAST_SATURATE), 0x7BFF);
  ASSERT_BITS(narrow_of(LT_F16, -INFINITY, LT_CAST_SATURATE), 0xFBFF);
}
END_TEST

START_TEST(f16_subnormals_round_to_nearest_even) {
  ASSERT_BITS(narrow_of(LT_F16, p2(-24), LT_CAST_DEFAULT), 0x0001);
  ASSERT_BITS(narrow_of(LT_F16, p2(-25), LT_CAST_DEFAULT), 0x0000);     /* tie to even 0 */
  ASSERT_BITS(narrow_of(LT_F16, 3 * p2(-26), LT_CAST_DEFAULT), 0x0001); /* 0.75 ulp */
  ASSERT_BITS(narrow_of(LT_F16, 3 * p2(-25), LT_CAST_DEFAULT), 0x0002); /* 1.5 ulp: tie to even 2 */
  ASSERT_BITS(narrow_of(LT_F16, 5 * p2(-26), LT_CAST_DEFAULT), 0x0001); /* 1.25 ulp */
  ASSERT_BITS(narrow_of(LT_F16, 1023 * p2(-24), LT_CAST_DEFAULT), 0x03FF);
  ASSERT_BITS(narrow_of(LT_F16, 1023.5 * p2(-24), LT_CAST_DEFAULT), 0x0400); /* ties up into the normals */
  ASSERT_BITS(narrow_of(LT_F16, p2(-14), LT_CAST_DEFAULT), 0x0400);
  ASSERT_BITS(narrow_of(LT_F16, -p2(-24), LT_CAST_SATURATE), 0x8001);
  /* an f32 subnormal source is consumed, not flushed */
  ASSERT_BITS(narrow_of_f32(LT_F16, 0x00000001u, LT_CAST_DEFAULT), 0x0000);
  ASSERT_BITS(narrow_of_f32(LT_F16, f32_bits(0x1p-24f), LT_CAST_DEFAULT), 0x0001);
}
END_TEST

START_TEST(f16_normals_round_ties_to_even) {
  ASSERT_BITS(narrow_of(LT_F16, 1.0, LT_CAST_DEFAULT), 0x3C00);
  ASSERT_BITS(narrow_of(LT_F16, 1 + p2(-11), LT_CAST_DEFAULT), 0x3C00);
  ASSERT_BITS(narrow_of(LT_F16, 1 + 3 * p2(-11), LT_CAST_DEFAULT), 0x3C02);
  ASSERT_BITS(narrow_of(LT_F16, 1 + p2(-11) + p2(-30), LT_CAST_DEFAULT), 0x3C01);
  ASSERT_BITS(narrow_of(LT_F16, -2.5, LT_CAST_DEFAULT), 0xC100);
  ASSERT_BITS(narrow_of(LT_F16, 0.1, LT_CAST_DEFAULT), 0x2E66);
}
END_TEST

START_TEST(f16_negative_zero_keeps_its_sign) {
  ASSERT_BITS(narrow_of(LT_F16, -0.0, LT_CAST_DEFAULT), 0x8000);
  ASSERT_BITS(narrow_of(LT_F16, -0.0, LT_CAST_SATURATE), 0x8000);
  ASSERT_BITS(narrow_of(LT_F16, 0.0, LT_CAST_DEFAULT), 0x0000);
  ASSERT_BITS(narrow_of(LT_F16, -p2(-26), LT_CAST_DEFAULT), 0x8000); /* underflows to -0 */
  ASSERT_BITS(narrow_of_f32(LT_F16, 0x80000000u, LT_CAST_DEFAULT), 0x8000);
}
END_TEST

START_TEST(f16_nan_stays_nan_with_its_sign) {
  for (int m = 0; m < 2; m++) {
    uint32_t pos = narrow_of(LT_F16, f64_from_bits(0x7FF8000000000000ull), (lt_cast_mode)m);
    uint32_t neg = narrow_of(LT_F16, f64_from_bits(0xFFF8000000000000ull), (lt_cast_mode)m);
    uint32_t negf = narrow_of_f32(LT_F16, 0xFFC00000u, (lt_cast_mode)m);
    ck_assert_msg(fmt_is_nan(&F16, pos) && !(pos & 0x8000), "+NaN -> 0x%X", pos);
    ck_assert_msg(fmt_is_nan(&F16, neg) && (neg & 0x8000), "-NaN -> 0x%X", neg);
    ck_assert_msg(fmt_is_nan(&F16, negf) && (negf & 0x8000), "-NaN f32 -> 0x%X", negf);
  }
}
END_TEST

START_TEST(f64_to_f16_rounds_once_not_through_f32) {
  /* 1 + 2^-11 + 2^-40 is just above the f16 midpoint; through f32 it would
   * become 1 + 2^-11 and tie down to 1.0. */
  ASSERT_BITS(narrow_of(LT_F16, 1 + p2(-11) + p2(-40), LT_CAST_DEFAULT), 0x3C01);
  ASSERT_BITS(narrow_of(LT_F16, -(1 + p2(-11) + p2(-40)), LT_CAST_DEFAULT), 0xBC01);
}
END_TEST

/* ---- BF16 ---------------------------------------------------------------------------- */

START_TEST(bf16_flt_max_rounds_to_inf_by_default_and_0x7f7f_when_saturating) {
  ASSERT_BITS(narrow_of_f32(LT_BF16, 0x7F7FFFFFu, LT_CAST_DEFAULT), 0x7F80);
  ASSERT_BITS(narrow_of_f32(LT_BF16, 0xFF7FFFFFu, LT_CAST_DEFAULT), 0xFF80);
  ASSERT_BITS(narrow_of_f32(LT_BF16, 0x7F7FFFFFu, LT_CAST_SATURATE), 0x7F7F);
  ASSERT_BITS(narrow_of_f32(LT_BF16, 0xFF7FFFFFu, LT_CAST_SATURATE), 0xFF7F);
  ASSERT_BITS(narrow_of(LT_BF16, 1e300, LT_CAST_DEFAULT), 0x7F80);
  ASSERT_BITS(narrow_of(LT_BF16, 1e300, LT_CAST_SATURATE), 0x7F7F);
  ASSERT_BITS(narrow_of(LT_BF16, INFINITY, LT_CAST_DEFAULT), 0x7F80);
  ASSERT_BITS(narrow_of(LT_BF16, -INFINITY, LT_CAST_SATURATE), 0xFF7F);
}
END_TEST

START_TEST(bf16_rounds_ties_to_even) {
  ASSERT_BITS(narrow_of_f32(LT_BF16, 0x3F800000u, LT_CAST_DEFAULT), 0x3F80);
  ASSERT_BITS(narrow_of_f32(LT_BF16, 0x3F808000u, LT_CAST_DEFAULT), 0x3F80); /* tie, 0x3F80 even */
  ASSERT_BITS(narrow_of_f32(LT_BF16, 0x3F818000u, LT_CAST_DEFAULT), 0x3F82); /* tie, 0x3F81 odd */
  ASSERT_BITS(narrow_of_f32(LT_BF16, 0x3F808001u, LT_CAST_DEFAULT), 0x3F81);
  ASSERT_BITS(narrow_of_f32(LT_BF16, 0x3F807FFFu, LT_CAST_DEFAULT), 0x3F80);
  ASSERT_BITS(narrow_of_f32(LT_BF16, 0xBF818000u, LT_CAST_DEFAULT), 0xBF82);
  ASSERT_BITS(narrow_of_f32(LT_BF16, 0x7F7F8000u, LT_CAST_DEFAULT), 0x7F80); /* tie at the top: up to inf */
  ASSERT_BITS(narrow_of_f32(LT_BF16, 0x7F7F7FFFu, LT_CAST_DEFAULT), 0x7F7F);
}
END_TEST

START_TEST(bf16_keeps_subnormals_signed_zero_and_nan_sign) {
  ASSERT_BITS(narrow_of_f32(LT_BF16, f32_bits(0x1p-133f), LT_CAST_DEFAULT), 0x0001);
  ASSERT_BITS(narrow_of(LT_BF16, p2(-134), LT_CAST_DEFAULT), 0x0000);     /* tie to even 0 */
  ASSERT_BITS(narrow_of(LT_BF16, 3 * p2(-135), LT_CAST_DEFAULT), 0x0001); /* 0.75 ulp */
  ASSERT_BITS(narrow_of(LT_BF16, -p2(-140), LT_CAST_DEFAULT), 0x8000);
  ASSERT_BITS(narrow_of(LT_BF16, -0.0, LT_CAST_DEFAULT), 0x8000);
  uint32_t n = narrow_of_f32(LT_BF16, 0xFFC00001u, LT_CAST_DEFAULT);
  ck_assert_msg(fmt_is_nan(&BF16, n) && (n & 0x8000), "-NaN -> 0x%X", n);
  n = narrow_of(LT_BF16, f64_from_bits(0x7FF8000000000000ull), LT_CAST_SATURATE);
  ck_assert_msg(fmt_is_nan(&BF16, n) && !(n & 0x8000), "+NaN -> 0x%X", n);
}
END_TEST

START_TEST(f64_to_bf16_rounds_once_not_through_f32) {
  /* 1 + 2^-8 + 2^-30 is above the bf16 midpoint; through f32 it would be
   * 1 + 2^-8 exactly and tie down to 1.0. */
  ASSERT_BITS(narrow_of(LT_BF16, 1 + p2(-8) + p2(-30), LT_CAST_DEFAULT), 0x3F81);
}
END_TEST

/* ---- E4M3 ------------------------------------------------------------------------------ */

START_TEST(e4m3_max_finite_is_448) {
  for (int m = 0; m < 2; m++) {
    ASSERT_BITS(narrow_of(LT_F8_E4M3, 448, (lt_cast_mode)m), 0x7E);
    ASSERT_BITS(narrow_of(LT_F8_E4M3, -448, (lt_cast_mode)m), 0xFE);
    ASSERT_BITS(narrow_of(LT_F8_E4M3, 416, (lt_cast_mode)m), 0x7D);
  }
}
END_TEST

START_TEST(e4m3_finite_overflow_saturates_to_448_even_in_default_mode) {
  for (int m = 0; m < 2; m++) {
    ASSERT_BITS(narrow_of(LT_F8_E4M3, 464, (lt_cast_mode)m), 0x7E);
    ASSERT_BITS(narrow_of(LT_F8_E4M3, 465, (lt_cast_mode)m), 0x7E);
    ASSERT_BITS(narrow_of(LT_F8_E4M3, 500, (lt_cast_mode)m), 0x7E);
    ASSERT_BITS(narrow_of(LT_F8_E4M3, 1e30, (lt_cast_mode)m), 0x7E);
    ASSERT_BITS(narrow_of(LT_F8_E4M3, -1e30, (lt_cast_mode)m), 0xFE);
  }
}
END_TEST

START_TEST(e4m3_inf_becomes_nan_by_default_and_448_when_saturating) {
  ASSERT_BITS(narrow_of(LT_F8_E4M3, INFINITY, LT_CAST_DEFAULT), 0x7F);
  uint32_t n = narrow_of(LT_F8_E4M3, -INFINITY, LT_CAST_DEFAULT);
  ck_assert_msg(fmt_is_nan(&E4M3, n), "-inf -> 0x%X", n);
  ASSERT_BITS(narrow_of(LT_F8_E4M3, INFINITY, LT_CAST_SATURATE), 0x7E);
  ASSERT_BITS(narrow_of(LT_F8_E4M3, -INFINITY, LT_CAST_SATURATE), 0xFE);
}
END_TEST

START_TEST(e4m3_nan_stays_nan_with_its_sign) {
  for (int m = 0; m < 2; m++) {
    ASSERT_BITS(narrow_of(LT_F8_E4M3, f64_from_bits(0x7FF8000000000000ull), (lt_cast_mode)m), 0x7F);
    ASSERT_BITS(narrow_of(LT_F8_E4M3, f64_from_bits(0xFFF8000000000000ull), (lt_cast_mode)m), 0xFF);
  }
}
END_TEST

START_TEST(e4m3_subnormals_and_normals_round_to_nearest_even) {
  ASSERT_BITS(narrow_of(LT_F8_E4M3, p2(-9), LT_CAST_DEFAULT), 0x01);
  ASSERT_BITS(narrow_of(LT_F8_E4M3, p2(-10), LT_CAST_DEFAULT), 0x00);     /* tie to even 0 */
  ASSERT_BITS(narrow_of(LT_F8_E4M3, 3 * p2(-11), LT_CAST_DEFAULT), 0x01); /* 0.75 ulp */
  ASSERT_BITS(narrow_of(LT_F8_E4M3, 7 * p2(-9), LT_CAST_DEFAULT), 0x07);
  ASSERT_BITS(narrow_of(LT_F8_E4M3, p2(-6), LT_CAST_DEFAULT), 0x08);
  ASSERT_BITS(narrow_of(LT_F8_E4M3, -p2(-9), LT_CAST_DEFAULT), 0x81);
  ASSERT_BITS(narrow_of(LT_F8_E4M3, -0.0, LT_CAST_DEFAULT), 0x80);
  ASSERT_BITS(narrow_of(LT_F8_E4M3, 1.0, LT_CAST_DEFAULT), 0x38);
  ASSERT_BITS(narrow_of(LT_F8_E4M3, 1.0625, LT_CAST_DEFAULT), 0x38); /* tie to even */
  ASSERT_BITS(narrow_of(LT_F8_E4M3, 1.1875, LT_CAST_DEFAULT), 0x3A); /* tie to even */
  ASSERT_BITS(narrow_of(LT_F8_E4M3, 240, LT_CAST_DEFAULT), 0x77);
}
END_TEST

START_TEST(f64_to_e4m3_rounds_once_not_through_f16) {
  /* 1 + 2^-4 + 2^-12 is above the e4m3 midpoint 1 + 2^-4; through f16 it
   * would become 1 + 2^-4 and tie down to 1.0. */
  ASSERT_BITS(narrow_of(LT_F8_E4M3, 1 + p2(-4) + p2(-12), LT_CAST_DEFAULT), 0x39);
}
END_TEST

/* ---- E5M2 ------------------------------------------------------------------------------- */

START_TEST(e5m2_max_finite_is_57344) {
  for (int m = 0; m < 2; m++) {
    ASSERT_BITS(narrow_of(LT_F8_E5M2, 57344, (lt_cast_mode)m), 0x7B);
    ASSERT_BITS(narrow_of(LT_F8_E5M2, 61439, (lt_cast_mode)m), 0x7B);
    ASSERT_BITS(narrow_of(LT_F8_E5M2, -57344, (lt_cast_mode)m), 0xFB);
  }
}
END_TEST

START_TEST(e5m2_overflow_is_inf_by_default_and_57344_when_saturating) {
  ASSERT_BITS(narrow_of(LT_F8_E5M2, 61440, LT_CAST_DEFAULT), 0x7C);
  ASSERT_BITS(narrow_of(LT_F8_E5M2, -61440, LT_CAST_DEFAULT), 0xFC);
  ASSERT_BITS(narrow_of(LT_F8_E5M2, INFINITY, LT_CAST_DEFAULT), 0x7C);
  ASSERT_BITS(narrow_of(LT_F8_E5M2, 61440, LT_CAST_SATURATE), 0x7B);
  ASSERT_BITS(narrow_of(LT_F8_E5M2, -61440, LT_CAST_SATURATE), 0xFB);
  ASSERT_BITS(narrow_of(LT_F8_E5M2, -INFINITY, LT_CAST_SATURATE), 0xFB);
}
END_TEST

START_TEST(e5m2_subnormals_round_to_nearest_even) {
  ASSERT_BITS(narrow_of(LT_F8_E5M2, p2(-16), LT_CAST_DEFAULT), 0x01);
  ASSERT_BITS(narrow_of(LT_F8_E5M2, p2(-17), LT_CAST_DEFAULT), 0x00);     /* tie to even 0 */
  ASSERT_BITS(narrow_of(LT_F8_E5M2, 3 * p2(-18), LT_CAST_DEFAULT), 0x01); /* 0.75 ulp */
  ASSERT_BITS(narrow_of(LT_F8_E5M2, 3 * p2(-17), LT_CAST_DEFAULT), 0x02); /* 1.5 ulp: tie to even 2 */
  ASSERT_BITS(narrow_of(LT_F8_E5M2, p2(-14), LT_CAST_DEFAULT), 0x04);
  ASSERT_BITS(narrow_of(LT_F8_E5M2, 1.0, LT_CAST_DEFAULT), 0x3C);
  ASSERT_BITS(narrow_of(LT_F8_E5M2, -0.0, LT_CAST_DEFAULT), 0x80);
}
END_TEST

START_TEST(e5m2_nan_stays_nan_with_its_sign) {
  for (int m = 0; m < 2; m++) {
    uint32_t pos = narrow_of(LT_F8_E5M2, f64_from_bits(0x7FF8000000000000ull), (lt_cast_mode)m);
    uint32_t neg = narrow_of(LT_F8_E5M2, f64_from_bits(0xFFF8000000000000ull), (lt_cast_mode)m);
    ck_assert_msg(fmt_is_nan(&E5M2, pos) && !(pos & 0x80), "+NaN -> 0x%X", pos);
    ck_assert_msg(fmt_is_nan(&E5M2, neg) && (neg & 0x80), "-NaN -> 0x%X", neg);
  }
}
END_TEST

/* ---- every bit pattern of each narrow format -------------------------------------------- */

/* Sweeps count their mismatches and keep the first, so that one assertion
 * (not one per element) reports them. */
typedef struct mismatches {
  int count;
  char first[256];
} mismatches;

static void expect(mismatches *m, bool ok, const char *format, ...) LT_TEST_PRINTF(3, 4);
static void expect(mismatches *m, bool ok, const char *format, ...) {
  if (ok) return;
  if (m->count++ == 0) {
    va_list ap;
    va_start(ap, format);
    vsnprintf(m->first, sizeof m->first, format, ap);
    va_end(ap);
  }
}

#define ASSERT_NO_MISMATCHES(m) ck_assert_msg((m).count == 0, "%d mismatches, the first: %s", (m).count, (m).first)

/* Decodes all patterns of narrow_fmts[_i] through lt_cast to F64 and F32,
 * compares with the definition, and casts the decoded values back. */
START_TEST(every_narrow_bit_pattern_decodes_to_its_defined_value_and_round_trips) {
  const fmt *f = narrow_fmts[_i];
  int n = fmt_count(f);
  int64_t shape = n;
  void *pats = all_patterns(f);
  lt_tensor *t = lt_from_data(pats, f->dt, 1, &shape);
  LT_ASSERT_OK_PTR(t);
  static const lt_dtype wides[] = {LT_F64, LT_F32};
  mismatches bad = {0};
  for (int w = 0; w < 2; w++) {
    const char *wn = lt_dtype_name(wides[w]), *fn = lt_dtype_name(f->dt);
    lt_tensor *d = lt_to(t, wides[w]);
    LT_ASSERT_OK_PTR(d);
    double *vals = malloc(sizeof(double) * (size_t)n);
    if (wides[w] == LT_F64) {
      LT_ASSERT_OK(lt_read(d, vals, sizeof(double) * (size_t)n));
    } else {
      float *fv = malloc(sizeof(float) * (size_t)n);
      LT_ASSERT_OK(lt_read(d, fv, sizeof(float) * (size_t)n));
      for (int i = 0; i < n; i++) vals[i] = fv[i];
      free(fv);
    }
    for (int i = 0; i < n; i++) {
      uint32_t b = pattern_at(f, pats, i);
      double want = ref_decode(f, b);
      bool same_sign = !signbit(vals[i]) == !signbit(want);
      if (isnan(want))
        expect(&bad, isnan(vals[i]) && same_sign, "%s 0x%X -> %s: %g, want NaN", fn, b, wn, vals[i]);
      else
        expect(&bad, vals[i] == want && same_sign, "%s 0x%X -> %s: %.17g, want %.17g", fn, b, wn, vals[i], want);
    }
    for (int m = 0; m < 2; m++) {
      lt_tensor *back = lt_cast(d, f->dt, (lt_cast_mode)m);
      LT_ASSERT_OK_PTR(back);
      void *got = malloc(dsize(f->dt) * (size_t)n);
      LT_ASSERT_OK(lt_read(back, got, dsize(f->dt) * (size_t)n));
      for (int i = 0; i < n; i++) {
        uint32_t b = pattern_at(f, pats, i), r = pattern_at(f, got, i), sign = b & fmt_sign(f);
        if (fmt_is_nan(f, b))
          expect(&bad, fmt_is_nan(f, r) && (r & fmt_sign(f)) == sign, "%s NaN 0x%X via %s came back as 0x%X", fn,
                 b, wn, r);
        else if (m == LT_CAST_SATURATE && f->has_inf && (b & (fmt_sign(f) - 1)) == fmt_inf(f))
          expect(&bad, r == (sign | fmt_max_finite(f)), "%s inf 0x%X via %s saturated to 0x%X", fn, b, wn, r);
        else
          expect(&bad, r == b, "%s 0x%X via %s came back as 0x%X (mode %d)", fn, b, wn, r, m);
      }
      free(got);
      lt_release(back);
    }
    free(vals);
    lt_release(d);
  }
  lt_release(t);
  free(pats);
  ASSERT_NO_MISMATCHES(bad);
}
END_TEST

/* ---- narrow to narrow --------------------------------------------------------------------- */

/* All 12 ordered pairs of distinct narrow formats: every source pattern
 * cast directly must equal encoding its exact value into the target. */
START_TEST(narrow_to_narrow_casts_equal_encoding_the_exact_value) {
  const fmt *src = narrow_fmts[_i / 3];
  const fmt *dst = narrow_fmts[(_i / 3 + 1 + _i % 3) % 4];
  const char *sn = lt_dtype_name(src->dt), *dn = lt_dtype_name(dst->dt);
  int n = fmt_count(src);
  int64_t shape = n;
  void *pats = all_patterns(src);
  lt_tensor *t = lt_from_data(pats, src->dt, 1, &shape);
  LT_ASSERT_OK_PTR(t);
  mismatches bad = {0};
  for (int m = 0; m < 2; m++) {
    lt_tensor *c = lt_cast(t, dst->dt, (lt_cast_mode)m);
    LT_ASSERT_OK_PTR(c);
    void *got = malloc(dsize(dst->dt) * (size_t)n);
    LT_ASSERT_OK(lt_read(c, got, dsize(dst->dt) * (size_t)n));
    for (int i = 0; i < n; i++) {
      uint32_t b = pattern_at(src, pats, i), r = pattern_at(dst, got, i);
      double x = ref_decode(src, b);
      uint32_t want = ref_encode(dst, x, (lt_cast_mode)m);
      if (fmt_is_nan(dst, want)) {
        /* NaN keeps its sign; inf turned NaN (E4M3) may have either */
        bool sign_ok = !isnan(x) || (r & fmt_sign(dst)) == (want & fmt_sign(dst));
        expect(&bad, fmt_is_nan(dst, r) && sign_ok, "%s 0x%X -> %s mode %d: 0x%X, want NaN 0x%X", sn, b, dn, m, r,
               want);
      } else {
        expect(&bad, r == want, "%s 0x%X (%.17g) -> %s mode %d: 0x%X, want 0x%X", sn, b, x, dn, m, r, want);
      }
    }
    free(got);
    lt_release(c);
  }
  lt_release(t);
  free(pats);
  ASSERT_NO_MISMATCHES(bad);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("dtype");
  TCase *table = tcase_create("table");
  tcase_add_test(table, dtype_size_of_every_dtype);
  tcase_add_test(table, dtype_name_of_every_dtype);
  tcase_add_test(table, invalid_dtype_has_size_0_and_name_invalid);
  suite_add_tcase(s, table);

  TCase *wide = tcase_create("wide_casts");
  tcase_add_test(wide, cast_between_every_pair_of_wide_dtypes_gives_exact_values);
  tcase_add_test(wide, cast_to_the_same_dtype_copies_into_new_storage);
  tcase_add_test(wide, cast_of_a_strided_view_is_row_major);
  tcase_add_test(wide, cast_rejects_an_invalid_dtype_or_mode);
  tcase_add_test(wide, to_is_cast_in_default_mode);
  tcase_add_test(wide, float_to_int_truncates_toward_zero);
  tcase_add_test(wide, float_to_i32_accepts_values_whose_truncation_fits);
  tcase_add_test(wide, float_to_i32_out_of_range_fails_with_arg);
  tcase_add_test(wide, float_to_i64_covers_exactly_the_int64_range);
  tcase_add_test(wide, float_to_u8_covers_0_to_255_after_truncation);
  tcase_add_test(wide, nan_to_int_fails_with_arg);
  tcase_add_test(wide, inf_to_int_fails_with_arg);
  tcase_add_test(wide, narrow_float_to_int_truncates_and_fails_on_nan_inf_and_range);
  tcase_add_test(wide, float_to_bool_is_true_exactly_for_nonzero);
  tcase_add_test(wide, int_to_bool_is_true_for_nonzero_not_wrapped);
  tcase_add_test(wide, bool_to_every_dtype_is_zero_or_one);
  tcase_add_test(wide, i64_to_i32_wraps_as_twos_complement);
  tcase_add_test(wide, i64_to_u8_wraps_modulo_256);
  tcase_add_test(wide, i32_to_u8_wraps_modulo_256);
  tcase_add_test(wide, u8_widens_without_sign_extension);
  tcase_add_test(wide, i32_to_i64_sign_extends);
  tcase_add_test(wide, i64_to_f32_rounds_to_nearest_even);
  tcase_add_test(wide, i64_to_f32_rounds_once_not_through_f64);
  tcase_add_test(wide, i64_to_f64_rounds_to_nearest_even);
  tcase_add_test(wide, i32_to_f32_rounds_to_nearest_even);
  tcase_add_test(wide, int_to_narrow_floats_rounds_once_from_the_exact_integer);
  tcase_add_test(wide, f64_to_f32_rounds_to_nearest_even);
  tcase_add_test(wide, f64_to_f32_overflow_is_inf_by_default);
  tcase_add_test(wide, f64_to_f32_overflow_saturates_to_flt_max);
  tcase_add_test(wide, f64_inf_to_f32_saturates_to_flt_max_and_nan_stays_nan);
  tcase_add_test(wide, f64_to_f32_keeps_subnormals_and_signed_zero);
  tcase_add_test(wide, f64_nan_and_inf_to_f32_keep_their_sign);
  tcase_add_test(wide, f32_to_f64_is_exact);
  suite_add_tcase(s, wide);

  TCase *narrow = tcase_create("narrow_formats");
  tcase_add_test(narrow, f16_max_finite_is_65504_and_values_below_65520_round_to_it);
  tcase_add_test(narrow, f16_overflow_is_inf_by_default_and_65504_when_saturating);
  tcase_add_test(narrow, f16_inf_stays_inf_by_default_and_becomes_65504_when_saturating);
  tcase_add_test(narrow, f16_subnormals_round_to_nearest_even);
  tcase_add_test(narrow, f16_normals_round_ties_to_even);
  tcase_add_test(narrow, f16_negative_zero_keeps_its_sign);
  tcase_add_test(narrow, f16_nan_stays_nan_with_its_sign);
  tcase_add_test(narrow, f64_to_f16_rounds_once_not_through_f32);
  tcase_add_test(narrow, bf16_flt_max_rounds_to_inf_by_default_and_0x7f7f_when_saturating);
  tcase_add_test(narrow, bf16_rounds_ties_to_even);
  tcase_add_test(narrow, bf16_keeps_subnormals_signed_zero_and_nan_sign);
  tcase_add_test(narrow, f64_to_bf16_rounds_once_not_through_f32);
  tcase_add_test(narrow, e4m3_max_finite_is_448);
  tcase_add_test(narrow, e4m3_finite_overflow_saturates_to_448_even_in_default_mode);
  tcase_add_test(narrow, e4m3_inf_becomes_nan_by_default_and_448_when_saturating);
  tcase_add_test(narrow, e4m3_nan_stays_nan_with_its_sign);
  tcase_add_test(narrow, e4m3_subnormals_and_normals_round_to_nearest_even);
  tcase_add_test(narrow, f64_to_e4m3_rounds_once_not_through_f16);
  tcase_add_test(narrow, e5m2_max_finite_is_57344);
  tcase_add_test(narrow, e5m2_overflow_is_inf_by_default_and_57344_when_saturating);
  tcase_add_test(narrow, e5m2_subnormals_round_to_nearest_even);
  tcase_add_test(narrow, e5m2_nan_stays_nan_with_its_sign);
  suite_add_tcase(s, narrow);

  TCase *sweep = tcase_create("bit_patterns");
  tcase_set_timeout(sweep, 60);
  tcase_add_loop_test(sweep, every_narrow_bit_pattern_decodes_to_its_defined_value_and_round_trips, 0, 4);
  tcase_add_loop_test(sweep, narrow_to_narrow_casts_equal_encoding_the_exact_value, 0, 12);
  suite_add_tcase(s, sweep);
  return s;
}

int main(void) { return lt_run_suite(suite()); }
