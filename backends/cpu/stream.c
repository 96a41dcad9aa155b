/* Streaming (non-temporal) stores: whole 64-byte lines with AVX-512 where
 * the CPU has it, 32 bytes at a time with AVX2, 16 otherwise. */
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "stream.h"
#include "vendor.h"

#if defined(__x86_64__) && defined(__GNUC__)
/* Whole 64-byte lines per store: measured 15% faster than 16-byte
 * streaming stores for an add at 256 MiB. ahead: each line's source is
 * asked for LT__READ_AHEAD bytes on as the copy goes. */
__attribute__((target("avx512f"))) static size_t stream_lines_avx512(char *dst, const char *src, size_t n,
                                                                     bool ahead) {
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    if (ahead) __builtin_prefetch(src + i + LT__READ_AHEAD, 0, 2);
    _mm512_stream_si512((void *)(dst + i), _mm512_loadu_si512((const void *)(src + i)));
  }
  return i;
}

/* Whole lines in two 32-byte streaming stores. */
__attribute__((target("avx2"))) static size_t stream_lines_avx2(char *dst, const char *src, size_t n, bool ahead) {
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    if (ahead) __builtin_prefetch(src + i + LT__READ_AHEAD, 0, 2);
    __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(src + i));
    __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(src + i + 32));
    _mm256_stream_si256((__m256i *)(void *)(dst + i), a);
    _mm256_stream_si256((__m256i *)(void *)(dst + i + 32), b);
  }
  return i;
}
#endif

static void stream_copy_as(char *dst, const char *src, size_t n, bool ahead) {
  size_t head = (64 - ((uintptr_t)dst & 63)) & 63;
  if (head > n) head = n;
  if (head) memcpy(dst, src, head);
  dst += head, src += head, n -= head;
  size_t i = 0;
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("avx512f")) i = stream_lines_avx512(dst, src, n, ahead);
  else if (__builtin_cpu_supports("avx2")) i = stream_lines_avx2(dst, src, n, ahead);
#endif
#if defined(__SSE2__)
  for (; i + 16 <= n; i += 16) {
    if (ahead && i % 64 == 0) __builtin_prefetch(src + i + LT__READ_AHEAD, 0, 2);
    _mm_stream_si128((__m128i *)(void *)(dst + i), _mm_loadu_si128((const __m128i *)(const void *)(src + i)));
  }
#endif
  if (i < n) memcpy(dst + i, src + i, n - i);
}

void lt__stream_copy(char *dst, const char *src, size_t n) { stream_copy_as(dst, src, n, false); }

/* A line at a time rather than a whole run up front: a run's requests
 * all at once held the line-fill buffers that its own loads then waited
 * for (Xeon, F32 (1,0,2) of 512^3, runs of 2 KiB in source order,
 * bench_access, eight runs in turn: 512 MiB 0.86-0.90 -> 0.88-0.93 of
 * memcpy, two threads 0.87-0.89 -> 0.91-0.92, 64 MiB 1.60-1.68 ->
 * 1.79-1.88; not measured on Zen). */
void lt__stream_copy_ahead(char *dst, const char *src, size_t n) { stream_copy_as(dst, src, n, true); }

#if defined(__x86_64__) && defined(__GNUC__)
/* Bytes of each page a block's loop copies before it turns to the next
 * page: eight lines. Xeon (AVX-512 with AMX), blocks of 16 pages, a
 * model of this loop outside the library beside glibc's memcpy, in turn
 * in one process, speed ratio to memcpy, medians of 9 to 15: two lines a
 * turn 0.957-0.972 at 512 MiB, 1.709 at 64 MiB, 1.447 at 32 MiB; four
 * lines 1.001-1.012, 1.795, 1.415; eight lines 1.023-1.027, 1.815, 1.507;
 * sixteen 0.967, thirty-two 0.856 (512 MiB). Eight lines a turn in
 * blocks of 8, 24, 32 or 64 pages: 0.997, 1.025, 1.018, 0.929. In the
 * library, lt_copy of a dense F32 span, two lines a turn -> eight
 * switched sample by sample (15 pairs), speed ratio: 512 MiB 1.064, two
 * threads 1.056; 64 MiB 1.031; 32 MiB 1.017. */
enum { PAGE_TURN_BYTES = 512 };

/* Blocks of pages * 4096 bytes of whole lines, PAGE_TURN_BYTES of each
 * 4 KiB page of the block in turn; returns the bytes copied. */
