/* ltx explain, run as a user would: its output for known chains and
 * patterns (views, failing views with their alternatives, copies with
 * their bytes and reasons). */
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

START_TEST(a_failing_view_runs_its_alternatives_and_shows_their_bytes) {
  char out[8192];
  ck_assert_int_eq(run_ltx("explain --shape 4,6 'transpose 0 1 | view 24'", out, sizeof out), 0);
  const char *alt = strstr(out, "alternatives, run on the tensor before this step:");
  ck_assert_msg(alt != NULL, "%s", out);
  const char *reshape = strstr(alt, "    reshape 24");
  const char *contiguous = strstr(alt, "    contiguous");
  const char *view = strstr(alt, "    | view 24");
  ck_assert_msg(reshape && contiguous && view && reshape < contiguous && contiguous < view, "%s", out);
  ck_assert_msg(strstr(reshape, "f32[24] strides=[1] offset=0 contiguous"), "%s", out);
  ck_assert_msg(strstr(reshape, "COPY: implicit (no view could express it), wrote 96 bytes"), "%s", out);
  ck_assert_msg(strstr(contiguous, "f32[6,4] strides=[4,1] offset=0 contiguous"), "%s", out);
  ck_assert_msg(strstr(contiguous, "COPY: explicit (asked for), wrote 96 bytes"), "%s", out);
  ck_assert_msg(strstr(view, "view: shares storage, moved 0 bytes"), "%s", out);
  /* The alternatives are what-ifs: the summary counts the chain only. */
  ck_assert_msg(strstr(out, "summary: 2 steps: 1 view (0 bytes moved), 0 copies (0 bytes written), 1 failed"), "%s",
                out);
}
END_TEST

START_TEST(an_implicit_copy_gives_the_reason_no_view_exists) {
  char out[8192];
  ck_assert_int_eq(run_ltx("explain --shape 4,6 'transpose 0 1 | reshape 24'", out, sizeof out), 0);
  ck_assert_msg(strstr(out, "why (run under LT_COPY_FORBID it fails): reshape: cannot view f32[6,4] strides=[1,6] "
                            "as [24] without a copy: dims 0 and 1 are not contiguous with each other"),
                "%s", out);
  ck_assert_msg(strstr(out, "summary: 2 steps: 1 view (0 bytes moved), 1 copy (96 bytes written)"), "%s", out);
}
END_TEST

START_TEST(bytes_copied_follow_the_dtype) {
  char out[8192];
  ck_assert_int_eq(run_ltx("explain --shape 4,6 --dtype bf16 'transpose 0 1 | reshape 24'", out, sizeof out), 0);
  ck_assert_msg(strstr(out, "bf16, 2 bytes per element"), "%s", out);
  ck_assert_msg(strstr(out, "wrote 48 bytes into new storage"), "%s", out);
}
END_TEST

START_TEST(explicit_copies_and_no_op_contiguous_are_told_apart) {
  char out[8192];
  ck_assert_int_eq(run_ltx("explain --shape 4,6 'contiguous | clone | slice 1 _ _ -2'", out, sizeof out), 0);
  ck_assert_msg(strstr(out, "same tensor: already contiguous, moved 0 bytes"), "%s", out);
  ck_assert_msg(strstr(out, "COPY: explicit (asked for), wrote 96 bytes into new storage"), "%s", out);
  ck_assert_msg(strstr(out, "f32[4,3] strides=[6,-2] offset=5 non-contiguous"), "%s", out);
}
END_TEST

START_TEST(a_pattern_is_shown_as_the_split_permute_and_merge_the_library_does) {
  char out[8192];
  ck_assert_int_eq(run_ltx("explain --shape 2,128,768 'b t (h d) -> b h t d' h=12", out, sizeof out), 0);
  const char *split = strstr(out, "  b t (h d) -> b t h d");
  const char *permute = strstr(out, "  b t h d -> b h t d");
  const char *whole = strstr(out, "the whole pattern in one call:\nb t (h d) -> b h t d");
  ck_assert_msg(split && permute && whole && split < permute && permute < whole, "%s", out);
  ck_assert_msg(strstr(split, "f32[2,128,12,64] strides=[98304,768,64,1] offset=0 contiguous"), "%s", out);
  ck_assert_msg(strstr(permute, "f32[2,12,128,64] strides=[98304,64,768,1] offset=0 non-contiguous"), "%s", out);
  ck_assert_msg(!strstr(out, "merge"), "nothing to merge here: %s", out);
  ck_assert_msg(!strstr(out, "COPY"), "%s", out);
}
END_TEST

