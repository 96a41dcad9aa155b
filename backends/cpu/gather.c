/* Gathers and scatters with a fixed small stride. Each common stride (-1,
 * 2, 3, 4, 8 for gathers; -1, 2, 3 for scatters) gets a loop of its own
 * with the stride a constant, which the compiler turns into vector loads
 * and permutes; other strides take a plain loop (which for scatters of 4
 * and 8 measured faster in cache: F32 s=4 at 1 MiB, 18.3 against 14.4
 * GB/s, and no slower beyond). Built at -O3 and once per instruction set (see meson.build),
 * so the permutes are AVX-512 ones where the CPU has them. */
#include "gather.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define ISA_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define ISA_CLONES
#endif

#define GATHER(T, K) for (int64_t i = 0; i < n; i++) d[i] = s[i * (K)]
#define SCATTER(T, K) for (int64_t i = 0; i < n; i++) d[i * (K)] = s[i]

/* One function per element type: the switch on the stride picks a loop
 * whose stride the compiler knows. */
#define STRIDED_FNS(T, NAME)                                                                   \
  ISA_CLONES static void gather_##NAME(T *restrict d, const T *restrict s, int64_t stride, int64_t n) { \
    switch (stride) {                                                                          \
    case -1: GATHER(T, -1); break;                                                             \
    case 2: GATHER(T, 2); break;                                                               \
    case 3: GATHER(T, 3); break;                                                               \
    case 4: GATHER(T, 4); break;                                                               \
    case 8: GATHER(T, 8); break;                                                               \
    default: GATHER(T, stride); break;                                                         \
    }                                                                                          \
  }                                                                                            \
  ISA_CLONES static void scatter_##NAME(T *restrict d, int64_t stride, const T *restrict s, int64_t n) { \
    switch (stride) {                                                                          \
    case -1: SCATTER(T, -1); break;                                                            \
    case 2: SCATTER(T, 2); break;                                                              \
    case 3: SCATTER(T, 3); break;                                                              \
    default: SCATTER(T, stride); break;                                                        \
    }                                                                                          \
  }

STRIDED_FNS(uint8_t, u8)
STRIDED_FNS(uint16_t, u16)
STRIDED_FNS(uint32_t, u32)
STRIDED_FNS(uint64_t, u64)

void lt__gather(void *dst, const void *src, int64_t stride, int64_t n, size_t es) {
  switch (es) {
  case 1: gather_u8(dst, src, stride, n); break;
  case 2: gather_u16(dst, src, stride, n); break;
  case 4: gather_u32(dst, src, stride, n); break;
  default: gather_u64(dst, src, stride, n); break;
  }
}

void lt__scatter(void *dst, int64_t stride, const void *src, int64_t n, size_t es) {
  switch (es) {
  case 1: scatter_u8(dst, stride, src, n); break;
  case 2: scatter_u16(dst, stride, src, n); break;
  case 4: scatter_u32(dst, stride, src, n); break;
  default: scatter_u64(dst, stride, src, n); break;
  }
}
