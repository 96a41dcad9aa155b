/* Allocation failure: a counting allocator (lt_set_allocator) fails the
 * Nth allocation, and each call is walked N = 1, 2, ... until it succeeds.
 * Every failing step must report LT_ERR_NOMEM with a message naming the
 * operation, give back every allocation it made, leave lt_stats'
 * bytes_in_use where it was, and (lt_wrap) leave the caller's memory alone. */
#define _POSIX_C_SOURCE 200112L
#include <stdlib.h>
#include <string.h>

#include "support/check_helpers.h"

/* The walk gives up after this many steps: no call here needs more. */
#define MAX_STEPS 64

typedef struct counter {
  long fail_at;  /* 1-based allocation to fail; 0 = none */
  long count;    /* allocations asked for since the last arm() */
  long live;     /* allocations handed out and not yet freed */
  bool injected; /* the failure was handed out */
} counter;

static counter ctr;

static void *counting_alloc(size_t size, size_t align, void *ctx) {
  counter *c = ctx;
  c->count++;
  if (c->fail_at > 0 && c->count == c->fail_at) {
    c->injected = true;
    return NULL;
  }
  void *p = NULL;
  if (align < sizeof(void *)) align = sizeof(void *);
  if (posix_memalign(&p, align, size ? size : 1) != 0) return NULL;
  c->live++;
  return p;
}

static void counting_free(void *p, size_t size, size_t align, void *ctx) {
  (void)size, (void)align;
  counter *c = ctx;
  c->live--;
  free(p);
}

static void install(void) {
  ctr = (counter){0};
  lt_set_allocator(&(lt_allocator){counting_alloc, counting_free, &ctr});
}

/* Safety net for a test that failed half-way (CK_FORK=no). */
static void restore(void) { lt_set_allocator(NULL); }

static void arm(long n) {
  ctr.fail_at = n;
  ctr.count = 0;
  ctr.injected = false;
}

static int64_t host_bytes(void) { return lt_stats_get(LT_HOST).bytes_in_use; }

/* Checks one failing step of op: NOMEM naming op (unless op is NULL), and
 * nothing kept. */
static void assert_clean_failure(const char *what, const char *op, long n, long live0, int64_t bytes0) {
  ck_assert_msg(ctr.injected, "%s failed at step %ld without an injected failure: %s: %s", what, n,
                lt_status_str(lt_last_status()), lt_last_error());
  ck_assert_msg(lt_last_status() == LT_ERR_NOMEM, "%s at step %ld: expected LT_ERR_NOMEM, got %s: %s", what,
                n, lt_status_str(lt_last_status()), lt_last_error());
  ck_assert_msg(lt_last_error()[0] != '\0', "%s at step %ld failed without a message", what, n);
  if (op)
    ck_assert_msg(strstr(lt_last_error(), op) != NULL, "%s at step %ld: message \"%s\" does not name %s",
                  what, n, lt_last_error(), op);
  ck_assert_msg(ctr.live == live0, "%s at step %ld leaked %ld allocations", what, n, ctr.live - live0);
  ck_assert_msg(host_bytes() == bytes0, "%s at step %ld: bytes_in_use %lld, was %lld", what, n,
                (long long)host_bytes(), (long long)bytes0);
}

/* Checks the successful step n: no failure was swallowed, and every step
 * before it failed at a real allocation (the call makes n-1 of them). */
static void assert_clean_success(const char *what, long n) {
  ck_assert_msg(!ctr.injected, "%s succeeded at step %ld although allocation %ld failed", what, n, n);
  ck_assert_msg(ctr.count == n - 1, "%s made %ld allocations on step %ld", what, ctr.count, n);
}

typedef lt_tensor *(*make_fn)(lt_tensor *in);

/* Walks make(in) to its first success and returns that result (owned by
 * the caller); *steps receives the number of allocations it needed. */
