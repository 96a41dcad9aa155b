/* Misuse of every public function: NULL tensors and arrays, dims out of
 * range, invalid dtypes, devices and modes, overflowing shapes, aliasing
 * writes. Each call must fail with its documented status and a message
 * naming the operation, never crash, abort or leak. */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "support/check_helpers.h"

#define BAD_DTYPE ((lt_dtype)99)
#define NEG_DTYPE ((lt_dtype)-1)
#define BIG ((int64_t)1 << 40)

static const lt_device cpu5 = {LT_CPU, 5};
static const lt_device cpu_neg = {LT_CPU, -1};
static const lt_device kind7 = {(lt_device_kind)7, 0};
static const lt_device cuda0 = {LT_CUDA, 0};

/* A successful call, so that the error a failing call leaves is its own. */
static void clear_error(void) {
  (void)lt_dtype_size(LT_F32);
  ck_assert_int_eq(lt_last_status(), LT_OK);
}

/* The last error has status st and a message naming op. */
#define ASSERT_LAST_ERROR(st, op)                                                                   \
  do {                                                                                              \
    ck_assert_msg(lt_last_status() == (st), "expected %s, got %s: %s", lt_status_str(st),           \
                  lt_status_str(lt_last_status()), lt_last_error());                                \
    ck_assert_msg(strstr(lt_last_error(), (op)) != NULL, "message \"%s\" does not name \"%s\"",     \
                  lt_last_error(), (op));                                                           \
  } while (0)

/* A pointer-returning call fails with st and a message naming op. */
#define FAILS(expr, st, op)      \
  do {                           \
    clear_error();               \
    LT_ASSERT_FAILS(expr, st);   \
    ASSERT_LAST_ERROR(st, op);   \
  } while (0)

/* A status-returning call fails with st and a message naming op. */
#define STATUS(expr, st, op)        \
  do {                              \
    clear_error();                  \
    LT_ASSERT_STATUS(expr, st);     \
    ASSERT_LAST_ERROR(st, op);      \
  } while (0)

static lt_tensor *t3; /* f32 [2,3,4] holding 0..23 */
static lt_tensor *t0; /* f32 0-dim holding 7 */

static void setup(void) {
  t3 = lt_test_arange_f32(3, (int64_t[]){2, 3, 4});
  t0 = lt_from_data((float[]){7.0f}, LT_F32, 0, NULL);
  ck_assert_ptr_nonnull(t3);
  ck_assert_ptr_nonnull(t0);
}

static void teardown(void) {
  lt_release(t3);
  lt_release(t0);
  t3 = t0 = NULL;
}

static int deleter_calls;
static void count_deleter(void *ctx) {
  (void)ctx;
  deleter_calls++;
}

static float read_f32(const lt_tensor *t, int64_t i) {
  return ((const float *)lt_data(t))[i];
}

/* ---- statuses, dtypes, devices ------------------------------------------ */

START_TEST(status_str_names_every_status) {
  static const char *const names[] = {"LT_OK", "LT_ERR_ARG", "LT_ERR_SHAPE", "LT_ERR_NOT_VIEWABLE",
                                      "LT_ERR_PATTERN", "LT_ERR_DTYPE", "LT_ERR_DEVICE", "LT_ERR_NOMEM",
                                      "LT_ERR_IO", "LT_ERR_OVERLAP"};
  for (int s = LT_OK; s <= LT_ERR_OVERLAP; s++) ck_assert_str_eq(lt_status_str((lt_status)s), names[s]);
}
END_TEST

START_TEST(status_str_of_an_unknown_value_is_lt_err_unknown) {
  ck_assert_str_eq(lt_status_str((lt_status)(LT_ERR_OVERLAP + 1)), "LT_ERR_UNKNOWN");
  ck_assert_str_eq(lt_status_str((lt_status)99), "LT_ERR_UNKNOWN");
  ck_assert_str_eq(lt_status_str((lt_status)-1), "LT_ERR_UNKNOWN");
}
END_TEST

START_TEST(dtype_name_of_an_invalid_dtype_is_invalid) {
  ck_assert_str_eq(lt_dtype_name(BAD_DTYPE), "invalid");
  ck_assert_str_eq(lt_dtype_name(NEG_DTYPE), "invalid");
  ck_assert_str_eq(lt_dtype_name((lt_dtype)LT_NUM_DTYPES), "invalid");
}
END_TEST

START_TEST(dtype_size_of_an_invalid_dtype_is_zero_with_an_arg_error) {
  clear_error();
  ck_assert_uint_eq(lt_dtype_size(BAD_DTYPE), 0);
  ASSERT_LAST_ERROR(LT_ERR_ARG, "dtype_size");
  clear_error();
  ck_assert_uint_eq(lt_dtype_size(NEG_DTYPE), 0);
  ASSERT_LAST_ERROR(LT_ERR_ARG, "dtype_size");
}
END_TEST

START_TEST(a_success_clears_the_last_error) {
  LT_ASSERT_FAILS(lt_view(NULL, 0, NULL), LT_ERR_ARG);
  lt_tensor *v = lt_view(t3, 1, (int64_t[]){24});
  LT_ASSERT_OK_PTR(v);
  ck_assert_int_eq(lt_last_status(), LT_OK);
  ck_assert_str_eq(lt_last_error(), "");
  lt_release(v);
}
END_TEST

START_TEST(release_of_null_is_a_noop) {
  clear_error();
  lt_release(NULL);
  ck_assert_int_eq(lt_last_status(), LT_OK);
}
END_TEST

START_TEST(retain_of_null_returns_null) {
  ck_assert_ptr_null(lt_retain(NULL));
}
END_TEST

START_TEST(device_available_is_false_for_unknown_devices) {
  ck_assert(lt_device_available(LT_HOST));
  ck_assert(!lt_device_available(cpu5));
  ck_assert(!lt_device_available(cpu_neg));
  ck_assert(!lt_device_available(kind7));
  ck_assert(!lt_device_available((lt_device){(lt_device_kind)-1, 0}));
}
END_TEST

/* ---- lt_empty / lt_zeros / lt_from_data ----------------------------------- */

START_TEST(empty_rejects_invalid_dtypes) {
  FAILS(lt_empty(BAD_DTYPE, 1, (int64_t[]){4}, LT_HOST), LT_ERR_ARG, "empty");
  FAILS(lt_empty(NEG_DTYPE, 1, (int64_t[]){4}, LT_HOST), LT_ERR_ARG, "empty");
}
END_TEST

START_TEST(empty_rejects_ndim_outside_zero_to_max_dims) {
  int64_t shape[LT_MAX_DIMS + 1];
  for (int i = 0; i <= LT_MAX_DIMS; i++) shape[i] = 1;
  FAILS(lt_empty(LT_F32, -1, shape, LT_HOST), LT_ERR_ARG, "empty");
  FAILS(lt_empty(LT_F32, LT_MAX_DIMS + 1, shape, LT_HOST), LT_ERR_ARG, "empty");
  FAILS(lt_empty(LT_F32, INT_MIN, shape, LT_HOST), LT_ERR_ARG, "empty");
}
END_TEST

START_TEST(empty_rejects_a_null_shape_when_ndim_is_positive) {
  FAILS(lt_empty(LT_F32, 2, NULL, LT_HOST), LT_ERR_ARG, "empty");
}
END_TEST

START_TEST(empty_accepts_a_null_shape_for_zero_dims) {
  lt_tensor *t = lt_empty(LT_F32, 0, NULL, LT_HOST);
  LT_ASSERT_OK_PTR(t);
  ck_assert_int_eq(lt_ndim(t), 0);
  ck_assert_int_eq(lt_numel(t), 1);
  lt_release(t);
}
END_TEST

START_TEST(empty_rejects_negative_sizes) {
  FAILS(lt_empty(LT_F32, 2, (int64_t[]){3, -1}, LT_HOST), LT_ERR_ARG, "empty");
  FAILS(lt_empty(LT_F32, 1, (int64_t[]){INT64_MIN}, LT_HOST), LT_ERR_ARG, "empty");
}
END_TEST

START_TEST(empty_whose_numel_overflows_int64_is_nomem) {
  FAILS(lt_empty(LT_F32, 2, (int64_t[]){BIG, BIG}, LT_HOST), LT_ERR_NOMEM, "empty");
  FAILS(lt_empty(LT_U8, 3, (int64_t[]){INT64_MAX, 2, 1}, LT_HOST), LT_ERR_NOMEM, "empty");
}
END_TEST

START_TEST(empty_whose_byte_size_overflows_int64_is_nomem) {
  /* 2^62 elements fit in int64; 2^62 * 4 bytes do not. */
  FAILS(lt_empty(LT_F32, 2, (int64_t[]){(int64_t)1 << 31, (int64_t)1 << 31}, LT_HOST), LT_ERR_NOMEM,
        "empty");
  FAILS(lt_empty(LT_F64, 1, (int64_t[]){INT64_MAX / 4}, LT_HOST), LT_ERR_NOMEM, "empty");
}
END_TEST

START_TEST(empty_with_a_zero_size_dim_ignores_overflow_elsewhere) {
  lt_tensor *t = lt_empty(LT_F32, 3, (int64_t[]){BIG, 0, BIG}, LT_HOST);
  LT_ASSERT_OK_PTR(t);
  ck_assert_int_eq(lt_numel(t), 0);
  lt_release(t);
}
END_TEST

START_TEST(empty_on_an_unavailable_device_is_a_device_error) {
  FAILS(lt_empty(LT_F32, 1, (int64_t[]){4}, cpu5), LT_ERR_DEVICE, "empty");
  FAILS(lt_empty(LT_F32, 1, (int64_t[]){4}, cpu_neg), LT_ERR_DEVICE, "empty");
  FAILS(lt_empty(LT_F32, 1, (int64_t[]){4}, kind7), LT_ERR_DEVICE, "empty");
}
END_TEST

START_TEST(empty_on_cuda_fails_with_a_device_error_unless_cuda_is_available) {
  if (lt_device_available(cuda0)) {
    lt_tensor *t = lt_empty(LT_F32, 1, (int64_t[]){4}, cuda0);
    LT_ASSERT_OK_PTR(t);
    lt_release(t);
    return;
  }
  FAILS(lt_empty(LT_F32, 1, (int64_t[]){4}, cuda0), LT_ERR_DEVICE, "empty");
}
END_TEST

START_TEST(zeros_validates_its_arguments_like_empty) {
  FAILS(lt_zeros(BAD_DTYPE, 1, (int64_t[]){4}, LT_HOST), LT_ERR_ARG, "zeros");
  FAILS(lt_zeros(LT_F32, -1, (int64_t[]){4}, LT_HOST), LT_ERR_ARG, "zeros");
  FAILS(lt_zeros(LT_F32, LT_MAX_DIMS + 1, (int64_t[LT_MAX_DIMS + 1]){0}, LT_HOST), LT_ERR_ARG, "zeros");
  FAILS(lt_zeros(LT_F32, 1, NULL, LT_HOST), LT_ERR_ARG, "zeros");
  FAILS(lt_zeros(LT_F32, 1, (int64_t[]){-2}, LT_HOST), LT_ERR_ARG, "zeros");
  FAILS(lt_zeros(LT_F32, 2, (int64_t[]){BIG, BIG}, LT_HOST), LT_ERR_NOMEM, "zeros");
  FAILS(lt_zeros(LT_F32, 1, (int64_t[]){4}, cpu5), LT_ERR_DEVICE, "zeros");
  FAILS(lt_zeros(LT_F32, 1, (int64_t[]){4}, kind7), LT_ERR_DEVICE, "zeros");
}
END_TEST

