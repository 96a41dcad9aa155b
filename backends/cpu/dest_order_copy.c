/* The CPU strided copy's copies written in the destination's order
 * (see lt__cpu_copy and large_dense_runs, strided_copy.c), the runs put
 * onto one span of the destination through lt__run_stream, and when a
 * large copy of dense runs goes that way. */
#include "dtype.h"
#include "odometer.h"
#include "parallel_copy.h"
#include "stream.h"
#include "vendor.h"

/* One thread's share of a copy written in the destination's order:
 * indices [begin, end) of the outermost dim, the runs put onto one span
 * of the destination for as long as they continue each other there, so
 * that the lines they share go out whole and streamed. Dense runs go a
 * row at a time (the dim next to the inner one;
 * lt__runs_in_destination_order), gathered ones (lt__run_stream_gather)
 * one at a time, each from a source past the caches asking for the first
 * lines of the run a few runs on as it starts
 * (lt__stream_strided_ask_next, lt__stream_strided_runs_ahead). */
void lt__copy_in_destination_order(void *ctx, int64_t begin, int64_t end) {
  const lt__parallel_copy *pc = ctx;
  lt__copy_args part = lt__outer_share(pc->a, begin, end);
  int64_t es = (int64_t)lt__dtype_size(part.dst_dtype);
  int in = part.ndim - 1;
  bool dense = part.src_strides[in] == 1;
  int walk = dense ? in - 1 : in; /* the dim each step writes whole; the odometer steps those outside it */
  lt__run_stream s;
  lt__run_stream_begin(&s, part.dst);
  int64_t step = part.src_strides[in], n = part.shape[in];
  lt__odometer o = {.dst_off = 0}, next = o, asked = o, ask = o; /* ask: the run to ask for; asked: the one before it */
  bool more, asking = !dense && pc->big.src;
  int64_t k = lt__stream_strided_runs_ahead(step, n, (size_t)es);
  for (int64_t i = 0; i < k && asking; i++) {
    asked = ask;
    asking = lt__odometer_step(&ask, &part, walk, -1, es, es);
  }
  do {
    char *dst = part.dst + o.dst_off;
    const char *src = part.src + o.src_off;
    more = lt__odometer_step(&next, &part, walk, -1, es, es);
    if (dst != lt__run_stream_next(&s)) {
      lt__run_stream_end(&s);
      lt__run_stream_begin(&s, dst);
    }
    if (dense) {
      lt__run_stream_put(&s, src, part.src_strides[walk] * es, part.shape[walk], part.shape[in] * es, pc->big.src);
    } else {
      if (asking) {
        lt__stream_strided_ask_next(part.src + asked.src_off, part.src + ask.src_off, step, n, (size_t)es);
        asked = ask;
        asking = lt__odometer_step(&ask, &part, walk, -1, es, es);
      }
      lt__run_stream_gather(&s, src, step, n, (size_t)es);
    }
    o = next;
  } while (more);
  lt__run_stream_end(&s);
  lt__stream_fence();
}

/* Whether large_dense_runs goes in the destination's order instead,
 * through lt__run_stream: where the runs split lines (their length or the
 * destination's start off a line) and lie back to back in the
 * destination, and are shorter than a line or RUN_STREAM_MIN_BYTES and
 * longer. Streamed in source order, each run's first and last lines take
 * plain stores, which miss: runs of 280 bytes to 1 KiB then went at a
 * fifth to half of what their aligned neighbours did. Zen 4, F32 (1,0,2)
 * at 64 MiB, three runs in turn, source order -> destination order: runs
 * of 40 bytes 0.06 -> 0.24-0.27 of memcpy, 280 0.27-0.29 -> 1.05-1.10,
 * 300 0.21-0.28 -> 0.77-0.96, 440 0.36-0.48 -> 1.14-1.17, 644 0.39-0.46
 * -> 0.93-1.35, 1020 0.56-0.58 -> 1.05-1.40; runs of 48 and 80 bytes
 * level, and 96 to 240 bytes went faster in source order (160: 1.07-1.40
 * against 0.76-0.93); at 512 MiB, two runs: 40 bytes 0.06 -> 0.29-0.30,
 * 160 1.20-1.28 -> 0.87-0.90, 300 0.18 -> 0.93-0.96, 644 0.38-0.40 ->
 * 1.09-1.44. bench_access --dtype, 512 MiB, (1,0,2), one run each: u8
 * (rows of 406 bytes) 0.24 -> 0.79, bf16 (644) 0.32 -> 1.06, f64 (1624)
 * 0.83 -> 1.00. */
enum { RUN_STREAM_MIN_BYTES = 256 };

/* Where the destination's order reads the source as a few sequential
 * streams (the runs of consecutive indices of the dim outside the row dim
 * lie back to back there), Intel cores take it even for runs of whole
 * lines: they read a few streams at once faster than one, and write one
 * stream faster than many. BHTD [4, H, T, 64] (0,2,1,3) F32 at 512 MiB
 * on a Xeon (AVX-512 with AMX), one thread, same-run ratio to memcpy,
 * medians of 7, source order -> destination order: H = 4 0.84 -> 1.03,
 * 12 0.88 -> 1.02, 32 0.86 -> 0.93, 64 0.82 -> 0.73, 128 0.81 -> 0.59.
 * Zen 5 measured H = 12 much slower that way (large_dense_runs), and
 * stays in source order. */
enum { DEST_ORDER_MAX_STREAMS = 32 };

/* Zen 4 (and any other cores) take the destination's order for fewer
 * streams. BHTD [4, H, T, 64] (0,2,1,3) at 512 MiB, one thread, the
 * order switched sample by sample in one process, speed ratio source
 * order -> destination order: F32 H = 4 1.26, 8 1.12, 12 1.14, 16
 * 0.88, 20 0.71, 32 0.58; bf16 H = 4 1.40, 8 1.13, 12 1.55-1.59, 16
 * 1.08; u8 (runs of one line) H = 4 1.84, 8 1.70, 12 2.25, 16 1.52, 20
 * 1.39, 24 0.91, 32 0.81. At H = 12 also: 64 MiB F32 1.12, bf16 1.42,
 * u8 2.42; two threads at 512 MiB F32 1.14, u8 1.54; F32 runs of 128
 * bytes 1.11, 512 bytes 1.13, 4 KiB 1.03 (16 KiB, H = 8: 1.12); and
 * (1,0,2) of F32 [8, 262144, 64] 1.14, of u8 [12, 699050, 64] 1.49. */
enum { ZEN4_DEST_ORDER_MAX_STREAMS = 12 };

bool lt__runs_in_destination_order(const lt__copy_args *a) {
  int row = a->ndim - 2;
  int64_t bytes = a->shape[row + 1] * (int64_t)lt__dtype_size(a->dst_dtype);
  bool splits_lines = bytes % 64 != 0 || (uintptr_t)a->dst % 64 != 0;
  if (a->dst_strides[row] != a->shape[row + 1]) return false;
  if (splits_lines) return bytes < 64 || bytes >= RUN_STREAM_MIN_BYTES;
  bool streams = row > 0 && a->src_strides[row - 1] == a->shape[row + 1] && a->shape[row] <= DEST_ORDER_MAX_STREAMS;
  if (!streams || lt__zen5_cores()) return false;
  return lt__intel_cores() || a->shape[row] <= ZEN4_DEST_ORDER_MAX_STREAMS;
}
