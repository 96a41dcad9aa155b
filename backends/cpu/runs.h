/* Internal: many short dense runs copied by one call, the inner loop of
 * copies that keep a dense inner dim (a permutation of outer dims, an
 * expand). */
#ifndef LT_RUNS_H
#define LT_RUNS_H

#include <stddef.h>
#include <stdint.h>

/* The runs' places: n steps of an outer loop, each of k runs (an inner
 * loop); run (i, j) starts i * step + j * inner bytes into its side. */
typedef struct lt__runs {
  int64_t n, dst_step, src_step;
  int64_t k, dst_inner, src_inner;
} lt__runs;

/* Copies every run of w, bytes each, from src to dst, i outer and j
 * inner. No destination run may overlap another or any source run; a
 * source run may be read many times (steps of 0: an expand). */
void lt__copy_runs(char *dst, const char *src, size_t bytes, const lt__runs *w);

#endif
