/* Specification of lt_stats on the host: bytes held and their peak,
 * storage allocations, and which operations count as copies. Every test
 * resets the counters first and compares differences, so the suite does
 * not depend on test order or on fork isolation. */
#include "support/check_helpers.h"

static lt_stats host_stats(void) {
  lt_stats s = lt_stats_get(LT_HOST);
  ck_assert_int_eq(lt_last_status(), LT_OK);
  return s;
}

/* Asserts the copy counters since the last reset. */
static void assert_copies(int64_t copies, int64_t implicit, int64_t bytes) {
  lt_stats s = host_stats();
  ck_assert_int_eq(s.copies, copies);
  ck_assert_int_eq(s.implicit_copies, implicit);
  ck_assert_int_eq(s.bytes_copied, bytes);
  ck_assert_int_eq(s.flops, 0);
}

/* A non-contiguous f32[4,6] (strides [1,4]) over a fresh f32[6,4] arange. */
static lt_tensor *transposed_6x4(lt_tensor **base) {
  *base = lt_test_arange_f32(2, (int64_t[]){6, 4});
  LT_ASSERT_OK_PTR(*base);
  lt_tensor *t = lt_transpose(*base, 0, 1);
  LT_ASSERT_OK_PTR(t);
  return t;
}

/* ---- bytes_in_use ------------------------------------------------------- */

START_TEST(empty_grows_bytes_in_use_by_numel_times_dtype_size) {
  lt_stats_reset(LT_HOST);
  int64_t before = host_stats().bytes_in_use;
  lt_tensor *a = lt_empty(LT_F32, 2, (int64_t[]){3, 5}, LT_HOST);
  LT_ASSERT_OK_PTR(a);
  ck_assert_int_eq(host_stats().bytes_in_use - before, 60);
  lt_tensor *b = lt_empty(LT_F16, 1, (int64_t[]){7}, LT_HOST);
  LT_ASSERT_OK_PTR(b);
  ck_assert_int_eq(host_stats().bytes_in_use - before, 74);
  lt_release(b);
  lt_release(a);
}
END_TEST

START_TEST(zeros_and_from_data_hold_numel_times_dtype_size) {
  lt_stats_reset(LT_HOST);
  int64_t before = host_stats().bytes_in_use;
  lt_tensor *z = lt_zeros(LT_F64, 1, (int64_t[]){4}, LT_HOST);
  LT_ASSERT_OK_PTR(z);
  ck_assert_int_eq(host_stats().bytes_in_use - before, 32);
  const int32_t src[6] = {1, 2, 3, 4, 5, 6};
  lt_tensor *d = lt_from_data(src, LT_I32, 2, (int64_t[]){2, 3});
  LT_ASSERT_OK_PTR(d);
  ck_assert_int_eq(host_stats().bytes_in_use - before, 56);
  lt_release(d);
  lt_release(z);
}
END_TEST

START_TEST(last_release_returns_the_storage_bytes) {
  lt_stats_reset(LT_HOST);
  int64_t before = host_stats().bytes_in_use;
  lt_tensor *a = lt_empty(LT_F32, 1, (int64_t[]){10}, LT_HOST);
  LT_ASSERT_OK_PTR(a);
  lt_release(a);
  ck_assert_int_eq(host_stats().bytes_in_use, before);
}
END_TEST

START_TEST(releasing_a_view_returns_no_bytes) {
  lt_stats_reset(LT_HOST);
  int64_t before = host_stats().bytes_in_use;
  lt_tensor *a = lt_empty(LT_F32, 2, (int64_t[]){4, 8}, LT_HOST);
  LT_ASSERT_OK_PTR(a);
  lt_tensor *v = lt_transpose(a, 0, 1);
  LT_ASSERT_OK_PTR(v);
  lt_release(v);
  ck_assert_int_eq(host_stats().bytes_in_use - before, 128);
  lt_release(a);
  ck_assert_int_eq(host_stats().bytes_in_use, before);
}
END_TEST

START_TEST(storage_outlives_its_base_while_a_view_holds_it) {
  lt_stats_reset(LT_HOST);
  int64_t before = host_stats().bytes_in_use;
  lt_tensor *a = lt_empty(LT_F32, 2, (int64_t[]){4, 8}, LT_HOST);
  LT_ASSERT_OK_PTR(a);
  lt_tensor *v = lt_select(a, 0, 2);
  LT_ASSERT_OK_PTR(v);
  lt_release(a);
  ck_assert_int_eq(host_stats().bytes_in_use - before, 128);
  lt_release(v);
  ck_assert_int_eq(host_stats().bytes_in_use, before);
}
END_TEST

