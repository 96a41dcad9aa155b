/* Internal to backends/cpu/transpose: whether a streamed transpose takes
 * its tiles in pairs along the source's rows, so that each destination
 * row gets two lines back to back, by element size, the CPU's vendor and
 * the leading dimensions (measured reasons below). */
#ifndef LT_TRANSPOSE_TILE_PAIRS_H
#define LT_TRANSPOSE_TILE_PAIRS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "transpose_tiling.h"
#include "vendor.h"

/* Whether a single tile's rows, dld_bytes apart, keep bit 6 of their
 * lines' addresses for more than LT__BIT6_RUN_ROWS rows at a time: rows
 * a multiple of 128 bytes apart, or within 64 / LT__BIT6_RUN_ROWS bytes
 * of one, whose bit 6 turns only every 64 / (that distance) rows. On
 * the Xeon such bf16 transposes ran faster in pairs (lt__takes_pairs),
 * the others not. bench_access --dtype bf16, same-run ratio to memcpy,
 * two runs each in turn, single -> pairs: (0,2,1) of [B, R, 323] at 64
 * MiB, destination rows 2R bytes apart, R = 192, 384, 448, 576 (on a
 * multiple) 0.57-0.65 -> 0.96-1.16, 322 (4 bytes off) 0.62-0.72 ->
 * 0.74-0.79, 323 (6 off) 0.59-0.60 -> 0.67-0.70, 324, 326, 328 (8, 12,
 * 16 off) level or behind (0.63-0.73 -> 0.68-0.72), 645 (10 off) level
 * (behind at 512 MiB: 645^3, 0.72-0.77 -> 0.68-0.70); R = 96, 160, 224,
 * 288, 352, 800 (64 off, bit 6 turning every row) 0.98-1.09 ->
 * 0.90-1.12; (1,2,0) of [R, X, 323], the same rows: on a multiple
 * 0.58-0.65 -> 0.92-1.12, 64 off level (1.01-1.22 -> 1.00-1.19); 2-D
 * 16000^2 (488 MiB) 0.71 -> 0.90-0.92, (0,2,1) of 512^3 (256 MiB)
 * 0.59-0.62 -> 0.79; source rows a multiple of 16 KiB apart lost or
 * were level ((1,2,0) of 512^3 0.30 -> 0.24-0.25, 4096 x 16384
 * 0.54-0.57 -> 0.56). */
enum { LT__BIT6_RUN_ROWS = 8 };

static inline bool lt__rows_keep_bit6(int64_t dld_bytes) {
  int64_t m = dld_bytes % 128, off = m < 64 ? m : 128 - m;
  return off * LT__BIT6_RUN_ROWS < 64;
}

/* The pages a strip of paired tiles reads at once: its 128 / es source
 * rows, sld_bytes apart (see lt__takes_pairs). Paired byte tiles read
 * 128 rows, and where those lie on more than LT__PAIR_STRIP_MAX_PAGES
 * pages they lost on the Xeon, as halves' 64 rows never did; elsewhere
 * pairs of byte tiles gained where the destination rows keep bit 6, as
 * halves' did. bench_access --dtype u8 (VBMI tiles), same-run ratio to
 * memcpy, two runs each in turn, single -> pairs: (0,2,1) at 64 MiB,
 * destination rows a multiple of 128 bytes apart, of [B, R, 646] with R
 * = 384, 640, 1024 0.56-0.66 -> 0.89-1.03, of [1024, 256, 256]
 * 0.56-0.57 -> 0.76-0.77, of [128, 512, 1024] 0.57-0.62 -> 0.89-0.90;
 * at 512 MiB [2160, 384, 646] 0.68-0.70 -> 0.74, [8192, 256, 256] 0.59
 * -> 0.60-0.70; 2-D transposes at 512 MiB, the source rows 1024 and
 * 2048 bytes apart (32 and 64 pages) level (0.64-0.76 -> 0.66-0.69,
 * 0.64-0.73 -> 0.66-0.80), 4096 and 8192 (128 pages) behind (0.70-0.74
 * -> 0.49-0.50, 0.60-0.66 -> 0.47-0.49), as was 23168^2 (0.66-0.75 ->
 * 0.51-0.60). */
enum { LT__PAIR_STRIP_MAX_PAGES = 64 };

static inline int64_t lt__pair_strip_pages(size_t es, int64_t sld_bytes) {
  int64_t rows = 128 / (int64_t)es;
  return lt__min64(rows, rows * sld_bytes / 4096); /* rows a page or more apart: a page each */
}

