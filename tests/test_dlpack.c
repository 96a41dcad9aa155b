/* Specification of lt_to_dlpack and lt_from_dlpack: the DLTensor fields
 * exported for each dtype and layout, lifetimes on both sides (the
 * exported struct keeps the storage alive; the producer's deleter runs
 * once, when the last reference goes, and never when import fails), and
 * the dtypes, devices and arguments refused. What exists depends on the
 * dlpack.h the library was built with; this suite includes the same one. */
#define _POSIX_C_SOURCE 200809L
#include <dlpack/dlpack.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/check_helpers.h"

#if defined(DLPACK_MAJOR_VERSION)
#define HAVE_DL_BOOL 1
#define HAVE_DL_VERSIONED (DLPACK_MAJOR_VERSION >= 1)
#define HAVE_DL_FLOAT8 (DLPACK_MAJOR_VERSION > 1 || (DLPACK_MAJOR_VERSION == 1 && DLPACK_MINOR_VERSION >= 1))
#else
#define HAVE_DL_BOOL (DLPACK_VERSION >= 80)
#define HAVE_DL_VERSIONED 0
#define HAVE_DL_FLOAT8 0
#endif

/* ---- a producer: a managed tensor over a static buffer that counts deletions ---- */

typedef struct producer {
  DLManagedTensor m;
  int64_t shape[4], strides[4];
  int deletions;
} producer;

static void producer_delete(DLManagedTensor *m) { ((producer *)m->manager_ctx)->deletions++; }

static void producer_init(producer *p, void *data, DLDataType dt, int ndim, const int64_t *shape,
                          const int64_t *strides) {
  memset(p, 0, sizeof *p);
  memcpy(p->shape, shape, sizeof(int64_t) * (size_t)ndim);
  if (strides) memcpy(p->strides, strides, sizeof(int64_t) * (size_t)ndim);
  p->m.dl_tensor = (DLTensor){.data = data, .device = {kDLCPU, 0}, .ndim = ndim, .dtype = dt,
                              .shape = p->shape, .strides = strides ? p->strides : NULL};
  p->m.manager_ctx = p;
  p->m.deleter = producer_delete;
}

static const DLDataType dl_f32 = {kDLFloat, 32, 1};

static void assert_import_fails(producer *p, lt_status st) {
  LT_ASSERT_FAILS(lt_from_dlpack(&p->m), st);
  ck_assert_int_eq(p->deletions, 0); /* on failure the producer keeps its tensor */
}

/* ---- export ------------------------------------------------------------------------ */

START_TEST(export_describes_the_tensor_in_place) {
  lt_tensor *t = lt_test_arange_f32(2, (int64_t[]){2, 3});
  DLManagedTensor *m = lt_to_dlpack(t);
  LT_ASSERT_OK_PTR(m);
  const DLTensor *d = &m->dl_tensor;
  ck_assert_ptr_eq(d->data, lt_data(t));
  ck_assert_int_eq(d->device.device_type, kDLCPU);
  ck_assert_int_eq(d->device.device_id, 0);
  ck_assert_int_eq(d->ndim, 2);
  ck_assert_int_eq(d->dtype.code, kDLFloat);
  ck_assert_int_eq(d->dtype.bits, 32);
  ck_assert_int_eq(d->dtype.lanes, 1);
  ck_assert(d->shape[0] == 2 && d->shape[1] == 3);
  ck_assert(d->strides[0] == 3 && d->strides[1] == 1);
  ck_assert_uint_eq(d->byte_offset, 0);
  m->deleter(m);
  lt_release(t);
}
END_TEST

START_TEST(export_of_a_view_gives_its_strides_and_first_element) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){3, 4});
  lt_tensor *v = lt_slice(a, 1, LT_NONE, LT_NONE, -2); /* [3,2] strides [4,-2], starts at element 3 */
  DLManagedTensor *m = lt_to_dlpack(v);
  LT_ASSERT_OK_PTR(m);
  const DLTensor *d = &m->dl_tensor;
  ck_assert_ptr_eq(d->data, (float *)lt_data(a) + 3);
  ck_assert(d->shape[0] == 3 && d->shape[1] == 2);
  ck_assert(d->strides[0] == 4 && d->strides[1] == -2);
  const float *p = d->data;
  ck_assert(p[2 * d->strides[0] + 1 * d->strides[1]] == 9.0f);
  m->deleter(m);
  lt_release(v);
  lt_release(a);
}
END_TEST