START_TEST(from_data_rejects_null_data_for_a_nonempty_shape) {
  FAILS(lt_from_data(NULL, LT_F32, 1, (int64_t[]){4}), LT_ERR_ARG, "from_data");
  FAILS(lt_from_data(NULL, LT_F32, 0, NULL), LT_ERR_ARG, "from_data");
}
END_TEST

START_TEST(from_data_accepts_null_data_for_zero_elements) {
  lt_tensor *t = lt_from_data(NULL, LT_F32, 2, (int64_t[]){3, 0});
  LT_ASSERT_OK_PTR(t);
  ck_assert_int_eq(lt_numel(t), 0);
  lt_release(t);
}
END_TEST

START_TEST(from_data_validates_dtype_ndim_and_shape) {
  float d[4] = {0};
  FAILS(lt_from_data(d, BAD_DTYPE, 1, (int64_t[]){4}), LT_ERR_ARG, "from_data");
  FAILS(lt_from_data(d, NEG_DTYPE, 1, (int64_t[]){4}), LT_ERR_ARG, "from_data");
  FAILS(lt_from_data(d, LT_F32, -1, (int64_t[]){4}), LT_ERR_ARG, "from_data");
  FAILS(lt_from_data(d, LT_F32, LT_MAX_DIMS + 1, (int64_t[LT_MAX_DIMS + 1]){0}), LT_ERR_ARG, "from_data");
  FAILS(lt_from_data(d, LT_F32, 1, NULL), LT_ERR_ARG, "from_data");
  FAILS(lt_from_data(d, LT_F32, 2, (int64_t[]){-4, -1}), LT_ERR_ARG, "from_data");
  FAILS(lt_from_data(d, LT_F32, 2, (int64_t[]){BIG, BIG}), LT_ERR_NOMEM, "from_data");
}
END_TEST

/* ---- lt_wrap ---------------------------------------------------------------- */

START_TEST(wrap_rejects_null_data_for_a_nonempty_shape_without_calling_the_deleter) {
  deleter_calls = 0;
  FAILS(lt_wrap(NULL, LT_F32, 1, (int64_t[]){4}, NULL, LT_HOST, count_deleter, NULL), LT_ERR_ARG, "wrap");
  ck_assert_int_eq(deleter_calls, 0);
}
END_TEST

START_TEST(wrap_rejects_bad_dtype_ndim_and_shape_without_calling_the_deleter) {
  float d[4] = {0};
  deleter_calls = 0;
  FAILS(lt_wrap(d, BAD_DTYPE, 1, (int64_t[]){4}, NULL, LT_HOST, count_deleter, NULL), LT_ERR_ARG, "wrap");
  FAILS(lt_wrap(d, NEG_DTYPE, 1, (int64_t[]){4}, NULL, LT_HOST, count_deleter, NULL), LT_ERR_ARG, "wrap");
  FAILS(lt_wrap(d, LT_F32, -1, (int64_t[]){4}, NULL, LT_HOST, count_deleter, NULL), LT_ERR_ARG, "wrap");
  FAILS(lt_wrap(d, LT_F32, LT_MAX_DIMS + 1, (int64_t[LT_MAX_DIMS + 1]){0}, NULL, LT_HOST, count_deleter, NULL),
        LT_ERR_ARG, "wrap");
  FAILS(lt_wrap(d, LT_F32, 1, NULL, NULL, LT_HOST, count_deleter, NULL), LT_ERR_ARG, "wrap");
  FAILS(lt_wrap(d, LT_F32, 1, (int64_t[]){-4}, NULL, LT_HOST, count_deleter, NULL), LT_ERR_ARG, "wrap");
  FAILS(lt_wrap(d, LT_F32, 2, (int64_t[]){BIG, BIG}, NULL, LT_HOST, count_deleter, NULL), LT_ERR_NOMEM,
        "wrap");
  ck_assert_int_eq(deleter_calls, 0);
}
END_TEST

START_TEST(wrap_with_strides_reaching_past_int64_is_nomem_without_calling_the_deleter) {
  float d[4] = {0};
  deleter_calls = 0;
  FAILS(lt_wrap(d, LT_F32, 2, (int64_t[]){2, 3}, (int64_t[]){INT64_MAX, 1}, LT_HOST, count_deleter, NULL),
        LT_ERR_NOMEM, "wrap");
  FAILS(lt_wrap(d, LT_F32, 1, (int64_t[]){3}, (int64_t[]){INT64_MAX / 2}, LT_HOST, count_deleter, NULL),
        LT_ERR_NOMEM, "wrap");
  ck_assert_int_eq(deleter_calls, 0);
}
END_TEST

START_TEST(wrap_on_an_unavailable_device_is_a_device_error_without_calling_the_deleter) {
  float d[4] = {0};
  deleter_calls = 0;
  FAILS(lt_wrap(d, LT_F32, 1, (int64_t[]){4}, NULL, cpu5, count_deleter, NULL), LT_ERR_DEVICE, "wrap");
  FAILS(lt_wrap(d, LT_F32, 1, (int64_t[]){4}, NULL, kind7, count_deleter, NULL), LT_ERR_DEVICE, "wrap");
  if (!lt_device_available(cuda0))
    FAILS(lt_wrap(d, LT_F32, 1, (int64_t[]){4}, NULL, cuda0, count_deleter, NULL), LT_ERR_DEVICE, "wrap");
  ck_assert_int_eq(deleter_calls, 0);
}
END_TEST

/* ---- lt_read / lt_write ------------------------------------------------------ */

START_TEST(read_of_a_null_tensor_is_an_arg_error) {
  float buf[4];
  STATUS(lt_read(NULL, buf, sizeof buf), LT_ERR_ARG, "read");
}
END_TEST

START_TEST(read_with_the_wrong_nbytes_is_an_arg_error) {
  float buf[25];
  STATUS(lt_read(t3, buf, 23 * sizeof(float)), LT_ERR_ARG, "read");
  STATUS(lt_read(t3, buf, 25 * sizeof(float)), LT_ERR_ARG, "read");
  STATUS(lt_read(t3, buf, 24 * sizeof(float) - 1), LT_ERR_ARG, "read");
  STATUS(lt_read(t3, buf, 0), LT_ERR_ARG, "read");
  STATUS(lt_read(t3, buf, SIZE_MAX), LT_ERR_ARG, "read");
  STATUS(lt_read(t0, buf, 2 * sizeof(float)), LT_ERR_ARG, "read");
}
END_TEST

START_TEST(read_into_a_null_buffer_is_an_arg_error) {
  STATUS(lt_read(t3, NULL, 24 * sizeof(float)), LT_ERR_ARG, "read");
}
END_TEST

START_TEST(read_of_an_empty_tensor_takes_zero_bytes_and_a_null_buffer) {
  lt_tensor *e = lt_empty(LT_F32, 2, (int64_t[]){0, 3}, LT_HOST);
  LT_ASSERT_OK_PTR(e);
  LT_ASSERT_OK(lt_read(e, NULL, 0));
  LT_ASSERT_OK(lt_write(e, NULL, 0));
  lt_release(e);
}
END_TEST

START_TEST(read_of_an_expanded_tensor_whose_byte_size_overflows_size_t_is_an_arg_error) {
  /* 2^62 f32 elements over one stored element: numel * 4 wraps to 0 in
   * size_t, and 0 bytes must not pass for the right size. */
  lt_tensor *e = lt_expand(t0, 2, (int64_t[]){(int64_t)1 << 31, (int64_t)1 << 31});
  LT_ASSERT_OK_PTR(e);
  float buf[4];
  STATUS(lt_read(e, buf, 0), LT_ERR_ARG, "read");
  lt_release(e);
}
END_TEST

START_TEST(write_of_a_null_tensor_is_an_arg_error) {
  float buf[4] = {0};
  STATUS(lt_write(NULL, buf, sizeof buf), LT_ERR_ARG, "write");
}
END_TEST

START_TEST(write_with_the_wrong_nbytes_is_an_arg_error_and_writes_nothing) {
  float buf[25] = {0};
  STATUS(lt_write(t3, buf, 23 * sizeof(float)), LT_ERR_ARG, "write");
  STATUS(lt_write(t3, buf, 25 * sizeof(float)), LT_ERR_ARG, "write");
  STATUS(lt_write(t3, buf, 0), LT_ERR_ARG, "write");
  STATUS(lt_write(t0, buf, 0), LT_ERR_ARG, "write");
  for (int i = 0; i < 24; i++) ck_assert_float_eq(read_f32(t3, i), (float)i);
}
END_TEST

START_TEST(write_from_a_null_buffer_is_an_arg_error) {
  STATUS(lt_write(t3, NULL, 24 * sizeof(float)), LT_ERR_ARG, "write");
}
END_TEST

START_TEST(write_into_an_expanded_tensor_is_an_overlap_error) {
  lt_tensor *row = lt_slice(t3, 0, 0, 1, 1); /* [1,3,4] */
  lt_tensor *e = lt_expand(row, 3, (int64_t[]){5, 3, 4});
  LT_ASSERT_OK_PTR(e);
  float buf[60] = {0};
  STATUS(lt_write(e, buf, sizeof buf), LT_ERR_OVERLAP, "write");
  for (int i = 0; i < 24; i++) ck_assert_float_eq(read_f32(t3, i), (float)i);
  lt_release(e);
  lt_release(row);
}
END_TEST

START_TEST(write_into_a_self_overlapping_as_strided_view_is_an_overlap_error) {
  /* Offsets {0,1,2, 2,3,4}: element 2 is reached twice. */
  lt_tensor *v = lt_as_strided(t3, 2, (int64_t[]){2, 3}, (int64_t[]){2, 1}, 0);
  LT_ASSERT_OK_PTR(v);
  float buf[6] = {0};
  STATUS(lt_write(v, buf, sizeof buf), LT_ERR_OVERLAP, "write");
  for (int i = 0; i < 24; i++) ck_assert_float_eq(read_f32(t3, i), (float)i);
  lt_release(v);
}
END_TEST

START_TEST(write_into_an_interleaved_but_disjoint_as_strided_view_succeeds) {
  /* Offsets {0,2,4, 3,5,7}: strides interleave but no element repeats. */
  lt_tensor *v = lt_as_strided(t3, 2, (int64_t[]){2, 3}, (int64_t[]){3, 2}, 0);
  LT_ASSERT_OK_PTR(v);
  float buf[6] = {10, 11, 12, 13, 14, 15};
  LT_ASSERT_OK(lt_write(v, buf, sizeof buf));
  const float want[9] = {10, 1, 11, 13, 12, 14, 6, 15, 8};
  for (int i = 0; i < 9; i++) ck_assert_float_eq(read_f32(t3, i), want[i]);
  lt_release(v);
}
END_TEST

