/* The public view ops: check the arguments, let layout.c compute the
 * geometry, and return a new handle over the same storage. Nothing here
 * moves data. */
#include <stdio.h>
#include <string.h>

#include "dtype.h"
#include "error.h"
#include "tensor_impl.h"
#include "views_impl.h"

static lt_tensor *make_view(const lt_tensor *t, const lt__layout *l, const char *op) {
  lt_tensor *v = lt__tensor_new(t->storage, t->dtype, l, op);
  if (v) lt__ok();
  return v;
}

/* Wraps dim against t's ndim, failing with a message that names op. */
static bool wrap(const lt_tensor *t, int dim, const char *op, int *out) {
  if (lt__wrap_dim(dim, t->layout.ndim, out)) return true;
  int n = t->layout.ndim > 0 ? t->layout.ndim : 1;
  lt__fail(LT_ERR_ARG, "%s: dim %d is out of range for a %d-dim tensor (expected %d..%d)", op, dim,
           t->layout.ndim, -n, n - 1);
  return false;
}

static bool not_scalar(const lt_tensor *t, const char *op) {
  if (t->layout.ndim > 0) return true;
  lt__fail(LT_ERR_ARG, "%s: cannot be applied to a 0-dim tensor", op);
  return false;
}

static bool check_ndim(int ndim, const void *arr, const char *what, const char *op) {
  if (ndim < 0 || ndim > LT_MAX_DIMS) {
    lt__fail(LT_ERR_ARG, "%s: %d dims is outside 0..%d", op, ndim, LT_MAX_DIMS);
    return false;
  }
  if (ndim > 0 && !arr) {
    lt__fail(LT_ERR_ARG, "%s: %s is NULL for %d dims", op, what, ndim);
    return false;
  }
  return true;
}

static lt_status infer_failure(lt__infer r, const lt_tensor *t, int ndim, const int64_t *shape,
                               const char *op) {
  char want[LT__DIMS_BUF], have[LT__TENSOR_BUF];
  lt__fmt_dims(want, sizeof want, ndim, shape);
  lt__fmt_tensor(have, sizeof have, t);
  switch (r) {
  case LT__INFER_MULTIPLE:
    return lt__fail(LT_ERR_SHAPE, "%s: only one dimension can be inferred, but %s has several -1", op, want);
  case LT__INFER_NEGATIVE:
    return lt__fail(LT_ERR_SHAPE, "%s: shape %s has a size below -1", op, want);
  case LT__INFER_AMBIGUOUS:
    return lt__fail(LT_ERR_SHAPE,
                    "%s: cannot infer the -1 in %s for %s: with 0 elements it could be any size", op,
                    want, have);
  default:
    return lt__fail(LT_ERR_SHAPE, "%s: shape %s is invalid for %s with %lld elements", op, want, have,
                    (long long)lt__layout_numel(&t->layout));
  }
}

void lt__fmt_view_failure(char *buf, size_t n, lt_dtype dt, const lt__layout *from, int ndim,
                          const int64_t *shape, int lo, int hi) {
  char have[LT__DIMS_BUF], strides[LT__DIMS_BUF], want[LT__DIMS_BUF];
  snprintf(buf, n, "cannot view %s%s strides=%s as %s without a copy: dims %d and %d are not contiguous with each other",
           lt_dtype_name(dt), lt__fmt_dims(have, sizeof have, from->ndim, from->shape),
           lt__fmt_dims(strides, sizeof strides, from->ndim, from->strides), lt__fmt_dims(want, sizeof want, ndim, shape),
           lo, hi);
}

lt_status lt__view_layout(const lt_tensor *t, int ndim, const int64_t *shape, const char *op,
                          lt__layout *out, char *why, size_t why_n) {
  if (!check_ndim(ndim, shape, "shape", op)) return LT_ERR_ARG;
  lt__layout l = {.ndim = ndim, .offset = t->layout.offset};
  lt__infer r = lt__infer_shape(lt__layout_numel(&t->layout), ndim, shape, l.shape);
  if (r != LT__INFER_OK) return infer_failure(r, t, ndim, shape, op);
  int lo, hi;
  if (lt__view_strides(&t->layout, ndim, l.shape, l.strides, &lo, &hi)) {
    *out = l;
    return LT_OK;
  }
  lt__fmt_view_failure(why, why_n, t->dtype, &t->layout, ndim, l.shape, lo, hi);
  lt__contiguous_strides(ndim, l.shape, l.strides);
  l.offset = 0;
  *out = l;
  return LT_ERR_NOT_VIEWABLE;
}

