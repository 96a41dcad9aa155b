/* bench/access: what non-contiguous access costs on this machine. f32 data
 * is copied through strided, transposed, permuted, sliced, reversed and
 * expanded views, each beside memcpy measured in the same run at the same
 * size class, as GB/s and as a ratio to memcpy.
 *
 * Bytes counted: every element of the copy once read and once written,
 * 2 * numel * 4 bytes, whatever its stride (cache lines dragged in but not
 * used are the cost being shown, so they are not counted). memcpy counts
 * the same way: 2 * size bytes.
 *
 * Size class S: the footprint of the largest tensor a case touches. The
 * contiguous, transpose, permute and expand cases copy S bytes into S
 * bytes. A stride-s read takes every s-th float of an S-byte source into an
 * S/s-byte destination (a strided write the reverse), so at stride >= 16
 * (one float per 64-byte line) it pays for S bytes of lines to move S/s
 * bytes of data; the ratio shows that price. The ratio's base is always
 * memcpy of S bytes into S bytes, one thread per libtensor thread.
 *
 * Usage: bench_access [--json] [--alloc] [--sizes MIB,MIB,..] [--reps N]
 *                     [--threads N]
 * Default: lt_copy into a preallocated, already touched destination. With
 * --alloc each call is lt_contiguous plus lt_release (allocation, page
 * faults and free included); strided writes have no --alloc form. */
#define _POSIX_C_SOURCE 200809L
#include <libtensor.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_REPS 64
#define MAX_SIZES 8
#define MAX_THREADS 64
/* Shortest timed sample: one 1 MiB copy takes tens of microseconds, too
 * close to the clock's own cost, so short calls are timed in batches. */
#define SAMPLE_SECONDS 0.01

typedef enum case_kind { CONTIGUOUS, STRIDED_READ, STRIDED_WRITE, PERMUTE, LAST_DIM_STEP, EXPAND } case_kind;

typedef struct bench_case {
  const char *name;
  case_kind kind;
  int64_t step; /* STRIDED_*: elements between accesses; LAST_DIM_STEP: slice step */
  int ndim;     /* PERMUTE: 2, 3 or 4 */
  int perm[4];
} bench_case;

static const bench_case cases[] = {
    {"contiguous", CONTIGUOUS, 1, 0, {0}},
    {"strided read s=1", STRIDED_READ, 1, 0, {0}},
    {"strided read s=2", STRIDED_READ, 2, 0, {0}},
    {"strided read s=4", STRIDED_READ, 4, 0, {0}},
    {"strided read s=8", STRIDED_READ, 8, 0, {0}},
    {"strided read s=16", STRIDED_READ, 16, 0, {0}},
    {"strided read s=32", STRIDED_READ, 32, 0, {0}},
    {"strided read s=64", STRIDED_READ, 64, 0, {0}},
    {"strided write s=1", STRIDED_WRITE, 1, 0, {0}},
    {"strided write s=2", STRIDED_WRITE, 2, 0, {0}},
    {"strided write s=4", STRIDED_WRITE, 4, 0, {0}},
    {"strided write s=8", STRIDED_WRITE, 8, 0, {0}},
    {"strided write s=16", STRIDED_WRITE, 16, 0, {0}},
    {"strided write s=32", STRIDED_WRITE, 32, 0, {0}},
    {"strided write s=64", STRIDED_WRITE, 64, 0, {0}},
    {"transpose 2-D", PERMUTE, 1, 2, {1, 0}},
    {"permute 3-D (0,1,2)", PERMUTE, 1, 3, {0, 1, 2}},
    {"permute 3-D (0,2,1)", PERMUTE, 1, 3, {0, 2, 1}},
    {"permute 3-D (1,0,2)", PERMUTE, 1, 3, {1, 0, 2}},
    {"permute 3-D (1,2,0)", PERMUTE, 1, 3, {1, 2, 0}},
    {"permute 3-D (2,0,1)", PERMUTE, 1, 3, {2, 0, 1}},
    {"permute 3-D (2,1,0)", PERMUTE, 1, 3, {2, 1, 0}},
    {"permute BHTD (0,2,1,3)", PERMUTE, 1, 4, {0, 2, 1, 3}},
    {"permute BHTD (0,2,3,1)", PERMUTE, 1, 4, {0, 2, 3, 1}},
    {"permute BHTD (0,3,1,2)", PERMUTE, 1, 4, {0, 3, 1, 2}},
    {"permute BHTD (3,2,1,0)", PERMUTE, 1, 4, {3, 2, 1, 0}},
    {"last dim step 2", LAST_DIM_STEP, 2, 0, {0}},
    {"last dim reversed", LAST_DIM_STEP, -1, 0, {0}},
    {"expand [1,N]->[M,N]", EXPAND, 1, 0, {0}},
};
#define NUM_CASES ((int)(sizeof cases / sizeof cases[0]))