static lt_tensor *walk(const char *what, const char *op, make_fn make, lt_tensor *in, long *steps) {
  for (long n = 1; n <= MAX_STEPS; n++) {
    long live0 = ctr.live;
    int64_t bytes0 = host_bytes();
    arm(n);
    lt_tensor *r = make(in);
    ctr.fail_at = 0;
    if (r) {
      assert_clean_success(what, n);
      if (steps) *steps = n - 1;
      return r;
    }
    assert_clean_failure(what, op, n, live0, bytes0);
  }
  ck_abort_msg("%s never succeeded in %d steps", what, MAX_STEPS);
  return NULL;
}

typedef lt_status (*run_fn)(lt_tensor *dst, lt_tensor *src);

/* As walk, for a status-returning call; check(dst) runs after each failure. */
static long walk_status(const char *what, const char *op, run_fn run, lt_tensor *dst, lt_tensor *src,
                        void (*check_untouched)(lt_tensor *)) {
  for (long n = 1; n <= MAX_STEPS; n++) {
    long live0 = ctr.live;
    int64_t bytes0 = host_bytes();
    arm(n);
    lt_status s = run(dst, src);
    ctr.fail_at = 0;
    if (s == LT_OK) {
      assert_clean_success(what, n);
      return n - 1;
    }
    ck_assert_int_eq(s, lt_last_status());
    assert_clean_failure(what, op, n, live0, bytes0);
    if (check_untouched) check_untouched(dst);
  }
  ck_abort_msg("%s never succeeded in %d steps", what, MAX_STEPS);
  return -1;
}

/* A [2,3,4] f32 tensor holding 0..23, made with no failure armed. */
static lt_tensor *arange234(void) {
  lt_tensor *t = lt_test_arange_f32(3, (int64_t[]){2, 3, 4});
  ck_assert_ptr_nonnull(t);
  return t;
}

static void assert_values(const lt_tensor *t, const float *want, int n) {
  ck_assert_int_eq(lt_numel(t), n);
  float got[64];
  LT_ASSERT_OK(lt_read(t, got, sizeof(float) * (size_t)n));
  for (int i = 0; i < n; i++) ck_assert_msg(got[i] == want[i], "element %d: %g, want %g", i, got[i], want[i]);
}

/* The expected values of arange234 transposed (0, 2): element [k][j][i]. */
static void transposed_values(float *v) {
  int p = 0;
  for (int k = 0; k < 4; k++)
    for (int j = 0; j < 3; j++)
      for (int i = 0; i < 2; i++) v[p++] = (float)(i * 12 + j * 4 + k);
}

/* Ends a test: everything released, allocator and bytes back. */
static void finish(long live0, int64_t bytes0) {
  ck_assert_msg(ctr.live == live0, "the test leaked %ld allocations", ctr.live - live0);
  ck_assert_int_eq(host_bytes(), bytes0);
  lt_set_allocator(NULL);
}

/* ---- creation ------------------------------------------------------------ */

static lt_tensor *make_empty(lt_tensor *in) {
  (void)in;
  return lt_empty(LT_F32, 2, (int64_t[]){3, 5}, LT_HOST);
}

static lt_tensor *make_empty_zero_size(lt_tensor *in) {
  (void)in;
  return lt_empty(LT_F32, 2, (int64_t[]){3, 0}, LT_HOST);
}

static lt_tensor *make_zeros(lt_tensor *in) {
  (void)in;
  return lt_zeros(LT_I64, 1, (int64_t[]){7}, LT_HOST);
}

static lt_tensor *make_from_data(lt_tensor *in) {
  (void)in;
  static const float d[6] = {1, 2, 3, 4, 5, 6};
  return lt_from_data(d, LT_F32, 2, (int64_t[]){2, 3});
}

START_TEST(empty_fails_cleanly_at_every_allocation) {
  install();
  int64_t bytes0 = host_bytes();
  long steps;
  lt_tensor *t = walk("lt_empty", "empty", make_empty, NULL, &steps);
  ck_assert_int_ge(steps, 2); /* at least a handle and the data */
  ck_assert_int_eq(host_bytes(), bytes0 + 60);
  lt_release(t);
  finish(0, bytes0);
}
END_TEST