START_TEST(views_allocate_nothing) {
  lt_tensor *a = lt_test_arange_f32(3, (int64_t[]){2, 3, 4});
  LT_ASSERT_OK_PTR(a);
  lt_stats_reset(LT_HOST);
  lt_stats before = host_stats();
  lt_tensor *views[] = {
      lt_view(a, 2, (int64_t[]){6, 4}),
      lt_slice(a, 2, LT_NONE, LT_NONE, -1),
      lt_select(a, 1, 1),
      lt_narrow(a, 2, 1, 2),
      lt_transpose(a, 0, 2),
      lt_permute(a, (int[]){2, 0, 1}),
      lt_movedim(a, 0, -1),
      lt_expand(a, 4, (int64_t[]){5, 2, 3, 4}),
      lt_unsqueeze(a, 1),
      lt_squeeze_all(a),
      lt_unflatten(a, 2, 2, (int64_t[]){2, 2}),
      lt_as_strided(a, 2, (int64_t[]){3, 3}, (int64_t[]){4, 1}, 1),
      lt_diagonal(a, 0, 1, 2),
  };
  int n = (int)(sizeof views / sizeof views[0]);
  for (int i = 0; i < n; i++) ck_assert_msg(views[i] != NULL, "view %d failed: %s", i, lt_last_error());
  lt_stats after = host_stats();
  ck_assert_int_eq(after.bytes_in_use, before.bytes_in_use);
  ck_assert_int_eq(after.allocs, 0);
  ck_assert_int_eq(after.copies, 0);
  ck_assert_int_eq(after.bytes_copied, 0);
  for (int i = 0; i < n; i++) lt_release(views[i]);
  lt_release(a);
}
END_TEST

/* ---- peak_bytes --------------------------------------------------------- */

START_TEST(peak_bytes_is_the_high_water_mark) {
  lt_stats_reset(LT_HOST);
  int64_t base = host_stats().bytes_in_use;
  lt_tensor *a = lt_empty(LT_U8, 1, (int64_t[]){400}, LT_HOST);
  lt_tensor *b = lt_empty(LT_U8, 1, (int64_t[]){800}, LT_HOST);
  LT_ASSERT_OK_PTR(a);
  LT_ASSERT_OK_PTR(b);
  lt_release(b);
  lt_tensor *c = lt_empty(LT_U8, 1, (int64_t[]){100}, LT_HOST);
  LT_ASSERT_OK_PTR(c);
  lt_stats s = host_stats();
  ck_assert_int_eq(s.bytes_in_use - base, 500);
  ck_assert_int_eq(s.peak_bytes - base, 1200);
  lt_release(c);
  lt_release(a);
  ck_assert_int_eq(host_stats().peak_bytes - base, 1200);
}
END_TEST

START_TEST(reset_sets_peak_bytes_to_bytes_in_use) {
  lt_stats_reset(LT_HOST);
  int64_t base = host_stats().bytes_in_use;
  lt_tensor *keep = lt_empty(LT_U8, 1, (int64_t[]){300}, LT_HOST);
  lt_tensor *gone = lt_empty(LT_U8, 1, (int64_t[]){700}, LT_HOST);
  LT_ASSERT_OK_PTR(keep);
  LT_ASSERT_OK_PTR(gone);
  lt_release(gone);
  ck_assert_int_eq(host_stats().peak_bytes - base, 1000);
  lt_stats_reset(LT_HOST);
  ck_assert_int_eq(lt_last_status(), LT_OK);
  lt_stats s = host_stats();
  ck_assert_int_eq(s.bytes_in_use - base, 300);
  ck_assert_int_eq(s.peak_bytes, s.bytes_in_use);
  lt_release(keep);
}
END_TEST

