/* Internal: the pure layout algebra on (ndim, shape, strides, offset).
 * Nothing here knows of storage, devices or dtypes, and nothing allocates:
 * every other part of the library trusts these functions, so they are
 * small and tested against a naive index model. Callers validate
 * arguments (dims wrapped, ranges checked) before calling; the
 * preconditions are stated per function. Strides and offsets are in
 * elements. */
#ifndef LT_LAYOUT_H
#define LT_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#include "libtensor/types.h"

typedef struct lt__layout {
  int ndim;
  int64_t offset;
  int64_t shape[LT_MAX_DIMS];
  int64_t strides[LT_MAX_DIMS];
} lt__layout;

/* |stride|, also for INT64_MIN: the key loop orders sort dims by. */
static inline uint64_t lt__stride_mag(int64_t s) { return s < 0 ? -(uint64_t)s : (uint64_t)s; }

/* Product of shape entries (all >= 0) into *numel; false on int64
 * overflow. An empty shape has numel 1. */
bool lt__shape_numel(int ndim, const int64_t *shape, int64_t *numel);
/* Numel of a layout known not to overflow (every tensor's). */
int64_t lt__layout_numel(const lt__layout *l);

/* PyTorch's contiguity: numel 0 is contiguous; size-1 dims are ignored. */
bool lt__layout_is_contiguous(const lt__layout *l);
/* Row-major strides: stride[last] = 1, stride[d] = stride[d+1] *
 * max(shape[d+1], 1). */
void lt__contiguous_strides(int ndim, const int64_t *shape, int64_t *strides);

/* Resolving the -1 of a requested shape against numel. */
typedef enum lt__infer {
  LT__INFER_OK,
  LT__INFER_MULTIPLE,  /* more than one -1 */
  LT__INFER_NEGATIVE,  /* an entry < -1 */
  LT__INFER_MISMATCH,  /* product does not match numel */
  LT__INFER_AMBIGUOUS, /* -1 alongside a 0 with numel 0 */
  LT__INFER_OVERFLOW   /* the product overflows int64 */
} lt__infer;
lt__infer lt__infer_shape(int64_t numel, int ndim, const int64_t *in, int64_t *out);

/* PyTorch's computeStride: strides for viewing `old` as shape (whose numel
 * equals old's). True on success. On failure *break_lo and *break_hi name
 * the two old dims (non-size-1, break_lo < break_hi) that the new shape
 * would have to merge although they are not contiguous with each other. */
bool lt__view_strides(const lt__layout *old, int ndim, const int64_t *shape,
                      int64_t *strides, int *break_lo, int *break_hi);

/* perm: a permutation of 0..ndim-1. */
void lt__layout_permute(const lt__layout *in, const int *perm, lt__layout *out);
/* Python slice semantics along a valid dim of an ndim >= 1 layout;
 * step != 0; start/stop may be LT_NONE or any value (clamped). */
void lt__layout_slice(const lt__layout *in, int dim, int64_t start, int64_t stop,
                      int64_t step, lt__layout *out);
/* Drops dim after moving the offset to index (0 <= index < shape[dim]). */
void lt__layout_select(const lt__layout *in, int dim, int64_t index, lt__layout *out);
/* Inserts a size-1 dim at 0 <= dim <= ndim (ndim < LT_MAX_DIMS). */
void lt__layout_unsqueeze(const lt__layout *in, int dim, lt__layout *out);
/* Removes dim, which has size 1. */
void lt__layout_drop_dim(const lt__layout *in, int dim, lt__layout *out);
/* Diagonal of distinct valid dims d1, d2 (ndim >= 2). */
void lt__layout_diagonal(const lt__layout *in, int64_t offset, int d1, int d2, lt__layout *out);

/* Expand (PyTorch's inferExpandGeometry) to ndim >= in->ndim target sizes,
 * -1 keeping a size. Returns the first offending target index, or -1 on
 * success; *why says what is wrong there. */
typedef enum lt__expand_err {
  LT__EXPAND_NEW_DIM_KEEP,  /* -1 in a new leading dim */
  LT__EXPAND_NEGATIVE,      /* a size < -1 */
  LT__EXPAND_MISMATCH       /* a size differs from a non-1 existing size */
} lt__expand_err;
int lt__layout_expand(const lt__layout *in, int ndim, const int64_t *shape,
                      lt__layout *out, lt__expand_err *why);

/* Lowest and highest element offsets the layout reaches (offset
 * included); false when numel is 0 (it reaches nothing) or the sums
 * overflow int64 (*overflow then true). */
bool lt__layout_extent(const lt__layout *l, int64_t *lo, int64_t *hi, bool *overflow);

/* Can two distinct index tuples reach one element? */
typedef enum lt__overlap { LT__DISJOINT, LT__OVERLAPS, LT__UNKNOWN } lt__overlap;
/* Decides cheaply when it can: stride 0 on a dim of size > 1 overlaps;
 * strides that, sorted by magnitude, each exceed the reach of all smaller
 * ones cannot overlap. Anything else is LT__UNKNOWN (overlap.c settles it). */
lt__overlap lt__layout_self_overlap(const lt__layout *l);

/* Copy planning: drops size-1 dims, then merges dims contiguous with each
 * other in every one of the n stride arrays (the shape is shared). Works in
 * place and returns the new ndim (0 means a single element). */
int lt__coalesce(int ndim, int64_t *shape, int n, int64_t *const *strides);

/* Strides of `in` broadcast to shape (NumPy rules, aligned from the right):
 * size-1 dims become stride 0, missing leading dims stride 0. False when
 * not broadcastable (in->ndim > ndim, or a size neither equal nor 1). */
bool lt__broadcast_strides(const lt__layout *in, int ndim, const int64_t *shape, int64_t *strides);

/* NumPy's broadcast of two shapes, aligned from the right: ndim is the
 * larger count and each dim the one that is not 1. Returns -1 on success,
 * else the first dim (of the result, counted from its front) where the
 * two sizes differ and neither is 1; out then holds nothing useful. */
int lt__broadcast_shapes(int na, const int64_t *a, int nb, const int64_t *b, int *ndim, int64_t *out);

/* Wraps a possibly negative dim against n = max(ndim, 1) (PyTorch's scalar
 * rule); false when out of range. */
bool lt__wrap_dim(int dim, int ndim, int *out);

#endif