START_TEST(the_exported_struct_keeps_the_storage_alive_until_its_deleter_runs) {
  int64_t before = lt_stats_get(LT_HOST).bytes_in_use;
  lt_tensor *t = lt_test_arange_f32(1, (int64_t[]){256});
  DLManagedTensor *m = lt_to_dlpack(t);
  lt_release(t);
  ck_assert_int_eq(lt_stats_get(LT_HOST).bytes_in_use, before + 1024);
  ck_assert(((const float *)m->dl_tensor.data)[255] == 255.0f);
  m->deleter(m);
  ck_assert_int_eq(lt_stats_get(LT_HOST).bytes_in_use, before);
}
END_TEST

typedef struct dtype_case {
  lt_dtype dt;
  uint8_t code, bits;
} dtype_case;

START_TEST(each_dtype_maps_to_its_dlpack_code) {
  static const dtype_case cases[] = {
      {LT_F32, kDLFloat, 32}, {LT_F16, kDLFloat, 16}, {LT_F64, kDLFloat, 64}, {LT_BF16, kDLBfloat, 16},
      {LT_I32, kDLInt, 32},   {LT_I64, kDLInt, 64},   {LT_U8, kDLUInt, 8},
#if HAVE_DL_BOOL
      {LT_BOOL, kDLBool, 8},
#endif
#if HAVE_DL_FLOAT8
      {LT_F8_E4M3, kDLFloat8_e4m3fn, 8}, {LT_F8_E5M2, kDLFloat8_e5m2, 8},
#endif
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    lt_tensor *t = lt_zeros(cases[i].dt, 1, (int64_t[]){2}, LT_HOST);
    DLManagedTensor *m = lt_to_dlpack(t);
    LT_ASSERT_OK_PTR(m);
    ck_assert_int_eq(m->dl_tensor.dtype.code, cases[i].code);
    ck_assert_int_eq(m->dl_tensor.dtype.bits, cases[i].bits);
    lt_tensor *back = lt_from_dlpack(m);
    LT_ASSERT_OK_PTR(back);
    ck_assert_int_eq(lt_dtype_of(back), cases[i].dt);
    lt_release(back); /* runs m's deleter */
    lt_release(t);
  }
}
END_TEST

START_TEST(dtypes_this_dlpack_h_cannot_name_fail_with_dtype_error) {
  lt_dtype missing[3];
  int n = 0;
#if !HAVE_DL_BOOL
  missing[n++] = LT_BOOL;
#endif
#if !HAVE_DL_FLOAT8
  missing[n++] = LT_F8_E4M3;
  missing[n++] = LT_F8_E5M2;
#endif
  for (int i = 0; i < n; i++) {
    lt_tensor *t = lt_zeros(missing[i], 1, (int64_t[]){2}, LT_HOST);
    LT_ASSERT_FAILS((lt_tensor *)lt_to_dlpack(t), LT_ERR_DTYPE);
    ck_assert_msg(strstr(lt_last_error(), lt_dtype_name(missing[i])) != NULL, "%s", lt_last_error());
    lt_release(t);
  }
}
END_TEST

START_TEST(export_refuses_null_and_read_only_tensors) {
  LT_ASSERT_FAILS((lt_tensor *)lt_to_dlpack(NULL), LT_ERR_ARG);
  /* A mapped safetensors view is read-only. */
  float x[2] = {1, 2};
  char path[] = "/tmp/lt_dlpack_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  close(fd);
  lt_tensor *t = lt_from_data(x, LT_F32, 1, (int64_t[]){2});
  LT_ASSERT_OK(lt_safetensors_save(path, 1, (const char *[]){"x"}, &t, NULL));
  lt_safetensors *f = lt_safetensors_open(path);
  lt_tensor *v = lt_safetensors_get(f, "x");
  LT_ASSERT_OK_PTR(v);
  LT_ASSERT_FAILS((lt_tensor *)lt_to_dlpack(v), LT_ERR_ARG);
  ck_assert_msg(strstr(lt_last_error(), "read-only") != NULL, "%s", lt_last_error());
  lt_release(v);
  lt_safetensors_close(f);
  lt_release(t);
  unlink(path);
}
END_TEST

/* ---- import ------------------------------------------------------------------------ */

