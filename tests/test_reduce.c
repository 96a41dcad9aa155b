/* Specification of the reductions (lt_sum, lt_mean, lt_amax, lt_amin,
 * lt_argmax) and of lt_softmax / lt_log_softmax: against a naive
 * double-precision reference on random dtypes, layouts and sets of dims,
 * plus the exact cases (2^24 ones, ties, NaN, empty dims, keepdim) and
 * the error codes. Values are quarters, so that every sum the tests make
 * is exact in F32 and the reference can demand equality. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "support/check_helpers.h"

static const lt_dtype all_dtypes[] = {LT_F32, LT_F16, LT_BF16, LT_F8_E4M3, LT_F8_E5M2,
                                      LT_F64, LT_I32, LT_I64, LT_U8, LT_BOOL};

static bool is_float(lt_dtype dt) { return dt <= LT_F64 && dt != LT_I32; }

static double *read_f64(const lt_tensor *t) {
  lt_tensor *d = lt_cast(t, LT_F64, LT_CAST_DEFAULT);
  LT_ASSERT_OK_PTR(d);
  int64_t n = lt_numel(d);
  double *v = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
  if (n > 0) LT_ASSERT_OK(lt_read(d, v, sizeof(double) * (size_t)n));
  lt_release(d);
  return v;
}

/* want rounded once into dt (as lt_cast would), as a double. */
static double round_to(double want, lt_dtype dt) {
  lt_tensor *w = lt_from_data(&want, LT_F64, 0, NULL), *r = lt_cast(w, dt, LT_CAST_DEFAULT);
  LT_ASSERT_OK_PTR(r);
  double *v = read_f64(r), out = v[0];
  free(v);
  lt_release(w), lt_release(r);
  return out;
}

/* A tensor of shape whose layout is random (permuted base, sliced with
 * steps of +-1 or 2) holding quarters in [-8, 8] (non-negative for u8). */
static lt_tensor *random_tensor(lt_dtype dt, int ndim, const int64_t *shape) {
  int perm[LT_MAX_DIMS], inv[LT_MAX_DIMS];
  int64_t step[LT_MAX_DIMS], big[LT_MAX_DIMS], pshape[LT_MAX_DIMS];
  for (int d = 0; d < ndim; d++) {
    step[d] = lt_test_rand(1, 2) * (lt_test_rand(0, 3) == 0 ? -1 : 1);
    big[d] = shape[d] * (step[d] < 0 ? -step[d] : step[d]);
    perm[d] = d;
  }
  for (int d = ndim - 1; d > 0; d--) {
    int j = (int)lt_test_rand(0, d), t = perm[d];
    perm[d] = perm[j], perm[j] = t;
  }
  for (int d = 0; d < ndim; d++) pshape[d] = big[perm[d]], inv[perm[d]] = d;
  int64_t n = lt_test_numel(ndim, pshape);
  float *v = malloc(sizeof(float) * (size_t)(n > 0 ? n : 1));
  for (int64_t i = 0; i < n; i++) {
    v[i] = (float)lt_test_rand(-32, 32) / 4;
    if (dt == LT_U8) v[i] = fabsf(v[i]);
  }
  lt_tensor *f = lt_from_data(v, LT_F32, ndim, pshape), *c = lt_cast(f, dt, LT_CAST_DEFAULT);
  free(v);
  lt_tensor *t = lt_permute(c, inv);
  lt_release(f), lt_release(c);
  for (int d = 0; d < ndim; d++) {
    lt_tensor *s = lt_slice(t, d, step[d] > 0 ? 0 : big[d] - 1, LT_NONE, step[d]);
    lt_release(t);
    t = s;
  }
  LT_ASSERT_OK_PTR(t);
  return t;
}

typedef lt_tensor *(*reduce_fn)(const lt_tensor *, int, const int *, bool);
static const reduce_fn fns[] = {lt_sum, lt_mean, lt_amax, lt_amin};
enum { SUM, MEAN, AMAX, AMIN };

/* The reference fold of op over the input values x (row-major, shape)
 * for output index `out` when dims marked in red are reduced. */
