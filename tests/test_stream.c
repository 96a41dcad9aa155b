/* The streaming copies of backends/cpu/stream.c and stream_strided.c:
 * runs with steps -1, 2, 3, 4 and 8 on every path this CPU runs, for every
 * element size that has a kernel, against the naive loop, byte for byte, for
 * every length up to several lines, every destination alignment within a
 * line and source alignments that split its vectors across lines; the
 * bytes around the destination must stay untouched. Forward
 * lt__stream_copy and the run streams of stream_runs.c likewise. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "support/check_helpers.h"
#include "stream.h"

static const char *const PATH_NAMES[LT__STREAM_NPATHS] = {"avx2", "avx512"};
#define NSTEPS 5
static const int64_t STEPS[NSTEPS] = {-1, 2, 3, 4, 8};
static const size_t SIZES[4] = {1, 2, 4, 8};

#define BUF_BYTES 16384
#define GUARD 0xA5
static _Alignas(64) unsigned char src_buf[BUF_BYTES], got_buf[BUF_BYTES], want_buf[BUF_BYTES];

static void fill_pattern(unsigned char *p, size_t n) {
  uint32_t s = 12345;
  for (size_t i = 0; i < n; i++) {
    s = s * 1103515245u + 12345u;
    p[i] = (unsigned char)(s >> 24);
  }
}

/* The naive model: element i of dst is element i * step of src. */
static void naive_strided(unsigned char *dst, const unsigned char *src, int64_t step, int64_t n, size_t es) {
  for (int64_t i = 0; i < n; i++) memcpy(dst + i * (int64_t)es, src + i * step * (int64_t)es, es);
}

/* Compares the whole buffers (guards included) with memcmp, then says
 * where they first differ: Check reports every passing assert through a
 * pipe, so a per-byte assert would be slow. */
static void check_equal(const char *what, int64_t step, int64_t n, size_t dst_off, size_t src_off, size_t es) {
  if (memcmp(got_buf, want_buf, BUF_BYTES) == 0) return;
  size_t at = 0;
  while (got_buf[at] == want_buf[at]) at++;
  ck_abort_msg("%s: step=%lld es=%zu n=%lld dst_off=%zu src_off=%zu: first difference at byte %zu (%s)", what,
               (long long)step, es, (long long)n, dst_off, src_off, at,
               at < dst_off || at >= dst_off + (size_t)n * es ? "outside the destination" : "inside");
}

/* One run of n elements from src_off bytes into the source buffer (the
 * first element read) into dst_off bytes into the destination. */
static void check_run(lt__stream_path path, int64_t step, int64_t n, size_t dst_off, size_t src_off, size_t es) {
  memset(got_buf, GUARD, BUF_BYTES);
  memset(want_buf, GUARD, BUF_BYTES);
  const unsigned char *first = src_buf + src_off;
  naive_strided(want_buf + dst_off, first, step, n, es);
  ck_assert(lt__stream_strided_on(path, (char *)got_buf + dst_off, (const char *)first, step, n, es));
  lt__stream_fence();
  check_equal(PATH_NAMES[path], step, n, dst_off, src_off, es);
}

/* The loop index _i names one (path, step, size): (path * NSTEPS + step) * 4 + size. */
typedef struct kernel_case {
  lt__stream_path path;
  int64_t step;
  size_t es;
} kernel_case;

static kernel_case case_of(int i) {
  return (kernel_case){(lt__stream_path)(i / (4 * NSTEPS)), STEPS[i / 4 % NSTEPS], SIZES[i % 4]};
}

/* Whether the case has a kernel this CPU runs (a zero-length run). The
 * probe is aligned for every element size: a destination off its
 * element's alignment has no kernel, and a char on the stack made most
 * cases of 2 bytes and more skip whenever it landed at an odd address. */
static bool runs_here(kernel_case c) {
  _Alignas(8) char probe[8] = {0};
  return lt__stream_strided_on(c.path, probe, probe, c.step, 0, c.es);
}

/* Where a run of n elements starts reading, 4 KiB into the source so
 * that a reversed run stays inside it, its first element anywhere in a
 * line. */
static size_t source_offset(kernel_case c, size_t within_line) { return 4096 + within_line / c.es * c.es; }

