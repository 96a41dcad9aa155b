/* Threads: views of one storage retained, made and released from many
 * threads at once; the last error and the copy policy are per thread; the
 * stats counters add up after concurrent copies. Worker threads never call
 * Check's asserts: they record their first failure, and the test thread
 * asserts after joining. */
#define _POSIX_C_SOURCE 200112L
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/check_helpers.h"

#define NTHREADS 8

typedef struct worker {
  int id;
  pthread_t thread;
  lt_tensor *t;      /* a reference the worker owns and releases */
  lt_tensor *shared; /* a borrowed tensor, alive for the whole test */
  long done;         /* operations completed */
  char failure[512]; /* first failure, "" if none */
} worker;

static void record_failure(worker *w, const char *fmt, ...) {
  if (w->failure[0]) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(w->failure, sizeof w->failure, fmt, ap);
  va_end(ap);
}

#define CHECK(w, cond, ...)          \
  do {                               \
    if (!(cond)) record_failure(w, __VA_ARGS__); \
  } while (0)

static void start_all(worker *w, int n, void *(*fn)(void *)) {
  for (int i = 0; i < n; i++) ck_assert_int_eq(pthread_create(&w[i].thread, NULL, fn, &w[i]), 0);
}

static void join_all(worker *w, int n) {
  for (int i = 0; i < n; i++) ck_assert_int_eq(pthread_join(w[i].thread, NULL), 0);
  for (int i = 0; i < n; i++) ck_assert_msg(w[i].failure[0] == '\0', "thread %d: %s", i, w[i].failure);
}

static pthread_barrier_t barrier;

/* ---- shared views: nothing is freed early ----------------------------------- */

#define SIDE 8
#define ITERS 2000

static atomic_int deleter_calls;

static void free_deleter(void *ctx) {
  atomic_fetch_add(&deleter_calls, 1);
  free(ctx);
}

/* One round of views of a [SIDE,SIDE] tensor holding i*SIDE+j, released in
 * an order that depends on k. */
static void view_round(worker *w, lt_tensor *t, long k) {
  int col = (int)((w->id + k) % SIDE);
  lt_tensor *r = lt_retain(t);
  lt_tensor *tr = lt_transpose(r, 0, 1);
  lt_tensor *c = tr ? lt_select(tr, 0, col) : NULL;            /* column col */
  lt_tensor *s = lt_slice(t, 1, LT_NONE, LT_NONE, -3);         /* columns 7, 4, 1 */
  CHECK(w, c && s, "views failed: %s", lt_last_error());
  if (c && s) {
    float cv[SIDE], sv[SIDE * 3];
    CHECK(w, lt_read(c, cv, sizeof cv) == LT_OK, "read of the column failed: %s", lt_last_error());
    CHECK(w, lt_read(s, sv, sizeof sv) == LT_OK, "read of the slice failed: %s", lt_last_error());
    for (int i = 0; i < SIDE; i++) {
      CHECK(w, cv[i] == (float)(i * SIDE + col), "column %d row %d holds %g", col, i, cv[i]);
      for (int j = 0; j < 3; j++)
        CHECK(w, sv[i * 3 + j] == (float)(i * SIDE + 7 - 3 * j), "slice [%d,%d] holds %g", i, j, sv[i * 3 + j]);
    }
  }
  switch (k % 3) {
  case 0: lt_release(r); lt_release(tr); lt_release(c); lt_release(s); break;
  case 1: lt_release(s); lt_release(c); lt_release(tr); lt_release(r); break;
  default: lt_release(tr); lt_release(s); lt_release(r); lt_release(c); break;
  }
  w->done++;
}

static void *share_views(void *arg) {
  worker *w = arg;
  pthread_barrier_wait(&barrier); /* the creator has dropped its reference */
  /* Keep a view of our own besides the reference we were given. */
  lt_tensor *mine = lt_narrow(w->t, 0, 0, SIDE);
  CHECK(w, mine != NULL, "narrow failed: %s", lt_last_error());
  for (long k = 0; k < ITERS && mine; k++) view_round(w, k % 2 ? w->t : mine, k);
  CHECK(w, atomic_load(&deleter_calls) == 0, "storage deleted while thread %d still holds it", w->id);
  /* Drop the two references in an order that differs between threads. */
  if (w->id % 2) {
    lt_release(w->t);
    lt_release(mine);
  } else {
    lt_release(mine);
    lt_release(w->t);
  }
  w->t = NULL;
  return NULL;
}