START_TEST(import_wraps_the_producers_memory_without_copying) {
  float x[6] = {0, 1, 2, 3, 4, 5};
  producer p;
  producer_init(&p, x, dl_f32, 2, (int64_t[]){2, 3}, NULL);
  lt_stats_reset(LT_HOST);
  lt_tensor *t = lt_from_dlpack(&p.m);
  LT_ASSERT_OK_PTR(t);
  ck_assert_int_eq(lt_stats_get(LT_HOST).allocs, 0);
  ck_assert_ptr_eq(lt_data(t), x);
  LT_ASSERT_GEOMETRY(t, 2, ((int64_t[]){2, 3}), ((int64_t[]){3, 1}), 0);
  float y[6] = {9, 8, 7, 6, 5, 4};
  LT_ASSERT_OK(lt_write(t, y, sizeof y));
  ck_assert(x[0] == 9 && x[5] == 4); /* written through to the producer's buffer */
  ck_assert_int_eq(p.deletions, 0);
  lt_release(t);
  ck_assert_int_eq(p.deletions, 1);
}
END_TEST

START_TEST(import_honours_strides_and_byte_offset) {
  float x[12];
  for (int i = 0; i < 12; i++) x[i] = (float)i;
  producer p;
  /* The transpose of a [3,4] array, starting one row in: [3,2] strides [1,4]. */
  producer_init(&p, x, dl_f32, 2, (int64_t[]){3, 2}, (int64_t[]){1, 4});
  p.m.dl_tensor.byte_offset = 4 * sizeof(float);
  lt_tensor *t = lt_from_dlpack(&p.m);
  LT_ASSERT_OK_PTR(t);
  float got[6];
  LT_ASSERT_OK(lt_read(t, got, sizeof got));
  float want[6] = {4, 8, 5, 9, 6, 10};
  ck_assert(memcmp(got, want, sizeof want) == 0);
  lt_release(t);
  ck_assert_int_eq(p.deletions, 1);
}
END_TEST

START_TEST(the_deleter_runs_once_when_the_last_view_goes) {
  float x[4] = {1, 2, 3, 4};
  producer p;
  producer_init(&p, x, dl_f32, 1, (int64_t[]){4}, NULL);
  lt_tensor *t = lt_from_dlpack(&p.m);
  lt_tensor *v = lt_slice(t, 0, 2, LT_NONE, 1);
  lt_release(t);
  ck_assert_int_eq(p.deletions, 0);
  float got[2];
  LT_ASSERT_OK(lt_read(v, got, sizeof got));
  ck_assert(got[0] == 3 && got[1] == 4);
  lt_release(v);
  ck_assert_int_eq(p.deletions, 1);
}
END_TEST

START_TEST(a_null_deleter_is_allowed) {
  int32_t x[2] = {5, 6};
  producer p;
  producer_init(&p, x, (DLDataType){kDLInt, 32, 1}, 1, (int64_t[]){2}, NULL);
  p.m.deleter = NULL;
  lt_tensor *t = lt_from_dlpack(&p.m);
  LT_ASSERT_OK_PTR(t);
  lt_release(t);
}
END_TEST

START_TEST(export_then_import_shares_the_storage_both_ways) {
  lt_tensor *t = lt_test_arange_f32(2, (int64_t[]){2, 2});
  lt_tensor *tt = lt_transpose(t, 0, 1);
  lt_tensor *u = lt_from_dlpack(lt_to_dlpack(tt));
  LT_ASSERT_OK_PTR(u);
  ck_assert_ptr_eq(lt_data(u), lt_data(t));
  LT_ASSERT_GEOMETRY(u, 2, ((int64_t[]){2, 2}), ((int64_t[]){1, 2}), 0);
  float v[4] = {7, 7, 7, 7};
  LT_ASSERT_OK(lt_write(u, v, sizeof v));
  float got[4];
  LT_ASSERT_OK(lt_read(t, got, sizeof got));
  ck_assert(got[0] == 7 && got[3] == 7);
  lt_release(tt);
  lt_release(t);
  lt_release(u);
}
END_TEST

START_TEST(unsupported_dtypes_fail_with_dtype_error_and_keep_the_tensor) {
  static const DLDataType bad[] = {
      {kDLFloat, 32, 4}, {kDLComplex, 64, 1}, {kDLInt, 16, 1}, {kDLUInt, 32, 1}, {kDLFloat, 8, 1},
      {kDLOpaqueHandle, 64, 1}, {kDLBfloat, 32, 1},
  };
  double x[2] = {0};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    producer p;
    producer_init(&p, x, bad[i], 1, (int64_t[]){1}, NULL);
    assert_import_fails(&p, LT_ERR_DTYPE);
  }
}
END_TEST

