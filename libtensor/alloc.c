/* The replaceable allocator (as libuv's uv_replace_allocator): the default
 * is posix_memalign/free. */
#define _POSIX_C_SOURCE 200112L
#include "alloc.h"

#include <stdlib.h>

#include "libtensor/stats.h"

static void *default_alloc(size_t size, size_t align, void *ctx) {
  (void)ctx;
  void *p = NULL;
  if (align < sizeof(void *)) align = sizeof(void *);
  return posix_memalign(&p, align, size ? size : 1) == 0 ? p : NULL;
}

static void default_free(void *p, size_t size, size_t align, void *ctx) {
  (void)size, (void)align, (void)ctx;
  free(p);
}

static lt_allocator current = {default_alloc, default_free, NULL};

LT_API void lt_set_allocator(const lt_allocator *a) {
  lt_empty_cache(); /* cached blocks go back to the allocator that gave them */
  if (a && a->alloc && a->free) current = *a;
  else current = (lt_allocator){default_alloc, default_free, NULL};
}

void *lt__alloc(size_t size, size_t align) { return current.alloc(size, align, current.ctx); }

void lt__free(void *p, size_t size, size_t align) {
  if (p) current.free(p, size, align, current.ctx);
}