/* ---- introspection ------------------------------------------------------------- */

START_TEST(ndim_of_null_is_minus_one_with_an_arg_error) {
  clear_error();
  ck_assert_int_eq(lt_ndim(NULL), -1);
  ASSERT_LAST_ERROR(LT_ERR_ARG, "ndim");
}
END_TEST

START_TEST(shape_and_strides_of_null_are_null_with_an_arg_error) {
  clear_error();
  ck_assert_ptr_null(lt_shape(NULL));
  ASSERT_LAST_ERROR(LT_ERR_ARG, "shape");
  clear_error();
  ck_assert_ptr_null(lt_strides(NULL));
  ASSERT_LAST_ERROR(LT_ERR_ARG, "strides");
}
END_TEST

START_TEST(size_and_stride_of_null_are_minus_one_with_an_arg_error) {
  clear_error();
  ck_assert_int_eq(lt_size(NULL, 0), -1);
  ASSERT_LAST_ERROR(LT_ERR_ARG, "size");
  clear_error();
  ck_assert_int_eq(lt_stride(NULL, 0), -1);
  ASSERT_LAST_ERROR(LT_ERR_ARG, "stride");
}
END_TEST

START_TEST(size_rejects_dims_out_of_range) {
  const int bad[] = {3, -4, INT_MAX, INT_MIN};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    clear_error();
    ck_assert_int_eq(lt_size(t3, bad[i]), -1);
    ASSERT_LAST_ERROR(LT_ERR_ARG, "size");
  }
  ck_assert_int_eq(lt_size(t3, -3), 2);
}
END_TEST

START_TEST(stride_rejects_dims_out_of_range) {
  const int bad[] = {3, -4, INT_MAX, INT_MIN};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    clear_error();
    ck_assert_int_eq(lt_stride(t3, bad[i]), -1);
    ASSERT_LAST_ERROR(LT_ERR_ARG, "stride");
  }
  ck_assert_int_eq(lt_stride(t3, -3), 12);
}
END_TEST

START_TEST(size_and_stride_of_a_zero_dim_tensor_have_no_dim_to_name) {
  const int dims[] = {0, -1, 1};
  for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++) {
    clear_error();
    ck_assert_int_eq(lt_size(t0, dims[i]), -1);
    ASSERT_LAST_ERROR(LT_ERR_ARG, "size");
    clear_error();
    ck_assert_int_eq(lt_stride(t0, dims[i]), -1);
    ASSERT_LAST_ERROR(LT_ERR_ARG, "stride");
  }
}
END_TEST

START_TEST(offset_and_numel_of_null_are_minus_one_with_an_arg_error) {
  clear_error();
  ck_assert_int_eq(lt_offset(NULL), -1);
  ASSERT_LAST_ERROR(LT_ERR_ARG, "offset");
  clear_error();
  ck_assert_int_eq(lt_numel(NULL), -1);
  ASSERT_LAST_ERROR(LT_ERR_ARG, "numel");
}
END_TEST

START_TEST(dtype_of_and_device_of_null_give_defaults_with_an_arg_error) {
  clear_error();
  ck_assert_int_eq(lt_dtype_of(NULL), LT_F32);
  ASSERT_LAST_ERROR(LT_ERR_ARG, "dtype_of");
  clear_error();
  lt_device d = lt_device_of(NULL);
  ck_assert_int_eq(d.kind, LT_CPU);
  ck_assert_int_eq(d.index, 0);
  ASSERT_LAST_ERROR(LT_ERR_ARG, "device_of");
}
END_TEST

START_TEST(is_contiguous_of_null_is_false_with_an_arg_error) {
  clear_error();
  ck_assert(!lt_is_contiguous(NULL));
  ASSERT_LAST_ERROR(LT_ERR_ARG, "is_contiguous");
}
END_TEST

START_TEST(shares_storage_with_a_null_side_is_false_with_an_arg_error) {
  clear_error();
  ck_assert(!lt_shares_storage(NULL, t3));
  ASSERT_LAST_ERROR(LT_ERR_ARG, "shares_storage");
  clear_error();
  ck_assert(!lt_shares_storage(t3, NULL));
  ASSERT_LAST_ERROR(LT_ERR_ARG, "shares_storage");
  clear_error();
  ck_assert(!lt_shares_storage(NULL, NULL));
  ASSERT_LAST_ERROR(LT_ERR_ARG, "shares_storage");
}
END_TEST

START_TEST(data_of_null_is_null_with_an_arg_error) {
  clear_error();
  ck_assert_ptr_null(lt_data(NULL));
  ASSERT_LAST_ERROR(LT_ERR_ARG, "data");
}
END_TEST

START_TEST(describe_of_null_is_minus_one_with_an_arg_error) {
  char buf[64] = "untouched";
  clear_error();
  ck_assert_int_eq(lt_describe(NULL, buf, sizeof buf), -1);
  ASSERT_LAST_ERROR(LT_ERR_ARG, "describe");
}
END_TEST

START_TEST(describe_into_a_null_buffer_of_positive_size_is_an_arg_error) {
  clear_error();
  ck_assert_int_eq(lt_describe(t3, NULL, 16), -1);
  ASSERT_LAST_ERROR(LT_ERR_ARG, "describe");
}
END_TEST

START_TEST(describe_with_a_small_buffer_truncates_and_returns_the_full_length) {
  const char *full = "f32[2,3,4] strides=[12,4,1] offset=0 contiguous";
  char buf[8];
  memset(buf, 'x', sizeof buf);
  ck_assert_int_eq(lt_describe(t3, buf, sizeof buf), (int)strlen(full));
  ck_assert_str_eq(buf, "f32[2,3");
  char one[1] = {'x'};
  ck_assert_int_eq(lt_describe(t3, one, 1), (int)strlen(full));
  ck_assert_int_eq(one[0], '\0');
  ck_assert_int_eq(lt_describe(t3, NULL, 0), (int)strlen(full));
  char big[128];
  ck_assert_int_eq(lt_describe(t3, big, sizeof big), (int)strlen(full));
  ck_assert_str_eq(big, full);
}
END_TEST

/* ---- views: lt_view ------------------------------------------------------------- */

START_TEST(view_of_null_is_an_arg_error) {
  FAILS(lt_view(NULL, 1, (int64_t[]){24}), LT_ERR_ARG, "view");
}
END_TEST

START_TEST(view_rejects_ndim_outside_zero_to_max_dims) {
  int64_t ones[LT_MAX_DIMS + 1];
  for (int i = 0; i <= LT_MAX_DIMS; i++) ones[i] = 1;
  ones[0] = 24;
  FAILS(lt_view(t3, -1, ones), LT_ERR_ARG, "view");
  FAILS(lt_view(t3, LT_MAX_DIMS + 1, ones), LT_ERR_ARG, "view");
}
END_TEST

START_TEST(view_rejects_a_null_shape_when_ndim_is_positive) {
  FAILS(lt_view(t3, 2, NULL), LT_ERR_ARG, "view");
}
END_TEST

START_TEST(view_rejects_a_size_below_minus_one) {
  FAILS(lt_view(t3, 2, (int64_t[]){-2, -12}), LT_ERR_SHAPE, "view");
  FAILS(lt_view(t3, 2, (int64_t[]){INT64_MIN, 1}), LT_ERR_SHAPE, "view");
}
END_TEST

START_TEST(view_rejects_two_inferred_sizes) {
  FAILS(lt_view(t3, 2, (int64_t[]){-1, -1}), LT_ERR_SHAPE, "view");
}
END_TEST

START_TEST(view_rejects_a_numel_mismatch) {
  FAILS(lt_view(t3, 2, (int64_t[]){5, 5}), LT_ERR_SHAPE, "view");
  FAILS(lt_view(t0, 1, (int64_t[]){2}), LT_ERR_SHAPE, "view");
}
END_TEST

START_TEST(view_to_a_shape_whose_numel_overflows_is_a_shape_error) {
  FAILS(lt_view(t3, 2, (int64_t[]){BIG, BIG}), LT_ERR_SHAPE, "view");
  FAILS(lt_view(t3, 3, (int64_t[]){BIG, BIG, -1}), LT_ERR_SHAPE, "view");
}
END_TEST

/* ---- views: slice, select, narrow -------------------------------------------- */

START_TEST(slice_of_null_is_an_arg_error) {
  FAILS(lt_slice(NULL, 0, 0, 1, 1), LT_ERR_ARG, "slice");
}
END_TEST

START_TEST(slice_of_a_zero_dim_tensor_is_an_arg_error) {
  FAILS(lt_slice(t0, 0, 0, 1, 1), LT_ERR_ARG, "slice");
  FAILS(lt_slice(t0, -1, LT_NONE, LT_NONE, 1), LT_ERR_ARG, "slice");
}
END_TEST

START_TEST(slice_rejects_dims_out_of_range) {
  FAILS(lt_slice(t3, 3, 0, 1, 1), LT_ERR_ARG, "slice");
  FAILS(lt_slice(t3, -4, 0, 1, 1), LT_ERR_ARG, "slice");
  FAILS(lt_slice(t3, INT_MIN, 0, 1, 1), LT_ERR_ARG, "slice");
}
END_TEST

START_TEST(slice_with_step_zero_is_an_arg_error) {
  FAILS(lt_slice(t3, 0, LT_NONE, LT_NONE, 0), LT_ERR_ARG, "slice");
}
END_TEST

START_TEST(slice_clamps_extreme_bounds_and_steps_without_failing) {
  lt_tensor *a = lt_slice(t3, 2, INT64_MIN + 1, INT64_MAX, INT64_MAX);
  LT_ASSERT_OK_PTR(a);
  LT_ASSERT_GEOMETRY(a, 3, ((int64_t[]){2, 3, 1}), NULL, 0);
  lt_tensor *b = lt_slice(t3, 2, INT64_MAX, INT64_MIN + 1, INT64_MIN);
  LT_ASSERT_OK_PTR(b);
  LT_ASSERT_GEOMETRY(b, 3, ((int64_t[]){2, 3, 1}), NULL, 3);
  lt_release(a);
  lt_release(b);
}
END_TEST

START_TEST(select_of_null_is_an_arg_error) {
  FAILS(lt_select(NULL, 0, 0), LT_ERR_ARG, "select");
}
END_TEST

START_TEST(select_of_a_zero_dim_tensor_is_an_arg_error) {
  FAILS(lt_select(t0, 0, 0), LT_ERR_ARG, "select");
}
END_TEST

START_TEST(select_rejects_dims_out_of_range) {
  FAILS(lt_select(t3, 3, 0), LT_ERR_ARG, "select");
  FAILS(lt_select(t3, -4, 0), LT_ERR_ARG, "select");
}
END_TEST

