/* Streamed runs read with a step of -1 (a reversed dim), 2 (every other
 * element: a slice with step 2, the real parts of interleaved pairs), or 3,
 * 4 or 8 (on AVX-512, 4-byte elements, and 3 or 4 of 2- and 1-byte ones:
 * channels of interleaved pixels, say), each vector reordered in registers
 * and streamed out (see stream.h). Read straight from the source, with L2
 * prefetch 2 KiB ahead of the loads (4 KiB on Zen 5 and Intel; into L1
 * for Zen 4's AVX-512 every-other kernels, asks_into_l1). Two passes
 * of a gather into an L1 buffer and lt__stream_copy ran at 0.56-0.66 of
 * memcpy for reversed F32 rows of 11585 and at 0.40-0.43 for every other
 * float at 512 MiB (the whole source is read for half of it, so 0.67 would
 * be all there is if a read line cost what a streamed one does; it costs
 * less); this runs at 0.86-0.92 and 0.57-0.62 (bench_access: last dim
 * reversed, strided read s=2). Without the prefetch a probe ran at 0.72 and
 * 0.55-0.59; 8 KiB ahead measured no better than 4, and four lines per step
 * no better than one. 1 KiB ahead beat 4 on Zen 4 (one thread, 512 MiB,
 * same-run A/B, medians of 11-15: rows of 11585 floats, step 2 0.71-0.81 ->
 * 0.88, reversed 1.11 -> 1.18-1.20; one run of 2^27 floats, step 2 0.87 ->
 * 0.90, reversed 1.15 -> 1.41); 512 bytes and 1.5 KiB measured level with 1
 * KiB there, and 2 KiB ahead of it for a reversed dim (lt_copy of a
 * matrix's last dim reversed, the distance switched sample by sample in
 * one process, speed ratio 1 KiB -> 2 KiB, one thread: at 64 MiB F32
 * 1.09-1.10, bf16 1.09-1.14, u8 1.13-1.21; at 512 MiB F32 1.06, bf16
 * 1.03-1.06, u8 1.07-1.08; two threads, F32 at 512 MiB, level) and level
 * for steps 2 and 4 (0.99-1.03), where 4 KiB lost at 512 MiB (reversed
 * F32 0.94, bf16 0.91) and 3 KiB measured between. Every other byte or
 * half had no kernel and took the gather loop's plain stores: Xeon
 * (AVX-512 with AMX), bench_access, one thread, same-run ratio to
 * memcpy, two runs each, loop -> kernel: BF16 last dim
 * step 2 at 64 MiB 0.50-0.53 -> 0.86-0.89, at 512 MiB 0.43 -> 0.64 (F32's
 * 0.63), strided read s=2 0.77-0.78 -> 0.94-0.99 and 0.44-0.50 -> 0.64; U8
 * step 2 0.79-0.82 -> 0.94 and 0.46-0.48 -> 0.63, strided read s=2
 * 0.76-0.77 -> 0.95-0.96 and 0.42-0.49 -> 0.63. Every third, fourth and
 * eighth 4-byte element (on AVX-512) had taken the gather loop's plain
 * stores too (every third: the gather into an L1 buffer and
 * lt__stream_copy): Xeon, F32, bench_access, three runs each in turn, loop
 * -> kernel, strided read s=4 from 512 MiB 0.261-0.266 -> 0.300-0.312, s=8
 * 0.144-0.148 -> 0.154-0.160; from 64 MiB s=4 0.47-0.49 -> 0.50-0.57, s=8
 * level (0.27-0.30). Zen 5 wants 4 KiB ahead (READ_AHEAD_FAR):
 * bench_access, one thread, same-run ratio to memcpy, four runs each (two
 * with a temporary switch, two of the commit before and after in turn), 1
 * KiB -> 4 KiB: at 512 MiB last dim reversed 0.87-0.92 -> 0.97-1.04, step 2
 * 0.67-0.70 -> 0.73-0.80, strided read s=2 0.71 -> 0.81-0.85, s=4 and s=8
 * level; at 64 MiB reversed 0.68-0.83 -> 0.75-0.93, step 2 0.80 -> 0.85; 2
 * KiB measured between, 8 and 16 KiB level with 4. So does a Xeon (AVX-512
 * with AMX, 2 MiB L2): bench_access, one thread, same-run ratio to memcpy,
 * a switch in one build, two runs each in turn, 1 KiB -> 4 KiB: at 512 MiB
 * last dim reversed 0.907-0.909 -> 0.983-0.986, step 2 0.56-0.59 ->
 * 0.62-0.64 (0.62-0.63 at 16 KiB), strided read s=2 0.60 -> 0.65-0.66, bf16
 * step 2 0.58-0.59 -> 0.63-0.64; at 64 MiB reversed 1.50 -> 1.54-1.61, step
 * 2 0.94-1.12 -> 1.13-1.14, bf16 step 2 0.82-0.87 -> 0.97-1.06; 256 bytes
 * and none behind 1 KiB. */
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "stream.h"
#include "vendor.h"

