/* Internal: the copy planner. Pure (layouts in, a plan out; no memory, no
 * devices), next to layout.c and tested the same way. It puts the dims in
 * the order the destination is laid out, merges dims contiguous on both
 * sides, and says which kind of loop the copy needs, so that each backend
 * can pick its kernel per kind. */
#ifndef LT_COPY_PLAN_H
#define LT_COPY_PLAN_H

#include <stdint.h>

#include "libtensor/types.h"

typedef enum lt__copy_kind_of_loop {
  LT__PLAN_EMPTY,      /* no elements */
  LT__PLAN_SPAN,       /* one dense span on both sides (a memcpy when the dtypes agree) */
  LT__PLAN_RUNS,       /* dense innermost runs on both sides, strided outer dims */
  LT__PLAN_TRANSPOSE,  /* the source's unit-stride dim is not the destination's */
  LT__PLAN_STRIDED     /* anything else: an innermost dim strided on at least one side */
} lt__copy_kind_of_loop;

typedef struct lt__copy_plan {
  lt__copy_kind_of_loop kind;
  int ndim;                   /* after dropping size-1 dims and merging */
  int64_t shape[LT_MAX_DIMS]; /* outermost first, in the destination's order */
  int64_t dst_strides[LT_MAX_DIMS];
  int64_t src_strides[LT_MAX_DIMS];
  int transpose_dim;          /* TRANSPOSE: the dim with source stride 1 (the innermost has dst stride 1) */
} lt__copy_plan;

/* Plans copying shape (ndim dims) from src_strides to dst_strides, both in
 * elements (negative allowed; src may have 0). */
void lt__plan_copy(int ndim, const int64_t *shape, const int64_t *dst_strides, const int64_t *src_strides,
                   lt__copy_plan *plan);

#endif
