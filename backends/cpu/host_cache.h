/* Internal: the caching allocator behind host storage. A first write to
 * freshly mapped pages runs at a fraction of memory bandwidth, so freed
 * blocks wait in per-size-class free lists for the next request of their
 * class instead of going back to the allocator. Blocks come from and go
 * back to lt__alloc/lt__free, so an lt_allocator sees every block the
 * cache holds. The public side (lt_empty_cache, lt_cached_bytes,
 * lt_set_cache_limit) is declared in libtensor/stats.h. */
#ifndef LT_HOST_CACHE_H
#define LT_HOST_CACHE_H

#include <stddef.h>

/* The size a request of nbytes is rounded up to: a multiple of 64 up to
 * 256 bytes, above that the next of 2^k * {5/4, 6/4, 7/4, 8/4} (at most a
 * quarter wasted, and untouched pages of a large block cost no physical
 * memory). 0 counts as 1. Returns 0 for requests no class holds (above
 * half the address space), which fail. Pure; the same nbytes always gives
 * the same size, so a block's size is known again when it is freed. */
size_t lt__host_cache_class_size(size_t nbytes);

/* A block of lt__host_cache_class_size(nbytes) bytes aligned to
 * LT__STORAGE_ALIGN: the most recently freed block of that class when the
 * cache has one (no allocator call, cannot fail), else from lt__alloc.
 * NULL when out of memory. Contents are unspecified. Thread-safe. */
void *lt__host_cache_alloc(size_t nbytes);

/* Gives back p from lt__host_cache_alloc(nbytes), with the same nbytes.
 * The block is cached when its class size is at most a quarter of the
 * limit (evicting the least recently freed blocks to stay within it), and
 * goes to lt__free otherwise. Thread-safe. */
void lt__host_cache_free(void *p, size_t nbytes);

#endif
