/* lt_matmul and lt_flops_matmul: torch.matmul's shape rules and batch
 * broadcasting, and for each operand either the BLAS transpose flag and
 * leading dimension that read it where it lies, or, for a layout BLAS
 * cannot take, one copy through the strided-copy entry (counted as
 * implicit and traced). The products themselves are the backend's. */
#include <stdio.h>
#include <string.h>

#include "copy_impl.h"
#include "dispatch.h"
#include "dtype.h"
#include "error.h"
#include "libtensor/compute.h"
#include "stats_impl.h"
#include "tensor_impl.h"

/* What two operand shapes multiply into. */
typedef struct mm_shape {
  int batch_ndim;
  int64_t batch[LT_MAX_DIMS];
  int64_t m, n, k;
  int out_ndim;
  int64_t out[LT_MAX_DIMS];
  int64_t flops;
} mm_shape;

/* Broadcasts the batch dims (all but the last two) of both operands. */
static lt_status batch_shapes(const char *op, int an, const int64_t *as, int bn, const int64_t *bs, mm_shape *s) {
  int na = an > 2 ? an - 2 : 0, nb = bn > 2 ? bn - 2 : 0;
  int d = lt__broadcast_shapes(na, as, nb, bs, &s->batch_ndim, s->batch);
  if (d < 0) return LT_OK;
  char a[LT__DIMS_BUF], b[LT__DIMS_BUF];
  return lt__fail(LT_ERR_SHAPE, "%s: batch dims %s of a and %s of b do not broadcast (%lld against %lld)", op,
                  lt__fmt_dims(a, sizeof a, na, as), lt__fmt_dims(b, sizeof b, nb, bs),
                  (long long)as[d - (s->batch_ndim - na)], (long long)bs[d - (s->batch_ndim - nb)]);
}

/* The product's 2*batch*m*n*k, or false on int64 overflow. */
static bool count_flops(mm_shape *s) {
  int64_t f = 2;
  bool ok = true;
  for (int i = 0; i < s->batch_ndim; i++) ok &= !__builtin_mul_overflow(f, s->batch[i], &f);
  ok &= !__builtin_mul_overflow(f, s->m, &f);
  ok &= !__builtin_mul_overflow(f, s->n, &f);
  ok &= !__builtin_mul_overflow(f, s->k, &f);
  bool empty = s->m == 0 || s->n == 0 || s->k == 0;
  for (int i = 0; i < s->batch_ndim; i++) empty |= s->batch[i] == 0;
  s->flops = empty ? 0 : f;
  return ok || empty;
}

/* torch.matmul's rules: a 1-D a is a row [1,k] and a 1-D b a column [k,1],
 * and the dim added for them is left out of the result. */
static lt_status mm_shapes(const char *op, int an, const int64_t *as, int bn, const int64_t *bs, mm_shape *s) {
  char a[LT__DIMS_BUF], b[LT__DIMS_BUF];
  if (an == 0 || bn == 0)
    return lt__fail(LT_ERR_SHAPE, "%s: both operands need at least 1 dim, got a %s and b %s", op,
                    lt__fmt_dims(a, sizeof a, an, as), lt__fmt_dims(b, sizeof b, bn, bs));
  s->m = an == 1 ? 1 : as[an - 2];
  s->k = as[an - 1];
  int64_t kb = bn == 1 ? bs[0] : bs[bn - 2];
  s->n = bn == 1 ? 1 : bs[bn - 1];
  if (s->k != kb)
    return lt__fail(LT_ERR_SHAPE, "%s: a %s and b %s do not multiply: a's last dim is %lld, b's %s is %lld", op,
                    lt__fmt_dims(a, sizeof a, an, as), lt__fmt_dims(b, sizeof b, bn, bs), (long long)s->k,
                    bn == 1 ? "only dim" : "second-to-last dim", (long long)kb);
  lt_status st = batch_shapes(op, an, as, bn, bs, s);
  if (st != LT_OK) return st;
  s->out_ndim = s->batch_ndim;
  memcpy(s->out, s->batch, sizeof(int64_t) * (size_t)s->batch_ndim);
  if (an > 1) s->out[s->out_ndim++] = s->m;
  if (bn > 1) s->out[s->out_ndim++] = s->n;
  if (!count_flops(s))
    return lt__fail(LT_ERR_NOMEM, "%s: the FLOP count of a %s times b %s overflows int64", op,
                    lt__fmt_dims(a, sizeof a, an, as), lt__fmt_dims(b, sizeof b, bn, bs));
  return LT_OK;
}