START_TEST(merging_heads_back_copies_at_the_merge_and_says_why) {
  char out[8192];
  ck_assert_int_eq(run_ltx("explain --shape 2,12,128,64 'b h t d -> b t (h d)'", out, sizeof out), 0);
  const char *merge = strstr(out, "  b t h d -> b t (h d)");
  ck_assert_msg(merge != NULL, "%s", out);
  ck_assert_msg(strstr(merge, "f32[2,128,768] strides=[98304,768,1] offset=0 contiguous"), "%s", out);
  ck_assert_msg(strstr(merge, "COPY: implicit (no view could express it), wrote 786432 bytes"), "%s", out);
  ck_assert_msg(strstr(merge, "dims 2 and 3 are not contiguous with each other"), "%s", out);
  ck_assert_msg(strstr(out, "summary: 1 step: 0 views (0 bytes moved), 1 copy (786432 bytes written)"), "%s", out);
}
END_TEST

START_TEST(a_bad_pattern_keeps_the_caret_under_its_fault) {
  char out[8192];
  ck_assert_int_eq(run_ltx("explain --shape 2,3 'a b -> a'", out, sizeof out), 0);
  ck_assert_msg(strstr(out, "FAILS: LT_ERR_PATTERN"), "%s", out);
  const char *line = strstr(out, "rearrange: 'a b -> a': axis 'b' is on the left side only");
  ck_assert_msg(line != NULL, "%s", out);
  const char *start = line;
  while (start > out && start[-1] != '\n') start--;
  const char *caret_line = strchr(line, '\n') + 1;
  long col = (long)(strchr(caret_line, '^') - caret_line);
  ck_assert_msg(col < (long)(strchr(line, '\n') - start) && start[col] == 'b', "caret misplaced:\n%s", out);
}
END_TEST

START_TEST(a_malformed_command_is_a_usage_error) {
  char out[4096];
  ck_assert_int_eq(run_ltx("explain --shape 4,x 'view 24'", out, sizeof out), 2);
  ck_assert_int_eq(run_ltx("explain --shape 4,6 'view two'", out, sizeof out), 2);
  ck_assert_int_eq(run_ltx("explain --shape 4,6 'permute 1'", out, sizeof out), 2); /* needs one dim per dim */
  ck_assert_int_eq(run_ltx("explain --shape 4,6 'warp 1'", out, sizeof out), 2);
  ck_assert_msg(strstr(out, "'warp 1': unknown op"), "%s", out);
  ck_assert_int_eq(run_ltx("explain --shape 4,6 'transpose _ 1'", out, sizeof out), 2);
  ck_assert_int_eq(run_ltx("explain --shape 4,6 'view 24' h=2", out, sizeof out), 2);
  ck_assert_int_eq(run_ltx("explain --shape 4,6 'a b -> b a' h", out, sizeof out), 2);
  ck_assert_int_eq(run_ltx("explain 'view 24'", out, sizeof out), 2);
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
  tcase_add_test(tc, a_failing_view_runs_its_alternatives_and_shows_their_bytes);
  tcase_add_test(tc, an_implicit_copy_gives_the_reason_no_view_exists);
  tcase_add_test(tc, bytes_copied_follow_the_dtype);
  tcase_add_test(tc, explicit_copies_and_no_op_contiguous_are_told_apart);
  tcase_add_test(tc, a_pattern_is_shown_as_the_split_permute_and_merge_the_library_does);
  tcase_add_test(tc, merging_heads_back_copies_at_the_merge_and_says_why);
  tcase_add_test(tc, a_bad_pattern_keeps_the_caret_under_its_fault);
  tcase_add_test(tc, a_malformed_command_is_a_usage_error);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return lt_run_suite(suite()); }
