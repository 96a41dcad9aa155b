/* AVX-512 transpose kernels: tiles of one 64-byte vector a side (64 x 64
 * bytes, 32 x 32 halves, 16 x 16 words, 8 x 8 doubles; the byte tiles
 * also take AVX512-VBMI where the CPU has it); one thin kernel for
 * transposes of 2 to 15 source rows of 1-, 2- and 4-byte elements; for
 * the partial tiles, blocks of 64 bytes of columns (bytes and halves)
 * or masked 16 x 16 blocks (words, and thin bands); the same tiles read
 * from rows that lie anywhere (lt__transpose_rows_*, for grouped
 * transposes); and the same tiles for batches of slices side by side
 * through a stage. The word transpose, the partial tiles and the thin
 * kernel are in transpose_avx512_words.h, the walks of the rows kernels
 * in transpose_avx512_rows.h, the side-by-side kernels' stores in
 * transpose_avx512_side.h. Compiled with -mavx512f -mavx512bw
 * -mavx512vl -mavx512dq; 8-byte partial tiles go to the scalar kernel. */
#include <immintrin.h>

/* This path splices rows off lines in registers (lt__splice, below)
 * where every row's address is a multiple of 2; defined before the
 * walks' headers, which give a spliced row less stage (lt__stage_pitch). */
#define LT__SPLICE_MIN_UNIT 2

#include "stream.h"
#include "transpose_tile_pairs.h"
#include "transpose_tiled.h"

typedef __m512i vec;
enum { VBYTES = 64, LANES = VBYTES / 16 };

/* 16 bytes from p, then 16 from p + step. */
static inline __m256i load_pair(const char *p, int64_t step) {
  __m128i lo = _mm_loadu_si128((const __m128i *)p), hi = _mm_loadu_si128((const __m128i *)(p + step));
  return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
}

/* Lane l from p + l * lane_step: 16 bytes of each of LANES source rows. */
static inline vec load_lanes(const char *p, int64_t lane_step) {
  __m512i lo = _mm512_castsi256_si512(load_pair(p, lane_step));
  return _mm512_inserti64x4(lo, load_pair(p + 2 * lane_step, lane_step), 1);
}

static inline vec load_vec(const char *p) { return _mm512_loadu_si512(p); }
static inline void store_vec(char *p, vec v) { _mm512_storeu_si512(p, v); }
/* p is aligned to the vector: only whole aligned lines are streamed. */
static inline void stream_vec(char *p, vec v) { _mm512_stream_si512((void *)p, v); }

/* Interleaves the w-byte elements of the low (high) halves of each lane. */
static inline vec unpack_lo(vec a, vec b, size_t w) {
  switch (w) {
  case 1: return _mm512_unpacklo_epi8(a, b);
  case 2: return _mm512_unpacklo_epi16(a, b);
  case 4: return _mm512_unpacklo_epi32(a, b);
  default: return _mm512_unpacklo_epi64(a, b);
  }
}

static inline vec unpack_hi(vec a, vec b, size_t w) {
  switch (w) {
  case 1: return _mm512_unpackhi_epi8(a, b);
  case 2: return _mm512_unpackhi_epi16(a, b);
  case 4: return _mm512_unpackhi_epi32(a, b);
  default: return _mm512_unpackhi_epi64(a, b);
  }
}

/* The destination line that starts mis bytes before a row segment cur:
 * the last mis bytes of the segment before it, prev, then cur's first
 * 64 - mis. mis is a multiple of unit (2 or 4): one two-source
 * permutation of words or halves. */
static inline vec lt__splice(vec prev, vec cur, size_t mis, int unit) {
  if (unit >= 4) {
    __m512i idx = _mm512_add_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                   _mm512_set1_epi32(16 - (int)(mis / 4)));
    return _mm512_permutex2var_epi32(prev, idx, cur);
  }
  __m512i idx = _mm512_add_epi16(_mm512_set_epi16(31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15,
                                                  14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
                                 _mm512_set1_epi16((short)(32 - mis / 2)));
  return _mm512_permutex2var_epi16(prev, idx, cur);
}

