/* Internal to backends/cpu/transpose: how both vector paths write a
 * tile's 64-byte rows, with plain stores, streaming stores to aligned
 * lines, or streaming stores through a stage where the destination rows
 * are not line-aligned. Included after the path defines vec, VBYTES,
 * load_vec, store_vec and stream_vec. */
#ifndef LT_TRANSPOSE_EMIT_H
#define LT_TRANSPOSE_EMIT_H

#include <string.h>

#include "transpose_tiled.h"

#if defined(LT__SPLICE_MIN_UNIT) && !defined(LT__STAGE_PITCH_SPLICES)
#error "a path that splices defines LT__SPLICE_MIN_UNIT before it includes transpose_tiling.h"
#endif

/* Fully unrolls the loop it precedes (constant trip counts of at most 16),
 * so that arrays of vectors live in registers. Each compiler has its own
 * spelling; clang 14 takes GCC's as a mere hint and leaves loops rolled. */
#if defined(__clang__)
#define LT__UNROLL _Pragma("clang loop unroll(full)")
#else
#define LT__UNROLL _Pragma("GCC unroll 16")
#endif

enum { ROW_VECS = 64 / VBYTES }; /* vectors per 64-byte row of a tile */

static inline __attribute__((always_inline)) void store_row(char *p, const vec *v) {
  LT__UNROLL for (int b = 0; b < ROW_VECS; b++) store_vec(p + b * VBYTES, v[b]);
}

static inline __attribute__((always_inline)) void stream_row(char *p, const vec *v) {
  LT__UNROLL for (int b = 0; b < ROW_VECS; b++) stream_vec(p + b * VBYTES, v[b]);
}

static inline __attribute__((always_inline)) void load_row(vec *v, const char *p) {
  LT__UNROLL for (int b = 0; b < ROW_VECS; b++) v[b] = load_vec(p + b * VBYTES);
}

/* Plain stores of bytes [from, from + n) of v to p: the partial lines at
 * the ends of a run, once per row, so a byte copy will do. */
static inline __attribute__((always_inline)) void store_bytes(char *p, const vec *v, size_t from, size_t n) {
  _Alignas(64) char tmp[64];
  store_row(tmp, v);
  memcpy(p, tmp + from, n);
}

/* A row's first segment (bytes [0, n) of v go to p) or its last (bytes
 * [from, from + n)): kept whole in the row's ends slot, the first at 0
 * and the last at 64, where the walk writes the partial lines itself
 * (lt__flush_ends); else stored now. */
static inline __attribute__((always_inline)) void end_bytes(char *ends, bool last, char *p, const vec *v, size_t from,
                                                            size_t n) {
  if (ends) store_row(ends + (last ? 64 : 0), v);
  else store_bytes(p, v, from, n);
}

/* Segment k of a staged row past its run's first (see stage_row): line
 * k - 1 streamed out where out (not for the run's second segment, whose
 * line k - 1 is the partial first one, written with the ends), then the
 * stage shifted to hold segments k - 1 and k. */
static inline __attribute__((always_inline)) void stage_step(char *seg, char *stage, const vec *v, size_t mis,
                                                             bool out) {
  vec line[ROW_VECS], prev[ROW_VECS];
  if (out) {
    load_row(line, stage + 64 - mis);
    stream_row(seg - 64 - mis, line);
  }
  load_row(prev, stage + 64);
  store_row(stage, prev);
  store_row(stage + 64, v);
}

/* Streams segment k of a destination row's run of K segments, which
 * starts mis bytes into a line: line j (1 <= j < K) is the last mis bytes
 * of segment j - 1 and the first 64 - mis of segment j. The stage holds
 * segments k - 2 and k - 1, so line k - 1 goes out from stores a tile
 * old, which no longer sit in the store buffer to stall the load. The
 * partial lines at the two ends, which share their line with bytes
 * outside the run, get plain stores of exactly the run's bytes (now, or
 * from ends by the walk): a line both streamed and stored to would bounce
 * between cache and memory. */
static inline __attribute__((always_inline)) void stage_row(const lt__tile_out *o, char *seg, char *stage,
                                                            char *ends, const vec *v) {
  size_t mis = (uintptr_t)seg % 64;
  bool first = o->run & LT__RUN_FIRST, last = o->run & LT__RUN_LAST;
  if (first && last) {
    store_row(seg, v);
    return;
  }
  if (first) {
    end_bytes(ends, false, seg, v, 0, 64 - mis);
    store_row(stage + 64, v);
    return;
  }
  stage_step(seg, stage, v, mis, !(o->run & LT__RUN_SECOND));
  if (last) {
    vec line[ROW_VECS];
    load_row(line, stage + 64 - mis);
    stream_row(seg - mis, line);
    end_bytes(ends, true, seg + 64 - mis, v, 64 - mis, mis);
  }
}