enum { READ_AHEAD = 2048, READ_AHEAD_FAR = 4096 };

static inline size_t read_ahead(void) { return lt__zen5_cores() || lt__intel_cores() ? READ_AHEAD_FAR : READ_AHEAD; }

/* Zen 4's AVX-512 every-other kernels ask for their lines into L1
 * (prefetcht0), where the other cores (and the AVX2 kernel) ask into
 * L2: one thread, lt_copy of every other column of an F32 square, L2
 * -> L1 switched sample by sample in one process (15 samples), speed
 * ratio: 11585^2 (bench_access's last dim step 2 at 512 MiB)
 * 1.05-1.06, 4096^2 1.15, 4095^2 1.19; 511^2 (in cache) level; asking
 * with the non-temporal hint measured the same. bench_access, one
 * thread, last dim step 2 at 512 MiB: 0.877-0.897 of memcpy in five
 * runs asking into L2, 0.928-0.929 in two into L1. Not measured on the
 * other cores. */
static inline bool asks_into_l1(void) { return lt__other_cores(); }

static inline __attribute__((always_inline)) void ask_ahead(const char *p, bool into_l1) {
  if (into_l1) __builtin_prefetch(p, 0, 3);
  else __builtin_prefetch(p, 0, 2);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define HAVE_KERNELS 1

/* Reversing 16 bytes of elements of 1, 2, 4 or 8 bytes, as a byte
 * shuffle: a vector is reversed by reversing each 16-byte lane's
 * elements, then the order of the lanes, so one mask per element size
 * serves every size. */
static const char reverse_lane_mask[4][16] = {
    {15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0},
    {14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1},
    {12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3},
    {8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7},
};

static const char *lane_mask(size_t es) { return reverse_lane_mask[es == 1 ? 0 : es == 2 ? 1 : es == 4 ? 2 : 3]; }

/* Each kernel fills whole lines of a 64-byte aligned dst, n bytes at
 * most, and returns the bytes it did. Reversed kernels read the bytes
 * that end at end; every-other kernels read twice n bytes from src. */

__attribute__((target("avx512f,avx512bw"))) static size_t reversed_avx512(char *dst, const char *end, size_t n,
                                                                          size_t es) {
  __m512i lane = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)lane_mask(es)));
  size_t i = 0;
  const size_t ahead = read_ahead();
  for (; i + 64 <= n; i += 64) {
    const char *s = end - i - 64;
    __builtin_prefetch(s - ahead, 0, 2);
    __m512i v = _mm512_shuffle_epi8(_mm512_loadu_si512((const void *)s), lane);
    _mm512_stream_si512((void *)(dst + i), _mm512_shuffle_i64x2(v, v, 0x1B));
  }
  return i;
}

/* In 32-byte halves: the first half of a line of dst is the last 32
 * bytes of its source, reversed. */
__attribute__((target("avx2"))) static size_t reversed_avx2(char *dst, const char *end, size_t n, size_t es) {
  __m256i lane = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)lane_mask(es)));
  size_t i = 0;
  const size_t ahead = read_ahead();
  for (; i + 64 <= n; i += 64) {
    const char *s = end - i - 64;
    __builtin_prefetch(s - ahead, 0, 2);
    __m256i lo = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(const void *)s), lane);
    __m256i hi = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(const void *)(s + 32)), lane);
    _mm256_stream_si256((__m256i *)(void *)(dst + i), _mm256_permute4x64_epi64(hi, 0x4E));
    _mm256_stream_si256((__m256i *)(void *)(dst + i + 32), _mm256_permute4x64_epi64(lo, 0x4E));
  }
  return i;
}