START_TEST(runs_of_every_length_and_alignment_match_the_naive_loop) {
  kernel_case c = case_of(_i);
  if (!runs_here(c)) return;
  fill_pattern(src_buf, BUF_BYTES);
  int64_t max_n = (int64_t)(6 * 64) / (int64_t)c.es + 3; /* six lines and partial ones */
  for (int64_t n = 0; n <= max_n; n++)
    for (size_t dst_off = 0; dst_off < 64; dst_off += c.es)
      check_run(c.path, c.step, n, dst_off, source_offset(c, (dst_off * 7 + (size_t)n * c.es) % 64), c.es);
}
END_TEST

START_TEST(runs_from_every_source_alignment_match_the_naive_loop) {
  kernel_case c = case_of(_i);
  if (!runs_here(c)) return;
  fill_pattern(src_buf, BUF_BYTES);
  int64_t n = (int64_t)(1000 + c.es) / (int64_t)c.es; /* many lines and a partial one */
  for (size_t src_off = 0; src_off < 64; src_off += c.es)
    for (size_t dst_off = 0; dst_off < 64; dst_off += 3 * c.es)
      check_run(c.path, c.step, n, dst_off, source_offset(c, src_off), c.es);
}
END_TEST

START_TEST(sizes_steps_and_destinations_without_a_kernel_write_nothing) {
  memset(got_buf, GUARD, 256);
  memset(want_buf, GUARD, 256);
  for (int p = 0; p <= LT__STREAM_NPATHS; p++) {
    ck_assert(!lt__stream_strided_on((lt__stream_path)p, (char *)got_buf, (const char *)src_buf, 8, 16, 2));
    ck_assert(!lt__stream_strided_on((lt__stream_path)p, (char *)got_buf, (const char *)src_buf, 5, 16, 4));
    ck_assert(!lt__stream_strided_on((lt__stream_path)p, (char *)got_buf, (const char *)src_buf, 3, 16, 8));
    ck_assert(!lt__stream_strided_on((lt__stream_path)p, (char *)got_buf, (const char *)src_buf, -1, 16, 3));
  }
  ck_assert(!lt__stream_strided_on(LT__STREAM_NPATHS, (char *)got_buf, (const char *)src_buf + 64, -1, 16, 4));
  /* A destination off its element alignment. */
  for (size_t k = 1; k < 4; k++)
    for (int i = 0; i < NSTEPS; i++)
      ck_assert(!lt__stream_strided((char *)got_buf + 1, (const char *)src_buf + 128, STEPS[i], 16, SIZES[k]));
  ck_assert(memcmp(got_buf, want_buf, 256) == 0);
}
END_TEST

START_TEST(the_best_path_matches_the_naive_loop) {
  fill_pattern(src_buf, BUF_BYTES);
  for (int i = 0; i < 4 * NSTEPS; i++) {
    kernel_case c = case_of(LT__STREAM_AVX2 * 4 * NSTEPS + i);
    if (!runs_here(c)) continue;
    int64_t n = 2000 / (int64_t)c.es;
    memset(got_buf, GUARD, BUF_BYTES);
    memset(want_buf, GUARD, BUF_BYTES);
    naive_strided(want_buf + 8, src_buf + 2100, c.step, n, c.es);
    ck_assert(lt__stream_strided((char *)got_buf + 8, (const char *)src_buf + 2100, c.step, n, c.es));
    lt__stream_fence();
    check_equal("best", c.step, n, 8, 2100, c.es);
  }
}
END_TEST

/* Forward runs, the source's last element the last bytes before an
 * inaccessible page: where the destination ends at a line's end, a
 * kernel's last vector, which reaches step - 1 elements past the last
 * element it takes, must not be loaded (it would fault). Runs of four
 * lines and more from a source off its lines (every other element) also
 * take loads on whole lines, and tails of 1 to 7 elements past the last
 * whole line the plain loop. */
