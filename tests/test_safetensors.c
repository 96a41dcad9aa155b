/* Specification of the safetensors reader and writer: the bytes written,
 * round trips of every dtype and layout, zero-copy read-only views that
 * outlive the file handle, files the safetensors package wrote
 * (tests/fuzz/corpus_safetensors, from tests/fuzz/gen_corpus.py) loading
 * with exact values, and each kind of malformed or hostile file failing
 * with LT_ERR_IO and a message. */
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
  snprintf(path, sizeof path, "%s/tests/fuzz/corpus_safetensors/%s", LT_SOURCE_ROOT, name);
  return path;
}

/* A file of the 8-byte length, the header text, and n data bytes. */
static void write_st(const char *path, const char *header, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  ck_assert_msg(f != NULL, "cannot create %s", path);
  uint64_t len = strlen(header);
  unsigned char le[8];
  for (int i = 0; i < 8; i++) le[i] = (unsigned char)(len >> (8 * i));
  fwrite(le, 1, 8, f);
  fwrite(header, 1, len, f);
  if (n) fwrite(data, 1, n, f);
  fclose(f);
}

static void assert_bytes(const lt_tensor *t, const void *want, size_t n) {
  unsigned char got[4096];
  ck_assert_uint_le(n, sizeof got);
  LT_ASSERT_OK(lt_read(t, got, n));
  ck_assert_msg(memcmp(got, want, n) == 0, "tensor bytes differ from the expected values");
}

static void assert_open_fails(const char *path, const char *why) {
  lt_safetensors *f = lt_safetensors_open(path);
  ck_assert_msg(f == NULL, "%s: opened", why);
  ck_assert_msg(lt_last_status() == LT_ERR_IO, "%s: %s: %s", why, lt_status_str(lt_last_status()), lt_last_error());
  ck_assert_msg(strstr(lt_last_error(), path) != NULL, "%s: no path in: %s", why, lt_last_error());
}

/* ---- writing ------------------------------------------------------------------------- */

START_TEST(save_writes_the_length_the_json_header_and_the_data) {
  lt_tensor *t = lt_test_arange_f32(2, (int64_t[]){2, 2});
  LT_ASSERT_OK(lt_safetensors_save(scratch_path("a.st"), 1, (const char *[]){"w"}, &t, NULL));
  unsigned char buf[256];
  size_t n = slurp(scratch_path("a.st"), buf, sizeof buf);
  const char *json = "{\"w\":{\"dtype\":\"F32\",\"shape\":[2,2],\"data_offsets\":[0,16]}}";
  size_t len = strlen(json), padded = (len + 7) / 8 * 8;
  ck_assert_uint_eq(n, 8 + padded + 16);
  uint64_t hl = 0;
  for (int i = 7; i >= 0; i--) hl = hl << 8 | buf[i];
  ck_assert_uint_eq(hl, padded);
  ck_assert(memcmp(buf + 8, json, len) == 0);
  for (size_t i = 8 + len; i < 8 + padded; i++) ck_assert_int_eq(buf[i], ' ');
  ck_assert(memcmp(buf + 8 + padded, (float[]){0, 1, 2, 3}, 16) == 0);
  lt_release(t);
}
END_TEST

START_TEST(save_writes_metadata_and_escapes_names) {
  lt_tensor *t = lt_zeros(LT_U8, 1, (int64_t[]){1}, LT_HOST);
  const char *meta[] = {"format", "pt", "note", "a \"quoted\"\nline", NULL};
  LT_ASSERT_OK(lt_safetensors_save(scratch_path("m.st"), 1, (const char *[]){"layer\\0.\"w\""}, &t, meta));
  lt_safetensors *f = lt_safetensors_open(scratch_path("m.st"));
  LT_ASSERT_OK_PTR(f);
  ck_assert_str_eq(lt_safetensors_metadata(f, "format"), "pt");
  ck_assert_str_eq(lt_safetensors_metadata(f, "note"), "a \"quoted\"\nline");
  ck_assert_ptr_null(lt_safetensors_metadata(f, "absent"));
  ck_assert_int_eq(lt_last_status(), LT_OK);
  ck_assert_str_eq(lt_safetensors_name(f, 0), "layer\\0.\"w\"");
  lt_safetensors_close(f);
  lt_release(t);
}
END_TEST

