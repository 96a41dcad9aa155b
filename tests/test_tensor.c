/* Specification of the tensor handle: creation for every dtype and rank,
 * lt_wrap over caller memory (strides, deleter), reference counting,
 * introspection, contiguity, lt_describe, lt_read/lt_write through views,
 * and the storage accounting of lt_stats. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "support/check_helpers.h"

static const lt_dtype all_dtypes[] = {LT_F32, LT_F16, LT_BF16, LT_F8_E4M3, LT_F8_E5M2,
                                      LT_F64, LT_I32, LT_I64,  LT_U8,      LT_BOOL};
static const size_t all_sizes[] = {4, 2, 2, 1, 1, 8, 4, 8, 1, 1};
#define NUM_DTYPES ((int)(sizeof all_dtypes / sizeof all_dtypes[0]))

/* Row-major strides by the definition: stride[last] = 1, stride[d] =
 * stride[d+1] * max(size[d+1], 1). */
static void row_major(int ndim, const int64_t *shape, int64_t *strides) {
  int64_t s = 1;
  for (int d = ndim - 1; d >= 0; d--) {
    strides[d] = s;
    s *= shape[d] > 1 ? shape[d] : 1;
  }
}

static int64_t product(int ndim, const int64_t *shape) {
  int64_t n = 1;
  for (int d = 0; d < ndim; d++) n *= shape[d];
  return n;
}

static void assert_host(const lt_tensor *t) {
  lt_device dev = lt_device_of(t);
  ck_assert_int_eq(dev.kind, LT_CPU);
  ck_assert_int_eq(dev.index, 0);
}

static void assert_read_f32(const lt_tensor *t, const float *want, int64_t n) {
  float got[64];
  ck_assert_int_le(n, 64);
  ck_assert_int_eq(lt_numel(t), n);
  LT_ASSERT_OK(lt_read(t, got, (size_t)n * sizeof(float)));
  for (int64_t i = 0; i < n; i++)
    ck_assert_msg(got[i] == want[i], "element %lld: got %g, want %g", (long long)i, got[i], want[i]);
}

static void assert_describe(const lt_tensor *t, const char *want) {
  char buf[256];
  int n = lt_describe(t, buf, sizeof buf);
  ck_assert_str_eq(buf, want);
  ck_assert_int_eq(n, (int)strlen(want));
}

/* A deleter that counts its calls in *ctx. */
static void count_deleter(void *ctx) { (*(int *)ctx)++; }

/* ---- creation -------------------------------------------------------------- */

START_TEST(empty_every_dtype_has_row_major_geometry_and_metadata) {
  const int64_t shape[] = {2, 3, 4};
  for (int k = 0; k < NUM_DTYPES; k++) {
    lt_tensor *t = lt_empty(all_dtypes[k], 3, shape, LT_HOST);
    LT_ASSERT_OK_PTR(t);
    LT_ASSERT_GEOMETRY(t, 3, shape, ((int64_t[]){12, 4, 1}), 0);
    ck_assert_int_eq(lt_numel(t), 24);
    ck_assert_int_eq(lt_dtype_of(t), all_dtypes[k]);
    assert_host(t);
    ck_assert_ptr_nonnull(lt_data(t));
    ck_assert(lt_is_contiguous(t));
    lt_release(t);
  }
}
END_TEST

START_TEST(zeros_every_dtype_holds_zero_bytes) {
  const int64_t shape[] = {3, 5};
  for (int k = 0; k < NUM_DTYPES; k++) {
    lt_tensor *t = lt_zeros(all_dtypes[k], 2, shape, LT_HOST);
    LT_ASSERT_OK_PTR(t);
    LT_ASSERT_GEOMETRY(t, 2, shape, ((int64_t[]){5, 1}), 0);
    ck_assert_int_eq(lt_dtype_of(t), all_dtypes[k]);
    assert_host(t);
    unsigned char got[15 * 8];
    memset(got, 0xAB, sizeof got);
    size_t nbytes = 15 * all_sizes[k];
    LT_ASSERT_OK(lt_read(t, got, nbytes));
    for (size_t i = 0; i < nbytes; i++) ck_assert_msg(got[i] == 0, "%s byte %zu is %u", lt_dtype_name(all_dtypes[k]), i, got[i]);
    lt_release(t);
  }
}
END_TEST

START_TEST(from_data_every_dtype_copies_the_bytes) {
  const int64_t shape[] = {2, 3};
  for (int k = 0; k < NUM_DTYPES; k++) {
    unsigned char src[6 * 8], got[6 * 8];
    size_t nbytes = 6 * all_sizes[k];
    /* Bytes 0 and 1 only, so the bytes are a valid value of every dtype
     * (bool included). */
    for (size_t i = 0; i < nbytes; i++) src[i] = (unsigned char)(i % 3 == 1);
    lt_tensor *t = lt_from_data(src, all_dtypes[k], 2, shape);
    LT_ASSERT_OK_PTR(t);
    LT_ASSERT_GEOMETRY(t, 2, shape, ((int64_t[]){3, 1}), 0);
    ck_assert_int_eq(lt_dtype_of(t), all_dtypes[k]);
    assert_host(t);
    ck_assert_ptr_ne(lt_data(t), src);
    ck_assert_int_eq(memcmp(lt_data(t), src, nbytes), 0);
    unsigned char keep[6 * 8];
    memcpy(keep, src, nbytes);
    memset(src, 0x55, sizeof src); /* the tensor owns a copy */
    LT_ASSERT_OK(lt_read(t, got, nbytes));
    ck_assert_int_eq(memcmp(got, keep, nbytes), 0);
    lt_release(t);
  }
}
END_TEST

START_TEST(every_rank_from_0_to_max_dims_has_row_major_strides) {
  for (int k = 0; k < NUM_DTYPES; k++) {
    for (int r = 0; r <= LT_MAX_DIMS; r++) {
      int64_t shape[LT_MAX_DIMS], strides[LT_MAX_DIMS];
      for (int d = 0; d < r; d++) shape[d] = d % 3 + 1; /* 1,2,3,1,2,3,... */
      row_major(r, shape, strides);
      lt_tensor *ts[3] = {lt_empty(all_dtypes[k], r, shape, LT_HOST), lt_zeros(all_dtypes[k], r, shape, LT_HOST),
                          NULL};
      static unsigned char zeros[7776 * 8];
      ts[2] = lt_from_data(zeros, all_dtypes[k], r, shape);
      for (int i = 0; i < 3; i++) {
        LT_ASSERT_OK_PTR(ts[i]);
        LT_ASSERT_GEOMETRY(ts[i], r, shape, strides, 0);
        ck_assert_int_eq(lt_numel(ts[i]), product(r, shape));
        ck_assert_int_eq(lt_dtype_of(ts[i]), all_dtypes[k]);
        assert_host(ts[i]);
        ck_assert_ptr_nonnull(lt_data(ts[i]));
        ck_assert(lt_is_contiguous(ts[i]));
        lt_release(ts[i]);
      }
    }
  }
}
END_TEST

