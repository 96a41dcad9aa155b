/* bench/measure: what the benchmarks share (all of bench/ and ltx
 * bench): a clock and a median, a timer that batches short calls, memcpy on one or more
 * threads as the baseline, and the geometry of the cases (tensor
 * prefixes, square-ish matrices, cubes, attention-shaped 4-D tensors). */
#ifndef LT_BENCH_MEASURE_H
#define LT_BENCH_MEASURE_H

#include <libtensor.h>
#include <stdbool.h>
#include <stddef.h>

#define MEASURE_MAX_REPS 64
#define MEASURE_MAX_THREADS 64

/* Seconds on a monotonic clock. */
double measure_now(void);
/* The median of v[0..n) (sorts v in place); n >= 1. */
double measure_median(double *v, int n);

/* Runs the measured operation k times; 0 on success. */
typedef int (*measure_batch_fn)(void *ctx, int k);

/* Median seconds per call over reps samples (1..MEASURE_MAX_REPS) of at
 * least 10 ms each; a warm-up call, then batches timed until one lasts
 * half a sample, set the batch length. A process's first timing starts
 * 0.3 s late, once the threads other libraries start at load have
 * stopped spinning (measure.c).
 * -1 when run fails. */
double measure_seconds_per_call(measure_batch_fn run, void *ctx, int reps);

/* One operation timed beside a baseline (see measure_paired). */
typedef struct measure_pair {
  double seconds;      /* median seconds per call of the operation */
  double base_seconds; /* and of the baseline */
  double speed;        /* median over the pairs of base time / operation time */
  double speed_q1;     /* the first and third quartiles of those ratios: */
  double speed_q3;     /* the middle half of the samples lies between them */
} measure_pair;

/* Times run and base in turn, sample by sample (base, run, base, run, ..),
 * each warmed up and batched as measure_seconds_per_call does, so that on
 * a machine whose bandwidth drifts from second to second each sample of
 * the operation has its own baseline next to it. 0, or -1 when either
 * fails. */
int measure_paired(measure_batch_fn run, void *ctx, measure_batch_fn base, void *base_ctx, int reps,
                   measure_pair *out);

/* The samples behind a measure_pair, for a caller that takes them in
 * several rounds (minutes apart, say, when the machine's load comes and
 * goes): seconds per call of the operation and of the baseline, and
 * their ratio, sample by sample. Start with n = 0. */
#define MEASURE_MAX_SAMPLES (16 * MEASURE_MAX_REPS)
typedef struct measure_samples {
  int n;
  double op[MEASURE_MAX_SAMPLES], base[MEASURE_MAX_SAMPLES], speed[MEASURE_MAX_SAMPLES];
} measure_samples;

/* As measure_paired, appending reps samples to s (warm-up included);
 * -1 when either fails or s has no room. */
int measure_paired_into(measure_batch_fn run, void *ctx, measure_batch_fn base, void *base_ctx, int reps,
                        measure_samples *s);
/* The medians and quartiles of s's samples (n >= 1). */
measure_pair measure_pair_of(const measure_samples *s);

/* memcpy of bytes from src to dst, split over threads pthreads (one:
 * on the caller), as a measure_batch_fn. With dst NULL, the bytes are
 * read and nothing is written: how fast these threads read memory, the
 * ceiling of any copy that must read as many bytes of lines. */
typedef struct measure_memcpy {
  char *dst;
  const char *src;
  size_t bytes;
  int threads;
} measure_memcpy;
int measure_memcpy_batch(void *ctx, int k);

/* lt_copy(dst, src), as a measure_batch_fn. */
typedef struct measure_copy {
  lt_tensor *dst;
  const lt_tensor *src;
} measure_copy;
int measure_copy_batch(void *ctx, int k);

/* An n-element 1-D f32 tensor whose pages are already touched: sources
 * hold non-zero data, destinations zeros. NULL with the library's error. */
lt_tensor *measure_touched_f32(int64_t n, bool source);

/* The first numel(shape) elements of the 1-D tensor t, viewed as shape. */
lt_tensor *measure_prefix(const lt_tensor *t, int ndim, const int64_t *shape);

/* A square-ish [rows, cols] within n elements. */
void measure_matrix_shape(int64_t n, int64_t shape[2]);

/* A shape of n elements or just under: square-ish for 2-D, a cube for
 * 3-D, and for 4-D an attention [B, H, T, D] with B = 4, H = 12 heads and
 * D = 64, so T is not a power of two. */
void measure_permute_shape(int ndim, int64_t n, int64_t *shape);

#endif
