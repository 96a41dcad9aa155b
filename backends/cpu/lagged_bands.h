/* Internal to the tiled transposes (tiled_transpose.c): which streamed
 * transposes go in lagged bands (lagged_bands.c). */
#ifndef LT_LAGGED_BANDS_H
#define LT_LAGGED_BANDS_H

#include <stdbool.h>
#include <stdint.h>

#include "dispatch.h"

/* Whether a streamed transpose a of es-byte elements, outer indices in
 * all, goes in lagged bands of LT__LAGGED_ROWS source rows through
 * lt__transpose_lagged_kernel (band: banded_rows's answer for it). */
bool lt__lagged_band(const lt__copy_args *a, int64_t es, int64_t outer, int64_t band);

#endif
