/* AVX2 transpose kernels: tiles of 64 x 64 bytes done as 2 x 2 blocks of
 * one 32-byte vector a side (32 x 32 bytes, 16 x 16 halves, 8 x 8 words,
 * 4 x 4 doubles): bytes and halves by gathering lanes on load
 * (transpose_lanes.h), words and doubles from whole-vector loads.
 * Compiled with -mavx2; partial tiles go to the scalar kernels. */
#include <immintrin.h>
#include <string.h>

#include "stream.h"
#include "transpose_tiled.h"

typedef __m256i vec;
enum { VBYTES = 32, LANES = VBYTES / 16 };

/* Lane l from p + l * lane_step: 16 bytes of each of LANES source rows. */
static inline vec load_lanes(const char *p, int64_t lane_step) {
  __m128i lo = _mm_loadu_si128((const __m128i *)p), hi = _mm_loadu_si128((const __m128i *)(p + lane_step));
  return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
}

static inline vec load_vec(const char *p) { return _mm256_loadu_si256((const __m256i *)p); }
static inline void store_vec(char *p, vec v) { _mm256_storeu_si256((__m256i *)p, v); }
/* p is aligned to the vector: only whole aligned lines are streamed. */
static inline void stream_vec(char *p, vec v) { _mm256_stream_si256((__m256i *)p, v); }

/* Interleaves the w-byte elements of the low (high) halves of each lane. */
static inline vec unpack_lo(vec a, vec b, size_t w) {
  switch (w) {
  case 1: return _mm256_unpacklo_epi8(a, b);
  case 2: return _mm256_unpacklo_epi16(a, b);
  case 4: return _mm256_unpacklo_epi32(a, b);
  default: return _mm256_unpacklo_epi64(a, b);
  }
}

static inline vec unpack_hi(vec a, vec b, size_t w) {
  switch (w) {
  case 1: return _mm256_unpackhi_epi8(a, b);
  case 2: return _mm256_unpackhi_epi16(a, b);
  case 4: return _mm256_unpackhi_epi32(a, b);
  default: return _mm256_unpackhi_epi64(a, b);
  }
}

#include "transpose_emit.h"
#include "transpose_lanes.h"

static void tile1(const lt__tile_out *out, const char *src, int64_t sld) { line_tile(out, src, sld, 1); }
static void tile2(const lt__tile_out *out, const char *src, int64_t sld) { line_tile(out, src, sld, 2); }
/* ---- 4- and 8-byte tiles: whole-vector loads, in-register blocks ----
 * A tile of words or doubles is 2 x 2 blocks of one vector a side (8 x 8
 * words, 4 x 4 doubles), each source row half loaded as one vector and
 * transposed by the classic unpack / shuffle / lane-swap network. On Zen
 * 3, where each vinserti128 from memory of the lane-gathering tiles
 * (transpose_lanes.h) costs a load and a shuffle, that is 1.3-1.4 times
 * as fast in cache (F32 64^2 and 512^2, same-run ratio to memcpy 0.31 ->
 * 0.42 and 0.29 -> 0.40). */

/* 8 x 8 words: r[i] holds source row i on entry, column i on exit. */
static inline __attribute__((always_inline)) void transpose_words(vec *r) {
  __m256 t[8], u[8];
  LT__UNROLL for (int i = 0; i < 8; i += 2) {
    t[i] = _mm256_unpacklo_ps(_mm256_castsi256_ps(r[i]), _mm256_castsi256_ps(r[i + 1]));
    t[i + 1] = _mm256_unpackhi_ps(_mm256_castsi256_ps(r[i]), _mm256_castsi256_ps(r[i + 1]));
  }
  LT__UNROLL for (int i = 0; i < 8; i += 4) {
    u[i] = _mm256_shuffle_ps(t[i], t[i + 2], 0x44);
    u[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], 0xEE);
    u[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0x44);
    u[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0xEE);
  }
  LT__UNROLL for (int i = 0; i < 4; i++) {
    r[i] = _mm256_castps_si256(_mm256_permute2f128_ps(u[i], u[i + 4], 0x20));
    r[i + 4] = _mm256_castps_si256(_mm256_permute2f128_ps(u[i], u[i + 4], 0x31));
  }
}

/* 4 x 4 doubles, likewise. */
static inline __attribute__((always_inline)) void transpose_doubles(vec *r) {
  __m256d t[4];
  LT__UNROLL for (int i = 0; i < 4; i += 2) {
    t[i] = _mm256_unpacklo_pd(_mm256_castsi256_pd(r[i]), _mm256_castsi256_pd(r[i + 1]));
    t[i + 1] = _mm256_unpackhi_pd(_mm256_castsi256_pd(r[i]), _mm256_castsi256_pd(r[i + 1]));
  }
  LT__UNROLL for (int i = 0; i < 2; i++) {
    r[i] = _mm256_castpd_si256(_mm256_permute2f128_pd(t[i], t[i + 2], 0x20));
    r[i + 2] = _mm256_castpd_si256(_mm256_permute2f128_pd(t[i], t[i + 2], 0x31));
  }
}