START_TEST(select_rejects_indices_out_of_range) {
  FAILS(lt_select(t3, 1, 3), LT_ERR_ARG, "select");
  FAILS(lt_select(t3, 1, -4), LT_ERR_ARG, "select");
  FAILS(lt_select(t3, 1, INT64_MAX), LT_ERR_ARG, "select");
  FAILS(lt_select(t3, 1, INT64_MIN), LT_ERR_ARG, "select");
}
END_TEST

START_TEST(select_on_a_size_zero_dim_is_an_arg_error) {
  lt_tensor *e = lt_empty(LT_F32, 2, (int64_t[]){0, 3}, LT_HOST);
  LT_ASSERT_OK_PTR(e);
  FAILS(lt_select(e, 0, 0), LT_ERR_ARG, "select");
  FAILS(lt_select(e, 0, -1), LT_ERR_ARG, "select");
  lt_release(e);
}
END_TEST

START_TEST(narrow_of_null_is_an_arg_error) {
  FAILS(lt_narrow(NULL, 0, 0, 1), LT_ERR_ARG, "narrow");
}
END_TEST

START_TEST(narrow_of_a_zero_dim_tensor_is_an_arg_error) {
  FAILS(lt_narrow(t0, 0, 0, 1), LT_ERR_ARG, "narrow");
}
END_TEST

START_TEST(narrow_rejects_dims_out_of_range) {
  FAILS(lt_narrow(t3, 3, 0, 1), LT_ERR_ARG, "narrow");
  FAILS(lt_narrow(t3, -4, 0, 1), LT_ERR_ARG, "narrow");
}
END_TEST

START_TEST(narrow_rejects_a_start_out_of_range) {
  FAILS(lt_narrow(t3, 2, 5, 0), LT_ERR_ARG, "narrow");
  FAILS(lt_narrow(t3, 2, -5, 1), LT_ERR_ARG, "narrow");
  FAILS(lt_narrow(t3, 2, INT64_MIN, 0), LT_ERR_ARG, "narrow");
  FAILS(lt_narrow(t3, 2, INT64_MAX, 0), LT_ERR_ARG, "narrow");
}
END_TEST

START_TEST(narrow_rejects_a_length_that_is_negative_or_too_long) {
  FAILS(lt_narrow(t3, 2, 0, -1), LT_ERR_ARG, "narrow");
  FAILS(lt_narrow(t3, 2, 1, 4), LT_ERR_ARG, "narrow");
  FAILS(lt_narrow(t3, 2, -1, 2), LT_ERR_ARG, "narrow");
  FAILS(lt_narrow(t3, 2, 1, INT64_MAX), LT_ERR_ARG, "narrow");
  FAILS(lt_narrow(t3, 2, 0, INT64_MIN), LT_ERR_ARG, "narrow");
}
END_TEST

/* ---- views: transpose, permute, movedim ----------------------------------------- */

START_TEST(transpose_of_null_is_an_arg_error) {
  FAILS(lt_transpose(NULL, 0, 1), LT_ERR_ARG, "transpose");
}
END_TEST

START_TEST(transpose_rejects_dims_out_of_range) {
  FAILS(lt_transpose(t3, 0, 3), LT_ERR_ARG, "transpose");
  FAILS(lt_transpose(t3, -4, 0), LT_ERR_ARG, "transpose");
  FAILS(lt_transpose(t3, INT_MAX, INT_MIN), LT_ERR_ARG, "transpose");
}
END_TEST

START_TEST(transpose_of_a_zero_dim_tensor_accepts_only_dims_zero_and_minus_one) {
  lt_tensor *v = lt_transpose(t0, 0, -1);
  LT_ASSERT_OK_PTR(v);
  ck_assert_int_eq(lt_ndim(v), 0);
  lt_release(v);
  FAILS(lt_transpose(t0, 0, 1), LT_ERR_ARG, "transpose");
  FAILS(lt_transpose(t0, -2, 0), LT_ERR_ARG, "transpose");
}
END_TEST

START_TEST(permute_of_null_is_an_arg_error) {
  FAILS(lt_permute(NULL, (int[]){0, 1, 2}), LT_ERR_ARG, "permute");
}
END_TEST

START_TEST(permute_with_a_null_perm_is_an_arg_error) {
  FAILS(lt_permute(t3, NULL), LT_ERR_ARG, "permute");
}
END_TEST

START_TEST(permute_of_a_zero_dim_tensor_takes_an_empty_perm) {
  lt_tensor *v = lt_permute(t0, NULL);
  LT_ASSERT_OK_PTR(v);
  ck_assert_int_eq(lt_ndim(v), 0);
  lt_release(v);
}
END_TEST

START_TEST(permute_rejects_a_repeated_dim) {
  FAILS(lt_permute(t3, (int[]){0, 0, 1}), LT_ERR_ARG, "permute");
  FAILS(lt_permute(t3, (int[]){2, 1, -1}), LT_ERR_ARG, "permute"); /* -1 wraps to 2 */
}
END_TEST

START_TEST(permute_rejects_a_dim_out_of_range) {
  FAILS(lt_permute(t3, (int[]){0, 1, 3}), LT_ERR_ARG, "permute");
  FAILS(lt_permute(t3, (int[]){-4, 1, 2}), LT_ERR_ARG, "permute");
  FAILS(lt_permute(t3, (int[]){INT_MIN, 1, 2}), LT_ERR_ARG, "permute");
}
END_TEST

START_TEST(movedim_of_null_is_an_arg_error) {
  FAILS(lt_movedim(NULL, 0, 1), LT_ERR_ARG, "movedim");
}
END_TEST

START_TEST(movedim_rejects_dims_out_of_range) {
  FAILS(lt_movedim(t3, 3, 0), LT_ERR_ARG, "movedim");
  FAILS(lt_movedim(t3, 0, 3), LT_ERR_ARG, "movedim");
  FAILS(lt_movedim(t3, -4, 0), LT_ERR_ARG, "movedim");
  FAILS(lt_movedim(t3, 0, -4), LT_ERR_ARG, "movedim");
  FAILS(lt_movedim(t0, 0, 1), LT_ERR_ARG, "movedim");
}
END_TEST

/* ---- views: expand, squeeze, unsqueeze, unflatten -------------------------------- */

START_TEST(expand_of_null_is_an_arg_error) {
  FAILS(lt_expand(NULL, 1, (int64_t[]){4}), LT_ERR_ARG, "expand");
}
END_TEST

START_TEST(expand_rejects_ndim_outside_zero_to_max_dims) {
  int64_t shape[LT_MAX_DIMS + 1];
  for (int i = 0; i <= LT_MAX_DIMS; i++) shape[i] = -1;
  FAILS(lt_expand(t3, -1, shape), LT_ERR_ARG, "expand");
  FAILS(lt_expand(t3, LT_MAX_DIMS + 1, shape), LT_ERR_ARG, "expand");
}
END_TEST

START_TEST(expand_rejects_a_null_shape_when_ndim_is_positive) {
  FAILS(lt_expand(t3, 3, NULL), LT_ERR_ARG, "expand");
}
END_TEST

START_TEST(expand_to_fewer_dims_is_a_shape_error) {
  FAILS(lt_expand(t3, 2, (int64_t[]){3, 4}), LT_ERR_SHAPE, "expand");
}
END_TEST

START_TEST(expand_of_a_non_singleton_dim_is_a_shape_error) {
  FAILS(lt_expand(t3, 3, (int64_t[]){2, 6, 4}), LT_ERR_SHAPE, "expand");
}
END_TEST

START_TEST(expand_to_a_negative_size_is_an_arg_error) {
  FAILS(lt_expand(t3, 3, (int64_t[]){2, 3, -2}), LT_ERR_ARG, "expand");
  FAILS(lt_expand(t0, 1, (int64_t[]){-2}), LT_ERR_ARG, "expand");
  FAILS(lt_expand(t0, 2, (int64_t[]){3, INT64_MIN}), LT_ERR_ARG, "expand");
}
END_TEST

START_TEST(expand_with_minus_one_in_a_new_leading_dim_is_an_arg_error) {
  FAILS(lt_expand(t3, 4, (int64_t[]){-1, 2, 3, 4}), LT_ERR_ARG, "expand");
  FAILS(lt_expand(t0, 1, (int64_t[]){-1}), LT_ERR_ARG, "expand");
}
END_TEST

START_TEST(expand_to_a_shape_whose_numel_overflows_is_nomem) {
  FAILS(lt_expand(t0, 2, (int64_t[]){BIG, BIG}), LT_ERR_NOMEM, "expand");
}
END_TEST

START_TEST(squeeze_of_null_is_an_arg_error) {
  FAILS(lt_squeeze(NULL, 0), LT_ERR_ARG, "squeeze");
}
END_TEST

START_TEST(squeeze_rejects_dims_out_of_range) {
  FAILS(lt_squeeze(t3, 3), LT_ERR_ARG, "squeeze");
  FAILS(lt_squeeze(t3, -4), LT_ERR_ARG, "squeeze");
  FAILS(lt_squeeze(t0, 1), LT_ERR_ARG, "squeeze");
  FAILS(lt_squeeze(t0, -2), LT_ERR_ARG, "squeeze");
}
END_TEST

START_TEST(squeeze_all_of_null_is_an_arg_error) {
  FAILS(lt_squeeze_all(NULL), LT_ERR_ARG, "squeeze_all");
}
END_TEST

START_TEST(unsqueeze_of_null_is_an_arg_error) {
  FAILS(lt_unsqueeze(NULL, 0), LT_ERR_ARG, "unsqueeze");
}
END_TEST

START_TEST(unsqueeze_rejects_dims_outside_minus_ndim_minus_one_to_ndim) {
  FAILS(lt_unsqueeze(t3, 4), LT_ERR_ARG, "unsqueeze");
  FAILS(lt_unsqueeze(t3, -5), LT_ERR_ARG, "unsqueeze");
  FAILS(lt_unsqueeze(t0, 1), LT_ERR_ARG, "unsqueeze");
  FAILS(lt_unsqueeze(t0, -2), LT_ERR_ARG, "unsqueeze");
  FAILS(lt_unsqueeze(t3, INT_MIN), LT_ERR_ARG, "unsqueeze");
}
END_TEST

START_TEST(unsqueeze_of_a_max_dims_tensor_is_an_arg_error) {
  int64_t ones[LT_MAX_DIMS];
  for (int i = 0; i < LT_MAX_DIMS; i++) ones[i] = 1;
  lt_tensor *m = lt_empty(LT_F32, LT_MAX_DIMS, ones, LT_HOST);
  LT_ASSERT_OK_PTR(m);
  FAILS(lt_unsqueeze(m, 0), LT_ERR_ARG, "unsqueeze");
  lt_release(m);
}
END_TEST