/* Pairs of tiles where the walk asks for them (lt__takes_pairs). A pair
 * of the lanes' byte tiles (tile1, below) would hold 32 vectors of
 * results, more than there are registers, and those stay single (see
 * transpose_any); the VBMI byte tiles park the first tile's rows in L1. */
#define LT__TILE_PAIRS 1

#include "transpose_emit.h"
#include "transpose_lanes.h"

#include "transpose_avx512_words.h"
#include "transpose_avx512_staged.h"
#include "transpose_avx512_cached.h"

/* Where a whole-row tile reads its source rows: row i at src + i * sld,
 * or, where rows is not NULL, at rows[i] + off (rows that lie anywhere,
 * see transpose_avx512_rows.h). The strided kernels pass a constant
 * NULL, so that their loads stay a base plus a stride. */
typedef struct tile_src {
  const char *src;
  int64_t sld;
  const char *const *rows;
  int64_t off;
} tile_src;

static inline __attribute__((always_inline)) const float *src_row(tile_src s, int64_t i) {
  return (const float *)(const void *)(s.rows ? s.rows[i] + s.off : s.src + i * s.sld);
}

/* Calls ROWS_TILE(out, rows, mode, segs) with the tile's write mode and
 * its count of tiles (one, or a pair along the rows) as constants, so
 * that each combination is a specialised copy of its own (emit_mode). */
#define TILE_BY_SEGS(ROWS_TILE, out, rows, mode)                                                                      \
  do {                                                                                                                \
    if ((out)->segs == 2) ROWS_TILE(out, rows, mode, 2);                                                              \
    else ROWS_TILE(out, rows, mode, 1);                                                                               \
  } while (0)
#define TILE_BY_MODE(ROWS_TILE, out, rows)                                                                            \
  switch (emit_mode_of(out)) {                                                                                        \
  case EMIT_PLAIN: ROWS_TILE(out, rows, EMIT_PLAIN, 1); break;                                                        \
  case EMIT_STREAM: TILE_BY_SEGS(ROWS_TILE, out, rows, EMIT_STREAM); break;                                           \
  case EMIT_STAGED: TILE_BY_SEGS(ROWS_TILE, out, rows, EMIT_STAGED); break;                                           \
  case EMIT_STAGED_INNER: TILE_BY_SEGS(ROWS_TILE, out, rows, EMIT_STAGED_INNER); break;                               \
  case EMIT_SPLICED: TILE_BY_SEGS(ROWS_TILE, out, rows, EMIT_SPLICED); break;                                         \
  case EMIT_SPLICED_INNER: TILE_BY_SEGS(ROWS_TILE, out, rows, EMIT_SPLICED_INNER); break;                             \
  }

/* F32 tiles from whole-row loads and the 16 x 16 register transpose
 * instead of gathered lanes: each source line is loaded once, where the
 * lanes load it in four 16-byte pieces, one per pass, and a line that
 * shares its cache set with the tile's other rows (rows a power of two
 * apart) may be gone by the next pass. Cached tiles (plain stores), on an
 * AVX-512 Xeon: bench_transpose 256^2 0.37-0.45 -> 0.61-0.68 of memcpy,
 * 64^2 (in L1) 0.17 -> 0.28; bench_access at 1 MiB, 2-D 0.36-0.39 ->
 * 0.49-0.53, (1,2,0) 0.40-0.48 -> 0.52-0.66, BHTD (0,3,1,2) 0.39-0.44 ->
 * 0.51-0.56 (three runs in turn). Streamed tiles take whole rows too, a
 * pair parking the first tile's 16 results in L1 while the second's are
 * computed (both at once would need 48 registers): on Zen 5 at 512 MiB,
 * same-run ratio to memcpy, lanes -> whole rows: (2,1,0) 0.57-0.63 ->
 * 0.74, (1,2,0) 0.82-0.83 -> 0.90-0.92, (2,0,1) 0.96-0.98 -> 1.03-1.06,
 * 2-D 0.69-0.80 -> 0.80. Where the source's rows lie close (under 1 KiB
 * apart), the lanes' lines stay cached between passes, and Zen 5 measured
 * them faster there (BHTD (0,3,1,2), rows 256 bytes apart: 1.09-1.10
 * against 0.92-0.96), but Zen 4 measured them much slower (one thread,
 * same-run A/B: BHTD (0,3,1,2) at 512 MiB 0.70 -> 0.87; 2-D at 256 MiB,
 * 200 columns 0.75 -> 0.82, 128 columns 0.97 -> 1.07, 64 columns 1.06 ->
 * 1.12, 256 and more level): whole rows meet the bandwidth target on
 * both, the lanes on one. Cached tiles wait on their lines, not on the
 * 64 shuffles: on the Xeon, bench_access at 1 MiB, same-run ratio to
 * memcpy, three runs each in turn, whole rows -> lanes of 16 bytes (16
 * loads and 48 inserts, 32 shuffles): (2,0,1) 0.52-0.55 -> 0.46-0.53,
 * (2,1,0) 0.47-0.49 -> 0.42-0.48; -> halves of 32 bytes, two rows to a
 * register, each line's two halves loaded back to back (48 shuffles):
 * (2,0,1) 0.55-0.59 -> 0.53-0.56, (2,1,0) 0.46-0.53 -> 0.47-0.51, the
 * 2-D transpose and BHTD level; yet a model of the tile alone on a
 * block in L1 ran the lanes twice as fast. */
