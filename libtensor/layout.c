/* The pure layout algebra: contiguity, view compatibility, the geometry of
 * every view op, extents, self-overlap and copy coalescing. See layout.h
 * for each function's preconditions; VIEWS.md-style PyTorch semantics. */
#include "layout.h"

#include <string.h>

static bool mul_ok(int64_t a, int64_t b, int64_t *out) {
  return !__builtin_mul_overflow(a, b, out);
}

bool lt__shape_numel(int ndim, const int64_t *shape, int64_t *numel) {
  int64_t n = 1;
  bool overflow = false;
  for (int i = 0; i < ndim; i++) {
    if (shape[i] == 0) { *numel = 0; return true; } /* 0 wins over overflow */
    if (!mul_ok(n, shape[i], &n)) overflow = true;
  }
  *numel = n;
  return !overflow;
}

int64_t lt__layout_numel(const lt__layout *l) {
  int64_t n;
  lt__shape_numel(l->ndim, l->shape, &n); /* cannot overflow for a tensor */
  return n;
}

bool lt__layout_is_contiguous(const lt__layout *l) {
  if (lt__layout_numel(l) == 0) return true;
  int64_t expected = 1;
  for (int d = l->ndim - 1; d >= 0; d--) {
    if (l->shape[d] == 1) continue;
    if (l->strides[d] != expected) return false;
    expected *= l->shape[d];
  }
  return true;
}

void lt__contiguous_strides(int ndim, const int64_t *shape, int64_t *strides) {
  int64_t s = 1;
  for (int d = ndim - 1; d >= 0; d--) {
    strides[d] = s;
    /* Only an empty shape can overflow here, and its strides address
     * nothing: saturate rather than wrap. */
    if (!mul_ok(s, shape[d] > 1 ? shape[d] : 1, &s)) s = INT64_MAX;
  }
}

lt__infer lt__infer_shape(int64_t numel, int ndim, const int64_t *in, int64_t *out) {
  int infer = -1;
  int64_t known = 1;
  bool overflow = false;
  for (int i = 0; i < ndim; i++) {
    if (in[i] == -1) {
      if (infer >= 0) return LT__INFER_MULTIPLE;
      infer = i;
    } else if (in[i] < -1) {
      return LT__INFER_NEGATIVE;
    } else if (!overflow && !mul_ok(known, in[i], &known)) {
      overflow = true;
    }
  }
  for (int i = 0; i < ndim; i++) out[i] = in[i];
  if (overflow) {
    /* A product past int64 can only match if a 0 is among the entries. */
    for (int i = 0; i < ndim; i++)
      if (in[i] == 0) { overflow = false; known = 0; }
    if (overflow) return LT__INFER_OVERFLOW;
  }
  if (numel == known && infer < 0) return LT__INFER_OK;
  if (infer >= 0 && known > 0 && numel % known == 0) {
    out[infer] = numel / known;
    return LT__INFER_OK;
  }
  if (infer >= 0 && known == 0 && numel == 0) return LT__INFER_AMBIGUOUS;
  return LT__INFER_MISMATCH;
}

/* Innermost dim at or after d with size != 1 (d itself if none). */
static int next_real_dim(const lt__layout *l, int d) {
  for (int i = d; i < l->ndim; i++)
    if (l->shape[i] != 1) return i;
  return d;
}