START_TEST(zero_dim_tensor_has_one_element_and_no_shape) {
  lt_tensor *t = lt_empty(LT_F64, 0, NULL, LT_HOST);
  LT_ASSERT_OK_PTR(t);
  ck_assert_int_eq(lt_ndim(t), 0);
  ck_assert_int_eq(lt_numel(t), 1);
  ck_assert_int_eq(lt_offset(t), 0);
  ck_assert_ptr_nonnull(lt_data(t));
  ck_assert(lt_is_contiguous(t));
  double v = 2.5, got = 0;
  LT_ASSERT_OK(lt_write(t, &v, sizeof v));
  LT_ASSERT_OK(lt_read(t, &got, sizeof got));
  ck_assert(got == 2.5);
  lt_release(t);
}
END_TEST

START_TEST(zero_size_dims_use_the_max_size_1_stride_rule) {
  static const struct {
    int ndim;
    int64_t shape[4], strides[4];
  } cases[] = {
      {1, {0}, {1}},
      {2, {3, 0}, {1, 1}},
      {2, {0, 3}, {3, 1}},
      {3, {2, 0, 3}, {3, 3, 1}},
      {4, {0, 2, 0, 5}, {10, 5, 5, 1}},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    for (int k = 0; k < NUM_DTYPES; k++) {
      lt_tensor *ts[3] = {lt_empty(all_dtypes[k], cases[c].ndim, cases[c].shape, LT_HOST),
                          lt_zeros(all_dtypes[k], cases[c].ndim, cases[c].shape, LT_HOST),
                          lt_from_data(NULL, all_dtypes[k], cases[c].ndim, cases[c].shape)};
      for (int i = 0; i < 3; i++) {
        LT_ASSERT_OK_PTR(ts[i]);
        LT_ASSERT_GEOMETRY(ts[i], cases[c].ndim, cases[c].shape, cases[c].strides, 0);
        ck_assert_int_eq(lt_numel(ts[i]), 0);
        ck_assert_int_eq(lt_dtype_of(ts[i]), all_dtypes[k]);
        ck_assert(lt_is_contiguous(ts[i]));
        LT_ASSERT_OK(lt_read(ts[i], NULL, 0));
        lt_release(ts[i]);
      }
    }
  }
}
END_TEST

START_TEST(creation_rejects_bad_ndim_negative_sizes_and_bad_dtype) {
  int64_t shape[LT_MAX_DIMS + 1];
  for (int d = 0; d <= LT_MAX_DIMS; d++) shape[d] = 1;
  LT_ASSERT_FAILS(lt_empty(LT_F32, LT_MAX_DIMS + 1, shape, LT_HOST), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_zeros(LT_F32, -1, shape, LT_HOST), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_empty(LT_F32, 2, ((int64_t[]){2, -1}), LT_HOST), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_empty(LT_F32, 2, NULL, LT_HOST), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_empty((lt_dtype)LT_NUM_DTYPES, 1, shape, LT_HOST), LT_ERR_ARG);
}
END_TEST

START_TEST(from_data_with_null_data_for_elements_fails_with_arg) {
  LT_ASSERT_FAILS(lt_from_data(NULL, LT_F32, 1, ((int64_t[]){2})), LT_ERR_ARG);
}
END_TEST

/* ---- lt_wrap ----------------------------------------------------------------- */

START_TEST(wrap_with_null_strides_is_row_major_over_the_caller_buffer) {
  float buf[6] = {0, 1, 2, 3, 4, 5};
  lt_tensor *t = lt_wrap(buf, LT_F32, 2, ((int64_t[]){2, 3}), NULL, LT_HOST, NULL, NULL);
  LT_ASSERT_OK_PTR(t);
  LT_ASSERT_GEOMETRY(t, 2, ((int64_t[]){2, 3}), ((int64_t[]){3, 1}), 0);
  ck_assert_ptr_eq(lt_data(t), buf);
  assert_host(t);
  buf[4] = 40; /* zero-copy: the tensor sees the caller's writes */
  assert_read_f32(t, (float[]){0, 1, 2, 3, 40, 5}, 6);
  LT_ASSERT_OK(lt_write(t, (float[]){9, 8, 7, 6, 5, 4}, 6 * sizeof(float)));
  ck_assert(buf[0] == 9 && buf[5] == 4);
  lt_release(t);
}
END_TEST

START_TEST(wrap_with_explicit_column_major_strides_reads_in_logical_order) {
  /* A 2x3 matrix stored column-major: element (i,j) at buf[i + 2j]. */
  float buf[6] = {0, 3, 1, 4, 2, 5};
  lt_tensor *t = lt_wrap(buf, LT_F32, 2, ((int64_t[]){2, 3}), ((int64_t[]){1, 2}), LT_HOST, NULL, NULL);
  LT_ASSERT_OK_PTR(t);
  LT_ASSERT_GEOMETRY(t, 2, ((int64_t[]){2, 3}), ((int64_t[]){1, 2}), 0);
  ck_assert(!lt_is_contiguous(t));
  ck_assert_ptr_eq(lt_data(t), buf);
  assert_read_f32(t, (float[]){0, 1, 2, 3, 4, 5}, 6);
  lt_release(t);
}
END_TEST

START_TEST(wrap_with_negative_stride_starts_at_data_and_offsets_the_storage) {
  float buf[5] = {0, 1, 2, 3, 4};
  /* data is the first element; the storage starts at the lowest element
   * reached (buf), so the offset is 4. */
  lt_tensor *t = lt_wrap(&buf[4], LT_F32, 1, ((int64_t[]){5}), ((int64_t[]){-1}), LT_HOST, NULL, NULL);
  LT_ASSERT_OK_PTR(t);
  LT_ASSERT_GEOMETRY(t, 1, ((int64_t[]){5}), ((int64_t[]){-1}), 4);
  ck_assert_ptr_eq(lt_data(t), &buf[4]);
  ck_assert(!lt_is_contiguous(t));
  assert_read_f32(t, (float[]){4, 3, 2, 1, 0}, 5);
  lt_release(t);
}
END_TEST

