/* The backend registry: device kind -> backend table. CUDA joins when its
 * backend is built. */
#include "dispatch.h"

#include "error.h"

const lt__backend *lt__backend_table(lt_device_kind kind) {
  switch (kind) {
  case LT_CPU: return &lt__cpu_backend;
  default: return NULL;
  }
}

const lt__backend *lt__backend_for(lt_device dev, const char *op) {
  const lt__backend *b = lt__backend_table(dev.kind);
  if (!b)
    return lt__fail_null(LT_ERR_DEVICE, "%s: no backend for device kind %d in this build%s", op,
                         (int)dev.kind,
                         dev.kind == LT_CUDA ? " (built without CUDA: configure with -Dcuda=enabled)" : "");
  if (!b->available(dev.index))
    return lt__fail_null(LT_ERR_DEVICE, "%s: device %s:%d is not available", op, b->name, dev.index);
  return b;
}

LT_API bool lt_device_available(lt_device dev) {
  const lt__backend *b = lt__backend_table(dev.kind);
  return b && b->available(dev.index);
}
