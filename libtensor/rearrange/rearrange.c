/* lt_rearrange, lt_repeat, lt_reduce: fetch the checked pattern from the
 * cache, plan it against the input, and run the recipe on layouts: split
 * (always a view), permute with stride-0 new axes, then either a final
 * view, one implicit copy, or a reduction. */
#include <stdio.h>
#include <string.h>

#include "cache.h"
#include "copy_impl.h"
#include "dispatch.h"
#include "dtype.h"
#include "error.h"
#include "memo.h"
#include "plan.h"
#include "stats_impl.h"
#include "tensor_impl.h"
#include "views_impl.h"

/* Sets the error as "op: 'pattern': text" with a caret line under the
 * fault when the fault has a position. */
static void *fail_pattern(const char *op, const char *pattern, const lt__pattern_error *e) {
  if (e->pos < 0) return lt__fail_null(e->status, "%s: '%s': %s", op, pattern, e->text);
  int col = (int)strlen(op) + 3 + e->pos;
  return lt__fail_null(e->status, "%s: '%s': %s\n%*s^", op, pattern, e->text, col, "");
}

static bool check_args(const lt_tensor *t, const char *pattern, const lt_axis *axes, int naxes, const char *op) {
  if (!lt__check_tensor(t, op)) return false;
  if (!pattern) return lt__fail(LT_ERR_ARG, "%s: pattern is NULL", op), false;
  if (naxes < 0 || (naxes > 0 && !axes)) return lt__fail(LT_ERR_ARG, "%s: axes is NULL or naxes (%d) < 0", op, naxes), false;
  return true;
}

/* The recipe for t, or false with the error set. */
static bool plan_for(const lt_tensor *t, const char *pattern, lt__pattern_op pop, const lt_axis *axes, int naxes,
                     const char *op, lt__recipe *r) {
  const int64_t *shape = t->layout.shape;
  int ndim = t->layout.ndim;
  if (lt__memo_get(pattern, pop, ndim, shape, axes, naxes, r)) return true;
  lt__pattern_error e;
  lt__cached_pattern *c = lt__pattern_acquire(pattern, pop, &e);
  if (!c) return fail_pattern(op, pattern, &e), false;
  bool ok = lt__plan(lt__pattern_ast(c), pop, ndim, shape, axes, naxes, r, &e);
  lt__pattern_release(c);
  if (!ok) return fail_pattern(op, pattern, &e), false;
  lt__memo_put(pattern, pop, ndim, shape, axes, naxes, r);
  return true;
}

/* t viewed as its elementary axes: splitting dims and dropping size-1
 * dims is always a view. */
static void elementary(const lt_tensor *t, const lt__recipe *r, lt__layout *le) {
  int lo, hi;
  *le = (lt__layout){.ndim = r->n_elem, .offset = t->layout.offset};
  memcpy(le->shape, r->elem_shape, sizeof(int64_t) * (size_t)r->n_elem);
  lt__view_strides(&t->layout, r->n_elem, le->shape, le->strides, &lo, &hi);
}

/* The final composition: a view when the rule allows, else one implicit
 * copy (refused under LT_COPY_FORBID). */
static lt_tensor *compose(const lt_tensor *t, const lt__layout *lm, const lt__recipe *r, const char *pattern,
                          const char *op) {
  int64_t numel;
  if (!lt__check_shape(op, lm->ndim, lm->shape, &numel)) return NULL;
  lt__layout out = {.ndim = r->n_out, .offset = lm->offset};
  memcpy(out.shape, r->out_shape, sizeof(int64_t) * (size_t)r->n_out);
  int lo, hi;
  if (lt__view_strides(lm, r->n_out, out.shape, out.strides, &lo, &hi)) {
    lt_tensor *v = lt__tensor_new(t->storage, t->dtype, &out, op);
    if (v) lt__ok();
    return v;
  }
  char why[512];
  lt__fmt_view_failure(why, sizeof why, t->dtype, lm, r->n_out, out.shape, lo, hi);
  if (!lt__implicit_copy_allowed())
    return lt__fail_null(LT_ERR_NOT_VIEWABLE, "%s: '%s': %s, and LT_COPY_FORBID is set (a copy would move %lld bytes)",
                         op, pattern, why, (long long)(numel * (int64_t)lt__dtype_size(t->dtype)));
  lt_tensor *c = lt__copy_layout(t, lm, r->n_out, out.shape, op, LT__COPY_IMPLICIT, why);
  if (c) lt__ok();
  return c;
}