START_TEST(reset_zeroes_the_counters_but_not_bytes_in_use) {
  lt_tensor *base;
  lt_tensor *t = transposed_6x4(&base);
  lt_tensor *c = lt_contiguous(t);
  LT_ASSERT_OK_PTR(c);
  int64_t in_use = host_stats().bytes_in_use;
  lt_stats_reset(LT_HOST);
  lt_stats s = host_stats();
  ck_assert_int_eq(s.bytes_in_use, in_use);
  ck_assert_int_eq(s.allocs, 0);
  ck_assert_int_eq(s.copies, 0);
  ck_assert_int_eq(s.implicit_copies, 0);
  ck_assert_int_eq(s.bytes_copied, 0);
  ck_assert_int_eq(s.flops, 0);
  lt_release(c);
  lt_release(t);
  lt_release(base);
}
END_TEST

/* ---- allocs ------------------------------------------------------------- */

START_TEST(allocs_counts_one_per_storage_allocation) {
  lt_stats_reset(LT_HOST);
  const float src[2] = {1, 2};
  lt_tensor *a = lt_empty(LT_F32, 1, (int64_t[]){3}, LT_HOST);
  lt_tensor *b = lt_zeros(LT_I64, 2, (int64_t[]){2, 2}, LT_HOST);
  lt_tensor *c = lt_from_data(src, LT_F32, 1, (int64_t[]){2});
  LT_ASSERT_OK_PTR(a);
  LT_ASSERT_OK_PTR(b);
  LT_ASSERT_OK_PTR(c);
  ck_assert_int_eq(host_stats().allocs, 3);
  lt_release(c);
  lt_release(b);
  lt_release(a);
  ck_assert_int_eq(host_stats().allocs, 3);
}
END_TEST

START_TEST(allocs_does_not_count_handles_of_views_or_retains) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){3, 4});
  LT_ASSERT_OK_PTR(a);
  lt_stats_reset(LT_HOST);
  lt_tensor *v = lt_transpose(a, 0, 1);
  LT_ASSERT_OK_PTR(v);
  lt_tensor *r = lt_retain(a);
  lt_tensor *same = lt_contiguous(a);
  LT_ASSERT_OK_PTR(same);
  ck_assert_int_eq(host_stats().allocs, 0);
  lt_release(same);
  lt_release(r);
  lt_release(v);
  lt_release(a);
}
END_TEST

START_TEST(wrap_allocates_no_storage_and_holds_no_bytes) {
  float buf[12] = {0};
  lt_stats_reset(LT_HOST);
  int64_t before = host_stats().bytes_in_use;
  lt_tensor *w = lt_wrap(buf, LT_F32, 2, (int64_t[]){3, 4}, NULL, LT_HOST, NULL, NULL);
  LT_ASSERT_OK_PTR(w);
  lt_stats s = host_stats();
  ck_assert_int_eq(s.allocs, 0);
  ck_assert_int_eq(s.bytes_in_use, before);
  ck_assert_int_eq(s.peak_bytes, before);
  lt_release(w);
  ck_assert_int_eq(host_stats().bytes_in_use, before);
}
END_TEST

START_TEST(zero_byte_tensor_allocates_no_storage) {
  lt_stats_reset(LT_HOST);
  int64_t before = host_stats().bytes_in_use;
  lt_tensor *e = lt_empty(LT_F32, 2, (int64_t[]){0, 5}, LT_HOST);
  lt_tensor *z = lt_zeros(LT_F64, 1, (int64_t[]){0}, LT_HOST);
  LT_ASSERT_OK_PTR(e);
  LT_ASSERT_OK_PTR(z);
  lt_stats s = host_stats();
  ck_assert_int_eq(s.allocs, 0);
  ck_assert_int_eq(s.bytes_in_use, before);
  lt_release(z);
  lt_release(e);
  ck_assert_int_eq(host_stats().bytes_in_use, before);
}
END_TEST

/* ---- copies ------------------------------------------------------------- */

START_TEST(contiguous_of_a_non_contiguous_tensor_counts_one_explicit_copy) {
  lt_tensor *base;
  lt_tensor *t = transposed_6x4(&base);
  lt_stats_reset(LT_HOST);
  int64_t before = host_stats().bytes_in_use;
  lt_tensor *c = lt_contiguous(t);
  LT_ASSERT_OK_PTR(c);
  assert_copies(1, 0, 96);
  ck_assert_int_eq(host_stats().allocs, 1);
  ck_assert_int_eq(host_stats().bytes_in_use - before, 96);
  lt_release(c);
  lt_release(t);
  lt_release(base);
}
END_TEST