START_TEST(empty_of_zero_elements_fails_cleanly_at_every_allocation) {
  install();
  int64_t bytes0 = host_bytes();
  long steps;
  lt_tensor *t = walk("lt_empty [3,0]", "empty", make_empty_zero_size, NULL, &steps);
  ck_assert_int_ge(steps, 1);
  ck_assert_int_eq(lt_numel(t), 0);
  lt_release(t);
  finish(0, bytes0);
}
END_TEST

START_TEST(zeros_fails_cleanly_at_every_allocation) {
  install();
  int64_t bytes0 = host_bytes();
  lt_tensor *t = walk("lt_zeros", "zeros", make_zeros, NULL, NULL);
  int64_t v[7];
  LT_ASSERT_OK(lt_read(t, v, sizeof v));
  for (int i = 0; i < 7; i++) ck_assert_int_eq(v[i], 0);
  lt_release(t);
  finish(0, bytes0);
}
END_TEST

START_TEST(from_data_fails_cleanly_at_every_allocation) {
  install();
  int64_t bytes0 = host_bytes();
  lt_tensor *t = walk("lt_from_data", "from_data", make_from_data, NULL, NULL);
  assert_values(t, (const float[]){1, 2, 3, 4, 5, 6}, 6);
  lt_release(t);
  finish(0, bytes0);
}
END_TEST

/* ---- lt_wrap: the deleter runs once, after success and release only -------- */

static int deleter_calls;
static void count_deleter(void *ctx) {
  ck_assert_ptr_nonnull(ctx);
  deleter_calls++;
}

static float wrapped[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};

static lt_tensor *make_wrap(lt_tensor *in) {
  (void)in;
  lt_tensor *t = lt_wrap(wrapped, LT_F32, 2, (int64_t[]){3, 4}, NULL, LT_HOST, count_deleter, wrapped);
  if (!t) ck_assert_int_eq(deleter_calls, 0); /* the caller still owns the memory */
  return t;
}

static lt_tensor *make_wrap_strided(lt_tensor *in) {
  (void)in;
  lt_tensor *t = lt_wrap(wrapped + 11, LT_F32, 2, (int64_t[]){3, 4}, (int64_t[]){-4, -1}, LT_HOST,
                         count_deleter, wrapped);
  if (!t) ck_assert_int_eq(deleter_calls, 0);
  return t;
}

START_TEST(wrap_failure_leaves_the_memory_to_the_caller_and_success_deletes_once) {
  install();
  int64_t bytes0 = host_bytes();
  deleter_calls = 0;
  long steps;
  lt_tensor *t = walk("lt_wrap", "wrap", make_wrap, NULL, &steps);
  ck_assert_int_ge(steps, 1);
  ck_assert_int_eq(deleter_calls, 0);
  ck_assert_ptr_eq(lt_data(t), wrapped);
  ck_assert_int_eq(host_bytes(), bytes0); /* caller memory is not library storage */
  lt_release(t);
  ck_assert_int_eq(deleter_calls, 1);
  finish(0, bytes0);
}
END_TEST

START_TEST(wrap_with_negative_strides_fails_cleanly_and_deletes_once) {
  install();
  int64_t bytes0 = host_bytes();
  deleter_calls = 0;
  lt_tensor *t = walk("lt_wrap strided", "wrap", make_wrap_strided, NULL, NULL);
  ck_assert_int_eq(deleter_calls, 0);
  assert_values(t, (const float[]){11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}, 12);
  lt_release(t);
  ck_assert_int_eq(deleter_calls, 1);
  finish(0, bytes0);
}
END_TEST

static lt_tensor *make_transpose(lt_tensor *in) { return lt_transpose(in, 0, -1); }

START_TEST(wrap_deleter_waits_for_views_made_under_failing_allocations) {
  install();
  int64_t bytes0 = host_bytes();
  deleter_calls = 0;
  lt_tensor *t = walk("lt_wrap", "wrap", make_wrap, NULL, NULL);
  lt_tensor *v = walk("lt_transpose of a wrapped tensor", "transpose", make_transpose, t, NULL);
  lt_release(t);
  ck_assert_int_eq(deleter_calls, 0);
  assert_values(v, (const float[]){0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}, 12);
  lt_release(v);
  ck_assert_int_eq(deleter_calls, 1);
  finish(0, bytes0);
}
END_TEST

