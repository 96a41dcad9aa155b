/* Internal: copies with streaming stores, for outputs too large to stay
 * cached, and reading ahead of large inputs. */
#ifndef LT_STREAM_H
#define LT_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Past this many bytes of output, plain stores cost a read of every
 * destination line (read-for-ownership) that nobody needs, since the
 * output outgrows the caches before anyone reads it back; streaming
 * stores skip that read, a third of an add's memory traffic. */
#define LT__STREAM_MIN_BYTES ((int64_t)8 << 20)

/* Whether the elements that shape and strides (in elements) reach from
 * their first span at least LT__STREAM_MIN_BYTES, elements of es bytes:
 * an operand read from memory, not from cache, whatever its order. */
static inline bool lt__outgrows_cache(int ndim, const int64_t *shape, const int64_t *strides, size_t es) {
  int64_t span = 1;
  for (int d = 0; d < ndim; d++) span += (shape[d] - 1) * (strides[d] < 0 ? -strides[d] : strides[d]);
  return span * (int64_t)es >= LT__STREAM_MIN_BYTES;
}

/* n bytes from src to dst, streaming from the first 64-byte aligned byte
 * of dst on (plain stores before it and after the last whole line); the
 * caller fences with lt__stream_fence before anyone else reads dst. */
void lt__stream_copy(char *dst, const char *src, size_t n);
/* lt__stream_copy of a long span in blocks of pages 4 KiB pages, eight
 * lines of each page of the block in turn, so that the hardware
 * prefetcher follows pages streams at once (AVX-512; the rest, any CPU
 * without it, and pages 0 as lt__stream_copy). */
void lt__stream_copy_pages(char *dst, const char *src, size_t n, size_t pages);
/* A long dense span, streamed the way this CPU's cores measured fastest:
 * in blocks of pages on Intel's, as lt__stream_copy elsewhere. */
void lt__stream_copy_span(char *dst, const char *src, size_t n);
/* lt__stream_copy from a source read from memory, each line's source
 * asked for LT__READ_AHEAD bytes on as the copy goes. */
void lt__stream_copy_ahead(char *dst, const char *src, size_t n);
/* lt__stream_copy_ahead of one of a sequence of runs, the next of which
 * starts at next (NULL: none): where it does not continue this one (see
 * lt__stream_run_continues), this run's asks stop at its end and the
 * next run's first LT__READ_AHEAD bytes are asked for instead. */
void lt__stream_copy_ahead_to(char *dst, const char *src, size_t n, const char *next);
/* Whether a run at next continues the n bytes at src for asks that run
 * LT__READ_AHEAD bytes on: it starts within that reach past their end,
 * or within the last line. */
bool lt__stream_run_continues(const char *src, size_t n, const char *next);
/* dst[i] = src[i * step] for 0 <= i < n, elements of es bytes, streamed
 * the way lt__stream_copy streams, each vector reordered in registers
 * (stream_strided.c): step -1 (a reversed run) or 2 (every other
 * element) for elements of 1, 2, 4 or 8 bytes, and where the CPU has
 * AVX-512, steps 3, 4 and 8 of 4-byte elements and 3 and 4 of 2-byte
 * ones (and of bytes, with AVX512-VBMI). No byte past the last
 * element (element n - 1) is read. False, with
 * nothing written, where this CPU has no such kernel or dst is off its
 * element alignment (the caller gathers another way); the caller fences. */
bool lt__stream_strided(char *dst, const char *src, int64_t step, int64_t n, size_t es);

/* One whole line from src to dst (both 64-byte aligned), streamed, for
 * callers that put lines together one at a time: none of the checks of
 * alignment and CPU that lt__stream_copy makes for a run. The caller
 * fences. */
static inline void lt__stream_line(char *dst, const char *src) {
#if defined(__SSE2__)
  for (int i = 0; i < 64; i += 16)
    _mm_stream_si128((__m128i *)(void *)(dst + i), _mm_load_si128((const __m128i *)(const void *)(src + i)));
#else
  memcpy(dst, src, 64);
#endif
}