START_TEST(forward_runs_read_nothing_past_their_last_element) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  unsigned char *m = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ck_assert_ptr_ne(m, MAP_FAILED);
  ck_assert_int_eq(mprotect(m + page, page, PROT_NONE), 0);
  fill_pattern(m, page);
  for (int p = 0; p < LT__STREAM_NPATHS; p++)
    for (int j = 0; j < NSTEPS; j++)
      for (int k = 0; k < 4; k++) {
        kernel_case c = {(lt__stream_path)p, STEPS[j], SIZES[k]};
        if (c.step < 2 || !runs_here(c)) continue;
        for (int64_t lines = 1, tail = 0; lines <= 5; tail = (tail + 1) % 8, lines += tail == 0) {
          int64_t n = lines * 64 / (int64_t)c.es + tail; /* tails of 1 to 7 elements follow the last whole line */
          const unsigned char *first = m + page - (size_t)((n - 1) * c.step + 1) * c.es;
          memset(got_buf, GUARD, BUF_BYTES);
          memset(want_buf, GUARD, BUF_BYTES);
          naive_strided(want_buf, first, c.step, n, c.es);
          ck_assert(lt__stream_strided_on(c.path, (char *)got_buf, (const char *)first, c.step, n, c.es));
          lt__stream_fence();
          check_equal("before a guard page", c.step, n, 0, (size_t)(first - m), c.es);
        }
      }
  munmap(m, 2 * page);
}
END_TEST

/* lt__stream_copy, and lt__stream_copy_ahead (which also asks for the
 * source ahead, past the buffer too: asking reads nothing). */
START_TEST(forward_copies_match_memcpy) {
  fill_pattern(src_buf, BUF_BYTES);
  for (int ahead = 0; ahead <= 1; ahead++)
    for (size_t n = 0; n <= 600; n += 7)
      for (size_t dst_off = 0; dst_off < 64; dst_off += 5) {
        memset(got_buf, GUARD, BUF_BYTES);
        memset(want_buf, GUARD, BUF_BYTES);
        memcpy(want_buf + dst_off, src_buf + 3 + n, n);
        if (ahead) lt__stream_copy_ahead((char *)got_buf + dst_off, (const char *)src_buf + 3 + n, n);
        else lt__stream_copy((char *)got_buf + dst_off, (const char *)src_buf + 3 + n, n);
        lt__stream_fence();
        check_equal(ahead ? "forward, ahead" : "forward", 1, (int64_t)n, dst_off, 3 + n, 1);
      }
}
END_TEST

/* lt__stream_copy_pages, blocks of one to three pages: spans short of a
 * block, of whole blocks, and past them by part of a page, lines and
 * bytes; destinations on and off a line, the source off one. */
START_TEST(page_blocks_copy_as_memcpy_does) {
  fill_pattern(src_buf, BUF_BYTES);
  const size_t sizes[] = {0, 1, 100, 4095, 4096, 4161, 8192, 8322, 12293, BUF_BYTES - 128};
  const size_t offs[] = {0, 5, 63};
  for (size_t pages = 1; pages <= 3; pages++)
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
      for (size_t o = 0; o < sizeof offs / sizeof offs[0]; o++) {
        size_t n = sizes[i], dst_off = offs[o];
        memset(got_buf, GUARD, BUF_BYTES);
        memset(want_buf, GUARD, BUF_BYTES);
        memcpy(want_buf + dst_off, src_buf + 3, n);
        lt__stream_copy_pages((char *)got_buf + dst_off, (const char *)src_buf + 3, n, pages);
        lt__stream_fence();
        check_equal("pages", 1, (int64_t)n, dst_off, 3, 1);
      }
}
END_TEST

/* Spans put together from rows of runs (lt__run_stream): run lengths
 * from 1 byte to several lines, one to five runs a row and one to three
 * rows, source runs a little further apart than their length, forwards
 * and backwards, and every third destination alignment in a line. The
 * span must hold the runs back to back and the bytes around it keep
 * their guard. */