static double reference(int op, const double *x, int ndim, const int64_t *shape, const bool *red, const int64_t *out_idx,
                        int64_t *count) {
  int64_t idx[LT_MAX_DIMS];
  double acc = op == AMAX ? -INFINITY : op == AMIN ? INFINITY : 0;
  bool nan = false;
  *count = 0;
  if (lt_test_first_index(ndim, shape, idx)) {
    int64_t flat = 0;
    do {
      bool match = true;
      for (int d = 0, k = 0; d < ndim; d++) {
        if (!red[d]) match = match && idx[d] == out_idx[k++];
      }
      if (match) {
        double v = x[flat];
        (*count)++;
        if (isnan(v)) nan = true;
        if (op == SUM || op == MEAN) acc += v;
        else if (op == AMAX) acc = v > acc ? v : acc;
        else acc = v < acc ? v : acc;
      }
      flat++;
    } while (lt_test_next_index(ndim, shape, idx));
  }
  if (nan) return NAN;
  return op == MEAN ? acc / (double)*count : acc;
}

START_TEST(reductions_match_the_reference_on_random_dtypes_layouts_and_dims) {
  int op = _i;
  lt_test_seed(0x5E0u + (uint64_t)op);
  for (int iter = 0; iter < 120; iter++) {
    int ndim = (int)lt_test_rand(0, 4);
    int64_t shape[LT_MAX_DIMS];
    for (int d = 0; d < ndim; d++) shape[d] = lt_test_rand(1, 6);
    lt_dtype dt = all_dtypes[lt_test_rand(0, 9)];
    if (op == MEAN && !is_float(dt)) dt = LT_F32;
    lt_tensor *t = random_tensor(dt, ndim, shape);
    int dims[LT_MAX_DIMS], nd = 0;
    bool red[LT_MAX_DIMS] = {false};
    for (int d = 0; d < ndim; d++)
      if (lt_test_rand(0, 1)) {
        dims[nd++] = lt_test_rand(0, 1) ? d : d - ndim; /* negative dims count from the end */
        red[d] = true;
      }
    if (nd == 0)
      for (int d = 0; d < ndim; d++) red[d] = true; /* ndims == 0 reduces every dim */
    bool keep = lt_test_rand(0, 1);
    lt_tensor *r = fns[op](t, nd, dims, keep);
    LT_ASSERT_OK_PTR(r);
    lt_dtype want_dt = op == SUM && !is_float(dt) ? LT_I64 : dt;
    ck_assert_int_eq(lt_dtype_of(r), want_dt);
    int kept = 0;
    for (int d = 0; d < ndim; d++) {
      if (!red[d]) ck_assert_int_eq(lt_shape(r)[kept], shape[d]);
      else if (keep) ck_assert_int_eq(lt_shape(r)[kept], 1);
      kept += !red[d] || keep;
    }
    ck_assert_int_eq(lt_ndim(r), kept);
    double *x = read_f64(t), *g = read_f64(r);
    int64_t out_shape[LT_MAX_DIMS], oidx[LT_MAX_DIMS], k = 0, o = 0, count;
    for (int d = 0; d < ndim; d++)
      if (!red[d]) out_shape[k++] = shape[d];
    if (lt_test_first_index((int)k, out_shape, oidx)) do {
        double w = round_to(reference(op, x, ndim, shape, red, oidx, &count), want_dt);
        if (!(g[o] == w || (isnan(g[o]) && isnan(w)))) ck_abort_msg("op %d on %s: output %lld is %.17g, want %.17g", op,
                      lt_dtype_name(dt), (long long)o, g[o], w);
        o++;
      } while (lt_test_next_index((int)k, out_shape, oidx));
    free(x), free(g);
    lt_release(t), lt_release(r);
  }
}
END_TEST

START_TEST(sum_of_2_to_the_24_f32_ones_is_exactly_2_to_the_24) {
  int64_t n = (int64_t)1 << 24;
  lt_tensor *t = lt_empty(LT_F32, 1, &n, LT_HOST);
  float *p = lt_data(t);
  for (int64_t i = 0; i < n; i++) p[i] = 1.0f;
  lt_tensor *s = lt_sum(t, 0, NULL, false);
  ck_assert(((const float *)lt_data(s))[0] == 16777216.0f);
  lt_tensor *v = lt_view(t, 2, (int64_t[]){4096, 4096}), *vt = lt_transpose(v, 0, 1);
  lt_tensor *s2 = lt_sum(vt, 0, NULL, false);
  ck_assert(((const float *)lt_data(s2))[0] == 16777216.0f);
  lt_release(t), lt_release(s), lt_release(v), lt_release(vt), lt_release(s2);
}
END_TEST

