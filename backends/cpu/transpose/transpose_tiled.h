/* Internal to backends/cpu/transpose: the loops every path shares. The
 * kernels call lt__transpose_tiled, which cuts a transpose into tiles
 * (transpose_tiling.h), hands the partial tiles around them to an edge
 * kernel, and picks plain stores (the cached walk,
 * transpose_walk_cached.h) or streaming ones (the streamed walks here:
 * strips of single tiles or pairs, or panels) by the output's size. */
#ifndef LT_TRANSPOSE_TILED_H
#define LT_TRANSPOSE_TILED_H

#include <stdbool.h>
#include <string.h>

#include "alloc.h"
#include "stream.h"
#include "transpose.h"
#include "transpose_walk_cached.h"

/* Streaming walks the source in strips of at least this many rows (the
 * side of the tiles a call takes along the rows, if more: 32 F32 rows
 * for a pair): fewer streams than the L2 prefetcher follows, now that
 * each row is also read ahead in software (single F32 tiles, 512 MiB: 2-D
 * transpose with odd sides 61% -> 72% of memcpy at 16 rows instead of
 * 32, BHTD (0,3,1,2) 48% -> 61%, the rest unchanged; 64 rows worse. With
 * pairs, strips of 32 rows gain more than the extra streams cost). */
#define LT__STRIP_ROWS 16

/* Streaming covers the destination in panels of this many rows: long
 * source runs for the prefetcher (8 KiB of 4-byte elements), few enough
 * destination pages for the TLB, and at most 256 KiB of stage (128 KiB
 * for spliced rows). */
#define LT__PANEL_ROWS 2048

/* Intel cores take panels of up to this many rows (a stage of up to 512
 * KiB, 256 KiB for spliced rows), all of one width (the tiles split
 * evenly between them), except where the destination rows lie on pages.
 * Xeon (AVX-512 with AMX), lt_copy of the transpose of a source of the
 * shape given, a switch flipped sample by sample in one process, speed
 * ratio, panels of 2048 -> up to 4096 of one width: F32 11585^2 (512
 * MiB) 1.075, 11600 x 11570 1.063, 20000 x 6710 1.077, 44739 x 3000
 * 1.121, 5793^2 1.025, 5800 x 5786 1.011, 4095 x 4097 1.016-1.022,
 * 3000^2 1.043-1.045, 11585^2 on two threads 1.039, 20000 x 6710 on two
 * 1.089; bf16 16383 x 16385 1.102, on two threads 1.099; u8 23170^2
 * 1.049, 8191 x 8193 1.082; (1,2,0) of F32 512^3 level (1.003). Rows on
 * pages lost (bf16 16384^2, rows 32 KiB apart: 0.818) or stayed level
 * (F32 8192 x 16384: 1.003). Panels of 4096, the last narrower,
 * measured less (F32 11585^2 1.011-1.049, 11600 x 11570 1.037-1.072,
 * 5800 x 5786 0.938-0.944), panels of 6144 or 8192 less again (11585^2
 * 0.98 and 0.90 of 4096). Not measured on other cores, which keep
 * LT__PANEL_ROWS. */
#define LT__PANEL_ROWS_INTEL 4096

static inline int64_t lt__panel_rows(const lt__tiling *g) {
  if (!lt__intel_cores() || lt__rows_on_pages(g->dld)) return lt__min64(LT__PANEL_ROWS, g->ncols);
  int64_t panels = (g->ncols + LT__PANEL_ROWS_INTEL - 1) / LT__PANEL_ROWS_INTEL;
  return (g->ncols / g->t + panels - 1) / panels * g->t; /* ncols: whole tiles */
}

