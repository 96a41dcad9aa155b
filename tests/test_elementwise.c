/* Specification of the elementwise ops (compute.h): every op against a
 * naive double-precision reference on random shapes, dtypes and layouts
 * (permuted, sliced with positive and negative steps, expanded, broadcast,
 * 0-dim, empty), the promotion table, the _out forms (strided, in place,
 * converting), the error cases with their codes, accounting (FLOPs, and no
 * copies of strided inputs), and the elementwise planner. Per-element
 * checks call ck_abort_msg only on failure: every passing ck_assert costs
 * a write to Check's pipe. */
#define _DEFAULT_SOURCE /* mkstemp */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compute_impl.h"
#include "support/check_helpers.h"

/* ---- helpers ------------------------------------------------------------- */

/* t's elements in row-major order as doubles (exact for every dtype). */
static double *read_f64(const lt_tensor *t) {
  lt_tensor *d = lt_cast(t, LT_F64, LT_CAST_DEFAULT);
  ck_assert_msg(d != NULL, "cast to f64: %s", lt_last_error());
  int64_t n = lt_numel(d);
  double *v = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
  if (n > 0) LT_ASSERT_OK(lt_read(d, v, sizeof(double) * (size_t)n));
  lt_release(d);
  return v;
}

static lt_tensor *from_f32(int ndim, const int64_t *shape, const float *v) {
  lt_tensor *t = lt_from_data(v, LT_F32, ndim, shape);
  LT_ASSERT_OK_PTR(t);
  return t;
}

static bool same_value(double a, double b) { return (isnan(a) && isnan(b)) || (a == b && signbit(a) == signbit(b)); }

/* A value small enough for every dtype: quarters in [-8, 8], made
 * non-negative for u8 (and so also fine for bool). */
static float random_value(lt_dtype dt) {
  float v = (float)lt_test_rand(-32, 32) / 4.0f;
  return dt == LT_U8 ? fabsf(v) : v;
}

/* A tensor of logical shape (ndim, shape) and dtype dt whose layout is
 * random: made permuted, then sliced with steps of +-1 or +-2 per dim, or
 * (for size-1 dims, sometimes) expanded from a size-1 dim of another size
 * in the base... Every layout is a view of one fresh base tensor. */
static lt_tensor *random_layout(lt_dtype dt, int ndim, const int64_t *shape) {
  int64_t step[LT_MAX_DIMS], base_shape[LT_MAX_DIMS], perm_shape[LT_MAX_DIMS];
  int perm[LT_MAX_DIMS], inv[LT_MAX_DIMS];
  for (int d = 0; d < ndim; d++) {
    step[d] = lt_test_rand(1, 2) * (lt_test_rand(0, 3) == 0 ? -1 : 1);
    base_shape[d] = shape[d] * (step[d] < 0 ? -step[d] : step[d]) + lt_test_rand(0, 1);
    perm[d] = d;
  }
  for (int d = ndim - 1; d > 0; d--) {
    int j = (int)lt_test_rand(0, d), t = perm[d];
    perm[d] = perm[j];
    perm[j] = t;
  }
  for (int d = 0; d < ndim; d++) {
    perm_shape[d] = base_shape[perm[d]];
    inv[perm[d]] = d;
  }
  int64_t n = lt_test_numel(ndim, perm_shape);
  float *v = malloc(sizeof(float) * (size_t)(n > 0 ? n : 1));
  for (int64_t i = 0; i < n; i++) v[i] = random_value(dt);
  lt_tensor *f = from_f32(ndim, perm_shape, v);
  free(v);
  lt_tensor *base = lt_cast(f, dt, LT_CAST_DEFAULT);
  lt_release(f);
  LT_ASSERT_OK_PTR(base);
  lt_tensor *t = lt_permute(base, inv);
  lt_release(base);
  for (int d = 0; d < ndim; d++) {
    int64_t start = step[d] > 0 ? 0 : base_shape[d] - 1;
    lt_tensor *s = lt_slice(t, d, start, LT_NONE, step[d]);
    lt_release(t);
    LT_ASSERT_OK_PTR(s);
    t = lt_narrow(s, d, 0, shape[d]);
    lt_release(s);
    LT_ASSERT_OK_PTR(t);
  }
  return t;
}

static double ref_binary(lt__ew_op op, double a, double b, lt_dtype ct) {
  if (ct == LT_I64) {
    uint64_t x = (uint64_t)(int64_t)a, y = (uint64_t)(int64_t)b;
    switch (op) {
    case LT__EW_ADD: return (double)(int64_t)(x + y);
    case LT__EW_SUB: return (double)(int64_t)(x - y);
    case LT__EW_MUL: return (double)(int64_t)(x * y);
    case LT__EW_MAX: return a > b ? a : b;
    default: return a < b ? a : b;
    }
  }
  double r;
  switch (op) {
  case LT__EW_ADD: r = a + b; break;
  case LT__EW_SUB: r = a - b; break;
  case LT__EW_MUL: r = a * b; break;
  case LT__EW_DIV: r = a / b; break;
  case LT__EW_MAX: r = isnan(a) || isnan(b) ? NAN : (a > b ? a : b); break;
  default: r = isnan(a) || isnan(b) ? NAN : (a < b ? a : b); break;
  }
  /* F32 arithmetic rounds each result once; doing it in double first and
   * rounding after gives the same bits for + - * / (53 >= 2*24 + 2). */
  return ct == LT_F32 ? (double)(float)r : r;
}

