/* Specification of lt_matmul and lt_flops_matmul: torch.matmul's shape
 * rules (1-D operands, batch broadcasting, empty dims), results against a
 * naive long-double reference on random shapes, layouts and dtypes, which
 * layouts reach BLAS without a copy (transposed, leading-dimension
 * strided, sliced rows, broadcast or reversed batches) and which are
 * copied once, counted as implicit and traced (column steps, negative
 * strides, stride 0), FLOP counting, and the errors. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/check_helpers.h"

/* ---- building operands ------------------------------------------------------ */

/* A row-major tensor of dtype dt holding random values in [-1, 1] rounded
 * to dt. */
static lt_tensor *random_tensor(lt_dtype dt, int ndim, const int64_t *shape) {
  int64_t n = lt_test_numel(ndim, shape);
  double *v = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
  ck_assert_ptr_nonnull(v);
  for (int64_t i = 0; i < n; i++) v[i] = (double)lt_test_rand(-(1 << 20), 1 << 20) / (double)(1 << 20);
  lt_tensor *f = lt_from_data(v, LT_F64, ndim, shape);
  LT_ASSERT_OK_PTR(f);
  free(v);
  lt_tensor *t = lt_to(f, dt);
  LT_ASSERT_OK_PTR(t);
  lt_release(f);
  return t;
}

/* A tensor's values in row-major order of its shape, as doubles (exact:
 * every dtype here widens exactly). */
static double *values_of(const lt_tensor *t) {
  lt_tensor *d = lt_to(t, LT_F64);
  LT_ASSERT_OK_PTR(d);
  int64_t n = lt_numel(d);
  double *v = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
  ck_assert_ptr_nonnull(v);
  LT_ASSERT_OK(lt_read(d, v, sizeof(double) * (size_t)n));
  lt_release(d);
  return v;
}

/* How an operand's last two dims (rows r, cols c) are laid out. */
typedef enum layout {
  L_CONTIGUOUS,  /* row-major */
  L_TRANSPOSED,  /* a transpose of a row-major [c, r]: BLAS's trans flag */
  L_LDA,         /* columns 1..c of a row-major [r, c+3]: ld c+3 */
  L_TRANS_LDA,   /* a transpose of rows' 0..r of [c, r+2] */
  L_ROW_STEP,    /* every other row of [2r, c]: ld 2c */
  L_COL_STEP,    /* every other column of [r, 2c]: copied */
  L_REVERSED,    /* columns in reverse order: copied */
  L_EXPANDED,    /* a [r, 1] expanded to [r, c] (stride 0): copied */
  L_COUNT
} layout;
static const char *const layout_names[L_COUNT] = {"contiguous", "transposed", "lda", "trans_lda",
                                                  "row_step", "col_step", "reversed", "expanded"};
static bool layout_is_copied(layout l) { return l == L_COL_STEP || l == L_REVERSED || l == L_EXPANDED; }

/* How an operand's batch dims are laid out. */
typedef enum batch_layout {
  B_PLAIN,     /* row-major */
  B_EXPANDED,  /* every batch dim expanded from size 1 (stride 0) */
  B_REVERSED,  /* the first batch dim reversed (negative stride) */
  B_COUNT
} batch_layout;

/* Releases t and returns v, a view of it (the view keeps the storage). */
static lt_tensor *swap_for(lt_tensor *t, lt_tensor *v) {
  LT_ASSERT_OK_PTR(v);
  lt_release(t);
  return v;
}

/* A tensor of logical shape (ndim >= 2) with random dt values whose last
 * two dims are laid out as l and batch dims as bl. */
static lt_tensor *make_matrix_operand(lt_dtype dt, int ndim, const int64_t *shape, layout l, batch_layout bl) {
  int64_t base[LT_MAX_DIMS];
  memcpy(base, shape, sizeof(int64_t) * (size_t)ndim);
  int nb = ndim - 2;
  int64_t r = shape[nb], c = shape[nb + 1];
  if (bl == B_EXPANDED)
    for (int d = 0; d < nb; d++) base[d] = 1;
  switch (l) {
  case L_TRANSPOSED: base[nb] = c, base[nb + 1] = r; break;
  case L_LDA: base[nb + 1] = c + 3; break;
  case L_TRANS_LDA: base[nb] = c, base[nb + 1] = r + 2; break;
  case L_ROW_STEP: base[nb] = 2 * r; break;
  case L_COL_STEP: base[nb + 1] = 2 * c; break;
  case L_EXPANDED: base[nb + 1] = 1; break;
  default: break;
  }
  lt_tensor *t = random_tensor(dt, ndim, base);
  switch (l) {
  case L_TRANSPOSED: t = swap_for(t, lt_transpose(t, -1, -2)); break;
  case L_LDA: t = swap_for(t, lt_narrow(t, -1, 1, c)); break;
  case L_TRANS_LDA:
    t = swap_for(t, lt_narrow(t, -1, 0, r));
    t = swap_for(t, lt_transpose(t, -1, -2));
    break;
  case L_ROW_STEP: t = swap_for(t, lt_slice(t, -2, 1, LT_NONE, 2)); break;
  case L_COL_STEP: t = swap_for(t, lt_slice(t, -1, 0, LT_NONE, 2)); break;
  case L_REVERSED: t = swap_for(t, lt_slice(t, -1, LT_NONE, LT_NONE, -1)); break;
  default: break;
  }
  if (l == L_EXPANDED || bl == B_EXPANDED) t = swap_for(t, lt_expand(t, ndim, shape));
  if (bl == B_REVERSED && nb > 0) t = swap_for(t, lt_slice(t, 0, LT_NONE, LT_NONE, -1));
  LT_ASSERT_GEOMETRY(t, ndim, shape, NULL, lt_offset(t));
  return t;
}

/* How a 1-D operand is laid out. */
typedef enum vec_layout { V_CONTIGUOUS, V_STEP, V_REVERSED, V_EXPANDED, V_COUNT } vec_layout;
static bool vec_is_copied(vec_layout v) { return v == V_REVERSED || v == V_EXPANDED; }

static lt_tensor *make_vector_operand(lt_dtype dt, int64_t k, vec_layout v) {
  int64_t base = v == V_STEP ? 2 * k : v == V_EXPANDED ? 1 : k;
  lt_tensor *t = random_tensor(dt, 1, &base);
  if (v == V_STEP) t = swap_for(t, lt_slice(t, 0, 1, LT_NONE, 2));
  if (v == V_REVERSED) t = swap_for(t, lt_slice(t, 0, LT_NONE, LT_NONE, -1));
  if (v == V_EXPANDED) t = swap_for(t, lt_expand(t, 1, &k));
  return t;
}

/* ---- the reference ---------------------------------------------------------- */