bool lt__view_strides(const lt__layout *old, int ndim, const int64_t *shape,
                      int64_t *strides, int *break_lo, int *break_hi) {
  if (old->ndim == 0) {
    for (int i = 0; i < ndim; i++) strides[i] = 1;
    return true;
  }
  if (lt__layout_numel(old) == 0) {
    bool same = old->ndim == ndim;
    for (int i = 0; same && i < ndim; i++) same = old->shape[i] == shape[i];
    if (same) memcpy(strides, old->strides, sizeof(int64_t) * (size_t)ndim);
    else lt__contiguous_strides(ndim, shape, strides);
    return true;
  }
  /* Cut the old dims into chunks that are each one flat run (size-1 dims
   * are transparent); the new shape must cut into groups of equal
   * products, in the same order. */
  int view_d = ndim - 1;
  int64_t chunk_base = old->strides[old->ndim - 1];
  int64_t tensor_numel = 1, view_numel = 1;
  for (int td = old->ndim - 1; td >= 0; td--) {
    tensor_numel *= old->shape[td];
    int64_t continued;
    bool chunk_ends = td == 0 ||
                      (old->shape[td - 1] != 1 &&
                       (!mul_ok(tensor_numel, chunk_base, &continued) ||
                        old->strides[td - 1] != continued));
    if (!chunk_ends) continue;
    while (view_d >= 0 && (view_numel < tensor_numel || shape[view_d] == 1)) {
      strides[view_d] = view_numel * chunk_base;
      view_numel *= shape[view_d];
      view_d--;
    }
    if (view_numel != tensor_numel) {
      *break_lo = td - 1;
      *break_hi = next_real_dim(old, td);
      return false;
    }
    if (td > 0) {
      chunk_base = old->strides[td - 1];
      tensor_numel = 1;
      view_numel = 1;
    }
  }
  if (view_d != -1) {
    *break_lo = *break_hi = 0;
    return false;
  }
  return true;
}

void lt__layout_permute(const lt__layout *in, const int *perm, lt__layout *out) {
  lt__layout r = {.ndim = in->ndim, .offset = in->offset};
  for (int i = 0; i < in->ndim; i++) {
    r.shape[i] = in->shape[perm[i]];
    r.strides[i] = in->strides[perm[i]];
  }
  *out = r;
}

/* Clamps a Python slice bound for a positive step into [0, n]. */
static int64_t clamp_up(int64_t v, int64_t dflt, int64_t n) {
  if (v == LT_NONE) return dflt;
  if (v < 0) v += n;
  return v < 0 ? 0 : v > n ? n : v;
}

/* Clamps a bound for a negative step into [-1, n-1] (-1 = before 0). */
static int64_t clamp_down(int64_t v, int64_t dflt, int64_t n) {
  if (v == LT_NONE) return dflt;
  if (v < 0) v += n;
  return v < 0 ? -1 : v >= n ? n - 1 : v;
}

void lt__layout_slice(const lt__layout *in, int dim, int64_t start, int64_t stop,
                      int64_t step, lt__layout *out) {
  int64_t n = in->shape[dim], len, first;
  if (step > 0) {
    first = clamp_up(start, 0, n);
    int64_t last = clamp_up(stop, n, n);
    len = last > first ? (last - first - 1) / step + 1 : 0;
  } else {
    first = clamp_down(start, n - 1, n);
    int64_t last = clamp_down(stop, -1, n);
    uint64_t mag = -(uint64_t)step; /* exact even for INT64_MIN */
    len = first > last ? (int64_t)((uint64_t)(first - last - 1) / mag) + 1 : 0;
    if (first < 0) first = 0; /* empty result: keep the offset in range */
  }
  lt__layout r = *in;
  r.shape[dim] = len;
  /* Only an empty result can overflow here (its offset addresses nothing):
   * then it keeps the old offset. */
  int64_t moved;
  if (!mul_ok(first, in->strides[dim], &moved) || __builtin_add_overflow(in->offset, moved, &r.offset))
    r.offset = in->offset;
  int64_t stride;
  /* With len <= 1 the stride is never used to step, so an overflowing
   * product may keep the old stride instead. */
  r.strides[dim] = mul_ok(in->strides[dim], step, &stride) ? stride : in->strides[dim];
  *out = r;
}

void lt__layout_drop_dim(const lt__layout *in, int dim, lt__layout *out) {
  lt__layout r = {.ndim = in->ndim - 1, .offset = in->offset};
  for (int i = 0, j = 0; i < in->ndim; i++) {
    if (i == dim) continue;
    r.shape[j] = in->shape[i];
    r.strides[j++] = in->strides[i];
  }
  *out = r;
}

