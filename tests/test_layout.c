/* Specification of the pure layout algebra (libtensor/layout.h), tested on
 * lt__layout values without tensors: the cases VIEWS.md spells out, and
 * random layouts checked against a naive index-by-index model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "support/check_helpers.h"

#define I64(...) ((const int64_t[]){__VA_ARGS__})

/* ---- helpers -------------------------------------------------------------*/

static lt__layout mk(int ndim, const int64_t *shape, const int64_t *strides, int64_t offset) {
  lt__layout l = {.ndim = ndim, .offset = offset};
  for (int i = 0; i < ndim; i++) {
    l.shape[i] = shape[i];
    l.strides[i] = strides[i];
  }
  return l;
}

static char *fmt_dims(char *buf, size_t n, int ndim, const int64_t *v) {
  size_t used = (size_t)snprintf(buf, n, "[");
  for (int i = 0; i < ndim && used < n; i++)
    used += (size_t)snprintf(buf + used, n - used, i ? ",%lld" : "%lld", (long long)v[i]);
  if (used < n) snprintf(buf + used, n - used, "]");
  return buf;
}

static char *fmt_layout(char *buf, size_t n, const lt__layout *l) {
  char a[400], b[400];
  snprintf(buf, n, "%s/%s@%lld", fmt_dims(a, sizeof a, l->ndim, l->shape),
           fmt_dims(b, sizeof b, l->ndim, l->strides), (long long)l->offset);
  return buf;
}

/* strides may be NULL: only shape and offset are then checked. */
static void assert_layout(int line, const lt__layout *l, int ndim, const int64_t *shape,
                          const int64_t *strides, int64_t offset) {
  bool eq = l->ndim == ndim && l->offset == offset;
  for (int i = 0; eq && i < ndim; i++)
    eq = l->shape[i] == shape[i] && (!strides || l->strides[i] == strides[i]);
  char got[1024], want[1024];
  lt__layout w = mk(ndim, shape, strides ? strides : shape, offset);
  ck_assert_msg(eq, "line %d: got %s, want %s%s", line, fmt_layout(got, sizeof got, l),
                fmt_layout(want, sizeof want, &w), strides ? "" : " (strides not checked)");
}
#define ASSERT_LAYOUT(l, ndim, shape, strides, off) assert_layout(__LINE__, l, ndim, shape, strides, off)

static void assert_dims(int line, int ndim, const int64_t *got, const int64_t *want) {
  bool eq = true;
  for (int i = 0; i < ndim; i++) eq = eq && got[i] == want[i];
  char g[400], w[400];
  ck_assert_msg(eq, "line %d: got %s, want %s", line, fmt_dims(g, sizeof g, ndim, got),
                fmt_dims(w, sizeof w, ndim, want));
}
#define ASSERT_DIMS(ndim, got, want) assert_dims(__LINE__, ndim, got, want)

static void view_ok(int line, const lt__layout *old, int ndim, const int64_t *shape, const int64_t *want) {
  int64_t st[LT_MAX_DIMS];
  int lo = -7, hi = -7;
  char o[1024], s[400];
  ck_assert_msg(lt__view_strides(old, ndim, shape, st, &lo, &hi), "line %d: %s as %s failed (dims %d, %d)",
                line, fmt_layout(o, sizeof o, old), fmt_dims(s, sizeof s, ndim, shape), lo, hi);
  assert_dims(line, ndim, st, want);
}
#define VIEW_OK(old, ndim, shape, want) view_ok(__LINE__, old, ndim, shape, want)

static void view_fails(int line, const lt__layout *old, int ndim, const int64_t *shape, int want_lo,
                       int want_hi) {
  int64_t st[LT_MAX_DIMS];
  int lo = -7, hi = -7;
  char o[1024], s[400];
  ck_assert_msg(!lt__view_strides(old, ndim, shape, st, &lo, &hi), "line %d: %s as %s unexpectedly viewable",
                line, fmt_layout(o, sizeof o, old), fmt_dims(s, sizeof s, ndim, shape));
  ck_assert_msg(lo == want_lo && hi == want_hi, "line %d: %s as %s: break dims (%d, %d), want (%d, %d)", line,
                fmt_layout(o, sizeof o, old), fmt_dims(s, sizeof s, ndim, shape), lo, hi, want_lo, want_hi);
}
#define VIEW_FAILS(old, ndim, shape, lo, hi) view_fails(__LINE__, old, ndim, shape, lo, hi)


static int64_t addr(const lt__layout *l, const int64_t *idx) {
  int64_t a = l->offset;
  for (int i = 0; i < l->ndim; i++) a += idx[i] * l->strides[i];
  return a;
}

/* Sizes 0..4, mostly non-zero; strides in [slo, shi]. */
static lt__layout random_layout(int min_rank, int max_rank, int64_t slo, int64_t shi) {
  lt__layout l = {.ndim = (int)lt_test_rand(min_rank, max_rank), .offset = lt_test_rand(0, 20)};
  for (int i = 0; i < l.ndim; i++) {
    l.shape[i] = lt_test_rand(0, 4);
    if (l.shape[i] == 0 && lt_test_rand(0, 3)) l.shape[i] = lt_test_rand(1, 4);
    l.strides[i] = lt_test_rand(slo, shi);
  }
  return l;
}

/* Maps an output index to the input index it must read. */
typedef void (*index_map)(const void *ctx, const int64_t *out_idx, int64_t *in_idx);

/* Every element of out is the element of in that map names. */
static void assert_same_elements(int line, const lt__layout *in, const lt__layout *out, index_map map,
                                 const void *ctx) {
  int64_t j[LT_MAX_DIMS] = {0}, i[LT_MAX_DIMS] = {0};
  if (!lt_test_first_index(out->ndim, out->shape, j)) return;
  do {
    map(ctx, j, i);
    for (int d = 0; d < in->ndim; d++)
      ck_assert_msg(i[d] >= 0 && i[d] < in->shape[d], "line %d: model index out of range", line);
    if (addr(out, j) != addr(in, i)) {
      char a[1024], b[1024], c[400], e[400];
      ck_abort_msg("line %d: %s -> %s: element %s is at %lld, want element %s of the input (%lld)", line,
                   fmt_layout(a, sizeof a, in), fmt_layout(b, sizeof b, out), fmt_dims(c, sizeof c, out->ndim, j),
                   (long long)addr(out, j), fmt_dims(e, sizeof e, in->ndim, i), (long long)addr(in, i));
    }
  } while (lt_test_next_index(out->ndim, out->shape, j));
}
#define ASSERT_SAME_ELEMENTS(in, out, map, ctx) assert_same_elements(__LINE__, in, out, map, ctx)

/* ---- numel and contiguity ------------------------------------------------*/

START_TEST(numel_of_an_empty_shape_is_1) {
  int64_t n = -1;
  ck_assert(lt__shape_numel(0, NULL, &n));
  ck_assert_int_eq(n, 1);
}
END_TEST

START_TEST(numel_is_the_product_of_the_sizes) {
  int64_t n = -1;
  ck_assert(lt__shape_numel(3, I64(2, 3, 4), &n));
  ck_assert_int_eq(n, 24);
}
END_TEST

START_TEST(numel_with_a_zero_size_is_0) {
  int64_t n = -1;
  ck_assert(lt__shape_numel(3, I64(5, 0, 7), &n));
  ck_assert_int_eq(n, 0);
}
END_TEST

START_TEST(numel_reports_int64_overflow) {
  int64_t n;
  ck_assert(!lt__shape_numel(2, I64(INT64_MAX, 2), &n));
  ck_assert(!lt__shape_numel(2, I64((int64_t)1 << 32, (int64_t)1 << 31), &n));
}
END_TEST

START_TEST(numel_just_below_overflow_is_exact) {
  int64_t n = -1;
  ck_assert(lt__shape_numel(3, I64(INT64_MAX, 1, 1), &n));
  ck_assert_int_eq(n, INT64_MAX);
  ck_assert(lt__shape_numel(2, I64((int64_t)1 << 31, ((int64_t)1 << 32) - 1), &n));
  ck_assert_int_eq(n, INT64_MAX - ((int64_t)1 << 31) + 1);
}
END_TEST

START_TEST(numel_zero_wins_over_overflow_in_any_position) {
  int64_t n = -1;
  ck_assert(lt__shape_numel(3, I64(INT64_MAX, INT64_MAX, 0), &n));
  ck_assert_int_eq(n, 0);
  n = -1;
  ck_assert(lt__shape_numel(3, I64(0, INT64_MAX, INT64_MAX), &n));
  ck_assert_int_eq(n, 0);
}
END_TEST

START_TEST(row_major_strides_are_contiguous) {
  lt__layout l = mk(3, I64(2, 3, 4), I64(12, 4, 1), 0);
  ck_assert(lt__layout_is_contiguous(&l));
}
END_TEST

START_TEST(transposed_strides_are_not_contiguous) {
  lt__layout l = mk(2, I64(3, 2), I64(1, 3), 0);
  ck_assert(!lt__layout_is_contiguous(&l));
}
END_TEST

START_TEST(contiguity_ignores_the_strides_of_size_1_dims) {
  lt__layout l = mk(4, I64(4, 1, 1, 3), I64(3, 100, 7, 1), 0);
  ck_assert(lt__layout_is_contiguous(&l));
  lt__layout t = mk(2, I64(1, 3), I64(1, 1), 0); /* arange(3).view(3,1).t() */
  ck_assert(lt__layout_is_contiguous(&t));
}
END_TEST

START_TEST(contiguity_ignores_the_offset) {
  lt__layout l = mk(2, I64(2, 3), I64(3, 1), 17);
  ck_assert(lt__layout_is_contiguous(&l));
}
END_TEST

START_TEST(a_0dim_layout_is_contiguous) {
  lt__layout l = mk(0, NULL, NULL, 5);
  ck_assert(lt__layout_is_contiguous(&l));
}
END_TEST

START_TEST(any_layout_with_numel_0_is_contiguous) {
  lt__layout l = mk(3, I64(2, 0, 3), I64(-5, 0, 9), 3);
  ck_assert(lt__layout_is_contiguous(&l));
  lt__layout e = mk(1, I64(0), I64(0), 0); /* ones(1).expand(0) */
  ck_assert(lt__layout_is_contiguous(&e));
}
END_TEST

START_TEST(a_stride_0_dim_of_size_above_1_is_not_contiguous) {
  lt__layout l = mk(2, I64(3, 4), I64(0, 1), 0);
  ck_assert(!lt__layout_is_contiguous(&l));
}
END_TEST

START_TEST(a_stride_0_dim_of_size_1_is_contiguous) {
  lt__layout l = mk(2, I64(1, 4), I64(0, 1), 0);
  ck_assert(lt__layout_is_contiguous(&l));
}
END_TEST

START_TEST(a_stepped_inner_dim_is_not_contiguous) {
  lt__layout l = mk(1, I64(3), I64(2), 0);
  ck_assert(!lt__layout_is_contiguous(&l));
  lt__layout n = mk(1, I64(3), I64(-1), 2);
  ck_assert(!lt__layout_is_contiguous(&n));
}
END_TEST

START_TEST(contiguous_strides_are_row_major) {
  int64_t st[3];
  lt__contiguous_strides(3, I64(2, 3, 4), st);
  ASSERT_DIMS(3, st, I64(12, 4, 1));
}
END_TEST

START_TEST(contiguous_strides_count_zero_sizes_as_1) {
  int64_t st[3];
  lt__contiguous_strides(3, I64(2, 0, 3), st);
  ASSERT_DIMS(3, st, I64(3, 3, 1));
  int64_t s2[2];
  lt__contiguous_strides(2, I64(3, 0), s2);
  ASSERT_DIMS(2, s2, I64(1, 1));
}
END_TEST

START_TEST(contiguous_strides_of_size_1_dims_continue_the_product) {
  int64_t st[4];
  lt__contiguous_strides(4, I64(1, 2, 1, 3), st);
  ASSERT_DIMS(4, st, I64(6, 3, 3, 1));
}
END_TEST

/* ---- infer_shape (VIEWS.md section 3) ------------------------------------*/

