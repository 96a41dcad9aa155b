/* The cast kernels of backends/cpu/cast, quickly: every path this CPU runs
 * (scalar, AVX2, AVX-512) against the scalar reference of libtensor/dtype.c,
 * bit for bit, on every narrow bit pattern widened, on structured float32
 * inputs that hit every tie and rounding boundary of each format, on run
 * lengths 0..67 and misaligned pointers, and through lt_copy/lt_cast on
 * strided views. The full 2^32 sweep is test_cast_exhaustive.c. */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#include "cast.h"
#include "dtype.h"
#include "support/check_helpers.h"

typedef struct fmt {
  lt_dtype dt;
  const char *name;
  int mbits, bias, emax; /* emax: the exponent of the top finite binade */
  uint32_t max_finite;   /* magnitude bits */
  uint32_t nan;          /* magnitude bits of the NaN every NaN encodes to */
} fmt;

/* Indexed as cast.h indexes formats; loop tests take this index. */
static const fmt FORMATS[4] = {
    {LT_F16, "f16", 10, 15, 15, 0x7BFF, 0x7E00},
    {LT_BF16, "bf16", 7, 127, 127, 0x7F7F, 0x7FC0},
    {LT_F8_E4M3, "e4m3", 3, 7, 8, 0x7E, 0x7F},
    {LT_F8_E5M2, "e5m2", 2, 15, 15, 0x7B, 0x7E},
};
#define F16_FMT (&FORMATS[0])
#define BF16_FMT (&FORMATS[1])
#define E4M3_FMT (&FORMATS[2])
#define E5M2_FMT (&FORMATS[3])

static const char *const PATH_NAMES[LT__CAST_NPATHS] = {"scalar", "avx2", "avx512", "avx512bf16"};
static const char *const MODE_NAMES[2] = {"default", "saturate"};

/* Large enough for the largest structured sweep (F16: 44 exponents * 1024
 * mantissas * 6 low patterns * 2 signs). Buffers are static so that a
 * failing assert leaks nothing under CK_FORK=no. */
#define MAX_INPUTS 600000
static uint32_t inputs[MAX_INPUTS];
static uint8_t want_buf[MAX_INPUTS * 4], got_buf[MAX_INPUTS * 4 + 64];

static uint32_t bits_of(float x) {
  uint32_t b;
  memcpy(&b, &x, 4);
  return b;
}

static float float_of(uint32_t b) {
  float x;
  memcpy(&x, &b, 4);
  return x;
}

static size_t fmt_size(const fmt *f) { return lt__dtype_size(f->dt); }
static uint32_t sign_bit(const fmt *f) { return fmt_size(f) == 2 ? 0x8000u : 0x80u; }

/* Element i of a little-endian array of es-byte codes. */
static uint32_t get_elem(const void *p, size_t es, int64_t i) {
  const uint8_t *b = (const uint8_t *)p + (size_t)i * es;
  if (es == 1) return b[0];
  if (es == 2) { uint16_t h; memcpy(&h, b, 2); return h; }
  uint32_t w;
  memcpy(&w, b, 4);
  return w;
}

static void put_elem(void *p, size_t es, int64_t i, uint32_t v) {
  uint8_t *b = (uint8_t *)p + (size_t)i * es;
  if (es == 1) b[0] = (uint8_t)v;
  else if (es == 2) { uint16_t h = (uint16_t)v; memcpy(b, &h, 2); }
  else memcpy(b, &v, 4);
}

/* ---- the reference ------------------------------------------------------------------------- */

static uint32_t ref_encode(const fmt *f, uint32_t x, lt_cast_mode mode) {
  uint8_t out[4] = {0};
  lt__scalar_store(f->dt, out, (lt__scalar){.f = float_of(x)}, mode);
  return get_elem(out, fmt_size(f), 0);
}

static uint32_t ref_decode(const fmt *f, uint32_t h, lt_cast_mode mode) {
  uint8_t in[4], out[4];
  put_elem(in, fmt_size(f), 0, h);
  lt__scalar_store(LT_F32, out, lt__scalar_load(f->dt, in), mode);
  return get_elem(out, 4, 0);
}

/* ---- inputs ------------------------------------------------------------------------------- */

/* For every float32 exponent from the format's smallest subnormal exponent
 * - 2 to its largest exponent + 2 (clamped to float32's fields, field 0
 * being the float32 subnormals), every mantissa whose dropped low bits are
 * 0, 1, half-1, half, half+1 or all ones, both signs. Returns the count,
 * writing at most MAX_INPUTS. */
static int64_t structured_inputs(const fmt *f, uint32_t *out) {
  int drop = 23 - f->mbits;
  uint32_t half = 1u << (drop - 1);
  const uint32_t lows[6] = {0, 1, half - 1, half, half + 1, (1u << drop) - 1};
  int lo = (1 - f->bias - f->mbits - 2) + 127, hi = (f->emax + 2) + 127;
  if (lo < 0) lo = 0;
  if (hi > 255) hi = 255;
  int64_t n = 0;
  for (uint32_t field = (uint32_t)lo; field <= (uint32_t)hi; field++)
    for (uint32_t top = 0; top < (1u << f->mbits); top++)
      for (int k = 0; k < 6; k++)
        for (uint32_t sign = 0; sign < 2; sign++, n++)
          if (n < MAX_INPUTS) out[n] = sign << 31 | field << 23 | top << drop | lows[k];
  return n;
}

static const uint32_t NAN_INPUTS[] = {0x7FC00000, 0x7F800001, 0x7FBFFFFF, 0x7FC12345,
                                      0x7FFFFFFF, 0x7FA00000, 0x7F802000};
#define NUM_NAN_INPUTS ((int)(sizeof NAN_INPUTS / sizeof NAN_INPUTS[0]))

/* The values at the format's edges, both signs: max finite and its
 * neighbours, the overflow tie and its neighbours, the smallest subnormal,
 * half of it (a tie to 0) and its neighbours, the subnormal/normal border,
 * the values the API names, zero, inf, FLT_MAX, float32 subnormals, NaNs. */
static int boundary_inputs(const fmt *f, uint32_t *out) {
  float max = float_of(ref_decode(f, f->max_finite, LT_CAST_DEFAULT));
  float tie = (float)((double)max + ldexp(1.0, f->emax - f->mbits - 1));
  float sub = ldexpf(1.0f, 1 - f->bias - f->mbits), norm = ldexpf(1.0f, 1 - f->bias);
  const float mags[] = {max, nextafterf(max, 0), nextafterf(max, INFINITY), nextafterf(tie, 0), tie,
                        nextafterf(tie, INFINITY), 2 * max, sub, sub / 2, nextafterf(sub / 2, 0),
                        nextafterf(sub / 2, INFINITY), 1.5f * sub, 2.5f * sub, 3 * sub, norm,
                        nextafterf(norm, 0), nextafterf(norm, INFINITY), norm - sub / 2, 1.0f, 448, 464, 480,
                        57344, 61440, 65504, 65520, FLT_MAX, FLT_MIN, INFINITY, 0};
  const uint32_t raw[] = {0x00000001, 0x00000002, 0x00008000, 0x00008001, 0x00018000, 0x00400000, 0x007FFFFF};
  int n = 0;
  for (uint32_t sign = 0; sign < 2; sign++) {
    for (size_t i = 0; i < sizeof mags / sizeof mags[0]; i++) out[n++] = sign << 31 | bits_of(mags[i]);
    for (size_t i = 0; i < sizeof raw / sizeof raw[0]; i++) out[n++] = sign << 31 | raw[i];
    for (int i = 0; i < NUM_NAN_INPUTS; i++) out[n++] = sign << 31 | NAN_INPUTS[i];
  }
  return n;
}
#define MAX_BOUNDARY 128