LT_API int64_t lt_flops_matmul(int a_ndim, const int64_t *a_shape, int b_ndim, const int64_t *b_shape) {
  const char *op = "flops_matmul";
  int64_t numel;
  mm_shape s;
  if (!lt__check_shape(op, a_ndim, a_shape, &numel) || !lt__check_shape(op, b_ndim, b_shape, &numel) ||
      mm_shapes(op, a_ndim, a_shape, b_ndim, b_shape, &s) != LT_OK)
    return -1;
  lt__ok();
  return s.flops;
}

/* How BLAS reads one operand's matrices, or that it cannot. */
typedef struct mm_operand {
  const lt_tensor *t;  /* the tensor read: the input, or its copy */
  lt_tensor *copy;     /* owned, when a copy was made */
  lt__layout l;        /* t's layout with a 1-D operand made 2-D */
  bool trans;
  int64_t ld;
} mm_operand;

/* A layout BLAS reads as it is: unit steps along the rows (or, for trans,
 * down the columns) and a leading stride of at least a row's length that
 * fits its 32-bit int. A size-1 dim's stride never matters. Zero and
 * negative strides never qualify. */
static bool blas_layout(int64_t r, int64_t c, int64_t sr, int64_t sc, bool *trans, int64_t *ld) {
  if ((c == 1 || sc == 1) && c <= LT__BLAS_MAX_LD && (r == 1 || (sr >= c && sr <= LT__BLAS_MAX_LD))) {
    *trans = false;
    *ld = r == 1 ? c : sr;
    return true;
  }
  if ((r == 1 || sr == 1) && r <= LT__BLAS_MAX_LD && (c == 1 || (sc >= r && sc <= LT__BLAS_MAX_LD))) {
    *trans = true;
    *ld = c == 1 ? r : sc;
    return true;
  }
  return false;
}

/* Sets the operand's BLAS reading of its last two dims; false when BLAS
 * cannot read them (an empty operand reads as anything: nothing is read). */
static bool classify(mm_operand *o) {
  const lt__layout *l = &o->l;
  int64_t r = l->shape[l->ndim - 2], c = l->shape[l->ndim - 1];
  if (r == 0 || c == 0) {
    o->trans = false;
    o->ld = 1;
    return true;
  }
  return blas_layout(r, c, l->strides[l->ndim - 2], l->strides[l->ndim - 1], &o->trans, &o->ld);
}

/* t's layout as a matrix operand: a 1-D a becomes a row, a 1-D b a column. */
static void operand_init(mm_operand *o, const lt_tensor *t, bool is_a) {
  *o = (mm_operand){.t = t, .l = t->layout};
  if (t->layout.ndim == 1) lt__layout_unsqueeze(&t->layout, is_a ? 0 : 1, &o->l);
}

/* Row-major is what a copy gives: false when even that is beyond BLAS's
 * 32-bit leading dimensions. */
static bool copy_would_do(const mm_operand *o) {
  bool trans;
  int64_t ld, c = o->l.shape[o->l.ndim - 1];
  return blas_layout(o->l.shape[o->l.ndim - 2], c, c, 1, &trans, &ld);
}

/* The layout to copy: o's, with broadcast batch dims (stride 0) kept at
 * size 1, so that a copy never repeats what broadcasting reads again. */
