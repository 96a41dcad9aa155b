/* libtensor: operations that materialise data. Explicit copies always
 * copy; lt_reshape and lt_flatten copy only when no view can express the
 * result (an "implicit" copy: counted, traceable, and refused under
 * LT_COPY_FORBID). */
#ifndef LIBTENSOR_COPY_H
#define LIBTENSOR_COPY_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* t itself (a new reference) when lt_is_contiguous(t), else a row-major
 * copy with offset 0. */
LT_API lt_tensor *lt_contiguous(const lt_tensor *t);
/* Always a new row-major copy. */
LT_API lt_tensor *lt_clone(const lt_tensor *t);
/* A view when lt_view would succeed, else one implicit copy. Same shape
 * errors as lt_view; under LT_COPY_FORBID a needed copy is
 * LT_ERR_NOT_VIEWABLE. */
LT_API lt_tensor *lt_reshape(const lt_tensor *t, int ndim, const int64_t *shape);
/* Merges dims start_dim..end_dim (inclusive) into one; a 0-dim t gives
 * shape [1]; start_dim == end_dim returns t's geometry. View or copy as
 * lt_reshape. */
LT_API lt_tensor *lt_flatten(const lt_tensor *t, int start_dim, int end_dim);
/* Writes src into dst elementwise, broadcasting src to dst's shape and
 * converting dtype. Errors: LT_ERR_SHAPE (not broadcastable), LT_ERR_OVERLAP
 * (dst's elements alias), LT_ERR_ARG (a float that is NaN or out of range
 * for an integer dst; dst may then be partly written), LT_ERR_DEVICE. src
 * and dst may share storage as long as no element of one aliases an
 * element of the other (an exact copy onto itself excepted); otherwise
 * LT_ERR_OVERLAP: copy from lt_clone(src) instead. */
LT_API lt_status lt_copy(lt_tensor *dst, const lt_tensor *src);

typedef enum lt_cast_mode { LT_CAST_DEFAULT = 0, LT_CAST_SATURATE = 1 } lt_cast_mode;
/* lt_cast(t, dt, LT_CAST_DEFAULT). */
LT_API lt_tensor *lt_to(const lt_tensor *t, lt_dtype dt);
/* A new row-major tensor of dtype dt; always copies (also to t's own
 * dtype). Floats round to nearest even once; overflow per mode; float to
 * integer truncates and fails with LT_ERR_ARG on NaN or out of range. */
LT_API lt_tensor *lt_cast(const lt_tensor *t, lt_dtype dt, lt_cast_mode mode);
/* t itself (a new reference) when t is already on dev, else a row-major
 * copy on dev. LT_ERR_DEVICE when dev is not available. */
LT_API lt_tensor *lt_to_device(const lt_tensor *t, lt_device dev);

#ifdef __cplusplus
}
#endif
#endif