/* ---- every view op ------------------------------------------------------------ */

static lt_tensor *make_view(lt_tensor *in) { return lt_view(in, 2, (int64_t[]){6, -1}); }
static lt_tensor *make_slice(lt_tensor *in) { return lt_slice(in, 2, LT_NONE, LT_NONE, -2); }
static lt_tensor *make_select(lt_tensor *in) { return lt_select(in, 1, -1); }
static lt_tensor *make_narrow(lt_tensor *in) { return lt_narrow(in, 2, 1, 2); }
static lt_tensor *make_permute(lt_tensor *in) { return lt_permute(in, (const int[]){2, 0, 1}); }
static lt_tensor *make_movedim(lt_tensor *in) { return lt_movedim(in, 0, -1); }
static lt_tensor *make_unsqueeze(lt_tensor *in) { return lt_unsqueeze(in, 1); }
static lt_tensor *make_squeeze(lt_tensor *in) { return lt_squeeze(in, 0); }
static lt_tensor *make_squeeze_all(lt_tensor *in) { return lt_squeeze_all(in); }
static lt_tensor *make_unflatten(lt_tensor *in) { return lt_unflatten(in, 2, 2, (int64_t[]){2, -1}); }
static lt_tensor *make_as_strided(lt_tensor *in) {
  return lt_as_strided(in, 2, (int64_t[]){3, 3}, (int64_t[]){5, 1}, 2);
}
static lt_tensor *make_diagonal(lt_tensor *in) { return lt_diagonal(in, 1, 1, 2); }
static lt_tensor *make_expand(lt_tensor *in) { return lt_expand(in, 4, (int64_t[]){5, -1, -1, -1}); }

typedef struct view_case {
  const char *name;
  make_fn make;
} view_case;

static const view_case view_cases[] = {
    {"view", make_view},           {"slice", make_slice},         {"select", make_select},
    {"narrow", make_narrow},       {"transpose", make_transpose}, {"permute", make_permute},
    {"movedim", make_movedim},     {"expand", make_expand},       {"squeeze", make_squeeze},
    {"squeeze_all", make_squeeze_all}, {"unsqueeze", make_unsqueeze}, {"unflatten", make_unflatten},
    {"as_strided", make_as_strided}, {"diagonal", make_diagonal},
};

START_TEST(every_view_op_fails_cleanly_at_every_allocation) {
  install();
  int64_t bytes0 = host_bytes();
  const view_case *c = &view_cases[_i];
  lt_tensor *base = arange234();
  lt_tensor *in = c->make == make_squeeze || c->make == make_squeeze_all ? lt_unsqueeze(base, 0) : lt_retain(base);
  ck_assert_ptr_nonnull(in);
  lt_tensor *expected = c->make(in); /* the same call with no failure armed */
  LT_ASSERT_OK_PTR(expected);
  long steps;
  lt_tensor *v = walk(c->name, c->name, c->make, in, &steps);
  ck_assert_int_ge(steps, 1);
  ck_assert(lt_shares_storage(v, base));
  char a[256], b[256];
  lt_describe(v, a, sizeof a);
  lt_describe(expected, b, sizeof b);
  ck_assert_str_eq(a, b);
  lt_release(v);
  lt_release(expected);
  lt_release(in);
  lt_release(base);
  finish(0, bytes0);
}
END_TEST

/* ---- copies ------------------------------------------------------------------------ */

static lt_tensor *make_contiguous(lt_tensor *in) { return lt_contiguous(in); }
static lt_tensor *make_clone(lt_tensor *in) { return lt_clone(in); }
static lt_tensor *make_reshape(lt_tensor *in) { return lt_reshape(in, 1, (int64_t[]){-1}); }
static lt_tensor *make_flatten(lt_tensor *in) { return lt_flatten(in, 0, -1); }
static lt_tensor *make_cast_f16(lt_tensor *in) { return lt_cast(in, LT_F16, LT_CAST_SATURATE); }
static lt_tensor *make_to_i32(lt_tensor *in) { return lt_to(in, LT_I32); }