START_TEST(wrap_with_negative_row_stride_reads_rows_bottom_up) {
  float buf[6] = {0, 1, 2, 3, 4, 5};
  lt_tensor *t = lt_wrap(&buf[3], LT_F32, 2, ((int64_t[]){2, 3}), ((int64_t[]){-3, 1}), LT_HOST, NULL, NULL);
  LT_ASSERT_OK_PTR(t);
  LT_ASSERT_GEOMETRY(t, 2, ((int64_t[]){2, 3}), ((int64_t[]){-3, 1}), 3);
  ck_assert_ptr_eq(lt_data(t), &buf[3]);
  assert_read_f32(t, (float[]){3, 4, 5, 0, 1, 2}, 6);
  lt_release(t);
}
END_TEST

START_TEST(wrap_with_mixed_sign_strides_writes_to_the_reached_elements) {
  float buf[6] = {0};
  /* element (i,j) at buf[2 + 3i - j] */
  lt_tensor *t = lt_wrap(&buf[2], LT_F32, 2, ((int64_t[]){2, 3}), ((int64_t[]){3, -1}), LT_HOST, NULL, NULL);
  LT_ASSERT_OK_PTR(t);
  LT_ASSERT_GEOMETRY(t, 2, ((int64_t[]){2, 3}), ((int64_t[]){3, -1}), 2);
  LT_ASSERT_OK(lt_write(t, (float[]){10, 11, 12, 13, 14, 15}, 6 * sizeof(float)));
  const float want[6] = {12, 11, 10, 15, 14, 13};
  for (int i = 0; i < 6; i++) ck_assert(buf[i] == want[i]);
  assert_read_f32(t, (float[]){10, 11, 12, 13, 14, 15}, 6);
  lt_release(t);
}
END_TEST

START_TEST(wrap_with_stride_zero_repeats_one_element_and_refuses_writes) {
  float buf[1] = {7};
  lt_tensor *t = lt_wrap(buf, LT_F32, 2, ((int64_t[]){3, 2}), ((int64_t[]){0, 0}), LT_HOST, NULL, NULL);
  LT_ASSERT_OK_PTR(t);
  LT_ASSERT_GEOMETRY(t, 2, ((int64_t[]){3, 2}), ((int64_t[]){0, 0}), 0);
  ck_assert(!lt_is_contiguous(t));
  assert_read_f32(t, (float[]){7, 7, 7, 7, 7, 7}, 6);
  LT_ASSERT_STATUS(lt_write(t, (float[]){1, 2, 3, 4, 5, 6}, 6 * sizeof(float)), LT_ERR_OVERLAP);
  ck_assert(buf[0] == 7);
  lt_release(t);
}
END_TEST

START_TEST(wrap_of_zero_elements_accepts_null_data) {
  int calls = 0;
  lt_tensor *t = lt_wrap(NULL, LT_I32, 2, ((int64_t[]){0, 4}), NULL, LT_HOST, count_deleter, &calls);
  LT_ASSERT_OK_PTR(t);
  LT_ASSERT_GEOMETRY(t, 2, ((int64_t[]){0, 4}), ((int64_t[]){4, 1}), 0);
  ck_assert_int_eq(lt_numel(t), 0);
  lt_release(t);
  ck_assert_int_eq(calls, 1);
}
END_TEST

START_TEST(wrap_deleter_runs_once_when_the_last_view_goes) {
  int calls = 0;
  float buf[12] = {0};
  lt_tensor *t = lt_wrap(buf, LT_F32, 2, ((int64_t[]){3, 4}), NULL, LT_HOST, count_deleter, &calls);
  LT_ASSERT_OK_PTR(t);
  lt_tensor *tr = lt_transpose(t, 0, 1);
  lt_tensor *row = lt_select(t, 0, 1);
  lt_tensor *rev = lt_slice(tr, 0, LT_NONE, LT_NONE, -1);
  LT_ASSERT_OK_PTR(tr);
  LT_ASSERT_OK_PTR(row);
  LT_ASSERT_OK_PTR(rev);
  ck_assert(lt_retain(row) == row);
  lt_release(t);
  lt_release(tr);
  ck_assert_int_eq(calls, 0);
  lt_release(row);
  ck_assert_int_eq(calls, 0);
  /* the views still read the caller's memory */
  buf[5] = 3;
  assert_read_f32(row, (float[]){0, 3, 0, 0}, 4);
  lt_release(row);
  ck_assert_int_eq(calls, 0);
  lt_release(rev);
  ck_assert_int_eq(calls, 1);
}
END_TEST

START_TEST(wrap_deleter_receives_its_context) {
  int calls_a = 0, calls_b = 0;
  double a[2], b[3];
  lt_tensor *ta = lt_wrap(a, LT_F64, 1, ((int64_t[]){2}), NULL, LT_HOST, count_deleter, &calls_a);
  lt_tensor *tb = lt_wrap(b, LT_F64, 1, ((int64_t[]){3}), NULL, LT_HOST, count_deleter, &calls_b);
  LT_ASSERT_OK_PTR(ta);
  LT_ASSERT_OK_PTR(tb);
  ck_assert(!lt_shares_storage(ta, tb));
  lt_release(tb);
  ck_assert_int_eq(calls_a, 0);
  ck_assert_int_eq(calls_b, 1);
  lt_release(ta);
  ck_assert_int_eq(calls_a, 1);
  ck_assert_int_eq(calls_b, 1);
}
END_TEST

START_TEST(failed_wrap_does_not_call_the_deleter) {
  int calls = 0;
  float buf[4];
  LT_ASSERT_FAILS(lt_wrap(buf, LT_F32, 1, ((int64_t[]){-4}), NULL, LT_HOST, count_deleter, &calls), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_wrap(NULL, LT_F32, 1, ((int64_t[]){4}), NULL, LT_HOST, count_deleter, &calls), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_wrap(buf, (lt_dtype)99, 1, ((int64_t[]){4}), NULL, LT_HOST, count_deleter, &calls),
                  LT_ERR_ARG);
  ck_assert_int_eq(calls, 0);
}
END_TEST