/* want (values computed in the compute type) rounded once into dtype dt,
 * as doubles; integers go through I64 so that narrowing wraps. */
static double *round_into(const double *want, int64_t n, lt_dtype dt) {
  lt_tensor *w;
  if (lt__dtype_is_float(dt)) {
    w = lt_from_data(want, LT_F64, 1, (int64_t[]){n});
  } else {
    w = lt_empty(LT_I64, 1, (int64_t[]){n}, LT_HOST);
    for (int64_t i = 0; i < n; i++) ((int64_t *)lt_data(w))[i] = (int64_t)want[i];
  }
  LT_ASSERT_OK_PTR(w);
  lt_tensor *r = lt_cast(w, dt, LT_CAST_DEFAULT);
  LT_ASSERT_OK_PTR(r);
  double *out = read_f64(r);
  lt_release(r);
  lt_release(w);
  return out;
}

typedef lt_tensor *(*binary_fn)(const lt_tensor *, const lt_tensor *);
static const binary_fn binary_fns[] = {lt_add, lt_sub, lt_mul, lt_div, lt_maximum, lt_minimum};
static const lt_dtype all_dtypes[] = {LT_F32, LT_F16, LT_BF16, LT_F8_E4M3, LT_F8_E5M2,
                                      LT_F64, LT_I32, LT_I64, LT_U8, LT_BOOL};

/* One random broadcast pair: out shape, and each input's shape with some
 * dims set to 1 or dropped from the front. */
static void random_shapes(int *ndim, int64_t *out, int *na, int64_t *sa, int *nb, int64_t *sb) {
  *ndim = (int)lt_test_rand(0, 4);
  for (int d = 0; d < *ndim; d++) out[d] = lt_test_rand(0, 9) == 0 ? 0 : lt_test_rand(1, 7);
  *na = *ndim - (int)lt_test_rand(0, *ndim);
  *nb = *ndim - (*na == *ndim ? (int)lt_test_rand(0, *ndim) : 0);
  for (int d = 0; d < *na; d++) sa[d] = lt_test_rand(0, 3) == 0 ? 1 : out[*ndim - *na + d];
  for (int d = 0; d < *nb; d++) sb[d] = lt_test_rand(0, 3) == 0 ? 1 : out[*ndim - *nb + d];
}

/* Checks one binary op on inputs a and b against the reference. */
static void check_binary(lt__ew_op op, const lt_tensor *a, const lt_tensor *b) {
  lt_dtype r = lt_promote_types(lt_dtype_of(a), lt_dtype_of(b));
  bool bool_sub = op == LT__EW_SUB && r == LT_BOOL;
  lt_tensor *got = binary_fns[op](a, b);
  if (bool_sub) {
    ck_assert_ptr_null(got);
    ck_assert_int_eq(lt_last_status(), LT_ERR_DTYPE);
    return;
  }
  LT_ASSERT_OK_PTR(got);
  if (op == LT__EW_DIV && !(r == LT_F64 || r == LT_F32 || r == LT_F16 || r == LT_BF16 || r == LT_F8_E4M3 ||
                            r == LT_F8_E5M2))
    r = LT_F32;
  ck_assert_int_eq(lt_dtype_of(got), r);
  int nd = lt_ndim(got);
  int64_t shape[LT_MAX_DIMS];
  for (int d = 0; d < nd; d++) shape[d] = lt_shape(got)[d];
  lt_tensor *ea = lt_expand(a, nd, shape), *eb = lt_expand(b, nd, shape);
  LT_ASSERT_OK_PTR(ea);
  LT_ASSERT_OK_PTR(eb);
  double *x = read_f64(ea), *y = read_f64(eb), *g = read_f64(got);
  int64_t n = lt_numel(got);
  lt_dtype ct = lt__compute_type(r);
  double *want = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
  for (int64_t i = 0; i < n; i++) want[i] = ref_binary(op, x[i], y[i], ct);
  double *rounded = round_into(want, n, r);
  for (int64_t i = 0; i < n; i++)
    if (!same_value(g[i], rounded[i])) ck_abort_msg("op %d (%s, %s) element %lld: %g and %g gave %.17g, want %.17g",
                  (int)op, lt_dtype_name(lt_dtype_of(a)), lt_dtype_name(lt_dtype_of(b)), (long long)i,
                  x[i], y[i], g[i], rounded[i]);
  free(x), free(y), free(g), free(want), free(rounded);
  lt_release(ea), lt_release(eb), lt_release(got);
}

/* ---- random layouts against the reference --------------------------------- */

START_TEST(binary_ops_match_the_reference_on_random_dtypes_shapes_and_layouts) {
  lt_test_seed(0xE1E7u + (uint64_t)_i);
  lt__ew_op op = (lt__ew_op)(_i % 6);
  for (int iter = 0; iter < 150; iter++) {
    int ndim, na, nb;
    int64_t out[LT_MAX_DIMS], sa[LT_MAX_DIMS], sb[LT_MAX_DIMS];
    random_shapes(&ndim, out, &na, sa, &nb, sb);
    lt_dtype da = all_dtypes[lt_test_rand(0, 9)], db = lt_test_rand(0, 2) ? da : all_dtypes[lt_test_rand(0, 9)];
    lt_tensor *a = random_layout(da, na, sa), *b = random_layout(db, nb, sb);
    check_binary(op, a, b);
    lt_release(a), lt_release(b);
  }
}
END_TEST

