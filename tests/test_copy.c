/* Specification of the copy ops: lt_contiguous, lt_clone, lt_reshape and
 * lt_flatten (view or copy), the copy policy, lt_copy (broadcasting,
 * strided destinations, converting, aliasing), lt_to_device, and the one
 * strided copy on every element size and layout, checked against a naive
 * index-by-index gather over caller memory. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "grouped_transpose.h"
#include "support/check_helpers.h"

static void assert_read_f32(const lt_tensor *t, const float *want, int64_t n) {
  float got[64];
  ck_assert_int_le(n, 64);
  ck_assert_int_eq(lt_numel(t), n);
  LT_ASSERT_OK(lt_read(t, got, (size_t)n * sizeof(float)));
  for (int64_t i = 0; i < n; i++)
    ck_assert_msg(got[i] == want[i], "element %lld: got %g, want %g", (long long)i, got[i], want[i]);
}

static lt_stats stats_since_reset(void) { return lt_stats_get(LT_HOST); }

/* ---- lt_contiguous ------------------------------------------------------------ */

START_TEST(contiguous_of_a_contiguous_tensor_returns_it_without_copying) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){2, 3});
  lt_stats_reset(LT_HOST);
  lt_tensor *c = lt_contiguous(a);
  ck_assert_ptr_eq(c, a);
  lt_stats s = stats_since_reset();
  ck_assert_int_eq(s.copies, 0);
  ck_assert_int_eq(s.allocs, 0);
  lt_release(c);
  assert_read_f32(a, (float[]){0, 1, 2, 3, 4, 5}, 6); /* a still holds its own reference */
  lt_release(a);
}
END_TEST

START_TEST(contiguous_keeps_odd_strides_of_size_1_dims) {
  lt_tensor *a = lt_test_arange_f32(1, (int64_t[]){3});
  lt_tensor *v = lt_view(a, 2, (int64_t[]){3, 1});
  lt_tensor *t = lt_transpose(v, 0, 1); /* [1,3] strides [1,1] */
  LT_ASSERT_OK_PTR(t);
  LT_ASSERT_GEOMETRY(t, 2, ((int64_t[]){1, 3}), ((int64_t[]){1, 1}), 0);
  lt_tensor *c = lt_contiguous(t);
  ck_assert_ptr_eq(c, t);
  LT_ASSERT_GEOMETRY(c, 2, ((int64_t[]){1, 3}), ((int64_t[]){1, 1}), 0);
  lt_release(c);
  lt_release(t);
  lt_release(v);
  lt_release(a);
}
END_TEST

START_TEST(contiguous_of_a_transposed_tensor_is_a_row_major_copy) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){2, 3});
  lt_tensor *t = lt_transpose(a, 0, 1);
  lt_stats_reset(LT_HOST);
  lt_tensor *c = lt_contiguous(t);
  LT_ASSERT_OK_PTR(c);
  LT_ASSERT_GEOMETRY(c, 2, ((int64_t[]){3, 2}), ((int64_t[]){2, 1}), 0);
  ck_assert(!lt_shares_storage(c, a));
  ck_assert(lt_is_contiguous(c));
  assert_read_f32(c, (float[]){0, 3, 1, 4, 2, 5}, 6);
  const float *p = lt_data(c);
  ck_assert(p[0] == 0 && p[1] == 3 && p[5] == 5);
  lt_stats s = stats_since_reset();
  ck_assert_int_eq(s.copies, 1);
  ck_assert_int_eq(s.implicit_copies, 0);
  ck_assert_int_eq(s.bytes_copied, 24);
  ck_assert_int_eq(s.allocs, 1);
  lt_release(c);
  lt_release(t);
  lt_release(a);
}
END_TEST

START_TEST(contiguous_of_an_offset_negative_step_view_starts_at_offset_0) {
  lt_tensor *a = lt_test_arange_f32(1, (int64_t[]){7});
  lt_tensor *r = lt_slice(a, 0, 5, LT_NONE, -2); /* 5,3,1 */
  LT_ASSERT_OK_PTR(r);
  LT_ASSERT_GEOMETRY(r, 1, ((int64_t[]){3}), ((int64_t[]){-2}), 5);
  lt_tensor *c = lt_contiguous(r);
  LT_ASSERT_OK_PTR(c);
  LT_ASSERT_GEOMETRY(c, 1, ((int64_t[]){3}), ((int64_t[]){1}), 0);
  assert_read_f32(c, (float[]){5, 3, 1}, 3);
  lt_release(c);
  lt_release(r);
  lt_release(a);
}
END_TEST

START_TEST(contiguous_of_an_expanded_tensor_materialises_every_element) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){1, 3});
  lt_tensor *e = lt_expand(a, 3, (int64_t[]){2, 2, 3});
  LT_ASSERT_OK_PTR(e);
  lt_stats_reset(LT_HOST);
  lt_tensor *c = lt_contiguous(e);
  LT_ASSERT_OK_PTR(c);
  LT_ASSERT_GEOMETRY(c, 3, ((int64_t[]){2, 2, 3}), ((int64_t[]){6, 3, 1}), 0);
  assert_read_f32(c, (float[]){0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2}, 12);
  ck_assert_int_eq(stats_since_reset().bytes_copied, 48);
  lt_release(c);
  lt_release(e);
  lt_release(a);
}
END_TEST

/* ---- lt_clone ------------------------------------------------------------------ */

START_TEST(clone_of_a_contiguous_tensor_is_new_storage) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){2, 3});
  lt_stats_reset(LT_HOST);
  lt_tensor *c = lt_clone(a);
  LT_ASSERT_OK_PTR(c);
  ck_assert_ptr_ne(c, a);
  ck_assert(!lt_shares_storage(c, a));
  LT_ASSERT_GEOMETRY(c, 2, ((int64_t[]){2, 3}), ((int64_t[]){3, 1}), 0);
  lt_stats s = stats_since_reset();
  ck_assert_int_eq(s.copies, 1);
  ck_assert_int_eq(s.implicit_copies, 0);
  ck_assert_int_eq(s.bytes_copied, 24);
  float one = 100;
  memcpy(lt_data(a), &one, sizeof one); /* the clone is independent */
  assert_read_f32(c, (float[]){0, 1, 2, 3, 4, 5}, 6);
  lt_release(c);
  lt_release(a);
}
END_TEST

START_TEST(clone_of_a_strided_view_is_row_major_with_offset_0) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){3, 4});
  lt_tensor *v = lt_slice(a, 1, 3, 0, -2); /* columns 3,1 */
  LT_ASSERT_OK_PTR(v);
  lt_tensor *c = lt_clone(v);
  LT_ASSERT_OK_PTR(c);
  LT_ASSERT_GEOMETRY(c, 2, ((int64_t[]){3, 2}), ((int64_t[]){2, 1}), 0);
  assert_read_f32(c, (float[]){3, 1, 7, 5, 11, 9}, 6);
  lt_release(c);
  lt_release(v);
  lt_release(a);
}
END_TEST

START_TEST(clone_of_a_0_dim_tensor_is_a_0_dim_copy) {
  lt_tensor *a = lt_from_data((int64_t[]){-42}, LT_I64, 0, NULL);
  lt_tensor *c = lt_clone(a);
  LT_ASSERT_OK_PTR(c);
  ck_assert_int_eq(lt_ndim(c), 0);
  ck_assert(!lt_shares_storage(a, c));
  int64_t v = 0;
  LT_ASSERT_OK(lt_read(c, &v, sizeof v));
  ck_assert_int_eq(v, -42);
  lt_release(c);
  lt_release(a);
}
END_TEST

/* ---- lt_reshape ---------------------------------------------------------------- */

START_TEST(reshape_of_a_contiguous_tensor_is_a_view_without_a_copy) {
  lt_tensor *a = lt_test_arange_f32(3, (int64_t[]){2, 3, 4});
  lt_stats_reset(LT_HOST);
  lt_tensor *r = lt_reshape(a, 2, (int64_t[]){6, -1});
  LT_ASSERT_OK_PTR(r);
  LT_ASSERT_GEOMETRY(r, 2, ((int64_t[]){6, 4}), ((int64_t[]){4, 1}), 0);
  ck_assert(lt_shares_storage(r, a));
  lt_stats s = stats_since_reset();
  ck_assert_int_eq(s.copies, 0);
  ck_assert_int_eq(s.implicit_copies, 0);
  ck_assert_int_eq(s.allocs, 0);
  lt_release(r);
  lt_release(a);
}
END_TEST

START_TEST(reshape_of_a_strided_slice_is_a_view_keeping_the_offset) {
  lt_tensor *a = lt_test_arange_f32(3, (int64_t[]){2, 3, 4});
  lt_tensor *s = lt_slice(a, 2, 1, LT_NONE, 2); /* [2,3,2] strides [12,4,2] offset 1 */
  LT_ASSERT_OK_PTR(s);
  lt_stats_reset(LT_HOST);
  lt_tensor *flat = lt_reshape(s, 1, (int64_t[]){12});
  lt_tensor *two = lt_reshape(s, 2, (int64_t[]){6, 2});
  LT_ASSERT_OK_PTR(flat);
  LT_ASSERT_OK_PTR(two);
  LT_ASSERT_GEOMETRY(flat, 1, ((int64_t[]){12}), ((int64_t[]){2}), 1);
  LT_ASSERT_GEOMETRY(two, 2, ((int64_t[]){6, 2}), ((int64_t[]){4, 2}), 1);
  ck_assert(lt_shares_storage(flat, a));
  ck_assert_int_eq(stats_since_reset().copies, 0);
  assert_read_f32(flat, (float[]){1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23}, 12);
  lt_release(two);
  lt_release(flat);
  lt_release(s);
  lt_release(a);
}
END_TEST

START_TEST(reshape_that_needs_a_copy_returns_row_major_values_and_counts_it) {
  lt_tensor *a = lt_test_arange_f32(3, (int64_t[]){2, 3, 4});
  lt_tensor *t = lt_transpose(a, 1, 2); /* [2,4,3] strides [12,1,4] */
  lt_stats_reset(LT_HOST);
  lt_tensor *r = lt_reshape(t, 2, (int64_t[]){2, 12});
  LT_ASSERT_OK_PTR(r);
  LT_ASSERT_GEOMETRY(r, 2, ((int64_t[]){2, 12}), ((int64_t[]){12, 1}), 0);
  ck_assert(!lt_shares_storage(r, a));
  float want[24];
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 4; j++)
      for (int k = 0; k < 3; k++) want[i * 12 + j * 3 + k] = (float)(12 * i + 4 * k + j);
  assert_read_f32(r, want, 24);
  lt_stats s = stats_since_reset();
  ck_assert_int_eq(s.copies, 1);
  ck_assert_int_eq(s.implicit_copies, 1);
  ck_assert_int_eq(s.bytes_copied, 96);
  ck_assert_int_eq(s.allocs, 1);
  lt_release(r);
  lt_release(t);
  lt_release(a);
}
END_TEST

START_TEST(reshape_copy_counts_numel_times_element_size_bytes) {
  int64_t vals[6] = {1, 2, 3, 4, 5, 6};
  lt_tensor *a = lt_from_data(vals, LT_I64, 2, (int64_t[]){2, 3});
  lt_tensor *t = lt_transpose(a, 0, 1);
  lt_stats_reset(LT_HOST);
  lt_tensor *r = lt_reshape(t, 1, (int64_t[]){-1});
  LT_ASSERT_OK_PTR(r);
  LT_ASSERT_GEOMETRY(r, 1, ((int64_t[]){6}), ((int64_t[]){1}), 0);
  int64_t got[6];
  LT_ASSERT_OK(lt_read(r, got, sizeof got));
  const int64_t want[6] = {1, 4, 2, 5, 3, 6};
  for (int i = 0; i < 6; i++) ck_assert_int_eq(got[i], want[i]);
  lt_stats s = stats_since_reset();
  ck_assert_int_eq(s.implicit_copies, 1);
  ck_assert_int_eq(s.bytes_copied, 48);
  lt_release(r);
  lt_release(t);
  lt_release(a);
}
END_TEST

START_TEST(reshape_to_the_same_shape_is_a_view_even_when_not_contiguous) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){3, 4});
  lt_tensor *t = lt_transpose(a, 0, 1);
  lt_stats_reset(LT_HOST);
  lt_tensor *r = lt_reshape(t, 2, (int64_t[]){4, 3});
  LT_ASSERT_OK_PTR(r);
  LT_ASSERT_GEOMETRY(r, 2, ((int64_t[]){4, 3}), ((int64_t[]){1, 4}), 0);
  ck_assert(lt_shares_storage(r, a));
  ck_assert_int_eq(stats_since_reset().copies, 0);
  lt_release(r);
  lt_release(t);
  lt_release(a);
}
END_TEST

START_TEST(reshape_of_an_expanded_scalar_stays_a_view_with_zero_strides) {
  lt_tensor *a = lt_from_data((float[]){5}, LT_F32, 0, NULL);
  lt_tensor *e = lt_expand(a, 2, (int64_t[]){3, 4});
  lt_stats_reset(LT_HOST);
  lt_tensor *r = lt_reshape(e, 2, (int64_t[]){2, 6});
  LT_ASSERT_OK_PTR(r);
  LT_ASSERT_GEOMETRY(r, 2, ((int64_t[]){2, 6}), ((int64_t[]){0, 0}), 0);
  ck_assert(lt_shares_storage(r, a));
  ck_assert_int_eq(stats_since_reset().copies, 0);
  lt_release(r);
  lt_release(e);
  lt_release(a);
}
END_TEST

START_TEST(reshape_of_an_expanded_row_that_cannot_view_copies_every_element) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){1, 4});
  lt_tensor *e = lt_expand(a, 2, (int64_t[]){3, 4});
  lt_stats_reset(LT_HOST);
  lt_tensor *r = lt_reshape(e, 1, (int64_t[]){12});
  LT_ASSERT_OK_PTR(r);
  LT_ASSERT_GEOMETRY(r, 1, ((int64_t[]){12}), ((int64_t[]){1}), 0);
  assert_read_f32(r, (float[]){0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3}, 12);
  lt_stats s = stats_since_reset();
  ck_assert_int_eq(s.implicit_copies, 1);
  ck_assert_int_eq(s.bytes_copied, 48);
  lt_release(r);
  lt_release(e);
  lt_release(a);
}
END_TEST

START_TEST(reshape_with_a_numel_mismatch_fails_with_shape) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){2, 3});
  lt_tensor *t = lt_transpose(a, 0, 1);
  LT_ASSERT_FAILS(lt_reshape(a, 2, (int64_t[]){4, 2}), LT_ERR_SHAPE);
  LT_ASSERT_FAILS(lt_reshape(t, 1, (int64_t[]){5}), LT_ERR_SHAPE);
  LT_ASSERT_FAILS(lt_reshape(a, 2, (int64_t[]){-1, -1}), LT_ERR_SHAPE);
  lt_release(t);
  lt_release(a);
}
END_TEST

/* ---- lt_flatten ---------------------------------------------------------------- */

START_TEST(flatten_of_a_0_dim_tensor_gives_shape_1) {
  lt_tensor *a = lt_from_data((float[]){3}, LT_F32, 0, NULL);
  lt_tensor *f = lt_flatten(a, 0, -1);
  LT_ASSERT_OK_PTR(f);
  LT_ASSERT_GEOMETRY(f, 1, ((int64_t[]){1}), ((int64_t[]){1}), 0);
  ck_assert(lt_shares_storage(f, a));
  assert_read_f32(f, (float[]){3}, 1);
  lt_release(f);
  lt_release(a);
}
END_TEST

START_TEST(flatten_with_equal_start_and_end_keeps_the_geometry) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){2, 3});
  lt_tensor *t = lt_transpose(a, 0, 1); /* [3,2] strides [1,3] */
  lt_stats_reset(LT_HOST);
  lt_tensor *f = lt_flatten(t, 1, 1);
  lt_tensor *g = lt_flatten(t, -2, 0);
  LT_ASSERT_OK_PTR(f);
  LT_ASSERT_OK_PTR(g);
  LT_ASSERT_GEOMETRY(f, 2, ((int64_t[]){3, 2}), ((int64_t[]){1, 3}), 0);
  LT_ASSERT_GEOMETRY(g, 2, ((int64_t[]){3, 2}), ((int64_t[]){1, 3}), 0);
  ck_assert(lt_shares_storage(f, a));
  ck_assert_int_eq(stats_since_reset().copies, 0);
  lt_release(g);
  lt_release(f);
  lt_release(t);
  lt_release(a);
}
END_TEST

START_TEST(flatten_with_start_after_end_fails_with_arg) {
  lt_tensor *a = lt_test_arange_f32(3, (int64_t[]){2, 3, 4});
  LT_ASSERT_FAILS(lt_flatten(a, 2, 1), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_flatten(a, -1, 0), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_flatten(a, 0, 3), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_flatten(a, -4, 1), LT_ERR_ARG);
  lt_release(a);
}
END_TEST

