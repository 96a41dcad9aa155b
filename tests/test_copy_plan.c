/* Specification of the copy planner (libtensor/copy_plan.c), which is pure:
 * for random layouts (odd sizes, size-1 and empty dims, huge, negative and
 * zero strides) the plan must visit exactly the (destination, source)
 * element pairs of the naive loop over the original dims, each once, with
 * the destination walked in order; and each kind of loop is named for the
 * layouts it stands for. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "copy_plan.h"
#include "support/check_helpers.h"

typedef struct pair {
  int64_t dst, src;
} pair;

static int cmp_pair(const void *a, const void *b) {
  const pair *x = a, *y = b;
  if (x->dst != y->dst) return x->dst < y->dst ? -1 : 1;
  return (x->src > y->src) - (x->src < y->src);
}

/* Every (dst offset, src offset) the loops over shape visit, in order. */
static int64_t visit(int ndim, const int64_t *shape, const int64_t *ds, const int64_t *ss, pair *out) {
  int64_t idx[LT_MAX_DIMS], n = 0;
  if (!lt_test_first_index(ndim, shape, idx)) return 0;
  do {
    pair p = {0, 0};
    for (int d = 0; d < ndim; d++) p.dst += idx[d] * ds[d], p.src += idx[d] * ss[d];
    out[n++] = p;
  } while (lt_test_next_index(ndim, shape, idx));
  return n;
}

/* A random layout: dims of size 0..7 (rarely 0), a destination that is a
 * permuted dense block (possibly reversed), a source with any strides. */
static void random_case(int *ndim, int64_t *shape, int64_t *ds, int64_t *ss) {
  *ndim = (int)lt_test_rand(0, 5);
  int perm[LT_MAX_DIMS];
  for (int d = 0; d < *ndim; d++) {
    shape[d] = lt_test_rand(0, 12) == 0 ? 0 : lt_test_rand(1, 7);
    perm[d] = d;
  }
  for (int d = *ndim - 1; d > 0; d--) {
    int j = (int)lt_test_rand(0, d), t = perm[d];
    perm[d] = perm[j], perm[j] = t;
  }
  int64_t step = 1, sstep = lt_test_rand(1, 3);
  for (int k = *ndim - 1; k >= 0; k--) {
    int d = perm[k];
    ds[d] = step * (lt_test_rand(0, 4) == 0 ? -1 : 1);
    step *= shape[d] > 0 ? shape[d] : 1;
  }
  for (int d = 0; d < *ndim; d++) {
    switch (lt_test_rand(0, 5)) {
    case 0: ss[d] = 0; break;                                      /* broadcast */
    case 1: ss[d] = -lt_test_rand(1, 40); break;                    /* reversed */
    case 2: ss[d] = (int64_t)1 << lt_test_rand(20, 40); break;      /* huge */
    default: ss[d] = sstep; sstep *= shape[d] > 0 ? shape[d] + lt_test_rand(0, 2) : 1; break;
    }
  }
}

START_TEST(plans_visit_exactly_the_pairs_of_the_naive_loop) {
  lt_test_seed(0xC0B1u + (uint64_t)_i);
  pair *want = malloc(sizeof(pair) * 8 * 8 * 8 * 8 * 8), *got = malloc(sizeof(pair) * 8 * 8 * 8 * 8 * 8);
  for (int iter = 0; iter < 2000; iter++) {
    int ndim;
    int64_t shape[LT_MAX_DIMS], ds[LT_MAX_DIMS], ss[LT_MAX_DIMS];
    random_case(&ndim, shape, ds, ss);
    lt__copy_plan p;
    lt__plan_copy(ndim, shape, ds, ss, &p);
    int64_t n = visit(ndim, shape, ds, ss, want);
    if (n == 0 && ndim > 0) {
      ck_assert_int_eq(p.kind, LT__PLAN_EMPTY);
      continue;
    }
    ck_assert_int_le(p.ndim, ndim);
    for (int d = 0; d < p.ndim; d++) ck_assert_int_gt(p.shape[d], 1); /* size-1 dims dropped */
    int64_t m = visit(p.ndim, p.shape, p.dst_strides, p.src_strides, got);
    ck_assert_int_eq(m, n);
    /* Loops run outermost first by falling |destination stride|, so the
     * destination is written in its own order. */
    for (int d = 0; d + 1 < p.ndim; d++) {
      int64_t a = p.dst_strides[d] < 0 ? -p.dst_strides[d] : p.dst_strides[d];
      int64_t b = p.dst_strides[d + 1] < 0 ? -p.dst_strides[d + 1] : p.dst_strides[d + 1];
      ck_assert_int_ge(a, b);
    }
    qsort(want, (size_t)n, sizeof(pair), cmp_pair);
    qsort(got, (size_t)m, sizeof(pair), cmp_pair);
    if (memcmp(want, got, sizeof(pair) * (size_t)n) != 0) ck_abort_msg("case %d: the plan visits other pairs", iter);
  }
  free(want), free(got);
}
END_TEST

