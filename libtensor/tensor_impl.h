/* Internal: the tensor handle, shared by the core's files. */
#ifndef LT_TENSOR_IMPL_H
#define LT_TENSOR_IMPL_H

#include <stdatomic.h>

#include "layout.h"
#include "libtensor/tensor.h"
#include "storage.h"

struct lt_tensor {
  atomic_long refs;
  lt__storage *storage;
  lt_dtype dtype;
  lt__layout layout;
};

/* A new handle over s (which it retains) with layout l, or NULL with
 * LT_ERR_NOMEM set. */
lt_tensor *lt__tensor_new(lt__storage *s, lt_dtype dt, const lt__layout *l, const char *op);
/* A new row-major tensor of shape on dev, uninitialised. Validates dtype,
 * ndim and shape, and checks the byte size for overflow. */
lt_tensor *lt__tensor_alloc(lt_dtype dt, int ndim, const int64_t *shape, lt_device dev, const char *op);
/* Storage element count (storage bytes / element size). */
int64_t lt__storage_numel(const lt_tensor *t);
/* Address of element (0,..,0); meaningful on any device (device address). */
char *lt__tensor_ptr(const lt_tensor *t);
/* Checks 0 <= ndim <= LT_MAX_DIMS, shape non-NULL when ndim > 0, and
 * entries >= 0; stores numel (overflow is LT_ERR_NOMEM). */
bool lt__check_shape(const char *op, int ndim, const int64_t *shape, int64_t *numel);
/* Common argument check: t non-NULL. */
bool lt__check_tensor(const lt_tensor *t, const char *op);
/* Describes t as "f32[4,6] strides=[1,4]" for messages. */
char *lt__fmt_tensor(char *buf, size_t n, const lt_tensor *t);
#define LT__TENSOR_BUF (2 * LT__DIMS_BUF + 48)

#endif