/* Asks for the first lines the kernels will read of the run of n
 * elements at next (step and es as lt__stream_strided's), as the run at
 * src, of as many elements, starts: the kernels ask for lines a fixed
 * distance ahead of their reads within a run, and nothing asks for the
 * next run's first lines unless it continues this one in the source (see
 * stream_strided_next.c). */
void lt__stream_strided_ask_next(const char *src, const char *next, int64_t step, int64_t n, size_t es);
/* What lt__stream_strided_ask_next asks for: the bytes from *first on,
 * or 0 where the next run continues the one at src (for tests). */
int64_t lt__stream_strided_next_lines(const char *src, const char *next, int64_t step, int64_t n, size_t es,
                                      const char **first);
/* How many runs of n elements on (step and es as lt__stream_strided's)
 * the run to ask for lies: enough that the kernels read at least as far
 * as they ask ahead of their reads before they reach it, 1 to 32. */
int64_t lt__stream_strided_runs_ahead(int64_t step, int64_t n, size_t es);
/* Bytes the kernels read ahead of their reads on this CPU (for tests). */
int64_t lt__stream_strided_read_ahead(void);

/* Whether lt__stream_strided has a kernel for step and es on this CPU
 * (it then fails only on a dst off its element alignment). */
bool lt__stream_strided_has(int64_t step, size_t es);

/* The instruction sets lt__stream_strided chooses from, best last. */
typedef enum lt__stream_path { LT__STREAM_AVX2, LT__STREAM_AVX512, LT__STREAM_NPATHS } lt__stream_path;
/* lt__stream_strided on one path (for tests); false also where this CPU
 * cannot run the path. */
bool lt__stream_strided_on(lt__stream_path path, char *dst, const char *src, int64_t step, int64_t n, size_t es);

/* A streamed run whose end is not line-aligned ends in plain stores to a
 * line it shares with what follows, and a plain store that misses holds
 * every streaming store behind it until memory answers. Asked for as a
 * long run starts, that line is cached by the time the run reaches it
 * (rows of 11585 F32 at 512 MiB, one thread, same-run ratio to memcpy,
 * two sets of three rounds: every other element 0.875-0.892 ->
 * 0.950-0.978 and 0.873-0.926 -> 0.908-0.982; reversed 1.17-1.19 ->
 * 1.20-1.27 in one set, level in the other; prefetchw measured no better
 * than this hint). A short run reaches its end before the line arrives,
 * and the request only competes with the run's own (runs of 400 bytes in
 * lt__stream_copy: 1.58-1.68 -> 1.28), so runs under LT__TAIL_MIN_BYTES
 * go without: a floor between the two lengths measured, not tuned. end:
 * one past the run's last byte. */
#define LT__TAIL_MIN_BYTES 4096
static inline void lt__prefetch_tail(const char *end, int64_t bytes) {
  if (bytes >= LT__TAIL_MIN_BYTES && (uintptr_t)end % 64 != 0) __builtin_prefetch(end - 1, 1, 3);
}

/* A span of the destination written from runs that lie back to back in
 * it, streamed the way lt__stream_copy streams one run: begin at the
 * span's first byte, put the runs in order, end after the last. A line
 * that straddles two runs is put together first, so that every whole
 * line of the span goes out as one streaming store, where runs streamed
 * one by one end in plain stores to the lines they share with their
 * neighbours (and a plain store that misses holds every streaming store
 * behind it until memory answers). Only the span's first and last lines
 * take plain stores. The caller fences. */
typedef struct lt__run_stream {
  char *at;           /* the destination line being put together (64-byte aligned) */
  int64_t fill, skip; /* its bytes put together so far, of which the first skip are not the span's */
  _Alignas(64) char line[64];
} lt__run_stream;

void lt__run_stream_begin(lt__run_stream *s, char *dst);
/* Appends nruns runs of bytes each, run r from src + r * step; ahead asks
 * for each run a few runs before it is copied (a source read from
 * memory). */