void lt__layout_select(const lt__layout *in, int dim, int64_t index, lt__layout *out) {
  int64_t offset = in->offset + index * in->strides[dim];
  lt__layout_drop_dim(in, dim, out);
  out->offset = offset;
}

void lt__layout_unsqueeze(const lt__layout *in, int dim, lt__layout *out) {
  lt__layout r = {.ndim = in->ndim + 1, .offset = in->offset};
  for (int i = 0, j = 0; i < r.ndim; i++) {
    if (i == dim) {
      r.shape[i] = 1;
      /* PyTorch's rule; a size-1 dim's stride never addresses anything, so
       * an overflowing product may wrap. */
      r.strides[i] = dim >= in->ndim ? 1 : (int64_t)((uint64_t)in->shape[dim] * (uint64_t)in->strides[dim]);
    } else {
      r.shape[i] = in->shape[j];
      r.strides[i] = in->strides[j++];
    }
  }
  *out = r;
}

void lt__layout_diagonal(const lt__layout *in, int64_t offset, int d1, int d2, lt__layout *out) {
  int64_t n1 = in->shape[d1], n2 = in->shape[d2], size;
  if (offset >= 0) size = n2 - offset < n1 ? n2 - offset : n1;
  else size = n1 + offset < n2 ? n1 + offset : n2;
  if (size < 0) size = 0;
  lt__layout r = {.ndim = in->ndim - 1, .offset = in->offset};
  if (size > 0)
    r.offset += offset >= 0 ? offset * in->strides[d2] : -offset * in->strides[d1];
  for (int i = 0, j = 0; i < in->ndim; i++) {
    if (i == d1 || i == d2) continue;
    r.shape[j] = in->shape[i];
    r.strides[j++] = in->strides[i];
  }
  r.shape[r.ndim - 1] = size;
  /* With two or more elements the sum is an element's offset and fits; for
   * fewer the stride addresses nothing and may stand in unsummed. */
  if (__builtin_add_overflow(in->strides[d1], in->strides[d2], &r.strides[r.ndim - 1]))
    r.strides[r.ndim - 1] = in->strides[d1];
  *out = r;
}

int lt__layout_expand(const lt__layout *in, int ndim, const int64_t *shape,
                      lt__layout *out, lt__expand_err *why) {
  lt__layout r = {.ndim = ndim, .offset = in->offset};
  int lead = ndim - in->ndim;
  for (int i = ndim - 1; i >= 0; i--) {
    int64_t size = shape[i], stride;
    int d = i - lead;
    if (size < -1) { *why = LT__EXPAND_NEGATIVE; return i; }
    if (d >= 0) {
      stride = in->strides[d];
      if (size == -1) size = in->shape[d];
      if (size != in->shape[d]) {
        if (in->shape[d] != 1) { *why = LT__EXPAND_MISMATCH; return i; }
        stride = 0;
      }
    } else {
      if (size == -1) { *why = LT__EXPAND_NEW_DIM_KEEP; return i; }
      /* PyTorch: a 0-dim input gets stride 0 everywhere; otherwise a new
       * leading dim continues the one after it, and 0 once expanded. */
      if (in->ndim == 0) stride = 0;
      else if (!mul_ok(r.shape[i + 1], r.strides[i + 1], &stride)) stride = 0;
      if (size != 1) stride = 0;
    }
    r.shape[i] = size;
    r.strides[i] = stride;
  }
  *out = r;
  return -1;
}

bool lt__layout_extent(const lt__layout *l, int64_t *lo, int64_t *hi, bool *overflow) {
  *overflow = false;
  if (lt__layout_numel(l) == 0) return false;
  int64_t a = l->offset, b = l->offset;
  for (int i = 0; i < l->ndim; i++) {
    int64_t span;
    if (!mul_ok(l->shape[i] - 1, l->strides[i], &span) ||
        __builtin_add_overflow(span < 0 ? a : b, span, span < 0 ? &a : &b)) {
      *overflow = true;
      return false;
    }
  }
  *lo = a;
  *hi = b;
  return true;
}

