/* Internal: whether this CPU's cores are Intel's, for the few walks whose
 * best choice measured opposite on Intel and AMD cores. Each use gives
 * its figures; everywhere else one choice serves both. */
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
