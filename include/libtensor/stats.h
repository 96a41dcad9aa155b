/* libtensor: accounting (bytes held, copies made, FLOPs), copy policy, and
 * the replaceable allocator. */
#ifndef LIBTENSOR_STATS_H
#define LIBTENSOR_STATS_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lt_stats {
  int64_t bytes_in_use;    /* storage bytes allocated by the library, live now */
  int64_t peak_bytes;      /* high-water mark since the last reset */
  int64_t allocs;          /* storage allocations */
  int64_t copies;          /* materialising copies (contiguous, clone, reshape/flatten/
                              rearrange fallbacks, copy, cast) */
  int64_t implicit_copies; /* the subset the caller did not spell out: reshape, flatten,
                              rearrange and repeat that had to copy */
  int64_t bytes_copied;    /* bytes written by those copies */
  int64_t flops;           /* floating-point operations done by compute ops (matmul: 2mnk) */
} lt_stats;

/* Counters of one device, process-wide (all threads). Updated atomically;
 * a snapshot taken while other threads work is per-field consistent only.
 * An unknown device gives all zeros and LT_ERR_DEVICE. */
LT_API lt_stats lt_stats_get(lt_device dev);
/* Zeroes the counters; peak_bytes becomes bytes_in_use. */
LT_API void lt_stats_reset(lt_device dev);

/* LT_COPY_FORBID makes implicit copies (lt_reshape, lt_flatten, ...) fail
 * with LT_ERR_NOT_VIEWABLE instead of copying. Explicit copies are not
 * affected. Per thread; returns the previous policy. */
typedef enum lt_copy_policy { LT_COPY_ALLOW = 0, LT_COPY_FORBID = 1 } lt_copy_policy;
LT_API lt_copy_policy lt_set_copy_policy(lt_copy_policy p);

/* Copy tracing: with LT_TRACE=copies in the environment (read once, at the
 * first copy), or after lt_set_trace(true), every materialising copy prints
 * one line to stderr: the operation, explicit or implicit, the bytes, and
 * why a view was impossible. Returns the previous setting; process-wide. */
LT_API bool lt_set_trace(bool on);

/* Every heap allocation the library makes (tensor handles, host storage)
 * goes through this allocator, so an embedder can route memory and a test
 * can make the Nth allocation fail. alloc returns memory aligned to
 * `align` (a power of two) or NULL; free receives the size and alignment
 * given to alloc. Set it before any tensor exists, or only swap between
 * allocators that can free each other's memory; NULL restores the default
 * (aligned malloc). Not thread-safe against concurrent allocation. */
typedef struct lt_allocator {
  void *(*alloc)(size_t size, size_t align, void *ctx);
  void (*free)(void *ptr, size_t size, size_t align, void *ctx);
  void *ctx;
} lt_allocator;
LT_API void lt_set_allocator(const lt_allocator *a);

#ifdef __cplusplus
}
#endif
#endif
