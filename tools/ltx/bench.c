/* ltx bench: measures on this machine what access patterns cost through
 * libtensor (contiguous and strided reads, transposed and permuted copies,
 * casts), each as GB/s and as a ratio to memcpy measured in the same run.
 * Timing and the memcpy baseline are bench/measure's, as bench_access
 * uses them; this file chooses the cases and runs them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ltx.h"
#include "measure.h"

typedef enum kind { STRIDED, PERMUTE, CAST } kind;

typedef struct bench_case {
  const char *name;
  kind kind;
  int stride;  /* STRIDED */
  int ndim;    /* PERMUTE: 2, 3 or 4 */
  int perm[4];
  lt_dtype from, to; /* CAST */
} bench_case;

static const bench_case cases[] = {
    {"contiguous read", STRIDED, 1, 0, {0}, 0, 0},
    {"strided read s=2", STRIDED, 2, 0, {0}, 0, 0},
    {"strided read s=4", STRIDED, 4, 0, {0}, 0, 0},
    {"strided read s=8", STRIDED, 8, 0, {0}, 0, 0},
    {"strided read s=16", STRIDED, 16, 0, {0}, 0, 0},
    {"strided read s=32", STRIDED, 32, 0, {0}, 0, 0},
    {"strided read s=64", STRIDED, 64, 0, {0}, 0, 0},
    {"transpose 2-D (1,0)", PERMUTE, 1, 2, {1, 0}, 0, 0},
    {"permute 3-D (0,2,1)", PERMUTE, 1, 3, {0, 2, 1}, 0, 0},
    {"permute 3-D (1,0,2)", PERMUTE, 1, 3, {1, 0, 2}, 0, 0},
    {"permute 3-D (1,2,0)", PERMUTE, 1, 3, {1, 2, 0}, 0, 0},
    {"permute 3-D (2,0,1)", PERMUTE, 1, 3, {2, 0, 1}, 0, 0},
    {"permute 3-D (2,1,0)", PERMUTE, 1, 3, {2, 1, 0}, 0, 0},
    {"permute BHTD (0,2,1,3)", PERMUTE, 1, 4, {0, 2, 1, 3}, 0, 0},
    {"permute BHTD (0,2,3,1)", PERMUTE, 1, 4, {0, 2, 3, 1}, 0, 0},
    {"permute BHTD (0,3,1,2)", PERMUTE, 1, 4, {0, 3, 1, 2}, 0, 0},
    {"permute BHTD (3,2,1,0)", PERMUTE, 1, 4, {3, 2, 1, 0}, 0, 0},
    {"cast f32 to bf16", CAST, 1, 0, {0}, LT_F32, LT_BF16},
    {"cast bf16 to f32", CAST, 1, 0, {0}, LT_BF16, LT_F32},
    {"cast f32 to f16", CAST, 1, 0, {0}, LT_F32, LT_F16},
    {"cast f16 to f32", CAST, 1, 0, {0}, LT_F16, LT_F32},
    {"cast f32 to f8_e4m3", CAST, 1, 0, {0}, LT_F32, LT_F8_E4M3},
    {"cast f8_e4m3 to f32", CAST, 1, 0, {0}, LT_F8_E4M3, LT_F32},
};
#define NUM_CASES ((int)(sizeof cases / sizeof cases[0]))

typedef struct options {
  int64_t size_mib;
  int reps, threads;
  const char *svg;
  bool json;
} options;

/* The tensors a case copies between (*from into *to) over the f32
 * buffers src and dst of n elements; casts get tensors of their own. */
