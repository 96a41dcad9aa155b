/* bench/rearrange: the fixed cost of a cached lt_rearrange beside the
 * hand-written lt_view/lt_permute chain that does the same, in the same
 * run (median of repeats). Both return views; no data moves.
 * Usage: bench_rearrange [--json] [--calls N] */
#define _POSIX_C_SOURCE 199309L
#include <libtensor.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "measure.h"

#define REPS 9

typedef lt_tensor *(*make_fn)(const lt_tensor *x);

/* Median ns per call of f over `calls` calls, REPS times. */
static double ns_per_call(make_fn f, const lt_tensor *x, long calls) {
  double t[REPS];
  for (int r = 0; r < REPS; r++) {
    double t0 = measure_now();
    for (long i = 0; i < calls; i++) lt_release(f(x));
    t[r] = (measure_now() - t0) / (double)calls * 1e9;
  }
  return measure_median(t, REPS);
}

/* b t (h d) -> b h t d, h = 12, on [2, 128, 768] */
static lt_tensor *heads_rearrange(const lt_tensor *x) {
  return lt_rearrange(x, "b t (h d) -> b h t d", (lt_axis[]){{"h", 12}}, 1);
}
static lt_tensor *heads_by_hand(const lt_tensor *x) {
  lt_tensor *v = lt_view(x, 4, (int64_t[]){2, 128, 12, 64});
  lt_tensor *p = lt_permute(v, (int[]){0, 2, 1, 3});
  lt_release(v);
  return p;
}

/* b c h w -> b (h w) c on [8, 64, 32, 32] */
static lt_tensor *tokens_rearrange(const lt_tensor *x) {
  return lt_rearrange(x, "b c h w -> b (h w) c", NULL, 0);
}
static lt_tensor *tokens_by_hand(const lt_tensor *x) {
  lt_tensor *p = lt_permute(x, (int[]){0, 2, 3, 1});
  lt_tensor *v = lt_view(p, 3, (int64_t[]){8, 1024, 64});
  lt_release(p);
  return v;
}

typedef struct bench_case {
  const char *pattern;
  int ndim;
  int64_t shape[4];
  make_fn ours, by_hand;
} bench_case;

int main(int argc, char **argv) {
  bool json = false;
  long calls = 200000;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--json")) json = true;
    else if (!strcmp(argv[i], "--calls") && i + 1 < argc) calls = atol(argv[++i]);
    else return fprintf(stderr, "usage: %s [--json] [--calls N]\n", argv[0]), 2;
  }
  if (calls < 1) return fprintf(stderr, "--calls must be positive\n"), 2;
  static const bench_case cases[] = {
      {"b t (h d) -> b h t d", 3, {2, 128, 768}, heads_rearrange, heads_by_hand},
      {"b c h w -> b (h w) c", 4, {8, 64, 32, 32}, tokens_rearrange, tokens_by_hand},
  };
  if (!json)
    printf("cached lt_rearrange vs the same views by hand, median of %d x %ld calls\n\n%-24s %12s %12s %8s\n", REPS,
           calls, "pattern", "rearrange ns", "by hand ns", "ratio");
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const bench_case *c = &cases[i];
    lt_tensor *x = lt_zeros(LT_F32, c->ndim, c->shape, LT_HOST);
    lt_tensor *a = c->ours(x), *b = c->by_hand(x);
    if (!a || !b) return fprintf(stderr, "%s: %s\n", c->pattern, lt_last_error()), 1;
    lt_release(a);
    lt_release(b);
    double ours = ns_per_call(c->ours, x, calls), hand = ns_per_call(c->by_hand, x, calls);
    if (json)
      printf("{\"bench\":\"rearrange\",\"pattern\":\"%s\",\"rearrange_ns\":%.1f,\"by_hand_ns\":%.1f,\"ratio\":%.3f}\n",
             c->pattern, ours, hand, ours / hand);
    else
      printf("%-24s %12.1f %12.1f %7.2fx\n", c->pattern, ours, hand, ours / hand);
    lt_release(x);
  }
  lt_pattern_cache_clear();
  return 0;
}
