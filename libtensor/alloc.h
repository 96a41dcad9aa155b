/* Internal: every heap allocation of the library goes through here, so
 * the embedder's lt_allocator (and the tests' failure injection) sees it. */
#ifndef LT_ALLOC_H
#define LT_ALLOC_H

#include <stddef.h>

/* Alignment of host storage: a cache line, which also suits AVX-512. */
#define LT__STORAGE_ALIGN 64

void *lt__alloc(size_t size, size_t align);
void lt__free(void *p, size_t size, size_t align);

#endif