/* torch.matmul on row-major values in long double, with sum |a||b| per
 * element for the error bound. out_shape/out_ndim: the expected shape. */
typedef struct reference {
  int out_ndim;
  int64_t out_shape[LT_MAX_DIMS];
  int64_t numel, k;
  double *value, *abs_sum;
} reference;

static reference reference_matmul(const lt_tensor *a, const lt_tensor *b) {
  int an = lt_ndim(a), bn = lt_ndim(b);
  int64_t as[LT_MAX_DIMS], bs[LT_MAX_DIMS];
  int an2 = an, bn2 = bn;
  memcpy(as, lt_shape(a), sizeof(int64_t) * (size_t)an);
  memcpy(bs, lt_shape(b), sizeof(int64_t) * (size_t)bn);
  if (an == 1) as[1] = as[0], as[0] = 1, an2 = 2;
  if (bn == 1) bs[1] = 1, bn2 = 2;
  int64_t m = as[an2 - 2], k = as[an2 - 1], n = bs[bn2 - 1];
  ck_assert_int_eq(bs[bn2 - 2], k);
  int nba = an2 - 2, nbb = bn2 - 2, nbat = nba > nbb ? nba : nbb;
  int64_t batch[LT_MAX_DIMS];
  for (int i = 0; i < nbat; i++) {
    int64_t x = i - (nbat - nba) >= 0 ? as[i - (nbat - nba)] : 1;
    int64_t y = i - (nbat - nbb) >= 0 ? bs[i - (nbat - nbb)] : 1;
    ck_assert(x == y || x == 1 || y == 1);
    batch[i] = x == 1 ? y : x;
  }
  reference r = {.out_ndim = nbat, .k = k};
  memcpy(r.out_shape, batch, sizeof(int64_t) * (size_t)nbat);
  if (an > 1) r.out_shape[r.out_ndim++] = m;
  if (bn > 1) r.out_shape[r.out_ndim++] = n;
  int64_t nbatch = lt_test_numel(nbat, batch);
  r.numel = nbatch * m * n;
  r.value = calloc((size_t)(r.numel > 0 ? r.numel : 1), sizeof(double));
  r.abs_sum = calloc((size_t)(r.numel > 0 ? r.numel : 1), sizeof(double));
  ck_assert(r.value && r.abs_sum);
  double *av = values_of(a), *bv = values_of(b);
  int64_t idx[LT_MAX_DIMS];
  bool more = lt_test_first_index(nbat, batch, idx);
  for (int64_t t = 0; more; t++, more = lt_test_next_index(nbat, batch, idx)) {
    int64_t ao = 0, bo = 0; /* row-major batch offsets, broadcast dims at index 0 */
    for (int i = 0; i < nba; i++) ao = ao * as[i] + (as[i] == 1 ? 0 : idx[i + nbat - nba]);
    for (int i = 0; i < nbb; i++) bo = bo * bs[i] + (bs[i] == 1 ? 0 : idx[i + nbat - nbb]);
    const double *pa = av + ao * m * k, *pb = bv + bo * k * n;
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) {
        long double s = 0, sa = 0;
        for (int64_t q = 0; q < k; q++) {
          s += (long double)pa[i * k + q] * pb[q * n + j];
          sa += fabsl((long double)pa[i * k + q] * pb[q * n + j]);
        }
        r.value[(t * m + i) * n + j] = (double)s;
        r.abs_sum[(t * m + i) * n + j] = (double)sa;
      }
  }
  free(av);
  free(bv);
  return r;
}

static void reference_free(reference *r) {
  free(r->value);
  free(r->abs_sum);
}

/* Unit roundoff times 2 (the spacing of values in [1, 2)) of each float
 * dtype, and its smallest subnormal. */
static double eps_of(lt_dtype dt) {
  switch (dt) {
  case LT_F64: return ldexp(1, -52);
  case LT_F32: return ldexp(1, -23);
  case LT_F16: return ldexp(1, -10);
  case LT_BF16: return ldexp(1, -7);
  case LT_F8_E4M3: return ldexp(1, -3);
  default: return ldexp(1, -2);
  }
}

static double tiny_of(lt_dtype dt) {
  switch (dt) {
  case LT_F64: return ldexp(1, -1074);
  case LT_F32: return ldexp(1, -149);
  case LT_F16: return ldexp(1, -24);
  case LT_BF16: return ldexp(1, -133);
  case LT_F8_E4M3: return ldexp(1, -9);
  default: return ldexp(1, -16);
  }
}

/* The bound each element must meet. Products are computed in F32 (F64
 * for an F64 result); a sum of k products in any order, with or without
 * FMA, is off by at most k*u*sum|a_i b_i| to first order (u = eps/2, the
 * unit roundoff), so k*eps*sum|a||b| leaves a factor of 2 for the
 * second-order terms. The result is then rounded once into its dtype: at
 * most half its spacing, eps_out*|value|/2, or half the smallest
 * subnormal near 0; we allow the whole spacing. Accumulating a narrow
 * dtype in itself instead of F32 breaks this bound by orders of
 * magnitude. */
static void assert_matches(const lt_tensor *got, const reference *r, const char *what) {
  lt_dtype dt = lt_dtype_of(got);
  double ec = eps_of(dt == LT_F64 ? LT_F64 : LT_F32), eo = eps_of(dt), tiny = tiny_of(dt);
  LT_ASSERT_GEOMETRY(got, r->out_ndim, r->out_shape, NULL, 0);
  ck_assert_msg(lt_is_contiguous(got), "%s: result is not row-major", what);
  double *v = values_of(got);
  for (int64_t i = 0; i < r->numel; i++) {
    double acc = (double)r->k * ec * r->abs_sum[i];
    double tol = acc * (1 + eo) + eo * fabs(r->value[i]) + tiny;
    ck_assert_msg(fabs(v[i] - r->value[i]) <= tol, "%s: element %lld is %.17g, reference %.17g (tolerance %.3g)",
                  what, (long long)i, v[i], r->value[i], tol);
  }
  free(v);
}

/* ---- shape rules ------------------------------------------------------------ */

static lt_tensor *f32_from(const float *v, int ndim, const int64_t *shape) {
  lt_tensor *t = lt_from_data(v, LT_F32, ndim, shape);
  LT_ASSERT_OK_PTR(t);
  return t;
}

static void assert_f32_values(const lt_tensor *t, const float *want, int64_t n) {
  ck_assert_int_eq(lt_dtype_of(t), LT_F32);
  ck_assert_int_eq(lt_numel(t), n);
  float got[64];
  LT_ASSERT_OK(lt_read(t, got, sizeof(float) * (size_t)n));
  for (int64_t i = 0; i < n; i++)
    ck_assert_msg(got[i] == want[i], "element %lld: got %g, want %g", (long long)i, got[i], want[i]);
}

