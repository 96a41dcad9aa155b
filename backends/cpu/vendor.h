/* Internal: whether this CPU's cores are Intel's (or AMD's Zen 5,
 * below), for the few walks whose best choice measured opposite on Intel
 * and AMD cores: dense runs read from a few streams in the destination's
 * order (strided_copy.c, runs_in_destination_order), bands of rows in
 * streamed batches of transposes (tiled_transpose.c, banded_rows) and
 * lagged bands where F32 rows crowd L2's sets (lagged_band, not measured
 * on AMD), how a long dense span streams (stream.c,
 * lt__stream_copy_span, not measured on AMD), the loops of step-8 gathers
 * from memory, of cached gathers of steps up to a line and of cached
 * scatters past a line (gather.c, the last not measured on AMD),
 * the order of cached transposes' tiles
 * (transpose/transpose_walk_cached.h, lt__tiles_cached), whether
 * streamed 2-byte tiles go in pairs (transpose/transpose_avx512.c,
 * takes_pairs), how large a
 * grouped transpose reads its rows in place (grouped_transpose.c,
 * reads_in_place), whether a streamed one pulls its rows in blocks
 * (pulls_blocks: on Intel, 2-byte elements only) or walks them in bands
 * (grouped_bands.c, lt__group_walks_bands, not measured on AMD). Each use gives its figures;
 * everywhere else one choice serves both. */
#ifndef LT_CPU_VENDOR_H
#define LT_CPU_VENDOR_H

#include <stdbool.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#endif

static inline bool lt__intel_cores(void) {
#if defined(__x86_64__) && defined(__GNUC__)
  return __builtin_cpu_is("intel");
#else
  return false;
#endif
}

/* Whether the cores are AMD's of family 26 (Zen 5) or later, for the
 * choices measured on them alone: how far streamed strided reads ask
 * ahead (stream_strided.c, read_ahead, where Zen 4 measured otherwise
 * and Intel cores the same as Zen 5), whether every eighth 4-byte
 * element streams (stream_strided.c, every_eighth_streams), up to what
 * size a transpose keeps plain stores (transpose/transpose_tiling.h,
 * lt__streams_output) and how cached F32 transposes walk where Zen 5
 * takes diagonals or staggers its tiles (transpose/transpose_walk_cached.h,
 * lt__zen4_f32).
 * cpuid is read once (in a VM it traps, microseconds a time); threads
 * that race here store the same answer. */
static inline bool lt__zen5_cores(void) {
#if defined(__x86_64__) && defined(__GNUC__)
  static int zen5 = -1;
  int known = __atomic_load_n(&zen5, __ATOMIC_RELAXED);
  if (known >= 0) return known;
  unsigned a = 0, b, c, d, family = 0;
  if (__builtin_cpu_is("amd") && __get_cpuid(1, &a, &b, &c, &d))
    family = ((a >> 8) & 0xF) == 0xF ? 0xF + ((a >> 20) & 0xFF) : (a >> 8) & 0xF;
  known = family >= 0x1A;
  __atomic_store_n(&zen5, known, __ATOMIC_RELAXED);
  return known;
#else
  return false;
#endif
}

#endif
