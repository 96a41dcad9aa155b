#define _GNU_SOURCE /* sched_getcpu, CPU_SET, pthread_attr_setaffinity_np */
/* bench/measure: timing, the memcpy baseline and case geometry shared by
 * the access benchmarks (see measure.h). */
#include "measure.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Shortest timed sample: one 1 MiB copy takes tens of microseconds, too
 * close to the clock's own cost, so short calls are timed in batches. */
#define SAMPLE_SECONDS 0.01

double measure_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double measure_median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Threads that a library starts at load may spin for their first
 * fraction of a second before they sleep: OpenBLAS's (libtensor's GEMM)
 * wait 2^28 clock ticks, 0.13 s at 2.1 GHz, even in a program that never
 * calls it. Where the cores are few, such a thread takes one from the
 * first samples: on a 2-vCPU Xeon, bench_access --threads 2 timed its
 * first row, memcpy of 1 MiB on two threads, at 30-36 GB/s against
 * 74-106 with OpenBLAS held to one thread (three runs each). So a
 * process's first timing starts SETTLE_SECONDS after the first call
 * here. */
#define SETTLE_SECONDS 0.3

static void settle_once(void) {
  static bool settled;
  if (settled) return;
  settled = true;
  struct timespec wait = {0, (long)(SETTLE_SECONDS * 1e9)};
  while (nanosleep(&wait, &wait) != 0) { /* interrupted: sleep the rest */
  }
}

/* Calls per sample of run: after a warm-up call, batches timed until one
 * lasts at least half of SAMPLE_SECONDS say how many fill it; 0 when run
 * fails. The warm-up call alone set too short a batch where it pays what
 * a batch pays once: a batch of two-thread memcpy starts its thread and
 * pulls half the lines from the core that last wrote them, and its first
 * call of 1 MiB took 5-17x as long as a warm one (2-vCPU Xeon, six
 * tries), so that samples of a few calls timed those costs more than the
 * copies (bench_access --threads 2 at 1 MiB: the memcpy paired with the
 * first cases ran at 36-46 GB/s against 98-115 with the later ones; now
 * level from the first case on). */
static int batch_length(measure_batch_fn run, void *ctx) {
  settle_once();
  if (run(ctx, 1)) return 0;
  for (double k = 1;;) {
    double t0 = measure_now();
    if (run(ctx, (int)k)) return 0;
    double t = measure_now() - t0;
    double want = k * SAMPLE_SECONDS / (t > 1e-8 ? t : 1e-8);
    if (want > 1e6) want = 1e6;
    if (t >= SAMPLE_SECONDS / 2 || k >= 1e6) return want < 1 ? 1 : (int)want + 1;
    k = want / 2 > k * 2 ? want / 2 : k * 2; /* aim at half a sample, at least doubling */
  }
}

/* Seconds per call of one sample of k calls; -1 when run fails. */
static double sample(measure_batch_fn run, void *ctx, int k) {
  double t0 = measure_now();
  if (run(ctx, k)) return -1;
  return (measure_now() - t0) / k;
}

double measure_seconds_per_call(measure_batch_fn run, void *ctx, int reps) {
  int k = batch_length(run, ctx);
  if (!k) return -1;
  double t[MEASURE_MAX_REPS];
  for (int i = 0; i < reps; i++)
    if ((t[i] = sample(run, ctx, k)) < 0) return -1;
  return measure_median(t, reps);
}

int measure_paired_into(measure_batch_fn run, void *ctx, measure_batch_fn base, void *base_ctx, int reps,
                        measure_samples *s) {
  int kb = batch_length(base, base_ctx), k = kb ? batch_length(run, ctx) : 0;
  if (!k || s->n + reps > MEASURE_MAX_SAMPLES) return -1;
  for (int i = s->n; i < s->n + reps; i++) {
    if ((s->base[i] = sample(base, base_ctx, kb)) < 0 || (s->op[i] = sample(run, ctx, k)) < 0) return -1;
    s->speed[i] = s->base[i] / s->op[i];
  }
  s->n += reps;
  return 0;
}

