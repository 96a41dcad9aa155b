/* Streaming (non-temporal) stores: whole 64-byte lines with AVX-512 where
 * the CPU has it, 32 bytes at a time with AVX2, 16 otherwise; forward
 * copies and reversed ones. */
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "stream.h"

#if defined(__x86_64__) && defined(__GNUC__)
/* Whole 64-byte lines per store: measured 15% faster than 16-byte
 * streaming stores for an add at 256 MiB. */
__attribute__((target("avx512f"))) static size_t stream_lines_avx512(char *dst, const char *src, size_t n) {
  size_t i = 0;
  for (; i + 64 <= n; i += 64) _mm512_stream_si512((void *)(dst + i), _mm512_loadu_si512((const void *)(src + i)));
  return i;
}

/* Whole lines in two 32-byte streaming stores. */
__attribute__((target("avx2"))) static size_t stream_lines_avx2(char *dst, const char *src, size_t n) {
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(src + i));
    __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(src + i + 32));
    _mm256_stream_si256((__m256i *)(void *)(dst + i), a);
    _mm256_stream_si256((__m256i *)(void *)(dst + i + 32), b);
  }
  return i;
}

/* Reversed runs: each 16-byte lane's elements reversed by a byte shuffle,
 * then the lanes themselves, so one mask per element size serves every
 * size. Read straight from the source, four lines per step with L2
 * prefetch 4 KiB further down (the hardware's prefetch follows a
 * descending stream less far), and streamed: F32 rows of 11585 at 512
 * MiB ran at 0.56-0.66 of memcpy through a gather into an L1 buffer and
 * lt__stream_copy, 0.72 straight without the prefetch, 0.87-0.91 with it
 * (in a probe, 4 KiB ahead 0.91-0.93, 8 KiB 0.86-0.91). */
enum { REVERSED_READ_AHEAD = 4096 };

static const char reverse_lane_mask[4][16] = {
    {15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0},
    {14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1},
    {12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3},
    {8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7},
};

static const char *lane_mask(size_t es) { return reverse_lane_mask[es == 1 ? 0 : es == 2 ? 1 : es == 4 ? 2 : 3]; }

/* n bytes (whole lines) of 64-byte aligned dst from the bytes that end
 * at end, reversed; the bytes done. */
__attribute__((target("avx512f,avx512bw"))) static size_t stream_reversed_avx512(char *dst, const char *end,
                                                                                 size_t n, size_t es) {
  __m512i lane = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)lane_mask(es)));
  size_t i = 0;
  for (; i + 256 <= n; i += 256) {
    for (int k = 0; k < 4; k++) {
      const char *s = end - i - 64 * (k + 1);
      __builtin_prefetch(s - REVERSED_READ_AHEAD, 0, 2);
      __m512i v = _mm512_shuffle_epi8(_mm512_loadu_si512((const void *)s), lane);
      _mm512_stream_si512((void *)(dst + i + 64 * k), _mm512_shuffle_i64x2(v, v, 0x1B));
    }
  }
  for (; i + 64 <= n; i += 64) {
    __m512i v = _mm512_shuffle_epi8(_mm512_loadu_si512((const void *)(end - i - 64)), lane);
    _mm512_stream_si512((void *)(dst + i), _mm512_shuffle_i64x2(v, v, 0x1B));
  }
  return i;
}

/* The same in 32-byte halves: the first half of a line of dst is the
 * last 32 bytes of its source, reversed. */
__attribute__((target("avx2"))) static size_t stream_reversed_avx2(char *dst, const char *end, size_t n,
                                                                   size_t es) {
  __m256i lane = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)lane_mask(es)));
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const char *s = end - i - 64;
    __builtin_prefetch(s - REVERSED_READ_AHEAD, 0, 2);
    __m256i lo = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(const void *)s), lane);
    __m256i hi = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(const void *)(s + 32)), lane);
    _mm256_stream_si256((__m256i *)(void *)(dst + i), _mm256_permute4x64_epi64(hi, 0x4E));
    _mm256_stream_si256((__m256i *)(void *)(dst + i + 32), _mm256_permute4x64_epi64(lo, 0x4E));
  }
  return i;
}
#endif

/* Element by element, for the partial lines at each end. */
static void reversed_plain(char *dst, const char *src, int64_t n, size_t es) {
  for (int64_t i = 0; i < n; i++) memcpy(dst + i * (int64_t)es, src - i * (int64_t)es, es);
}

static bool path_runs(lt__stream_path path) {
  switch (path) {
  case LT__STREAM_PLAIN: return true;
#if defined(__x86_64__) && defined(__GNUC__)
  case LT__STREAM_AVX2: return __builtin_cpu_supports("avx2");
  case LT__STREAM_AVX512: return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
#endif
  default: return false;
  }
}

bool lt__stream_reversed_on(lt__stream_path path, char *dst, const char *src, int64_t n, size_t es) {
  if (!path_runs(path)) return false;
  int64_t head = (int64_t)(((64 - ((uintptr_t)dst & 63)) & 63) / es);
  if (head > n) head = n;
  reversed_plain(dst, src, head, es);
  dst += head * (int64_t)es, src -= head * (int64_t)es, n -= head;
  size_t done = 0, bytes = (size_t)n * es;
#if defined(__x86_64__) && defined(__GNUC__)
  if (path == LT__STREAM_AVX512) done = stream_reversed_avx512(dst, src + es, bytes, es);
  else if (path == LT__STREAM_AVX2) done = stream_reversed_avx2(dst, src + es, bytes, es);
#endif
  int64_t k = (int64_t)(done / es);
  reversed_plain(dst + done, src - k * (int64_t)es, n - k, es);
  return true;
}

void lt__stream_reversed(char *dst, const char *src, int64_t n, size_t es) {
  for (int p = LT__STREAM_NPATHS - 1; p >= 0; p--)
    if (lt__stream_reversed_on((lt__stream_path)p, dst, src, n, es)) return;
}

void lt__stream_copy(char *dst, const char *src, size_t n) {
  size_t head = (64 - ((uintptr_t)dst & 63)) & 63;
  if (head > n) head = n;
  if (head) memcpy(dst, src, head);
  dst += head, src += head, n -= head;
  size_t i = 0;
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("avx512f")) i = stream_lines_avx512(dst, src, n);
  else if (__builtin_cpu_supports("avx2")) i = stream_lines_avx2(dst, src, n);
#endif
#if defined(__SSE2__)
  for (; i + 16 <= n; i += 16)
    _mm_stream_si128((__m128i *)(void *)(dst + i), _mm_loadu_si128((const __m128i *)(const void *)(src + i)));
#endif
  if (i < n) memcpy(dst + i, src + i, n - i);
}

void lt__stream_fence(void) {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