START_TEST(flatten_of_contiguous_dims_is_a_view) {
  lt_tensor *a = lt_test_arange_f32(3, (int64_t[]){2, 3, 4});
  lt_stats_reset(LT_HOST);
  lt_tensor *f = lt_flatten(a, 1, -1);
  lt_tensor *g = lt_flatten(a, 0, -1);
  LT_ASSERT_OK_PTR(f);
  LT_ASSERT_OK_PTR(g);
  LT_ASSERT_GEOMETRY(f, 2, ((int64_t[]){2, 12}), ((int64_t[]){12, 1}), 0);
  LT_ASSERT_GEOMETRY(g, 1, ((int64_t[]){24}), ((int64_t[]){1}), 0);
  ck_assert(lt_shares_storage(f, a));
  ck_assert_int_eq(stats_since_reset().copies, 0);
  lt_release(g);
  lt_release(f);
  lt_release(a);
}
END_TEST

START_TEST(flatten_of_a_narrowed_tensor_views_the_contiguous_inner_dims) {
  lt_tensor *a = lt_test_arange_f32(3, (int64_t[]){2, 3, 4});
  lt_tensor *n = lt_narrow(a, 1, 1, 2); /* [2,2,4] strides [12,4,1] offset 4 */
  lt_stats_reset(LT_HOST);
  lt_tensor *f = lt_flatten(n, 1, 2);
  LT_ASSERT_OK_PTR(f);
  LT_ASSERT_GEOMETRY(f, 2, ((int64_t[]){2, 8}), ((int64_t[]){12, 1}), 4);
  ck_assert(lt_shares_storage(f, a));
  ck_assert_int_eq(stats_since_reset().copies, 0);
  lt_tensor *g = lt_flatten(n, 0, 1); /* 12 != 2*4: a copy */
  LT_ASSERT_OK_PTR(g);
  LT_ASSERT_GEOMETRY(g, 2, ((int64_t[]){4, 4}), ((int64_t[]){4, 1}), 0);
  ck_assert(!lt_shares_storage(g, a));
  assert_read_f32(g, (float[]){4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19, 20, 21, 22, 23}, 16);
  lt_stats s = stats_since_reset();
  ck_assert_int_eq(s.implicit_copies, 1);
  ck_assert_int_eq(s.bytes_copied, 64);
  lt_release(g);
  lt_release(f);
  lt_release(n);
  lt_release(a);
}
END_TEST

START_TEST(flatten_that_needs_a_copy_returns_row_major_values_and_counts_it) {
  lt_tensor *a = lt_test_arange_f32(3, (int64_t[]){2, 3, 4});
  lt_tensor *t = lt_transpose(a, 0, 2); /* [4,3,2] strides [1,4,12] */
  lt_stats_reset(LT_HOST);
  lt_tensor *f = lt_flatten(t, 0, -1);
  LT_ASSERT_OK_PTR(f);
  LT_ASSERT_GEOMETRY(f, 1, ((int64_t[]){24}), ((int64_t[]){1}), 0);
  float want[24];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 3; j++)
      for (int k = 0; k < 2; k++) want[i * 6 + j * 2 + k] = (float)(12 * k + 4 * j + i);
  assert_read_f32(f, want, 24);
  lt_stats s = stats_since_reset();
  ck_assert_int_eq(s.copies, 1);
  ck_assert_int_eq(s.implicit_copies, 1);
  ck_assert_int_eq(s.bytes_copied, 96);
  lt_release(f);
  lt_release(t);
  lt_release(a);
}
END_TEST

/* ---- copy policy ---------------------------------------------------------------- */

START_TEST(set_copy_policy_returns_the_previous_policy) {
  ck_assert_int_eq(lt_set_copy_policy(LT_COPY_FORBID), LT_COPY_ALLOW);
  ck_assert_int_eq(lt_set_copy_policy(LT_COPY_FORBID), LT_COPY_FORBID);
  ck_assert_int_eq(lt_set_copy_policy(LT_COPY_ALLOW), LT_COPY_FORBID);
  ck_assert_int_eq(lt_set_copy_policy(LT_COPY_ALLOW), LT_COPY_ALLOW);
}
END_TEST

START_TEST(reshape_under_forbid_fails_with_not_viewable_instead_of_copying) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){4, 6});
  lt_tensor *t = lt_transpose(a, 0, 1);
  lt_stats_reset(LT_HOST);
  lt_set_copy_policy(LT_COPY_FORBID);
  lt_tensor *r = lt_reshape(t, 1, (int64_t[]){24});
  lt_status st = lt_last_status();
  char msg[512];
  snprintf(msg, sizeof msg, "%s", lt_last_error());
  lt_set_copy_policy(LT_COPY_ALLOW);
  ck_assert_ptr_null(r);
  ck_assert_int_eq(st, LT_ERR_NOT_VIEWABLE);
  ck_assert_msg(strstr(msg, "reshape") != NULL, "message does not name the op: %s", msg);
  ck_assert_msg(strstr(msg, "copy") != NULL, "message does not mention the copy: %s", msg);
  lt_stats s = stats_since_reset();
  ck_assert_int_eq(s.copies, 0);
  ck_assert_int_eq(s.allocs, 0);
  lt_release(t);
  lt_release(a);
}
END_TEST

START_TEST(flatten_under_forbid_fails_with_not_viewable_instead_of_copying) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){4, 6});
  lt_tensor *t = lt_transpose(a, 0, 1);
  lt_set_copy_policy(LT_COPY_FORBID);
  lt_tensor *f = lt_flatten(t, 0, 1);
  lt_status st = lt_last_status();
  char msg[512];
  snprintf(msg, sizeof msg, "%s", lt_last_error());
  lt_set_copy_policy(LT_COPY_ALLOW);
  ck_assert_ptr_null(f);
  ck_assert_int_eq(st, LT_ERR_NOT_VIEWABLE);
  ck_assert_msg(strstr(msg, "copy") != NULL, "message does not mention the copy: %s", msg);
  lt_release(t);
  lt_release(a);
}
END_TEST

START_TEST(reshape_under_forbid_still_returns_views) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){4, 6});
  lt_set_copy_policy(LT_COPY_FORBID);
  lt_tensor *r = lt_reshape(a, 3, (int64_t[]){2, 2, 6});
  lt_tensor *f = lt_flatten(a, 0, 1);
  lt_set_copy_policy(LT_COPY_ALLOW);
  LT_ASSERT_OK_PTR(r);
  LT_ASSERT_OK_PTR(f);
  LT_ASSERT_GEOMETRY(r, 3, ((int64_t[]){2, 2, 6}), ((int64_t[]){12, 6, 1}), 0);
  LT_ASSERT_GEOMETRY(f, 1, ((int64_t[]){24}), ((int64_t[]){1}), 0);
  lt_release(f);
  lt_release(r);
  lt_release(a);
}
END_TEST

START_TEST(explicit_copies_still_copy_under_forbid) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){2, 3});
  lt_tensor *t = lt_transpose(a, 0, 1);
  lt_tensor *d = lt_zeros(LT_F32, 2, (int64_t[]){3, 2}, LT_HOST);
  lt_stats_reset(LT_HOST);
  lt_set_copy_policy(LT_COPY_FORBID);
  lt_tensor *c = lt_contiguous(t);
  lt_tensor *k = lt_clone(t);
  lt_tensor *x = lt_to(t, LT_F64);
  lt_status st = lt_copy(d, t);
  lt_set_copy_policy(LT_COPY_ALLOW);
  LT_ASSERT_OK_PTR(c);
  LT_ASSERT_OK_PTR(k);
  LT_ASSERT_OK_PTR(x);
  LT_ASSERT_OK(st);
  assert_read_f32(c, (float[]){0, 3, 1, 4, 2, 5}, 6);
  assert_read_f32(k, (float[]){0, 3, 1, 4, 2, 5}, 6);
  assert_read_f32(d, (float[]){0, 3, 1, 4, 2, 5}, 6);
  lt_stats s = stats_since_reset();
  ck_assert_int_eq(s.copies, 4);
  ck_assert_int_eq(s.implicit_copies, 0);
  lt_release(x);
  lt_release(k);
  lt_release(c);
  lt_release(d);
  lt_release(t);
  lt_release(a);
}
END_TEST

/* ---- lt_copy ---------------------------------------------------------------------- */

START_TEST(copy_broadcasts_a_row_across_the_destination_rows) {
  lt_tensor *src = lt_from_data((float[]){1, 2, 3}, LT_F32, 1, (int64_t[]){3});
  lt_tensor *dst = lt_zeros(LT_F32, 2, (int64_t[]){2, 3}, LT_HOST);
  LT_ASSERT_OK(lt_copy(dst, src));
  assert_read_f32(dst, (float[]){1, 2, 3, 1, 2, 3}, 6);
  lt_release(dst);
  lt_release(src);
}
END_TEST

START_TEST(copy_broadcasts_a_column_across_the_destination_columns) {
  lt_tensor *src = lt_from_data((float[]){1, 2}, LT_F32, 2, (int64_t[]){2, 1});
  lt_tensor *dst = lt_zeros(LT_F32, 2, (int64_t[]){2, 3}, LT_HOST);
  LT_ASSERT_OK(lt_copy(dst, src));
  assert_read_f32(dst, (float[]){1, 1, 1, 2, 2, 2}, 6);
  lt_release(dst);
  lt_release(src);
}
END_TEST

START_TEST(copy_broadcasts_a_0_dim_source_to_every_element) {
  lt_tensor *src = lt_from_data((float[]){7}, LT_F32, 0, NULL);
  lt_tensor *dst = lt_zeros(LT_F32, 3, (int64_t[]){2, 1, 2}, LT_HOST);
  LT_ASSERT_OK(lt_copy(dst, src));
  assert_read_f32(dst, (float[]){7, 7, 7, 7}, 4);
  lt_release(dst);
  lt_release(src);
}
END_TEST

START_TEST(copy_adds_new_leading_dims_to_the_source) {
  lt_tensor *src = lt_test_arange_f32(2, (int64_t[]){2, 3});
  lt_tensor *dst = lt_zeros(LT_F32, 3, (int64_t[]){2, 2, 3}, LT_HOST);
  LT_ASSERT_OK(lt_copy(dst, src));
  assert_read_f32(dst, (float[]){0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5}, 12);
  lt_release(dst);
  lt_release(src);
}
END_TEST

START_TEST(copy_reads_an_expanded_source_with_stride_0) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){3, 1});
  lt_tensor *e = lt_expand(a, 2, (int64_t[]){3, 2});
  lt_tensor *dst = lt_zeros(LT_F32, 2, (int64_t[]){3, 2}, LT_HOST);
  LT_ASSERT_OK(lt_copy(dst, e));
  assert_read_f32(dst, (float[]){0, 0, 1, 1, 2, 2}, 6);
  lt_release(dst);
  lt_release(e);
  lt_release(a);
}
END_TEST

START_TEST(copy_into_a_transposed_destination_writes_its_strided_positions) {
  lt_tensor *base = lt_zeros(LT_F32, 2, (int64_t[]){3, 2}, LT_HOST);
  lt_tensor *dst = lt_transpose(base, 0, 1); /* [2,3] strides [1,2] */
  lt_tensor *src = lt_test_arange_f32(2, (int64_t[]){2, 3});
  LT_ASSERT_OK(lt_copy(dst, src));
  assert_read_f32(base, (float[]){0, 3, 1, 4, 2, 5}, 6);
  assert_read_f32(dst, (float[]){0, 1, 2, 3, 4, 5}, 6);
  lt_release(src);
  lt_release(dst);
  lt_release(base);
}
END_TEST

START_TEST(copy_into_a_negative_step_destination_reverses_the_source) {
  lt_tensor *base = lt_zeros(LT_F32, 1, (int64_t[]){7}, LT_HOST);
  lt_tensor *dst = lt_slice(base, 0, LT_NONE, LT_NONE, -3); /* positions 6,3,0 */
  lt_tensor *src = lt_from_data((float[]){1, 2, 3}, LT_F32, 1, (int64_t[]){3});
  LT_ASSERT_OK(lt_copy(dst, src));
  assert_read_f32(base, (float[]){3, 0, 0, 2, 0, 0, 1}, 7);
  lt_release(src);
  lt_release(dst);
  lt_release(base);
}
END_TEST

START_TEST(copy_converts_dtype_into_a_strided_destination) {
  lt_tensor *src = lt_from_data((int32_t[]){-3, 0, 7, 100, -1, 65536}, LT_I32, 2, (int64_t[]){2, 3});
  lt_tensor *base = lt_zeros(LT_F64, 2, (int64_t[]){3, 2}, LT_HOST);
  lt_tensor *dst = lt_transpose(base, 0, 1);
  LT_ASSERT_OK(lt_copy(dst, src));
  double got[6];
  LT_ASSERT_OK(lt_read(base, got, sizeof got));
  const double want[6] = {-3, 100, 0, -1, 7, 65536};
  for (int i = 0; i < 6; i++) ck_assert(got[i] == want[i]);
  lt_release(dst);
  lt_release(base);
  lt_release(src);
}
END_TEST

START_TEST(copy_converts_with_broadcasting) {
  lt_tensor *src = lt_from_data((double[]){1.5, -2.5}, LT_F64, 2, (int64_t[]){2, 1});
  lt_tensor *dst = lt_zeros(LT_F32, 2, (int64_t[]){2, 2}, LT_HOST);
  LT_ASSERT_OK(lt_copy(dst, src));
  assert_read_f32(dst, (float[]){1.5f, 1.5f, -2.5f, -2.5f}, 4);
  lt_release(dst);
  lt_release(src);
}
END_TEST

START_TEST(copy_rejects_a_source_that_does_not_broadcast) {
  lt_tensor *dst = lt_zeros(LT_F32, 2, (int64_t[]){2, 4}, LT_HOST);
  lt_tensor *s3 = lt_zeros(LT_F32, 1, (int64_t[]){3}, LT_HOST);
  lt_tensor *big = lt_zeros(LT_F32, 3, (int64_t[]){2, 2, 4}, LT_HOST);
  LT_ASSERT_STATUS(lt_copy(dst, s3), LT_ERR_SHAPE);
  LT_ASSERT_STATUS(lt_copy(dst, big), LT_ERR_SHAPE);
  LT_ASSERT_STATUS(lt_copy(NULL, s3), LT_ERR_ARG);
  LT_ASSERT_STATUS(lt_copy(dst, NULL), LT_ERR_ARG);
  lt_release(big);
  lt_release(s3);
  lt_release(dst);
}
END_TEST

START_TEST(copy_into_an_expanded_destination_fails_with_overlap) {
  lt_tensor *a = lt_zeros(LT_F32, 2, (int64_t[]){1, 3}, LT_HOST);
  lt_tensor *e = lt_expand(a, 2, (int64_t[]){2, 3});
  lt_tensor *src = lt_test_arange_f32(2, (int64_t[]){2, 3});
  LT_ASSERT_STATUS(lt_copy(e, src), LT_ERR_OVERLAP);
  assert_read_f32(a, (float[]){0, 0, 0}, 3);
  lt_release(src);
  lt_release(e);
  lt_release(a);
}
END_TEST

START_TEST(copy_between_disjoint_interleaved_views_of_one_storage) {
  lt_tensor *a = lt_test_arange_f32(1, (int64_t[]){8});
  lt_tensor *even = lt_slice(a, 0, 0, LT_NONE, 2);
  lt_tensor *odd = lt_slice(a, 0, 1, LT_NONE, 2);
  LT_ASSERT_OK(lt_copy(even, odd));
  assert_read_f32(a, (float[]){1, 1, 3, 3, 5, 5, 7, 7}, 8);
  lt_release(odd);
  lt_release(even);
  lt_release(a);
}
END_TEST

START_TEST(copy_between_overlapping_views_fails_with_overlap) {
  lt_tensor *a = lt_test_arange_f32(1, (int64_t[]){8});
  lt_tensor *lo = lt_narrow(a, 0, 0, 4);
  lt_tensor *hi = lt_narrow(a, 0, 2, 4);
  LT_ASSERT_STATUS(lt_copy(lo, hi), LT_ERR_OVERLAP);
  assert_read_f32(a, (float[]){0, 1, 2, 3, 4, 5, 6, 7}, 8);
  lt_release(hi);
  lt_release(lo);
  lt_release(a);
}
END_TEST

START_TEST(copy_of_a_tensor_onto_itself_leaves_it_unchanged) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){2, 3});
  LT_ASSERT_OK(lt_copy(a, a));
  assert_read_f32(a, (float[]){0, 1, 2, 3, 4, 5}, 6);
  lt_release(a);
}
END_TEST

