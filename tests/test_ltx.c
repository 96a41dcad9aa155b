/* ltx explain, run as a user would: its output for known chains. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "support/check_helpers.h"

/* Runs ltx with args; returns its exit status and its stdout in out. */
static int run_ltx(const char *args, char *out, size_t n) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "%s %s 2>&1", LTX_PATH, args);
  FILE *p = popen(cmd, "r");
  ck_assert_ptr_nonnull(p);
  size_t got = fread(out, 1, n - 1, p);
  out[got] = '\0';
  int status = pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

START_TEST(a_failing_view_is_explained_with_its_reason_and_the_copy_reshape_would_make) {
  char out[4096];
  ck_assert_int_eq(run_ltx("explain --shape 4,6 'transpose 0 1 | view 24'", out, sizeof out), 0);
  ck_assert_msg(strstr(out, "transpose 0 1") && strstr(out, "f32[6,4] strides=[1,6] offset=0 non-contiguous"), "%s", out);
  ck_assert_msg(strstr(out, "view: shares storage, moved 0 bytes"), "%s", out);
  ck_assert_msg(strstr(out, "FAILS: LT_ERR_NOT_VIEWABLE"), "%s", out);
  ck_assert_msg(strstr(out, "dims 0 and 1 are not contiguous with each other"), "%s", out);
  ck_assert_msg(strstr(out, "use lt_reshape (copies 96 bytes) or lt_contiguous first"), "%s", out);
}
END_TEST

START_TEST(a_reshape_that_copies_says_so_and_the_bytes) {
  char out[4096];
  ck_assert_int_eq(run_ltx("explain --shape 4,6 'transpose 0 1 | reshape 24'", out, sizeof out), 0);
  ck_assert_msg(strstr(out, "COPY: implicit (no view could express it), wrote 96 bytes into new storage"), "%s", out);
}
END_TEST

START_TEST(a_view_that_succeeds_is_a_view) {
  char out[4096];
  ck_assert_int_eq(run_ltx("explain --shape 4,6 'view 2 12 | transpose 0 1'", out, sizeof out), 0);
  ck_assert_msg(strstr(out, "f32[2,12] strides=[12,1] offset=0 contiguous"), "%s", out);
  ck_assert_msg(strstr(out, "f32[12,2] strides=[1,12] offset=0 non-contiguous"), "%s", out);
  ck_assert_msg(!strstr(out, "COPY"), "%s", out);
}
END_TEST

START_TEST(an_einops_pattern_is_explained) {
  char out[4096];
  ck_assert_int_eq(run_ltx("explain --shape 2,128,768 'b t (h d) -> b h t d' h=12", out, sizeof out), 0);
  ck_assert_msg(strstr(out, "f32[2,12,128,64] strides=[98304,64,768,1] offset=0 non-contiguous"), "%s", out);
  ck_assert_msg(strstr(out, "view: shares storage"), "%s", out);
}
END_TEST

START_TEST(a_malformed_command_is_a_usage_error) {
  char out[4096];
  ck_assert_int_eq(run_ltx("explain --shape 4,x 'view 24'", out, sizeof out), 2);
  ck_assert_int_eq(run_ltx("explain --shape 4,6 'view two'", out, sizeof out), 2);
  ck_assert_int_eq(run_ltx("frobnicate", out, sizeof out), 2);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("ltx");
  TCase *tc = tcase_create("explain");
  tcase_add_test(tc, a_failing_view_is_explained_with_its_reason_and_the_copy_reshape_would_make);
  tcase_add_test(tc, a_reshape_that_copies_says_so_and_the_bytes);
  tcase_add_test(tc, a_view_that_succeeds_is_a_view);
  tcase_add_test(tc, an_einops_pattern_is_explained);
  tcase_add_test(tc, a_malformed_command_is_a_usage_error);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return lt_run_suite(suite()); }