START_TEST(infer_without_minus_one_copies_a_matching_shape) {
  int64_t out[3];
  ck_assert_int_eq(lt__infer_shape(24, 3, I64(2, 3, 4), out), LT__INFER_OK);
  ASSERT_DIMS(3, out, I64(2, 3, 4));
}
END_TEST

START_TEST(infer_fills_the_minus_one) {
  int64_t out[3];
  ck_assert_int_eq(lt__infer_shape(24, 3, I64(2, -1, 4), out), LT__INFER_OK);
  ASSERT_DIMS(3, out, I64(2, 3, 4));
}
END_TEST

START_TEST(infer_of_an_empty_shape_matches_numel_1) {
  int64_t out[1];
  ck_assert_int_eq(lt__infer_shape(1, 0, NULL, out), LT__INFER_OK);
  ck_assert_int_eq(lt__infer_shape(2, 0, NULL, out), LT__INFER_MISMATCH);
}
END_TEST

START_TEST(infer_minus_one_alone_on_0_elements_gives_0) {
  int64_t out[1];
  ck_assert_int_eq(lt__infer_shape(0, 1, I64(-1), out), LT__INFER_OK);
  ck_assert_int_eq(out[0], 0);
}
END_TEST

START_TEST(infer_minus_one_beside_nonzero_sizes_on_0_elements_gives_0) {
  int64_t out[3];
  ck_assert_int_eq(lt__infer_shape(0, 3, I64(10, 3, -1), out), LT__INFER_OK);
  ASSERT_DIMS(3, out, I64(10, 3, 0));
}
END_TEST

START_TEST(infer_two_minus_ones_is_multiple) {
  int64_t out[2];
  ck_assert_int_eq(lt__infer_shape(24, 2, I64(-1, -1), out), LT__INFER_MULTIPLE);
}
END_TEST

START_TEST(infer_reports_multiple_before_a_numel_mismatch) {
  int64_t out[3];
  ck_assert_int_eq(lt__infer_shape(7, 3, I64(-1, 5, -1), out), LT__INFER_MULTIPLE);
}
END_TEST

START_TEST(infer_reports_multiple_before_a_later_negative_entry) {
  int64_t out[3];
  ck_assert_int_eq(lt__infer_shape(24, 3, I64(-1, -1, -2), out), LT__INFER_MULTIPLE);
}
END_TEST

START_TEST(infer_entry_below_minus_one_is_negative) {
  int64_t out[2];
  ck_assert_int_eq(lt__infer_shape(24, 2, I64(-2, 4), out), LT__INFER_NEGATIVE);
  ck_assert_int_eq(lt__infer_shape(24, 2, I64(6, INT64_MIN), out), LT__INFER_NEGATIVE);
}
END_TEST

START_TEST(infer_product_mismatch_is_mismatch) {
  int64_t out[2];
  ck_assert_int_eq(lt__infer_shape(24, 2, I64(5, 5), out), LT__INFER_MISMATCH);
}
END_TEST

START_TEST(infer_minus_one_that_does_not_divide_is_mismatch) {
  int64_t out[2];
  ck_assert_int_eq(lt__infer_shape(24, 2, I64(-1, 5), out), LT__INFER_MISMATCH);
}
END_TEST

START_TEST(infer_zero_and_minus_one_on_nonzero_numel_is_mismatch_not_ambiguous) {
  int64_t out[2];
  ck_assert_int_eq(lt__infer_shape(24, 2, I64(0, -1), out), LT__INFER_MISMATCH);
}
END_TEST

START_TEST(infer_minus_one_and_zero_on_0_elements_is_ambiguous) {
  int64_t out[2];
  ck_assert_int_eq(lt__infer_shape(0, 2, I64(-1, 0), out), LT__INFER_AMBIGUOUS);
}
END_TEST

START_TEST(infer_product_past_int64_is_overflow) {
  int64_t out[3];
  ck_assert_int_eq(lt__infer_shape(24, 2, I64(INT64_MAX, 2), out), LT__INFER_OVERFLOW);
  ck_assert_int_eq(lt__infer_shape(24, 3, I64((int64_t)1 << 32, (int64_t)1 << 32, -1), out),
                   LT__INFER_OVERFLOW);
}
END_TEST

START_TEST(infer_overflowing_sizes_beside_a_zero_match_0_elements) {
  int64_t out[3];
  ck_assert_int_eq(lt__infer_shape(0, 3, I64(INT64_MAX, 2, 0), out), LT__INFER_OK);
  ASSERT_DIMS(3, out, I64(INT64_MAX, 2, 0));
}
END_TEST

/* ---- view_strides (VIEWS.md section 4) -----------------------------------*/

/* Base [2,3,4]/[12,4,1]. */
START_TEST(view_of_transpose_0_1_only_splits) {
  lt__layout t = mk(3, I64(3, 2, 4), I64(4, 12, 1), 0);
  VIEW_FAILS(&t, 2, I64(12, 2), 1, 2);
  VIEW_FAILS(&t, 2, I64(3, 8), 1, 2);
  VIEW_OK(&t, 4, I64(3, 2, 2, 2), I64(4, 12, 2, 1));
}
END_TEST

START_TEST(view_failure_names_the_outer_pair_when_the_outer_chunks_break) {
  lt__layout t = mk(3, I64(3, 2, 4), I64(4, 12, 1), 0);
  VIEW_FAILS(&t, 2, I64(6, 4), 0, 1);
}
END_TEST

START_TEST(view_of_transpose_1_2_cannot_merge) {
  lt__layout t = mk(3, I64(2, 4, 3), I64(12, 1, 4), 0);
  VIEW_FAILS(&t, 2, I64(2, 12), 1, 2);
  VIEW_FAILS(&t, 2, I64(6, 4), 1, 2);
}
END_TEST

START_TEST(view_of_a_stepped_slice_merges_into_one_chunk) {
  lt__layout s = mk(3, I64(2, 3, 2), I64(12, 4, 2), 0);
  VIEW_OK(&s, 1, I64(12), I64(2));
  VIEW_OK(&s, 2, I64(6, 2), I64(4, 2));
}
END_TEST

START_TEST(view_of_permute_2_0_1_merges_the_two_contiguous_dims) {
  lt__layout p = mk(3, I64(4, 2, 3), I64(1, 12, 4), 0);
  VIEW_OK(&p, 2, I64(4, 6), I64(1, 4));
  VIEW_FAILS(&p, 1, I64(24), 0, 1);
}
END_TEST

START_TEST(view_failure_names_dims_around_a_size_1_dim) {
  lt__layout t = mk(3, I64(4, 1, 2), I64(1, 4, 4), 0); /* [2,1,4].transpose(0,2) */
  VIEW_FAILS(&t, 1, I64(8), 0, 2);
}
END_TEST

START_TEST(view_of_a_transpose_moving_only_a_size_1_dim_merges) {
  lt__layout t = mk(3, I64(1, 2, 4), I64(4, 4, 1), 0); /* [2,1,4].transpose(0,1) */
  VIEW_OK(&t, 1, I64(8), I64(1));
}
END_TEST

START_TEST(view_treats_size_1_dims_with_garbage_strides_as_transparent) {
  lt__layout l = mk(4, I64(4, 1, 1, 3), I64(3, 100, 7, 1), 0);
  VIEW_OK(&l, 1, I64(12), I64(1));
}
END_TEST

START_TEST(view_of_a_narrowed_middle_dim_keeps_two_chunks) {
  lt__layout n = mk(3, I64(2, 2, 4), I64(12, 4, 1), 0); /* slice(1, 0, 2) */
  VIEW_OK(&n, 2, I64(2, 8), I64(12, 1));
  VIEW_FAILS(&n, 2, I64(4, 4), 0, 1);
  VIEW_OK(&n, 4, I64(2, 2, 2, 2), I64(12, 4, 2, 1));
}
END_TEST

START_TEST(view_of_an_expanded_row_cannot_flatten) {
  lt__layout e = mk(2, I64(3, 4), I64(0, 1), 0); /* [1,4].expand(3,4) */
  VIEW_FAILS(&e, 1, I64(12), 0, 1);
  VIEW_OK(&e, 3, I64(3, 2, 2), I64(0, 2, 1));
}
END_TEST

START_TEST(view_of_an_expanded_scalar_merges_stride_0_dims) {
  lt__layout e = mk(2, I64(3, 4), I64(0, 0), 0);
  VIEW_OK(&e, 1, I64(12), I64(0));
  VIEW_OK(&e, 2, I64(2, 6), I64(0, 0));
}
END_TEST

START_TEST(view_of_a_0dim_layout_gives_all_ones_strides_1) {
  lt__layout s = mk(0, NULL, NULL, 3);
  VIEW_OK(&s, 3, I64(1, 1, 1), I64(1, 1, 1));
  int64_t st[1];
  int lo, hi;
  ck_assert(lt__view_strides(&s, 0, NULL, st, &lo, &hi));
}
END_TEST

START_TEST(view_of_an_empty_layout_to_its_own_shape_keeps_its_strides) {
  lt__layout e = mk(2, I64(3, 0), I64(1, 3), 0); /* [0,3].transpose(0,1) */
  VIEW_OK(&e, 2, I64(3, 0), I64(1, 3));
}
END_TEST

START_TEST(view_of_an_empty_layout_to_another_shape_gets_resize_strides) {
  lt__layout e = mk(2, I64(3, 0), I64(1, 3), 0);
  VIEW_OK(&e, 2, I64(0, 3), I64(3, 1));
  VIEW_OK(&e, 1, I64(0), I64(1));
  VIEW_OK(&e, 3, I64(2, 0, 5), I64(5, 5, 1));
}
END_TEST

START_TEST(view_trailing_size_1_dim_inherits_the_innermost_stride) {
  lt__layout l = mk(2, I64(4, 1), I64(1, 100), 0);
  VIEW_OK(&l, 2, I64(4, 1), I64(1, 100));
}
END_TEST

START_TEST(view_size_1_dim_between_groups_joins_the_inner_group) {
  lt__layout t = mk(3, I64(3, 2, 4), I64(4, 12, 1), 0);
  VIEW_OK(&t, 4, I64(3, 2, 1, 4), I64(4, 12, 4, 1));
}
END_TEST

START_TEST(view_leading_size_1_dim_joins_the_outermost_group) {
  lt__layout t = mk(3, I64(3, 2, 4), I64(4, 12, 1), 0);
  VIEW_OK(&t, 4, I64(1, 3, 2, 4), I64(12, 4, 12, 1));
}
END_TEST

START_TEST(view_can_drop_size_1_dims_of_a_non_contiguous_layout) {
  lt__layout t = mk(4, I64(3, 1, 2, 4), I64(4, 9, 12, 1), 0);
  VIEW_OK(&t, 3, I64(3, 2, 4), I64(4, 12, 1));
}
END_TEST

START_TEST(view_merges_dims_with_negative_strides_that_continue_each_other) {
  lt__layout r = mk(2, I64(2, 3), I64(-3, -1), 5); /* both dims flipped */
  VIEW_OK(&r, 1, I64(6), I64(-1));
  lt__layout h = mk(2, I64(2, 3), I64(3, -1), 2); /* only the last flipped */
  VIEW_FAILS(&h, 1, I64(6), 0, 1);
}
END_TEST

START_TEST(view_splits_a_contiguous_layout_into_row_major_strides) {
  lt__layout c = mk(1, I64(24), I64(1), 0);
  VIEW_OK(&c, 3, I64(2, 3, 4), I64(12, 4, 1));
  lt__layout s = mk(1, I64(6), I64(3), 0);
  VIEW_OK(&s, 2, I64(2, 3), I64(9, 3));
}
END_TEST

/* ---- slice ---------------------------------------------------------------*/

static const lt__layout *ten(void) {
  static lt__layout l = {.ndim = 1, .offset = 0, .shape = {10}, .strides = {1}};
  return &l;
}

START_TEST(slice_with_positive_step_multiplies_the_stride_and_moves_the_offset) {
  lt__layout o;
  lt__layout_slice(ten(), 0, 2, 8, 2, &o);
  ASSERT_LAYOUT(&o, 1, I64(3), I64(2), 2);
}
END_TEST

START_TEST(slice_with_none_bounds_is_the_whole_dim) {
  lt__layout o;
  lt__layout_slice(ten(), 0, LT_NONE, LT_NONE, 1, &o);
  ASSERT_LAYOUT(&o, 1, I64(10), I64(1), 0);
}
END_TEST

