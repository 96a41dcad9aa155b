/* libtensor: accounting (bytes held, copies made, FLOPs), copy policy, the
 * replaceable allocator and the host cache in front of it. */
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
 * (aligned malloc). It first empties the host cache (below), so cached
 * blocks go back to the allocator that gave them. Not thread-safe against
 * concurrent allocation. */
typedef struct lt_allocator {
  void *(*alloc)(size_t size, size_t align, void *ctx);
  void (*free)(void *ptr, size_t size, size_t align, void *ctx);
  void *ctx;
} lt_allocator;
LT_API void lt_set_allocator(const lt_allocator *a);

/* The host cache. A first write to freshly mapped memory runs at a
 * fraction of memory bandwidth, so released host storage is not handed
 * straight back to the allocator: it waits, up to a bound, for the next
 * allocation of its size class (sizes rounded up to a multiple of 64 bytes
 * up to 256, then to 2^k times 5/4, 6/4, 7/4 or 2), which then makes no
 * allocator call. Cached blocks are still held from the allocator above,
 * and are not in lt_stats' bytes_in_use (storage live in tensors); allocs
 * counts every storage allocation, served from the cache or not. At exit
 * they are merely "still reachable"; lt_empty_cache hands them back. */

/* Returns every cached host block to the allocator. Storage in use is not
 * affected. Thread-safe. */
LT_API void lt_empty_cache(void);
/* Bytes dev's cache holds (block sizes after rounding): for the host, the
 * cache above; 0 for a CUDA device, which has none. An unknown device gives
 * 0 and LT_ERR_DEVICE. Thread-safe. */
LT_API int64_t lt_cached_bytes(lt_device dev);
/* Bounds the bytes the host cache may hold, evicting the least recently
 * released blocks down to it, and returns the previous bound. 0 disables
 * caching. A block over a quarter of the bound is never cached, so one
 * large tensor cannot flush the rest. The default bound is an eighth of
 * physical memory, at least 256 MiB, or LT_CACHE_LIMIT (a byte count) from
 * the environment, read when the cache is first used. Process-wide;
 * thread-safe. */
LT_API size_t lt_set_cache_limit(size_t bytes);

#ifdef __cplusplus
}
#endif
#endif
