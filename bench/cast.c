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

#include "measure.h"

/* Median GB/s (bytes read + written) of lt_copy(dst, src) and of memcpy
 * between two buffers, timed alternately rep by rep after an untimed
 * warm-up of each, so that both see the same machine (our VMs are shared
 * and their bandwidth drifts). */
typedef struct pair {
  double cast_gbs, memcpy_gbs;
} pair;

static pair time_pair(lt_tensor *dst, const lt_tensor *src, char *ma, char *mb, size_t mbytes, int reps) {
  double tc[64], tm[64];
  double moved = (double)lt_numel(src) * (double)(lt_dtype_size(lt_dtype_of(src)) + lt_dtype_size(lt_dtype_of(dst)));
  lt_copy(dst, src);
  memcpy(mb, ma, mbytes);
  for (int i = 0; i < reps; i++) {
    double t0 = measure_now();
    memcpy(mb, ma, mbytes);
    double t1 = measure_now();
    lt_copy(dst, src);
    tm[i] = t1 - t0;
    tc[i] = measure_now() - t1;
  }
  return (pair){moved / measure_median(tc, reps) / 1e9, 2.0 * (double)mbytes / measure_median(tm, reps) / 1e9};
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
  size_t mbytes = (size_t)n * 4;
  char *ma = malloc(mbytes), *mb = malloc(mbytes);
  if (!ma || !mb) return fprintf(stderr, "out of memory for the memcpy buffers\n"), 1;
  memset(ma, 1, mbytes);
  memset(mb, 2, mbytes);
  static const lt_dtype targets[] = {LT_BF16, LT_F16, LT_F8_E4M3, LT_F8_E5M2};
  if (!json)
    printf("casts through lt_copy, %lld MiB of f32, one thread, median of %d, each beside memcpy of %lld MiB\n"
           "timed alternately (GB/s count bytes read + written)\n\n%-16s %8s %8s %8s   %-16s %8s %8s %8s\n",
           (long long)mib, reps, (long long)mib, "encode", "GB/s", "memcpy", "ratio", "decode", "GB/s", "memcpy",
           "ratio");
  for (size_t k = 0; k < sizeof targets / sizeof targets[0]; k++) {
    lt_tensor *narrow = lt_empty(targets[k], 1, &n, LT_HOST);
    if (!narrow) return fprintf(stderr, "%s\n", lt_last_error()), 1;
    pair enc = time_pair(narrow, f32, ma, mb, mbytes, reps);
    pair dec = time_pair(f32, narrow, ma, mb, mbytes, reps);
    char a[32], b[32];
    snprintf(a, sizeof a, "f32 -> %s", lt_dtype_name(targets[k]));
    snprintf(b, sizeof b, "%s -> f32", lt_dtype_name(targets[k]));
    if (json) {
      printf("{\"bench\":\"cast\",\"case\":\"%s\",\"gbs\":%.3f,\"memcpy_gbs\":%.3f,\"ratio\":%.3f}\n", a,
             enc.cast_gbs, enc.memcpy_gbs, enc.cast_gbs / enc.memcpy_gbs);
      printf("{\"bench\":\"cast\",\"case\":\"%s\",\"gbs\":%.3f,\"memcpy_gbs\":%.3f,\"ratio\":%.3f}\n", b,
             dec.cast_gbs, dec.memcpy_gbs, dec.cast_gbs / dec.memcpy_gbs);
    } else {
      printf("%-16s %8.2f %8.2f %7.0f%%   %-16s %8.2f %8.2f %7.0f%%\n", a, enc.cast_gbs, enc.memcpy_gbs,
             100 * enc.cast_gbs / enc.memcpy_gbs, b, dec.cast_gbs, dec.memcpy_gbs, 100 * dec.cast_gbs / dec.memcpy_gbs);
    }
    lt_release(narrow);
  }
  free(ma);
  free(mb);
  lt_release(f32);
  return 0;
}
