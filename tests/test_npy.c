/* Specification of lt_save_npy and lt_load_npy: the exact bytes written,
 * round trips of every NumPy dtype and of every layout, files NumPy wrote
 * (tests/fuzz/corpus_npy, from tests/fuzz/gen_corpus.py) loading with
 * exact values, format versions, byte orders, Fortran order, and each
 * kind of malformed file failing with its status and a message. */
#define _XOPEN_SOURCE 700
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support/check_helpers.h"
#include "support/scratch.h"

/* ---- files ------------------------------------------------------------------------ */

/* A file of the fixture corpus. */
static const char *seed(const char *name) {
  static char path[4096];
  snprintf(path, sizeof path, "%s/tests/fuzz/corpus_npy/%s", LT_SOURCE_ROOT, name);
  return path;
}

static void spit(const char *path, const void *buf, size_t n) {
  FILE *f = fopen(path, "wb");
  ck_assert_msg(f != NULL, "cannot create %s", path);
  ck_assert_uint_eq(fwrite(buf, 1, n, f), n);
  fclose(f);
}

/* A .npy file of the given version with header dict `dict` (padded as
 * NumPy pads) followed by n data bytes. */
static void write_npy(const char *path, int major, const char *dict, const void *data, size_t n) {
  unsigned char buf[4096];
  size_t pre = major == 1 ? 10 : 12, len = strlen(dict);
  size_t hlen = (pre + len + 1 + 63) / 64 * 64 - pre;
  ck_assert_uint_lt(pre + hlen + n, sizeof buf);
  memcpy(buf, "\x93NUMPY", 6);
  buf[6] = (unsigned char)major;
  buf[7] = 0;
  for (size_t i = 0; i < pre - 8; i++) buf[8 + i] = (unsigned char)(hlen >> (8 * i));
  memcpy(buf + pre, dict, len);
  memset(buf + pre + len, ' ', hlen - len - 1);
  buf[pre + hlen - 1] = '\n';
  memcpy(buf + pre + hlen, data, n);
  spit(path, buf, pre + hlen + n);
}

static void assert_bytes(const lt_tensor *t, const void *want, size_t n) {
  unsigned char got[4096];
  ck_assert_uint_le(n, sizeof got);
  LT_ASSERT_OK(lt_read(t, got, n));
  ck_assert_msg(memcmp(got, want, n) == 0, "tensor bytes differ from the expected values");
}

/* Saves t, loads it back, and checks dtype, shape, row-major strides and
 * every byte against lt_read of t. */
static void assert_round_trip(const lt_tensor *t, const char *name) {
  LT_ASSERT_OK(lt_save_npy(scratch_path(name), t));
  lt_tensor *u = lt_load_npy(scratch_path(name));
  LT_ASSERT_OK_PTR(u);
  ck_assert_int_eq(lt_dtype_of(u), lt_dtype_of(t));
  int64_t strides[LT_MAX_DIMS];
  int n = lt_ndim(t);
  for (int i = n - 1, s = 1; i >= 0; i--) strides[i] = s, s *= lt_shape(t)[i] > 1 ? lt_shape(t)[i] : 1;
  LT_ASSERT_GEOMETRY(u, n, lt_shape(t), strides, 0);
  size_t bytes = (size_t)lt_numel(t) * lt_dtype_size(lt_dtype_of(t));
  unsigned char *want = malloc(bytes + 1), *got = malloc(bytes + 1);
  LT_ASSERT_OK(lt_read(t, want, bytes));
  LT_ASSERT_OK(lt_read(u, got, bytes));
  ck_assert_msg(memcmp(want, got, bytes) == 0, "%s: loaded bytes differ", name);
  free(want);
  free(got);
  lt_release(u);
}

static void assert_load_fails(const char *path, lt_status st) {
  LT_ASSERT_FAILS(lt_load_npy(path), st);
  ck_assert_msg(strstr(lt_last_error(), "load_npy") != NULL, "message does not name the op: %s", lt_last_error());
}

/* ---- what is written ------------------------------------------------------------- */