static void copy_source(const mm_operand *o, lt__layout *src) {
  *src = o->l;
  for (int d = 0; d < src->ndim - 2; d++)
    if (src->strides[d] == 0) src->shape[d] = 1;
}

static void describe_unreadable(const mm_operand *o, const char *name, char *why, size_t n) {
  char have[LT__TENSOR_BUF];
  snprintf(why, n, "operand %s %s: BLAS needs unit stride along one of its last two dims and a leading "
                   "stride of at least the other's size (no zero or negative strides)",
           name, lt__fmt_tensor(have, sizeof have, o->t));
}

/* Copies o row-major when BLAS cannot read it (nothing to do otherwise). */
static lt_status copy_if_needed(mm_operand *o, const char *name) {
  if (classify(o)) return LT_OK;
  lt__layout src;
  copy_source(o, &src);
  char why[LT__TENSOR_BUF + 200] = "";
  if (lt__trace_on()) describe_unreadable(o, name, why, sizeof why); /* formatting costs more than a small copy */
  o->copy = lt__copy_layout(o->t, &src, src.ndim, src.shape, "matmul", LT__COPY_IMPLICIT, why);
  if (!o->copy) return lt_last_status();
  o->t = o->copy;
  o->l = o->copy->layout;
  classify(o); /* row-major: copy_would_do said BLAS reads it */
  return LT_OK;
}

/* Every check lt_matmul makes before it allocates anything. */
static lt_status check_inputs(const lt_tensor *a, const lt_tensor *b, mm_shape *s, mm_operand *oa, mm_operand *ob) {
  const char *op = "matmul";
  if (!lt__check_tensor(a, op) || !lt__check_tensor(b, op)) return LT_ERR_ARG;
  if (!lt__dtype_is_float(a->dtype) || !lt__dtype_is_float(b->dtype))
    return lt__fail(LT_ERR_DTYPE, "matmul: a is %s and b %s, but matmul multiplies float dtypes only (cast with "
                                  "lt_to first)", lt_dtype_name(a->dtype), lt_dtype_name(b->dtype));
  lt_device da = a->storage->device, db = b->storage->device;
  if (da.kind != db.kind || da.index != db.index)
    return lt__fail(LT_ERR_DEVICE, "matmul: a is on device %d:%d and b on %d:%d", (int)da.kind, da.index,
                    (int)db.kind, db.index);
  lt_status st = mm_shapes(op, a->layout.ndim, a->layout.shape, b->layout.ndim, b->layout.shape, s);
  if (st != LT_OK) return st;
  if (s->m > 1 && s->n > LT__BLAS_MAX_LD)
    return lt__fail(LT_ERR_SHAPE, "matmul: a result with %lld columns has rows longer than the 2^31-1 elements "
                                  "BLAS can step over", (long long)s->n);
  operand_init(oa, a, true);
  operand_init(ob, b, false);
  if (s->flops == 0) return LT_OK; /* no product runs: nothing is read */
  mm_operand *ops[2] = {oa, ob};
  for (int i = 0; i < 2; i++) {
    char have[LT__TENSOR_BUF];
    if (classify(ops[i])) continue;
    if (!copy_would_do(ops[i]))
      return lt__fail(LT_ERR_SHAPE, "matmul: operand %s %s has rows longer than the 2^31-1 elements BLAS can step "
                                    "over", i ? "b" : "a", lt__fmt_tensor(have, sizeof have, ops[i]->t));
    if (!lt__implicit_copy_allowed()) {
      char why[LT__TENSOR_BUF + 200];
      describe_unreadable(ops[i], i ? "b" : "a", why, sizeof why);
      return lt__fail(LT_ERR_NOT_VIEWABLE, "matmul: %s, and LT_COPY_FORBID is set (a copy would be made)", why);
    }
  }
  return LT_OK;
}

/* An operand's batch strides against the result's batch shape. */
static void batch_strides(const mm_operand *o, const mm_shape *s, int64_t *strides) {
  lt__layout batch = o->l;
  batch.ndim -= 2;
  lt__broadcast_strides(&batch, s->batch_ndim, s->batch, strides); /* mm_shapes checked it */
}