/* A streamed tile then asks for the source of the tile this far ahead
 * along its strip's walk (columns [cb, cb + width) of the panel), into
 * L2: a strip reads LT__STRIP_ROWS rows at once, as many streams as the
 * hardware prefetcher follows, and one thread's demand loads keep too few
 * lines in flight to use memory's bandwidth. Four tiles ahead measured
 * best (F32 11600^2: 75% of memcpy without, 88% at 256 bytes, 80% at
 * 512, 70% at 2048; prefetching into L1 no better). In a panel narrower
 * than that, the tile ahead lies in the next strip (BHTD (0,3,1,2), 64
 * columns: 67% -> 78%, where reading ahead along the row had read lines
 * of this strip). A streamed tile asks after its own loads, which then
 * get the line-fill buffers first (the panels' walk, tuned on Zen 3,
 * still asks before): on a Xeon (AVX-512 with AMX), F32 at 512 MiB,
 * same-run ratio to memcpy, three runs in turn, before -> after:
 * (0,2,1) 0.75-0.78 -> 0.84-0.87, (1,2,0) 0.73-0.74 -> 0.80-0.82, (2,0,1)
 * 0.73-0.74 -> 0.77-0.82, BHTD (0,3,1,2) 0.55-0.58 -> 0.69-0.72, (2,1,0)
 * 0.73-0.75 -> 0.79-0.80, the 2-D transpose 0.69-0.74 -> 0.62-0.72; at 64
 * MiB (0,3,1,2) 1.02-1.06 -> 1.28-1.30, the rest level or ahead (not
 * measured on Zen). Before, source rows a multiple of 64 KiB apart (a
 * tile's lines all in one set of L2) went 128 bytes ahead, which Zen 4
 * had measured ahead of 256 there ((2,1,0) of 512^3 0.74-0.79 ->
 * 0.80-0.84); asked for after the loads, (2,1,0) on the Xeon measured
 * 0.59-0.61 at 64 bytes, 0.62-0.70 at 128, 0.79 at 256, 0.54-0.57 at 512. */
#define LT__TILE_READ_AHEAD 256

/* Source rows a multiple of 16 KiB apart put a strip's lines in a few
 * sets of L2 (all in one where they are 64 KiB apart), and lines asked
 * for four tiles ahead were pushed out by each other before their tile
 * came; three tiles ahead measured faster there. Zen 5, bench_access
 * --permute, same-run ratio to memcpy, two or three runs each in turn,
 * 256 -> 192 bytes: F32 (2,1,0) of 512^3 (rows 1 MiB apart) 0.79-0.83
 * -> 0.82-0.86, of [2048, 8, 1024] (32 KiB) 0.92-0.95 -> 0.96-0.97, of
 * [4096, 4, 1024] (16 KiB) 0.88-0.89 -> 0.90, of 256^3 0.75 -> 0.76-0.78;
 * (1,2,0) of 512^3 0.92 -> 0.94-0.95; bf16 (2,1,0) of 512^3 0.51 ->
 * 0.55-0.58, u8 of [512, 512, 1024] 0.32 -> 0.34, F64 of [256, 256, 512]
 * 0.80-0.83 -> 0.83-0.85. Other rows keep four tiles (the 2-D transpose
 * at 512 MiB: 0.98 at 256 bytes, 0.86 at 192), as does the panels' walk
 * (not measured). */
#define LT__SET_READ_AHEAD 192

static inline int64_t lt__read_ahead_bytes(const lt__tiling *g) {
  return g->sld % 16384 == 0 ? LT__SET_READ_AHEAD : LT__TILE_READ_AHEAD;
}