START_TEST(copy_counts_one_explicit_copy_of_the_destination_bytes) {
  lt_tensor *src = lt_from_data((float[]){1, 2, 3}, LT_F32, 1, (int64_t[]){3});
  lt_tensor *dst = lt_zeros(LT_F64, 2, (int64_t[]){4, 3}, LT_HOST);
  lt_stats_reset(LT_HOST);
  LT_ASSERT_OK(lt_copy(dst, src));
  lt_stats s = stats_since_reset();
  ck_assert_int_eq(s.copies, 1);
  ck_assert_int_eq(s.implicit_copies, 0);
  ck_assert_int_eq(s.bytes_copied, 96);
  ck_assert_int_eq(s.allocs, 0);
  lt_release(dst);
  lt_release(src);
}
END_TEST

/* A destination off its element alignment (caller memory wrapped at an
 * odd address) can take no streaming store of a whole line: large
 * reversed and stepped gathers into one must still give each element. */
START_TEST(large_gathers_into_a_misaligned_destination_copy_every_element) {
  int64_t n = (9 << 20) / 4 + 5, len = 2 * n;
  lt_tensor *src = lt_test_arange_f32(1, &len);
  char *buf = malloc((size_t)n * 4 + 1);
  ck_assert_ptr_nonnull(buf);
  lt_tensor *dst = lt_wrap(buf + 1, LT_F32, 1, &n, NULL, LT_HOST, NULL, NULL);
  LT_ASSERT_OK_PTR(dst);
  for (int64_t step = -1; step <= 2; step += 3) {
    lt_tensor *view = step < 0 ? lt_slice(src, 0, n - 1, LT_NONE, -1) : lt_slice(src, 0, LT_NONE, LT_NONE, 2);
    LT_ASSERT_OK_PTR(view);
    LT_ASSERT_OK(lt_copy(dst, view));
    for (int64_t i = 0; i < n; i++) {
      float got, want = (float)(step < 0 ? n - 1 - i : 2 * i);
      memcpy(&got, buf + 1 + i * 4, 4);
      if (got != want) ck_abort_msg("step %lld: element %lld is %g, want %g", (long long)step, (long long)i, got, want);
    }
    lt_release(view);
  }
  lt_release(dst), lt_release(src);
  free(buf);
}
END_TEST

START_TEST(large_permutations_that_keep_the_inner_dim_copy_every_element) {
  /* Over 8 MiB, such copies walk the source in order and stream their
   * runs; a view of odd sizes and an offset checks the edges. */
  int64_t shape[] = {67, 129, 301};
  lt_tensor *a = lt_test_arange_f32(3, shape);
  lt_tensor *n = lt_narrow(a, 2, 1, 299), *p = lt_permute(n, (int[]){1, 0, 2});
  lt_tensor *c = lt_contiguous(p);
  LT_ASSERT_OK_PTR(c);
  const float *v = lt_data(c);
  for (int64_t j = 0; j < 129; j++)
    for (int64_t i = 0; i < 67; i++)
      for (int64_t k = 0; k < 299; k++) {
        float want = (float)((i * 129 + j) * 301 + k + 1);
        if (v[(j * 67 + i) * 299 + k] != want) ck_abort_msg("[%lld,%lld,%lld]: %g, want %g", (long long)j,
                                                            (long long)i, (long long)k, v[(j * 67 + i) * 299 + k], want);
      }
  lt_release(a), lt_release(n), lt_release(p), lt_release(c);
}
END_TEST

START_TEST(large_permutations_that_read_a_few_streams_copy_every_element) {
  /* Attention heads swapped with time ((0,2,1,3)): 12 source streams
   * whose runs land 12 apart; the narrow offsets them. */
  int64_t shape[] = {3, 12, 999, 64};
  lt_tensor *a = lt_test_arange_f32(4, shape);
  lt_tensor *n = lt_narrow(a, 2, 2, 997), *p = lt_permute(n, (int[]){0, 2, 1, 3});
  lt_tensor *c = lt_contiguous(p);
  LT_ASSERT_OK_PTR(c);
  const float *v = lt_data(c);
  for (int64_t b = 0, at = 0; b < 3; b++)
    for (int64_t t = 0; t < 997; t++)
      for (int64_t h = 0; h < 12; h++)
        for (int64_t d = 0; d < 64; d++, at++) {
          float want = (float)(((b * 12 + h) * 999 + t + 2) * 64 + d);
          if (v[at] != want)
            ck_abort_msg("[%lld,%lld,%lld,%lld]: %g, want %g", (long long)b, (long long)t, (long long)h, (long long)d,
                         v[at], want);
        }
  lt_release(a), lt_release(n), lt_release(p), lt_release(c);
}
END_TEST

/* The byte pattern of element j, in es bytes (little-endian order of a
 * 64-bit hash, so that neighbours and far elements all differ). */
static uint64_t pattern(int64_t j) { return (uint64_t)j * 0x9E3779B97F4A7C15ull; }

/* Gathers (stepped source, dense destination) and scatters (the other
 * way round) have loops of their own for the common steps: each step from
 * -3 to 9, for every element size, must move every element and touch
 * nothing between a scatter's elements. */
START_TEST(gathers_and_scatters_of_every_small_step_copy_every_element) {
  static const lt_dtype dts[] = {LT_U8, LT_F16, LT_F32, LT_I64};
  for (size_t d = 0; d < 4; d++)
    for (int64_t step = -3; step <= 9; step++) {
      if (step == 0) continue;
      size_t es = lt_dtype_size(dts[d]);
      int64_t n = 1001, len = n * (step < 0 ? -step : step);
      lt_tensor *wide = lt_empty(dts[d], 1, &len, LT_HOST), *dense = lt_empty(dts[d], 1, &n, LT_HOST);
      LT_ASSERT_OK_PTR(wide);
      LT_ASSERT_OK_PTR(dense);
      char *wp = lt_data(wide), *dp = lt_data(dense);
      for (int64_t j = 0; j < len; j++) {
        uint64_t v = pattern(j);
        memcpy(wp + j * (int64_t)es, &v, es);
      }
      lt_tensor *view = lt_slice(wide, 0, LT_NONE, LT_NONE, step);
      LT_ASSERT_OK(lt_copy(dense, view)); /* gather */
      for (int64_t i = 0; i < n; i++) {
        int64_t j = step < 0 ? len - 1 - i * -step : i * step;
        uint64_t want = pattern(j);
        if (memcmp(dp + i * (int64_t)es, &want, es))
          ck_abort_msg("gather %s step %lld: element %lld", lt_dtype_name(dts[d]), (long long)step, (long long)i);
      }
      for (int64_t i = 0; i < n; i++) {
        uint64_t v = pattern(len + i);
        memcpy(dp + i * (int64_t)es, &v, es);
      }
      LT_ASSERT_OK(lt_copy(view, dense)); /* scatter */
      for (int64_t j = 0; j < len; j++) {
        int64_t pos = step < 0 ? len - 1 - j : j, i = pos / (step < 0 ? -step : step);
        bool hit = pos % (step < 0 ? -step : step) == 0;
        uint64_t want = hit ? pattern(len + i) : pattern(j);
        if (memcmp(wp + j * (int64_t)es, &want, es))
          ck_abort_msg("scatter %s step %lld: byte offset %lld", lt_dtype_name(dts[d]), (long long)step,
                       (long long)j);
      }
      lt_release(wide), lt_release(dense), lt_release(view);
    }
}
END_TEST

/* Over 8 MiB, a gather (a source with a small inner stride into a dense
 * destination) of step -3..3 goes out with streaming stores, reordered in
 * registers (steps -1 and 2, and 3, 4 and 8 of words on AVX-512) or through
 * a buffer whose first piece ends at the destination's lines; other steps
 * take plain stores: reversed and stepped
 * sources of each element size, 1-D and in rows of odd length, must give
 * each element. (The element sizes' own loops, every small step, are
 * checked small above.) */
static void fill_pattern(char *p, size_t es, int64_t n) {
  for (int64_t j = 0; j < n; j++) switch (es) {
    case 1: ((uint8_t *)p)[j] = (uint8_t)pattern(j); break;
    case 2: ((uint16_t *)p)[j] = (uint16_t)pattern(j); break;
    case 4: ((uint32_t *)p)[j] = (uint32_t)pattern(j); break;
    default: ((uint64_t *)p)[j] = pattern(j); break;
    }
}

static uint64_t element_at(const char *p, size_t es, int64_t i) {
  switch (es) {
  case 1: return ((const uint8_t *)p)[i];
  case 2: return ((const uint16_t *)p)[i];
  case 4: return ((const uint32_t *)p)[i];
  default: return ((const uint64_t *)p)[i];
  }
}

/* The bits of an es-byte element, as element_at returns them. */
static uint64_t element_mask(size_t es) { return es == 8 ? ~0ull : (1ull << (8 * es)) - 1; }

/* Every step-th element of n from a pattern, gathered by lt_contiguous. */
static void check_gather(lt_dtype dt, int64_t step, int64_t n) {
  size_t es = lt_dtype_size(dt);
  int64_t len = n * (step < 0 ? -step : step);
  lt_tensor *src = lt_empty(dt, 1, &len, LT_HOST);
  LT_ASSERT_OK_PTR(src);
  fill_pattern(lt_data(src), es, len);
  lt_tensor *view = lt_slice(src, 0, LT_NONE, LT_NONE, step), *c = lt_contiguous(view);
  LT_ASSERT_OK_PTR(c);
  ck_assert_int_eq(lt_numel(c), n);
  uint64_t mask = element_mask(es);
  for (int64_t i = 0; i < n; i++) {
    int64_t j = step < 0 ? len - 1 + i * step : i * step;
    if (element_at(lt_data(c), es, i) != (pattern(j) & mask))
      ck_abort_msg("%s step %lld: element %lld is not source element %lld", lt_dtype_name(dt), (long long)step,
                   (long long)i, (long long)j);
  }
  lt_release(src), lt_release(view), lt_release(c);
}

/* x[:, ::step] of a [rows, cols] source holding a pattern, copied into
 * rows pad elements apart more than their length, in a buffer that holds
 * a guard elsewhere: each element must be its source's, and every pad
 * element keep the guard. */
static void check_stepped_rows(lt_dtype dt, int64_t rows, int64_t cols, int64_t step, int64_t pad) {
  size_t es = lt_dtype_size(dt);
  int64_t shape[2] = {rows, cols};
  lt_tensor *src = lt_empty(dt, 2, shape, LT_HOST);
  LT_ASSERT_OK_PTR(src);
  fill_pattern(lt_data(src), es, rows * cols);
  lt_tensor *view = lt_slice(src, 1, LT_NONE, LT_NONE, step);
  LT_ASSERT_OK_PTR(view);
  int64_t m = lt_shape(view)[1], pitch = m + pad, len = rows * pitch;
  lt_tensor *buf = lt_empty(dt, 1, &len, LT_HOST);
  LT_ASSERT_OK_PTR(buf);
  memset(lt_data(buf), 0x5A, (size_t)len * es);
  lt_tensor *dst = lt_as_strided(buf, 2, lt_shape(view), (int64_t[]){pitch, 1}, 0);
  LT_ASSERT_OK_PTR(dst);
  LT_ASSERT_OK(lt_copy(dst, view));
  uint64_t mask = element_mask(es), guard = 0x5A5A5A5A5A5A5A5Aull & mask;
  for (int64_t i = 0; i < rows; i++)
    for (int64_t j = 0; j < pitch; j++) {
      int64_t from = i * cols + (step < 0 ? cols - 1 + j * step : j * step);
      uint64_t got = element_at(lt_data(buf), es, i * pitch + j), want = j < m ? pattern(from) & mask : guard;
      if (got != want)
        ck_abort_msg("%s [%lld, %lld] step %lld pad %lld: element [%lld, %lld] is wrong", lt_dtype_name(dt),
                     (long long)rows, (long long)cols, (long long)step, (long long)pad, (long long)i, (long long)j);
    }
  lt_release(src), lt_release(view), lt_release(buf), lt_release(dst);
}

/* x[::row_step, c0:c1] of a [rows, cols] source holding a pattern, made
 * contiguous: every element must be its source's. Past 8 MiB its rows are
 * streamed dense runs, each asking for the next one's first lines where
 * the gap between them is longer than its asks reach (see
 * lt__stream_copy_ahead_to). */
static void check_cropped_rows(lt_dtype dt, int64_t rows, int64_t cols, int64_t row_step, int64_t c0, int64_t c1) {
  size_t es = lt_dtype_size(dt);
  int64_t shape[2] = {rows, cols};
  lt_tensor *src = lt_empty(dt, 2, shape, LT_HOST);
  LT_ASSERT_OK_PTR(src);
  fill_pattern(lt_data(src), es, rows * cols);
  lt_tensor *stepped = lt_slice(src, 0, LT_NONE, LT_NONE, row_step), *view = lt_slice(stepped, 1, c0, c1, 1);
  lt_tensor *c = lt_contiguous(view);
  LT_ASSERT_OK_PTR(c);
  int64_t m = lt_shape(c)[0], w = c1 - c0;
  uint64_t mask = element_mask(es);
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < w; j++) {
      int64_t row = row_step > 0 ? i * row_step : rows - 1 + i * row_step;
      if (element_at(lt_data(c), es, i * w + j) != (pattern(row * cols + c0 + j) & mask))
        ck_abort_msg("%s [%lld, %lld][::%lld, %lld:%lld]: element [%lld, %lld] is wrong", lt_dtype_name(dt),
                     (long long)rows, (long long)cols, (long long)row_step, (long long)c0, (long long)c1,
                     (long long)i, (long long)j);
    }
  lt_release(src), lt_release(stepped), lt_release(view), lt_release(c);
}

START_TEST(large_crops_with_gaps_copy_every_element) {
  check_cropped_rows(LT_F32, 600, 8192, 1, 0, 2048);    /* runs of 8 KiB, gaps of 24 KiB */
  check_cropped_rows(LT_F32, 1200, 4096, 2, 0, 4096);   /* every other row of 16 KiB */
  check_cropped_rows(LT_F32, 2400, 4096, 1, 5, 901);    /* runs off lines, gaps past the asks */
  check_cropped_rows(LT_U8, 1200, 16384, 1, 7, 9000);   /* a gap shorter than the asks' reach */
  check_cropped_rows(LT_F32, 1200, 4096, -1, 0, 4096);  /* rows walked backwards */
}
END_TEST

START_TEST(large_gathers_into_a_dense_destination_copy_every_element) {
  static const struct {
    lt_dtype dt;
    int64_t step;
  } cases[] = {{LT_U8, -1}, {LT_U8, 2},   {LT_F16, 2},  {LT_F32, -1}, {LT_F32, 2},
               {LT_F32, 3}, {LT_F32, -3}, {LT_F32, 4}, {LT_F32, 5},  {LT_I64, 2}, {LT_I64, -1}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) /* 9 MiB out and an odd tail */
    check_gather(cases[k].dt, cases[k].step, (9 << 20) / (int64_t)lt_dtype_size(cases[k].dt) + 13);
  /* Steps longer than VECTOR_STEP_BYTES, and step 8, from a source past 8
   * MiB, whose output stays small. */
  check_gather(LT_F32, 8, 300001);
  check_gather(LT_I64, 8, 150001);
  check_gather(LT_F32, 11, 200003);
  check_gather(LT_F32, -16, 140001);
  check_gather(LT_F32, 16, 140001); /* a line's step, either way round */
  check_gather(LT_BF16, 32, 140001);
  check_gather(LT_I64, 5, 220001);
  /* Steps past a line, read ahead by elements up to 256 bytes and by
   * bytes beyond, either way round. */
  check_gather(LT_F32, 32, 80001);
  check_gather(LT_F32, -48, 50001);
  check_gather(LT_U8, 200, 50001);
  check_gather(LT_I64, -40, 30001);
  /* Rows of odd length, each reversed: every row starts at another
   * alignment of the destination's lines. */
  int64_t shape[] = {1501, 1499};
  lt_tensor *a = lt_test_arange_f32(2, shape), *r = lt_slice(a, 1, LT_NONE, LT_NONE, -1), *c = lt_contiguous(r);
  LT_ASSERT_OK_PTR(c);
  const float *v = lt_data(c);
  for (int64_t i = 0; i < shape[0]; i++)
    for (int64_t j = 0; j < shape[1]; j++)
      if (v[i * shape[1] + j] != (float)(i * shape[1] + shape[1] - 1 - j))
        ck_abort_msg("reversed rows [%lld,%lld]: %g", (long long)i, (long long)j, v[i * shape[1] + j]);
  lt_release(a), lt_release(r), lt_release(c);
  /* Rows whose lines the destination's rows share (their ends put
   * together with the next row's start), of every element size with a
   * kernel, and rows a few elements apart, whose gaps stay untouched. */
  check_stepped_rows(LT_F32, 1501, 2999, 2, 0);
  check_stepped_rows(LT_I64, 1101, 2001, 2, 0);
  check_stepped_rows(LT_I64, 601, 2001, -1, 0);
  check_stepped_rows(LT_F16, 1503, 3001, -1, 0);
  check_stepped_rows(LT_U8, 3001, 3001, -1, 0);
  check_stepped_rows(LT_BF16, 1503, 6001, 2, 0);
  check_stepped_rows(LT_U8, 3001, 6003, 2, 0);
  check_stepped_rows(LT_BF16, 1503, 6001, 2, 5);
  check_stepped_rows(LT_F32, 1501, 2999, 2, 3);
  check_stepped_rows(LT_F32, 1501, 1499, -1, 7);
  /* Short rows from a source past 8 MiB, each asking for the first lines
   * of a row several rows on (lt__stream_strided_runs_ahead): reversed F32
   * rows of 61 (17 rows on), u8 rows of 230, and bf16 rows of 230 every
   * other element, which continue each other and ask for nothing. */
  check_stepped_rows(LT_F32, 40001, 61, -1, 0);
  check_stepped_rows(LT_U8, 40001, 230, -1, 0);
  check_stepped_rows(LT_BF16, 40001, 230, 2, 0);
  /* Every third and eighth word (kernels on AVX-512) in rows of odd
   * length, back to back and apart. */
  check_stepped_rows(LT_F32, 1001, 6301, 3, 0);
  check_stepped_rows(LT_F32, 1001, 16803, 8, 0);
  check_stepped_rows(LT_F32, 1001, 16803, 8, 3);
}
END_TEST