/* n inputs: the boundary values interleaved with a scrambled walk of the
 * structured sweep, which then fills the rest. */
static void mixed_inputs(const fmt *f, uint32_t *out, int64_t n) {
  static uint32_t edges[MAX_BOUNDARY];
  int nb = boundary_inputs(f, edges);
  int64_t ns = structured_inputs(f, inputs);
  for (int64_t i = 0; i < n; i++) out[i] = i % 2 == 0 && i / 2 < nb ? edges[i / 2] : inputs[(i * 7919 + 13) % ns];
}

/* ---- running kernels ------------------------------------------------------------------------ */

static lt__cast_fn encoder(const fmt *f, lt_cast_mode mode, int path) {
  return lt__cast_kernel(f->dt, LT_F32, mode, (lt__cast_path)path);
}

static lt__cast_fn decoder(const fmt *f, lt_cast_mode mode, int path) {
  return lt__cast_kernel(LT_F32, f->dt, mode, (lt__cast_path)path);
}

/* Failures collected over every path, so that one message names them all. */
typedef struct report {
  char text[1024];
} report;

static void report_add(report *r, const char *format, ...) {
  size_t used = strlen(r->text);
  if (used + 3 >= sizeof r->text) return;
  if (used) used += (size_t)snprintf(r->text + used, sizeof r->text - used, "; ");
  va_list ap;
  va_start(ap, format);
  vsnprintf(r->text + used, sizeof r->text - used, format, ap);
  va_end(ap);
}

/* Encodes in[0..n) on every path this CPU runs; each must equal the
 * reference, and the message names every path that does not. */
static void check_encode(const fmt *f, lt_cast_mode mode, const uint32_t *in, int64_t n) {
  size_t es = fmt_size(f);
  report rep = {""};
  for (int64_t i = 0; i < n; i++) put_elem(want_buf, es, i, ref_encode(f, in[i], mode));
  ck_assert_ptr_nonnull(encoder(f, mode, LT__CAST_SCALAR));
  for (int p = 0; p < LT__CAST_NPATHS; p++) {
    lt__cast_fn fn = encoder(f, mode, p);
    if (!fn) continue;
    memset(got_buf, 0xA5, sizeof got_buf);
    fn(got_buf, in, n);
    int64_t bad = 0, first = -1;
    for (int64_t i = 0; i < n; i++)
      if (get_elem(got_buf, es, i) != get_elem(want_buf, es, i) && bad++ == 0) first = i;
    if (bad)
      report_add(&rep, "f32 -> %s (%s) path %s: input 0x%08X -> expected 0x%0*X, got 0x%0*X (%lld of %lld differ)",
                 f->name, MODE_NAMES[mode], PATH_NAMES[p], in[first], (int)es * 2, get_elem(want_buf, es, first),
                 (int)es * 2, get_elem(got_buf, es, first), (long long)bad, (long long)n);
    if (got_buf[n * (int64_t)es] != 0xA5)
      report_add(&rep, "f32 -> %s path %s wrote past element %lld", f->name, PATH_NAMES[p], (long long)n);
  }
  ck_assert_msg(rep.text[0] == '\0', "%s", rep.text);
}

/* Widens the codes in[0..n) on every path; each must equal the reference. */
static void check_decode(const fmt *f, lt_cast_mode mode, const void *in, int64_t n) {
  size_t es = fmt_size(f);
  report rep = {""};
  for (int64_t i = 0; i < n; i++) put_elem(want_buf, 4, i, ref_decode(f, get_elem(in, es, i), mode));
  if (mode == LT_CAST_SATURATE) {
    /* Saturating widening (inf -> FLT_MAX) has no kernel: the generic
     * element path must give the reference. */
    for (int p = 0; p < LT__CAST_NPATHS; p++) ck_assert_ptr_null(decoder(f, mode, p));
    lt_tensor *t = lt_from_data(in, f->dt, 1, &n);
    lt_tensor *w = lt_cast(t, LT_F32, LT_CAST_SATURATE);
    LT_ASSERT_OK_PTR(w);
    int64_t bad = 0, first = -1;
    for (int64_t i = 0; i < n; i++)
      if (get_elem(lt_data(w), 4, i) != get_elem(want_buf, 4, i) && bad++ == 0) first = i;
    uint32_t got = first >= 0 ? get_elem(lt_data(w), 4, first) : 0;
    lt_release(w);
    lt_release(t);
    ck_assert_msg(bad == 0, "%s -> f32 (saturate) generic path: input 0x%X -> expected 0x%08X, got 0x%08X", f->name,
                  first >= 0 ? get_elem(in, es, first) : 0, first >= 0 ? get_elem(want_buf, 4, first) : 0, got);
    return;
  }
  ck_assert_ptr_nonnull(decoder(f, mode, LT__CAST_SCALAR));
  for (int p = 0; p < LT__CAST_NPATHS; p++) {
    lt__cast_fn fn = decoder(f, mode, p);
    if (!fn) continue;
    memset(got_buf, 0xA5, sizeof got_buf);
    fn(got_buf, in, n);
    int64_t bad = 0, first = -1;
    for (int64_t i = 0; i < n; i++)
      if (get_elem(got_buf, 4, i) != get_elem(want_buf, 4, i) && bad++ == 0) first = i;
    if (bad)
      report_add(&rep, "%s -> f32 (%s) path %s: input 0x%0*X -> expected 0x%08X, got 0x%08X (%lld of %lld differ)",
                 f->name, MODE_NAMES[mode], PATH_NAMES[p], (int)es * 2, get_elem(in, es, first),
                 get_elem(want_buf, 4, first), get_elem(got_buf, 4, first), (long long)bad, (long long)n);
    if (got_buf[n * 4] != 0xA5)
      report_add(&rep, "%s -> f32 path %s wrote past element %lld", f->name, PATH_NAMES[p], (long long)n);
  }
  ck_assert_msg(rep.text[0] == '\0', "%s", rep.text);
}

/* A run of x, long enough for every vector body and a tail, must encode to
 * want on the reference and on every path. */
#define RUN 67
static void expect_encode(const fmt *f, lt_cast_mode mode, uint32_t x, uint32_t want) {
  uint32_t r = ref_encode(f, x, mode);
  ck_assert_msg(r == want, "reference f32 -> %s (%s): input 0x%08X -> 0x%X, API says 0x%X", f->name,
                MODE_NAMES[mode], x, r, want);
  static uint32_t in[RUN];
  static uint8_t out[RUN * 2];
  report rep = {""};
  for (int i = 0; i < RUN; i++) in[i] = x;
  for (int p = 0; p < LT__CAST_NPATHS; p++) {
    lt__cast_fn fn = encoder(f, mode, p);
    if (!fn) continue;
    memset(out, 0xA5, sizeof out);
    fn(out, in, RUN);
    for (int i = 0; i < RUN; i++)
      if (get_elem(out, fmt_size(f), i) != want) {
        report_add(&rep, "f32 -> %s (%s) path %s: input 0x%08X at index %d -> expected 0x%X, got 0x%X", f->name,
                   MODE_NAMES[mode], PATH_NAMES[p], x, i, want, get_elem(out, fmt_size(f), i));
        break;
      }
  }
  ck_assert_msg(rep.text[0] == '\0', "%s", rep.text);
}