START_TEST(f32_ops_on_transposed_inputs_larger_than_a_tile_match_the_reference) {
  /* Sizes that are not multiples of the 64-element tile, and one large
   * enough to be split over threads (16 MiB read and written). */
  static const int64_t sizes[][2] = {{130, 67}, {1, 300}, {300, 2}, {65, 65}, {1500, 1100}};
  lt_test_seed(77);
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    int64_t m = sizes[k][0], n = sizes[k][1];
    lt_tensor *a = random_layout(LT_F32, 2, (int64_t[]){m, n});
    lt_tensor *base = random_layout(LT_F32, 2, (int64_t[]){n, m});
    lt_tensor *bt = lt_contiguous(base), *b = lt_transpose(bt, 0, 1);
    for (int op = 0; op < 6; op++) {
      check_binary((lt__ew_op)op, a, b);
      check_binary((lt__ew_op)op, b, a);
    }
    lt_release(a), lt_release(base), lt_release(bt), lt_release(b);
  }
}
END_TEST

/* A transposed input is staged in bands of 64 rows, as wide as the rows
 * up to 8192 columns; outputs past 8 MiB are streamed. Rows that start
 * cache lines and rows that do not, rows split over two bands (8300
 * columns), a last band of a few rows; values exact. */
START_TEST(transposed_inputs_in_aligned_and_unaligned_bands_past_8_mib_stay_exact) {
  static const int64_t sizes[][2] = {{1100, 2048}, {1501, 1499}, {520, 1024}, {300, 1027}, {300, 8300}, {67, 8192}};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    int64_t m = sizes[k][0], n = sizes[k][1];
    lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){m, n}), *bt = lt_test_arange_f32(2, (int64_t[]){n, m});
    lt_tensor *b = lt_transpose(bt, 0, 1), *s = lt_add(a, b);
    LT_ASSERT_OK_PTR(s);
    const float *sv = lt_data(s);
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) {
        float want = (float)(i * n + j) + (float)(j * m + i);
        if (sv[i * n + j] != want)
          ck_abort_msg("[%lld x %lld] at [%lld,%lld]: %g, want %g", (long long)m, (long long)n, (long long)i,
                       (long long)j, sv[i * n + j], want);
      }
    lt_release(a), lt_release(bt), lt_release(b), lt_release(s);
  }
}
END_TEST

START_TEST(narrow_inputs_transposed_go_through_tiles_of_their_own_element_size) {
  lt_test_seed(78);
  static const lt_dtype dts[] = {LT_F16, LT_BF16, LT_F8_E4M3, LT_F64, LT_I32, LT_U8};
  for (size_t k = 0; k < sizeof dts / sizeof dts[0]; k++) {
    lt_tensor *a = random_layout(dts[k], 2, (int64_t[]){70, 90});
    lt_tensor *base = random_layout(dts[k], 2, (int64_t[]){90, 70});
    lt_tensor *bt = lt_contiguous(base), *b = lt_transpose(bt, 0, 1);
    check_binary(LT__EW_ADD, a, b);
    check_binary(LT__EW_MUL, b, a);
    lt_release(a), lt_release(base), lt_release(bt), lt_release(b);
  }
}
END_TEST

typedef lt_tensor *(*unary_fn)(const lt_tensor *);
static const unary_fn unary_fns[] = {lt_neg, lt_abs, lt_exp, lt_log, lt_sqrt, lt_rsqrt,
                                     lt_tanh, lt_sigmoid, lt_relu, lt_gelu, lt_silu};

static double ref_unary(int op, double x) {
  switch (op) {
  case LT_NEG: return -x;
  case LT_ABS: return fabs(x);
  case LT_EXP: return exp(x);
  case LT_LOG: return log(x);
  case LT_SQRT: return sqrt(x);
  case LT_RSQRT: return 1 / sqrt(x);
  case LT_TANH: return tanh(x);
  case LT_SIGMOID: return 1 / (1 + exp(-x));
  case LT_RELU: return isnan(x) ? x : (x > 0 ? x : 0);
  case LT_GELU: return 0.5 * x * (1 + erf(x / sqrt(2.0)));
  default: return x / (1 + exp(-x));
  }
}

/* How far a unary result in dtype dt may be from the exact value w of
 * input x: libm's float functions are within a few ulp of F32, the final
 * rounding into a narrow dtype adds one of its ulp (relative, or its
 * subnormal spacing near zero), and gelu's 1 + erf(x/sqrt 2) cancels for
 * negative x, costing an F32 ulp of 1 times |x|. */
static double unary_tolerance(int op, lt_dtype dt, double x, double w) {
  double rel, tiny;
  switch (dt) {
  case LT_F64: rel = 1e-15, tiny = 0x1p-1074; break;
  case LT_F16: rel = 0x1p-10, tiny = 0x1p-24; break;
  case LT_BF16: rel = 0x1p-7, tiny = 0x1p-133; break;
  case LT_F8_E4M3: rel = 0x1p-3, tiny = 0x1p-9; break;
  case LT_F8_E5M2: rel = 0x1p-2, tiny = 0x1p-16; break;
  default: rel = 0x1p-21, tiny = 0x1p-149; break;
  }
  double t = rel * fabs(w) + tiny;
  if (op == LT_GELU && dt != LT_F64) t += 0x1p-22 * fabs(x);
  return t;
}

