/* Internal to the tiled transposes (tiled_transpose.c, and the lagged
 * bands in lagged_bands.c): how the tile kernels' calls go over a copy. */
#ifndef LT_TILE_JOB_H
#define LT_TILE_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "dispatch.h"
#include "odometer.h"
#include "transpose.h"

/* A true transpose a, done by the tile kernels (see tiled_transpose.c). */
typedef struct lt__tile_job {
  const lt__copy_args *a;
  lt__transpose_fn fn;
  bool streamed; /* fn is lt__transpose_best_streamed's: fence after the last call */
  int64_t band;  /* source rows per call (see banded_rows); all of them unless banded */
  int64_t side;  /* slices a call may take side by side (see side_by_side); 1: one */
  lt__transpose_side_fn side_fn; /* NULL: side by side through fn, a slice at a time */
  lt__transpose_pair_fn pair_fn; /* NULL, or lagged bands through it (see lt__lagged_band) */
} lt__tile_job;

/* The steps of a lagged band: outer indices (the odometer's), or chunks
 * of chunk columns of a single transpose. */
typedef struct lt__lag_walk {
  lt__odometer o;
  int64_t chunk, col; /* chunk 0: outer indices */
} lt__lag_walk;

/* Whether a streamed transpose a of es-byte elements, outer indices in
 * all, goes in lagged bands (band: banded_rows's answer for it). */
bool lt__lagged_band(const lt__copy_args *a, int64_t es, int64_t outer, int64_t band);
/* n steps of w for a band of rows source rows at dst and src, its second
 * half one step behind its first. */
void lt__transpose_lagged(const lt__tile_job *j, char *dst, const char *src, int64_t rows, lt__lag_walk *w, int64_t n);
/* A pool task (ctx: the lt__tile_job of a single transpose): its bands
 * [b0, b1) of source rows, lagged; fenced. */
void lt__transpose_lagged_rows(void *ctx, int64_t b0, int64_t b1);

#endif
