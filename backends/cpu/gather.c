/* Gathers and scatters with a fixed small stride. Each common stride (-1,
 * 2, 3, 4, 8 for gathers, 8 from memory only on Intel cores; -1, 2, 3 for
 * scatters) gets a loop of its own with the stride a constant, which the
 * compiler turns into vector loads and permutes; other strides take an
 * unrolled loop (GATHER_ANY, GATHER_WALK, SCATTER_ANY), except where the
 * copy's side that steps outgrows the caches: there gathers of a line or
 * more per step (on Intel cores, of a line, from one load instruction:
 * gather_lines; on Zen 5 none, which take the vectorised GATHER_ANY) also
 * read ahead (gather_far), and
 * scatters of 16 to 64 bytes per step (every step from 16 bytes on Intel
 * cores) store from one instruction, asking for lines ahead
 * (scatter_one), as Intel cores' scatters in cache do past a line
 * (scatters_one_store). Scatters with four or
 * more elements to a line take masked stores on AVX-512
 * (short_steps_avx512.c) before any of these, and gathers with such
 * steps of five elements or more take masked loads. Built at -O3
 * and once per instruction set (see meson.build), so the permutes are
 * AVX-512 ones where the CPU has them. */
#include "gather.h"

#include "short_steps_avx512.h"
#include "vendor.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define ISA_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define ISA_CLONES
#endif

#define GATHER(T, K) for (int64_t i = 0; i < n; i++) d[i] = s[i * (K)]
#define SCATTER(T, K) for (int64_t i = 0; i < n; i++) d[i * (K)] = s[i]

/* Any other stride: eight accesses per step, each its own instruction.
 * The hardware's stride prefetcher follows each load or store
 * instruction, so eight of them, each striding eight elements, keep more
 * lines in flight than one striding one. Zen 5, F32, same-run ratio to
 * memcpy, one loop -> eight: reads from 512 MiB s=32 0.06 -> 0.12, s=64
 * 0.05-0.06 -> 0.09-0.11, s=16 0.10 -> 0.12; writes into 512 MiB s=32 and
 * 64 0.06-0.07 -> 0.08, into 1 MiB s=4 0.23-0.27 -> 0.36-0.38. (A
 * software prefetch 64 elements ahead in the one loop gained half as
 * much.) GATHER_ANY indexes each access from the step's first, which the
 * compiler can vectorise (see VECTOR_STEP_BYTES); the scalar loops walk
 * one address from access to access instead (GATHER_WALK, SCATTER_ANY),
 * the same accesses in the same order, which measured ahead: Zen 5, F32,
 * bench_access, same-run ratio to memcpy, three runs each with a switch
 * between the two, indexed -> walked: reads through the far loop with its
 * asks (Zen 5 now vectorises those: see VECTOR_STEP_BYTES) from 64 MiB
 * s=16 0.122-0.124 -> 0.125-0.130, s=32 0.096-0.097 -> 0.100-0.105, from
 * 512 MiB s=64 0.080-0.081 -> 0.083-0.086; writes into 1 MiB s=8
 * 0.238-0.241 -> 0.244-0.247, s=32 0.119-0.122 -> 0.123-0.128; the rest
 * level. With AHEAD non-zero, GATHER_WALK's accesses also ask for the
 * line AHEAD bytes past each into L2 (see FAR_AHEAD). */
#define GATHER_ANY(T)                                                                          \
  do {                                                                                         \
    int64_t i = 0;                                                                             \
    for (; i + 8 <= n; i += 8) {                                                               \
      const T *p = s + i * stride;                                                             \
      d[i] = p[0], d[i + 1] = p[stride], d[i + 2] = p[2 * stride], d[i + 3] = p[3 * stride];   \
      d[i + 4] = p[4 * stride], d[i + 5] = p[5 * stride], d[i + 6] = p[6 * stride];            \
      d[i + 7] = p[7 * stride];                                                                \
    }                                                                                          \
    for (; i < n; i++) d[i] = s[i * stride];                                                   \
  } while (0)
#define GATHER_WALK(T, AHEAD)                                                                  \
  do {                                                                                         \
    const intptr_t step = (intptr_t)(stride * (int64_t)sizeof(T));                             \
    intptr_t at = (intptr_t)s; /* an integer: it steps past the source's end */                \
    int64_t i = 0;                                                                             \
    for (; i + 8 <= n; i += 8)                                                                 \
      for (int k = 0; k < 8; k++, at += step) {                                                \
        if (AHEAD) __builtin_prefetch((const char *)at + (AHEAD), 0, 2);                       \
        d[i + k] = *(const T *)at;                                                             \
      }                                                                                        \
    for (; i < n; i++, at += step) d[i] = *(const T *)at;                                      \
  } while (0)