START_TEST(unary_ops_match_the_reference_on_random_layouts) {
  lt_test_seed(0x0A0Au + (uint64_t)_i);
  int op = _i;
  for (int iter = 0; iter < 60; iter++) {
    int ndim = (int)lt_test_rand(0, 3);
    int64_t shape[LT_MAX_DIMS];
    for (int d = 0; d < ndim; d++) shape[d] = lt_test_rand(1, 6);
    lt_dtype dt = all_dtypes[lt_test_rand(0, 8)]; /* bool: see its own test */
    lt_tensor *t = random_layout(dt, ndim, shape);
    lt_tensor *got = unary_fns[op](t);
    LT_ASSERT_OK_PTR(got);
    bool keeps = op == LT_NEG || op == LT_ABS || op == LT_RELU;
    lt_dtype r = lt__dtype_is_float(dt) || keeps ? dt : LT_F32;
    ck_assert_int_eq(lt_dtype_of(got), r);
    int64_t n = lt_numel(got);
    double *x = read_f64(t), *g = read_f64(got);
    for (int64_t i = 0; i < n; i++) {
      double w = ref_unary(op, x[i]);
      if (!lt__dtype_is_float(r)) { /* neg/abs/relu of integers: exact, wrapping into r */
        double *rw = round_into(&w, 1, r);
        if (!(g[i] == rw[0])) ck_abort_msg("op %d on %s: %g gave %g, want %g", op, lt_dtype_name(dt), x[i], g[i], rw[0]);
        free(rw);
        continue;
      }
      double *rw = round_into(&w, 1, r); /* what one exact rounding gives: saturation, inf, NaN */
      bool ok = same_value(g[i], rw[0]) || fabs(g[i] - w) <= unary_tolerance(op, r, x[i], w) ||
                (isinf(rw[0]) && isinf(g[i]) && (rw[0] > 0) == (g[i] > 0));
      if (!ok) ck_abort_msg("op %d on %s: %.9g gave %.17g, want %.17g", op, lt_dtype_name(dt), x[i], g[i], w);
      free(rw);
    }
    free(x), free(g);
    lt_release(t), lt_release(got);
  }
}
END_TEST

START_TEST(outputs_over_8_mib_are_streamed_and_still_exact) {
  /* Past 8 MiB the kernel writes with streaming stores, in pieces; rows
   * of odd length leave partial pieces and unaligned row starts. */
  int64_t m = 1501, n = 1499;
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){m, n}), *row = lt_test_arange_f32(2, (int64_t[]){1, n});
  lt_tensor *s = lt_add(a, row), *h = lt_empty(LT_F16, 2, (int64_t[]){m, n}, LT_HOST);
  LT_ASSERT_OK_PTR(s);
  LT_ASSERT_OK(lt_mul_out(h, a, row)); /* converted on the way out */
  const float *sv = lt_data(s);
  lt_tensor *hf = lt_cast(h, LT_F32, LT_CAST_DEFAULT);
  const float *hv = lt_data(hf);
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      float want = (float)(i * n + j) + (float)j;
      if (sv[i * n + j] != want) ck_abort_msg("add [%lld,%lld]: %g, want %g", (long long)i, (long long)j, sv[i * n + j], want);
      float prod = (float)(i * n + j) * (float)j;
      if (!(hv[i * n + j] == prod || (prod > 65504 && isinf(hv[i * n + j])) ||
            fabsf(hv[i * n + j] - prod) <= prod * 0x1p-11f))
        ck_abort_msg("mul into f16 [%lld,%lld]: %g, want %g", (long long)i, (long long)j, hv[i * n + j], prod);
    }
  lt_release(a), lt_release(row), lt_release(s), lt_release(h), lt_release(hf);
}
END_TEST

/* ---- exact cases ----------------------------------------------------------- */

START_TEST(promotion_follows_pytorch_and_the_narrowest_exact_float) {
  ck_assert_int_eq(lt_promote_types(LT_F16, LT_BF16), LT_F32);
  ck_assert_int_eq(lt_promote_types(LT_F8_E4M3, LT_F8_E5M2), LT_F32);
  ck_assert_int_eq(lt_promote_types(LT_F8_E4M3, LT_F16), LT_F16);
  ck_assert_int_eq(lt_promote_types(LT_F8_E5M2, LT_BF16), LT_BF16);
  ck_assert_int_eq(lt_promote_types(LT_F16, LT_F32), LT_F32);
  ck_assert_int_eq(lt_promote_types(LT_BF16, LT_F64), LT_F64);
  ck_assert_int_eq(lt_promote_types(LT_I64, LT_F8_E4M3), LT_F8_E4M3);
  ck_assert_int_eq(lt_promote_types(LT_U8, LT_I32), LT_I32);
  ck_assert_int_eq(lt_promote_types(LT_I32, LT_I64), LT_I64);
  ck_assert_int_eq(lt_promote_types(LT_BOOL, LT_U8), LT_U8);
  ck_assert_int_eq(lt_promote_types(LT_BOOL, LT_BOOL), LT_BOOL);
  for (size_t i = 0; i < 10; i++)
    for (size_t j = 0; j < 10; j++)
      ck_assert_int_eq(lt_promote_types(all_dtypes[i], all_dtypes[j]), lt_promote_types(all_dtypes[j], all_dtypes[i]));
  lt_promote_types((lt_dtype)99, LT_F32);
  ck_assert_int_eq(lt_last_status(), LT_ERR_ARG);
}
END_TEST

