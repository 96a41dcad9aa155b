/* Internal: materialising an arbitrary layout over a tensor's storage,
 * shared by reshape/flatten and rearrange/repeat fallbacks. */
#ifndef LT_COPY_IMPL_H
#define LT_COPY_IMPL_H

#include "copy_entry.h"
#include "layout.h"

/* A new row-major tensor of shape (numel equal to src's) on base's device,
 * in base's dtype, holding the elements src reaches over base's storage in
 * row-major order. NULL with the error set on failure. */
lt_tensor *lt__copy_layout(const lt_tensor *base, const lt__layout *src, int ndim, const int64_t *shape,
                           const char *op, lt__copy_kind kind, const char *why);

#endif