/* The even bytes (es 1) or halves (es 2) of a, then of b: each pair's
 * odd element zeroed, the pairs pack down without saturating, in-lane
 * (a's lane l, then b's), and the 8-byte pieces go in order. */
__attribute__((target("avx512f,avx512bw"))) static __m512i even_narrow_avx512(__m512i a, __m512i b, size_t es) {
  __m512i v;
  if (es == 2) {
    __m512i low = _mm512_set1_epi32(0xFFFF);
    v = _mm512_packus_epi32(_mm512_and_si512(a, low), _mm512_and_si512(b, low));
  } else {
    __m512i low = _mm512_set1_epi16(0xFF);
    v = _mm512_packus_epi16(_mm512_and_si512(a, low), _mm512_and_si512(b, low));
  }
  return _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7), v);
}

/* Every other element of two source vectors: words and doubles by a
 * two-source permute (idx), bytes and halves packed. */
__attribute__((target("avx512f,avx512bw"))) static inline __m512i every_other_of(__m512i a, __m512i b, __m512i idx,
                                                                                 size_t es) {
  return es <= 2 ? even_narrow_avx512(a, b, es)
         : es == 4 ? _mm512_permutex2var_epi32(a, idx, b)
                   : _mm512_permutex2var_epi64(a, idx, b);
}

/* joined(a, b, index, words): the 64 bytes from byte off of line a on,
 * through line b, by a permute of words where off is a multiple of 4,
 * else of halves (off even); join_index gives the permute's index. */
__attribute__((target("avx512f,avx512bw"))) static __m512i join_index(size_t off, bool words) {
  if (words)
    return _mm512_add_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                            _mm512_set1_epi32((int)(off / 4)));
  _Alignas(64) uint16_t halves[32];
  for (int j = 0; j < 32; j++) halves[j] = (uint16_t)(j + off / 2);
  return _mm512_load_si512((const void *)halves);
}

__attribute__((target("avx512f,avx512bw"))) static inline __m512i joined(__m512i a, __m512i b, __m512i index,
                                                                         bool words) {
  return words ? _mm512_permutex2var_epi32(a, index, b) : _mm512_permutex2var_epi16(a, index, b);
}

/* A source off its lines makes every 64-byte load span two of them,
 * which cost the copy a tenth: the rows of a matrix with an odd number of
 * columns start off their lines in turn. So where the source is off its
 * lines by an even number of bytes, the lines of dst between its first
 * and its last are read from whole source lines (see joined); the first
 * and last lines of dst are read as the loop after reads them, so no
 * byte is read that it would not read. Zen 5, one thread, same-run ratio
 * to memcpy, two runs each of the commit before and this in turn:
 * bench_access last dim step 2 (rows of 11585 F32) at 512 MiB
 * 0.742-0.746 -> 0.795-0.800, at 64 MiB 0.842-0.854 -> 0.877-0.878;
 * lt_copy of every other column of [11585, 11585] F32 0.76-0.79 ->
 * 0.85-0.87 (of [11585, 11586], whose rows all start on lines, 0.82-0.85
 * either way), of [16383, 16383] BF16 0.75-0.78 -> 0.83-0.86. The lines
 * of dst done. */
__attribute__((target("avx512f,avx512bw"))) static size_t every_other_on_lines_avx512(char *dst, const char *src,
                                                                                      size_t n, size_t es,
                                                                                      __m512i idx, size_t ahead,
                                                                                      bool into_l1) {
  const size_t off = (uintptr_t)src & 63;
  if (off == 0 || off % 2 != 0 || n < 3 * 64) return 0;
  const bool words = off % 4 == 0;
  const __m512i index = join_index(off, words);
  _mm512_stream_si512((void *)dst, every_other_of(_mm512_loadu_si512((const void *)src),
                                                  _mm512_loadu_si512((const void *)(src + 64)), idx, es));
  const char *line = src - off + 128; /* the line that holds src + 128, the next vector's first byte */
  __m512i a = _mm512_load_si512((const void *)line);
  size_t i = 64;
  for (; i + 128 <= n; i += 64) {
    const char *s = line + 2 * (i - 64); /* the line that holds src + 2 * i */
    ask_ahead(s + ahead, into_l1);
    ask_ahead(s + ahead + 64, into_l1);
    __m512i b = _mm512_load_si512((const void *)(s + 64)), c = _mm512_load_si512((const void *)(s + 128));
    __m512i lo = joined(a, b, index, words), hi = joined(b, c, index, words); /* src + 2 * i on, 128 bytes */
    _mm512_stream_si512((void *)(dst + i), every_other_of(lo, hi, idx, es));
    a = c;
  }
  return i;
}