/* Source rows off a line put each tile row's 64 bytes across two lines,
 * the first of which is the second of the tile before: asked for, it
 * arrived for a read three tiles on, not four. Of 4- and 8-byte elements
 * the ask is for the second line, which the tile ahead is the first to
 * read. Zen 5, same-run ratio to memcpy, two runs each in turn, first
 * -> second line: 2-D transpose at 512 MiB (11585^2) 0.84-0.85 ->
 * 0.93-0.99, two threads 1.00 -> 1.03-1.07; 5001 x 7003 0.89 -> 0.96;
 * (0,2,1) of 203^3 0.55-0.58 -> 0.63-0.64, (2,1,0) 0.44-0.45 -> 0.52-0.53;
 * F64 (0,2,1) of [400, 401, 403] 0.89-0.92 -> 0.95-0.96; 300^3 (2,1,0)
 * level. Halves and bytes, whose tiles read 32 and 64 rows, lost (u8 2-D
 * at 512 MiB 0.56-0.58 -> 0.51-0.53, bf16 level) and keep the first, as
 * does the panels' walk (not measured: Zen 5 takes the AVX-512 path). */
static inline int64_t lt__ask_offset(const lt__tiling *g) { return g->es >= 4 && g->sld % 64 != 0 ? 63 : 0; }

static inline void lt__tile_read_ahead(const lt__tiling *g, int64_t r, int64_t c, int64_t cb, int64_t width,
                                       int64_t strip, int segs, int64_t ahead, int64_t at) {
  int64_t k = c - cb + ahead / g->es; /* columns into the walk from cb */
  int64_t ra = r + k / width * strip;
  if (ra >= g->r0 + g->nrows) return;
  const char *p = g->src + ra * g->sld + (cb + k % width) * g->es + at; /* at: bytes into the tile row */
  for (int64_t i = 0; i < segs * g->t; i++) __builtin_prefetch(p + i * g->sld, 0, 2);
}

/* The edge kernel on a band of a few source rows that lie in memory
 * (the rows past the last full tile of a streamed transpose): each row
 * read in first, in order, as one run. The kernel reads them a block of
 * columns at a time, a line of each row, and each block's loads waited
 * on memory together before the next block's went out. Same-run ratio
 * to memcpy, bench_access --permute, two or three runs of each build in
 * turn, before -> after: F32 (0,2,1) of [3000, 203, 208] (tails of 11
 * rows) 0.72-0.73 -> 0.81 (0.88 with the tails not written at all, 0.75
 * with prefetcht1 asks instead of loads), [3000, 203, 203] 0.61 -> 0.65,
 * [256, 197, 768] 0.81-0.84 -> 0.87; (1,2,0) of [100, 300, 1000]
 * 0.85-0.88 -> 0.89-0.95; bf16 (0,2,1) of [512, 511, 512] 0.59-0.60 ->
 * 0.72-0.73, [256, 197, 768] 0.59-0.68 -> 0.70-0.76; u8 (0,2,1) of [1024,
 * 203, 1000] 0.35-0.40 -> 0.41-0.42; (2,1,0) of 150^3, 160^3 and 512^3
 * and the 2-D transpose level. The pull goes LT__PULL_BYTES at a time, a
 * multiple of 64 columns (whole blocks for every element size), so that
 * the lines are still in L1 when the kernel reads them. */
#define LT__PULL_BYTES 16384
static inline void lt__edge_pulled(lt__transpose_fn edge, char *dst, int64_t dst_ld, const char *src,
                                   int64_t src_ld, int64_t rows, int64_t cols, int64_t es) {
  if (rows <= 0 || cols <= 0) return;
  int64_t chunk = LT__PULL_BYTES / (rows * es) / 64 * 64 + 64; /* 64 columns or more */
  for (int64_t c = 0; c < cols; c += chunk) {
    int64_t nc = lt__min64(chunk, cols - c);
    for (int64_t r = 0; r < rows; r++) lt__pull(src + (r * src_ld + c) * es, nc * es);
    edge(dst + c * dst_ld * es, dst_ld, src + c * es, src_ld, rows, nc);
  }
}

