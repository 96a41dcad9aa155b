/* Internal: whether this CPU's cores are Intel's, for the few walks whose
 * best choice measured opposite on Intel and AMD cores: dense runs read
 * from a few streams in the destination's order (strided_copy.c,
 * runs_in_destination_order), bands of rows in streamed batches of
 * transposes (tiled_transpose.c, banded_rows), the loop of step-8
 * gathers from memory (gather.c), the order of cached transposes'
 * tiles (transpose/transpose_walk_cached.h, lt__tiles_cached) and how large a
 * grouped transpose reads its rows in place (grouped_transpose.c,
 * reads_in_place). Each use gives its figures; everywhere else one choice
 * serves both. */
#ifndef LT_CPU_VENDOR_H
#define LT_CPU_VENDOR_H

#include <stdbool.h>

static inline bool lt__intel_cores(void) {
#if defined(__x86_64__) && defined(__GNUC__)
  return __builtin_cpu_is("intel");
#else
  return false;
#endif
}

#endif
