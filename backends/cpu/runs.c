/* Short dense runs copied inline. A memcpy call per run costs a call and
 * glibc's choice of loop by size every time, as much as moving a few
 * hundred bytes from L2 or L3; here each run is a loop of fixed-size
 * moves, which the compiler turns into vector loads and stores, built
 * once per instruction set (see ISA_CLONES). F32 in cache, Zen 4, same-run
 * ratio to memcpy (1 MiB unless said), a memcpy per run -> inline: (1,0,2)
 * with runs of 8 bytes 0.051 -> 0.106, 16 bytes 0.091 -> 0.233, 32 bytes
 * 0.20 -> 0.36, 64 bytes 0.39 -> 0.63, 252 bytes 0.68 -> 0.71, 256 bytes
 * (64^3) 0.77 -> 0.83, 384 bytes at 6 MiB 0.82 -> 0.99; BHTD (0,2,1,3)
 * 0.74 -> 0.82; an expand's rows of 2 KiB 1.26 -> 1.46, 8 KiB 1.11 ->
 * 1.41, rows of 2036 bytes (not line-aligned) level, 16 KiB level: past
 * RUN_LOOP_MAX bytes, memcpy. */
#include "runs.h"

#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define ISA_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define ISA_CLONES
#endif

enum { RUN_LOOP_MAX = 8192 };

/* copy_run's run of n bytes (K <= n < 2 * K, K a power of two) as one
 * move of K bytes, and where n > K a second ending at n, overlapping the
 * first (it writes some bytes twice, with the same values): no loop,
 * whatever n. */
#define MOVE_PAIR(K)                                                                                          \
  do {                                                                                                        \
    __builtin_memcpy(d, s, K);                                                                                \
    if (n > (K)) __builtin_memcpy(d + n - (K), s + n - (K), K);                                               \
  } while (0)

/* A run as fixed-size moves, which the compiler makes vector loads and
 * stores: a first 64-byte chunk, then chunks whose stores begin on lines
 * and a last one ending at n, or one pair of moves for a run under 64
 * bytes. A store across two lines costs two on Intel cores: on a Xeon
 * (AVX-512 with AMX), bf16 at 1 MiB (rows of 1448 bytes), chunks from
 * the run's start -> from lines: bench/peers.py's lead over NumPy on the
 * expand, three runs each in turn, 0.97-1.01 -> 1.07-1.08; bench_access,
 * same-run ratio to memcpy, two runs each, expand 1.51-1.55 -> 1.65-1.74,
 * (1,0,2) 0.63-0.65 -> 0.69-0.70; F32, whose runs there start on lines,
 * level (expand 1.92-2.01 either way). Zen 4 had measured it level. */
static inline __attribute__((always_inline)) void copy_run(char *restrict d, const char *restrict s, size_t n) {
  if (n >= 64) {
    __builtin_memcpy(d, s, 64);
    for (size_t q = 64 - (uintptr_t)d % 64; q + 64 < n; q += 64) __builtin_memcpy(d + q, s + q, 64);
    __builtin_memcpy(d + n - 64, s + n - 64, 64);
  } else if (n >= 32) {
    MOVE_PAIR(32);
  } else if (n >= 16) {
    MOVE_PAIR(16);
  } else if (n >= 8) {
    MOVE_PAIR(8);
  } else if (n >= 4) {
    MOVE_PAIR(4);
  } else {
    for (size_t i = 0; i < n; i++) d[i] = s[i];
  }
}

ISA_CLONES static void copy_short_runs(char *dst, const char *src, size_t bytes, const lt__runs *w) {
  for (int64_t i = 0; i < w->n; i++, dst += w->dst_step, src += w->src_step)
    for (int64_t j = 0; j < w->k; j++) copy_run(dst + j * w->dst_inner, src + j * w->src_inner, bytes);
}

/* Long runs take memcpy in a loop of their own: with the memcpy inside
 * copy_run, behind a branch on the length, the short runs' loop measured
 * slower (1 MiB of (1,0,2) runs, same-run ratio to memcpy, medians of
 * 31: runs of 16 bytes 0.25 -> 0.18, 64 bytes 0.77 -> 0.72). */
void lt__copy_runs(char *dst, const char *src, size_t bytes, const lt__runs *w) {
  if (bytes == 0) return;
  if (bytes <= RUN_LOOP_MAX) {
    copy_short_runs(dst, src, bytes, w);
    return;
  }
  for (int64_t i = 0; i < w->n; i++, dst += w->dst_step, src += w->src_step)
    for (int64_t j = 0; j < w->k; j++) memcpy(dst + j * w->dst_inner, src + j * w->src_inner, bytes);
}