/* The block of VBYTES / es source rows from p, transposed into r. */
static inline __attribute__((always_inline)) void wide_block(vec *r, const char *p, int64_t sld, size_t es) {
  const int side = VBYTES / (int)es;
  LT__UNROLL for (int i = 0; i < side; i++) r[i] = load_vec(p + i * sld);
  if (es == 4) transpose_words(r);
  else transpose_doubles(r);
}

/* Output row i takes its first vector from the upper blocks of source
 * rows (0 .. side - 1) and its second from the lower ones. The two blocks
 * of each half of the rows are read one after the other, so that each
 * source line is read within eight lines of loads: rows a power of two
 * apart share an L1 set, and a line read in two visits all sixteen rows
 * apart may be gone by the second (F32 512^2, same-run ratio to memcpy
 * 0.37 -> 0.42; F64 256^2 0.65 -> 0.69). The upper half's results wait
 * in L1 for the lower half's: the 16 registers hold one block's work. */
static inline __attribute__((always_inline)) void wide_tile_as(const lt__tile_out *o, const char *src, int64_t sld,
                                                               size_t es, emit_mode mode) {
  const int side = VBYTES / (int)es;
  char *dst = o->dst;
  const int64_t dld = o->dld;
  vec upper[2][8];
  wide_block(upper[0], src, sld, es);
  wide_block(upper[1], src + VBYTES, sld, es);
  LT__UNROLL for (int cb = 0; cb < 2; cb++) {
    vec lower[8];
    wide_block(lower, src + side * sld + cb * VBYTES, sld, es);
    LT__UNROLL for (int i = 0; i < side; i++) {
      vec v[2] = {upper[cb][i], lower[i]};
      emit_row(o, dst + (cb * side + i) * dld, cb * side + i, v, mode, 1);
    }
  }
}

static inline __attribute__((always_inline)) void wide_tile(const lt__tile_out *o, const char *src, int64_t sld,
                                                            size_t es) {
  switch (emit_mode_of(o)) {
  case EMIT_PLAIN: wide_tile_as(o, src, sld, es, EMIT_PLAIN); break;
  case EMIT_STREAM: wide_tile_as(o, src, sld, es, EMIT_STREAM); break;
  case EMIT_STAGED_INNER: wide_tile_as(o, src, sld, es, EMIT_STAGED_INNER); break;
  default: wide_tile_as(o, src, sld, es, EMIT_STAGED); break;
  }
}

static void tile4(const lt__tile_out *out, const char *src, int64_t sld) { wide_tile(out, src, sld, 4); }
static void tile8(const lt__tile_out *out, const char *src, int64_t sld) { wide_tile(out, src, sld, 8); }

/* ---- thin transposes: 2 to 15 source rows of words ----
 * Twelve attention heads moved innermost (BHTD (0,2,3,1)) have no full
 * tile, and the edge kernel went element by element (F32 at 512 MiB on
 * Zen 3: 0.34 of memcpy, where NumPy's and PyTorch's plain loops reach
 * 0.54 and 0.66; this kernel 0.93). Here each 8 columns are loaded from every row (rows past the
 * last as zeros, nothing read there), transposed in registers as one or
 * two 8 x 8 blocks, and the 8 destination rows of `rows` words each
 * packed into an L1 buffer, each row's vectors stored whole over the
 * start of the next. Packed destination rows (dst_ld == rows) then form
 * one run, streamed when large in pieces that end on a line (a plain
 * store that misses would hold the streaming stores behind it), the
 * rest carried to the next piece; otherwise each row is copied out. */
enum { THIN_PIECE = 2048, THIN_AHEAD = 2048 };

static bool thin_fits(int64_t rows, int64_t cols) { return rows >= 2 && rows < 16 && cols >= 8; }

/* Columns c .. c + 7 of the rows from src, packed as 8 rows of `rows`
 * words at out (which has 64 bytes of slack past them). */
static inline __attribute__((always_inline)) void thin_group(char *out, const char *src, int64_t sld, int64_t rows,
                                                             int64_t c) {
  vec a[8], b[8];
  LT__UNROLL for (int i = 0; i < 8; i++) {
    const char *p = src + i * sld + c * 4;
    a[i] = i < rows ? load_vec(p) : _mm256_setzero_si256();
    if (i < rows) __builtin_prefetch(p + THIN_AHEAD, 0, 2);
  }
  transpose_words(a);
  if (rows > 8) {
    LT__UNROLL for (int i = 0; i < 8; i++) {
      const char *p = src + (i + 8) * sld + c * 4;
      b[i] = i + 8 < rows ? load_vec(p) : _mm256_setzero_si256();
      if (i + 8 < rows) __builtin_prefetch(p + THIN_AHEAD, 0, 2);
    }
    transpose_words(b);
  }
  LT__UNROLL for (int j = 0; j < 8; j++) {
    char *row = out + j * rows * 4;
    store_vec(row, a[j]);
    if (rows > 8) store_vec(row + 32, b[j]);
  }
}

