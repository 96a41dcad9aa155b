/* bench/cast: bandwidth of the cast kernels through lt_copy into a
 * preallocated destination (steady state, no allocation timed), beside
 * memcpy into a preallocated buffer in the same run. Bytes moved = bytes
 * read + bytes written, for both. Usage: bench_cast [--json] [--mib N] [--reps N] */
#define _POSIX_C_SOURCE 199309L
#include <libtensor.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
  return v[n / 2];
}

/* Median seconds of lt_copy(dst, src), after one untimed warm-up. */
static double time_copy(lt_tensor *dst, const lt_tensor *src, int reps) {
  double t[64];
  if (lt_copy(dst, src) != LT_OK) return -1;
  for (int i = 0; i < reps; i++) {
    double t0 = now();
    lt_copy(dst, src);
    t[i] = now() - t0;
  }
  return median(t, reps);
}

static double memcpy_gbs(size_t bytes, int reps) {
  char *a = malloc(bytes), *b = malloc(bytes);
  if (!a || !b) return free(a), free(b), -1;
  memset(a, 1, bytes);
  memset(b, 2, bytes);
  double t[64];
  for (int i = 0; i < reps; i++) {
    double t0 = now();
    memcpy(b, a, bytes);
    t[i] = now() - t0;
  }
  free(a);
  free(b);
  return 2.0 * (double)bytes / median(t, reps) / 1e9;
}

int main(int argc, char **argv) {
  bool json = false;
  int64_t mib = 256;
  int reps = 5;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--json")) json = true;
    else if (!strcmp(argv[i], "--mib") && i + 1 < argc) mib = atoll(argv[++i]);
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else return fprintf(stderr, "usage: %s [--json] [--mib N] [--reps N]\n", argv[0]), 2;
  }
  if (reps < 1 || reps > 64 || mib < 1) return fprintf(stderr, "bad --reps or --mib\n"), 2;
  lt_set_num_threads(1); /* kernel against memcpy, one thread each */
  int64_t n = mib * 1024 * 1024 / 4; /* the F32 side holds `mib` MiB */
  lt_tensor *f32 = lt_empty(LT_F32, 1, &n, LT_HOST);
  if (!f32) return fprintf(stderr, "%s\n", lt_last_error()), 1;
  float *p = lt_data(f32);
  uint32_t x = 12345;
  for (int64_t i = 0; i < n; i++) { /* values across the narrow formats' ranges */
    x = x * 1664525u + 1013904223u;
    p[i] = (float)((int32_t)x) / 2147483648.0f * (float)(1 << (x >> 28));
  }
  double mem = memcpy_gbs((size_t)n * 4, reps);
  static const lt_dtype targets[] = {LT_BF16, LT_F16, LT_F8_E4M3, LT_F8_E5M2};
  if (!json)
    printf("casts through lt_copy, %lld MiB of f32, one thread, median of %d\nmemcpy: %.2f GB/s (read + write)\n\n"
           "%-18s %10s %9s   %-18s %10s %9s\n",
           (long long)mib, reps, mem, "encode", "GB/s", "/memcpy", "decode", "GB/s", "/memcpy");
  for (size_t k = 0; k < sizeof targets / sizeof targets[0]; k++) {
    lt_tensor *narrow = lt_empty(targets[k], 1, &n, LT_HOST);
    double moved = (double)n * (4.0 + (double)lt_dtype_size(targets[k]));
    double enc = moved / time_copy(narrow, f32, reps) / 1e9;
    double dec = moved / time_copy(f32, narrow, reps) / 1e9;
    char a[32], b[32];
    snprintf(a, sizeof a, "f32 -> %s", lt_dtype_name(targets[k]));
    snprintf(b, sizeof b, "%s -> f32", lt_dtype_name(targets[k]));
    if (json) {
      printf("{\"bench\":\"cast\",\"case\":\"%s\",\"gbs\":%.3f,\"memcpy_gbs\":%.3f,\"ratio\":%.3f}\n", a, enc, mem, enc / mem);
      printf("{\"bench\":\"cast\",\"case\":\"%s\",\"gbs\":%.3f,\"memcpy_gbs\":%.3f,\"ratio\":%.3f}\n", b, dec, mem, dec / mem);
    } else {
      printf("%-18s %10.2f %8.0f%%   %-18s %10.2f %8.0f%%\n", a, enc, 100 * enc / mem, b, dec, 100 * dec / mem);
    }
    lt_release(narrow);
  }
  lt_release(f32);
  return 0;
}