void lt__run_stream_put(lt__run_stream *s, const char *src, int64_t step, int64_t nruns, int64_t bytes, bool ahead);
/* Appends dst[i] = src[i * step] for 0 <= i < n, elements of es bytes,
 * its whole lines streamed by lt__stream_strided's kernels and the lines
 * it shares with the runs beside it put together with theirs. Only where
 * lt__stream_strided_has(step, es) and the span's next byte is
 * element-aligned. */
void lt__run_stream_gather(lt__run_stream *s, const char *src, int64_t step, int64_t n, size_t es);
/* The span's end: where the next byte would go. */
static inline char *lt__run_stream_next(const lt__run_stream *s) { return s->at + s->fill; }
void lt__run_stream_end(lt__run_stream *s);

/* Orders this thread's streaming stores before what follows. */
void lt__stream_fence(void);

/* How far ahead of a sequential read to ask for lines. One thread's
 * demand loads keep too few lines in flight to use memory's bandwidth,
 * and the lines go to L2 (prefetcht1), not L1: an L1 prefetch holds one of
 * the core's few line-fill buffers for the whole trip to memory, and those
 * buffers are what limits one thread's reads (F32 -> F16 at 256 MiB: 82%
 * of memcpy with prefetcht0 4 KiB ahead, 91% with prefetcht1 4-16 KiB
 * ahead). */
#define LT__READ_AHEAD 8192

/* Steps at through one address in each line that [p, p + bytes)
 * touches, in order: p itself, then the start of each later line the
 * bytes reach, so that every address lies within the bytes (lt__pull
 * reads them). */
static inline uintptr_t lt__next_line(uintptr_t at) { return (at | 63) + 1; }
#define LT__EACH_LINE(at, p, bytes)                                                                                    \
  for (uintptr_t at = (uintptr_t)(p), at##_end = (bytes) > 0 ? at + (uintptr_t)(bytes) : at; at < at##_end;          \
       at = lt__next_line(at))

/* Asks for the lines of [p, p + bytes) into L2: every line the bytes
 * touch. Stepping 64 bytes from p itself, as this once did, misses the
 * last line wherever p lies off a line and the bytes end further into
 * theirs than p starts: for a run of 813 bytes, two times in three, and
 * each such line is then a demand miss to memory. Zen 4, one thread, a
 * switch flipped sample by sample in one process, speed ratio from p ->
 * every line: u8 (1,0,2) of [812, 812, 813] and [812, 812, 814] (runs
 * of 813 and 814 bytes, asked for four runs ahead, stream_runs.c) 1.24
 * and 1.39, F32 (1,0,2) of [512, 512, 509] (runs of 2036 bytes) 1.16,
 * bf16 (1,0,2) of [645, 645, 645] 1.04; F32 (1,0,2) of 512^3 (runs on
 * lines) level. */
static inline void lt__prefetch_l2(const void *p, int64_t bytes) {
  LT__EACH_LINE(at, p, bytes) __builtin_prefetch((const void *)at, 0, 2);
}

/* Asks for the lines of [p, p + bytes) into L1, for reading or writing
 * alike (prefetcht0). An asm statement: GCC 12 deleted loops of nothing
 * but __builtin_prefetch, once inlined, without a word: the cached
 * walks' asks for a tile's destination lines (lt__tile_lines_for_writing),
 * and a loop written as this one's body in a branch beside a call to
 * lt__prefetch_l2 (ask_ahead, grouped_transpose.c), the other branch's
 * loop with it. */
static inline void lt__prefetch_l1(const void *p, int64_t bytes) {
  LT__EACH_LINE(at, p, bytes) {
#if defined(__x86_64__) && defined(__GNUC__)
    __asm__ volatile("prefetcht0 %0" : : "m"(*(const char *)at));
#else
    __builtin_prefetch((const void *)at, 0, 3);
#endif
  }
}

/* Reads one byte of every line of [p, p + bytes), in order: the lines
 * come into the caches at the rate of a sequential read, where asks
 * (prefetches) would return at once and leave the reads behind them
 * (grouped_transpose.c's pulled blocks). */
static inline void lt__pull(const void *p, int64_t bytes) {
  LT__EACH_LINE(at, p, bytes) (void)*(const volatile char *)at;
}

#endif
