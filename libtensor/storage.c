/* Refcounted storage: allocation through the device's backend, byte
 * accounting, and the wrapped-memory deleter. */
#include "storage.h"

#include "alloc.h"
#include "dispatch.h"
#include "error.h"
#include "stats_impl.h"
#include "tensor_impl.h"

static lt__storage *storage_struct(const char *op) {
  lt__storage *s = lt__alloc(sizeof *s, _Alignof(lt__storage));
  if (!s) return lt__fail_null(LT_ERR_NOMEM, "%s: out of memory for a storage record", op);
  return s;
}

lt__storage *lt__storage_new(lt_device dev, size_t nbytes, const char *op) {
  const lt__backend *b = lt__backend_for(dev, op);
  if (!b) return NULL;
  lt__storage *s = storage_struct(op);
  if (!s) return NULL;
  *s = (lt__storage){.data = NULL, .nbytes = nbytes, .device = dev, .owned = true};
  atomic_init(&s->refs, 1);
  if (nbytes > 0) {
    s->data = b->alloc(dev.index, nbytes);
    if (!s->data) {
      lt__free(s, sizeof *s, _Alignof(lt__storage));
      return lt__fail_null(LT_ERR_NOMEM, "%s: cannot allocate %zu bytes on %s:%d", op, nbytes,
                           b->name, dev.index);
    }
    lt__stats_alloc(dev, (int64_t)nbytes);
  }
  return s;
}

lt__storage *lt__storage_wrap(char *data, size_t nbytes, lt_device dev,
                              void (*deleter)(void *), void *ctx, const char *op) {
  lt__storage *s = storage_struct(op);
  if (!s) return NULL;
  *s = (lt__storage){.data = data, .nbytes = nbytes, .device = dev, .owned = false,
                     .deleter = deleter, .ctx = ctx};
  atomic_init(&s->refs, 1);
  return s;
}

lt__storage *lt__storage_wrap_readonly(char *data, size_t nbytes, lt_device dev,
                                       void (*deleter)(void *), void *ctx, const char *op) {
  lt__storage *s = lt__storage_wrap(data, nbytes, dev, deleter, ctx, op);
  if (s) s->readonly = true;
  return s;
}

lt_status lt__check_mutable(const lt_tensor *t, const char *op) {
  if (!t->storage->readonly) return LT_OK;
  char have[LT__TENSOR_BUF];
  return lt__fail(LT_ERR_ARG,
                  "%s: the destination %s is read-only (a view of a memory-mapped file or of read-only "
                  "foreign memory); write into lt_clone() of it",
                  op, lt__fmt_tensor(have, sizeof have, t));
}

void lt__storage_retain(lt__storage *s) { atomic_fetch_add_explicit(&s->refs, 1, memory_order_relaxed); }

void lt__storage_release(lt__storage *s) {
  if (!s || atomic_fetch_sub_explicit(&s->refs, 1, memory_order_acq_rel) != 1) return;
  if (s->owned && s->data) {
    /* The backend exists: the storage was allocated through it. */
    const lt__backend *b = lt__backend_table(s->device.kind);
    b->free(s->device.index, s->data, s->nbytes);
    lt__stats_free(s->device, (int64_t)s->nbytes);
  } else if (!s->owned && s->deleter) {
    s->deleter(s->ctx);
  }
  lt__free(s, sizeof *s, _Alignof(lt__storage));
}
