/* Internal to backends/cpu/transpose: what every walk over a transpose's
 * tiles shares. A transpose is cut into square tiles of one cache line a
 * side, so that a tile reads and writes whole lines and no line has to
 * stay cached from one tile to another: where a tile's output goes, the
 * tile kernels' type, the tiling of one call, and a tile's call. */
#ifndef LT_TRANSPOSE_TILING_H
#define LT_TRANSPOSE_TILING_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "vendor.h"

/* Where a tile's output goes: row i of the tile is the 64 bytes at
 * dst + i * dld (leading dimension in bytes). stream asks for streaming
 * stores, which need whole aligned lines; when the rows are not all
 * line-aligned, stage holds lt__stage_pitch(unit) bytes (64-byte
 * aligned) per tile row that carry each row's last segments from one
 * tile to the next along it, and the flags place this tile in the rows'
 * run of tiles. */
typedef struct lt__tile_out {
  char *dst;
  int64_t dld;
  bool stream;
  char *stage;              /* NULL: rows line-aligned, stream directly */
  char *ends;               /* NULL, or 128 bytes per tile row: its first segment, then its last (see lt__flush_ends) */
  int unit;                 /* 4, 2 or 1: the largest of these dividing every row's address */
  int segs;                 /* tiles along the rows in this call: 1, or 2 (see lt__tiling) */
  uint8_t run;              /* LT__RUN_* flags: the (first) tile's index along the rows is 0, 1, the last */
} lt__tile_out;

/* The flags of run, in one byte. A tile called through a pointer reads
 * its lt__tile_out from the caller's stack just after the caller stored
 * it; kept as three bools, the compiler read them with one 4-byte load,
 * which no single one of their byte stores can forward, so the load
 * waited until those stores left the store buffer, behind every
 * streaming store before them (a profile of rows on lines sent down the
 * spliced path by a temporary switch put a quarter of the tile's
 * samples there). Xeon (AVX-512 with AMX), bench_access --sizes 512
 * --only "(0,3,1,2)" (F32 rows off lines, spliced), same-run ratio to
 * memcpy, three runs of each build in turn, the bools -> the byte:
 * 0.72-0.73 -> 0.74; the 2-D transpose (11585^2) level (0.74-0.79
 * against 0.76-0.78), bf16 both level. */
enum { LT__RUN_FIRST = 1, LT__RUN_SECOND = 2, LT__RUN_LAST = 4 };

static inline uint8_t lt__run_flags(bool first, bool second, bool last) {
  return (uint8_t)((first ? LT__RUN_FIRST : 0) | (second ? LT__RUN_SECOND : 0) | (last ? LT__RUN_LAST : 0));
}

/* Bytes of stage per destination row: two segments where the path
 * stages a row off a line (stage_row), one where it splices the row's
 * lines in registers (splice_row; a path that does defines
 * LT__SPLICE_MIN_UNIT before it includes this header). Spliced rows
 * took 128 bytes as well, the second 64 unused, and a walk's stage then
 * spread its lines over twice the memory and half of the caches' sets:
 * on a Xeon (AVX-512 with AMX), lt_copy of the 2-D transpose of F32
 * 11585^2 (a stage of 2048 rows), a switch flipped sample by sample in
 * one process, speed ratio 128 -> 64 bytes a row: 1.015-1.023; 5793^2
 * 1.009-1.015; bf16 16383 x 16385 1.025-1.034; u8 23170^2 0.983-0.990,
 * a loss left to keep one rule for every element size. */
#ifdef LT__SPLICE_MIN_UNIT
#define LT__STAGE_PITCH_SPLICES 1
#endif
static inline int64_t lt__stage_pitch(int unit) {
#ifdef LT__SPLICE_MIN_UNIT
  if (unit >= LT__SPLICE_MIN_UNIT) return 64;
#endif
  (void)unit;
  return 128;
}

/* Transposes out->segs full tiles along the source rows (a tile per line
 * of each destination row); the source's leading dimension in bytes. */
typedef void (*lt__tile_fn)(const lt__tile_out *out, const char *src, int64_t sld);

/* Past this many destination bytes (source and destination together
 * outgrow a 2 MiB L2), plain stores turn into scattered read-for-ownership
 * misses that run at a third of memory bandwidth or less; streaming
 * stores read nothing. Up to it, plain stores are as fast and keep the
 * output cached for whoever reads it next. (The L3 of Zen 5 and Zen 4
 * moves that point: see lt__streams_output.) */
