/* bench/small_copy: the fixed cost of a call on a tiny tensor (lt_copy,
 * lt_contiguous through the host cache and without it, lt_view), beside a
 * 64-byte memcpy measured in the same run, as the median ns per call over
 * 10,000 calls (100 batches of 100). Then what the cache buys a large
 * materialisation (lt_clone of an f32 square of --mib MiB, lt_contiguous of
 * its transpose) with and without it: fresh pages are slow to first write. Prints
 * a table, or JSON lines with --json. Usage: bench_small_copy [--json]
 * [--mib N] (0 skips the large case) */
#define _POSIX_C_SOURCE 199309L
#include <libtensor.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "measure.h"

#define BATCHES 100
#define PER_BATCH 100

typedef struct fixture {
  lt_tensor *src16, *dst16;  /* f32[16] */
  lt_tensor *square_t, *dst44; /* a transposed f32[4,4], and a row-major one */
  char bytes_src[64], bytes_dst[64];
} fixture;

/* Through a volatile pointer, so the compiler cannot drop the memcpy. */
static void *(*volatile memcpy_fn)(void *, const void *, size_t) = memcpy;

static void op_memcpy(fixture *f) { memcpy_fn(f->bytes_dst, f->bytes_src, sizeof f->bytes_src); }
static void op_copy(fixture *f) { lt_copy(f->dst16, f->src16); }
static void op_copy_transposed(fixture *f) { lt_copy(f->dst44, f->square_t); }
static void op_contiguous(fixture *f) { lt_release(lt_contiguous(f->square_t)); }
static void op_view(fixture *f) { lt_release(lt_view(f->src16, 2, (const int64_t[]){4, 4})); }

typedef struct bench_case {
  const char *name;
  void (*op)(fixture *f);
  bool cache; /* false: lt_set_cache_limit(0) while it runs */
} bench_case;

/* Median ns per call of op over BATCHES batches, after a warm-up batch. */
static double time_op(void (*op)(fixture *), fixture *f) {
  double t[BATCHES];
  for (int i = 0; i < PER_BATCH; i++) op(f);
  for (int b = 0; b < BATCHES; b++) {
    double t0 = measure_now();
    for (int i = 0; i < PER_BATCH; i++) op(f);
    t[b] = (measure_now() - t0) / PER_BATCH * 1e9;
  }
  return measure_median(t, BATCHES);
}

static int small_cases(fixture *f, bool json) {
  static const bench_case cases[] = {
      {"memcpy 64 B", op_memcpy, true},
      {"lt_copy f32[16]", op_copy, true},
      {"lt_copy f32[4,4] <- transposed", op_copy_transposed, true},
      {"lt_contiguous transposed f32[4,4]", op_contiguous, true},
      {"  same, cache off", op_contiguous, false},
      {"lt_view f32[16] -> [4,4]", op_view, true},
  };
  if (lt_copy(f->dst16, f->src16) != LT_OK || lt_copy(f->dst44, f->square_t) != LT_OK)
    return fprintf(stderr, "%s\n", lt_last_error()), 1;
  if (!json) printf("fixed cost, median ns per call of %d\n\n%-36s %8s %9s\n", BATCHES * PER_BATCH, "case", "ns",
                    "/memcpy");
  double memcpy_ns = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const bench_case *c = &cases[i];
    size_t limit = c->cache ? 0 : lt_set_cache_limit(0);
    double ns = time_op(c->op, f);
    if (!c->cache) lt_set_cache_limit(limit);
    if (i == 0) memcpy_ns = ns;
    if (json)
      printf("{\"bench\":\"small_copy\",\"case\":\"%s\",\"ns\":%.1f,\"memcpy_ns\":%.1f}\n", c->name, ns, memcpy_ns);
    else
      printf("%-36s %8.1f %8.1fx\n", c->name, ns, ns / memcpy_ns);
  }
  return 0;
}

