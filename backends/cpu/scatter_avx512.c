/* Scatters with short steps, on AVX-512 (see scatter_avx512.h).
 * Compiled with -mavx512f -mavx512bw; the 1-byte path also takes
 * AVX512-VBMI, for its byte permutes, in its own function. Called only
 * after the CPU says it has what the path needs. */
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
  uint64_t lanes[LT__SCATTER_MASKED_MAX_STRIDE];
} chunk_tables;

/* Every pattern, built once (28 KiB, on the first such scatter): steps
 * 2-16 of bytes, 2-8 of halves, 2-4 of words, in that order. Built per
 * call, they cost a row of a few hundred bytes more than its stores do. */
enum { NUM_PATTERNS = 15 + 7 + 3 };
static chunk_tables tables[NUM_PATTERNS];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static chunk_tables *tables_for(size_t es, int64_t stride) {
  static const int first[3] = {0, 15, 22}; /* by log2(es) */
  return &tables[first[es == 1 ? 0 : es == 2 ? 1 : 2] + stride - 2];
}

static void build_tables(void) {
  for (int w = 0; w < 3; w++) {
    int es = 1 << w, lanes = 64 / es;
    for (int stride = 2; stride * es <= 16; stride++) {
      chunk_tables *t = tables_for((size_t)es, stride);
      memset(t, 0, sizeof *t);
      for (int j = 0; j < lanes; j++) {
        int e = j * stride, k = e / lanes, l = e % lanes; /* source lane j's place */
        if (es == 1) t->perm[k][l] = (unsigned char)j;
        else if (es == 2) ((uint16_t *)(void *)t->perm[k])[l] = (uint16_t)j;
        else ((uint32_t *)(void *)t->perm[k])[l] = (uint32_t)j;
        t->lanes[k] |= 1ull << l;
      }
    }
  }
}

/* Writes lanes `lanes` of v, permuted by idx, to the chunk at p: the
 * other lanes are neither read nor written. */
static inline __attribute__((always_inline)) void store_chunk(char *p, uint64_t lanes, __m512i idx, __m512i v,
                                                              size_t es) {
  if (es == 2) _mm512_mask_storeu_epi16(p, (__mmask32)lanes, _mm512_permutexvar_epi16(idx, v));
  else _mm512_mask_storeu_epi32(p, (__mmask16)lanes, _mm512_permutexvar_epi32(idx, v));
}

/* The same for bytes, whose permute is AVX512-VBMI's. */
__attribute__((target("avx512vbmi"))) static inline void store_byte_chunk(char *p, uint64_t lanes, __m512i idx,
                                                                         __m512i v, size_t es) {
  (void)es;
  _mm512_mask_storeu_epi8(p, (__mmask64)lanes, _mm512_permutexvar_epi8(idx, v));
}

/* Whole vectors of source, each through STORE, then the last n % L
 * elements one at a time (d, stride, s, n in scope). */
#define SCATTER_CHUNKS(STORE, ES)                                                                                      \
  do {                                                                                                                 \
    const int64_t lanes = 64 / (ES), e = (ES);                                                                         \
    const chunk_tables *t = tables_for((ES), stride);                                                                  \
    __m512i idx[LT__SCATTER_MASKED_MAX_STRIDE];                                                                        \
    for (int64_t k = 0; k < stride; k++) idx[k] = _mm512_load_si512(t->perm[k]);                                       \
    int64_t i = 0;                                                                                                     \
    for (; i + lanes <= n; i += lanes) {                                                                               \
      __m512i v = _mm512_loadu_si512(s + i * e);                                                                       \
      char *p = d + i * stride * e;                                                                                    \
      for (int64_t k = 0; k < stride; k++) STORE(p + k * 64, t->lanes[k], idx[k], v, (ES));                           \
    }                                                                                                                  \
    for (; i < n; i++) memcpy(d + i * stride * e, s + i * e, (ES));                                                    \
  } while (0)

__attribute__((target("avx512vbmi"))) static void scatter_bytes(char *d, int64_t stride, const char *s, int64_t n) {
  SCATTER_CHUNKS(store_byte_chunk, 1);
}

static void scatter_halves(char *d, int64_t stride, const char *s, int64_t n) { SCATTER_CHUNKS(store_chunk, 2); }
static void scatter_words(char *d, int64_t stride, const char *s, int64_t n) { SCATTER_CHUNKS(store_chunk, 4); }

void lt__scatter_masked(void *dst, int64_t stride, const void *src, int64_t n, size_t es) {
  pthread_once(&tables_once, build_tables);
  if (es == 1) scatter_bytes(dst, stride, src, n);
  else if (es == 2) scatter_halves(dst, stride, src, n);
  else scatter_words(dst, stride, src, n);
}