START_TEST(matmul_of_2d_matrices_is_their_product) {
  lt_tensor *a = f32_from((float[]){1, 2, 3, 4, 5, 6}, 2, (int64_t[]){2, 3});
  lt_tensor *b = f32_from((float[]){7, 8, 9, 10, 11, 12}, 2, (int64_t[]){3, 2});
  lt_tensor *c = lt_matmul(a, b);
  LT_ASSERT_OK_PTR(c);
  ck_assert_int_eq(lt_last_status(), LT_OK);
  LT_ASSERT_GEOMETRY(c, 2, ((int64_t[]){2, 2}), ((int64_t[]){2, 1}), 0);
  assert_f32_values(c, (float[]){58, 64, 139, 154}, 4);
  ck_assert(!lt_shares_storage(c, a) && !lt_shares_storage(c, b));
  lt_release(c);
  lt_release(a);
  lt_release(b);
}
END_TEST

START_TEST(matmul_of_two_vectors_is_a_0_dim_dot_product) {
  lt_tensor *a = f32_from((float[]){1, 2, 3}, 1, (int64_t[]){3});
  lt_tensor *b = f32_from((float[]){4, 5, 6}, 1, (int64_t[]){3});
  lt_tensor *c = lt_matmul(a, b);
  LT_ASSERT_OK_PTR(c);
  ck_assert_int_eq(lt_ndim(c), 0);
  assert_f32_values(c, (float[]){32}, 1);
  lt_release(c);
  lt_release(a);
  lt_release(b);
}
END_TEST

START_TEST(matmul_of_a_vector_and_a_matrix_drops_the_prepended_dim) {
  lt_tensor *a = f32_from((float[]){1, 2}, 1, (int64_t[]){2});
  lt_tensor *b = f32_from((float[]){1, 2, 3, 4, 5, 6}, 2, (int64_t[]){2, 3});
  lt_tensor *c = lt_matmul(a, b);
  LT_ASSERT_OK_PTR(c);
  LT_ASSERT_GEOMETRY(c, 1, ((int64_t[]){3}), ((int64_t[]){1}), 0);
  assert_f32_values(c, (float[]){9, 12, 15}, 3);
  lt_release(c);
  lt_release(a);
  lt_release(b);
}
END_TEST

START_TEST(matmul_of_a_matrix_and_a_vector_drops_the_appended_dim) {
  lt_tensor *a = f32_from((float[]){1, 2, 3, 4, 5, 6}, 2, (int64_t[]){2, 3});
  lt_tensor *b = f32_from((float[]){1, 0, -1}, 1, (int64_t[]){3});
  lt_tensor *c = lt_matmul(a, b);
  LT_ASSERT_OK_PTR(c);
  LT_ASSERT_GEOMETRY(c, 1, ((int64_t[]){2}), ((int64_t[]){1}), 0);
  assert_f32_values(c, (float[]){-2, -2}, 2);
  lt_release(c);
  lt_release(a);
  lt_release(b);
}
END_TEST

START_TEST(matmul_of_a_vector_and_a_batch_gives_batch_by_n) {
  lt_tensor *a = f32_from((float[]){1, 10}, 1, (int64_t[]){2});
  lt_tensor *b = lt_test_arange_f32(3, (int64_t[]){2, 2, 3});
  lt_tensor *c = lt_matmul(a, b);
  LT_ASSERT_OK_PTR(c);
  LT_ASSERT_GEOMETRY(c, 2, ((int64_t[]){2, 3}), ((int64_t[]){3, 1}), 0);
  assert_f32_values(c, (float[]){30, 41, 52, 96, 107, 118}, 6);
  lt_release(c);
  lt_release(a);
  lt_release(b);
}
END_TEST

START_TEST(matmul_of_a_batch_and_a_vector_gives_batch_by_m) {
  lt_tensor *a = lt_test_arange_f32(3, (int64_t[]){2, 3, 2});
  lt_tensor *b = f32_from((float[]){1, 10}, 1, (int64_t[]){2});
  lt_tensor *c = lt_matmul(a, b);
  LT_ASSERT_OK_PTR(c);
  LT_ASSERT_GEOMETRY(c, 2, ((int64_t[]){2, 3}), ((int64_t[]){3, 1}), 0);
  assert_f32_values(c, (float[]){10, 32, 54, 76, 98, 120}, 6);
  lt_release(c);
  lt_release(a);
  lt_release(b);
}
END_TEST

START_TEST(matmul_broadcasts_batch_dims_as_numpy_does) {
  /* a [2,1,1,2] (batch [2,1]) times b [3,2,1] (batch [3]) -> [2,3,1,1] */
  lt_tensor *a = f32_from((float[]){1, 2, 3, 4}, 4, (int64_t[]){2, 1, 1, 2});
  lt_tensor *b = f32_from((float[]){1, 0, 0, 1, 1, 1}, 3, (int64_t[]){3, 2, 1});
  lt_tensor *c = lt_matmul(a, b);
  LT_ASSERT_OK_PTR(c);
  LT_ASSERT_GEOMETRY(c, 4, ((int64_t[]){2, 3, 1, 1}), ((int64_t[]){3, 1, 1, 1}), 0);
  assert_f32_values(c, (float[]){1, 2, 3, 3, 4, 7}, 6);
  lt_release(c);
  lt_release(a);
  lt_release(b);
}
END_TEST

START_TEST(matmul_with_k_0_gives_zeros_in_every_float_dtype) {
  static const lt_dtype dts[] = {LT_F32, LT_F64, LT_F16, LT_BF16, LT_F8_E4M3, LT_F8_E5M2};
  for (size_t i = 0; i < sizeof dts / sizeof dts[0]; i++) {
    lt_tensor *a = lt_empty(dts[i], 3, (int64_t[]){2, 3, 0}, LT_HOST);
    lt_tensor *b = lt_empty(dts[i], 2, (int64_t[]){0, 4}, LT_HOST);
    lt_stats_reset(LT_HOST);
    lt_tensor *c = lt_matmul(a, b);
    LT_ASSERT_OK_PTR(c);
    LT_ASSERT_GEOMETRY(c, 3, ((int64_t[]){2, 3, 4}), ((int64_t[]){12, 4, 1}), 0);
    ck_assert_int_eq(lt_dtype_of(c), dts[i]);
    double *v = values_of(c);
    for (int j = 0; j < 24; j++) ck_assert_msg(v[j] == 0 && !signbit(v[j]), "%s element %d", lt_dtype_name(dts[i]), j);
    free(v);
    ck_assert_int_eq(lt_stats_get(LT_HOST).flops, 0);
    lt_release(c);
    lt_release(a);
    lt_release(b);
  }
}
END_TEST