START_TEST(views_shared_across_threads_keep_the_storage_until_the_last_release) {
  float *buf = malloc(sizeof(float) * SIDE * SIDE);
  ck_assert_ptr_nonnull(buf);
  for (int i = 0; i < SIDE * SIDE; i++) buf[i] = (float)i;
  atomic_store(&deleter_calls, 0);
  lt_tensor *base = lt_wrap(buf, LT_F32, 2, (int64_t[]){SIDE, SIDE}, NULL, LT_HOST, free_deleter, buf);
  LT_ASSERT_OK_PTR(base);
  worker w[NTHREADS] = {{0}};
  for (int i = 0; i < NTHREADS; i++) {
    w[i].id = i;
    w[i].t = i % 2 ? lt_retain(base) : lt_view(base, 2, (int64_t[]){SIDE, SIDE}); /* a handle of its own */
    ck_assert_ptr_nonnull(w[i].t);
  }
  pthread_barrier_init(&barrier, NULL, NTHREADS + 1);
  start_all(w, NTHREADS, share_views);
  lt_release(base);
  ck_assert_int_eq(atomic_load(&deleter_calls), 0);
  pthread_barrier_wait(&barrier);
  join_all(w, NTHREADS);
  pthread_barrier_destroy(&barrier);
  ck_assert_int_eq(atomic_load(&deleter_calls), 1);
  for (int i = 0; i < NTHREADS; i++) ck_assert_int_eq(w[i].done, ITERS);
}
END_TEST

/* ---- concurrent writes to disjoint rows --------------------------------------- */

static void *write_row(void *arg) {
  worker *w = arg;
  lt_tensor *row = lt_select(w->shared, 0, w->id);
  CHECK(w, row != NULL, "select failed: %s", lt_last_error());
  pthread_barrier_wait(&barrier);
  for (long k = 0; k < ITERS && row; k++) {
    float v[SIDE], back[SIDE];
    for (int j = 0; j < SIDE; j++) v[j] = (float)(w->id * 100000 + k * SIDE + j);
    CHECK(w, lt_write(row, v, sizeof v) == LT_OK, "write failed: %s", lt_last_error());
    CHECK(w, lt_read(row, back, sizeof back) == LT_OK, "read failed: %s", lt_last_error());
    CHECK(w, memcmp(v, back, sizeof v) == 0, "row %d read back other values at round %ld", w->id, k);
    w->done++;
  }
  lt_release(row);
  return NULL;
}

START_TEST(concurrent_writes_to_disjoint_rows_of_one_storage_all_land) {
  lt_tensor *base = lt_zeros(LT_F32, 2, (int64_t[]){NTHREADS, SIDE}, LT_HOST);
  LT_ASSERT_OK_PTR(base);
  lt_tensor *cols = lt_transpose(base, 0, 1); /* rows of base are strided columns here */
  lt_tensor *back = lt_transpose(cols, 0, 1);
  worker w[NTHREADS] = {{0}};
  for (int i = 0; i < NTHREADS; i++) {
    w[i].id = i;
    w[i].shared = back;
  }
  pthread_barrier_init(&barrier, NULL, NTHREADS);
  start_all(w, NTHREADS, write_row);
  join_all(w, NTHREADS);
  pthread_barrier_destroy(&barrier);
  const float *p = lt_data(base);
  for (int i = 0; i < NTHREADS; i++)
    for (int j = 0; j < SIDE; j++)
      ck_assert_float_eq(p[i * SIDE + j], (float)(i * 100000 + (ITERS - 1) * SIDE + j));
  lt_release(back);
  lt_release(cols);
  lt_release(base);
}
END_TEST

/* ---- the last error is per thread --------------------------------------------- */

typedef struct error_pair {
  worker a, b;
} error_pair;

