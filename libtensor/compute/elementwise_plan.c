/* The elementwise planner: pure, like the copy planner next to layout.c.
 * Iterating in dst's order keeps the writes sequential; merging dims
 * shortens the odometer to the few real loops; and an input whose
 * unit-stride dim is not dst's (a transposed operand) is marked for 2-D
 * tiles, since reading it along the innermost dim would touch one element
 * per cache line. */
#include <stdlib.h>

#include "compute_impl.h"
#include "layout.h"

/* Moves dim `from` to position `to` (shifting the dims between) in every
 * operand. */
static void move_dim(lt__ew_args *a, int nops, int from, int to) {
  int step = from < to ? 1 : -1;
  for (int d = from; d != to; d += step) {
    int64_t t = a->shape[d];
    a->shape[d] = a->shape[d + step];
    a->shape[d + step] = t;
    for (int k = 0; k < nops; k++) {
      t = a->strides[k][d];
      a->strides[k][d] = a->strides[k][d + step];
      a->strides[k][d + step] = t;
    }
  }
}

/* Stable insertion sort of the dims by |dst stride|, largest first (dims
 * of size 1 have arbitrary strides; coalescing drops them next). */
static void order_by_dst(lt__ew_args *a, int nops) {
  for (int i = 1; i < a->ndim; i++) {
    int j = i;
    while (j > 0 && lt__stride_mag(a->strides[0][j - 1]) < lt__stride_mag(a->strides[0][j])) {
      move_dim(a, nops, j, j - 1);
      j--;
    }
  }
}

/* The first input that is strided along the innermost dim but has unit
 * stride along another, and that dim; 0 when none. */
static int transposed_input(const lt__ew_args *a, int *dim) {
  int inner = a->ndim - 1;
  for (int k = 1; k <= a->ninputs; k++) {
    int64_t s = a->strides[k][inner];
    if (s <= 1) continue; /* broadcast, dense, or reversed: no tile helps */
    for (int d = inner - 1; d >= 0; d--)
      if (a->strides[k][d] == 1) {
        *dim = d;
        return k;
      }
  }
  return 0;
}

void lt__plan_elementwise(lt__ew_args *a) {
  int nops = a->ninputs + 1;
  order_by_dst(a, nops);
  int64_t *strides[3] = {a->strides[0], a->strides[1], a->strides[2]};
  a->ndim = lt__coalesce(a->ndim, a->shape, nops, strides);
  a->tiled = 0;
  if (a->ndim < 2 || a->strides[0][a->ndim - 1] != 1) return;
  int dim = 0;
  int k = transposed_input(a, &dim);
  if (k == 0) return;
  move_dim(a, nops, dim, a->ndim - 2);
  a->tiled = k;
}