static void expect_encode_both(const fmt *f, uint32_t x, uint32_t want_default, uint32_t want_saturate) {
  expect_encode(f, LT_CAST_DEFAULT, x, want_default);
  expect_encode(f, LT_CAST_SATURATE, x, want_saturate);
}

/* As expect_encode, widening the code h. */
static void expect_decode(const fmt *f, lt_cast_mode mode, uint32_t h, uint32_t want) {
  uint32_t r = ref_decode(f, h, mode);
  ck_assert_msg(r == want, "reference %s -> f32 (%s): input 0x%X -> 0x%08X, expected 0x%08X", f->name,
                MODE_NAMES[mode], h, r, want);
  static uint8_t in[RUN * 2];
  static uint32_t out[RUN];
  report rep = {""};
  for (int i = 0; i < RUN; i++) put_elem(in, fmt_size(f), i, h);
  for (int p = 0; p < LT__CAST_NPATHS; p++) {
    lt__cast_fn fn = decoder(f, mode, p);
    if (!fn) continue;
    memset(out, 0xA5, sizeof out);
    fn(out, in, RUN);
    for (int i = 0; i < RUN; i++)
      if (out[i] != want) {
        report_add(&rep, "%s -> f32 (%s) path %s: input 0x%X at index %d -> expected 0x%08X, got 0x%08X", f->name,
                   MODE_NAMES[mode], PATH_NAMES[p], h, i, want, out[i]);
        break;
      }
  }
  ck_assert_msg(rep.text[0] == '\0', "%s", rep.text);
}

static void expect_decode_both(const fmt *f, uint32_t h, uint32_t want) {
  expect_decode(f, LT_CAST_DEFAULT, h, want);
  expect_decode(f, LT_CAST_SATURATE, h, want);
}

/* ---- decode: every bit pattern ------------------------------------------------------------- */

static void decode_every_pattern(const fmt *f, lt_cast_mode mode) {
  static uint8_t codes[65536 * 2];
  int64_t n = fmt_size(f) == 2 ? 65536 : 256;
  for (int64_t i = 0; i < n; i++) put_elem(codes, fmt_size(f), i, (uint32_t)i);
  check_decode(f, mode, codes, n);
}

START_TEST(every_f16_pattern_widens_like_the_reference) { decode_every_pattern(F16_FMT, (lt_cast_mode)_i); }
END_TEST
START_TEST(every_bf16_pattern_widens_like_the_reference) { decode_every_pattern(BF16_FMT, (lt_cast_mode)_i); }
END_TEST
START_TEST(every_e4m3_pattern_widens_like_the_reference) { decode_every_pattern(E4M3_FMT, (lt_cast_mode)_i); }
END_TEST
START_TEST(every_e5m2_pattern_widens_like_the_reference) { decode_every_pattern(E5M2_FMT, (lt_cast_mode)_i); }
END_TEST

START_TEST(widened_nans_keep_their_payload_top_bits_and_are_quieted) {
  expect_decode_both(F16_FMT, 0x7D01, 0x7FE02000);
  expect_decode_both(F16_FMT, 0xFE00, 0xFFC00000);
  expect_decode_both(F16_FMT, 0x7C01, 0x7FC02000);
  expect_decode_both(BF16_FMT, 0x7F81, 0x7FC10000);
  expect_decode_both(BF16_FMT, 0xFFFF, 0xFFFF0000);
  expect_decode_both(E4M3_FMT, 0x7F, 0x7FF00000);
  expect_decode_both(E4M3_FMT, 0xFF, 0xFFF00000);
  expect_decode_both(E5M2_FMT, 0x7D, 0x7FE00000);
  expect_decode_both(E5M2_FMT, 0xFE, 0xFFC00000);
}
END_TEST

START_TEST(narrow_subnormals_and_negative_zero_widen_exactly) {
  expect_decode_both(F16_FMT, 0x0001, 0x33800000);
  expect_decode_both(F16_FMT, 0x83FF, bits_of(-ldexpf(1023, -24)));
  expect_decode_both(BF16_FMT, 0x0001, 0x00010000);
  expect_decode_both(BF16_FMT, 0x807F, 0x807F0000);
  expect_decode_both(E4M3_FMT, 0x01, 0x3B000000);
  expect_decode_both(E4M3_FMT, 0x87, bits_of(-ldexpf(7, -9)));
  expect_decode_both(E5M2_FMT, 0x01, 0x37800000);
  expect_decode_both(E5M2_FMT, 0x83, bits_of(-ldexpf(3, -16)));
  for (int k = 0; k < 4; k++) expect_decode_both(&FORMATS[k], sign_bit(&FORMATS[k]), 0x80000000);
}
END_TEST

/* LT_CAST_SATURATE turns every ±inf into ±max finite of the target: the
 * reference widens an infinity to ±FLT_MAX when saturating. */
START_TEST(infinity_widens_to_inf_by_default_and_flt_max_when_saturating) {
  static const struct {
    const fmt *f;
    uint32_t inf;
  } infs[] = {{F16_FMT, 0x7C00}, {BF16_FMT, 0x7F80}, {E5M2_FMT, 0x7C}};
  for (int k = 0; k < 3; k++) {
    const fmt *f = infs[k].f;
    expect_decode(f, LT_CAST_DEFAULT, infs[k].inf, 0x7F800000);
    expect_decode(f, LT_CAST_DEFAULT, infs[k].inf | sign_bit(f), 0xFF800000);
    expect_decode(f, LT_CAST_SATURATE, infs[k].inf, 0x7F7FFFFF);
    expect_decode(f, LT_CAST_SATURATE, infs[k].inf | sign_bit(f), 0xFF7FFFFF);
  }
}
END_TEST

/* ---- encode: structured sweep and edges ------------------------------------------------------ */

static void encode_structured(const fmt *f, lt_cast_mode mode) {
  int64_t n = structured_inputs(f, inputs);
  ck_assert_int_le(n, MAX_INPUTS);
  check_encode(f, mode, inputs, n);
}

START_TEST(structured_f32_inputs_encode_to_f16_like_the_reference) { encode_structured(F16_FMT, (lt_cast_mode)_i); }
END_TEST
START_TEST(structured_f32_inputs_encode_to_bf16_like_the_reference) { encode_structured(BF16_FMT, (lt_cast_mode)_i); }
END_TEST
START_TEST(structured_f32_inputs_encode_to_e4m3_like_the_reference) { encode_structured(E4M3_FMT, (lt_cast_mode)_i); }
END_TEST
START_TEST(structured_f32_inputs_encode_to_e5m2_like_the_reference) { encode_structured(E5M2_FMT, (lt_cast_mode)_i); }
END_TEST