START_TEST(run_streams_put_runs_back_to_back_and_touch_nothing_around_them) {
  fill_pattern(src_buf, BUF_BYTES);
  for (int64_t bytes = 1; bytes <= 200; bytes += 7)
    for (int64_t nruns = 1; nruns <= 5; nruns += 2)
      for (int rows = 1; rows <= 3; rows++)
        for (size_t dst_off = 0; dst_off < 64; dst_off += 3) {
          memset(got_buf, GUARD, BUF_BYTES);
          memset(want_buf, GUARD, BUF_BYTES);
          lt__run_stream s;
          lt__run_stream_begin(&s, (char *)got_buf + dst_off);
          size_t at = dst_off;
          for (int row = 0; row < rows; row++) {
            int64_t step = (row % 2 ? -1 : 1) * (bytes + 5);
            const unsigned char *src = src_buf + 4100 + row * 11;
            lt__run_stream_put(&s, (const char *)src, step, nruns, bytes, row == 1);
            for (int64_t r = 0; r < nruns; r++, at += (size_t)bytes)
              memcpy(want_buf + at, src + r * step, (size_t)bytes);
          }
          ck_assert_ptr_eq(lt__run_stream_next(&s), (char *)got_buf + at);
          lt__run_stream_end(&s);
          lt__stream_fence();
          if (memcmp(got_buf, want_buf, BUF_BYTES) != 0) {
            size_t first = 0;
            while (got_buf[first] == want_buf[first]) first++;
            ck_abort_msg("run stream: %lld runs of %lld bytes x %d rows from dst_off %zu: first difference at byte %zu",
                         (long long)nruns, (long long)bytes, rows, dst_off, first);
          }
        }
}
END_TEST

/* Gathered runs (every step with a kernel) on one span, with a dense run between
 * them: every run length up to a few lines, one to three gathered runs,
 * every destination alignment in a line that is whole elements. The
 * span must hold the runs back to back and the bytes around it keep
 * their guard. Steps and sizes without a kernel say so. */
START_TEST(run_streams_gather_runs_back_to_back_and_touch_nothing_around_them) {
  ck_assert(!lt__stream_strided_has(5, 4) && !lt__stream_strided_has(8, 2) && !lt__stream_strided_has(1, 4));
  fill_pattern(src_buf, BUF_BYTES);
  for (size_t k = 0; k < 4; k++)
    for (int j = 0; j < NSTEPS; j++) {
      size_t es = SIZES[k];
      int64_t step = STEPS[j];
      if (!lt__stream_strided_has(step, es)) continue;
      for (int64_t n = 0; n <= 200 / (int64_t)es; n += 1 + (int64_t)(7 / es))
        for (int runs = 1; runs <= 3; runs++)
          for (size_t dst_off = 0; dst_off < 64; dst_off += es) {
            memset(got_buf, GUARD, BUF_BYTES);
            memset(want_buf, GUARD, BUF_BYTES);
            lt__run_stream s;
            lt__run_stream_begin(&s, (char *)got_buf + dst_off);
            size_t at = dst_off;
            for (int r = 0; r < runs; r++) {
              const unsigned char *src = src_buf + 2048 + (size_t)r * 8 * es;
              lt__run_stream_gather(&s, (const char *)src, step, n + r, es);
              naive_strided(want_buf + at, src, step, n + r, es);
              at += (size_t)(n + r) * es;
              if (r == 0) { /* a dense run of 5 elements between the first two */
                lt__run_stream_put(&s, (const char *)src_buf + 100, 0, 1, 5 * (int64_t)es, false);
                memcpy(want_buf + at, src_buf + 100, 5 * es);
                at += 5 * es;
              }
            }
            ck_assert_ptr_eq(lt__run_stream_next(&s), (char *)got_buf + at);
            lt__run_stream_end(&s);
            lt__stream_fence();
            check_equal("run stream gather", step, n, dst_off, 2048, es);
          }
    }
}
END_TEST

/* lt__stream_copy_ahead_to copies as lt__stream_copy does whatever its
 * next run: none, one that continues it, or one elsewhere (its asks then
 * stop LT__READ_AHEAD bytes before its end, in a loop of their own), for
 * lengths on both sides of that distance. */
START_TEST(copies_ahead_of_a_run_sequence_match_memcpy) {
  static const size_t lengths[] = {0, 1, 63, 64, 100, 4095, 8191, 8192, 8193, 8300, 12000, 16000};
  fill_pattern(src_buf, BUF_BYTES);
  for (int mode = 0; mode < 3; mode++)
    for (size_t k = 0; k < sizeof lengths / sizeof lengths[0]; k++)
      for (size_t dst_off = 0; dst_off < 64; dst_off += 21) {
        size_t n = lengths[k];
        const char *src = (const char *)src_buf + 3;
        const char *next = mode == 0 ? NULL : mode == 1 ? src + n : (const char *)src_buf;
        memset(got_buf, GUARD, BUF_BYTES);
        memset(want_buf, GUARD, BUF_BYTES);
        memcpy(want_buf + dst_off, src, n);
        lt__stream_copy_ahead_to((char *)got_buf + dst_off, src, n, next);
        lt__stream_fence();
        check_equal("forward, ahead of a sequence", mode, (int64_t)n, dst_off, 3, 1);
      }
}
END_TEST