START_TEST(slice_negative_bounds_count_from_the_end) {
  lt__layout o;
  lt__layout_slice(ten(), 0, -3, LT_NONE, 1, &o);
  ASSERT_LAYOUT(&o, 1, I64(3), I64(1), 7);
  lt__layout_slice(ten(), 0, 1, -1, 3, &o);
  ASSERT_LAYOUT(&o, 1, I64(3), I64(3), 1);
}
END_TEST

START_TEST(slice_clamps_out_of_range_bounds) {
  lt__layout o;
  lt__layout_slice(ten(), 0, -20, 20, 1, &o);
  ASSERT_LAYOUT(&o, 1, I64(10), I64(1), 0);
}
END_TEST

START_TEST(slice_start_past_the_end_is_empty_one_past_the_end) {
  lt__layout o;
  lt__layout_slice(ten(), 0, 20, LT_NONE, 1, &o);
  ASSERT_LAYOUT(&o, 1, I64(0), I64(1), 10);
}
END_TEST

START_TEST(slice_stop_before_start_is_empty_at_start) {
  lt__layout o;
  lt__layout_slice(ten(), 0, 5, 2, 1, &o);
  ASSERT_LAYOUT(&o, 1, I64(0), I64(1), 5);
}
END_TEST

START_TEST(slice_with_step_minus_1_reverses) {
  lt__layout o;
  lt__layout_slice(ten(), 0, LT_NONE, LT_NONE, -1, &o);
  ASSERT_LAYOUT(&o, 1, I64(10), I64(-1), 9);
}
END_TEST

START_TEST(slice_with_negative_step_walks_down_from_start) {
  lt__layout o;
  lt__layout_slice(ten(), 0, 8, 2, -3, &o); /* 8, 5 */
  ASSERT_LAYOUT(&o, 1, I64(2), I64(-3), 8);
  lt__layout_slice(ten(), 0, LT_NONE, LT_NONE, -3, &o); /* 9, 6, 3, 0 */
  ASSERT_LAYOUT(&o, 1, I64(4), I64(-3), 9);
  lt__layout_slice(ten(), 0, -1, -11, -1, &o); /* 9 .. 0 */
  ASSERT_LAYOUT(&o, 1, I64(10), I64(-1), 9);
}
END_TEST

START_TEST(slice_with_negative_step_clamps_start_to_the_last_element) {
  lt__layout o;
  lt__layout_slice(ten(), 0, 20, LT_NONE, -2, &o); /* 9, 7, 5, 3, 1 */
  ASSERT_LAYOUT(&o, 1, I64(5), I64(-2), 9);
}
END_TEST

START_TEST(slice_with_negative_step_and_no_element_is_empty) {
  lt__layout o;
  lt__layout_slice(ten(), 0, -20, LT_NONE, -1, &o);
  ck_assert_int_eq(o.ndim, 1);
  ck_assert_int_eq(o.shape[0], 0);
  lt__layout_slice(ten(), 0, 3, 3, -1, &o);
  ck_assert_int_eq(o.shape[0], 0);
  lt__layout_slice(ten(), 0, 2, 5, -1, &o);
  ck_assert_int_eq(o.shape[0], 0);
  lt__layout_slice(ten(), 0, LT_NONE, 20, -1, &o);
  ck_assert_int_eq(o.shape[0], 0);
}
END_TEST

START_TEST(slice_of_an_empty_dim_is_empty_for_either_step_sign) {
  lt__layout e = mk(2, I64(2, 0), I64(1, 1), 4), o;
  lt__layout_slice(&e, 1, LT_NONE, LT_NONE, -1, &o);
  ck_assert_int_eq(o.shape[0], 2);
  ck_assert_int_eq(o.shape[1], 0);
  lt__layout_slice(&e, 1, LT_NONE, LT_NONE, 2, &o);
  ASSERT_LAYOUT(&o, 2, I64(2, 0), I64(1, 2), 4);
}
END_TEST

START_TEST(slice_with_step_int64_max_takes_only_the_first_element) {
  lt__layout o;
  lt__layout_slice(ten(), 0, LT_NONE, LT_NONE, INT64_MAX, &o);
  ASSERT_LAYOUT(&o, 1, I64(1), I64(INT64_MAX), 0);
  lt__layout_slice(ten(), 0, 3, LT_NONE, INT64_MAX, &o);
  ASSERT_LAYOUT(&o, 1, I64(1), I64(INT64_MAX), 3);
}
END_TEST

START_TEST(slice_with_step_int64_min_takes_only_the_last_element) {
  lt__layout o;
  lt__layout_slice(ten(), 0, LT_NONE, LT_NONE, INT64_MIN, &o);
  ASSERT_LAYOUT(&o, 1, I64(1), I64(INT64_MIN), 9);
  lt__layout_slice(ten(), 0, 4, LT_NONE, INT64_MIN, &o);
  ASSERT_LAYOUT(&o, 1, I64(1), I64(INT64_MIN), 4);
}
END_TEST

START_TEST(slice_with_a_huge_step_on_a_wide_stride_still_finds_the_element) {
  /* stride*step is not representable; the single element is still right. */
  lt__layout w = mk(2, I64(3, 10), I64(1, 3), 2), o;
  lt__layout_slice(&w, 1, 4, LT_NONE, INT64_MAX, &o);
  ASSERT_LAYOUT(&o, 2, I64(3, 1), NULL, 14);
  ck_assert_int_eq(o.strides[0], 1);
  lt__layout_slice(&w, 1, LT_NONE, LT_NONE, INT64_MIN, &o);
  ASSERT_LAYOUT(&o, 2, I64(3, 1), NULL, 29);
  ck_assert_int_eq(o.strides[0], 1);
}
END_TEST

START_TEST(slice_with_extreme_bounds_clamps) {
  lt__layout o;
  lt__layout_slice(ten(), 0, INT64_MIN + 1, INT64_MAX, 1, &o);
  ASSERT_LAYOUT(&o, 1, I64(10), I64(1), 0);
  lt__layout_slice(ten(), 0, INT64_MAX, INT64_MIN + 1, -1, &o);
  ASSERT_LAYOUT(&o, 1, I64(10), I64(-1), 9);
}
END_TEST

START_TEST(slice_of_an_inner_dim_keeps_the_others_and_moves_the_offset) {
  lt__layout l = mk(2, I64(2, 5), I64(5, 1), 3), o;
  lt__layout_slice(&l, 1, 1, 4, 1, &o);
  ASSERT_LAYOUT(&o, 2, I64(2, 3), I64(5, 1), 4);
}
END_TEST

START_TEST(slice_of_a_reversed_dim_composes_the_steps) {
  lt__layout r = mk(1, I64(5), I64(-1), 4), o; /* x[::-1] of 5 elements */
  lt__layout_slice(&r, 0, 1, LT_NONE, 2, &o);  /* reversed indices 1, 3 = 3, 1 */
  ASSERT_LAYOUT(&o, 1, I64(2), I64(-2), 3);
  lt__layout_slice(&r, 0, LT_NONE, LT_NONE, -1, &o);
  ASSERT_LAYOUT(&o, 1, I64(5), I64(1), 0);
}
END_TEST

/* ---- select, unsqueeze, drop_dim, permute --------------------------------*/

START_TEST(select_drops_the_dim_and_moves_the_offset) {
  lt__layout l = mk(3, I64(2, 3, 4), I64(12, 4, 1), 5), o;
  lt__layout_select(&l, 1, 2, &o);
  ASSERT_LAYOUT(&o, 2, I64(2, 4), I64(12, 1), 13);
}
END_TEST

START_TEST(select_along_a_negative_stride) {
  lt__layout l = mk(1, I64(3), I64(-2), 4), o;
  lt__layout_select(&l, 0, 1, &o);
  ASSERT_LAYOUT(&o, 0, NULL, NULL, 2);
}
END_TEST

START_TEST(unsqueeze_inside_takes_size_times_stride_of_the_dim_it_displaces) {
  lt__layout l = mk(3, I64(2, 3, 2), I64(12, 4, 2), 1), o;
  lt__layout_unsqueeze(&l, 1, &o);
  ASSERT_LAYOUT(&o, 4, I64(2, 1, 3, 2), I64(12, 12, 4, 2), 1);
  lt__layout_unsqueeze(&l, 0, &o);
  ASSERT_LAYOUT(&o, 4, I64(1, 2, 3, 2), I64(24, 12, 4, 2), 1);
}
END_TEST

START_TEST(unsqueeze_at_the_end_takes_stride_1) {
  lt__layout l = mk(3, I64(2, 3, 2), I64(12, 4, 2), 0), o;
  lt__layout_unsqueeze(&l, 3, &o);
  ASSERT_LAYOUT(&o, 4, I64(2, 3, 2, 1), I64(12, 4, 2, 1), 0);
}
END_TEST

START_TEST(unsqueeze_of_a_0dim_layout_gives_stride_1) {
  lt__layout s = mk(0, NULL, NULL, 6), o;
  lt__layout_unsqueeze(&s, 0, &o);
  ASSERT_LAYOUT(&o, 1, I64(1), I64(1), 6);
}
END_TEST

START_TEST(unsqueeze_before_an_empty_or_reversed_dim_uses_the_same_rule) {
  lt__layout e = mk(2, I64(0, 3), I64(3, 1), 0), o;
  lt__layout_unsqueeze(&e, 0, &o);
  ASSERT_LAYOUT(&o, 3, I64(1, 0, 3), I64(0, 3, 1), 0);
  lt__layout r = mk(1, I64(3), I64(-1), 2);
  lt__layout_unsqueeze(&r, 0, &o);
  ASSERT_LAYOUT(&o, 2, I64(1, 3), I64(-3, -1), 2);
}
END_TEST

START_TEST(drop_dim_removes_a_size_1_dim_keeping_the_offset) {
  lt__layout l = mk(3, I64(2, 1, 3), I64(3, 7, 1), 4), o;
  lt__layout_drop_dim(&l, 1, &o);
  ASSERT_LAYOUT(&o, 2, I64(2, 3), I64(3, 1), 4);
  lt__layout one = mk(1, I64(1), I64(5), 2);
  lt__layout_drop_dim(&one, 0, &o);
  ASSERT_LAYOUT(&o, 0, NULL, NULL, 2);
}
END_TEST

START_TEST(permute_reorders_sizes_and_strides) {
  lt__layout l = mk(3, I64(2, 3, 4), I64(12, 4, 1), 3), o;
  lt__layout_permute(&l, (const int[]){2, 0, 1}, &o);
  ASSERT_LAYOUT(&o, 3, I64(4, 2, 3), I64(1, 12, 4), 3);
}
END_TEST

/* ---- diagonal --------------------------------------------------------------*/

static const lt__layout *three_by_four(void) {
  static lt__layout l = {.ndim = 2, .offset = 2, .shape = {3, 4}, .strides = {4, 1}};
  return &l;
}

START_TEST(diagonal_main_has_the_sum_of_both_strides) {
  lt__layout o;
  lt__layout_diagonal(three_by_four(), 0, 0, 1, &o);
  ASSERT_LAYOUT(&o, 1, I64(3), I64(5), 2);
}
END_TEST

START_TEST(diagonal_above_moves_along_dim2) {
  lt__layout o;
  lt__layout_diagonal(three_by_four(), 1, 0, 1, &o);
  ASSERT_LAYOUT(&o, 1, I64(3), I64(5), 3);
  lt__layout_diagonal(three_by_four(), 2, 0, 1, &o);
  ASSERT_LAYOUT(&o, 1, I64(2), I64(5), 4);
  lt__layout_diagonal(three_by_four(), 3, 0, 1, &o);
  ASSERT_LAYOUT(&o, 1, I64(1), I64(5), 5);
}
END_TEST

START_TEST(diagonal_below_moves_along_dim1) {
  lt__layout o;
  lt__layout_diagonal(three_by_four(), -1, 0, 1, &o);
  ASSERT_LAYOUT(&o, 1, I64(2), I64(5), 6);
  lt__layout_diagonal(three_by_four(), -2, 0, 1, &o);
  ASSERT_LAYOUT(&o, 1, I64(1), I64(5), 10);
}
END_TEST

