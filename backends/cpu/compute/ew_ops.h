/* Internal: the arithmetic of the elementwise ops on dense arrays of the
 * compute type, kept apart so that it can be built with the flags that
 * let the compiler vectorise it. */
#ifndef LT_EW_OPS_H
#define LT_EW_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include "dispatch.h"

/* y[i] = op(x0[i], x1[i]) for 0 <= i < n, on arrays of ct (LT_F32, LT_F64
 * or LT_I64); an input flagged scalar is read at [0] for every i; x1 is
 * unused by unary ops. y may be exactly x0 or x1 (in place), not partly
 * overlap them. */
void lt__ew_apply(lt__ew_op op, lt_dtype ct, void *y, const void *x0, bool scalar0, const void *x1,
                  bool scalar1, int64_t n);

/* Sums of n dense values in eight interleaved accumulators (each lane a
 * plain sequential sum, combined pairwise at the end), in the values' own
 * type: the building block of the reductions' blocked pairwise sums. */
float lt__sum_f32(const float *x, int64_t n);
double lt__sum_f64(const double *x, int64_t n);

#endif