static void *error_thread_a(void *arg) {
  worker *w = arg;
  char mine[1024];
  CHECK(w, lt_view(NULL, 0, NULL) == NULL, "lt_view(NULL) succeeded");
  snprintf(mine, sizeof mine, "%s", lt_last_error());
  CHECK(w, lt_last_status() == LT_ERR_ARG, "A: expected LT_ERR_ARG, got %s", lt_status_str(lt_last_status()));
  pthread_barrier_wait(&barrier); /* 1: A has failed */
  pthread_barrier_wait(&barrier); /* 2: B has failed differently */
  CHECK(w, lt_last_status() == LT_ERR_ARG, "A's status became %s after B failed",
        lt_status_str(lt_last_status()));
  CHECK(w, strcmp(lt_last_error(), mine) == 0, "A's message became \"%s\"", lt_last_error());
  lt_tensor *ok = lt_zeros(LT_F32, 0, NULL, LT_HOST);
  CHECK(w, ok != NULL, "A's lt_zeros failed: %s", lt_last_error());
  lt_release(ok);
  pthread_barrier_wait(&barrier); /* 3: A has succeeded */
  return NULL;
}

static void *error_thread_b(void *arg) {
  worker *w = arg;
  pthread_barrier_wait(&barrier); /* 1 */
  CHECK(w, lt_last_status() == LT_OK, "B starts with %s", lt_status_str(lt_last_status()));
  CHECK(w, lt_last_error()[0] == '\0', "B starts with message \"%s\"", lt_last_error());
  lt_tensor *bad = lt_empty(LT_F32, 1, (int64_t[]){4}, (lt_device){(lt_device_kind)7, 0});
  CHECK(w, bad == NULL, "lt_empty on device kind 7 succeeded");
  char mine[1024];
  snprintf(mine, sizeof mine, "%s", lt_last_error());
  CHECK(w, lt_last_status() == LT_ERR_DEVICE, "B: expected LT_ERR_DEVICE, got %s",
        lt_status_str(lt_last_status()));
  pthread_barrier_wait(&barrier); /* 2 */
  pthread_barrier_wait(&barrier); /* 3 */
  CHECK(w, lt_last_status() == LT_ERR_DEVICE, "B's status became %s after A succeeded",
        lt_status_str(lt_last_status()));
  CHECK(w, strcmp(lt_last_error(), mine) == 0, "B's message became \"%s\"", lt_last_error());
  return NULL;
}

START_TEST(the_last_error_of_one_thread_is_invisible_to_others) {
  lt_tensor *t = lt_test_arange_f32(1, (int64_t[]){6});
  ck_assert_ptr_null(lt_view(t, 1, (int64_t[]){5}));
  ck_assert_int_eq(lt_last_status(), LT_ERR_SHAPE);
  char main_msg[1024];
  snprintf(main_msg, sizeof main_msg, "%s", lt_last_error());
  error_pair p = {{.id = 0}, {.id = 1}};
  pthread_barrier_init(&barrier, NULL, 2);
  ck_assert_int_eq(pthread_create(&p.a.thread, NULL, error_thread_a, &p.a), 0);
  ck_assert_int_eq(pthread_create(&p.b.thread, NULL, error_thread_b, &p.b), 0);
  join_all(&p.a, 1);
  join_all(&p.b, 1);
  pthread_barrier_destroy(&barrier);
  ck_assert_int_eq(lt_last_status(), LT_ERR_SHAPE);
  ck_assert_str_eq(lt_last_error(), main_msg);
  lt_release(t);
}
END_TEST

/* ---- the copy policy is per thread ----------------------------------------------- */

/* A reshape of shared (a transposed [4,6]) to [24]: needs a copy. */
static lt_tensor *reshape_needing_copy(const lt_tensor *t) { return lt_reshape(t, 1, (int64_t[]){24}); }

static void *forbidding_thread(void *arg) {
  worker *w = arg;
  lt_copy_policy old = lt_set_copy_policy(LT_COPY_FORBID);
  CHECK(w, old == LT_COPY_ALLOW, "a new thread starts with policy %d", (int)old);
  pthread_barrier_wait(&barrier); /* 1: this thread forbids */
  lt_tensor *r = reshape_needing_copy(w->shared);
  CHECK(w, r == NULL && lt_last_status() == LT_ERR_NOT_VIEWABLE,
        "reshape under LT_COPY_FORBID gave %s: %s", r ? "a tensor" : lt_status_str(lt_last_status()),
        lt_last_error());
  lt_release(r);
  pthread_barrier_wait(&barrier); /* 2 */
  return NULL;
}

