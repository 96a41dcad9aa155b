/* The examples, run as a reader would, so they never rot: each exits 0,
 * prints the figures its comments promise, and stays under 100 lines. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "support/check_helpers.h"

/* Runs build/examples/name with stderr folded into stdout; returns its
 * exit status, output in out. */
static int run_example(const char *name, char *out, size_t n) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "%s/examples/%s 2>&1", LT_BUILD_ROOT, name);
  FILE *p = popen(cmd, "r");
  ck_assert_ptr_nonnull(p);
  size_t got = fread(out, 1, n - 1, p);
  out[got] = '\0';
  int status = pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int source_lines(const char *name) {
  char path[512];
  snprintf(path, sizeof path, "%s/examples/%s.c", LT_SOURCE_ROOT, name);
  FILE *f = fopen(path, "r");
  ck_assert_msg(f != NULL, "cannot open %s", path);
  int lines = 0;
  for (int c; (c = fgetc(f)) != EOF;) lines += c == '\n';
  fclose(f);
  return lines;
}

/* Asserts each string occurs in out, in the order given. */
static void assert_in_order(const char *out, const char *const *want, int n) {
  const char *at = out;
  for (int i = 0; i < n; i++) {
    const char *hit = strstr(at, want[i]);
    ck_assert_msg(hit != NULL, "missing or out of order: '%s' in\n%s", want[i], out);
    at = hit + strlen(want[i]);
  }
}

START_TEST(view_vs_reshape_shows_the_failing_view_and_the_traced_copy) {
  char out[8192];
  ck_assert_int_eq(run_example("view_vs_reshape", out, sizeof out), 0);
  const char *want[] = {
      "view(x, [4,2,3])             f32[4,2,3] strides=[6,3,1] offset=0 contiguous",
      "transpose(x, 0, 1)           f32[6,4] strides=[1,6] offset=0 non-contiguous",
      "fails: LT_ERR_NOT_VIEWABLE",
      "use lt_reshape (copies 96 bytes) or lt_contiguous first",
      "copies after the views: 0 (0 implicit), 0 bytes copied",
      /* the trace line, from stderr, before the reshape's own line */
      "libtensor: copy reshape (implicit) 96 bytes f32 -> f32 [6,4]: cannot view f32[6,4] strides=[1,6] as [24]",
      "reshape(transpose, [24])     f32[24] strides=[1] offset=0 contiguous",
      "copies after the reshape: 1 (1 implicit), 96 bytes copied",
      "x[0,0] = 100, reshape[0] = -1",
      "copies after a reshape that could be a view: 1 (1 implicit), 96 bytes copied",
  };
  assert_in_order(out, want, (int)(sizeof want / sizeof want[0]));
  ck_assert_msg(!strstr(strstr(out, "reshape(x, [6,4])"), "libtensor: copy"), "a view was traced:\n%s", out);
}
END_TEST

START_TEST(attention_splits_heads_for_free_and_merges_with_one_copy) {
  char out[8192];
  ck_assert_int_eq(run_example("attention", out, sizeof out), 0);
  const char *want[] = {
      "f32[3,2,4,16,8] strides=[32,1536,8,96,1] offset=0 non-contiguous",
      "copies so far: 0, bytes copied: 0",
      "q[1,2,3,5] = 1845, qkv[1,3,21] = 1845: same element",
      "v: b h t d -> b t (h d)                  f32[2,16,32] strides=[1536,96,1] offset=64 non-contiguous",
      "copies so far: 0, bytes copied: 0",
      "attention output: b h t d -> b t (h d)   f32[2,16,32] strides=[512,32,1] offset=0 contiguous",
      "copies so far: 1, bytes copied: 4096",
      "total: 1 copy (1 implicit) of 4096 bytes = B*T*C*4 = 4096",
  };
  assert_in_order(out, want, (int)(sizeof want / sizeof want[0]));
}
END_TEST

START_TEST(mixed_precision_counts_16_bytes_per_parameter) {
  char out[8192];
  ck_assert_int_eq(run_example("mixed_precision", out, sizeof out), 0);
  const char *want[] = {
      "65792 parameters",
      "master weights (optimizer updates) f32    4.00 B/param",
      "weights the matmuls read           bf16   2.00 B/param",
      "gradients                          bf16   2.00 B/param",
      "AdamW first moment m               f32    4.00 B/param",
      "AdamW second moment v              f32    4.00 B/param",
      "16.00 B/param (lt_stats: 1052672 bytes in use)", /* 65792 * 16 */
      "still 1052672 bytes in use",
      "y = x @ weight^T: bf16[8,256] strides=[256,1] offset=0 contiguous, 1048576 FLOPs (2*8*256*256), 0 copies",
      "refresh bf16 from fp32: 0 allocations, 131584 bytes written (65792 params * 2 B)",
      "fp32 master 1.01000, bf16 only 1.00000",
  };
  assert_in_order(out, want, (int)(sizeof want / sizeof want[0]));
}
END_TEST

START_TEST(the_tour_runs) {
  char out[8192];
  ck_assert_int_eq(run_example("tour", out, sizeof out), 0);
  ck_assert_msg(strstr(out, "LT_ERR_NOT_VIEWABLE") && strstr(out, "LT_COPY_FORBID"), "%s", out);
}
END_TEST

START_TEST(every_example_stays_under_100_lines) {
  const char *names[] = {"tour", "view_vs_reshape", "attention", "mixed_precision"};
  for (int i = 0; i < 4; i++) {
    int n = source_lines(names[i]);
    ck_assert_msg(n < 100, "examples/%s.c has %d lines", names[i], n);
  }
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("examples");
  TCase *tc = tcase_create("run");
  tcase_add_test(tc, view_vs_reshape_shows_the_failing_view_and_the_traced_copy);
  tcase_add_test(tc, attention_splits_heads_for_free_and_merges_with_one_copy);
  tcase_add_test(tc, mixed_precision_counts_16_bytes_per_parameter);
  tcase_add_test(tc, the_tour_runs);
  tcase_add_test(tc, every_example_stays_under_100_lines);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return lt_run_suite(suite()); }
