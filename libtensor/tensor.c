/* The tensor handle: creation, reference counting and introspection. */
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "dispatch.h"
#include "dtype.h"
#include "error.h"
#include "tensor_impl.h"

bool lt__check_tensor(const lt_tensor *t, const char *op) {
  if (t) return true;
  lt__fail(LT_ERR_ARG, "%s: tensor is NULL", op);
  return false;
}

bool lt__check_shape(const char *op, int ndim, const int64_t *shape, int64_t *numel) {
  char b[LT__DIMS_BUF];
  if (ndim < 0 || ndim > LT_MAX_DIMS) {
    lt__fail(LT_ERR_ARG, "%s: ndim %d is outside 0..%d", op, ndim, LT_MAX_DIMS);
    return false;
  }
  if (ndim > 0 && !shape) {
    lt__fail(LT_ERR_ARG, "%s: shape is NULL for ndim %d", op, ndim);
    return false;
  }
  for (int i = 0; i < ndim; i++) {
    if (shape[i] < 0) {
      lt__fail(LT_ERR_ARG, "%s: shape %s has a negative size at dim %d", op,
               lt__fmt_dims(b, sizeof b, ndim, shape), i);
      return false;
    }
  }
  if (!lt__shape_numel(ndim, shape, numel)) {
    lt__fail(LT_ERR_NOMEM, "%s: shape %s has more elements than int64 can count", op,
             lt__fmt_dims(b, sizeof b, ndim, shape));
    return false;
  }
  return true;
}

lt_tensor *lt__tensor_new(lt__storage *s, lt_dtype dt, const lt__layout *l, const char *op) {
  lt_tensor *t = lt__alloc(sizeof *t, _Alignof(lt_tensor));
  if (!t) return lt__fail_null(LT_ERR_NOMEM, "%s: out of memory for a tensor handle", op);
  atomic_init(&t->refs, 1);
  t->storage = s;
  t->dtype = dt;
  t->layout = *l;
  lt__storage_retain(s);
  return t;
}

lt_tensor *lt__tensor_alloc(lt_dtype dt, int ndim, const int64_t *shape, lt_device dev, const char *op) {
  if (!lt__dtype_valid(dt)) return lt__fail_null(LT_ERR_ARG, "%s: %d is not a dtype", op, (int)dt);
  int64_t numel, bytes;
  if (!lt__check_shape(op, ndim, shape, &numel)) return NULL;
  if (__builtin_mul_overflow(numel, (int64_t)lt__dtype_size(dt), &bytes) || bytes > PTRDIFF_MAX) {
    char b[LT__DIMS_BUF];
    return lt__fail_null(LT_ERR_NOMEM, "%s: %s[%s] needs more bytes than this machine can address", op,
                         lt_dtype_name(dt), lt__fmt_dims(b, sizeof b, ndim, shape));
  }
  lt__layout l = {.ndim = ndim, .offset = 0};
  if (ndim > 0) memcpy(l.shape, shape, sizeof(int64_t) * (size_t)ndim);
  lt__contiguous_strides(ndim, l.shape, l.strides);
  lt__storage *s = lt__storage_new(dev, (size_t)bytes, op);
  if (!s) return NULL;
  lt_tensor *t = lt__tensor_new(s, dt, &l, op);
  lt__storage_release(s); /* the handle holds it now, or nobody does */
  return t;
}

int64_t lt__storage_numel(const lt_tensor *t) {
  return (int64_t)(t->storage->nbytes / lt__dtype_size(t->dtype));
}

char *lt__tensor_ptr(const lt_tensor *t) {
  /* An empty tensor addresses nothing, and its offset may be anything. */
  if (!t->storage->data || lt__layout_numel(&t->layout) == 0) return NULL;
  return t->storage->data + t->layout.offset * (int64_t)lt__dtype_size(t->dtype);
}

char *lt__fmt_tensor(char *buf, size_t n, const lt_tensor *t) {
  char s[LT__DIMS_BUF], st[LT__DIMS_BUF];
  snprintf(buf, n, "%s%s strides=%s", lt_dtype_name(t->dtype),
           lt__fmt_dims(s, sizeof s, t->layout.ndim, t->layout.shape),
           lt__fmt_dims(st, sizeof st, t->layout.ndim, t->layout.strides));
  return buf;
}