/* Permute the elementary axes into output order, new axes with stride 0. */
static void permuted(const lt__layout *le, const lt__recipe *r, lt__layout *lm) {
  *lm = (lt__layout){.ndim = r->n_mid, .offset = le->offset};
  for (int k = 0; k < r->n_mid; k++) {
    int s = r->mid_src[k];
    lm->shape[k] = r->mid_shape[k];
    lm->strides[k] = s >= 0 ? le->strides[s] : 0;
  }
}

static lt_tensor *run_layout_op(const lt_tensor *t, const char *pattern, lt__pattern_op pop, const lt_axis *axes,
                                int naxes, const char *op) {
  if (!check_args(t, pattern, axes, naxes, op)) return NULL;
  lt__recipe r;
  if (!plan_for(t, pattern, pop, axes, naxes, op, &r)) return NULL;
  lt__layout le, lm;
  elementary(t, &r, &le);
  permuted(&le, &r, &lm);
  return compose(t, &lm, &r, pattern, op);
}

LT_API lt_tensor *lt_rearrange(const lt_tensor *t, const char *pattern, const lt_axis *axes, int naxes) {
  return run_layout_op(t, pattern, LT__OP_REARRANGE, axes, naxes, "rearrange");
}

LT_API lt_tensor *lt_repeat(const lt_tensor *t, const char *pattern, const lt_axis *axes, int naxes) {
  return run_layout_op(t, pattern, LT__OP_REPEAT, axes, naxes, "repeat");
}

static lt_tensor *reduce_into_new(const lt_tensor *t, const lt__layout *le, const lt__recipe *r, lt_reduction op) {
  const char *name = "reduce";
  lt__reduce_args a = {.n_keep = r->n_mid, .n_red = r->n_reduced, .dtype = t->dtype, .op = (int)op};
  int64_t kept = 1, folded = 1;
  for (int k = 0; k < r->n_mid; k++) {
    a.shape[k] = le->shape[r->mid_src[k]];
    a.src_strides[k] = le->strides[r->mid_src[k]];
    kept *= a.shape[k];
  }
  for (int k = 0; k < r->n_reduced; k++) {
    a.shape[r->n_mid + k] = le->shape[r->reduced[k]];
    a.src_strides[r->n_mid + k] = le->strides[r->reduced[k]];
    folded *= a.shape[r->n_mid + k];
  }
  if (folded == 0 && (op == LT_MAX || op == LT_MIN))
    return lt__fail_null(LT_ERR_SHAPE, "reduce: %s over an empty axis has no identity", op == LT_MAX ? "max" : "min");
  lt_tensor *out = lt__tensor_alloc(t->dtype, r->n_out, r->out_shape, t->storage->device, name);
  if (!out) return NULL;
  if (kept > 0) {
    const lt__backend *b = lt__backend_table(t->storage->device.kind);
    a.src = folded > 0 ? t->storage->data + le->offset * (int64_t)lt__dtype_size(t->dtype) : NULL;
    a.dst = lt__tensor_ptr(out);
    lt_status s = b->reduce(&a);
    if (s != LT_OK) {
      lt_release(out);
      return NULL;
    }
    if (lt__dtype_is_float(t->dtype)) lt__stats_flops(t->storage->device, kept * folded);
  }
  lt__ok();
  return out;
}

LT_API lt_tensor *lt_reduce(const lt_tensor *t, const char *pattern, lt_reduction op, const lt_axis *axes,
                            int naxes) {
  const char *name = "reduce";
  if (!check_args(t, pattern, axes, naxes, name)) return NULL;
  lt__recipe r;
  if (!plan_for(t, pattern, LT__OP_REDUCE, axes, naxes, name, &r)) return NULL;
  if ((unsigned)op > LT_PROD) return lt__fail_null(LT_ERR_ARG, "reduce: %d is not an lt_reduction", (int)op);
  lt__layout le, lm;
  elementary(t, &r, &le);
  if (r.reduces && op == LT_MEAN && !lt__dtype_is_float(t->dtype))
    return lt__fail_null(LT_ERR_DTYPE, "reduce: the mean of %s values needs a float dtype; lt_cast first",
                         lt_dtype_name(t->dtype));
  if (r.reduces) return reduce_into_new(t, &le, &r, op);
  permuted(&le, &r, &lm);
  return compose(t, &lm, &r, pattern, name);
}
