/* The thread pool: workers started on first use and kept, woken per job
 * through one condition variable. One job at a time (a mutex serialises
 * callers), which is all a copy or a cast needs. */
#define _GNU_SOURCE
#include "pool.h"

#include <pthread.h>
#include <stdbool.h>
#include <unistd.h>

#include "error.h"
#include "libtensor/types.h"

#define MAX_THREADS 64
/* Below this many bytes (read plus written) a job runs inline: waking a
 * worker costs microseconds on bare metal and tens of them in a VM,
 * where an idle vCPU must be woken by its host. Two threads against one
 * on Zen 5 under KVM, GB/s of one copy call: 1 and 2 MiB tensors
 * (contiguous, reversed, 2-D transpose, (2,1,0)) 30-65% slower; 4 MiB
 * dense copies still 10-25% slower, transposes level to 40% faster; 8
 * MiB and up level to 2x faster. */
#define PARALLEL_MIN_WORK ((int64_t)16 << 20)

typedef struct job {
  void (*fn)(void *ctx, int64_t begin, int64_t end);
  void *ctx;
  int64_t n;
  int parts;
} job;

static pthread_mutex_t call_lock = PTHREAD_MUTEX_INITIALIZER; /* one job at a time */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER, done = PTHREAD_COND_INITIALIZER;
static job current;
static uint64_t generation;
static int started, pending, wanted;

static void run_part(const job *j, int part) {
  int64_t begin = j->n * part / j->parts, end = j->n * (part + 1) / j->parts;
  if (begin < end) j->fn(j->ctx, begin, end);
}

static void *worker(void *arg) {
  int id = (int)(intptr_t)arg; /* parts 1.. are the workers'; part 0 the caller's */
  uint64_t seen = 0;
  pthread_mutex_lock(&lock);
  for (;;) {
    while (generation == seen) pthread_cond_wait(&wake, &lock);
    seen = generation;
    job j = current;
    pthread_mutex_unlock(&lock);
    if (id < j.parts) run_part(&j, id);
    pthread_mutex_lock(&lock);
    if (--pending == 0) pthread_cond_signal(&done);
  }
  return NULL;
}

static int cores(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (int)n;
}

static int threads_wanted(void) {
  pthread_mutex_lock(&lock);
  if (wanted == 0) wanted = cores();
  int w = wanted;
  pthread_mutex_unlock(&lock);
  return w;
}

/* Starts workers up to n - 1 (lock held); returns how many run. */
static int ensure_workers(int n) {
  while (started < n - 1) {
    pthread_t t;
    if (pthread_create(&t, NULL, worker, (void *)(intptr_t)(started + 1)) != 0) break;
    pthread_detach(t);
    started++;
  }
  return started;
}

void lt__parallel_for(int64_t n, int64_t work, void (*fn)(void *ctx, int64_t begin, int64_t end), void *ctx) {
  int threads = work < PARALLEL_MIN_WORK || n < 2 ? 1 : threads_wanted();
  if (threads > n) threads = (int)n;
  if (threads <= 1) {
    fn(ctx, 0, n);
    return;
  }
  pthread_mutex_lock(&call_lock);
  pthread_mutex_lock(&lock);
  int workers = ensure_workers(threads);
  job j = {fn, ctx, n, threads < workers + 1 ? threads : workers + 1};
  current = j;
  pending = workers; /* every worker wakes; those past j.parts just report */
  generation++;
  pthread_cond_broadcast(&wake);
  pthread_mutex_unlock(&lock);
  run_part(&j, 0);
  pthread_mutex_lock(&lock);
  while (pending > 0) pthread_cond_wait(&done, &lock);
  pthread_mutex_unlock(&lock);
  pthread_mutex_unlock(&call_lock);
}

LT_API lt_status lt_set_num_threads(int n) {
  if (n < 0 || n > MAX_THREADS)
    return lt__fail(LT_ERR_ARG, "set_num_threads: %d is outside 0..%d (0 means one per core)", n, MAX_THREADS);
  pthread_mutex_lock(&lock);
  wanted = n == 0 ? cores() : n;
  pthread_mutex_unlock(&lock);
  return lt__ok();
}

LT_API int lt_get_num_threads(void) { return threads_wanted(); }