#define SCATTER_ANY(T)                                                                         \
  do {                                                                                         \
    const intptr_t step = (intptr_t)(stride * (int64_t)sizeof(T));                             \
    intptr_t at = (intptr_t)d;                                                                 \
    int64_t i = 0;                                                                             \
    for (; i + 8 <= n; i += 8)                                                                 \
      for (int k = 0; k < 8; k++, at += step) *(T *)at = s[i + k];                             \
    for (; i < n; i++, at += step) *(T *)at = s[i];                                            \
  } while (0)
/* Other strides: GATHER_ANY kept as eight scalar loads and eight scalar
 * stores, or vectorised, its stores become element inserts into one
 * vector store. In cache the inserts cost more than they save (Zen 5, F32
 * reads, same-run ratio to memcpy, vectorised -> scalar: 1 MiB s=16
 * 0.127-0.131 -> 0.151-0.166, s=64 0.113-0.116 -> 0.127-0.145, s=32
 * level). Out of cache they pay where several elements share each line,
 * steps of up to VECTOR_STEP_BYTES, and not beyond (Zen 4, F32 from 512
 * MiB, vectorised -> scalar: s=-3 0.67 -> 0.55-0.60, s=5 0.40 -> 0.34,
 * s=7 0.30 -> 0.25; s=9 and 10 level; s=11 0.16 -> 0.19, s=16
 * 0.057-0.065 -> 0.108-0.115, s=32 0.043-0.044 -> 0.046-0.054, s=64
 * 0.043-0.044 -> 0.045-0.047); Zen 4 had s=16 at half the speed. Zen 5
 * reads faster with the inserts at every step out of cache, so it takes
 * them there (bench_access, same-run ratio to memcpy, three runs each
 * with a switch between the two, F32 scalar walk -> vectorised: from 64
 * MiB s=16 0.123-0.127 -> 0.144-0.146, s=32 0.099-0.103 ->
 * 0.131-0.144, s=64 0.095-0.104 -> 0.098-0.108; from 512 MiB s=32
 * 0.100-0.101 -> 0.112-0.116, s=64 0.083-0.085 -> 0.095-0.096, s=16
 * level; against the commit before, the far loop with its asks: bf16
 * s=32 and 64 0.053-0.056 -> 0.060-0.073 and 0.043-0.044 ->
 * 0.056-0.068, F64 s=16 0.186-0.187 -> 0.219-0.251, s=32 at 512 MiB
 * 0.155 -> 0.186, u8 level; step 8, whose own loop, the scalar steps
 * and the inserts measured level there, keeps the scalar steps). Out of
 * cache the
 * scalar steps beat step 8's own loop too (Zen 4, 512 MiB, three rounds:
 * 0.227-0.232 -> 0.245-0.253; step 4's own loop level with them), but
 * Intel cores keep it: on a Xeon (AVX-512 with AMX), F32 from 64 MiB,
 * same-run ratio to memcpy, scalar -> own loop: bench_access, two runs
 * each, 0.270-0.275 -> 0.314-0.315 (512 MiB 0.142 -> 0.147, F64 level);
 * bench/peers.py over NumPy's buffers, three runs each, 0.25-0.29 ->
 * 0.33-0.36, where NumPy read 0.27-0.33. */
enum { VECTOR_STEP_BYTES = 32 };

/* In cache, Intel cores read steps of up to a line faster vectorised:
 * on a Xeon (AVX-512 with AMX), bench_access at 1 MiB, same-run ratio to
 * memcpy, a switch in one build, two or three runs each in turn, scalar
 * walk -> vectorised: F32 s=16 0.260-0.283 -> 0.292-0.329, bf16 s=16
 * 0.181 -> 0.230, s=32 0.127 -> 0.147, u8 s=32 0.101 -> 0.117-0.123, s=64
 * 0.067-0.069 -> 0.080-0.082 (s=16 level); longer steps level or behind
 * (F32 s=32 0.178-0.191 -> 0.169-0.194, s=64 0.121-0.130 ->
 * 0.114-0.129), though F64's gained (s=16 0.315-0.348 -> 0.350-0.376),
 * and keep the walk, as every step does on AMD cores (Zen 5 above). */
enum { CACHED_VECTOR_STEP_BYTES_INTEL = 64 };