/* Loop index: format * 2 + mode. */
START_TEST(boundary_values_encode_like_the_reference) {
  static uint32_t edges[MAX_BOUNDARY];
  const fmt *f = &FORMATS[_i / 2];
  int n = boundary_inputs(f, edges);
  ck_assert_int_le(n, MAX_BOUNDARY);
  check_encode(f, (lt_cast_mode)(_i % 2), edges, n);
}
END_TEST

START_TEST(e4m3_464_rounds_to_448_even_in_default_mode) {
  expect_encode_both(E4M3_FMT, bits_of(448), 0x7E, 0x7E);
  expect_encode_both(E4M3_FMT, bits_of(464), 0x7E, 0x7E);
  expect_encode_both(E4M3_FMT, bits_of(-464), 0xFE, 0xFE);
  expect_encode_both(E4M3_FMT, bits_of(nextafterf(464, INFINITY)), 0x7E, 0x7E);
  expect_encode_both(E4M3_FMT, bits_of(480), 0x7E, 0x7E);
  expect_encode_both(E4M3_FMT, bits_of(FLT_MAX), 0x7E, 0x7E);
}
END_TEST

START_TEST(e4m3_inf_is_nan_by_default_and_448_when_saturating) {
  expect_encode_both(E4M3_FMT, 0x7F800000, 0x7F, 0x7E);
  expect_encode_both(E4M3_FMT, 0xFF800000, 0xFF, 0xFE);
}
END_TEST

START_TEST(e5m2_61440_is_inf_by_default_and_57344_when_saturating) {
  expect_encode_both(E5M2_FMT, bits_of(57344), 0x7B, 0x7B);
  expect_encode_both(E5M2_FMT, bits_of(nextafterf(61440, 0)), 0x7B, 0x7B);
  expect_encode_both(E5M2_FMT, bits_of(61440), 0x7C, 0x7B);
  expect_encode_both(E5M2_FMT, bits_of(-61440), 0xFC, 0xFB);
  expect_encode_both(E5M2_FMT, 0x7F800000, 0x7C, 0x7B);
  expect_encode_both(E5M2_FMT, 0xFF800000, 0xFC, 0xFB);
}
END_TEST

START_TEST(bf16_flt_max_is_inf_by_default_and_0x7f7f_when_saturating) {
  expect_encode_both(BF16_FMT, 0x7F7F7FFF, 0x7F7F, 0x7F7F);
  expect_encode_both(BF16_FMT, 0x7F7F8000, 0x7F80, 0x7F7F);
  expect_encode_both(BF16_FMT, 0x7F7FFFFF, 0x7F80, 0x7F7F);
  expect_encode_both(BF16_FMT, 0xFF7FFFFF, 0xFF80, 0xFF7F);
  expect_encode_both(BF16_FMT, 0x7F800000, 0x7F80, 0x7F7F);
  expect_encode_both(BF16_FMT, 0xFF800000, 0xFF80, 0xFF7F);
}
END_TEST

START_TEST(f16_65520_is_inf_by_default_and_65504_when_saturating) {
  expect_encode_both(F16_FMT, bits_of(65504), 0x7BFF, 0x7BFF);
  expect_encode_both(F16_FMT, bits_of(nextafterf(65520, 0)), 0x7BFF, 0x7BFF);
  expect_encode_both(F16_FMT, bits_of(65520), 0x7C00, 0x7BFF);
  expect_encode_both(F16_FMT, bits_of(-65520), 0xFC00, 0xFBFF);
  expect_encode_both(F16_FMT, bits_of(FLT_MAX), 0x7C00, 0x7BFF);
  expect_encode_both(F16_FMT, 0x7F800000, 0x7C00, 0x7BFF);
  expect_encode_both(F16_FMT, 0xFF800000, 0xFC00, 0xFBFF);
}
END_TEST

START_TEST(negative_zero_keeps_its_sign) {
  for (int k = 0; k < 4; k++) {
    expect_encode_both(&FORMATS[k], 0x80000000, sign_bit(&FORMATS[k]), sign_bit(&FORMATS[k]));
    expect_encode_both(&FORMATS[k], 0x00000000, 0, 0);
  }
}
END_TEST

START_TEST(half_the_smallest_subnormal_ties_to_zero_and_just_above_rounds_up) {
  for (int k = 0; k < 4; k++) {
    const fmt *f = &FORMATS[k];
    float sub = ldexpf(1.0f, 1 - f->bias - f->mbits);
    expect_encode_both(f, bits_of(sub), 1, 1);
    expect_encode_both(f, bits_of(sub / 2), 0, 0);
    expect_encode_both(f, bits_of(-sub / 2), sign_bit(f), sign_bit(f));
    expect_encode_both(f, bits_of(nextafterf(sub / 2, INFINITY)), 1, 1);
    expect_encode_both(f, bits_of(-nextafterf(sub / 2, INFINITY)), sign_bit(f) | 1, sign_bit(f) | 1);
    expect_encode_both(f, bits_of(1.5f * sub), 2, 2); /* tie to even */
    expect_encode_both(f, bits_of(2.5f * sub), 2, 2);
  }
}
END_TEST

START_TEST(nans_stay_nan_with_their_sign) {
  for (int k = 0; k < 4; k++) {
    const fmt *f = &FORMATS[k];
    for (int i = 0; i < NUM_NAN_INPUTS; i++) {
      expect_encode_both(f, NAN_INPUTS[i], f->nan, f->nan);
      expect_encode_both(f, 0x80000000 | NAN_INPUTS[i], sign_bit(f) | f->nan, sign_bit(f) | f->nan);
    }
  }
}
END_TEST

START_TEST(float32_subnormals_round_once_from_their_exact_value) {
  for (int k = 0; k < 4; k++) {
    if (FORMATS[k].dt == LT_BF16) continue;
    const fmt *f = &FORMATS[k];
    expect_encode_both(f, 0x00000001, 0, 0);
    expect_encode_both(f, 0x007FFFFF, 0, 0);
    expect_encode_both(f, 0x80000001, sign_bit(f), sign_bit(f));
  }
  expect_encode_both(BF16_FMT, 0x00000001, 0x0000, 0x0000);
  expect_encode_both(BF16_FMT, 0x00008000, 0x0000, 0x0000);
  expect_encode_both(BF16_FMT, 0x00008001, 0x0001, 0x0001);
  expect_encode_both(BF16_FMT, 0x00018000, 0x0002, 0x0002);
  expect_encode_both(BF16_FMT, 0x007FFFFF, 0x0080, 0x0080);
  expect_encode_both(BF16_FMT, 0x807FFFFF, 0x8080, 0x8080);
}
END_TEST

/* Programs built with -ffast-math run with MXCSR's denormals-are-zero bit
 * set, which the conversion instructions obey (and vfpclassps, which the
 * AVX512_BF16 path uses to find subnormal inputs): every path must still
 * give the reference (computed here under the default MXCSR). Loop index:
 * format * 2 + mode. */
