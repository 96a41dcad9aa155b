/* Gathers and scatters with short steps, on AVX-512 (see
 * short_steps_avx512.h). Compiled with -mavx512f -mavx512bw; the 1-byte
 * paths also take AVX512-VBMI, for its byte permutes, in functions of
 * their own. Called only after the CPU says it has what the path needs. */
#include "short_steps_avx512.h"

#include <immintrin.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>

/* A vector of L dense elements of es bytes (16 F32, say) meets exactly
 * `stride` 64-byte chunks of the stepped side: dense lane j is lane
 * (j * stride) % L of chunk (j * stride) / L. A chunk's table holds a
 * permute (lanes of es bytes) and a mask, the same for every vector. A
 * scatter permutes the dense vector into the chunk (chunk lane l takes
 * dense lane j) and the mask holds the chunk lanes written; a gather
 * permutes the chunk into the dense vector (dense lane j takes chunk lane
 * l) and the mask holds the dense lanes that the chunk feeds. */
typedef struct chunk_tables {
  _Alignas(64) unsigned char perm[LT__MASKED_MAX_STRIDE][64];
  uint64_t lanes[LT__MASKED_MAX_STRIDE];
} chunk_tables;

/* Every pattern of a direction, built once (28 KiB, on the first move
 * that way): steps 2-16 of bytes, 2-8 of halves, 2-4 of words, in that
 * order. Built per call, they cost a row of a few hundred bytes more
 * than its stores do. */
enum { NUM_PATTERNS = 15 + 7 + 3 };
static chunk_tables scatter_tables[NUM_PATTERNS], gather_tables[NUM_PATTERNS];
static pthread_once_t scatter_once = PTHREAD_ONCE_INIT, gather_once = PTHREAD_ONCE_INIT;

static int pattern_of(size_t es, int64_t stride) {
  static const int first[3] = {0, 15, 22}; /* by log2(es) */
  return first[es == 1 ? 0 : es == 2 ? 1 : 2] + (int)stride - 2;
}

static void set_lane(unsigned char *perm, int es, int lane, int value) {
  if (es == 1) perm[lane] = (unsigned char)value;
  else if (es == 2) ((uint16_t *)(void *)perm)[lane] = (uint16_t)value;
  else ((uint32_t *)(void *)perm)[lane] = (uint32_t)value;
}

static void build_tables(chunk_tables *all, bool gather) {
  for (int w = 0; w < 3; w++) {
    int es = 1 << w, lanes = 64 / es;
    for (int stride = 2; stride * es <= 16; stride++) {
      chunk_tables *t = &all[pattern_of((size_t)es, stride)];
      memset(t, 0, sizeof *t);
      for (int j = 0; j < lanes; j++) {
        int e = j * stride, k = e / lanes, l = e % lanes; /* dense lane j's place */
        int to = gather ? j : l, from = gather ? l : j;
        set_lane(t->perm[k], es, to, from);
        t->lanes[k] |= 1ull << to;
      }
    }
  }
}

static void build_scatter_tables(void) { build_tables(scatter_tables, false); }
static void build_gather_tables(void) { build_tables(gather_tables, true); }

/* ---- scatters ---------------------------------------------------------- */

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

/* Whole vectors of source, each through STORE, asking for the chunks
 * `ahead` bytes on for writing unless ahead is 0, then the last n % L
 * elements one at a time (d, stride, s, n, ahead in scope). */
#define SCATTER_CHUNKS(STORE, ES)                                                                                      \
  do {                                                                                                                 \
    const int64_t lanes = 64 / (ES), e = (ES);                                                                         \
    const chunk_tables *t = &scatter_tables[pattern_of((ES), stride)];                                                 \
    __m512i idx[LT__MASKED_MAX_STRIDE];                                                                                \
    for (int64_t k = 0; k < stride; k++) idx[k] = _mm512_load_si512(t->perm[k]);                                       \
    int64_t i = 0;                                                                                                     \
    for (; i + lanes <= n; i += lanes) {                                                                               \
      __m512i v = _mm512_loadu_si512(s + i * e);                                                                       \
      char *p = d + i * stride * e;                                                                                    \
      if (ahead)                                                                                                       \
        for (int64_t k = 0; k < stride; k++) __builtin_prefetch(p + k * 64 + ahead, 1, 3);                             \
      for (int64_t k = 0; k < stride; k++) STORE(p + k * 64, t->lanes[k], idx[k], v, (ES));                           \
    }                                                                                                                  \
    for (; i < n; i++) memcpy(d + i * stride * e, s + i * e, (ES));                                                    \
  } while (0)

__attribute__((target("avx512vbmi"))) static void scatter_bytes(char *d, int64_t stride, const char *s, int64_t n,
                                                                int64_t ahead) {
  SCATTER_CHUNKS(store_byte_chunk, 1);
}

static void scatter_halves(char *d, int64_t stride, const char *s, int64_t n, int64_t ahead) {
  SCATTER_CHUNKS(store_chunk, 2);
}
static void scatter_words(char *d, int64_t stride, const char *s, int64_t n, int64_t ahead) {
  SCATTER_CHUNKS(store_chunk, 4);
}

