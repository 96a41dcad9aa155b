/* The CPU strided copy. The core's planner (copy_plan.c) has ordered the
 * dims by the destination, merged what it could and named the kind of
 * loop. A true transpose goes to the 2-D tile kernels
 * (tiled_transpose.c); everything else is an outer
 * odometer over all but the innermost dim with one inner run per step: a
 * memcpy when both sides are dense, a typed strided loop otherwise, or a
 * conversion when the dtypes differ; large dense copies stream their
 * output. Large copies that cannot fail are split over the library's
 * thread pool. */
#include <string.h>

#include "cast.h"
#include "cpu_kernels.h"
#include "dtype.h"
#include "error.h"
#include "gather.h"
#include "layout.h"
#include "odometer.h"
#include "parallel_copy.h"
#include "pool.h"
#include "runs.h"
#include "stream.h"
#include "tiled_transpose.h"

typedef struct run {
  char *dst;
  const char *src;
  int64_t n;          /* elements in the run */
  int64_t dst_step;   /* bytes between elements */
  int64_t src_step;
  lt__outgrows big;   /* of the whole copy, not just this run */
} run;

/* Streamed dense runs shorter than this ask for lines ahead without
 * looking at the next run (lt__stream_copy_ahead_to): runs of a line or
 * two had paid for the look (with a test in the copy's loop then) more
 * than they could gain (u8 BHTD (0,2,1,3) at 512 MiB, runs of 64 bytes,
 * 0.69-0.74 of memcpy -> 0.54; bf16 at 64 MiB 1.05 -> 0.86-0.93), and
 * runs of 768 bytes with gaps of 128 measured level with it (F32 x[:,
 * 16:208] of [262144, 224]). */
enum { ASK_NEXT_MIN_BYTES = 1024 };

#define STRIDED_LOOP(T)                                                        \
  for (int64_t i = 0; i < r->n; i++) {                                         \
    T v;                                                                       \
    memcpy(&v, r->src + i * r->src_step, sizeof v);                            \
    memcpy(r->dst + i * r->dst_step, &v, sizeof v);                            \
  }

/* A streamed gather (see streams_gather) that lt__stream_strided has no
 * kernel for (those go through lt__copy_in_destination_order) goes through
 * a buffer in L1 and out with streaming stores (no read-for-ownership of
 * the destination's lines), the first piece ending where the destination's
 * lines begin. Its source is not asked for ahead: GCC 12 had deleted the
 * loop that asked for it four pieces ahead into L2 (a loop of nothing but
 * __builtin_prefetch), and restored with asm prefetches it measured
 * slower or level (Xeon, F32, bench_access, same-run ratio to memcpy, two
 * runs each in turn: from 64 MiB s=4 0.51-0.52 -> 0.47-0.50, s=8
 * 0.29 -> 0.26-0.28; from 512 MiB level). */
enum { GATHER_PIECE_BYTES = 2048 };

static void gather_streamed(const run *r, size_t es) {
  _Alignas(64) char buf[GATHER_PIECE_BYTES];
  int64_t per = GATHER_PIECE_BYTES / (int64_t)es, stride = r->src_step / (int64_t)es;
  int64_t head = (int64_t)((64 - (uintptr_t)r->dst % 64) % 64) / (int64_t)es;
  for (int64_t i = 0, k; i < r->n; i += k) {
    k = i == 0 && head ? head : per;
    if (k > r->n - i) k = r->n - i;
    const char *s = r->src + i * r->src_step;
    lt__gather(buf, s, stride, k, es, false);
    lt__stream_copy(r->dst + i * (int64_t)es, buf, (size_t)k * es);
  }
}

