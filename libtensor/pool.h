/* Internal: the library's small thread pool. Kernels split large work into
 * ranges; the calling thread takes a share, so a pool of n threads has
 * n - 1 workers. Small work runs inline and costs no synchronisation. */
#ifndef LT_POOL_H
#define LT_POOL_H

#include <stdbool.h>
#include <stdint.h>

/* Calls fn(ctx, begin, end) over disjoint ranges covering [0, n), in
 * parallel when `work` (an estimate in bytes touched) is large enough to
 * pay for it. fn must not fail and must not call back into the pool. */
void lt__parallel_for(int64_t n, int64_t work, void (*fn)(void *ctx, int64_t begin, int64_t end), void *ctx);

/* What a worker does on a job whose caller runs on its CPU (pool.c has
 * the figures): lt__move_off_cpu leaves cpu out of the calling thread's
 * affinity, which moves the thread at once, and returns whether it did
 * (not where cpu is the only CPU the thread may run on, nor twice
 * without a return between, nor off Linux); lt__return_to_cpus gives the
 * thread back the set it had. */
bool lt__move_off_cpu(int cpu);
void lt__return_to_cpus(void);

#endif
