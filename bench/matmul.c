/* bench/matmul: GFLOP/s of lt_matmul on square F32 products (plain, A^T,
 * B^T, and a batch of four half-size products) beside cblas_sgemm called
 * directly on the same buffers in the same run: timed alternately, median
 * of the repetitions after one warm-up of each, and the ratio as the
 * median of the repetitions' own ratios. lt_matmul allocates its result
 * each call, as a caller sees it; cblas_sgemm writes a buffer allocated
 * once. Prints the core OpenBLAS chose and its thread count.
 * Usage: bench_matmul [--json] [--reps N] [--sizes 1024,2048,4096] */
#define _POSIX_C_SOURCE 199309L
#include <cblas.h>
#include <libtensor.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return v[n / 2];
}

/* A row-major F32 tensor of values in [-1, 1). */
static lt_tensor *filled(int ndim, const int64_t *shape, uint32_t seed) {
  lt_tensor *t = lt_empty(LT_F32, ndim, shape, LT_HOST);
  if (!t) {
    fprintf(stderr, "%s\n", lt_last_error());
    exit(1);
  }
  float *p = lt_data(t);
  for (int64_t i = 0; i < lt_numel(t); i++) {
    seed = seed * 1664525u + 1013904223u;
    p[i] = (float)(int32_t)seed / 2147483648.0f;
  }
  return t;
}

/* One case: lt_matmul(a, b), where a and b are (views of) the row-major
 * buffers pa and pb, and the same products by cblas_sgemm. */
typedef struct mm_case {
  const char *name;
  lt_tensor *a, *b;
  const float *pa, *pb;
  bool ta, tb;         /* the stored buffer is the transpose of the operand */
  int batch, n;        /* batch products of n x n */
} mm_case;

static void direct(const mm_case *c, float *out) {
  size_t step = (size_t)c->n * (size_t)c->n;
  for (int i = 0; i < c->batch; i++)
    cblas_sgemm(CblasRowMajor, c->ta ? CblasTrans : CblasNoTrans, c->tb ? CblasTrans : CblasNoTrans, c->n, c->n,
                c->n, 1.0f, c->pa + i * step, c->n, c->pb + i * step, c->n, 0.0f, out + i * step, c->n);
}

static void library(const mm_case *c) {
  lt_tensor *r = lt_matmul(c->a, c->b);
  if (!r) {
    fprintf(stderr, "%s: %s\n", c->name, lt_last_error());
    exit(1);
  }
  lt_release(r);
}

typedef struct result {
  double lt_gflops, blas_gflops, ratio;
  int64_t copies, bytes_copied;
} result;

/* The ratio is the median of each repetition's own ratio: a pair timed
 * back to back sees the same load, so drifts on a shared machine cancel. */
static result time_case(const mm_case *c, float *out, int reps) {
  double tl[64], tb[64], ratio[64];
  double flops = 2.0 * c->batch * (double)c->n * c->n * c->n;
  direct(c, out);
  library(c);
  lt_stats_reset(LT_HOST);
  for (int i = 0; i < reps; i++) {
    double t0 = now();
    direct(c, out);
    double t1 = now();
    library(c);
    tb[i] = t1 - t0;
    tl[i] = now() - t1;
    ratio[i] = tb[i] / tl[i];
  }
  lt_stats s = lt_stats_get(LT_HOST);
  return (result){flops / median(tl, reps) / 1e9, flops / median(tb, reps) / 1e9, median(ratio, reps), s.copies,
                  s.bytes_copied};
}

/* The four cases at size n: plain, A^T, B^T (transposed views of
 * row-major buffers), and four products of n/2 in one batched call. */
static void run_size(int n, int reps, bool json, const char *core) {
  int64_t sq[2] = {n, n}, bt[3] = {4, n / 2, n / 2};
  lt_tensor *x = filled(2, sq, 1), *y = filled(2, sq, 2);
  lt_tensor *xt = lt_transpose(x, 0, 1), *yt = lt_transpose(y, 0, 1);
  lt_tensor *bx = filled(3, bt, 3), *by = filled(3, bt, 4);
  float *out = malloc(sizeof(float) * (size_t)n * (size_t)n);
  if (!xt || !yt || !out) {
    fprintf(stderr, "out of memory at n=%d\n", n);
    exit(1);
  }
  const float *px = lt_data(x), *py = lt_data(y);
  mm_case cases[] = {
      {"A B", x, y, px, py, false, false, 1, n},
      {"A^T B", xt, y, px, py, true, false, 1, n},
      {"A B^T", x, yt, px, py, false, true, 1, n},
      {"batched 4 x n/2", bx, by, lt_data(bx), lt_data(by), false, false, 4, n / 2},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    result r = time_case(&cases[i], out, reps);
    if (json)
      printf("{\"bench\":\"matmul\",\"case\":\"%s\",\"n\":%d,\"gflops\":%.2f,\"cblas_gflops\":%.2f,\"ratio\":%.3f,"
             "\"copies\":%lld,\"bytes_copied\":%lld,\"core\":\"%s\",\"blas_threads\":%d}\n",
             cases[i].name, n, r.lt_gflops, r.blas_gflops, r.ratio, (long long)r.copies,
             (long long)r.bytes_copied, core, openblas_get_num_threads());
    else
      printf("%-16s %6d %10.2f %10.2f %7.1f%% %7lld %12lld\n", cases[i].name, n, r.lt_gflops, r.blas_gflops,
             100 * r.ratio, (long long)r.copies, (long long)r.bytes_copied);
    fflush(stdout);
  }
  free(out);
  lt_release(xt);
  lt_release(yt);
  lt_release(x);
  lt_release(y);
  lt_release(bx);
  lt_release(by);
}

int main(int argc, char **argv) {
  bool json = false;
  int reps = 5;
  int sizes[8] = {1024, 2048, 4096}, nsizes = 3;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--json")) json = true;
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--sizes") && i + 1 < argc) {
      nsizes = 0;
      for (char *s = strtok(argv[++i], ","); s && nsizes < 8; s = strtok(NULL, ",")) sizes[nsizes++] = atoi(s);
    } else
      return fprintf(stderr, "usage: %s [--json] [--reps N] [--sizes 1024,2048,4096]\n", argv[0]), 2;
  }
  if (reps < 1 || reps > 64 || nsizes == 0) return fprintf(stderr, "bad --reps or --sizes\n"), 2;
  for (int i = 0; i < nsizes; i++)
    if (sizes[i] < 2 || sizes[i] > 65536) return fprintf(stderr, "bad size %d\n", sizes[i]), 2;
  const char *core = openblas_get_corename();
  if (json)
    printf("{\"bench\":\"matmul\",\"core\":\"%s\",\"blas_threads\":%d,\"reps\":%d}\n", core,
           openblas_get_num_threads(), reps);
  else
    printf("lt_matmul against cblas_sgemm on the same buffers, F32, median of %d, timed alternately\n"
           "(ratio: median of each repetition's lt_matmul / cblas_sgemm speed)\n"
           "OpenBLAS core: %s, %d thread(s) (OPENBLAS_CORETYPE and OPENBLAS_NUM_THREADS change these)\n\n"
           "%-16s %6s %10s %10s %8s %7s %12s\n",
           reps, core, openblas_get_num_threads(), "case", "n", "GFLOP/s", "cblas", "ratio", "copies", "bytes copied");
  for (int i = 0; i < nsizes; i++) run_size(sizes[i], reps, json, core);
  return 0;
}