#if defined(__GNUC__) && !defined(__clang__)
#define SCALAR_STEPS __attribute__((optimize("no-tree-vectorize", "no-tree-slp-vectorize")))
#else
#define SCALAR_STEPS
#endif

/* Out of cache, steps of a line or more (each element its own line) also
 * read ahead of each access: FAR_AHEAD bytes (Zen 4, F32 from 512 MiB,
 * two rounds, s=16 0.106-0.114 -> 0.120-0.123 of memcpy), but for steps
 * past a line and up to FAR_STEP_MAX_BYTES, FAR_ELEMENTS elements, which
 * keeps more of their lines in flight: Zen 4, F32 from 420 MiB, two
 * rounds, 2 KiB -> 64 elements ahead: s=24 0.085 -> 0.090-0.095, s=32
 * 0.045-0.048 -> 0.048-0.049, s=48 0.047 -> 0.060-0.062, s=64 0.046-0.047
 * -> 0.048-0.050. Further steps measured worse so far ahead (s=96 0.049
 * -> 0.044, s=128 level; 16 KiB ahead: s=96 0.048 -> 0.043, s=128 0.045
 * -> 0.043), and s=16 level with 4 KiB. Intel cores read ahead only for
 * steps of exactly a line, where the ask measured ahead; past a line
 * their own prefetchers do better alone:
 * Xeon (AVX-512 with AMX), F32 from 512 MiB, bench_access, same-run
 * ratio to memcpy, three runs each in turn, with -> without: s=32
 * 0.037-0.039 -> 0.040-0.041 (NumPy's loop 0.040), s=64 0.022-0.023 ->
 * 0.021-0.022; s=16 0.084 -> 0.073-0.075, so it keeps it. (Zen 5 takes
 * the vectorised loop there instead, without asks: see VECTOR_STEP_BYTES.)
 * There, a step of a line reads from one load instruction, not eight
 * (gather_lines): another Xeon (AVX-512 with AMX and FP16, 2 MiB L2),
 * F32 s=16, a temporary switch, three runs each in turn, eight loads ->
 * one, both asking FAR_AHEAD on: bench_access from 512 MiB
 * 0.079-0.081 -> 0.085-0.086, from 64 MiB 0.175-0.178 -> 0.171-0.174;
 * bench/peers.py, two runs each, libtensor's lead over NumPy from 512
 * MiB 0.90 -> 0.99-1.01, from 64 MiB 0.89-0.91 -> 0.96-1.01 (within the
 * drift), bf16 s=32 from 512 MiB 0.92-0.93 -> 1.00. One load without
 * the asks measured 0.082-0.085 from 512 MiB and 0.161-0.169 from 64. */
enum { FAR_AHEAD = 2048, FAR_ELEMENTS = 64, FAR_STEP_MAX_BYTES = 256 };

/* Scatters into a destination that outgrows the caches, with steps of
 * 16 to 64 bytes (four elements to a line down to one), store from a
 * single instruction, an element at a time, instead of SCATTER_ANY's eight
 * (16-byte steps of 1-, 2- and 4-byte elements take the masked chunk
 * stores before this where the CPU has them; see masked_fits):
 * the same addresses in the same order, but the store stream is one that
 * the hardware follows better. Zen 4, F32, same-run ratio to memcpy, eight
 * stores -> one, into 420 MiB: s=4 0.368 -> 0.387, s=5 0.309 -> 0.326,
 * s=6 0.269 -> 0.287, s=7 0.235 -> 0.252, s=8 level, s=12 0.136 -> 0.144,
 * s=16 0.092 -> 0.117; into 105 MiB s=5 0.325 -> 0.341, s=16 0.097 ->
 * 0.125; into 13 MiB s=4 0.313 -> 0.369, s=8 0.183 -> 0.217. Longer
 * steps measured level or worse (s=24 0.062 -> 0.057, s=64 0.044 ->
 * 0.041), and in cache the single store stream is much slower
 * (into 3.3 MiB: s=4 0.276 -> 0.155, s=8 0.206 -> 0.156). */
enum { ONE_STORE_MIN_BYTES = 16, ONE_STORE_MAX_BYTES = 64 };

