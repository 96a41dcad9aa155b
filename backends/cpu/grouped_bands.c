/* The band walk of grouped transposes. On Intel cores (and Zen 4: see
 * ZEN4_BAND_MAX_RUN_BYTES) a streamed group whose rows run on along dim
 * outer reads them a band of a tile's side (16 F32 rows) at a time,
 * where they lie, instead of gathering all of them a call at a time:
 * each band walks dim outer through its rows
 * (g->in_place, streaming stores), so the source is read as a tile's
 * side of sequential streams instead of the group's rows (48 in BHTD),
 * and each destination row gets one line per index, a band's line of it.
 * A model of the two walks' memory traffic (no shuffles) on a Xeon
 * (AVX-512 with AMX), BHTD (3,2,1,0) F32 at 512 MiB, in units of
 * memcpy's time: reading the gather's 48 streams alone took 0.73-0.79,
 * writing its 64 destination rows alone 0.68-0.75, both 1.33-1.47
 * (0.68-0.75 of memcpy's rate): they barely overlap (a sequential read
 * alone 0.67-0.69, a streamed write 0.51), and interleaving the next
 * call's gather with this call's stores did not help (0.61-0.79); the
 * bands' traffic measured 0.77-0.90 of memcpy. In the library, same-run
 * ratio to memcpy, two runs each, gathered -> bands: bench_access BHTD
 * at 512 MiB 0.738-0.765 -> 0.883-0.890, two threads 0.738-0.787 ->
 * 0.886-0.895, at 64 MiB 1.30-1.43 -> 1.65-1.77; (3,2,1,0) at 512 MiB of
 * [4, 12, 43000, 64] 0.73-0.75 -> 0.82-0.84, [8, 8, 32768, 64] 0.46-0.54
 * -> 0.68, [4, 16, 32768, 64] 0.52 -> 0.65-0.69, [4, 12, 87381, 32]
 * 0.67-0.68 -> 1.06-1.07, [4, 12, 21845, 128] 0.63-0.70 -> 1.06-1.08,
 * [4, 4, 131072, 64] (one band) 0.64-0.71 -> 0.70-0.75, bf16 [4, 16,
 * 65536, 64] 0.40-0.42 -> 0.52-0.53; at 256 MiB [2, 32, 16384, 64] 0.49
 * -> 0.68-0.86. Where the destination's rows (dim k's) lie an even
 * number of lines apart, smaller copies lost or tied instead ([4, 12, T,
 * 64], T = 800 to 4000, 9 to 47 MiB, eleven shapes: 0.69-1.09 ->
 * 0.64-0.89; [4, 12, 4004, 32] 0.82 -> 0.72; [4, 8, 2001, 64], rows 2T
 * lines apart, 14.9-20.7 -> 13.6-15.0 GB/s; T = 5456 and 5460, 64 MiB,
 * level; T = 10922 and 21846, 128 and 256 MiB, 0.65-0.77 -> 0.84-0.90),
 * while an odd number gained at every size (T = 683, 1001, 2401, 2731, 8
 * to 32 MiB, 0.67-0.84 -> 1.07-1.34; [4, 12, 2001, 32] 0.66-0.82 ->
 * 1.14-1.19): so rows an even number of lines apart take bands from
 * BANDS_EVEN_MIN_BYTES. (The rows must run on along dim outer: a band of
 * rows that step away would be no stream.) Zen 4 takes them too, for F32
 * (see ZEN4_BAND_MAX_RUN_BYTES); Zen 5, not measured, pulls its blocks
 * (pulls_blocks). */
#include "grouped_plan.h"
#include "odometer.h"
#include "stream.h"
#include "vendor.h"

#define BANDS_EVEN_MIN_BYTES ((int64_t)64 << 20)

/* Zen 4 (and any other cores but Zen 5's) walks bands where the
 * source's runs (dim k, D of BHTD) are F32 and at most this long.
 * Pulled blocks -> bands, the walk switched sample by sample in one
 * process, speed ratio, one thread, F32 (3,2,1,0) of [4, 12, T, D]: D
 * = 64 at 512 MiB (T = 174762) 1.34, (T = 174763) 1.74, 128 MiB 1.92,
 * 64 MiB (T = 21845, bench_access's, 1.74; 21847 1.83), 8-12 MiB (T =
 * 683, 1001, rows an odd number of lines apart) 1.60-1.64, 32-47 MiB
 * (T = 2730, 4000, even) 0.87-1.01, which BANDS_EVEN_MIN_BYTES leaves
 * to the pull; D = 16 1.86, D = 32 1.69-1.82, D = 96 0.89, D = 128
 * 0.81-0.82, D = 256 1.03; [8, 8, 32768, 64] 1.35, [4, 16, 32768, 64]
 * 1.41, [4, 4, 131072, 64] 1.09, [2, 32, 16384, 64] 1.44; two threads,
 * bench_access's BHTD at 512 MiB, 1.22. bf16 [4, 16, 65536, 64]
 * measured level (0.98) and keeps its pull. */
enum { ZEN4_BAND_MAX_RUN_BYTES = 256 };

static bool cores_take_bands(const lt__group_plan *g) {
  if (lt__intel_cores()) return true;
  return !lt__zen5_cores() && g->es == 4 && g->a->shape[g->k] * (int64_t)g->es <= ZEN4_BAND_MAX_RUN_BYTES;
}

bool lt__group_walks_bands(const lt__group_plan *g, int64_t bytes) {
  const lt__copy_args *a = g->a;
  int64_t es = (int64_t)g->es, t = 64 / es;
  if (!g->streamed || !cores_take_bands(g) || g->outer < 0 || a->src_strides[g->outer] != a->shape[g->k])
    return false; /* no run along dim outer to walk */
  if (g->rows % t || a->shape[g->k] % t || !lt__group_rows_on_lines(a, es))
    return false; /* not whole tiles into whole lines */
  if (!lt__transpose_rows_streamed_kernel(g->es)) return false;
  for (int d = 0; d < g->first; d++) /* every call's destination on a line too */
    if (d != g->k && a->dst_strides[d] % t) return false;
  bool odd_lines = a->dst_strides[g->k] / t % 2 == 1;
  return odd_lines || bytes >= BANDS_EVEN_MIN_BYTES;
}

void lt__group_band_box(const lt__group_plan *g, int64_t c0, int64_t c1, int64_t i0, int64_t i1) {
  const lt__copy_args *a = g->a;
  int64_t es = (int64_t)g->es, t = 64 / es;
  int64_t dst_step = a->dst_strides[g->outer] * es, src_step = a->src_strides[g->outer] * es;
  lt__odometer o = {.dst_off = 0};
  do
    for (int64_t band = 0; band < g->rows; band += t) {
      const char *at[64];
      for (int64_t r = 0; r < t; r++) at[r] = a->src + o.src_off + g->row_at[band + r] + (i0 * src_step + c0 * es);
      char *to = a->dst + o.dst_off + (band + c0 * a->dst_strides[g->k]) * es + i0 * dst_step;
      for (int64_t i = i0; i < i1; i++, to += dst_step) {
        g->in_place(to, a->dst_strides[g->k], at, t, c1 - c0);
        for (int64_t r = 0; r < t; r++) at[r] += src_step;
      }
    }
  while (lt__odometer_step(&o, a, g->outer, g->k, es, es));
  lt__stream_fence();
}