/* n >= 1 elements from a pattern scattered every step-th element of a
 * destination that holds another pattern and ends at the last of them,
 * from element start on (start > 0 with step > 0 only): each must land
 * where it belongs, and every element between them keep its own value. */
static void check_scatter_from(lt_dtype dt, int64_t step, int64_t n, int64_t start) {
  size_t es = lt_dtype_size(dt);
  int64_t mag = step < 0 ? -step : step, len = start + (n - 1) * mag + 1;
  lt_tensor *wide = lt_empty(dt, 1, &len, LT_HOST), *dense = lt_empty(dt, 1, &n, LT_HOST);
  LT_ASSERT_OK_PTR(wide);
  LT_ASSERT_OK_PTR(dense);
  fill_pattern(lt_data(wide), es, len);
  char *dp = lt_data(dense);
  for (int64_t i = 0; i < n; i++) {
    uint64_t v = pattern(len + i);
    memcpy(dp + i * (int64_t)es, &v, es);
  }
  lt_tensor *view = lt_slice(wide, 0, step < 0 ? LT_NONE : start, LT_NONE, step);
  LT_ASSERT_OK_PTR(view);
  ck_assert_int_eq(lt_numel(view), n);
  LT_ASSERT_OK(lt_copy(view, dense));
  uint64_t mask = element_mask(es);
  for (int64_t j = 0; j < len; j++) {
    int64_t pos = step < 0 ? len - 1 - j : j - start; /* j's place along the view's steps */
    uint64_t want = pos >= 0 && pos % mag == 0 ? pattern(len + pos / mag) : pattern(j);
    if (element_at(lt_data(wide), es, j) != (want & mask))
      ck_abort_msg("%s step %lld, %lld from %lld: element %lld of the destination", lt_dtype_name(dt),
                   (long long)step, (long long)n, (long long)start, (long long)j);
  }
  lt_release(wide), lt_release(dense), lt_release(view);
}

static void check_scatter(lt_dtype dt, int64_t step, int64_t n) { check_scatter_from(dt, step, n, 0); }

/* Calls check(dt, step, n, start) for every element size, each step that
 * puts four or more elements in a line and the next longer one, lengths
 * around a vector and its tail and around 128 bytes (the shortest run
 * that takes the chunks), and the nstarts starts. */
static void for_short_steps(void (*check)(lt_dtype, int64_t, int64_t, int64_t), const int64_t *starts,
                            size_t nstarts) {
  static const lt_dtype dts[] = {LT_U8, LT_F16, LT_F32, LT_I64};
  static const int64_t lengths[] = {1, 7, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257, 1000, 1025};
  for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++) {
    int64_t es = (int64_t)lt_dtype_size(dts[d]);
    for (int64_t step = 2; step * es <= 16 + es; step++)
      for (size_t k = 0; k < sizeof lengths / sizeof lengths[0]; k++)
        for (size_t a = 0; a < nstarts; a++) check(dts[d], step, lengths[k], starts[a]);
  }
}

/* Steps that put four or more elements of 1, 2 or 4 bytes in a line go
 * out as masked stores of whole 64-byte chunks (on AVX-512): the short
 * steps, into destinations starting on and off a line; every element
 * must land and every one between keep its value. (The large scatters
 * below take them too, into 9 MiB.) */
START_TEST(short_step_scatters_in_cache_copy_every_element_and_touch_nothing_else) {
  for_short_steps(check_scatter_from, (const int64_t[]){0, 1, 3, 16}, 4);
}
END_TEST

/* bytes of fresh memory that end where an inaccessible page begins, so
 * that reading a byte past them faults; *map and *map_len for munmap. */
static char *before_a_guard_page(size_t bytes, void **map, size_t *map_len) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE), body = (bytes + page - 1) / page * page;
  *map_len = body + page;
  char *m = mmap(NULL, *map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ck_assert_ptr_ne(m, MAP_FAILED);
  ck_assert_int_eq(mprotect(m + body, page, PROT_NONE), 0);
  *map = m;
  return m + body - bytes;
}

/* n >= 1 elements, every step-th of a source that ends at the last of
 * them, just before a guard page, gathered into a dense destination from
 * element start on: each must arrive, and the destination's elements
 * before and after keep their values. */
static void check_gather_to(lt_dtype dt, int64_t step, int64_t n, int64_t start) {
  size_t es = lt_dtype_size(dt);
  int64_t len = (n - 1) * step + 1, out_len = start + n + 1;
  void *map;
  size_t map_len;
  char *src = before_a_guard_page((size_t)len * es, &map, &map_len);
  fill_pattern(src, es, len);
  lt_tensor *view = lt_wrap(src, dt, 1, &n, &step, LT_HOST, NULL, NULL), *out = lt_empty(dt, 1, &out_len, LT_HOST);
  LT_ASSERT_OK_PTR(view);
  LT_ASSERT_OK_PTR(out);
  for (int64_t j = 0; j < out_len; j++) {
    uint64_t v = pattern(len + j);
    memcpy((char *)lt_data(out) + j * (int64_t)es, &v, es);
  }
  lt_tensor *to = lt_slice(out, 0, start, start + n, 1);
  LT_ASSERT_OK_PTR(to);
  LT_ASSERT_OK(lt_copy(to, view));
  uint64_t mask = element_mask(es);
  for (int64_t j = 0; j < out_len; j++) {
    uint64_t want = j >= start && j < start + n ? pattern((j - start) * step) : pattern(len + j);
    if (element_at(lt_data(out), es, j) != (want & mask))
      ck_abort_msg("%s step %lld, %lld to %lld: element %lld of the destination", lt_dtype_name(dt),
                   (long long)step, (long long)n, (long long)start, (long long)j);
  }
  lt_release(view), lt_release(out), lt_release(to);
  munmap(map, map_len);
}

/* Gathers with such steps, of five elements or more, load whole 64-byte
 * chunks (on AVX-512), the last vector's only up to the last element:
 * the short steps, into destinations starting on and off a line. A chunk
 * read past the source's last element faults on the guard page. */
START_TEST(short_step_gathers_copy_every_element_and_read_nothing_past_the_last) {
  for_short_steps(check_gather_to, (const int64_t[]){0, 3}, 2);
}
END_TEST

/* Over 8 MiB of destination, scatters whose steps are 16 to 64 bytes
 * (on Intel cores, 16 bytes and more) store from one instruction, asking
 * for lines ahead; those beside that range keep the unrolled loop or
 * their own: steps in and around it for every element size, reversed
 * too, each into 9 MiB and an odd tail. */
START_TEST(large_scatters_into_a_stepped_destination_copy_every_element) {
  static const struct {
    lt_dtype dt;
    int64_t step;
  } cases[] = {{LT_U8, 8},  {LT_U8, 16},  {LT_U8, 64},  {LT_F16, 8},  {LT_F16, -32}, {LT_F32, 4},
               {LT_F32, 5}, {LT_F32, -4}, {LT_F32, 16}, {LT_F32, 24}, {LT_F32, -40}, {LT_I64, 2},
               {LT_I64, 8}, {LT_I64, 16}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    int64_t mag = cases[k].step < 0 ? -cases[k].step : cases[k].step;
    check_scatter(cases[k].dt, cases[k].step, (9 << 20) / ((int64_t)lt_dtype_size(cases[k].dt) * mag) + 13);
  }
}
END_TEST

/* An allocator that refuses everything, for copies that must do without
 * their kernels' buffers. */
static void *refuse_alloc(size_t size, size_t align, void *ctx) {
  (void)size, (void)align, (void)ctx;
  return NULL;
}

static void never_free(void *p, size_t size, size_t align, void *ctx) { (void)p, (void)size, (void)align, (void)ctx; }

/* Copies permute(v, perm) of a source of dtype dt and the given shape,
 * filled with pattern(j) at storage element j and viewed with dim
 * `reversed` stepping by -1 (none: -1), into a row-major destination
 * that starts dst_off elements into a new buffer (with refuse, while
 * every allocation fails), and checks each element against its
 * definition: destination index i is source index s with s[perm[d]] =
 * i[d]. The buffer's elements before and after the destination must keep
 * their values. With rounds past 1, the copy goes that many times back to
 * back, the buffer reset between, and the last one's result is checked. */
static void check_permuted_copy_rounds(lt_dtype dt, int ndim, const int64_t *shape, const int *perm, int reversed,
                                       bool refuse, int64_t dst_off, int rounds) {
  size_t es = lt_dtype_size(dt);
  int64_t n = 1;
  for (int d = 0; d < ndim; d++) n *= shape[d];
  lt_tensor *src = lt_empty(dt, ndim, shape, LT_HOST);
  LT_ASSERT_OK_PTR(src);
  fill_pattern(lt_data(src), es, n);
  lt_tensor *v = lt_slice(src, reversed >= 0 ? reversed : 0, LT_NONE, LT_NONE, reversed >= 0 ? -1 : 1);
  lt_tensor *p = lt_permute(v, perm);
  int64_t len = dst_off + n + 1, strides[LT_MAX_DIMS], acc = 1;
  for (int d = ndim - 1; d >= 0; acc *= lt_shape(p)[d], d--) strides[d] = acc;
  lt_tensor *buf = lt_empty(dt, 1, &len, LT_HOST);
  LT_ASSERT_OK_PTR(buf);
  memset(lt_data(buf), 0x5A, (size_t)len * es);
  lt_tensor *c = lt_as_strided(buf, ndim, lt_shape(p), strides, dst_off);
  LT_ASSERT_OK_PTR(c);
  if (refuse) lt_set_allocator(&(lt_allocator){refuse_alloc, never_free, NULL});
  lt_status st = LT_OK;
  for (int r = 0; r < rounds && st == LT_OK; r++) {
    if (r > 0) memset(lt_data(buf), 0x5A, (size_t)len * es);
    st = lt_copy(c, p);
  }
  if (refuse) lt_set_allocator(NULL);
  LT_ASSERT_OK(st);
  uint64_t mask = element_mask(es), untouched = 0x5A5A5A5A5A5A5A5Aull & mask;
  const char *out = (const char *)lt_data(buf) + dst_off * (int64_t)es;
  int64_t idx[LT_MAX_DIMS] = {0};
  for (int64_t i = 0; i < n; i++) {
    int64_t s[LT_MAX_DIMS], storage = 0;
    for (int d = 0; d < ndim; d++) s[perm[d]] = idx[d];
    if (reversed >= 0) s[reversed] = shape[reversed] - 1 - s[reversed];
    for (int d = 0; d < ndim; d++) storage = storage * shape[d] + s[d];
    if (element_at(out, es, i) != (pattern(storage) & mask))
      ck_abort_msg("%s %d-D: element %lld is not source element %lld", lt_dtype_name(dt), ndim, (long long)i,
                   (long long)storage);
    for (int d = ndim - 1; d >= 0 && ++idx[d] == shape[perm[d]]; d--) idx[d] = 0;
  }
  for (int64_t j = 0; j < len; j++)
    if ((j < dst_off || j >= dst_off + n) && element_at(lt_data(buf), es, j) != untouched)
      ck_abort_msg("%s %d-D: element %lld of the buffer, outside the destination, was written", lt_dtype_name(dt),
                   ndim, (long long)j);
  lt_release(src), lt_release(v), lt_release(p), lt_release(c), lt_release(buf);
}

static void check_permuted_copy_into(lt_dtype dt, int ndim, const int64_t *shape, const int *perm, int reversed,
                                     bool refuse, int64_t dst_off) {
  check_permuted_copy_rounds(dt, ndim, shape, perm, reversed, refuse, dst_off, 1);
}

static void check_permuted_copy_as(lt_dtype dt, int ndim, const int64_t *shape, const int *perm, int reversed,
                                   bool refuse) {
  check_permuted_copy_into(dt, ndim, shape, perm, reversed, refuse, 0);
}

static void check_permuted_copy(lt_dtype dt, int ndim, const int64_t *shape, const int *perm, int reversed) {
  check_permuted_copy_as(dt, ndim, shape, perm, reversed, false);
}

/* Copies of 1 to 16 MiB of traffic that come back to back on two threads
 * find the pool's workers spinning from the third or so on, and split
 * there as large copies do (see pool.c): cached transposes of every
 * element size, BHTD permutations, a reversed dim, a destination off its
 * alignment, each eight times in a row with its last result checked.
 * Cached transposes of few outer indices split by columns, or by source
 * rows where each thread writes 4 KiB or more of every destination row
 * (tiled_transpose.c): 512 x 509 and [3, 300, 300] go by columns, 4000 x
 * 64 (8000 bytes a thread) by rows. */
START_TEST(copies_of_a_few_mib_back_to_back_on_two_threads_copy_every_element) {
  int threads = lt_get_num_threads();
  LT_ASSERT_OK(lt_set_num_threads(2));
  const int t210[] = {2, 1, 0}, t201[] = {2, 0, 1}, t120[] = {1, 2, 0}, t10[] = {1, 0};
  const int bhtd0312[] = {0, 3, 1, 2}, bhtd3210[] = {3, 2, 1, 0};
  check_permuted_copy_rounds(LT_F32, 3, (int64_t[]){64, 64, 64}, t210, -1, false, 0, 8);
  check_permuted_copy_rounds(LT_F32, 3, (int64_t[]){64, 64, 64}, t201, -1, false, 0, 8);
  check_permuted_copy_rounds(LT_F32, 3, (int64_t[]){60, 66, 62}, t120, 1, false, 3, 8);
  check_permuted_copy_rounds(LT_F32, 2, (int64_t[]){512, 509}, t10, -1, false, 0, 8);
  check_permuted_copy_rounds(LT_F32, 3, (int64_t[]){3, 300, 300}, (int[]){0, 2, 1}, -1, false, 0, 8);
  check_permuted_copy_rounds(LT_F32, 2, (int64_t[]){4000, 64}, t10, -1, false, 0, 8);
  check_permuted_copy_rounds(LT_F32, 4, (int64_t[]){4, 12, 85, 64}, bhtd0312, -1, false, 0, 8);
  check_permuted_copy_rounds(LT_F32, 4, (int64_t[]){4, 12, 85, 64}, bhtd3210, 2, false, 0, 8);
  check_permuted_copy_rounds(LT_BF16, 3, (int64_t[]){64, 64, 128}, t210, -1, false, 1, 8);
  check_permuted_copy_rounds(LT_U8, 2, (int64_t[]){1024, 1030}, t10, -1, false, 0, 8);
  check_permuted_copy_rounds(LT_F64, 3, (int64_t[]){32, 64, 64}, t201, 0, false, 0, 8);
  check_permuted_copy_rounds(LT_F32, 3, (int64_t[]){128, 128, 128}, t210, -1, false, 0, 8);
  LT_ASSERT_OK(lt_set_num_threads(threads));
}
END_TEST

/* A transpose whose source unit dim holds 2 to 4 interleaved channels
 * (pixels in HWC order to CHW) goes to the gathers, one destination row
 * per channel (see channel_transpose.c): every element size, 2, 3 and 4
 * channels, a reversed dim among the pixels, a destination starting off
 * its alignment, a 2-D one; 5 channels stay with the tiles. */