/* Every other element from src, n bytes of dst in whole lines; on whole
 * source lines where it can (above). */
__attribute__((target("avx512f,avx512bw"))) static size_t every_other_avx512(char *dst, const char *src, size_t n,
                                                                             size_t es) {
  __m512i idx = es == 4 ? _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0)
                        : _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0);
  const size_t ahead = read_ahead();
  const bool into_l1 = asks_into_l1();
  size_t i = every_other_on_lines_avx512(dst, src, n, es, idx, ahead, into_l1);
  for (; i + 64 <= n; i += 64) {
    const char *s = src + 2 * i;
    ask_ahead(s + ahead, into_l1);
    ask_ahead(s + ahead + 64, into_l1);
    __m512i a = _mm512_loadu_si512((const void *)s), b = _mm512_loadu_si512((const void *)(s + 64));
    _mm512_stream_si512((void *)(dst + i), every_other_of(a, b, idx, es));
  }
  return i;
}

/* Every third, fourth or eighth 4-byte element: a line of dst from k
 * source vectors. Every fourth: the first four of each pair of vectors
 * by one two-source permute each, then the low halves of both pairs;
 * every eighth: two elements of each pair, the pairs of pairs joined,
 * then halves as for four; every third: a's six and b's five by one
 * two-source permute, c's five merged in by a masked one. The source is
 * asked for KTH_LINES_AHEAD lines of dst ahead (k of its lines per line
 * of dst): on a Xeon (AVX-512 with AMX), every fourth F32 from 512 MiB,
 * bench_access, same-run ratio to memcpy, two runs each in one sweep, at the line
 * being read 0.316-0.317, 8 lines ahead 0.321, 16 0.325-0.326, 32
 * 0.326-0.334; from 64 MiB 0.43-0.45, 0.49-0.53, 0.55-0.56, 0.52-0.55. */
enum { KTH_LINES_AHEAD = 16 };

__attribute__((target("avx512f"))) static size_t every_kth_words_avx512(char *dst, const char *src, size_t n,
                                                                        int64_t k) {
  const __m512i pick4 = _mm512_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28, 0, 0, 0, 0, 0, 0, 0, 0);
  const __m512i ab3 = _mm512_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 0, 0, 0, 0, 0);
  const __m512i c3 = _mm512_setr_epi32(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 4, 7, 10, 13);
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const char *s = src + (size_t)k * i;
    for (int64_t l = 0; l < k; l++) __builtin_prefetch(s + (KTH_LINES_AHEAD * k + l) * 64, 0, 2);
    __m512i a = _mm512_loadu_si512((const void *)s), b = _mm512_loadu_si512((const void *)(s + 64));
    __m512i c = _mm512_loadu_si512((const void *)(s + 128)), v;
    if (k == 8) {
      const __m512i pick8 = _mm512_setr_epi32(0, 8, 16, 24, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
      const __m512i join = _mm512_setr_epi32(0, 1, 2, 3, 16, 17, 18, 19, 0, 0, 0, 0, 0, 0, 0, 0);
      __m512i d = _mm512_loadu_si512((const void *)(s + 192));
      __m512i e = _mm512_loadu_si512((const void *)(s + 256)), f = _mm512_loadu_si512((const void *)(s + 320));
      __m512i g = _mm512_loadu_si512((const void *)(s + 384)), h = _mm512_loadu_si512((const void *)(s + 448));
      __m512i q0 = _mm512_permutex2var_epi32(_mm512_permutex2var_epi32(a, pick8, b), join,
                                             _mm512_permutex2var_epi32(c, pick8, d));
      __m512i q1 = _mm512_permutex2var_epi32(_mm512_permutex2var_epi32(e, pick8, f), join,
                                             _mm512_permutex2var_epi32(g, pick8, h));
      v = _mm512_shuffle_i64x2(q0, q1, 0x44);
    } else if (k == 4) {
      __m512i d = _mm512_loadu_si512((const void *)(s + 192));
      v = _mm512_shuffle_i64x2(_mm512_permutex2var_epi32(a, pick4, b), _mm512_permutex2var_epi32(c, pick4, d), 0x44);
    } else {
      v = _mm512_mask_permutexvar_epi32(_mm512_permutex2var_epi32(a, ab3, b), 0xF800, c3, c);
    }
    _mm512_stream_si512((void *)(dst + i), v);
  }
  return i;
}

