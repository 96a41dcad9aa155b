/* Streamed F32 transposes of the tile kernels in lagged bands (see
 * lt__tiled_transpose, tiled_transpose.c): a band's second strip of rows
 * one step behind its first, their tiles in turn. */
#include "dtype.h"
#include "odometer.h"
#include "stream.h"
#include "tile_job.h"
#include "vendor.h"

/* Streamed F32 transposes whose source rows lie a multiple of
 * LAG_CROWD_BYTES apart put a strip's 16 rows, a line each, in the same
 * few sets of L2 (one set where they lie a multiple of 128 KiB apart, on
 * a 2 MiB 16-way L2), which the hardware prefetcher's lines for the
 * strip ahead then push out. On Intel cores such a transpose goes in
 * lagged bands of two strips: the second strip one step behind the
 * first (an outer index of a batch whose rows run on, as banded_rows; a
 * chunk of LAG_CHUNK_BYTES of a single transpose's columns), their tiles
 * in turn (lt__transpose_pair_fn). The two strips' lines then fall in
 * sets a step apart, and each destination row gets two adjacent lines a
 * step apart in time. Xeon (AVX-512 with AMX, 2 MiB L2), F32, same-run
 * ratio to memcpy, a switch in one build, two to four runs each in turn,
 * bands of 512 bytes (or the whole transpose) -> lagged: bench_access
 * (2,1,0) at 512 MiB 0.39-0.43 -> 0.84-0.90, two threads 0.43 -> 0.90,
 * 64 MiB 0.48-0.57 -> 0.90-1.17; (1,2,0) (one transpose of 262144 x 512)
 * 0.42-0.45 -> 0.87-0.93, two threads 0.42 -> 0.90, 64 MiB 0.57-0.66 ->
 * 1.05-1.38; --permute: (1,2,0) of [256, 512, 1024] 0.36 -> 0.73, the
 * 2-D transpose of [2048, 32768] 0.39 -> 0.80, of [4096, 16384] 0.73 ->
 * 0.80, (2,1,0) of [1024, 64, 256] 1.01 -> 1.22, of [2048, 32, 256]
 * (rows 32 KiB apart) 1.10 -> 1.45-1.57; 2-D transposes with rows 32 KiB
 * apart level ([8192, 8192], [16384, 8192]). Rows 16 KiB apart gained
 * little or nothing ((2,1,0) of [4096, 16, 256] 1.30-1.37 -> 1.43-1.46,
 * the 2-D [32768, 4096] level) and keep their walk. The same lag through
 * a call per half reached 0.63-0.69 at 512 MiB (halves of two or four
 * strips 0.38-0.45): it is the strips' tiles taken in turn that keeps
 * each set to one strip's lines. bf16 measured mixed ((1,2,0) at 64 MiB
 * 1.21 -> 0.89, at 512 0.55 -> 0.61; a 2-byte tile's 32 rows fill a set
 * alone) and F64 lost ((1,2,0) at 64 MiB 1.53 -> 0.98-1.22): both keep
 * their bands. */
enum { LAG_CROWD_BYTES = 32768, LAG_CHUNK_BYTES = 2048 };

/* Every step of the band on lines on both sides, whole tiles along k:
 * what the pair kernel takes (lt__pair_fits). */
static bool lag_steps_on_lines(const lt__copy_args *a, int64_t es) {
  int in = a->ndim - 1, k = a->transpose_dim;
  if ((uintptr_t)a->dst % 64 != 0 || (uintptr_t)a->src % 64 != 0 || a->shape[k] % (64 / es) != 0) return false;
  for (int d = 0; d < a->ndim; d++)
    if ((d != in && a->dst_strides[d] * es % 64 != 0) || (d != k && a->src_strides[d] * es % 64 != 0)) return false;
  return true;
}

/* Whether a streamed transpose goes in lagged bands (above): a batch
 * that banded_rows bands (band: its answer), or a single transpose
 * (outer 1) of two strips' rows or more. */