/* Packed destination rows off a line: the line where row c's last
 * streamed line ends and row c + 1's first begins holds row c's last mis
 * bytes, its tail (the edge elements past the full tiles, gathered here
 * from the source's last rows) and row c + 1's first bytes, one or two
 * whole lines, which go out streamed once the tiles have written row c's
 * last segment. Written by the tiles and the edge kernel as they went,
 * those lines took plain stores that missed, and each held every
 * streaming store behind it until memory answered (same-run ratio to
 * memcpy at 512 MiB: F32 batches of 201 x 816 0.73-0.75 -> 0.82-0.91;
 * bench_access --dtype u8, three runs in turn, (0,2,1) 0.33-0.48 ->
 * 0.54-0.60, (1,2,0) 0.33-0.49 -> 0.53-0.60; bf16 (0,2,1) 0.60-0.63 ->
 * 0.61-0.82, (1,2,0) 0.54-0.69 -> 0.66-0.78). Only the panel's first
 * head and last tail, whose lines it shares with other panels' rows, get
 * plain stores. The tails of the panel's rows, packed, come first, by
 * the edge kernel's vectors, from source rows read in first
 * (lt__edge_pulled). */
static inline void lt__panel_tails(const lt__tiling *g, int64_t cb, int64_t width, char *tails, lt__transpose_fn edge) {
  const int64_t r_end = g->r0 + g->nrows;
  if (g->tail > 0)
    lt__edge_pulled(edge, tails, g->tail, g->src + r_end * g->sld + cb * g->es, g->sld / g->es, g->tail, width, g->es);
}

/* The lines around the ends of the panel's rows [c0, c1) (see
 * lt__panel_tails), once the tiles have written their last segments: each
 * goes out just after the row's last streamed lines, beside them in memory
 * and in time. Put out for the whole panel after its tiles, a line or two a
 * row apart, they cost up to a fifth of the copy (F32 (0,2,1) of [256, 197,
 * 768]: 0.76-0.80 of memcpy with them, 0.91-0.96 with them skipped).
 * Same-run ratio to memcpy at 512 MiB or less, two runs of each build in
 * turn, after the panel -> after each row's tile: F32 (0,2,1) of [256, 197,
 * 768] 0.77-0.80 -> 0.82-0.85, [512, 511, 512] 0.90 -> 0.94-0.95, (1,2,0)
 * of [100, 300, 1000] 0.69-0.73 -> 0.76-0.83; bf16 (0,2,1) of [256, 197,
 * 768] 0.49-0.52 -> 0.53-0.57, [512, 511, 512] 0.53-0.55 -> 0.60-0.63;
 * bench_access's 2-D transpose (11585^2) at 512 MiB, bf16 0.70-0.71 ->
 * 0.76, F32 level (0.81-0.85), two threads 0.97 -> 0.99; u8 and F32 [512,
 * 511, 511] level. The line is put together by fixed copies of 64 bytes and
 * streamed without lt__stream_copy's checks: a row's end costs a few
 * instructions, no calls. */
static inline void lt__flush_ends(const lt__tiling *g, int64_t cb, int64_t width, int64_t c0, int64_t c1,
                                  const char *ends, const char *tails) {
  const int64_t tail_bytes = g->tail * g->es;
  for (int64_t c = c0; c < c1; c++) {
    char *head = g->dst + c * g->dld + g->r0 * g->es;
    const char *kept = ends + (c - cb) * 128;
    size_t mis = (uintptr_t)head % 64, n = mis + (size_t)tail_bytes; /* mis: the last segment's too */
    if (c == cb) memcpy(head, kept, 64 - mis);
    /* line (after 64 bytes of scratch): the row's last mis bytes, its
     * tail, then row c + 1's first bytes, each put there by a copy of 64
     * bytes whose excess the next one overwrites */
    _Alignas(64) char buf[64 + 192], *line = buf + 64;
    memcpy(line + mis - 64, kept + 64, 64);
    memcpy(line + mis, tails + (c - cb) * tail_bytes, 64);
    char *at = head + g->nrows * g->es - mis;
    if (c + 1 == cb + width) {
      memcpy(at, line, n);
      continue;
    }
    size_t next = 64 - (uintptr_t)(head + g->dld) % 64; /* row c + 1's bytes up to its first line's end */
    memcpy(line + n, kept + 128, 64);
    lt__stream_line(at, line);
    if (n + next > 64) lt__stream_line(at + 64, line + 64);
  }
}

