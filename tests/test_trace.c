/* Specification of copy tracing (run with LT_TRACE=copies in the
 * environment): every materialising copy prints exactly one stderr line
 * naming the operation, implicit or explicit, the bytes and, for a
 * reshape/flatten fallback, why no view was possible; nothing else prints.
 * Each test captures stderr into a temporary file around the calls under
 * test and restores it before asserting. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/check_helpers.h"

static FILE *capture_file;
static int saved_stderr = -1;
static char captured[8192];

static void capture_begin(void) {
  fflush(stderr);
  capture_file = tmpfile();
  ck_assert_msg(capture_file != NULL, "tmpfile failed");
  saved_stderr = dup(STDERR_FILENO);
  ck_assert_int_ge(saved_stderr, 0);
  ck_assert_int_ge(dup2(fileno(capture_file), STDERR_FILENO), 0);
}

/* Puts stderr back; safe to call when no capture is active. */
static void capture_restore(void) {
  if (saved_stderr < 0) return;
  fflush(stderr);
  dup2(saved_stderr, STDERR_FILENO);
  close(saved_stderr);
  saved_stderr = -1;
}

/* Ends the capture and returns what was printed to stderr meanwhile. */
static const char *capture_end(void) {
  capture_restore();
  rewind(capture_file);
  size_t n = fread(captured, 1, sizeof captured - 1, capture_file);
  captured[n] = '\0';
  fclose(capture_file);
  capture_file = NULL;
  return captured;
}

static int count_lines(const char *text) {
  int n = 0;
  for (const char *p = text; *p; p++) n += *p == '\n';
  return n;
}

static bool is_word_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* True when word occurs in text delimited by non-word characters. */
static bool has_word(const char *text, const char *word) {
  size_t n = strlen(word);
  for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
    bool starts = p == text || !is_word_char(p[-1]);
    if (starts && !is_word_char(p[n])) return true;
  }
  return false;
}

/* Asserts out is exactly one line naming op, kind ("implicit" or
 * "explicit", and not the other), and "<bytes> bytes". */
static void assert_one_trace_line(const char *out, const char *op, const char *kind, long long bytes) {
  ck_assert_msg(count_lines(out) == 1 && out[strlen(out) - 1] == '\n',
                "expected exactly one trace line, got: \"%s\"", out);
  ck_assert_msg(has_word(out, op), "trace line does not name the operation %s: %s", op, out);
  ck_assert_msg(has_word(out, kind), "trace line does not say %s: %s", kind, out);
  const char *other = strcmp(kind, "implicit") == 0 ? "explicit" : "implicit";
  ck_assert_msg(!has_word(out, other), "trace line says %s: %s", other, out);
  char count[48];
  snprintf(count, sizeof count, " %lld bytes", bytes);
  ck_assert_msg(strstr(out, count) != NULL, "trace line lacks \"%s\": %s", count + 1, out);
}

static const char *const not_viewable_reason =
    "cannot view f32[4,6] strides=[1,4] as [24] without a copy: dims 0 and 1 are not contiguous with "
    "each other";

static void require_trace_env(void) {
  const char *e = getenv("LT_TRACE");
  ck_assert_msg(e && strstr(e, "copies"), "this suite must run with LT_TRACE=copies in its environment");
}

static void restore_stderr_and_trace(void) {
  capture_restore();
  if (capture_file) fclose(capture_file);
  capture_file = NULL;
  lt_set_trace(true);
}

/* A non-contiguous f32[4,6] (strides [1,4]) over a fresh f32[6,4] arange. */
static lt_tensor *transposed_6x4(lt_tensor **base) {
  *base = lt_test_arange_f32(2, (int64_t[]){6, 4});
  LT_ASSERT_OK_PTR(*base);
  lt_tensor *t = lt_transpose(*base, 0, 1);
  LT_ASSERT_OK_PTR(t);
  return t;
}