START_TEST(diagonal_out_of_range_is_empty_and_keeps_the_offset) {
  lt__layout o;
  lt__layout_diagonal(three_by_four(), 4, 0, 1, &o);
  ASSERT_LAYOUT(&o, 1, I64(0), I64(5), 2);
  lt__layout_diagonal(three_by_four(), -3, 0, 1, &o);
  ASSERT_LAYOUT(&o, 1, I64(0), I64(5), 2);
}
END_TEST

START_TEST(diagonal_with_extreme_offsets_is_empty) {
  lt__layout o;
  lt__layout_diagonal(three_by_four(), INT64_MAX, 0, 1, &o);
  ASSERT_LAYOUT(&o, 1, I64(0), I64(5), 2);
  lt__layout_diagonal(three_by_four(), INT64_MIN, 0, 1, &o);
  ASSERT_LAYOUT(&o, 1, I64(0), I64(5), 2);
}
END_TEST

START_TEST(diagonal_with_swapped_dims_walks_the_transpose) {
  lt__layout o;
  lt__layout_diagonal(three_by_four(), 1, 1, 0, &o); /* d1 = cols, d2 = rows */
  ASSERT_LAYOUT(&o, 1, I64(2), I64(5), 6);
}
END_TEST

START_TEST(diagonal_of_a_3d_layout_appends_the_diagonal_dim) {
  lt__layout l = mk(3, I64(2, 3, 4), I64(12, 4, 1), 0), o;
  lt__layout_diagonal(&l, 0, 0, 2, &o);
  ASSERT_LAYOUT(&o, 2, I64(3, 2), I64(4, 13), 0);
  lt__layout_diagonal(&l, 1, 2, 0, &o);
  ASSERT_LAYOUT(&o, 2, I64(3, 1), I64(4, 13), 12);
}
END_TEST

START_TEST(diagonal_of_negative_strides) {
  lt__layout l = mk(2, I64(3, 3), I64(-3, 1), 6), o;
  lt__layout_diagonal(&l, 0, 0, 1, &o);
  ASSERT_LAYOUT(&o, 1, I64(3), I64(-2), 6);
}
END_TEST

/* ---- expand --------------------------------------------------------------*/

START_TEST(expand_broadcasts_size_1_dims_with_stride_0) {
  lt__layout l = mk(2, I64(3, 1), I64(1, 1), 5), o;
  lt__expand_err why;
  ck_assert_int_eq(lt__layout_expand(&l, 3, I64(2, 3, 4), &o, &why), -1);
  ASSERT_LAYOUT(&o, 3, I64(2, 3, 4), I64(0, 1, 0), 5);
}
END_TEST

START_TEST(expand_minus_one_keeps_the_size_and_stride) {
  lt__layout l = mk(2, I64(3, 1), I64(2, 9), 0), o;
  lt__expand_err why;
  ck_assert_int_eq(lt__layout_expand(&l, 2, I64(-1, 4), &o, &why), -1);
  ASSERT_LAYOUT(&o, 2, I64(3, 4), I64(2, 0), 0);
}
END_TEST

START_TEST(expand_to_the_same_size_keeps_the_stride_even_of_size_1) {
  lt__layout l = mk(2, I64(1, 3), I64(7, 2), 0), o;
  lt__expand_err why;
  ck_assert_int_eq(lt__layout_expand(&l, 2, I64(1, 3), &o, &why), -1);
  ASSERT_LAYOUT(&o, 2, I64(1, 3), I64(7, 2), 0);
}
END_TEST

START_TEST(expand_new_leading_size_1_dim_continues_the_next_dim) {
  lt__layout l = mk(1, I64(3), I64(2), 0), o;
  lt__expand_err why;
  ck_assert_int_eq(lt__layout_expand(&l, 3, I64(1, 1, 3), &o, &why), -1);
  ASSERT_LAYOUT(&o, 3, I64(1, 1, 3), I64(6, 6, 2), 0);
}
END_TEST

START_TEST(expand_new_leading_size_1_dim_after_an_expanded_dim_gets_stride_0) {
  lt__layout l = mk(1, I64(1), I64(1), 0), o;
  lt__expand_err why;
  ck_assert_int_eq(lt__layout_expand(&l, 2, I64(1, 4), &o, &why), -1);
  ASSERT_LAYOUT(&o, 2, I64(1, 4), I64(0, 0), 0);
}
END_TEST

START_TEST(expand_new_leading_dim_of_size_above_1_gets_stride_0) {
  lt__layout l = mk(1, I64(3), I64(1), 0), o;
  lt__expand_err why;
  ck_assert_int_eq(lt__layout_expand(&l, 3, I64(2, 1, 3), &o, &why), -1);
  ASSERT_LAYOUT(&o, 3, I64(2, 1, 3), I64(0, 3, 1), 0);
}
END_TEST

START_TEST(expand_size_1_to_0_is_allowed) {
  lt__layout l = mk(1, I64(1), I64(1), 0), o;
  lt__expand_err why;
  ck_assert_int_eq(lt__layout_expand(&l, 1, I64(0), &o, &why), -1);
  ASSERT_LAYOUT(&o, 1, I64(0), I64(0), 0);
  lt__layout m = mk(2, I64(1, 3), I64(3, 1), 0);
  ck_assert_int_eq(lt__layout_expand(&m, 3, I64(2, 0, 3), &o, &why), -1);
  ASSERT_LAYOUT(&o, 3, I64(2, 0, 3), I64(0, 0, 1), 0);
}
END_TEST

START_TEST(expand_of_a_0dim_layout_gives_stride_0_everywhere) {
  lt__layout s = mk(0, NULL, NULL, 4), o;
  lt__expand_err why;
  ck_assert_int_eq(lt__layout_expand(&s, 2, I64(3, 4), &o, &why), -1);
  ASSERT_LAYOUT(&o, 2, I64(3, 4), I64(0, 0), 4);
}
END_TEST

START_TEST(expand_of_a_0dim_layout_gives_stride_0_even_to_size_1_dims) {
  /* VIEWS.md section 6: 0-dim inputs take sizes verbatim, every stride 0. */
  lt__layout s = mk(0, NULL, NULL, 4), o;
  lt__expand_err why;
  ck_assert_int_eq(lt__layout_expand(&s, 1, I64(1), &o, &why), -1);
  ASSERT_LAYOUT(&o, 1, I64(1), I64(0), 4);
  ck_assert_int_eq(lt__layout_expand(&s, 2, I64(3, 1), &o, &why), -1);
  ASSERT_LAYOUT(&o, 2, I64(3, 1), I64(0, 0), 4);
}
END_TEST

START_TEST(expand_of_a_0dim_layout_to_no_dims_is_0dim) {
  lt__layout s = mk(0, NULL, NULL, 4), o;
  lt__expand_err why;
  ck_assert_int_eq(lt__layout_expand(&s, 0, NULL, &o, &why), -1);
  ASSERT_LAYOUT(&o, 0, NULL, NULL, 4);
}
END_TEST

START_TEST(expand_mismatch_at_a_non_1_dim_is_reported_at_that_target_index) {
  lt__layout l = mk(2, I64(2, 3), I64(3, 1), 0), o;
  lt__expand_err why = LT__EXPAND_NEGATIVE;
  ck_assert_int_eq(lt__layout_expand(&l, 2, I64(2, 4), &o, &why), 1);
  ck_assert_int_eq(why, LT__EXPAND_MISMATCH);
  lt__layout v = mk(1, I64(3), I64(1), 0);
  why = LT__EXPAND_NEGATIVE;
  ck_assert_int_eq(lt__layout_expand(&v, 2, I64(5, 4), &o, &why), 1);
  ck_assert_int_eq(why, LT__EXPAND_MISMATCH);
}
END_TEST

START_TEST(expand_minus_one_in_a_new_leading_dim_is_reported) {
  lt__layout l = mk(1, I64(3), I64(1), 0), o;
  lt__expand_err why = LT__EXPAND_MISMATCH;
  ck_assert_int_eq(lt__layout_expand(&l, 3, I64(2, -1, 3), &o, &why), 1);
  ck_assert_int_eq(why, LT__EXPAND_NEW_DIM_KEEP);
  lt__layout s = mk(0, NULL, NULL, 0);
  why = LT__EXPAND_MISMATCH;
  ck_assert_int_eq(lt__layout_expand(&s, 1, I64(-1), &o, &why), 0);
  ck_assert_int_eq(why, LT__EXPAND_NEW_DIM_KEEP);
}
END_TEST

START_TEST(expand_size_below_minus_one_is_negative_in_new_and_existing_dims) {
  lt__layout l = mk(1, I64(1), I64(1), 0), o;
  lt__expand_err why = LT__EXPAND_MISMATCH;
  ck_assert_int_eq(lt__layout_expand(&l, 2, I64(-2, 1), &o, &why), 0);
  ck_assert_int_eq(why, LT__EXPAND_NEGATIVE);
  why = LT__EXPAND_MISMATCH;
  ck_assert_int_eq(lt__layout_expand(&l, 1, I64(-2), &o, &why), 0);
  ck_assert_int_eq(why, LT__EXPAND_NEGATIVE);
  lt__layout s = mk(0, NULL, NULL, 0);
  why = LT__EXPAND_MISMATCH;
  ck_assert_int_eq(lt__layout_expand(&s, 2, I64(3, -2), &o, &why), 1);
  ck_assert_int_eq(why, LT__EXPAND_NEGATIVE);
}
END_TEST

/* ---- extent --------------------------------------------------------------*/

START_TEST(extent_of_positive_strides_runs_from_the_offset) {
  lt__layout l = mk(2, I64(2, 3), I64(3, 1), 4);
  int64_t lo = -1, hi = -1;
  bool ovf = true;
  ck_assert(lt__layout_extent(&l, &lo, &hi, &ovf));
  ck_assert(!ovf);
  ck_assert_int_eq(lo, 4);
  ck_assert_int_eq(hi, 9);
}
END_TEST

START_TEST(extent_of_negative_strides_reaches_below_the_offset) {
  lt__layout l = mk(2, I64(2, 3), I64(3, -1), 2);
  int64_t lo = -1, hi = -1;
  bool ovf = true;
  ck_assert(lt__layout_extent(&l, &lo, &hi, &ovf));
  ck_assert_int_eq(lo, 0);
  ck_assert_int_eq(hi, 5);
  lt__layout r = mk(1, I64(3), I64(-2), 4);
  ck_assert(lt__layout_extent(&r, &lo, &hi, &ovf));
  ck_assert_int_eq(lo, 0);
  ck_assert_int_eq(hi, 4);
}
END_TEST

START_TEST(extent_of_a_0dim_layout_is_its_offset) {
  lt__layout l = mk(0, NULL, NULL, 7);
  int64_t lo = -1, hi = -1;
  bool ovf = true;
  ck_assert(lt__layout_extent(&l, &lo, &hi, &ovf));
  ck_assert_int_eq(lo, 7);
  ck_assert_int_eq(hi, 7);
}
END_TEST

START_TEST(extent_ignores_the_stride_of_size_1_dims) {
  lt__layout l = mk(2, I64(1, 2), I64(INT64_MAX, 1), 3);
  int64_t lo = -1, hi = -1;
  bool ovf = true;
  ck_assert(lt__layout_extent(&l, &lo, &hi, &ovf));
  ck_assert(!ovf);
  ck_assert_int_eq(lo, 3);
  ck_assert_int_eq(hi, 4);
}
END_TEST

START_TEST(extent_of_an_empty_layout_is_nothing) {
  lt__layout l = mk(2, I64(3, 0), I64(1, 1), 2);
  int64_t lo, hi;
  bool ovf = true;
  ck_assert(!lt__layout_extent(&l, &lo, &hi, &ovf));
  ck_assert(!ovf);
}
END_TEST

START_TEST(extent_of_an_empty_layout_is_nothing_even_with_huge_strides) {
  lt__layout l = mk(2, I64(3, 0), I64(INT64_MAX, 1), 0);
  int64_t lo, hi;
  bool ovf = true;
  ck_assert(!lt__layout_extent(&l, &lo, &hi, &ovf));
  ck_assert_msg(!ovf, "an empty layout reaches nothing, so nothing overflows");
}
END_TEST