/* Every third or fourth half (AVX512-BW) or byte (AVX512-VBMI), as for
 * words: every fourth, a quarter of each pair of vectors by one two-source
 * permute, then the low halves of both pairs; every third, what a and b
 * hold by one two-source permute, c's rest merged in by a masked one. The
 * interleaved channels of 2-byte and 1-byte pixels (channel_transpose.c)
 * had no kernel and took the gather loop into a buffer. Zen 5, same-run
 * ratio to memcpy, two runs each in turn, loop -> kernel: bench_access
 * --permute 0,3,1,2 --shape 64,224,224,C, bf16 C = 3 0.59-0.62 ->
 * 0.88-0.89, C = 4 0.53-0.56 -> 0.76-0.79, u8 C = 3 0.39 -> 0.55-0.56, C =
 * 4 0.40-0.42 -> 0.48-0.49; bench_access strided read s=4, bf16 from 64 MiB
 * 0.40-0.41 -> 0.51, from 512 MiB 0.38-0.39 -> 0.45, u8 0.41 -> 0.50-0.51
 * and 0.38 -> 0.46. */
static void kth_pick(void *idx, int64_t k, size_t es, int64_t *from_c) {
  const int64_t n = 64 / (int64_t)es; /* elements in a vector */
  *from_c = (2 * n + k - 1) / k;      /* the first element of the line taken from c (k = 3) */
  for (int64_t j = 0; j < n; j++) {
    int64_t at = k == 4 ? j % (n / 2) * 4 : j < *from_c ? j * k : j * k - 2 * n;
    if (es == 1) ((uint8_t *)idx)[j] = (uint8_t)at;
    else ((uint16_t *)idx)[j] = (uint16_t)at;
  }
}

/* The kernel of elements of ES bytes (T), of NAME, built for TARGET;
 * MASK the type of a mask of a vector's elements, PERMUTE2 and PERMUTE
 * the two-source and the masked one-source permute of such elements. */
#define EVERY_KTH_NARROW(NAME, TARGET, ES, T, MASK, PERMUTE2, PERMUTE)                                             \
  __attribute__((target(TARGET))) static size_t NAME(char *dst, const char *src, size_t n, int64_t k) {           \
    _Alignas(64) T pick[64 / ES];                                                                                  \
    int64_t from_c;                                                                                                \
    kth_pick(pick, k, ES, &from_c);                                                                                \
    const __m512i idx = _mm512_load_si512((const void *)pick);                                                     \
    const MASK c_part = (MASK)(~(MASK)0 << from_c);                                                                \
    size_t i = 0;                                                                                                  \
    for (; i + 64 <= n; i += 64) {                                                                                 \
      const char *s = src + (size_t)k * i;                                                                         \
      for (int64_t l = 0; l < k; l++) __builtin_prefetch(s + (KTH_LINES_AHEAD * k + l) * 64, 0, 2);                 \
      __m512i a = _mm512_loadu_si512((const void *)s), b = _mm512_loadu_si512((const void *)(s + 64));             \
      __m512i c = _mm512_loadu_si512((const void *)(s + 128)), v = PERMUTE2(a, idx, b);                           \
      if (k == 4) v = _mm512_shuffle_i64x2(v, PERMUTE2(c, idx, _mm512_loadu_si512((const void *)(s + 192))), 0x44); \
      else v = PERMUTE(v, c_part, idx, c);                                                                         \
      _mm512_stream_si512((void *)(dst + i), v);                                                                   \
    }                                                                                                              \
    return i;                                                                                                      \
  }
EVERY_KTH_NARROW(every_kth_halves_avx512, "avx512f,avx512bw", 2, uint16_t, __mmask32, _mm512_permutex2var_epi16,
                 _mm512_mask_permutexvar_epi16)
