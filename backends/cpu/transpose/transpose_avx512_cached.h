/* Internal to transpose_avx512.c (compiled with its AVX-512 flags),
 * included once after transpose_avx512_staged.h: the cached walks
 * (lt__tiles_cached) for F32 tiles with a plain tile inlined, which
 * lt__transpose_tiled takes on Zen 4 (lt__zen4_f32) through
 * lt__own_walks. The kernel's tile (tile4_rows) serves every walk, so
 * it is called through a pointer and picks its stores per tile; cached
 * tiles always take plain stores, one tile at a time. Zen 4, one
 * thread, a switch flipped sample by sample in one process (20
 * samples, two processes a shape unless one figure), speed ratio generic
 * -> this: the 2-D transpose of 512 x 512 (bench_access's at 1 MiB)
 * 1.11-1.14, 300 x 300 1.19, 1024 x 256 1.12; 64^3 (0,2,1) 1.06-1.14,
 * (1,2,0) 1.06-1.29, (2,0,1) 1.00-1.01, (2,1,0) 1.00; [16, 256, 64]
 * (0,2,1) 1.08; BHTD [4, 12, 85, 64] (0,2,3,1) and (3,2,1,0)
 * 1.00. bench_access at 1 MiB, the two in turn, two runs
 * each: (1,2,0) 0.60 -> 0.71-0.74 of memcpy, the rest within the runs'
 * spread. Intel cores and Zen 5 keep the generic walks (not measured
 * there). Destination rows within 32 bytes of a multiple of 4 KiB
 * (lt__rows_near_pages, walked along the source's rows) keep the
 * generic walk: there the copy measured mixed, and behind at two
 * threads (BHTD (0,3,1,2) of [4, 12, 85, 64], three processes each: one
 * thread 1.05-1.18, two 0.61-0.85; 1020 x 64 0.91-0.98; 1030 x 64
 * 1.08). */
#ifndef LT_TRANSPOSE_AVX512_CACHED_H
#define LT_TRANSPOSE_AVX512_CACHED_H

#include <immintrin.h>
#include <stdint.h>

#include "transpose_tiled.h"

/* One 16 x 16 tile with plain stores: out->segs is 1 and out->dst any
 * address (the cached walks' tiles, lt__tile_at). The pointers step by
 * the leading dimensions, as stage_tile4's do: a form that addressed
 * row i at src + i * sld spilled registers in one build and ran at a
 * quarter of memcpy. */
static inline __attribute__((always_inline)) void plain_tile4(const lt__tile_out *out, const char *src, int64_t sld) {
  __m512 r[16];
  const char *p = src;
  LT__UNROLL for (int i = 0; i < 16; i++, p += sld) r[i] = _mm512_loadu_ps(p);
  transpose16_ps(r);
  char *d = out->dst;
  const int64_t dld = out->dld;
  LT__UNROLL for (int j = 0; j < 16; j++, d += dld) _mm512_storeu_ps((float *)(void *)d, r[j]);
}

static void cached4(const lt__tiling *g, bool banded) { lt__tiles_cached(g, plain_tile4, banded, 4); }

static const lt__own_walks walks4 = {.staged = staged4, .cached = cached4};

#endif