START_TEST(transposes_of_a_few_interleaved_channels_copy_every_element) {
  const lt_dtype dts[] = {LT_U8, LT_F16, LT_F32, LT_F64};
  const int chw[] = {0, 3, 1, 2};
  for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++)
    for (int64_t c = 2; c <= 5; c++) check_permuted_copy(dts[d], 4, (int64_t[]){3, 17, 31, c}, chw, -1);
  check_permuted_copy(LT_F32, 4, (int64_t[]){2, 17, 31, 3}, chw, 1);
  check_permuted_copy_into(LT_F16, 4, (int64_t[]){2, 17, 31, 3}, chw, -1, false, 1);
  check_permuted_copy(LT_F32, 2, (int64_t[]){1001, 3}, (int[]){1, 0}, -1);
}
END_TEST

/* Past 8 MiB of output the gathers of a few channels stream the
 * destination rows (in the destination's order where a kernel of their
 * step exists: steps 2 to 4 on AVX-512): three channels of F32 and U8,
 * two of F16, four of F32, six of F32 (past 16 MiB, planes in cache),
 * and on two threads. */
START_TEST(large_transposes_of_a_few_interleaved_channels_copy_every_element) {
  const int chw[] = {0, 3, 1, 2};
  check_permuted_copy(LT_F32, 4, (int64_t[]){15, 224, 224, 3}, chw, -1);
  check_permuted_copy(LT_F32, 4, (int64_t[]){11, 224, 224, 4}, chw, -1);
  check_permuted_copy(LT_F16, 4, (int64_t[]){43, 224, 224, 2}, chw, -1);
  check_permuted_copy(LT_U8, 4, (int64_t[]){57, 224, 224, 3}, chw, -1);
  check_permuted_copy(LT_F32, 4, (int64_t[]){15, 224, 224, 6}, chw, -1);
  int threads = lt_get_num_threads();
  LT_ASSERT_OK(lt_set_num_threads(2));
  check_permuted_copy_into(LT_F32, 4, (int64_t[]){15, 224, 224, 3}, chw, -1, false, 3);
  LT_ASSERT_OK(lt_set_num_threads(threads));
}
END_TEST

/* Planes of a few channels past 8 MiB go a block of pixels at a time,
 * every channel's gather of each block (see channel_transpose.c): 3
 * channels of every element size and 6 of F32, pixel counts that end in
 * a part block, a destination starting off its alignment, two threads;
 * and 6 channels of 8 (a narrowed source, its step past its channels)
 * whose output stays under 8 MiB and is stored plainly. */
START_TEST(large_planes_of_a_few_channels_copy_every_element) {
  const int t[] = {1, 0};
  check_permuted_copy(LT_F32, 2, (int64_t[]){700001, 3}, t, -1);
  check_permuted_copy(LT_U8, 2, (int64_t[]){2800001, 3}, t, -1);
  check_permuted_copy(LT_F16, 2, (int64_t[]){1400001, 3}, t, -1);
  check_permuted_copy(LT_F64, 2, (int64_t[]){350001, 3}, t, -1);
  check_permuted_copy(LT_F32, 2, (int64_t[]){350001, 6}, t, -1);
  check_permuted_copy_into(LT_F32, 2, (int64_t[]){700001, 3}, t, -1, false, 1);
  int threads = lt_get_num_threads();
  LT_ASSERT_OK(lt_set_num_threads(2));
  check_permuted_copy(LT_F32, 2, (int64_t[]){700001, 3}, t, -1);
  LT_ASSERT_OK(lt_set_num_threads(threads));

  int64_t n = 300001, shape[2] = {n, 8};
  lt_tensor *src = lt_empty(LT_F32, 2, shape, LT_HOST);
  LT_ASSERT_OK_PTR(src);
  fill_pattern(lt_data(src), 4, 8 * n);
  lt_tensor *six = lt_narrow(src, 1, 1, 6), *p = lt_permute(six, t);
  lt_tensor *out = lt_empty(LT_F32, 2, (int64_t[]){6, n}, LT_HOST);
  LT_ASSERT_OK_PTR(out);
  LT_ASSERT_OK(lt_copy(out, p));
  for (int64_t c = 0; c < 6; c++)
    for (int64_t i = 0; i < n; i++)
      if (element_at(lt_data(out), 4, c * n + i) != (pattern(i * 8 + 1 + c) & element_mask(4)))
        ck_abort_msg("channel %lld, pixel %lld is not source element %lld", (long long)c, (long long)i,
                     (long long)(i * 8 + 1 + c));
  lt_release(src), lt_release(six), lt_release(p), lt_release(out);
}
END_TEST

/* A transpose whose destination's inner dim is shorter than a tile takes
 * the destination's inner dims together as the rows of one 2-D transpose
 * (BHTD to (3,2,1,0): rows (H, B)), gathered from the source row by row,
 * and several indices of the next dim per call where it continues the
 * destination's run (T, in pairs of lines): groups of two and three dims,
 * with dims outside the group on both sides of the source's unit dim,
 * calls taking one, two, four or eight indices of the next dim and fewer
 * for the last, a reversed dim inside the group and outside it,
 * destination rows that start lines and rows that do not, for every
 * element size. */
START_TEST(transposes_with_a_short_destination_inner_dim_copy_every_element) {
  static const lt_dtype dts[] = {LT_U8, LT_F16, LT_F32, LT_I64};
  for (size_t k = 0; k < 4; k++) {
    check_permuted_copy(dts[k], 4, (int64_t[]){4, 12, 5, 64}, (int[]){3, 2, 1, 0}, -1);
    check_permuted_copy(dts[k], 4, (int64_t[]){4, 12, 5, 64}, (int[]){3, 2, 1, 0}, 1);
    check_permuted_copy(dts[k], 4, (int64_t[]){4, 12, 5, 64}, (int[]){3, 2, 1, 0}, 2);
    check_permuted_copy(dts[k], 4, (int64_t[]){3, 5, 9, 40}, (int[]){3, 2, 1, 0}, -1);
    check_permuted_copy(dts[k], 5, (int64_t[]){2, 4, 5, 7, 40}, (int[]){0, 4, 3, 2, 1}, 2);
    /* Groups that stop short of a tile, where the next dim would take them
     * past 512 rows, their calls taking several of its indices (13 of them,
     * not a multiple of the calls'); and one whose rows fill no whole pair
     * of lines that way (15 bytes). */
    check_permuted_copy(dts[k], 4, (int64_t[]){4, 12, 13, 64}, (int[]){3, 2, 1, 0}, -1);
    check_permuted_copy(dts[k], 4, (int64_t[]){4, 12, 13, 64}, (int[]){3, 2, 1, 0}, 0);
    check_permuted_copy(dts[k], 4, (int64_t[]){3, 5, 40, 64}, (int[]){3, 2, 1, 0}, -1);
    /* Where calls read their rows in place (AVX-512), whole tiles only:
     * F32 over two columns of tiles in calls of 32 rows, F16 over one in
     * calls of 64 rows and a last of 32 (U8 in calls of 384 rows above,
     * [4, 12, 13, 64], and a last of 240 gathered). */
    check_permuted_copy(dts[k], 4, (int64_t[]){2, 16, 9, 32}, (int[]){3, 2, 1, 0}, -1);
    check_permuted_copy(dts[k], 4, (int64_t[]){2, 16, 9, 32}, (int[]){3, 2, 1, 0}, 1);
  }
  /* Past 1 MiB and short of streaming: in place on AMD cores, gathered
   * on Intel ones. */
  check_permuted_copy(LT_F32, 4, (int64_t[]){4, 12, 100, 64}, (int[]){3, 2, 1, 0}, -1);
  check_permuted_copy(LT_U8, 4, (int64_t[]){4, 12, 400, 64}, (int[]){3, 2, 1, 0}, 2);
}
END_TEST

/* Permutations that keep a short inner dim and swap two outer ones, with
 * more than 16 indices in the destination's second-innermost dim, take
 * the next dim out in blocks of four runs: outer dims not a multiple of
 * four, a reversed dim among them, an odometer dim outside, every element
 * size. */
START_TEST(permutations_of_short_runs_in_blocks_copy_every_element) {
  static const lt_dtype dts[] = {LT_U8, LT_F16, LT_F32, LT_I64};
  for (size_t k = 0; k < 4; k++) {
    check_permuted_copy(dts[k], 3, (int64_t[]){18, 21, 3}, (int[]){1, 0, 2}, -1);
    check_permuted_copy(dts[k], 3, (int64_t[]){18, 21, 3}, (int[]){1, 0, 2}, 0);
    check_permuted_copy(dts[k], 3, (int64_t[]){33, 6, 16}, (int[]){1, 0, 2}, -1);
    check_permuted_copy(dts[k], 4, (int64_t[]){7, 37, 23, 5}, (int[]){0, 2, 1, 3}, -1);
  }
}
END_TEST

/* Fills n elements with the complement of their patterns. */
static void fill_complement(char *p, size_t es, int64_t n) {
  for (int64_t j = 0; j < n; j++) memcpy(p + j * (int64_t)es, &(uint64_t){~pattern(j)}, es);
}

/* The destination rows of the dense-runs test below: each of len
 * elements followed by a gap of RUN_GAP elements. Every element starts as
 * the complement of its own pattern, so that a source element written
 * over a gap shows (but for a chance match of 1 in 256 with one-byte
 * elements). */
enum { RUN_GAP = 3 };

/* Checks the rows of wide (B x A rows of len + RUN_GAP elements): row
 * (b, a) holds the source's run at element offset run_at(b, a) = b * bstep
 * + a * astep, then its gap, untouched. */
static void check_runs(const char *wide, size_t es, int64_t rows_b, int64_t rows_a, int64_t len, int64_t bstep,
                       int64_t astep, const char *what) {
  uint64_t mask = element_mask(es);
  for (int64_t b = 0; b < rows_b; b++)
    for (int64_t a = 0; a < rows_a; a++)
      for (int64_t x = 0; x < len + RUN_GAP; x++) {
        int64_t at = (b * rows_a + a) * (len + RUN_GAP) + x;
        uint64_t want = x < len ? pattern(b * bstep + a * astep + x) : ~pattern(at);
        if (element_at(wide, es, at) != (want & mask))
          ck_abort_msg("%s, %zu-byte elements, runs of %lld: row (%lld, %lld) element %lld", what, es,
                       (long long)len, (long long)b, (long long)a, (long long)x);
      }
}

/* A copy whose source and destination share a dense inner dim moves each
 * row as one run of fixed-size moves, the last ending at the run's end and
 * overlapping the one before it (memcpy past 8 KiB). Runs of every length
 * class (1 to 3 bytes, moves of 4, 8, 16, 32 and 64 bytes, whole and
 * partial chunks, past 8 KiB), of every element size, from a permuted
 * source (1,0,2) and from an expanded one (one row read for all), into
 * rows that each have a gap after them: every run is whole and no gap is
 * touched. */
START_TEST(copies_of_dense_runs_of_every_length_write_each_run_and_nothing_beside_it) {
  static const lt_dtype dts[] = {LT_U8, LT_F16, LT_F32, LT_I64};
  static const int64_t lens[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 1025, 2049};
  enum { A = 3, B = 5 };
  for (size_t d = 0; d < 4; d++)
    for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
      size_t es = lt_dtype_size(dts[d]);
      int64_t len = lens[l], n = A * B * len, wn = B * A * (len + RUN_GAP);
      lt_tensor *src = lt_empty(dts[d], 3, (int64_t[]){A, B, len}, LT_HOST);
      lt_tensor *wide = lt_empty(dts[d], 3, (int64_t[]){B, A, len + RUN_GAP}, LT_HOST);
      LT_ASSERT_OK_PTR(src);
      LT_ASSERT_OK_PTR(wide);
      fill_pattern(lt_data(src), es, n);
      lt_tensor *dst = lt_narrow(wide, 2, 0, len), *p = lt_permute(src, (int[]){1, 0, 2});
      lt_tensor *top = lt_narrow(src, 0, 0, 1), *row = lt_narrow(top, 1, 0, 1);
      lt_tensor *all = lt_expand(row, 3, (int64_t[]){B, A, len});
      LT_ASSERT_OK_PTR(all);
      fill_complement(lt_data(wide), es, wn);
      LT_ASSERT_OK(lt_copy(dst, p));
      check_runs(lt_data(wide), es, B, A, len, len, B * len, "permuted");
      fill_complement(lt_data(wide), es, wn);
      LT_ASSERT_OK(lt_copy(dst, all));
      check_runs(lt_data(wide), es, B, A, len, 0, 0, "expanded");
      lt_release(src), lt_release(wide), lt_release(dst), lt_release(p), lt_release(top), lt_release(row);
      lt_release(all);
    }
}
END_TEST

/* The same past 8 MiB, where the small transposes stream and read ahead,
 * and each group row is read in runs of several indices of the next dim
 * (T) through a heap buffer: T not a multiple of the indices per call,
 * source rows (D) of whole and partial tiles, a reversed T that reads
 * the short way; and with every allocation refused, through the stack's
 * buffer instead. Threads split T by whole calls, or D where T has too
 * few calls (T = 3). Destination rows off a line (odd T of F16, T of U8
 * not a multiple of 4, a destination a few elements into the buffer)
 * take the seamed calls, whose row ends meet between calls (see
 * lt__transpose_seamed_fn), forwards, with T reversed, and without
 * memory for the seams. On AMD cores with AVX-512, F32 and F16 pull
 * (on Intel cores F16 alone) their source in blocks of T and read it in
 * place (see pulls_blocks):
 * into rows on lines (F32 above, F16 with T even, H reversed: rows
 * before the call's first), or off them through seams (F16 with T odd,
 * F32 into a destination 3 elements into its buffer); blocks not
 * dividing T, D of partial tiles (gathered from the block), calls
 * shifted off a line by a dim outside T (F16 [2, 4, 12, 701, 64] into
 * (D, X, T, H, B): every other X gathers), and groups of an inner dim of
 * one tile with the next. */
START_TEST(large_transposes_with_a_short_destination_inner_dim_copy_every_element) {
  check_permuted_copy(LT_F32, 4, (int64_t[]){4, 12, 700, 64}, (int[]){3, 2, 1, 0}, -1);
  check_permuted_copy(LT_F32, 4, (int64_t[]){4, 12, 1100, 40}, (int[]){3, 2, 1, 0}, -1);
  check_permuted_copy(LT_F16, 4, (int64_t[]){4, 12, 1500, 64}, (int[]){3, 2, 1, 0}, 2);
  check_permuted_copy(LT_U8, 4, (int64_t[]){4, 12, 2800, 64}, (int[]){3, 2, 1, 0}, -1);
  check_permuted_copy_as(LT_F32, 4, (int64_t[]){4, 12, 700, 64}, (int[]){3, 2, 1, 0}, -1, true);
  check_permuted_copy(LT_F32, 4, (int64_t[]){4, 12, 3, 16384}, (int[]){3, 2, 1, 0}, -1);
  check_permuted_copy(LT_F16, 4, (int64_t[]){4, 12, 1367, 64}, (int[]){3, 2, 1, 0}, -1);
  check_permuted_copy(LT_F16, 4, (int64_t[]){4, 12, 1367, 64}, (int[]){3, 2, 1, 0}, 2);
  check_permuted_copy_as(LT_F16, 4, (int64_t[]){4, 12, 1367, 64}, (int[]){3, 2, 1, 0}, -1, true);
  check_permuted_copy(LT_U8, 4, (int64_t[]){4, 12, 2731, 64}, (int[]){3, 2, 1, 0}, -1);
  check_permuted_copy_into(LT_U8, 4, (int64_t[]){4, 12, 2800, 64}, (int[]){3, 2, 1, 0}, -1, false, 5);
  check_permuted_copy_into(LT_F32, 4, (int64_t[]){4, 12, 700, 64}, (int[]){3, 2, 1, 0}, -1, false, 3);
  check_permuted_copy(LT_F16, 4, (int64_t[]){4, 12, 1400, 64}, (int[]){3, 2, 1, 0}, -1);
  check_permuted_copy(LT_F32, 4, (int64_t[]){4, 12, 700, 64}, (int[]){3, 2, 1, 0}, 1);
  check_permuted_copy(LT_F16, 5, (int64_t[]){2, 4, 12, 701, 64}, (int[]){4, 0, 3, 2, 1}, -1);
  /* A destination inner dim of one tile's side, grouped with the next
   * (see tile_group_first): F32 and F16 (U8, which does not pull, left
   * to the tile kernels); one that the next dim would take past 512 rows
   * (left to them too), a destination off a line (pulled through seams),
   * a reversed T (no pulls: the tile kernels). */
  check_permuted_copy(LT_F32, 4, (int64_t[]){16, 8, 261, 64}, (int[]){3, 2, 1, 0}, -1);
  check_permuted_copy(LT_F16, 4, (int64_t[]){32, 4, 521, 64}, (int[]){3, 2, 1, 0}, -1);
  check_permuted_copy(LT_U8, 4, (int64_t[]){64, 2, 1031, 64}, (int[]){3, 2, 1, 0}, -1);
  check_permuted_copy(LT_F32, 4, (int64_t[]){16, 64, 33, 64}, (int[]){3, 2, 1, 0}, -1);
  check_permuted_copy_into(LT_F32, 4, (int64_t[]){16, 8, 261, 64}, (int[]){3, 2, 1, 0}, -1, false, 3);
  check_permuted_copy(LT_F32, 4, (int64_t[]){16, 8, 261, 64}, (int[]){3, 2, 1, 0}, 2);
  /* Groups whose pulled blocks would crowd L2's sets gather instead (see
   * lt__blocks_crowd_sets): 64 rows 192 KiB apart (F32 [2, 32, 768, 64]),
   * 128 rows a multiple of 128 KiB apart (F32 [4, 32, 256, 128]), 64
   * rows of F16 192 KiB apart, on one thread and two. */
  check_permuted_copy(LT_F32, 4, (int64_t[]){2, 32, 768, 64}, (int[]){3, 2, 1, 0}, -1);
  check_permuted_copy(LT_F32, 4, (int64_t[]){4, 32, 256, 128}, (int[]){3, 2, 1, 0}, 2);
  check_permuted_copy(LT_F16, 4, (int64_t[]){2, 32, 1536, 64}, (int[]){3, 2, 1, 0}, -1);
}
END_TEST

