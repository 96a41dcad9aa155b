/* bench/transpose: single-thread bandwidth of each transpose kernel path
 * this CPU runs on square matrices, beside memcpy of the same bytes
 * between the same two buffers. Bytes moved = bytes read + bytes
 * written; each figure is the median of the repetitions, after one
 * untimed warm-up. Usage: bench_transpose [--es N] [--reps N] [side...]
 * (default: the sides of 1, 256 and 512 MiB matrices). */
#define _POSIX_C_SOURCE 200112L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "measure.h"
#include "transpose.h"

static const char *const PATH_NAMES[LT__TRANSPOSE_NPATHS] = {"scalar", "avx2", "avx512", "avx512vbmi"};

typedef struct job {
  lt__transpose_fn fn; /* NULL: memcpy */
  char *dst;
  const char *src;
  int64_t side;
  size_t bytes;
} job;

static void run_once(const job *j) {
  if (j->fn) j->fn(j->dst, j->side, j->src, j->side, j->side, j->side);
  else memcpy(j->dst, j->src, j->bytes);
}

/* Small matrices are repeated so that one timing spans at least ~64 MiB. */
static double gbs(const job *j, int reps) {
  int inner = j->bytes >= (64u << 20) ? 1 : (int)((64u << 20) / j->bytes);
  double t[64];
  run_once(j);
  for (int i = 0; i < reps; i++) {
    double t0 = measure_now();
    for (int k = 0; k < inner; k++) run_once(j);
    t[i] = (measure_now() - t0) / inner;
  }
  return 2.0 * (double)j->bytes / measure_median(t, reps) / 1e9;
}

static int bench_side(int64_t side, size_t es, int reps) {
  size_t bytes = (size_t)(side * side) * es;
  void *src = NULL, *dst = NULL;
  if (posix_memalign(&src, 64, bytes) || posix_memalign(&dst, 64, bytes)) {
    free(src);
    fprintf(stderr, "out of memory for side %lld\n", (long long)side);
    return 1;
  }
  memset(src, 1, bytes);
  memset(dst, 2, bytes);
  job j = {NULL, dst, src, side, bytes};
  double base = gbs(&j, reps);
  printf("%6lld x %-6lld es=%zu %8.1f MiB  memcpy %6.1f GB/s", (long long)side, (long long)side, es,
         (double)bytes / (1 << 20), base);
  for (int p = 0; p < LT__TRANSPOSE_NPATHS; p++) {
    j.fn = lt__transpose_kernel(es, (lt__transpose_path)p);
    if (!j.fn) continue;
    double g = gbs(&j, reps);
    printf("  %s %6.1f (%3.0f%%)", PATH_NAMES[p], g, 100.0 * g / base);
  }
  printf("\n");
  free(src);
  free(dst);
  return 0;
}

int main(int argc, char **argv) {
  size_t es = 4;
  int reps = 5, nsides = 0;
  int64_t sides[16];
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--es") && i + 1 < argc) es = (size_t)atoi(argv[++i]);
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (nsides < 16) sides[nsides++] = atoll(argv[i]);
  }
  if (reps < 1 || reps > 64 || !lt__transpose_best(es)) {
    fprintf(stderr, "usage: bench_transpose [--es 1|2|4|8] [--reps 1..64] [side...]\n");
    return 2;
  }
  if (nsides == 0) {
    const double mib[] = {1, 256, 512};
    for (int i = 0; i < 3; i++) sides[nsides++] = (int64_t)sqrt(mib[i] * (1 << 20) / (double)es);
  }
  int rc = 0;
  for (int i = 0; i < nsides; i++) rc |= bench_side(sides[i], es, reps);
  return rc;
}
