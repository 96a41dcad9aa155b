/* The thread pool: workers started on first use and kept; between jobs
 * they spin a while, then sleep on a condition variable. One job at a
 * time (a mutex serialises callers), which is all a copy or a cast
 * needs. */
#define _GNU_SOURCE
#include "pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "libtensor/types.h"

#define MAX_THREADS 64
/* Below this many bytes (read plus written) a job runs inline unless the
 * workers are spinning (below): waking a sleeping worker costs
 * microseconds on bare metal and tens of them in a VM,
 * where an idle vCPU must be woken by its host. Two threads against one
 * on Zen 5 under KVM, GB/s of one copy call: 1 and 2 MiB tensors
 * (contiguous, reversed, 2-D transpose, (2,1,0)) 30-65% slower; 4 MiB
 * dense copies still 10-25% slower, transposes level to 40% faster; 8
 * MiB and up level to 2x faster. */
#define PARALLEL_MIN_WORK ((int64_t)16 << 20)

/* Workers that have just finished a job wait for the next one by
 * spinning for up to SPIN_NS before they sleep (NUDGED_SPIN_NS when a
 * nudge, below, woke them), and the caller spins as long for their
 * reports: a job that finds them spinning costs a cache line's round
 * trip to start and end, not a wake-up. Such jobs run in parallel from
 * PARALLEL_HOT_MIN_WORK. A call of that size that finds them asleep
 * runs inline, but, where the last such call ended under NUDGE_GAP_NS
 * before, wakes them to spin, so that calls that come back to back find
 * them spinning from the next one or so on; an isolated call pays
 * nothing. Workers spin only where they have a core each (threads at
 * most the cores online): where they share one, a spinning worker takes
 * the time of the one with work. Xeon (AVX-512 with AMX) under KVM, 2
 * vCPUs, F32 (2,1,0) of N^3 copied 500 times in a row (after 50), us a
 * copy, one thread -> two, three runs each: N = 52 (1.1 MB of traffic)
 * 41 -> 31-45, 64 110-133 -> 46-61 (106-120, one thread's speed, in
 * three of nine runs), 70 189-208 -> 69-96, 100 476-498 -> 252-533; N =
 * 40 (0.5 MB, under the bar) level. bench_access --threads 2 at 1 MiB,
 * same-run ratio to a two-thread memcpy, two runs each, the pool before
 * -> after: contiguous 0.36-0.40 -> 0.92-1.01, expand 0.79-0.88 ->
 * 1.20-1.27, the 2-D transpose 0.19-0.22 -> 0.29-0.37, (1,2,0)
 * 0.24-0.26 -> 0.60-0.64, (2,1,0) 0.19-0.22 -> 0.42-0.44, (2,0,1)
 * 0.21-0.23 -> 0.47-0.48, BHTD (0,3,1,2) 0.24 -> 0.55; at 512 MiB
 * level. SPIN_NS covers the gap between the copies of a loop with room
 * to spare; it is also what the last job of a burst costs a core. */
#define PARALLEL_HOT_MIN_WORK ((int64_t)1 << 20)
#define SPIN_NS ((int64_t)200000)
#define NUDGED_SPIN_NS ((int64_t)1000000)
#define NUDGE_GAP_NS ((int64_t)1000000)

typedef struct job {
  void (*fn)(void *ctx, int64_t begin, int64_t end);
  void *ctx;
  int64_t n;
  int parts;
  int caller_cpu; /* the CPU the caller published it from, -1 if unknown */
} job;

static pthread_mutex_t call_lock = PTHREAD_MUTEX_INITIALIZER; /* one job at a time */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER, done = PTHREAD_COND_INITIALIZER;
static job current;             /* written before generation is bumped (release) */
static _Atomic uint64_t generation;
static _Atomic int pending;     /* workers yet to report on the current job */
static _Atomic int spinning;    /* workers spinning for the next job */
static _Atomic int spin_allowed = -1; /* 2 <= threads wanted <= cores online; -1: not yet known */
static int started, wanted, sleepers; /* under lock */
static unsigned nudges;              /* under lock: bumped by each nudge that finds sleepers */
static uint64_t start_generation[MAX_THREADS]; /* each worker's first `seen`: the generation when it was made */
static int64_t last_hot_call_ns; /* under call_lock: when the last call of hot size ended */

static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* A spinning thread yields its core at every turn, so that any other
 * thread that has work there takes it: spinning on pause instructions
 * for a millisecond slowed the two-thread memcpy that bench_access times
 * beside each copy by up to five times. */
static inline void relax(void) { sched_yield(); }

/* Spins until generation moves past seen or ns pass; returns it. */
static uint64_t spin_for_job(uint64_t seen, int64_t ns) {
  uint64_t g = atomic_load_explicit(&generation, memory_order_acquire);
  if (g != seen || !atomic_load_explicit(&spin_allowed, memory_order_relaxed)) return g;
  int64_t until = now_ns() + ns;
  for (int i = 1; (g = atomic_load_explicit(&generation, memory_order_acquire)) == seen; i++) {
    relax();
    if (i % 16 == 0 && now_ns() > until) break;
  }
  return g;
}

