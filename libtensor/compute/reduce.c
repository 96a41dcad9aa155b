/* The public reductions (sum, mean, amax, amin over any set of dims;
 * argmax over one) and softmax / log-softmax along one dim: check the
 * dims, lay the input out as kept dims then reduced dims (a permutation of
 * its strides, never a copy), allocate the row-major result, dispatch one
 * kernel, count FLOPs. */
#include <stdio.h>
#include <string.h>

#include "compute_impl.h"
#include "error.h"
#include "stats_impl.h"
#include "tensor_impl.h"

static const char *const red_names[] = {"sum", "mean", "amax", "amin", "argmax"};

/* Marks the dims listed (wrapped, each once); ndims == 0 marks all. */
static bool mark_dims(const lt_tensor *t, int ndims, const int *dims, bool *reduced, const char *op) {
  int nd = t->layout.ndim;
  memset(reduced, 0, sizeof(bool) * LT_MAX_DIMS);
  if (ndims < 0 || (ndims > 0 && !dims)) {
    lt__fail(LT_ERR_ARG, "%s: %d dims at %p is not a list of dims", op, ndims, (const void *)dims);
    return false;
  }
  if (ndims == 0) {
    for (int d = 0; d < nd; d++) reduced[d] = true;
    return true;
  }
  for (int i = 0; i < ndims; i++) {
    int d;
    if (!lt__wrap_dim(dims[i], nd, &d)) {
      lt__fail(LT_ERR_ARG, "%s: dim %d is out of range for a %d-dim tensor", op, dims[i], nd);
      return false;
    }
    if (nd == 0) continue; /* dim 0 or -1 of a 0-dim tensor: PyTorch's scalar rule */
    if (reduced[d]) {
      lt__fail(LT_ERR_ARG, "%s: dim %d appears more than once in the list", op, dims[i]);
      return false;
    }
    reduced[d] = true;
  }
  return true;
}

/* The result's shape: kept dims, and reduced ones as 1 when keepdim. */
static int result_shape(const lt_tensor *t, const bool *reduced, bool keepdim, int64_t *shape) {
  int n = 0;
  for (int d = 0; d < t->layout.ndim; d++) {
    if (!reduced[d])
      shape[n++] = t->layout.shape[d];
    else if (keepdim)
      shape[n++] = 1;
  }
  return n;
}

/* Fills the kernel's dims: kept dims in order, then the reduced ones
 * sorted by falling |stride| so that the innermost is the densest.
 * Returns the number reduced (elements folded into *count). */
static void plan_reduction(const lt_tensor *t, const bool *reduced, lt__red_args *a, int64_t *count) {
  const lt__layout *l = &t->layout;
  int k = 0;
  *count = 1;
  for (int d = 0; d < l->ndim; d++)
    if (!reduced[d]) {
      a->shape[k] = l->shape[d];
      a->src_strides[k++] = l->strides[d];
    }
  a->n_keep = k;
  for (int d = 0; d < l->ndim; d++)
    if (reduced[d]) {
      int j = k++;
      uint64_t m = lt__stride_mag(l->strides[d]);
      for (; j > a->n_keep; j--) {
        if (lt__stride_mag(a->src_strides[j - 1]) >= m) break;
        a->shape[j] = a->shape[j - 1];
        a->src_strides[j] = a->src_strides[j - 1];
      }
      a->shape[j] = l->shape[d];
      a->src_strides[j] = l->strides[d];
      *count *= l->shape[d];
    }
  a->n_red = k - a->n_keep;
  if (a->n_red == 0) { /* nothing reduced (0-dim input, or no dims): fold one element */
    a->shape[k] = 1;
    a->src_strides[k] = 0;
    a->n_red = 1;
  }
}

static lt_dtype reduction_dtype(lt__red_op op, lt_dtype in) {
  if (op == LT__RED_ARGMAX) return LT_I64;
  if (op == LT__RED_SUM && !lt__dtype_is_float(in)) return LT_I64;
  return in;
}

