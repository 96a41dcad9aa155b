/* Internal: the CUDA backend's parts, shared by its host code (C) and its
 * kernels (.cu, C++). All work goes to the legacy default stream of the
 * device that owns the destination, so operations are ordered with each
 * other and with the synchronous copies lt_read and lt_write make. */
#ifndef LT_CUDA_BACKEND_H
#define LT_CUDA_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "dispatch.h"

/* Never exported from the shared library, whatever the compiler's flags. */
#define LT__CUDA_HIDDEN __attribute__((visibility("hidden")))

/* ---- devices (cuda_device.c) ---- */

/* Devices that answer; 0 without a driver or a GPU (any error counts as
 * none). Computed once, thread-safe. */
LT__CUDA_HIDDEN int lt__cuda_device_count(void);
/* Makes `index` this thread's current device, remembering the previous one
 * in *prev for lt__cuda_leave. LT_OK, or LT_ERR_DEVICE set naming op. */
LT__CUDA_HIDDEN lt_status lt__cuda_enter(int index, int *prev, const char *op);
/* As lt__cuda_enter, for the device that owns device pointer p. */
LT__CUDA_HIDDEN lt_status lt__cuda_enter_ptr(const void *p, int *prev, const char *op);
/* Restores the thread's current device. */
LT__CUDA_HIDDEN void lt__cuda_leave(int prev);
/* Sets LT_ERR_DEVICE with the CUDA error's name and text ("op: what:
 * cudaErrorX: text") and returns LT_ERR_DEVICE; err is a cudaError_t. */
LT__CUDA_HIDDEN lt_status lt__cuda_fail(int err, const char *op, const char *what);
/* Compute capability of device index as major*10+minor; 0 when unknown. */
LT__CUDA_HIDDEN int lt__cuda_capability(int index);

/* ---- the caching allocator (cuda_cache.c) ---- */

/* A block of at least nbytes on device index (the current device must be
 * index): a cached one of its size class, else cudaMalloc (which, when it
 * fails, first returns this device's cached blocks to the driver and
 * tries again). NULL when out of memory; sets no error. Thread-safe. */
LT__CUDA_HIDDEN void *lt__cuda_cache_alloc(int index, size_t nbytes);
/* Gives back p from lt__cuda_cache_alloc(index, nbytes), same nbytes. */
LT__CUDA_HIDDEN void lt__cuda_cache_free(int index, void *p, size_t nbytes);
/* Bytes the cache holds for device index (rounded block sizes). */
LT__CUDA_HIDDEN int64_t lt__cuda_cached_bytes(int index);
/* The size a request of nbytes is rounded up to (0 when too large). */
LT__CUDA_HIDDEN size_t lt__cuda_class_size(size_t nbytes);

/* Device scratch for one kernel call, from the cache; NULL with
 * LT_ERR_NOMEM set naming op. The current device must be index. */
LT__CUDA_HIDDEN void *lt__cuda_scratch(int index, size_t nbytes, const char *op);

/* ---- kernels (the dispatch entries) ---- */

LT__CUDA_HIDDEN lt_status lt__cuda_copy(const lt__copy_args *a);
LT__CUDA_HIDDEN lt_status lt__cuda_elementwise(const lt__ew_args *a);
LT__CUDA_HIDDEN lt_status lt__cuda_reduce_dims(const lt__red_args *a);
LT__CUDA_HIDDEN lt_status lt__cuda_reduce(const lt__reduce_args *a);
LT__CUDA_HIDDEN lt_status lt__cuda_softmax(const lt__softmax_args *a);
LT__CUDA_HIDDEN lt_status lt__cuda_matmul(const lt__matmul_args *a);

#ifdef __cplusplus
}
#endif

#endif