START_TEST(save_writes_numpys_format_1_0_header_padded_to_a_multiple_of_64_bytes) {
  lt_tensor *t = lt_test_arange_f32(2, (int64_t[]){2, 3});
  LT_ASSERT_OK(lt_save_npy(scratch_path("a.npy"), t));
  unsigned char buf[256];
  size_t n = slurp(scratch_path("a.npy"), buf, sizeof buf);
  ck_assert_uint_eq(n, 128 + 24);
  ck_assert(memcmp(buf, "\x93NUMPY\x01\x00", 8) == 0);
  ck_assert_uint_eq(buf[8] | buf[9] << 8, 128 - 10);
  const char *dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  ck_assert(memcmp(buf + 10, dict, strlen(dict)) == 0);
  for (size_t i = 10 + strlen(dict); i < 127; i++) ck_assert_int_eq(buf[i], ' ');
  ck_assert_int_eq(buf[127], '\n');
  float want[6] = {0, 1, 2, 3, 4, 5};
  ck_assert(memcmp(buf + 128, want, sizeof want) == 0);
  lt_release(t);
}
END_TEST

START_TEST(save_spells_one_dim_and_zero_dim_shapes_as_python_tuples) {
  lt_tensor *v = lt_zeros(LT_I64, 1, (int64_t[]){5}, LT_HOST), *s = lt_zeros(LT_U8, 0, NULL, LT_HOST);
  LT_ASSERT_OK(lt_save_npy(scratch_path("v.npy"), v));
  LT_ASSERT_OK(lt_save_npy(scratch_path("s.npy"), s));
  unsigned char buf[256];
  slurp(scratch_path("v.npy"), buf, sizeof buf);
  ck_assert(memcmp(buf + 10, "{'descr': '<i8', 'fortran_order': False, 'shape': (5,), }", 57) == 0);
  size_t n = slurp(scratch_path("s.npy"), buf, sizeof buf);
  ck_assert(memcmp(buf + 10, "{'descr': '|u1', 'fortran_order': False, 'shape': (), }", 55) == 0);
  ck_assert_uint_eq(n, 128 + 1);
  lt_release(v);
  lt_release(s);
}
END_TEST

START_TEST(save_refuses_bf16_and_float8_which_numpy_cannot_name) {
  lt_dtype no_descr[] = {LT_BF16, LT_F8_E4M3, LT_F8_E5M2};
  for (int i = 0; i < 3; i++) {
    lt_tensor *t = lt_zeros(no_descr[i], 1, (int64_t[]){2}, LT_HOST);
    LT_ASSERT_STATUS(lt_save_npy(scratch_path("x.npy"), t), LT_ERR_DTYPE);
    ck_assert_msg(strstr(lt_last_error(), lt_dtype_name(no_descr[i])) != NULL, "%s", lt_last_error());
    ck_assert_int_ne(access(scratch_path("x.npy"), F_OK), 0);
    lt_release(t);
  }
}
END_TEST

START_TEST(save_rejects_null_arguments_and_unwritable_paths) {
  lt_tensor *t = lt_zeros(LT_F32, 1, (int64_t[]){2}, LT_HOST);
  LT_ASSERT_STATUS(lt_save_npy(NULL, t), LT_ERR_ARG);
  LT_ASSERT_STATUS(lt_save_npy(scratch_path("x.npy"), NULL), LT_ERR_ARG);
  LT_ASSERT_STATUS(lt_save_npy(scratch_path("no/such/dir/x.npy"), t), LT_ERR_IO);
  ck_assert_msg(strstr(lt_last_error(), "no/such/dir") != NULL, "%s", lt_last_error());
  lt_release(t);
}
END_TEST

/* ---- round trips ------------------------------------------------------------------ */