EVERY_KTH_NARROW(every_kth_bytes_avx512, "avx512f,avx512bw,avx512vbmi", 1, uint8_t, __mmask64,
                 _mm512_permutex2var_epi8, _mm512_mask_permutexvar_epi8)

/* 32 bytes of dst from 64 of source: the even elements of each lane of
 * both vectors, then the lanes put in order. */
__attribute__((target("avx2"))) static __m256i every_other_half(const char *s, size_t es) {
  __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)s);
  __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(s + 32));
  __m256i v;
  if (es == 1) {
    __m256i low = _mm256_set1_epi16(0xFF); /* packed as even_narrow_avx512 packs */
    v = _mm256_packus_epi16(_mm256_and_si256(a, low), _mm256_and_si256(b, low));
  } else if (es == 2) {
    __m256i low = _mm256_set1_epi32(0xFFFF);
    v = _mm256_packus_epi32(_mm256_and_si256(a, low), _mm256_and_si256(b, low));
  } else if (es == 4) {
    v = _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), 0x88));
  } else {
    v = _mm256_unpacklo_epi64(a, b);
  }
  return _mm256_permute4x64_epi64(v, 0xD8);
}

__attribute__((target("avx2"))) static size_t every_other_avx2(char *dst, const char *src, size_t n, size_t es) {
  size_t i = 0;
  const size_t ahead = read_ahead();
  for (; i + 64 <= n; i += 64) {
    const char *s = src + 2 * i;
    __builtin_prefetch(s + ahead, 0, 2);
    __builtin_prefetch(s + ahead + 64, 0, 2);
    _mm256_stream_si256((__m256i *)(void *)(dst + i), every_other_half(s, es));
    _mm256_stream_si256((__m256i *)(void *)(dst + i + 32), every_other_half(s + 64, es));
  }
  return i;
}
#endif

static bool path_runs(lt__stream_path path) {
#if defined(HAVE_KERNELS)
  switch (path) {
  case LT__STREAM_AVX2: return __builtin_cpu_supports("avx2");
  case LT__STREAM_AVX512: return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
  default: return false;
  }
#else
  (void)path;
  return false;
#endif
}

/* Element by element, for the partial lines at each end. */
static void strided_plain(char *dst, const char *src, int64_t step, int64_t n, size_t es) {
  for (int64_t i = 0; i < n; i++) memcpy(dst + i * (int64_t)es, src + i * step * (int64_t)es, es);
}

/* The whole lines of the n * es bytes at 64-byte aligned dst; the bytes
 * done. A forward kernel's last vector reads on past the last element it
 * takes, step - 1 elements (see last_line). */
static size_t lines_on(lt__stream_path path, char *dst, const char *src, int64_t step, int64_t n, size_t es) {
  size_t bytes = (size_t)n * es;
#if defined(HAVE_KERNELS)
  if (step == -1)
    return path == LT__STREAM_AVX512 ? reversed_avx512(dst, src + es, bytes, es) : reversed_avx2(dst, src + es, bytes, es);
  if (step > 2 && es == 4) return every_kth_words_avx512(dst, src, bytes, step);
  if (step > 2 && es == 2) return every_kth_halves_avx512(dst, src, bytes, step);
  if (step > 2) return every_kth_bytes_avx512(dst, src, bytes, step);
  return path == LT__STREAM_AVX512 ? every_other_avx512(dst, src, bytes, es) : every_other_avx2(dst, src, bytes, es);
#else
  (void)path, (void)dst, (void)src, (void)step, (void)bytes;
  return 0;
#endif
}

/* Every eighth 4-byte element streams through its kernel on Intel cores
 * and Zen 5; Zen 4 (AMD's cores before Zen 5) reads it faster through
 * the gather loop's plain stores, which it had measured ahead of the
 * loop of step 8's own (gather.c): bench_access, one thread, same-run
 * ratio to memcpy, a switch in one build, two runs each in turn, kernel
 * -> loop: strided read s=8 from 64 MiB 0.183-0.197 -> 0.230-0.242, from
 * 512 MiB 0.196-0.200 -> 0.232-0.241 (bench/peers.py had NumPy at 0.258
 * and 0.242 there); every fourth level either way (0.39-0.45). The
 * build before and this one in turn, two runs each: from 64 MiB
 * 0.217-0.218 -> 0.234-0.249, from 512 MiB 0.195-0.198 -> 0.229-0.240. */
