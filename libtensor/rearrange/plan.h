/* Internal: the planner. Pure (no tensors, no allocation): (AST, input
 * shape, axis lengths) -> a recipe of at most one split of the input into
 * elementary axes, one permute with new stride-0 axes (repeat), one
 * reduction, and one final composition. */
#ifndef LT_PLAN_H
#define LT_PLAN_H

#include "libtensor/rearrange.h"
#include "pattern.h"

typedef struct lt__recipe {
  /* 1. The input viewed as its elementary axes (compositions split, unit
   *    dims dropped). Always a view. */
  int n_elem;
  int64_t elem_shape[LT_MAX_DIMS];
  /* 2. The axes in output order: an elementary axis, or -1 for a new axis
   *    of repeat (stride 0). */
  int n_mid;
  int mid_src[LT_MAX_DIMS];
  int64_t mid_shape[LT_MAX_DIMS];
  /* 3. Elementary axes reduced away (reduce only), in input order;
   *    `reduces` also counts unit axes, which need no folding. */
  int n_reduced;
  int reduced[LT_MAX_DIMS];
  bool reduces;
  /* 4. The output shape: the right side's compositions. */
  int n_out;
  int64_t out_shape[LT_MAX_DIMS];
} lt__recipe;

/* Axes of length 1 take no place in the recipe (they add nothing to a
 * layout), so that a pattern may name more unit axes than LT_MAX_DIMS. */

/* Plans `ast` (already through lt__check_ast for op) for an input of
 * shape, with axis lengths axes[0..naxes). False with *err set:
 * LT_ERR_PATTERN (names, lengths missing), LT_ERR_SHAPE (dims, lengths
 * that do not match or divide), LT_ERR_ARG (NULL names). */
bool lt__plan(const lt__ast *ast, lt__pattern_op op, int ndim, const int64_t *shape, const lt_axis *axes,
              int naxes, lt__recipe *r, lt__pattern_error *err);

#endif