START_TEST(extent_reports_overflow_of_a_span) {
  lt__layout l = mk(1, I64(3), I64(INT64_MAX), 0);
  int64_t lo, hi;
  bool ovf = false;
  ck_assert(!lt__layout_extent(&l, &lo, &hi, &ovf));
  ck_assert(ovf);
}
END_TEST

START_TEST(extent_reports_overflow_of_offset_plus_span) {
  lt__layout l = mk(1, I64(2), I64(INT64_MAX), 1);
  int64_t lo, hi;
  bool ovf = false;
  ck_assert(!lt__layout_extent(&l, &lo, &hi, &ovf));
  ck_assert(ovf);
  lt__layout n = mk(1, I64(2), I64(-INT64_MAX), -2);
  ovf = false;
  ck_assert(!lt__layout_extent(&n, &lo, &hi, &ovf));
  ck_assert(ovf);
}
END_TEST

START_TEST(extent_up_to_int64_max_is_exact) {
  lt__layout l = mk(1, I64(2), I64(INT64_MAX - 1), 1);
  int64_t lo = -1, hi = -1;
  bool ovf = true;
  ck_assert(lt__layout_extent(&l, &lo, &hi, &ovf));
  ck_assert(!ovf);
  ck_assert_int_eq(lo, 1);
  ck_assert_int_eq(hi, INT64_MAX);
}
END_TEST

/* ---- self_overlap --------------------------------------------------------*/

START_TEST(overlap_contiguous_is_disjoint) {
  lt__layout l = mk(2, I64(2, 3), I64(3, 1), 0);
  ck_assert_int_eq(lt__layout_self_overlap(&l), LT__DISJOINT);
}
END_TEST

START_TEST(overlap_strided_with_gaps_is_disjoint) {
  lt__layout l = mk(2, I64(2, 2), I64(10, 3), 0);
  ck_assert_int_eq(lt__layout_self_overlap(&l), LT__DISJOINT);
  lt__layout t = mk(2, I64(3, 2), I64(1, 3), 0); /* a transpose */
  ck_assert_int_eq(lt__layout_self_overlap(&t), LT__DISJOINT);
}
END_TEST

START_TEST(overlap_negative_strides_are_judged_by_magnitude) {
  lt__layout l = mk(2, I64(2, 3), I64(-3, -1), 5);
  ck_assert_int_eq(lt__layout_self_overlap(&l), LT__DISJOINT);
  lt__layout m = mk(2, I64(2, 3), I64(3, -1), 2);
  ck_assert_int_eq(lt__layout_self_overlap(&m), LT__DISJOINT);
}
END_TEST

START_TEST(overlap_stride_0_on_a_dim_above_size_1_overlaps) {
  lt__layout l = mk(2, I64(3, 4), I64(0, 1), 0);
  ck_assert_int_eq(lt__layout_self_overlap(&l), LT__OVERLAPS);
}
END_TEST

START_TEST(overlap_ignores_size_1_dims) {
  lt__layout l = mk(3, I64(1, 4, 1), I64(0, 1, 0), 0);
  ck_assert_int_eq(lt__layout_self_overlap(&l), LT__DISJOINT);
}
END_TEST

START_TEST(overlap_of_an_empty_layout_is_disjoint) {
  lt__layout l = mk(2, I64(3, 0), I64(0, 0), 0);
  ck_assert_int_eq(lt__layout_self_overlap(&l), LT__DISJOINT);
}
END_TEST

START_TEST(overlap_of_a_0dim_layout_is_disjoint) {
  lt__layout l = mk(0, NULL, NULL, 3);
  ck_assert_int_eq(lt__layout_self_overlap(&l), LT__DISJOINT);
}
END_TEST

START_TEST(overlap_of_interleaved_disjoint_strides_is_never_overlaps) {
  /* {0,2,4} + {0,3} are six distinct offsets although the strides interleave. */
  lt__layout l = mk(2, I64(2, 3), I64(3, 2), 0);
  ck_assert_int_ne(lt__layout_self_overlap(&l), LT__OVERLAPS);
}
END_TEST

START_TEST(overlap_of_truly_overlapping_strides_is_never_disjoint) {
  lt__layout a = mk(2, I64(2, 3), I64(2, 1), 0); /* (0,2) and (1,0) meet */
  ck_assert_int_ne(lt__layout_self_overlap(&a), LT__DISJOINT);
  lt__layout b = mk(2, I64(2, 2), I64(1, 1), 0);
  ck_assert_int_ne(lt__layout_self_overlap(&b), LT__DISJOINT);
  lt__layout c = mk(2, I64(2, 2), I64(1, -1), 1);
  ck_assert_int_ne(lt__layout_self_overlap(&c), LT__DISJOINT);
}
END_TEST

/* ---- coalesce ------------------------------------------------------------*/

START_TEST(coalesce_merges_a_contiguous_layout_into_one_dim) {
  int64_t shape[] = {2, 3, 4}, st[] = {12, 4, 1};
  int64_t *const arrs[] = {st};
  ck_assert_int_eq(lt__coalesce(3, shape, 1, arrs), 1);
  ck_assert_int_eq(shape[0], 24);
  ck_assert_int_eq(st[0], 1);
}
END_TEST

START_TEST(coalesce_drops_size_1_dims_whatever_their_stride) {
  int64_t shape[] = {2, 1, 3}, st[] = {3, 99, 1};
  int64_t *const arrs[] = {st};
  ck_assert_int_eq(lt__coalesce(3, shape, 1, arrs), 1);
  ck_assert_int_eq(shape[0], 6);
  ck_assert_int_eq(st[0], 1);
}
END_TEST

START_TEST(coalesce_of_all_size_1_dims_is_0_dims) {
  int64_t shape[] = {1, 1}, st[] = {5, 7};
  int64_t *const arrs[] = {st};
  ck_assert_int_eq(lt__coalesce(2, shape, 1, arrs), 0);
  ck_assert_int_eq(lt__coalesce(0, shape, 1, arrs), 0);
}
END_TEST

START_TEST(coalesce_keeps_non_mergeable_dims_in_order) {
  int64_t shape[] = {2, 3}, st[] = {1, 2};
  int64_t *const arrs[] = {st};
  ck_assert_int_eq(lt__coalesce(2, shape, 1, arrs), 2);
  ASSERT_DIMS(2, shape, I64(2, 3));
  ASSERT_DIMS(2, st, I64(1, 2));
}
END_TEST

START_TEST(coalesce_merges_only_the_contiguous_part) {
  int64_t shape[] = {2, 3, 4, 5}, st[] = {120, 40, 10, 2}; /* row-major, every 2nd element */
  int64_t *const arrs[] = {st};
  ck_assert_int_eq(lt__coalesce(4, shape, 1, arrs), 1);
  ASSERT_DIMS(1, shape, I64(120));
  ASSERT_DIMS(1, st, I64(2));
  int64_t sh2[] = {2, 3, 4, 5}, st2[] = {300, 100, 10, 2};
  int64_t *const arrs2[] = {st2};
  ck_assert_int_eq(lt__coalesce(4, sh2, 1, arrs2), 2);
  ASSERT_DIMS(2, sh2, I64(6, 20));
  ASSERT_DIMS(2, st2, I64(100, 2));
}
END_TEST

START_TEST(coalesce_merges_negative_strides_that_continue_each_other) {
  int64_t shape[] = {2, 3}, st[] = {-3, -1};
  int64_t *const arrs[] = {st};
  ck_assert_int_eq(lt__coalesce(2, shape, 1, arrs), 1);
  ck_assert_int_eq(shape[0], 6);
  ck_assert_int_eq(st[0], -1);
  int64_t sh2[] = {2, 3}, st2[] = {3, -1};
  int64_t *const arrs2[] = {st2};
  ck_assert_int_eq(lt__coalesce(2, sh2, 1, arrs2), 2);
}
END_TEST

START_TEST(coalesce_with_two_arrays_merges_only_where_both_allow) {
  int64_t shape[] = {2, 3, 4}, a[] = {12, 4, 1}, b[] = {3, 1, 6};
  int64_t *const arrs[] = {a, b};
  ck_assert_int_eq(lt__coalesce(3, shape, 2, arrs), 2);
  ASSERT_DIMS(2, shape, I64(6, 4));
  ASSERT_DIMS(2, a, I64(4, 1));
  ASSERT_DIMS(2, b, I64(1, 6));
}
END_TEST

START_TEST(coalesce_with_two_arrays_drops_size_1_dims_from_both) {
  int64_t shape[] = {2, 1, 3}, a[] = {3, 5, 1}, b[] = {0, 8, 0}; /* b: broadcast source */
  int64_t *const arrs[] = {a, b};
  ck_assert_int_eq(lt__coalesce(3, shape, 2, arrs), 1);
  ASSERT_DIMS(1, shape, I64(6));
  ASSERT_DIMS(1, a, I64(1));
  ASSERT_DIMS(1, b, I64(0));
}
END_TEST

/* ---- broadcast_strides and wrap_dim --------------------------------------*/

START_TEST(broadcast_size_1_and_missing_dims_get_stride_0) {
  lt__layout l = mk(2, I64(3, 1), I64(1, 1), 0);
  int64_t st[3];
  ck_assert(lt__broadcast_strides(&l, 3, I64(2, 3, 4), st));
  ASSERT_DIMS(3, st, I64(0, 1, 0));
}
END_TEST

START_TEST(broadcast_equal_sizes_keep_their_strides) {
  lt__layout l = mk(2, I64(2, 3), I64(-3, 5), 0);
  int64_t st[2];
  ck_assert(lt__broadcast_strides(&l, 2, I64(2, 3), st));
  ASSERT_DIMS(2, st, I64(-3, 5));
  lt__layout e = mk(1, I64(0), I64(4), 0);
  ck_assert(lt__broadcast_strides(&e, 2, I64(3, 0), st));
  ASSERT_DIMS(2, st, I64(0, 4));
}
END_TEST

START_TEST(broadcast_of_a_0dim_layout_is_all_stride_0) {
  lt__layout s = mk(0, NULL, NULL, 0);
  int64_t st[2];
  ck_assert(lt__broadcast_strides(&s, 2, I64(2, 3), st));
  ASSERT_DIMS(2, st, I64(0, 0));
}
END_TEST

START_TEST(broadcast_size_1_to_0_is_allowed) {
  lt__layout l = mk(1, I64(1), I64(1), 0);
  int64_t st[1];
  ck_assert(lt__broadcast_strides(&l, 1, I64(0), st));
  ck_assert_int_eq(st[0], 0);
}
END_TEST

START_TEST(broadcast_fails_on_unequal_non_1_sizes) {
  lt__layout l = mk(1, I64(3), I64(1), 0);
  int64_t st[2];
  ck_assert(!lt__broadcast_strides(&l, 1, I64(4), st));
  ck_assert(!lt__broadcast_strides(&l, 2, I64(3, 1), st));
  lt__layout z = mk(1, I64(0), I64(1), 0);
  ck_assert(!lt__broadcast_strides(&z, 1, I64(1), st));
}
END_TEST

START_TEST(broadcast_fails_to_fewer_dims) {
  lt__layout l = mk(2, I64(1, 3), I64(3, 1), 0);
  int64_t st[1];
  ck_assert(!lt__broadcast_strides(&l, 1, I64(3), st));
}
END_TEST

START_TEST(broadcast_shapes_align_from_the_right_and_name_the_first_mismatch) {
  int n = -1;
  int64_t out[LT_MAX_DIMS];
  ck_assert_int_eq(lt__broadcast_shapes(3, I64(2, 1, 4), 2, I64(3, 1), &n, out), -1);
  ck_assert_int_eq(n, 3);
  ck_assert(out[0] == 2 && out[1] == 3 && out[2] == 4);
  ck_assert_int_eq(lt__broadcast_shapes(0, NULL, 2, I64(0, 5), &n, out), -1);
  ck_assert(n == 2 && out[0] == 0 && out[1] == 5);
  ck_assert_int_eq(lt__broadcast_shapes(1, I64(1), 1, I64(0), &n, out), -1);
  ck_assert_int_eq(out[0], 0); /* 1 broadcasts to 0 */
  ck_assert_int_eq(lt__broadcast_shapes(3, I64(2, 3, 4), 2, I64(5, 4), &n, out), 1);
  ck_assert_int_eq(lt__broadcast_shapes(2, I64(2, 3), 2, I64(3, 3), &n, out), 0);
}
END_TEST