START_TEST(integer_arithmetic_wraps_and_division_gives_f32) {
  int32_t a[] = {INT32_MAX, -7, 7}, b[] = {1, 2, -2};
  lt_tensor *x = lt_from_data(a, LT_I32, 1, (int64_t[]){3});
  lt_tensor *y = lt_from_data(b, LT_I32, 1, (int64_t[]){3});
  lt_tensor *s = lt_add(x, y), *q = lt_div(x, y);
  ck_assert_int_eq(lt_dtype_of(s), LT_I32);
  const int32_t *sv = lt_data(s);
  ck_assert_int_eq(sv[0], INT32_MIN);
  ck_assert_int_eq(sv[1], -5);
  ck_assert_int_eq(lt_dtype_of(q), LT_F32);
  const float *qv = lt_data(q);
  ck_assert(qv[1] == -3.5f && qv[2] == -3.5f);
  lt_release(x), lt_release(y), lt_release(s), lt_release(q);
}
END_TEST

START_TEST(bools_add_as_or_multiply_as_and_and_refuse_subtraction) {
  bool a[] = {false, false, true, true}, b[] = {false, true, false, true};
  lt_tensor *x = lt_from_data(a, LT_BOOL, 1, (int64_t[]){4});
  lt_tensor *y = lt_from_data(b, LT_BOOL, 1, (int64_t[]){4});
  lt_tensor *s = lt_add(x, y), *m = lt_mul(x, y);
  const bool *sv = lt_data(s), *mv = lt_data(m);
  ck_assert(!sv[0] && sv[1] && sv[2] && sv[3]);
  ck_assert(!mv[0] && !mv[1] && !mv[2] && mv[3]);
  LT_ASSERT_FAILS(lt_sub(x, y), LT_ERR_DTYPE);
  LT_ASSERT_FAILS(lt_neg(x), LT_ERR_DTYPE);
  lt_tensor *e = lt_exp(x);
  ck_assert_int_eq(lt_dtype_of(e), LT_F32);
  ck_assert(((const float *)lt_data(e))[3] == expf(1.0f));
  lt_release(x), lt_release(y), lt_release(s), lt_release(m), lt_release(e);
}
END_TEST

START_TEST(maximum_and_minimum_propagate_nan_and_relu_keeps_it) {
  float a[] = {NAN, 1, 2, -1}, b[] = {1, NAN, 3, -2};
  lt_tensor *x = from_f32(1, (int64_t[]){4}, a), *y = from_f32(1, (int64_t[]){4}, b);
  lt_tensor *mx = lt_maximum(x, y), *mn = lt_minimum(x, y), *r = lt_relu(x);
  const float *p = lt_data(mx), *q = lt_data(mn), *rv = lt_data(r);
  ck_assert(isnan(p[0]) && isnan(p[1]) && p[2] == 3 && p[3] == -1);
  ck_assert(isnan(q[0]) && isnan(q[1]) && q[2] == 2 && q[3] == -2);
  ck_assert(isnan(rv[0]) && rv[1] == 1 && rv[2] == 2 && rv[3] == 0);
  lt_release(x), lt_release(y), lt_release(mx), lt_release(mn), lt_release(r);
}
END_TEST

START_TEST(sigmoid_and_silu_stay_finite_at_extreme_inputs) {
  float a[] = {-1000, 1000, -100, 0};
  lt_tensor *x = from_f32(1, (int64_t[]){4}, a);
  lt_tensor *s = lt_sigmoid(x), *u = lt_silu(x);
  const float *sv = lt_data(s), *uv = lt_data(u);
  ck_assert(sv[0] == 0 && sv[1] == 1 && sv[3] == 0.5f);
  ck_assert(uv[0] == 0 && uv[1] == 1000 && uv[3] == 0 && isfinite(uv[2]));
  lt_release(x), lt_release(s), lt_release(u);
}
END_TEST

START_TEST(scalar_forms_keep_the_tensor_dtype_unless_the_scalar_is_fractional) {
  int32_t a[] = {1, 2};
  lt_tensor *x = lt_from_data(a, LT_I32, 1, (int64_t[]){2});
  lt_tensor *s = lt_add_scalar(x, 3), *f = lt_mul_scalar(x, 0.5);
  ck_assert_int_eq(lt_dtype_of(s), LT_I32);
  ck_assert_int_eq(((const int32_t *)lt_data(s))[1], 5);
  ck_assert_int_eq(lt_dtype_of(f), LT_F32);
  ck_assert(((const float *)lt_data(f))[1] == 1.0f);
  bool bv[] = {true, false};
  lt_tensor *b = lt_from_data(bv, LT_BOOL, 1, (int64_t[]){2}), *bi = lt_add_scalar(b, 1);
  ck_assert_int_eq(lt_dtype_of(bi), LT_I64);
  ck_assert_int_eq(((const int64_t *)lt_data(bi))[0], 2);
  uint16_t h[] = {0x3C00}; /* 1.0 in F16: 1 + 0.1 rounds in F32 first, then once to F16 */
  lt_tensor *x16 = lt_from_data(h, LT_F16, 1, (int64_t[]){1}), *y16 = lt_add_scalar(x16, 0.1);
  ck_assert_int_eq(lt_dtype_of(y16), LT_F16);
  ck_assert_int_eq(((const uint16_t *)lt_data(y16))[0], 0x3C66);
  lt_release(x), lt_release(s), lt_release(f), lt_release(b), lt_release(bi), lt_release(x16), lt_release(y16);
}
END_TEST

