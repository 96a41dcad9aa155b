/* Launch geometry shared by the kernels: blocks of 256 threads and
 * grid-stride loops, so a grid never needs more blocks than this cap. */
#ifndef LT_CUDA_LAUNCH_CUH
#define LT_CUDA_LAUNCH_CUH

#define LT__CUDA_THREADS 256
#define LT__CUDA_MAX_BLOCKS (1u << 20)

/* Blocks for n elements, one per thread, capped (grid-stride loops do
 * the rest); at least one. */
static inline unsigned lt__cuda_blocks(long long n) {
  long long b = (n + LT__CUDA_THREADS - 1) / LT__CUDA_THREADS;
  if (b < 1) b = 1;
  return b > (long long)LT__CUDA_MAX_BLOCKS ? LT__CUDA_MAX_BLOCKS : (unsigned)b;
}

#endif