START_TEST(save_lays_out_data_largest_element_first_so_views_are_aligned) {
  lt_tensor *b = lt_zeros(LT_U8, 1, (int64_t[]){3}, LT_HOST);
  lt_tensor *h = lt_zeros(LT_F16, 1, (int64_t[]){1}, LT_HOST);
  lt_tensor *d = lt_zeros(LT_F64, 1, (int64_t[]){2}, LT_HOST);
  lt_tensor *ts[] = {b, h, d};
  LT_ASSERT_OK(lt_safetensors_save(scratch_path("o.st"), 3, (const char *[]){"b", "h", "d"}, ts, NULL));
  unsigned char buf[512];
  size_t n = slurp(scratch_path("o.st"), buf, sizeof buf - 1);
  buf[n] = '\0';
  /* Header order is the caller's; data order is by element size. */
  ck_assert_ptr_nonnull(strstr((char *)buf + 8, "\"b\":{\"dtype\":\"U8\",\"shape\":[3],\"data_offsets\":[18,21]}"));
  ck_assert_ptr_nonnull(strstr((char *)buf + 8, "\"h\":{\"dtype\":\"F16\",\"shape\":[1],\"data_offsets\":[16,18]}"));
  ck_assert_ptr_nonnull(strstr((char *)buf + 8, "\"d\":{\"dtype\":\"F64\",\"shape\":[2],\"data_offsets\":[0,16]}"));
  lt_safetensors *f = lt_safetensors_open(scratch_path("o.st"));
  LT_ASSERT_OK_PTR(f);
  for (int i = 0; i < 3; i++) {
    lt_tensor *v = lt_safetensors_get(f, lt_safetensors_name(f, i));
    LT_ASSERT_OK_PTR(v);
    ck_assert_uint_eq((uintptr_t)lt_data(v) % lt_dtype_size(lt_dtype_of(v)), 0);
    lt_release(v);
  }
  lt_safetensors_close(f);
  lt_release(b);
  lt_release(h);
  lt_release(d);
}
END_TEST

START_TEST(save_rejects_bad_arguments_without_creating_a_file) {
  lt_tensor *t = lt_zeros(LT_F32, 1, (int64_t[]){2}, LT_HOST);
  lt_tensor *two[] = {t, t}, *none[] = {NULL};
  const char *p = scratch_path("x.st");
  LT_ASSERT_STATUS(lt_safetensors_save(NULL, 1, (const char *[]){"a"}, &t, NULL), LT_ERR_ARG);
  LT_ASSERT_STATUS(lt_safetensors_save(p, -1, NULL, NULL, NULL), LT_ERR_ARG);
  LT_ASSERT_STATUS(lt_safetensors_save(p, 1, NULL, &t, NULL), LT_ERR_ARG);
  LT_ASSERT_STATUS(lt_safetensors_save(p, 1, (const char *[]){NULL}, &t, NULL), LT_ERR_ARG);
  LT_ASSERT_STATUS(lt_safetensors_save(p, 1, (const char *[]){"a"}, none, NULL), LT_ERR_ARG);
  LT_ASSERT_STATUS(lt_safetensors_save(p, 2, (const char *[]){"a", "a"}, two, NULL), LT_ERR_ARG);
  ck_assert_msg(strstr(lt_last_error(), "'a' appears twice") != NULL, "%s", lt_last_error());
  LT_ASSERT_STATUS(lt_safetensors_save(p, 1, (const char *[]){"__metadata__"}, &t, NULL), LT_ERR_ARG);
  LT_ASSERT_STATUS(lt_safetensors_save(p, 1, (const char *[]){"\xff"}, &t, NULL), LT_ERR_ARG);
  LT_ASSERT_STATUS(lt_safetensors_save(p, 1, (const char *[]){"a"}, &t, (const char *[]){"k", NULL}), LT_ERR_ARG);
  LT_ASSERT_STATUS(
      lt_safetensors_save(p, 1, (const char *[]){"a"}, &t, (const char *[]){"k", "1", "k", "2", NULL}), LT_ERR_ARG);
  ck_assert_int_ne(access(p, F_OK), 0);
  LT_ASSERT_STATUS(lt_safetensors_save(scratch_path("no/dir/x.st"), 1, (const char *[]){"a"}, &t, NULL), LT_ERR_IO);
  lt_release(t);
}
END_TEST