/* Each store there also asks, once per line, for the line SCATTER_AHEAD
 * bytes further on (in the direction of travel) for writing: a store
 * that misses waits for its line to be read, and the store buffer holds
 * few such. On a Xeon (AVX-512 with AMX), F32, bench_access, same-run
 * ratio to memcpy, two runs each, without -> 2 KiB ahead: into 64 MiB
 * s=8 0.214-0.226 -> 0.250-0.266, s=16 0.124-0.127 -> 0.141-0.148; into
 * 512 MiB s=8 0.083 -> 0.138, s=16 0.048 -> 0.075 (1 and 4 KiB ahead
 * level with 2). There the one store with its ask also beats SCATTER_ANY
 * for steps past a line (into 512 MiB s=32 0.024 -> 0.036, s=64 0.016 ->
 * 0.022; into 64 MiB 0.069-0.089 -> 0.075-0.077 and 0.042-0.056 ->
 * 0.042-0.046, level), so Intel cores take it at every step from 16
 * bytes; the others keep SCATTER_ANY past ONE_STORE_MAX_BYTES, as Zen 4
 * measured above (without the ask, which no Zen has measured). */
enum { SCATTER_AHEAD = 2048 };

/* In cache, Intel cores take that store with its asks for steps past a
 * line too, where the lines come from L2 one to a store: on a Xeon (AVX-512
 * with AMX), F32 into 1 MiB, bench/peers.py, five runs each in turn,
 * libtensor's lead over NumPy, SCATTER_ANY -> one store: s=64 0.96-0.97
 * -> 0.93-1.16, s=32 0.95-1.01 -> 0.96-1.08 (bf16 s=64, three runs,
 * level: 0.97-1.00 -> 0.98-1.02); bench_access, same-run
 * ratio to memcpy, level (s=64 0.068-0.085 against 0.081-0.082, s=32
 * 0.088-0.091 against 0.084-0.090). A step of a line measured level
 * (s=16), and a plain loop of one store, as NumPy's, behind
 * (bench_access s=64 0.063-0.065 against 0.071-0.100). Not measured on
 * AMD cores. */
static bool scatters_one_store(int64_t step_bytes, bool cached, bool intel) {
  if (cached) return intel && step_bytes > 64;
  return step_bytes >= ONE_STORE_MIN_BYTES && (intel || step_bytes <= ONE_STORE_MAX_BYTES);
}

/* One function per element type: the switch on the stride picks a loop
 * whose stride the compiler knows. */
