/* Internal: which cores this CPU has, for the walks whose best choice
 * measured differently on Intel cores, on AMD's Zen 5 and on the others
 * (Zen 4 among them). Each of the three apart: how many streams dense
 * runs may be read from in the destination's order (dest_order_copy.c,
 * lt__runs_in_destination_order: Intel's 32, Zen 4's 12, Zen 5's none),
 * which streamed grouped transposes walk their rows in bands
 * (grouped_bands.c, lt__group_walks_bands: Intel's, Zen 4's of F32
 * source runs up to 256 bytes, none on Zen 5, where it was not
 * measured), and up to what size a transpose keeps plain stores
 * (transpose/transpose_tiling.h, lt__streams_output: 1 MiB on Intel, 4
 * on Zen 4, 8 on Zen 5). Intel cores against AMD's:
 *  - streamed batches of transposes go in bands of rows
 *    (tiled_transpose.c, banded_rows), or in lagged bands where F32 rows
 *    crowd L2's sets (lagged_bands.c, lt__lagged_band, not measured on
 *    AMD); only AMD's take the slices of cached ones side by side
 *    (side_by_side);
 *  - a long dense span streams in blocks of pages (stream.c,
 *    lt__stream_copy_span, not measured on AMD);
 *  - the loops of step-8 gathers from memory, of gathers of a line's
 *    step from memory, of cached gathers of steps up to a line and of
 *    cached scatters past a line (gather.c, the last not measured on
 *    AMD), and whether the masked scatters of short steps into memory
 *    ask for lines ahead (gather.c, Intel's only);
 *  - the order of cached transposes' tiles
 *    (transpose/transpose_walk_cached.h, lt__tiles_cached), and whether
 *    streamed 2-byte tiles go in pairs (transpose/transpose_tile_pairs.h,
 *    lt__takes_pairs);
 *  - how large a grouped transpose reads its rows in place
 *    (grouped_transpose.c, reads_in_place), whether a streamed one pulls
 *    its rows in blocks (pulls_blocks: on Intel, 2-byte elements only).
 * Zen 5 against the others: see lt__zen5_cores. Each use gives its
 * figures; everywhere else one choice serves all. Every choice is correct
 * on any CPU that has the instructions it uses, so LT_CPU_CORES (intel,
 * zen5 or other) makes the backend take another machine's choices, and
 * the tests check each machine's walks wherever they run (vendor.c). */
#ifndef LT_CPU_VENDOR_H
#define LT_CPU_VENDOR_H

#include <stdatomic.h>
#include <stdbool.h>

/* The cores whose measured choices the backend takes: Intel's, AMD's of
 * family 26 (Zen 5) or later, or any other (the choices measured on Zen
 * 4, and where nothing was measured apart, the one choice for all). */
typedef enum lt__cores_kind { LT__CORES_OTHER, LT__CORES_INTEL, LT__CORES_ZEN5 } lt__cores_kind;

/* An lt__cores_kind once found, -1 before (vendor.c). */
extern _Atomic int lt__cores_found;
lt__cores_kind lt__find_cores(void);

/* One relaxed load after the first call: the choices are made per copy
 * and per run, so they must cost no more than the __builtin_cpu_is they
 * replaced; threads that race to find the cores store the same answer. */
static inline lt__cores_kind lt__cores(void) {
  int k = atomic_load_explicit(&lt__cores_found, memory_order_relaxed);
  return k >= 0 ? (lt__cores_kind)k : lt__find_cores();
}

static inline bool lt__intel_cores(void) { return lt__cores() == LT__CORES_INTEL; }

/* For the choices measured on Zen 5 alone: how far streamed strided
 * reads ask ahead (stream_strided.c, read_ahead, where Zen 4 measured
 * otherwise and Intel cores the same as Zen 5), whether every eighth
 * 4-byte element streams (stream_strided.c, every_eighth_streams), how
 * cached F32 transposes walk where Zen 5 takes diagonals or staggers
 * its tiles (transpose/transpose_walk_cached.h, lt__zen4_f32) and
 * whether a grouped transpose's gathers ask for lines ahead into L1
 * (grouped_transpose.c, ask_ahead: Zen 5's only); and Zen 4's alone:
 * where cached transposes walk along the source's rows while the
 * others go down the columns (lt__zen4_along_rows), and whether F32
 * slices side by side go two at a time (transpose_avx512_side.h,
 * side_in_pairs). */
static inline bool lt__zen5_cores(void) { return lt__cores() == LT__CORES_ZEN5; }

/* Neither Intel's cores nor Zen 5: Zen 4 and any other, which take the
 * choices measured on Zen 4 alone (those named above). */
static inline bool lt__other_cores(void) { return lt__cores() == LT__CORES_OTHER; }

#endif
