/* Scatters with short steps into a destination in cache, on AVX-512 (see
 * scatter_avx512.h). Compiled with -mavx512f -mavx512bw; called only
 * after the CPU says it has both. */
#include "scatter_avx512.h"

#include <immintrin.h>
#include <pthread.h>
#include <string.h>

/* A vector of source, L elements of es bytes (16 F32, say), lands in
 * exactly `stride` 64-byte chunks of the destination. Chunk k's lane l
 * is destination element k * L + l: source element (k * L + l) / stride
 * where that divides, else a lane left alone. A chunk's table gives the
 * source lane of each of its lanes (its permute, lanes of es bytes) and
 * the lanes it writes (its mask), the same for every vector. */
typedef struct chunk_tables {
  _Alignas(64) unsigned char perm[LT__SCATTER_MASKED_MAX_STRIDE][64];
  uint32_t lanes[LT__SCATTER_MASKED_MAX_STRIDE];
} chunk_tables;

/* Every pattern, built once: [0] 2-byte, [1] 4-byte elements, by stride.
 * Built per call, they cost a row of a few hundred bytes more than its
 * stores do. */
static chunk_tables tables[2][LT__SCATTER_MASKED_MAX_STRIDE + 1];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void build_tables(void) {
  for (int w = 0; w < 2; w++) {
    int es = w ? 4 : 2, lanes = 64 / es;
    for (int stride = 2; stride * es <= 16; stride++) {
      chunk_tables *t = &tables[w][stride];
      memset(t, 0, sizeof *t);
      for (int j = 0; j < lanes; j++) {
        int e = j * stride, k = e / lanes, l = e % lanes; /* source lane j's place */
        if (es == 2)
          ((uint16_t *)(void *)t->perm[k])[l] = (uint16_t)j;
        else
          ((uint32_t *)(void *)t->perm[k])[l] = (uint32_t)j;
        t->lanes[k] |= 1u << l;
      }
    }
  }
}

/* Writes lanes `lanes` of v, permuted by idx, to the chunk at p: the
 * other lanes are neither read nor written. */
static inline void store_chunk(char *p, uint32_t lanes, __m512i idx, __m512i v, size_t es) {
  if (es == 2)
    _mm512_mask_storeu_epi16(p, (__mmask32)lanes, _mm512_permutexvar_epi16(idx, v));
  else
    _mm512_mask_storeu_epi32(p, (__mmask16)lanes, _mm512_permutexvar_epi32(idx, v));
}

/* Whole vectors of source, then the last n % L elements one at a time. */
static inline __attribute__((always_inline)) void scatter_as(char *d, int64_t stride, const char *s, int64_t n,
                                                             size_t es) {
  const int64_t lanes = 64 / (int64_t)es, e = (int64_t)es;
  const chunk_tables *t = &tables[es == 4][stride];
  __m512i idx[LT__SCATTER_MASKED_MAX_STRIDE];
  for (int64_t k = 0; k < stride; k++) idx[k] = _mm512_load_si512(t->perm[k]);
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    __m512i v = _mm512_loadu_si512(s + i * e);
    char *p = d + i * stride * e;
    for (int64_t k = 0; k < stride; k++) store_chunk(p + k * 64, t->lanes[k], idx[k], v, es);
  }
  for (; i < n; i++) memcpy(d + i * stride * e, s + i * e, es);
}

void lt__scatter_masked(void *dst, int64_t stride, const void *src, int64_t n, size_t es) {
  pthread_once(&tables_once, build_tables);
  if (es == 2)
    scatter_as(dst, stride, src, n, 2);
  else
    scatter_as(dst, stride, src, n, 4);
}
