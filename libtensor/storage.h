/* Internal: refcounted storage on one device. Views share one storage;
 * it is freed (or its deleter runs) when the last tensor over it goes. */
#ifndef LT_STORAGE_H
#define LT_STORAGE_H

#include <stdatomic.h>
#include <stddef.h>

#include "libtensor/types.h"

typedef struct lt__storage {
  atomic_long refs;
  char *data;         /* base address; NULL when nbytes is 0 */
  size_t nbytes;
  lt_device device;
  bool owned;         /* allocated by a backend: counted in lt_stats */
  bool readonly;      /* e.g. a read-only file mapping: writers refuse it */
  void (*deleter)(void *ctx);
  void *ctx;
} lt__storage;

/* New storage of nbytes on dev (refs 1), or NULL with the error set. */
lt__storage *lt__storage_new(lt_device dev, size_t nbytes, const char *op);
/* Storage over caller memory (refs 1); deleter(ctx) runs at the end. */
lt__storage *lt__storage_wrap(char *data, size_t nbytes, lt_device dev,
                              void (*deleter)(void *), void *ctx, const char *op);
/* As lt__storage_wrap, for memory the library must never write (a
 * PROT_READ file mapping, a DLPack tensor flagged read-only). */
lt__storage *lt__storage_wrap_readonly(char *data, size_t nbytes, lt_device dev,
                                       void (*deleter)(void *), void *ctx, const char *op);
void lt__storage_retain(lt__storage *s);
void lt__storage_release(lt__storage *s);

/* Every op that writes into a caller's tensor calls this first: LT_OK, or
 * LT_ERR_ARG with the error set (naming op) when t's storage is read-only.
 * It checks only that; overlap.h's lt__check_writable checks aliasing. */
lt_status lt__check_mutable(const lt_tensor *t, const char *op);

#endif