START_TEST(every_numpy_dtype_round_trips_bit_for_bit) {
  unsigned char raw[7 * 8];
  for (size_t i = 0; i < sizeof raw; i++) raw[i] = (unsigned char)(i * 37 + 11);
  lt_dtype dts[] = {LT_F32, LT_F16, LT_F64, LT_I32, LT_I64, LT_U8, LT_BOOL};
  for (int i = 0; i < 7; i++) {
    if (dts[i] == LT_BOOL)
      for (size_t k = 0; k < sizeof raw; k++) raw[k] &= 1;
    int64_t n = (int64_t)(sizeof raw / lt_dtype_size(dts[i]));
    lt_tensor *t = lt_from_data(raw, dts[i], 2, (int64_t[]){n / 2, 2});
    LT_ASSERT_OK_PTR(t);
    assert_round_trip(t, lt_dtype_name(dts[i]));
    lt_release(t);
  }
}
END_TEST

START_TEST(float_specials_round_trip_exactly) {
  /* -0, inf, -inf, a NaN with payload, the smallest subnormal, the max. */
  uint32_t bits[] = {0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc12345u, 0x00000001u, 0x7f7fffffu};
  lt_tensor *t = lt_from_data(bits, LT_F32, 1, (int64_t[]){6});
  assert_round_trip(t, "specials.npy");
  lt_release(t);
}
END_TEST

START_TEST(non_contiguous_layouts_are_written_in_row_major_order) {
  lt_tensor *a = lt_test_arange_f32(3, (int64_t[]){2, 3, 4});
  lt_tensor *a0 = lt_select(a, 0, 0), *a00 = lt_select(a0, 0, 0), *a__1 = lt_select(a, 2, 1);
  lt_tensor *views[] = {
      lt_transpose(a, 0, 2),                      /* permuted */
      lt_slice(a, 2, LT_NONE, LT_NONE, -1),       /* negative stride */
      lt_slice(a, 1, 1, LT_NONE, 2),              /* stepped, offset */
      lt_select(a, 0, 1),                         /* offset */
      lt_expand(a00, 2, (int64_t[]){3, 4}),       /* stride 0 */
      lt_diagonal(a__1, 0, 0, 1),                 /* stride 5 */
  };
  lt_release(a0);
  lt_release(a00);
  lt_release(a__1);
  for (size_t i = 0; i < sizeof views / sizeof views[0]; i++) {
    LT_ASSERT_OK_PTR(views[i]);
    char name[32];
    snprintf(name, sizeof name, "view%zu.npy", i);
    assert_round_trip(views[i], name);
    lt_release(views[i]);
  }
  lt_release(a);
}
END_TEST

START_TEST(zero_dim_and_zero_size_tensors_round_trip) {
  double x = -2.5;
  lt_tensor *s = lt_from_data(&x, LT_F64, 0, NULL);
  lt_tensor *e = lt_zeros(LT_I32, 3, (int64_t[]){2, 0, 3}, LT_HOST);
  assert_round_trip(s, "scalar.npy");
  assert_round_trip(e, "empty.npy");
  lt_release(s);
  lt_release(e);
}
END_TEST

START_TEST(large_strided_tensors_are_written_in_bounded_chunks) {
  /* 4.8 MB transposed (whole rows per chunk), and rows of 4.4 MB each
   * (split further): both larger than the 4 MiB write buffer. */
  lt_tensor *a = lt_empty(LT_F32, 2, (int64_t[]){1100, 1100}, LT_HOST);
  lt_tensor *b = lt_empty(LT_F32, 2, (int64_t[]){2, 1100000}, LT_HOST);
  float *pa = lt_data(a), *pb = lt_data(b);
  for (int64_t i = 0; i < 1100 * 1100; i++) pa[i] = (float)i;
  for (int64_t i = 0; i < 2 * 1100000; i++) pb[i] = (float)(i % 100003);
  lt_tensor *ta = lt_transpose(a, 0, 1), *rb = lt_slice(b, 1, LT_NONE, LT_NONE, -1);
  LT_ASSERT_OK(lt_save_npy(scratch_path("ta.npy"), ta));
  LT_ASSERT_OK(lt_save_npy(scratch_path("rb.npy"), rb));
  lt_tensor *la = lt_load_npy(scratch_path("ta.npy")), *lb = lt_load_npy(scratch_path("rb.npy"));
  LT_ASSERT_OK_PTR(la);
  LT_ASSERT_OK_PTR(lb);
  const float *qa = lt_data(la), *qb = lt_data(lb);
  for (int64_t i = 0; i < 1100; i += 7)
    for (int64_t j = 0; j < 1100; j += 3) ck_assert(qa[i * 1100 + j] == pa[j * 1100 + i]);
  for (int64_t r = 0; r < 2; r++)
    for (int64_t j = 0; j < 1100000; j += 997)
      ck_assert(qb[r * 1100000 + j] == pb[r * 1100000 + 1099999 - j]);
  ck_assert(qb[1100000 - 1] == pb[0] && qb[2 * 1100000 - 1] == pb[1100000]);
  lt_release(la);
  lt_release(lb);
  lt_release(ta);
  lt_release(rb);
  lt_release(a);
  lt_release(b);
}
END_TEST

