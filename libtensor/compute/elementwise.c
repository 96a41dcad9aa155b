/* The public elementwise ops: check the inputs, broadcast them, decide the
 * result dtype, allocate (or check the caller's dst), plan, dispatch one
 * kernel, count FLOPs. Inputs are handed to the kernel with their own
 * strides (stride 0 where broadcast): nothing is copied first. */
#include <math.h>
#include <string.h>

#include "compute_impl.h"
#include "error.h"
#include "overlap.h"
#include "stats_impl.h"
#include "storage.h"
#include "tensor_impl.h"

static const char *const op_names[] = {
    "add", "sub", "mul", "div", "maximum", "minimum", "neg", "abs", "exp", "log",
    "sqrt", "rsqrt", "tanh", "sigmoid", "relu", "gelu", "silu"};

/* The inputs of one call: tensors, or for the scalar forms one tensor and
 * a double read through a stride-0 pointer. */
typedef struct inputs {
  int n;
  const lt_tensor *t[2];
  const double *scalar; /* replaces t[1] when set */
} inputs;

static bool same_device(lt_device a, lt_device b) { return a.kind == b.kind && a.index == b.index; }

static bool check_inputs(const inputs *in, const char *op) {
  for (int i = 0; i < in->n; i++) {
    if (in->scalar && i == 1) break;
    if (!lt__check_tensor(in->t[i], op)) return false;
  }
  if (in->n == 2 && !in->scalar && !same_device(in->t[0]->storage->device, in->t[1]->storage->device)) {
    lt__fail(LT_ERR_DEVICE, "%s: the inputs are on different devices", op);
    return false;
  }
  return true;
}

/* NumPy's broadcast of the tensor inputs' shapes into ndim/shape. */
static bool broadcast_shape(const inputs *in, const char *op, int *ndim, int64_t *shape) {
  const lt__layout *a = &in->t[0]->layout;
  if (in->n == 1 || in->scalar) {
    *ndim = a->ndim;
    memcpy(shape, a->shape, sizeof(int64_t) * (size_t)a->ndim);
    return true;
  }
  const lt__layout *b = &in->t[1]->layout;
  int d = lt__broadcast_shapes(a->ndim, a->shape, b->ndim, b->shape, ndim, shape);
  if (d < 0) return true;
  char x[LT__TENSOR_BUF], y[LT__TENSOR_BUF];
  lt__fail(LT_ERR_SHAPE, "%s: shapes do not broadcast: %s and %s differ at dim %d (%lld vs %lld) and neither is 1",
           op, lt__fmt_tensor(x, sizeof x, in->t[0]), lt__fmt_tensor(y, sizeof y, in->t[1]), d - *ndim,
           (long long)a->shape[d - (*ndim - a->ndim)], (long long)b->shape[d - (*ndim - b->ndim)]);
  return false;
}

/* The dtype an op's result has (PyTorch's rules); LT_NUM_DTYPES (error
 * set) when the op has no meaning for the inputs. */
static lt_dtype result_dtype(lt__ew_op op, const inputs *in) {
  lt_dtype a = in->t[0]->dtype;
  if (in->scalar) { /* a weak scalar: an integral value keeps integers, and bool becomes I64 */
    if (lt__dtype_is_float(a)) return a;
    if (*in->scalar != nearbyint(*in->scalar)) return LT_F32;
    return a == LT_BOOL ? LT_I64 : a;
  }
  lt_dtype r = in->n == 2 ? lt__promote(a, in->t[1]->dtype) : a;
  if ((op == LT__EW_SUB || op == LT__EW_NEG) && r == LT_BOOL) {
    lt__fail(LT_ERR_DTYPE, "%s: not defined for bool tensors; use a logical op (xor, not) instead", op_names[op]);
    return LT_NUM_DTYPES;
  }
  bool keeps_integers = op < LT__EW_DIV || op == LT__EW_MAX || op == LT__EW_MIN || op == LT__EW_NEG ||
                        op == LT__EW_ABS || op == LT__EW_RELU;
  return lt__dtype_is_float(r) || keeps_integers ? r : LT_F32;
}

