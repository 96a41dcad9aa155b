/* Internal: strided runs gathered into (or scattered from) dense ones,
 * the inner loop of copies whose source steps by a few elements (a slice
 * with step 2, a reversed dim, an interleaved channel). */
#ifndef LT_GATHER_H
#define LT_GATHER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* dst[i] = src[i * stride] for 0 <= i < n, elements of es bytes (1, 2, 4
 * or 8); stride in elements, any value. dst and src need only their
 * element alignment and must not overlap. cached: the copy's source
 * stays in cache (lt__outgrows_cache is false), which with the step's
 * length picks the loop for the strides without one of their own. */
void lt__gather(void *dst, const void *src, int64_t stride, int64_t n, size_t es, bool cached);
/* dst[i * stride] = src[i], the same way round; cached: the copy's
 * destination stays in cache. */
void lt__scatter(void *dst, int64_t stride, const void *src, int64_t n, size_t es, bool cached);

#endif