static void move_run(const run *r, size_t es, bool stream) {
  if ((size_t)r->dst_step == es && (size_t)r->src_step == es) {
    if (stream) {
      /* Streamed runs come in source order (large_dense_runs): what the
       * next runs read lies just ahead. */
      if (r->big.src) lt__stream_copy_ahead(r->dst, r->src, (size_t)r->n * es);
      else lt__stream_copy(r->dst, r->src, (size_t)r->n * es);
    } else
      memcpy(r->dst, r->src, (size_t)r->n * es);
    return;
  }
  /* One side dense: a gather or scatter the compiler vectorises (the
   * runs' steps are whole elements; a stride-0 source is a fill). */
  if ((size_t)r->dst_step == es && r->src_step != 0) {
    int64_t stride = r->src_step / (int64_t)es;
    if (!stream) lt__gather(r->dst, r->src, stride, r->n, es, !r->big.src);
    else gather_streamed(r, es);
    return;
  }
  if ((size_t)r->src_step == es) {
    lt__scatter(r->dst, r->dst_step / (int64_t)es, r->src, r->n, es, !r->big.dst);
    return;
  }
  switch (es) {
  case 1: STRIDED_LOOP(uint8_t) break;
  case 2: STRIDED_LOOP(uint16_t) break;
  case 4: STRIDED_LOOP(uint32_t) break;
  default: STRIDED_LOOP(uint64_t) break;
  }
}

/* A conversion with a vector kernel: direct on dense runs; strided runs go
 * through a small stack buffer (gather, convert, scatter) so that the
 * kernel still sees contiguous data. The gather reads as the copy's
 * source calls for (F32 -> BF16 from 256 MiB, same-run ratio to memcpy,
 * cached loops -> as sized: s=32 0.033-0.034 -> 0.037-0.038, s=64 0.033
 * -> 0.037, s=16 0.101-0.120 -> 0.101-0.128). The scatter's run carries
 * no sizes, so it counts as cached whatever the destination's size:
 * steps of up to 16 bytes take the masked chunk stores (F32 -> BF16 into
 * 1 MiB, loops -> masked: s=2 0.18-0.20 -> 0.29-0.31, s=4 0.16 -> 0.24,
 * s=8 0.15-0.16 -> 0.18; into 256 MiB, medians of five runs in turn,
 * BF16 s=4 0.33 -> 0.39, s=8 0.24 -> 0.26, FP8 s=2 0.28 -> 0.41, s=4
 * 0.31 -> 0.38, each run spreading a third either way), longer ones the
 * cached loops, as a BF16 destination's single store stream measured
 * slower in 512-element pieces (F32 -> BF16 into 256 MiB, s=8, five
 * rounds: 0.27-0.37 -> 0.21-0.33). */
static void convert_run_fast(const run *r, lt__cast_fn fn, size_t des, size_t ses) {
  if ((size_t)r->dst_step == des && (size_t)r->src_step == ses) {
    fn(r->dst, r->src, r->n);
    return;
  }
  enum { CHUNK = 512 };
  _Alignas(64) char in[CHUNK * 8], out[CHUNK * 8];
  for (int64_t i = 0; i < r->n; i += CHUNK) {
    int64_t k = r->n - i < CHUNK ? r->n - i : CHUNK;
    run gather = {.dst = in, .src = r->src + i * r->src_step, .n = k, .dst_step = (int64_t)ses,
                  .src_step = r->src_step, .big = r->big};
    move_run(&gather, ses, false);
    fn(out, in, k);
    run scatter = {.dst = r->dst + i * r->dst_step, .src = out, .n = k, .dst_step = r->dst_step,
                   .src_step = (int64_t)des};
    move_run(&scatter, des, false);
  }
}

static lt_status convert_run(const run *r, const lt__copy_args *a) {
  for (int64_t i = 0; i < r->n; i++) {
    const char *s = r->src + i * r->src_step;
    lt__scalar v = lt__scalar_load(a->src_dtype, s);
    if (!lt__scalar_store(a->dst_dtype, r->dst + i * r->dst_step, v, a->mode))
      return lt__fail(LT_ERR_ARG, "%s value %.17g is NaN or out of range for %s",
                      lt_dtype_name(a->src_dtype), v.f, lt_dtype_name(a->dst_dtype));
  }
  return LT_OK;
}