static lt__copy_plan plan_of(int ndim, const int64_t *shape, const int64_t *ds, const int64_t *ss) {
  lt__copy_plan p;
  lt__plan_copy(ndim, shape, ds, ss, &p);
  return p;
}

START_TEST(a_dense_copy_is_one_span) {
  lt__copy_plan p = plan_of(3, (int64_t[]){2, 3, 4}, (int64_t[]){12, 4, 1}, (int64_t[]){12, 4, 1});
  ck_assert_int_eq(p.kind, LT__PLAN_SPAN);
  ck_assert_int_eq(p.ndim, 1);
  ck_assert_int_eq(p.shape[0], 24);
}
END_TEST

START_TEST(a_permutation_keeping_the_inner_dim_is_runs) {
  /* src [2,3,4] permuted (1,0,2): inner runs of 4 on both sides. */
  lt__copy_plan p = plan_of(3, (int64_t[]){3, 2, 4}, (int64_t[]){8, 4, 1}, (int64_t[]){4, 12, 1});
  ck_assert_int_eq(p.kind, LT__PLAN_RUNS);
  ck_assert_int_eq(p.ndim, 3);
}
END_TEST

START_TEST(a_2d_transpose_is_a_transpose_naming_the_source_unit_dim) {
  lt__copy_plan p = plan_of(2, (int64_t[]){5, 7}, (int64_t[]){7, 1}, (int64_t[]){1, 5});
  ck_assert_int_eq(p.kind, LT__PLAN_TRANSPOSE);
  ck_assert_int_eq(p.transpose_dim, 0);
  ck_assert_int_eq(p.src_strides[0], 1);
  ck_assert_int_eq(p.dst_strides[1], 1);
}
END_TEST

START_TEST(a_step_2_source_is_strided_and_a_transposed_destination_is_walked_in_its_order) {
  lt__copy_plan p = plan_of(1, (int64_t[]){9}, (int64_t[]){1}, (int64_t[]){2});
  ck_assert_int_eq(p.kind, LT__PLAN_STRIDED);
  lt__copy_plan q = plan_of(2, (int64_t[]){4, 6}, (int64_t[]){1, 4}, (int64_t[]){6, 1});
  ck_assert_int_eq(q.shape[0], 6); /* dims swapped: the destination's stride-4 dim outermost */
  ck_assert_int_eq(q.dst_strides[1], 1);
  ck_assert_int_eq(q.kind, LT__PLAN_TRANSPOSE);
}
END_TEST

START_TEST(empty_shapes_and_zero_dims_plan_as_empty_and_one_span) {
  lt__copy_plan e = plan_of(2, (int64_t[]){3, 0}, (int64_t[]){0, 1}, (int64_t[]){0, 1});
  ck_assert_int_eq(e.kind, LT__PLAN_EMPTY);
  lt__copy_plan z = plan_of(0, NULL, NULL, NULL);
  ck_assert_int_eq(z.kind, LT__PLAN_SPAN);
  ck_assert_int_eq(z.ndim, 0);
}
END_TEST

Suite *copy_plan_suite(void) {
  Suite *s = suite_create("copy_plan");
  TCase *r = tcase_create("random");
  tcase_add_loop_test(r, plans_visit_exactly_the_pairs_of_the_naive_loop, 0, 4);
  suite_add_tcase(s, r);
  TCase *k = tcase_create("kinds");
  tcase_add_test(k, a_dense_copy_is_one_span);
  tcase_add_test(k, a_permutation_keeping_the_inner_dim_is_runs);
  tcase_add_test(k, a_2d_transpose_is_a_transpose_naming_the_source_unit_dim);
  tcase_add_test(k, a_step_2_source_is_strided_and_a_transposed_destination_is_walked_in_its_order);
  tcase_add_test(k, empty_shapes_and_zero_dims_plan_as_empty_and_one_span);
  suite_add_tcase(s, k);
  return s;
}

int main(void) { return lt_run_suite(copy_plan_suite()); }
