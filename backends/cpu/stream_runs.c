/* Streaming runs that lie back to back in the destination, in its order
 * (lt__run_stream in stream.h): each destination line is put together
 * from the end of one run and the start of the next where it straddles
 * them, so that every line but the span's first and last goes out as one
 * whole streaming store. */
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "stream.h"

/* Runs asked for ahead of the one being copied: they lie apart in the
 * source, so the hardware prefetcher sees each only as it starts. (Zen
 * 4, F32 (1,0,2) at 64 MiB: asking 1-4 KiB ahead instead, by as many
 * runs as that takes, measured level for runs of 48-644 bytes.) */
enum { RUNS_AHEAD = 4 };

/* The line at s->at is complete: the span's first line only from its
 * skip-th byte on, by plain stores (its first bytes are someone else's);
 * any other by one streaming store, STREAM_LINE(dst, src). */
#define FLUSH_LINE(s, STREAM_LINE)                                                                                     \
  do {                                                                                                                 \
    if ((s)->skip) memcpy((s)->at + (s)->skip, (s)->line + (s)->skip, (size_t)(64 - (s)->skip));                       \
    else STREAM_LINE((s)->at, (s)->line);                                                                              \
    (s)->at += 64, (s)->fill = 0, (s)->skip = 0;                                                                       \
  } while (0)

/* nruns runs of bytes each, run r from src + r * step, onto the span. */
#define PUT_RUNS(STREAM_LINE)                                                                                          \
  do {                                                                                                                 \
    for (int64_t r = 0; r < nruns; r++) {                                                                              \
      const char *p = src + r * step;                                                                                  \
      int64_t len = bytes;                                                                                             \
      if (ahead && r + RUNS_AHEAD < nruns) lt__prefetch_l2(src + (r + RUNS_AHEAD) * step, bytes);                      \
      if (s->fill > 0) {                                                                                               \
        int64_t t = 64 - s->fill < len ? 64 - s->fill : len;                                                           \
        memcpy(s->line + s->fill, p, (size_t)t);                                                                       \
        s->fill += t, p += t, len -= t;                                                                                \
        if (s->fill < 64) continue;                                                                                    \
        FLUSH_LINE(s, STREAM_LINE);                                                                                    \
      }                                                                                                                \
      for (; len >= 64; len -= 64, p += 64, s->at += 64) STREAM_LINE(s->at, p);                                        \
      memcpy(s->line, p, (size_t)len);                                                                                 \
      s->fill = len;                                                                                                   \
    }                                                                                                                  \
  } while (0)

#if defined(__x86_64__) && defined(__GNUC__)
#define LINE_AVX512(d, p) _mm512_stream_si512((void *)(d), _mm512_loadu_si512((const void *)(p)))
#define LINE_AVX2(d, p)                                                                                                \
  do {                                                                                                                 \
    _mm256_stream_si256((__m256i *)(void *)(d), _mm256_loadu_si256((const __m256i *)(const void *)(p)));               \
    _mm256_stream_si256((__m256i *)(void *)((d) + 32), _mm256_loadu_si256((const __m256i *)(const void *)((p) + 32))); \
  } while (0)

__attribute__((target("avx512f"))) static void put_avx512(lt__run_stream *s, const char *src, int64_t step,
                                                          int64_t nruns, int64_t bytes, bool ahead) {
  PUT_RUNS(LINE_AVX512);
}

__attribute__((target("avx2"))) static void put_avx2(lt__run_stream *s, const char *src, int64_t step, int64_t nruns,
                                                     int64_t bytes, bool ahead) {
  PUT_RUNS(LINE_AVX2);
}
#endif

#if defined(__SSE2__)
#define LINE_SSE2(d, p)                                                                                                \
  for (int q = 0; q < 64; q += 16)                                                                                     \
  _mm_stream_si128((__m128i *)(void *)((d) + q), _mm_loadu_si128((const __m128i *)(const void *)((p) + q)))
#else
#define LINE_SSE2(d, p) memcpy(d, p, 64)
#endif

static void put_sse2(lt__run_stream *s, const char *src, int64_t step, int64_t nruns, int64_t bytes, bool ahead) {
  PUT_RUNS(LINE_SSE2);
}

void lt__run_stream_begin(lt__run_stream *s, char *dst) {
  s->skip = s->fill = (int64_t)((uintptr_t)dst % 64);
  s->at = dst - s->fill;
}

void lt__run_stream_put(lt__run_stream *s, const char *src, int64_t step, int64_t nruns, int64_t bytes, bool ahead) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("avx512f")) put_avx512(s, src, step, nruns, bytes, ahead);
  else if (__builtin_cpu_supports("avx2")) put_avx2(s, src, step, nruns, bytes, ahead);
  else
#endif
    put_sse2(s, src, step, nruns, bytes, ahead);
}

/* The line at s->at is complete (FLUSH_LINE, one line at a time). */
static void flush_line(lt__run_stream *s) {
  if (s->skip) memcpy(s->at + s->skip, s->line + s->skip, (size_t)(64 - s->skip));
  else lt__stream_copy(s->at, s->line, 64);
  s->at += 64, s->fill = 0, s->skip = 0;
}

/* dst[i] = src[i * step] for 0 <= i < n, elements of es bytes (1, 2, 4
 * or 8): the few elements of a run in the lines it shares with its
 * neighbours, in a loop for each size. A memcpy of es bytes per element
 * had been a call each, up to 126 of them a run (u8). Last dim reversed
 * at 64-128 MiB, same-run ratio to memcpy, three rounds each, calls ->
 * loops: F32 rows of 5796 bytes 0.57-0.60 -> 0.65-0.66 (rows of 5824,
 * on lines, run 0.76), of 11588 bytes 0.71 -> 0.75-0.77; bf16 [5792,
 * 5793] 0.62-0.63 -> 0.71, [11585, 2897] 0.56-0.57 -> 0.63-0.65; u8
 * [5792, 11587] 0.58-0.59 -> 0.63-0.67. */
#define GATHER_FEW(B)                                                                                                  \
  for (int64_t i = 0; i < n; i++) memcpy(dst + i * (B), src + i * step * (B), (B))
static void gather_few(char *dst, const char *src, int64_t step, int64_t n, size_t es) {
  switch (es) {
  case 1: GATHER_FEW(1); break;
  case 2: GATHER_FEW(2); break;
  case 4: GATHER_FEW(4); break;
  default: GATHER_FEW(8); break;
  }
}

void lt__run_stream_gather(lt__run_stream *s, const char *src, int64_t step, int64_t n, size_t es) {
  const int64_t e = (int64_t)es, at_step = step * e;
  int64_t i = 0;
  if (s->fill > 0) { /* the line the runs before began */
    i = (64 - s->fill) / e < n ? (64 - s->fill) / e : n;
    gather_few(s->line + s->fill, src, step, i, es);
    if ((s->fill += i * e) == 64) flush_line(s);
  }
  int64_t whole = (n - i) * e / 64 * 64 / e; /* s->at is a line's start here, unless the run has ended */
  if (whole > 0) {
    lt__stream_strided(s->at, src + i * at_step, step, whole, es);
    s->at += whole * e, i += whole;
  }
  gather_few(s->line + s->fill, src + i * at_step, step, n - i, es); /* the next line's start */
  s->fill += (n - i) * e;
}

void lt__run_stream_end(lt__run_stream *s) {
  if (s->fill > s->skip) memcpy(s->at + s->skip, s->line + s->skip, (size_t)(s->fill - s->skip));
  s->fill = s->skip = 0;
}
