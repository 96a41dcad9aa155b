/* Internal: true transposes of the CPU strided copy, done by the 2-D tile
 * kernels (transpose/) over the dims that are unit-stride on each side. */
#ifndef LT_TILED_TRANSPOSE_H
#define LT_TILED_TRANSPOSE_H

#include <stdbool.h>
#include <stdint.h>

#include "dispatch.h"

/* Does the copy a (numel elements, bytes read plus written) if the tile
 * kernels can, over every index of its other dims, or through a group of
 * the destination's inner dims where its unit-stride dim is shorter than
 * a tile (grouped_transpose.c), or a few channels at a time
 * (channel_transpose.c); says whether it did (channels it may leave to
 * the strided copy's gathers). Cannot fail. */
bool lt__tiled_transpose(const lt__copy_args *a, int64_t numel, int64_t bytes);

#endif