START_TEST(every_path_encodes_exactly_with_denormals_are_zero_set) {
#if defined(__x86_64__) || defined(__i386__)
  const fmt *f = &FORMATS[_i / 2];
  lt_cast_mode mode = (lt_cast_mode)(_i % 2);
  size_t es = fmt_size(f);
  int64_t n = structured_inputs(f, inputs);
  for (int64_t i = 0; i < n; i++) put_elem(want_buf, es, i, ref_encode(f, inputs[i], mode));
  report rep = {""};
  for (int p = 0; p < LT__CAST_NPATHS; p++) {
    lt__cast_fn fn = encoder(f, mode, p);
    if (!fn) continue;
    unsigned saved = _mm_getcsr();
    _mm_setcsr(saved | 0x0040 | 0x8000); /* DAZ, FTZ */
    fn(got_buf, inputs, n);
    _mm_setcsr(saved);
    for (int64_t i = 0; i < n; i++)
      if (get_elem(got_buf, es, i) != get_elem(want_buf, es, i)) {
        report_add(&rep, "f32 -> %s (%s) path %s under DAZ: input 0x%08X -> expected 0x%X, got 0x%X", f->name,
                   MODE_NAMES[mode], PATH_NAMES[p], inputs[i], get_elem(want_buf, es, i), get_elem(got_buf, es, i));
        break;
      }
  }
  ck_assert_msg(rep.text[0] == '\0', "%s", rep.text);
#endif
}
END_TEST

/* ---- run lengths and alignment --------------------------------------------------------------- */

/* For each mode and path, lengths 0..67 with src and dst offset by the given
 * number of elements from 64-byte alignment: every element must match the
 * reference and nothing outside [0, n) may be written. */
#define MAX_LEN 67
#define SLACK 16

static void encode_runs(const fmt *f, int src_off, int dst_off, report *rep) {
  static uint32_t pool[MAX_LEN + 1];
  _Alignas(64) static uint32_t src[MAX_LEN + SLACK];
  _Alignas(64) static uint8_t dst[(MAX_LEN + SLACK) * 2];
  size_t es = fmt_size(f);
  mixed_inputs(f, pool, MAX_LEN + 1);
  for (int m = 0; m < 2; m++)
    for (int p = 0; p < LT__CAST_NPATHS; p++) {
      lt__cast_fn fn = encoder(f, (lt_cast_mode)m, p);
      if (!fn) continue;
      bool failed = false;
      for (int n = 0; n <= MAX_LEN && !failed; n++) {
        uint32_t *s = src + src_off;
        for (int i = 0; i < n; i++) s[i] = pool[(i + n) % (MAX_LEN + 1)];
        memset(dst, 0xA5, sizeof dst);
        fn(dst + (size_t)dst_off * es, s, n);
        for (int i = 0; i < MAX_LEN + SLACK - 1 && !failed; i++) {
          int j = i - dst_off;
          uint32_t got = get_elem(dst, es, i);
          uint32_t want = j >= 0 && j < n ? ref_encode(f, s[j], (lt_cast_mode)m) : (es == 2 ? 0xA5A5u : 0xA5u);
          failed = got != want;
          if (failed)
            report_add(rep,
                       "f32 -> %s (%s) path %s, n %d, src+%d dst+%d: element %d (input 0x%08X) expected 0x%X, got 0x%X",
                       f->name, MODE_NAMES[m], PATH_NAMES[p], n, src_off, dst_off, j, j >= 0 && j < n ? s[j] : 0,
                       want, got);
        }
      }
    }
}

/* The codes for widening runs: zeros, subnormals, normals, the largest
 * finite and NaNs of both signs, then a scramble of all codes. Infinities
 * are left to the every-pattern tests. */
static void decode_pool(const fmt *f, uint32_t *pool, int n) {
  uint32_t count = fmt_size(f) == 2 ? 65536 : 256, sign = sign_bit(f);
  bool has_inf = f->dt != LT_F8_E4M3;
  const uint32_t first[] = {0, sign, 1, sign | 1, 1u << f->mbits, f->max_finite, sign | f->max_finite,
                            f->nan, sign | f->nan, sign - 1, (sign - 1) >> 1};
  int k = 0;
  for (; k < (int)(sizeof first / sizeof first[0]) && k < n; k++) pool[k] = first[k];
  for (uint32_t c = 12345; k < n; c = c * 1103515245u + 12345u) {
    uint32_t code = (c >> 8) % count;
    if (!has_inf || (code & (sign - 1)) != f->max_finite + 1) pool[k++] = code;
  }
}

static void decode_runs(const fmt *f, int src_off, int dst_off, report *rep) {
  static uint32_t pool[MAX_LEN + 1];
  _Alignas(64) static uint8_t src[(MAX_LEN + SLACK) * 2];
  _Alignas(64) static uint32_t dst[MAX_LEN + SLACK];
  size_t es = fmt_size(f);
  decode_pool(f, pool, MAX_LEN + 1);
  for (int m = 0; m < 2; m++)
    for (int p = 0; p < LT__CAST_NPATHS; p++) {
      lt__cast_fn fn = decoder(f, (lt_cast_mode)m, p);
      if (!fn) continue;
      bool failed = false;
      for (int n = 0; n <= MAX_LEN && !failed; n++) {
        uint8_t *s = src + (size_t)src_off * es;
        for (int i = 0; i < n; i++) put_elem(s, es, i, pool[(i + n) % (MAX_LEN + 1)]);
        memset(dst, 0xA5, sizeof dst);
        fn(dst + dst_off, s, n);
        for (int i = 0; i < MAX_LEN + SLACK && !failed; i++) {
          int j = i - dst_off;
          uint32_t in = j >= 0 && j < n ? get_elem(s, es, j) : 0;
          uint32_t want = j >= 0 && j < n ? ref_decode(f, in, (lt_cast_mode)m) : 0xA5A5A5A5u;
          failed = dst[i] != want;
          if (failed)
            report_add(rep,
                       "%s -> f32 (%s) path %s, n %d, src+%d dst+%d: element %d (input 0x%X) -> 0x%08X got 0x%08X",
                       f->name, MODE_NAMES[m], PATH_NAMES[p], n, src_off, dst_off, j, in, want, dst[i]);
        }
      }
    }
}

START_TEST(encode_runs_of_length_0_to_67_match_the_reference) {
  report rep = {""};
  encode_runs(&FORMATS[_i], 0, 0, &rep);
  ck_assert_msg(rep.text[0] == '\0', "%s", rep.text);
}
END_TEST

START_TEST(encode_from_and_to_unaligned_pointers_matches_the_reference) {
  report rep = {""};
  encode_runs(&FORMATS[_i], 1, 0, &rep);
  encode_runs(&FORMATS[_i], 0, 1, &rep);
  encode_runs(&FORMATS[_i], 1, 1, &rep);
  ck_assert_msg(rep.text[0] == '\0', "%s", rep.text);
}
END_TEST

START_TEST(decode_runs_of_length_0_to_67_match_the_reference) {
  report rep = {""};
  decode_runs(&FORMATS[_i], 0, 0, &rep);
  ck_assert_msg(rep.text[0] == '\0', "%s", rep.text);
}
END_TEST

START_TEST(decode_from_and_to_unaligned_pointers_matches_the_reference) {
  report rep = {""};
  decode_runs(&FORMATS[_i], 1, 0, &rep);
  decode_runs(&FORMATS[_i], 0, 1, &rep);
  decode_runs(&FORMATS[_i], 1, 1, &rep);
  ck_assert_msg(rep.text[0] == '\0', "%s", rep.text);
}
END_TEST

