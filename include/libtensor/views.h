/* libtensor: zero-copy views. Each function returns a new tensor sharing
 * t's storage (keeping it alive), or NULL with the last error set; none of
 * them ever copies data. Semantics are PyTorch's unless noted. A dim may be
 * negative (counts from the end); out of range is LT_ERR_ARG. */
#ifndef LIBTENSOR_VIEWS_H
#define LIBTENSOR_VIEWS_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* New shape over the same elements; one entry may be -1 (inferred).
 * Works on non-contiguous t whenever the new shape only splits or merges
 * dims laid out contiguously with each other (size-1 dims are free).
 * Errors: LT_ERR_SHAPE (numel mismatch, two -1s, entry < -1),
 * LT_ERR_NOT_VIEWABLE (needs a copy: the message says which dims and what
 * lt_reshape would copy). */
LT_API lt_tensor *lt_view(const lt_tensor *t, int ndim, const int64_t *shape);
/* Python slice start:stop:step along dim, negative steps included; LT_NONE
 * omits a bound; out-of-range bounds clamp. step 0 is LT_ERR_ARG; 0-dim t
 * is LT_ERR_ARG. */
LT_API lt_tensor *lt_slice(const lt_tensor *t, int dim, int64_t start, int64_t stop, int64_t step);
/* Index `index` (negative counts from the end) of dim, dropping the dim. */
LT_API lt_tensor *lt_select(const lt_tensor *t, int dim, int64_t index);
/* slice(start, start+length, 1); start may be negative; start == size with
 * length 0 is allowed. */
LT_API lt_tensor *lt_narrow(const lt_tensor *t, int dim, int64_t start, int64_t length);
LT_API lt_tensor *lt_transpose(const lt_tensor *t, int dim0, int dim1);
/* perm has lt_ndim(t) entries, each dim exactly once. */
LT_API lt_tensor *lt_permute(const lt_tensor *t, const int *perm);
/* Moves dim src to position dst; the others keep their order. */
LT_API lt_tensor *lt_movedim(const lt_tensor *t, int src, int dst);
/* Broadcasts size-1 dims (stride 0) and adds leading dims; -1 keeps a size.
 * Negative target sizes other than -1 are LT_ERR_ARG (even for 0-dim t). */
LT_API lt_tensor *lt_expand(const lt_tensor *t, int ndim, const int64_t *shape);
/* Drops dim if its size is 1; otherwise the same geometry (not an error). */
LT_API lt_tensor *lt_squeeze(const lt_tensor *t, int dim);
LT_API lt_tensor *lt_squeeze_all(const lt_tensor *t);
/* Inserts a size-1 dim at position dim (range -ndim-1 .. ndim). */
LT_API lt_tensor *lt_unsqueeze(const lt_tensor *t, int dim);
/* Splits dim into n dims of the given sizes (one may be -1). */
LT_API lt_tensor *lt_unflatten(const lt_tensor *t, int dim, int n, const int64_t *sizes);
/* Any geometry over t's storage; offset is absolute in the storage (as
 * torch.as_strided). Strides must be >= 0. Every reachable element must lie
 * in the storage, else LT_ERR_ARG; a result with no elements always fits.
 * Overlapping strides are allowed (writes into them fail with
 * LT_ERR_OVERLAP). */
LT_API lt_tensor *lt_as_strided(const lt_tensor *t, int ndim, const int64_t *shape,
                                const int64_t *strides, int64_t offset);
/* The diagonal of dims dim1 and dim2 at offset (> 0 above, < 0 below), as
 * a new last dim. */
LT_API lt_tensor *lt_diagonal(const lt_tensor *t, int64_t offset, int dim1, int dim2);

#ifdef __cplusplus
}
#endif
#endif
