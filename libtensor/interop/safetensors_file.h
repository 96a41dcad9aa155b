/* Internal: an open safetensors file over bytes in memory. lt_safetensors_open
 * maps the file; the fuzz target passes a heap copy instead, so that the
 * sanitizers see every read. */
#ifndef LT_INTEROP_SAFETENSORS_FILE_H
#define LT_INTEROP_SAFETENSORS_FILE_H

#include <stddef.h>

#include "libtensor/interop.h"

/* Parses data[0 .. size) as a safetensors file named path (for messages).
 * On success the file owns the bytes: release(data, size, ctx) runs when
 * the file is closed and its last view is gone. On failure (NULL, error
 * set) release is not called. */
lt_safetensors *lt__safetensors_from_memory(const void *data, size_t size,
                                            void (*release)(const void *data, size_t size, void *ctx),
                                            void *ctx, const char *path);

#endif