START_TEST(wrap_on_an_unavailable_device_fails_with_device_error) {
  int calls = 0;
  float buf[4];
  lt_device cuda = {LT_CUDA, 0};
  if (lt_device_available(cuda)) return;
  LT_ASSERT_FAILS(lt_wrap(buf, LT_F32, 1, ((int64_t[]){4}), NULL, cuda, count_deleter, &calls), LT_ERR_DEVICE);
  ck_assert_int_eq(calls, 0);
}
END_TEST

/* ---- reference counting ------------------------------------------------------ */

START_TEST(retain_returns_its_argument_and_each_reference_needs_a_release) {
  int calls = 0;
  int32_t buf[3] = {1, 2, 3};
  lt_tensor *t = lt_wrap(buf, LT_I32, 1, ((int64_t[]){3}), NULL, LT_HOST, count_deleter, &calls);
  LT_ASSERT_OK_PTR(t);
  ck_assert_ptr_eq(lt_retain(t), t);
  ck_assert_ptr_eq(lt_retain(t), t);
  lt_release(t);
  lt_release(t);
  ck_assert_int_eq(calls, 0);
  ck_assert_int_eq(lt_numel(t), 3);
  lt_release(t);
  ck_assert_int_eq(calls, 1);
}
END_TEST

START_TEST(retain_and_release_accept_null) {
  ck_assert_ptr_null(lt_retain(NULL));
  lt_release(NULL);
}
END_TEST

START_TEST(a_view_keeps_its_storage_alive_after_the_base_is_released) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){2, 3});
  LT_ASSERT_OK_PTR(a);
  lt_tensor *v = lt_transpose(a, 0, 1);
  LT_ASSERT_OK_PTR(v);
  lt_release(a);
  assert_read_f32(v, (float[]){0, 3, 1, 4, 2, 5}, 6);
  lt_release(v);
}
END_TEST

/* ---- introspection ----------------------------------------------------------- */

START_TEST(size_and_stride_take_negative_dims_from_the_end) {
  lt_tensor *t = lt_empty(LT_F32, 3, (int64_t[]){2, 3, 4}, LT_HOST);
  LT_ASSERT_OK_PTR(t);
  ck_assert_int_eq(lt_size(t, 0), 2);
  ck_assert_int_eq(lt_size(t, -1), 4);
  ck_assert_int_eq(lt_size(t, -2), 3);
  ck_assert_int_eq(lt_size(t, -3), 2);
  ck_assert_int_eq(lt_stride(t, 0), 12);
  ck_assert_int_eq(lt_stride(t, -1), 1);
  ck_assert_int_eq(lt_stride(t, -2), 4);
  ck_assert_int_eq(lt_stride(t, -3), 12);
  lt_release(t);
}
END_TEST

START_TEST(size_and_stride_out_of_range_fail_with_arg) {
  lt_tensor *t = lt_empty(LT_F32, 3, (int64_t[]){2, 3, 4}, LT_HOST);
  LT_ASSERT_OK_PTR(t);
  ck_assert_int_eq(lt_size(t, 3), -1);
  ck_assert_int_eq(lt_last_status(), LT_ERR_ARG);
  ck_assert_str_ne(lt_last_error(), "");
  ck_assert_int_eq(lt_size(t, -4), -1);
  ck_assert_int_eq(lt_last_status(), LT_ERR_ARG);
  ck_assert_int_eq(lt_stride(t, 3), -1);
  ck_assert_int_eq(lt_last_status(), LT_ERR_ARG);
  ck_assert_int_eq(lt_stride(t, -4), -1);
  ck_assert_int_eq(lt_last_status(), LT_ERR_ARG);
  lt_release(t);
}
END_TEST

START_TEST(introspection_of_null_fails_with_arg) {
  ck_assert_int_eq(lt_ndim(NULL), -1);
  ck_assert_int_eq(lt_last_status(), LT_ERR_ARG);
  ck_assert_int_eq(lt_numel(NULL), -1);
  ck_assert_int_eq(lt_last_status(), LT_ERR_ARG);
  ck_assert_ptr_null(lt_shape(NULL));
  ck_assert_int_eq(lt_last_status(), LT_ERR_ARG);
  ck_assert_ptr_null(lt_data(NULL));
  ck_assert_int_eq(lt_last_status(), LT_ERR_ARG);
  ck_assert(!lt_is_contiguous(NULL));
  ck_assert_int_eq(lt_last_status(), LT_ERR_ARG);
}
END_TEST

START_TEST(size_1_dims_with_odd_strides_are_contiguous) {
  float buf[12] = {0};
  lt_tensor *t = lt_wrap(buf, LT_F32, 4, ((int64_t[]){4, 1, 1, 3}), ((int64_t[]){3, 100, 7, 1}), LT_HOST, NULL,
                         NULL);
  LT_ASSERT_OK_PTR(t);
  ck_assert(lt_is_contiguous(t));
  lt_release(t);
}
END_TEST

START_TEST(transposed_tensor_is_not_contiguous) {
  lt_tensor *a = lt_empty(LT_F32, 2, (int64_t[]){2, 3}, LT_HOST);
  lt_tensor *t = lt_transpose(a, 0, 1);
  LT_ASSERT_OK_PTR(t);
  ck_assert(!lt_is_contiguous(t));
  lt_release(t);
  lt_release(a);
}
END_TEST

START_TEST(transpose_of_a_size_1_dim_stays_contiguous) {
  lt_tensor *a = lt_empty(LT_F32, 3, (int64_t[]){2, 1, 4}, LT_HOST);
  lt_tensor *t = lt_transpose(a, 0, 1); /* [1,2,4] strides [4,4,1] */
  LT_ASSERT_OK_PTR(t);
  LT_ASSERT_GEOMETRY(t, 3, ((int64_t[]){1, 2, 4}), ((int64_t[]){4, 4, 1}), 0);
  ck_assert(lt_is_contiguous(t));
  lt_release(t);
  lt_release(a);
}
END_TEST

START_TEST(numel_0_is_contiguous_whatever_the_strides) {
  lt_tensor *t = lt_wrap(NULL, LT_F32, 2, ((int64_t[]){3, 0}), ((int64_t[]){1, 5}), LT_HOST, NULL, NULL);
  LT_ASSERT_OK_PTR(t);
  ck_assert(lt_is_contiguous(t));
  lt_release(t);
}
END_TEST

