/* The group of a grouped transpose (grouped_transpose.c): which of the
 * copy's inner dims make its rows, how many indices of the dim outside
 * them a call takes, and where each row lies in the source. */
#include "dtype.h"
#include "grouped_plan.h"

/* Each destination row should get whole 128-byte pairs of lines per call:
 * streaming 3 lines (192 bytes) to each of 64 rows 8 MiB apart in turn
 * runs at 19 GB/s, 2 or 4 lines at 25. */
enum { PAIR_BYTES = 128 };

/* A copy that outgrows the caches reads each group row's source, where
 * the indices of dim outer lie back to back there, in runs of at least
 * RUN_BYTES per call, through a buffer of up to LONG_BUF_BYTES (in L2)
 * from the library's allocator: its rows are as many streams, and short
 * visits to many streams read slowly (bench_streams). BHTD (3,2,1,0) F32
 * at 512 MiB on Zen 4, one thread, same-run A/B, medians of 21: 512-byte
 * runs (32 KiB in L1) 0.72-0.79 of memcpy, 2 KiB runs (96 KiB) 0.83-0.88,
 * 1 KiB runs 0.78-0.79; 4 KiB runs level with 2 KiB, 8 KiB runs 0.70
 * and 16 KiB runs 0.47 (a bench_access run each), as 16 KiB runs were
 * slower on Zen 5. On a Xeon (AVX-512 with AMX), F32 wants short runs
 * instead (BHTD (3,2,1,0), bench_access, two runs each: 2 KiB 0.54, 1
 * KiB 0.58, 512 bytes 0.71-0.73, 256 0.72-0.76; two threads 0.56 ->
 * 0.74-0.76 at 512 bytes; at 64 MiB 0.97-0.98 -> 1.24-1.31), while bf16
 * there wants long ones (256 bytes 0.29, 1 KiB 0.36, 2 KiB 0.35-0.37, 4
 * KiB 0.37): RUN_BYTES_F32 for that case alone. Zen 5 agrees with the
 * Xeon (F32, two runs each: 2 KiB 0.56-0.58, 1 KiB 0.63-0.65, 512 bytes
 * 0.71, 128 to 256 bytes 0.69-0.72; 64 MiB 0.53 -> 0.59-0.65; two
 * threads 0.89-0.90 -> 0.90-0.94; bf16 2 KiB 0.47, 512 bytes 0.41-0.45;
 * u8 level), so every core takes it. */
enum { RUN_BYTES = 2048, RUN_BYTES_F32 = 512, LONG_BUF_BYTES = 131072 };

/* Indices of the dim outside a group of rows that a call takes so that
 * they fill whole pairs of lines (a power of two), within GROUP_MAX_ROWS
 * rows; 0 where none does. */
static int64_t pair_fill(int64_t rows, int64_t es) {
  for (int64_t q = 1; q * rows <= GROUP_MAX_ROWS; q *= 2)
    if (rows * q * es % PAIR_BYTES == 0) return q;
  return 0;
}

/* The group: the innermost dims, outward from the last, over which the
 * destination is dense, until they hold a tile's side of rows (t), or,
 * where the next dim out would take them past GROUP_MAX_ROWS, until that
 * dim: its calls then take a few of that dim's indices
 * (lt__group_take_outer), enough to fill whole pairs of lines (byte BHTD
 * (3,2,1,0): rows (H, B) are 48, T times that too many). Without such a
 * group these went to the tile kernels four rows at a time (Zen 4,
 * same-run ratio to memcpy, two runs in turn: bench_access --dtype u8 BHTD
 * (3,2,1,0) at 1 MiB 0.034-0.040 -> 0.175-0.180, at 512 MiB 0.036-0.038 ->
 * 0.23; (3,2,1,0) of [4, 3, T, 64] at 64 MiB, F32 0.33 -> 0.49-0.50, bf16
 * 0.28-0.34 -> 0.50-0.57). -1 where there is none: the inner dim is a tile
 * or more already (the tile kernels take it as it is), or the destination
 * is not dense that far. */
int lt__group_first(const lt__copy_args *a, int64_t t, int64_t *rows) {
  int in = a->ndim - 1, k = a->transpose_dim;
  if (a->shape[in] >= t) return -1;
  int64_t p = 1, es = (int64_t)lt__dtype_size(a->dst_dtype);
  for (int j = in; j > k; j--) {
    if (a->dst_strides[j] != p) return -1;
    if (p * a->shape[j] > GROUP_MAX_ROWS) {
      if (j == in || !pair_fill(p, es)) return -1;
      *rows = p;
      return j + 1;
    }
    p *= a->shape[j];
    if (p >= t) {
      *rows = p;
      return j;
    }
  }
  return -1;
}