typedef struct options {
  bool json, alloc;
  int reps, threads, nsizes;
  int64_t sizes_mib[MAX_SIZES];
} options;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Runs the measured operation k times; 0 on success. */
typedef int (*batch_fn)(void *ctx, int k);

/* Median seconds per call over reps samples. The first call is the
 * warm-up; its time also sets the batch length. */
static double seconds_per_call(batch_fn run, void *ctx, int reps) {
  double t0 = now();
  if (run(ctx, 1)) return -1;
  double first = now() - t0;
  double want = SAMPLE_SECONDS / (first > 1e-8 ? first : 1e-8); /* at most 1e6 calls */
  int k = want < 1 ? 1 : (int)want + 1;
  double t[MAX_REPS];
  for (int i = 0; i < reps; i++) {
    t0 = now();
    if (run(ctx, k)) return -1;
    t[i] = (now() - t0) / k;
  }
  return median(t, reps);
}

/* ---- memcpy baseline ---------------------------------------------------- */

typedef struct memcpy_job {
  char *dst;
  const char *src;
  size_t bytes;
  int k;
} memcpy_job;

static void *memcpy_repeat(void *arg) {
  const memcpy_job *j = arg;
  for (int i = 0; i < j->k; i++) {
    memcpy(j->dst, j->src, j->bytes);
    /* Stops the compiler merging repeated copies of the same bytes. */
    atomic_signal_fence(memory_order_seq_cst);
  }
  return NULL;
}

typedef struct memcpy_args {
  char *dst;
  const char *src;
  size_t bytes;
  int threads;
} memcpy_args;

/* One thread: memcpy on the caller. N threads: N pthreads each copy their
 * 1/N share k times, timed together (started once per batch, so the start
 * cost spreads over a whole sample). */
static int memcpy_batch(void *ctx, int k) {
  const memcpy_args *m = ctx;
  if (m->threads == 1) return memcpy_repeat(&(memcpy_job){m->dst, m->src, m->bytes, k}), 0;
  pthread_t tid[MAX_THREADS];
  memcpy_job jobs[MAX_THREADS];
  size_t share = (m->bytes / (size_t)m->threads + 63) & ~(size_t)63; /* whole cache lines each */
  int started = 0, rc = 0;
  for (int i = 0; i < m->threads; i++) {
    size_t lo = (size_t)i * share < m->bytes ? (size_t)i * share : m->bytes;
    size_t hi = lo + share < m->bytes ? lo + share : m->bytes;
    jobs[i] = (memcpy_job){m->dst + lo, m->src + lo, hi - lo, k};
    if (pthread_create(&tid[i], NULL, memcpy_repeat, &jobs[i]) != 0) {
      rc = -1;
      break;
    }
    started++;
  }
  for (int i = 0; i < started; i++) pthread_join(tid[i], NULL);
  return rc;
}

/* ---- the libtensor operations ------------------------------------------- */

typedef struct copy_args {
  lt_tensor *dst;
  const lt_tensor *src;
} copy_args;

static int copy_batch(void *ctx, int k) {
  const copy_args *c = ctx;
  for (int i = 0; i < k; i++)
    if (lt_copy(c->dst, c->src) != LT_OK) return -1;
  return 0;
}

/* lt_contiguous hands back a contiguous source itself; lt_clone makes those
 * cases still copy, so every case measures one materialisation. */
static int alloc_batch(void *ctx, int k) {
  const lt_tensor *src = ctx;
  for (int i = 0; i < k; i++) {
    lt_tensor *t = lt_is_contiguous(src) ? lt_clone(src) : lt_contiguous(src);
    if (!t) return -1;
    lt_release(t);
  }
  return 0;
}

/* ---- case geometry ------------------------------------------------------- */

