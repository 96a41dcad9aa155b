/* Internal to the grouped transposes (grouped_transpose.c, the group's
 * rows in grouped_rows.c, and the band walk in grouped_bands.c): a
 * group's plan. */
#ifndef LT_GROUPED_PLAN_H
#define LT_GROUPED_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dispatch.h"
#include "transpose.h"

/* A call takes at most GROUP_MAX_ROWS rows (see grouped_transpose.c). */
enum { GROUP_MAX_ROWS = 512 };

/* A transpose of rows (the group's elements, from the innermost dims,
 * over which the destination is dense) by columns (dim k), the copy's
 * other dims walked around it. */
typedef struct lt__group_plan {
  const lt__copy_args *a;
  int k, first;      /* the source's unit dim; the group's outermost dim */
  int outer;         /* the dim just outside the group, taken q indices per call; -1: none */
  int64_t rows;      /* elements of the group: the 2-D transpose's rows */
  int64_t q;         /* indices of dim outer per call (1 without one) */
  int64_t q_lines;   /* the fewest that fill whole pairs of lines: q in BUF_BYTES */
  size_t long_bytes; /* the heap buffer q needs; 0: q == q_lines, BUF_BYTES on the stack */
  size_t es;
  bool streamed;      /* fn is lt__transpose_best_streamed's: fence after the last call */
  lt__transpose_fn fn;
  lt__transpose_seamed_fn seamed; /* the seamed kernel for streamed calls, or NULL (see seam_run_of) */
  lt__transpose_rows_fn in_place; /* the kernel that reads the rows where they lie, or NULL (see group_cols) */
  lt__transpose_rows_seamed_fn in_place_seamed; /* pulled into rows off lines: its kernel, or NULL */
  int64_t pull_rows;              /* streamed: bytes of each row a pulled block takes, or 0 (see pulls_blocks) */
  bool ask_l1;                    /* ask for the lines ahead into L1 (see ask_ahead) */
  bool bands;                     /* streamed: a band of rows at a time, in place (see lt__group_walks_bands) */
  int64_t row_at[GROUP_MAX_ROWS]; /* bytes from a call's first source element to each of its rows' */
} lt__group_plan;

/* Whether the destination's rows all begin on lines. */
static inline bool lt__group_rows_on_lines(const lt__copy_args *a, int64_t es) {
  return a->dst_strides[a->transpose_dim] * es % 64 == 0 && (uintptr_t)a->dst % 64 == 0;
}

/* The group of the copy a (grouped_rows.c): its first dim, its rows in
 * *rows, a tile's side being t; -1 where it has none. */
int lt__group_first(const lt__copy_args *a, int64_t t, int64_t *rows);
/* As lt__group_first, for a streamed copy whose inner dim is a tile's
 * side (the group then pulls its blocks or is not taken). */
int lt__tile_group_first(const lt__copy_args *a, int64_t t, int64_t *rows);
/* Sets g->outer, q, q_lines and long_bytes for g's group, the copy
 * streamed or not. */
void lt__group_take_outer(lt__group_plan *g, bool streamed);
/* Sets g->row_at for g's group and its q. */
void lt__group_fill_row_offsets(lt__group_plan *g);

/* Whether a streamed plan walks its rows in bands (grouped_bands.c), a
 * copy of bytes; its g->in_place must then be the streamed rows kernel. */
bool lt__group_walks_bands(const lt__group_plan *g, int64_t bytes);
/* One thread's share in bands: columns [c0, c1) of dim k, a whole number
 * of tiles, and indices [i0, i1) of dim outer, for every index of the
 * other dims outside the group and k; fenced. */
void lt__group_band_box(const lt__group_plan *g, int64_t c0, int64_t c1, int64_t i0, int64_t i1);

#endif