START_TEST(contiguous_of_a_transposed_tensor_fails_cleanly_at_every_allocation) {
  install();
  int64_t bytes0 = host_bytes();
  lt_tensor *base = arange234();
  lt_tensor *t = lt_transpose(base, 0, 2);
  long steps;
  lt_tensor *c = walk("lt_contiguous", "contiguous", make_contiguous, t, &steps);
  ck_assert_int_ge(steps, 2);
  ck_assert(!lt_shares_storage(c, base));
  float want[24];
  transposed_values(want);
  assert_values(c, want, 24);
  lt_release(c);
  lt_release(t);
  lt_release(base);
  finish(0, bytes0);
}
END_TEST

START_TEST(clone_fails_cleanly_at_every_allocation) {
  install();
  int64_t bytes0 = host_bytes();
  lt_tensor *base = arange234();
  lt_tensor *c = walk("lt_clone", "clone", make_clone, base, NULL);
  ck_assert(!lt_shares_storage(c, base));
  float want[24];
  for (int i = 0; i < 24; i++) want[i] = (float)i;
  assert_values(c, want, 24);
  lt_release(c);
  lt_release(base);
  finish(0, bytes0);
}
END_TEST

START_TEST(reshape_that_copies_fails_cleanly_at_every_allocation) {
  install();
  int64_t bytes0 = host_bytes();
  lt_tensor *base = arange234();
  lt_tensor *t = lt_transpose(base, 0, 2);
  long steps;
  lt_tensor *r = walk("lt_reshape (copying)", "reshape", make_reshape, t, &steps);
  ck_assert_int_ge(steps, 2);
  ck_assert(!lt_shares_storage(r, base));
  float want[24];
  transposed_values(want);
  assert_values(r, want, 24);
  lt_release(r);
  lt_release(t);
  lt_release(base);
  finish(0, bytes0);
}
END_TEST

START_TEST(flatten_that_copies_fails_cleanly_at_every_allocation) {
  install();
  int64_t bytes0 = host_bytes();
  lt_tensor *base = arange234();
  lt_tensor *t = lt_transpose(base, 0, 2);
  lt_tensor *f = walk("lt_flatten (copying)", "flatten", make_flatten, t, NULL);
  ck_assert(!lt_shares_storage(f, base));
  float want[24];
  transposed_values(want);
  assert_values(f, want, 24);
  lt_release(f);
  lt_release(t);
  lt_release(base);
  finish(0, bytes0);
}
END_TEST

START_TEST(flatten_that_views_fails_cleanly_at_every_allocation) {
  install();
  int64_t bytes0 = host_bytes();
  lt_tensor *base = arange234();
  lt_tensor *f = walk("lt_flatten (viewing)", "flatten", make_flatten, base, NULL);
  ck_assert(lt_shares_storage(f, base));
  lt_release(f);
  lt_release(base);
  finish(0, bytes0);
}
END_TEST

START_TEST(cast_fails_cleanly_at_every_allocation) {
  install();
  int64_t bytes0 = host_bytes();
  lt_tensor *base = arange234();
  lt_tensor *t = lt_transpose(base, 0, 2);
  lt_tensor *c = walk("lt_cast", "cast", make_cast_f16, t, NULL);
  ck_assert_int_eq(lt_dtype_of(c), LT_F16);
  lt_tensor *back = lt_to(c, LT_F32);
  float want[24];
  transposed_values(want);
  assert_values(back, want, 24);
  lt_release(back);
  lt_release(c);
  lt_release(t);
  lt_release(base);
  finish(0, bytes0);
}
END_TEST