START_TEST(expanded_dims_of_size_above_1_are_not_contiguous) {
  lt_tensor *a = lt_empty(LT_F32, 2, (int64_t[]){1, 4}, LT_HOST);
  lt_tensor *e = lt_expand(a, 2, (int64_t[]){3, 4});
  LT_ASSERT_OK_PTR(e);
  LT_ASSERT_GEOMETRY(e, 2, ((int64_t[]){3, 4}), ((int64_t[]){0, 1}), 0);
  ck_assert(!lt_is_contiguous(e));
  lt_tensor *e1 = lt_expand(a, 3, (int64_t[]){1, 1, 4});
  LT_ASSERT_OK_PTR(e1);
  ck_assert(lt_is_contiguous(e1));
  lt_tensor *e0 = lt_expand(a, 2, (int64_t[]){0, 4});
  LT_ASSERT_OK_PTR(e0);
  ck_assert_int_eq(lt_numel(e0), 0);
  ck_assert(lt_is_contiguous(e0));
  lt_release(e0);
  lt_release(e1);
  lt_release(e);
  lt_release(a);
}
END_TEST

START_TEST(storage_offset_plays_no_part_in_contiguity) {
  lt_tensor *a = lt_empty(LT_F32, 2, (int64_t[]){3, 4}, LT_HOST);
  lt_tensor *rows = lt_slice(a, 0, 1, LT_NONE, 1);
  LT_ASSERT_OK_PTR(rows);
  LT_ASSERT_GEOMETRY(rows, 2, ((int64_t[]){2, 4}), ((int64_t[]){4, 1}), 4);
  ck_assert(lt_is_contiguous(rows));
  lt_tensor *cols = lt_slice(a, 1, 0, LT_NONE, 2);
  LT_ASSERT_OK_PTR(cols);
  ck_assert(!lt_is_contiguous(cols));
  lt_release(cols);
  lt_release(rows);
  lt_release(a);
}
END_TEST

START_TEST(shares_storage_holds_for_views_and_not_for_copies) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){2, 3});
  lt_tensor *b = lt_test_arange_f32(2, (int64_t[]){2, 3});
  lt_tensor *v = lt_transpose(a, 0, 1);
  lt_tensor *w = lt_select(v, 0, 2);
  lt_tensor *c = lt_clone(a);
  LT_ASSERT_OK_PTR(w);
  LT_ASSERT_OK_PTR(c);
  ck_assert(lt_shares_storage(a, a));
  ck_assert(lt_shares_storage(a, v));
  ck_assert(lt_shares_storage(w, a));
  ck_assert(lt_shares_storage(v, w));
  ck_assert(!lt_shares_storage(a, b));
  ck_assert(!lt_shares_storage(a, c));
  ck_assert(!lt_shares_storage(NULL, a));
  ck_assert_int_eq(lt_last_status(), LT_ERR_ARG);
  lt_release(c);
  lt_release(w);
  lt_release(v);
  lt_release(b);
  lt_release(a);
}
END_TEST

START_TEST(data_points_at_the_first_element_of_a_view) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){3, 4});
  lt_tensor *s = lt_select(a, 0, 2);
  lt_tensor *r = lt_slice(a, 1, LT_NONE, LT_NONE, -1);
  LT_ASSERT_OK_PTR(s);
  LT_ASSERT_OK_PTR(r);
  ck_assert_ptr_eq(lt_data(s), (float *)lt_data(a) + 8);
  ck_assert_ptr_eq(lt_data(r), (float *)lt_data(a) + 3);
  ck_assert(*(float *)lt_data(s) == 8);
  ck_assert(*(float *)lt_data(r) == 3);
  lt_release(r);
  lt_release(s);
  lt_release(a);
}
END_TEST

/* ---- lt_describe ------------------------------------------------------------- */

START_TEST(describe_names_dtype_shape_strides_offset_and_contiguity) {
  float buf[24];
  lt_tensor *t = lt_wrap(buf, LT_F32, 3, ((int64_t[]){2, 3, 4}), ((int64_t[]){12, 1, 3}), LT_HOST, NULL, NULL);
  LT_ASSERT_OK_PTR(t);
  assert_describe(t, "f32[2,3,4] strides=[12,1,3] offset=0 non-contiguous");
  lt_release(t);
  lt_tensor *c = lt_empty(LT_F32, 3, (int64_t[]){2, 3, 4}, LT_HOST);
  assert_describe(c, "f32[2,3,4] strides=[12,4,1] offset=0 contiguous");
  lt_release(c);
}
END_TEST

START_TEST(describe_of_a_0_dim_tensor_has_empty_brackets) {
  lt_tensor *t = lt_empty(LT_F32, 0, NULL, LT_HOST);
  assert_describe(t, "f32[] strides=[] offset=0 contiguous");
  lt_release(t);
}
END_TEST

START_TEST(describe_shows_offset_and_negative_strides_of_views) {
  lt_tensor *a = lt_zeros(LT_I64, 2, (int64_t[]){3, 4}, LT_HOST);
  lt_tensor *rows = lt_slice(a, 0, 1, LT_NONE, 1);
  lt_tensor *flip = lt_slice(a, 1, LT_NONE, LT_NONE, -1);
  LT_ASSERT_OK_PTR(rows);
  LT_ASSERT_OK_PTR(flip);
  assert_describe(rows, "i64[2,4] strides=[4,1] offset=4 contiguous");
  assert_describe(flip, "i64[3,4] strides=[4,-1] offset=3 non-contiguous");
  lt_release(flip);
  lt_release(rows);
  lt_release(a);
  uint8_t buf[5];
  lt_tensor *w = lt_wrap(&buf[4], LT_U8, 1, ((int64_t[]){5}), ((int64_t[]){-1}), LT_HOST, NULL, NULL);
  assert_describe(w, "u8[5] strides=[-1] offset=4 non-contiguous");
  lt_release(w);
}
END_TEST

