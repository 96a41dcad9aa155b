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
  void (*deleter)(void *ctx);
  void *ctx;
} lt__storage;

/* New storage of nbytes on dev (refs 1), or NULL with the error set. */
lt__storage *lt__storage_new(lt_device dev, size_t nbytes, const char *op);
/* Storage over caller memory (refs 1); deleter(ctx) runs at the end. */
lt__storage *lt__storage_wrap(char *data, size_t nbytes, lt_device dev,
                              void (*deleter)(void *), void *ctx, const char *op);
void lt__storage_retain(lt__storage *s);
void lt__storage_release(lt__storage *s);

#endif