START_TEST(save_of_no_tensors_writes_a_valid_empty_file) {
  LT_ASSERT_OK(lt_safetensors_save(scratch_path("e.st"), 0, NULL, NULL, NULL));
  lt_safetensors *f = lt_safetensors_open(scratch_path("e.st"));
  LT_ASSERT_OK_PTR(f);
  ck_assert_int_eq(lt_safetensors_count(f), 0);
  lt_safetensors_close(f);
}
END_TEST

/* ---- round trips ----------------------------------------------------------------------- */

START_TEST(every_dtype_round_trips_bit_for_bit_in_one_file) {
  lt_tensor *ts[LT_NUM_DTYPES];
  const char *names[LT_NUM_DTYPES];
  unsigned char raw[6 * 8], back[6 * 8];
  for (int d = 0; d < LT_NUM_DTYPES; d++) {
    for (size_t i = 0; i < sizeof raw; i++) raw[i] = (unsigned char)(i * 29 + 3 * (size_t)d + 1);
    if (d == LT_BOOL)
      for (size_t i = 0; i < sizeof raw; i++) raw[i] &= 1;
    int64_t n = (int64_t)(sizeof raw / lt_dtype_size((lt_dtype)d));
    ts[d] = lt_from_data(raw, (lt_dtype)d, 2, (int64_t[]){2, n / 2});
    names[d] = lt_dtype_name((lt_dtype)d);
  }
  LT_ASSERT_OK(lt_safetensors_save(scratch_path("all.st"), LT_NUM_DTYPES, names, ts, NULL));
  lt_safetensors *f = lt_safetensors_open(scratch_path("all.st"));
  LT_ASSERT_OK_PTR(f);
  ck_assert_int_eq(lt_safetensors_count(f), LT_NUM_DTYPES);
  for (int d = 0; d < LT_NUM_DTYPES; d++) {
    ck_assert_str_eq(lt_safetensors_name(f, d), names[d]);
    lt_tensor *v = lt_safetensors_get(f, names[d]);
    LT_ASSERT_OK_PTR(v);
    ck_assert_int_eq(lt_dtype_of(v), d);
    LT_ASSERT_GEOMETRY(v, 2, lt_shape(ts[d]), lt_strides(ts[d]), 0);
    size_t bytes = (size_t)lt_numel(v) * lt_dtype_size((lt_dtype)d);
    LT_ASSERT_OK(lt_read(ts[d], raw, bytes));
    LT_ASSERT_OK(lt_read(v, back, bytes));
    ck_assert_msg(memcmp(raw, back, bytes) == 0, "%s differs", names[d]);
    lt_release(v);
    lt_release(ts[d]);
  }
  lt_safetensors_close(f);
}
END_TEST

START_TEST(non_contiguous_and_empty_tensors_are_written_row_major) {
  lt_tensor *a = lt_test_arange_f32(3, (int64_t[]){2, 3, 4});
  lt_tensor *row = lt_select(a, 0, 1);
  lt_tensor *ts[] = {
      lt_permute(a, (int[]){2, 0, 1}),
      lt_slice(a, 1, LT_NONE, LT_NONE, -2),
      lt_expand(row, 3, (int64_t[]){2, 3, 4}),
      lt_zeros(LT_BF16, 2, (int64_t[]){0, 5}, LT_HOST),
      lt_select(row, 0, 2),
  };
  const char *names[] = {"permuted", "reversed", "expanded", "empty", "vector"};
  int n = (int)(sizeof ts / sizeof ts[0]);
  LT_ASSERT_OK(lt_safetensors_save(scratch_path("v.st"), n, names, ts, NULL));
  lt_safetensors *f = lt_safetensors_open(scratch_path("v.st"));
  LT_ASSERT_OK_PTR(f);
  for (int i = 0; i < n; i++) {
    lt_tensor *v = lt_safetensors_get(f, names[i]);
    LT_ASSERT_OK_PTR(v);
    ck_assert(lt_is_contiguous(v));
    ck_assert_int_eq(lt_ndim(v), lt_ndim(ts[i]));
    for (int d = 0; d < lt_ndim(v); d++) ck_assert_int_eq(lt_shape(v)[d], lt_shape(ts[i])[d]);
    float want[24], got[24];
    size_t bytes = (size_t)lt_numel(v) * lt_dtype_size(lt_dtype_of(v));
    LT_ASSERT_OK(lt_read(ts[i], want, bytes));
    LT_ASSERT_OK(lt_read(v, got, bytes));
    ck_assert_msg(memcmp(want, got, bytes) == 0, "%s differs", names[i]);
    lt_release(v);
    lt_release(ts[i]);
  }
  lt_safetensors_close(f);
  lt_release(row);
  lt_release(a);
}
END_TEST