START_TEST(zero_dim_and_empty_inputs_give_zero_dim_and_empty_results) {
  float one = 2;
  lt_tensor *s = lt_from_data(&one, LT_F32, 0, NULL);
  lt_tensor *e = lt_empty(LT_F32, 2, (int64_t[]){0, 3}, LT_HOST);
  lt_tensor *ss = lt_mul(s, s), *es = lt_add(e, s);
  ck_assert_int_eq(lt_ndim(ss), 0);
  ck_assert(((const float *)lt_data(ss))[0] == 4);
  ck_assert_int_eq(lt_ndim(es), 2);
  ck_assert_int_eq(lt_numel(es), 0);
  lt_release(s), lt_release(e), lt_release(ss), lt_release(es);
}
END_TEST

/* ---- _out forms ---------------------------------------------------------------- */

START_TEST(add_out_writes_into_a_transposed_destination) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){2, 3});
  lt_tensor *buf = lt_zeros(LT_F32, 2, (int64_t[]){3, 2}, LT_HOST), *d = lt_transpose(buf, 0, 1);
  LT_ASSERT_OK(lt_add_out(d, a, a));
  const float *p = lt_data(buf); /* buf[j][i] = 2 * (3i + j) */
  float want[] = {0, 6, 2, 8, 4, 10};
  for (int i = 0; i < 6; i++) ck_assert(p[i] == want[i]);
  lt_release(a), lt_release(buf), lt_release(d);
}
END_TEST

START_TEST(out_forms_work_in_place_on_an_identical_layout) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){4, 5}), *b = lt_test_arange_f32(1, (int64_t[]){5});
  LT_ASSERT_OK(lt_mul_out(a, a, b));
  const float *p = lt_data(a);
  for (int i = 0; i < 20; i++) ck_assert(p[i] == (float)i * (float)(i % 5));
  LT_ASSERT_OK(lt_unary_out(a, LT_NEG, a));
  ck_assert(p[19] == -19.0f * 4);
  lt_release(a), lt_release(b);
}
END_TEST

START_TEST(out_forms_convert_into_a_wider_dst_and_refuse_a_lower_category) {
  lt_tensor *a = lt_test_arange_f32(1, (int64_t[]){3});
  lt_tensor *d64 = lt_empty(LT_F64, 1, (int64_t[]){3}, LT_HOST), *di = lt_empty(LT_I32, 1, (int64_t[]){3}, LT_HOST);
  LT_ASSERT_OK(lt_add_out(d64, a, a));
  ck_assert(((const double *)lt_data(d64))[2] == 4.0);
  LT_ASSERT_STATUS(lt_add_out(di, a, a), LT_ERR_DTYPE);
  lt_release(a), lt_release(d64), lt_release(di);
}
END_TEST

START_TEST(out_forms_round_or_wrap_into_the_result_dtype_before_dst) {
  uint16_t h[] = {0x3C00, 0x3C01}; /* 1 and 1 + 2^-10 in F16 */
  lt_tensor *x = lt_from_data(h, LT_F16, 1, (int64_t[]){2}), *d = lt_empty(LT_F32, 1, (int64_t[]){2}, LT_HOST);
  LT_ASSERT_OK(lt_mul_out(d, x, x)); /* (1 + 2^-10)^2 rounds to 1 + 2^-9 in F16 */
  ck_assert(((const float *)lt_data(d))[1] == 1.0f + 0x1p-9f);
  uint8_t u[] = {200, 100};
  lt_tensor *b = lt_from_data(u, LT_U8, 1, (int64_t[]){2}), *di = lt_empty(LT_I32, 1, (int64_t[]){2}, LT_HOST);
  LT_ASSERT_OK(lt_add_out(di, b, b)); /* a u8 result wraps: 400 -> 144 */
  ck_assert_int_eq(((const int32_t *)lt_data(di))[0], 144);
  ck_assert_int_eq(((const int32_t *)lt_data(di))[1], 200);
  lt_release(x), lt_release(d), lt_release(b), lt_release(di);
}
END_TEST