static lt_status case_tensors(const bench_case *c, lt_tensor *src, lt_tensor *dst, lt_tensor **from,
                              lt_tensor **to) {
  int64_t n = lt_numel(src), shape[4];
  lt_tensor *base = NULL;
  *from = *to = NULL;
  switch (c->kind) {
  case STRIDED:
    *from = lt_slice(src, 0, LT_NONE, LT_NONE, c->stride);
    break;
  case PERMUTE:
    measure_permute_shape(c->ndim, n, shape);
    base = measure_prefix(src, c->ndim, shape);
    if (base) *from = lt_permute(base, c->perm);
    break;
  case CAST:
    *from = c->from == LT_F32 ? lt_retain(src) : lt_cast(src, c->from, LT_CAST_DEFAULT);
    if (*from) *to = c->to == LT_F32 ? lt_retain(dst) : lt_empty(c->to, 1, &n, LT_HOST);
    break;
  }
  lt_release(base);
  if (*from && !*to) *to = measure_prefix(dst, lt_ndim(*from), lt_shape(*from));
  if (*from && *to) return LT_OK;
  lt_release(*from);
  lt_release(*to);
  *from = *to = NULL;
  return lt_last_status();
}

/* Measures one case into r, each sample beside a memcpy sample of the
 * n-float buffers (measure_paired): on a loaded machine bandwidth drifts
 * from second to second, so each ratio compares with memcpy run in turn
 * with it. False with the error printed. */