START_TEST(a_long_sum_split_over_parts_matches_the_exact_total) {
  lt_test_seed(5);
  int64_t n = 3000017;
  lt_tensor *t = lt_empty(LT_F64, 1, &n, LT_HOST);
  double *p = lt_data(t), want = 0;
  for (int64_t i = 0; i < n; i++) want += p[i] = (double)lt_test_rand(-400, 400) / 4;
  lt_tensor *s = lt_sum(t, 0, NULL, false), *m = lt_amax(t, 0, NULL, false);
  ck_assert(((const double *)lt_data(s))[0] == want);
  ck_assert(((const double *)lt_data(m))[0] == 100.0);
  lt_release(t), lt_release(s), lt_release(m);
}
END_TEST

START_TEST(column_reductions_of_a_tall_matrix_match_the_reference) {
  /* Reducing dim 0 of a row-major matrix walks many outputs together, in
   * blocks of columns; 700 columns and 3001 rows leave partial blocks. */
  lt_test_seed(21);
  int64_t rows = 3001, cols = 700;
  lt_tensor *t = lt_empty(LT_F32, 2, (int64_t[]){rows, cols}, LT_HOST);
  float *p = lt_data(t);
  for (int64_t i = 0; i < rows * cols; i++) p[i] = (float)lt_test_rand(-32, 32) / 4;
  p[5 * cols + 3] = NAN;
  p[7 * cols + 9] = 100, p[9 * cols + 9] = 100;
  lt_tensor *s = lt_sum(t, 1, (int[]){0}, false), *m = lt_amax(t, 1, (int[]){0}, false);
  lt_tensor *am = lt_argmax(t, 0, false);
  const float *sv = lt_data(s), *mv = lt_data(m);
  const int64_t *av = lt_data(am);
  for (int64_t j = 0; j < cols; j++) {
    double sum = 0, best = -INFINITY;
    int64_t at = 0;
    for (int64_t i = 0; i < rows; i++) {
      float v = p[i * cols + j];
      sum += v;
      if (v > best || (isnan(v) && !isnan(best))) best = v, at = i;
      if (isnan(best)) break;
    }
    if (j == 3) {
      ck_assert(isnan(sv[j]) && isnan(mv[j]) && av[j] == 5);
      continue;
    }
    if (!(sv[j] == (float)sum && mv[j] == (float)best && av[j] == at))
      ck_abort_msg("column %lld: sum %g max %g at %lld, want %g %g %lld", (long long)j, sv[j], mv[j],
                   (long long)av[j], sum, best, (long long)at);
  }
  ck_assert_int_eq(av[9], 7);
  lt_release(t), lt_release(s), lt_release(m), lt_release(am);
}
END_TEST

START_TEST(argmax_takes_the_first_maximum_and_the_first_nan) {
  float a[] = {1, 3, 3, 2, NAN, 5, NAN, 0};
  lt_tensor *t = lt_from_data(a, LT_F32, 2, (int64_t[]){2, 4});
  lt_tensor *r = lt_argmax(t, 1, false), *k = lt_argmax(t, -1, true), *c = lt_argmax(t, 0, false);
  ck_assert_int_eq(lt_dtype_of(r), LT_I64);
  const int64_t *rv = lt_data(r), *cv = lt_data(c);
  ck_assert_int_eq(rv[0], 1);
  ck_assert_int_eq(rv[1], 0);
  ck_assert_int_eq(lt_ndim(k), 2);
  ck_assert_int_eq(lt_shape(k)[1], 1);
  ck_assert(cv[0] == 1 && cv[1] == 1 && cv[2] == 1 && cv[3] == 0);
  lt_release(t), lt_release(r), lt_release(k), lt_release(c);
}
END_TEST