START_TEST(out_forms_refuse_wrong_shapes_aliasing_and_expanded_dsts) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){3, 3});
  lt_tensor *small = lt_empty(LT_F32, 1, (int64_t[]){3}, LT_HOST);
  LT_ASSERT_STATUS(lt_add_out(small, a, a), LT_ERR_SHAPE);
  lt_tensor *t = lt_transpose(a, 0, 1); /* same storage, another order: partial aliasing */
  LT_ASSERT_STATUS(lt_add_out(a, t, t), LT_ERR_OVERLAP);
  lt_tensor *row = lt_empty(LT_F32, 2, (int64_t[]){1, 3}, LT_HOST), *ex = lt_expand(row, 2, (int64_t[]){3, 3});
  LT_ASSERT_STATUS(lt_add_out(ex, a, a), LT_ERR_OVERLAP);
  LT_ASSERT_STATUS(lt_add_out(NULL, a, a), LT_ERR_ARG);
  LT_ASSERT_STATUS(lt_unary_out(small, (lt_unary_op)42, small), LT_ERR_ARG);
  lt_release(a), lt_release(small), lt_release(t), lt_release(row), lt_release(ex);
}
END_TEST

START_TEST(out_forms_refuse_a_read_only_dst) {
  char path[] = "/tmp/lt_ew_readonly_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  close(fd);
  lt_tensor *a = lt_test_arange_f32(1, (int64_t[]){4});
  const char *names[] = {"a"};
  lt_tensor *const ts[] = {a};
  LT_ASSERT_OK(lt_safetensors_save(path, 1, names, ts, NULL));
  lt_safetensors *f = lt_safetensors_open(path);
  LT_ASSERT_OK_PTR(f);
  lt_tensor *mapped = lt_safetensors_get(f, "a");
  LT_ASSERT_OK_PTR(mapped);
  LT_ASSERT_STATUS(lt_add_out(mapped, a, a), LT_ERR_ARG);
  LT_ASSERT_STATUS(lt_unary_out(mapped, LT_NEG, a), LT_ERR_ARG);
  ck_assert(((const float *)lt_data(mapped))[3] == 3.0f);
  lt_release(mapped), lt_release(a);
  lt_safetensors_close(f);
  unlink(path);
}
END_TEST

START_TEST(shapes_that_do_not_broadcast_fail_with_a_message_naming_them) {
  lt_tensor *a = lt_empty(LT_F32, 2, (int64_t[]){2, 3}, LT_HOST), *b = lt_empty(LT_F32, 1, (int64_t[]){4}, LT_HOST);
  LT_ASSERT_FAILS(lt_add(a, b), LT_ERR_SHAPE);
  ck_assert_msg(strstr(lt_last_error(), "3 vs 4") != NULL, "%s", lt_last_error());
  LT_ASSERT_FAILS(lt_add(a, NULL), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_exp(NULL), LT_ERR_ARG);
  lt_release(a), lt_release(b);
}
END_TEST

static void *refuse_alloc(size_t size, size_t align, void *ctx) {
  (void)size, (void)align, (void)ctx;
  return NULL;
}

static void never_free(void *p, size_t size, size_t align, void *ctx) { (void)p, (void)size, (void)align, (void)ctx; }

START_TEST(a_transposed_input_is_read_in_place_when_its_stage_cannot_be_allocated) {
  lt_test_seed(91);
  lt_tensor *a = random_layout(LT_F32, 2, (int64_t[]){300, 200});
  lt_tensor *base = random_layout(LT_F32, 2, (int64_t[]){200, 300});
  lt_tensor *bt = lt_contiguous(base), *b = lt_transpose(bt, 0, 1);
  lt_tensor *want = lt_add(a, b), *got = lt_zeros(LT_F32, 2, (int64_t[]){300, 200}, LT_HOST);
  lt_set_allocator(&(lt_allocator){refuse_alloc, never_free, NULL});
  lt_status s = lt_add_out(got, a, b);
  lt_set_allocator(NULL);
  LT_ASSERT_OK(s);
  ck_assert(memcmp(lt_data(got), lt_data(want), 300 * 200 * sizeof(float)) == 0);
  lt_release(a), lt_release(base), lt_release(bt), lt_release(b), lt_release(want), lt_release(got);
}
END_TEST

/* ---- accounting ------------------------------------------------------------------ */

START_TEST(strided_inputs_are_not_copied_and_flops_are_one_per_output_element) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){100, 80}), *t = lt_transpose(a, 0, 1);
  lt_tensor *r = lt_test_arange_f32(1, (int64_t[]){100});
  lt_stats_reset(LT_HOST);
  lt_tensor *s = lt_add(t, r);
  lt_stats st = lt_stats_get(LT_HOST);
  ck_assert_int_eq(st.copies, 0);
  ck_assert_int_eq(st.bytes_copied, 0);
  ck_assert_int_eq(st.allocs, 1);
  ck_assert_int_eq(st.flops, 8000);
  ck_assert_int_eq(lt_flops_elementwise(8000, 3), 24000);
  ck_assert_int_eq(lt_flops_elementwise(INT64_MAX, 2), -1);
  ck_assert_int_eq(lt_last_status(), LT_ERR_NOMEM);
  lt_release(a), lt_release(t), lt_release(r), lt_release(s);
}
END_TEST

/* ---- the planner ------------------------------------------------------------------- */

START_TEST(planner_merges_dense_operands_into_one_dim) {
  lt__ew_args a = {.ninputs = 2, .ndim = 3, .shape = {2, 3, 4}};
  for (int k = 0; k < 3; k++) memcpy(a.strides[k], (int64_t[]){12, 4, 1}, sizeof(int64_t) * 3);
  lt__plan_elementwise(&a);
  ck_assert_int_eq(a.ndim, 1);
  ck_assert_int_eq(a.shape[0], 24);
  ck_assert_int_eq(a.tiled, 0);
}
END_TEST

