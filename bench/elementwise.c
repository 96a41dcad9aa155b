/* bench/elementwise: bandwidth of lt_add_out into a preallocated F32
 * destination with contiguous, transposed and broadcast inputs, beside
 * memcpy in the same run (timed alternately, median of the repetitions
 * after a warm-up). Bytes moved = bytes read + written: 3 x the tensor for
 * two full inputs, 2 x for a broadcast row (whose few bytes stay in
 * cache); memcpy moves 2 x its buffer.
 * Usage: bench_elementwise [--json] [--mib N] [--reps N] [--threads N] */
#define _POSIX_C_SOURCE 199309L
#include <libtensor.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "measure.h"

typedef struct bench_case {
  const char *name;
  lt_tensor *a, *b;
  int full_inputs; /* inputs read in full (a broadcast row is not) */
} bench_case;

/* Median seconds of lt_add_out(out, a, b) and of memcpy(mb, ma, bytes),
 * alternated rep by rep so that both see the same machine. */
static void time_case(const bench_case *c, lt_tensor *out, char *ma, char *mb, size_t bytes, int reps, double *t_op,
                      double *t_mem) {
  double to[64], tm[64];
  lt_add_out(out, c->a, c->b);
  memcpy(mb, ma, bytes);
  for (int i = 0; i < reps; i++) {
    double t0 = measure_now();
    memcpy(mb, ma, bytes);
    double t1 = measure_now();
    if (lt_add_out(out, c->a, c->b) != LT_OK) {
      fprintf(stderr, "%s: %s\n", c->name, lt_last_error());
      exit(1);
    }
    tm[i] = t1 - t0;
    to[i] = measure_now() - t1;
  }
  *t_op = measure_median(to, reps);
  *t_mem = measure_median(tm, reps);
}

static lt_tensor *filled(int64_t rows, int64_t cols, float seed) {
  lt_tensor *t = lt_empty(LT_F32, 2, (int64_t[]){rows, cols}, LT_HOST);
  if (!t) {
    fprintf(stderr, "%s\n", lt_last_error());
    exit(1);
  }
  float *p = lt_data(t);
  for (int64_t i = 0; i < rows * cols; i++) p[i] = seed + (float)(i % 1000);
  return t;
}

int main(int argc, char **argv) {
  bool json = false;
  int64_t mib = 256;
  int reps = 5, threads = 1;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--json")) json = true;
    else if (!strcmp(argv[i], "--mib") && i + 1 < argc) mib = atoll(argv[++i]);
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--threads") && i + 1 < argc) threads = atoi(argv[++i]);
    else return fprintf(stderr, "usage: %s [--json] [--mib N] [--reps N] [--threads N]\n", argv[0]), 2;
  }
  if (reps < 1 || reps > 64 || mib < 1 || threads < 1) return fprintf(stderr, "bad --reps, --mib or --threads\n"), 2;
  lt_set_num_threads(threads);
  /* A square F32 matrix of about `mib` MiB, so that its transpose is a
   * true 2-D transpose. */
  int64_t side = (int64_t)sqrt((double)mib * 1024 * 1024 / 4);
  size_t bytes = (size_t)(side * side) * 4;
  lt_tensor *a = filled(side, side, 1), *bm = filled(side, side, 2), *row = filled(1, side, 3);
  lt_tensor *bt = lt_transpose(bm, 0, 1), *brow = lt_expand(row, 2, (int64_t[]){side, side});
  lt_tensor *out = lt_zeros(LT_F32, 2, (int64_t[]){side, side}, LT_HOST);
  char *ma = malloc(bytes), *mb = malloc(bytes);
  if (!out || !bt || !brow || !ma || !mb) return fprintf(stderr, "out of memory\n"), 1;
  memset(ma, 1, bytes);
  memset(mb, 2, bytes);
  bench_case cases[] = {{"contiguous + contiguous", a, bm, 2},
                        {"contiguous + transposed", a, bt, 2},
                        {"contiguous + broadcast row", a, brow, 1}};
  if (!json)
    printf("lt_add_out, f32 [%lld,%lld] (%.0f MiB), %d thread(s), median of %d, beside memcpy of the same size\n"
           "%-28s %10s %12s %8s\n",
           (long long)side, (long long)side, (double)bytes / 1048576, threads, reps, "case", "GB/s", "memcpy GB/s",
           "ratio");
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    double t_op, t_mem;
    time_case(&cases[k], out, ma, mb, bytes, reps, &t_op, &t_mem);
    double gbs = (double)bytes * (cases[k].full_inputs + 1) / t_op / 1e9, mem = 2.0 * (double)bytes / t_mem / 1e9;
    if (json)
      printf("{\"bench\":\"elementwise\",\"case\":\"%s\",\"mib\":%.0f,\"threads\":%d,\"gbs\":%.2f,"
             "\"memcpy_gbs\":%.2f,\"ratio\":%.3f}\n",
             cases[k].name, (double)bytes / 1048576, threads, gbs, mem, gbs / mem);
    else
      printf("%-28s %10.2f %12.2f %8.2f\n", cases[k].name, gbs, mem, gbs / mem);
  }
  lt_release(a), lt_release(bm), lt_release(row), lt_release(bt), lt_release(brow), lt_release(out);
  free(ma), free(mb);
  return 0;
}
