/* ltx explain, run as a user would: its output for known chains and
 * patterns (views, failing views with their alternatives, copies with
 * their bytes and reasons). ltx bench: its table, JSON and chart (their
 * form, never their speeds), and the chart's geometry on fixed results. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "support/check_helpers.h"

/* The chart's layout is checked directly on made-up results; the suites
 * are built one source file each, so its file is compiled in here. */
#include "../tools/ltx/bench_svg.c"

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

/* ---- ltx bench ---------------------------------------------------------------- */

static const char *const bench_cases[] = {
    "contiguous read",        "strided read s=2",       "strided read s=4",       "strided read s=8",
    "strided read s=16",      "strided read s=32",      "strided read s=64",      "transpose 2-D (1,0)",
    "permute 3-D (0,2,1)",    "permute 3-D (1,0,2)",    "permute 3-D (1,2,0)",    "permute 3-D (2,0,1)",
    "permute 3-D (2,1,0)",    "permute BHTD (0,2,1,3)", "permute BHTD (0,2,3,1)", "permute BHTD (0,3,1,2)",
    "permute BHTD (3,2,1,0)", "cast f32 to bf16",       "cast bf16 to f32",       "cast f32 to f16",
    "cast f16 to f32",        "cast f32 to f8_e4m3",    "cast f8_e4m3 to f32",
};
#define NUM_BENCH_CASES ((int)(sizeof bench_cases / sizeof bench_cases[0]))

static int count(const char *s, const char *what) {
  int n = 0;
  for (const char *at = s; (at = strstr(at, what)); at += strlen(what)) n++;
  return n;
}

static char *read_file(const char *path) {
  FILE *f = fopen(path, "r");
  ck_assert_msg(f != NULL, "no file %s", path);
  static char buf[1 << 16];
  size_t got = fread(buf, 1, sizeof buf - 1, f);
  buf[got] = '\0';
  fclose(f);
  return buf;
}

START_TEST(ltx_bench_prints_every_case_beside_memcpy_and_writes_a_chart) {
  static char out[1 << 15];
  char svg_path[] = "/tmp/ltx_bench_XXXXXX";
  int fd = mkstemp(svg_path);
  ck_assert_int_ge(fd, 0);
  close(fd);
  char args[128];
  snprintf(args, sizeof args, "bench --size 1 --reps 1 --svg %s", svg_path);
  ck_assert_int_eq(run_ltx(args, out, sizeof out), 0);
  ck_assert_msg(strstr(out, "x memcpy = median of GB/s / GB/s of a memcpy of 1 MiB timed in turn"), "%.1500s", out);
  ck_assert_msg(strstr(out, "ltx bench: done in"), "no closing timing line: %.1500s", out);
  ck_assert_msg(strstr(out, "\nmemcpy   "), "%.1500s", out);
  for (int i = 0; i < NUM_BENCH_CASES; i++) {
    char progress[64];
    snprintf(progress, sizeof progress, "] %s ...", bench_cases[i]);
    ck_assert_msg(strstr(out, progress), "no progress line for %s: %.1500s", bench_cases[i], out);
    const char *row = strstr(strstr(out, "\nmemcpy   "), bench_cases[i]); /* its row in the table */
    ck_assert_msg(row != NULL, "no row for %s", bench_cases[i]);
    double gbs, ratio;
    ck_assert_int_eq(sscanf(row + strlen(bench_cases[i]), "%lf %lf", &gbs, &ratio), 2);
    ck_assert_msg(gbs > 0 && ratio > 0, "%s: %g GB/s, ratio %g", bench_cases[i], gbs, ratio);
  }
  const char *svg = read_file(svg_path);
  remove(svg_path);
  ck_assert_msg(!strncmp(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\"", 39), "%.200s", svg);
  ck_assert_msg(strstr(svg, "</svg>\n") && !strstr(svg, "</svg>\n")[7], "not closed: %.1500s", svg);
  ck_assert_int_eq(count(svg, "<polyline"), 1);
  ck_assert_int_eq(count(svg, "<circle"), 7);                         /* strides 1..64 */
  ck_assert_int_eq(count(svg, "<rect"), 1 + NUM_BENCH_CASES - 7);     /* background + a bar per case */
  ck_assert_int_eq(count(svg, "stroke-dasharray"), 2);                /* memcpy in both charts */
  ck_assert_msg(strstr(svg, ">permute BHTD (0,2,3,1)</text>"), "%.1500s", svg);
}
END_TEST

