/* The public copy ops: explicit copies (contiguous, clone, copy, cast,
 * to_device) and the view-or-copy ops (reshape, flatten). All of them
 * materialise through lt__copy_run; copies between devices through
 * lt__copy_across (transfer.c). */
#include <stdio.h>
#include <string.h>

#include "copy_entry.h"
#include "dispatch.h"
#include "dtype.h"
#include "error.h"
#include "overlap.h"
#include "tensor_impl.h"
#include "transfer.h"
#include "copy_impl.h"
#include "views_impl.h"

/* A new row-major tensor of shape (numel equal to src's) on base's device,
 * in dtype dt, holding the elements src reaches over base's storage in
 * row-major order, converted with mode. */
static lt_tensor *copy_layout_as(const lt_tensor *base, const lt__layout *src, int ndim, const int64_t *shape,
                                 lt_dtype dt, lt_cast_mode mode, const char *op, lt__copy_kind kind,
                                 const char *why) {
  lt_tensor *out = lt__tensor_alloc(dt, ndim, shape, base->storage->device, op);
  if (!out) return NULL;
  /* Row-major strides of src's shape address out's storage in the same
   * flat order as out's own shape does. */
  int64_t dst_strides[LT_MAX_DIMS];
  lt__contiguous_strides(src->ndim, src->shape, dst_strides);
  bool empty = lt__layout_numel(src) == 0;
  char *from = empty ? NULL : base->storage->data + src->offset * (int64_t)lt__dtype_size(base->dtype);
  lt__copy_request r = {
      .device = base->storage->device, .ndim = src->ndim, .shape = src->shape,
      .dst = lt__tensor_ptr(out), .dst_dtype = dt, .dst_strides = dst_strides,
      .src = from, .src_dtype = base->dtype, .src_strides = src->strides,
      .mode = mode, .op = op, .kind = kind, .why = why};
  if (lt__copy_run(&r) != LT_OK) {
    lt_release(out);
    return NULL;
  }
  return out;
}

lt_tensor *lt__copy_layout(const lt_tensor *base, const lt__layout *src, int ndim, const int64_t *shape,
                           const char *op, lt__copy_kind kind, const char *why) {
  return copy_layout_as(base, src, ndim, shape, base->dtype, LT_CAST_DEFAULT, op, kind, why);
}

/* A fresh row-major tensor of src's shape (in dtype dt) holding src's
 * values. */
static lt_tensor *materialize(const lt_tensor *src, lt_dtype dt, lt_cast_mode mode, const char *op,
                              lt__copy_kind kind, const char *why) {
  return copy_layout_as(src, &src->layout, src->layout.ndim, src->layout.shape, dt, mode, op, kind, why);
}

LT_API lt_tensor *lt_contiguous(const lt_tensor *t) {
  if (!lt__check_tensor(t, "contiguous")) return NULL;
  if (lt__layout_is_contiguous(&t->layout)) {
    lt__ok();
    return lt_retain((lt_tensor *)t);
  }
  char have[LT__TENSOR_BUF], why[LT__TENSOR_BUF + 32] = "";
  if (lt__trace_on()) /* formatting costs more than a small copy */
    snprintf(why, sizeof why, "%s is not contiguous", lt__fmt_tensor(have, sizeof have, t));
  lt_tensor *out = materialize(t, t->dtype, LT_CAST_DEFAULT, "contiguous", LT__COPY_EXPLICIT, why);
  if (out) lt__ok();
  return out;
}

LT_API lt_tensor *lt_clone(const lt_tensor *t) {
  if (!lt__check_tensor(t, "clone")) return NULL;
  lt_tensor *out = materialize(t, t->dtype, LT_CAST_DEFAULT, "clone", LT__COPY_EXPLICIT, "clone always copies");
  if (out) lt__ok();
  return out;
}

/* reshape and flatten: a view when the rule allows, else one implicit copy
 * (refused under LT_COPY_FORBID). */
static lt_tensor *view_or_copy(const lt_tensor *t, int ndim, const int64_t *shape, const char *op) {
  lt__layout l;
  char why[512];
  lt_status s = lt__view_layout(t, ndim, shape, op, &l, why, sizeof why);
  if (s == LT_OK) {
    lt_tensor *v = lt__tensor_new(t->storage, t->dtype, &l, op);
    if (v) lt__ok();
    return v;
  }
  if (s != LT_ERR_NOT_VIEWABLE) return NULL;
  long long bytes = (long long)(lt__layout_numel(&l) * (int64_t)lt__dtype_size(t->dtype));
  if (!lt__implicit_copy_allowed())
    return lt__fail_null(LT_ERR_NOT_VIEWABLE, "%s: %s, and LT_COPY_FORBID is set (a copy would move %lld bytes)",
                         op, why, bytes);
  lt_tensor *out = lt__copy_layout(t, &t->layout, l.ndim, l.shape, op, LT__COPY_IMPLICIT, why);
  if (out) lt__ok();
  return out;
}

LT_API lt_tensor *lt_reshape(const lt_tensor *t, int ndim, const int64_t *shape) {
  if (!lt__check_tensor(t, "reshape")) return NULL;
  return view_or_copy(t, ndim, shape, "reshape");
}