bool lt__lagged_band(const lt__copy_args *a, int64_t es, int64_t outer, int64_t band) {
  int in = a->ndim - 1;
  if (es != 4 || !lt__intel_cores() || a->src_strides[in] * es % LAG_CROWD_BYTES != 0) return false;
  bool steps = outer == 1 ? a->shape[in] >= 2 * 64 / es : band < a->shape[in];
  return steps && lag_steps_on_lines(a, es);
}

/* Where one step of a lagged band lies: its offsets on each side and its
 * columns of k. */
typedef struct lag_step {
  int64_t dst_off, src_off, cols;
} lag_step;

static lag_step lag_next(lt__lag_walk *w, const lt__copy_args *a, int64_t es) {
  int in = a->ndim - 1, k = a->transpose_dim;
  if (w->chunk == 0) {
    lag_step s = {w->o.dst_off, w->o.src_off, a->shape[k]};
    lt__odometer_step(&w->o, a, in, k, es, es);
    return s;
  }
  int64_t cols = a->shape[k] - w->col < w->chunk ? a->shape[k] - w->col : w->chunk;
  lag_step s = {w->col * a->dst_strides[k] * es, w->col * es, cols};
  w->col += cols;
  return s;
}

/* n steps of a band of rows whose second half goes one step behind its
 * first (see lt__lagged_band): both halves' tiles in turn through the pair
 * kernel, or a call each where they differ in columns (a last chunk) or
 * only one half has a step (the first and the last). */
void lt__transpose_lagged(const lt__tile_job *j, char *dst, const char *src, int64_t rows, lt__lag_walk *w, int64_t n) {
  const lt__copy_args *a = j->a;
  int64_t es = (int64_t)lt__dtype_size(a->dst_dtype);
  int in = a->ndim - 1, k = a->transpose_dim;
  int64_t dld = a->dst_strides[k], sld = a->src_strides[in], h = rows / 2;
  char *dst2 = dst + h * es;
  const char *src2 = src + h * sld * es;
  lag_step now = {0}, before = {0};
  for (int64_t i = 0; i <= n; i++, before = now) { /* before: step i - 1, the second half's */
    if (i < n) now = lag_next(w, a, es);
    if (i < n && i > 0 && now.cols == before.cols) {
      j->pair_fn(dst + now.dst_off, src + now.src_off, dst2 + before.dst_off, src2 + before.src_off, dld, sld, h,
                 now.cols);
      continue;
    }
    if (i < n) j->fn(dst + now.dst_off, dld, src + now.src_off, sld, h, now.cols);
    if (i > 0) j->fn(dst2 + before.dst_off, dld, src2 + before.src_off, sld, rows - h, before.cols);
  }
}

/* Bands [b0, b1) of a single transpose's source rows, each lagged over
 * chunks of LAG_CHUNK_BYTES of its columns; a last band short of the
 * band's rows in one call. */
void lt__transpose_lagged_rows(void *ctx, int64_t b0, int64_t b1) {
  const lt__tile_job *j = ctx;
  const lt__copy_args *a = j->a;
  int64_t es = (int64_t)lt__dtype_size(a->dst_dtype), chunk = LAG_CHUNK_BYTES / es;
  int in = a->ndim - 1, k = a->transpose_dim;
  for (int64_t b = b0; b < b1; b++) {
    int64_t r0 = b * j->band, rows = a->shape[in] - r0 < j->band ? a->shape[in] - r0 : j->band;
    char *dst = a->dst + r0 * es;
    const char *src = a->src + r0 * a->src_strides[in] * es;
    if (rows < j->band) {
      j->fn(dst, a->dst_strides[k], src, a->src_strides[in], rows, a->shape[k]);
      continue;
    }
    lt__lag_walk w = {.chunk = chunk};
    lt__transpose_lagged(j, dst, src, rows, &w, (a->shape[k] + chunk - 1) / chunk);
  }
  lt__stream_fence();
}