/* On Intel cores with AVX-512 (on Zen 4 for F32 source runs of up to
 * 256 bytes: D = 80 gathers there), a streamed group whose rows run on
 * along T goes a band of a tile's side of rows at a time, in place (see
 * lt__group_walks_bands), where its destination rows lie an odd number
 * of lines apart (under 64 MiB), on one thread: F32 with 48 rows (three
 * bands), F16 with 96 and U8 with 64 (T odd), H reversed (the rows'
 * order), a dim outside T walked by the odometer (F32 [3, 4, 12, 351,
 * 64] into (D, X, T, H, B)); on two threads by calls of T and, where T
 * has too few calls, by columns
 * of whole tiles (D = 16384) or not (D = 16400: those halves gather).
 * Those that cannot take bands gather, as before: T reversed (no run
 * along it), a destination off a line. Elsewhere every one gathers or
 * pulls, checked the same way. */
START_TEST(large_transposes_in_bands_of_rows_copy_every_element) {
  const int bhtd[] = {3, 2, 1, 0};
  int threads = lt_get_num_threads();
  LT_ASSERT_OK(lt_set_num_threads(1));
  check_permuted_copy(LT_F32, 4, (int64_t[]){4, 12, 701, 64}, bhtd, -1);
  check_permuted_copy(LT_F32, 4, (int64_t[]){4, 12, 701, 80}, bhtd, -1);
  check_permuted_copy(LT_F16, 4, (int64_t[]){4, 24, 701, 64}, bhtd, -1);
  check_permuted_copy(LT_U8, 4, (int64_t[]){4, 16, 2049, 64}, bhtd, -1);
  check_permuted_copy(LT_F32, 4, (int64_t[]){4, 12, 701, 64}, bhtd, 1);
  check_permuted_copy(LT_F32, 5, (int64_t[]){3, 4, 12, 351, 64}, (int[]){4, 0, 3, 2, 1}, -1);
  check_permuted_copy(LT_F32, 4, (int64_t[]){4, 12, 701, 64}, bhtd, 2);
  check_permuted_copy_into(LT_F32, 4, (int64_t[]){4, 12, 701, 64}, bhtd, -1, false, 3);
  LT_ASSERT_OK(lt_set_num_threads(2));
  check_permuted_copy(LT_F32, 4, (int64_t[]){4, 12, 701, 64}, bhtd, -1);
  check_permuted_copy(LT_F32, 4, (int64_t[]){4, 12, 3, 16384}, bhtd, -1);
  check_permuted_copy(LT_F32, 4, (int64_t[]){4, 12, 3, 16400}, bhtd, -1);
  LT_ASSERT_OK(lt_set_num_threads(threads));
}
END_TEST

/* The rule that sends a group from pulled blocks to the gather: 64 or
 * more rows whose blocks (1 MiB over them all) put their lines on the
 * same L2 sets, where sets repeat every 64 KiB. */
START_TEST(groups_whose_blocks_crowd_l2_sets_are_found) {
  int64_t at[128];
  for (int r = 0; r < 64; r++) at[r] = r * ((int64_t)128 << 10); /* every row on the same sets */
  ck_assert(lt__blocks_crowd_sets(at, 64));
  ck_assert(!lt__blocks_crowd_sets(at, 48)); /* 48 rows deep: still pulled */
  for (int r = 0; r < 64; r++) at[r] = r * (65536 + 64); /* a line further each: one set under all 64 */
  ck_assert(lt__blocks_crowd_sets(at, 64));
  for (int r = 0; r < 64; r++) at[r] = -r * (65536 + 4096); /* 4 KiB further each, backwards: 16 deep */
  ck_assert(!lt__blocks_crowd_sets(at, 64));
  /* BHTD (3,2,1,0)'s rows (h, b), b the destination's inner dim: [4, 32,
   * 2048, 128] (h 1 MiB apart) crowds, [4, 32, 2000, 128] spreads */
  for (int r = 0; r < 128; r++) at[r] = (r / 4) * ((int64_t)1 << 20) + (r % 4) * ((int64_t)32 << 20);
  ck_assert(lt__blocks_crowd_sets(at, 128));
  for (int r = 0; r < 128; r++) at[r] = (r / 4) * 1024000 + (r % 4) * 32 * (int64_t)1024000;
  ck_assert(!lt__blocks_crowd_sets(at, 128));
}
END_TEST

/* A dense span of 24 MiB or more goes out with streaming stores from the
 * destination's first whole line on (strided_copy.c, stream_span_range),
 * plain ones before it and past its last whole line: copied into a
 * destination at byte at of a line (U8 5 bytes in, off any wider
 * element's alignment; F64 8 bytes in), over a length that ends in part
 * of a line, on one thread and two (the second thread's share starting
 * mid-line), every element must land and the bytes on either side of
 * the destination stay as they were. */
static void check_dense_span(lt_dtype dt, int64_t n, int64_t at) {
  enum { GUARD = 192 };
  size_t es = lt_dtype_size(dt);
  lt_tensor *src = lt_empty(dt, 1, &n, LT_HOST);
  LT_ASSERT_OK_PTR(src);
  fill_pattern(lt_data(src), es, n);
  size_t bytes = (size_t)n * es;
  char *buf = aligned_alloc(64, (bytes + (size_t)at + GUARD + 63) / 64 * 64);
  ck_assert_ptr_nonnull(buf);
  memset(buf, 0xA5, bytes + (size_t)at + GUARD);
  lt_tensor *dst = lt_wrap(buf + at, dt, 1, &n, NULL, LT_HOST, NULL, NULL);
  LT_ASSERT_OK_PTR(dst);
  LT_ASSERT_OK(lt_copy(dst, src));
  for (int64_t i = 0; i < n; i++) {
    uint64_t got = element_at(buf + at, es, i), want = pattern(i) & element_mask(es);
    if (got != want)
      ck_abort_msg("%s element %lld of %lld: %llx, want %llx", lt_dtype_name(dt), (long long)i, (long long)n,
                   (unsigned long long)got, (unsigned long long)want);
  }
  for (int64_t i = 0; i < at; i++)
    if ((uint8_t)buf[i] != 0xA5) ck_abort_msg("byte %lld before the destination written", (long long)(i - at));
  for (size_t i = 0; i < GUARD; i++)
    if ((uint8_t)buf[(size_t)at + bytes + i] != 0xA5) ck_abort_msg("byte %zu past the destination written", i);
  lt_release(dst), lt_release(src);
  free(buf);
}

START_TEST(large_dense_spans_copy_every_element_and_nothing_beside_them) {
  int threads = lt_get_num_threads();
  LT_ASSERT_OK(lt_set_num_threads(1));
  check_dense_span(LT_U8, (24 << 20) + 77, 5);
  check_dense_span(LT_F64, (3 << 20) + 13, 8);
  LT_ASSERT_OK(lt_set_num_threads(2));
  check_dense_span(LT_U8, (24 << 20) + 4097, 5);
  check_dense_span(LT_F64, (3 << 20) + 13, 8);
  LT_ASSERT_OK(lt_set_num_threads(threads));
}
END_TEST

/* Past 8 MiB, permutations that keep a whole-line inner dim and read the
 * source as a few streams in the destination's order (BHTD to (0,2,1,3),
 * H streams) go in that order on Intel cores (up to 32 streams) and on
 * Zen 4 (up to 12), in the source's on Zen 5: H at each limit and one
 * past it, every element size, a reversed T. */
START_TEST(large_permutations_of_whole_line_runs_from_few_streams_copy_every_element) {
  check_permuted_copy(LT_F32, 4, (int64_t[]){2, 12, 1400, 64}, (int[]){0, 2, 1, 3}, -1);
  check_permuted_copy(LT_F32, 4, (int64_t[]){2, 13, 1300, 64}, (int[]){0, 2, 1, 3}, -1);
  check_permuted_copy(LT_F32, 4, (int64_t[]){2, 32, 530, 64}, (int[]){0, 2, 1, 3}, 2);
  check_permuted_copy(LT_F32, 4, (int64_t[]){2, 33, 510, 64}, (int[]){0, 2, 1, 3}, -1);
  check_permuted_copy(LT_U8, 4, (int64_t[]){3, 12, 4000, 64}, (int[]){0, 2, 1, 3}, -1);
  check_permuted_copy(LT_F16, 4, (int64_t[]){2, 5, 14000, 64}, (int[]){0, 2, 1, 3}, -1);
  check_permuted_copy(LT_I64, 4, (int64_t[]){2, 12, 700, 64}, (int[]){0, 2, 1, 3}, -1);
}
END_TEST

/* Past 8 MiB, a batch of transposes whose source rows run on from one
 * outer index to the next goes, on Intel cores (elsewhere as whole rows,
 * see banded_rows), in bands of source rows, each through
 * every outer index: rows a band and a part of one (F32: bands of 128,
 * F16: 256), an outer dim outside the odometer's, and, taking the whole
 * rows instead, a reversed outer dim (its rows run backwards) and a
 * destination starting off a line. */
START_TEST(large_batches_of_transposes_in_bands_copy_every_element) {
  check_permuted_copy(LT_F32, 3, (int64_t[]){200, 40, 272}, (int[]){2, 1, 0}, -1);
  check_permuted_copy(LT_F16, 3, (int64_t[]){300, 24, 600}, (int[]){2, 1, 0}, -1);
  check_permuted_copy(LT_F32, 4, (int64_t[]){2, 160, 20, 400}, (int[]){0, 3, 2, 1}, -1);
  check_permuted_copy(LT_F32, 3, (int64_t[]){200, 40, 272}, (int[]){2, 1, 0}, 1);
  check_permuted_copy_into(LT_F32, 3, (int64_t[]){200, 40, 272}, (int[]){2, 1, 0}, -1, false, 3);
}
END_TEST

/* x[:, 0:c1] of a [rows, cols] source holding a pattern, transposed and
 * made contiguous: every element must be its source's. */
static void check_cropped_transpose(lt_dtype dt, int64_t rows, int64_t cols, int64_t c1) {
  size_t es = lt_dtype_size(dt);
  lt_tensor *src = lt_empty(dt, 2, (int64_t[]){rows, cols}, LT_HOST);
  LT_ASSERT_OK_PTR(src);
  fill_pattern(lt_data(src), es, rows * cols);
  lt_tensor *view = lt_slice(src, 1, 0, c1, 1), *t = lt_transpose(view, 0, 1), *c = lt_contiguous(t);
  LT_ASSERT_OK_PTR(c);
  uint64_t mask = element_mask(es);
  for (int64_t i = 0; i < c1; i++)
    for (int64_t j = 0; j < rows; j++)
      if (element_at(lt_data(c), es, i * rows + j) != (pattern(j * cols + i) & mask))
        ck_abort_msg("%s [%lld, %lld][:, :%lld].T: element [%lld, %lld] is wrong", lt_dtype_name(dt),
                     (long long)rows, (long long)cols, (long long)c1, (long long)i, (long long)j);
  lt_release(src), lt_release(view), lt_release(t), lt_release(c);
}

/* Past 8 MiB, F32 transposes whose source rows lie a multiple of 32 KiB
 * apart go on Intel cores with AVX-512 in lagged bands of 32 rows, the
 * second 16 a few columns behind the first, through the lagged kernel
 * (see lt__lagged_band): a batch of (2,1,0) with rows a band and a part
 * of one (a call of 16 rows, which the kernel passes on), and with
 * destination steps off a line (bands of 128 instead); a single
 * transpose ((1,2,0)) with a band and a part, and a crop whose last
 * chunk of columns is half a chunk. */
START_TEST(large_transposes_of_rows_on_few_l2_sets_copy_every_element) {
  check_permuted_copy(LT_F32, 3, (int64_t[]){304, 32, 256}, (int[]){2, 1, 0}, -1);
  check_permuted_copy(LT_F32, 3, (int64_t[]){300, 32, 256}, (int[]){2, 1, 0}, -1);
  check_permuted_copy(LT_F32, 3, (int64_t[]){48, 128, 512}, (int[]){1, 2, 0}, -1);
  check_cropped_transpose(LT_F32, 336, 8192, 8016);
}
END_TEST

/* A batch of transposes whose slices lie side by side on both sides,
 * destination rows on or near a multiple of 4 KiB ((2,1,0) of a cube of
 * 64), goes on AMD cores several slices to a call through a stage laid
 * out as the destination (see tiled_transpose.c): two at a time (F32
 * slices of 64 x 64), four (F16; F32 slices of 32 x 32), eight (16 x 16,
 * an outer dim outside the odometer's), three with one left over ([32,
 * 64, 80]: 64 slices; and again under an outer dim, where no call may
 * take slices past the odometer's dim), three slices of 40 rows (stage
 * rows of 480 bytes, not whole lines), destination rows 4 bytes short
 * of 16 KiB (U8: 1 byte short of 4 KiB) with source rows off any
 * multiple, slices too large for two in the stage (F32 and F64, 100
 * columns: a block of 64 and one of 36), a destination starting off a
 * line, a reversed dim between the slices (one at a time then), and
 * without memory for the stage. Where the CPU has AVX-512, a kernel
 * takes those calls (lt__transpose_side_fn), partial tiles and all; the
 * cases add stage rows of 128 and 256 bytes (16-byte moves) and 1 KiB
 * (64-byte ones), whole tiles in column blocks, eight byte slices, F64
 * slices of 8 and 16 rows, and a destination off a line. */
START_TEST(batches_of_transposes_side_by_side_copy_every_element) {
  check_permuted_copy(LT_F32, 3, (int64_t[]){64, 64, 64}, (int[]){2, 1, 0}, -1);
  check_permuted_copy(LT_F16, 3, (int64_t[]){64, 64, 64}, (int[]){2, 1, 0}, -1);
  check_permuted_copy(LT_F32, 3, (int64_t[]){32, 32, 32}, (int[]){2, 1, 0}, -1);
  check_permuted_copy(LT_F32, 4, (int64_t[]){3, 16, 64, 16}, (int[]){0, 3, 2, 1}, -1);
  check_permuted_copy(LT_F32, 3, (int64_t[]){32, 64, 80}, (int[]){2, 1, 0}, -1);
  check_permuted_copy(LT_F32, 4, (int64_t[]){2, 32, 64, 80}, (int[]){0, 3, 2, 1}, -1);
  check_permuted_copy(LT_F32, 3, (int64_t[]){40, 128, 32}, (int[]){2, 1, 0}, -1);
  check_permuted_copy(LT_F32, 3, (int64_t[]){63, 65, 64}, (int[]){2, 1, 0}, -1);
  check_permuted_copy(LT_U8, 3, (int64_t[]){63, 65, 256}, (int[]){2, 1, 0}, -1);
  check_permuted_copy(LT_F32, 3, (int64_t[]){64, 16, 100}, (int[]){2, 1, 0}, -1);
  check_permuted_copy(LT_F64, 3, (int64_t[]){32, 16, 100}, (int[]){2, 1, 0}, -1);
  check_permuted_copy_into(LT_F32, 3, (int64_t[]){64, 64, 64}, (int[]){2, 1, 0}, -1, false, 3);
  check_permuted_copy(LT_F32, 3, (int64_t[]){64, 64, 64}, (int[]){2, 1, 0}, 1);
  check_permuted_copy_as(LT_F32, 3, (int64_t[]){64, 64, 64}, (int[]){2, 1, 0}, -1, true);
  check_permuted_copy(LT_F32, 3, (int64_t[]){16, 64, 256}, (int[]){2, 1, 0}, -1);
  check_permuted_copy(LT_F32, 3, (int64_t[]){32, 64, 128}, (int[]){2, 1, 0}, -1);
  check_permuted_copy(LT_F32, 3, (int64_t[]){128, 64, 32}, (int[]){2, 1, 0}, -1);
  check_permuted_copy(LT_F32, 3, (int64_t[]){64, 32, 128}, (int[]){2, 1, 0}, -1);
  check_permuted_copy(LT_F16, 3, (int64_t[]){32, 64, 128}, (int[]){2, 1, 0}, -1);
  check_permuted_copy(LT_U8, 3, (int64_t[]){64, 64, 64}, (int[]){2, 1, 0}, -1);
  check_permuted_copy(LT_U8, 3, (int64_t[]){64, 32, 128}, (int[]){2, 1, 0}, -1);
  check_permuted_copy(LT_F64, 3, (int64_t[]){8, 32, 128}, (int[]){2, 1, 0}, -1);
  check_permuted_copy(LT_F64, 3, (int64_t[]){16, 32, 64}, (int[]){2, 1, 0}, -1);
  check_permuted_copy_into(LT_F32, 3, (int64_t[]){32, 64, 128}, (int[]){2, 1, 0}, -1, false, 3);
}
END_TEST

