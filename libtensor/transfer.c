/* Copies between devices: gather on the source's device, one raw transfer
 * through the device backend, scatter (and convert) on the destination's
 * device. Dense row-major sides in one dtype skip their staging, so
 * moving a contiguous tensor is a single transfer. */
#include "transfer.h"

#include <stdio.h>

#include "dispatch.h"
#include "dtype.h"
#include "error.h"
#include "layout.h"
#include "stats_impl.h"

/* True when strides are the row-major strides of shape (size-1 dims
 * ignored), so the elements fill one span in order. */
static bool dense_row_major(int ndim, const int64_t *shape, const int64_t *strides) {
  int64_t want = 1;
  for (int d = ndim - 1; d >= 0; d--) {
    if (shape[d] != 1 && strides[d] != want) return false;
    want *= shape[d];
  }
  return true;
}

typedef struct stage {
  lt_device dev;
  void *p;
  size_t bytes;
} stage;

static bool stage_alloc(stage *s, lt_device dev, size_t bytes, const char *op) {
  const lt__backend *b = lt__backend_table(dev.kind);
  *s = (stage){.dev = dev, .p = b->alloc(dev.index, bytes), .bytes = bytes};
  if (!s->p) lt__fail(LT_ERR_NOMEM, "%s: cannot allocate %zu bytes of staging on %s:%d", op, bytes, b->name, dev.index);
  return s->p != NULL;
}

static void stage_free(stage *s) {
  if (s->p) lt__backend_table(s->dev.kind)->free(s->dev.index, s->p, s->bytes);
}

/* The raw transfer, by the backend of whichever side is not the host; its
 * message is prefixed with the operation. */
static lt_status transfer(void *dst, lt_device dd, const void *src, lt_device sd, size_t bytes, const char *op) {
  lt_device dev = dd.kind != LT_CPU ? dd : sd;
  const lt__backend *b = lt__backend_table(dev.kind);
  if (!b->transfer)
    return lt__fail(LT_ERR_DEVICE, "%s: the %s backend cannot move data to or from another device", op, b->name);
  lt_status s = b->transfer(dst, dd, src, sd, bytes);
  if (s != LT_OK) {
    char why[512];
    snprintf(why, sizeof why, "%s", lt_last_error());
    return lt__fail(s, "%s: %s", op, why);
  }
  return LT_OK;
}

lt_status lt__copy_across(const lt__copy_request *r, lt_device src_device) {
  lt_device dst_device = r->device;
  if (!lt__backend_for(dst_device, r->op) || !lt__backend_for(src_device, r->op)) return lt_last_status();
  int64_t numel;
  lt__shape_numel(r->ndim, r->shape, &numel);
  lt_status s = LT_OK;
  stage gather = {.p = NULL}, scatter = {.p = NULL};
  if (numel > 0) {
    size_t bytes = (size_t)numel * lt__dtype_size(r->src_dtype);
    int64_t rowmajor[LT_MAX_DIMS];
    lt__contiguous_strides(r->ndim, r->shape, rowmajor);
    const char *from = r->src;
    if (!dense_row_major(r->ndim, r->shape, r->src_strides)) {
      if (!stage_alloc(&gather, src_device, bytes, r->op)) return LT_ERR_NOMEM;
      lt__copy_request g = {.device = src_device, .ndim = r->ndim, .shape = r->shape,
                            .dst = gather.p, .dst_dtype = r->src_dtype, .dst_strides = rowmajor,
                            .src = r->src, .src_dtype = r->src_dtype, .src_strides = r->src_strides,
                            .mode = r->mode, .op = r->op, .kind = LT__COPY_IO};
      s = lt__copy_run(&g);
      from = gather.p;
    }
    if (s == LT_OK && r->dst_dtype == r->src_dtype && dense_row_major(r->ndim, r->shape, r->dst_strides)) {
      s = transfer(r->dst, dst_device, from, src_device, bytes, r->op);
    } else if (s == LT_OK) {
      s = stage_alloc(&scatter, dst_device, bytes, r->op) ? LT_OK : LT_ERR_NOMEM;
      if (s == LT_OK) s = transfer(scatter.p, dst_device, from, src_device, bytes, r->op);
      lt__copy_request p = {.device = dst_device, .ndim = r->ndim, .shape = r->shape,
                            .dst = r->dst, .dst_dtype = r->dst_dtype, .dst_strides = r->dst_strides,
                            .src = scatter.p, .src_dtype = r->src_dtype, .src_strides = rowmajor,
                            .mode = r->mode, .op = r->op, .kind = LT__COPY_IO};
      if (s == LT_OK) s = lt__copy_run(&p);
    }
    stage_free(&gather);
    stage_free(&scatter);
    if (s != LT_OK) return s;
  }
  if (r->kind != LT__COPY_IO) {
    int64_t bytes = numel * (int64_t)lt__dtype_size(r->dst_dtype);
    lt__stats_copy(dst_device, bytes, r->kind == LT__COPY_IMPLICIT);
    lt__trace_copy(r, bytes);
  }
  return LT_OK;
}