/* Outputs of 8 MiB and more are written with streaming stores after an
 * aligning scalar head: a long run, at aligned and odd destination
 * offsets, in both modes, must match the scalar kernel (itself checked against the
 * reference above) element for element, both ways. */
#define LONG_RUN ((int64_t)9 << 20) /* elements: every output is >= 9 MiB */
START_TEST(long_runs_written_with_streaming_stores_match_the_scalar_kernel) {
  const fmt *f = &FORMATS[_i];
  size_t es = fmt_size(f);
  uint32_t *in = malloc((size_t)LONG_RUN * 4 + 64);
  uint8_t *want = malloc((size_t)LONG_RUN * 4 + 64), *got = malloc((size_t)LONG_RUN * 4 + 64);
  ck_assert(in && want && got);
  uint32_t x = 2463534242u;
  for (int64_t i = 0; i < LONG_RUN; i++) { /* xorshift: signs, exponents, NaNs and all */
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    in[i] = x;
  }
  report rep = {""};
  for (int64_t off = 0; off <= 1; off++) {
    int64_t n = LONG_RUN - off;
    for (int m = 1; m >= 0; m--) {
      encoder(f, (lt_cast_mode)m, LT__CAST_SCALAR)(want, in, n);
      for (int p = 1; p < LT__CAST_NPATHS; p++) {
        lt__cast_fn fn = encoder(f, (lt_cast_mode)m, p);
        if (!fn) continue;
        fn(got + off * (int64_t)es, in, n);
        if (memcmp(got + off * (int64_t)es, want, (size_t)n * es))
          report_add(&rep, "f32 -> %s (%s) path %s, dst+%lld: a long run differs from the scalar kernel", f->name,
                     MODE_NAMES[m], PATH_NAMES[p], (long long)off);
      }
    }
    /* Decode the (default mode's) codes back. */
    decoder(f, LT_CAST_DEFAULT, LT__CAST_SCALAR)(in, want, n);
    for (int p = 1; p < LT__CAST_NPATHS; p++) {
      lt__cast_fn fn = decoder(f, LT_CAST_DEFAULT, p);
      if (!fn) continue;
      fn(got + off * 4, want, n);
      if (memcmp(got + off * 4, in, (size_t)n * 4))
        report_add(&rep, "%s -> f32 path %s, dst+%lld: a long run differs from the scalar kernel", f->name,
                   PATH_NAMES[p], (long long)off);
    }
  }
  free(in);
  free(want);
  free(got);
  ck_assert_msg(rep.text[0] == '\0', "%s", rep.text);
}
END_TEST

/* ---- the public path: lt_copy and lt_cast on strided views ----------------------------------- */

#define MAX_ELEMS 42000
static uint32_t in_logical[MAX_ELEMS];
static uint8_t out_logical[MAX_ELEMS * 4];

/* Whether out holds, element by element in logical order, the reference
 * conversion of in (one F32, the other f's dtype); else msg says where not. */
static bool converted_like_the_reference(const fmt *f, const lt_tensor *out, const lt_tensor *in, lt_cast_mode mode,
                                         const char *what, char *msg, size_t msg_size) {
  int64_t n = lt_numel(in);
  bool encoding = lt_dtype_of(in) == LT_F32;
  size_t ies = lt_dtype_size(lt_dtype_of(in)), oes = lt_dtype_size(lt_dtype_of(out));
  if (n > MAX_ELEMS || lt_numel(out) != n ||
      lt_read(in, in_logical, (size_t)n * ies) != LT_OK || lt_read(out, out_logical, (size_t)n * oes) != LT_OK) {
    snprintf(msg, msg_size, "%s: reading back failed: %s", what, lt_last_error());
    return false;
  }
  for (int64_t i = 0; i < n; i++) {
    uint32_t x = get_elem(in_logical, ies, i), got = get_elem(out_logical, oes, i);
    uint32_t want = encoding ? ref_encode(f, x, mode) : ref_decode(f, x, mode);
    if (got != want) {
      snprintf(msg, msg_size, "%s (%s, %s): element %lld input 0x%X -> expected 0x%X, got 0x%X", what, f->name,
               MODE_NAMES[mode], (long long)i, x, want, got);
      return false;
    }
  }
  return true;
}

/* lt_copy(dst, src), then the comparison; the message of the first failure. */
static void copy_and_compare(const fmt *f, lt_tensor *dst, const lt_tensor *src, const char *what, char *msg,
                             size_t msg_size, bool *ok) {
  if (!*ok) return;
  lt_status s = lt_copy(dst, src);
  if (s != LT_OK) {
    snprintf(msg, msg_size, "%s: lt_copy -> %s: %s", what, lt_status_str(s), lt_last_error());
    *ok = false;
    return;
  }
  *ok = converted_like_the_reference(f, dst, src, LT_CAST_DEFAULT, what, msg, msg_size);
}

static lt_tensor *f32_tensor(const fmt *f, int ndim, const int64_t *shape) {
  int64_t n = 1;
  for (int d = 0; d < ndim; d++) n *= shape[d];
  mixed_inputs(f, in_logical, n);
  return lt_from_data(in_logical, LT_F32, ndim, shape);
}

START_TEST(copy_from_a_transposed_f32_and_back_gives_the_reference) {
  const fmt *f = &FORMATS[_i];
  enum { R = 37, C = 700 };
  char msg[256] = "";
  bool ok = true;
  lt_tensor *src = f32_tensor(f, 2, (int64_t[]){R, C});
  LT_ASSERT_OK_PTR(src);
  lt_tensor *src_t = lt_transpose(src, 0, 1);
  lt_tensor *narrow = lt_empty(f->dt, 2, (int64_t[]){C, R}, LT_HOST);
  lt_tensor *back = lt_empty(LT_F32, 2, (int64_t[]){R, C}, LT_HOST);
  lt_tensor *back_t = lt_transpose(back, 0, 1);
  lt_tensor *narrow_t = lt_transpose(narrow, 0, 1);
  lt_tensor *back2 = lt_empty(LT_F32, 2, (int64_t[]){R, C}, LT_HOST);
  LT_ASSERT_OK_PTR(src_t);
  LT_ASSERT_OK_PTR(narrow);
  LT_ASSERT_OK_PTR(back_t);
  LT_ASSERT_OK_PTR(narrow_t);
  LT_ASSERT_OK_PTR(back2);
  bool strided = !lt_is_contiguous(src_t) && !lt_is_contiguous(back_t) && !lt_is_contiguous(narrow_t);
  copy_and_compare(f, narrow, src_t, "transposed f32 -> narrow", msg, sizeof msg, &ok);
  copy_and_compare(f, back_t, narrow, "narrow -> transposed f32", msg, sizeof msg, &ok);
  copy_and_compare(f, back2, narrow_t, "transposed narrow -> f32", msg, sizeof msg, &ok);
  lt_release(back2);
  lt_release(narrow_t);
  lt_release(back_t);
  lt_release(back);
  lt_release(narrow);
  lt_release(src_t);
  lt_release(src);
  ck_assert_msg(strided, "the views are meant to be non-contiguous");
  ck_assert_msg(ok, "%s", msg);
}
END_TEST

