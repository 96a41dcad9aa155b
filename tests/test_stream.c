/* The streaming copies of backends/cpu/stream.c: reversed runs on every
 * path this CPU runs, for every element size, against the naive loop,
 * byte for byte, for every length up to a few lines past the 256-byte
 * step, every destination alignment within a line and source alignments
 * that split its vectors across lines; the bytes around the destination
 * must stay untouched. Forward lt__stream_copy likewise. */
#include <stdint.h>
#include <string.h>

#include "support/check_helpers.h"
#include "stream.h"

static const char *const PATH_NAMES[LT__STREAM_NPATHS] = {"plain", "avx2", "avx512"};
static const size_t SIZES[4] = {1, 2, 4, 8};

#define BUF_BYTES 8192
#define GUARD 0xA5
static _Alignas(64) unsigned char src_buf[BUF_BYTES], got_buf[BUF_BYTES], want_buf[BUF_BYTES];

static void fill_pattern(unsigned char *p, size_t n) {
  uint32_t s = 12345;
  for (size_t i = 0; i < n; i++) {
    s = s * 1103515245u + 12345u;
    p[i] = (unsigned char)(s >> 24);
  }
}

/* The naive model: element i of dst is element -i of src. */
static void naive_reversed(unsigned char *dst, const unsigned char *src, int64_t n, size_t es) {
  for (int64_t i = 0; i < n; i++) memcpy(dst + i * (int64_t)es, src - i * (int64_t)es, es);
}

/* Compares the whole buffers (guards included) with memcmp, then says
 * where they first differ: Check reports every passing assert through a
 * pipe, so a per-byte assert would be slow. */
static void check_equal(const char *what, int64_t n, size_t dst_off, size_t src_off, size_t es) {
  if (memcmp(got_buf, want_buf, BUF_BYTES) == 0) return;
  size_t at = 0;
  while (got_buf[at] == want_buf[at]) at++;
  ck_abort_msg("%s: es=%zu n=%lld dst_off=%zu src_off=%zu: first difference at byte %zu (%s)", what, es,
               (long long)n, dst_off, src_off, at,
               at < dst_off || at >= dst_off + (size_t)n * es ? "outside the destination" : "inside");
}

/* Reversed runs of n elements, the first landing element at src_off
 * bytes into the source buffer's last line region, into dst_off. */
static void check_reversed(lt__stream_path path, int64_t n, size_t dst_off, size_t src_off, size_t es) {
  memset(got_buf, GUARD, BUF_BYTES);
  memset(want_buf, GUARD, BUF_BYTES);
  const unsigned char *first = src_buf + src_off;
  ck_assert(src_off >= (size_t)n * es);
  naive_reversed(want_buf + dst_off, first, n, es);
  ck_assert(lt__stream_reversed_on(path, (char *)got_buf + dst_off, (const char *)first, n, es));
  lt__stream_fence();
  check_equal(PATH_NAMES[path], n, dst_off, src_off, es);
}

/* The loop index _i names one (path, size) pair: path * 4 + size. */
START_TEST(reversed_runs_match_the_naive_loop) {
  lt__stream_path path = (lt__stream_path)(_i / 4);
  size_t es = SIZES[_i % 4];
  char probe = 0;
  if (!lt__stream_reversed_on(path, &probe, &probe, 0, es)) return; /* this CPU lacks the path */
  fill_pattern(src_buf, BUF_BYTES);
  int64_t max_n = (int64_t)(4 * 256 + 3 * 64) / (int64_t)es + 3;
  for (int64_t n = 0; n <= max_n; n++)
    for (size_t dst_off = 0; dst_off < 64; dst_off += es) {
      /* The source ends (its first element) anywhere in a line. */
      size_t src_off = 4096 + (dst_off * 7 + (size_t)n * es) % 64 / es * es;
      check_reversed(path, n, dst_off, src_off, es);
    }
}
END_TEST

START_TEST(reversed_runs_from_every_source_alignment_match_the_naive_loop) {
  lt__stream_path path = (lt__stream_path)(_i / 4);
  size_t es = SIZES[_i % 4];
  char probe = 0;
  if (!lt__stream_reversed_on(path, &probe, &probe, 0, es)) return;
  fill_pattern(src_buf, BUF_BYTES);
  int64_t n = (int64_t)(1000 + es) / (int64_t)es; /* several steps and a partial line */
  for (size_t src_off = 0; src_off < 64; src_off += es)
    for (size_t dst_off = 0; dst_off < 64; dst_off += 3 * es) check_reversed(path, n, dst_off, 4096 + src_off, es);
}
END_TEST

START_TEST(best_reversed_path_matches_the_naive_loop) {
  fill_pattern(src_buf, BUF_BYTES);
  for (size_t k = 0; k < 4; k++) {
    size_t es = SIZES[k];
    int64_t n = 3000 / (int64_t)es;
    memset(got_buf, GUARD, BUF_BYTES);
    memset(want_buf, GUARD, BUF_BYTES);
    naive_reversed(want_buf + 8, src_buf + 6000, n, es);
    lt__stream_reversed((char *)got_buf + 8, (const char *)src_buf + 6000, n, es);
    lt__stream_fence();
    check_equal("best", n, 8, 6000, es);
  }
}
END_TEST

START_TEST(plain_path_always_runs) {
  char probe = 0;
  ck_assert(lt__stream_reversed_on(LT__STREAM_PLAIN, &probe, &probe, 0, 4));
  ck_assert(!lt__stream_reversed_on(LT__STREAM_NPATHS, &probe, &probe, 0, 4));
}
END_TEST

START_TEST(forward_copies_match_memcpy) {
  fill_pattern(src_buf, BUF_BYTES);
  for (size_t n = 0; n <= 600; n += 7)
    for (size_t dst_off = 0; dst_off < 64; dst_off += 5) {
      memset(got_buf, GUARD, BUF_BYTES);
      memset(want_buf, GUARD, BUF_BYTES);
      memcpy(want_buf + dst_off, src_buf + 3 + n, n);
      lt__stream_copy((char *)got_buf + dst_off, (const char *)src_buf + 3 + n, n);
      lt__stream_fence();
      check_equal("forward", (int64_t)n, dst_off, 3 + n, 1);
    }
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("stream");
  TCase *reversed = tcase_create("reversed");
  tcase_set_timeout(reversed, 300); /* the sweeps under valgrind */
  tcase_add_loop_test(reversed, reversed_runs_match_the_naive_loop, 0, LT__STREAM_NPATHS * 4);
  tcase_add_loop_test(reversed, reversed_runs_from_every_source_alignment_match_the_naive_loop, 0,
                      LT__STREAM_NPATHS * 4);
  tcase_add_test(reversed, best_reversed_path_matches_the_naive_loop);
  tcase_add_test(reversed, plain_path_always_runs);
  suite_add_tcase(s, reversed);
  TCase *forward = tcase_create("forward");
  tcase_add_test(forward, forward_copies_match_memcpy);
  suite_add_tcase(s, forward);
  return s;
}

int main(void) { return lt_run_suite(suite()); }