/* The first numel(shape) elements of the 1-D tensor t, viewed as shape. */
static lt_tensor *prefix(const lt_tensor *t, int ndim, const int64_t *shape) {
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

/* A square-ish [rows, cols] within n elements. */
static void matrix_shape(int64_t n, int64_t shape[2]) {
  shape[0] = int_root(n, 2);
  shape[1] = n / shape[0];
}

/* Shapes of n elements or just under: a cube for 3-D, and an attention
 * [B, H, T, D] with H = 12 heads, so T is not a power of two either. */
static void permute_shape(int ndim, int64_t n, int64_t *shape) {
  if (ndim == 2) {
    matrix_shape(n, shape);
  } else if (ndim == 3) {
    int64_t a = int_root(n, 3);
    shape[0] = shape[1] = a;
    shape[2] = n / (a * a);
  } else {
    shape[0] = 4, shape[1] = 12, shape[3] = 64;
    shape[2] = n / (4 * 12 * 64);
  }
}

/* The source view a case reads (*from) and the destination it writes (*to),
 * over the 1-D n-element tensors src and dst. */
static lt_status case_views(const bench_case *c, lt_tensor *src, lt_tensor *dst, lt_tensor **from,
                            lt_tensor **to) {
  int64_t n = lt_numel(src), shape[4];
  lt_tensor *base = NULL;
  *from = *to = NULL;
  switch (c->kind) {
  case CONTIGUOUS:
    *from = prefix(src, 1, &n);
    break;
  case STRIDED_READ:
    *from = lt_slice(src, 0, LT_NONE, LT_NONE, c->step);
    break;
  case STRIDED_WRITE:
    *to = lt_slice(dst, 0, LT_NONE, LT_NONE, c->step);
    if (*to) *from = prefix(src, 1, lt_shape(*to));
    break;
  case PERMUTE:
    permute_shape(c->ndim, n, shape);
    base = prefix(src, c->ndim, shape);
    if (base) *from = lt_permute(base, c->perm);
    break;
  case LAST_DIM_STEP:
    matrix_shape(n, shape);
    base = prefix(src, 2, shape);
    if (base) *from = lt_slice(base, 1, LT_NONE, LT_NONE, c->step);
    break;
  case EXPAND:
    matrix_shape(n, shape);
    base = prefix(src, 2, (int64_t[2]){1, shape[1]});
    if (base) *from = lt_expand(base, 2, shape);
    break;
  }
  lt_release(base);
  if (*from && !*to) *to = prefix(dst, lt_ndim(*from), lt_shape(*from));
  if (*from && *to) return LT_OK;
  lt_release(*from);
  lt_release(*to);
  *from = *to = NULL;
  return lt_last_status();
}

/* ---- one size class ------------------------------------------------------ */

/* Tensor storage the first call will not fault in: sources hold non-zero
 * data, destinations are written once. */
static lt_tensor *touched_f32(int64_t n, bool source) {
  lt_tensor *t = lt_empty(LT_F32, 1, &n, LT_HOST);
  if (!t) return NULL;
  float *p = lt_data(t);
  for (int64_t i = 0; i < n; i++) p[i] = source ? (float)(i % 1021) + 1.0f : 0.0f;
  return t;
}

static void report(const options *o, const bench_case *c, int64_t mib, double gbs, double mem_gbs) {
  if (o->json)
    printf("{\"bench\":\"access\",\"mode\":\"%s\",\"case\":\"%s\",\"size_bytes\":%lld,\"threads\":%d,"
           "\"gbs\":%.3f,\"memcpy_gbs\":%.3f,\"ratio\":%.4f}\n",
           o->alloc ? "alloc" : "copy", c ? c->name : "memcpy", (long long)(mib << 20), o->threads, gbs,
           mem_gbs, gbs / mem_gbs);
  else if (c)
    printf("%-24s %5lld MiB %9.2f %9.3f\n", c->name, (long long)mib, gbs, gbs / mem_gbs);
  else
    printf("%-24s %5lld MiB %9.2f %9.3f\n", "(memcpy)", (long long)mib, gbs, 1.0);
  fflush(stdout);
}

/* Times one case; its GB/s, or -1 with the error printed. */
static double case_gbs(const options *o, const bench_case *c, lt_tensor *src, lt_tensor *dst) {
  lt_tensor *from, *to;
  if (case_views(c, src, dst, &from, &to) != LT_OK) {
    fprintf(stderr, "\nbench_access: %s: %s", c->name, lt_last_error());
    return -1;
  }
  double t = o->alloc ? seconds_per_call(alloc_batch, from, o->reps)
                      : seconds_per_call(copy_batch, &(copy_args){to, from}, o->reps);
  if (t < 0) fprintf(stderr, "\nbench_access: %s: %s", c->name, lt_last_error());
  double gbs = t < 0 ? -1 : 2.0 * (double)lt_numel(from) * 4 / t / 1e9;
  lt_release(from);
  lt_release(to);
  return gbs;
}

static int run_size(const options *o, int64_t mib) {
  int64_t n = (mib << 20) / 4;
  int rc = 1;
  fprintf(stderr, "bench_access: %lld MiB ", (long long)mib);
  lt_tensor *src = touched_f32(n, true), *dst = src ? touched_f32(n, false) : NULL;
  if (!dst) {
    fprintf(stderr, "%s", lt_last_error());
    goto done;
  }
  memcpy_args m = {lt_data(dst), lt_data(src), (size_t)n * 4, o->threads};
  double mt = seconds_per_call(memcpy_batch, &m, o->reps);
  if (mt < 0) {
    fprintf(stderr, "could not start the memcpy threads");
    goto done;
  }
  double mem_gbs = 2.0 * (double)m.bytes / mt / 1e9;
  report(o, NULL, mib, mem_gbs, mem_gbs);
  for (int i = 0; i < NUM_CASES; i++) {
    if (o->alloc && cases[i].kind == STRIDED_WRITE) continue;
    fputc('.', stderr);
    double gbs = case_gbs(o, &cases[i], src, dst);
    if (gbs < 0) goto done;
    report(o, &cases[i], mib, gbs, mem_gbs);
  }
  rc = 0;
done:
  fputc('\n', stderr);
  lt_release(src);
  lt_release(dst);
  return rc;
}

/* ---- command line -------------------------------------------------------- */

static bool parse_sizes(const char *s, options *o) {
  o->nsizes = 0;
  for (;;) {
    char *end;
    long long v = strtoll(s, &end, 10);
    if (end == s || v < 1 || v > 65536 || o->nsizes == MAX_SIZES) return false;
    o->sizes_mib[o->nsizes++] = v;
    if (*end == '\0') return true;
    if (*end != ',') return false;
    s = end + 1;
  }
}

static bool parse_args(int argc, char **argv, options *o) {
  *o = (options){.reps = 5, .threads = 1, .nsizes = 3, .sizes_mib = {1, 64, 512}};
  for (int i = 1; i < argc; i++) {
    bool more = i + 1 < argc;
    if (!strcmp(argv[i], "--json")) o->json = true;
    else if (!strcmp(argv[i], "--alloc")) o->alloc = true;
    else if (!strcmp(argv[i], "--reps") && more) o->reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--threads") && more) o->threads = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--sizes") && more) {
      if (!parse_sizes(argv[++i], o)) return false;
    } else return false;
  }
  return o->reps >= 1 && o->reps <= MAX_REPS && o->threads >= 1 && o->threads <= MAX_THREADS;
}