/* A stage this small goes on the stack: a batch of small transposes
 * took one from the allocator and gave it back for every slice, and
 * glibc's free spent a sixth of the copy's time on it (F32 (0,1,3,2) of
 * [32, 16, 77, 64], slices of 77 x 64, same-run ratio to memcpy, two runs
 * each: 0.27-0.31 -> 0.38-0.39). */
#define LT__LOCAL_STAGE_BYTES 24576

/* Streamed output: along strips of source rows, which the hardware
 * prefetcher follows, while the streaming stores scatter over the panel's
 * destination rows at no cost; the tiles of a strip that continue the
 * same destination rows go back to back. Returns false, having written
 * nothing, when the stage cannot be allocated; sets *merged where the
 * packed rows' tails were written too (lt__flush_ends). */
static inline __attribute__((always_inline)) bool lt__tiles_streamed(const lt__tiling *g, lt__tile_fn tile,
                                                                     lt__transpose_fn edge, bool *merged) {
  bool aligned = g->dld % 64 == 0 && (uintptr_t)(g->dst + g->r0 * g->es) % 64 == 0;
  *merged = !g->seams && g->packed && g->nrows > g->t; /* else a row of one tile, which writes it whole */
  const int64_t panel = lt__panel_rows(g);
  /* the stage, then the ends and the tails, pitch, 128 and under 64 bytes
   * a row (and 64 more, which lt__flush_ends's copies of a tail may read) */
  const int64_t pitch = lt__stage_pitch(g->unit);
  size_t stage_bytes = aligned ? 0 : (size_t)(panel * (pitch + (*merged ? 192 : 0)) + 64);
  _Alignas(64) char local[LT__LOCAL_STAGE_BYTES];
  bool heap = !aligned && stage_bytes > sizeof local;
  char *stage = aligned ? NULL : heap ? lt__alloc(stage_bytes, 64) : local;
  char *ends = *merged && stage ? stage + panel * pitch : NULL;
  if (!aligned && !stage) return *merged = false;
  int64_t strip = g->max_segs * g->t > LT__STRIP_ROWS ? g->max_segs * g->t : LT__STRIP_ROWS;
  int64_t r_end = g->r0 + g->nrows, c_end = g->c0 + g->ncols;
  const int64_t ahead = lt__read_ahead_bytes(g), ask_at = lt__ask_offset(g); /* the same for every tile */
  for (int64_t cb = g->c0; cb < c_end; cb += panel) {
    int64_t width = lt__min64(panel, c_end - cb);
    char *row_ends = g->seams ? g->seams + (cb - g->c0) * 128 : ends; /* the rows' first and last segments */
    char *tails = ends ? ends + panel * 128 : NULL;
    if (ends) lt__panel_tails(g, cb, width, tails, edge);
    for (int64_t rs = g->r0; rs < r_end; rs += strip) {
      int64_t end = lt__min64(rs + strip, r_end), flushed = cb; /* rows before flushed: ends written */
      for (int64_t c = cb; c < cb + width; c += g->t) {
        for (int64_t r = rs, segs; r < end; r += segs * g->t) {
          segs = r + g->max_segs * g->t <= end ? g->max_segs : 1;
          lt__tile_at(g, r, c, tile, true, stage ? stage + (c - cb) * pitch : NULL,
                      row_ends ? row_ends + (c - cb) * 128 : NULL, (int)segs);
          lt__tile_read_ahead(g, r, c, cb, width, strip, (int)segs, ahead, ask_at);
        }
        /* the last strip: a row's end waits for the next row's first
         * segment, which a panel of one strip writes only now */
        if (ends && end == r_end) {
          lt__flush_ends(g, cb, width, flushed, c + g->t - 1, ends, tails);
          flushed = c + g->t - 1;
        }
      }
      if (ends && end == r_end) lt__flush_ends(g, cb, width, flushed, cb + width, ends, tails);
    }
  }
  if (heap) lt__free(stage, stage_bytes, 64);
  return true;
}