static inline __attribute__((always_inline)) void rows_tile4(const lt__tile_out *out, tile_src src, emit_mode mode,
                                                             int segs) {
  _Alignas(64) __m512 first[16];
  __m512 r[16];
  LT__UNROLL for (int s = 0; s < segs; s++) {
    LT__UNROLL for (int i = 0; i < 16; i++) r[i] = _mm512_loadu_ps(src_row(src, 16 * s + i));
    transpose16_ps(r);
    if (s + 1 < segs) {
      LT__UNROLL for (int j = 0; j < 16; j++) first[j] = r[j];
    }
  }
  LT__UNROLL for (int j = 0; j < 16; j++) {
    vec v[2] = {_mm512_castps_si512(segs == 2 ? first[j] : r[j]), _mm512_castps_si512(r[j])};
    if (mode == EMIT_PLAIN) _mm512_storeu_ps((float *)(void *)(out->dst + j * out->dld), r[j]);
    else emit_row(out, out->dst + j * out->dld, j, v, mode, segs);
  }
}

static void tile4(const lt__tile_out *out, const char *src, int64_t sld) {
  const tile_src rows = {.src = src, .sld = sld};
  TILE_BY_MODE(rows_tile4, out, rows);
}

/* 2-byte tiles (32 x 32 halves) from whole-row loads too, where the lanes
 * loaded each line in four pieces. Each 16 of the tile's rows go through
 * the 16 x 16 word transpose, a word being two adjacent halves of a row:
 * register j then holds word column j of those rows, the halves of
 * columns 2j and 2j + 1 interleaved. One two-source permute per
 * destination row takes its column's halves from both groups of rows.
 * Zen 4, bench_access --dtype bf16, three runs in turn, lanes -> whole
 * rows: at 512 MiB 2-D 0.42-0.44 -> 0.75-0.76 of memcpy, (0,2,1)
 * 0.62-0.63 -> 0.75-0.77, (1,2,0) 0.54-0.61 -> 0.71-0.73, (2,1,0)
 * 0.48-0.51 -> 0.61, BHTD (0,3,1,2) 0.60 -> 0.74-0.75, (3,2,1,0) 0.36 ->
 * 0.41-0.43; at 1 MiB 2-D 0.29-0.40 -> 0.38-0.44, (1,2,0) 0.46 ->
 * 0.49-0.52, (2,0,1) 0.32-0.33 -> 0.37, the others level or a little
 * ahead. */
static const uint16_t EVEN_HALVES[32] = {0,  2,  4,  6,  8,  10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30,
                                         32, 34, 36, 38, 40, 42, 44, 46, 48, 50, 52, 54, 56, 58, 60, 62};

/* Rows first_row to first_row + 31 through the 16 x 16 word transpose,
 * 16 at a time: top[j] and r[j] then hold word column j of each half. */