/* A row's segs segments from a tile that is neither of its run's first
 * two nor its last (EMIT_STAGED_INNER): stage_row's steady state, with
 * none of the ends' byte copies in the tile's code. */
static inline __attribute__((always_inline)) void stage_inner(char *seg, char *stage, const vec *v, int segs) {
  size_t mis = (uintptr_t)seg % 64;
  LT__UNROLL for (int s = 0; s < segs; s++) stage_step(seg + s * 64, stage, v + s * ROW_VECS, mis, true);
}

#ifdef LT__SPLICE_MIN_UNIT
/* As stage_row, for a path whose one-vector rows can be spliced in a
 * register (lt__splice): the stage keeps only the row's last segment,
 * and line k - 1 is its last mis bytes and this segment's first 64 - mis.
 * One aligned load, one shuffle and one store per line instead of three
 * of each, and no line waits a tile. prev, when not NULL, is the segment
 * before, still in a register (the call's own); keep asks to leave this
 * one in the stage for the next call. A row that starts on a line (every
 * other row, where rows lie an odd multiple of 32 bytes apart) streams
 * its segments as they are and keeps nothing: on a Xeon, F32 BHTD (0,3,1,2)
 * at 512 MiB (rows 32 bytes short of 2 MiB), same-run ratio to memcpy,
 * three runs each in turn, 0.71-0.72 -> 0.75; 11585^2 level. Rows off
 * lines still cost that shape a tenth (F32 (0,3,1,2) of [4, 12, T, 64],
 * two runs each: rows on lines, T = 43684, 43688, 43692, 0.85-0.89;
 * rows 32 bytes off, T = 43686, 43690, 43694, 0.75-0.81), and the
 * splices are little of it: T = 43690, three runs each in turn, with
 * every segment streamed unspliced (wrong bytes, to time it) 0.76-0.77
 * -> 0.78-0.81; with the stage's store and load left out, level; with
 * the stage's lines asked for writing before each call, 0.80-0.82 ->
 * 0.76-0.78. Most of that tenth was the tiles' code: see
 * EMIT_SPLICED_INNER. */
static inline __attribute__((always_inline)) void splice_row(const lt__tile_out *o, char *seg, char *stage,
                                                             char *ends, const vec *v, const vec *prev, bool keep) {
  _Static_assert(ROW_VECS == 1, "a spliced row is one vector");
  size_t mis = (uintptr_t)seg % 64;
  bool first = o->run & LT__RUN_FIRST, last = o->run & LT__RUN_LAST;
  if (first && last) {
    store_row(seg, v);
    return;
  }
  if (first) end_bytes(ends, false, seg, v, 0, 64 - mis);
  else if (mis == 0) stream_vec(seg, v[0]);
  else stream_vec(seg - mis, lt__splice(prev ? *prev : *(const vec *)stage, v[0], mis, o->unit));
  if (last) end_bytes(ends, true, seg + 64 - mis, v, 64 - mis, mis);
  else if (keep && mis != 0) store_vec(stage, v[0]);
}

/* A row's segs segments from a tile between its run's first and last
 * (EMIT_SPLICED_INNER): as splice_row, each spliced onto the one before
 * (the first onto the segment the stage keeps) and the last kept, with
 * none of the ends' byte copies in the tile's code. A row that starts on
 * a line streams its segments as they are. */
static inline __attribute__((always_inline)) void splice_inner(char *seg, char *stage, const vec *v, int segs,
                                                               int unit) {
  size_t mis = (uintptr_t)seg % 64;
  if (mis == 0) {
    LT__UNROLL for (int s = 0; s < segs; s++) stream_vec(seg + s * 64, v[s]);
    return;
  }
  vec prev = *(const vec *)(const void *)stage;
  LT__UNROLL for (int s = 0; s < segs; s++) {
    stream_vec(seg + s * 64 - mis, lt__splice(prev, v[s], mis, unit));
    prev = v[s];
  }
  store_vec(stage, prev);
}
#endif

