/* The asks a streamed strided gather makes for the runs after the one
 * it copies (see stream.h): where the next run's first lines lie, and
 * how many runs on to ask for (stream_strided.c's kernels ask ahead
 * within a run). */
#include "stream.h"

/* How far the kernels ask ahead within a run (stream_strided.c). */
static int64_t read_ahead(void) { return lt__stream_strided_read_ahead(); }

/* Bytes a run of n elements with step reads, first element to last. */
static int64_t run_span(int64_t step, int64_t n, size_t es) {
  return ((n - 1) * (step < 0 ? -step : step) + 1) * (int64_t)es;
}

/* A run read backwards (step -1: a reversed dim) reads from its first
 * element's end down, a forward one from its first element up, and the
 * kernels ask for the lines read_ahead() bytes on from their reads, on
 * past the run's end. Where the next run begins among this one's reads or
 * within a line past them, as the forward rows of a matrix do (a step-2
 * run ends one element past the next row's first with an odd number of
 * columns, one before it with an even one), those asks cover its first
 * lines. Reversed rows of a matrix each begin a row further on instead,
 * so the prefetcher met every row's first lines cold: asking for
 * read_ahead() bytes of them as the row before starts, Zen 5, last dim
 * reversed, bench_access, same-run ratio to memcpy, the commit before
 * and after in turn, three to five runs each: F32 rows of 11584 bytes (32
 * MiB) 0.69-0.78 -> 0.83-0.87, of 16 KiB (64 MiB) 0.76-0.87 ->
 * 0.89-0.94, of 46340 bytes (512 MiB) 1.00-1.02 -> 1.03-1.04; u8 0.65 ->
 * 0.86 and 0.81 -> 0.89, bf16 0.60-0.63 -> 0.65-0.67 and 1.00 ->
 * 1.04-1.05 (64 and 512 MiB); step 2, which asks for nothing more,
 * level. Half or twice that distance gained less. Short rows gain the
 * most, their first lines being most of them (the lines a row's own asks
 * reach lie before it): reversed rows of 224 F32 (an image's width) at
 * 38 MiB 0.36-0.38 -> 1.10-1.18, at 512 MiB 0.38-0.39 -> 0.87-1.16;
 * rows of 896 F32 0.48-0.54 -> 1.24-1.30; bf16 rows of 224 0.35-0.36 ->
 * 0.87-0.90, of 896 0.40 -> 1.20-1.22; u8 rows of 224 0.12 -> 0.32. */
int64_t lt__stream_strided_next_lines(const char *src, const char *next, int64_t step, int64_t n, size_t es,
                                      const char **first) {
  const intptr_t e = (intptr_t)es, ahead = (intptr_t)read_ahead();
  intptr_t span = (intptr_t)run_span(step, n, es);
  intptr_t bytes = span < ahead ? span : ahead;
  /* Addresses as integers: the next run's need not lie in this one's
   * object. [at, at + bytes): the next run's first reads, which start
   * (forward) or end (backward) where its first element does. */
  intptr_t s = (intptr_t)src, at;
  bool continues;
  if (step < 0) {
    intptr_t top = (intptr_t)next + e;
    at = top - bytes;
    continues = top <= s + e && top >= s + e - span - 64;
  } else {
    at = (intptr_t)next;
    continues = at >= s && at <= s + span + 64;
  }
  *first = (const char *)at;
  return continues ? 0 : (int64_t)bytes;
}

void lt__stream_strided_ask_next(const char *src, const char *next, int64_t step, int64_t n, size_t es) {
  const char *first;
  int64_t bytes = lt__stream_strided_next_lines(src, next, step, n, es, &first);
  if (bytes) lt__prefetch_l2(first, bytes);
}

/* Asked for as the run before it starts, a short run's first lines come
 * too late: the run before takes less time than memory takes to answer.
 * So the ask goes to the run that starts at least read_ahead() bytes of
 * reading on, as the kernels' own asks do within a run. Zen 5, same-run
 * ratio to memcpy, two rounds each with a switch, the next run -> that
 * one: F32 x[::2, ::2] of [599186, 224] (runs reading 892 bytes, 5 on)
 * 0.30-0.31 -> 0.39-0.40, bf16 of [86016, 224] 0.10-0.12 -> 0.16; F32
 * reversed rows of 224 (896 bytes) 1.14-1.17 -> 1.28-1.31, of 896
 * 1.25-1.26 -> 1.29-1.30; a fixed two or eight runs on measured between
 * or below; long runs (one on) level, runs of 56 F32 or 224 u8 level
 * within these runs' swing. */
int64_t lt__stream_strided_runs_ahead(int64_t step, int64_t n, size_t es) {
  int64_t span = run_span(step, n, es), ahead = read_ahead();
  int64_t k = (ahead + span - 1) / span;
  return k < 1 ? 1 : k > 32 ? 32 : k;
}