/* The next job's generation: spinning first, then asleep until a job or
 * a nudge (which sends the worker back to spinning). The worker comes in
 * counted in spinning, and leaves uncounted: it counts from before it
 * reports a job (see worker), so that a caller whose job has just ended
 * finds it ready for the next. */
static uint64_t await_job(uint64_t seen, bool nudged) {
  for (;;) {
    uint64_t g = spin_for_job(seen, nudged ? NUDGED_SPIN_NS : SPIN_NS);
    atomic_fetch_sub_explicit(&spinning, 1, memory_order_relaxed);
    if (g != seen) return g;
    pthread_mutex_lock(&lock);
    unsigned nudges_before = nudges;
    sleepers++;
    while ((g = atomic_load_explicit(&generation, memory_order_acquire)) == seen && nudges == nudges_before)
      pthread_cond_wait(&wake, &lock);
    sleepers--;
    pthread_mutex_unlock(&lock);
    if (g != seen) return g;
    atomic_fetch_add_explicit(&spinning, 1, memory_order_relaxed);
    nudged = true;
  }
}

/* A worker that takes a job on the caller's CPU moves off it. Placed
 * beside the caller, as Linux places a new thread when the other CPUs
 * are busy at that moment (OpenBLAS's threads spin for a while after the
 * library loads) or as it may leave one after other work, the two take
 * turns on one core, and in the processes measured stayed so to the end
 * (Linux leaves a thread that ran within the last half millisecond
 * where it is, and these always have). Zen 4 under KVM, 2 vCPUs, two
 * threads, F32 BHTD (0,3,1,2) of [4, 12, 85, 64] (1 MiB) copied 100
 * times in a row, six buffers in turn, one process after another:
 * before, both parts on one CPU in three processes of six, about 44
 * GB/s (each part 22-24 us, a call 49-55), on two in the others, about
 * 77 GB/s (a call 26-31 us), and on two in six of six with OpenBLAS's
 * threads turned off (OPENBLAS_NUM_THREADS=1); with the move, about 75
 * GB/s in eight processes of eight. The worker leaves the caller's CPU
 * out of its own affinity for one job, then takes its set back (the
 * move done, nothing pins it): two system calls on a job that finds the
 * two together, a sched_getcpu on the others. */

/* The calling thread's set before it moved off a CPU, while moved. */
#if defined(__linux__)
static _Thread_local cpu_set_t set_before_move;
#endif
static _Thread_local bool moved_off;

bool lt__move_off_cpu(int cpu) {
#if defined(__linux__)
  cpu_set_t away;
  if (moved_off || cpu < 0 || sched_getaffinity(0, sizeof away, &away) != 0) return false;
  set_before_move = away;
  CPU_CLR(cpu, &away);
  if (CPU_COUNT(&away) == 0 || sched_setaffinity(0, sizeof away, &away) != 0) return false;
  moved_off = true;
  return true;
#else
  (void)cpu;
  return false;
#endif
}

void lt__return_to_cpus(void) {
#if defined(__linux__)
  if (moved_off && sched_setaffinity(0, sizeof set_before_move, &set_before_move) == 0) moved_off = false;
#endif
}

static int this_cpu(void) {
#if defined(__linux__)
  return sched_getcpu();
#else
  return -1;
#endif
}

static void run_part(const job *j, int part) {
  int64_t begin = j->n * part / j->parts, end = j->n * (part + 1) / j->parts;
  if (begin < end) j->fn(j->ctx, begin, end);
}

static void *worker(void *arg) {
  int id = (int)(intptr_t)arg; /* parts 1.. are the workers'; part 0 the caller's */
  uint64_t seen = start_generation[id];
  atomic_fetch_add_explicit(&spinning, 1, memory_order_relaxed);
  bool nudged = true; /* made by a nudge or for a job: either way, calls are coming */
  for (;;) {
    seen = await_job(seen, nudged);
    nudged = false;
    job j = current;
    if (id < j.parts) {
      lt__return_to_cpus();
      if (j.caller_cpu >= 0 && this_cpu() == j.caller_cpu) (void)lt__move_off_cpu(j.caller_cpu);
      run_part(&j, id);
    }
    atomic_fetch_add_explicit(&spinning, 1, memory_order_relaxed);
    /* the last report wakes the caller, should it have stopped spinning */
    if (atomic_fetch_sub_explicit(&pending, 1, memory_order_acq_rel) == 1) {
      pthread_mutex_lock(&lock);
      pthread_cond_signal(&done);
      pthread_mutex_unlock(&lock);
    }
  }
  return NULL;
}

static int cores(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (int)n;
}