START_TEST(unsupported_or_unavailable_devices_fail_with_device_error) {
  float x[2] = {0};
  producer p;
  producer_init(&p, x, dl_f32, 1, (int64_t[]){2}, NULL);
  p.m.dl_tensor.device = (DLDevice){kDLOpenCL, 0};
  assert_import_fails(&p, LT_ERR_DEVICE);
  p.m.dl_tensor.device = (DLDevice){kDLCUDAHost, 0};
  assert_import_fails(&p, LT_ERR_DEVICE);
  p.m.dl_tensor.device = (DLDevice){kDLCUDA, 7};
  if (!lt_device_available((lt_device){LT_CUDA, 7})) assert_import_fails(&p, LT_ERR_DEVICE);
}
END_TEST

START_TEST(bad_geometry_and_misaligned_data_fail_with_arg_error) {
  float x[4] = {0};
  producer p;
  producer_init(&p, x, dl_f32, 1, (int64_t[]){-1}, NULL);
  assert_import_fails(&p, LT_ERR_ARG);
  producer_init(&p, x, dl_f32, 1, (int64_t[]){2}, NULL);
  p.m.dl_tensor.ndim = LT_MAX_DIMS + 1;
  assert_import_fails(&p, LT_ERR_ARG);
  p.m.dl_tensor.ndim = -1;
  assert_import_fails(&p, LT_ERR_ARG);
  producer_init(&p, x, dl_f32, 1, (int64_t[]){2}, NULL);
  p.m.dl_tensor.byte_offset = 2;
  assert_import_fails(&p, LT_ERR_ARG);
  ck_assert_msg(strstr(lt_last_error(), "aligned") != NULL, "%s", lt_last_error());
  producer_init(&p, NULL, dl_f32, 1, (int64_t[]){2}, NULL);
  assert_import_fails(&p, LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_from_dlpack(NULL), LT_ERR_ARG);
}
END_TEST

START_TEST(an_empty_tensor_with_null_data_imports) {
  producer p;
  producer_init(&p, NULL, dl_f32, 2, (int64_t[]){0, 3}, NULL);
  p.m.dl_tensor.byte_offset = 64;
  lt_tensor *t = lt_from_dlpack(&p.m);
  LT_ASSERT_OK_PTR(t);
  ck_assert_int_eq(lt_numel(t), 0);
  lt_release(t);
  ck_assert_int_eq(p.deletions, 1);
}
END_TEST

START_TEST(a_cuda_tensor_exports_as_kdlcuda_and_imports_back) {
  lt_device cuda0 = {LT_CUDA, 0};
  if (!lt_device_available(cuda0)) {
    fprintf(stderr, "SKIP %s: no CUDA device, kDLCUDA hand-over not exercised\n", __FILE__);
    return;
  }
  lt_tensor *h = lt_test_arange_f32(2, (int64_t[]){2, 4});
  lt_tensor *d = lt_to_device(h, cuda0);
  LT_ASSERT_OK_PTR(d);
  lt_tensor *dt = lt_transpose(d, 0, 1);
  DLManagedTensor *m = lt_to_dlpack(dt);
  LT_ASSERT_OK_PTR(m);
  ck_assert_int_eq(m->dl_tensor.device.device_type, kDLCUDA);
  ck_assert_int_eq(m->dl_tensor.device.device_id, 0);
  ck_assert(m->dl_tensor.strides[0] == 1 && m->dl_tensor.strides[1] == 4);
  lt_tensor *u = lt_from_dlpack(m);
  LT_ASSERT_OK_PTR(u);
  ck_assert_int_eq(lt_device_of(u).kind, LT_CUDA);
  lt_tensor *back = lt_to_device(u, LT_HOST);
  LT_ASSERT_OK_PTR(back);
  float got[8], want[8] = {0, 4, 1, 5, 2, 6, 3, 7};
  LT_ASSERT_OK(lt_read(back, got, sizeof got));
  ck_assert(memcmp(got, want, sizeof want) == 0);
  lt_release(back);
  lt_release(u);
  lt_release(dt);
  lt_release(d);
  lt_release(h);
}
END_TEST

/* ---- the versioned struct ------------------------------------------------------------ */