/* Median ms of materialise(src) + release over reps, after a warm-up. */
static double time_large(lt_tensor *(*materialise)(const lt_tensor *), const lt_tensor *src, int reps) {
  double ms[16];
  for (int i = -1; i < reps; i++) {
    double t0 = measure_now();
    lt_release(materialise(src));
    if (i >= 0) ms[i] = (measure_now() - t0) * 1e3;
  }
  return measure_median(ms, reps);
}

/* lt_clone of a row-major square (a memcpy-speed loop, where the allocator
 * weighs most) and lt_contiguous of its transpose, cache on and off. */
static int large_cases(int64_t mib, bool json) {
  int64_t n = 1; /* the side of a square of about mib MiB */
  while (4 * (n + 1) * (n + 1) <= mib * 1048576) n++;
  lt_tensor *base = lt_zeros(LT_F32, 2, (const int64_t[]){n, n}, LT_HOST);
  lt_tensor *t = base ? lt_transpose(base, 0, 1) : NULL;
  if (!t) return fprintf(stderr, "%s\n", lt_last_error()), 1;
  double bytes = 4.0 * (double)n * (double)n;
  if (!json) printf("\nmaterialising f32[%lld,%lld] (%.0f MiB), median of 5\n\n%-36s %8s %9s\n", (long long)n,
                    (long long)n, bytes / 1048576, "case", "ms", "GB/s");
  const struct {
    const char *name;
    lt_tensor *(*materialise)(const lt_tensor *);
    const lt_tensor *src;
  } cases[] = {{"lt_clone", lt_clone, base}, {"lt_contiguous (transposed)", lt_contiguous, t}};
  for (int c = 0; c < 2; c++)
    for (int cache = 1; cache >= 0; cache--) {
      /* A bound that keeps the block whatever the machine's default. */
      size_t limit = lt_set_cache_limit(cache ? (size_t)(bytes * 8) : 0);
      double ms = time_large(cases[c].materialise, cases[c].src, 5);
      lt_set_cache_limit(limit);
      double gbs = 2 * bytes / (ms * 1e-3) / 1e9; /* read + write */
      const char *how = cache ? "cache on" : "cache off";
      if (json)
        printf("{\"bench\":\"small_copy\",\"case\":\"%s %.0f MiB, %s\",\"ms\":%.3f,\"gbs\":%.3f}\n",
               cases[c].name, bytes / 1048576, how, ms, gbs);
      else
        printf("%-26s %-9s %8.2f %9.2f\n", cases[c].name, how, ms, gbs);
    }
  lt_release(t);
  lt_release(base);
  return 0;
}

int main(int argc, char **argv) {
  bool json = false;
  int64_t mib = 64;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--json")) json = true;
    else if (!strcmp(argv[i], "--mib") && i + 1 < argc) mib = atoll(argv[++i]);
    else return fprintf(stderr, "usage: %s [--json] [--mib N]\n", argv[0]), 2;
  }
  if (mib < 0) return fprintf(stderr, "bad --mib\n"), 2;
  fixture f = {0};
  f.src16 = lt_zeros(LT_F32, 1, (const int64_t[]){16}, LT_HOST);
  f.dst16 = lt_empty(LT_F32, 1, (const int64_t[]){16}, LT_HOST);
  lt_tensor *square = lt_zeros(LT_F32, 2, (const int64_t[]){4, 4}, LT_HOST);
  f.square_t = square ? lt_transpose(square, 0, 1) : NULL;
  f.dst44 = lt_empty(LT_F32, 2, (const int64_t[]){4, 4}, LT_HOST);
  if (!f.src16 || !f.dst16 || !f.square_t || !f.dst44) return fprintf(stderr, "%s\n", lt_last_error()), 1;
  int rc = small_cases(&f, json);
  if (rc == 0 && mib > 0) rc = large_cases(mib, json);
  lt_release(f.dst44);
  lt_release(f.square_t);
  lt_release(square);
  lt_release(f.dst16);
  lt_release(f.src16);
  lt_empty_cache();
  return rc;
}