START_TEST(a_loaded_tensor_is_writable_and_counted_as_one_allocation) {
  lt_tensor *t = lt_test_arange_f32(1, (int64_t[]){4});
  LT_ASSERT_OK(lt_save_npy(scratch_path("t.npy"), t));
  lt_stats_reset(LT_HOST);
  lt_tensor *u = lt_load_npy(scratch_path("t.npy"));
  LT_ASSERT_OK_PTR(u);
  ck_assert_int_eq(lt_stats_get(LT_HOST).allocs, 1);
  float v[4] = {9, 8, 7, 6};
  LT_ASSERT_OK(lt_write(u, v, sizeof v));
  assert_bytes(u, v, sizeof v);
  lt_release(u);
  lt_release(t);
}
END_TEST

/* ---- files NumPy wrote ---------------------------------------------------------------- */

START_TEST(numpy_f4_c_order_loads_exactly) {
  lt_tensor *t = lt_load_npy(seed("f4_2x3.npy"));
  LT_ASSERT_OK_PTR(t);
  ck_assert_int_eq(lt_dtype_of(t), LT_F32);
  LT_ASSERT_GEOMETRY(t, 2, ((int64_t[]){2, 3}), ((int64_t[]){3, 1}), 0);
  assert_bytes(t, (float[]){-1, -0.5f, 0, 0.5f, 1, 1.5f}, 24);
  lt_release(t);
}
END_TEST

START_TEST(numpy_big_endian_f8_loads_in_host_order) {
  lt_tensor *t = lt_load_npy(seed("f8_be_4.npy"));
  LT_ASSERT_OK_PTR(t);
  ck_assert_int_eq(lt_dtype_of(t), LT_F64);
  assert_bytes(t, (double[]){1.5, -2.25, 1e300, 5e-324}, 32);
  lt_release(t);
}
END_TEST

START_TEST(numpy_f2_u1_b1_load_exactly) {
  lt_tensor *h = lt_load_npy(seed("f2_3.npy")), *u = lt_load_npy(seed("u1_5.npy")),
            *b = lt_load_npy(seed("b1_4.npy"));
  LT_ASSERT_OK_PTR(h);
  LT_ASSERT_OK_PTR(u);
  LT_ASSERT_OK_PTR(b);
  ck_assert_int_eq(lt_dtype_of(h), LT_F16);
  ck_assert_int_eq(lt_dtype_of(u), LT_U8);
  ck_assert_int_eq(lt_dtype_of(b), LT_BOOL);
  assert_bytes(h, (uint16_t[]){0x3c00, 0xb800, 0x7bff}, 6);
  assert_bytes(u, (uint8_t[]){0, 1, 127, 128, 255}, 5);
  assert_bytes(b, (uint8_t[]){1, 0, 0, 1}, 4);
  lt_release(h);
  lt_release(u);
  lt_release(b);
}
END_TEST

