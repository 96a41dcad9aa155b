/* Internal: deciding whether a write is well defined, i.e. whether the
 * destination's elements alias each other or the source's. */
#ifndef LT_OVERLAP_H
#define LT_OVERLAP_H

#include "layout.h"
#include "libtensor/types.h"

/* LT_OK when no two elements of dst share memory; else LT_ERR_OVERLAP (or
 * LT_ERR_NOMEM), with the error set naming op. */
lt_status lt__check_writable(const lt_tensor *dst, const char *op);
/* LT_OK when no element src reads (through src_layout, over src's
 * storage) is an element dst writes, except when the two layouts are the
 * same element for element; else LT_ERR_OVERLAP with the error set. */
lt_status lt__check_no_alias(const lt_tensor *dst, const lt_tensor *src, const lt__layout *src_layout,
                             const char *op);

#endif