START_TEST(ltx_bench_json_is_one_object_per_case) {
  static char out[1 << 15];
  ck_assert_int_eq(run_ltx("bench --size 1 --reps 1 --json", out, sizeof out), 0);
  ck_assert_int_eq(count(out, "{\"bench\":\"ltx\""), NUM_BENCH_CASES + 1);
  ck_assert_int_eq(count(out, "}\n"), NUM_BENCH_CASES + 1);
  ck_assert_msg(strstr(out, "\"case\":\"strided read s=64\",\"group\":\"stride\",\"stride\":64,"
                            "\"size_bytes\":1048576,\"threads\":1,\"bytes_per_call\":32768,"),
                "%.1500s", out); /* 4096 floats read and written: 2 * 4096 * 4 */
  ck_assert_msg(strstr(out, "\"case\":\"cast f32 to bf16\",\"group\":\"cast\",\"stride\":1,"
                            "\"size_bytes\":1048576,\"threads\":1,\"bytes_per_call\":1572864,"),
                "%.1500s", out); /* 262144 floats: 4 bytes in, 2 out */
}
END_TEST

START_TEST(ltx_bench_usage_errors) {
  char out[4096];
  ck_assert_int_eq(run_ltx("bench --size 0", out, sizeof out), 2);
  ck_assert_int_eq(run_ltx("bench --reps 65", out, sizeof out), 2);
  ck_assert_int_eq(run_ltx("bench --threads x", out, sizeof out), 2);
  ck_assert_int_eq(run_ltx("bench --svg", out, sizeof out), 2);
  ck_assert_int_eq(run_ltx("bench --size 1 --svg /nonexistent/dir/x.svg", out, sizeof out), 1);
  ck_assert_msg(strstr(out, "cannot write /nonexistent/dir/x.svg"), "%.1500s", out);
}
END_TEST

/* Ten GB/s of memcpy; strided reads at 10/s GB/s; bars below memcpy. */
static bench_run made_up_run(void) {
  bench_run run = {.size_mib = 64, .threads = 1, .reps = 5, .memcpy_gbs = 10};
  for (int k = 0; k <= 6; k++)
    run.r[run.n++] = (bench_result){"strided", BENCH_STRIDE, 1 << k, 0, 10.0 / (1 << k), 10, 1.0 / (1 << k)};
  run.r[run.n++] = (bench_result){"a<b&c>", BENCH_PERMUTE, 1, 0, 10, 10, 1};
  run.r[run.n++] = (bench_result){"cast", BENCH_CAST, 1, 0, 5, 10, 0.5};
  return run;
}

static char *svg_of(const bench_run *run) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  ck_assert_ptr_nonnull(f);
  bench_write_svg(f, run);
  fclose(f);
  return buf;
}

START_TEST(the_chart_puts_strides_on_a_log2_axis_and_scales_bars_to_memcpy) {
  bench_run run = made_up_run();
  char *svg = svg_of(&run);
  /* y axis to 15 GB/s (10.5 rounded up to a step of 5) over 260 px from
   * y = 380: 10 GB/s at 206.7, 5 at 293.3; x from 80 to 760 over log2 1..64. */
  ck_assert_msg(strstr(svg, "points=\"80.0,206.7 193.3,293.3 306.7,336.7 "), "%.1500s", svg);
  ck_assert_msg(strstr(svg, " 760.0,377.3 \"/>"), "%.1500s", svg);
  ck_assert_msg(strstr(svg, "<line x1=\"80\" y1=\"206.7\" x2=\"760\" y2=\"206.7\" stroke=\"#555\""), "%.1500s", svg);
  /* bars: 0..15 GB/s over 500 px from x = 200: 10 GB/s is 333.3 wide,
   * and memcpy's line stands at its end. */
  ck_assert_msg(strstr(svg, "width=\"333.3\" height=\"18\" fill=\"#ff7f0e\""), "%.1500s", svg);
  ck_assert_msg(strstr(svg, "width=\"166.7\" height=\"18\" fill=\"#2ca02c\""), "%.1500s", svg);
  ck_assert_msg(strstr(svg, "<line x1=\"533.3\" y1=\"474\" x2=\"533.3\" y2=\"528\" stroke=\"#555\""), "%.1500s", svg);
  ck_assert_msg(strstr(svg, ">a&lt;b&amp;c&gt;</text>") && !strstr(svg, "a<b"), "%.1500s", svg);
  ck_assert_msg(strstr(svg, "height=\"578\" viewBox=\"0 0 900 578\""), "%.1500s", svg); /* 460 + 20 + 2 * 24 + 50 */
  free(svg);
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
  TCase *bench = tcase_create("bench");
  tcase_set_timeout(bench, 120);
  tcase_add_test(bench, ltx_bench_prints_every_case_beside_memcpy_and_writes_a_chart);
  tcase_add_test(bench, ltx_bench_json_is_one_object_per_case);
  tcase_add_test(bench, ltx_bench_usage_errors);
  tcase_add_test(bench, the_chart_puts_strides_on_a_log2_axis_and_scales_bars_to_memcpy);
  suite_add_tcase(s, bench);
  return s;
}

int main(void) { return lt_run_suite(suite()); }