/* ---- lifecycle ----------------------------------------------------------- */

LT_API lt_tensor *lt_empty(lt_dtype dt, int ndim, const int64_t *shape, lt_device dev) {
  lt_tensor *t = lt__tensor_alloc(dt, ndim, shape, dev, "empty");
  if (t) lt__ok();
  return t;
}

LT_API lt_tensor *lt_zeros(lt_dtype dt, int ndim, const int64_t *shape, lt_device dev) {
  lt_tensor *t = lt__tensor_alloc(dt, ndim, shape, dev, "zeros");
  if (!t) return NULL;
  if (t->storage->nbytes > 0) {
    const lt__backend *b = lt__backend_table(dev.kind);
    b->fill_zero(dev.index, t->storage->data, t->storage->nbytes);
  }
  lt__ok();
  return t;
}

LT_API lt_tensor *lt_from_data(const void *data, lt_dtype dt, int ndim, const int64_t *shape) {
  lt_tensor *t = lt__tensor_alloc(dt, ndim, shape, LT_HOST, "from_data");
  if (!t) return NULL;
  if (t->storage->nbytes > 0) {
    if (!data) {
      size_t nbytes = t->storage->nbytes;
      lt_release(t);
      return lt__fail_null(LT_ERR_ARG, "from_data: data is NULL for %zu bytes", nbytes);
    }
    memcpy(t->storage->data, data, t->storage->nbytes);
  }
  lt__ok();
  return t;
}

LT_API lt_tensor *lt_wrap(void *data, lt_dtype dt, int ndim, const int64_t *shape,
                          const int64_t *strides, lt_device dev, void (*deleter)(void *ctx), void *ctx) {
  const char *op = "wrap";
  if (!lt__dtype_valid(dt)) return lt__fail_null(LT_ERR_ARG, "%s: %d is not a dtype", op, (int)dt);
  int64_t numel;
  if (!lt__check_shape(op, ndim, shape, &numel)) return NULL;
  if (!lt__backend_for(dev, op)) return NULL;
  lt__layout l = {.ndim = ndim, .offset = 0};
  if (ndim > 0) memcpy(l.shape, shape, sizeof(int64_t) * (size_t)ndim);
  if (strides) memcpy(l.strides, strides, sizeof(int64_t) * (size_t)ndim);
  else lt__contiguous_strides(ndim, l.shape, l.strides);
  int64_t lo = 0, hi = -1, esize = (int64_t)lt__dtype_size(dt), bytes;
  bool overflow;
  if (numel > 0 && !lt__layout_extent(&l, &lo, &hi, &overflow))
    return lt__fail_null(LT_ERR_NOMEM, "%s: the strides reach past what int64 can address", op);
  if (__builtin_mul_overflow(hi - lo + 1, esize, &bytes) || bytes > PTRDIFF_MAX)
    return lt__fail_null(LT_ERR_NOMEM, "%s: the layout spans more bytes than addressable", op);
  if (numel > 0 && !data) return lt__fail_null(LT_ERR_ARG, "%s: data is NULL", op);
  /* The storage starts at the lowest element reached, so that negative
   * strides work and the offset stays non-negative. */
  l.offset = -lo;
  char *base = numel > 0 ? (char *)data + lo * esize : data;
  lt__storage *s = lt__storage_wrap(base, (size_t)bytes, dev, deleter, ctx, op);
  if (!s) return NULL;
  lt_tensor *t = lt__tensor_new(s, dt, &l, op);
  if (!t) {
    s->deleter = NULL; /* the caller keeps its memory when wrap fails */
    lt__storage_release(s);
    return NULL;
  }
  lt__storage_release(s);
  lt__ok();
  return t;
}

LT_API lt_tensor *lt_retain(lt_tensor *t) {
  if (t) atomic_fetch_add_explicit(&t->refs, 1, memory_order_relaxed);
  return t;
}