LT_API lt_tensor *lt_view(const lt_tensor *t, int ndim, const int64_t *shape) {
  if (!lt__check_tensor(t, "view")) return NULL;
  lt__layout l;
  char why[512];
  lt_status s = lt__view_layout(t, ndim, shape, "view", &l, why, sizeof why);
  if (s == LT_ERR_NOT_VIEWABLE)
    return lt__fail_null(s, "view: %s; use lt_reshape (copies %lld bytes) or lt_contiguous first", why,
                         (long long)(lt__layout_numel(&l) * (int64_t)lt__dtype_size(t->dtype)));
  if (s != LT_OK) return NULL;
  return make_view(t, &l, "view");
}

LT_API lt_tensor *lt_slice(const lt_tensor *t, int dim, int64_t start, int64_t stop, int64_t step) {
  int d;
  if (!lt__check_tensor(t, "slice") || !not_scalar(t, "slice") || !wrap(t, dim, "slice", &d)) return NULL;
  if (step == 0) return lt__fail_null(LT_ERR_ARG, "slice: step must not be 0");
  lt__layout l;
  lt__layout_slice(&t->layout, d, start, stop, step, &l);
  return make_view(t, &l, "slice");
}

LT_API lt_tensor *lt_select(const lt_tensor *t, int dim, int64_t index) {
  int d;
  if (!lt__check_tensor(t, "select") || !not_scalar(t, "select") || !wrap(t, dim, "select", &d)) return NULL;
  int64_t n = t->layout.shape[d];
  if (index < -n || index >= n)
    return lt__fail_null(LT_ERR_ARG, "select: index %lld is out of range for dim %d of size %lld",
                         (long long)index, d, (long long)n);
  lt__layout l;
  lt__layout_select(&t->layout, d, index < 0 ? index + n : index, &l);
  return make_view(t, &l, "select");
}

LT_API lt_tensor *lt_narrow(const lt_tensor *t, int dim, int64_t start, int64_t length) {
  int d;
  if (!lt__check_tensor(t, "narrow") || !not_scalar(t, "narrow") || !wrap(t, dim, "narrow", &d)) return NULL;
  int64_t n = t->layout.shape[d];
  if (start < -n || start > n)
    return lt__fail_null(LT_ERR_ARG, "narrow: start %lld is out of range for dim %d of size %lld",
                         (long long)start, d, (long long)n);
  if (start < 0) start += n;
  if (length < 0 || length > n - start)
    return lt__fail_null(LT_ERR_ARG, "narrow: start (%lld) + length (%lld) exceeds dim %d of size %lld",
                         (long long)start, (long long)length, d, (long long)n);
  lt__layout l;
  lt__layout_slice(&t->layout, d, start, start + length, 1, &l);
  return make_view(t, &l, "narrow");
}

LT_API lt_tensor *lt_transpose(const lt_tensor *t, int dim0, int dim1) {
  int a, b;
  if (!lt__check_tensor(t, "transpose") || !wrap(t, dim0, "transpose", &a) || !wrap(t, dim1, "transpose", &b))
    return NULL;
  lt__layout l = t->layout;
  if (l.ndim > 0) {
    l.shape[a] = t->layout.shape[b], l.shape[b] = t->layout.shape[a];
    l.strides[a] = t->layout.strides[b], l.strides[b] = t->layout.strides[a];
  }
  return make_view(t, &l, "transpose");
}

/* Checks perm (wrapping negative entries into p); false with the error set. */
static bool check_perm(const lt_tensor *t, const int *perm, int *p) {
  int n = t->layout.ndim;
  if (n > 0 && !perm) {
    lt__fail(LT_ERR_ARG, "permute: perm is NULL for a %d-dim tensor", n);
    return false;
  }
  bool seen[LT_MAX_DIMS] = {false};
  for (int i = 0; i < n; i++) {
    char b[LT__DIMS_BUF];
    if (!lt__wrap_dim(perm[i], n, &p[i])) {
      lt__fail(LT_ERR_ARG, "permute: dim %d in %s is out of range for a %d-dim tensor", perm[i],
               lt__fmt_ints(b, sizeof b, n, perm), n);
      return false;
    }
    if (seen[p[i]]) {
      lt__fail(LT_ERR_ARG, "permute: dim %d repeated in %s", p[i], lt__fmt_ints(b, sizeof b, n, perm));
      return false;
    }
    seen[p[i]] = true;
  }
  return true;
}