START_TEST(matmul_of_two_empty_vectors_is_a_0_dim_zero) {
  lt_tensor *a = lt_empty(LT_F32, 1, (int64_t[]){0}, LT_HOST);
  lt_tensor *c = lt_matmul(a, a);
  LT_ASSERT_OK_PTR(c);
  ck_assert_int_eq(lt_ndim(c), 0);
  assert_f32_values(c, (float[]){0}, 1);
  lt_release(c);
  lt_release(a);
}
END_TEST

START_TEST(matmul_with_m_n_or_a_batch_of_0_gives_an_empty_result) {
  struct { int an, bn; int64_t as[3], bs[3]; int cn; int64_t cs[3]; } cases[] = {
      {2, 2, {0, 3}, {3, 4}, 2, {0, 4}},
      {2, 2, {2, 3}, {3, 0}, 2, {2, 0}},
      {3, 2, {0, 2, 3}, {3, 4}, 3, {0, 2, 4}},
      {3, 3, {1, 2, 3}, {0, 3, 4}, 3, {0, 2, 4}},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    lt_tensor *a = lt_empty(LT_F32, cases[i].an, cases[i].as, LT_HOST);
    lt_tensor *b = lt_empty(LT_F32, cases[i].bn, cases[i].bs, LT_HOST);
    lt_stats_reset(LT_HOST);
    lt_tensor *c = lt_matmul(a, b);
    LT_ASSERT_OK_PTR(c);
    LT_ASSERT_GEOMETRY(c, cases[i].cn, cases[i].cs, NULL, 0);
    ck_assert_int_eq(lt_numel(c), 0);
    ck_assert_int_eq(lt_stats_get(LT_HOST).flops, 0);
    lt_release(c);
    lt_release(a);
    lt_release(b);
  }
}
END_TEST

START_TEST(matmul_of_empty_operands_copies_nothing_whatever_their_layout) {
  lt_tensor *base = lt_empty(LT_F32, 2, (int64_t[]){3, 1}, LT_HOST);
  lt_tensor *a = lt_expand(base, 2, (int64_t[]){3, 5}); /* stride 0: copied when read */
  lt_tensor *b = lt_empty(LT_F32, 2, (int64_t[]){5, 0}, LT_HOST);
  lt_stats_reset(LT_HOST);
  lt_tensor *c = lt_matmul(a, b);
  LT_ASSERT_OK_PTR(c);
  ck_assert_int_eq(lt_numel(c), 0);
  ck_assert_int_eq(lt_stats_get(LT_HOST).copies, 0);
  lt_release(c);
  lt_release(a);
  lt_release(b);
  lt_release(base);
}
END_TEST

/* ---- errors ----------------------------------------------------------------- */

START_TEST(matmul_rejects_mismatched_inner_dims_with_shape_error) {
  lt_tensor *a = lt_empty(LT_F32, 2, (int64_t[]){2, 3}, LT_HOST);
  lt_tensor *b = lt_empty(LT_F32, 2, (int64_t[]){4, 2}, LT_HOST);
  lt_tensor *v = lt_empty(LT_F32, 1, (int64_t[]){4}, LT_HOST);
  lt_stats_reset(LT_HOST);
  LT_ASSERT_FAILS(lt_matmul(a, b), LT_ERR_SHAPE);
  ck_assert_ptr_nonnull(strstr(lt_last_error(), "[2,3]"));
  ck_assert_ptr_nonnull(strstr(lt_last_error(), "[4,2]"));
  LT_ASSERT_FAILS(lt_matmul(a, v), LT_ERR_SHAPE);
  LT_ASSERT_FAILS(lt_matmul(v, a), LT_ERR_SHAPE);
  ck_assert_int_eq(lt_stats_get(LT_HOST).allocs, 0);
  lt_release(a);
  lt_release(b);
  lt_release(v);
}
END_TEST

START_TEST(matmul_rejects_batch_dims_that_do_not_broadcast) {
  lt_tensor *a = lt_empty(LT_F32, 3, (int64_t[]){2, 2, 3}, LT_HOST);
  lt_tensor *b = lt_empty(LT_F32, 3, (int64_t[]){3, 3, 2}, LT_HOST);
  LT_ASSERT_FAILS(lt_matmul(a, b), LT_ERR_SHAPE);
  ck_assert_ptr_nonnull(strstr(lt_last_error(), "broadcast"));
  lt_release(a);
  lt_release(b);
}
END_TEST

START_TEST(matmul_rejects_0_dim_operands_with_shape_error) {
  lt_tensor *s = lt_empty(LT_F32, 0, NULL, LT_HOST);
  lt_tensor *v = lt_empty(LT_F32, 1, (int64_t[]){1}, LT_HOST);
  LT_ASSERT_FAILS(lt_matmul(s, v), LT_ERR_SHAPE);
  LT_ASSERT_FAILS(lt_matmul(v, s), LT_ERR_SHAPE);
  LT_ASSERT_FAILS(lt_matmul(s, s), LT_ERR_SHAPE);
  lt_release(s);
  lt_release(v);
}
END_TEST

START_TEST(matmul_rejects_integer_and_bool_dtypes_with_dtype_error) {
  static const lt_dtype ints[] = {LT_I32, LT_I64, LT_U8, LT_BOOL};
  lt_tensor *f = lt_zeros(LT_F32, 2, (int64_t[]){2, 2}, LT_HOST);
  for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
    lt_tensor *t = lt_zeros(ints[i], 2, (int64_t[]){2, 2}, LT_HOST);
    LT_ASSERT_FAILS(lt_matmul(t, t), LT_ERR_DTYPE);
    ck_assert_ptr_nonnull(strstr(lt_last_error(), lt_dtype_name(ints[i])));
    LT_ASSERT_FAILS(lt_matmul(f, t), LT_ERR_DTYPE);
    LT_ASSERT_FAILS(lt_matmul(t, f), LT_ERR_DTYPE);
    lt_release(t);
  }
  lt_release(f);
}
END_TEST

START_TEST(matmul_rejects_null_with_arg_error) {
  lt_tensor *a = lt_zeros(LT_F32, 2, (int64_t[]){2, 2}, LT_HOST);
  LT_ASSERT_FAILS(lt_matmul(NULL, a), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_matmul(a, NULL), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_matmul(NULL, NULL), LT_ERR_ARG);
  lt_release(a);
}
END_TEST