/* A single large transpose with few columns goes to two threads (past 16
 * MiB of work, see pool.c) by blocks of source rows, each thread reading
 * whole rows and writing part of every destination row: rows that end in
 * a part block, destinations on lines and off them, every element size;
 * and a batch of three transposes of 1000 rows each. */
START_TEST(large_narrow_transposes_split_by_rows_copy_every_element) {
  static const struct {
    lt_dtype dt;
    int64_t shape[2];
  } cases[] = {{LT_U8, {300001, 31}}, {LT_F16, {150001, 30}}, {LT_F32, {75001, 30}}, {LT_F64, {45001, 27}}};
  int threads = lt_get_num_threads();
  LT_ASSERT_OK(lt_set_num_threads(2));
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
    for (int64_t off = 0; off <= 3; off += 3)
      check_permuted_copy_into(cases[k].dt, 2, cases[k].shape, (int[]){1, 0}, -1, false, off);
  check_permuted_copy(LT_F32, 3, (int64_t[]){3, 1000, 2000}, (int[]){0, 2, 1}, -1);
  LT_ASSERT_OK(lt_set_num_threads(threads));
}
END_TEST

/* Over 8 MiB of output, a batch of small transposes whose outputs lie
 * back to back, their rows off lines ((0,1,3,2) of [B, H, T, D], T odd),
 * goes through a stage a slice at a time and out as one run (see
 * tiled_transpose.c): F32, F16 and U8 slices, a destination starting off
 * a line, a reversed dim among the outer ones, without memory for the
 * stage, and on two threads, each writing its own run. */
START_TEST(large_batches_of_small_transposes_into_rows_off_lines_copy_every_element) {
  const int perm[] = {0, 1, 3, 2};
  const int64_t f32[] = {32, 16, 77, 64};
  check_permuted_copy(LT_F32, 4, f32, perm, -1);
  check_permuted_copy_into(LT_F32, 4, f32, perm, -1, false, 3);
  check_permuted_copy(LT_F32, 4, f32, perm, 1);
  check_permuted_copy_as(LT_F32, 4, f32, perm, -1, true);
  check_permuted_copy(LT_F16, 4, (int64_t[]){64, 16, 77, 64}, perm, -1);
  check_permuted_copy(LT_U8, 4, (int64_t[]){128, 16, 77, 64}, perm, -1);
  int threads = lt_get_num_threads();
  LT_ASSERT_OK(lt_set_num_threads(2));
  check_permuted_copy_into(LT_F32, 4, f32, perm, -1, false, 5);
  LT_ASSERT_OK(lt_set_num_threads(threads));
}
END_TEST

/* Over 8 MiB of output, permutations that keep the inner dim stream its
 * runs; runs that do not fill whole lines, or a destination that starts
 * inside one, go in the destination's order with each line put together
 * whole: runs shorter than a line, a little over, and many lines long,
 * for every element size, a reversed dim, destinations starting on a
 * line and off it. */
