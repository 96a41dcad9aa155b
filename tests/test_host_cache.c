/* Specification of the host cache (backends/cpu/host_cache.c): size
 * classes, reuse of released storage without an allocator call, the bound
 * and its eviction order, lt_empty_cache, accounting, failing allocators
 * and concurrent use. A counting allocator watches host storage, which it
 * tells from handles and records by its alignment, LT__STORAGE_ALIGN. */
#define _POSIX_C_SOURCE 200112L
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "host_cache.h"
#include "support/check_helpers.h"

/* The bound every test starts from: blocks up to 16 KiB are cached. */
#define LIMIT ((size_t)64 << 10)
#define MAX_FREED 16

typedef struct counter {
  atomic_long storage_allocs, storage_frees; /* calls for host storage */
  atomic_long live;                          /* every allocation not yet freed */
  atomic_bool fail_storage;                  /* the next storage allocation fails */
  void *freed[MAX_FREED];                    /* storage blocks freed, in order */
  atomic_int nfreed;
} counter;

static counter ctr, other;
static size_t saved_limit;

static void *counting_alloc(size_t size, size_t align, void *ctx) {
  counter *c = ctx;
  if (align == LT__STORAGE_ALIGN) {
    if (atomic_exchange(&c->fail_storage, false)) return NULL;
    atomic_fetch_add(&c->storage_allocs, 1);
  }
  void *p = NULL;
  if (posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size ? size : 1) != 0) return NULL;
  atomic_fetch_add(&c->live, 1);
  return p;
}

static void counting_free(void *p, size_t size, size_t align, void *ctx) {
  (void)size;
  counter *c = ctx;
  if (align == LT__STORAGE_ALIGN) {
    atomic_fetch_add(&c->storage_frees, 1);
    int i = atomic_fetch_add(&c->nfreed, 1);
    if (i < MAX_FREED) c->freed[i] = p;
  }
  atomic_fetch_sub(&c->live, 1);
  free(p);
}

static void install(counter *c) {
  memset(c, 0, sizeof *c);
  lt_set_allocator(&(lt_allocator){counting_alloc, counting_free, c});
}

static void setup(void) {
  lt_empty_cache(); /* whatever earlier tests left goes back to its allocator */
  install(&ctr);
  saved_limit = lt_set_cache_limit(LIMIT);
}

static void teardown(void) {
  lt_empty_cache();
  lt_set_cache_limit(saved_limit);
  lt_set_allocator(NULL);
}

static int64_t cached(void) {
  int64_t n = lt_cached_bytes(LT_HOST);
  ck_assert_int_eq(lt_last_status(), LT_OK);
  return n;
}

/* A u8 tensor of n bytes. */
static lt_tensor *bytes(int64_t n) {
  lt_tensor *t = lt_empty(LT_U8, 1, &n, LT_HOST);
  LT_ASSERT_OK_PTR(t);
  return t;
}

/* Releases t and returns the address its storage had. */
static void *release(lt_tensor *t) {
  void *p = lt_data(t);
  lt_release(t);
  return p;
}

/* ---- size classes --------------------------------------------------------------- */

