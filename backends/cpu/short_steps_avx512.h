/* Internal: gathers and scatters whose step puts four or more elements in
 * each 64-byte line, on AVX-512. A vector of dense elements meets exactly
 * `stride` 64-byte chunks of the stepped side, and each chunk's elements
 * move to or from their lanes in one permute: a scatter writes each chunk
 * with one masked store, a gather merges each whole chunk it loads into
 * the output vector under a mask, where the scalar loops move one element
 * at a time. */
#ifndef LT_SHORT_STEPS_AVX512_H
#define LT_SHORT_STEPS_AVX512_H

#include <stddef.h>
#include <stdint.h>

/* The longest step taken, in elements: 16 bytes of 1-byte elements. */
#define LT__MASKED_MAX_STRIDE 16

/* dst[i * stride] = src[i]. es is 1 (where the CPU has AVX512-VBMI), 2 or
 * 4, and 2 <= stride <= 16 / es; n >= 0. dst and src need only their
 * element alignment and must not overlap. ahead: 0, or how many bytes
 * past each chunk to ask for lines for writing (a destination in
 * memory). */
void lt__scatter_masked(void *dst, int64_t stride, const void *src, int64_t n, size_t es, int64_t ahead);

/* dst[i] = src[i * stride], on the same terms. No byte of src past
 * element (n - 1) * stride is read. */
void lt__gather_masked(void *dst, const void *src, int64_t stride, int64_t n, size_t es);

#endif