START_TEST(matmul_rejects_results_with_rows_beyond_blas_before_allocating) {
  /* [2,1] x [1, 2^31] would be a 16 GiB result whose rows BLAS cannot step
   * over; both operands are expanded views of one element each. */
  lt_tensor *one = lt_zeros(LT_F32, 2, (int64_t[]){1, 1}, LT_HOST);
  lt_tensor *a = lt_expand(one, 2, (int64_t[]){2, 1});
  lt_tensor *b = lt_expand(one, 2, (int64_t[]){1, (int64_t)1 << 31});
  lt_stats_reset(LT_HOST);
  LT_ASSERT_FAILS(lt_matmul(a, b), LT_ERR_SHAPE);
  ck_assert_int_eq(lt_stats_get(LT_HOST).allocs, 0);
  lt_release(a);
  lt_release(b);
  lt_release(one);
}
END_TEST

START_TEST(matmul_under_copy_forbid_fails_for_layouts_blas_cannot_read) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){3, 4});
  lt_tensor *rev = lt_slice(a, 1, LT_NONE, LT_NONE, -1);
  lt_tensor *t = lt_transpose(a, 0, 1);
  lt_copy_policy old = lt_set_copy_policy(LT_COPY_FORBID);
  lt_stats_reset(LT_HOST);
  LT_ASSERT_FAILS(lt_matmul(rev, t), LT_ERR_NOT_VIEWABLE);
  ck_assert_ptr_nonnull(strstr(lt_last_error(), "LT_COPY_FORBID"));
  ck_assert_int_eq(lt_stats_get(LT_HOST).allocs, 0);
  lt_tensor *c = lt_matmul(a, t); /* a transpose needs no copy */
  LT_ASSERT_OK_PTR(c);
  lt_set_copy_policy(old);
  lt_release(c);
  lt_release(t);
  lt_release(rev);
  lt_release(a);
}
END_TEST

/* ---- copies, and the lack of them ------------------------------------------- */

/* lt_matmul(a, b) checked against the reference, with the copies and
 * bytes it must make. */
static void check_product(const lt_tensor *a, const lt_tensor *b, int copies, int64_t bytes, const char *what) {
  reference r = reference_matmul(a, b);
  lt_stats_reset(LT_HOST);
  lt_tensor *c = lt_matmul(a, b);
  lt_stats s = lt_stats_get(LT_HOST);
  LT_ASSERT_OK_PTR(c);
  ck_assert_msg(s.copies == copies && s.implicit_copies == copies, "%s: %lld copies (%lld implicit), want %d", what,
                (long long)s.copies, (long long)s.implicit_copies, copies);
  ck_assert_msg(s.bytes_copied == bytes, "%s: %lld bytes copied, want %lld", what, (long long)s.bytes_copied,
                (long long)bytes);
  ck_assert_msg(s.allocs == 1 + copies, "%s: %lld allocations", what, (long long)s.allocs);
  ck_assert_msg(s.flops == 2 * r.numel * r.k, "%s: %lld flops, want %lld", what, (long long)s.flops,
                (long long)(2 * r.numel * r.k));
  assert_matches(c, &r, what);
  lt_release(c);
  reference_free(&r);
}

START_TEST(transposed_and_lda_strided_operands_reach_blas_without_a_copy) {
  lt_test_seed(11);
  static const layout direct[] = {L_CONTIGUOUS, L_TRANSPOSED, L_LDA, L_TRANS_LDA, L_ROW_STEP};
  for (size_t i = 0; i < 5; i++)
    for (size_t j = 0; j < 5; j++) {
      lt_tensor *a = make_matrix_operand(LT_F32, 2, (int64_t[]){5, 7}, direct[i], B_PLAIN);
      lt_tensor *b = make_matrix_operand(LT_F32, 2, (int64_t[]){7, 6}, direct[j], B_PLAIN);
      char what[64];
      snprintf(what, sizeof what, "a %s, b %s", layout_names[direct[i]], layout_names[direct[j]]);
      check_product(a, b, 0, 0, what);
      lt_release(a);
      lt_release(b);
    }
}
END_TEST

START_TEST(broadcast_and_reversed_batch_dims_are_read_without_a_copy) {
  lt_test_seed(12);
  lt_tensor *a = make_matrix_operand(LT_F32, 4, (int64_t[]){2, 3, 4, 5}, L_TRANSPOSED, B_EXPANDED);
  lt_tensor *b = make_matrix_operand(LT_F32, 3, (int64_t[]){3, 5, 2}, L_LDA, B_REVERSED);
  check_product(a, b, 0, 0, "expanded a, reversed b");
  lt_release(a);
  lt_release(b);
}
END_TEST

START_TEST(a_vector_with_a_step_is_read_without_a_copy) {
  lt_test_seed(13);
  lt_tensor *v = make_vector_operand(LT_F32, 6, V_STEP);
  lt_tensor *m = make_matrix_operand(LT_F32, 3, (int64_t[]){2, 6, 3}, L_CONTIGUOUS, B_PLAIN);
  lt_tensor *mt = make_matrix_operand(LT_F32, 3, (int64_t[]){2, 4, 6}, L_TRANSPOSED, B_PLAIN);
  check_product(v, m, 0, 0, "stepped vector x batch");
  check_product(mt, v, 0, 0, "batch x stepped vector");
  check_product(v, v, 0, 0, "stepped dot");
  lt_release(v);
  lt_release(m);
  lt_release(mt);
}
END_TEST

START_TEST(layouts_blas_cannot_read_are_copied_once_as_implicit_copies) {
  lt_test_seed(14);
  static const layout copied[] = {L_COL_STEP, L_REVERSED, L_EXPANDED};
  for (size_t i = 0; i < 3; i++) {
    lt_tensor *a = make_matrix_operand(LT_F32, 2, (int64_t[]){5, 7}, copied[i], B_PLAIN);
    lt_tensor *b = make_matrix_operand(LT_F32, 2, (int64_t[]){7, 6}, L_TRANSPOSED, B_PLAIN);
    lt_tensor *a2 = make_matrix_operand(LT_F32, 2, (int64_t[]){5, 7}, L_TRANS_LDA, B_PLAIN);
    lt_tensor *b2 = make_matrix_operand(LT_F32, 2, (int64_t[]){7, 6}, copied[i], B_PLAIN);
    char what[64];
    snprintf(what, sizeof what, "a %s", layout_names[copied[i]]);
    check_product(a, b, 1, 5 * 7 * 4, what);
    snprintf(what, sizeof what, "b %s", layout_names[copied[i]]);
    check_product(a2, b2, 1, 7 * 6 * 4, what);
    snprintf(what, sizeof what, "a and b %s", layout_names[copied[i]]);
    check_product(a, b2, 2, (5 * 7 + 7 * 6) * 4, what);
    lt_release(a);
    lt_release(b);
    lt_release(a2);
    lt_release(b2);
  }
}
END_TEST

