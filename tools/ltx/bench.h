/* ltx bench: what access patterns cost on this machine, each beside
 * memcpy measured in the same run. The measured results, and the three
 * ways they are shown: a table, JSON lines, an SVG chart. */
#ifndef LTX_BENCH_H
#define LTX_BENCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define BENCH_MAX_CASES 32

typedef enum bench_group {
  BENCH_STRIDE,  /* a read with a stride (1 = contiguous) */
  BENCH_PERMUTE, /* a transposed or permuted copy */
  BENCH_CAST     /* a converting copy */
} bench_group;

typedef struct bench_result {
  const char *name;
  bench_group group;
  int stride;        /* BENCH_STRIDE: elements between reads */
  int64_t bytes;     /* bytes read plus bytes written per call */
  double gbs;        /* bytes / seconds per call / 1e9 */
  double memcpy_gbs; /* memcpy timed in turn with this case */
  double ratio;      /* gbs / memcpy_gbs */
} bench_result;

typedef struct bench_run {
  int64_t size_mib;  /* footprint of the largest tensor a case touches */
  int threads, reps;
  int64_t cache_bytes; /* the largest CPU cache, 0 if unknown */
  double memcpy_gbs; /* 2 * size / seconds per memcpy: the median of the memcpy runs */
  int n;
  bench_result r[BENCH_MAX_CASES];
  double seconds;    /* the whole run */
} bench_run;

/* The table, with how to read it. */
void bench_print_table(FILE *f, const bench_run *run);
/* One JSON object per line: memcpy first, then each case. */
void bench_print_json(FILE *f, const bench_run *run);
/* An SVG document: GB/s against stride, and GB/s per permutation and
 * cast, memcpy drawn across both. */
void bench_write_svg(FILE *f, const bench_run *run);

#endif