/* Streamed output through panels in cache, for memories that want long
 * runs on both sides. A panel is up to LT__PANEL_COLS columns by
 * LT__PANEL_ROW_BYTES / es source rows: its tiles go with plain stores
 * into a buffer holding the panel's destination rows (a strip of tile
 * rows at a time, which keeps the reads at one tile's rows, as many
 * streams as the prefetcher follows), then each of those rows goes out as
 * one run of streaming stores. Zen 3 streams one 64-byte line to each of
 * many rows in turn at a third of the rate it streams four (6-8 GB/s
 * against 18-21, F32 rows of 8192 and 11584), and reads 32 or more rows at
 * once at half the rate of 16, so no walk of single tiles pleases both
 * sides there. The panels go down a band of columns, so that each
 * destination row's runs follow one another. Without memory for the
 * buffer, the caller walks single tiles instead. */
#define LT__PANEL_ROW_BYTES 512
#define LT__PANEL_COLS 512
/* Panels pay where destination rows lie close: F32 on Zen 3, same-run
 * ratio to memcpy, batches of 512 MiB of squares of side 512, 1024 and
 * 2048: 0.42 -> 0.46, 0.44 -> 0.49, 0.47 -> 0.50; 4096^2 0.80 -> 0.82.
 * Rows further apart stream single tiles as fast or faster (8192^2 and
 * 12288^2 level; 8208^2 and 11584^2 0.70-0.76 against 0.44-0.51 through
 * panels). In cache, panels cost more than they save (500^2: 0.44
 * against 0.29). */
#define LT__PANEL_MAX_LD 16384

/* Streams one destination row's run of a panel, the n bytes at row, to
 * dst. A row not 64-byte aligned would start and end its run inside
 * lines that its neighbouring runs share, and a plain store that misses
 * holds every streaming store behind it until memory answers (1.4 GB/s
 * for such runs of 512 bytes on Zen 3): so the run's last mis bytes wait
 * in the 64 bytes before row (its slot) to go out with the next run's
 * first line. Only the first run's head and the last run's tail, the
 * ends of the whole destination row, get plain stores. */
static inline void lt__panel_flush_row(char *dst, char *row, int64_t n, bool first, bool last) {
  int64_t mis = (int64_t)((uintptr_t)dst % 64);
  if (mis == 0 || (first && last)) {
    lt__stream_copy(dst, row, (size_t)n);
    return;
  }
  if (first) lt__stream_copy(dst, row, (size_t)(n - mis));
  else lt__stream_copy(dst - mis, row - mis, (size_t)n);
  if (last) memcpy(dst + n - mis, row + n - mis, (size_t)mis);
  else memcpy(row - mis, row + n - mis, (size_t)mis);
}