/* Dense runs of one dtype in cache, by the thousand where they are short
 * (a permutation that keeps a short inner dim, an expand): the row dim
 * (the next one out) and the one outside it are the two loops of
 * lt__copy_runs, which moves each run inline, the odometer stepping only
 * the dims outside those.
 *
 * Where the runs of consecutive indices of the outer dim lie back to back
 * in the source (a permutation that swaps two outer dims, (1,0,2)) and
 * the row dim has more indices than MAX_RUN_STREAMS, the outer dim's
 * indices go RUN_BLOCK at a time inside the row loop. One at a time, the
 * source would be read as a stream per row index, each a run at a time
 * (and, when a power of two apart, sharing the cache's sets); in blocks
 * it is read RUN_BLOCK runs in a row, the destination written as
 * RUN_BLOCK streams. F32 in cache, same-run ratio to memcpy, one run at a
 * time -> blocks of 4: 64^3 (1,0,2) 0.82-0.86 -> 0.87-0.91, 128 x 128 x
 * 16 (1,0,2) 0.39-0.48 -> 0.57-0.59 (blocks of 8 level with 4, of 16
 * worse); BHTD (0,2,1,3) at 1 MiB, 12 streams, is faster one at a time
 * (0.90-0.93 against 0.74-0.87 blocked). */
enum { RUN_BLOCK = 4, MAX_RUN_STREAMS = 16 };
static void dense_runs(const lt__copy_args *a, int64_t bytes, int64_t es) {
  int row = a->ndim - 2, out = row - 1; /* out < 0: no dim outside the row dim */
  int64_t n = a->shape[row], dstep = a->dst_strides[row] * es, sstep = a->src_strides[row] * es;
  int64_t m = out >= 0 ? a->shape[out] : 1;
  int64_t dout = out >= 0 ? a->dst_strides[out] * es : 0, sout = out >= 0 ? a->src_strides[out] * es : 0;
  int64_t block = out >= 0 && sout == bytes && n > MAX_RUN_STREAMS ? RUN_BLOCK : 1;
  lt__odometer o = {.dst_off = 0};
  do
    for (int64_t j0 = 0; j0 < m; j0 += block) {
      lt__runs w = {n, dstep, sstep, m - j0 < block ? m - j0 : block, dout, sout};
      lt__copy_runs(a->dst + o.dst_off + j0 * dout, a->src + o.src_off + j0 * sout, (size_t)bytes, &w);
    }
  while (lt__odometer_step(&o, a, out > 0 ? out : 0, -1, es, es));
}

/* The source of the run after the one at odometer o (runs along dim
 * inner), or NULL after the last. */
static const char *next_run(const lt__copy_args *a, const lt__odometer *o, int inner, size_t des, size_t ses) {
  if (o->idx[inner - 1] + 1 < a->shape[inner - 1]) /* the odometer's next step, most often */
    return a->src + o->src_off + a->src_strides[inner - 1] * (int64_t)ses;
  lt__odometer nx = *o;
  return lt__odometer_step(&nx, a, inner, -1, (int64_t)des, (int64_t)ses) ? a->src + nx.src_off : NULL;
}

/* The copy of a whole lt__copy_args on this thread; dense runs of one
 * dtype go out with streaming stores when stream (the caller fences),
 * their source asked for ahead when the whole copy's source outgrows the
 * caches (big.src; a share of it may not, but is read from memory all the
 * same). */