START_TEST(unsqueeze_before_a_dim_whose_size_times_stride_overflows_succeeds) {
  /* A wrapped 2-element u8 layout may step 2^62 bytes; size*stride = 2^63
   * does not fit int64, yet the new size-1 dim's stride is never used. */
  uint8_t d[1] = {0};
  lt_tensor *t = lt_wrap(d, LT_U8, 1, (int64_t[]){2}, (int64_t[]){(int64_t)1 << 62}, LT_HOST, NULL, NULL);
  LT_ASSERT_OK_PTR(t);
  lt_tensor *u = lt_unsqueeze(t, 0);
  LT_ASSERT_OK_PTR(u);
  LT_ASSERT_GEOMETRY(u, 2, ((int64_t[]){1, 2}), NULL, 0);
  lt_release(u);
  lt_release(t);
}
END_TEST

START_TEST(unflatten_of_null_is_an_arg_error) {
  FAILS(lt_unflatten(NULL, 0, 2, (int64_t[]){1, 2}), LT_ERR_ARG, "unflatten");
}
END_TEST

START_TEST(unflatten_of_a_zero_dim_tensor_is_an_arg_error) {
  FAILS(lt_unflatten(t0, 0, 1, (int64_t[]){1}), LT_ERR_ARG, "unflatten");
}
END_TEST

START_TEST(unflatten_rejects_dims_out_of_range) {
  FAILS(lt_unflatten(t3, 3, 2, (int64_t[]){2, 2}), LT_ERR_ARG, "unflatten");
  FAILS(lt_unflatten(t3, -4, 2, (int64_t[]){1, 2}), LT_ERR_ARG, "unflatten");
}
END_TEST

START_TEST(unflatten_rejects_empty_or_null_sizes) {
  FAILS(lt_unflatten(t3, 2, 0, (int64_t[]){4}), LT_ERR_ARG, "unflatten");
  FAILS(lt_unflatten(t3, 2, -1, (int64_t[]){4}), LT_ERR_ARG, "unflatten");
  FAILS(lt_unflatten(t3, 2, 2, NULL), LT_ERR_ARG, "unflatten");
}
END_TEST

START_TEST(unflatten_into_more_than_max_dims_is_an_arg_error) {
  int64_t ones[LT_MAX_DIMS];
  for (int i = 0; i < LT_MAX_DIMS; i++) ones[i] = 1;
  ones[0] = 4;
  FAILS(lt_unflatten(t3, 2, LT_MAX_DIMS - 1, ones), LT_ERR_ARG, "unflatten");
}
END_TEST

START_TEST(unflatten_with_a_huge_count_is_an_arg_error) {
  /* ndim - 1 + n must not overflow int on the way to the range check. */
  FAILS(lt_unflatten(t3, 2, INT_MAX, (int64_t[]){2, 2}), LT_ERR_ARG, "unflatten");
}
END_TEST

START_TEST(unflatten_with_sizes_that_do_not_split_the_dim_is_a_shape_error) {
  FAILS(lt_unflatten(t3, 2, 2, (int64_t[]){3, 2}), LT_ERR_SHAPE, "unflatten");
  FAILS(lt_unflatten(t3, 2, 2, (int64_t[]){-1, -1}), LT_ERR_SHAPE, "unflatten");
  FAILS(lt_unflatten(t3, 2, 2, (int64_t[]){-2, -2}), LT_ERR_SHAPE, "unflatten");
  FAILS(lt_unflatten(t3, 2, 2, (int64_t[]){BIG, BIG}), LT_ERR_SHAPE, "unflatten");
}
END_TEST

/* ---- views: as_strided, diagonal ---------------------------------------------------- */

START_TEST(as_strided_of_null_is_an_arg_error) {
  FAILS(lt_as_strided(NULL, 1, (int64_t[]){2}, (int64_t[]){1}, 0), LT_ERR_ARG, "as_strided");
}
END_TEST

START_TEST(as_strided_rejects_ndim_outside_zero_to_max_dims) {
  int64_t v[LT_MAX_DIMS + 1] = {0};
  FAILS(lt_as_strided(t3, -1, v, v, 0), LT_ERR_ARG, "as_strided");
  FAILS(lt_as_strided(t3, LT_MAX_DIMS + 1, v, v, 0), LT_ERR_ARG, "as_strided");
}
END_TEST

START_TEST(as_strided_rejects_null_shape_or_strides) {
  FAILS(lt_as_strided(t3, 1, NULL, (int64_t[]){1}, 0), LT_ERR_ARG, "as_strided");
  FAILS(lt_as_strided(t3, 1, (int64_t[]){2}, NULL, 0), LT_ERR_ARG, "as_strided");
}
END_TEST

START_TEST(as_strided_rejects_negative_sizes_strides_and_offsets) {
  FAILS(lt_as_strided(t3, 1, (int64_t[]){-2}, (int64_t[]){1}, 0), LT_ERR_ARG, "as_strided");
  FAILS(lt_as_strided(t3, 1, (int64_t[]){2}, (int64_t[]){-1}, 4), LT_ERR_ARG, "as_strided");
  FAILS(lt_as_strided(t3, 1, (int64_t[]){2}, (int64_t[]){1}, -1), LT_ERR_ARG, "as_strided");
  FAILS(lt_as_strided(t3, 0, NULL, NULL, INT64_MIN), LT_ERR_ARG, "as_strided");
}
END_TEST

START_TEST(as_strided_reaching_past_the_storage_is_an_arg_error) {
  FAILS(lt_as_strided(t3, 1, (int64_t[]){25}, (int64_t[]){1}, 0), LT_ERR_ARG, "as_strided");
  FAILS(lt_as_strided(t3, 2, (int64_t[]){3, 4}, (int64_t[]){4, 1}, 13), LT_ERR_ARG, "as_strided");
  FAILS(lt_as_strided(t3, 0, NULL, NULL, 24), LT_ERR_ARG, "as_strided");
  FAILS(lt_as_strided(t3, 1, (int64_t[]){1}, (int64_t[]){1}, INT64_MAX), LT_ERR_ARG, "as_strided");
  lt_tensor *fits = lt_as_strided(t3, 2, (int64_t[]){3, 4}, (int64_t[]){4, 1}, 12);
  LT_ASSERT_OK_PTR(fits);
  lt_release(fits);
}
END_TEST

START_TEST(as_strided_of_a_view_is_bounded_by_the_whole_storage_not_the_view) {
  lt_tensor *head = lt_narrow(t3, 0, 0, 1); /* 12 elements of a 24-element storage */
  lt_tensor *all = lt_as_strided(head, 1, (int64_t[]){24}, (int64_t[]){1}, 0);
  LT_ASSERT_OK_PTR(all);
  FAILS(lt_as_strided(head, 1, (int64_t[]){25}, (int64_t[]){1}, 0), LT_ERR_ARG, "as_strided");
  lt_release(all);
  lt_release(head);
}
END_TEST

START_TEST(as_strided_whose_reach_overflows_int64_is_an_arg_error) {
  FAILS(lt_as_strided(t3, 1, (int64_t[]){2}, (int64_t[]){INT64_MAX}, 0), LT_ERR_ARG, "as_strided");
  FAILS(lt_as_strided(t3, 2, (int64_t[]){3, 3}, (int64_t[]){INT64_MAX / 2, INT64_MAX / 2}, 0), LT_ERR_ARG,
        "as_strided");
  FAILS(lt_as_strided(t3, 1, (int64_t[]){2}, (int64_t[]){1}, INT64_MAX), LT_ERR_ARG, "as_strided");
}
END_TEST

START_TEST(as_strided_whose_numel_overflows_is_nomem) {
  FAILS(lt_as_strided(t3, 2, (int64_t[]){BIG, BIG}, (int64_t[]){0, 0}, 0), LT_ERR_NOMEM, "as_strided");
}
END_TEST

START_TEST(as_strided_with_no_elements_fits_at_any_offset) {
  lt_tensor *e = lt_as_strided(t3, 2, (int64_t[]){0, 100}, (int64_t[]){1000, 1000}, 1000);
  LT_ASSERT_OK_PTR(e);
  ck_assert_int_eq(lt_numel(e), 0);
  lt_release(e);
}
END_TEST

START_TEST(diagonal_of_null_is_an_arg_error) {
  FAILS(lt_diagonal(NULL, 0, 0, 1), LT_ERR_ARG, "diagonal");
}
END_TEST

START_TEST(diagonal_of_fewer_than_two_dims_is_an_arg_error) {
  lt_tensor *v = lt_test_arange_f32(1, (int64_t[]){4});
  FAILS(lt_diagonal(v, 0, 0, 1), LT_ERR_ARG, "diagonal");
  FAILS(lt_diagonal(v, 0, 0, -1), LT_ERR_ARG, "diagonal");
  FAILS(lt_diagonal(t0, 0, 0, -1), LT_ERR_ARG, "diagonal");
  lt_release(v);
}
END_TEST

START_TEST(diagonal_of_one_dim_with_itself_is_an_arg_error) {
  FAILS(lt_diagonal(t3, 0, 1, 1), LT_ERR_ARG, "diagonal");
  FAILS(lt_diagonal(t3, 0, 2, -1), LT_ERR_ARG, "diagonal");
}
END_TEST

START_TEST(diagonal_rejects_dims_out_of_range) {
  FAILS(lt_diagonal(t3, 0, 0, 3), LT_ERR_ARG, "diagonal");
  FAILS(lt_diagonal(t3, 0, -4, 1), LT_ERR_ARG, "diagonal");
}
END_TEST

START_TEST(diagonal_with_an_extreme_offset_is_empty_not_an_error) {
  lt_tensor *a = lt_diagonal(t3, INT64_MAX, 1, 2);
  lt_tensor *b = lt_diagonal(t3, INT64_MIN, 1, 2);
  LT_ASSERT_OK_PTR(a);
  LT_ASSERT_OK_PTR(b);
  ck_assert_int_eq(lt_numel(a), 0);
  ck_assert_int_eq(lt_numel(b), 0);
  ck_assert_int_eq(lt_offset(a), 0);
  ck_assert_int_eq(lt_offset(b), 0);
  lt_release(a);
  lt_release(b);
}
END_TEST

/* ---- copies: contiguous, clone, reshape, flatten ---------------------------------- */

START_TEST(contiguous_of_null_is_an_arg_error) {
  FAILS(lt_contiguous(NULL), LT_ERR_ARG, "contiguous");
}
END_TEST

START_TEST(clone_of_null_is_an_arg_error) {
  FAILS(lt_clone(NULL), LT_ERR_ARG, "clone");
}
END_TEST

START_TEST(reshape_of_null_is_an_arg_error) {
  FAILS(lt_reshape(NULL, 1, (int64_t[]){24}), LT_ERR_ARG, "reshape");
}
END_TEST

START_TEST(reshape_rejects_bad_ndim_and_null_shape) {
  int64_t v[LT_MAX_DIMS + 1];
  for (int i = 0; i <= LT_MAX_DIMS; i++) v[i] = 1;
  v[0] = 24;
  FAILS(lt_reshape(t3, -1, v), LT_ERR_ARG, "reshape");
  FAILS(lt_reshape(t3, LT_MAX_DIMS + 1, v), LT_ERR_ARG, "reshape");
  FAILS(lt_reshape(t3, 1, NULL), LT_ERR_ARG, "reshape");
}
END_TEST

