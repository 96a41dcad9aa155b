/* The pool's placement of its workers (libtensor/pool.c): a thread moved
 * off a CPU runs elsewhere at once and gets its set back on return; a
 * thread with nowhere else to go stays. Linux only: elsewhere the calls
 * do nothing, and the tests check that. Check runs each test in a
 * process of its own, so the affinity changes end with it. */
#define _GNU_SOURCE
#include <sched.h>

#include "pool.h"
#include "support/check_helpers.h"

#if defined(__linux__)

static cpu_set_t affinity(void) {
  cpu_set_t set;
  ck_assert_int_eq(sched_getaffinity(0, sizeof set, &set), 0);
  return set;
}

static void pin_to(int cpu) {
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  ck_assert_int_eq(sched_setaffinity(0, sizeof one, &one), 0);
  ck_assert_int_eq(sched_getcpu(), cpu);
}

START_TEST(a_thread_moved_off_its_cpu_runs_elsewhere_until_it_returns) {
  cpu_set_t all = affinity();
  if (CPU_COUNT(&all) < 2) return; /* the next test covers a single CPU */
  int here = sched_getcpu();
  ck_assert_int_ge(here, 0);
  ck_assert(lt__move_off_cpu(here));
  ck_assert_int_ne(sched_getcpu(), here);
  cpu_set_t moved = affinity();
  ck_assert(!CPU_ISSET(here, &moved));
  ck_assert_int_eq(CPU_COUNT(&moved), CPU_COUNT(&all) - 1);
  ck_assert(!lt__move_off_cpu(sched_getcpu())); /* once until the return */
  lt__return_to_cpus();
  cpu_set_t back = affinity();
  ck_assert(CPU_EQUAL(&back, &all));
  lt__return_to_cpus(); /* a second return changes nothing */
  back = affinity();
  ck_assert(CPU_EQUAL(&back, &all));
}
END_TEST

START_TEST(a_thread_with_one_cpu_stays_on_it) {
  cpu_set_t all = affinity();
  int here = sched_getcpu();
  pin_to(here);
  ck_assert(!lt__move_off_cpu(here));
  ck_assert_int_eq(sched_getcpu(), here);
  cpu_set_t now = affinity();
  ck_assert_int_eq(CPU_COUNT(&now), 1);
  lt__return_to_cpus(); /* no move to return from: the pin stays */
  now = affinity();
  ck_assert_int_eq(CPU_COUNT(&now), 1);
  ck_assert_int_eq(sched_setaffinity(0, sizeof all, &all), 0);
}
END_TEST

START_TEST(an_unknown_cpu_moves_nothing) {
  cpu_set_t all = affinity();
  ck_assert(!lt__move_off_cpu(-1));
  cpu_set_t now = affinity();
  ck_assert(CPU_EQUAL(&now, &all));
}
END_TEST

#else

START_TEST(off_linux_nothing_moves) {
  ck_assert(!lt__move_off_cpu(0));
  lt__return_to_cpus();
}
END_TEST

#endif

static Suite *suite(void) {
  Suite *s = suite_create("pool");
  TCase *tc = tcase_create("placement");
#if defined(__linux__)
  tcase_add_test(tc, a_thread_moved_off_its_cpu_runs_elsewhere_until_it_returns);
  tcase_add_test(tc, a_thread_with_one_cpu_stays_on_it);
  tcase_add_test(tc, an_unknown_cpu_moves_nothing);
#else
  tcase_add_test(tc, off_linux_nothing_moves);
#endif
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return lt_run_suite(suite()); }