static lt_status copy_block(const lt__copy_args *a, lt__cast_fn fast, bool stream, lt__outgrows big) {
  size_t des = lt__dtype_size(a->dst_dtype), ses = lt__dtype_size(a->src_dtype);
  bool same = a->dst_dtype == a->src_dtype;
  int inner = a->ndim - 1;
  run r = {.n = 1, .dst_step = (int64_t)des, .src_step = (int64_t)ses, .big = big};
  if (inner >= 0) {
    r.n = a->shape[inner];
    r.dst_step = a->dst_strides[inner] * (int64_t)des;
    r.src_step = a->src_strides[inner] * (int64_t)ses;
  }
  lt__odometer o = {.dst_off = 0};
  if (same && !stream && r.dst_step == (int64_t)des && r.src_step == (int64_t)des && inner >= 1) {
    dense_runs(a, r.n * (int64_t)des, (int64_t)des);
    return LT_OK;
  }
  /* Streamed dense runs of ASK_NEXT_MIN_BYTES or more from a source past
   * the caches ask for lines ahead, and for that want the next run's
   * source: a loop of their own, so that other runs pay nothing for it. */
  if (same && stream && big.src && inner >= 1 && r.dst_step == (int64_t)des && r.src_step == (int64_t)des &&
      r.n * (int64_t)des >= ASK_NEXT_MIN_BYTES) {
    do
      lt__stream_copy_ahead_to(a->dst + o.dst_off, a->src + o.src_off, (size_t)(r.n * (int64_t)des),
                               next_run(a, &o, inner, des, ses));
    while (lt__odometer_step(&o, a, inner, -1, (int64_t)des, (int64_t)ses));
    return LT_OK;
  }
  do {
    r.dst = a->dst + o.dst_off;
    r.src = a->src + o.src_off;
    if (same) move_run(&r, des, stream);
    else if (fast) convert_run_fast(&r, fast, des, ses);
    else if (convert_run(&r, a) != LT_OK) return LT_ERR_ARG;
  } while (lt__odometer_step(&o, a, inner, -1, (int64_t)des, (int64_t)ses));
  return LT_OK;
}

/* ---- everything else ---- */

/* One thread's share: indices [begin, end) of the outermost dim. */
static void copy_range(void *ctx, int64_t begin, int64_t end) {
  const lt__parallel_copy *pc = ctx;
  /* The whole copy (one thread) takes a as it is: a copy of it (`rep movs`,
   * see lt__plan_copy) cost lt_copy of 16 strided floats 185 ns, not 152. */
  if (begin == 0 && end == pc->a->shape[0]) {
    copy_block(pc->a, pc->fast, pc->stream, pc->big);
  } else {
    lt__copy_args part = lt__outer_share(pc->a, begin, end);
    copy_block(&part, pc->fast, pc->stream, pc->big);
  }
  if (pc->stream) lt__stream_fence();
}

/* ---- large copies of dense runs (permutations that keep the inner dim) ---- */

/* Walks the source in order (the innermost dim stays innermost): long
 * sequential reads, the scattered destination runs written by streaming
 * stores, which need no read and no order. */
static void order_by_source(lt__copy_args *a) {
  for (int i = 1; i < a->ndim - 1; i++)
    for (int j = i; j > 0; j--) {
      if (lt__stride_mag(a->src_strides[j - 1]) >= lt__stride_mag(a->src_strides[j])) break;
      int64_t t = a->shape[j - 1];
      a->shape[j - 1] = a->shape[j], a->shape[j] = t;
      t = a->src_strides[j - 1];
      a->src_strides[j - 1] = a->src_strides[j], a->src_strides[j] = t;
      t = a->dst_strides[j - 1];
      a->dst_strides[j - 1] = a->dst_strides[j], a->dst_strides[j] = t;
    }
}