/* ---- one line per materialising copy ------------------------------------ */

START_TEST(contiguous_of_a_non_contiguous_tensor_prints_one_explicit_line) {
  lt_tensor *base;
  lt_tensor *t = transposed_6x4(&base);
  capture_begin();
  lt_tensor *c = lt_contiguous(t);
  const char *out = capture_end();
  LT_ASSERT_OK_PTR(c);
  assert_one_trace_line(out, "contiguous", "explicit", 96);
  lt_release(c);
  lt_release(t);
  lt_release(base);
}
END_TEST

START_TEST(clone_prints_one_explicit_line) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){6, 4});
  LT_ASSERT_OK_PTR(a);
  capture_begin();
  lt_tensor *c = lt_clone(a);
  const char *out = capture_end();
  LT_ASSERT_OK_PTR(c);
  assert_one_trace_line(out, "clone", "explicit", 96);
  lt_release(c);
  lt_release(a);
}
END_TEST

START_TEST(reshape_fallback_prints_one_implicit_line_with_the_reason) {
  lt_tensor *base;
  lt_tensor *t = transposed_6x4(&base);
  capture_begin();
  lt_tensor *r = lt_reshape(t, 1, (int64_t[]){24});
  const char *out = capture_end();
  LT_ASSERT_OK_PTR(r);
  assert_one_trace_line(out, "reshape", "implicit", 96);
  ck_assert_msg(strstr(out, not_viewable_reason) != NULL, "trace line lacks the reason: %s", out);
  lt_release(r);
  lt_release(t);
  lt_release(base);
}
END_TEST

START_TEST(flatten_fallback_prints_one_implicit_line_with_the_reason) {
  lt_tensor *base;
  lt_tensor *t = transposed_6x4(&base);
  capture_begin();
  lt_tensor *f = lt_flatten(t, 0, 1);
  const char *out = capture_end();
  LT_ASSERT_OK_PTR(f);
  assert_one_trace_line(out, "flatten", "implicit", 96);
  ck_assert_msg(strstr(out, not_viewable_reason) != NULL, "trace line lacks the reason: %s", out);
  lt_release(f);
  lt_release(t);
  lt_release(base);
}
END_TEST

START_TEST(copy_prints_one_explicit_line_with_the_bytes_written) {
  lt_tensor *src = lt_test_arange_f32(1, (int64_t[]){4});
  lt_tensor *dst = lt_empty(LT_F32, 2, (int64_t[]){3, 4}, LT_HOST);
  LT_ASSERT_OK_PTR(src);
  LT_ASSERT_OK_PTR(dst);
  capture_begin();
  lt_status s = lt_copy(dst, src);
  const char *out = capture_end();
  LT_ASSERT_OK(s);
  assert_one_trace_line(out, "copy", "explicit", 48);
  /* "copy" also prefixes every trace line, so make sure no other op is named. */
  const char *others[] = {"contiguous", "clone", "reshape", "flatten", "cast"};
  for (int i = 0; i < 5; i++)
    ck_assert_msg(!has_word(out, others[i]), "lt_copy's trace line names %s: %s", others[i], out);
  lt_release(dst);
  lt_release(src);
}
END_TEST

START_TEST(cast_prints_one_explicit_line_with_the_target_bytes) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){2, 3});
  LT_ASSERT_OK_PTR(a);
  capture_begin();
  lt_tensor *h = lt_cast(a, LT_F16, LT_CAST_DEFAULT);
  const char *out = capture_end();
  LT_ASSERT_OK_PTR(h);
  assert_one_trace_line(out, "cast", "explicit", 12);
  lt_release(h);
  lt_release(a);
}
END_TEST

