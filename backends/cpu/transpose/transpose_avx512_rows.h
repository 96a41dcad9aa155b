/* Internal to transpose_avx512.c, included after its whole-row tiles:
 * the kernels that read rows where they lie (lt__transpose_rows_fn and
 * lt__transpose_rows_seamed_fn), the walks and, per tile, its three
 * kernels (ROWS). */
#ifndef LT_TRANSPOSE_AVX512_ROWS_H
#define LT_TRANSPOSE_AVX512_ROWS_H

/* The kernels that read rows where they lie (grouped_transpose.c): whole
 * tiles with plain stores, down columns, each then asking for the tile
 * below's source rows and destination lines, as the cached walk does on
 * Intel cores (lt__tiles_cached). On a Xeon, same-run ratio to memcpy,
 * BHTD (3,2,1,0): F32 of [4, 12, 85, 64], three runs each, without
 * asking 0.65-0.69, asking for the source alone 0.66-0.69, for both
 * 0.76-0.82; bench_access at 1 MiB, five runs each in turn, u8 0.31-0.48
 * without the destination lines, 0.45-0.53 with (where the cached walk's
 * byte tiles had measured them behind, lt__tile_below), bf16 level.
 * tile must inline (always_inline): called, F32's tiles measured 0.59-0.69
 * against 0.80-0.83 (bench_access at 1 MiB, two runs each). With
 * streaming stores (stream), the walk asks for nothing: its caller has
 * just pulled the rows into L2, and the stores go around the caches.
 * Asking for the tile below's rows there, F32 (3,2,1,0) at 512 MiB,
 * same-run ratio to memcpy, two runs each: [8, 8, 30000, 64] 0.58-0.59
 * against 0.82-0.83 without, [4, 12, 43690, 64] 0.74-0.77 against 0.84,
 * [4, 12, 43000, 64] 0.80-0.81 against 0.83-0.85. */
static inline __attribute__((always_inline)) void rows_walk(char *dst, int64_t dst_ld, const char *const *rows,
                                                            int64_t nrows, int64_t ncols, int64_t es,
                                                            void (*tile)(const lt__tile_out *, tile_src), bool stream) {
  const int64_t t = 64 / es, dld = dst_ld * es;
  for (int64_t c = 0; c < ncols; c += t)
    for (int64_t r = 0; r < nrows; r += t) {
      lt__tile_out out = {.dst = dst + c * dld + r * es, .dld = dld, .stream = stream, .segs = 1};
      tile(&out, (tile_src){.rows = rows + r, .off = c * es});
      if (stream || r + t >= nrows) continue;
      for (int64_t i = 0; i < t; i++) __builtin_prefetch(rows[r + t + i] + c * es, 0, 3);
      for (int64_t j = 0; j < t; j++) __builtin_prefetch(out.dst + j * dld + t * es, 1, 3);
    }
}

/* The same walk with streaming stores into destination rows off lines,
 * leaving each row's first and last 64 bytes in seams, as the seamed
 * kernels do (lt__transpose_seamed_fn): the tiles along a destination
 * row follow one another, so its middle lines go out through the stage
 * (emit_row), and the caller writes the lines where its calls meet. */
static inline __attribute__((always_inline)) void rows_walk_seamed(char *dst, int64_t dst_ld, const char *const *rows,
                                                                   int64_t nrows, int64_t ncols, int64_t es,
                                                                   void (*tile)(const lt__tile_out *, tile_src),
                                                                   char *seams) {
  const int64_t t = 64 / es, dld = dst_ld * es;
  _Alignas(64) char stage[64 * 128]; /* up to 128 bytes for each of a tile's rows (lt__stage_pitch) */
  uintptr_t rows_at = (uintptr_t)dst | (uintptr_t)dld;
  int unit = rows_at % 4 == 0 ? 4 : rows_at % 2 == 0 ? 2 : 1;
  for (int64_t c = 0; c < ncols; c += t)
    for (int64_t r = 0; r < nrows; r += t) {
      lt__tile_out out = {.dst = dst + c * dld + r * es,
                          .dld = dld,
                          .stream = true,
                          .stage = stage,
                          .ends = seams + c * 128,
                          .unit = unit,
                          .segs = 1,
                          .run = lt__run_flags(r == 0, r == t, r + t == nrows)};
      tile(&out, (tile_src){.rows = rows + r, .off = c * es});
    }
}

/* One tile's three kernels, with plain stores, streaming ones, and
 * streaming ones through seams (spliced where the rows' alignment
 * allows, as emit_mode_of picks), exported as lt__transpose_rows_NAME,
 * lt__transpose_rows_streamed_NAME and lt__transpose_rows_seamed_NAME.
 * TILE(out, src, mode) is one tile of ES-byte elements; ATTR: the target
 * it needs beyond the file's, so that it inlines. */
#define ROWS(ES, NAME, TILE, ATTR)                                                                                    \
  ATTR static inline __attribute__((always_inline)) void plain_##NAME(const lt__tile_out *out, tile_src src) {       \
    TILE(out, src, EMIT_PLAIN);                                                                                       \
  }                                                                                                                   \
  ATTR static inline __attribute__((always_inline)) void stream_##NAME(const lt__tile_out *out, tile_src src) {      \
    TILE(out, src, EMIT_STREAM);                                                                                      \
  }                                                                                                                   \
  ATTR static inline __attribute__((always_inline)) void seam_##NAME(const lt__tile_out *out, tile_src src) {        \
    switch (emit_mode_of(out)) {                                                                                      \
    case EMIT_SPLICED: TILE(out, src, EMIT_SPLICED); break;                                                           \
    case EMIT_SPLICED_INNER: TILE(out, src, EMIT_SPLICED_INNER); break;                                               \
    case EMIT_STAGED_INNER: TILE(out, src, EMIT_STAGED_INNER); break;                                                 \
    default: TILE(out, src, EMIT_STAGED); break;                                                                      \
    }                                                                                                                 \
  }                                                                                                                   \
  ATTR static void rows_##NAME(char *dst, int64_t dst_ld, const char *const *rows, int64_t nrows, int64_t ncols) {   \
    rows_walk(dst, dst_ld, rows, nrows, ncols, ES, plain_##NAME, false);                                              \
  }                                                                                                                   \
  ATTR static void rows_streamed_##NAME(char *dst, int64_t dst_ld, const char *const *rows, int64_t nrows,           \
                                        int64_t ncols) {                                                              \
    rows_walk(dst, dst_ld, rows, nrows, ncols, ES, stream_##NAME, true);                                              \
  }                                                                                                                   \
  ATTR static void rows_seamed_##NAME(char *dst, int64_t dst_ld, const char *const *rows, int64_t nrows,             \
                                      int64_t ncols, char *seams) {                                                   \
    rows_walk_seamed(dst, dst_ld, rows, nrows, ncols, ES, seam_##NAME, seams);                                        \
  }                                                                                                                   \
  const lt__transpose_rows_fn lt__transpose_rows_##NAME = rows_##NAME;                                                \
  const lt__transpose_rows_fn lt__transpose_rows_streamed_##NAME = rows_streamed_##NAME;                              \
  const lt__transpose_rows_seamed_fn lt__transpose_rows_seamed_##NAME = rows_seamed_##NAME;

#endif
