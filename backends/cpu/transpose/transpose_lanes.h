/* Internal to backends/cpu/transpose: the in-register tile transpose both
 * vector paths share, included after the path defines vec, VBYTES, LANES,
 * load_lanes, unpack_lo and unpack_hi, and after transpose_emit.h.
 *
 * A vector block is VBYTES / es elements a side. It is done as LANES
 * column strips of k = 16 / es columns: register i of a strip holds, in
 * its 128-bit lane l, the strip's k elements of source row l * k + i. The
 * in-lane unpacks then transpose every lane's k x k block at once, and
 * lane l of the result register for column c holds source rows l * k ..
 * l * k + k - 1 of c, so each result is one whole destination row
 * segment. Gathering lanes on load (a load port) replaces the cross-lane
 * shuffles that would otherwise compete for the one shuffle port. */
#ifndef LT_TRANSPOSE_LANES_H
#define LT_TRANSPOSE_LANES_H

#include <stddef.h>
#include <stdint.h>

/* log2(k) stages of pairwise unpacks leave column c in register
 * bit_reverse(c): each stage interleaves register pairs (2i, 2i+1) and
 * puts the low result at i, the high one at i + k/2 (a perfect shuffle).
 * Loops count stages rather than double a width, so that every compiler
 * sees constant trip counts and unrolls them, keeping r in registers. */
static inline int bit_reverse(int i, int stages) {
  int r = 0;
  for (int s = 0; s < stages; s++, i >>= 1) r = (r << 1) | (i & 1);
  return r;
}

/* log2(16 / es): the unpack stages of an es-byte element. */
static inline int stages_of(size_t es) { return es == 1 ? 4 : es == 2 ? 3 : es == 4 ? 2 : 1; }

static inline __attribute__((always_inline)) void unpack_stage(vec *r, int k, size_t w) {
  vec t[16];
  LT__UNROLL for (int i = 0; i < k / 2; i++) {
    t[i] = unpack_lo(r[2 * i], r[2 * i + 1], w);
    t[i + k / 2] = unpack_hi(r[2 * i], r[2 * i + 1], w);
  }
  LT__UNROLL for (int i = 0; i < k; i++) r[i] = t[i];
}

/* Transposes one strip of k columns of a vector block (VBYTES / es rows)
 * into r: register bit_reverse(c) ends up holding column c. */
static inline __attribute__((always_inline)) void block_strip(vec *r, const char *src, int64_t sld, int strip,
                                                              size_t es) {
  const int k = 16 / (int)es;
  LT__UNROLL for (int i = 0; i < k; i++) r[i] = load_lanes(src + i * sld + strip * 16, k * sld);
  LT__UNROLL for (int s = 0; s < stages_of(es); s++) unpack_stage(r, k, es << s);
}

/* segs tiles of 64 x 64 bytes (a cache line a side) along the rows. Each
 * strip of destination rows is finished across all its segs * 64 bytes
 * before the next. */
static inline __attribute__((always_inline)) void line_tile_as(const lt__tile_out *o, const char *src, int64_t sld,
                                                               size_t es, emit_mode mode, int segs) {
  const int k = 16 / (int)es, blocks = segs * ROW_VECS; /* vector blocks along the rows */
  const int64_t side = VBYTES / (int64_t)es;             /* a vector block's side in elements */
  LT__UNROLL for (int bc = 0; bc < ROW_VECS; bc++)
    LT__UNROLL for (int strip = 0; strip < LANES; strip++) {
      vec r[2 * ROW_VECS][16];
      const char *block = src + bc * VBYTES;
      LT__UNROLL for (int br = 0; br < blocks; br++) block_strip(r[br], block + br * side * sld, sld, strip, es);
      LT__UNROLL for (int c = 0; c < k; c++) {
        int64_t row = bc * side + strip * k + c;
        vec v[2 * ROW_VECS];
        LT__UNROLL for (int br = 0; br < blocks; br++) v[br] = r[br][bit_reverse(c, stages_of(es))];
        emit_row(o, o->dst + row * o->dld, row, v, mode, segs);
      }
    }
}

/* One tile, or (where the path defines LT__TILE_PAIRS) two along the
 * rows. */
static inline __attribute__((always_inline)) void line_tile_segs(const lt__tile_out *o, const char *src,
                                                                 int64_t sld, size_t es, emit_mode mode) {
#ifdef LT__TILE_PAIRS
  if (o->segs == 2) {
    line_tile_as(o, src, sld, es, mode, 2);
    return;
  }
#endif
  line_tile_as(o, src, sld, es, mode, 1);
}

static inline __attribute__((always_inline)) void line_tile(const lt__tile_out *o, const char *src, int64_t sld,
                                                            size_t es) {
  switch (emit_mode_of(o)) {
  case EMIT_PLAIN: line_tile_as(o, src, sld, es, EMIT_PLAIN, 1); break;
  case EMIT_STREAM: line_tile_segs(o, src, sld, es, EMIT_STREAM); break;
  case EMIT_STAGED: line_tile_segs(o, src, sld, es, EMIT_STAGED); break;
  case EMIT_STAGED_INNER: line_tile_segs(o, src, sld, es, EMIT_STAGED_INNER); break;
  case EMIT_SPLICED:
#ifdef LT__SPLICE_MIN_UNIT
    line_tile_segs(o, src, sld, es, EMIT_SPLICED);
#endif
    break;
  case EMIT_SPLICED_INNER:
#ifdef LT__SPLICE_MIN_UNIT
    line_tile_segs(o, src, sld, es, EMIT_SPLICED_INNER);
#endif
    break;
  }
}

#endif