static bool every_eighth_streams(void) { return lt__intel_cores() || lt__zen5_cores(); }

/* Steps -1 and 2 of every size on both paths; on AVX-512, 3, 4 and 8 of
 * 4-byte elements (8: see every_eighth_streams), 3 and 4 of 2-byte ones,
 * and with VBMI of bytes. */
static bool has_kernel(lt__stream_path path, int64_t step, size_t es) {
  if (step == 8) return es == 4 && path == LT__STREAM_AVX512 && every_eighth_streams();
  if (step == 3 || step == 4) {
    if (path != LT__STREAM_AVX512) return false;
#if defined(HAVE_KERNELS)
    if (es == 1) return __builtin_cpu_supports("avx512vbmi");
#endif
    return es == 2 || es == 4;
  }
  return (step == -1 || step == 2) && (es == 1 || es == 2 || es == 4 || es == 8);
}

/* Whether the kernels' reads for a forward run of n elements (from a
 * line-aligned dst on) would reach a page past the page of the run's
 * last element. Only a run that ends at a line's end has its last line
 * done by a kernel, whose last vector reads up to step - 1 elements past
 * that element; where those bytes lie on the next page, which the
 * source need not own, the read could fault. Pages are at least 4 KiB. */
static bool past_a_page(const char *src, int64_t step, int64_t n, size_t es) {
  if (step < 2 || n == 0 || n % (64 / (int64_t)es) != 0) return false;
  uintptr_t last = (uintptr_t)(src + (n - 1) * step * (int64_t)es + (int64_t)es - 1);
  uintptr_t read = (uintptr_t)(src + n * step * (int64_t)es - 1);
  return last / 4096 != read / 4096;
}

/* The last line of such a run: the kernel reads a copy of the line's
 * source that ends at the run's last element. (Every run ending at a
 * line's end taken this way measured slower, F32 last dim step 2 at 512
 * MiB, rows of 11585: 0.63 of memcpy -> 0.58-0.59; a plain store of the line,
 * which missed and held every streaming store behind it, 0.47.) The
 * elements done. */
static int64_t last_line(lt__stream_path path, char *dst, const char *src, int64_t step, size_t es) {
  _Alignas(64) char copy[8 * 64] = {0}; /* the longest read: 8 vectors, every eighth word */
  memcpy(copy, src, (size_t)((64 / (int64_t)es - 1) * step + 1) * es);
  return (int64_t)(lines_on(path, dst, copy, step, 64 / (int64_t)es, es) / es);
}

bool lt__stream_strided_on(lt__stream_path path, char *dst, const char *src, int64_t step, int64_t n, size_t es) {
  /* A dst off its element alignment (caller memory through lt_wrap) never
   * reaches a line boundary in whole elements. */
  if (!has_kernel(path, step, es) || (uintptr_t)dst % es != 0 || !path_runs(path)) return false;
  lt__prefetch_tail(dst + n * (int64_t)es, n * (int64_t)es);
  int64_t head = (int64_t)(((64 - ((uintptr_t)dst & 63)) & 63) / es);
  if (head > n) head = n;
  strided_plain(dst, src, step, head, es);
  dst += head * (int64_t)es, src += head * step * (int64_t)es, n -= head;
  int64_t last = past_a_page(src, step, n, es) ? 64 / (int64_t)es : 0;
  int64_t k = (int64_t)(lines_on(path, dst, src, step, n - last, es) / es);
  if (last && k == n - last) k += last_line(path, dst + k * (int64_t)es, src + k * step * (int64_t)es, step, es);
  strided_plain(dst + k * (int64_t)es, src + k * step * (int64_t)es, step, n - k, es);
  return true;
}

bool lt__stream_strided(char *dst, const char *src, int64_t step, int64_t n, size_t es) {
  for (int p = LT__STREAM_NPATHS - 1; p >= 0; p--)
    if (lt__stream_strided_on((lt__stream_path)p, dst, src, step, n, es)) return true;
  return false;
}

int64_t lt__stream_strided_read_ahead(void) { return (int64_t)read_ahead(); }

bool lt__stream_strided_has(int64_t step, size_t es) {
  for (int p = 0; p < LT__STREAM_NPATHS; p++)
    if (has_kernel((lt__stream_path)p, step, es) && path_runs((lt__stream_path)p)) return true;
  return false;
}
