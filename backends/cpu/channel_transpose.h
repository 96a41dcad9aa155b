/* Internal: transposes of a few interleaved channels (channel_transpose.c),
 * ahead of the tile kernels (tiled_transpose.c). */
#ifndef LT_CHANNEL_TRANSPOSE_H
#define LT_CHANNEL_TRANSPOSE_H

#include <stdint.h>

#include "dispatch.h"

/* Where lt__channel_transpose leaves a true transpose: to the tile
 * kernels, to the strided copy's gathers, or done. */
typedef enum lt__channels { LT__CHANNELS_TILES, LT__CHANNELS_GATHERS, LT__CHANNELS_DONE } lt__channels;

/* A tileable transpose a (numel elements, bytes read plus written) whose
 * source unit dim holds 2 to 8 channels: says which way it goes, and
 * does it where that way is blocks of pixels. Cannot fail. */
lt__channels lt__channel_transpose(const lt__copy_args *a, int64_t numel, int64_t bytes);

#endif