START_TEST(contiguous_of_a_contiguous_tensor_copies_nothing) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){6, 4});
  LT_ASSERT_OK_PTR(a);
  lt_stats_reset(LT_HOST);
  lt_tensor *c = lt_contiguous(a);
  LT_ASSERT_OK_PTR(c);
  assert_copies(0, 0, 0);
  ck_assert_int_eq(host_stats().allocs, 0);
  lt_release(c);
  lt_release(a);
}
END_TEST

START_TEST(clone_counts_one_explicit_copy_even_when_contiguous) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){6, 4});
  LT_ASSERT_OK_PTR(a);
  lt_stats_reset(LT_HOST);
  lt_tensor *c = lt_clone(a);
  LT_ASSERT_OK_PTR(c);
  assert_copies(1, 0, 96);
  ck_assert_int_eq(host_stats().allocs, 1);
  lt_release(c);
  lt_release(a);
}
END_TEST

START_TEST(copy_counts_the_bytes_written_into_dst) {
  lt_tensor *src = lt_test_arange_f32(1, (int64_t[]){4});
  lt_tensor *dst = lt_empty(LT_F32, 2, (int64_t[]){3, 4}, LT_HOST);
  LT_ASSERT_OK_PTR(src);
  LT_ASSERT_OK_PTR(dst);
  lt_stats_reset(LT_HOST);
  LT_ASSERT_OK(lt_copy(dst, src));
  assert_copies(1, 0, 48);
  ck_assert_int_eq(host_stats().allocs, 0);
  lt_release(dst);
  lt_release(src);
}
END_TEST

START_TEST(copy_converting_dtype_counts_bytes_of_dst_dtype) {
  lt_tensor *src = lt_test_arange_f32(1, (int64_t[]){8});
  lt_tensor *dst = lt_empty(LT_F16, 1, (int64_t[]){8}, LT_HOST);
  LT_ASSERT_OK_PTR(src);
  LT_ASSERT_OK_PTR(dst);
  lt_stats_reset(LT_HOST);
  LT_ASSERT_OK(lt_copy(dst, src));
  assert_copies(1, 0, 16);
  lt_release(dst);
  lt_release(src);
}
END_TEST

START_TEST(failed_copy_counts_nothing) {
  lt_tensor *src = lt_test_arange_f32(1, (int64_t[]){5});
  lt_tensor *dst = lt_empty(LT_F32, 2, (int64_t[]){3, 4}, LT_HOST);
  LT_ASSERT_OK_PTR(src);
  LT_ASSERT_OK_PTR(dst);
  lt_stats_reset(LT_HOST);
  LT_ASSERT_STATUS(lt_copy(dst, src), LT_ERR_SHAPE);
  assert_copies(0, 0, 0);
  lt_release(dst);
  lt_release(src);
}
END_TEST

START_TEST(cast_counts_one_explicit_copy_of_the_target_bytes) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){2, 3});
  LT_ASSERT_OK_PTR(a);
  lt_stats_reset(LT_HOST);
  int64_t before = host_stats().bytes_in_use;
  lt_tensor *h = lt_cast(a, LT_F16, LT_CAST_DEFAULT);
  LT_ASSERT_OK_PTR(h);
  assert_copies(1, 0, 12);
  ck_assert_int_eq(host_stats().allocs, 1);
  ck_assert_int_eq(host_stats().bytes_in_use - before, 12);
  lt_release(h);
  lt_release(a);
}
END_TEST

START_TEST(cast_to_the_same_dtype_still_counts_a_copy) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){2, 3});
  LT_ASSERT_OK_PTR(a);
  lt_stats_reset(LT_HOST);
  lt_tensor *c = lt_to(a, LT_F32);
  LT_ASSERT_OK_PTR(c);
  assert_copies(1, 0, 24);
  lt_release(c);
  lt_release(a);
}
END_TEST

START_TEST(reshape_fallback_counts_one_implicit_copy) {
  lt_tensor *base;
  lt_tensor *t = transposed_6x4(&base);
  lt_stats_reset(LT_HOST);
  lt_tensor *r = lt_reshape(t, 1, (int64_t[]){24});
  LT_ASSERT_OK_PTR(r);
  ck_assert(!lt_shares_storage(r, t));
  assert_copies(1, 1, 96);
  ck_assert_int_eq(host_stats().allocs, 1);
  lt_release(r);
  lt_release(t);
  lt_release(base);
}
END_TEST