START_TEST(describe_uses_each_dtype_name) {
  static const char *const want[] = {
      "f32[2] strides=[1] offset=0 contiguous",     "f16[2] strides=[1] offset=0 contiguous",
      "bf16[2] strides=[1] offset=0 contiguous",    "f8_e4m3[2] strides=[1] offset=0 contiguous",
      "f8_e5m2[2] strides=[1] offset=0 contiguous", "f64[2] strides=[1] offset=0 contiguous",
      "i32[2] strides=[1] offset=0 contiguous",     "i64[2] strides=[1] offset=0 contiguous",
      "u8[2] strides=[1] offset=0 contiguous",      "bool[2] strides=[1] offset=0 contiguous",
  };
  for (int k = 0; k < NUM_DTYPES; k++) {
    lt_tensor *t = lt_zeros(all_dtypes[k], 1, (int64_t[]){2}, LT_HOST);
    assert_describe(t, want[k]);
    lt_release(t);
  }
}
END_TEST

START_TEST(describe_truncates_like_snprintf_and_returns_the_full_length) {
  lt_tensor *t = lt_empty(LT_F32, 1, (int64_t[]){7}, LT_HOST);
  const char *full = "f32[7] strides=[1] offset=0 contiguous";
  char buf[8];
  memset(buf, 'x', sizeof buf);
  ck_assert_int_eq(lt_describe(t, buf, 5), (int)strlen(full));
  ck_assert_str_eq(buf, "f32[");
  ck_assert_int_eq(buf[5], 'x');
  ck_assert_int_eq(lt_describe(t, NULL, 0), (int)strlen(full));
  lt_release(t);
  ck_assert_int_eq(lt_describe(NULL, buf, sizeof buf), -1);
  ck_assert_int_eq(lt_last_status(), LT_ERR_ARG);
}
END_TEST

/* ---- lt_read / lt_write through views ---------------------------------------- */

START_TEST(read_of_a_transposed_view_is_in_logical_order) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){2, 3});
  lt_tensor *t = lt_transpose(a, 0, 1);
  assert_read_f32(t, (float[]){0, 3, 1, 4, 2, 5}, 6);
  lt_release(t);
  lt_release(a);
}
END_TEST

START_TEST(write_through_a_transposed_view_lands_at_its_strided_positions) {
  lt_tensor *a = lt_zeros(LT_F32, 2, (int64_t[]){2, 3}, LT_HOST);
  lt_tensor *t = lt_transpose(a, 0, 1);
  LT_ASSERT_OK(lt_write(t, (float[]){0, 1, 2, 3, 4, 5}, 6 * sizeof(float)));
  assert_read_f32(a, (float[]){0, 2, 4, 1, 3, 5}, 6);
  assert_read_f32(t, (float[]){0, 1, 2, 3, 4, 5}, 6);
  lt_release(t);
  lt_release(a);
}
END_TEST

START_TEST(read_and_write_through_a_negative_step_view) {
  lt_tensor *a = lt_test_arange_f32(1, (int64_t[]){7});
  lt_tensor *r = lt_slice(a, 0, LT_NONE, LT_NONE, -2); /* 6,4,2,0 */
  LT_ASSERT_OK_PTR(r);
  LT_ASSERT_GEOMETRY(r, 1, ((int64_t[]){4}), ((int64_t[]){-2}), 6);
  assert_read_f32(r, (float[]){6, 4, 2, 0}, 4);
  LT_ASSERT_OK(lt_write(r, (float[]){10, 11, 12, 13}, 4 * sizeof(float)));
  assert_read_f32(a, (float[]){13, 1, 12, 3, 11, 5, 10}, 7);
  lt_release(r);
  lt_release(a);
}
END_TEST

START_TEST(read_and_write_through_an_offset_view_touch_only_its_elements) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){3, 4});
  lt_tensor *n = lt_narrow(a, 1, 1, 2); /* columns 1..2 */
  lt_tensor *s = lt_select(n, 0, 2);    /* elements 9, 10 */
  LT_ASSERT_OK_PTR(s);
  LT_ASSERT_GEOMETRY(s, 1, ((int64_t[]){2}), ((int64_t[]){1}), 9);
  assert_read_f32(n, (float[]){1, 2, 5, 6, 9, 10}, 6);
  LT_ASSERT_OK(lt_write(s, (float[]){-1, -2}, 2 * sizeof(float)));
  assert_read_f32(a, (float[]){0, 1, 2, 3, 4, 5, 6, 7, 8, -1, -2, 11}, 12);
  lt_release(s);
  lt_release(n);
  lt_release(a);
}
END_TEST

START_TEST(write_then_read_round_trips_on_a_permuted_strided_view) {
  lt_tensor *a = lt_zeros(LT_F64, 3, (int64_t[]){2, 3, 4}, LT_HOST);
  lt_tensor *p = lt_permute(a, (int[]){2, 0, 1});
  lt_tensor *v = lt_slice(p, 0, 3, LT_NONE, -2); /* [2,2,3] strides [-2,12,4] offset 3 */
  LT_ASSERT_OK_PTR(v);
  LT_ASSERT_GEOMETRY(v, 3, ((int64_t[]){2, 2, 3}), ((int64_t[]){-2, 12, 4}), 3);
  double in[12], out[12];
  for (int i = 0; i < 12; i++) in[i] = 100 + i;
  LT_ASSERT_OK(lt_write(v, in, sizeof in));
  LT_ASSERT_OK(lt_read(v, out, sizeof out));
  for (int i = 0; i < 12; i++) ck_assert(out[i] == in[i]);
  /* v[i][j][k] is a[j][k][3 - 2i] */
  const double *base = lt_data(a);
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      for (int k = 0; k < 3; k++) ck_assert(base[j * 12 + k * 4 + 3 - 2 * i] == in[i * 6 + j * 3 + k]);
  for (int j = 0; j < 2; j++)
    for (int k = 0; k < 3; k++) ck_assert(base[j * 12 + k * 4 + 0] == 0 && base[j * 12 + k * 4 + 2] == 0);
  lt_release(v);
  lt_release(p);
  lt_release(a);
}
END_TEST

START_TEST(read_and_write_require_exactly_numel_times_size_bytes) {
  lt_tensor *a = lt_zeros(LT_I32, 1, (int64_t[]){4}, LT_HOST);
  int32_t buf[5] = {0};
  LT_ASSERT_STATUS(lt_read(a, buf, 12), LT_ERR_ARG);
  LT_ASSERT_STATUS(lt_read(a, buf, 20), LT_ERR_ARG);
  LT_ASSERT_STATUS(lt_write(a, buf, 15), LT_ERR_ARG);
  LT_ASSERT_STATUS(lt_read(a, NULL, 16), LT_ERR_ARG);
  LT_ASSERT_STATUS(lt_read(NULL, buf, 16), LT_ERR_ARG);
  lt_release(a);
}
END_TEST