static void *allowing_thread(void *arg) {
  worker *w = arg;
  pthread_barrier_wait(&barrier); /* 1 */
  lt_tensor *r = reshape_needing_copy(w->shared);
  CHECK(w, r != NULL, "reshape in a thread that did not forbid copies failed: %s", lt_last_error());
  lt_release(r);
  lt_copy_policy now = lt_set_copy_policy(LT_COPY_ALLOW);
  CHECK(w, now == LT_COPY_ALLOW, "another thread's LT_COPY_FORBID reached this one (policy %d)", (int)now);
  pthread_barrier_wait(&barrier); /* 2 */
  return NULL;
}

START_TEST(the_copy_policy_of_one_thread_does_not_reach_others) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){6, 4});
  lt_tensor *t = lt_transpose(a, 0, 1);
  lt_copy_policy before = lt_set_copy_policy(LT_COPY_FORBID); /* the test thread forbids too */
  worker w[2] = {{.id = 0, .shared = t}, {.id = 1, .shared = t}};
  pthread_barrier_init(&barrier, NULL, 2);
  ck_assert_int_eq(pthread_create(&w[0].thread, NULL, forbidding_thread, &w[0]), 0);
  ck_assert_int_eq(pthread_create(&w[1].thread, NULL, allowing_thread, &w[1]), 0);
  join_all(w, 2);
  pthread_barrier_destroy(&barrier);
  ck_assert_int_eq(lt_set_copy_policy(LT_COPY_ALLOW), LT_COPY_FORBID);
  lt_tensor *r = reshape_needing_copy(t);
  LT_ASSERT_OK_PTR(r);
  lt_release(r);
  lt_set_copy_policy(before);
  lt_release(t);
  lt_release(a);
}
END_TEST

/* ---- stats add up after concurrent copies ------------------------------------------- */

#define COPY_ITERS 200
#define COPY_BYTES (16 * 16 * 4)

static void *copy_many(void *arg) {
  worker *w = arg;
  lt_tensor *dst = lt_empty(LT_F32, 2, (int64_t[]){16, 16}, LT_HOST);
  CHECK(w, dst != NULL, "empty failed: %s", lt_last_error());
  pthread_barrier_wait(&barrier);
  for (long k = 0; k < COPY_ITERS && dst; k++) {
    lt_tensor *c = lt_clone(w->shared);                          /* explicit */
    lt_tensor *r = lt_reshape(w->shared, 1, (int64_t[]){256});   /* implicit */
    lt_status s = lt_copy(dst, w->shared);                       /* explicit */
    CHECK(w, c && r && s == LT_OK, "copy failed: %s", lt_last_error());
    lt_release(c);
    lt_release(r);
  }
  lt_release(dst);
  return NULL;
}

START_TEST(stats_count_every_copy_made_by_concurrent_threads) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){16, 16});
  lt_tensor *t = lt_transpose(a, 0, 1);
  lt_stats before = lt_stats_get(LT_HOST);
  worker w[NTHREADS] = {{0}};
  for (int i = 0; i < NTHREADS; i++) {
    w[i].id = i;
    w[i].shared = t;
  }
  pthread_barrier_init(&barrier, NULL, NTHREADS);
  start_all(w, NTHREADS, copy_many);
  join_all(w, NTHREADS);
  pthread_barrier_destroy(&barrier);
  lt_stats after = lt_stats_get(LT_HOST);
  const int64_t n = (int64_t)NTHREADS * COPY_ITERS;
  ck_assert_int_eq(after.copies - before.copies, 3 * n);
  ck_assert_int_eq(after.implicit_copies - before.implicit_copies, n);
  ck_assert_int_eq(after.bytes_copied - before.bytes_copied, 3 * n * COPY_BYTES);
  ck_assert_int_eq(after.allocs - before.allocs, 2 * n + NTHREADS);
  ck_assert_int_eq(after.bytes_in_use, before.bytes_in_use);
  ck_assert_int_ge(after.peak_bytes, before.bytes_in_use + 2 * COPY_BYTES);
  lt_release(t);
  lt_release(a);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("threads");
  TCase *tc = tcase_create("threads");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, views_shared_across_threads_keep_the_storage_until_the_last_release);
  tcase_add_test(tc, concurrent_writes_to_disjoint_rows_of_one_storage_all_land);
  tcase_add_test(tc, the_last_error_of_one_thread_is_invisible_to_others);
  tcase_add_test(tc, the_copy_policy_of_one_thread_does_not_reach_others);
  tcase_add_test(tc, stats_count_every_copy_made_by_concurrent_threads);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return lt_run_suite(suite()); }