START_TEST(reshape_that_views_counts_nothing) {
  lt_tensor *base;
  lt_tensor *t = transposed_6x4(&base);
  lt_stats_reset(LT_HOST);
  lt_tensor *r1 = lt_reshape(base, 3, (int64_t[]){2, 3, 4});
  lt_tensor *r2 = lt_reshape(t, 3, (int64_t[]){2, 2, 6});
  LT_ASSERT_OK_PTR(r1);
  LT_ASSERT_OK_PTR(r2);
  ck_assert(lt_shares_storage(r2, base));
  assert_copies(0, 0, 0);
  ck_assert_int_eq(host_stats().allocs, 0);
  lt_release(r2);
  lt_release(r1);
  lt_release(t);
  lt_release(base);
}
END_TEST

START_TEST(flatten_fallback_counts_one_implicit_copy) {
  lt_tensor *base;
  lt_tensor *t = transposed_6x4(&base);
  lt_stats_reset(LT_HOST);
  lt_tensor *f = lt_flatten(t, 0, -1);
  LT_ASSERT_OK_PTR(f);
  ck_assert(!lt_shares_storage(f, t));
  assert_copies(1, 1, 96);
  ck_assert_int_eq(host_stats().allocs, 1);
  lt_release(f);
  lt_release(t);
  lt_release(base);
}
END_TEST

START_TEST(flatten_that_views_counts_nothing) {
  lt_tensor *a = lt_test_arange_f32(3, (int64_t[]){2, 3, 4});
  LT_ASSERT_OK_PTR(a);
  lt_stats_reset(LT_HOST);
  lt_tensor *f = lt_flatten(a, 0, -1);
  LT_ASSERT_OK_PTR(f);
  ck_assert(lt_shares_storage(f, a));
  assert_copies(0, 0, 0);
  ck_assert_int_eq(host_stats().allocs, 0);
  lt_release(f);
  lt_release(a);
}
END_TEST

START_TEST(forbidden_reshape_counts_nothing) {
  lt_tensor *base;
  lt_tensor *t = transposed_6x4(&base);
  lt_stats_reset(LT_HOST);
  lt_copy_policy old = lt_set_copy_policy(LT_COPY_FORBID);
  lt_tensor *r = lt_reshape(t, 1, (int64_t[]){24});
  lt_set_copy_policy(old);
  LT_ASSERT_FAILS(r, LT_ERR_NOT_VIEWABLE);
  assert_copies(0, 0, 0);
  ck_assert_int_eq(host_stats().allocs, 0);
  lt_release(t);
  lt_release(base);
}
END_TEST

START_TEST(implicit_and_explicit_copies_add_up) {
  lt_tensor *base;
  lt_tensor *t = transposed_6x4(&base);
  lt_stats_reset(LT_HOST);
  lt_tensor *c = lt_clone(t);
  lt_tensor *r = lt_reshape(t, 1, (int64_t[]){24});
  lt_tensor *f = lt_flatten(t, 0, 1);
  lt_tensor *h = lt_cast(t, LT_BF16, LT_CAST_DEFAULT);
  LT_ASSERT_OK_PTR(c);
  LT_ASSERT_OK_PTR(r);
  LT_ASSERT_OK_PTR(f);
  LT_ASSERT_OK_PTR(h);
  assert_copies(4, 2, 96 + 96 + 96 + 48);
  lt_release(h);
  lt_release(f);
  lt_release(r);
  lt_release(c);
  lt_release(t);
  lt_release(base);
}
END_TEST

START_TEST(read_and_write_are_not_copies) {
  lt_tensor *base;
  lt_tensor *t = transposed_6x4(&base);
  float buf[24];
  lt_stats_reset(LT_HOST);
  LT_ASSERT_OK(lt_read(t, buf, sizeof buf));
  LT_ASSERT_OK(lt_write(t, buf, sizeof buf));
  assert_copies(0, 0, 0);
  ck_assert_int_eq(host_stats().allocs, 0);
  ck_assert_float_eq(buf[1], 4.0f);
  lt_release(t);
  lt_release(base);
}
END_TEST

/* ---- devices ------------------------------------------------------------ */