START_TEST(wrap_dim_accepts_minus_n_to_n_minus_1) {
  int d = -9;
  ck_assert(lt__wrap_dim(0, 3, &d));
  ck_assert_int_eq(d, 0);
  ck_assert(lt__wrap_dim(2, 3, &d));
  ck_assert_int_eq(d, 2);
  ck_assert(lt__wrap_dim(-1, 3, &d));
  ck_assert_int_eq(d, 2);
  ck_assert(lt__wrap_dim(-3, 3, &d));
  ck_assert_int_eq(d, 0);
}
END_TEST

START_TEST(wrap_dim_rejects_out_of_range) {
  int d = -9;
  ck_assert(!lt__wrap_dim(3, 3, &d));
  ck_assert(!lt__wrap_dim(-4, 3, &d));
  ck_assert(!lt__wrap_dim(INT32_MIN, 3, &d));
  ck_assert(!lt__wrap_dim(INT32_MAX, 3, &d));
}
END_TEST

START_TEST(wrap_dim_of_a_0dim_layout_accepts_0_and_minus_1) {
  int d = -9;
  ck_assert(lt__wrap_dim(0, 0, &d));
  ck_assert_int_eq(d, 0);
  d = -9;
  ck_assert(lt__wrap_dim(-1, 0, &d));
  ck_assert_int_eq(d, 0);
  ck_assert(!lt__wrap_dim(1, 0, &d));
  ck_assert(!lt__wrap_dim(-2, 0, &d));
}
END_TEST

/* ---- random layouts against the naive model ------------------------------*/

/* A random shape with numel n, ndim 0..4 (0 only when n == 1). */
static int random_shape_of(int64_t n, int64_t *shape) {
  int ndim = (int)lt_test_rand(n == 1 ? 0 : 1, 4);
  if (n == 0) {
    for (int i = 0; i < ndim; i++) shape[i] = lt_test_rand(0, 4);
    shape[lt_test_rand(0, ndim - 1)] = 0;
    return ndim;
  }
  int64_t left = n;
  for (int i = 0; i < ndim - 1; i++) {
    int64_t divs[64];
    int k = 0;
    for (int64_t v = 1; v <= left; v++)
      if (left % v == 0) divs[k++] = v;
    shape[i] = divs[lt_test_rand(0, k - 1)];
    left /= shape[i];
  }
  if (ndim > 0) shape[ndim - 1] = left;
  for (int i = ndim - 1; i > 0; i--) { /* shuffle */
    int j = (int)lt_test_rand(0, i);
    int64_t t = shape[i];
    shape[i] = shape[j];
    shape[j] = t;
  }
  return ndim;
}

START_TEST(view_strides_agree_with_brute_force_on_random_layouts) {
  lt_test_seed(0x9e3779b97f4a7c15u);
  int viewable = 0, not_viewable = 0;
  for (int iter = 0; iter < 4000; iter++) {
    lt__layout old = random_layout(0, 4, -6, 6);
    if (iter % 3 == 0) lt__contiguous_strides(old.ndim, old.shape, old.strides);
    if (iter % 3 == 1 && old.ndim >= 2) { /* a transposed contiguous layout */
      lt__contiguous_strides(old.ndim, old.shape, old.strides);
      int a = (int)lt_test_rand(0, old.ndim - 1), b = (int)lt_test_rand(0, old.ndim - 1);
      int64_t s = old.strides[a];
      old.strides[a] = old.strides[b];
      old.strides[b] = s;
    }
    int64_t numel = lt_test_numel(old.ndim, old.shape);
    int64_t shape[LT_MAX_DIMS];
    int ndim = random_shape_of(numel, shape);
    /* Element f of the row-major order lives at want[f]. */
    int64_t want[1024], idx[LT_MAX_DIMS];
    int64_t f = 0;
    if (lt_test_first_index(old.ndim, old.shape, idx)) do want[f++] = addr(&old, idx);
      while (lt_test_next_index(old.ndim, old.shape, idx));
    /* A view exists iff unit steps along each new dim give strides that
     * reproduce every address. */
    bool feasible = true;
    int64_t unit[LT_MAX_DIMS], step = 1;
    for (int d = ndim - 1; d >= 0; d--) {
      unit[d] = numel > 0 && shape[d] > 1 ? want[step] - want[0] : 0;
      step *= shape[d] > 0 ? shape[d] : 1;
    }
    f = 0;
    if (lt_test_first_index(ndim, shape, idx)) do {
        int64_t a = want[0];
        for (int d = 0; d < ndim; d++) a += idx[d] * unit[d];
        if (a != want[f++]) feasible = false;
      } while (lt_test_next_index(ndim, shape, idx));
    int64_t st[LT_MAX_DIMS];
    int lo = -7, hi = -7;
    bool ok = lt__view_strides(&old, ndim, shape, st, &lo, &hi);
    char o[1024], s[400];
    fmt_layout(o, sizeof o, &old);
    fmt_dims(s, sizeof s, ndim, shape);
    ck_assert_msg(ok == feasible, "iter %d: %s as %s: view_strides says %d, brute force %d", iter, o, s, ok,
                  feasible);
    if (ok) {
      viewable++;
      lt__layout nl = mk(ndim, shape, st, old.offset);
      f = 0;
      if (lt_test_first_index(ndim, shape, idx)) do
          ck_assert_msg(addr(&nl, idx) == want[f++], "iter %d: %s as %s: wrong strides", iter, o, s);
        while (lt_test_next_index(ndim, shape, idx));
    } else {
      not_viewable++;
      ck_assert_msg(lo >= 0 && lo < hi && hi < old.ndim, "iter %d: %s as %s: break dims (%d, %d)", iter, o, s,
                    lo, hi);
      ck_assert_msg(old.shape[lo] != 1 && old.shape[hi] != 1, "iter %d: %s: break dims (%d, %d) of size 1",
                    iter, o, lo, hi);
      for (int d = lo + 1; d < hi; d++)
        ck_assert_msg(old.shape[d] == 1, "iter %d: %s: break dims (%d, %d) not adjacent", iter, o, lo, hi);
      ck_assert_msg(old.strides[lo] != old.shape[hi] * old.strides[hi],
                    "iter %d: %s: break dims (%d, %d) are contiguous with each other", iter, o, lo, hi);
    }
  }
  ck_assert_int_gt(viewable, 500);
  ck_assert_int_gt(not_viewable, 500);
}
END_TEST

/* Python's slice.indices, then the walk: the indices start:stop:step picks. */
static int64_t py_slice(int64_t n, int64_t start, int64_t stop, int64_t step, int64_t *out) {
  int64_t lower = step > 0 ? 0 : -1, upper = step > 0 ? n : n - 1;
  int64_t s, e;
  if (start == LT_NONE) s = step > 0 ? lower : upper;
  else {
    s = start < 0 ? start + n : start;
    s = s < lower ? lower : s > upper ? upper : s;
  }
  if (stop == LT_NONE) e = step > 0 ? upper : lower;
  else {
    e = stop < 0 ? stop + n : stop;
    e = e < lower ? lower : e > upper ? upper : e;
  }
  int64_t k = 0;
  for (int64_t i = s; step > 0 ? i < e : i > e; i += step) out[k++] = i;
  return k;
}

struct slice_ctx { int dim; const int64_t *picked; };
static void slice_map(const void *c, const int64_t *j, int64_t *i) {
  const struct slice_ctx *x = c;
  for (int d = 0; d < LT_MAX_DIMS; d++) i[d] = j[d];
  i[x->dim] = x->picked[j[x->dim]];
}

START_TEST(slice_agrees_with_python_on_random_layouts) {
  lt_test_seed(12345);
  for (int iter = 0; iter < 3000; iter++) {
    lt__layout in = random_layout(1, 4, -5, 5), out;
    int dim = (int)lt_test_rand(0, in.ndim - 1);
    int64_t start = lt_test_rand(0, 5) ? lt_test_rand(-7, 7) : LT_NONE, stop = lt_test_rand(0, 5) ? lt_test_rand(-7, 7) : LT_NONE;
    int64_t step = lt_test_rand(-4, 3);
    if (step >= 0) step++;
    int64_t picked[16];
    int64_t k = py_slice(in.shape[dim], start, stop, step, picked);
    lt__layout_slice(&in, dim, start, stop, step, &out);
    int64_t shape[LT_MAX_DIMS];
    memcpy(shape, in.shape, sizeof shape);
    shape[dim] = k;
    char a[1024];
    ck_assert_msg(out.ndim == in.ndim, "iter %d", iter);
    for (int d = 0; d < in.ndim; d++)
      ck_assert_msg(out.shape[d] == shape[d], "iter %d: %s slice(%d, %lld, %lld, %lld): size %lld, want %lld",
                    iter, fmt_layout(a, sizeof a, &in), dim, (long long)start, (long long)stop, (long long)step,
                    (long long)out.shape[d], (long long)shape[d]);
    ASSERT_SAME_ELEMENTS(&in, &out, slice_map, &((struct slice_ctx){dim, picked}));
    if (k > 0 && step > 0)
      ck_assert_int_eq(out.offset, in.offset + picked[0] * in.strides[dim]);
  }
}
END_TEST

struct diag_ctx { int d1, d2; int64_t off; int in_ndim; };
static void diag_map(const void *c, const int64_t *j, int64_t *i) {
  const struct diag_ctx *x = c;
  int out_ndim = x->in_ndim - 1;
  int64_t k = j[out_ndim - 1];
  for (int d = 0, o = 0; d < x->in_ndim; d++) {
    if (d == x->d1) i[d] = k + (x->off < 0 ? -x->off : 0);
    else if (d == x->d2) i[d] = k + (x->off > 0 ? x->off : 0);
    else i[d] = j[o++];
  }
}

START_TEST(diagonal_agrees_with_the_index_model_on_random_layouts) {
  lt_test_seed(777);
  for (int iter = 0; iter < 2000; iter++) {
    lt__layout in = random_layout(2, 4, -5, 5), out;
    int d1 = (int)lt_test_rand(0, in.ndim - 1), d2 = (int)lt_test_rand(0, in.ndim - 2);
    if (d2 >= d1) d2++;
    int64_t off = lt_test_rand(-5, 5);
    int64_t size = 0;
    while (size + (off < 0 ? -off : 0) < in.shape[d1] && size + (off > 0 ? off : 0) < in.shape[d2]) size++;
    lt__layout_diagonal(&in, off, d1, d2, &out);
    char a[1024];
    fmt_layout(a, sizeof a, &in);
    ck_assert_msg(out.ndim == in.ndim - 1, "iter %d", iter);
    for (int d = 0, o = 0; d < in.ndim; d++)
      if (d != d1 && d != d2)
        ck_assert_msg(out.shape[o++] == in.shape[d], "iter %d: %s diagonal(%lld,%d,%d)", iter, a, (long long)off,
                      d1, d2);
    ck_assert_msg(out.shape[out.ndim - 1] == size, "iter %d: %s diagonal(%lld,%d,%d): size %lld, want %lld", iter,
                  a, (long long)off, d1, d2, (long long)out.shape[out.ndim - 1], (long long)size);
    ASSERT_SAME_ELEMENTS(&in, &out, diag_map, &((struct diag_ctx){d1, d2, off, in.ndim}));
    if (size == 0) ck_assert_int_eq(out.offset, in.offset);
  }
}
END_TEST

struct expand_ctx { int lead; const lt__layout *in; };
static void expand_map(const void *c, const int64_t *j, int64_t *i) {
  const struct expand_ctx *x = c;
  for (int d = 0; d < x->in->ndim; d++) i[d] = x->in->shape[d] == 1 ? 0 : j[d + x->lead];
}