#define STRIDED_FNS(T, NAME)                                                                   \
  SCALAR_STEPS static void gather_any_##NAME(T *restrict d, const T *restrict s, int64_t stride, int64_t n) {    \
    GATHER_WALK(T, 0);                                                                         \
  }                                                                                            \
  SCALAR_STEPS static void gather_lines_##NAME(T *restrict d, const T *restrict s, int64_t stride, int64_t n) {  \
    const intptr_t step = (intptr_t)(stride * (int64_t)sizeof(T)), ahead = stride < 0 ? -FAR_AHEAD : FAR_AHEAD;    \
    intptr_t at = (intptr_t)s; /* an integer: it steps past the source's end */                \
    for (int64_t i = 0; i < n; i++, at += step) {                                              \
      __builtin_prefetch((const char *)at + ahead, 0, 2);                                      \
      d[i] = *(const T *)at;                                                                   \
    }                                                                                          \
  }                                                                                            \
  SCALAR_STEPS static void gather_far_##NAME(T *restrict d, const T *restrict s, int64_t stride, int64_t n) {    \
    int64_t step_bytes = (stride < 0 ? -stride : stride) * (int64_t)sizeof(T);                 \
    int64_t ahead = stride < 0 ? -FAR_AHEAD : FAR_AHEAD; /* in the direction of travel */        \
    if (step_bytes > 64 && step_bytes <= FAR_STEP_MAX_BYTES) ahead = FAR_ELEMENTS * stride * (int64_t)sizeof(T); \
    GATHER_WALK(T, ahead);                                                                     \
  }                                                                                            \
  ISA_CLONES static void gather_##NAME(T *restrict d, const T *restrict s, int64_t stride, int64_t n, bool cached, \
                                       bool intel, bool zen5) {                                                     \
    switch (stride) {                                                                          \
    case -1: GATHER(T, -1); break;                                                             \
    case 2: GATHER(T, 2); break;                                                               \
    case 3: GATHER(T, 3); break;                                                               \
    case 4: GATHER(T, 4); break;                                                               \
    case 8:                                                                                    \
      if (cached || intel) GATHER(T, 8);                                                       \
      else gather_any_##NAME(d, s, stride, n);                                                 \
      break;                                                                                   \
    default: {                                                                                 \
      int64_t step_bytes = (stride < 0 ? -stride : stride) * (int64_t)sizeof(T);               \
      if (cached && intel && step_bytes <= CACHED_VECTOR_STEP_BYTES_INTEL) GATHER_ANY(T);      \
      else if (cached) gather_any_##NAME(d, s, stride, n);                                     \
      else if (zen5) GATHER_ANY(T);                                                            \
      else if (intel && step_bytes == 64) gather_lines_##NAME(d, s, stride, n);                \
      else if (step_bytes >= 64 && !intel) gather_far_##NAME(d, s, stride, n);                 \
      else if (step_bytes > VECTOR_STEP_BYTES) gather_any_##NAME(d, s, stride, n);             \
      else GATHER_ANY(T);                                                                      \
      break;                                                                                   \
    }                                                                                          \
    }                                                                                          \
  }                                                                                            \
  SCALAR_STEPS static void scatter_one_##NAME(T *restrict d, int64_t stride, const T *restrict s, int64_t n) { \
    uintptr_t step = (uintptr_t)(stride * (int64_t)sizeof(T)); /* wraps for stride < 0, as intended */      \
    int64_t ahead = stride < 0 ? -SCATTER_AHEAD : SCATTER_AHEAD;                                \
    for (int64_t i = 0; i < n; i++, d += stride) {                                             \
      uintptr_t at = (uintptr_t)d;                                                             \
      if (at / 64 != (at - step) / 64) __builtin_prefetch((char *)d + ahead, 1, 3); /* a new line */ \
      *d = s[i];                                                                               \
    }                                                                                          \
  }                                                                                            \
  ISA_CLONES static void scatter_##NAME(T *restrict d, int64_t stride, const T *restrict s, int64_t n, bool cached, \
                                        bool intel) {                                                                 \
    int64_t step_bytes = (stride < 0 ? -stride : stride) * (int64_t)sizeof(T);                \
    switch (stride) {                                                                          \
    case -1: SCATTER(T, -1); break;                                                            \
    case 2: SCATTER(T, 2); break;                                                              \
    case 3: SCATTER(T, 3); break;                                                              \
    default:                                                                                   \
      if (scatters_one_store(step_bytes, cached, intel)) scatter_one_##NAME(d, stride, s, n);  \
      else                                                                                     \
        SCATTER_ANY(T);                                                                        \
      break;                                                                                   \
    }                                                                                          \
  }

STRIDED_FNS(uint8_t, u8)
STRIDED_FNS(uint16_t, u16)
STRIDED_FNS(uint32_t, u32)
STRIDED_FNS(uint64_t, u64)

/* Steps that put four or more elements of 1, 2 or 4 bytes in a line can
 * move whole 64-byte chunks at a time where the CPU has AVX-512 (and for
 * bytes AVX512-VBMI; short_steps_avx512.h), in runs of MASKED_MIN_BYTES
 * or more. Scatters measured level with the loops in shorter rows (F32
 * s=2, rows of 32 elements) and ahead from there (rows of 64 F32 0.25 ->
 * 0.29 of memcpy, rows of 128 U8 0.058 -> 0.20); gathers take the same
 * floor, not measured apart. */
enum { MASKED_MIN_BYTES = 128 };

static bool masked_fits(int64_t stride, int64_t n, size_t es) {
  return es <= 4 && stride >= 2 && stride * (int64_t)es <= 16 && n * (int64_t)es >= MASKED_MIN_BYTES &&
         __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         (es > 1 || __builtin_cpu_supports("avx512vbmi"));
}

/* Gathers load the chunks from step 5 on (bytes 5-16, halves 5-8, where
 * only step 8 has a loop of its own): Zen 4, lt_copy from a step-s
 * slice, same-run ratio to memcpy counted as bench_access counts, runs in
 * turn, loops -> masked: from 1 MiB (two runs), U8 s=5 0.097-0.098 ->
 * 0.29-0.30, s=6 0.074-0.097 -> 0.25, s=12 0.067-0.088 -> 0.133, s=16
 * 0.064-0.083 -> 0.100 (F32 s=16, reading the same lines, 0.11); F16 s=5
 * 0.135-0.156 -> 0.30-0.31, s=6 0.13-0.18 -> 0.24-0.26; from 64 MiB
 * (three runs) U8 s=12 0.147-0.152 -> 0.18-0.21, s=16 0.130-0.142 ->
 * 0.15-0.21, the rest level; from 512 MiB level. Steps 2-4 keep their
 * loops: taken masked they measured level or a little slower (F32 s=4
 * from 1 MiB 0.386-0.396 -> 0.350-0.380); step 8 of bytes and halves
 * measured level either way. */