static bool thin4(char *dst, int64_t dst_ld, const char *src, int64_t src_ld, int64_t rows, int64_t cols,
                  lt__stream_policy policy) {
  const int64_t sld = src_ld * 4, group = 8 * rows * 4; /* bytes of one group's packed rows */
  bool packed = dst_ld == rows;
  bool stream = packed && (policy == LT__STREAM_ALWAYS || lt__streams_output(cols * rows * 4, rows * 4, sld));
  _Alignas(64) char buf[THIN_PIECE + 2 * 8 * 15 * 4 + 64];
  char *run = dst; /* packed: where buf's first byte goes */
  int64_t fill = 0, c = 0;
  for (; c + 8 <= cols; c += 8) {
    thin_group(buf + fill, src, sld, rows, c);
    if (!packed) {
      for (int64_t j = 0; j < 8; j++) memcpy(dst + (c + j) * dst_ld * 4, buf + j * rows * 4, (size_t)rows * 4);
      continue;
    }
    fill += group;
    if (!stream) {
      memcpy(run, buf, (size_t)fill);
      run += fill, fill = 0;
    } else if (fill >= THIN_PIECE) {
      /* Up to the last line boundary the piece holds (it spans several). */
      int64_t n = (int64_t)(((uintptr_t)run + (uintptr_t)fill) & ~(uintptr_t)63) - (int64_t)(uintptr_t)run;
      lt__stream_copy(run, buf, (size_t)n);
      memmove(buf, buf + n, (size_t)(fill - n));
      run += n, fill -= n;
    }
  }
  if (fill) memcpy(run, buf, (size_t)fill);
  lt__edge(lt__transpose_scalar_table[2], dst + c * dst_ld * 4, dst_ld, src + c * 4, src_ld, rows, cols - c);
  return stream;
}

/* Panels for words and doubles; the lane-gathering tiles of bytes and
 * halves are slow enough that panels cost them (F16 2048^2 on Zen 3: 0.35
 * of memcpy walking single tiles, 0.29 through panels). */
#define WALK_OF(N) ((N) >= 4 ? LT__WALK_PANELS : LT__WALK_TILES)

/* The thin kernel where it fits, else the tiles; whether it streamed
 * (streaming stores are weakly ordered: the caller then fences). */
static inline __attribute__((always_inline)) bool transpose_any(char *dst, int64_t dst_ld, const char *src,
                                                                int64_t src_ld, int64_t rows, int64_t cols, size_t es,
                                                                lt__tile_fn tile, lt__stream_policy policy,
                                                                lt__transpose_fn edge) {
  if (es == 4 && thin_fits(rows, cols)) return thin4(dst, dst_ld, src, src_ld, rows, cols, policy);
  return lt__transpose_tiled(dst, dst_ld, src, src_ld, rows, cols, (int64_t)es, tile, policy, edge, WALK_OF(es), NULL,
                             NULL);
}

/* Each element size twice: streaming when one call's output outgrows the
 * caches (fenced), and streaming always (for batches of small transposes,
 * unfenced: see lt__transpose_best_streamed). */
#define KERNELS(N, INDEX)                                                                                        \
  static void transpose##N(char *dst, int64_t dst_ld, const char *src, int64_t src_ld, int64_t rows, int64_t cols) { \
    if (transpose_any(dst, dst_ld, src, src_ld, rows, cols, N, tile##N, LT__STREAM_IF_LARGE,                     \
                      lt__transpose_scalar_table[INDEX]))                                                        \
      _mm_sfence();                                                                                             \
  }                                                                                                             \
  static void streamed##N(char *dst, int64_t dst_ld, const char *src, int64_t src_ld, int64_t rows, int64_t cols) { \
    transpose_any(dst, dst_ld, src, src_ld, rows, cols, N, tile##N, LT__STREAM_ALWAYS,                           \
                  lt__transpose_scalar_table[INDEX]);                                                            \
  }
KERNELS(1, 0)
KERNELS(2, 1)
KERNELS(4, 2)
KERNELS(8, 3)

const lt__transpose_fn lt__transpose_avx2_table[4] = {transpose1, transpose2, transpose4, transpose8};
const lt__transpose_fn lt__transpose_avx2_streamed_table[4] = {streamed1, streamed2, streamed4, streamed8};