static inline __attribute__((always_inline)) void word_columns(tile_src src, int first_row, __m512 *top, __m512 *r) {
  LT__UNROLL for (int i = 0; i < 16; i++) r[i] = _mm512_loadu_ps(src_row(src, first_row + i));
  transpose16_ps(r);
  LT__UNROLL for (int j = 0; j < 16; j++) top[j] = r[j];
  LT__UNROLL for (int i = 0; i < 16; i++) r[i] = _mm512_loadu_ps(src_row(src, first_row + 16 + i));
  transpose16_ps(r);
}

/* Destination row 2j + k of the tile whose word columns are top and r. */
static inline __attribute__((always_inline)) vec halves_row(const __m512 *top, const __m512 *r, int j, int k) {
  const __m512i even = _mm512_loadu_si512(EVEN_HALVES), pick = _mm512_add_epi16(even, _mm512_set1_epi16((short)k));
  return _mm512_permutex2var_epi16(_mm512_castps_si512(top[j]), pick, _mm512_castps_si512(r[j]));
}

/* One tile, or a pair along the rows (segs 2, streamed only): the first
 * tile's rows wait in L1 while the second's are computed, and each
 * destination row then gets both its lines back to back, as F32's pairs
 * do (rows_tile4). A single tile writes each row as it comes, so that
 * no more than its 16 word columns stay live. */
static inline __attribute__((always_inline)) void rows_tile2(const lt__tile_out *out, tile_src src, emit_mode mode,
                                                             int segs) {
  _Alignas(64) __m512 top[16];
  _Alignas(64) vec first[32];
  __m512 r[16];
  if (segs == 2) {
    word_columns(src, 0, top, r);
    LT__UNROLL for (int j = 0; j < 16; j++)
      LT__UNROLL for (int k = 0; k < 2; k++) first[2 * j + k] = halves_row(top, r, j, k);
  }
  word_columns(src, segs == 2 ? 32 : 0, top, r);
  LT__UNROLL for (int j = 0; j < 16; j++)
    LT__UNROLL for (int k = 0; k < 2; k++) {
      int64_t row = 2 * j + k;
      vec v[2] = {halves_row(top, r, j, k)};
      if (segs == 2) v[1] = v[0], v[0] = first[row];
      emit_row(out, out->dst + row * out->dld, row, v, mode, segs);
    }
}

static void tile2(const lt__tile_out *out, const char *src, int64_t sld) {
  const tile_src rows = {.src = src, .sld = sld};
  TILE_BY_MODE(rows_tile2, out, rows);
}

/* Byte tiles (64 x 64) from whole-row loads, where the CPU has AVX512-VBMI
 * (two-source byte permutes). Each 16 of the tile's rows go through the 16
 * x 16 word transpose: register j of group g then holds bytes 4j .. 4j + 3
 * of rows 16g .. 16g + 15, a word per row. For the four destination rows
 * 4j + t, one permute of groups 0 and 1 gathers byte t of every word for t
 * = 0, 1 (BYTE_PICK) and another for t = 2, 3 (BYTE_PICK + 2), groups 2
 * and 3 likewise, and one lane shuffle per row orders its four 16-byte
 * pieces. Zen 4, bench_access --dtype u8, three runs in turn, lanes ->
 * whole rows: at 512 MiB 2-D 0.55-0.56 -> 0.65-0.75 of memcpy, (1,2,0)
 * 0.34-0.37 -> 0.44-0.45, (2,1,0) 0.33-0.36 -> 0.42-0.43, BHTD (0,3,1,2)
 * 0.46-0.52 -> 0.63-0.64; at 1 MiB 2-D 0.19-0.21 -> 0.38-0.40, (1,2,0)
 * 0.24-0.25 -> 0.27-0.29; the others level. */
static const uint8_t BYTE_PICK[64] = {
    /* byte 0 of each word of a, then of b */
    0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60,
    64, 68, 72, 76, 80, 84, 88, 92, 96, 100, 104, 108, 112, 116, 120, 124,
    /* byte 1 of each word of a, then of b */
    1, 5, 9, 13, 17, 21, 25, 29, 33, 37, 41, 45, 49, 53, 57, 61,
    65, 69, 73, 77, 81, 85, 89, 93, 97, 101, 105, 109, 113, 117, 121, 125};

