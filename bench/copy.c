/* bench/copy: bandwidth of the strided copy (lt_copy into a preallocated
 * destination) for common layouts, each beside memcpy measured in the same
 * run. Bytes moved = bytes read + bytes written. Prints a table, or JSON
 * lines with --json. Usage: bench_copy [--json] [--mib N] [--reps N] */
#define _POSIX_C_SOURCE 199309L
#include <libtensor.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "measure.h"

typedef struct bench_case {
  const char *name;
  int perm[4];      /* permutation of the [a,b,c,d] source before the copy */
  int64_t step;     /* slice step on the last dim (1 = none, -1 = reversed) */
} bench_case;

/* Median seconds of lt_copy(dst, view) over reps, after one warm-up. */
static double time_copy(lt_tensor *dst, const lt_tensor *src, int reps) {
  double t[64];
  if (lt_copy(dst, src) != LT_OK) return -1;
  for (int i = 0; i < reps; i++) {
    double t0 = measure_now();
    lt_copy(dst, src);
    t[i] = measure_now() - t0;
  }
  return measure_median(t, reps);
}

static double time_memcpy(char *dst, const char *src, size_t n, int reps) {
  double t[64];
  memcpy(dst, src, n);
  for (int i = 0; i < reps; i++) {
    double t0 = measure_now();
    memcpy(dst, src, n);
    t[i] = measure_now() - t0;
  }
  return measure_median(t, reps);
}

int main(int argc, char **argv) {
  bool json = false;
  int64_t mib = 64;
  int reps = 7;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--json")) json = true;
    else if (!strcmp(argv[i], "--mib") && i + 1 < argc) mib = atoll(argv[++i]);
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else return fprintf(stderr, "usage: %s [--json] [--mib N] [--reps N]\n", argv[0]), 2;
  }
  if (reps < 1 || reps > 64 || mib < 1) return fprintf(stderr, "bad --reps or --mib\n"), 2;
  /* An f32 [a, b, 64, 64] tensor of about `mib` MiB. */
  int64_t n = mib * 1024 * 1024 / 4, d = 64, b = 16, a = n / (b * d * d);
  if (a < 1) a = 1;
  int64_t shape[4] = {a, b, d, d};
  lt_tensor *src = lt_zeros(LT_F32, 4, shape, LT_HOST);
  lt_tensor *dst_full = lt_zeros(LT_F32, 4, shape, LT_HOST);
  if (!src || !dst_full) return fprintf(stderr, "%s\n", lt_last_error()), 1;
  size_t bytes = (size_t)lt_numel(src) * 4;
  double mt = time_memcpy(lt_data(dst_full), lt_data(src), bytes, reps);
  double mem_gbs = 2.0 * (double)bytes / mt / 1e9;
  static const bench_case cases[] = {
      {"contiguous", {0, 1, 2, 3}, 1},      {"permute (0,1,3,2)", {0, 1, 3, 2}, 1},
      {"permute (0,2,1,3)", {0, 2, 1, 3}, 1}, {"permute (3,2,1,0)", {3, 2, 1, 0}, 1},
      {"reversed last dim", {0, 1, 2, 3}, -1}, {"every 2nd of last dim", {0, 1, 2, 3}, 2},
  };
  if (!json) {
    printf("strided copy, f32, %.0f MiB source, median of %d after a warm-up\n", (double)bytes / 1048576, reps);
    printf("memcpy: %.2f GB/s (read + write)\n\n%-24s %10s %10s\n", mem_gbs, "case", "GB/s", "/memcpy");
  }
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const bench_case *c = &cases[i];
    lt_tensor *p = lt_permute(src, c->perm);
    lt_tensor *v = lt_slice(p, 3, LT_NONE, LT_NONE, c->step);
    lt_tensor *dst = lt_empty(LT_F32, 4, lt_shape(v), LT_HOST);
    double t = time_copy(dst, v, reps);
    double moved = 2.0 * (double)lt_numel(v) * 4;
    double gbs = moved / t / 1e9;
    if (json)
      printf("{\"bench\":\"copy\",\"case\":\"%s\",\"bytes\":%.0f,\"gbs\":%.3f,\"memcpy_gbs\":%.3f,\"ratio\":%.3f}\n",
             c->name, moved, gbs, mem_gbs, gbs / mem_gbs);
    else
      printf("%-24s %10.2f %9.0f%%\n", c->name, gbs, 100 * gbs / mem_gbs);
    lt_release(dst);
    lt_release(v);
    lt_release(p);
  }
  lt_release(dst_full);
  lt_release(src);
  return 0;
}