/* ---- views ---------------------------------------------------------------------------- */

START_TEST(get_returns_a_zero_copy_view_of_the_mapping) {
  lt_tensor *t = lt_test_arange_f32(1, (int64_t[]){8});
  LT_ASSERT_OK(lt_safetensors_save(scratch_path("z.st"), 1, (const char *[]){"t"}, &t, NULL));
  lt_safetensors *f = lt_safetensors_open(scratch_path("z.st"));
  lt_stats_reset(LT_HOST);
  int64_t in_use = lt_stats_get(LT_HOST).bytes_in_use;
  lt_tensor *a = lt_safetensors_get(f, "t"), *b = lt_safetensors_get(f, "t");
  LT_ASSERT_OK_PTR(a);
  LT_ASSERT_OK_PTR(b);
  lt_stats s = lt_stats_get(LT_HOST);
  ck_assert_int_eq(s.allocs, 0);
  ck_assert_int_eq(s.copies, 0);
  ck_assert_int_eq(s.bytes_in_use, in_use);
  ck_assert_ptr_eq(lt_data(a), lt_data(b)); /* both point into the one mapping */
  lt_release(a);
  lt_release(b);
  lt_safetensors_close(f);
  lt_release(t);
}
END_TEST

START_TEST(views_are_read_only_for_write_and_copy_but_clone_is_writable) {
  lt_tensor *t = lt_test_arange_f32(1, (int64_t[]){4});
  LT_ASSERT_OK(lt_safetensors_save(scratch_path("r.st"), 1, (const char *[]){"t"}, &t, NULL));
  lt_safetensors *f = lt_safetensors_open(scratch_path("r.st"));
  lt_tensor *v = lt_safetensors_get(f, "t");
  LT_ASSERT_OK_PTR(v);
  float x[4] = {9, 9, 9, 9};
  LT_ASSERT_STATUS(lt_write(v, x, sizeof x), LT_ERR_ARG);
  ck_assert_msg(strstr(lt_last_error(), "read-only") != NULL, "%s", lt_last_error());
  LT_ASSERT_STATUS(lt_copy(v, t), LT_ERR_ARG);
  lt_tensor *sub = lt_slice(v, 0, 1, 3, 1); /* views of the view are read-only too */
  LT_ASSERT_STATUS(lt_copy(sub, t), LT_ERR_SHAPE);
  lt_tensor *t2 = lt_slice(t, 0, 0, 2, 1);
  LT_ASSERT_STATUS(lt_copy(sub, t2), LT_ERR_ARG);
  assert_bytes(v, (float[]){0, 1, 2, 3}, 16);
  lt_tensor *c = lt_clone(v);
  LT_ASSERT_OK(lt_write(c, x, sizeof x));
  LT_ASSERT_OK(lt_copy(t, v)); /* reading from a view is fine */
  lt_release(c);
  lt_release(t2);
  lt_release(sub);
  lt_release(v);
  lt_safetensors_close(f);
  lt_release(t);
}
END_TEST

START_TEST(compute_out_forms_refuse_a_read_only_destination) {
  /* The mapping is PROT_READ: a write that slipped through would crash. */
  lt_tensor *t = lt_test_arange_f32(1, (int64_t[]){4});
  LT_ASSERT_OK(lt_safetensors_save(scratch_path("o.st"), 1, (const char *[]){"t"}, &t, NULL));
  lt_safetensors *f = lt_safetensors_open(scratch_path("o.st"));
  lt_tensor *v = lt_safetensors_get(f, "t");
  LT_ASSERT_OK_PTR(v);
  LT_ASSERT_STATUS(lt_add_out(v, t, t), LT_ERR_ARG);
  ck_assert_msg(strstr(lt_last_error(), "read-only") != NULL, "%s", lt_last_error());
  LT_ASSERT_STATUS(lt_unary_out(v, LT_RELU, t), LT_ERR_ARG);
  assert_bytes(v, (float[]){0, 1, 2, 3}, 16);
  lt_release(v);
  lt_safetensors_close(f);
  lt_release(t);
}
END_TEST