START_TEST(each_copy_prints_its_own_line_in_order) {
  lt_tensor *base;
  lt_tensor *t = transposed_6x4(&base);
  capture_begin();
  lt_tensor *c = lt_clone(t);
  lt_tensor *r = lt_reshape(t, 1, (int64_t[]){24});
  lt_tensor *h = lt_to(t, LT_BF16);
  const char *out = capture_end();
  LT_ASSERT_OK_PTR(c);
  LT_ASSERT_OK_PTR(r);
  LT_ASSERT_OK_PTR(h);
  ck_assert_int_eq(count_lines(out), 3);
  const char *l2 = strchr(out, '\n') + 1;
  const char *l3 = strchr(l2, '\n') + 1;
  char line1[1024], line2[1024];
  snprintf(line1, sizeof line1, "%.*s", (int)(l2 - out), out);
  snprintf(line2, sizeof line2, "%.*s", (int)(l3 - l2), l2);
  assert_one_trace_line(line1, "clone", "explicit", 96);
  assert_one_trace_line(line2, "reshape", "implicit", 96);
  assert_one_trace_line(l3, "cast", "explicit", 48);
  lt_release(h);
  lt_release(r);
  lt_release(c);
  lt_release(t);
  lt_release(base);
}
END_TEST

/* ---- no line without a copy --------------------------------------------- */

START_TEST(contiguous_of_a_contiguous_tensor_prints_nothing) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){6, 4});
  LT_ASSERT_OK_PTR(a);
  capture_begin();
  lt_tensor *c = lt_contiguous(a);
  const char *out = capture_end();
  LT_ASSERT_OK_PTR(c);
  ck_assert_str_eq(out, "");
  lt_release(c);
  lt_release(a);
}
END_TEST

START_TEST(reshape_and_flatten_that_view_print_nothing) {
  lt_tensor *base;
  lt_tensor *t = transposed_6x4(&base);
  capture_begin();
  lt_tensor *r = lt_reshape(t, 3, (int64_t[]){2, 2, 6});
  lt_tensor *f = lt_flatten(base, 0, 1);
  const char *out = capture_end();
  LT_ASSERT_OK_PTR(r);
  LT_ASSERT_OK_PTR(f);
  ck_assert_str_eq(out, "");
  lt_release(f);
  lt_release(r);
  lt_release(t);
  lt_release(base);
}
END_TEST

START_TEST(views_print_nothing) {
  lt_tensor *a = lt_test_arange_f32(3, (int64_t[]){2, 3, 4});
  LT_ASSERT_OK_PTR(a);
  capture_begin();
  lt_tensor *views[] = {
      lt_view(a, 2, (int64_t[]){6, 4}),
      lt_slice(a, 2, LT_NONE, LT_NONE, -1),
      lt_select(a, 1, 1),
      lt_transpose(a, 0, 2),
      lt_permute(a, (int[]){2, 0, 1}),
      lt_expand(a, 4, (int64_t[]){5, 2, 3, 4}),
      lt_unsqueeze(a, 1),
      lt_diagonal(a, 0, 1, 2),
  };
  const char *out = capture_end();
  int n = (int)(sizeof views / sizeof views[0]);
  for (int i = 0; i < n; i++) ck_assert_msg(views[i] != NULL, "view %d failed: %s", i, lt_last_error());
  ck_assert_str_eq(out, "");
  for (int i = 0; i < n; i++) lt_release(views[i]);
  lt_release(a);
}
END_TEST

START_TEST(view_that_fails_prints_nothing) {
  lt_tensor *base;
  lt_tensor *t = transposed_6x4(&base);
  capture_begin();
  lt_tensor *v = lt_view(t, 1, (int64_t[]){24});
  const char *out = capture_end();
  LT_ASSERT_FAILS(v, LT_ERR_NOT_VIEWABLE);
  ck_assert_str_eq(out, "");
  lt_release(t);
  lt_release(base);
}
END_TEST

