/* The CPU elementwise kernel. The core has planned the loops (dims in
 * dst's order, merged): an outer odometer walks rows of the innermost dim,
 * and each row is done in chunks that fit in L1: inputs converted to the
 * compute type (or read in place when they already are it, densely), the
 * op applied by a tight loop the compiler vectorises, the result stored
 * (or written in place). A transposed input is read in 2-D tiles through
 * the transpose kernels so that every cache line it touches is used.
 * Large ops are split over the library's thread pool. */
#include <string.h>

#include "cast.h"
#include "cpu_kernels.h"
#include "dtype.h"
#include "ew_ops.h"
#include "pool.h"
#include "transpose.h"

enum { CHUNK = 256, TILE = 64 };

/* One operand of a row: where it starts, its step in elements, its dtype,
 * and the vector conversion to/from the compute type when one exists. */
typedef struct operand {
  const char *p;
  int64_t stride;
  lt_dtype dt;
  size_t es;
  lt__cast_fn convert;
} operand;

typedef struct plan {
  const lt__ew_args *a;
  operand op[3];   /* dst, in0, in1 with the dims' strides in bytes below */
  size_t cs;       /* compute type size */
  int64_t rows;    /* units of work: rows, or row-blocks of TILE when tiled */
} plan;

/* ---- loads and stores between a run and the compute type ---- */

static void load_generic(void *buf, lt_dtype ct, const operand *o, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    lt__scalar v = lt__scalar_load(o->dt, o->p + i * o->stride * (int64_t)o->es);
    if (ct == LT_I64) /* floats only reach here as integral scalars */
      ((int64_t *)buf)[i] = v.is_int ? v.i : (int64_t)v.f;
    else if (ct == LT_F64)
      ((double *)buf)[i] = v.is_int ? (double)v.i : v.f;
    else
      ((float *)buf)[i] = v.is_int ? (float)v.i : (float)v.f;
  }
}

/* n values of o as the compute type: o's own memory when it already is
 * that type and dense, else converted into buf. */
static const void *load(void *buf, lt_dtype ct, const operand *o, int64_t n) {
  if (o->dt == ct && o->stride == 1) return o->p;
  if (o->dt == ct && ct == LT_F32) {
    const float *s = (const float *)(const void *)o->p;
    for (int64_t i = 0; i < n; i++) ((float *)buf)[i] = s[i * o->stride];
  } else if (o->convert && o->stride == 1) {
    o->convert(buf, o->p, n);
  } else {
    load_generic(buf, ct, o, n);
  }
  return buf;
}

static void store_generic(const operand *o, lt_dtype ct, const void *vals, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    lt__scalar v = {.is_int = ct == LT_I64};
    if (ct == LT_I64)
      v.i = ((const int64_t *)vals)[i];
    else
      v.f = ct == LT_F64 ? ((const double *)vals)[i] : ((const float *)vals)[i];
    /* Cannot fail: the core only lets a result into a dst of its category or higher. */
    lt__scalar_store(o->dt, (char *)o->p + i * o->stride * (int64_t)o->es, v, LT_CAST_DEFAULT);
  }
}

static void store(const operand *o, lt_dtype ct, const void *vals, int64_t n) {
  if (vals == o->p) return; /* computed in place */
  if (o->dt == ct && ct == LT_F32) {
    float *d = (float *)(void *)o->p;
    for (int64_t i = 0; i < n; i++) d[i * o->stride] = ((const float *)vals)[i];
  } else if (o->convert && o->stride == 1) {
    o->convert((void *)o->p, vals, n);
  } else {
    store_generic(o, ct, vals, n);
  }
}

/* ---- one row ---- */

/* Applies the op to n elements of the operands (each at its start and
 * stride), CHUNK at a time. */
static void do_row(const plan *p, const operand *ops, int64_t n) {
  const lt__ew_args *a = p->a;
  lt_dtype ct = a->compute;
  _Alignas(64) char in[2][CHUNK * 8], out[CHUNK * 8];
  operand o[3];
  memcpy(o, ops, sizeof o);
  for (int64_t i = 0; i < n; i += CHUNK) {
    int64_t k = n - i < CHUNK ? n - i : CHUNK;
    const void *x[2] = {NULL, NULL};
    bool scalar[2] = {false, false};
    for (int j = 0; j < a->ninputs; j++) {
      scalar[j] = o[j + 1].stride == 0;
      x[j] = load(in[j], ct, &o[j + 1], scalar[j] ? 1 : k);
    }
    void *y = o[0].dt == ct && o[0].stride == 1 ? (void *)o[0].p : out;
    lt__ew_apply(a->op, ct, y, x[0], scalar[0], x[1], scalar[1], k);
    store(&o[0], ct, y, k);
    for (int j = 0; j < 3; j++) o[j].p += k * o[j].stride * (int64_t)o[j].es;
  }
}

/* The operands at the start of outer index `row` (an odometer position
 * over dims 0..nouter-1, decoded from the flat index). */
