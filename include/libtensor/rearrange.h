/* libtensor: einops-style rearrange, repeat and reduce. Patterns use the
 * full einops grammar: names, parenthesised compositions on either side,
 * `...` (also inside parentheses on the right), the unit axis `1` and
 * `()`, anonymous numeric axes, and lengths given in `axes`. Results match
 * einops on NumPy value for value. Errors: LT_ERR_PATTERN (syntax, unknown
 * or duplicate names) or LT_ERR_SHAPE (lengths that do not divide or
 * match); the message quotes the pattern with a caret under the fault.
 * Patterns are parsed once per process (an LRU cache keyed by pattern and
 * op); all three functions are thread-safe. */
#ifndef LIBTENSOR_REARRANGE_H
#define LIBTENSOR_REARRANGE_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A named axis length, e.g. {"h", 12}. */
typedef struct lt_axis {
  const char *name;
  int64_t size;
} lt_axis;

/* Reorders, splits and merges axes. A view whenever one can express the
 * result (the lt_view rule), else one implicit copy (counted, traced,
 * refused under LT_COPY_FORBID). */
LT_API lt_tensor *lt_rearrange(const lt_tensor *t, const char *pattern, const lt_axis *axes, int naxes);
/* As lt_rearrange, and may add axes (named with a length in axes, or
 * numeric) and repeat existing ones inside compositions: `(r h)` tiles,
 * `(h r)` repeats each element. A stride-0 view whenever a view can
 * express the result (einops on NumPy would copy), else one implicit copy. */
LT_API lt_tensor *lt_repeat(const lt_tensor *t, const char *pattern, const lt_axis *axes, int naxes);

typedef enum lt_reduction { LT_SUM, LT_MEAN, LT_MAX, LT_MIN, LT_PROD } lt_reduction;
/* Removes the axes missing on the right with op. Floats accumulate in
 * double (F16/BF16/FP8 and F32 alike) and round once; integers accumulate
 * in int64 and wrap on store; LT_MEAN reducing an integer dtype is
 * LT_ERR_DTYPE.
 * Over an empty axis: sum 0, prod 1, mean NaN, max/min LT_ERR_SHAPE.
 * Always a new tensor when something is reduced; with nothing to reduce it
 * is lt_rearrange. */
LT_API lt_tensor *lt_reduce(const lt_tensor *t, const char *pattern, lt_reduction op, const lt_axis *axes,
                            int naxes);

/* Frees every parsed pattern the cache holds (patterns parse again on
 * next use). For embedders that account for every byte, and for leak
 * checks. Thread-safe. */
LT_API void lt_pattern_cache_clear(void);

#ifdef __cplusplus
}
#endif
#endif