START_TEST(a_copy_leaves_broadcast_batch_dims_unrepeated) {
  lt_test_seed(15);
  /* a's batch [4,3] is expanded from one [5,7] matrix: the copy holds that
   * one matrix, and broadcasting reads it 12 times. */
  lt_tensor *a = make_matrix_operand(LT_F32, 4, (int64_t[]){4, 3, 5, 7}, L_REVERSED, B_EXPANDED);
  lt_tensor *b = make_matrix_operand(LT_F32, 3, (int64_t[]){3, 7, 2}, L_CONTIGUOUS, B_PLAIN);
  check_product(a, b, 1, 5 * 7 * 4, "expanded batch, reversed columns");
  lt_release(a);
  lt_release(b);
}
END_TEST

START_TEST(vectors_blas_cannot_read_are_copied_once) {
  lt_test_seed(16);
  lt_tensor *m = make_matrix_operand(LT_F64, 2, (int64_t[]){5, 4}, L_CONTIGUOUS, B_PLAIN);
  lt_tensor *r = make_vector_operand(LT_F64, 4, V_REVERSED);
  lt_tensor *e = make_vector_operand(LT_F64, 4, V_EXPANDED);
  check_product(m, r, 1, 4 * 8, "matrix x reversed vector");
  check_product(e, r, 2, 2 * 4 * 8, "expanded . reversed");
  lt_release(m);
  lt_release(r);
  lt_release(e);
}
END_TEST

/* Runs lt_matmul(a, b) with tracing on and returns what it printed. */
static char *traced_matmul(const lt_tensor *a, const lt_tensor *b) {
  static char text[4096];
  fflush(stderr);
  FILE *f = tmpfile();
  ck_assert_ptr_nonnull(f);
  int saved = dup(STDERR_FILENO);
  ck_assert_int_ge(saved, 0);
  ck_assert_int_ge(dup2(fileno(f), STDERR_FILENO), 0);
  bool was = lt_set_trace(true);
  lt_tensor *c = lt_matmul(a, b);
  lt_set_trace(was);
  fflush(stderr);
  dup2(saved, STDERR_FILENO);
  close(saved);
  LT_ASSERT_OK_PTR(c);
  lt_release(c);
  rewind(f);
  size_t n = fread(text, 1, sizeof text - 1, f);
  text[n] = '\0';
  fclose(f);
  return text;
}

START_TEST(a_copy_for_blas_is_traced_with_its_reason) {
  lt_test_seed(17);
  lt_tensor *a = make_matrix_operand(LT_F32, 2, (int64_t[]){3, 4}, L_EXPANDED, B_PLAIN);
  lt_tensor *b = make_matrix_operand(LT_F32, 2, (int64_t[]){4, 2}, L_TRANSPOSED, B_PLAIN);
  const char *text = traced_matmul(a, b);
  ck_assert_msg(strchr(text, '\n') == strrchr(text, '\n') && strchr(text, '\n'), "want one line, got: %s", text);
  ck_assert_msg(strstr(text, "matmul (implicit) 48 bytes"), "trace: %s", text);
  ck_assert_msg(strstr(text, "operand a f32[3,4] strides=[1,0]") && strstr(text, "BLAS"), "trace: %s", text);
  lt_tensor *t = lt_transpose(b, 0, 1);
  text = traced_matmul(t, b); /* both read in place: nothing to trace */
  ck_assert_msg(text[0] == '\0', "trace: %s", text);
  lt_release(t);
  lt_release(a);
  lt_release(b);
}
END_TEST

/* ---- FLOPs ------------------------------------------------------------------ */

START_TEST(flops_matmul_predicts_2mnk_per_product) {
  ck_assert_int_eq(lt_flops_matmul(4, (int64_t[]){2, 3, 4, 5}, 2, (int64_t[]){5, 6}), 2 * 2 * 3 * 4 * 5 * 6);
  ck_assert_int_eq(lt_last_status(), LT_OK);
  ck_assert_int_eq(lt_flops_matmul(1, (int64_t[]){7}, 1, (int64_t[]){7}), 14);
  ck_assert_int_eq(lt_flops_matmul(1, (int64_t[]){7}, 3, (int64_t[]){2, 7, 3}), 2 * 2 * 7 * 3);
  ck_assert_int_eq(lt_flops_matmul(3, (int64_t[]){2, 1, 7}, 3, (int64_t[]){1, 7, 3}), 2 * 2 * 7 * 3);
  ck_assert_int_eq(lt_flops_matmul(2, (int64_t[]){3, 0}, 2, (int64_t[]){0, 4}), 0);
  ck_assert_int_eq(lt_flops_matmul(3, (int64_t[]){0, 3, 4}, 2, (int64_t[]){4, 5}), 0);
}
END_TEST

START_TEST(matmul_counts_the_flops_flops_matmul_predicts) {
  lt_tensor *a = lt_zeros(LT_BF16, 4, (int64_t[]){2, 1, 3, 4}, LT_HOST);
  lt_tensor *b = lt_zeros(LT_F32, 3, (int64_t[]){5, 4, 6}, LT_HOST);
  int64_t want = lt_flops_matmul(lt_ndim(a), lt_shape(a), lt_ndim(b), lt_shape(b));
  ck_assert_int_eq(want, 2 * 2 * 5 * 3 * 6 * 4);
  lt_stats_reset(LT_HOST);
  lt_tensor *c = lt_matmul(a, b);
  LT_ASSERT_OK_PTR(c);
  lt_tensor *d = lt_matmul(a, b);
  LT_ASSERT_OK_PTR(d);
  ck_assert_int_eq(lt_stats_get(LT_HOST).flops, 2 * want);
  lt_release(c);
  lt_release(d);
  lt_release(a);
  lt_release(b);
}
END_TEST

START_TEST(flops_matmul_fails_as_matmul_does) {
  ck_assert_int_eq(lt_flops_matmul(2, (int64_t[]){2, 3}, 2, (int64_t[]){4, 2}), -1);
  ck_assert_int_eq(lt_last_status(), LT_ERR_SHAPE);
  ck_assert_int_eq(lt_flops_matmul(3, (int64_t[]){2, 2, 3}, 3, (int64_t[]){3, 3, 2}), -1);
  ck_assert_int_eq(lt_last_status(), LT_ERR_SHAPE);
  ck_assert_int_eq(lt_flops_matmul(0, NULL, 1, (int64_t[]){3}), -1);
  ck_assert_int_eq(lt_last_status(), LT_ERR_SHAPE);
  ck_assert_int_eq(lt_flops_matmul(2, NULL, 1, (int64_t[]){3}), -1);
  ck_assert_int_eq(lt_last_status(), LT_ERR_ARG);
  ck_assert_int_eq(lt_flops_matmul(LT_MAX_DIMS + 1, (int64_t[LT_MAX_DIMS + 1]){0}, 1, (int64_t[]){3}), -1);
  ck_assert_int_eq(lt_last_status(), LT_ERR_ARG);
  ck_assert_int_eq(lt_flops_matmul(2, (int64_t[]){2, -3}, 1, (int64_t[]){-3}), -1);
  ck_assert_int_eq(lt_last_status(), LT_ERR_ARG);
  int64_t big = (int64_t)1 << 31;
  ck_assert_int_eq(lt_flops_matmul(2, (int64_t[]){big, big}, 2, (int64_t[]){big, big}), -1);
  ck_assert_int_eq(lt_last_status(), LT_ERR_NOMEM);
}
END_TEST