/* A copy of dense runs too large for the caches, streamed in source
 * order, its source read ahead only where that outgrows the caches too:
 * one that does not (an expand's row, read again for every row of the
 * output) stays cached, and asking for it ahead only adds instructions
 * (expand [1,N]->[M,N] at 512 MiB, same-run ratio to memcpy 1.71-1.85
 * with, 1.91-2.42 without). Walking the destination in order instead (its lines written in
 * sequence, the source read as one stream per run between a run and the
 * next of its stream) measured faster on one machine and much slower on
 * another, where source order did well on both: BHTD (0,2,1,3) at 512
 * MiB (12 streams), same-run ratio to memcpy, destination order against
 * source order: Xeon 1.00 against 0.82, Zen 5 0.26-0.87 against
 * 1.02-1.27; (1,0,2) of 512^3 (512 streams): Xeon 0.57 against 0.87.
 * (Blocks of the stream dim, a stream read 4-64 KiB at a time, measured
 * at best level with source order on Zen 5, and slower for (1,0,2);
 * bands of 16 streams level with it for (1,0,2) on the Xeon.) Runs that
 * split lines, and runs read from a few streams on Intel cores and Zen 4
 * (not Zen 5), go in the destination's order where that measured faster
 * (lt__runs_in_destination_order, dest_order_copy.c). */
static void large_dense_runs(const lt__copy_args *a, int64_t bytes, lt__outgrows big) {
  if (lt__runs_in_destination_order(a)) {
    lt__parallel_copy pc = {a, NULL, true, big};
    lt__parallel_for(a->shape[0], bytes, lt__copy_in_destination_order, &pc);
    return;
  }
  lt__copy_args walk = *a;
  order_by_source(&walk);
  lt__parallel_copy pc = {&walk, NULL, true, big};
  lt__parallel_for(walk.shape[0], bytes, copy_range, &pc);
}

/* ---- one dense span ---- */

/* A dense span of DENSE_STREAM_MIN_BYTES or more goes out with streaming
 * stores, its source not asked for ahead. memcpy would have kept plain
 * stores up to a threshold that glibc derives from the cache size the
 * CPU reports, which under a hypervisor can be the whole host's (this
 * one reports 384 MiB, which put the threshold at 288 MiB), and past it
 * took a loop slower than this one. Zen 5
 * (32 MiB L3), F32, bench_access contiguous, same-run ratio to memcpy,
 * two to four runs each (memcpy's path 0.99-1.04 at every size),
 * streamed, one thread: 512 MiB 1.26-1.27, 64 MiB 1.26-1.32, 32 MiB
 * 1.15-1.18, 16 MiB 1.08-1.34, 12 MiB 0.90-0.95, 8 MiB 0.67-0.70; two
 * threads, against a two-thread memcpy: 16 MiB 0.67-0.82, 24 MiB
 * 1.02-1.06, 32 MiB 1.17-1.25, 64 and 512 MiB 1.20-1.35. Below the
 * floor, source and destination together still fit the L3 (or nearly)
 * and memcpy's plain stores leave them there. Asking LT__READ_AHEAD bytes
 * ahead, as the streamed runs of large_dense_runs do, gave 1.15-1.17 at
 * 64 and 512 MiB: a single sequential stream is one the hardware
 * prefetcher follows alone. (Intel cores stream it in blocks of pages:
 * see lt__stream_copy_span.) */
#define DENSE_STREAM_MIN_BYTES ((int64_t)24 << 20)

/* One thread's share of a dense span: elements [begin, end). */
static void stream_span_range(void *ctx, int64_t begin, int64_t end) {
  const lt__copy_args *a = ctx;
  int64_t es = (int64_t)lt__dtype_size(a->dst_dtype);
  lt__stream_copy_span(a->dst + begin * es, a->src + begin * es, (size_t)((end - begin) * es));
  lt__stream_fence();
}

/* Whether a large gather streams its destination: into dense runs only
 * (those of a strided destination share their lines; dense copies have
 * paths of their own, stream_span_range and large_dense_runs), and only
 * from a source step of at most MAX_STREAMED_STEP elements or one that
 * lt__stream_strided has a kernel for, where the destination's lines
 * come nearly as fast as the source's. From a longer step they come
 * slowly, and plain stores, which let the caches gather them, measured
 * faster than the gather through a buffer (F32 at 512 MiB on Zen 5,
 * same-run ratio to memcpy, streamed -> plain: s=4 0.33 -> 0.39, s=8
 * 0.18 -> 0.21, s=64 0.055 -> 0.061, s=16 and 32 level; the software
 * read-ahead made no difference either way); the kernels stream straight
 * from the source and measured ahead (stream_strided.c). */