#define LT__CACHED_MAX_BYTES (1 << 20)

struct lt__tiling;
/* A kernel's own copy of the staged walk (lt__tiles_staged_via) for
 * stages of stage_bytes, its tile inlined; for the kernel's element
 * size alone. */
typedef void (*lt__staged_fn)(const struct lt__tiling *g, int64_t stage_bytes);
/* A kernel's own copy of the cached walks (lt__tiles_cached, banded or
 * not) with its plain tile inlined, for the kernel's element size
 * alone. */
typedef void (*lt__cached_fn)(const struct lt__tiling *g, bool banded);
/* The walks a kernel writes out itself (NULL fields: the generic ones). */
typedef struct lt__own_walks {
  lt__staged_fn staged;
  lt__cached_fn cached;
} lt__own_walks;

typedef struct lt__tiling {
  char *dst;
  const char *src;
  int64_t dld, sld, es;         /* leading dimensions in bytes */
  int64_t r0, c0, nrows, ncols; /* the full tiles: [r0, r0 + nrows) x [c0, c0 + ncols) */
  int64_t t;                    /* tile side in elements */
  int unit;                     /* as in lt__tile_out */
  /* Tiles a streamed tile call may take along the rows: 2 where the path
   * can, so that each destination row gets two adjacent lines back to
   * back. Rows a power of two apart otherwise take one line each from a
   * bank of the memory that they all share: streaming 64 bytes to each of
   * 512 rows 2 KiB apart in turn runs at half of sequential speed, 128
   * bytes at full. */
  int max_segs;
  int64_t tail;       /* elements of each destination row past the full tiles */
  bool packed;        /* each destination row starts where the one before ends, off a line */
  bool off_lines;     /* some of the full tiles' destination rows start off a line */
  char *seams;          /* NULL, or the caller's seams (see lt__transpose_seamed_fn): 128 bytes a column */
  lt__staged_fn staged; /* NULL, or the kernel's own staged walk, which the cached walks then take */
} lt__tiling;

static inline int64_t lt__min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* Rows ld_bytes apart that lie on a multiple of 4 KiB or within
 * LT__PAGE_NEAR bytes of one: a tile's rows then stay on one or two of
 * L1's sets (see lt__tiles_staged). */
#define LT__PAGE_NEAR 8

static inline bool lt__rows_on_pages(int64_t ld_bytes) {
  int64_t off = ld_bytes % 4096;
  return off <= LT__PAGE_NEAR || off >= 4096 - LT__PAGE_NEAR;
}

/* Whether a call that writes bytes of output, its rows dld bytes apart
 * and its source's sld, streams it: past LT__CACHED_MAX_BYTES, on Zen 4
 * past LT__CACHED_ZEN4_MAX_BYTES, or on Zen 5 past
 * LT__CACHED_ZEN5_MAX_BYTES, where plain stores into the 32 MiB L3
 * measured ahead of streaming to memory up to 8 MiB of output (a memcpy
 * of such sizes runs from the L3 too), unless either side's rows lie on
 * or near a multiple of 4 KiB: a tile's 16 lines down such rows share
 * one of L1's sets, and from the L3 that costs more than streaming saves
 * (writing a line to each of 1024 rows 4 KiB apart ran at 9 GB/s, 4160
 * bytes apart at 113; reading at 37 against 110). Zen 5, F32 unless said,
 * bench_access --permute 1,0, same-run ratio to memcpy, two runs each
 * with a temporary switch, streamed -> plain stores: 724^2 (2 MiB)
 * 0.56-0.57 -> 0.71-0.75, 1000^2 0.51 -> 0.71-0.75, 1200^2 0.63-0.66 ->
 * 0.80-0.82, 1448^2 (8 MiB) 0.54 -> 0.67-0.70, 1100 x 1900 0.50-0.51 ->
 * 0.59-0.61; bf16 1000 x 2000 0.34-0.41 -> 0.65-0.68, u8 2000^2 0.29 ->
 * 0.48, F64 700^2 0.47-0.48 -> 0.63; the thin kernels' packed output
 * (2 to 15 source rows): 12 x 50000 0.64-0.65 -> 0.93, 5 x 200000
 * 0.42-0.47 -> 0.63-0.65, bf16 12 x 100000 0.68-0.72 -> 0.76-0.80, u8 12
 * x 200000 0.50-0.63 -> 0.81-0.84; past 8 MiB level (1600^2 0.73-0.77
 * against 0.74-0.76, 2048^2 0.63-0.64 against 0.64-0.68). Rows on pages
 * lost that way: 1024 x 1040 (4 KiB apart in the destination) 0.41 ->
 * 0.15, bf16 1024 x 2048 0.37 -> 0.17, 1040 x 1024 0.62-0.64 ->
 * 0.51-0.56, 1024^2 0.40 against 0.43. Intel cores keep the limit they
 * were measured with. */