/* Runs op into dst (shape already the broadcast shape) and counts it. */
static lt_status run(lt__ew_op op, const inputs *in, lt_tensor *dst, lt_dtype result) {
  const char *name = op_names[op];
  lt__ew_args a = {.op = op, .ninputs = in->n, .compute = lt__compute_type(result), .result = result,
                   .ndim = dst->layout.ndim,
                   .dst = lt__tensor_ptr(dst), .dst_dtype = dst->dtype};
  memcpy(a.shape, dst->layout.shape, sizeof a.shape);
  memcpy(a.strides[0], dst->layout.strides, sizeof a.strides[0]);
  int64_t numel = lt__layout_numel(&dst->layout);
  for (int i = 0; i < in->n; i++) {
    if (in->scalar && i == 1) {
      a.src[1] = (const char *)in->scalar;
      a.src_dtype[1] = LT_F64;
      memset(a.strides[2], 0, sizeof a.strides[2]);
      break;
    }
    a.src[i] = lt__tensor_ptr(in->t[i]);
    a.src_dtype[i] = in->t[i]->dtype;
    lt__broadcast_strides(&in->t[i]->layout, a.ndim, a.shape, a.strides[i + 1]);
  }
  if (numel == 0) return LT_OK;
  const lt__backend *be = lt__backend_for(dst->storage->device, name);
  if (!be) return lt_last_status();
  if (!be->elementwise) return lt__fail(LT_ERR_DEVICE, "%s: the %s backend has no elementwise kernels", name, be->name);
  lt__plan_elementwise(&a);
  lt_status s = be->elementwise(&a);
  if (s == LT_OK) lt__stats_flops(dst->storage->device, numel);
  return s;
}

static lt_tensor *compute_new(lt__ew_op op, const inputs *in) {
  const char *name = op_names[op];
  int ndim;
  int64_t shape[LT_MAX_DIMS];
  if (!check_inputs(in, name) || !broadcast_shape(in, name, &ndim, shape)) return NULL;
  lt_dtype r = result_dtype(op, in);
  if (r == LT_NUM_DTYPES) return NULL;
  lt_tensor *out = lt__tensor_alloc(r, ndim, shape, in->t[0]->storage->device, name);
  if (!out) return NULL;
  if (run(op, in, out, r) != LT_OK) {
    lt_release(out);
    return NULL;
  }
  lt__ok();
  return out;
}

/* dst must have the broadcast shape exactly, hold the result's category,
 * be writable and not partly alias an input. */
static lt_status check_dst(lt__ew_op op, const inputs *in, const lt_tensor *dst, lt_dtype r) {
  const char *name = op_names[op];
  int ndim;
  int64_t shape[LT_MAX_DIMS];
  if (!broadcast_shape(in, name, &ndim, shape)) return LT_ERR_SHAPE;
  if (!same_device(dst->storage->device, in->t[0]->storage->device))
    return lt__fail(LT_ERR_DEVICE, "%s: dst and inputs are on different devices", name);
  if (ndim != dst->layout.ndim || memcmp(shape, dst->layout.shape, sizeof(int64_t) * (size_t)ndim) != 0) {
    char want[LT__DIMS_BUF], have[LT__TENSOR_BUF];
    return lt__fail(LT_ERR_SHAPE, "%s: dst is %s but the result has shape %s", name,
                    lt__fmt_tensor(have, sizeof have, dst), lt__fmt_dims(want, sizeof want, ndim, shape));
  }
  if (!lt__can_store_result(r, dst->dtype))
    return lt__fail(LT_ERR_DTYPE, "%s: a %s result cannot be stored into a %s dst", name, lt_dtype_name(r),
                    lt_dtype_name(dst->dtype));
  lt_status s = lt__check_mutable(dst, name);
  if (s == LT_OK) s = lt__check_writable(dst, name);
  for (int i = 0; i < in->n && s == LT_OK; i++) {
    if (in->scalar && i == 1) break;
    lt__layout bl = in->t[i]->layout;
    bl.ndim = ndim;
    memcpy(bl.shape, shape, sizeof bl.shape);
    lt__broadcast_strides(&in->t[i]->layout, ndim, shape, bl.strides);
    s = lt__check_no_alias(dst, in->t[i], &bl, name);
  }
  return s;
}

static lt_status compute_out(lt__ew_op op, lt_tensor *dst, const inputs *in) {
  const char *name = op_names[op];
  if (!lt__check_tensor(dst, name)) return LT_ERR_ARG;
  if (!check_inputs(in, name)) return lt_last_status();
  lt_dtype r = result_dtype(op, in);
  if (r == LT_NUM_DTYPES) return LT_ERR_DTYPE;
  lt_status s = check_dst(op, in, dst, r);
  if (s == LT_OK) s = run(op, in, dst, r);
  return s == LT_OK ? lt__ok() : s;
}

static lt_tensor *binary(lt__ew_op op, const lt_tensor *a, const lt_tensor *b) {
  inputs in = {.n = 2, .t = {a, b}};
  return compute_new(op, &in);
}

static lt_status binary_out(lt__ew_op op, lt_tensor *dst, const lt_tensor *a, const lt_tensor *b) {
  inputs in = {.n = 2, .t = {a, b}};
  return compute_out(op, dst, &in);
}

static lt_tensor *unary(lt__ew_op op, const lt_tensor *t) {
  inputs in = {.n = 1, .t = {t}};
  return compute_new(op, &in);
}