/* Rows first_row to first_row + 63 through the 16 x 16 word transpose,
 * 16 at a time: groups 0 to 2 then wait in parked, group 3 in r. */
__attribute__((target("avx512vbmi"))) static inline __attribute__((always_inline)) void
byte_groups(tile_src src, int first_row, __m512 parked[3][16], __m512 *r) {
  LT__UNROLL for (int g = 0; g < 4; g++) {
    LT__UNROLL for (int i = 0; i < 16; i++) r[i] = _mm512_loadu_ps(src_row(src, first_row + 16 * g + i));
    transpose16_ps(r);
    if (g < 3) LT__UNROLL for (int j = 0; j < 16; j++) parked[g][j] = r[j];
  }
}

/* Destination rows 4j to 4j + 3 of the tile whose groups are parked and r. */
__attribute__((target("avx512vbmi"))) static inline __attribute__((always_inline)) void
byte_rows(__m512 parked[3][16], const __m512 *r, int j, vec row[4]) {
  const __m512i pick01 = _mm512_loadu_si512(BYTE_PICK), pick23 = _mm512_add_epi8(pick01, _mm512_set1_epi8(2));
  __m512i g0 = _mm512_castps_si512(parked[0][j]), g1 = _mm512_castps_si512(parked[1][j]);
  __m512i g2 = _mm512_castps_si512(parked[2][j]), g3 = _mm512_castps_si512(r[j]);
  __m512i lo01 = _mm512_permutex2var_epi8(g0, pick01, g1), hi01 = _mm512_permutex2var_epi8(g0, pick23, g1);
  __m512i lo23 = _mm512_permutex2var_epi8(g2, pick01, g3), hi23 = _mm512_permutex2var_epi8(g2, pick23, g3);
  row[0] = _mm512_shuffle_i64x2(lo01, lo23, 0x44), row[1] = _mm512_shuffle_i64x2(lo01, lo23, 0xEE);
  row[2] = _mm512_shuffle_i64x2(hi01, hi23, 0x44), row[3] = _mm512_shuffle_i64x2(hi01, hi23, 0xEE);
}

/* One tile, or a pair along the rows (segs 2, streamed only): the first
 * tile's 64 rows wait in L1 while the second's are computed. */
__attribute__((target("avx512vbmi"))) static inline __attribute__((always_inline)) void
rows_tile1(const lt__tile_out *out, tile_src src, emit_mode mode, int segs) {
  _Alignas(64) __m512 parked[3][16];
  _Alignas(64) vec first[64];
  __m512 r[16];
  if (segs == 2) {
    byte_groups(src, 0, parked, r);
    LT__UNROLL for (int j = 0; j < 16; j++) byte_rows(parked, r, j, first + 4 * j);
  }
  byte_groups(src, segs == 2 ? 64 : 0, parked, r);
  LT__UNROLL for (int j = 0; j < 16; j++) {
    vec row[4];
    byte_rows(parked, r, j, row);
    LT__UNROLL for (int t = 0; t < 4; t++) {
      int64_t n = 4 * j + t;
      vec v[2] = {segs == 2 ? first[n] : row[t], row[t]};
      emit_row(out, out->dst + n * out->dld, n, v, mode, segs);
    }
  }
}

__attribute__((target("avx512vbmi"))) static void tile1_rows(const lt__tile_out *out, const char *src, int64_t sld) {
  const tile_src rows = {.src = src, .sld = sld};
  TILE_BY_MODE(rows_tile1, out, rows);
}

/* Byte tiles from the lanes, where the CPU has no AVX512-VBMI. */
static void tile1(const lt__tile_out *out, const char *src, int64_t sld) { line_tile(out, src, sld, 1); }

static void tile8(const lt__tile_out *out, const char *src, int64_t sld) { line_tile(out, src, sld, 8); }

/* The thin kernel where it fits, else the tiles (always, with seams);
 * whether it streamed (streaming stores are weakly ordered: the caller
 * then fences). */