START_TEST(reshape_rejects_shapes_that_do_not_hold_numel) {
  lt_tensor *t = lt_transpose(t3, 0, 2); /* would need a copy */
  FAILS(lt_reshape(t, 2, (int64_t[]){5, 5}), LT_ERR_SHAPE, "reshape");
  FAILS(lt_reshape(t, 2, (int64_t[]){-1, -1}), LT_ERR_SHAPE, "reshape");
  FAILS(lt_reshape(t, 2, (int64_t[]){-3, -8}), LT_ERR_SHAPE, "reshape");
  FAILS(lt_reshape(t, 2, (int64_t[]){BIG, BIG}), LT_ERR_SHAPE, "reshape");
  lt_release(t);
}
END_TEST

START_TEST(flatten_of_null_is_an_arg_error) {
  FAILS(lt_flatten(NULL, 0, -1), LT_ERR_ARG, "flatten");
}
END_TEST

START_TEST(flatten_rejects_dims_out_of_range) {
  FAILS(lt_flatten(t3, 0, 3), LT_ERR_ARG, "flatten");
  FAILS(lt_flatten(t3, -4, -1), LT_ERR_ARG, "flatten");
  FAILS(lt_flatten(t3, INT_MIN, INT_MAX), LT_ERR_ARG, "flatten");
}
END_TEST

START_TEST(flatten_of_a_zero_dim_tensor_rejects_dims_other_than_zero_and_minus_one) {
  FAILS(lt_flatten(t0, 1, 1), LT_ERR_ARG, "flatten");
  FAILS(lt_flatten(t0, 0, 5), LT_ERR_ARG, "flatten");
  FAILS(lt_flatten(t0, -2, -1), LT_ERR_ARG, "flatten");
}
END_TEST

START_TEST(materialising_an_expanded_tensor_too_big_for_memory_is_nomem) {
  lt_tensor *e = lt_expand(t0, 2, (int64_t[]){(int64_t)1 << 31, (int64_t)1 << 31}); /* 2^64 bytes */
  LT_ASSERT_OK_PTR(e);
  FAILS(lt_contiguous(e), LT_ERR_NOMEM, "contiguous");
  FAILS(lt_clone(e), LT_ERR_NOMEM, "clone");
  FAILS(lt_cast(e, LT_F16, LT_CAST_DEFAULT), LT_ERR_NOMEM, "cast");
  lt_tensor *pair = lt_zeros(LT_F32, 1, (int64_t[]){2}, LT_HOST);
  lt_tensor *rows = lt_expand(pair, 2, (int64_t[]){(int64_t)1 << 61, 2}); /* strides [0,1] */
  LT_ASSERT_OK_PTR(rows);
  FAILS(lt_reshape(rows, 2, (int64_t[]){2, (int64_t)1 << 61}), LT_ERR_NOMEM, "reshape");
  FAILS(lt_flatten(rows, 0, 1), LT_ERR_NOMEM, "flatten");
  lt_release(rows);
  lt_release(pair);
  lt_release(e);
}
END_TEST

START_TEST(flatten_with_start_after_end_is_an_arg_error) {
  FAILS(lt_flatten(t3, 2, 1), LT_ERR_ARG, "flatten");
  FAILS(lt_flatten(t3, -1, 0), LT_ERR_ARG, "flatten");
}
END_TEST

/* ---- copies: lt_copy ------------------------------------------------------------------ */

START_TEST(copy_with_a_null_side_is_an_arg_error) {
  STATUS(lt_copy(NULL, t3), LT_ERR_ARG, "copy");
  STATUS(lt_copy(t3, NULL), LT_ERR_ARG, "copy");
  STATUS(lt_copy(NULL, NULL), LT_ERR_ARG, "copy");
}
END_TEST

START_TEST(copy_of_a_non_broadcastable_source_is_a_shape_error) {
  lt_tensor *dst = lt_zeros(LT_F32, 2, (int64_t[]){3, 4}, LT_HOST);
  lt_tensor *src3 = lt_zeros(LT_F32, 1, (int64_t[]){3}, LT_HOST);
  LT_ASSERT_OK_PTR(dst);
  LT_ASSERT_OK_PTR(src3);
  STATUS(lt_copy(dst, src3), LT_ERR_SHAPE, "copy");
  STATUS(lt_copy(dst, t3), LT_ERR_SHAPE, "copy"); /* more dims than dst */
  STATUS(lt_copy(t0, dst), LT_ERR_SHAPE, "copy");
  ck_assert_float_eq(read_f32(t0, 0), 7.0f);
  lt_release(src3);
  lt_release(dst);
}
END_TEST

START_TEST(copy_into_an_expanded_destination_is_an_overlap_error) {
  lt_tensor *row = lt_zeros(LT_F32, 2, (int64_t[]){1, 4}, LT_HOST);
  lt_tensor *dst = lt_expand(row, 2, (int64_t[]){3, 4});
  lt_tensor *src = lt_narrow(t3, 0, 0, 1);
  lt_tensor *src2 = lt_view(src, 2, (int64_t[]){3, 4});
  LT_ASSERT_OK_PTR(dst);
  LT_ASSERT_OK_PTR(src2);
  STATUS(lt_copy(dst, src2), LT_ERR_OVERLAP, "copy");
  for (int i = 0; i < 4; i++) ck_assert_float_eq(read_f32(row, i), 0.0f);
  lt_release(src2);
  lt_release(src);
  lt_release(dst);
  lt_release(row);
}
END_TEST

START_TEST(copy_from_an_expanded_source_succeeds) {
  lt_tensor *row = lt_from_data((float[]){1, 2, 3, 4}, LT_F32, 2, (int64_t[]){1, 4});
  lt_tensor *src = lt_expand(row, 2, (int64_t[]){3, 4});
  lt_tensor *dst = lt_zeros(LT_F32, 2, (int64_t[]){3, 4}, LT_HOST);
  LT_ASSERT_OK_PTR(src);
  LT_ASSERT_OK_PTR(dst);
  LT_ASSERT_OK(lt_copy(dst, src));
  for (int i = 0; i < 12; i++) ck_assert_float_eq(read_f32(dst, i), (float)(i % 4 + 1));
  lt_release(dst);
  lt_release(src);
  lt_release(row);
}
END_TEST

START_TEST(copy_between_partially_aliasing_views_is_an_overlap_error) {
  lt_tensor *base = lt_test_arange_f32(1, (int64_t[]){8});
  lt_tensor *dst = lt_narrow(base, 0, 0, 4);
  lt_tensor *src = lt_narrow(base, 0, 2, 4);
  LT_ASSERT_OK_PTR(dst);
  LT_ASSERT_OK_PTR(src);
  STATUS(lt_copy(dst, src), LT_ERR_OVERLAP, "copy");
  STATUS(lt_copy(src, dst), LT_ERR_OVERLAP, "copy");
  for (int i = 0; i < 8; i++) ck_assert_float_eq(read_f32(base, i), (float)i);
  lt_release(src);
  lt_release(dst);
  lt_release(base);
}
END_TEST

START_TEST(copy_between_reversed_views_of_one_storage_is_an_overlap_error) {
  lt_tensor *base = lt_test_arange_f32(1, (int64_t[]){8});
  lt_tensor *rev = lt_slice(base, 0, LT_NONE, LT_NONE, -1);
  LT_ASSERT_OK_PTR(rev);
  STATUS(lt_copy(base, rev), LT_ERR_OVERLAP, "copy");
  for (int i = 0; i < 8; i++) ck_assert_float_eq(read_f32(base, i), (float)i);
  lt_release(rev);
  lt_release(base);
}
END_TEST

START_TEST(copy_between_interleaved_disjoint_views_of_one_storage_succeeds) {
  lt_tensor *base = lt_test_arange_f32(1, (int64_t[]){8});
  lt_tensor *evens = lt_slice(base, 0, 0, LT_NONE, 2);
  lt_tensor *odds = lt_slice(base, 0, 1, LT_NONE, 2);
  LT_ASSERT_OK_PTR(evens);
  LT_ASSERT_OK_PTR(odds);
  LT_ASSERT_OK(lt_copy(evens, odds));
  const float want[8] = {1, 1, 3, 3, 5, 5, 7, 7};
  for (int i = 0; i < 8; i++) ck_assert_float_eq(read_f32(base, i), want[i]);
  lt_release(odds);
  lt_release(evens);
  lt_release(base);
}
END_TEST

START_TEST(copy_into_an_interleaved_view_from_a_source_reading_its_elements_is_an_overlap_error) {
  /* dst writes {0,2,4, 3,5,7}; src reads {1,2,3, 9,10,11}. */
  lt_tensor *base = lt_test_arange_f32(1, (int64_t[]){20});
  lt_tensor *dst = lt_as_strided(base, 2, (int64_t[]){2, 3}, (int64_t[]){3, 2}, 0);
  lt_tensor *src = lt_as_strided(base, 2, (int64_t[]){2, 3}, (int64_t[]){8, 1}, 1);
  LT_ASSERT_OK_PTR(dst);
  LT_ASSERT_OK_PTR(src);
  STATUS(lt_copy(dst, src), LT_ERR_OVERLAP, "copy");
  for (int i = 0; i < 20; i++) ck_assert_float_eq(read_f32(base, i), (float)i);
  lt_release(src);
  lt_release(dst);
  lt_release(base);
}
END_TEST

START_TEST(copy_between_interleaved_as_strided_views_sharing_no_element_succeeds) {
  /* dst writes {0,2,4, 3,5,7}; src reads {1,6,11, 9,14,19}: the ranges
   * interleave, the elements do not. */
  lt_tensor *base = lt_test_arange_f32(1, (int64_t[]){20});
  lt_tensor *dst = lt_as_strided(base, 2, (int64_t[]){2, 3}, (int64_t[]){3, 2}, 0);
  lt_tensor *src = lt_as_strided(base, 2, (int64_t[]){2, 3}, (int64_t[]){8, 5}, 1);
  LT_ASSERT_OK_PTR(dst);
  LT_ASSERT_OK_PTR(src);
  LT_ASSERT_OK(lt_copy(dst, src));
  const float want[20] = {1, 1, 6, 9, 11, 14, 6, 19, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19};
  for (int i = 0; i < 20; i++) ck_assert_float_eq(read_f32(base, i), want[i]);
  lt_release(src);
  lt_release(dst);
  lt_release(base);
}
END_TEST

START_TEST(copy_of_a_tensor_onto_itself_succeeds) {
  LT_ASSERT_OK(lt_copy(t3, t3));
  lt_tensor *same = lt_view(t3, 3, (int64_t[]){2, 3, 4});
  LT_ASSERT_OK(lt_copy(t3, same));
  for (int i = 0; i < 24; i++) ck_assert_float_eq(read_f32(t3, i), (float)i);
  lt_release(same);
}
END_TEST