static inline __attribute__((always_inline)) bool lt__tiles_paneled(const lt__tiling *g, lt__tile_fn tile) {
  int64_t h_max = lt__min64(LT__PANEL_ROW_BYTES / g->es, g->nrows), w_max = lt__min64(LT__PANEL_COLS, g->ncols);
  int64_t pitch = 64 + h_max * g->es; /* a row's slot, then its run */
  size_t bytes = (size_t)(pitch * w_max);
  char *panel = lt__alloc(bytes, 64);
  if (!panel) return false;
  int64_t r_end = g->r0 + g->nrows, c_end = g->c0 + g->ncols;
  for (int64_t cb = g->c0, w; cb < c_end; cb += w) {
    w = lt__min64(w_max, c_end - cb);
    for (int64_t r0 = g->r0, h; r0 < r_end; r0 += h) {
      h = lt__min64(h_max, r_end - r0);
      for (int64_t rs = r0; rs < r0 + h; rs += g->t)
        for (int64_t c = cb; c < cb + w; c += g->t) {
          /* past the panel's last strip: the next panel down */
          lt__tile_read_ahead(g, rs, c, cb, w, g->t, 1, LT__TILE_READ_AHEAD, 0);
          lt__tile_out out = {.dst = panel + (c - cb) * pitch + 64 + (rs - r0) * g->es, .dld = pitch, .segs = 1};
          tile(&out, g->src + rs * g->sld + c * g->es, g->sld);
        }
      for (int64_t c = 0; c < w; c++)
        lt__panel_flush_row(g->dst + (cb + c) * g->dld + r0 * g->es, panel + c * pitch + 64, h * g->es,
                            r0 == g->r0, r0 + h == r_end);
    }
  }
  lt__free(panel, bytes, 64);
  return true;
}

/* Calls edge on a band unless it is empty: a kernel called on a matrix
 * that is all full tiles should cost no more than its tiles. */
static inline void lt__edge(lt__transpose_fn edge, char *dst, int64_t dst_ld, const char *src, int64_t src_ld,
                            int64_t rows, int64_t cols) {
  if (rows > 0 && cols > 0) edge(dst, dst_ld, src, src_ld, rows, cols);
}

/* When a kernel streams its output: never (the path's tiles cannot), when
 * this call's output outgrows the caches, or always (a caller making many
 * small calls that together outgrow them: a batch of transposes). */
typedef enum lt__stream_policy { LT__STREAM_NEVER, LT__STREAM_IF_LARGE, LT__STREAM_ALWAYS } lt__stream_policy;

/* How a streamed transpose walks its tiles: single tiles or pairs along
 * strips of source rows, streaming straight to the destination
 * (lt__tiles_streamed), or through panels (lt__tiles_paneled) where the
 * destination's rows lie within LT__PANEL_MAX_LD bytes of each other and
 * single tiles otherwise; a path that walks panels also walks short
 * cached transposes in bands (lt__tiles_cached). Each path takes what
 * measured best on the machines it was tuned on. */
typedef enum lt__stream_walk { LT__WALK_TILES, LT__WALK_TILE_PAIRS, LT__WALK_PANELS } lt__stream_walk;

/* Whether a streamed call can leave its destination rows' ends in seams
 * (lt__transpose_seamed_fn): whole tiles only, at least two along each
 * destination row, from source rows that need no band before their
 * first full tile, into destination rows not all on lines (rows on
 * lines have no partial lines to leave). Leading dimensions in bytes. */
static inline bool lt__seams_fit(const char *dst, int64_t dld, const char *src, int64_t sld, int64_t rows,
                                 int64_t cols, int64_t es) {
  int64_t t = 64 / es;
  bool lines = dld % 64 == 0 && (uintptr_t)dst % 64 == 0;
  return !lines && rows % t == 0 && rows >= 2 * t && cols % t == 0 && cols > 0 && lt__align_skip(src, sld, es) == 0;
}

/* Inlined into each kernel, so that tile becomes a direct, inlined call.
 * Returns whether it streamed:
 * streaming stores are weakly ordered, so the caller must then fence
 * before returning (later plain stores, such as the caller's
 * synchronisation, must not pass them). seams: NULL, or where a call
 * that fits (lt__seams_fit) and streams leaves its rows' first and last
 * segments, writing none of their partial lines; a call that does not
 * stream (no memory for the stage) writes everything itself. own: NULL,
 * or the walks the kernel writes out itself (lt__own_walks). */