void lt__scatter_masked(void *dst, int64_t stride, const void *src, int64_t n, size_t es, int64_t ahead) {
  pthread_once(&scatter_once, build_scatter_tables);
  if (es == 1) scatter_bytes(dst, stride, src, n, ahead);
  else if (es == 2) scatter_halves(dst, stride, src, n, ahead);
  else scatter_words(dst, stride, src, n, ahead);
}

/* ---- gathers ----------------------------------------------------------- */

/* The first n lanes (all of them from 64 on), as a mask of any width. */
static inline uint64_t first_lanes(int64_t n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }

/* Lanes `lanes` of the chunk at p, the others zero: masked-off lanes read
 * nothing, not even where p's chunk runs past the source. */
static inline __attribute__((always_inline)) __m512i load_lanes(const char *p, uint64_t lanes, size_t es) {
  if (es == 1) return _mm512_maskz_loadu_epi8((__mmask64)lanes, p);
  if (es == 2) return _mm512_maskz_loadu_epi16((__mmask32)lanes, p);
  return _mm512_maskz_loadu_epi32((__mmask16)lanes, p);
}

static inline __attribute__((always_inline)) void store_lanes(char *p, uint64_t lanes, __m512i v, size_t es) {
  if (es == 1) _mm512_mask_storeu_epi8(p, (__mmask64)lanes, v);
  else if (es == 2) _mm512_mask_storeu_epi16(p, (__mmask32)lanes, v);
  else _mm512_mask_storeu_epi32(p, (__mmask16)lanes, v);
}

/* acc with lanes `lanes` replaced by those of chunk v, permuted by idx. */
static inline __attribute__((always_inline)) __m512i merge_chunk(__m512i acc, uint64_t lanes, __m512i idx, __m512i v,
                                                                 size_t es) {
  if (es == 2) return _mm512_mask_permutexvar_epi16(acc, (__mmask32)lanes, idx, v);
  return _mm512_mask_permutexvar_epi32(acc, (__mmask16)lanes, idx, v);
}

__attribute__((target("avx512vbmi"))) static inline __m512i merge_byte_chunk(__m512i acc, uint64_t lanes, __m512i idx,
                                                                            __m512i v, size_t es) {
  (void)es;
  return _mm512_mask_permutexvar_epi8(acc, (__mmask64)lanes, idx, v);
}

/* Whole output vectors while another element follows them, so that no
 * chunk reaches past the last element; then the last 1 to L elements
 * from chunks loaded only up to it (d, s, stride, n in scope). */
#define GATHER_CHUNKS(MERGE, ES)                                                                                       \
  do {                                                                                                                 \
    const int64_t lanes = 64 / (ES), e = (ES);                                                                         \
    const chunk_tables *t = &gather_tables[pattern_of((ES), stride)];                                                  \
    __m512i idx[LT__MASKED_MAX_STRIDE];                                                                                \
    for (int64_t k = 0; k < stride; k++) idx[k] = _mm512_load_si512(t->perm[k]);                                       \
    int64_t i = 0;                                                                                                     \
    for (; i + lanes < n; i += lanes) {                                                                                \
      const char *p = s + i * stride * e;                                                                              \
      __m512i acc = _mm512_setzero_si512();                                                                            \
      for (int64_t k = 0; k < stride; k++)                                                                             \
        acc = MERGE(acc, t->lanes[k], idx[k], _mm512_loadu_si512(p + k * 64), (ES));                                   \
      _mm512_storeu_si512(d + i * e, acc);                                                                             \
    }                                                                                                                  \
    if (i == n) break;                                                                                                 \
    const char *p = s + i * stride * e;                                                                                \
    int64_t span = (n - 1 - i) * stride + 1; /* elements from p to the last, inclusive */                             \
    __m512i acc = _mm512_setzero_si512();                                                                              \
    for (int64_t k = 0; k * lanes < span; k++)                                                                         \
      acc = MERGE(acc, t->lanes[k], idx[k], load_lanes(p + k * 64, first_lanes(span - k * lanes), (ES)), (ES));       \
    store_lanes(d + i * e, first_lanes(n - i), acc, (ES));                                                             \
  } while (0)

__attribute__((target("avx512vbmi"))) static void gather_bytes(char *d, const char *s, int64_t stride, int64_t n) {
  GATHER_CHUNKS(merge_byte_chunk, 1);
}

static void gather_halves(char *d, const char *s, int64_t stride, int64_t n) { GATHER_CHUNKS(merge_chunk, 2); }
static void gather_words(char *d, const char *s, int64_t stride, int64_t n) { GATHER_CHUNKS(merge_chunk, 4); }

void lt__gather_masked(void *dst, const void *src, int64_t stride, int64_t n, size_t es) {
  pthread_once(&gather_once, build_gather_tables);
  if (es == 1) gather_bytes(dst, src, stride, n);
  else if (es == 2) gather_halves(dst, src, stride, n);
  else gather_words(dst, src, stride, n);
}