enum { MAX_STREAMED_STEP = 3 };

static bool streams_gather(const lt__copy_args *a) {
  int64_t step = a->src_strides[a->ndim - 1];
  bool short_step = step >= -MAX_STREAMED_STEP && step <= MAX_STREAMED_STEP;
  return a->dst_strides[a->ndim - 1] == 1 && step != 1 &&
         (short_step || lt__stream_strided_has(step, lt__dtype_size(a->src_dtype)));
}

lt_status lt__cpu_copy(const lt__copy_args *a) {
  bool same = a->dst_dtype == a->src_dtype;
  lt__cast_fn fast = same ? NULL : lt__cast_best(a->dst_dtype, a->src_dtype, a->mode);
  /* Only copies that cannot fail go to the pool: a failure's message is
   * thread-local and must reach the caller's thread. */
  lt__outgrows big = {lt__outgrows_cache(a->ndim, a->shape, a->src_strides, lt__dtype_size(a->src_dtype)),
                      lt__outgrows_cache(a->ndim, a->shape, a->dst_strides, lt__dtype_size(a->dst_dtype))};
  if (a->ndim == 0 || (!same && !fast)) return copy_block(a, fast, false, big);
  int64_t numel = 1;
  for (int d = 0; d < a->ndim; d++) numel *= a->shape[d];
  int64_t bytes = numel * (int64_t)(lt__dtype_size(a->dst_dtype) + lt__dtype_size(a->src_dtype));
  if (lt__tiled_transpose(a, numel, bytes)) return LT_OK;
  if (a->kind == LT__PLAN_SPAN && a->ndim == 1 && same &&
      numel * (int64_t)lt__dtype_size(a->dst_dtype) >= DENSE_STREAM_MIN_BYTES) {
    lt__parallel_for(numel, bytes, stream_span_range, (void *)a);
    return LT_OK;
  }
  if (a->kind == LT__PLAN_RUNS && same && numel * (int64_t)lt__dtype_size(a->dst_dtype) >= LT__STREAM_MIN_BYTES) {
    large_dense_runs(a, bytes, big);
    return LT_OK;
  }
  bool stream = same && streams_gather(a) && numel * (int64_t)lt__dtype_size(a->dst_dtype) >= LT__STREAM_MIN_BYTES;
  lt__parallel_copy pc = {a, fast, stream, big};
  /* A streamed gather that lt__stream_strided's kernels do (a reversed run,
   * every other element, every third or fourth element, every eighth word)
   * goes in the destination's order, so that the lines where one
   * destination row ends and the next begins go out whole and streamed too.
   * Run by run, each took plain stores to its first and last lines, which
   * missed: Xeon, F32 rows of 11585 at 512 MiB, same-run ratio to memcpy,
   * bench_access, three runs in turn: step 2 0.50 -> 0.60-0.62, reversed
   * 0.80-0.82 -> 0.88-0.91; two threads 0.51-0.54 -> 0.59-0.62 and
   * 0.81-0.87 -> 0.91-0.92 (rows of 16384, whose lines no two rows share,
   * one thread: 0.62 and 0.95-0.98); 64 MiB level. */
  size_t es = lt__dtype_size(a->dst_dtype);
  if (stream && lt__stream_strided_has(a->src_strides[a->ndim - 1], es) && (uintptr_t)a->dst % es == 0) {
    lt__parallel_for(a->shape[0], bytes, lt__copy_in_destination_order, &pc);
    return LT_OK;
  }
  lt__parallel_for(a->shape[0], bytes, copy_range, &pc);
  return LT_OK;
}