measure_pair measure_pair_of(const measure_samples *s) {
  double v[3][MEASURE_MAX_SAMPLES]; /* sorted copies */
  int n = s->n, quarter = (n - 1) / 4;
  memcpy(v[0], s->op, (size_t)n * sizeof(double));
  memcpy(v[1], s->base, (size_t)n * sizeof(double));
  memcpy(v[2], s->speed, (size_t)n * sizeof(double));
  double op = measure_median(v[0], n), base = measure_median(v[1], n), mid = measure_median(v[2], n);
  return (measure_pair){op, base, mid, v[2][quarter], v[2][n - 1 - quarter]};
}

int measure_paired(measure_batch_fn run, void *ctx, measure_batch_fn base, void *base_ctx, int reps,
                   measure_pair *out) {
  measure_samples s = {.n = 0};
  if (measure_paired_into(run, ctx, base, base_ctx, reps, &s)) return -1;
  *out = measure_pair_of(&s);
  return 0;
}

/* ---- memcpy baseline ---------------------------------------------------- */

/* The threads of one batch meet before and after each call. Spinning,
 * with a yield for when there are more threads than cores: the cheapest
 * meeting there is, so the baseline is the fastest a parallel copy that
 * must finish each call before the next could be. */
typedef struct call_barrier {
  atomic_int arrived, phase;
  atomic_int go; /* 0: wait, 1: run, -1: give up (a thread did not start) */
  int parties;
} call_barrier;

static void meet(call_barrier *b) {
  int phase = atomic_load(&b->phase);
  if (atomic_fetch_add(&b->arrived, 1) == b->parties - 1) {
    atomic_store(&b->arrived, 0);
    atomic_fetch_add(&b->phase, 1);
    return;
  }
  while (atomic_load(&b->phase) == phase) sched_yield();
}

typedef struct memcpy_job {
  char *dst; /* NULL: read src alone */
  const char *src;
  size_t bytes;
  int k;
  call_barrier *calls; /* NULL: one thread */
} memcpy_job;

/* Where read_words leaves its result, so that the reads are not dropped. */
static volatile uint64_t read_sink;

/* x86-64 builds pick read_words' widest vectors at load time. */
#if defined(__x86_64__) && defined(__GNUC__)
#define WIDEST_VECTORS __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define WIDEST_VECTORS
#endif

/* The xor of the bytes' 8-byte words (and of the bytes past the last
 * line): one vector load a line where the CPU has wide vectors, so that
 * even a cached read is held up by the caches, not by this loop. */
WIDEST_VECTORS static uint64_t read_words(const char *p, size_t bytes) {
  uint64_t acc[8] = {0}, r = 0;
  size_t lines = bytes / 64;
  for (size_t i = 0; i < lines; i++)
    for (int w = 0; w < 8; w++) {
      uint64_t v;
      memcpy(&v, p + 64 * i + 8 * w, sizeof v);
      acc[w] ^= v;
    }
  for (int w = 0; w < 8; w++) r ^= acc[w];
  for (size_t i = lines * 64; i < bytes; i++) r ^= (unsigned char)p[i];
  return r;
}

static void *memcpy_repeat(void *arg) {
  const memcpy_job *j = arg;
  if (j->calls) {
    while (atomic_load(&j->calls->go) == 0) sched_yield();
    if (atomic_load(&j->calls->go) < 0) return NULL;
  }
  for (int i = 0; i < j->k; i++) {
    if (j->calls) meet(j->calls);
    if (j->dst) memcpy(j->dst, j->src, j->bytes);
    else read_sink = read_words(j->src, j->bytes);
    /* Stops the compiler merging repeated copies of the same bytes. */
    atomic_signal_fence(memory_order_seq_cst);
    if (j->calls) meet(j->calls);
  }
  return NULL;
}

/* Helpers run on CPUs other than the caller's where it may run on
 * several. Started while the library's workers spin on the other CPUs
 * (they do for a while after each parallel copy), a helper was put
 * beside the caller, and the two shares took turns on one core: two
 * threads, bench_access --threads 2 --sizes 1 --only "(0,3,1,2)", the
 * memcpy column 78-110 GB/s in some runs, 160-165 in others. */