START_TEST(to_fails_cleanly_at_every_allocation) {
  install();
  int64_t bytes0 = host_bytes();
  lt_tensor *base = arange234();
  lt_tensor *c = walk("lt_to", "cast", make_to_i32, base, NULL);
  ck_assert_int_eq(lt_dtype_of(c), LT_I32);
  int32_t v[24];
  LT_ASSERT_OK(lt_read(c, v, sizeof v));
  for (int i = 0; i < 24; i++) ck_assert_int_eq(v[i], i);
  lt_release(c);
  lt_release(base);
  finish(0, bytes0);
}
END_TEST

/* ---- lt_copy needing the exact overlap check ----------------------------------------- */

static lt_status run_copy(lt_tensor *dst, lt_tensor *src) { return lt_copy(dst, src); }

static lt_tensor *copy_base; /* the storage the copy tests write into */

/* The storage under the destination still holds 0, 1, 2, ... */
static void assert_base_untouched(lt_tensor *dst) {
  (void)dst;
  const float *p = lt_data(copy_base);
  for (int64_t i = 0; i < lt_numel(copy_base); i++)
    ck_assert_msg(p[i] == (float)i, "element %lld was written by a failed copy", (long long)i);
}

START_TEST(copy_into_an_interleaved_disjoint_layout_fails_cleanly_at_every_allocation) {
  install();
  int64_t bytes0 = host_bytes();
  copy_base = lt_test_arange_f32(1, (int64_t[]){8});
  /* Offsets {0,2,4, 3,5,7}: strides that interleave, so only the exact
   * (allocating) check proves the elements distinct. */
  lt_tensor *dst = lt_as_strided(copy_base, 2, (int64_t[]){2, 3}, (int64_t[]){3, 2}, 0);
  lt_tensor *src = lt_from_data((const float[]){10, 11, 12, 13, 14, 15}, LT_F32, 2, (int64_t[]){2, 3});
  LT_ASSERT_OK_PTR(dst);
  LT_ASSERT_OK_PTR(src);
  long steps = walk_status("lt_copy into an interleaved layout", "copy", run_copy, dst, src,
                           assert_base_untouched);
  ck_assert_int_ge(steps, 1);
  assert_values(copy_base, (const float[]){10, 1, 11, 13, 12, 14, 6, 15}, 8);
  lt_release(src);
  lt_release(dst);
  lt_release(copy_base);
  finish(0, bytes0);
}
END_TEST

START_TEST(copy_between_interleaved_views_of_one_storage_fails_cleanly_at_every_allocation) {
  install();
  int64_t bytes0 = host_bytes();
  copy_base = lt_test_arange_f32(1, (int64_t[]){8});
  lt_tensor *evens = lt_slice(copy_base, 0, 0, LT_NONE, 2);
  lt_tensor *odds = lt_slice(copy_base, 0, 1, LT_NONE, 2);
  LT_ASSERT_OK_PTR(evens);
  LT_ASSERT_OK_PTR(odds);
  long steps = walk_status("lt_copy odds to evens", "copy", run_copy, evens, odds, assert_base_untouched);
  ck_assert_int_ge(steps, 1);
  assert_values(copy_base, (const float[]){1, 1, 3, 3, 5, 5, 7, 7}, 8);
  lt_release(odds);
  lt_release(evens);
  lt_release(copy_base);
  finish(0, bytes0);
}
END_TEST

static lt_status run_write(lt_tensor *dst, lt_tensor *src) {
  (void)src;
  static const float v[6] = {10, 11, 12, 13, 14, 15};
  return lt_write(dst, v, sizeof v);
}

START_TEST(write_into_an_interleaved_disjoint_layout_fails_cleanly_at_every_allocation) {
  install();
  int64_t bytes0 = host_bytes();
  copy_base = lt_test_arange_f32(1, (int64_t[]){8});
  lt_tensor *dst = lt_as_strided(copy_base, 2, (int64_t[]){2, 3}, (int64_t[]){3, 2}, 0);
  LT_ASSERT_OK_PTR(dst);
  long steps = walk_status("lt_write into an interleaved layout", "write", run_write, dst, NULL,
                           assert_base_untouched);
  ck_assert_int_ge(steps, 1);
  assert_values(copy_base, (const float[]){10, 1, 11, 13, 12, 14, 6, 15}, 8);
  lt_release(dst);
  lt_release(copy_base);
  finish(0, bytes0);
}
END_TEST