lt__overlap lt__layout_self_overlap(const lt__layout *l) {
  int64_t size[LT_MAX_DIMS], mag[LT_MAX_DIMS];
  int n = 0;
  if (lt__layout_numel(l) == 0) return LT__DISJOINT;
  for (int i = 0; i < l->ndim; i++) {
    if (l->shape[i] == 1) continue;
    if (l->strides[i] == 0) return LT__OVERLAPS;
    /* Insertion sort by |stride|: at most LT_MAX_DIMS entries. */
    int64_t m = l->strides[i] < 0 ? -l->strides[i] : l->strides[i];
    int j = n++;
    for (; j > 0 && mag[j - 1] > m; j--) { mag[j] = mag[j - 1]; size[j] = size[j - 1]; }
    mag[j] = m;
    size[j] = l->shape[i];
  }
  int64_t reach = 0; /* farthest offset the smaller strides reach */
  for (int i = 0; i < n; i++) {
    if (i > 0 && mag[i] == mag[i - 1]) return LT__OVERLAPS;
    if (mag[i] <= reach) return LT__UNKNOWN;
    int64_t span;
    if (!mul_ok(size[i] - 1, mag[i], &span) || __builtin_add_overflow(reach, span, &reach))
      return LT__UNKNOWN;
  }
  return LT__DISJOINT;
}

static bool mergeable(int64_t outer_stride, int64_t inner_size, int64_t inner_stride) {
  int64_t continued;
  return mul_ok(inner_size, inner_stride, &continued) && outer_stride == continued;
}

int lt__coalesce(int ndim, int64_t *shape, int n, int64_t *const *strides) {
  int k = 0;
  for (int i = 0; i < ndim; i++) { /* drop size-1 dims, keeping order */
    if (shape[i] == 1) continue;
    shape[k] = shape[i];
    for (int a = 0; a < n; a++) strides[a][k] = strides[a][i];
    k++;
  }
  if (k == 0) return 0;
  int top = k - 1; /* index of the dim being grown, filled from the back */
  for (int i = k - 2; i >= 0; i--) {
    bool all = true;
    for (int a = 0; a < n && all; a++) all = mergeable(strides[a][i], shape[top], strides[a][top]);
    if (all) {
      shape[top] *= shape[i];
      continue;
    }
    top--;
    shape[top] = shape[i];
    for (int a = 0; a < n; a++) strides[a][top] = strides[a][i];
  }
  int m = k - top;
  if (top > 0) {
    memmove(shape, shape + top, sizeof(int64_t) * (size_t)m);
    for (int a = 0; a < n; a++) memmove(strides[a], strides[a] + top, sizeof(int64_t) * (size_t)m);
  }
  return m;
}

int lt__broadcast_shapes(int na, const int64_t *a, int nb, const int64_t *b, int *ndim, int64_t *out) {
  int n = na > nb ? na : nb;
  *ndim = n;
  for (int d = 0; d < n; d++) {
    int da = d - (n - na), db = d - (n - nb);
    int64_t x = da >= 0 ? a[da] : 1, y = db >= 0 ? b[db] : 1;
    if (x != y && x != 1 && y != 1) return d;
    out[d] = x == 1 ? y : x;
  }
  return -1;
}

bool lt__broadcast_strides(const lt__layout *in, int ndim, const int64_t *shape, int64_t *strides) {
  if (in->ndim > ndim) return false;
  int lead = ndim - in->ndim;
  for (int i = 0; i < ndim; i++) {
    int d = i - lead;
    if (d < 0) strides[i] = 0;
    else if (in->shape[d] == shape[i]) strides[i] = in->strides[d];
    else if (in->shape[d] == 1) strides[i] = 0;
    else return false;
  }
  return true;
}

bool lt__wrap_dim(int dim, int ndim, int *out) {
  int n = ndim > 0 ? ndim : 1;
  if (dim < -n || dim >= n) return false;
  *out = dim < 0 ? dim + n : dim;
  return true;
}