static inline __attribute__((always_inline)) bool lt__transpose_tiled(char *dst, int64_t dst_ld, const char *src,
                                                                      int64_t src_ld, int64_t rows, int64_t cols,
                                                                      int64_t es, lt__tile_fn tile, lt__stream_policy policy,
                                                                      lt__transpose_fn edge, lt__stream_walk walk,
                                                                      char *seams, const lt__own_walks *own) {
  lt__tiling g = {.dst = dst,
                  .src = src,
                  .dld = dst_ld * es,
                  .sld = src_ld * es,
                  .es = es,
                  .t = 64 / es,
                  .max_segs = walk == LT__WALK_TILE_PAIRS ? 2 : 1,
                  .seams = seams && lt__seams_fit(dst, dst_ld * es, src, src_ld * es, rows, cols, es) ? seams : NULL,
                  .staged = own ? own->staged : NULL};
  /* Full tiles start where destination rows (r0) and source rows (c0)
   * begin a cache line, where the leading dimensions allow it. */
  uintptr_t rows_at = (uintptr_t)dst | (uintptr_t)g.dld;
  g.unit = rows_at % 4 == 0 ? 4 : rows_at % 2 == 0 ? 2 : 1;
  /* (With seams, every destination row's first segment goes to them, on
   * a line or not.) */
  g.r0 = g.seams ? 0 : lt__min64(lt__align_skip(dst, g.dld, es), rows);
  g.c0 = lt__min64(lt__align_skip(src, g.sld, es), cols);
  g.nrows = (rows - g.r0) / g.t * g.t;
  g.ncols = (cols - g.c0) / g.t * g.t;
  g.tail = rows - g.r0 - g.nrows;
  g.packed = dst_ld == rows && g.dld % 64 != 0; /* so r0 is 0 */
  g.off_lines = g.dld % 64 != 0 || (uintptr_t)(dst + g.r0 * es) % 64 != 0;
  /* the rule asked only for IF_LARGE: a batch makes many small calls that always stream */
  bool large = policy == LT__STREAM_IF_LARGE && lt__streams_output(g.nrows * g.ncols * es, g.dld, g.sld);
  bool merged = false;
  bool stream = (policy == LT__STREAM_ALWAYS || large) && g.nrows > 0 && g.ncols > 0 &&
                ((walk == LT__WALK_PANELS && !g.seams && g.dld <= LT__PANEL_MAX_LD && lt__tiles_paneled(&g, tile)) ||
                 lt__tiles_streamed(&g, tile, edge, &merged));
  if (!stream) {
    if (own && own->cached && lt__zen4_own_cached(&g)) own->cached(&g, walk == LT__WALK_PANELS);
    else lt__tiles_cached(&g, tile, walk == LT__WALK_PANELS, es);
  }
  int64_t r_end = g.r0 + g.nrows, c_end = g.c0 + g.ncols;
  /* The frame around the full tiles: top and bottom bands over all
   * columns (but those of the full tiles where merged wrote them), then
   * left and right bands beside the tiles. */
  lt__edge(edge, dst, dst_ld, src, src_ld, g.r0, cols);
  if (merged) {
    lt__edge(edge, dst + r_end * es, dst_ld, src + r_end * g.sld, src_ld, rows - r_end, g.c0);
    lt__edge(edge, dst + c_end * g.dld + r_end * es, dst_ld, src + r_end * g.sld + c_end * es, src_ld, rows - r_end,
             cols - c_end);
  } else if (stream) {
    lt__edge_pulled(edge, dst + r_end * es, dst_ld, src + r_end * g.sld, src_ld, rows - r_end, cols, es);
  } else {
    lt__edge(edge, dst + r_end * es, dst_ld, src + r_end * g.sld, src_ld, rows - r_end, cols);
  }
  lt__edge(edge, dst + g.r0 * es, dst_ld, src + g.r0 * g.sld, src_ld, g.nrows, g.c0);
  lt__edge(edge, dst + c_end * g.dld + g.r0 * es, dst_ld, src + g.r0 * g.sld + c_end * es, src_ld, g.nrows,
           cols - c_end);
  return stream;
}

#endif