START_TEST(numpy_fortran_order_loads_with_column_major_strides) {
  lt_tensor *t = lt_load_npy(seed("i4_fortran_2x3x4.npy"));
  LT_ASSERT_OK_PTR(t);
  ck_assert_int_eq(lt_dtype_of(t), LT_I32);
  LT_ASSERT_GEOMETRY(t, 3, ((int64_t[]){2, 3, 4}), ((int64_t[]){1, 2, 6}), 0);
  int32_t want[24];
  for (int i = 0; i < 24; i++) want[i] = i;
  assert_bytes(t, want, sizeof want);
  lt_release(t);
}
END_TEST

START_TEST(numpy_big_endian_fortran_and_scalar_files_load_exactly) {
  lt_tensor *t = lt_load_npy(seed("i4_be_fortran_3x2.npy")), *s = lt_load_npy(seed("i8_be_scalar.npy"));
  LT_ASSERT_OK_PTR(t);
  LT_ASSERT_OK_PTR(s);
  LT_ASSERT_GEOMETRY(t, 2, ((int64_t[]){3, 2}), ((int64_t[]){1, 3}), 0);
  assert_bytes(t, (int32_t[]){1, -2, 3, -4, 5, -6}, 24);
  ck_assert_int_eq(lt_ndim(s), 0);
  ck_assert_int_eq(lt_dtype_of(s), LT_I64);
  assert_bytes(s, (int64_t[]){-5}, 8);
  lt_release(t);
  lt_release(s);
}
END_TEST

START_TEST(numpy_format_2_0_and_3_0_files_load) {
  lt_tensor *e = lt_load_npy(seed("f4_v2_0x3.npy")), *v = lt_load_npy(seed("f4_v3_2.npy"));
  LT_ASSERT_OK_PTR(e);
  LT_ASSERT_OK_PTR(v);
  LT_ASSERT_GEOMETRY(e, 2, ((int64_t[]){0, 3}), ((int64_t[]){3, 1}), 0);
  assert_bytes(v, (float[]){3.5f, -7}, 8);
  lt_release(e);
  lt_release(v);
}
END_TEST

START_TEST(numpy_dtypes_libtensor_lacks_fail_with_dtype_error) {
  assert_load_fails(seed("i2_unsupported.npy"), LT_ERR_DTYPE);
  ck_assert_msg(strstr(lt_last_error(), "<i2") != NULL, "%s", lt_last_error());
}
END_TEST

/* ---- headers written by hand --------------------------------------------------------- */

START_TEST(headers_may_use_double_quotes_no_trailing_comma_and_python2_longs) {
  write_npy(scratch_path("a.npy"), 1, "{\"descr\":\"<i4\",\"shape\":(2L,1L),\"fortran_order\":False}", (int32_t[]){4, 5}, 8);
  lt_tensor *t = lt_load_npy(scratch_path("a.npy"));
  LT_ASSERT_OK_PTR(t);
  LT_ASSERT_GEOMETRY(t, 2, ((int64_t[]){2, 1}), ((int64_t[]){1, 1}), 0);
  assert_bytes(t, (int32_t[]){4, 5}, 8);
  lt_release(t);
}
END_TEST

