/* Overlap checks for writes. layout.c settles the common cases cheaply;
 * the rest (unusual as_strided geometries) are settled exactly with a
 * bitmap over the elements reached, up to a size cap beyond which the
 * write is refused as unprovable. */
#include "overlap.h"

#include <string.h>

#include "alloc.h"
#include "error.h"
#include "tensor_impl.h"

/* Largest element range a bitmap check may cover: 2^27 bits = 16 MiB. */
#define BITMAP_MAX_ELEMENTS ((int64_t)1 << 27)

typedef struct bitmap {
  uint64_t *words;
  int64_t lo, n; /* covers element offsets lo .. lo+n-1 */
} bitmap;

static bool bitmap_new(bitmap *b, int64_t lo, int64_t hi) {
  b->lo = lo;
  b->n = hi - lo + 1;
  size_t bytes = (size_t)((b->n + 63) / 64) * 8;
  b->words = lt__alloc(bytes, 8);
  if (b->words) memset(b->words, 0, bytes);
  return b->words != NULL;
}

static void bitmap_free(bitmap *b) { lt__free(b->words, (size_t)((b->n + 63) / 64) * 8, 8); }

/* Visits every element offset of l inside the bitmap's range: marks it
 * (mark) or tests it. Returns true when a marked offset was hit (test) or
 * an offset was marked twice (mark). */
static bool visit(const lt__layout *l, bitmap *b, bool mark) {
  int64_t idx[LT_MAX_DIMS] = {0}, off = l->offset;
  if (lt__layout_numel(l) == 0) return false;
  for (;;) {
    int64_t k = off - b->lo;
    if (k >= 0 && k < b->n) {
      uint64_t bit = 1ull << (k & 63), *w = &b->words[k >> 6];
      if (*w & bit) return true;
      if (mark) *w |= bit;
    }
    int d = l->ndim - 1;
    for (; d >= 0; d--) {
      off += l->strides[d];
      if (++idx[d] < l->shape[d]) break;
      off -= l->strides[d] * l->shape[d];
      idx[d] = 0;
    }
    if (d < 0) return false;
  }
}

static lt_status too_big(const char *op, const char *what) {
  return lt__fail(LT_ERR_OVERLAP,
                  "%s: cannot prove that %s do not share memory (the layout is unusual and too large to "
                  "check exactly); write through a contiguous tensor instead",
                  op, what);
}

lt_status lt__check_writable(const lt_tensor *dst, const char *op) {
  char have[LT__TENSOR_BUF];
  lt__overlap o = lt__layout_self_overlap(&dst->layout);
  if (o == LT__DISJOINT) return LT_OK;
  if (o == LT__OVERLAPS)
    return lt__fail(LT_ERR_OVERLAP,
                    "%s: the destination %s has elements that share memory (an expanded or overlapping "
                    "view), so the result would depend on write order; write into lt_contiguous() of it",
                    op, lt__fmt_tensor(have, sizeof have, dst));
  int64_t lo, hi;
  bool overflow;
  lt__layout_extent(&dst->layout, &lo, &hi, &overflow);
  if (hi - lo + 1 > BITMAP_MAX_ELEMENTS) return too_big(op, "the destination's elements");
  bitmap b;
  if (!bitmap_new(&b, lo, hi)) return lt__fail(LT_ERR_NOMEM, "%s: out of memory checking for overlap", op);
  bool hit = visit(&dst->layout, &b, true);
  bitmap_free(&b);
  if (hit)
    return lt__fail(LT_ERR_OVERLAP, "%s: the destination %s has elements that share memory", op,
                    lt__fmt_tensor(have, sizeof have, dst));
  return LT_OK;
}

static bool same_layout(const lt__layout *a, const lt__layout *b) {
  if (a->ndim != b->ndim || a->offset != b->offset) return false;
  for (int i = 0; i < a->ndim; i++)
    if (a->shape[i] != b->shape[i] || (a->shape[i] > 1 && a->strides[i] != b->strides[i])) return false;
  return true;
}

lt_status lt__check_no_alias(const lt_tensor *dst, const lt_tensor *src, const lt__layout *src_layout,
                             const char *op) {
  if (dst->storage != src->storage || same_layout(&dst->layout, src_layout)) return LT_OK;
  int64_t dlo, dhi, slo, shi;
  bool overflow;
  if (!lt__layout_extent(&dst->layout, &dlo, &dhi, &overflow) ||
      !lt__layout_extent(&src->layout, &slo, &shi, &overflow) || dhi < slo || shi < dlo)
    return LT_OK;
  int64_t lo = dlo > slo ? dlo : slo, hi = dhi < shi ? dhi : shi;
  if (hi - lo + 1 > BITMAP_MAX_ELEMENTS) return too_big(op, "source and destination");
  bitmap b;
  if (!bitmap_new(&b, lo, hi)) return lt__fail(LT_ERR_NOMEM, "%s: out of memory checking for overlap", op);
  visit(&dst->layout, &b, true);
  bool hit = visit(&src->layout, &b, false);
  bitmap_free(&b);
  if (hit)
    return lt__fail(LT_ERR_OVERLAP,
                    "%s: source and destination share elements, so the result would depend on copy "
                    "order; copy from lt_clone(src) instead",
                    op);
  return LT_OK;
}