/* When b is the same matrix for every batch and a's batches of rows lie
 * one stride apart, the whole batch is one product of batch*m rows (as
 * a [B,m,k] times a [k,n] weight). */
static void fold_batch_into_rows(lt__matmul_args *x) {
  if (x->batch_ndim == 0 || x->a.trans) return;
  for (int d = 0; d < x->batch_ndim; d++)
    if (x->b.batch_strides[d] != 0) return;
  int64_t shape[LT_MAX_DIMS + 1], strides[LT_MAX_DIMS + 1];
  int n = x->batch_ndim;
  memcpy(shape, x->batch_shape, sizeof(int64_t) * (size_t)n);
  memcpy(strides, x->a.batch_strides, sizeof(int64_t) * (size_t)n);
  shape[n] = x->m;
  strides[n] = x->a.ld;
  int64_t *sp = strides;
  if (lt__coalesce(n + 1, shape, 1, &sp) != 1 || strides[0] < x->k || strides[0] > LT__BLAS_MAX_LD) return;
  x->m = shape[0];
  x->a.ld = strides[0];
  x->batch_ndim = 0;
}

/* The backend's arguments for out = a b, batch dims coalesced. */
static void matmul_args(const mm_shape *s, const mm_operand *oa, const mm_operand *ob, lt_tensor *out,
                        lt__matmul_args *x) {
  *x = (lt__matmul_args){.m = s->m, .n = s->n, .k = s->k, .c = lt__tensor_ptr(out), .c_dtype = out->dtype,
                         .batch_ndim = s->batch_ndim};
  const mm_operand *o[2] = {oa, ob};
  lt__matmul_operand *d[2] = {&x->a, &x->b};
  for (int i = 0; i < 2; i++) {
    *d[i] = (lt__matmul_operand){.ptr = lt__tensor_ptr(o[i]->t), .dtype = o[i]->t->dtype, .trans = o[i]->trans,
                                 .ld = o[i]->ld};
    batch_strides(o[i], s, d[i]->batch_strides);
  }
  memcpy(x->batch_shape, s->batch, sizeof(int64_t) * (size_t)s->batch_ndim);
  int64_t *strides[2] = {x->a.batch_strides, x->b.batch_strides};
  x->batch_ndim = lt__coalesce(x->batch_ndim, x->batch_shape, 2, strides);
  fold_batch_into_rows(x);
}

LT_API lt_tensor *lt_matmul(const lt_tensor *a, const lt_tensor *b) {
  mm_shape s;
  mm_operand oa, ob;
  if (check_inputs(a, b, &s, &oa, &ob) != LT_OK) return NULL;
  lt_device dev = a->storage->device;
  const lt__backend *be = lt__backend_for(dev, "matmul");
  if (!be) return NULL;
  lt_tensor *out = NULL;
  if (s.flops > 0 && (copy_if_needed(&oa, "a") != LT_OK || copy_if_needed(&ob, "b") != LT_OK)) goto fail;
  out = lt__tensor_alloc(lt_promote_types(a->dtype, b->dtype), s.out_ndim, s.out, dev, "matmul");
  if (!out) goto fail;
  if (s.flops > 0) {
    lt__matmul_args x;
    matmul_args(&s, &oa, &ob, out, &x);
    if (be->matmul(&x) != LT_OK) goto fail;
  } else if (lt__layout_numel(&out->layout) > 0) { /* k == 0: sums of nothing */
    be->fill_zero(dev.index, lt__tensor_ptr(out), (size_t)lt__layout_numel(&out->layout) * lt__dtype_size(out->dtype));
  }
  lt__stats_flops(dev, s.flops);
  lt_release(oa.copy);
  lt_release(ob.copy);
  lt__ok();
  return out;
fail:
  lt_release(out);
  lt_release(oa.copy);
  lt_release(ob.copy);
  return NULL;
}