START_TEST(classes_are_multiples_of_64_then_quarter_steps_of_powers_of_two) {
  static const size_t cases[][2] = {
      {0, 64},       {1, 64},       {64, 64},      {65, 128},     {256, 256},    {257, 320},
      {320, 320},    {321, 384},    {448, 448},    {449, 512},    {512, 512},    {513, 640},
      {4096, 4096},  {4097, 5120},  {6000, 6144},  {7169, 8192},  {(size_t)1 << 30, (size_t)1 << 30},
      {((size_t)1 << 30) + 1, (size_t)5 << 28},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    ck_assert_msg(lt__host_cache_class_size(cases[i][0]) == cases[i][1], "class of %zu is %zu, want %zu",
                  cases[i][0], lt__host_cache_class_size(cases[i][0]), cases[i][1]);
}
END_TEST

START_TEST(the_largest_class_is_half_the_address_space) {
  size_t half = (size_t)1 << (sizeof(size_t) * 8 - 1);
  ck_assert_uint_eq(lt__host_cache_class_size(half), half);
  ck_assert_uint_eq(lt__host_cache_class_size(half + 1), 0);
  ck_assert_uint_eq(lt__host_cache_class_size(SIZE_MAX), 0);
}
END_TEST

/* ---- reuse ------------------------------------------------------------------------- */

START_TEST(a_released_block_is_reused_by_the_next_request_of_its_class) {
  void *p = release(bytes(400));
  ck_assert_int_eq(ctr.storage_allocs, 1);
  ck_assert_int_eq(ctr.storage_frees, 0);
  ck_assert_int_eq(cached(), 448);
  lt_tensor *b = bytes(440);
  ck_assert_ptr_eq(lt_data(b), p);
  ck_assert_int_eq(ctr.storage_allocs, 1);
  ck_assert_int_eq(cached(), 0);
  lt_release(b);
}
END_TEST

START_TEST(the_most_recently_released_block_of_a_class_is_reused_first) {
  lt_tensor *a = bytes(400), *b = bytes(400);
  release(a);
  void *pb = release(b);
  lt_tensor *c = bytes(400);
  ck_assert_ptr_eq(lt_data(c), pb);
  lt_release(c);
}
END_TEST

START_TEST(a_request_of_another_class_calls_the_allocator) {
  void *p = release(bytes(400));
  lt_tensor *b = bytes(1000);
  ck_assert_ptr_ne(lt_data(b), p);
  ck_assert_int_eq(ctr.storage_allocs, 2);
  ck_assert_int_eq(cached(), 448);
  lt_release(b);
  ck_assert_int_eq(cached(), 448 + 1024);
}
END_TEST

START_TEST(zeros_on_a_reused_block_are_all_zero) {
  lt_tensor *a = bytes(300);
  memset(lt_data(a), 0xAB, 300);
  void *p = release(a);
  int64_t n = 300;
  lt_tensor *z = lt_zeros(LT_U8, 1, &n, LT_HOST);
  LT_ASSERT_OK_PTR(z);
  ck_assert_ptr_eq(lt_data(z), p);
  const unsigned char *v = lt_data(z);
  for (int i = 0; i < 300; i++) ck_assert_msg(v[i] == 0, "byte %d is %d", i, v[i]);
  lt_release(z);
}
END_TEST

START_TEST(zero_size_storage_touches_neither_the_allocator_nor_the_cache) {
  release(bytes(100));
  lt_tensor *e = lt_empty(LT_F32, 2, (int64_t[]){0, 5}, LT_HOST);
  lt_tensor *z = lt_zeros(LT_F64, 1, (int64_t[]){0}, LT_HOST);
  LT_ASSERT_OK_PTR(e);
  LT_ASSERT_OK_PTR(z);
  ck_assert_int_eq(ctr.storage_allocs, 1);
  ck_assert_int_eq(cached(), 128);
  lt_release(z);
  lt_release(e);
  ck_assert_int_eq(ctr.storage_frees, 0);
  ck_assert_int_eq(cached(), 128);
}
END_TEST

/* ---- accounting ---------------------------------------------------------------------- */

START_TEST(stats_count_every_request_and_only_live_bytes) {
  lt_stats_reset(LT_HOST);
  int64_t base = lt_stats_get(LT_HOST).bytes_in_use;
  release(bytes(400));
  lt_tensor *b = bytes(440); /* served from the cache */
  lt_stats s = lt_stats_get(LT_HOST);
  ck_assert_int_eq(s.allocs, 2);
  ck_assert_int_eq(s.bytes_in_use - base, 440);
  ck_assert_int_eq(s.peak_bytes - base, 440);
  lt_release(b);
  ck_assert_int_eq(lt_stats_get(LT_HOST).bytes_in_use, base);
  ck_assert_int_eq(cached(), 448);
}
END_TEST

START_TEST(cached_bytes_of_a_cuda_device_is_zero_and_of_an_unknown_device_an_error) {
  release(bytes(100));
  ck_assert_int_eq(lt_cached_bytes((lt_device){LT_CUDA, 0}), 0);
  ck_assert_int_eq(lt_last_status(), LT_OK);
  ck_assert_int_eq(lt_cached_bytes((lt_device){LT_CPU, 1}), 0);
  ck_assert_int_eq(lt_last_status(), LT_ERR_DEVICE);
  ck_assert_ptr_nonnull(strstr(lt_last_error(), "cached_bytes"));
}
END_TEST

/* ---- the bound ----------------------------------------------------------------------- */

START_TEST(cached_bytes_never_exceed_the_limit) {
  lt_tensor *t[8];
  for (int i = 0; i < 8; i++) t[i] = bytes(16 << 10);
  for (int i = 0; i < 8; i++) {
    lt_release(t[i]);
    ck_assert_int_le(cached(), (int64_t)LIMIT);
  }
  ck_assert_int_eq(cached(), (int64_t)LIMIT);
  ck_assert_int_eq(ctr.storage_frees, 4);
}
END_TEST

START_TEST(the_least_recently_released_blocks_are_evicted_first) {
  lt_tensor *t[5];
  void *p[5];
  for (int i = 0; i < 5; i++) t[i] = bytes(16 << 10);
  for (int i = 0; i < 5; i++) p[i] = release(t[i]);
  ck_assert_int_eq(ctr.storage_frees, 1);
  ck_assert_ptr_eq(ctr.freed[0], p[0]);
  for (int i = 4; i >= 1; i--) {
    t[i] = bytes(16 << 10);
    ck_assert_ptr_eq(lt_data(t[i]), p[i]);
  }
  ck_assert_int_eq(ctr.storage_allocs, 5);
  for (int i = 1; i < 5; i++) lt_release(t[i]);
}
END_TEST

START_TEST(a_block_over_a_quarter_of_the_limit_goes_straight_back) {
  void *p = release(bytes((16 << 10) + 1)); /* class 20 KiB */
  ck_assert_int_eq(cached(), 0);
  ck_assert_int_eq(ctr.storage_frees, 1);
  ck_assert_ptr_eq(ctr.freed[0], p);
}
END_TEST

START_TEST(lowering_the_limit_evicts_down_to_it_and_returns_the_old_one) {
  lt_tensor *t[3];
  void *p[3];
  for (int i = 0; i < 3; i++) t[i] = bytes(4096);
  for (int i = 0; i < 3; i++) p[i] = release(t[i]);
  ck_assert_uint_eq(lt_set_cache_limit(8192), LIMIT);
  ck_assert_int_eq(cached(), 8192);
  ck_assert_int_eq(ctr.storage_frees, 1);
  ck_assert_ptr_eq(ctr.freed[0], p[0]);
}
END_TEST

START_TEST(a_limit_of_zero_disables_caching) {
  lt_set_cache_limit(0);
  release(bytes(100));
  ck_assert_int_eq(cached(), 0);
  ck_assert_int_eq(ctr.storage_frees, 1);
  lt_release(bytes(100));
  ck_assert_int_eq(ctr.storage_allocs, 2);
}
END_TEST

/* ---- giving memory back ------------------------------------------------------------- */

START_TEST(empty_cache_returns_every_block_to_the_allocator) {
  release(bytes(100));
  release(bytes(1000));
  release(bytes(10000));
  ck_assert_int_eq(cached(), 128 + 1024 + 10240);
  ck_assert_int_eq(ctr.storage_frees, 0);
  lt_empty_cache();
  ck_assert_int_eq(lt_last_status(), LT_OK);
  ck_assert_int_eq(cached(), 0);
  ck_assert_int_eq(ctr.storage_frees, 3);
  ck_assert_int_eq(ctr.live, 0);
}
END_TEST

START_TEST(empty_cache_leaves_storage_in_use_alone) {
  lt_tensor *keep = bytes(100);
  memset(lt_data(keep), 7, 100);
  release(bytes(100));
  lt_empty_cache();
  ck_assert_int_eq(ctr.storage_frees, 1);
  ck_assert_int_eq(((unsigned char *)lt_data(keep))[99], 7);
  lt_release(keep);
  ck_assert_int_eq(cached(), 128);
}
END_TEST

START_TEST(set_allocator_empties_the_cache_first) {
  release(bytes(100));
  ck_assert_int_eq(ctr.live, 1);
  install(&other);
  ck_assert_int_eq(ctr.live, 0);
  ck_assert_int_eq(ctr.storage_frees, 1);
  ck_assert_int_eq(cached(), 0);
  lt_release(bytes(100));
  ck_assert_int_eq(other.storage_allocs, 1);
  ck_assert_int_eq(ctr.storage_allocs, 1);
}
END_TEST

/* ---- failing allocators --------------------------------------------------------------- */

START_TEST(a_failed_allocation_on_a_miss_is_out_of_memory_and_keeps_the_cache) {
  release(bytes(400));
  int64_t in_use = lt_stats_get(LT_HOST).bytes_in_use;
  long live = ctr.live;
  ctr.fail_storage = true;
  int64_t n = 1000;
  LT_ASSERT_FAILS(lt_empty(LT_U8, 1, &n, LT_HOST), LT_ERR_NOMEM);
  ck_assert_int_eq(ctr.live, live);
  ck_assert_int_eq(lt_stats_get(LT_HOST).bytes_in_use, in_use);
  ck_assert_int_eq(cached(), 448);
}
END_TEST

START_TEST(a_hit_makes_no_allocator_call_so_cannot_fail) {
  void *p = release(bytes(400));
  ctr.fail_storage = true;
  lt_tensor *t = bytes(400);
  ck_assert_ptr_eq(lt_data(t), p);
  ck_assert(ctr.fail_storage); /* still armed: never asked */
  ctr.fail_storage = false;
  lt_release(t);
}
END_TEST

/* ---- threads ------------------------------------------------------------------------ */

#define THREADS 4
#define ROUNDS 2000
#define HELD 3

/* Each thread keeps HELD tensors of mixed classes (one above the per-block
 * cap), stamps each with its own byte and checks the stamp before release:
 * a block handed to two owners at once would show another thread's byte.
 * Thread 0 also empties the cache now and then, racing the others. */
static void *churn(void *arg) {
  int id = (int)(intptr_t)arg;
  static const int64_t sizes[] = {100, 500, 3000, 9000, 20000};
  lt_tensor *held[HELD] = {0};
  unsigned seed = 12345u * (unsigned)(id + 1);
  bool ok = true;
  for (int r = 0; r < ROUNDS && ok; r++) {
    int slot = r % HELD;
    if (held[slot]) {
      const unsigned char *v = lt_data(held[slot]);
      int64_t n = lt_numel(held[slot]);
      unsigned char stamp = (unsigned char)(id * HELD + slot);
      ok = ok && v[0] == stamp && v[n / 2] == stamp && v[n - 1] == stamp;
      lt_release(held[slot]);
    }
    seed = seed * 1103515245u + 12345u;
    int64_t n = sizes[(seed >> 16) % 5];
    held[slot] = lt_empty(LT_U8, 1, &n, LT_HOST);
    if (!held[slot]) return (void *)"allocation failed";
    memset(lt_data(held[slot]), id * HELD + slot, (size_t)n);
    if (id == 0 && r % 500 == 0) lt_empty_cache();
    if (lt_cached_bytes(LT_HOST) > (int64_t)LIMIT) ok = false;
  }
  for (int s = 0; s < HELD; s++) lt_release(held[s]);
  return ok ? NULL : (void *)"a block was shared or the bound exceeded";
}

START_TEST(four_threads_allocating_and_releasing_keep_blocks_private_and_bounded) {
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++) ck_assert_int_eq(pthread_create(&t[i], NULL, churn, (void *)(intptr_t)i), 0);
  for (int i = 0; i < THREADS; i++) {
    void *err;
    pthread_join(t[i], &err);
    ck_assert_msg(err == NULL, "thread %d: %s", i, (const char *)err);
  }
  ck_assert_int_le(cached(), (int64_t)LIMIT);
  lt_empty_cache();
  ck_assert_int_eq(ctr.live, 0);
  ck_assert_int_eq(ctr.storage_frees, ctr.storage_allocs);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("host_cache");
  TCase *tc = tcase_create("cache");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, classes_are_multiples_of_64_then_quarter_steps_of_powers_of_two);
  tcase_add_test(tc, the_largest_class_is_half_the_address_space);
  tcase_add_test(tc, a_released_block_is_reused_by_the_next_request_of_its_class);
  tcase_add_test(tc, the_most_recently_released_block_of_a_class_is_reused_first);
  tcase_add_test(tc, a_request_of_another_class_calls_the_allocator);
  tcase_add_test(tc, zeros_on_a_reused_block_are_all_zero);
  tcase_add_test(tc, zero_size_storage_touches_neither_the_allocator_nor_the_cache);
  tcase_add_test(tc, stats_count_every_request_and_only_live_bytes);
  tcase_add_test(tc, cached_bytes_of_a_cuda_device_is_zero_and_of_an_unknown_device_an_error);
  tcase_add_test(tc, cached_bytes_never_exceed_the_limit);
  tcase_add_test(tc, the_least_recently_released_blocks_are_evicted_first);
  tcase_add_test(tc, a_block_over_a_quarter_of_the_limit_goes_straight_back);
  tcase_add_test(tc, lowering_the_limit_evicts_down_to_it_and_returns_the_old_one);
  tcase_add_test(tc, a_limit_of_zero_disables_caching);
  tcase_add_test(tc, empty_cache_returns_every_block_to_the_allocator);
  tcase_add_test(tc, empty_cache_leaves_storage_in_use_alone);
  tcase_add_test(tc, set_allocator_empties_the_cache_first);
  tcase_add_test(tc, a_failed_allocation_on_a_miss_is_out_of_memory_and_keeps_the_cache);
  tcase_add_test(tc, a_hit_makes_no_allocator_call_so_cannot_fail);
  tcase_add_test(tc, four_threads_allocating_and_releasing_keep_blocks_private_and_bounded);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return lt_run_suite(suite()); }
