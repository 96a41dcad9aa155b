/* The backend registry: device kind -> backend table. CUDA joins when its
 * backend is built (LT_HAVE_CUDA). */
#include "dispatch.h"

#include "error.h"

const lt__backend *lt__backend_table(lt_device_kind kind) {
  switch (kind) {
  case LT_CPU: return &lt__cpu_backend;
#ifdef LT_HAVE_CUDA
  case LT_CUDA: return &lt__cuda_backend;
#endif
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
    return lt__fail_null(LT_ERR_DEVICE, "%s: device %s:%d is not available%s", op, b->name, dev.index,
                         dev.kind == LT_CUDA ? " (no CUDA driver or GPU answers with that index on this machine)"
                                             : "");
  return b;
}

LT_API bool lt_device_available(lt_device dev) {
  const lt__backend *b = lt__backend_table(dev.kind);
  return b && b->available(dev.index);
}
