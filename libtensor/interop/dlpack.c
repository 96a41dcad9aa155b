/* DLPack: handing a tensor's memory to another framework and taking
 * theirs, without copies. The exporter keeps a reference to the tensor in
 * the managed struct's context; the importer wraps the producer's memory
 * in a storage whose deleter calls the producer's. dlpack/dlpack.h decides
 * what exists: bool from 0.8, the versioned struct from 1.0, float8 from
 * 1.1. */
#include <dlpack/dlpack.h>
#include <stdint.h>
#include <string.h>

#include "alloc.h"
#include "dtype.h"
#include "error.h"
#include "libtensor/interop.h"
#include "libtensor/tensor.h"
#include "tensor_impl.h"

#if defined(DLPACK_MAJOR_VERSION)
#define HAVE_DL_BOOL 1
#define HAVE_DL_VERSIONED (DLPACK_MAJOR_VERSION >= 1)
#define HAVE_DL_FLOAT8 (DLPACK_MAJOR_VERSION > 1 || (DLPACK_MAJOR_VERSION == 1 && DLPACK_MINOR_VERSION >= 1))
#else
#define HAVE_DL_BOOL (DLPACK_VERSION >= 80)
#define HAVE_DL_VERSIONED 0
#define HAVE_DL_FLOAT8 0
#endif

/* ---- dtypes and devices ------------------------------------------------------------ */

typedef struct dl_dtype_entry {
  lt_dtype lt;
  uint8_t code, bits;
} dl_dtype_entry;

static const dl_dtype_entry dl_dtypes[] = {
    {LT_F32, kDLFloat, 32}, {LT_F16, kDLFloat, 16}, {LT_F64, kDLFloat, 64}, {LT_BF16, kDLBfloat, 16},
    {LT_I32, kDLInt, 32},   {LT_I64, kDLInt, 64},   {LT_U8, kDLUInt, 8},
#if HAVE_DL_BOOL
    {LT_BOOL, kDLBool, 8},
#endif
#if HAVE_DL_FLOAT8
    {LT_F8_E4M3, kDLFloat8_e4m3fn, 8}, {LT_F8_E5M2, kDLFloat8_e5m2, 8},
#endif
};
#define NDL_DTYPES (sizeof dl_dtypes / sizeof dl_dtypes[0])

static const dl_dtype_entry *dtype_to_dl(lt_dtype dt) {
  for (size_t i = 0; i < NDL_DTYPES; i++)
    if (dl_dtypes[i].lt == dt) return &dl_dtypes[i];
  return NULL;
}

static bool dtype_from_dl(DLDataType d, lt_dtype *dt) {
  for (size_t i = 0; i < NDL_DTYPES; i++)
    if (dl_dtypes[i].code == d.code && dl_dtypes[i].bits == d.bits && d.lanes == 1) {
      *dt = dl_dtypes[i].lt;
      return true;
    }
  return false;
}

static bool device_to_dl(lt_device dev, DLDevice *out) {
  if (dev.kind == LT_CPU) *out = (DLDevice){kDLCPU, 0};
  else if (dev.kind == LT_CUDA) *out = (DLDevice){kDLCUDA, dev.index};
  else return false;
  return true;
}

static bool device_from_dl(DLDevice d, lt_device *out) {
  if (d.device_type == kDLCPU) *out = LT_HOST;
  else if (d.device_type == kDLCUDA) *out = (lt_device){LT_CUDA, d.device_id};
  else return false;
  return true;
}

/* ---- export -------------------------------------------------------------------------- */

/* The manager context: the struct handed out, its shape and strides, and
 * the reference that keeps the storage alive. */
typedef struct exported {
  DLManagedTensor managed;
#if HAVE_DL_VERSIONED
  DLManagedTensorVersioned versioned;
#endif
  int64_t shape[LT_MAX_DIMS], strides[LT_MAX_DIMS];
  lt_tensor *tensor;
} exported;

static void exported_free(exported *e) {
  lt_release(e->tensor);
  lt__free(e, sizeof *e, _Alignof(exported));
}

static void delete_managed(DLManagedTensor *m) { exported_free(m->manager_ctx); }

/* Fills a DLTensor for t inside a new context, or fails (NULL, error set). */
static exported *export_tensor(const lt_tensor *t, const char *op, DLTensor **out) {
  if (!lt__check_tensor(t, op)) return NULL;
  const dl_dtype_entry *d = dtype_to_dl(t->dtype);
  if (!d)
    return lt__fail_null(LT_ERR_DTYPE, "%s: this build's dlpack.h has no type code for %s", op,
                         lt_dtype_name(t->dtype));
  DLDevice dev;
  if (!device_to_dl(t->storage->device, &dev))
    return lt__fail_null(LT_ERR_DEVICE, "%s: device kind %d has no DLPack device type", op,
                         (int)t->storage->device.kind);
  exported *e = lt__alloc(sizeof *e, _Alignof(exported));
  if (!e) return lt__fail_null(LT_ERR_NOMEM, "%s: out of memory for the managed tensor", op);
  memset(e, 0, sizeof *e);
  memcpy(e->shape, t->layout.shape, sizeof e->shape);
  memcpy(e->strides, t->layout.strides, sizeof e->strides);
  e->tensor = lt_retain((lt_tensor *)t);
  DLTensor *dl = &e->managed.dl_tensor;
  *dl = (DLTensor){.data = lt__tensor_ptr(t), .device = dev, .ndim = t->layout.ndim,
                   .dtype = {.code = d->code, .bits = d->bits, .lanes = 1},
                   .shape = e->shape, .strides = e->strides, .byte_offset = 0};
  *out = dl;
  return e;
}