START_TEST(copy_from_a_negative_stride_f32_and_back_gives_the_reference) {
  const fmt *f = &FORMATS[_i];
  enum { N = 1300, R = 30, C = 41 }; /* N spans several gather chunks */
  char msg[256] = "";
  bool ok = true;
  lt_tensor *src = f32_tensor(f, 1, (int64_t[]){N});
  LT_ASSERT_OK_PTR(src);
  lt_tensor *rev = lt_slice(src, 0, LT_NONE, LT_NONE, -1);
  lt_tensor *narrow = lt_empty(f->dt, 1, (int64_t[]){N}, LT_HOST);
  lt_tensor *back = lt_empty(LT_F32, 1, (int64_t[]){N}, LT_HOST);
  lt_tensor *narrow_rev = lt_slice(narrow, 0, LT_NONE, LT_NONE, -1);
  lt_tensor *src2 = f32_tensor(f, 2, (int64_t[]){R, C});
  LT_ASSERT_OK_PTR(src2);
  lt_tensor *rev2 = lt_slice(src2, 1, LT_NONE, LT_NONE, -3);
  lt_tensor *narrow2 = rev2 ? lt_empty(f->dt, 2, lt_shape(rev2), LT_HOST) : NULL;
  LT_ASSERT_OK_PTR(rev);
  LT_ASSERT_OK_PTR(narrow);
  LT_ASSERT_OK_PTR(back);
  LT_ASSERT_OK_PTR(narrow_rev);
  LT_ASSERT_OK_PTR(rev2);
  LT_ASSERT_OK_PTR(narrow2);
  bool negative = lt_stride(rev, 0) == -1 && lt_stride(rev2, 1) == -3;
  copy_and_compare(f, narrow, rev, "reversed f32 -> narrow", msg, sizeof msg, &ok);
  copy_and_compare(f, back, narrow_rev, "reversed narrow -> f32", msg, sizeof msg, &ok);
  copy_and_compare(f, narrow2, rev2, "f32[:, ::-3] -> narrow", msg, sizeof msg, &ok);
  lt_release(narrow2);
  lt_release(rev2);
  lt_release(src2);
  lt_release(narrow_rev);
  lt_release(back);
  lt_release(narrow);
  lt_release(rev);
  lt_release(src);
  ck_assert_msg(negative, "the views are meant to have negative strides");
  ck_assert_msg(ok, "%s", msg);
}
END_TEST

START_TEST(copy_from_a_broadcast_f32_and_back_gives_the_reference) {
  const fmt *f = &FORMATS[_i];
  enum { R = 70, C = 600 };
  char msg[256] = "";
  bool ok = true;
  /* A column broadcast along the inner dim (stride 0 inside each run) and
   * a row broadcast along the outer one. */
  lt_tensor *col = f32_tensor(f, 2, (int64_t[]){R, 1});
  LT_ASSERT_OK_PTR(col);
  lt_tensor *col_b = lt_expand(col, 2, (int64_t[]){R, C});
  lt_tensor *narrow = lt_empty(f->dt, 2, (int64_t[]){R, C}, LT_HOST);
  lt_tensor *row = f32_tensor(f, 2, (int64_t[]){1, C});
  LT_ASSERT_OK_PTR(row);
  lt_tensor *row_b = lt_expand(row, 2, (int64_t[]){R, C});
  lt_tensor *narrow2 = lt_empty(f->dt, 2, (int64_t[]){R, C}, LT_HOST);
  lt_tensor *ncol = lt_empty(f->dt, 2, (int64_t[]){R, 1}, LT_HOST);
  lt_tensor *ncol_b = ncol ? lt_expand(ncol, 2, (int64_t[]){R, C}) : NULL;
  lt_tensor *back = lt_empty(LT_F32, 2, (int64_t[]){R, C}, LT_HOST);
  LT_ASSERT_OK_PTR(col_b);
  LT_ASSERT_OK_PTR(narrow);
  LT_ASSERT_OK_PTR(row_b);
  LT_ASSERT_OK_PTR(narrow2);
  LT_ASSERT_OK_PTR(ncol_b);
  LT_ASSERT_OK_PTR(back);
  bool broadcast = lt_stride(col_b, 1) == 0 && lt_stride(row_b, 0) == 0 && lt_stride(ncol_b, 1) == 0;
  copy_and_compare(f, narrow, col_b, "f32 column broadcast -> narrow", msg, sizeof msg, &ok);
  copy_and_compare(f, narrow2, row_b, "f32 row broadcast -> narrow", msg, sizeof msg, &ok);
  copy_and_compare(f, ncol, col, "f32 column -> narrow column", msg, sizeof msg, &ok);
  copy_and_compare(f, back, ncol_b, "narrow column broadcast -> f32", msg, sizeof msg, &ok);
  lt_release(back);
  lt_release(ncol_b);
  lt_release(ncol);
  lt_release(narrow2);
  lt_release(row_b);
  lt_release(row);
  lt_release(narrow);
  lt_release(col_b);
  lt_release(col);
  ck_assert_msg(broadcast, "the views are meant to be broadcast");
  ck_assert_msg(ok, "%s", msg);
}
END_TEST

/* Casts from a source past 8 MiB read it as one that outgrows the
 * caches, each step its own way (elements ahead up to 256 bytes, bytes
 * ahead beyond, downward for a negative step): every element must still
 * be the reference conversion of the one it stands for. */
START_TEST(copy_from_a_large_stepped_f32_gives_the_reference) {
  const fmt *f = &FORMATS[_i];
  static const int64_t steps[] = {60, -64, 72, -100}; /* at most MAX_ELEMS out */
  int64_t len = (9 << 20) / 4 + 29;
  char msg[256] = "";
  bool ok = true;
  lt_tensor *src = lt_empty(LT_F32, 1, &len, LT_HOST);
  LT_ASSERT_OK_PTR(src);
  uint32_t *bits = lt_data(src);
  mixed_inputs(f, in_logical, MAX_ELEMS);
  for (int64_t j = 0; j < len; j++) bits[j] = in_logical[(j * 31 + 7) % MAX_ELEMS];
  for (size_t k = 0; k < sizeof steps / sizeof steps[0] && ok; k++) {
    lt_tensor *view = lt_slice(src, 0, LT_NONE, LT_NONE, steps[k]);
    LT_ASSERT_OK_PTR(view);
    lt_tensor *narrow = lt_empty(f->dt, 1, lt_shape(view), LT_HOST);
    LT_ASSERT_OK_PTR(narrow);
    char what[64];
    snprintf(what, sizeof what, "f32[::%lld] of 9 MiB -> narrow", (long long)steps[k]);
    copy_and_compare(f, narrow, view, what, msg, sizeof msg, &ok);
    lt_release(narrow);
    lt_release(view);
  }
  lt_release(src);
  ck_assert_msg(ok, "%s", msg);
}
END_TEST

/* Casts into a stepped destination in cache scatter each converted piece
 * with masked stores where the step puts four or more elements in a
 * line (on AVX-512), by the loops otherwise: steps 2 to 17 and lengths
 * across several 512-element pieces, with a tail; every element must be
 * the reference conversion and every one between keep its bytes. */