START_TEST(planner_marks_a_transposed_input_and_moves_its_unit_dim_next_to_the_innermost) {
  /* dst [5,6,7] row-major; input 2 is a contiguous [7,6,5] permuted to
   * [5,6,7], so its unit stride is on dim 0 and nothing merges. */
  lt__ew_args a = {.ninputs = 2, .ndim = 3, .shape = {5, 6, 7}};
  memcpy(a.strides[0], (int64_t[]){42, 7, 1}, sizeof(int64_t) * 3);
  memcpy(a.strides[1], (int64_t[]){42, 7, 1}, sizeof(int64_t) * 3);
  memcpy(a.strides[2], (int64_t[]){1, 5, 30}, sizeof(int64_t) * 3);
  lt__plan_elementwise(&a);
  ck_assert_int_eq(a.tiled, 2);
  ck_assert_int_eq(a.ndim, 3);
  int64_t want_shape[] = {6, 5, 7}, want_in[] = {5, 1, 30}, want_dst[] = {7, 42, 1};
  for (int d = 0; d < 3; d++) {
    ck_assert_int_eq(a.shape[d], want_shape[d]);
    ck_assert_int_eq(a.strides[2][d], want_in[d]);
    ck_assert_int_eq(a.strides[0][d], want_dst[d]);
  }
}
END_TEST

START_TEST(planner_walks_a_transposed_dst_in_its_own_order) {
  lt__ew_args a = {.ninputs = 1, .ndim = 2, .shape = {3, 4}};
  memcpy(a.strides[0], (int64_t[]){1, 3}, sizeof(int64_t) * 2);
  memcpy(a.strides[1], (int64_t[]){1, 3}, sizeof(int64_t) * 2);
  lt__plan_elementwise(&a);
  ck_assert_int_eq(a.ndim, 1);
  ck_assert_int_eq(a.shape[0], 12);
  ck_assert_int_eq(a.strides[0][0], 1);
}
END_TEST

Suite *elementwise_suite(void) {
  Suite *s = suite_create("elementwise");
  TCase *r = tcase_create("reference");
  tcase_set_timeout(r, 120);
  tcase_add_loop_test(r, binary_ops_match_the_reference_on_random_dtypes_shapes_and_layouts, 0, 12);
  tcase_add_test(r, f32_ops_on_transposed_inputs_larger_than_a_tile_match_the_reference);
  tcase_add_test(r, transposed_inputs_in_aligned_and_unaligned_bands_past_8_mib_stay_exact);
  tcase_add_test(r, narrow_inputs_transposed_go_through_tiles_of_their_own_element_size);
  tcase_add_test(r, outputs_over_8_mib_are_streamed_and_still_exact);
  tcase_add_loop_test(r, unary_ops_match_the_reference_on_random_layouts, 0, 11);
  suite_add_tcase(s, r);
  TCase *e = tcase_create("exact");
  tcase_add_test(e, promotion_follows_pytorch_and_the_narrowest_exact_float);
  tcase_add_test(e, integer_arithmetic_wraps_and_division_gives_f32);
  tcase_add_test(e, bools_add_as_or_multiply_as_and_and_refuse_subtraction);
  tcase_add_test(e, maximum_and_minimum_propagate_nan_and_relu_keeps_it);
  tcase_add_test(e, sigmoid_and_silu_stay_finite_at_extreme_inputs);
  tcase_add_test(e, scalar_forms_keep_the_tensor_dtype_unless_the_scalar_is_fractional);
  tcase_add_test(e, zero_dim_and_empty_inputs_give_zero_dim_and_empty_results);
  suite_add_tcase(s, e);
  TCase *o = tcase_create("out");
  tcase_add_test(o, add_out_writes_into_a_transposed_destination);
  tcase_add_test(o, out_forms_work_in_place_on_an_identical_layout);
  tcase_add_test(o, out_forms_convert_into_a_wider_dst_and_refuse_a_lower_category);
  tcase_add_test(o, out_forms_round_or_wrap_into_the_result_dtype_before_dst);
  tcase_add_test(o, out_forms_refuse_wrong_shapes_aliasing_and_expanded_dsts);
  tcase_add_test(o, out_forms_refuse_a_read_only_dst);
  tcase_add_test(o, a_transposed_input_is_read_in_place_when_its_stage_cannot_be_allocated);
  tcase_add_test(o, shapes_that_do_not_broadcast_fail_with_a_message_naming_them);
  suite_add_tcase(s, o);
  TCase *a = tcase_create("accounting");
  tcase_add_test(a, strided_inputs_are_not_copied_and_flops_are_one_per_output_element);
  suite_add_tcase(s, a);
  TCase *p = tcase_create("planner");
  tcase_add_test(p, planner_merges_dense_operands_into_one_dim);
  tcase_add_test(p, planner_marks_a_transposed_input_and_moves_its_unit_dim_next_to_the_innermost);
  tcase_add_test(p, planner_walks_a_transposed_dst_in_its_own_order);
  suite_add_tcase(s, p);
  return s;
}

int main(void) { return lt_run_suite(elementwise_suite()); }