START_TEST(bool_bytes_other_than_0_and_1_load_as_true) {
  write_npy(scratch_path("b.npy"), 1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", "\x00\x02\xff", 3);
  lt_tensor *t = lt_load_npy(scratch_path("b.npy"));
  LT_ASSERT_OK_PTR(t);
  assert_bytes(t, (uint8_t[]){0, 1, 1}, 3);
  lt_release(t);
}
END_TEST

START_TEST(more_dims_than_lt_max_dims_is_a_shape_error) {
  char dict[256] = "{'descr': '<f4', 'fortran_order': False, 'shape': (";
  for (int i = 0; i <= LT_MAX_DIMS; i++) strcat(dict, "1, ");
  strcat(dict, "), }");
  write_npy(scratch_path("d.npy"), 1, dict, "\0\0\0\0", 4);
  assert_load_fails(scratch_path("d.npy"), LT_ERR_SHAPE);
}
END_TEST

/* ---- malformed files ------------------------------------------------------------------- */

typedef struct bad_header {
  const char *dict;
  lt_status status;
} bad_header;

START_TEST(malformed_headers_fail_with_io_or_dtype_errors) {
  static const bad_header cases[] = {
      {"", LT_ERR_IO},
      {"[1, 2]", LT_ERR_IO},
      {"{'descr': '<f4', 'fortran_order': False}", LT_ERR_IO},                               /* no shape */
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}", LT_ERR_IO},        /* extra key */
      {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,)}", LT_ERR_IO}, /* repeated */
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2)}", LT_ERR_IO},                  /* not a tuple */
      {"{'descr': '<f4', 'fortran_order': False, 'shape': [2]}", LT_ERR_IO},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (-2,)}", LT_ERR_IO},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,,)}", LT_ERR_IO},
      {"{'descr': '<f4', 'fortran_order': 0, 'shape': (2,)}", LT_ERR_IO},
      {"{'descr': '<f4', 'fortran_order': Falsey, 'shape': (2,)}", LT_ERR_IO},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}", LT_ERR_IO},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296)}", LT_ERR_IO},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,)} x", LT_ERR_IO},
      {"{'descr': '<f\\x34', 'fortran_order': False, 'shape': (2,)}", LT_ERR_IO},              /* escape */
      {"{'descr': '<f4, 'fortran_order': False, 'shape': (2,)}", LT_ERR_IO},                  /* quote */
      {"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,)}", LT_ERR_DTYPE},
      {"{'descr': '<c8', 'fortran_order': False, 'shape': (2,)}", LT_ERR_DTYPE},
      {"{'descr': 'f4', 'fortran_order': False, 'shape': (2,)}", LT_ERR_DTYPE},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    write_npy(scratch_path("m.npy"), 1, cases[i].dict, "\0\0\0\0\0\0\0\0", 8);
    lt_tensor *t = lt_load_npy(scratch_path("m.npy"));
    ck_assert_msg(t == NULL, "case %zu (%s) loaded", i, cases[i].dict);
    ck_assert_msg(lt_last_status() == cases[i].status, "case %zu (%s): %s: %s", i, cases[i].dict,
                  lt_status_str(lt_last_status()), lt_last_error());
    ck_assert_msg(strstr(lt_last_error(), scratch_path("m.npy")) != NULL, "case %zu: no path in: %s", i, lt_last_error());
  }
}
END_TEST

START_TEST(bad_magic_version_and_truncated_preambles_fail_with_io_errors) {
  spit(scratch_path("a.npy"), "\x93NUMPZ\x01\x00\x10\x00", 10);
  assert_load_fails(scratch_path("a.npy"), LT_ERR_IO);
  spit(scratch_path("b.npy"), "\x93NUMPY\x04\x00\x10\x00", 10);
  assert_load_fails(scratch_path("b.npy"), LT_ERR_IO);
  ck_assert_msg(strstr(lt_last_error(), "4.0") != NULL, "%s", lt_last_error());
  spit(scratch_path("c.npy"), "\x93NUMPY\x01\x00", 8);
  assert_load_fails(scratch_path("c.npy"), LT_ERR_IO);
  spit(scratch_path("d.npy"), "\x93NUMPY\x02\x00\x10\x00", 10);
  assert_load_fails(scratch_path("d.npy"), LT_ERR_IO);
  spit(scratch_path("e.npy"), "", 0);
  assert_load_fails(scratch_path("e.npy"), LT_ERR_IO);
}
END_TEST

START_TEST(a_header_length_past_the_end_or_over_the_cap_fails_without_reading_it) {
  spit(scratch_path("a.npy"), "\x93NUMPY\x01\x00\xff\xff{", 11);
  assert_load_fails(scratch_path("a.npy"), LT_ERR_IO);
  spit(scratch_path("b.npy"), "\x93NUMPY\x02\x00\xff\xff\xff\xff{", 13);
  assert_load_fails(scratch_path("b.npy"), LT_ERR_IO);
  ck_assert_msg(strstr(lt_last_error(), "4294967295") != NULL, "%s", lt_last_error());
}
END_TEST