#define LT__CACHED_ZEN5_MAX_BYTES ((int64_t)8 << 20)

/* Zen 4 (and any other cores) keep plain stores up to 4 MiB of output,
 * rows off pages: lt_copy of the transpose, streamed -> plain stores
 * switched sample by sample in one process, speed ratio, one thread: F32
 * 724^2 (2 MiB) 1.24, 886^2 (3 MiB) 1.19, 1000^2 (3.8 MiB) 1.20, 1086^2
 * 1.10, 1145^2 (5 MiB) 1.07, 1200^2 (5.5 MiB) 0.87, 1448^2 (8 MiB) 0.73,
 * 1100 x 1900 0.90; 12 x 50000 (thin, 2.3 MiB) 1.23; (1,2,0) of [80,
 * 100, 128] (3.9 MiB) 1.26, (2,1,0) of 100^3 and (0,2,1) of [16, 300,
 * 300] level (0.98); bf16 1000 x 2000 (3.8 MiB) 1.18; u8 2000^2 1.03;
 * two threads, F32 1000^2 1.19, 724^2 level. */
#define LT__CACHED_ZEN4_MAX_BYTES ((int64_t)4 << 20)

static inline bool lt__streams_output(int64_t bytes, int64_t dld, int64_t sld) {
  /* Rows LT__PAGE_NEAR bytes apart or less count as on pages too (a thin
   * kernel's packed output of 2 F32, 2-4 bf16 or 2-8 u8 source rows),
   * and stream past 1 MiB as before: plain stores measured mixed there
   * (Zen 5, same-run ratio to memcpy, two runs each: F32 2 x 300000 0.38
   * -> 0.29-0.36, bf16 2 x 600000 and u8 4 x 600000 level, u8 8 x 300000
   * 0.60-0.64 -> 0.68-0.77). */
  bool pages = lt__rows_on_pages(dld) || lt__rows_on_pages(sld);
  if (pages || lt__intel_cores()) return bytes > LT__CACHED_MAX_BYTES;
  return bytes > (lt__zen5_cores() ? LT__CACHED_ZEN5_MAX_BYTES : LT__CACHED_ZEN4_MAX_BYTES);
}

/* n bytes from a stage's row out to a destination row, 64 at a time: a
 * memcpy of the whole row, its length not known where it is called,
 * measured slower (F32 (2,1,0) of [32, 64, 128] side by side, rows of
 * 256 bytes: 0.36 of memcpy against 0.55), and compiled with the stage
 * on the stack to rep movsq (64^3 side by side: 0.35 against 0.52). */
static inline void lt__copy_row(char *d, const char *s, int64_t n) {
  int64_t off = 0;
  for (; off + 64 <= n; off += 64) memcpy(d + off, s + off, 64);
  if (off < n) memcpy(d + off, s + off, (size_t)(n - off));
}

/* Elements to skip before ptr + n * es is 64-byte aligned for every row:
 * 0 when the rows' alignments differ or the elements are misaligned. */
static inline int64_t lt__align_skip(const char *ptr, int64_t ld_bytes, int64_t es) {
  uintptr_t mis = (uintptr_t)ptr % 64;
  if (ld_bytes % 64 != 0 || mis % (uintptr_t)es != 0) return 0;
  return (int64_t)((64 - mis) % 64) / es;
}

static inline __attribute__((always_inline)) void lt__tile_at(const lt__tiling *g, int64_t r, int64_t c,
                                                              lt__tile_fn tile, bool stream, char *stage, char *ends,
                                                              int segs) {
  lt__tile_out out = {.dst = g->dst + c * g->dld + r * g->es,
                      .dld = g->dld,
                      .stream = stream,
                      .stage = stage,
                      .ends = ends,
                      .unit = g->unit,
                      .segs = segs,
                      .run = lt__run_flags(r == g->r0, r == g->r0 + g->t, r + segs * g->t == g->r0 + g->nrows)};
  tile(&out, g->src + r * g->sld + c * g->es, g->sld);
}

#endif