__attribute__((target("avx512f"))) static size_t stream_pages_avx512(char *dst, const char *src, size_t n,
                                                                     size_t pages) {
  const size_t block = pages * 4096;
  size_t b = 0;
  for (; b + block <= n; b += block)
    for (size_t o = 0; o < 4096; o += PAGE_TURN_BYTES)
      for (size_t p = 0; p < pages; p++) {
        const char *s = src + b + p * 4096 + o;
        char *d = dst + b + p * 4096 + o;
        for (size_t l = 0; l < PAGE_TURN_BYTES; l += 64)
          _mm512_stream_si512((void *)(d + l), _mm512_loadu_si512((const void *)(s + l)));
      }
  return b;
}
#endif

void lt__stream_copy_pages(char *dst, const char *src, size_t n, size_t pages) {
  size_t head = (64 - ((uintptr_t)dst & 63)) & 63, done = 0;
  if (head >= n || pages == 0) {
    memcpy(dst, src, n);
    return;
  }
  memcpy(dst, src, head);
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("avx512f")) done = stream_pages_avx512(dst + head, src + head, n - head, pages);
#endif
  stream_copy_as(dst + head + done, src + head + done, n - head - done, false);
}

/* Intel cores stream a long span SPAN_PAGES_INTEL pages at a time: on a
 * Xeon (AVX-512 with AMX) one sequential stream measured slower than
 * several, and glibc's memcpy, four pages at a time past its own
 * threshold, ran ahead of it. F32, bench_access contiguous (a dense span
 * past strided_copy.c's DENSE_STREAM_MIN_BYTES), same-run ratio to
 * memcpy, a switch in one build, two runs each in turn, one stream -> 4,
 * 8, 16 pages: 512 MiB 0.88-0.89 -> 1.06-1.13, 1.09-1.12, 1.13-1.15; 64
 * MiB 1.45-1.48 -> 1.69-1.73, 1.70-1.81, 1.81-1.84; two threads at 512
 * MiB 0.89-0.90 -> 1.11-1.13 (16 pages), 64 MiB level. A loop of 32 pages
 * measured as 16 (1.13 of memcpy). AMD cores keep the one stream (Zen 5's
 * figures at DENSE_STREAM_MIN_BYTES; pages not measured there). */
enum { SPAN_PAGES_INTEL = 16 };

void lt__stream_copy_span(char *dst, const char *src, size_t n) {
  if (lt__intel_cores()) lt__stream_copy_pages(dst, src, n, SPAN_PAGES_INTEL);
  else lt__stream_copy(dst, src, n);
}

bool lt__stream_run_continues(const char *src, size_t n, const char *next) {
  uintptr_t end = (uintptr_t)src + n, at = (uintptr_t)next;
  return at + 64 >= end && at < end + LT__READ_AHEAD;
}

/* A run whose successor lies elsewhere in the source stops asking where
 * its asks would pass its end, and asks for the successor's first
 * LT__READ_AHEAD bytes as it starts instead: the asks past the end read
 * lines nobody wanted (the gap between two rows of a crop, the rows a
 * slice steps over), and the next run's first lines came cold. Zen 5,
 * F32, lt_copy beside memcpy of as many bytes, same-run ratio, two
 * rounds each with a switch between the two, in turn: x[::2] of [16384,
 * 4096] (runs of 16 KiB, gaps as long) 0.76-0.78 -> 0.85-0.87, of [8192,
 * 8192] 0.96 -> 1.07; crops x[:, 1024:3072] of [16384, 4096] 0.81-0.83
 * -> 0.92-0.94, x[:, 0:2048] of [16384, 8192] 0.66 -> 0.91-0.93, x[:,
 * 0:256] of [32768, 4096] (runs of 1 KiB) 0.34-0.35 -> 0.58, x[:,
 * 0:1024] 0.61 -> 0.92-0.93; runs that continue each other, or whose
 * gaps the asks cover (x[:, 256:768] of [65536, 1024]), level. The run
 * goes in two parts, split where the destination's lines do: the first
 * asks as lt__stream_copy_ahead does, its asks ending with the run, the
 * last LT__READ_AHEAD bytes or so ask nothing. (A test of the index in
 * one loop instead cost 4-5% on runs of 2 KiB, and more on runs of a
 * line.) */
void lt__stream_copy_ahead_to(char *dst, const char *src, size_t n, const char *next) {
  if (!next || lt__stream_run_continues(src, n, next)) {
    lt__stream_copy_ahead(dst, src, n);
    return;
  }
  lt__prefetch_l2(next, n < LT__READ_AHEAD ? (int64_t)n : LT__READ_AHEAD);
  uintptr_t at = (uintptr_t)dst, cut = n > LT__READ_AHEAD ? (at + n - LT__READ_AHEAD) & ~(uintptr_t)63 : at;
  size_t split = cut > at ? (size_t)(cut - at) : 0;
  if (split > 0) lt__stream_copy_ahead(dst, src, split);
  lt__stream_copy(dst + split, src + split, n - split);
}

void lt__stream_fence(void) {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