START_TEST(matmul_rejects_a_product_whose_flop_count_overflows) {
  lt_tensor *one = lt_zeros(LT_F32, 2, (int64_t[]){1, 1}, LT_HOST);
  lt_tensor *a = lt_expand(one, 2, (int64_t[]){(int64_t)1 << 20, (int64_t)1 << 41});
  lt_tensor *b = lt_expand(one, 2, (int64_t[]){(int64_t)1 << 41, (int64_t)1 << 20});
  LT_ASSERT_OK_PTR(a);
  LT_ASSERT_OK_PTR(b);
  lt_stats_reset(LT_HOST);
  LT_ASSERT_FAILS(lt_matmul(a, b), LT_ERR_NOMEM);
  ck_assert_int_eq(lt_stats_get(LT_HOST).allocs, 0);
  lt_release(a);
  lt_release(b);
  lt_release(one);
}
END_TEST

/* ---- dtypes ----------------------------------------------------------------- */

typedef struct dtype_case {
  lt_dtype a, b, result;
} dtype_case;
static const dtype_case dtype_cases[] = {
    {LT_F32, LT_F32, LT_F32},         {LT_F64, LT_F64, LT_F64},         {LT_F16, LT_F16, LT_F16},
    {LT_BF16, LT_BF16, LT_BF16},      {LT_F8_E4M3, LT_F8_E4M3, LT_F8_E4M3},
    {LT_F8_E5M2, LT_F8_E5M2, LT_F8_E5M2},
    {LT_F32, LT_BF16, LT_F32},        {LT_F16, LT_BF16, LT_F32},        {LT_F64, LT_F16, LT_F64},
    {LT_F32, LT_F64, LT_F64},         {LT_F8_E4M3, LT_F8_E5M2, LT_F32}, {LT_BF16, LT_F8_E4M3, LT_BF16},
    {LT_F8_E5M2, LT_F16, LT_F16},
};
#define N_DTYPE_CASES ((int)(sizeof dtype_cases / sizeof dtype_cases[0]))

/* An operand of this shape in a random layout: a vector when ndim is 1,
 * else a batch of matrices; *copied and *bytes add what lt_matmul must
 * copy of it. */
static lt_tensor *random_operand(lt_dtype dt, int ndim, const int64_t *shape, int *copied, int64_t *bytes) {
  int64_t es = (int64_t)lt_dtype_size(dt);
  if (ndim == 1) {
    vec_layout v = (vec_layout)lt_test_rand(0, V_COUNT - 1);
    lt_tensor *t = make_vector_operand(dt, shape[0], v);
    if (vec_is_copied(v)) ++*copied, *bytes += shape[0] * es;
    return t;
  }
  layout l = (layout)lt_test_rand(0, L_COUNT - 1);
  batch_layout bl = (batch_layout)lt_test_rand(0, B_COUNT - 1);
  lt_tensor *t = make_matrix_operand(dt, ndim, shape, l, bl);
  if (layout_is_copied(l)) {
    /* The copy holds each matrix once, however often broadcasting reads it. */
    int64_t n = shape[ndim - 2] * shape[ndim - 1] * es;
    for (int d = 0; d < ndim - 2; d++) n *= lt_strides(t)[d] == 0 ? 1 : shape[d];
    ++*copied, *bytes += n;
  }
  return t;
}

/* Random shapes: 1-D or batched operands, batch dims that broadcast,
 * every dim at least 2 so that each layout is what it says. */
static void random_shapes(int *an, int64_t *as, int *bn, int64_t *bs) {
  int kind = (int)lt_test_rand(0, 9);
  int64_t m = lt_test_rand(2, 7), n = lt_test_rand(2, 7), k = lt_test_rand(2, 9);
  int na = (int)lt_test_rand(0, 2), nb = (int)lt_test_rand(0, 2), nbat = na > nb ? na : nb;
  int64_t batch[2];
  for (int i = 0; i < nbat; i++) batch[i] = lt_test_rand(2, 3);
  *an = kind == 0 || kind == 1 ? 1 : na + 2;
  *bn = kind == 0 || kind == 2 ? 1 : nb + 2;
  if (*an == 1) as[0] = k;
  else {
    for (int i = 0; i < na; i++) as[i] = lt_test_rand(0, 2) ? batch[i + nbat - na] : 1;
    as[na] = m, as[na + 1] = k;
  }
  if (*bn == 1) bs[0] = k;
  else {
    for (int i = 0; i < nb; i++) bs[i] = lt_test_rand(0, 2) ? batch[i + nbat - nb] : 1;
    bs[nb] = k, bs[nb + 1] = n;
  }
}

START_TEST(random_products_match_the_reference) {
  const dtype_case *dc = &dtype_cases[_i];
  lt_test_seed(1000 + (uint64_t)_i);
  for (int rep = 0; rep < 60; rep++) {
    int an, bn, copies = 0;
    int64_t as[4], bs[4], bytes = 0;
    random_shapes(&an, as, &bn, bs);
    lt_tensor *a = random_operand(dc->a, an, as, &copies, &bytes);
    lt_tensor *b = random_operand(dc->b, bn, bs, &copies, &bytes);
    char what[300], da[128], db[128];
    lt_describe(a, da, sizeof da);
    lt_describe(b, db, sizeof db);
    snprintf(what, sizeof what, "case %d: %s x %s", rep, da, db);
    check_product(a, b, copies, bytes, what);
    lt_tensor *c = lt_matmul(a, b);
    LT_ASSERT_OK_PTR(c);
    ck_assert_msg(lt_dtype_of(c) == dc->result, "%s: result %s, want %s", what, lt_dtype_name(lt_dtype_of(c)),
                  lt_dtype_name(dc->result));
    lt_release(c);
    lt_release(a);
    lt_release(b);
  }
}
END_TEST

/* A [1,k] row (1, then k-1 copies of `small`) times a column of ones:
 * exactly 1 + (k-1)*small in F32, but 1 if summed in the narrow dtype,
 * where 1 + small rounds back to 1. */