int main(int argc, char **argv) {
  options o;
  if (!parse_args(argc, argv, &o))
    return fprintf(stderr,
                   "usage: %s [--json] [--alloc] [--sizes MIB,MIB,..] [--reps 1..%d] [--threads 1..%d]\n",
                   argv[0], MAX_REPS, MAX_THREADS),
           2;
  /* libtensor gets as many threads as the memcpy it is compared with. */
  if (lt_set_num_threads(o.threads) != LT_OK) return fprintf(stderr, "%s\n", lt_last_error()), 1;
  if (!o.json)
    printf("access costs, f32, %s, %d thread%s, median of %d after a warm-up\n"
           "GB/s = (bytes read + bytes written) / s, each element counted once, whatever its stride;\n"
           "strided s=k moves size/k bytes out of (or into) a buffer of size bytes;\n"
           "ratio = GB/s / GB/s of memcpy of size bytes, measured in this run\n\n"
           "%-24s %9s %9s %9s\n",
           o.alloc ? "lt_contiguous (allocation included)" : "lt_copy into a preallocated destination",
           o.threads, o.threads > 1 ? "s" : "", o.reps, "case", "size", "GB/s", "ratio");
  for (int i = 0; i < o.nsizes; i++)
    if (run_size(&o, o.sizes_mib[i])) return 1;
  int64_t held = lt_stats_get(LT_HOST).bytes_in_use;
  if (held != 0) return fprintf(stderr, "bench_access: %lld bytes still held at exit\n", (long long)held), 1;
  return 0;
}