/* A streamed copy whose destination's inner dim is one tile's side
 * (F32 (3,2,1,0) of [16, H, T, D]) goes to the tile kernels as slices of
 * a tile's rows, one destination line each. Taken with the dims outside
 * it over which the destination is dense, within GROUP_MAX_ROWS rows, it
 * is a group that pulls its blocks (see lt__grouped_transpose). F32
 * (3,2,1,0) at 512 MiB, same-run ratio to memcpy, tiles -> pulled group:
 * [16, 8, 16384, 64] 0.40-0.41 -> 0.52-0.53, [16, 16, 8192, 64] 0.41-0.42
 * -> 0.47-0.51, [16, 4, 32768, 64] 0.43 -> 0.72, [16, 2, 65536, 64] level
 * (0.74-0.75); bf16 [32, 8, 16384, 64] 0.22 -> 0.38 (bytes do not pull:
 * see pulls_blocks). Wider inner dims lose that way (F32 [32, 8, 8192,
 * 64] 0.47 -> 0.46, [64, 8, 4096, 64] 0.54 -> 0.41, 512^3 (2,1,0) 0.81
 * -> 0.50). Returns the group's first dim, or -1 where no dim joins the
 * inner one. */
int lt__tile_group_first(const lt__copy_args *a, int64_t t, int64_t *rows) {
  int in = a->ndim - 1, j = in, k = a->transpose_dim;
  if (a->shape[in] != t || a->dst_strides[in] != 1) return -1;
  int64_t p = t;
  while (j - 1 > k && a->dst_strides[j - 1] == p && p * a->shape[j - 1] <= GROUP_MAX_ROWS) p *= a->shape[--j];
  *rows = p;
  return j < in ? j : -1;
}

/* Where the dim just outside the group continues the destination's
 * dense run (and is not k), a call takes q of its indices: the fewest
 * that fill whole pairs of lines, within GROUP_MAX_ROWS rows; in a copy
 * that outgrows the caches (streamed), where those indices lie back to
 * back in the source, enough for runs of RUN_BYTES (or
 * RUN_BYTES_F32), within LONG_BUF_BYTES of buffer. */
void lt__group_take_outer(lt__group_plan *g, bool streamed) {
  const lt__copy_args *a = g->a;
  int o = g->first - 1;
  g->outer = -1, g->q = g->q_lines = 1, g->long_bytes = 0;
  if (o < 0 || o == g->k || a->dst_strides[o] != g->rows) return;
  g->outer = o;
  int64_t q = pair_fill(g->rows, (int64_t)g->es), es = (int64_t)g->es, t = 64 / es;
  g->q = g->q_lines = q ? q : 1;
  if (!streamed || a->src_strides[o] != a->shape[g->k]) return;
  /* A row's run per index of dim outer, and its bytes in the buffer, in whole tiles. */
  int64_t run = a->shape[g->k] * es, row_bytes = (a->shape[g->k] + t - 1) / t * t * es;
  int64_t enough = es == 4 ? RUN_BYTES_F32 : RUN_BYTES;
  while (g->q * run < enough && g->q < a->shape[o] && 2 * g->q * g->rows <= GROUP_MAX_ROWS &&
         2 * g->q * g->rows * row_bytes <= LONG_BUF_BYTES)
    g->q *= 2;
  if (g->q > g->q_lines) g->long_bytes = (size_t)(g->q * g->rows * row_bytes);
}

/* Every row's source offset: an odometer over the group's dims, then the
 * same rows again for each further index of dim outer. */
void lt__group_fill_row_offsets(lt__group_plan *g) {
  const lt__copy_args *a = g->a;
  int64_t idx[LT_MAX_DIMS] = {0}, off = 0;
  for (int64_t r = 0; r < g->rows; r++) {
    g->row_at[r] = off;
    for (int d = a->ndim - 1; d >= g->first; d--) {
      off += a->src_strides[d] * (int64_t)g->es;
      if (++idx[d] < a->shape[d]) break;
      off -= a->src_strides[d] * (int64_t)g->es * a->shape[d];
      idx[d] = 0;
    }
  }
  for (int64_t i = 1; i < g->q; i++)
    for (int64_t r = 0; r < g->rows; r++)
      g->row_at[i * g->rows + r] = g->row_at[r] + i * a->src_strides[g->outer] * (int64_t)g->es;
}
