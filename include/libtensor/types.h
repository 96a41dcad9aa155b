/* libtensor: basic types shared by every part of the public API
 * (dtypes, devices, status codes, the opaque tensor handle). */
#ifndef LIBTENSOR_TYPES_H
#define LIBTENSOR_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most dims a tensor may have. */
#define LT_MAX_DIMS 16

/* "Omitted" start or stop in lt_slice, like Python's None. */
#define LT_NONE INT64_MIN

typedef enum lt_dtype {
  LT_F32, LT_F16, LT_BF16, LT_F8_E4M3, LT_F8_E5M2, /* required */
  LT_F64, LT_I32, LT_I64, LT_U8, LT_BOOL           /* also supported */
} lt_dtype;

/* Number of dtypes; valid dtypes are 0 .. LT_NUM_DTYPES-1. */
#define LT_NUM_DTYPES 10

/* Bytes per element; 0 (and LT_ERR_ARG) for an invalid dtype. Thread-safe. */
LT_API size_t lt_dtype_size(lt_dtype dt);
/* "f32", "f16", "bf16", "f8_e4m3", "f8_e5m2", "f64", "i32", "i64", "u8",
 * "bool"; "invalid" for anything else. Static storage, never NULL. */
LT_API const char *lt_dtype_name(lt_dtype dt);

typedef enum lt_device_kind { LT_CPU = 0, LT_CUDA = 1 } lt_device_kind;
typedef struct lt_device { lt_device_kind kind; int index; } lt_device;
#define LT_HOST ((lt_device){LT_CPU, 0})

/* True when dev names a backend that was built and a device that answers.
 * LT_CPU index 0 is always available. */
LT_API bool lt_device_available(lt_device dev);

typedef enum lt_status {
  LT_OK = 0,
  LT_ERR_ARG,          /* bad argument: NULL, dim out of range, bad permutation, bad index */
  LT_ERR_SHAPE,        /* numel mismatch, not broadcastable, wrong number of dims */
  LT_ERR_NOT_VIEWABLE, /* a view op cannot express the result without copying */
  LT_ERR_PATTERN,      /* rearrange/repeat/reduce pattern is malformed or inconsistent */
  LT_ERR_DTYPE,        /* dtype not supported by this operation */
  LT_ERR_DEVICE,       /* backend not built / no device / tensors on different devices */
  LT_ERR_NOMEM,        /* allocation failed, or a size computation would overflow */
  LT_ERR_IO,           /* file missing, unreadable or malformed */
  LT_ERR_OVERLAP       /* a write into a tensor whose elements alias (e.g. expanded) */
} lt_status;

/* The status of the last call on this thread that can fail; LT_OK when it
 * succeeded. Thread-local, so threads never see each other's errors. */
LT_API lt_status lt_last_status(void);
/* A message for the last failure on this thread: it names the operation,
 * the shapes/strides/dims involved and, where there is one, the fix.
 * "" when the last call succeeded; never NULL. Valid until the next call
 * into the library on this thread. */
LT_API const char *lt_last_error(void);
/* "LT_OK", "LT_ERR_SHAPE", ...; "LT_ERR_UNKNOWN" for other values. */
LT_API const char *lt_status_str(lt_status s);

/* The tensor handle: dtype, shape, element strides and storage offset over
 * refcounted storage. Opaque; see tensor.h. */
typedef struct lt_tensor lt_tensor;

#ifdef __cplusplus
}
#endif
#endif