static void assert_all_zero(lt_stats s) {
  ck_assert_int_eq(s.bytes_in_use, 0);
  ck_assert_int_eq(s.peak_bytes, 0);
  ck_assert_int_eq(s.allocs, 0);
  ck_assert_int_eq(s.copies, 0);
  ck_assert_int_eq(s.implicit_copies, 0);
  ck_assert_int_eq(s.bytes_copied, 0);
  ck_assert_int_eq(s.flops, 0);
}

START_TEST(unknown_cuda_index_gives_zeros_and_a_device_error) {
  lt_tensor *keep = lt_empty(LT_F32, 1, (int64_t[]){16}, LT_HOST);
  LT_ASSERT_OK_PTR(keep);
  assert_all_zero(lt_stats_get((lt_device){LT_CUDA, 99}));
  ck_assert_int_eq(lt_last_status(), LT_ERR_DEVICE);
  ck_assert_str_ne(lt_last_error(), "");
  lt_release(keep);
}
END_TEST

START_TEST(unknown_device_kind_gives_zeros_and_a_device_error) {
  lt_tensor *keep = lt_empty(LT_F32, 1, (int64_t[]){16}, LT_HOST);
  LT_ASSERT_OK_PTR(keep);
  assert_all_zero(lt_stats_get((lt_device){(lt_device_kind)5, 0}));
  ck_assert_int_eq(lt_last_status(), LT_ERR_DEVICE);
  ck_assert_str_ne(lt_last_error(), "");
  lt_release(keep);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("stats");
  TCase *bytes = tcase_create("bytes");
  tcase_add_test(bytes, empty_grows_bytes_in_use_by_numel_times_dtype_size);
  tcase_add_test(bytes, zeros_and_from_data_hold_numel_times_dtype_size);
  tcase_add_test(bytes, last_release_returns_the_storage_bytes);
  tcase_add_test(bytes, releasing_a_view_returns_no_bytes);
  tcase_add_test(bytes, storage_outlives_its_base_while_a_view_holds_it);
  tcase_add_test(bytes, views_allocate_nothing);
  tcase_add_test(bytes, peak_bytes_is_the_high_water_mark);
  tcase_add_test(bytes, reset_sets_peak_bytes_to_bytes_in_use);
  tcase_add_test(bytes, reset_zeroes_the_counters_but_not_bytes_in_use);
  suite_add_tcase(s, bytes);

  TCase *allocs = tcase_create("allocs");
  tcase_add_test(allocs, allocs_counts_one_per_storage_allocation);
  tcase_add_test(allocs, allocs_does_not_count_handles_of_views_or_retains);
  tcase_add_test(allocs, wrap_allocates_no_storage_and_holds_no_bytes);
  tcase_add_test(allocs, zero_byte_tensor_allocates_no_storage);
  suite_add_tcase(s, allocs);

  TCase *copies = tcase_create("copies");
  tcase_add_test(copies, contiguous_of_a_non_contiguous_tensor_counts_one_explicit_copy);
  tcase_add_test(copies, contiguous_of_a_contiguous_tensor_copies_nothing);
  tcase_add_test(copies, clone_counts_one_explicit_copy_even_when_contiguous);
  tcase_add_test(copies, copy_counts_the_bytes_written_into_dst);
  tcase_add_test(copies, copy_converting_dtype_counts_bytes_of_dst_dtype);
  tcase_add_test(copies, failed_copy_counts_nothing);
  tcase_add_test(copies, cast_counts_one_explicit_copy_of_the_target_bytes);
  tcase_add_test(copies, cast_to_the_same_dtype_still_counts_a_copy);
  tcase_add_test(copies, reshape_fallback_counts_one_implicit_copy);
  tcase_add_test(copies, reshape_that_views_counts_nothing);
  tcase_add_test(copies, flatten_fallback_counts_one_implicit_copy);
  tcase_add_test(copies, flatten_that_views_counts_nothing);
  tcase_add_test(copies, forbidden_reshape_counts_nothing);
  tcase_add_test(copies, implicit_and_explicit_copies_add_up);
  tcase_add_test(copies, read_and_write_are_not_copies);
  suite_add_tcase(s, copies);

  TCase *devices = tcase_create("devices");
  tcase_add_test(devices, unknown_cuda_index_gives_zeros_and_a_device_error);
  tcase_add_test(devices, unknown_device_kind_gives_zeros_and_a_device_error);
  suite_add_tcase(s, devices);
  return s;
}

int main(void) { return lt_run_suite(suite()); }
