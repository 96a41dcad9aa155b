/* The CPU backend's table: host memory through the caching allocator (in
 * front of the library allocator) and the strided-copy kernel. */
#include <string.h>

#include "cpu_kernels.h"
#include "dispatch.h"
#include "host_cache.h"

static bool cpu_available(int index) { return index == 0; }

static void *cpu_alloc(int index, size_t nbytes) {
  (void)index;
  return lt__host_cache_alloc(nbytes);
}

static void cpu_free(int index, void *p, size_t nbytes) {
  (void)index;
  lt__host_cache_free(p, nbytes);
}

static void cpu_fill_zero(int index, void *p, size_t nbytes) {
  (void)index;
  memset(p, 0, nbytes);
}

const lt__backend lt__cpu_backend = {
    .name = "cpu",
    .available = cpu_available,
    .alloc = cpu_alloc,
    .free = cpu_free,
    .fill_zero = cpu_fill_zero,
    .copy = lt__cpu_copy,
    .reduce = lt__cpu_reduce,
    .matmul = lt__cpu_matmul,
    .elementwise = lt__cpu_elementwise,
    .reduce_dims = lt__cpu_reduce_dims,
    .softmax = lt__cpu_softmax,
};
