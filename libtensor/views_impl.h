/* Internal: the view rule shared by lt_view, lt_reshape and lt_flatten. */
#ifndef LT_VIEWS_IMPL_H
#define LT_VIEWS_IMPL_H

#include <stddef.h>

#include "layout.h"
#include "libtensor/types.h"

/* Resolves shape (one -1 allowed) against t and computes the view's layout.
 * LT_OK: *out is the view. LT_ERR_NOT_VIEWABLE: no error is set; `why`
 * receives "cannot view f32[4,6] strides=[1,4] as [24] without a copy:
 * dims 0 and 1 are not contiguous with each other" and *out holds the
 * resolved shape (row-major strides) so the caller can copy instead.
 * Anything else: the error is set, naming op. */
lt_status lt__view_layout(const lt_tensor *t, int ndim, const int64_t *shape, const char *op,
                          lt__layout *out, char *why, size_t why_n);

/* "cannot view f32[4,6] strides=[1,4] as [24] without a copy: dims 0 and 1
 * are not contiguous with each other" for a failed lt__view_strides. */
void lt__fmt_view_failure(char *buf, size_t n, lt_dtype dt, const lt__layout *from, int ndim,
                          const int64_t *shape, int lo, int hi);

#endif