START_TEST(expand_agrees_with_the_index_model_on_random_layouts) {
  lt_test_seed(4242);
  for (int iter = 0; iter < 2000; iter++) {
    lt__layout in = random_layout(0, 3, -5, 5), out;
    for (int d = 0; d < in.ndim; d++)
      if (lt_test_rand(0, 1)) in.shape[d] = 1;
    int lead = (int)lt_test_rand(0, 2), ndim = in.ndim + lead;
    int64_t target[LT_MAX_DIMS], want[LT_MAX_DIMS];
    for (int i = 0; i < ndim; i++) {
      int d = i - lead;
      if (d < 0) want[i] = target[i] = lt_test_rand(0, 3);
      else if (in.shape[d] == 1) want[i] = target[i] = lt_test_rand(0, 3);
      else want[i] = target[i] = in.shape[d];
      if (d >= 0 && lt_test_rand(0, 2) == 0) {
        target[i] = -1;
        want[i] = in.shape[d];
      }
    }
    lt__expand_err why;
    char a[1024], t[400];
    fmt_layout(a, sizeof a, &in);
    fmt_dims(t, sizeof t, ndim, target);
    ck_assert_msg(lt__layout_expand(&in, ndim, target, &out, &why) == -1, "iter %d: %s expand %s failed", iter, a, t);
    ck_assert_int_eq(out.ndim, ndim);
    ck_assert_int_eq(out.offset, in.offset);
    for (int i = 0; i < ndim; i++) {
      ck_assert_msg(out.shape[i] == want[i], "iter %d: %s expand %s", iter, a, t);
      int d = i - lead;
      if (d >= 0 && in.shape[d] != want[i]) ck_assert_msg(out.strides[i] == 0, "iter %d: %s expand %s", iter, a, t);
      if (d >= 0 && in.shape[d] == want[i])
        ck_assert_msg(out.strides[i] == in.strides[d], "iter %d: %s expand %s", iter, a, t);
      if (d < 0 && want[i] != 1) ck_assert_msg(out.strides[i] == 0, "iter %d: %s expand %s", iter, a, t);
    }
    ASSERT_SAME_ELEMENTS(&in, &out, expand_map, &((struct expand_ctx){lead, &in}));
  }
}
END_TEST

struct perm_ctx { int ndim; const int *perm; };
static void perm_map(const void *c, const int64_t *j, int64_t *i) {
  const struct perm_ctx *x = c;
  for (int k = 0; k < x->ndim; k++) i[x->perm[k]] = j[k];
}