START_TEST(empty_dims_sum_to_zero_average_to_nan_and_have_no_maximum) {
  lt_tensor *t = lt_empty(LT_F32, 2, (int64_t[]){0, 3}, LT_HOST);
  lt_tensor *s = lt_sum(t, 1, (int[]){0}, false), *m = lt_mean(t, 1, (int[]){0}, false);
  ck_assert_int_eq(lt_numel(s), 3);
  ck_assert(((const float *)lt_data(s))[2] == 0);
  ck_assert(isnan(((const float *)lt_data(m))[0]));
  LT_ASSERT_FAILS(lt_amax(t, 1, (int[]){0}, false), LT_ERR_SHAPE);
  LT_ASSERT_FAILS(lt_argmax(t, 0, false), LT_ERR_SHAPE);
  lt_tensor *e = lt_amax(t, 1, (int[]){1}, false); /* reducing the non-empty dim: an empty result */
  LT_ASSERT_OK_PTR(e);
  ck_assert_int_eq(lt_numel(e), 0);
  lt_release(t), lt_release(s), lt_release(m), lt_release(e);
}
END_TEST

START_TEST(a_zero_dim_input_reduces_to_itself) {
  float v = 2.5f;
  lt_tensor *t = lt_from_data(&v, LT_F32, 0, NULL);
  lt_tensor *s = lt_sum(t, 1, (int[]){-1}, false), *a = lt_argmax(t, 0, false);
  ck_assert_int_eq(lt_ndim(s), 0);
  ck_assert(((const float *)lt_data(s))[0] == 2.5f);
  ck_assert_int_eq(((const int64_t *)lt_data(a))[0], 0);
  lt_release(t), lt_release(s), lt_release(a);
}
END_TEST

START_TEST(bad_dims_and_integer_means_fail_with_their_codes) {
  lt_tensor *t = lt_empty(LT_I32, 2, (int64_t[]){2, 3}, LT_HOST);
  LT_ASSERT_FAILS(lt_sum(t, 2, (int[]){0, -2}, false), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_sum(t, 1, (int[]){2}, false), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_sum(t, 1, NULL, false), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_sum(NULL, 0, NULL, false), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_mean(t, 0, NULL, false), LT_ERR_DTYPE);
  LT_ASSERT_FAILS(lt_softmax(t, 0), LT_ERR_DTYPE);
  LT_ASSERT_FAILS(lt_argmax(t, 5, false), LT_ERR_ARG);
  lt_release(t);
}
END_TEST

START_TEST(sums_of_integers_and_bools_are_i64) {
  bool b[] = {true, true, false, true};
  uint8_t u[] = {200, 100, 50, 1};
  lt_tensor *tb = lt_from_data(b, LT_BOOL, 1, (int64_t[]){4}), *tu = lt_from_data(u, LT_U8, 1, (int64_t[]){4});
  lt_tensor *sb = lt_sum(tb, 0, NULL, false), *su = lt_sum(tu, 0, NULL, false), *mu = lt_amax(tu, 0, NULL, false);
  ck_assert_int_eq(lt_dtype_of(sb), LT_I64);
  ck_assert_int_eq(((const int64_t *)lt_data(sb))[0], 3);
  ck_assert_int_eq(((const int64_t *)lt_data(su))[0], 351);
  ck_assert_int_eq(lt_dtype_of(mu), LT_U8);
  ck_assert_int_eq(((const uint8_t *)lt_data(mu))[0], 200);
  lt_release(tb), lt_release(tu), lt_release(sb), lt_release(su), lt_release(mu);
}
END_TEST

START_TEST(reductions_count_flops_and_never_copy_their_input) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){30, 40}), *t = lt_transpose(a, 0, 1);
  lt_stats_reset(LT_HOST);
  lt_tensor *s = lt_sum(t, 1, (int[]){1}, true);
  lt_stats st = lt_stats_get(LT_HOST);
  ck_assert_int_eq(st.copies, 0);
  ck_assert_int_eq(st.flops, 1200);
  const float *p = lt_data(s); /* column j of a: sum over i of 40 i + j */
  for (int j = 0; j < 40; j++) ck_assert(p[j] == (float)(40 * 435 + 30 * j));
  lt_release(a), lt_release(t), lt_release(s);
}
END_TEST

/* ---- softmax ------------------------------------------------------------- */