LT_API lt_tensor *lt_flatten(const lt_tensor *t, int start_dim, int end_dim) {
  const char *op = "flatten";
  if (!lt__check_tensor(t, op)) return NULL;
  int n = t->layout.ndim, s, e;
  if (!lt__wrap_dim(start_dim, n, &s) || !lt__wrap_dim(end_dim, n, &e))
    return lt__fail_null(LT_ERR_ARG, "flatten: dims %d..%d are out of range for a %d-dim tensor", start_dim,
                         end_dim, n);
  if (n == 0) return view_or_copy(t, 1, (int64_t[]){1}, op);
  if (s > e)
    return lt__fail_null(LT_ERR_ARG, "flatten: start_dim %d comes after end_dim %d", start_dim, end_dim);
  if (s == e) {
    lt_tensor *v = lt__tensor_new(t->storage, t->dtype, &t->layout, op);
    if (v) lt__ok();
    return v;
  }
  int64_t shape[LT_MAX_DIMS];
  int k = 0;
  for (int i = 0; i < n; i++) {
    if (i <= s || i > e) shape[k++] = t->layout.shape[i];
    else shape[k - 1] *= t->layout.shape[i];
  }
  return view_or_copy(t, k, shape, op);
}

LT_API lt_status lt_copy(lt_tensor *dst, const lt_tensor *src) {
  const char *op = "copy";
  if (!lt__check_tensor(dst, op) || !lt__check_tensor(src, op)) return LT_ERR_ARG;
  lt_device dd = dst->storage->device, sd = src->storage->device;
  bool across = dd.kind != sd.kind || dd.index != sd.index;
  lt__layout bl = src->layout;
  bl.ndim = dst->layout.ndim;
  memcpy(bl.shape, dst->layout.shape, sizeof bl.shape);
  if (!lt__broadcast_strides(&src->layout, dst->layout.ndim, dst->layout.shape, bl.strides)) {
    char a[LT__TENSOR_BUF], b[LT__TENSOR_BUF];
    return lt__fail(LT_ERR_SHAPE, "copy: source %s does not broadcast to destination %s",
                    lt__fmt_tensor(a, sizeof a, src), lt__fmt_tensor(b, sizeof b, dst));
  }
  lt_status s = lt__check_mutable(dst, op);
  if (s == LT_OK) s = lt__check_writable(dst, op);
  if (s == LT_OK && !across) s = lt__check_no_alias(dst, src, &bl, op); /* storages on two devices never alias */
  if (s != LT_OK) return s;
  lt__copy_request r = {
      .device = dd, .ndim = dst->layout.ndim, .shape = dst->layout.shape,
      .dst = lt__tensor_ptr(dst), .dst_dtype = dst->dtype, .dst_strides = dst->layout.strides,
      .src = lt__tensor_ptr(src), .src_dtype = src->dtype, .src_strides = bl.strides,
      .mode = LT_CAST_DEFAULT, .op = op, .kind = LT__COPY_EXPLICIT, .why = "copy into an existing tensor"};
  s = across ? lt__copy_across(&r, sd) : lt__copy_run(&r);
  return s == LT_OK ? lt__ok() : s;
}

LT_API lt_tensor *lt_cast(const lt_tensor *t, lt_dtype dt, lt_cast_mode mode) {
  if (!lt__check_tensor(t, "cast")) return NULL;
  if (!lt__dtype_valid(dt)) return lt__fail_null(LT_ERR_ARG, "cast: %d is not a dtype", (int)dt);
  if (mode != LT_CAST_DEFAULT && mode != LT_CAST_SATURATE)
    return lt__fail_null(LT_ERR_ARG, "cast: %d is not a cast mode", (int)mode);
  char why[64] = "";
  if (lt__trace_on())
    snprintf(why, sizeof why, "cast %s -> %s always copies", lt_dtype_name(t->dtype), lt_dtype_name(dt));
  lt_tensor *out = materialize(t, dt, mode, "cast", LT__COPY_EXPLICIT, why);
  if (out) lt__ok();
  return out;
}

LT_API lt_tensor *lt_to(const lt_tensor *t, lt_dtype dt) { return lt_cast(t, dt, LT_CAST_DEFAULT); }

LT_API lt_tensor *lt_to_device(const lt_tensor *t, lt_device dev) {
  if (!lt__check_tensor(t, "to_device")) return NULL;
  lt_device here = t->storage->device;
  if (here.kind == dev.kind && here.index == dev.index) {
    lt__ok();
    return lt_retain((lt_tensor *)t);
  }
  const char *op = "to_device";
  if (!lt__backend_for(dev, op)) return NULL; /* says whether the build or the machine lacks the device */
  lt_tensor *out = lt__tensor_alloc(t->dtype, t->layout.ndim, t->layout.shape, dev, op);
  if (!out) return NULL;
  int64_t rowmajor[LT_MAX_DIMS];
  lt__contiguous_strides(t->layout.ndim, t->layout.shape, rowmajor);
  lt__copy_request r = {
      .device = dev, .ndim = t->layout.ndim, .shape = t->layout.shape,
      .dst = lt__tensor_ptr(out), .dst_dtype = t->dtype, .dst_strides = rowmajor,
      .src = lt__tensor_ptr(t), .src_dtype = t->dtype, .src_strides = t->layout.strides,
      .mode = LT_CAST_DEFAULT, .op = op, .kind = LT__COPY_EXPLICIT, .why = "to_device always copies"};
  if (lt__copy_across(&r, here) != LT_OK) {
    lt_release(out);
    return NULL;
  }
  lt__ok();
  return out;
}