/* Whether streamed tiles go in pairs along the source's rows, so that
 * each destination row gets two lines back to back (lt__tiling's
 * max_segs): 4- and 8-byte elements always; from sources wider than two
 * tiles, 2-byte ones on AMD cores, and on Intel cores 2- and 1-byte
 * ones whose destination rows keep bit 6 (lt__rows_keep_bit6, above),
 * but for byte tiles reading too many pages at once
 * (lt__pair_strip_pages, above). Single 2-byte tiles stream one line to
 * each of 32 rows in turn, and Zen 5 ran them at half of memcpy; in
 * pairs, bench_access --dtype bf16, same-run ratio to memcpy, two runs
 * each in turn, single -> pairs: at 512 MiB 2-D 0.52-0.53 -> 0.71-0.73,
 * (1,2,0) 0.64 -> 0.72, (2,0,1) 0.62-0.63 -> 0.65-0.66, (2,1,0) 0.47 ->
 * 0.51; at 64 MiB (0,2,1) 0.48-0.50 -> 0.56, (1,2,0) 0.58-0.61 ->
 * 0.70-0.72, (2,0,1) 0.47-0.48 -> 0.62-0.66, (2,1,0) 0.39-0.41 ->
 * 0.45-0.46; 1 MiB level (its tiles are not streamed). 2-D transposes
 * of N x cols halves at 512 MiB, a run each: 128 cols 0.53 -> 0.87, 256
 * 0.51 -> 0.81, 2048 0.49 -> 0.69, 96 0.85 -> 0.95. Sources two tiles
 * wide (64 halves) lost (0.91-0.94 -> 0.78-0.80; BHTD (0,3,1,2), whose
 * slices are 64 wide, 1.13-1.15 -> 0.96-0.98), as did sources one tile
 * wide (1.28 -> 1.17), and keep single tiles. Zen 4 had measured pairs
 * slower when each tile loaded its lines in four 16-byte pieces (the
 * lanes: 16384^2 at 512 MiB, 0.55 against 0.59); whole-row pairs were
 * not measured there. The seamed calls of grouped transposes keep
 * single 2-byte tiles: paired, they measured level or behind (BHTD
 * (0,2,3,1) at 512 MiB 1.18-1.19 -> 1.00-1.05). Intel cores keep single
 * 2-byte tiles but where the destination rows keep bit 6: elsewhere
 * single tiles measured ahead of pairs or level with them on a Xeon
 * (AVX-512 with AMX), and steadier from run to run on that shared
 * machine. bench_access --dtype bf16, same-run ratio to memcpy, pairs
 * -> single, first with a switch in one build (runs in turn), then two
 * builds (six runs each in turn, half an hour later): at 512 MiB the
 * 2-D transpose (16384^2) 0.50-0.56 -> 0.59-0.65 (five runs), then
 * 0.48-0.62 -> 0.63-0.69; (1,2,0) 0.37-0.59 -> 0.49-0.68, then level
 * (0.58-0.74 against 0.63-0.74); (2,0,1) 0.34-0.57 -> 0.48-0.65, then
 * level (0.59-0.67, 0.58-0.71); (2,1,0) 0.30-0.48 -> 0.45-0.52, then
 * 0.45-0.55 -> 0.49-0.59; BHTD (3,2,1,0), whose calls never pair, moved
 * by as much between the builds (0.44-0.48 against 0.38-0.47). At 64
 * MiB, with the switch (two runs), 2-D 1.09-1.15 -> 1.31-1.57, (1,2,0)
 * 0.56-0.58 -> 0.68-0.76, (2,0,1) 0.58 -> 0.72-0.73, (2,1,0) 0.39-0.41
 * -> 0.52-0.64; between the builds (three runs) 2-D 1.36-1.54 ->
 * 1.51-1.55, (2,1,0) 0.58-0.62 -> 0.62-0.67, (1,2,0) 0.89-1.01 ->
 * 0.79-0.96, (2,0,1) 0.90-0.96 -> 0.85-0.90 (a later build measured
 * (1,2,0) and (0,2,1) at 64 MiB, whose destination rows keep bit 6,
 * faster paired, and pairs them). Two threads at 512 MiB, with the
 * switch, two runs: 2-D 0.38-0.42 -> 0.56-0.59, (2,0,1) 0.39-0.50 ->
 * 0.52-0.62, (2,1,0) 0.33-0.35 -> 0.42-0.49. 2-D transposes with the
 * switch, two runs: 16384^2 0.41-0.49 -> 0.59-0.62, 16352^2 0.72-0.73
 * -> 0.84-0.87. F32 keeps its pairs there (single, two runs: 2-D
 * 0.87-0.90 -> 0.62-0.67, (2,0,1) 0.94-1.01 -> 0.76-0.79, (0,2,1)
 * 0.97-0.98 -> 0.72-0.78). Not every bf16 2-D transpose agrees (512
 * MiB, one to three runs each, single -> pairs): sources 1024, 1536,
 * 2048 and 4096 halves wide ran faster paired (0.72 -> 0.79, 0.66 ->
 * 0.72, 0.76-0.78 -> 0.86-0.93, 0.74-0.78 -> 0.85-0.87), 128, 256, 8192
 * and 13000 wide level, while 96, 2000, 2600 and 3072 wide ran faster
 * single (0.71-0.72 -> 0.64-0.70, 0.69 -> 0.65, 0.94 -> 0.84, 0.68 ->
 * 0.48): the destination rows tell them apart (above), but for 1536
 * wide. Single tiles stream one line to each row in turn, and on the
 * Xeon a run of lines with the same bit 6 of their address (rows a
 * multiple of 128 bytes apart) goes at half the rate of sequential
 * stores (11.5-13 GB/s against 22-25, rows 4 KiB to 4 MiB apart), so
 * bf16 [16384, 16352] (destination rows 32 KiB apart) ran at 0.67-0.68
 * of memcpy against 0.90 for 16352^2, at 512 MiB. Pairs write both
 * lines of each 128 bytes, whatever the rows' spacing. They read 64
 * source rows at once, though, which cost more where those rows lie a
 * multiple of 16 KiB apart (in a few of L2's sets: 16384^2 above), and
 * those keep single tiles. Two strips' tiles through a stage in L2, or
 * the second strip half a panel behind the first, had measured mixed
 * (bf16 [16384, 16352] 1.02-1.12x, 16384^2 0.89-1.01x, u8 0.84-0.96x,
 * where rows lie well 0.76-0.82x through the stage). */
static inline bool lt__takes_pairs(size_t es, int64_t cols, int64_t dld_bytes, int64_t sld_bytes) {
  if (es >= 4) return true;
  if (cols <= 64) return false;
  if (!lt__intel_cores()) return es == 2;
  return lt__rows_keep_bit6(dld_bytes) && sld_bytes % 16384 != 0 &&
         lt__pair_strip_pages(es, sld_bytes) <= LT__PAIR_STRIP_MAX_PAGES;
}

#endif