static void check_softmax(const lt_tensor *t, int dim, bool log_form, double tol) {
  lt_tensor *r = log_form ? lt_log_softmax(t, dim) : lt_softmax(t, dim);
  LT_ASSERT_OK_PTR(r);
  ck_assert_int_eq(lt_dtype_of(r), lt_dtype_of(t));
  int nd = lt_ndim(t);
  int d = dim < 0 ? dim + nd : dim;
  double *x = read_f64(t), *g = read_f64(r);
  int64_t shape[LT_MAX_DIMS], idx[LT_MAX_DIMS], n = lt_numel(t);
  for (int k = 0; k < nd; k++) shape[k] = lt_shape(t)[k];
  int64_t inner = 1;
  for (int k = d + 1; k < nd; k++) inner *= shape[k];
  lt_test_first_index(nd, shape, idx);
  for (int64_t i = 0; i < n; i++) {
    int64_t base = i - idx[d] * inner; /* element 0 of this slice */
    double m = -INFINITY, s = 0;
    for (int64_t j = 0; j < shape[d]; j++) m = fmax(m, x[base + j * inner]);
    for (int64_t j = 0; j < shape[d]; j++) s += exp(x[base + j * inner] - m);
    double w = log_form ? x[i] - m - log(s) : exp(x[i] - m) / s;
    if (!(fabs(g[i] - w) <= tol * (1 + fabs(w)))) ck_abort_msg("element %lld: %.9g, want %.9g", (long long)i, g[i], w);
    lt_test_next_index(nd, shape, idx);
  }
  free(x), free(g);
  lt_release(r);
}

START_TEST(softmax_and_log_softmax_match_the_reference_along_every_dim) {
  lt_test_seed(11);
  static const lt_dtype dts[] = {LT_F32, LT_F64, LT_F16, LT_BF16};
  static const double tols[] = {1e-6, 1e-14, 2e-3, 1e-2};
  for (int k = 0; k < 4; k++)
    for (int iter = 0; iter < 6; iter++) {
      int64_t shape[] = {lt_test_rand(1, 5), lt_test_rand(1, 300), lt_test_rand(1, 4)};
      lt_tensor *t = random_tensor(dts[k], 3, shape);
      for (int dim = -3; dim < 3; dim++) {
        check_softmax(t, dim, false, tols[k]);
        check_softmax(t, dim, true, tols[k]);
      }
      lt_release(t);
    }
}
END_TEST

START_TEST(softmax_is_stable_for_large_inputs) {
  float a[] = {1000, 1001, 1002, -1000};
  lt_tensor *t = lt_from_data(a, LT_F32, 1, (int64_t[]){4}), *s = lt_softmax(t, 0), *l = lt_log_softmax(t, 0);
  const float *sv = lt_data(s), *lv = lt_data(l);
  ck_assert(fabsf(sv[0] + sv[1] + sv[2] + sv[3] - 1) < 1e-6f);
  ck_assert(sv[3] == 0 && isfinite(lv[3]) && lv[3] < -2000);
  ck_assert(fabsf(lv[2] + 0.40760596f) < 1e-5f);
  lt_release(t), lt_release(s), lt_release(l);
}
END_TEST

Suite *reduce_suite(void) {
  Suite *s = suite_create("reduce");
  TCase *r = tcase_create("reference");
  tcase_set_timeout(r, 120);
  tcase_add_loop_test(r, reductions_match_the_reference_on_random_dtypes_layouts_and_dims, 0, 4);
  tcase_add_test(r, softmax_and_log_softmax_match_the_reference_along_every_dim);
  suite_add_tcase(s, r);
  TCase *e = tcase_create("exact");
  tcase_set_timeout(e, 60);
  tcase_add_test(e, sum_of_2_to_the_24_f32_ones_is_exactly_2_to_the_24);
  tcase_add_test(e, a_long_sum_split_over_parts_matches_the_exact_total);
  tcase_add_test(e, column_reductions_of_a_tall_matrix_match_the_reference);
  tcase_add_test(e, argmax_takes_the_first_maximum_and_the_first_nan);
  tcase_add_test(e, empty_dims_sum_to_zero_average_to_nan_and_have_no_maximum);
  tcase_add_test(e, a_zero_dim_input_reduces_to_itself);
  tcase_add_test(e, bad_dims_and_integer_means_fail_with_their_codes);
  tcase_add_test(e, sums_of_integers_and_bools_are_i64);
  tcase_add_test(e, reductions_count_flops_and_never_copy_their_input);
  tcase_add_test(e, softmax_is_stable_for_large_inputs);
  suite_add_tcase(s, e);
  return s;
}

int main(void) { return lt_run_suite(reduce_suite()); }