#if HAVE_DL_VERSIONED
START_TEST(versioned_export_carries_the_version_and_read_only_flag) {
  lt_tensor *t = lt_test_arange_f32(1, (int64_t[]){3});
  DLManagedTensorVersioned *m = lt_to_dlpack_versioned(t);
  LT_ASSERT_OK_PTR(m);
  ck_assert_uint_eq(m->version.major, DLPACK_MAJOR_VERSION);
  ck_assert_uint_eq(m->flags & DLPACK_FLAG_BITMASK_READ_ONLY, 0);
  m->flags |= DLPACK_FLAG_BITMASK_READ_ONLY; /* as a producer of read-only memory would */
  lt_tensor *u = lt_from_dlpack_versioned(m);
  LT_ASSERT_OK_PTR(u);
  float x[3] = {0};
  LT_ASSERT_STATUS(lt_write(u, x, sizeof x), LT_ERR_ARG);
  DLManagedTensorVersioned *again = lt_to_dlpack_versioned(u);
  LT_ASSERT_OK_PTR(again);
  ck_assert_uint_ne(again->flags & DLPACK_FLAG_BITMASK_READ_ONLY, 0);
  again->deleter(again);
  lt_release(u);
  lt_release(t);
}
END_TEST

START_TEST(a_newer_major_version_is_refused) {
  lt_tensor *t = lt_test_arange_f32(1, (int64_t[]){3});
  DLManagedTensorVersioned *m = lt_to_dlpack_versioned(t);
  m->version.major = DLPACK_MAJOR_VERSION + 1;
  LT_ASSERT_FAILS(lt_from_dlpack_versioned(m), LT_ERR_ARG);
  m->deleter(m);
  lt_release(t);
}
END_TEST
#else
START_TEST(versioned_calls_say_this_dlpack_h_lacks_the_struct) {
  lt_tensor *t = lt_test_arange_f32(1, (int64_t[]){3});
  LT_ASSERT_FAILS((lt_tensor *)lt_to_dlpack_versioned(t), LT_ERR_ARG);
  ck_assert_msg(strstr(lt_last_error(), "0.6") != NULL || DLPACK_VERSION != 60, "%s", lt_last_error());
  LT_ASSERT_FAILS(lt_from_dlpack_versioned(NULL), LT_ERR_ARG);
  ck_assert_msg(strstr(lt_last_error(), "DLManagedTensorVersioned") != NULL, "%s", lt_last_error());
  lt_release(t);
}
END_TEST
#endif

static Suite *suite(void) {
  Suite *s = suite_create("dlpack");
  TCase *e = tcase_create("export");
  tcase_add_test(e, export_describes_the_tensor_in_place);
  tcase_add_test(e, export_of_a_view_gives_its_strides_and_first_element);
  tcase_add_test(e, the_exported_struct_keeps_the_storage_alive_until_its_deleter_runs);
  tcase_add_test(e, each_dtype_maps_to_its_dlpack_code);
  tcase_add_test(e, dtypes_this_dlpack_h_cannot_name_fail_with_dtype_error);
  tcase_add_test(e, export_refuses_null_and_read_only_tensors);
  suite_add_tcase(s, e);

  TCase *i = tcase_create("import");
  tcase_add_test(i, import_wraps_the_producers_memory_without_copying);
  tcase_add_test(i, import_honours_strides_and_byte_offset);
  tcase_add_test(i, the_deleter_runs_once_when_the_last_view_goes);
  tcase_add_test(i, a_null_deleter_is_allowed);
  tcase_add_test(i, export_then_import_shares_the_storage_both_ways);
  tcase_add_test(i, unsupported_dtypes_fail_with_dtype_error_and_keep_the_tensor);
  tcase_add_test(i, unsupported_or_unavailable_devices_fail_with_device_error);
  tcase_add_test(i, bad_geometry_and_misaligned_data_fail_with_arg_error);
  tcase_add_test(i, an_empty_tensor_with_null_data_imports);
  tcase_add_test(i, a_cuda_tensor_exports_as_kdlcuda_and_imports_back);
  suite_add_tcase(s, i);

  TCase *v = tcase_create("versioned");
#if HAVE_DL_VERSIONED
  tcase_add_test(v, versioned_export_carries_the_version_and_read_only_flag);
  tcase_add_test(v, a_newer_major_version_is_refused);
#else
  tcase_add_test(v, versioned_calls_say_this_dlpack_h_lacks_the_struct);
#endif
  suite_add_tcase(s, v);
  return s;
}

int main(void) { return lt_run_suite(suite()); }