static lt_tensor *reduce(lt__red_op op, const lt_tensor *t, int ndims, const int *dims, bool keepdim) {
  const char *name = red_names[op];
  bool reduced[LT_MAX_DIMS];
  if (!lt__check_tensor(t, name) || !mark_dims(t, ndims, dims, reduced, name)) return NULL;
  if (op == LT__RED_MEAN && !lt__dtype_is_float(t->dtype))
    return lt__fail_null(LT_ERR_DTYPE, "mean: %s input: the mean of integers is not an integer; cast to a float "
                         "dtype first", lt_dtype_name(t->dtype));
  lt__red_args a = {.op = op, .compute = lt__compute_type(t->dtype), .src = lt__tensor_ptr(t),
                    .src_dtype = t->dtype, .dst_dtype = reduction_dtype(op, t->dtype)};
  int64_t count, shape[LT_MAX_DIMS];
  plan_reduction(t, reduced, &a, &count);
  int ndim = result_shape(t, reduced, keepdim, shape);
  int64_t outs = 1;
  for (int d = 0; d < a.n_keep; d++) outs *= a.shape[d];
  if (count == 0 && op != LT__RED_SUM && op != LT__RED_MEAN)
    return lt__fail_null(LT_ERR_SHAPE, "%s: a reduced dim is empty, and an empty set has no %s", name,
                         op == LT__RED_AMIN ? "minimum" : "maximum");
  lt_tensor *out = lt__tensor_alloc(a.dst_dtype, ndim, shape, t->storage->device, name);
  if (!out) return NULL;
  a.dst = lt__tensor_ptr(out);
  if (outs > 0) {
    const lt__backend *be = lt__backend_for(t->storage->device, name);
    lt_status s = !be ? lt_last_status()
                  : !be->reduce_dims ? lt__fail(LT_ERR_DEVICE, "%s: the %s backend has no reductions", name, be->name)
                                     : be->reduce_dims(&a);
    if (s != LT_OK) {
      lt_release(out);
      return NULL;
    }
    lt__stats_flops(t->storage->device, outs * count);
  }
  lt__ok();
  return out;
}

LT_API lt_tensor *lt_sum(const lt_tensor *t, int ndims, const int *dims, bool keepdim) {
  return reduce(LT__RED_SUM, t, ndims, dims, keepdim);
}
LT_API lt_tensor *lt_mean(const lt_tensor *t, int ndims, const int *dims, bool keepdim) {
  return reduce(LT__RED_MEAN, t, ndims, dims, keepdim);
}
LT_API lt_tensor *lt_amax(const lt_tensor *t, int ndims, const int *dims, bool keepdim) {
  return reduce(LT__RED_AMAX, t, ndims, dims, keepdim);
}
LT_API lt_tensor *lt_amin(const lt_tensor *t, int ndims, const int *dims, bool keepdim) {
  return reduce(LT__RED_AMIN, t, ndims, dims, keepdim);
}
LT_API lt_tensor *lt_argmax(const lt_tensor *t, int dim, bool keepdim) {
  return reduce(LT__RED_ARGMAX, t, 1, &dim, keepdim);
}

static lt_tensor *softmax(const lt_tensor *t, int dim, bool log) {
  const char *name = log ? "log_softmax" : "softmax";
  int d;
  if (!lt__check_tensor(t, name)) return NULL;
  if (!lt__wrap_dim(dim, t->layout.ndim, &d))
    return lt__fail_null(LT_ERR_ARG, "%s: dim %d is out of range for a %d-dim tensor", name, dim, t->layout.ndim);
  if (!lt__dtype_is_float(t->dtype))
    return lt__fail_null(LT_ERR_DTYPE, "%s: %s input: softmax is defined for float dtypes; cast first", name,
                         lt_dtype_name(t->dtype));
  lt_tensor *out = lt__tensor_alloc(t->dtype, t->layout.ndim, t->layout.shape, t->storage->device, name);
  if (!out) return NULL;
  const lt__layout *l = &t->layout, *o = &out->layout;
  lt__softmax_args a = {.log = log, .dtype = t->dtype, .compute = lt__compute_type(t->dtype),
                        .n = l->ndim ? l->shape[d] : 1, .src_stride = l->ndim ? l->strides[d] : 0,
                        .dst_stride = l->ndim ? o->strides[d] : 0, .src = lt__tensor_ptr(t), .dst = lt__tensor_ptr(out)};
  int64_t numel = lt__layout_numel(l);
  for (int k = 0; k < l->ndim; k++)
    if (k != d) {
      a.outer_shape[a.n_outer] = l->shape[k];
      a.outer_src[a.n_outer] = l->strides[k];
      a.outer_dst[a.n_outer++] = o->strides[k];
    }
  if (numel > 0) {
    const lt__backend *be = lt__backend_for(t->storage->device, name);
    lt_status s = !be ? lt_last_status()
                  : !be->softmax ? lt__fail(LT_ERR_DEVICE, "%s: the %s backend has no softmax", name, be->name)
                                 : be->softmax(&a);
    if (s != LT_OK) {
      lt_release(out);
      return NULL;
    }
    lt__stats_flops(t->storage->device, 4 * numel); /* max, exp, sum, divide (or log) per element */
  }
  lt__ok();
  return out;
}

LT_API lt_tensor *lt_softmax(const lt_tensor *t, int dim) { return softmax(t, dim, false); }
LT_API lt_tensor *lt_log_softmax(const lt_tensor *t, int dim) { return softmax(t, dim, true); }