LT_API void lt_release(lt_tensor *t) {
  if (!t || atomic_fetch_sub_explicit(&t->refs, 1, memory_order_acq_rel) != 1) return;
  lt__storage_release(t->storage);
  lt__free(t, sizeof *t, _Alignof(lt_tensor));
}

/* ---- introspection ---------------------------------------------------------
 * Each getter ends in lt__ok() or an error, so lt_last_status() describes it. */

LT_API int lt_ndim(const lt_tensor *t) {
  if (!lt__check_tensor(t, "ndim")) return -1;
  lt__ok();
  return t->layout.ndim;
}

LT_API const int64_t *lt_shape(const lt_tensor *t) {
  if (!lt__check_tensor(t, "shape")) return NULL;
  lt__ok();
  return t->layout.shape;
}

LT_API const int64_t *lt_strides(const lt_tensor *t) {
  if (!lt__check_tensor(t, "strides")) return NULL;
  lt__ok();
  return t->layout.strides;
}

static bool dim_arg(const lt_tensor *t, int dim, const char *op, int *d) {
  if (!lt__check_tensor(t, op)) return false;
  if (t->layout.ndim == 0 || !lt__wrap_dim(dim, t->layout.ndim, d)) {
    lt__fail(LT_ERR_ARG, "%s: dim %d is out of range for a %d-dim tensor", op, dim, t->layout.ndim);
    return false;
  }
  return true;
}

LT_API int64_t lt_size(const lt_tensor *t, int dim) {
  int d;
  if (!dim_arg(t, dim, "size", &d)) return -1;
  lt__ok();
  return t->layout.shape[d];
}

LT_API int64_t lt_stride(const lt_tensor *t, int dim) {
  int d;
  if (!dim_arg(t, dim, "stride", &d)) return -1;
  lt__ok();
  return t->layout.strides[d];
}

LT_API int64_t lt_offset(const lt_tensor *t) {
  if (!lt__check_tensor(t, "offset")) return -1;
  lt__ok();
  return t->layout.offset;
}

LT_API int64_t lt_numel(const lt_tensor *t) {
  if (!lt__check_tensor(t, "numel")) return -1;
  lt__ok();
  return lt__layout_numel(&t->layout);
}

LT_API lt_dtype lt_dtype_of(const lt_tensor *t) {
  if (!lt__check_tensor(t, "dtype_of")) return LT_F32;
  lt__ok();
  return t->dtype;
}

LT_API lt_device lt_device_of(const lt_tensor *t) {
  if (!lt__check_tensor(t, "device_of")) return LT_HOST;
  lt__ok();
  return t->storage->device;
}

LT_API bool lt_is_contiguous(const lt_tensor *t) {
  if (!lt__check_tensor(t, "is_contiguous")) return false;
  lt__ok();
  return lt__layout_is_contiguous(&t->layout);
}

LT_API bool lt_shares_storage(const lt_tensor *a, const lt_tensor *b) {
  if (!lt__check_tensor(a, "shares_storage") || !lt__check_tensor(b, "shares_storage")) return false;
  lt__ok();
  return a->storage == b->storage;
}

LT_API void *lt_data(const lt_tensor *t) {
  if (!lt__check_tensor(t, "data")) return NULL;
  lt__ok();
  return t->storage->device.kind == LT_CPU ? lt__tensor_ptr(t) : NULL;
}

LT_API int lt_describe(const lt_tensor *t, char *buf, size_t n) {
  if (!lt__check_tensor(t, "describe")) return -1;
  if (!buf && n > 0) return lt__fail(LT_ERR_ARG, "describe: buf is NULL with n = %zu", n), -1;
  char s[LT__DIMS_BUF], st[LT__DIMS_BUF];
  lt__ok();
  return snprintf(buf, n, "%s%s strides=%s offset=%lld %s", lt_dtype_name(t->dtype),
                  lt__fmt_dims(s, sizeof s, t->layout.ndim, t->layout.shape),
                  lt__fmt_dims(st, sizeof st, t->layout.ndim, t->layout.strides),
                  (long long)t->layout.offset,
                  lt__layout_is_contiguous(&t->layout) ? "contiguous" : "non-contiguous");
}