/* How a tile writes its rows; a constant in each specialised copy of the
 * tile, so that the code in use stays small enough for the I-cache.
 * Spliced tiles other than their rows' first and last take a copy of
 * their own (EMIT_SPLICED_INNER, splice_inner), without the ends' code
 * and its byte copies: in the copy they shared with the ends, they ran a
 * tenth slower than tiles into rows on lines, and slower still with every
 * store of theirs left out (no stores at all, same-run ratio to memcpy:
 * 0.96-1.04 spliced against 1.34-1.39 for the same tiles through the
 * streaming copy; what in the shared copy costs it was not pinned down).
 * Xeon (AVX-512 with AMX), F32 [524280, 64] (128 MiB) into 64 rows,
 * same-run ratio to memcpy, two builds, three runs each in turn, one copy
 * -> two: rows 2 MiB - 32 bytes apart (one batch of BHTD (0,3,1,2) at 512
 * MiB) 0.82-0.84 -> 0.86-0.96, 2 MiB + 32 apart 0.83-0.85 -> 0.87-0.94,
 * rows 2 MiB apart (on lines) level (0.97-0.99, 0.94-1.03); bench_access
 * --sizes 512 --only "(0,3,1,2)", four runs each in turn, 0.85-0.86 ->
 * 0.89-0.91. At 64 MiB, a switch flipped sample by sample in one process
 * (60 samples), speed ratio: F32 BHTD (0,3,1,2) of [4, 12, 5461, 64]
 * 1.025, 4097 x 4095 1.028; bf16 5793^2 1.053, BHTD (0,3,1,2) of [4, 12,
 * 10922, 64] 1.041; u8 8190^2 1.016. Staged tiles likewise
 * (EMIT_STAGED_INNER), each path on u8 16383^2 (rows at odd addresses),
 * the switch flipped sample by sample (30 samples): AVX2 1.094, AVX-512
 * 1.060, with VBMI 1.064; bf16 8191^2 on AVX2 1.021; F32 on AVX2 level
 * (8191^2 1.016, 8190^2 1.008, 6000^2 0.994, 60 samples each). */
typedef enum emit_mode {
  EMIT_PLAIN,
  EMIT_STREAM,
  EMIT_STAGED,
  EMIT_STAGED_INNER,
  EMIT_SPLICED,
  EMIT_SPLICED_INNER
} emit_mode;

static inline emit_mode emit_mode_of(const lt__tile_out *o) {
  if (!o->stream) return EMIT_PLAIN;
  if (!o->stage) return EMIT_STREAM;
#ifdef LT__SPLICE_MIN_UNIT
  bool end = o->run & (LT__RUN_FIRST | LT__RUN_LAST);
  if (o->unit >= LT__SPLICE_MIN_UNIT) return end ? EMIT_SPLICED : EMIT_SPLICED_INNER;
#endif
  return o->run ? EMIT_STAGED : EMIT_STAGED_INNER;
}

/* The flags of tile s of the segs tiles of a call, as if called alone. */
static inline lt__tile_out nth_tile(const lt__tile_out *o, int s, int segs) {
  lt__tile_out t = *o;
  bool first = o->run & LT__RUN_FIRST;
  t.run = lt__run_flags(first && s == 0, s == 0 ? (o->run & LT__RUN_SECOND) != 0 : s == 1 && first,
                        (o->run & LT__RUN_LAST) && s == segs - 1);
  return t;
}

/* Row number row's slot in the tile's stage (lt__tile_out). */
static inline char *row_stage(const lt__tile_out *o, int64_t row) { return o->stage + row * lt__stage_pitch(o->unit); }

/* Writes row number row of a call's segs tiles, v (ROW_VECS vectors per
 * tile), to its segs adjacent 64-byte segments from seg on. */
static inline __attribute__((always_inline)) void emit_row(const lt__tile_out *o, char *seg, int64_t row,
                                                           const vec *v, emit_mode mode, int segs) {
  if (mode == EMIT_STAGED_INNER) {
    stage_inner(seg, row_stage(o, row), v, segs);
    return;
  }
#ifdef LT__SPLICE_MIN_UNIT
  if (mode == EMIT_SPLICED_INNER) {
    splice_inner(seg, row_stage(o, row), v, segs, o->unit);
    return;
  }
#endif
  char *ends = o->ends ? o->ends + row * 128 : NULL;
  LT__UNROLL for (int s = 0; s < segs; s++) {
    char *at = seg + s * 64;
    const vec *part = v + s * ROW_VECS;
    lt__tile_out one = nth_tile(o, s, segs);
    switch (mode) {
    case EMIT_PLAIN: store_row(at, part); break;
    case EMIT_STREAM: stream_row(at, part); break;
    case EMIT_STAGED: stage_row(&one, at, row_stage(o, row), ends, part); break;
    case EMIT_SPLICED:
#ifdef LT__SPLICE_MIN_UNIT
      /* A call's later segments splice onto the one before in its
       * register. Loaded back from the stage, a segment just stored there
       * waited for the streaming stores ahead of it to leave (F32 at 512
       * MiB, pairs into rows 201 apart, same-run ratio to memcpy:
       * 0.56-0.57 -> 0.74-0.77). */
      splice_row(&one, at, row_stage(o, row), ends, part, s > 0 ? part - 1 : NULL, s == segs - 1);
#endif
      break;
    case EMIT_STAGED_INNER:
    case EMIT_SPLICED_INNER: break; /* whole rows, above */
    }
  }
}

#endif