static lt_tensor *with_scalar(lt__ew_op op, const lt_tensor *t, double s) {
  inputs in = {.n = 2, .t = {t}, .scalar = &s};
  return compute_new(op, &in);
}

LT_API lt_tensor *lt_add(const lt_tensor *a, const lt_tensor *b) { return binary(LT__EW_ADD, a, b); }
LT_API lt_tensor *lt_sub(const lt_tensor *a, const lt_tensor *b) { return binary(LT__EW_SUB, a, b); }
LT_API lt_tensor *lt_mul(const lt_tensor *a, const lt_tensor *b) { return binary(LT__EW_MUL, a, b); }
LT_API lt_tensor *lt_div(const lt_tensor *a, const lt_tensor *b) { return binary(LT__EW_DIV, a, b); }
LT_API lt_tensor *lt_maximum(const lt_tensor *a, const lt_tensor *b) { return binary(LT__EW_MAX, a, b); }
LT_API lt_tensor *lt_minimum(const lt_tensor *a, const lt_tensor *b) { return binary(LT__EW_MIN, a, b); }

LT_API lt_status lt_add_out(lt_tensor *d, const lt_tensor *a, const lt_tensor *b) { return binary_out(LT__EW_ADD, d, a, b); }
LT_API lt_status lt_sub_out(lt_tensor *d, const lt_tensor *a, const lt_tensor *b) { return binary_out(LT__EW_SUB, d, a, b); }
LT_API lt_status lt_mul_out(lt_tensor *d, const lt_tensor *a, const lt_tensor *b) { return binary_out(LT__EW_MUL, d, a, b); }
LT_API lt_status lt_div_out(lt_tensor *d, const lt_tensor *a, const lt_tensor *b) { return binary_out(LT__EW_DIV, d, a, b); }
LT_API lt_status lt_maximum_out(lt_tensor *d, const lt_tensor *a, const lt_tensor *b) {
  return binary_out(LT__EW_MAX, d, a, b);
}
LT_API lt_status lt_minimum_out(lt_tensor *d, const lt_tensor *a, const lt_tensor *b) {
  return binary_out(LT__EW_MIN, d, a, b);
}

LT_API lt_tensor *lt_add_scalar(const lt_tensor *t, double s) { return with_scalar(LT__EW_ADD, t, s); }
LT_API lt_tensor *lt_mul_scalar(const lt_tensor *t, double s) { return with_scalar(LT__EW_MUL, t, s); }

LT_API lt_tensor *lt_neg(const lt_tensor *t) { return unary(LT__EW_NEG, t); }
LT_API lt_tensor *lt_abs(const lt_tensor *t) { return unary(LT__EW_ABS, t); }
LT_API lt_tensor *lt_exp(const lt_tensor *t) { return unary(LT__EW_EXP, t); }
LT_API lt_tensor *lt_log(const lt_tensor *t) { return unary(LT__EW_LOG, t); }
LT_API lt_tensor *lt_sqrt(const lt_tensor *t) { return unary(LT__EW_SQRT, t); }
LT_API lt_tensor *lt_rsqrt(const lt_tensor *t) { return unary(LT__EW_RSQRT, t); }
LT_API lt_tensor *lt_tanh(const lt_tensor *t) { return unary(LT__EW_TANH, t); }
LT_API lt_tensor *lt_sigmoid(const lt_tensor *t) { return unary(LT__EW_SIGMOID, t); }
LT_API lt_tensor *lt_relu(const lt_tensor *t) { return unary(LT__EW_RELU, t); }
LT_API lt_tensor *lt_gelu(const lt_tensor *t) { return unary(LT__EW_GELU, t); }
LT_API lt_tensor *lt_silu(const lt_tensor *t) { return unary(LT__EW_SILU, t); }

LT_API lt_status lt_unary_out(lt_tensor *dst, lt_unary_op op, const lt_tensor *t) {
  if ((int)op < 0 || op > LT_SILU) return lt__fail(LT_ERR_ARG, "unary_out: %d is not an lt_unary_op", (int)op);
  inputs in = {.n = 1, .t = {t}};
  return compute_out((lt__ew_op)(LT__EW_FIRST_UNARY + (int)op), dst, &in);
}

LT_API int64_t lt_flops_elementwise(int64_t numel, int ops_per_element) {
  if (numel < 0 || ops_per_element < 0) {
    lt__fail(LT_ERR_ARG, "flops_elementwise: numel %lld and ops %d must be >= 0", (long long)numel, ops_per_element);
    return -1;
  }
  if (ops_per_element > 0 && numel > INT64_MAX / ops_per_element) {
    lt__fail(LT_ERR_NOMEM, "flops_elementwise: %lld x %d overflows int64", (long long)numel, ops_per_element);
    return -1;
  }
  lt__ok();
  return numel * ops_per_element;
}