static void operands_at(const plan *p, int nouter, int64_t row, operand *o) {
  const lt__ew_args *a = p->a;
  memcpy(o, p->op, sizeof(operand) * 3);
  for (int d = nouter - 1; d >= 0; d--) {
    int64_t i = row % a->shape[d];
    row /= a->shape[d];
    for (int j = 0; j < 3; j++) o[j].p += i * a->strides[j][d] * (int64_t)o[j].es;
  }
}

static void rows_plain(void *ctx, int64_t begin, int64_t end) {
  const plan *p = ctx;
  const lt__ew_args *a = p->a;
  int inner = a->ndim - 1;
  for (int64_t r = begin; r < end; r++) {
    operand o[3];
    operands_at(p, inner, r, o);
    for (int j = 0; j < 3; j++) o[j].stride = a->strides[j][inner];
    do_row(p, o, a->shape[inner]);
  }
}

/* ---- tiles for a transposed input ---- */

/* One TILE x TILE-or-less block: rows r0.. of dim ndim-2, cols c0.. of the
 * innermost dim. The tiled input is transposed into a dense stage first. */
static void do_tile(const plan *p, const operand *base, int64_t r0, int64_t nr, int64_t c0, int64_t nc) {
  const lt__ew_args *a = p->a;
  int t = a->tiled, rd = a->ndim - 2, cd = a->ndim - 1;
  const operand *x = &base[t];
  _Alignas(64) char stage[TILE * TILE * 8];
  /* stage[r][c] = x[r, c]; x has unit stride along r, stride sc along c. */
  const char *x0 = x->p + (r0 + c0 * a->strides[t][cd]) * (int64_t)x->es;
  lt__transpose_best(x->es)(stage, TILE, x0, a->strides[t][cd], nc, nr);
  for (int64_t r = 0; r < nr; r++) {
    operand o[3];
    memcpy(o, base, sizeof o);
    for (int j = 0; j < 3; j++) {
      o[j].p += ((r0 + r) * a->strides[j][rd] + c0 * a->strides[j][cd]) * (int64_t)o[j].es;
      o[j].stride = a->strides[j][cd];
    }
    o[t].p = stage + r * TILE * (int64_t)x->es;
    o[t].stride = 1;
    do_row(p, o, nc);
  }
}

static void rows_tiled(void *ctx, int64_t begin, int64_t end) {
  const plan *p = ctx;
  const lt__ew_args *a = p->a;
  int64_t nrows = a->shape[a->ndim - 2], ncols = a->shape[a->ndim - 1];
  int64_t blocks = (nrows + TILE - 1) / TILE;
  for (int64_t u = begin; u < end; u++) {
    operand o[3];
    operands_at(p, a->ndim - 2, u / blocks, o);
    int64_t r0 = u % blocks * TILE, nr = nrows - r0 < TILE ? nrows - r0 : TILE;
    for (int64_t c0 = 0; c0 < ncols; c0 += TILE)
      do_tile(p, o, r0, nr, c0, ncols - c0 < TILE ? ncols - c0 : TILE);
  }
}

/* ---- entry ---- */

static void init_operand(operand *o, const char *ptr, lt_dtype dt, lt_dtype ct, bool is_dst) {
  o->p = ptr;
  o->dt = dt;
  o->es = lt__dtype_size(dt);
  o->convert = NULL;
  if (ct == LT_F32 && dt != LT_F32)
    o->convert = is_dst ? lt__cast_best(dt, LT_F32, LT_CAST_DEFAULT) : lt__cast_best(LT_F32, dt, LT_CAST_DEFAULT);
}

lt_status lt__cpu_elementwise(const lt__ew_args *a) {
  plan p = {.a = a, .cs = lt__dtype_size(a->compute)};
  init_operand(&p.op[0], a->dst, a->dst_dtype, a->compute, true);
  for (int j = 0; j < 2; j++)
    init_operand(&p.op[j + 1], j < a->ninputs ? a->src[j] : NULL, j < a->ninputs ? a->src_dtype[j] : LT_F32,
                 a->compute, false);
  if (a->ndim == 0) { /* one element */
    operand o[3];
    memcpy(o, p.op, sizeof o);
    for (int j = 0; j < 3; j++) o[j].stride = 1;
    do_row(&p, o, 1);
    return LT_OK;
  }
  int64_t outer = 1, bytes = 0;
  int lead = a->tiled ? a->ndim - 2 : a->ndim - 1;
  for (int d = 0; d < lead; d++) outer *= a->shape[d];
  int64_t numel = outer * a->shape[a->ndim - 1];
  if (a->tiled) {
    int64_t blocks = (a->shape[a->ndim - 2] + TILE - 1) / TILE;
    numel *= a->shape[a->ndim - 2];
    outer *= blocks;
  }
  for (int j = 0; j <= a->ninputs; j++) bytes += numel * (int64_t)p.op[j].es;
  lt__parallel_for(outer, bytes, a->tiled ? rows_tiled : rows_plain, &p);
  return LT_OK;
}