static inline __attribute__((always_inline)) bool transpose_any(char *dst, int64_t dst_ld, const char *src,
                                                                int64_t src_ld, int64_t rows, int64_t cols, size_t es,
                                                                lt__tile_fn tile, lt__stream_policy policy,
                                                                lt__transpose_fn edge, char *seams) {
  if (seams)
    return lt__transpose_tiled(dst, dst_ld, src, src_ld, rows, cols, (int64_t)es, tile, policy, edge,
                               es >= 4 ? LT__WALK_TILE_PAIRS : LT__WALK_TILES, seams, es == 4 ? &walks4 : NULL);
  if (es == 1 && thin_fits(rows, cols, 1)) /* where the CPU has no AVX512-VBMI */
    return thin(dst, dst_ld, src, src_ld, rows, cols, policy, 1, permute_bytes_bw, false, narrow_edge1_bw);
  if (es == 2 && thin_fits(rows, cols, 2))
    return thin(dst, dst_ld, src, src_ld, rows, cols, policy, 2, permute_halves, true, narrow_edge2);
  if (es == 4 && thin_fits(rows, cols, 4))
    return thin(dst, dst_ld, src, src_ld, rows, cols, policy, 4, permute_none, true, edge4);
  bool pairs = lt__takes_pairs(es, cols, dst_ld * (int64_t)es, src_ld * (int64_t)es) && tile != tile1;
  return lt__transpose_tiled(dst, dst_ld, src, src_ld, rows, cols, (int64_t)es, tile, policy, edge,
                             pairs ? LT__WALK_TILE_PAIRS : LT__WALK_TILES, NULL, es == 4 ? &walks4 : NULL);
}

/* Each tile twice: streaming when one call's output outgrows the caches
 * (fenced), and streaming always (for batches of small transposes,
 * unfenced: see lt__transpose_best_streamed); with the masked edge for 1,
 * 2 and 4 bytes, the scalar one for 8. ATTR: the target the tile needs
 * beyond the file's, so that it inlines. */
#define KERNELS(N, TILE, EDGE, ATTR)                                                                                 \
  ATTR static void transpose_##TILE(char *dst, int64_t dst_ld, const char *src, int64_t src_ld, int64_t rows,        \
                                    int64_t cols) {                                                                  \
    if (transpose_any(dst, dst_ld, src, src_ld, rows, cols, N, TILE, LT__STREAM_IF_LARGE, EDGE, NULL)) _mm_sfence(); \
  }                                                                                                                  \
  ATTR static void streamed_##TILE(char *dst, int64_t dst_ld, const char *src, int64_t src_ld, int64_t rows,         \
                                   int64_t cols) {                                                                   \
    transpose_any(dst, dst_ld, src, src_ld, rows, cols, N, TILE, LT__STREAM_ALWAYS, EDGE, NULL);                     \
  }
/* And streamed, unfenced, leaving the rows' ends in seams where they fit
 * (see lt__transpose_seamed_fn). */
#define SEAMED(N, TILE, EDGE, ATTR)                                                                                  \
  ATTR static bool seamed_##TILE(char *dst, int64_t dst_ld, const char *src, int64_t src_ld, int64_t rows,           \
                                 int64_t cols, char *seams) {                                                        \
    bool fit = lt__seams_fit(dst, dst_ld * N, src, src_ld * N, rows, cols, N);                                       \
    return transpose_any(dst, dst_ld, src, src_ld, rows, cols, N, TILE, LT__STREAM_ALWAYS, EDGE, seams) && fit;      \
  }
KERNELS(1, tile1, narrow_edge1_bw, )
KERNELS(1, tile1_rows, narrow_edge1, __attribute__((target("avx512vbmi"))))
KERNELS(2, tile2, narrow_edge2, )
KERNELS(4, tile4, edge4, )
KERNELS(8, tile8, lt__transpose_scalar_table[3], )
SEAMED(1, tile1, narrow_edge1_bw, )
SEAMED(1, tile1_rows, narrow_edge1, __attribute__((target("avx512vbmi"))))
SEAMED(2, tile2, narrow_edge2, )
SEAMED(4, tile4, edge4, )