static void check_f32_accumulation(lt_dtype dt, int64_t k, double small, double want) {
  double *row = malloc(sizeof(double) * (size_t)k), *ones = malloc(sizeof(double) * (size_t)k);
  ck_assert(row && ones);
  for (int64_t i = 0; i < k; i++) row[i] = i == 0 ? 1 : small, ones[i] = 1;
  lt_tensor *a64 = lt_from_data(row, LT_F64, 2, (int64_t[]){1, k});
  lt_tensor *b64 = lt_from_data(ones, LT_F64, 2, (int64_t[]){k, 1});
  lt_tensor *a = lt_to(a64, dt), *b = lt_to(b64, dt);
  LT_ASSERT_OK_PTR(a);
  LT_ASSERT_OK_PTR(b);
  lt_tensor *c = lt_matmul(a, b);
  LT_ASSERT_OK_PTR(c);
  ck_assert_int_eq(lt_dtype_of(c), dt);
  double *v = values_of(c);
  ck_assert_msg(v[0] == want, "%s: got %.9g, want %.9g", lt_dtype_name(dt), v[0], want);
  free(v);
  free(row);
  free(ones);
  lt_release(c);
  lt_release(a);
  lt_release(b);
  lt_release(a64);
  lt_release(b64);
}

START_TEST(narrow_dtypes_accumulate_in_f32) {
  check_f32_accumulation(LT_BF16, 257, ldexp(1, -9), 1.5);
  check_f32_accumulation(LT_F16, 1025, ldexp(1, -12), 1.25);
  check_f32_accumulation(LT_F8_E4M3, 9, ldexp(1, -5), 1.25);
  check_f32_accumulation(LT_F8_E5M2, 9, ldexp(1, -4), 1.5);
}
END_TEST

/* Products larger than the kernel's 512-element conversion tiles in
 * every dim, so that tiles meet at edges in m, n and k. */
START_TEST(converted_products_span_several_tiles) {
  lt_test_seed(18);
  lt_tensor *a = make_matrix_operand(LT_BF16, 2, (int64_t[]){515, 520}, L_CONTIGUOUS, B_PLAIN);
  lt_tensor *b = make_matrix_operand(LT_BF16, 2, (int64_t[]){520, 3}, L_TRANSPOSED, B_PLAIN);
  check_product(a, b, 0, 0, "bf16 across m and k tiles");
  lt_tensor *c = make_matrix_operand(LT_F16, 2, (int64_t[]){3, 520}, L_TRANS_LDA, B_PLAIN);
  lt_tensor *d = make_matrix_operand(LT_F16, 2, (int64_t[]){520, 517}, L_LDA, B_PLAIN);
  check_product(c, d, 0, 0, "f16 across n and k tiles");
  lt_tensor *e = make_matrix_operand(LT_F64, 2, (int64_t[]){3, 520}, L_CONTIGUOUS, B_PLAIN);
  check_product(e, d, 0, 0, "f64 x f16 across n and k tiles");
  lt_release(a);
  lt_release(b);
  lt_release(c);
  lt_release(d);
  lt_release(e);
}
END_TEST

/* ---- the suite -------------------------------------------------------------- */

static Suite *suite(void) {
  Suite *s = suite_create("matmul");
  TCase *sh = tcase_create("shapes");
  tcase_add_test(sh, matmul_of_2d_matrices_is_their_product);
  tcase_add_test(sh, matmul_of_two_vectors_is_a_0_dim_dot_product);
  tcase_add_test(sh, matmul_of_a_vector_and_a_matrix_drops_the_prepended_dim);
  tcase_add_test(sh, matmul_of_a_matrix_and_a_vector_drops_the_appended_dim);
  tcase_add_test(sh, matmul_of_a_vector_and_a_batch_gives_batch_by_n);
  tcase_add_test(sh, matmul_of_a_batch_and_a_vector_gives_batch_by_m);
  tcase_add_test(sh, matmul_broadcasts_batch_dims_as_numpy_does);
  tcase_add_test(sh, matmul_with_k_0_gives_zeros_in_every_float_dtype);
  tcase_add_test(sh, matmul_of_two_empty_vectors_is_a_0_dim_zero);
  tcase_add_test(sh, matmul_with_m_n_or_a_batch_of_0_gives_an_empty_result);
  tcase_add_test(sh, matmul_of_empty_operands_copies_nothing_whatever_their_layout);
  suite_add_tcase(s, sh);

  TCase *err = tcase_create("errors");
  tcase_add_test(err, matmul_rejects_mismatched_inner_dims_with_shape_error);
  tcase_add_test(err, matmul_rejects_batch_dims_that_do_not_broadcast);
  tcase_add_test(err, matmul_rejects_0_dim_operands_with_shape_error);
  tcase_add_test(err, matmul_rejects_integer_and_bool_dtypes_with_dtype_error);
  tcase_add_test(err, matmul_rejects_null_with_arg_error);
  tcase_add_test(err, matmul_rejects_results_with_rows_beyond_blas_before_allocating);
  tcase_add_test(err, matmul_rejects_a_product_whose_flop_count_overflows);
  tcase_add_test(err, matmul_under_copy_forbid_fails_for_layouts_blas_cannot_read);
  suite_add_tcase(s, err);

  TCase *cp = tcase_create("copies");
  tcase_add_test(cp, transposed_and_lda_strided_operands_reach_blas_without_a_copy);
  tcase_add_test(cp, broadcast_and_reversed_batch_dims_are_read_without_a_copy);
  tcase_add_test(cp, a_vector_with_a_step_is_read_without_a_copy);
  tcase_add_test(cp, layouts_blas_cannot_read_are_copied_once_as_implicit_copies);
  tcase_add_test(cp, a_copy_leaves_broadcast_batch_dims_unrepeated);
  tcase_add_test(cp, vectors_blas_cannot_read_are_copied_once);
  tcase_add_test(cp, a_copy_for_blas_is_traced_with_its_reason);
  suite_add_tcase(s, cp);

  TCase *fl = tcase_create("flops");
  tcase_add_test(fl, flops_matmul_predicts_2mnk_per_product);
  tcase_add_test(fl, matmul_counts_the_flops_flops_matmul_predicts);
  tcase_add_test(fl, flops_matmul_fails_as_matmul_does);
  suite_add_tcase(s, fl);

  TCase *dt = tcase_create("dtypes");
  tcase_set_timeout(dt, 120);
  tcase_add_loop_test(dt, random_products_match_the_reference, 0, N_DTYPE_CASES);
  tcase_add_test(dt, narrow_dtypes_accumulate_in_f32);
  tcase_add_test(dt, converted_products_span_several_tiles);
  suite_add_tcase(s, dt);
  return s;
}

int main(void) { return lt_run_suite(suite()); }
