/* Which streamed F32 transposes go in lagged bands (see
 * lt__tiled_transpose, tiled_transpose.c): bands of two strips of rows,
 * the second a little behind the first (lt__transpose_lagged_kernel). */
#include "lagged_bands.h"
#include "vendor.h"

/* Streamed F32 transposes whose source rows lie a multiple of
 * LAG_CROWD_BYTES apart put a strip's 16 rows, a line each, in the same
 * few sets of L2 (one set where they lie a multiple of 128 KiB apart, on
 * a 2 MiB 16-way L2), which the hardware prefetcher's lines for the
 * strip ahead then push out. On Intel cores such a transpose goes in
 * lagged bands of two strips, the second behind the first, so that the
 * two strips' lines fall in different sets at any moment. The first
 * lagged bands put the second strip a whole step behind (an outer index
 * of a batch whose rows run on, as banded_rows; a chunk of 2 KiB of a
 * single transpose's columns) and took the two strips' tiles in turn,
 * each destination row getting its two adjacent lines a step apart in
 * time. Xeon (AVX-512 with AMX, 2 MiB L2), F32, same-run ratio to
 * memcpy, a switch in one build, two to four runs each in turn, bands
 * of 512 bytes (or the whole transpose) -> those: bench_access (2,1,0)
 * at 512 MiB 0.39-0.43 -> 0.84-0.90, two threads 0.43 -> 0.90, 64 MiB
 * 0.48-0.57 -> 0.90-1.17; (1,2,0) (one transpose of 262144 x 512)
 * 0.42-0.45 -> 0.87-0.93, two threads 0.42 -> 0.90, 64 MiB 0.57-0.66 ->
 * 1.05-1.38; --permute: (1,2,0) of [256, 512, 1024] 0.36 -> 0.73, the
 * 2-D transpose of [2048, 32768] 0.39 -> 0.80, of [4096, 16384] 0.73 ->
 * 0.80, (2,1,0) of [1024, 64, 256] 1.01 -> 1.22, of [2048, 32, 256]
 * (rows 32 KiB apart) 1.10 -> 1.45-1.57; 2-D transposes with rows 32 KiB
 * apart level ([8192, 8192], [16384, 8192]). The same lag through a
 * call per half reached 0.63-0.69 at 512 MiB (halves of two or four
 * strips 0.38-0.45): it is the strips' tiles taken in turn that keeps
 * each set to one strip's lines.
 *
 * Now a band is one call of the lagged kernel, its second strip a chunk
 * of 32 columns behind, the first strip's tiles staged so that each
 * destination row gets its two lines back to back
 * (transpose_avx512_lagged.h). On another Xeon (AVX-512 with AMX and
 * FP16, 2 MiB L2, slower memory), same-run ratio to memcpy, two runs
 * each in turn, a step behind -> a chunk behind and staged: bench_access
 * (2,1,0) at 512 MiB 0.66-0.67 -> 0.69-0.73, two threads 0.71-0.76 ->
 * 0.73-0.76, 64 MiB 1.32-1.45 -> 1.57-1.59; (1,2,0) at 512 MiB
 * 0.80 -> 0.88-0.90, two threads 0.81-0.85 -> 0.89-0.97, 64 MiB
 * 1.39-1.51 -> 1.50-1.58; --permute: (1,2,0) of [256, 512, 1024]
 * 0.79-0.84 -> 0.91, the 2-D transpose of [2048, 32768] 0.77 ->
 * 0.86-0.87, of [4096, 16384] 0.76 -> 0.87-0.88, of [8192, 8192] 0.75 ->
 * 0.87-0.88, (2,1,0) of [1024, 64, 256] 1.39-1.43 -> 1.42-1.50, of
 * [2048, 32, 256] 1.29-1.41 -> 1.44-1.54. Rows 16 KiB apart had gained
 * little or nothing from the lag ((2,1,0) of [4096, 16, 256] 1.30-1.37
 * -> 1.43-1.46 on the first Xeon, the 2-D [32768, 4096] level) and keep
 * their walk. bf16 measured mixed under the first lag ((1,2,0) at 64 MiB
 * 1.21 -> 0.89, at 512 0.55 -> 0.61; a 2-byte tile's 32 rows fill a set
 * alone) and F64 lost ((1,2,0) at 64 MiB 1.53 -> 0.98-1.22): both keep
 * their bands, and the kernel is F32's alone. */
enum { LAG_CROWD_BYTES = 32768 };

/* Every call of the band on lines on both sides, whole tiles along k:
 * what the lagged kernel takes, as measured. */
static bool lag_steps_on_lines(const lt__copy_args *a, int64_t es) {
  int in = a->ndim - 1, k = a->transpose_dim;
  if ((uintptr_t)a->dst % 64 != 0 || (uintptr_t)a->src % 64 != 0 || a->shape[k] % (64 / es) != 0) return false;
  for (int d = 0; d < a->ndim; d++)
    if ((d != in && a->dst_strides[d] * es % 64 != 0) || (d != k && a->src_strides[d] * es % 64 != 0)) return false;
  return true;
}

/* Whether a streamed transpose goes in lagged bands (above): a batch
 * that banded_rows bands (band: its answer), or a single transpose
 * (outer 1) of two strips' rows or more. */
bool lt__lagged_band(const lt__copy_args *a, int64_t es, int64_t outer, int64_t band) {
  int in = a->ndim - 1;
  if (es != 4 || !lt__intel_cores() || a->src_strides[in] * es % LAG_CROWD_BYTES != 0) return false;
  bool steps = outer == 1 ? a->shape[in] >= 2 * 64 / es : band < a->shape[in];
  return steps && lag_steps_on_lines(a, es);
}