static void start_away_from_caller(pthread_attr_t *attr) {
#if defined(__linux__)
  cpu_set_t away;
  int here = sched_getcpu();
  if (here < 0 || sched_getaffinity(0, sizeof away, &away) != 0) return;
  CPU_CLR(here, &away);
  if (CPU_COUNT(&away) > 0) (void)pthread_attr_setaffinity_np(attr, sizeof away, &away);
#else
  (void)attr;
#endif
}

/* One thread: memcpy on the caller. N threads: the caller and N - 1
 * pthreads (started once per batch, so the start cost spreads over a
 * whole sample) each copy their 1/N share per call, and each call ends
 * when its last share is done, as a call of a parallel copy must.
 * (Unsynchronised, each thread ran its k shares back to back, faster at
 * cached sizes than any parallel copy can be.) */
int measure_memcpy_batch(void *ctx, int k) {
  const measure_memcpy *m = ctx;
  if (m->threads == 1) return memcpy_repeat(&(memcpy_job){m->dst, m->src, m->bytes, k, NULL}), 0;
  pthread_t tid[MEASURE_MAX_THREADS];
  memcpy_job jobs[MEASURE_MAX_THREADS];
  call_barrier calls = {.parties = m->threads};
  size_t share = (m->bytes / (size_t)m->threads + 63) & ~(size_t)63; /* whole cache lines each */
  for (int i = 0; i < m->threads; i++) {
    size_t lo = (size_t)i * share < m->bytes ? (size_t)i * share : m->bytes;
    size_t hi = lo + share < m->bytes ? lo + share : m->bytes;
    jobs[i] = (memcpy_job){m->dst ? m->dst + lo : NULL, m->src + lo, hi - lo, k, &calls};
  }
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0) return -1;
  start_away_from_caller(&attr);
  int started = 1;
  for (; started < m->threads; started++)
    if (pthread_create(&tid[started], &attr, memcpy_repeat, &jobs[started]) != 0) break;
  pthread_attr_destroy(&attr);
  atomic_store(&calls.go, started == m->threads ? 1 : -1);
  if (started == m->threads) memcpy_repeat(&jobs[0]);
  for (int i = 1; i < started; i++) pthread_join(tid[i], NULL);
  return started == m->threads ? 0 : -1;
}

int measure_copy_batch(void *ctx, int k) {
  const measure_copy *c = ctx;
  for (int i = 0; i < k; i++)
    if (lt_copy(c->dst, c->src) != LT_OK) return -1;
  return 0;
}

lt_tensor *measure_touched_f32(int64_t n, bool source) {
  lt_tensor *t = lt_empty(LT_F32, 1, &n, LT_HOST);
  if (!t) return NULL;
  float *p = lt_data(t);
  for (int64_t i = 0; i < n; i++) p[i] = source ? (float)(i % 1021) + 1.0f : 0.0f;
  return t;
}

/* ---- case geometry ------------------------------------------------------- */

lt_tensor *measure_prefix(const lt_tensor *t, int ndim, const int64_t *shape) {
  int64_t numel = 1;
  for (int i = 0; i < ndim; i++) numel *= shape[i];
  lt_tensor *head = lt_narrow(t, 0, 0, numel);
  lt_tensor *v = head ? lt_view(head, ndim, shape) : NULL;
  lt_release(head);
  return v;
}

/* The largest a with a^k <= n (n >= 1); integer, so no libm to link. */
static int64_t int_root(int64_t n, int k) {
  int64_t lo = 1, hi = k == 2 ? 3037000499 : 2097151; /* roots of INT64_MAX */
  while (lo < hi) {
    int64_t mid = lo + (hi - lo + 1) / 2, p = 1;
    for (int i = 0; i < k; i++) p *= mid;
    if (p <= n) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

void measure_matrix_shape(int64_t n, int64_t shape[2]) {
  shape[0] = int_root(n, 2);
  shape[1] = n / shape[0];
}

void measure_permute_shape(int ndim, int64_t n, int64_t *shape) {
  if (ndim == 2) {
    measure_matrix_shape(n, shape);
  } else if (ndim == 3) {
    int64_t a = int_root(n, 3);
    shape[0] = shape[1] = a;
    shape[2] = n / (a * a);
  } else {
    shape[0] = 4, shape[1] = 12, shape[3] = 64;
    shape[2] = n / (4 * 12 * 64);
  }
}