LT_API lt_tensor *lt_permute(const lt_tensor *t, const int *perm) {
  int p[LT_MAX_DIMS];
  if (!lt__check_tensor(t, "permute") || !check_perm(t, perm, p)) return NULL;
  lt__layout l;
  lt__layout_permute(&t->layout, p, &l);
  return make_view(t, &l, "permute");
}

LT_API lt_tensor *lt_movedim(const lt_tensor *t, int src, int dst) {
  int s, d;
  if (!lt__check_tensor(t, "movedim") || !wrap(t, src, "movedim", &s) || !wrap(t, dst, "movedim", &d))
    return NULL;
  int n = t->layout.ndim, perm[LT_MAX_DIMS];
  /* perm[d] = s; the other dims fill the remaining slots in order. */
  for (int i = 0, k = 0; i < n; i++) {
    if (i == d) { perm[i] = s; continue; }
    if (k == s) k++;
    perm[i] = k++;
  }
  lt__layout l;
  lt__layout_permute(&t->layout, perm, &l);
  return make_view(t, &l, "movedim");
}

LT_API lt_tensor *lt_expand(const lt_tensor *t, int ndim, const int64_t *shape) {
  const char *op = "expand";
  if (!lt__check_tensor(t, op) || !check_ndim(ndim, shape, "shape", op)) return NULL;
  char want[LT__DIMS_BUF], have[LT__TENSOR_BUF];
  lt__fmt_dims(want, sizeof want, ndim, shape);
  lt__fmt_tensor(have, sizeof have, t);
  if (ndim < t->layout.ndim)
    return lt__fail_null(LT_ERR_SHAPE, "expand: target %s has fewer dims than %s", want, have);
  lt__layout l;
  lt__expand_err why;
  int bad = lt__layout_expand(&t->layout, ndim, shape, &l, &why);
  if (bad >= 0 && why == LT__EXPAND_MISMATCH)
    return lt__fail_null(LT_ERR_SHAPE,
                         "expand: cannot expand %s to %s: size %lld at dim %d is neither 1 nor %lld", have,
                         want, (long long)t->layout.shape[bad - (ndim - t->layout.ndim)], bad,
                         (long long)shape[bad]);
  if (bad >= 0 && why == LT__EXPAND_NEW_DIM_KEEP)
    return lt__fail_null(LT_ERR_ARG, "expand: -1 in new leading dim %d of %s has no size to keep", bad, want);
  if (bad >= 0)
    return lt__fail_null(LT_ERR_ARG, "expand: size %lld at dim %d of %s is negative", (long long)shape[bad],
                         bad, want);
  int64_t numel;
  if (!lt__check_shape(op, l.ndim, l.shape, &numel)) return NULL;
  return make_view(t, &l, op);
}

LT_API lt_tensor *lt_squeeze(const lt_tensor *t, int dim) {
  int d;
  if (!lt__check_tensor(t, "squeeze") || !wrap(t, dim, "squeeze", &d)) return NULL;
  lt__layout l = t->layout;
  if (l.ndim > 0 && l.shape[d] == 1) lt__layout_drop_dim(&t->layout, d, &l);
  return make_view(t, &l, "squeeze");
}

LT_API lt_tensor *lt_squeeze_all(const lt_tensor *t) {
  if (!lt__check_tensor(t, "squeeze_all")) return NULL;
  lt__layout l = t->layout;
  for (int d = l.ndim - 1; d >= 0; d--)
    if (l.shape[d] == 1) lt__layout_drop_dim(&l, d, &l);
  return make_view(t, &l, "squeeze_all");
}

LT_API lt_tensor *lt_unsqueeze(const lt_tensor *t, int dim) {
  if (!lt__check_tensor(t, "unsqueeze")) return NULL;
  int n = t->layout.ndim + 1, d;
  if (n > LT_MAX_DIMS)
    return lt__fail_null(LT_ERR_ARG, "unsqueeze: a %d-dim tensor cannot gain a dim (LT_MAX_DIMS is %d)",
                         t->layout.ndim, LT_MAX_DIMS);
  if (dim < -n || dim >= n)
    return lt__fail_null(LT_ERR_ARG, "unsqueeze: dim %d is out of range %d..%d for a %d-dim tensor", dim,
                         -n, n - 1, t->layout.ndim);
  d = dim < 0 ? dim + n : dim;
  lt__layout l;
  lt__layout_unsqueeze(&t->layout, d, &l);
  return make_view(t, &l, "unsqueeze");
}

