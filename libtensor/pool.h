/* Internal: the library's small thread pool. Kernels split large work into
 * ranges; the calling thread takes a share, so a pool of n threads has
 * n - 1 workers. Small work runs inline and costs no synchronisation. */
#ifndef LT_POOL_H
#define LT_POOL_H

#include <stdint.h>

/* Calls fn(ctx, begin, end) over disjoint ranges covering [0, n), in
 * parallel when `work` (an estimate in bytes touched) is large enough to
 * pay for it. fn must not fail and must not call back into the pool. */
void lt__parallel_for(int64_t n, int64_t work, void (*fn)(void *ctx, int64_t begin, int64_t end), void *ctx);

#endif
