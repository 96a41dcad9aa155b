/* The copy planner: loop order by destination strides, merging, and the
 * kind of innermost loop. */
#include "copy_plan.h"

#include "layout.h"

/* True when dim a should be outside dim b: a larger destination stride
 * first, ties broken by the source's. */
static bool outer_first(const lt__copy_plan *p, int a, int b) {
  if (lt__stride_mag(p->dst_strides[a]) != lt__stride_mag(p->dst_strides[b])) return lt__stride_mag(p->dst_strides[a]) > lt__stride_mag(p->dst_strides[b]);
  return lt__stride_mag(p->src_strides[a]) > lt__stride_mag(p->src_strides[b]);
}

static lt__copy_kind_of_loop classify(const lt__copy_plan *p) {
  if (p->ndim == 0) return LT__PLAN_SPAN;
  int in = p->ndim - 1;
  bool dst_dense = p->dst_strides[in] == 1, src_dense = p->src_strides[in] == 1;
  if (dst_dense && src_dense) return p->ndim == 1 ? LT__PLAN_SPAN : LT__PLAN_RUNS;
  if (dst_dense && p->transpose_dim >= 0) return LT__PLAN_TRANSPOSE;
  return LT__PLAN_STRIDED;
}

/* Zeroes dims [from, LT_MAX_DIMS) of p: a plan's unused dims read as
 * zero. Kept a loop: GCC makes such loops calls to memset, and a memset
 * of a fixed size `rep stos` (see lt__plan_copy). */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-loop-distribute-patterns")))
#endif
static void clear_from(lt__copy_plan *p, int from) {
  for (int i = from; i < LT_MAX_DIMS; i++) p->shape[i] = p->dst_strides[i] = p->src_strides[i] = 0;
}

/* Fills *plan field by field: a local plan zeroed by its initializer and
 * copied out whole went through `rep stos` and `rep movs` of 400-odd
 * bytes, slow to start on Intel cores: on a Xeon (AVX-512 with AMX),
 * lt_copy of 16 floats, fastest of six runs of 2M calls, 262 -> 185 ns
 * for a strided source, 243 -> 161-173 ns for a contiguous one. */
void lt__plan_copy(int ndim, const int64_t *shape, const int64_t *dst_strides, const int64_t *src_strides,
                   lt__copy_plan *plan) {
  lt__copy_plan *p = plan;
  p->ndim = ndim, p->transpose_dim = -1;
  int64_t numel;
  lt__shape_numel(ndim, shape, &numel);
  if (numel == 0) {
    p->kind = LT__PLAN_EMPTY, p->ndim = 0;
    clear_from(p, 0);
    return;
  }
  /* Loop order: a stable insertion sort (at most LT_MAX_DIMS dims) of the
   * dims by the destination's strides, so the destination is written in
   * order. */
  int order[LT_MAX_DIMS];
  for (int i = 0; i < ndim; i++) {
    order[i] = i;
    p->dst_strides[i] = dst_strides[i], p->src_strides[i] = src_strides[i];
  }
  for (int i = 1; i < ndim; i++) {
    int k = order[i], j = i;
    for (; j > 0 && outer_first(p, k, order[j - 1]); j--) order[j] = order[j - 1];
    order[j] = k;
  }
  for (int i = 0; i < ndim; i++) {
    p->shape[i] = shape[order[i]];
    p->dst_strides[i] = dst_strides[order[i]];
    p->src_strides[i] = src_strides[order[i]];
  }
  int64_t *strides[2] = {p->dst_strides, p->src_strides};
  p->ndim = lt__coalesce(ndim, p->shape, 2, strides);
  clear_from(p, p->ndim);
  for (int i = 0; i + 1 < p->ndim; i++)
    if (p->src_strides[i] == 1) p->transpose_dim = i;
  p->kind = classify(p);
}