/* ---- a chain ---------------------------------------------------------------------------- */

/* transpose -> reshape (copies) -> cast -> slice -> contiguous (copies),
 * releasing the intermediates whatever happens. */
static lt_tensor *make_chain(lt_tensor *in) {
  lt_tensor *t = lt_transpose(in, 0, 2);
  lt_tensor *r = t ? lt_reshape(t, 2, (int64_t[]){4, 6}) : NULL;
  lt_tensor *c = r ? lt_cast(r, LT_F64, LT_CAST_DEFAULT) : NULL;
  lt_tensor *s = c ? lt_slice(c, 1, LT_NONE, LT_NONE, -3) : NULL;
  lt_tensor *out = s ? lt_contiguous(s) : NULL;
  lt_release(s);
  lt_release(c);
  lt_release(r);
  lt_release(t);
  return out;
}

START_TEST(a_chain_of_views_and_copies_fails_cleanly_at_every_allocation) {
  install();
  int64_t bytes0 = host_bytes();
  lt_tensor *base = arange234();
  long steps;
  lt_tensor *out = walk("the chain", NULL, make_chain, base, &steps);
  ck_assert_int_ge(steps, 8);
  float tv[24];
  transposed_values(tv);
  double want[8], got[8];
  for (int row = 0; row < 4; row++) {
    want[row * 2] = tv[row * 6 + 5];
    want[row * 2 + 1] = tv[row * 6 + 2];
  }
  ck_assert_int_eq(lt_dtype_of(out), LT_F64);
  LT_ASSERT_OK(lt_read(out, got, sizeof got));
  for (int i = 0; i < 8; i++) ck_assert_msg(got[i] == want[i], "element %d: %g, want %g", i, got[i], want[i]);
  lt_release(out);
  lt_release(base);
  finish(0, bytes0);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("alloc_failure");
  TCase *tc = tcase_create("walk");
  tcase_add_checked_fixture(tc, NULL, restore);
  tcase_add_test(tc, empty_fails_cleanly_at_every_allocation);
  tcase_add_test(tc, empty_of_zero_elements_fails_cleanly_at_every_allocation);
  tcase_add_test(tc, zeros_fails_cleanly_at_every_allocation);
  tcase_add_test(tc, from_data_fails_cleanly_at_every_allocation);
  tcase_add_test(tc, wrap_failure_leaves_the_memory_to_the_caller_and_success_deletes_once);
  tcase_add_test(tc, wrap_with_negative_strides_fails_cleanly_and_deletes_once);
  tcase_add_test(tc, wrap_deleter_waits_for_views_made_under_failing_allocations);
  tcase_add_loop_test(tc, every_view_op_fails_cleanly_at_every_allocation, 0,
                      (int)(sizeof view_cases / sizeof view_cases[0]));
  tcase_add_test(tc, contiguous_of_a_transposed_tensor_fails_cleanly_at_every_allocation);
  tcase_add_test(tc, clone_fails_cleanly_at_every_allocation);
  tcase_add_test(tc, reshape_that_copies_fails_cleanly_at_every_allocation);
  tcase_add_test(tc, flatten_that_copies_fails_cleanly_at_every_allocation);
  tcase_add_test(tc, flatten_that_views_fails_cleanly_at_every_allocation);
  tcase_add_test(tc, cast_fails_cleanly_at_every_allocation);
  tcase_add_test(tc, to_fails_cleanly_at_every_allocation);
  tcase_add_test(tc, copy_into_an_interleaved_disjoint_layout_fails_cleanly_at_every_allocation);
  tcase_add_test(tc, copy_between_interleaved_views_of_one_storage_fails_cleanly_at_every_allocation);
  tcase_add_test(tc, write_into_an_interleaved_disjoint_layout_fails_cleanly_at_every_allocation);
  tcase_add_test(tc, a_chain_of_views_and_copies_fails_cleanly_at_every_allocation);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return lt_run_suite(suite()); }
