/* Portable scalar transpose kernels: the naive loop on the partial tiles
 * around the edges, and the shared tiling loops with a plain element loop
 * per tile on the rest. These are also the edge kernels of the vector
 * paths. */
#include <string.h>

#include "transpose_tiled.h"

/* memcpy of a fixed size compiles to one move and allows any alignment. */
#define NAIVE_LOOP_AT(T, d, s, rows, cols)                                        \
  for (int64_t r = 0; r < (rows); r++)                                            \
    for (int64_t c = 0; c < (cols); c++) {                                        \
      T v;                                                                        \
      memcpy(&v, (s) + (r * src_ld + c) * (int64_t)sizeof v, sizeof v);           \
      memcpy((d) + (c * dst_ld + r) * (int64_t)sizeof v, &v, sizeof v);           \
    }
#define NAIVE_LOOP(T, rows, cols) NAIVE_LOOP_AT(T, dst, src, rows, cols)

/* The naive loop in bands of BAND columns: a band's destination rows stay
 * cached while every source row passes over them. Unbanded, a thin matrix
 * (12 rows by a million columns, a channels-last conversion) wrote each
 * destination line once per source row, far apart, at a twelfth of the
 * bandwidth. */
enum { BAND = 256 };
#define BANDED_LOOP(T)                                                            \
  for (int64_t c0 = 0; c0 < cols; c0 += BAND) {                                  \
    int64_t n = cols - c0 < BAND ? cols - c0 : BAND;                             \
    const char *s0 = src + c0 * (int64_t)sizeof(T);                              \
    char *d0 = dst + c0 * dst_ld * (int64_t)sizeof(T);                           \
    {                                                                            \
      const char *src_ = s0;                                                     \
      char *dst_ = d0;                                                           \
      NAIVE_LOOP_AT(T, dst_, src_, rows, n)                                      \
    }                                                                            \
  }

static void naive1(char *dst, int64_t dst_ld, const char *src, int64_t src_ld, int64_t rows, int64_t cols) {
  BANDED_LOOP(uint8_t)
}
static void naive2(char *dst, int64_t dst_ld, const char *src, int64_t src_ld, int64_t rows, int64_t cols) {
  BANDED_LOOP(uint16_t)
}
static void naive4(char *dst, int64_t dst_ld, const char *src, int64_t src_ld, int64_t rows, int64_t cols) {
  BANDED_LOOP(uint32_t)
}
static void naive8(char *dst, int64_t dst_ld, const char *src, int64_t src_ld, int64_t rows, int64_t cols) {
  BANDED_LOOP(uint64_t)
}

/* A tile is 64 bytes a side; tiles take byte leading dimensions. */
#define TILE_LOOP(T)                                                                        \
  char *dst = out->dst;                                                                     \
  int64_t src_ld = sld / (int64_t)sizeof(T), dst_ld = out->dld / (int64_t)sizeof(T);      \
  NAIVE_LOOP(T, 64 / (int64_t)sizeof(T), 64 / (int64_t)sizeof(T))

static void tile1(const lt__tile_out *out, const char *src, int64_t sld) { TILE_LOOP(uint8_t) }
static void tile2(const lt__tile_out *out, const char *src, int64_t sld) { TILE_LOOP(uint16_t) }
static void tile4(const lt__tile_out *out, const char *src, int64_t sld) { TILE_LOOP(uint32_t) }
static void tile8(const lt__tile_out *out, const char *src, int64_t sld) { TILE_LOOP(uint64_t) }

static void transpose1(char *dst, int64_t dst_ld, const char *src, int64_t src_ld, int64_t rows, int64_t cols) {
  lt__transpose_tiled(dst, dst_ld, src, src_ld, rows, cols, 1, tile1, LT__STREAM_NEVER, naive1, LT__WALK_TILES, NULL,
                      NULL);
}
static void transpose2(char *dst, int64_t dst_ld, const char *src, int64_t src_ld, int64_t rows, int64_t cols) {
  lt__transpose_tiled(dst, dst_ld, src, src_ld, rows, cols, 2, tile2, LT__STREAM_NEVER, naive2, LT__WALK_TILES, NULL,
                      NULL);
}
static void transpose4(char *dst, int64_t dst_ld, const char *src, int64_t src_ld, int64_t rows, int64_t cols) {
  lt__transpose_tiled(dst, dst_ld, src, src_ld, rows, cols, 4, tile4, LT__STREAM_NEVER, naive4, LT__WALK_TILES, NULL,
                      NULL);
}
static void transpose8(char *dst, int64_t dst_ld, const char *src, int64_t src_ld, int64_t rows, int64_t cols) {
  lt__transpose_tiled(dst, dst_ld, src, src_ld, rows, cols, 8, tile8, LT__STREAM_NEVER, naive8, LT__WALK_TILES, NULL,
                      NULL);
}

const lt__transpose_fn lt__transpose_scalar_table[4] = {transpose1, transpose2, transpose4, transpose8};
/* Plain stores only: the streamed table is the same kernels. */
const lt__transpose_fn lt__transpose_scalar_streamed_table[4] = {transpose1, transpose2, transpose4, transpose8};
