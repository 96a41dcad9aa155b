/* Runs of any dtype to and from the compute types: in place when a run
 * already is the compute type and dense, through the vector cast kernels
 * for the narrow floats, and element by element through the exact scalar
 * conversions otherwise. Dense outputs too large to stay cached go out
 * with streaming stores. */
#include <string.h>

#include "dtype.h"
#include "runs.h"
#include "stream.h"

lt__run lt__run_make(const char *p, int64_t stride, lt_dtype dt, lt_dtype ct, bool is_dst) {
  lt__run r = {.p = p, .stride = stride, .dt = dt, .es = lt__dtype_size(dt)};
  if (ct == LT_F32 && dt != LT_F32)
    r.convert = is_dst ? lt__cast_best(dt, LT_F32, LT_CAST_DEFAULT) : lt__cast_best(LT_F32, dt, LT_CAST_DEFAULT);
  return r;
}

void lt__run_skip(lt__run *r, int64_t n) { r->p += n * r->stride * (int64_t)r->es; }

/* ---- loads and stores between a run and the compute type ---- */

static void load_generic(void *buf, lt_dtype ct, const lt__run *o, int64_t n) {
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
const void *lt__run_load(void *buf, lt_dtype ct, const lt__run *o, int64_t n) {
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

static void store_generic(const lt__run *o, lt_dtype ct, const void *vals, int64_t n) {
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

void lt__run_store(const lt__run *o, lt_dtype ct, const void *vals, int64_t n, bool stream) {
  if (vals == o->p) return; /* computed in place */
  if (stream && o->dt == ct && o->stride == 1) {
    lt__stream_copy((char *)o->p, vals, (size_t)n * o->es);
    return;
  }
  if (o->dt == ct && ct == LT_F32) {
    float *d = (float *)(void *)o->p;
    for (int64_t i = 0; i < n; i++) d[i * o->stride] = ((const float *)vals)[i];
  } else if (o->convert && o->stride == 1) {
    o->convert((void *)o->p, vals, n);
  } else {
    store_generic(o, ct, vals, n);
  }
}