START_TEST(write_into_an_expanded_view_fails_with_overlap) {
  lt_tensor *a = lt_zeros(LT_F32, 2, (int64_t[]){1, 3}, LT_HOST);
  lt_tensor *e = lt_expand(a, 2, (int64_t[]){2, 3});
  LT_ASSERT_STATUS(lt_write(e, (float[]){1, 2, 3, 4, 5, 6}, 6 * sizeof(float)), LT_ERR_OVERLAP);
  assert_read_f32(a, (float[]){0, 0, 0}, 3);
  assert_read_f32(e, (float[]){0, 0, 0, 0, 0, 0}, 6);
  lt_release(e);
  lt_release(a);
}
END_TEST

START_TEST(read_and_write_do_not_count_as_copies) {
  lt_tensor *a = lt_zeros(LT_F32, 2, (int64_t[]){2, 3}, LT_HOST);
  lt_tensor *t = lt_transpose(a, 0, 1);
  float buf[6] = {1, 2, 3, 4, 5, 6};
  lt_stats_reset(LT_HOST);
  LT_ASSERT_OK(lt_write(t, buf, sizeof buf));
  LT_ASSERT_OK(lt_read(t, buf, sizeof buf));
  lt_stats s = lt_stats_get(LT_HOST);
  ck_assert_int_eq(s.copies, 0);
  ck_assert_int_eq(s.bytes_copied, 0);
  ck_assert_int_eq(s.allocs, 0);
  lt_release(t);
  lt_release(a);
}
END_TEST

/* ---- devices and stats --------------------------------------------------------- */

START_TEST(host_device_is_available) {
  ck_assert(lt_device_available(LT_HOST));
  ck_assert(lt_device_available((lt_device){LT_CPU, 0}));
}
END_TEST

START_TEST(stats_count_bytes_and_allocations_of_library_storage) {
  lt_stats_reset(LT_HOST);
  lt_stats s0 = lt_stats_get(LT_HOST);
  ck_assert_int_eq(s0.allocs, 0);
  ck_assert_int_eq(s0.peak_bytes, s0.bytes_in_use);
  lt_tensor *a = lt_empty(LT_F32, 2, (int64_t[]){2, 5}, LT_HOST);  /* 40 bytes */
  lt_tensor *b = lt_zeros(LT_I64, 1, (int64_t[]){3}, LT_HOST);     /* 24 bytes */
  lt_tensor *c = lt_from_data((uint8_t[]){1, 2, 3}, LT_U8, 1, (int64_t[]){3}); /* 3 bytes */
  LT_ASSERT_OK_PTR(c);
  lt_stats s1 = lt_stats_get(LT_HOST);
  ck_assert_int_eq(s1.bytes_in_use - s0.bytes_in_use, 67);
  ck_assert_int_eq(s1.peak_bytes - s0.bytes_in_use, 67);
  ck_assert_int_eq(s1.allocs, 3);
  lt_release(a);
  lt_stats s2 = lt_stats_get(LT_HOST);
  ck_assert_int_eq(s2.bytes_in_use - s0.bytes_in_use, 27);
  ck_assert_int_eq(s2.peak_bytes - s0.bytes_in_use, 67);
  ck_assert_int_eq(s2.allocs, 3);
  lt_release(b);
  lt_release(c);
  lt_stats s3 = lt_stats_get(LT_HOST);
  ck_assert_int_eq(s3.bytes_in_use, s0.bytes_in_use);
  ck_assert_int_eq(s3.peak_bytes - s0.bytes_in_use, 67);
}
END_TEST

START_TEST(stats_reset_sets_peak_to_bytes_in_use) {
  lt_tensor *a = lt_empty(LT_F64, 1, (int64_t[]){16}, LT_HOST); /* 128 bytes */
  lt_tensor *b = lt_empty(LT_F64, 1, (int64_t[]){8}, LT_HOST);  /* 64 bytes */
  lt_release(a);
  lt_stats_reset(LT_HOST);
  lt_stats s = lt_stats_get(LT_HOST);
  ck_assert_int_eq(s.peak_bytes, s.bytes_in_use);
  ck_assert_int_eq(s.allocs, 0);
  ck_assert_int_eq(s.copies, 0);
  lt_release(b);
  lt_stats s2 = lt_stats_get(LT_HOST);
  ck_assert_int_eq(s2.bytes_in_use, s.bytes_in_use - 64);
  ck_assert_int_eq(s2.peak_bytes, s.bytes_in_use);
}
END_TEST

START_TEST(views_allocate_no_storage) {
  lt_tensor *a = lt_empty(LT_F32, 2, (int64_t[]){4, 6}, LT_HOST);
  lt_stats_reset(LT_HOST);
  lt_stats s0 = lt_stats_get(LT_HOST);
  lt_tensor *t = lt_transpose(a, 0, 1);
  lt_tensor *s = lt_slice(t, 0, 1, 5, 2);
  lt_tensor *v = lt_view(a, 1, (int64_t[]){24});
  lt_tensor *r = lt_retain(a);
  LT_ASSERT_OK_PTR(s);
  LT_ASSERT_OK_PTR(v);
  lt_stats s1 = lt_stats_get(LT_HOST);
  ck_assert_int_eq(s1.allocs, 0);
  ck_assert_int_eq(s1.bytes_in_use, s0.bytes_in_use);
  ck_assert_int_eq(s1.copies, 0);
  lt_release(r);
  lt_release(v);
  lt_release(s);
  lt_release(t);
  lt_release(a);
}
END_TEST

START_TEST(wrapped_memory_is_not_counted_in_stats) {
  float buf[100];
  lt_stats_reset(LT_HOST);
  lt_stats s0 = lt_stats_get(LT_HOST);
  lt_tensor *t = lt_wrap(buf, LT_F32, 1, (int64_t[]){100}, NULL, LT_HOST, NULL, NULL);
  LT_ASSERT_OK_PTR(t);
  lt_stats s1 = lt_stats_get(LT_HOST);
  ck_assert_int_eq(s1.bytes_in_use, s0.bytes_in_use);
  ck_assert_int_eq(s1.peak_bytes, s0.bytes_in_use);
  ck_assert_int_eq(s1.allocs, 0);
  lt_release(t);
  lt_stats s2 = lt_stats_get(LT_HOST);
  ck_assert_int_eq(s2.bytes_in_use, s0.bytes_in_use);
}
END_TEST