LT_API struct DLManagedTensor *lt_to_dlpack(const lt_tensor *t) {
  const char *op = "to_dlpack";
  if (t && t->storage->readonly)
    return lt__fail_null(LT_ERR_ARG, "%s: the tensor is read-only and unversioned DLPack cannot say so (the "
                                     "consumer might write); export lt_clone() of it", op);
  DLTensor *dl;
  exported *e = export_tensor(t, op, &dl);
  if (!e) return NULL;
  e->managed.manager_ctx = e;
  e->managed.deleter = delete_managed;
  lt__ok();
  return &e->managed;
}

/* ---- import -------------------------------------------------------------------------- */

typedef struct import_args {
  const DLTensor *dl;
  void (*release)(void *);
  void *ctx;
  bool readonly;
} import_args;

static void call_deleter(void *ctx) {
  DLManagedTensor *m = ctx;
  if (m->deleter) m->deleter(m);
}

static lt_tensor *import_tensor(const import_args *a, const char *op) {
  const DLTensor *dl = a->dl;
  lt_dtype dt;
  lt_device dev;
  if (!dtype_from_dl(dl->dtype, &dt))
    return lt__fail_null(LT_ERR_DTYPE, "%s: DLPack dtype (code %u, bits %u, lanes %u) has no libtensor dtype", op,
                         dl->dtype.code, dl->dtype.bits, dl->dtype.lanes);
  if (!device_from_dl(dl->device, &dev))
    return lt__fail_null(LT_ERR_DEVICE, "%s: DLPack device type %d is not one libtensor uses (CPU, CUDA)", op,
                         (int)dl->device.device_type);
  if (dl->ndim < 0 || dl->ndim > LT_MAX_DIMS)
    return lt__fail_null(LT_ERR_ARG, "%s: ndim %d is outside 0..%d", op, dl->ndim, LT_MAX_DIMS);
  char *data = dl->data ? (char *)dl->data + dl->byte_offset : NULL;
  if ((uintptr_t)data % lt__dtype_size(dt) != 0)
    return lt__fail_null(LT_ERR_ARG, "%s: data (with byte_offset %llu) is not aligned to %zu-byte %s elements", op,
                         (unsigned long long)dl->byte_offset, lt__dtype_size(dt), lt_dtype_name(dt));
  lt_tensor *t = lt_wrap(data, dt, dl->ndim, dl->shape, dl->strides, dev, a->release, a->ctx);
  if (!t) return NULL; /* lt_wrap said why; the caller keeps m */
  if (a->readonly) t->storage->readonly = true; /* a fresh storage: only t sees it */
  return t;
}

LT_API lt_tensor *lt_from_dlpack(struct DLManagedTensor *m) {
  const char *op = "from_dlpack";
  if (!m) return lt__fail_null(LT_ERR_ARG, "%s: the managed tensor is NULL", op);
  import_args a = {.dl = &m->dl_tensor, .release = call_deleter, .ctx = m};
  return import_tensor(&a, op);
}

/* ---- DLPack 1.x: the versioned struct ------------------------------------------------ */

#if HAVE_DL_VERSIONED
static void delete_versioned(DLManagedTensorVersioned *m) { exported_free(m->manager_ctx); }

LT_API struct DLManagedTensorVersioned *lt_to_dlpack_versioned(const lt_tensor *t) {
  DLTensor *dl;
  exported *e = export_tensor(t, "to_dlpack_versioned", &dl);
  if (!e) return NULL;
  e->versioned = (DLManagedTensorVersioned){
      .version = {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION}, .manager_ctx = e, .deleter = delete_versioned,
      .flags = t->storage->readonly ? DLPACK_FLAG_BITMASK_READ_ONLY : 0, .dl_tensor = *dl};
  lt__ok();
  return &e->versioned;
}

static void call_versioned_deleter(void *ctx) {
  DLManagedTensorVersioned *m = ctx;
  if (m->deleter) m->deleter(m);
}

LT_API lt_tensor *lt_from_dlpack_versioned(struct DLManagedTensorVersioned *m) {
  const char *op = "from_dlpack_versioned";
  if (!m) return lt__fail_null(LT_ERR_ARG, "%s: the managed tensor is NULL", op);
  if (m->version.major > DLPACK_MAJOR_VERSION)
    return lt__fail_null(LT_ERR_ARG, "%s: DLPack version %u.%u is newer than this build's %d.%d", op,
                         m->version.major, m->version.minor, DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION);
  import_args a = {.dl = &m->dl_tensor, .release = call_versioned_deleter, .ctx = m,
                   .readonly = (m->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0};
  return import_tensor(&a, op);
}
#else
LT_API struct DLManagedTensorVersioned *lt_to_dlpack_versioned(const lt_tensor *t) {
  (void)t;
  return lt__fail_null(LT_ERR_ARG, "to_dlpack_versioned: libtensor was built against dlpack.h %d.%d, which has no "
                                   "DLManagedTensorVersioned; use lt_to_dlpack", DLPACK_VERSION / 100,
                       DLPACK_VERSION % 100 / 10);
}

LT_API lt_tensor *lt_from_dlpack_versioned(struct DLManagedTensorVersioned *m) {
  (void)m;
  return lt__fail_null(LT_ERR_ARG, "from_dlpack_versioned: libtensor was built against dlpack.h %d.%d, which has "
                                   "no DLManagedTensorVersioned; use lt_from_dlpack", DLPACK_VERSION / 100,
                       DLPACK_VERSION % 100 / 10);
}
#endif