enum { MASKED_GATHER_MIN_STRIDE = 5 };

void lt__gather(void *dst, const void *src, int64_t stride, int64_t n, size_t es, bool cached) {
  if (stride >= MASKED_GATHER_MIN_STRIDE && masked_fits(stride, n, es)) {
    lt__gather_masked(dst, src, stride, n, es);
    return;
  }
  bool intel = lt__intel_cores(), zen5 = lt__zen5_cores();
  switch (es) {
  case 1: gather_u8(dst, src, stride, n, cached, intel, zen5); break;
  case 2: gather_u16(dst, src, stride, n, cached, intel, zen5); break;
  case 4: gather_u32(dst, src, stride, n, cached, intel, zen5); break;
  default: gather_u64(dst, src, stride, n, cached, intel, zen5); break;
  }
}

/* Into memory (not cached), on Intel cores, the chunks' stores ask for
 * the lines MASKED_SCATTER_AHEAD bytes on for writing, as the one-store
 * loop does (SCATTER_AHEAD): on a Xeon (AVX-512 with AMX), F32,
 * bench_access, same-run ratio to memcpy, two runs each, without -> 2
 * KiB -> 4 KiB ahead: into 512 MiB s=2 0.34-0.36 -> 0.445-0.451 ->
 * 0.458-0.462, s=4 0.18-0.19 -> 0.251-0.252 -> 0.259-0.261; into 64 MiB
 * s=2 0.60 -> 0.63 -> 0.65-0.71, s=4 0.37-0.40 -> 0.41-0.42 ->
 * 0.42-0.50. Into 1 MiB the asks cost more than they gain (s=2
 * 0.68-0.70 -> 0.59-0.65, s=4 0.38-0.40 -> 0.29-0.34), so a cached
 * destination goes without. Other cores go without them at every size
 * (Zen 5 not measured): Zen 4, one thread, a temporary switch flipped
 * sample by sample (9 to 11 samples), speed ratio with -> without: F32
 * s=2 into 64 MiB 1.09 and into 512 MiB 1.08, s=4 1.05 and 1.12; into
 * 512 MiB bf16 s=2 1.04, s=8 1.05, u8 s=2 1.01, s=8 1.14. */
enum { MASKED_SCATTER_AHEAD = 4096 };

/* Scatters store the chunks at every step that fits, before any of the
 * loops. Zen 4, lt_copy, same-run ratio to memcpy, loops -> masked: into
 * 1 MiB, F32 s=2 0.36 -> 0.52-0.59, s=3 0.29-0.35 -> 0.36-0.41, s=4 0.30
 * -> 0.36-0.37; F16 s=2 0.20 -> 0.64, s=4 0.15-0.17 -> 0.33-0.37, s=8
 * 0.12 -> 0.16; U8 s=2 0.065 -> 0.55-0.65, s=4 0.088 -> 0.37, s=8 0.085
 * -> 0.20, s=16 0.08 -> 0.09; into 512 MiB, where s=4 of F32, s=8 of F16
 * and s=16 of U8 had the one-store loop: U8 s=2 0.25 -> 0.82-0.86, s=4
 * 0.27 -> 0.46-0.47, s=8 0.18-0.19 -> 0.21-0.23; F16 s=4 0.34 -> 0.46-0.47,
 * s=8 0.21-0.23 -> 0.23-0.24; F32 s=2 0.74-0.76 -> 0.78-0.79, s=4
 * 0.43-0.45 -> 0.41-0.46 (level); into 64 MiB likewise (U8 s=16 and F16
 * s=8 level). I64 s=2 measured slower (0.53 -> 0.45 into 1 MiB) and
 * keeps its loop. */
void lt__scatter(void *dst, int64_t stride, const void *src, int64_t n, size_t es, bool cached) {
  if (masked_fits(stride, n, es)) {
    lt__scatter_masked(dst, stride, src, n, es, cached || !lt__intel_cores() ? 0 : MASKED_SCATTER_AHEAD);
    return;
  }
  bool intel = lt__intel_cores();
  switch (es) {
  case 1: scatter_u8(dst, stride, src, n, cached, intel); break;
  case 2: scatter_u16(dst, stride, src, n, cached, intel); break;
  case 4: scatter_u32(dst, stride, src, n, cached, intel); break;
  default: scatter_u64(dst, stride, src, n, cached, intel); break;
  }
}