/* The kernels that read rows where they lie, from the whole-row tiles,
 * one tile at a time. */
#include "transpose_avx512_rows.h"
#define ONE_TILE4(out, src, mode) rows_tile4(out, src, mode, 1)
#define ONE_TILE2(out, src, mode) rows_tile2(out, src, mode, 1)
ROWS(4, avx512_f32, ONE_TILE4, )
ROWS(2, avx512_f16, ONE_TILE2, )
#define ONE_TILE1(out, src, mode) rows_tile1(out, src, mode, 1)
ROWS(1, avx512vbmi_u8, ONE_TILE1, __attribute__((target("avx512vbmi"))))

/* n slices side by side (lt__transpose_side_fn), each path's tiles and
 * edges. */
#include "transpose_avx512_side.h"
SIDE(1, tile1, narrow_edge1_bw, )
SIDE(1, tile1_rows, narrow_edge1, __attribute__((target("avx512vbmi"))))
SIDE(2, tile2, narrow_edge2, )
SIDE(4, tile4, edge4, )
SIDE(8, tile8, lt__transpose_scalar_table[3], )

/* The F32 kernel of lagged bands (lt__transpose_lagged_kernel). */
#include "transpose_avx512_lagged.h"

/* Bytes on the AVX512-VBMI path: thin where it fits, else the tiles. */
__attribute__((target("avx512vbmi"))) static void transpose_bytes_vbmi(char *dst, int64_t dst_ld, const char *src,
                                                                       int64_t src_ld, int64_t rows, int64_t cols) {
  if (!thin_fits(rows, cols, 1)) transpose_tile1_rows(dst, dst_ld, src, src_ld, rows, cols);
  else if (thin(dst, dst_ld, src, src_ld, rows, cols, LT__STREAM_IF_LARGE, 1, permute_bytes, true, narrow_edge1))
    _mm_sfence();
}
__attribute__((target("avx512vbmi"))) static void streamed_bytes_vbmi(char *dst, int64_t dst_ld, const char *src,
                                                                      int64_t src_ld, int64_t rows, int64_t cols) {
  if (!thin_fits(rows, cols, 1)) streamed_tile1_rows(dst, dst_ld, src, src_ld, rows, cols);
  else thin(dst, dst_ld, src, src_ld, rows, cols, LT__STREAM_ALWAYS, 1, permute_bytes, true, narrow_edge1);
}

/* Bytes from the lanes here, from whole rows on the AVX512-VBMI path
 * (which the selection prefers where the CPU has it); the other sizes are
 * the same kernels on both. */
const lt__transpose_fn lt__transpose_avx512_table[4] = {transpose_tile1, transpose_tile2, transpose_tile4,
                                                        transpose_tile8};
const lt__transpose_fn lt__transpose_avx512_streamed_table[4] = {streamed_tile1, streamed_tile2, streamed_tile4,
                                                                 streamed_tile8};
const lt__transpose_fn lt__transpose_avx512vbmi_table[4] = {transpose_bytes_vbmi, transpose_tile2, transpose_tile4,
                                                            transpose_tile8};
const lt__transpose_fn lt__transpose_avx512vbmi_streamed_table[4] = {streamed_bytes_vbmi, streamed_tile2,
                                                                     streamed_tile4, streamed_tile8};
const lt__transpose_side_fn lt__transpose_avx512_side_table[4] = {side_tile1, side_tile2, side_tile4, side_tile8};
const lt__transpose_side_fn lt__transpose_avx512vbmi_side_table[4] = {side_tile1_rows, side_tile2, side_tile4,
                                                                      side_tile8};
const lt__transpose_fn lt__transpose_avx512_lagged4 = lagged_tile4;
const lt__transpose_seamed_fn lt__transpose_avx512_seamed_table[3] = {seamed_tile1, seamed_tile2, seamed_tile4};
const lt__transpose_seamed_fn lt__transpose_avx512vbmi_seamed_table[3] = {seamed_tile1_rows, seamed_tile2,
                                                                          seamed_tile4};