START_TEST(views_outlive_close_and_the_mapping_goes_with_the_last) {
  lt_tensor *t = lt_test_arange_f32(1, (int64_t[]){1000});
  LT_ASSERT_OK(lt_safetensors_save(scratch_path("l.st"), 1, (const char *[]){"t"}, &t, NULL));
  lt_safetensors *f = lt_safetensors_open(scratch_path("l.st"));
  lt_tensor *v = lt_safetensors_get(f, "t");
  lt_tensor *s = lt_slice(v, 0, 990, LT_NONE, 1);
  lt_safetensors_close(f);
  lt_release(v);
  unlink(scratch_path("l.st")); /* the mapping keeps the data */
  float got[10];
  LT_ASSERT_OK(lt_read(s, got, sizeof got));
  for (int i = 0; i < 10; i++) ck_assert(got[i] == (float)(990 + i));
  lt_release(s);
  lt_release(t);
}
END_TEST

START_TEST(a_view_saves_again_to_npy_and_safetensors) {
  lt_tensor *t = lt_test_arange_f32(2, (int64_t[]){2, 3});
  LT_ASSERT_OK(lt_safetensors_save(scratch_path("s.st"), 1, (const char *[]){"t"}, &t, NULL));
  lt_safetensors *f = lt_safetensors_open(scratch_path("s.st"));
  lt_tensor *v = lt_safetensors_get(f, "t"), *tv = lt_transpose(v, 0, 1);
  LT_ASSERT_OK(lt_save_npy(scratch_path("s.npy"), tv));
  LT_ASSERT_OK(lt_safetensors_save(scratch_path("s2.st"), 1, (const char *[]){"tv"}, &tv, NULL));
  lt_tensor *n = lt_load_npy(scratch_path("s.npy"));
  assert_bytes(n, (float[]){0, 3, 1, 4, 2, 5}, 24);
  lt_release(n);
  lt_release(tv);
  lt_release(v);
  lt_safetensors_close(f);
  lt_release(t);
}
END_TEST

START_TEST(get_and_listing_reject_bad_arguments) {
  lt_tensor *t = lt_zeros(LT_F32, 0, NULL, LT_HOST);
  LT_ASSERT_OK(lt_safetensors_save(scratch_path("g.st"), 1, (const char *[]){"t"}, &t, NULL));
  lt_safetensors *f = lt_safetensors_open(scratch_path("g.st"));
  LT_ASSERT_FAILS(lt_safetensors_get(f, "nope"), LT_ERR_ARG);
  ck_assert_msg(strstr(lt_last_error(), "'nope'") != NULL, "%s", lt_last_error());
  LT_ASSERT_FAILS(lt_safetensors_get(f, NULL), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_safetensors_get(NULL, "t"), LT_ERR_ARG);
  ck_assert_ptr_null(lt_safetensors_name(f, 1));
  ck_assert_int_eq(lt_last_status(), LT_ERR_ARG);
  ck_assert_ptr_null(lt_safetensors_name(f, -1));
  ck_assert_int_eq(lt_safetensors_count(NULL), -1);
  ck_assert_ptr_null(lt_safetensors_metadata(NULL, "k"));
  ck_assert_int_eq(lt_last_status(), LT_ERR_ARG);
  LT_ASSERT_FAILS((lt_tensor *)lt_safetensors_open(NULL), LT_ERR_ARG);
  lt_safetensors_close(NULL);
  lt_safetensors_close(f);
  lt_release(t);
}
END_TEST

/* ---- files the safetensors package wrote -------------------------------------------------- */

