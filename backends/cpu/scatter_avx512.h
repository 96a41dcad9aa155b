/* Internal: scatters, dst[i * stride] = src[i], whose step puts four or
 * more elements in each 64-byte line, on AVX-512: each vector of source
 * goes out as `stride` masked stores of whole chunks, each permuted so
 * that its elements sit in their lanes, where the scalar loops store one
 * element at a time. */
#ifndef LT_SCATTER_AVX512_H
#define LT_SCATTER_AVX512_H

#include <stddef.h>
#include <stdint.h>

/* The longest step taken, in elements: 16 bytes of 1-byte elements. */
#define LT__SCATTER_MASKED_MAX_STRIDE 16

/* es is 1 (where the CPU has AVX512-VBMI), 2 or 4, and 2 <= stride <=
 * 16 / es; n >= 0. dst and src need only their element alignment and
 * must not overlap. */
void lt__scatter_masked(void *dst, int64_t stride, const void *src, int64_t n, size_t es);

#endif