START_TEST(copy_into_a_stepped_destination_in_cache_gives_the_reference) {
  const fmt *f = &FORMATS[_i];
  static const int64_t lengths[] = {40, 129, 1300};
  size_t es = lt_dtype_size(f->dt);
  char msg[256] = "";
  bool ok = true;
  for (int64_t step = 2; step <= 17 && ok; step++)
    for (size_t k = 0; k < sizeof lengths / sizeof lengths[0] && ok; k++) {
      int64_t n = lengths[k], len = (n - 1) * step + 1;
      lt_tensor *src = f32_tensor(f, 1, &n), *wide = lt_empty(f->dt, 1, &len, LT_HOST);
      LT_ASSERT_OK_PTR(src);
      LT_ASSERT_OK_PTR(wide);
      unsigned char *w = lt_data(wide);
      for (int64_t b = 0; b < len * (int64_t)es; b++) w[b] = (unsigned char)(b * 7 + 1);
      lt_tensor *view = lt_slice(wide, 0, LT_NONE, LT_NONE, step);
      LT_ASSERT_OK_PTR(view);
      char what[64];
      snprintf(what, sizeof what, "f32[%lld] -> narrow[::%lld]", (long long)n, (long long)step);
      copy_and_compare(f, view, src, what, msg, sizeof msg, &ok);
      for (int64_t j = 0; j < len && ok; j++)
        for (size_t b = 0; b < es && j % step != 0; b++)
          if (w[j * (int64_t)es + (int64_t)b] != (unsigned char)((j * (int64_t)es + (int64_t)b) * 7 + 1)) {
            snprintf(msg, sizeof msg, "%s: element %lld between the steps changed", what, (long long)j);
            ok = false;
          }
      lt_release(view);
      lt_release(wide);
      lt_release(src);
    }
  ck_assert_msg(ok, "%s", msg);
}
END_TEST

START_TEST(saturating_cast_of_a_transposed_f32_and_back_gives_the_reference) {
  const fmt *f = &FORMATS[_i];
  enum { R = 37, C = 700 };
  char msg[256] = "";
  lt_tensor *src = f32_tensor(f, 2, (int64_t[]){R, C});
  LT_ASSERT_OK_PTR(src);
  lt_tensor *src_t = lt_transpose(src, 0, 1);
  LT_ASSERT_OK_PTR(src_t);
  lt_tensor *narrow = lt_cast(src_t, f->dt, LT_CAST_SATURATE);
  LT_ASSERT_OK_PTR(narrow);
  lt_tensor *narrow_t = lt_transpose(narrow, 0, 1);
  LT_ASSERT_OK_PTR(narrow_t);
  lt_tensor *back = lt_cast(narrow_t, LT_F32, LT_CAST_SATURATE);
  LT_ASSERT_OK_PTR(back);
  bool ok = converted_like_the_reference(f, narrow, src_t, LT_CAST_SATURATE, "saturating cast of transposed f32",
                                         msg, sizeof msg) &&
            converted_like_the_reference(f, back, narrow_t, LT_CAST_SATURATE,
                                         "saturating cast of transposed narrow", msg, sizeof msg);
  lt_release(back);
  lt_release(narrow_t);
  lt_release(narrow);
  lt_release(src_t);
  lt_release(src);
  ck_assert_msg(ok, "%s", msg);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("cast_kernels");
  /* Loop indices: the cast mode (0, 2), the format as FORMATS (0, 4), or
   * format * 2 + mode (0, 8). */
  TCase *dec = tcase_create("decode");
  tcase_add_loop_test(dec, every_f16_pattern_widens_like_the_reference, 0, 2);
  tcase_add_loop_test(dec, every_bf16_pattern_widens_like_the_reference, 0, 2);
  tcase_add_loop_test(dec, every_e4m3_pattern_widens_like_the_reference, 0, 2);
  tcase_add_loop_test(dec, every_e5m2_pattern_widens_like_the_reference, 0, 2);
  tcase_add_test(dec, widened_nans_keep_their_payload_top_bits_and_are_quieted);
  tcase_add_test(dec, narrow_subnormals_and_negative_zero_widen_exactly);
  tcase_add_test(dec, infinity_widens_to_inf_by_default_and_flt_max_when_saturating);
  suite_add_tcase(s, dec);

  TCase *enc = tcase_create("encode");
  tcase_set_timeout(enc, 120); /* the structured sweeps under valgrind */
  tcase_add_loop_test(enc, structured_f32_inputs_encode_to_f16_like_the_reference, 0, 2);
  tcase_add_loop_test(enc, structured_f32_inputs_encode_to_bf16_like_the_reference, 0, 2);
  tcase_add_loop_test(enc, structured_f32_inputs_encode_to_e4m3_like_the_reference, 0, 2);
  tcase_add_loop_test(enc, structured_f32_inputs_encode_to_e5m2_like_the_reference, 0, 2);
  tcase_add_loop_test(enc, boundary_values_encode_like_the_reference, 0, 8);
  tcase_add_test(enc, e4m3_464_rounds_to_448_even_in_default_mode);
  tcase_add_test(enc, e4m3_inf_is_nan_by_default_and_448_when_saturating);
  tcase_add_test(enc, e5m2_61440_is_inf_by_default_and_57344_when_saturating);
  tcase_add_test(enc, bf16_flt_max_is_inf_by_default_and_0x7f7f_when_saturating);
  tcase_add_test(enc, f16_65520_is_inf_by_default_and_65504_when_saturating);
  tcase_add_test(enc, negative_zero_keeps_its_sign);
  tcase_add_test(enc, half_the_smallest_subnormal_ties_to_zero_and_just_above_rounds_up);
  tcase_add_test(enc, nans_stay_nan_with_their_sign);
  tcase_add_test(enc, float32_subnormals_round_once_from_their_exact_value);
  tcase_add_loop_test(enc, every_path_encodes_exactly_with_denormals_are_zero_set, 0, 8);
  suite_add_tcase(s, enc);

  TCase *runs = tcase_create("runs");
  tcase_add_loop_test(runs, encode_runs_of_length_0_to_67_match_the_reference, 0, 4);
  tcase_add_loop_test(runs, encode_from_and_to_unaligned_pointers_matches_the_reference, 0, 4);
  tcase_add_loop_test(runs, decode_runs_of_length_0_to_67_match_the_reference, 0, 4);
  tcase_add_loop_test(runs, decode_from_and_to_unaligned_pointers_matches_the_reference, 0, 4);
  tcase_add_loop_test(runs, long_runs_written_with_streaming_stores_match_the_scalar_kernel, 0, 4);
  tcase_set_timeout(runs, 60);
  suite_add_tcase(s, runs);

  TCase *pub = tcase_create("public_path");
  tcase_add_loop_test(pub, copy_from_a_transposed_f32_and_back_gives_the_reference, 0, 4);
  tcase_add_loop_test(pub, copy_from_a_negative_stride_f32_and_back_gives_the_reference, 0, 4);
  tcase_add_loop_test(pub, copy_from_a_broadcast_f32_and_back_gives_the_reference, 0, 4);
  tcase_add_loop_test(pub, copy_from_a_large_stepped_f32_gives_the_reference, 0, 4);
  tcase_add_loop_test(pub, copy_into_a_stepped_destination_in_cache_gives_the_reference, 0, 4);
  tcase_add_loop_test(pub, saturating_cast_of_a_transposed_f32_and_back_gives_the_reference, 0, 4);
  suite_add_tcase(s, pub);
  return s;
}

int main(void) { return lt_run_suite(suite()); }