START_TEST(permute_agrees_with_the_index_model_on_random_layouts) {
  lt_test_seed(99);
  for (int iter = 0; iter < 1000; iter++) {
    lt__layout in = random_layout(0, 4, -5, 5), out;
    int perm[LT_MAX_DIMS];
    for (int i = 0; i < in.ndim; i++) perm[i] = i;
    for (int i = in.ndim - 1; i > 0; i--) {
      int j = (int)lt_test_rand(0, i), t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
    lt__layout_permute(&in, perm, &out);
    ck_assert_int_eq(out.ndim, in.ndim);
    ck_assert_int_eq(out.offset, in.offset);
    for (int k = 0; k < in.ndim; k++) ck_assert_int_eq(out.shape[k], in.shape[perm[k]]);
    ASSERT_SAME_ELEMENTS(&in, &out, perm_map, &((struct perm_ctx){in.ndim, perm}));
  }
}
END_TEST

struct dim_ctx { int dim; int64_t index; int out_ndim; };
static void select_map(const void *c, const int64_t *j, int64_t *i) {
  const struct dim_ctx *x = c;
  for (int d = 0, o = 0; d <= x->out_ndim; d++) i[d] = d == x->dim ? x->index : j[o++];
}
static void unsqueeze_map(const void *c, const int64_t *j, int64_t *i) {
  const struct dim_ctx *x = c;
  for (int d = 0, o = 0; d < x->out_ndim; d++) {
    if (d == x->dim) continue;
    i[o++] = j[d];
  }
}

START_TEST(select_and_unsqueeze_agree_with_the_index_model_on_random_layouts) {
  lt_test_seed(31337);
  for (int iter = 0; iter < 2000; iter++) {
    lt__layout in = random_layout(0, 4, -5, 5), out;
    if (in.ndim > 0) {
      int dim = (int)lt_test_rand(0, in.ndim - 1);
      if (in.shape[dim] == 0) in.shape[dim] = 2;
      int64_t index = lt_test_rand(0, in.shape[dim] - 1);
      lt__layout_select(&in, dim, index, &out);
      ck_assert_int_eq(out.ndim, in.ndim - 1);
      for (int d = 0, o = 0; d < in.ndim; d++)
        if (d != dim) ck_assert_int_eq(out.shape[o++], in.shape[d]);
      ASSERT_SAME_ELEMENTS(&in, &out, select_map, &((struct dim_ctx){dim, index, out.ndim}));
    }
    int dim = (int)lt_test_rand(0, in.ndim);
    lt__layout_unsqueeze(&in, dim, &out);
    ck_assert_int_eq(out.ndim, in.ndim + 1);
    ck_assert_int_eq(out.shape[dim], 1);
    ck_assert_int_eq(out.offset, in.offset);
    ck_assert_int_eq(out.strides[dim], dim == in.ndim ? 1 : in.shape[dim] * in.strides[dim]);
    ASSERT_SAME_ELEMENTS(&in, &out, unsqueeze_map, &((struct dim_ctx){dim, 0, out.ndim}));
  }
}
END_TEST

START_TEST(extent_agrees_with_brute_force_on_random_layouts) {
  lt_test_seed(2718);
  for (int iter = 0; iter < 2000; iter++) {
    lt__layout l = random_layout(0, 4, -6, 6);
    int64_t lo = 0, hi = 0, idx[LT_MAX_DIMS];
    bool ovf = true;
    bool any = lt__layout_extent(&l, &lo, &hi, &ovf);
    ck_assert(!ovf);
    if (!lt_test_first_index(l.ndim, l.shape, idx)) {
      ck_assert(!any);
      continue;
    }
    ck_assert(any);
    int64_t mn = INT64_MAX, mx = INT64_MIN;
    do {
      int64_t a = addr(&l, idx);
      mn = a < mn ? a : mn;
      mx = a > mx ? a : mx;
    } while (lt_test_next_index(l.ndim, l.shape, idx));
    ck_assert_int_eq(lo, mn);
    ck_assert_int_eq(hi, mx);
  }
}
END_TEST

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

START_TEST(self_overlap_verdicts_agree_with_brute_force) {
  lt_test_seed(161803);
  int verdicts[3] = {0, 0, 0};
  for (int iter = 0; iter < 3000; iter++) {
    lt__layout l = random_layout(0, 4, -6, 6);
    int64_t addrs[1024], idx[LT_MAX_DIMS];
    int n = 0;
    if (lt_test_first_index(l.ndim, l.shape, idx)) do addrs[n++] = addr(&l, idx);
      while (lt_test_next_index(l.ndim, l.shape, idx));
    qsort(addrs, (size_t)n, sizeof addrs[0], cmp_i64);
    bool dup = false;
    for (int i = 1; i < n; i++) dup = dup || addrs[i] == addrs[i - 1];
    lt__overlap v = lt__layout_self_overlap(&l);
    char a[1024];
    fmt_layout(a, sizeof a, &l);
    if (v == LT__DISJOINT) ck_assert_msg(!dup, "iter %d: %s called disjoint but overlaps", iter, a);
    if (v == LT__OVERLAPS) ck_assert_msg(dup, "iter %d: %s called overlapping but is disjoint", iter, a);
    verdicts[v]++;
  }
  ck_assert_int_gt(verdicts[LT__DISJOINT], 300);
  ck_assert_int_gt(verdicts[LT__OVERLAPS], 300);
}
END_TEST

START_TEST(coalesce_preserves_every_address_sequence_and_is_maximal) {
  lt_test_seed(55);
  for (int iter = 0; iter < 2000; iter++) {
    int ndim = (int)lt_test_rand(0, 5), n = (int)lt_test_rand(1, 2);
    int64_t shape[LT_MAX_DIMS], st[2][LT_MAX_DIMS];
    for (int d = 0; d < ndim; d++) shape[d] = lt_test_rand(1, 4);
    for (int a = 0; a < n; a++) {
      int kind = (int)lt_test_rand(0, 2);
      lt__contiguous_strides(ndim, shape, st[a]);
      for (int d = 0; d < ndim; d++) {
        if (kind == 1) st[a][d] *= -2;
        if (kind == 2 && lt_test_rand(0, 2) == 0) st[a][d] = lt_test_rand(-6, 6);
      }
    }
    /* The element sequences before, in row-major order. */
    int64_t before[2][1024], idx[LT_MAX_DIMS];
    int count = 0;
    lt_test_first_index(ndim, shape, idx);
    do {
      for (int a = 0; a < n; a++) {
        int64_t s = 0;
        for (int d = 0; d < ndim; d++) s += idx[d] * st[a][d];
        before[a][count] = s;
      }
      count++;
    } while (lt_test_next_index(ndim, shape, idx));
    int64_t *const arrs[] = {st[0], st[1]};
    int m = lt__coalesce(ndim, shape, n, arrs);
    ck_assert_int_le(m, ndim);
    ck_assert_int_eq(lt_test_numel(m, shape), count);
    int k = 0;
    lt_test_first_index(m, shape, idx);
    do {
      for (int a = 0; a < n; a++) {
        int64_t s = 0;
        for (int d = 0; d < m; d++) s += idx[d] * st[a][d];
        ck_assert_msg(s == before[a][k], "iter %d: array %d element %d moved", iter, a, k);
      }
      k++;
    } while (lt_test_next_index(m, shape, idx));
    for (int d = 0; d < m; d++) ck_assert_msg(shape[d] != 1, "iter %d: size-1 dim %d kept", iter, d);
    for (int d = 0; d + 1 < m; d++) {
      bool all = true;
      for (int a = 0; a < n; a++) all = all && st[a][d] == shape[d + 1] * st[a][d + 1];
      ck_assert_msg(!all, "iter %d: dims %d and %d left unmerged", iter, d, d + 1);
    }
  }
}
END_TEST

START_TEST(broadcast_strides_agree_with_the_index_model) {
  lt_test_seed(8080);
  for (int iter = 0; iter < 1000; iter++) {
    lt__layout in = random_layout(0, 3, -5, 5);
    for (int d = 0; d < in.ndim; d++)
      if (lt_test_rand(0, 1)) in.shape[d] = 1;
    int lead = (int)lt_test_rand(0, 2), ndim = in.ndim + lead;
    int64_t target[LT_MAX_DIMS], st[LT_MAX_DIMS];
    for (int i = 0; i < ndim; i++) {
      int d = i - lead;
      target[i] = d >= 0 && in.shape[d] != 1 ? in.shape[d] : lt_test_rand(0, 3);
    }
    ck_assert(lt__broadcast_strides(&in, ndim, target, st));
    lt__layout out = mk(ndim, target, st, in.offset);
    ASSERT_SAME_ELEMENTS(&in, &out, expand_map, &((struct expand_ctx){lead, &in}));
    for (int i = 0; i < ndim; i++)
      if (i < lead || in.shape[i - lead] != target[i]) ck_assert_int_eq(st[i], 0);
  }
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("layout");
  TCase *tc;

  tc = tcase_create("numel_and_contiguity");
  tcase_add_test(tc, numel_of_an_empty_shape_is_1);
  tcase_add_test(tc, numel_is_the_product_of_the_sizes);
  tcase_add_test(tc, numel_with_a_zero_size_is_0);
  tcase_add_test(tc, numel_reports_int64_overflow);
  tcase_add_test(tc, numel_just_below_overflow_is_exact);
  tcase_add_test(tc, numel_zero_wins_over_overflow_in_any_position);
  tcase_add_test(tc, row_major_strides_are_contiguous);
  tcase_add_test(tc, transposed_strides_are_not_contiguous);
  tcase_add_test(tc, contiguity_ignores_the_strides_of_size_1_dims);
  tcase_add_test(tc, contiguity_ignores_the_offset);
  tcase_add_test(tc, a_0dim_layout_is_contiguous);
  tcase_add_test(tc, any_layout_with_numel_0_is_contiguous);
  tcase_add_test(tc, a_stride_0_dim_of_size_above_1_is_not_contiguous);
  tcase_add_test(tc, a_stride_0_dim_of_size_1_is_contiguous);
  tcase_add_test(tc, a_stepped_inner_dim_is_not_contiguous);
  tcase_add_test(tc, contiguous_strides_are_row_major);
  tcase_add_test(tc, contiguous_strides_count_zero_sizes_as_1);
  tcase_add_test(tc, contiguous_strides_of_size_1_dims_continue_the_product);
  suite_add_tcase(s, tc);

  tc = tcase_create("infer_shape");
  tcase_add_test(tc, infer_without_minus_one_copies_a_matching_shape);
  tcase_add_test(tc, infer_fills_the_minus_one);
  tcase_add_test(tc, infer_of_an_empty_shape_matches_numel_1);
  tcase_add_test(tc, infer_minus_one_alone_on_0_elements_gives_0);
  tcase_add_test(tc, infer_minus_one_beside_nonzero_sizes_on_0_elements_gives_0);
  tcase_add_test(tc, infer_two_minus_ones_is_multiple);
  tcase_add_test(tc, infer_reports_multiple_before_a_numel_mismatch);
  tcase_add_test(tc, infer_reports_multiple_before_a_later_negative_entry);
  tcase_add_test(tc, infer_entry_below_minus_one_is_negative);
  tcase_add_test(tc, infer_product_mismatch_is_mismatch);
  tcase_add_test(tc, infer_minus_one_that_does_not_divide_is_mismatch);
  tcase_add_test(tc, infer_zero_and_minus_one_on_nonzero_numel_is_mismatch_not_ambiguous);
  tcase_add_test(tc, infer_minus_one_and_zero_on_0_elements_is_ambiguous);
  tcase_add_test(tc, infer_product_past_int64_is_overflow);
  tcase_add_test(tc, infer_overflowing_sizes_beside_a_zero_match_0_elements);
  suite_add_tcase(s, tc);

  tc = tcase_create("view_strides");
  tcase_add_test(tc, view_of_transpose_0_1_only_splits);
  tcase_add_test(tc, view_failure_names_the_outer_pair_when_the_outer_chunks_break);
  tcase_add_test(tc, view_of_transpose_1_2_cannot_merge);
  tcase_add_test(tc, view_of_a_stepped_slice_merges_into_one_chunk);
  tcase_add_test(tc, view_of_permute_2_0_1_merges_the_two_contiguous_dims);
  tcase_add_test(tc, view_failure_names_dims_around_a_size_1_dim);
  tcase_add_test(tc, view_of_a_transpose_moving_only_a_size_1_dim_merges);
  tcase_add_test(tc, view_treats_size_1_dims_with_garbage_strides_as_transparent);
  tcase_add_test(tc, view_of_a_narrowed_middle_dim_keeps_two_chunks);
  tcase_add_test(tc, view_of_an_expanded_row_cannot_flatten);
  tcase_add_test(tc, view_of_an_expanded_scalar_merges_stride_0_dims);
  tcase_add_test(tc, view_of_a_0dim_layout_gives_all_ones_strides_1);
  tcase_add_test(tc, view_of_an_empty_layout_to_its_own_shape_keeps_its_strides);
  tcase_add_test(tc, view_of_an_empty_layout_to_another_shape_gets_resize_strides);
  tcase_add_test(tc, view_trailing_size_1_dim_inherits_the_innermost_stride);
  tcase_add_test(tc, view_size_1_dim_between_groups_joins_the_inner_group);
  tcase_add_test(tc, view_leading_size_1_dim_joins_the_outermost_group);
  tcase_add_test(tc, view_can_drop_size_1_dims_of_a_non_contiguous_layout);
  tcase_add_test(tc, view_merges_dims_with_negative_strides_that_continue_each_other);
  tcase_add_test(tc, view_splits_a_contiguous_layout_into_row_major_strides);
  suite_add_tcase(s, tc);

  tc = tcase_create("slice");
  tcase_add_test(tc, slice_with_positive_step_multiplies_the_stride_and_moves_the_offset);
  tcase_add_test(tc, slice_with_none_bounds_is_the_whole_dim);
  tcase_add_test(tc, slice_negative_bounds_count_from_the_end);
  tcase_add_test(tc, slice_clamps_out_of_range_bounds);
  tcase_add_test(tc, slice_start_past_the_end_is_empty_one_past_the_end);
  tcase_add_test(tc, slice_stop_before_start_is_empty_at_start);
  tcase_add_test(tc, slice_with_step_minus_1_reverses);
  tcase_add_test(tc, slice_with_negative_step_walks_down_from_start);
  tcase_add_test(tc, slice_with_negative_step_clamps_start_to_the_last_element);
  tcase_add_test(tc, slice_with_negative_step_and_no_element_is_empty);
  tcase_add_test(tc, slice_of_an_empty_dim_is_empty_for_either_step_sign);
  tcase_add_test(tc, slice_with_step_int64_max_takes_only_the_first_element);
  tcase_add_test(tc, slice_with_step_int64_min_takes_only_the_last_element);
  tcase_add_test(tc, slice_with_a_huge_step_on_a_wide_stride_still_finds_the_element);
  tcase_add_test(tc, slice_with_extreme_bounds_clamps);
  tcase_add_test(tc, slice_of_an_inner_dim_keeps_the_others_and_moves_the_offset);
  tcase_add_test(tc, slice_of_a_reversed_dim_composes_the_steps);
  suite_add_tcase(s, tc);

  tc = tcase_create("select_unsqueeze_drop_permute");
  tcase_add_test(tc, select_drops_the_dim_and_moves_the_offset);
  tcase_add_test(tc, select_along_a_negative_stride);
  tcase_add_test(tc, unsqueeze_inside_takes_size_times_stride_of_the_dim_it_displaces);
  tcase_add_test(tc, unsqueeze_at_the_end_takes_stride_1);
  tcase_add_test(tc, unsqueeze_of_a_0dim_layout_gives_stride_1);
  tcase_add_test(tc, unsqueeze_before_an_empty_or_reversed_dim_uses_the_same_rule);
  tcase_add_test(tc, drop_dim_removes_a_size_1_dim_keeping_the_offset);
  tcase_add_test(tc, permute_reorders_sizes_and_strides);
  suite_add_tcase(s, tc);

  tc = tcase_create("diagonal");
  tcase_add_test(tc, diagonal_main_has_the_sum_of_both_strides);
  tcase_add_test(tc, diagonal_above_moves_along_dim2);
  tcase_add_test(tc, diagonal_below_moves_along_dim1);
  tcase_add_test(tc, diagonal_out_of_range_is_empty_and_keeps_the_offset);
  tcase_add_test(tc, diagonal_with_extreme_offsets_is_empty);
  tcase_add_test(tc, diagonal_with_swapped_dims_walks_the_transpose);
  tcase_add_test(tc, diagonal_of_a_3d_layout_appends_the_diagonal_dim);
  tcase_add_test(tc, diagonal_of_negative_strides);
  suite_add_tcase(s, tc);

  tc = tcase_create("expand");
  tcase_add_test(tc, expand_broadcasts_size_1_dims_with_stride_0);
  tcase_add_test(tc, expand_minus_one_keeps_the_size_and_stride);
  tcase_add_test(tc, expand_to_the_same_size_keeps_the_stride_even_of_size_1);
  tcase_add_test(tc, expand_new_leading_size_1_dim_continues_the_next_dim);
  tcase_add_test(tc, expand_new_leading_size_1_dim_after_an_expanded_dim_gets_stride_0);
  tcase_add_test(tc, expand_new_leading_dim_of_size_above_1_gets_stride_0);
  tcase_add_test(tc, expand_size_1_to_0_is_allowed);
  tcase_add_test(tc, expand_of_a_0dim_layout_gives_stride_0_everywhere);
  tcase_add_test(tc, expand_of_a_0dim_layout_gives_stride_0_even_to_size_1_dims);
  tcase_add_test(tc, expand_of_a_0dim_layout_to_no_dims_is_0dim);
  tcase_add_test(tc, expand_mismatch_at_a_non_1_dim_is_reported_at_that_target_index);
  tcase_add_test(tc, expand_minus_one_in_a_new_leading_dim_is_reported);
  tcase_add_test(tc, expand_size_below_minus_one_is_negative_in_new_and_existing_dims);
  suite_add_tcase(s, tc);

  tc = tcase_create("extent");
  tcase_add_test(tc, extent_of_positive_strides_runs_from_the_offset);
  tcase_add_test(tc, extent_of_negative_strides_reaches_below_the_offset);
  tcase_add_test(tc, extent_of_a_0dim_layout_is_its_offset);
  tcase_add_test(tc, extent_ignores_the_stride_of_size_1_dims);
  tcase_add_test(tc, extent_of_an_empty_layout_is_nothing);
  tcase_add_test(tc, extent_of_an_empty_layout_is_nothing_even_with_huge_strides);
  tcase_add_test(tc, extent_reports_overflow_of_a_span);
  tcase_add_test(tc, extent_reports_overflow_of_offset_plus_span);
  tcase_add_test(tc, extent_up_to_int64_max_is_exact);
  suite_add_tcase(s, tc);

  tc = tcase_create("self_overlap");
  tcase_add_test(tc, overlap_contiguous_is_disjoint);
  tcase_add_test(tc, overlap_strided_with_gaps_is_disjoint);
  tcase_add_test(tc, overlap_negative_strides_are_judged_by_magnitude);
  tcase_add_test(tc, overlap_stride_0_on_a_dim_above_size_1_overlaps);
  tcase_add_test(tc, overlap_ignores_size_1_dims);
  tcase_add_test(tc, overlap_of_an_empty_layout_is_disjoint);
  tcase_add_test(tc, overlap_of_a_0dim_layout_is_disjoint);
  tcase_add_test(tc, overlap_of_interleaved_disjoint_strides_is_never_overlaps);
  tcase_add_test(tc, overlap_of_truly_overlapping_strides_is_never_disjoint);
  suite_add_tcase(s, tc);

  tc = tcase_create("coalesce");
  tcase_add_test(tc, coalesce_merges_a_contiguous_layout_into_one_dim);
  tcase_add_test(tc, coalesce_drops_size_1_dims_whatever_their_stride);
  tcase_add_test(tc, coalesce_of_all_size_1_dims_is_0_dims);
  tcase_add_test(tc, coalesce_keeps_non_mergeable_dims_in_order);
  tcase_add_test(tc, coalesce_merges_only_the_contiguous_part);
  tcase_add_test(tc, coalesce_merges_negative_strides_that_continue_each_other);
  tcase_add_test(tc, coalesce_with_two_arrays_merges_only_where_both_allow);
  tcase_add_test(tc, coalesce_with_two_arrays_drops_size_1_dims_from_both);
  suite_add_tcase(s, tc);

  tc = tcase_create("broadcast_and_wrap");
  tcase_add_test(tc, broadcast_size_1_and_missing_dims_get_stride_0);
  tcase_add_test(tc, broadcast_equal_sizes_keep_their_strides);
  tcase_add_test(tc, broadcast_of_a_0dim_layout_is_all_stride_0);
  tcase_add_test(tc, broadcast_size_1_to_0_is_allowed);
  tcase_add_test(tc, broadcast_fails_on_unequal_non_1_sizes);
  tcase_add_test(tc, broadcast_fails_to_fewer_dims);
  tcase_add_test(tc, broadcast_shapes_align_from_the_right_and_name_the_first_mismatch);
  tcase_add_test(tc, wrap_dim_accepts_minus_n_to_n_minus_1);
  tcase_add_test(tc, wrap_dim_rejects_out_of_range);
  tcase_add_test(tc, wrap_dim_of_a_0dim_layout_accepts_0_and_minus_1);
  suite_add_tcase(s, tc);

  tc = tcase_create("random_model");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, view_strides_agree_with_brute_force_on_random_layouts);
  tcase_add_test(tc, slice_agrees_with_python_on_random_layouts);
  tcase_add_test(tc, diagonal_agrees_with_the_index_model_on_random_layouts);
  tcase_add_test(tc, expand_agrees_with_the_index_model_on_random_layouts);
  tcase_add_test(tc, permute_agrees_with_the_index_model_on_random_layouts);
  tcase_add_test(tc, select_and_unsqueeze_agree_with_the_index_model_on_random_layouts);
  tcase_add_test(tc, extent_agrees_with_brute_force_on_random_layouts);
  tcase_add_test(tc, self_overlap_verdicts_agree_with_brute_force);
  tcase_add_test(tc, coalesce_preserves_every_address_sequence_and_is_maximal);
  tcase_add_test(tc, broadcast_strides_agree_with_the_index_model);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return lt_run_suite(suite()); }