START_TEST(reference_file_lists_names_in_header_order_and_loads_exactly) {
  lt_safetensors *f = lt_safetensors_open(seed("mixed.safetensors"));
  LT_ASSERT_OK_PTR(f);
  ck_assert_int_eq(lt_safetensors_count(f), 7);
  const char *order[] = {"count", "empty", "weight", "bias", "steps", "scale", "mask"};
  for (int i = 0; i < 7; i++) ck_assert_str_eq(lt_safetensors_name(f, i), order[i]);
  ck_assert_str_eq(lt_safetensors_metadata(f, "format"), "pt");
  ck_assert_str_eq(lt_safetensors_metadata(f, "source"), "gen_corpus.py");
  lt_tensor *w = lt_safetensors_get(f, "weight"), *b = lt_safetensors_get(f, "bias"),
            *s = lt_safetensors_get(f, "scale"), *m = lt_safetensors_get(f, "mask"),
            *c = lt_safetensors_get(f, "count"), *e = lt_safetensors_get(f, "empty");
  LT_ASSERT_OK_PTR(w);
  LT_ASSERT_OK_PTR(b);
  LT_ASSERT_OK_PTR(s);
  LT_ASSERT_OK_PTR(m);
  LT_ASSERT_OK_PTR(c);
  LT_ASSERT_OK_PTR(e);
  LT_ASSERT_GEOMETRY(w, 2, ((int64_t[]){2, 3}), ((int64_t[]){3, 1}), 0);
  assert_bytes(w, (float[]){-2, -1, 0, 1, 2, 3}, 24);
  ck_assert_int_eq(lt_dtype_of(b), LT_BF16);
  assert_bytes(b, (uint16_t[]){0x3F80, 0xC000, 0x7F80, 0x0001}, 8);
  ck_assert_int_eq(lt_dtype_of(s), LT_F8_E4M3);
  assert_bytes(s, (uint8_t[]){0x38, 0xB8, 0x7E}, 3);
  ck_assert_int_eq(lt_dtype_of(m), LT_BOOL);
  assert_bytes(m, (uint8_t[]){1, 0}, 2);
  ck_assert_int_eq(lt_ndim(c), 0);
  assert_bytes(c, (int64_t[]){-3}, 8);
  LT_ASSERT_GEOMETRY(e, 2, ((int64_t[]){0, 4}), ((int64_t[]){4, 1}), 0);
  /* A valid safetensors dtype libtensor lacks. */
  LT_ASSERT_FAILS(lt_safetensors_get(f, "steps"), LT_ERR_DTYPE);
  ck_assert_msg(strstr(lt_last_error(), "I16") != NULL, "%s", lt_last_error());
  lt_tensor *all[] = {w, b, s, m, c, e};
  for (int i = 0; i < 6; i++) lt_release(all[i]);
  lt_safetensors_close(f);
}
END_TEST

START_TEST(reference_f16_file_loads_exactly) {
  lt_safetensors *f = lt_safetensors_open(seed("f16_2x2.safetensors"));
  LT_ASSERT_OK_PTR(f);
  lt_tensor *x = lt_safetensors_get(f, "x");
  LT_ASSERT_OK_PTR(x);
  assert_bytes(x, (uint16_t[]){0x3C00, 0x4000, 0xB800, 0x7BFF}, 8);
  lt_release(x);
  lt_safetensors_close(f);
}
END_TEST

/* ---- malformed and hostile files ----------------------------------------------------------- */

typedef struct bad_file {
  const char *header;
  size_t data_len;
  const char *why;
} bad_file;