/* Sets wanted (lock held). */
static void set_wanted(int n) {
  wanted = n;
  atomic_store_explicit(&spin_allowed, n >= 2 && n <= cores(), memory_order_relaxed);
}

/* The threads wanted, and in *workers (if not NULL) how many run. */
static int threads_wanted(int *workers) {
  pthread_mutex_lock(&lock);
  if (wanted == 0) set_wanted(cores());
  int w = wanted;
  if (workers) *workers = started;
  pthread_mutex_unlock(&lock);
  return w;
}

/* Starts workers up to n - 1 (lock held); returns how many run. Each
 * waits for the job after the current generation, whether it was made
 * for a job about to be published or by a nudge. */
static int ensure_workers(int n) {
  while (started < n - 1) {
    pthread_t t;
    start_generation[started + 1] = atomic_load_explicit(&generation, memory_order_relaxed);
    if (pthread_create(&t, NULL, worker, (void *)(intptr_t)(started + 1)) != 0) break;
    pthread_detach(t);
    started++;
  }
  return started;
}

/* Wakes sleeping workers to spin, first starting the threads workers
 * wanted (call_lock held). */
static void nudge(int threads) {
  pthread_mutex_lock(&lock);
  ensure_workers(threads);
  if (sleepers > 0) {
    nudges++;
    pthread_cond_broadcast(&wake);
  }
  pthread_mutex_unlock(&lock);
}

/* Waits for every worker's report on the current job. */
static void await_reports(void) {
  int64_t until = atomic_load_explicit(&spin_allowed, memory_order_relaxed) ? now_ns() + SPIN_NS : 0;
  for (int i = 1; atomic_load_explicit(&pending, memory_order_acquire) > 0; i++) {
    relax();
    if (i % 16 == 0 && now_ns() > until) break;
  }
  pthread_mutex_lock(&lock);
  while (atomic_load_explicit(&pending, memory_order_acquire) > 0) pthread_cond_wait(&done, &lock);
  pthread_mutex_unlock(&lock);
}

/* How many threads a job of at least PARALLEL_HOT_MIN_WORK bytes gets
 * (call_lock held): wanted from PARALLEL_MIN_WORK, or below it where the
 * workers it needs are spinning; else one, nudging the workers where
 * calls of that size come back to back. */
static int threads_for(int64_t work) {
  int workers, w = threads_wanted(&workers);
  if (w < 2) return 1;
  if (work >= PARALLEL_MIN_WORK) return w;
  if (!atomic_load_explicit(&spin_allowed, memory_order_relaxed)) return 1;
  /* every worker reports on every job, those without a part too: all
   * must be spinning, or the job waits for a wake-up */
  int need = workers > w - 1 ? workers : w - 1;
  if (atomic_load_explicit(&spinning, memory_order_relaxed) >= need) return w;
  if (now_ns() - last_hot_call_ns < NUDGE_GAP_NS) nudge(w);
  return 1;
}

void lt__parallel_for(int64_t n, int64_t work, void (*fn)(void *ctx, int64_t begin, int64_t end), void *ctx) {
  /* Under PARALLEL_MIN_WORK, a job that no spinning workers can take
   * (one thread, or more threads than cores) runs inline at once, as
   * does one that finds the pool busy with another caller's job. */
  bool hot_size = work < PARALLEL_MIN_WORK;
  if (work < PARALLEL_HOT_MIN_WORK || n < 2 ||
      (hot_size && atomic_load_explicit(&spin_allowed, memory_order_relaxed) == 0) ||
      (hot_size ? pthread_mutex_trylock(&call_lock) != 0 : pthread_mutex_lock(&call_lock) != 0)) {
    fn(ctx, 0, n);
    return;
  }
  int threads = threads_for(work);
  if (threads > n) threads = (int)n;
  if (threads <= 1) {
    fn(ctx, 0, n);
  } else {
    pthread_mutex_lock(&lock);
    int workers = ensure_workers(threads);
    current = (job){fn, ctx, n, threads < workers + 1 ? threads : workers + 1, this_cpu()};
    atomic_store_explicit(&pending, workers, memory_order_relaxed); /* every worker reports */
    atomic_fetch_add_explicit(&generation, 1, memory_order_release);
    if (sleepers > 0) pthread_cond_broadcast(&wake);
    pthread_mutex_unlock(&lock);
    run_part(&current, 0);
    await_reports();
  }
  if (hot_size) last_hot_call_ns = now_ns();
  pthread_mutex_unlock(&call_lock);
}

LT_API lt_status lt_set_num_threads(int n) {
  if (n < 0 || n > MAX_THREADS)
    return lt__fail(LT_ERR_ARG, "set_num_threads: %d is outside 0..%d (0 means one per core)", n, MAX_THREADS);
  pthread_mutex_lock(&lock);
  set_wanted(n == 0 ? cores() : n);
  pthread_mutex_unlock(&lock);
  return lt__ok();
}

LT_API int lt_get_num_threads(void) { return threads_wanted(NULL); }