START_TEST(data_shorter_or_longer_than_the_shape_fails_with_io_error) {
  const char *dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }";
  write_npy(scratch_path("short.npy"), 1, dict, "\0\0\0\0\0\0\0\0", 8);
  assert_load_fails(scratch_path("short.npy"), LT_ERR_IO);
  ck_assert_msg(strstr(lt_last_error(), "12") != NULL, "%s", lt_last_error());
  write_npy(scratch_path("long.npy"), 1, dict, "\0\0\0\0\0\0\0\0\0\0\0\0\0", 13);
  assert_load_fails(scratch_path("long.npy"), LT_ERR_IO);
}
END_TEST

START_TEST(missing_files_directories_and_null_paths_fail) {
  assert_load_fails(scratch_path("missing.npy"), LT_ERR_IO);
  ck_assert_msg(strstr(lt_last_error(), "missing.npy") != NULL, "%s", lt_last_error());
  assert_load_fails(scratch_path("."), LT_ERR_IO); /* the directory itself */
  assert_load_fails(NULL, LT_ERR_ARG);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("npy");
  TCase *w = tcase_create("save");
  tcase_add_checked_fixture(w, scratch_make, scratch_remove);
  tcase_add_test(w, save_writes_numpys_format_1_0_header_padded_to_a_multiple_of_64_bytes);
  tcase_add_test(w, save_spells_one_dim_and_zero_dim_shapes_as_python_tuples);
  tcase_add_test(w, save_refuses_bf16_and_float8_which_numpy_cannot_name);
  tcase_add_test(w, save_rejects_null_arguments_and_unwritable_paths);
  suite_add_tcase(s, w);

  TCase *r = tcase_create("round_trip");
  tcase_add_checked_fixture(r, scratch_make, scratch_remove);
  tcase_set_timeout(r, 60);
  tcase_add_test(r, every_numpy_dtype_round_trips_bit_for_bit);
  tcase_add_test(r, float_specials_round_trip_exactly);
  tcase_add_test(r, non_contiguous_layouts_are_written_in_row_major_order);
  tcase_add_test(r, zero_dim_and_zero_size_tensors_round_trip);
  tcase_add_test(r, large_strided_tensors_are_written_in_bounded_chunks);
  tcase_add_test(r, a_loaded_tensor_is_writable_and_counted_as_one_allocation);
  suite_add_tcase(s, r);

  TCase *np = tcase_create("numpy_files");
  tcase_add_test(np, numpy_f4_c_order_loads_exactly);
  tcase_add_test(np, numpy_big_endian_f8_loads_in_host_order);
  tcase_add_test(np, numpy_f2_u1_b1_load_exactly);
  tcase_add_test(np, numpy_fortran_order_loads_with_column_major_strides);
  tcase_add_test(np, numpy_big_endian_fortran_and_scalar_files_load_exactly);
  tcase_add_test(np, numpy_format_2_0_and_3_0_files_load);
  tcase_add_test(np, numpy_dtypes_libtensor_lacks_fail_with_dtype_error);
  suite_add_tcase(s, np);

  TCase *h = tcase_create("headers");
  tcase_add_checked_fixture(h, scratch_make, scratch_remove);
  tcase_add_test(h, headers_may_use_double_quotes_no_trailing_comma_and_python2_longs);
  tcase_add_test(h, bool_bytes_other_than_0_and_1_load_as_true);
  tcase_add_test(h, more_dims_than_lt_max_dims_is_a_shape_error);
  tcase_add_test(h, malformed_headers_fail_with_io_or_dtype_errors);
  tcase_add_test(h, bad_magic_version_and_truncated_preambles_fail_with_io_errors);
  tcase_add_test(h, a_header_length_past_the_end_or_over_the_cap_fails_without_reading_it);
  tcase_add_test(h, data_shorter_or_longer_than_the_shape_fails_with_io_error);
  tcase_add_test(h, missing_files_directories_and_null_paths_fail);
  suite_add_tcase(s, h);
  return s;
}

int main(void) { return lt_run_suite(suite()); }