START_TEST(malformed_headers_fail_with_io_errors) {
  static const bad_file cases[] = {
      {"", 0, "empty header"},
      {"[]", 0, "not an object"},
      {" {}", 0, "does not start with {"},
      {"{\"a\":", 0, "bad JSON"},
      {"{} x", 0, "text after the JSON"},
      {"{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}", 8, "data not covered"},
      {"{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}", 2, "offsets past the end"},
      {"{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,4]}}", 4, "shape/size mismatch"},
      {"{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,0]}}", 4, "begin after end"},
      {"{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}", 8, "gap at the start"},
      {"{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},"
       "\"b\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[2,6]}}", 6, "overlapping"},
      {"{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},"
       "\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}", 8, "repeated name"},
      {"{\"a\":{\"dtype\":\"Q7\",\"shape\":[1],\"data_offsets\":[0,1]}}", 1, "unknown dtype"},
      {"{\"a\":{\"dtype\":7,\"shape\":[1],\"data_offsets\":[0,1]}}", 1, "dtype not a string"},
      {"{\"a\":{\"shape\":[1],\"data_offsets\":[0,1]}}", 1, "no dtype"},
      {"{\"a\":{\"dtype\":\"U8\",\"shape\":[-1],\"data_offsets\":[0,1]}}", 1, "negative size"},
      {"{\"a\":{\"dtype\":\"U8\",\"shape\":[1.5],\"data_offsets\":[0,1]}}", 1, "fractional size"},
      {"{\"a\":{\"dtype\":\"U8\",\"shape\":1,\"data_offsets\":[0,1]}}", 1, "shape not an array"},
      {"{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0]}}", 1, "one offset"},
      {"{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,\"1\"]}}", 1, "offset a string"},
      {"{\"a\":{\"dtype\":\"U8\",\"shape\":[4294967296,4294967296,4294967296],\"data_offsets\":[0,0]}}", 0,
       "numel overflow"},
      {"{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1e300]}}", 1, "huge offset"},
      {"{\"a\":[]}", 0, "entry not an object"},
      {"{\"__metadata__\":{\"k\":1}}", 0, "metadata value not a string"},
      {"{\"__metadata__\":[]}", 0, "metadata not an object"},
      {"{\"__metadata__\":{\"k\":\"a\",\"k\":\"b\"}}", 0, "metadata key repeated"},
      {"{\"__metadata__\":{},\"__metadata__\":{}}", 0, "metadata repeated"},
      {"{\"F4\":{\"dtype\":\"F4\",\"shape\":[3],\"data_offsets\":[0,1]}}", 1, "sub-byte size not whole bytes"},
      {"{\"\xc3\x28\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}}", 1, "invalid UTF-8"},
      {"{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}}\x00   ", 1, "NUL in the header"},
  };
  unsigned char data[16] = {0};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *h = cases[i].header;
    /* the NUL case: its header text runs past the embedded NUL */
    size_t hlen = strlen(h) + (strstr(cases[i].why, "NUL") ? 4 : 0);
    FILE *f = fopen(scratch_path("bad.st"), "wb");
    unsigned char le[8] = {(unsigned char)hlen};
    fwrite(le, 1, 8, f);
    fwrite(h, 1, hlen, f);
    fwrite(data, 1, cases[i].data_len, f);
    fclose(f);
    assert_open_fails(scratch_path("bad.st"), cases[i].why);
  }
}
END_TEST

START_TEST(a_huge_or_overlong_header_length_fails_before_reading) {
  unsigned char le[16] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, '{', '}'};
  FILE *f = fopen(scratch_path("h.st"), "wb");
  fwrite(le, 1, 10, f);
  fclose(f);
  assert_open_fails(scratch_path("h.st"), "2^64-1 header length");
  /* Within the file but over the format's 100 MB bound. */
  f = fopen(scratch_path("big.st"), "wb");
  uint64_t len = 100000001;
  for (int i = 0; i < 8; i++) le[i] = (unsigned char)(len >> (8 * i));
  fwrite(le, 1, 8, f);
  fseek(f, (long)len + 7, SEEK_SET);
  fputc(' ', f);
  fclose(f);
  assert_open_fails(scratch_path("big.st"), "header over 100 MB");
}
END_TEST

START_TEST(short_missing_and_non_regular_files_fail_with_io_errors) {
  FILE *f = fopen(scratch_path("short.st"), "wb");
  fwrite("\x02\0\0", 1, 3, f);
  fclose(f);
  assert_open_fails(scratch_path("short.st"), "3-byte file");
  assert_open_fails(scratch_path("missing.st"), "missing file");
  assert_open_fails(scratch_path("."), "a directory");
}
END_TEST

START_TEST(bool_bytes_other_than_0_and_1_fail_get_with_io_error) {
  write_st(scratch_path("b.st"), "{\"m\":{\"dtype\":\"BOOL\",\"shape\":[3],\"data_offsets\":[0,3]}}", "\x01\x00\x02", 3);
  lt_safetensors *f = lt_safetensors_open(scratch_path("b.st"));
  LT_ASSERT_OK_PTR(f);
  LT_ASSERT_FAILS(lt_safetensors_get(f, "m"), LT_ERR_IO);
  ck_assert_msg(strstr(lt_last_error(), "0x02") != NULL, "%s", lt_last_error());
  lt_safetensors_close(f);
}
END_TEST