/* A run continues another for their asks where it starts within the
 * last line of it or less than LT__READ_AHEAD past its end. */
static char runs_buf[32768];

START_TEST(runs_continue_each_other_within_the_reach_of_their_asks) {
  const char *src = runs_buf + 12000;
  ck_assert(lt__stream_run_continues(src, 4096, src + 4096));                       /* back to back */
  ck_assert(lt__stream_run_continues(src, 4096, src + 4096 - 63));                  /* within its last line */
  ck_assert(lt__stream_run_continues(src, 4096, src + 4096 + LT__READ_AHEAD - 1));  /* a gap the asks cover */
  ck_assert(!lt__stream_run_continues(src, 4096, src + 4096 + LT__READ_AHEAD));     /* one they do not */
  ck_assert(!lt__stream_run_continues(src, 4096, src + 4096 - 65));                 /* starts before the last line */
  ck_assert(!lt__stream_run_continues(src, 4096, src - 8192));                       /* rows walked backwards */
}
END_TEST

/* Rows of a [4, C] F32 matrix, C odd and each row longer than the
 * kernels read ahead: the next run is asked for where the run before does
 * not read on into it, and only there. */
#define ROW_FLOATS 2049
static float rows_buf[4 * ROW_FLOATS];

/* The bytes asked for the next run, with where they start relative to
 * next (in bytes) in *from. */
static int64_t asked(const float *src, const float *next, int64_t step, int64_t n, int64_t *from) {
  const char *first = NULL;
  int64_t bytes = lt__stream_strided_next_lines((const char *)src, (const char *)next, step, n, 4, &first);
  *from = first - (const char *)next;
  return bytes;
}

START_TEST(the_next_run_is_asked_for_only_where_this_one_does_not_read_on_into_it) {
  const int64_t ahead = lt__stream_strided_read_ahead(), C = ROW_FLOATS, half = (C + 1) / 2;
  ck_assert_int_ge(ahead, 64);
  ck_assert_int_lt(ahead, 4 * C);
  const float *row1 = rows_buf + C, *row2 = rows_buf + 2 * C, *row3 = rows_buf + 3 * C;
  int64_t from;
  /* a reversed last dim: row 1 read from its last element down, then row
   * 2 from its last: the read_ahead bytes that end with row 2's last */
  ck_assert_int_eq(asked(row2 - 1, row3 - 1, -1, C, &from), ahead);
  ck_assert_int_eq(from, 4 - ahead);
  /* a short reversed row: the whole of it */
  ck_assert_int_eq(asked(row1 + 99, row2 + 99, -1, 100, &from), 400);
  ck_assert_int_eq(from, 4 - 400);
  /* both dims reversed: row 2 read down, then row 1 down from its last,
   * just below row 2's first */
  ck_assert_int_eq(asked(row3 - 1, row2 - 1, -1, C, &from), 0);
  /* every other column of consecutive rows: the step-2 run reads on to
   * one element past the next row's first (C odd), or to the element
   * before it (C - 1 columns) */
  ck_assert_int_eq(asked(row1, row2, 2, half, &from), 0);
  ck_assert_int_eq(asked(row1, row1 + (C - 1), 2, half - 1, &from), 0);
  /* every other row too, or the rows walked backwards: the next row's first lines */
  ck_assert_int_eq(asked(rows_buf, row2, 2, half, &from), ahead);
  ck_assert_int_eq(from, 0);
  ck_assert_int_eq(asked(row2, row1, 2, half, &from), ahead);
  ck_assert_int_eq(from, 0);
  /* a next run that starts within a line past this one's end: already
   * asked for; one further on is not */
  ck_assert_int_eq(asked(rows_buf, rows_buf + 2 * half + 8, 2, half, &from), 0);
  ck_assert_int_eq(asked(rows_buf, rows_buf + 2 * half + ahead / 4, 2, half, &from), ahead);
}
END_TEST

