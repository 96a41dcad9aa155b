/* Finding the cores whose measured choices the backend takes (vendor.h),
 * once per process: from cpuid, unless LT_CPU_CORES names other cores.
 * The override is for tests: a walk chosen for Intel cores or Zen 5 runs
 * only where the tests run on such a machine, so the suites run again
 * under each name (tests/meson.build, suite "cores") and so check every
 * machine's walks against the naive model on whatever CPU they find. */
#include <stdlib.h>
#include <string.h>

#include "vendor.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#endif

_Atomic int lt__cores_found = -1;

/* cpuid is read once: in a VM it traps, microseconds a time. */
static lt__cores_kind from_cpuid(void) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_is("intel")) return LT__CORES_INTEL;
  unsigned a = 0, b, c, d, family = 0;
  if (__builtin_cpu_is("amd") && __get_cpuid(1, &a, &b, &c, &d))
    family = ((a >> 8) & 0xF) == 0xF ? 0xF + ((a >> 20) & 0xFF) : (a >> 8) & 0xF;
  return family >= 0x1A ? LT__CORES_ZEN5 : LT__CORES_OTHER;
#else
  return LT__CORES_OTHER;
#endif
}

/* LT_CPU_CORES=intel, zen5 or other; unset or any other value leaves the
 * cores as found. */
static lt__cores_kind overridden(lt__cores_kind found) {
  const char *name = getenv("LT_CPU_CORES");
  if (!name) return found;
  if (strcmp(name, "intel") == 0) return LT__CORES_INTEL;
  if (strcmp(name, "zen5") == 0) return LT__CORES_ZEN5;
  if (strcmp(name, "other") == 0) return LT__CORES_OTHER;
  return found;
}

lt__cores_kind lt__find_cores(void) {
  lt__cores_kind k = overridden(from_cpuid());
  atomic_store_explicit(&lt__cores_found, (int)k, memory_order_relaxed);
  return k;
}