START_TEST(misaligned_data_comes_back_as_an_aligned_read_only_copy) {
  /* A U8 of 1 byte, then an F32 at data offset 1 (legal, not aligned). */
  const char *h = "{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]},"
                  "\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[1,9]}}";
  char padded[256];
  snprintf(padded, sizeof padded, "%-*s", (int)((strlen(h) + 7) / 8 * 8), h);
  unsigned char data[9] = {7};
  float v[2] = {1.5f, -3};
  memcpy(data + 1, v, 8);
  write_st(scratch_path("m.st"), padded, data, 9);
  lt_safetensors *f = lt_safetensors_open(scratch_path("m.st"));
  LT_ASSERT_OK_PTR(f);
  lt_tensor *b = lt_safetensors_get(f, "b");
  LT_ASSERT_OK_PTR(b);
  ck_assert_uint_eq((uintptr_t)lt_data(b) % 4, 0);
  assert_bytes(b, v, 8);
  LT_ASSERT_STATUS(lt_write(b, v, 8), LT_ERR_ARG);
  lt_release(b);
  lt_safetensors_close(f);
}
END_TEST

START_TEST(more_dims_than_lt_max_dims_fail_get_with_shape_error) {
  char h[512] = "{\"a\":{\"dtype\":\"U8\",\"shape\":[1";
  for (int i = 0; i < LT_MAX_DIMS; i++) strcat(h, ",1");
  strcat(h, "],\"data_offsets\":[0,1]}}");
  write_st(scratch_path("d.st"), h, "\x05", 1);
  lt_safetensors *f = lt_safetensors_open(scratch_path("d.st"));
  LT_ASSERT_OK_PTR(f);
  LT_ASSERT_FAILS(lt_safetensors_get(f, "a"), LT_ERR_SHAPE);
  lt_safetensors_close(f);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("safetensors");
  TCase *w = tcase_create("save");
  tcase_add_checked_fixture(w, scratch_make, scratch_remove);
  tcase_add_test(w, save_writes_the_length_the_json_header_and_the_data);
  tcase_add_test(w, save_writes_metadata_and_escapes_names);
  tcase_add_test(w, save_lays_out_data_largest_element_first_so_views_are_aligned);
  tcase_add_test(w, save_rejects_bad_arguments_without_creating_a_file);
  tcase_add_test(w, save_of_no_tensors_writes_a_valid_empty_file);
  tcase_add_test(w, every_dtype_round_trips_bit_for_bit_in_one_file);
  tcase_add_test(w, non_contiguous_and_empty_tensors_are_written_row_major);
  suite_add_tcase(s, w);

  TCase *v = tcase_create("views");
  tcase_add_checked_fixture(v, scratch_make, scratch_remove);
  tcase_add_test(v, get_returns_a_zero_copy_view_of_the_mapping);
  tcase_add_test(v, views_are_read_only_for_write_and_copy_but_clone_is_writable);
  tcase_add_test(v, compute_out_forms_refuse_a_read_only_destination);
  tcase_add_test(v, views_outlive_close_and_the_mapping_goes_with_the_last);
  tcase_add_test(v, a_view_saves_again_to_npy_and_safetensors);
  tcase_add_test(v, get_and_listing_reject_bad_arguments);
  suite_add_tcase(s, v);

  TCase *r = tcase_create("reference_files");
  tcase_add_test(r, reference_file_lists_names_in_header_order_and_loads_exactly);
  tcase_add_test(r, reference_f16_file_loads_exactly);
  suite_add_tcase(s, r);

  TCase *b = tcase_create("malformed");
  tcase_add_checked_fixture(b, scratch_make, scratch_remove);
  tcase_set_timeout(b, 60);
  tcase_add_test(b, malformed_headers_fail_with_io_errors);
  tcase_add_test(b, a_huge_or_overlong_header_length_fails_before_reading);
  tcase_add_test(b, short_missing_and_non_regular_files_fail_with_io_errors);
  tcase_add_test(b, bool_bytes_other_than_0_and_1_fail_get_with_io_error);
  tcase_add_test(b, misaligned_data_comes_back_as_an_aligned_read_only_copy);
  tcase_add_test(b, more_dims_than_lt_max_dims_fail_get_with_shape_error);
  suite_add_tcase(s, b);
  return s;
}

int main(void) { return lt_run_suite(suite()); }