/* The run to ask for lies as many runs on as it takes to read at least
 * the kernels' read-ahead: one for runs that long, more for shorter
 * ones, 32 at most. */
START_TEST(short_runs_ask_for_a_run_further_on) {
  const int64_t ahead = lt__stream_strided_read_ahead();
  ck_assert_int_eq(lt__stream_strided_runs_ahead(-1, ahead / 4, 4), 1);     /* a run of read_ahead bytes */
  ck_assert_int_eq(lt__stream_strided_runs_ahead(2, 11585, 4), 1);          /* a long run */
  ck_assert_int_eq(lt__stream_strided_runs_ahead(-1, ahead / 4 - 1, 4), 2); /* one element short */
  ck_assert_int_eq(lt__stream_strided_runs_ahead(-1, 224, 4), (ahead + 895) / 896);
  ck_assert_int_eq(lt__stream_strided_runs_ahead(2, 112, 4), (ahead + 891) / 892); /* spans 892 bytes */
  ck_assert_int_eq(lt__stream_strided_runs_ahead(-1, 1, 1), 32);
}
END_TEST

/* The line walk under the asks and pulls (LT__EACH_LINE) visits each
 * line that [p, p + bytes) touches once, in order, at an address within
 * the bytes: for every start within two lines and every length up to
 * five lines, the last line among them (stepping 64 bytes from p had
 * missed it wherever the bytes ended further into their line than p
 * started), and nothing for lengths of zero or less. */
START_TEST(line_walks_visit_every_line_the_bytes_touch) {
  for (uintptr_t off = 0; off < 128; off++)
    for (int64_t bytes = -2; bytes <= 320; bytes++) {
      const uintptr_t p = (uintptr_t)(src_buf + off), end = bytes > 0 ? p + (uintptr_t)bytes : p;
      const uintptr_t want = end > p ? (end - 1) / 64 - p / 64 + 1 : 0;
      uintptr_t seen = 0;
      bool in_order = true;
      LT__EACH_LINE(at, src_buf + off, bytes) {
        in_order = in_order && at / 64 == p / 64 + seen && at >= p && at < end;
        seen++;
      }
      if (seen != want || !in_order) /* one assert a case: Check reports each */
        ck_abort_msg("offset %u, %lld bytes: %u lines (%s), want %u", (unsigned)off, (long long)bytes, (unsigned)seen,
                     in_order ? "in order" : "out of order or outside the bytes", (unsigned)want);
    }
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("stream");
  int cases = LT__STREAM_NPATHS * NSTEPS * 4;
  TCase *strided = tcase_create("strided");
  tcase_set_timeout(strided, 300); /* the sweeps under valgrind */
  tcase_add_loop_test(strided, runs_of_every_length_and_alignment_match_the_naive_loop, 0, cases);
  tcase_add_loop_test(strided, runs_from_every_source_alignment_match_the_naive_loop, 0, cases);
  tcase_add_test(strided, sizes_steps_and_destinations_without_a_kernel_write_nothing);
  tcase_add_test(strided, the_best_path_matches_the_naive_loop);
  tcase_add_test(strided, forward_runs_read_nothing_past_their_last_element);
  tcase_add_test(strided, the_next_run_is_asked_for_only_where_this_one_does_not_read_on_into_it);
  tcase_add_test(strided, short_runs_ask_for_a_run_further_on);
  suite_add_tcase(s, strided);
  TCase *forward = tcase_create("forward");
  tcase_add_test(forward, forward_copies_match_memcpy);
  tcase_add_test(forward, page_blocks_copy_as_memcpy_does);
  tcase_add_test(forward, copies_ahead_of_a_run_sequence_match_memcpy);
  tcase_add_test(forward, runs_continue_each_other_within_the_reach_of_their_asks);
  tcase_add_test(forward, run_streams_put_runs_back_to_back_and_touch_nothing_around_them);
  tcase_add_test(forward, run_streams_gather_runs_back_to_back_and_touch_nothing_around_them);
  suite_add_tcase(s, forward);
  TCase *lines = tcase_create("lines");
  tcase_add_test(lines, line_walks_visit_every_line_the_bytes_touch);
  suite_add_tcase(s, lines);
  return s;
}

int main(void) { return lt_run_suite(suite()); }