static bool measure_case(const options *o, const bench_case *c, lt_tensor *src, lt_tensor *dst, bench_result *r) {
  lt_tensor *from, *to;
  if (case_tensors(c, src, dst, &from, &to) != LT_OK) {
    fprintf(stderr, "\nltx bench: %s: %s\n", c->name, lt_last_error());
    return false;
  }
  measure_memcpy m = {lt_data(dst), lt_data(src), (size_t)lt_numel(src) * 4, o->threads};
  measure_copy copy = {to, from};
  measure_pair p;
  bool ok = measure_paired(measure_copy_batch, &copy, measure_memcpy_batch, &m, o->reps, &p) == 0;
  if (!ok) fprintf(stderr, "\nltx bench: %s or its memcpy failed: %s\n", c->name, lt_last_error());
  int64_t numel = lt_numel(from);
  *r = (bench_result){.name = c->name,
                      .group = c->kind == STRIDED ? BENCH_STRIDE : c->kind == PERMUTE ? BENCH_PERMUTE : BENCH_CAST,
                      .stride = c->stride,
                      .bytes = numel * (int64_t)(lt_dtype_size(lt_dtype_of(from)) + lt_dtype_size(lt_dtype_of(to)))};
  if (ok) {
    double memcpy_bytes = 2.0 * (double)m.bytes;
    r->gbs = (double)r->bytes / p.seconds / 1e9;
    r->memcpy_gbs = memcpy_bytes / p.base_seconds / 1e9;
    r->ratio = p.speed * (double)r->bytes / memcpy_bytes;
  }
  lt_release(from);
  lt_release(to);
  return ok;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The median of the memcpy runs, as the run's one memcpy figure. */
static double median_memcpy(const bench_run *run) {
  double v[BENCH_MAX_CASES];
  for (int i = 0; i < run->n; i++) v[i] = run->r[i].memcpy_gbs;
  qsort(v, (size_t)run->n, sizeof v[0], cmp_double);
  return run->n % 2 ? v[run->n / 2] : 0.5 * (v[run->n / 2 - 1] + v[run->n / 2]);
}

/* The largest CPU cache Linux reports for cpu0, in bytes; 0 if none. */
static int64_t largest_cache(void) {
  int64_t best = 0;
  for (int i = 0; i < 8; i++) {
    char path[96];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
    FILE *f = fopen(path, "r");
    if (!f) continue;
    long long v = 0;
    char unit = 0;
    if (fscanf(f, "%lld%c", &v, &unit) >= 1) {
      int64_t bytes = v * (unit == 'K' ? 1024 : unit == 'M' ? 1 << 20 : 1);
      if (bytes > best) best = bytes;
    }
    fclose(f);
  }
  return best;
}

/* Every case, with a progress line on stderr for each. */
static int run_all(const options *o, bench_run *run) {
  int64_t n = (o->size_mib << 20) / 4;
  int rc = 1;
  double t0 = measure_now();
  *run = (bench_run){.size_mib = o->size_mib, .threads = o->threads, .reps = o->reps, .cache_bytes = largest_cache()};
  fprintf(stderr, "ltx bench: %d cases at %lld MiB, %d thread%s; progress below, the table at the end\n",
          NUM_CASES, (long long)o->size_mib, o->threads, o->threads > 1 ? "s" : "");
  lt_tensor *src = measure_touched_f32(n, true), *dst = src ? measure_touched_f32(n, false) : NULL;
  if (!dst) {
    fprintf(stderr, "ltx bench: %s\n", lt_last_error());
    goto done;
  }
  for (int i = 0; i < NUM_CASES; i++) {
    fprintf(stderr, "ltx bench: [%2d/%d] %s ...", i + 1, NUM_CASES, cases[i].name);
    bench_result *r = &run->r[run->n];
    if (!measure_case(o, &cases[i], src, dst, r)) goto done;
    fprintf(stderr, " %.2f GB/s, memcpy %.2f GB/s (%.1f s)\n", r->gbs, r->memcpy_gbs, measure_now() - t0);
    run->n++;
  }
  run->memcpy_gbs = median_memcpy(run);
  run->seconds = measure_now() - t0;
  fprintf(stderr, "ltx bench: done in %.1f s\n", run->seconds);
  rc = 0;
done:
  lt_release(src);
  lt_release(dst);
  return rc;
}

static int usage(void) {
  fprintf(stderr, "usage: ltx bench [--size MIB] [--reps 1..%d] [--threads 1..%d] [--svg FILE] [--json]\n"
                  "  defaults: --size 64 --reps 5 --threads 1; --svg writes a chart a browser shows\n",
          MEASURE_MAX_REPS, MEASURE_MAX_THREADS);
  return 2;
}

/* A whole positive integer in [lo, hi], or -1. */
static int64_t bounded(const char *s, int64_t lo, int64_t hi) {
  char *end;
  long long v = strtoll(s, &end, 10);
  return end != s && !*end && v >= lo && v <= hi ? v : -1;
}

static bool parse(int argc, char **argv, options *o) {
  *o = (options){.size_mib = 64, .reps = 5, .threads = 1};
  for (int i = 0; i < argc; i++) {
    bool more = i + 1 < argc;
    if (!strcmp(argv[i], "--json")) o->json = true;
    else if (!strcmp(argv[i], "--svg") && more) o->svg = argv[++i];
    else if (!strcmp(argv[i], "--size") && more) o->size_mib = bounded(argv[++i], 1, 65536);
    else if (!strcmp(argv[i], "--reps") && more) o->reps = (int)bounded(argv[++i], 1, MEASURE_MAX_REPS);
    else if (!strcmp(argv[i], "--threads") && more) o->threads = (int)bounded(argv[++i], 1, MEASURE_MAX_THREADS);
    else return false;
  }
  return o->size_mib > 0 && o->reps > 0 && o->threads > 0;
}

int ltx_bench(int argc, char **argv) {
  options o;
  if (!parse(argc, argv, &o)) return usage();
  /* libtensor gets as many threads as the memcpy it is compared with. */
  if (lt_set_num_threads(o.threads) != LT_OK) return fprintf(stderr, "ltx bench: %s\n", lt_last_error()), 1;
  FILE *svg = NULL;
  if (o.svg && !(svg = fopen(o.svg, "w"))) return fprintf(stderr, "ltx bench: cannot write %s\n", o.svg), 1;
  bench_run *run = malloc(sizeof *run);
  int rc = run ? run_all(&o, run) : 1;
  if (rc == 0) {
    if (o.json) bench_print_json(stdout, run);
    else bench_print_table(stdout, run);
    if (svg) bench_write_svg(svg, run);
  }
  if (svg && (fclose(svg) || rc)) {
    if (rc == 0) fprintf(stderr, "ltx bench: could not finish writing %s\n", o.svg), rc = 1;
    remove(o.svg);
  } else if (svg && !o.json) {
    printf("\nchart: %s (open it in a browser)\n", o.svg);
  }
  free(run);
  return rc;
}