START_TEST(copy_of_nan_into_an_integer_tensor_is_an_arg_error_naming_copy) {
  lt_tensor *src = lt_from_data((float[]){1.0f, NAN}, LT_F32, 1, (int64_t[]){2});
  lt_tensor *dst = lt_zeros(LT_I32, 1, (int64_t[]){2}, LT_HOST);
  LT_ASSERT_OK_PTR(src);
  LT_ASSERT_OK_PTR(dst);
  clear_error();
  lt_status s = lt_copy(dst, src);
  lt_release(dst);
  lt_release(src);
  ck_assert_int_eq(s, LT_ERR_ARG);
  ASSERT_LAST_ERROR(LT_ERR_ARG, "copy");
}
END_TEST

/* ---- copies: cast, to, to_device ---------------------------------------------------- */

START_TEST(cast_of_null_is_an_arg_error) {
  FAILS(lt_cast(NULL, LT_F16, LT_CAST_DEFAULT), LT_ERR_ARG, "cast");
}
END_TEST

START_TEST(cast_to_an_invalid_dtype_is_an_arg_error) {
  FAILS(lt_cast(t3, BAD_DTYPE, LT_CAST_DEFAULT), LT_ERR_ARG, "cast");
  FAILS(lt_cast(t3, NEG_DTYPE, LT_CAST_SATURATE), LT_ERR_ARG, "cast");
}
END_TEST

START_TEST(cast_with_an_invalid_mode_is_an_arg_error) {
  FAILS(lt_cast(t3, LT_F16, (lt_cast_mode)2), LT_ERR_ARG, "cast");
  FAILS(lt_cast(t3, LT_F16, (lt_cast_mode)-1), LT_ERR_ARG, "cast");
}
END_TEST

START_TEST(to_of_null_or_to_an_invalid_dtype_is_an_arg_error) {
  FAILS(lt_to(NULL, LT_F16), LT_ERR_ARG, "cast");
  FAILS(lt_to(t3, BAD_DTYPE), LT_ERR_ARG, "cast");
  FAILS(lt_to(t3, NEG_DTYPE), LT_ERR_ARG, "cast");
}
END_TEST

/* Casting the one f64 value v to dt must fail with LT_ERR_ARG. */
static void assert_cast_fails(double v, lt_dtype dt) {
  lt_tensor *t = lt_from_data(&v, LT_F64, 1, (int64_t[]){1});
  ck_assert_ptr_nonnull(t);
  clear_error();
  lt_tensor *r = lt_cast(t, dt, LT_CAST_DEFAULT);
  ck_assert_msg(r == NULL, "casting %g to %s succeeded", v, lt_dtype_name(dt));
  ASSERT_LAST_ERROR(LT_ERR_ARG, "cast");
  clear_error();
  r = lt_cast(t, dt, LT_CAST_SATURATE);
  ck_assert_msg(r == NULL, "saturating cast of %g to %s succeeded", v, lt_dtype_name(dt));
  ASSERT_LAST_ERROR(LT_ERR_ARG, "cast");
  lt_release(t);
}

/* Casting the one f64 value v to dt gives want. */
static void assert_cast_gives(double v, lt_dtype dt, int64_t want) {
  lt_tensor *t = lt_from_data(&v, LT_F64, 1, (int64_t[]){1});
  lt_tensor *r = lt_cast(t, dt, LT_CAST_DEFAULT);
  ck_assert_msg(r != NULL, "casting %.17g to %s: %s", v, lt_dtype_name(dt), lt_last_error());
  int64_t got = 0;
  switch (dt) {
  case LT_I32: { int32_t x; LT_ASSERT_OK(lt_read(r, &x, 4)); got = x; break; }
  case LT_I64: LT_ASSERT_OK(lt_read(r, &got, 8)); break;
  default: { uint8_t x; LT_ASSERT_OK(lt_read(r, &x, 1)); got = x; break; }
  }
  ck_assert_msg(got == want, "%.17g -> %s gave %lld, want %lld", v, lt_dtype_name(dt), (long long)got,
                (long long)want);
  lt_release(r);
  lt_release(t);
}

START_TEST(cast_of_nan_to_an_integer_dtype_is_an_arg_error) {
  assert_cast_fails(NAN, LT_I32);
  assert_cast_fails(-NAN, LT_I64);
  assert_cast_fails(NAN, LT_U8);
}
END_TEST

START_TEST(cast_of_infinity_to_an_integer_dtype_is_an_arg_error) {
  assert_cast_fails(INFINITY, LT_I32);
  assert_cast_fails(-INFINITY, LT_I32);
  assert_cast_fails(INFINITY, LT_I64);
  assert_cast_fails(-INFINITY, LT_U8);
}
END_TEST

START_TEST(cast_of_an_out_of_range_float_to_an_integer_dtype_is_an_arg_error) {
  assert_cast_fails(2147483648.0, LT_I32);
  assert_cast_fails(-2147483649.0, LT_I32);
  assert_cast_fails(9223372036854775808.0, LT_I64);
  assert_cast_fails(-9223372036854777856.0, LT_I64); /* the next double below -2^63 */
  assert_cast_fails(256.0, LT_U8);
  assert_cast_fails(-1.0, LT_U8);
}
END_TEST

START_TEST(cast_truncates_floats_just_inside_the_integer_range) {
  assert_cast_gives(2147483647.9, LT_I32, 2147483647);
  assert_cast_gives(-2147483648.9, LT_I32, INT32_MIN);
  assert_cast_gives(-9223372036854775808.0, LT_I64, INT64_MIN);
  assert_cast_gives(255.9, LT_U8, 255);
  assert_cast_gives(-0.9, LT_U8, 0);
}
END_TEST

START_TEST(cast_of_a_strided_view_with_one_bad_element_fails_and_leaks_nothing) {
  lt_tensor *t = lt_from_data((float[]){1, 2, 3, 4, INFINITY, 6}, LT_F32, 2, (int64_t[]){2, 3});
  lt_tensor *tt = lt_transpose(t, 0, 1);
  FAILS(lt_cast(tt, LT_I32, LT_CAST_DEFAULT), LT_ERR_ARG, "cast");
  lt_release(tt);
  lt_release(t);
}
END_TEST

START_TEST(to_device_of_null_is_an_arg_error) {
  FAILS(lt_to_device(NULL, LT_HOST), LT_ERR_ARG, "to_device");
}
END_TEST

START_TEST(to_device_to_an_unavailable_device_is_a_device_error) {
  FAILS(lt_to_device(t3, cpu5), LT_ERR_DEVICE, "to_device");
  FAILS(lt_to_device(t3, cpu_neg), LT_ERR_DEVICE, "to_device");
  FAILS(lt_to_device(t3, kind7), LT_ERR_DEVICE, "to_device");
}
END_TEST

START_TEST(to_device_to_cuda_fails_with_a_device_error_unless_cuda_is_available) {
  if (lt_device_available(cuda0)) {
    lt_tensor *c = lt_to_device(t3, cuda0);
    LT_ASSERT_OK_PTR(c);
    lt_release(c);
    return;
  }
  FAILS(lt_to_device(t3, cuda0), LT_ERR_DEVICE, "to_device");
}
END_TEST

/* ---- accounting, policy, allocator ------------------------------------------------------ */

START_TEST(stats_get_of_an_unknown_device_is_zero_with_a_device_error) {
  const lt_device bad[] = {cpu5, cpu_neg, kind7};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    clear_error();
    lt_stats s = lt_stats_get(bad[i]);
    ASSERT_LAST_ERROR(LT_ERR_DEVICE, "stats_get");
    ck_assert_int_eq(s.bytes_in_use, 0);
    ck_assert_int_eq(s.peak_bytes, 0);
    ck_assert_int_eq(s.allocs, 0);
    ck_assert_int_eq(s.copies, 0);
    ck_assert_int_eq(s.implicit_copies, 0);
    ck_assert_int_eq(s.bytes_copied, 0);
    ck_assert_int_eq(s.flops, 0);
  }
}
END_TEST

START_TEST(stats_reset_of_an_unknown_device_is_a_device_error_and_resets_nothing) {
  lt_tensor *c = lt_clone(t3);
  LT_ASSERT_OK_PTR(c);
  lt_stats before = lt_stats_get(LT_HOST);
  ck_assert_int_gt(before.copies, 0);
  const lt_device bad[] = {cpu5, cpu_neg, kind7};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    clear_error();
    lt_stats_reset(bad[i]);
    ASSERT_LAST_ERROR(LT_ERR_DEVICE, "stats_reset");
  }
  lt_stats after = lt_stats_get(LT_HOST);
  ck_assert_int_eq(after.copies, before.copies);
  ck_assert_int_eq(after.allocs, before.allocs);
  ck_assert_int_eq(after.bytes_in_use, before.bytes_in_use);
  lt_release(c);
}
END_TEST

START_TEST(set_copy_policy_with_an_unknown_value_keeps_a_valid_policy) {
  lt_copy_policy old = lt_set_copy_policy((lt_copy_policy)7);
  ck_assert(old == LT_COPY_ALLOW || old == LT_COPY_FORBID);
  lt_copy_policy now = lt_set_copy_policy(LT_COPY_ALLOW);
  ck_assert_msg(now == LT_COPY_ALLOW || now == LT_COPY_FORBID, "policy became %d", (int)now);
  lt_set_copy_policy(old);
}
END_TEST