LT_API lt_tensor *lt_unflatten(const lt_tensor *t, int dim, int n, const int64_t *sizes) {
  const char *op = "unflatten";
  int d;
  if (!lt__check_tensor(t, op) || !not_scalar(t, op) || !wrap(t, dim, op, &d)) return NULL;
  if (n < 1 || !sizes) return lt__fail_null(LT_ERR_ARG, "unflatten: sizes must be a non-empty array");
  int ndim = n > LT_MAX_DIMS ? n : t->layout.ndim - 1 + n; /* n first: no int overflow */
  if (ndim > LT_MAX_DIMS)
    return lt__fail_null(LT_ERR_ARG, "unflatten: the result would have %d dims (LT_MAX_DIMS is %d)", ndim,
                         LT_MAX_DIMS);
  int64_t split[LT_MAX_DIMS], shape[LT_MAX_DIMS];
  char b[LT__DIMS_BUF];
  lt__infer r = lt__infer_shape(t->layout.shape[d], n, sizes, split);
  if (r != LT__INFER_OK)
    return lt__fail_null(LT_ERR_SHAPE, "unflatten: sizes %s do not split dim %d of size %lld%s",
                         lt__fmt_dims(b, sizeof b, n, sizes), d, (long long)t->layout.shape[d],
                         r == LT__INFER_MULTIPLE ? " (only one -1 may be inferred)" : "");
  for (int i = 0, k = 0; i < t->layout.ndim; i++) {
    if (i != d) { shape[k++] = t->layout.shape[i]; continue; }
    for (int j = 0; j < n; j++) shape[k++] = split[j];
  }
  lt__layout l = {.ndim = ndim, .offset = t->layout.offset, .shape = {0}};
  memcpy(l.shape, shape, sizeof(int64_t) * (size_t)ndim);
  int lo, hi;
  lt__view_strides(&t->layout, ndim, l.shape, l.strides, &lo, &hi); /* splitting always views */
  return make_view(t, &l, op);
}

LT_API lt_tensor *lt_as_strided(const lt_tensor *t, int ndim, const int64_t *shape,
                                const int64_t *strides, int64_t offset) {
  const char *op = "as_strided";
  if (!lt__check_tensor(t, op) || !check_ndim(ndim, shape, "shape", op) ||
      !check_ndim(ndim, strides, "strides", op))
    return NULL;
  int64_t numel;
  if (!lt__check_shape(op, ndim, shape, &numel)) return NULL;
  char b[LT__DIMS_BUF], c[LT__DIMS_BUF];
  for (int i = 0; i < ndim; i++)
    if (strides[i] < 0)
      return lt__fail_null(LT_ERR_ARG, "as_strided: negative stride in %s (use lt_slice with a negative step)",
                           lt__fmt_dims(b, sizeof b, ndim, strides));
  if (offset < 0) return lt__fail_null(LT_ERR_ARG, "as_strided: storage offset %lld is negative", (long long)offset);
  lt__layout l = {.ndim = ndim, .offset = offset};
  if (ndim > 0) {
    memcpy(l.shape, shape, sizeof(int64_t) * (size_t)ndim);
    memcpy(l.strides, strides, sizeof(int64_t) * (size_t)ndim);
  }
  int64_t lo, hi, cap = lt__storage_numel(t);
  bool overflow;
  if (numel > 0 && (!lt__layout_extent(&l, &lo, &hi, &overflow) || hi >= cap)) {
    lt__fmt_dims(b, sizeof b, ndim, shape);
    lt__fmt_dims(c, sizeof c, ndim, strides);
    if (overflow)
      return lt__fail_null(LT_ERR_ARG, "as_strided: shape %s strides %s at offset %lld reach past int64", b, c,
                           (long long)offset);
    return lt__fail_null(LT_ERR_ARG,
                         "as_strided: shape %s strides %s at offset %lld reach element %lld, but the "
                         "storage holds %lld elements",
                         b, c, (long long)offset, (long long)hi, (long long)cap);
  }
  return make_view(t, &l, op);
}

LT_API lt_tensor *lt_diagonal(const lt_tensor *t, int64_t offset, int dim1, int dim2) {
  int a, b;
  if (!lt__check_tensor(t, "diagonal")) return NULL;
  if (t->layout.ndim < 2)
    return lt__fail_null(LT_ERR_ARG, "diagonal: needs at least 2 dims, the tensor has %d", t->layout.ndim);
  if (!wrap(t, dim1, "diagonal", &a) || !wrap(t, dim2, "diagonal", &b)) return NULL;
  if (a == b) return lt__fail_null(LT_ERR_ARG, "diagonal: dims %d and %d are the same dim", dim1, dim2);
  lt__layout l;
  lt__layout_diagonal(&t->layout, offset, a, b, &l);
  return make_view(t, &l, "diagonal");
}