START_TEST(stats_of_a_copy_count_its_new_storage) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){3, 5});
  lt_tensor *t = lt_transpose(a, 0, 1);
  lt_stats_reset(LT_HOST);
  lt_stats s0 = lt_stats_get(LT_HOST);
  lt_tensor *c = lt_contiguous(t);
  LT_ASSERT_OK_PTR(c);
  lt_stats s1 = lt_stats_get(LT_HOST);
  ck_assert_int_eq(s1.allocs, 1);
  ck_assert_int_eq(s1.bytes_in_use - s0.bytes_in_use, 60);
  ck_assert_int_eq(s1.peak_bytes - s0.bytes_in_use, 60);
  ck_assert_int_eq(s1.copies, 1);
  ck_assert_int_eq(s1.bytes_copied, 60);
  lt_release(c);
  lt_release(t);
  lt_release(a);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("tensor");
  TCase *create = tcase_create("create");
  tcase_add_test(create, empty_every_dtype_has_row_major_geometry_and_metadata);
  tcase_add_test(create, zeros_every_dtype_holds_zero_bytes);
  tcase_add_test(create, from_data_every_dtype_copies_the_bytes);
  tcase_add_test(create, every_rank_from_0_to_max_dims_has_row_major_strides);
  tcase_add_test(create, zero_dim_tensor_has_one_element_and_no_shape);
  tcase_add_test(create, zero_size_dims_use_the_max_size_1_stride_rule);
  tcase_add_test(create, creation_rejects_bad_ndim_negative_sizes_and_bad_dtype);
  tcase_add_test(create, from_data_with_null_data_for_elements_fails_with_arg);
  suite_add_tcase(s, create);

  TCase *wrap = tcase_create("wrap");
  tcase_add_test(wrap, wrap_with_null_strides_is_row_major_over_the_caller_buffer);
  tcase_add_test(wrap, wrap_with_explicit_column_major_strides_reads_in_logical_order);
  tcase_add_test(wrap, wrap_with_negative_stride_starts_at_data_and_offsets_the_storage);
  tcase_add_test(wrap, wrap_with_negative_row_stride_reads_rows_bottom_up);
  tcase_add_test(wrap, wrap_with_mixed_sign_strides_writes_to_the_reached_elements);
  tcase_add_test(wrap, wrap_with_stride_zero_repeats_one_element_and_refuses_writes);
  tcase_add_test(wrap, wrap_of_zero_elements_accepts_null_data);
  tcase_add_test(wrap, wrap_deleter_runs_once_when_the_last_view_goes);
  tcase_add_test(wrap, wrap_deleter_receives_its_context);
  tcase_add_test(wrap, failed_wrap_does_not_call_the_deleter);
  tcase_add_test(wrap, wrap_on_an_unavailable_device_fails_with_device_error);
  suite_add_tcase(s, wrap);

  TCase *refs = tcase_create("refcount");
  tcase_add_test(refs, retain_returns_its_argument_and_each_reference_needs_a_release);
  tcase_add_test(refs, retain_and_release_accept_null);
  tcase_add_test(refs, a_view_keeps_its_storage_alive_after_the_base_is_released);
  suite_add_tcase(s, refs);

  TCase *intro = tcase_create("introspection");
  tcase_add_test(intro, size_and_stride_take_negative_dims_from_the_end);
  tcase_add_test(intro, size_and_stride_out_of_range_fail_with_arg);
  tcase_add_test(intro, introspection_of_null_fails_with_arg);
  tcase_add_test(intro, size_1_dims_with_odd_strides_are_contiguous);
  tcase_add_test(intro, transposed_tensor_is_not_contiguous);
  tcase_add_test(intro, transpose_of_a_size_1_dim_stays_contiguous);
  tcase_add_test(intro, numel_0_is_contiguous_whatever_the_strides);
  tcase_add_test(intro, expanded_dims_of_size_above_1_are_not_contiguous);
  tcase_add_test(intro, storage_offset_plays_no_part_in_contiguity);
  tcase_add_test(intro, shares_storage_holds_for_views_and_not_for_copies);
  tcase_add_test(intro, data_points_at_the_first_element_of_a_view);
  suite_add_tcase(s, intro);

  TCase *desc = tcase_create("describe");
  tcase_add_test(desc, describe_names_dtype_shape_strides_offset_and_contiguity);
  tcase_add_test(desc, describe_of_a_0_dim_tensor_has_empty_brackets);
  tcase_add_test(desc, describe_shows_offset_and_negative_strides_of_views);
  tcase_add_test(desc, describe_uses_each_dtype_name);
  tcase_add_test(desc, describe_truncates_like_snprintf_and_returns_the_full_length);
  suite_add_tcase(s, desc);

  TCase *io = tcase_create("read_write");
  tcase_add_test(io, read_of_a_transposed_view_is_in_logical_order);
  tcase_add_test(io, write_through_a_transposed_view_lands_at_its_strided_positions);
  tcase_add_test(io, read_and_write_through_a_negative_step_view);
  tcase_add_test(io, read_and_write_through_an_offset_view_touch_only_its_elements);
  tcase_add_test(io, write_then_read_round_trips_on_a_permuted_strided_view);
  tcase_add_test(io, read_and_write_require_exactly_numel_times_size_bytes);
  tcase_add_test(io, write_into_an_expanded_view_fails_with_overlap);
  tcase_add_test(io, read_and_write_do_not_count_as_copies);
  suite_add_tcase(s, io);

  TCase *acct = tcase_create("devices_and_stats");
  tcase_add_test(acct, host_device_is_available);
  tcase_add_test(acct, stats_count_bytes_and_allocations_of_library_storage);
  tcase_add_test(acct, stats_reset_sets_peak_to_bytes_in_use);
  tcase_add_test(acct, views_allocate_no_storage);
  tcase_add_test(acct, wrapped_memory_is_not_counted_in_stats);
  tcase_add_test(acct, stats_of_a_copy_count_its_new_storage);
  suite_add_tcase(s, acct);
  return s;
}

int main(void) { return lt_run_suite(suite()); }