START_TEST(set_allocator_with_a_missing_function_restores_the_default) {
  lt_set_allocator(&(lt_allocator){NULL, NULL, NULL});
  lt_tensor *t = lt_empty(LT_F32, 1, (int64_t[]){16}, LT_HOST);
  LT_ASSERT_OK_PTR(t);
  lt_release(t);
  lt_set_allocator(NULL);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("misuse");
  TCase *tc;

#define ADD(test) tcase_add_test(tc, test)
  tc = tcase_create("basics");
  tcase_add_checked_fixture(tc, setup, teardown);
  ADD(status_str_names_every_status);
  ADD(status_str_of_an_unknown_value_is_lt_err_unknown);
  ADD(dtype_name_of_an_invalid_dtype_is_invalid);
  ADD(dtype_size_of_an_invalid_dtype_is_zero_with_an_arg_error);
  ADD(a_success_clears_the_last_error);
  ADD(release_of_null_is_a_noop);
  ADD(retain_of_null_returns_null);
  ADD(device_available_is_false_for_unknown_devices);
  suite_add_tcase(s, tc);

  tc = tcase_create("create");
  tcase_add_checked_fixture(tc, setup, teardown);
  ADD(empty_rejects_invalid_dtypes);
  ADD(empty_rejects_ndim_outside_zero_to_max_dims);
  ADD(empty_rejects_a_null_shape_when_ndim_is_positive);
  ADD(empty_accepts_a_null_shape_for_zero_dims);
  ADD(empty_rejects_negative_sizes);
  ADD(empty_whose_numel_overflows_int64_is_nomem);
  ADD(empty_whose_byte_size_overflows_int64_is_nomem);
  ADD(empty_with_a_zero_size_dim_ignores_overflow_elsewhere);
  ADD(empty_on_an_unavailable_device_is_a_device_error);
  ADD(empty_on_cuda_fails_with_a_device_error_unless_cuda_is_available);
  ADD(zeros_validates_its_arguments_like_empty);
  ADD(from_data_rejects_null_data_for_a_nonempty_shape);
  ADD(from_data_accepts_null_data_for_zero_elements);
  ADD(from_data_validates_dtype_ndim_and_shape);
  ADD(wrap_rejects_null_data_for_a_nonempty_shape_without_calling_the_deleter);
  ADD(wrap_rejects_bad_dtype_ndim_and_shape_without_calling_the_deleter);
  ADD(wrap_with_strides_reaching_past_int64_is_nomem_without_calling_the_deleter);
  ADD(wrap_on_an_unavailable_device_is_a_device_error_without_calling_the_deleter);
  suite_add_tcase(s, tc);

  tc = tcase_create("io");
  tcase_add_checked_fixture(tc, setup, teardown);
  ADD(read_of_a_null_tensor_is_an_arg_error);
  ADD(read_with_the_wrong_nbytes_is_an_arg_error);
  ADD(read_into_a_null_buffer_is_an_arg_error);
  ADD(read_of_an_empty_tensor_takes_zero_bytes_and_a_null_buffer);
  ADD(read_of_an_expanded_tensor_whose_byte_size_overflows_size_t_is_an_arg_error);
  ADD(write_of_a_null_tensor_is_an_arg_error);
  ADD(write_with_the_wrong_nbytes_is_an_arg_error_and_writes_nothing);
  ADD(write_from_a_null_buffer_is_an_arg_error);
  ADD(write_into_an_expanded_tensor_is_an_overlap_error);
  ADD(write_into_a_self_overlapping_as_strided_view_is_an_overlap_error);
  ADD(write_into_an_interleaved_but_disjoint_as_strided_view_succeeds);
  suite_add_tcase(s, tc);

  tc = tcase_create("introspection");
  tcase_add_checked_fixture(tc, setup, teardown);
  ADD(ndim_of_null_is_minus_one_with_an_arg_error);
  ADD(shape_and_strides_of_null_are_null_with_an_arg_error);
  ADD(size_and_stride_of_null_are_minus_one_with_an_arg_error);
  ADD(size_rejects_dims_out_of_range);
  ADD(stride_rejects_dims_out_of_range);
  ADD(size_and_stride_of_a_zero_dim_tensor_have_no_dim_to_name);
  ADD(offset_and_numel_of_null_are_minus_one_with_an_arg_error);
  ADD(dtype_of_and_device_of_null_give_defaults_with_an_arg_error);
  ADD(is_contiguous_of_null_is_false_with_an_arg_error);
  ADD(shares_storage_with_a_null_side_is_false_with_an_arg_error);
  ADD(data_of_null_is_null_with_an_arg_error);
  ADD(describe_of_null_is_minus_one_with_an_arg_error);
  ADD(describe_into_a_null_buffer_of_positive_size_is_an_arg_error);
  ADD(describe_with_a_small_buffer_truncates_and_returns_the_full_length);
  suite_add_tcase(s, tc);

  tc = tcase_create("views");
  tcase_add_checked_fixture(tc, setup, teardown);
  ADD(view_of_null_is_an_arg_error);
  ADD(view_rejects_ndim_outside_zero_to_max_dims);
  ADD(view_rejects_a_null_shape_when_ndim_is_positive);
  ADD(view_rejects_a_size_below_minus_one);
  ADD(view_rejects_two_inferred_sizes);
  ADD(view_rejects_a_numel_mismatch);
  ADD(view_to_a_shape_whose_numel_overflows_is_a_shape_error);
  ADD(slice_of_null_is_an_arg_error);
  ADD(slice_of_a_zero_dim_tensor_is_an_arg_error);
  ADD(slice_rejects_dims_out_of_range);
  ADD(slice_with_step_zero_is_an_arg_error);
  ADD(slice_clamps_extreme_bounds_and_steps_without_failing);
  ADD(select_of_null_is_an_arg_error);
  ADD(select_of_a_zero_dim_tensor_is_an_arg_error);
  ADD(select_rejects_dims_out_of_range);
  ADD(select_rejects_indices_out_of_range);
  ADD(select_on_a_size_zero_dim_is_an_arg_error);
  ADD(narrow_of_null_is_an_arg_error);
  ADD(narrow_of_a_zero_dim_tensor_is_an_arg_error);
  ADD(narrow_rejects_dims_out_of_range);
  ADD(narrow_rejects_a_start_out_of_range);
  ADD(narrow_rejects_a_length_that_is_negative_or_too_long);
  ADD(transpose_of_null_is_an_arg_error);
  ADD(transpose_rejects_dims_out_of_range);
  ADD(transpose_of_a_zero_dim_tensor_accepts_only_dims_zero_and_minus_one);
  ADD(permute_of_null_is_an_arg_error);
  ADD(permute_with_a_null_perm_is_an_arg_error);
  ADD(permute_of_a_zero_dim_tensor_takes_an_empty_perm);
  ADD(permute_rejects_a_repeated_dim);
  ADD(permute_rejects_a_dim_out_of_range);
  ADD(movedim_of_null_is_an_arg_error);
  ADD(movedim_rejects_dims_out_of_range);
  ADD(expand_of_null_is_an_arg_error);
  ADD(expand_rejects_ndim_outside_zero_to_max_dims);
  ADD(expand_rejects_a_null_shape_when_ndim_is_positive);
  ADD(expand_to_fewer_dims_is_a_shape_error);
  ADD(expand_of_a_non_singleton_dim_is_a_shape_error);
  ADD(expand_to_a_negative_size_is_an_arg_error);
  ADD(expand_with_minus_one_in_a_new_leading_dim_is_an_arg_error);
  ADD(expand_to_a_shape_whose_numel_overflows_is_nomem);
  ADD(squeeze_of_null_is_an_arg_error);
  ADD(squeeze_rejects_dims_out_of_range);
  ADD(squeeze_all_of_null_is_an_arg_error);
  ADD(unsqueeze_of_null_is_an_arg_error);
  ADD(unsqueeze_rejects_dims_outside_minus_ndim_minus_one_to_ndim);
  ADD(unsqueeze_of_a_max_dims_tensor_is_an_arg_error);
  ADD(unsqueeze_before_a_dim_whose_size_times_stride_overflows_succeeds);
  ADD(unflatten_of_null_is_an_arg_error);
  ADD(unflatten_of_a_zero_dim_tensor_is_an_arg_error);
  ADD(unflatten_rejects_dims_out_of_range);
  ADD(unflatten_rejects_empty_or_null_sizes);
  ADD(unflatten_into_more_than_max_dims_is_an_arg_error);
  ADD(unflatten_with_a_huge_count_is_an_arg_error);
  ADD(unflatten_with_sizes_that_do_not_split_the_dim_is_a_shape_error);
  ADD(as_strided_of_null_is_an_arg_error);
  ADD(as_strided_rejects_ndim_outside_zero_to_max_dims);
  ADD(as_strided_rejects_null_shape_or_strides);
  ADD(as_strided_rejects_negative_sizes_strides_and_offsets);
  ADD(as_strided_reaching_past_the_storage_is_an_arg_error);
  ADD(as_strided_of_a_view_is_bounded_by_the_whole_storage_not_the_view);
  ADD(as_strided_whose_reach_overflows_int64_is_an_arg_error);
  ADD(as_strided_whose_numel_overflows_is_nomem);
  ADD(as_strided_with_no_elements_fits_at_any_offset);
  ADD(diagonal_of_null_is_an_arg_error);
  ADD(diagonal_of_fewer_than_two_dims_is_an_arg_error);
  ADD(diagonal_of_one_dim_with_itself_is_an_arg_error);
  ADD(diagonal_rejects_dims_out_of_range);
  ADD(diagonal_with_an_extreme_offset_is_empty_not_an_error);
  suite_add_tcase(s, tc);

  tc = tcase_create("copies");
  tcase_add_checked_fixture(tc, setup, teardown);
  ADD(contiguous_of_null_is_an_arg_error);
  ADD(clone_of_null_is_an_arg_error);
  ADD(reshape_of_null_is_an_arg_error);
  ADD(reshape_rejects_bad_ndim_and_null_shape);
  ADD(reshape_rejects_shapes_that_do_not_hold_numel);
  ADD(flatten_of_null_is_an_arg_error);
  ADD(flatten_rejects_dims_out_of_range);
  ADD(flatten_of_a_zero_dim_tensor_rejects_dims_other_than_zero_and_minus_one);
  ADD(flatten_with_start_after_end_is_an_arg_error);
  ADD(materialising_an_expanded_tensor_too_big_for_memory_is_nomem);
  ADD(copy_with_a_null_side_is_an_arg_error);
  ADD(copy_of_a_non_broadcastable_source_is_a_shape_error);
  ADD(copy_into_an_expanded_destination_is_an_overlap_error);
  ADD(copy_from_an_expanded_source_succeeds);
  ADD(copy_between_partially_aliasing_views_is_an_overlap_error);
  ADD(copy_between_reversed_views_of_one_storage_is_an_overlap_error);
  ADD(copy_between_interleaved_disjoint_views_of_one_storage_succeeds);
  ADD(copy_into_an_interleaved_view_from_a_source_reading_its_elements_is_an_overlap_error);
  ADD(copy_between_interleaved_as_strided_views_sharing_no_element_succeeds);
  ADD(copy_of_a_tensor_onto_itself_succeeds);
  ADD(copy_of_nan_into_an_integer_tensor_is_an_arg_error_naming_copy);
  ADD(cast_of_null_is_an_arg_error);
  ADD(cast_to_an_invalid_dtype_is_an_arg_error);
  ADD(cast_with_an_invalid_mode_is_an_arg_error);
  ADD(to_of_null_or_to_an_invalid_dtype_is_an_arg_error);
  ADD(cast_of_nan_to_an_integer_dtype_is_an_arg_error);
  ADD(cast_of_infinity_to_an_integer_dtype_is_an_arg_error);
  ADD(cast_of_an_out_of_range_float_to_an_integer_dtype_is_an_arg_error);
  ADD(cast_truncates_floats_just_inside_the_integer_range);
  ADD(cast_of_a_strided_view_with_one_bad_element_fails_and_leaks_nothing);
  ADD(to_device_of_null_is_an_arg_error);
  ADD(to_device_to_an_unavailable_device_is_a_device_error);
  ADD(to_device_to_cuda_fails_with_a_device_error_unless_cuda_is_available);
  suite_add_tcase(s, tc);

  tc = tcase_create("accounting");
  tcase_add_checked_fixture(tc, setup, teardown);
  ADD(stats_get_of_an_unknown_device_is_zero_with_a_device_error);
  ADD(stats_reset_of_an_unknown_device_is_a_device_error_and_resets_nothing);
  ADD(set_copy_policy_with_an_unknown_value_keeps_a_valid_policy);
  ADD(set_allocator_with_a_missing_function_restores_the_default);
  suite_add_tcase(s, tc);
#undef ADD
  return s;
}

int main(void) { return lt_run_suite(suite()); }