START_TEST(large_permutations_keeping_runs_that_split_lines_copy_every_element) {
  static const struct {
    lt_dtype dt;
    int64_t shape[3];
    int reversed;
  } cases[] = {{LT_U8, {150, 151, 407}, -1},  {LT_U8, {1300, 1301, 5}, 0},  {LT_F16, {130, 131, 261}, 0},
               {LT_F32, {100, 101, 217}, 1},  {LT_F32, {700, 701, 5}, -1},  {LT_F32, {200, 201, 64}, -1},
               {LT_I64, {50, 51, 409}, 2},    {LT_I64, {300, 301, 3}, -1}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
    for (int64_t off = 0; off <= 3; off += 3)
      check_permuted_copy_into(cases[k].dt, 3, cases[k].shape, (int[]){1, 0, 2}, cases[k].reversed, false, off);
}
END_TEST

START_TEST(copy_into_a_zero_size_destination_does_nothing) {
  lt_tensor *src = lt_zeros(LT_F32, 1, (int64_t[]){3}, LT_HOST);
  lt_tensor *dst = lt_zeros(LT_F32, 2, (int64_t[]){0, 3}, LT_HOST);
  LT_ASSERT_OK(lt_copy(dst, src));
  ck_assert_int_eq(lt_numel(dst), 0);
  lt_release(dst);
  lt_release(src);
}
END_TEST

/* ---- lt_to_device ------------------------------------------------------------------- */

START_TEST(to_device_host_returns_the_same_tensor) {
  lt_tensor *a = lt_test_arange_f32(1, (int64_t[]){4});
  lt_stats_reset(LT_HOST);
  lt_tensor *h = lt_to_device(a, LT_HOST);
  ck_assert_ptr_eq(h, a);
  ck_assert_int_eq(stats_since_reset().copies, 0);
  lt_release(h);
  assert_read_f32(a, (float[]){0, 1, 2, 3}, 4);
  lt_release(a);
}
END_TEST

START_TEST(to_device_cuda_fails_with_device_error_when_unavailable) {
  lt_device cuda = {LT_CUDA, 0};
  lt_tensor *a = lt_test_arange_f32(1, (int64_t[]){4});
  if (lt_device_available(cuda)) {
    lt_tensor *d = lt_to_device(a, cuda);
    LT_ASSERT_OK_PTR(d);
    ck_assert_int_eq(lt_device_of(d).kind, LT_CUDA);
    assert_read_f32(d, (float[]){0, 1, 2, 3}, 4);
    lt_release(d);
  } else {
    LT_ASSERT_FAILS(lt_to_device(a, cuda), LT_ERR_DEVICE);
  }
  lt_release(a);
}
END_TEST

/* ---- the strided copy on every element size and layout --------------------------------
 * Each layout is a geometry over a caller buffer, wrapped with lt_wrap, so
 * the expected positions come from the layout's own definition: logical
 * index (i0..in) lives at buffer element first + sum(i_d * stride_d). */

typedef struct layout_case {
  const char *name;
  int ndim;
  int64_t shape[LT_MAX_DIMS];
  int64_t strides[LT_MAX_DIMS];
  int64_t first; /* buffer element of logical index (0,..,0) */
  int64_t nbuf;  /* buffer elements */
  bool writable; /* no two indices reach one element */
  bool contiguous;
} layout_case;

static layout_case cases[] = {
    {"scalar", 0, {0}, {0}, 3, 5, true, true},
    {"reversed_1d", 1, {5}, {-1}, 4, 5, true, false},
    {"step_3_with_offset", 1, {4}, {3}, 2, 12, true, false},
    {"transposed", 2, {3, 4}, {1, 3}, 0, 12, true, false},
    {"both_reversed", 2, {3, 4}, {-4, -1}, 11, 12, true, false},
    {"rows_reversed_inner_dense", 2, {17, 33}, {-33, 1}, 16 * 33, 17 * 33, true, false},
    {"large_transpose", 2, {33, 17}, {1, 33}, 0, 33 * 17, true, false},
    {"mixed_signs_3d", 3, {2, 3, 4}, {1, -8, 2}, 16, 24, true, false},
    {"contiguous_with_offset", 2, {2, 3}, {3, 1}, 5, 11, true, true},
    {"size_1_dims_odd_strides", 4, {4, 1, 1, 3}, {3, 100, 7, 1}, 0, 12, true, true},
    {"broadcast_rows", 2, {3, 4}, {0, 1}, 2, 6, false, false},
    {"broadcast_mixed", 3, {2, 3, 2}, {6, 0, -1}, 1, 8, false, false},
    {"zero_size", 3, {3, 0, 2}, {1, -5, 7}, 0, 1, true, true},
    {"sixteen_dims", 16, {0}, {0}, 0, 0, true, false},           /* filled by setup_cases */
    {"sixteen_dims_broadcast", 16, {0}, {0}, 0, 0, false, false}, /* filled by setup_cases */
};
#define NUM_CASES ((int)(sizeof cases / sizeof cases[0]))

/* 16 dims of size 1 or 2 (1024 elements): dim 0 varies fastest in memory
 * (column-major), with dims 2, 5 and 9 reversed; the broadcast variant
 * instead gives dims 3 and 8 stride 0. */
static void setup_cases(void) {
  static const int64_t shape[16] = {2, 1, 2, 2, 1, 2, 1, 1, 2, 2, 1, 2, 1, 2, 1, 2};
  for (int v = 0; v < 2; v++) {
    layout_case *c = &cases[NUM_CASES - 2 + v];
    int64_t s = 1, first = 0;
    for (int d = 0; d < 16; d++) {
      c->shape[d] = shape[d];
      bool bcast = v == 1 && (d == 3 || d == 8);
      bool reversed = d == 2 || d == 5 || d == 9;
      c->strides[d] = bcast ? 0 : reversed ? -s : s;
      if (reversed && !bcast) first += (shape[d] - 1) * s;
      if (!bcast) s *= shape[d];
    }
    c->first = first;
    c->nbuf = s;
  }
}

/* Dtypes of every element size: 1, 2, 4 and 8 bytes, integer and float. */
static const lt_dtype sized_dtypes[] = {LT_U8, LT_F16, LT_BF16, LT_I32, LT_F32, LT_I64, LT_F64};
#define NUM_SIZED ((int)(sizeof sized_dtypes / sizeof sized_dtypes[0]))

static size_t esize(lt_dtype dt) {
  switch (dt) {
  case LT_U8: return 1;
  case LT_F16: case LT_BF16: return 2;
  case LT_I32: case LT_F32: return 4;
  default: return 8;
  }
}

/* Distinct bits per element, masked so float patterns stay finite. */
static uint64_t element_bits(lt_dtype dt, int64_t k, uint64_t salt) {
  uint64_t h = ((uint64_t)k + 1) * 0x9E3779B97F4A7C15ull ^ (salt * 0xC2B2AE3D27D4EB4Full);
  h ^= h >> 29;
  switch (dt) {
  case LT_U8: return h & 0xFF;
  case LT_F16: return h & 0x3BFF;
  case LT_BF16: return h & 0x3F7F;
  case LT_I32: return h & 0xFFFFFFFFull;
  case LT_F32: return h & 0x3FFFFFFFull;
  case LT_F64: return h & 0x3FFFFFFFFFFFFFFFull;
  default: return h;
  }
}

static void fill(unsigned char *buf, int64_t n, lt_dtype dt, uint64_t salt) {
  size_t es = esize(dt);
  for (int64_t k = 0; k < n; k++) {
    uint64_t b = element_bits(dt, k, salt);
    memcpy(buf + (size_t)k * es, &b, es); /* little-endian: the low bytes */
  }
}

static int64_t case_numel(const layout_case *c) {
  int64_t n = 1;
  for (int d = 0; d < c->ndim; d++) n *= c->shape[d];
  return n;
}

/* Buffer element of each logical index, in row-major logical order. */
static void positions(const layout_case *c, int64_t *pos) {
  int64_t n = case_numel(c), idx[LT_MAX_DIMS] = {0};
  for (int64_t i = 0; i < n; i++) {
    int64_t p = c->first;
    for (int d = 0; d < c->ndim; d++) p += idx[d] * c->strides[d];
    pos[i] = p;
    for (int d = c->ndim - 1; d >= 0; d--) {
      if (++idx[d] < c->shape[d]) break;
      idx[d] = 0;
    }
  }
}

static void row_major(int ndim, const int64_t *shape, int64_t *strides) {
  int64_t s = 1;
  for (int d = ndim - 1; d >= 0; d--) {
    strides[d] = s;
    s *= shape[d] > 1 ? shape[d] : 1;
  }
}

typedef struct fixture {
  const layout_case *c;
  lt_dtype dt;
  size_t es;
  int64_t n;
  unsigned char *buf;  /* the wrapped memory, filled with salt 1 */
  unsigned char *want; /* the gathered elements in logical order */
  int64_t *pos;
  lt_tensor *view;
} fixture;

static void fixture_init(fixture *f, const layout_case *c, lt_dtype dt) {
  f->c = c;
  f->dt = dt;
  f->es = esize(dt);
  f->n = case_numel(c);
  f->buf = malloc((size_t)c->nbuf * f->es + 1);
  f->want = malloc((size_t)f->n * f->es + 1);
  f->pos = malloc(sizeof(int64_t) * (size_t)f->n + 1);
  fill(f->buf, c->nbuf, dt, 1);
  positions(c, f->pos);
  for (int64_t i = 0; i < f->n; i++) memcpy(f->want + i * f->es, f->buf + f->pos[i] * f->es, f->es);
  f->view = lt_wrap(f->buf + c->first * (int64_t)f->es, dt, c->ndim, c->shape, c->strides, LT_HOST, NULL, NULL);
  LT_ASSERT_OK_PTR(f->view);
}

static void fixture_free(fixture *f) {
  lt_release(f->view);
  free(f->pos);
  free(f->want);
  free(f->buf);
}

static void assert_elements(const fixture *f, const unsigned char *got, const unsigned char *want, const char *what) {
  for (int64_t i = 0; i < f->n; i++)
    ck_assert_msg(memcmp(got + i * f->es, want + i * f->es, f->es) == 0, "%s: layout %s, %s: element %lld differs",
                  what, f->c->name, lt_dtype_name(f->dt), (long long)i);
}

/* A fresh row-major result of the case's shape with offset 0. */
static void assert_row_major_result(const fixture *f, const lt_tensor *r, const char *what) {
  int64_t strides[LT_MAX_DIMS];
  row_major(f->c->ndim, f->c->shape, strides);
  LT_ASSERT_OK_PTR(r);
  LT_ASSERT_GEOMETRY(r, f->c->ndim, f->c->shape, strides, 0);
  ck_assert_int_eq(lt_dtype_of(r), f->dt);
  ck_assert_msg(!lt_shares_storage(r, f->view), "%s: layout %s shares storage", what, f->c->name);
  if (f->n > 0) assert_elements(f, lt_data(r), f->want, what);
}

START_TEST(read_gathers_every_layout_in_logical_order) {
  const layout_case *c = &cases[_i];
  for (int k = 0; k < NUM_SIZED; k++) {
    fixture f;
    fixture_init(&f, c, sized_dtypes[k]);
    unsigned char *got = malloc((size_t)f.n * f.es + 1);
    LT_ASSERT_OK(lt_read(f.view, got, (size_t)f.n * f.es));
    assert_elements(&f, got, f.want, "read");
    free(got);
    fixture_free(&f);
  }
}
END_TEST

START_TEST(contiguous_of_every_layout_is_itself_or_a_row_major_gather) {
  const layout_case *c = &cases[_i];
  for (int k = 0; k < NUM_SIZED; k++) {
    fixture f;
    fixture_init(&f, c, sized_dtypes[k]);
    ck_assert_msg(lt_is_contiguous(f.view) == c->contiguous, "layout %s", c->name);
    lt_tensor *r = lt_contiguous(f.view);
    if (c->contiguous) {
      ck_assert_ptr_eq(r, f.view);
    } else {
      assert_row_major_result(&f, r, "contiguous");
    }
    lt_release(r);
    fixture_free(&f);
  }
}
END_TEST

START_TEST(clone_of_every_layout_is_a_row_major_gather) {
  const layout_case *c = &cases[_i];
  for (int k = 0; k < NUM_SIZED; k++) {
    fixture f;
    fixture_init(&f, c, sized_dtypes[k]);
    lt_tensor *r = lt_clone(f.view);
    assert_row_major_result(&f, r, "clone");
    lt_release(r);
    fixture_free(&f);
  }
}
END_TEST

START_TEST(reshape_to_1_dim_of_every_layout_holds_the_gather) {
  const layout_case *c = &cases[_i];
  for (int k = 0; k < NUM_SIZED; k++) {
    fixture f;
    fixture_init(&f, c, sized_dtypes[k]);
    lt_tensor *r = lt_reshape(f.view, 1, (int64_t[]){-1});
    LT_ASSERT_OK_PTR(r);
    ck_assert_int_eq(lt_size(r, 0), f.n);
    unsigned char *got = malloc((size_t)f.n * f.es + 1);
    LT_ASSERT_OK(lt_read(r, got, (size_t)f.n * f.es));
    assert_elements(&f, got, f.want, "reshape");
    free(got);
    lt_release(r);
    fixture_free(&f);
  }
}
END_TEST

START_TEST(copy_from_every_layout_into_a_row_major_destination) {
  const layout_case *c = &cases[_i];
  for (int k = 0; k < NUM_SIZED; k++) {
    fixture f;
    fixture_init(&f, c, sized_dtypes[k]);
    lt_tensor *dst = lt_zeros(f.dt, c->ndim, c->shape, LT_HOST);
    LT_ASSERT_OK(lt_copy(dst, f.view));
    if (f.n > 0) assert_elements(&f, lt_data(dst), f.want, "copy from");
    lt_release(dst);
    fixture_free(&f);
  }
}
END_TEST

/* The source values (salt 2) land at the layout's positions in logical
 * order; buffer elements the layout does not reach keep their salt-1 bits. */
static void assert_scattered(const fixture *f, const unsigned char *src, const char *what) {
  unsigned char *expect = malloc((size_t)f->c->nbuf * f->es + 1);
  fill(expect, f->c->nbuf, f->dt, 1);
  for (int64_t i = 0; i < f->n; i++) memcpy(expect + f->pos[i] * f->es, src + i * f->es, f->es);
  for (int64_t p = 0; p < f->c->nbuf; p++)
    ck_assert_msg(memcmp(f->buf + p * f->es, expect + p * f->es, f->es) == 0,
                  "%s: layout %s, %s: buffer element %lld differs", what, f->c->name, lt_dtype_name(f->dt),
                  (long long)p);
  free(expect);
}

START_TEST(write_scatters_into_every_writable_layout) {
  const layout_case *c = &cases[_i];
  for (int k = 0; k < NUM_SIZED; k++) {
    fixture f;
    fixture_init(&f, c, sized_dtypes[k]);
    unsigned char *src = malloc((size_t)f.n * f.es + 1);
    fill(src, f.n, f.dt, 2);
    lt_status st = lt_write(f.view, src, (size_t)f.n * f.es);
    if (c->writable) {
      LT_ASSERT_OK(st);
      assert_scattered(&f, src, "write");
    } else {
      ck_assert_int_eq(st, LT_ERR_OVERLAP);
      assert_scattered(&f, f.want, "refused write"); /* unchanged */
    }
    free(src);
    fixture_free(&f);
  }
}
END_TEST

START_TEST(copy_scatters_into_every_writable_layout) {
  const layout_case *c = &cases[_i];
  for (int k = 0; k < NUM_SIZED; k++) {
    fixture f;
    fixture_init(&f, c, sized_dtypes[k]);
    unsigned char *bytes = malloc((size_t)f.n * f.es + 1);
    fill(bytes, f.n, f.dt, 2);
    lt_tensor *src = lt_from_data(bytes, f.dt, c->ndim, c->shape);
    LT_ASSERT_OK_PTR(src);
    lt_status st = lt_copy(f.view, src);
    if (c->writable) {
      LT_ASSERT_OK(st);
      assert_scattered(&f, bytes, "copy into");
    } else {
      ck_assert_int_eq(st, LT_ERR_OVERLAP);
    }
    lt_release(src);
    free(bytes);
    fixture_free(&f);
  }
}
END_TEST

START_TEST(copy_from_every_layout_into_a_fully_reversed_destination) {
  const layout_case *c = &cases[_i];
  for (int k = 0; k < NUM_SIZED; k++) {
    fixture f;
    fixture_init(&f, c, sized_dtypes[k]);
    /* Destination: row-major strides negated, so its first element is the
     * last of its buffer and logical element i sits at buffer n-1-i. */
    int64_t strides[LT_MAX_DIMS];
    row_major(c->ndim, c->shape, strides);
    for (int d = 0; d < c->ndim; d++) strides[d] = -strides[d];
    size_t bytes = (size_t)f.n * f.es;
    unsigned char *dbuf = calloc(1, bytes + 1);
    lt_tensor *dst = lt_wrap(f.n > 0 ? dbuf + bytes - f.es : dbuf, f.dt, c->ndim, c->shape, strides, LT_HOST,
                             NULL, NULL);
    LT_ASSERT_OK_PTR(dst);
    LT_ASSERT_OK(lt_copy(dst, f.view));
    for (int64_t i = 0; i < f.n; i++)
      ck_assert_msg(memcmp(dbuf + (f.n - 1 - i) * (int64_t)f.es, f.want + i * (int64_t)f.es, f.es) == 0,
                    "layout %s, %s: element %lld differs", c->name, lt_dtype_name(f.dt), (long long)i);
    lt_release(dst);
    free(dbuf);
    fixture_free(&f);
  }
}
END_TEST

/* Exact in f64: the element as its dtype's value (u8, i32 and finite f32). */
static double element_value(lt_dtype dt, const unsigned char *p) {
  switch (dt) {
  case LT_U8: return *p;
  case LT_I32: { int32_t v; memcpy(&v, p, 4); return v; }
  default: { float v; memcpy(&v, p, 4); return v; }
  }
}

START_TEST(copy_converts_from_every_layout_into_an_f64_destination) {
  static const lt_dtype exact_in_f64[] = {LT_U8, LT_I32, LT_F32};
  const layout_case *c = &cases[_i];
  for (int k = 0; k < 3; k++) {
    fixture f;
    fixture_init(&f, c, exact_in_f64[k]);
    lt_tensor *dst = lt_zeros(LT_F64, c->ndim, c->shape, LT_HOST);
    LT_ASSERT_OK(lt_copy(dst, f.view));
    const double *got = lt_data(dst);
    for (int64_t i = 0; i < f.n; i++)
      ck_assert_msg(got[i] == element_value(f.dt, f.want + i * (int64_t)f.es), "layout %s, %s: element %lld",
                    c->name, lt_dtype_name(f.dt), (long long)i);
    lt_release(dst);
    fixture_free(&f);
  }
}
END_TEST

START_TEST(copy_converts_an_f64_source_into_every_writable_layout) {
  static const lt_dtype targets[] = {LT_U8, LT_I32, LT_F32, LT_I64};
  const layout_case *c = &cases[_i];
  for (int k = 0; k < 4; k++) {
    fixture f;
    fixture_init(&f, c, targets[k]);
    double *vals = malloc(sizeof(double) * (size_t)f.n + 1);
    unsigned char *as_dt = malloc((size_t)f.n * f.es + 1);
    for (int64_t i = 0; i < f.n; i++) {
      int64_t v = (i * 7 + 3) % 200; /* exact in every target */
      vals[i] = (double)v;
      unsigned char *p = as_dt + i * (int64_t)f.es;
      if (f.dt == LT_U8) *p = (unsigned char)v;
      else if (f.dt == LT_I32) { int32_t x = (int32_t)v; memcpy(p, &x, 4); }
      else if (f.dt == LT_F32) { float x = (float)v; memcpy(p, &x, 4); }
      else memcpy(p, &v, 8);
    }
    lt_tensor *src = lt_from_data(vals, LT_F64, c->ndim, c->shape);
    LT_ASSERT_OK_PTR(src);
    lt_status st = lt_copy(f.view, src);
    if (c->writable) {
      LT_ASSERT_OK(st);
      assert_scattered(&f, as_dt, "converting copy into");
    } else {
      ck_assert_int_eq(st, LT_ERR_OVERLAP);
    }
    lt_release(src);
    free(as_dt);
    free(vals);
    fixture_free(&f);
  }
}
END_TEST

static void add_layout_tests(TCase *tc) {
  tcase_add_loop_test(tc, read_gathers_every_layout_in_logical_order, 0, NUM_CASES);
  tcase_add_loop_test(tc, contiguous_of_every_layout_is_itself_or_a_row_major_gather, 0, NUM_CASES);
  tcase_add_loop_test(tc, clone_of_every_layout_is_a_row_major_gather, 0, NUM_CASES);
  tcase_add_loop_test(tc, reshape_to_1_dim_of_every_layout_holds_the_gather, 0, NUM_CASES);
  tcase_add_loop_test(tc, copy_from_every_layout_into_a_row_major_destination, 0, NUM_CASES);
  tcase_add_loop_test(tc, write_scatters_into_every_writable_layout, 0, NUM_CASES);
  tcase_add_loop_test(tc, copy_scatters_into_every_writable_layout, 0, NUM_CASES);
  tcase_add_loop_test(tc, copy_from_every_layout_into_a_fully_reversed_destination, 0, NUM_CASES);
  tcase_add_loop_test(tc, copy_converts_from_every_layout_into_an_f64_destination, 0, NUM_CASES);
  tcase_add_loop_test(tc, copy_converts_an_f64_source_into_every_writable_layout, 0, NUM_CASES);
}

static Suite *suite(void) {
  Suite *s = suite_create("copy");
  TCase *cont = tcase_create("contiguous_clone");
  tcase_add_test(cont, contiguous_of_a_contiguous_tensor_returns_it_without_copying);
  tcase_add_test(cont, contiguous_keeps_odd_strides_of_size_1_dims);
  tcase_add_test(cont, contiguous_of_a_transposed_tensor_is_a_row_major_copy);
  tcase_add_test(cont, contiguous_of_an_offset_negative_step_view_starts_at_offset_0);
  tcase_add_test(cont, contiguous_of_an_expanded_tensor_materialises_every_element);
  tcase_add_test(cont, clone_of_a_contiguous_tensor_is_new_storage);
  tcase_add_test(cont, clone_of_a_strided_view_is_row_major_with_offset_0);
  tcase_add_test(cont, clone_of_a_0_dim_tensor_is_a_0_dim_copy);
  suite_add_tcase(s, cont);

  TCase *resh = tcase_create("reshape_flatten");
  tcase_add_test(resh, reshape_of_a_contiguous_tensor_is_a_view_without_a_copy);
  tcase_add_test(resh, reshape_of_a_strided_slice_is_a_view_keeping_the_offset);
  tcase_add_test(resh, reshape_that_needs_a_copy_returns_row_major_values_and_counts_it);
  tcase_add_test(resh, reshape_copy_counts_numel_times_element_size_bytes);
  tcase_add_test(resh, reshape_to_the_same_shape_is_a_view_even_when_not_contiguous);
  tcase_add_test(resh, reshape_of_an_expanded_scalar_stays_a_view_with_zero_strides);
  tcase_add_test(resh, reshape_of_an_expanded_row_that_cannot_view_copies_every_element);
  tcase_add_test(resh, reshape_with_a_numel_mismatch_fails_with_shape);
  tcase_add_test(resh, flatten_of_a_0_dim_tensor_gives_shape_1);
  tcase_add_test(resh, flatten_with_equal_start_and_end_keeps_the_geometry);
  tcase_add_test(resh, flatten_with_start_after_end_fails_with_arg);
  tcase_add_test(resh, flatten_of_contiguous_dims_is_a_view);
  tcase_add_test(resh, flatten_of_a_narrowed_tensor_views_the_contiguous_inner_dims);
  tcase_add_test(resh, flatten_that_needs_a_copy_returns_row_major_values_and_counts_it);
  suite_add_tcase(s, resh);

  TCase *pol = tcase_create("copy_policy");
  tcase_add_test(pol, set_copy_policy_returns_the_previous_policy);
  tcase_add_test(pol, reshape_under_forbid_fails_with_not_viewable_instead_of_copying);
  tcase_add_test(pol, flatten_under_forbid_fails_with_not_viewable_instead_of_copying);
  tcase_add_test(pol, reshape_under_forbid_still_returns_views);
  tcase_add_test(pol, explicit_copies_still_copy_under_forbid);
  suite_add_tcase(s, pol);

  TCase *cp = tcase_create("copy");
  tcase_add_test(cp, copy_broadcasts_a_row_across_the_destination_rows);
  tcase_add_test(cp, copy_broadcasts_a_column_across_the_destination_columns);
  tcase_add_test(cp, copy_broadcasts_a_0_dim_source_to_every_element);
  tcase_add_test(cp, copy_adds_new_leading_dims_to_the_source);
  tcase_add_test(cp, copy_reads_an_expanded_source_with_stride_0);
  tcase_add_test(cp, copy_into_a_transposed_destination_writes_its_strided_positions);
  tcase_add_test(cp, copy_into_a_negative_step_destination_reverses_the_source);
  tcase_add_test(cp, copy_converts_dtype_into_a_strided_destination);
  tcase_add_test(cp, copy_converts_with_broadcasting);
  tcase_add_test(cp, copy_rejects_a_source_that_does_not_broadcast);
  tcase_add_test(cp, copy_into_an_expanded_destination_fails_with_overlap);
  tcase_add_test(cp, copy_between_disjoint_interleaved_views_of_one_storage);
  tcase_add_test(cp, copy_between_overlapping_views_fails_with_overlap);
  tcase_add_test(cp, copy_of_a_tensor_onto_itself_leaves_it_unchanged);
  tcase_add_test(cp, copy_counts_one_explicit_copy_of_the_destination_bytes);
  tcase_add_test(cp, copy_into_a_zero_size_destination_does_nothing);
  tcase_add_test(cp, large_gathers_into_a_misaligned_destination_copy_every_element);
  tcase_add_test(cp, large_permutations_that_keep_the_inner_dim_copy_every_element);
  tcase_add_test(cp, large_permutations_that_read_a_few_streams_copy_every_element);
  tcase_add_test(cp, gathers_and_scatters_of_every_small_step_copy_every_element);
  tcase_add_test(cp, short_step_scatters_in_cache_copy_every_element_and_touch_nothing_else);
  tcase_add_test(cp, short_step_gathers_copy_every_element_and_read_nothing_past_the_last);
  tcase_add_test(cp, transposes_with_a_short_destination_inner_dim_copy_every_element);
  tcase_add_test(cp, transposes_of_a_few_interleaved_channels_copy_every_element);
  tcase_add_test(cp, permutations_of_short_runs_in_blocks_copy_every_element);
  tcase_add_test(cp, copies_of_dense_runs_of_every_length_write_each_run_and_nothing_beside_it);
  suite_add_tcase(s, cp);

  TCase *large = tcase_create("large");
  tcase_add_test(large, large_gathers_into_a_dense_destination_copy_every_element);
  tcase_add_test(large, large_scatters_into_a_stepped_destination_copy_every_element);
  tcase_add_test(large, large_transposes_with_a_short_destination_inner_dim_copy_every_element);
  tcase_add_test(large, large_transposes_in_bands_of_rows_copy_every_element);
  tcase_add_test(large, large_crops_with_gaps_copy_every_element);
  tcase_add_test(large, groups_whose_blocks_crowd_l2_sets_are_found);
  tcase_add_test(large, large_permutations_keeping_runs_that_split_lines_copy_every_element);
  tcase_add_test(large, large_batches_of_transposes_in_bands_copy_every_element);
  tcase_add_test(large, large_transposes_of_rows_on_few_l2_sets_copy_every_element);
  tcase_add_test(large, batches_of_transposes_side_by_side_copy_every_element);
  tcase_add_test(large, large_narrow_transposes_split_by_rows_copy_every_element);
  tcase_add_test(large, large_batches_of_small_transposes_into_rows_off_lines_copy_every_element);
  tcase_add_test(large, copies_of_a_few_mib_back_to_back_on_two_threads_copy_every_element);
  tcase_add_test(large, large_transposes_of_a_few_interleaved_channels_copy_every_element);
  tcase_add_test(large, large_planes_of_a_few_channels_copy_every_element);
  tcase_add_test(large, large_permutations_of_whole_line_runs_from_few_streams_copy_every_element);
  tcase_add_test(large, large_dense_spans_copy_every_element_and_nothing_beside_them);
  tcase_set_timeout(large, 120); /* under the sanitizers */
  suite_add_tcase(s, large);

  TCase *dev = tcase_create("to_device");
  tcase_add_test(dev, to_device_host_returns_the_same_tensor);
  tcase_add_test(dev, to_device_cuda_fails_with_device_error_when_unavailable);
  suite_add_tcase(s, dev);

  TCase *lay = tcase_create("strided_copy_layouts");
  add_layout_tests(lay);
  suite_add_tcase(s, lay);
  return s;
}

int main(void) {
  setup_cases();
  return lt_run_suite(suite());
}