START_TEST(read_and_write_print_nothing) {
  lt_tensor *base;
  lt_tensor *t = transposed_6x4(&base);
  float buf[24];
  capture_begin();
  lt_status rs = lt_read(t, buf, sizeof buf);
  lt_status ws = lt_write(t, buf, sizeof buf);
  const char *out = capture_end();
  LT_ASSERT_OK(rs);
  LT_ASSERT_OK(ws);
  ck_assert_str_eq(out, "");
  lt_release(t);
  lt_release(base);
}
END_TEST

START_TEST(forbidden_reshape_prints_nothing) {
  lt_tensor *base;
  lt_tensor *t = transposed_6x4(&base);
  lt_copy_policy old = lt_set_copy_policy(LT_COPY_FORBID);
  capture_begin();
  lt_tensor *r = lt_reshape(t, 1, (int64_t[]){24});
  const char *out = capture_end();
  lt_set_copy_policy(old);
  LT_ASSERT_FAILS(r, LT_ERR_NOT_VIEWABLE);
  ck_assert_str_eq(out, "");
  lt_release(t);
  lt_release(base);
}
END_TEST

/* ---- lt_set_trace ------------------------------------------------------- */

START_TEST(set_trace_false_returns_true_and_silences_copies) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){6, 4});
  LT_ASSERT_OK_PTR(a);
  ck_assert(lt_set_trace(false) == true);
  capture_begin();
  lt_tensor *c = lt_clone(a);
  const char *out = capture_end();
  ck_assert(lt_set_trace(true) == false);
  LT_ASSERT_OK_PTR(c);
  ck_assert_str_eq(out, "");
  lt_release(c);
  lt_release(a);
}
END_TEST

START_TEST(set_trace_true_turns_tracing_back_on) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){6, 4});
  LT_ASSERT_OK_PTR(a);
  lt_set_trace(false);
  ck_assert(lt_set_trace(true) == false);
  capture_begin();
  lt_tensor *c = lt_clone(a);
  const char *out = capture_end();
  LT_ASSERT_OK_PTR(c);
  assert_one_trace_line(out, "clone", "explicit", 96);
  ck_assert(lt_set_trace(true) == true);
  lt_release(c);
  lt_release(a);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("trace");
  TCase *lines = tcase_create("lines");
  tcase_add_checked_fixture(lines, require_trace_env, restore_stderr_and_trace);
  tcase_add_test(lines, contiguous_of_a_non_contiguous_tensor_prints_one_explicit_line);
  tcase_add_test(lines, clone_prints_one_explicit_line);
  tcase_add_test(lines, reshape_fallback_prints_one_implicit_line_with_the_reason);
  tcase_add_test(lines, flatten_fallback_prints_one_implicit_line_with_the_reason);
  tcase_add_test(lines, copy_prints_one_explicit_line_with_the_bytes_written);
  tcase_add_test(lines, cast_prints_one_explicit_line_with_the_target_bytes);
  tcase_add_test(lines, each_copy_prints_its_own_line_in_order);
  suite_add_tcase(s, lines);

  TCase *silent = tcase_create("silent");
  tcase_add_checked_fixture(silent, require_trace_env, restore_stderr_and_trace);
  tcase_add_test(silent, contiguous_of_a_contiguous_tensor_prints_nothing);
  tcase_add_test(silent, reshape_and_flatten_that_view_print_nothing);
  tcase_add_test(silent, views_print_nothing);
  tcase_add_test(silent, view_that_fails_prints_nothing);
  tcase_add_test(silent, read_and_write_print_nothing);
  tcase_add_test(silent, forbidden_reshape_prints_nothing);
  suite_add_tcase(s, silent);

  TCase *toggle = tcase_create("toggle");
  tcase_add_checked_fixture(toggle, require_trace_env, restore_stderr_and_trace);
  tcase_add_test(toggle, set_trace_false_returns_true_and_silences_copies);
  tcase_add_test(toggle, set_trace_true_turns_tracing_back_on);
  suite_add_tcase(s, toggle);
  return s;
}

int main(void) { return lt_run_suite(suite()); }
