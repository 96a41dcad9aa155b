/* libtensor: creating tensors, moving bytes in and out, and asking a
 * tensor about itself. */
#ifndef LIBTENSOR_TENSOR_H
#define LIBTENSOR_TENSOR_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Lifecycle ----------------------------------------------------------
 * Every function returning lt_tensor * returns a new reference the caller
 * owns and must lt_release; NULL on failure, with the thread's last error
 * set. Arguments are borrowed. Shapes must be non-negative; ndim is 0 ..
 * LT_MAX_DIMS (shape may be NULL when ndim is 0). */

/* Uninitialised row-major storage for shape. Errors: LT_ERR_ARG (bad dtype,
 * ndim, shape, NULL shape), LT_ERR_NOMEM (allocation or size overflow),
 * LT_ERR_DEVICE (device not available). */
LT_API lt_tensor *lt_empty(lt_dtype dt, int ndim, const int64_t *shape, lt_device dev);
/* As lt_empty, filled with zero bits (0, +0.0, false). */
LT_API lt_tensor *lt_zeros(lt_dtype dt, int ndim, const int64_t *shape, lt_device dev);
/* A new CPU tensor holding a copy of numel*size bytes of row-major host data.
 * data may be NULL only when numel is 0. */
LT_API lt_tensor *lt_from_data(const void *data, lt_dtype dt, int ndim, const int64_t *shape);
/* Zero-copy: a tensor over caller memory. data is the address of the first
 * element; strides are in elements (NULL = row-major) and may be negative
 * or zero. The storage is taken to span exactly the elements the layout
 * reaches, so lt_as_strided cannot step outside it. deleter(ctx) runs once,
 * when the last reference to the storage goes; it may be NULL. If lt_wrap
 * fails, deleter is NOT called: the memory stays the caller's. */
LT_API lt_tensor *lt_wrap(void *data, lt_dtype dt, int ndim, const int64_t *shape,
                          const int64_t *strides, lt_device dev,
                          void (*deleter)(void *ctx), void *ctx);
/* Returns t (NULL stays NULL). Atomic: safe from any thread. */
LT_API lt_tensor *lt_retain(lt_tensor *t);
/* Drops one reference; the storage goes with its last tensor. NULL is fine.
 * Atomic: views of one storage may be released from different threads. */
LT_API void lt_release(lt_tensor *t);

/* ---- Data ---------------------------------------------------------------*/

/* Copies t's elements to dst in row-major logical order, in t's dtype,
 * whatever t's layout or device. nbytes must equal numel*dtype size
 * (else LT_ERR_ARG). */
LT_API lt_status lt_read(const lt_tensor *t, void *dst, size_t nbytes);
/* The reverse of lt_read. LT_ERR_OVERLAP when t's elements alias one
 * another (an expanded tensor, say), since the result would depend on
 * write order. Not counted as a copy in lt_stats (it is I/O, not a
 * materialisation). */
LT_API lt_status lt_write(lt_tensor *t, const void *src, size_t nbytes);

/* ---- Introspection ------------------------------------------------------
 * On a NULL tensor or a dim out of range these set LT_ERR_ARG and return
 * -1 (counts), NULL (pointers), false, or LT_F32 / LT_HOST. */

LT_API int lt_ndim(const lt_tensor *t);
/* ndim entries, owned by t, valid while t lives. */
LT_API const int64_t *lt_shape(const lt_tensor *t);
/* ndim entries, in elements, owned by t. */
LT_API const int64_t *lt_strides(const lt_tensor *t);
/* dim may be negative (counts from the end). */
LT_API int64_t lt_size(const lt_tensor *t, int dim);
LT_API int64_t lt_stride(const lt_tensor *t, int dim);
/* Storage offset of the first element, in elements. */
LT_API int64_t lt_offset(const lt_tensor *t);
LT_API int64_t lt_numel(const lt_tensor *t);
LT_API lt_dtype lt_dtype_of(const lt_tensor *t);
LT_API lt_device lt_device_of(const lt_tensor *t);
/* PyTorch's rule: row-major strides, ignoring size-1 dims; numel 0 is
 * contiguous; the offset plays no part. */
LT_API bool lt_is_contiguous(const lt_tensor *t);
/* True when a and b are views of one storage. */
LT_API bool lt_shares_storage(const lt_tensor *a, const lt_tensor *b);
/* Host address of the first element (storage base + offset); NULL for
 * tensors not on the host. */
LT_API void *lt_data(const lt_tensor *t);
/* Writes e.g. "f32[2,3,4] strides=[12,1,3] offset=0 non-contiguous" to buf
 * (always NUL-terminated when n > 0); returns the length the full text
 * needs, as snprintf does, or -1 on a NULL tensor. */
LT_API int lt_describe(const lt_tensor *t, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
