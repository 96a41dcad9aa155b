/* Internal: the odometer the CPU copy loops share. It walks an index over
 * some dims of a copy's args, last dim fastest, moving a byte offset into
 * each side with it. */
#ifndef LT_ODOMETER_H
#define LT_ODOMETER_H

#include <stdbool.h>
#include <stdint.h>

#include "dispatch.h"

typedef struct lt__odometer {
  int64_t idx[LT_MAX_DIMS];
  int64_t dst_off, src_off; /* bytes from element (0,..,0) of each side */
} lt__odometer;

/* One step over dims [0, ndim) of a, leaving out dim skip (-1: none), on
 * elements of des and ses bytes. False after the last index, with every
 * index and offset back at 0. */
static inline bool lt__odometer_step(lt__odometer *o, const lt__copy_args *a, int ndim, int skip, int64_t des,
                                     int64_t ses) {
  for (int d = ndim - 1; d >= 0; d--) {
    if (d == skip) continue;
    o->dst_off += a->dst_strides[d] * des;
    o->src_off += a->src_strides[d] * ses;
    if (++o->idx[d] < a->shape[d]) return true;
    o->dst_off -= a->dst_strides[d] * des * a->shape[d];
    o->src_off -= a->src_strides[d] * ses * a->shape[d];
    o->idx[d] = 0;
  }
  return false;
}

/* The odometer over dims [0, ndim) of a, leaving out dim skip (-1:
 * none), at index i of their row-major order, on elements of des and
 * ses bytes: where a range of those indices starts. */
static inline lt__odometer lt__odometer_at(const lt__copy_args *a, int ndim, int skip, int64_t i, int64_t des,
                                           int64_t ses) {
  lt__odometer o = {.dst_off = 0};
  for (int d = ndim - 1; d >= 0; d--) {
    if (d == skip) continue;
    o.idx[d] = i % a->shape[d];
    i /= a->shape[d];
    o.dst_off += o.idx[d] * a->dst_strides[d] * des;
    o.src_off += o.idx[d] * a->src_strides[d] * ses;
  }
  return o;
}

#endif
