/* Choosing a transpose kernel: by element size, then by what this CPU
 * runs, preferring AVX-512 (with VBMI, then without) over AVX2 over
 * scalar. */
#include <stdbool.h>

#include "transpose.h"

static bool path_runs(lt__transpose_path path) {
  switch (path) {
  case LT__TRANSPOSE_SCALAR: return true;
  case LT__TRANSPOSE_AVX2: return __builtin_cpu_supports("avx2");
  case LT__TRANSPOSE_AVX512:
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
  case LT__TRANSPOSE_AVX512VBMI: return path_runs(LT__TRANSPOSE_AVX512) && __builtin_cpu_supports("avx512vbmi");
  default: return false;
  }
}

static int size_index(size_t es) {
  switch (es) {
  case 1: return 0;
  case 2: return 1;
  case 4: return 2;
  case 8: return 3;
  default: return -1;
  }
}

/* The kernel for es on path from one table per path, or NULL where the
 * path or size has none or this CPU cannot run the path. */
static lt__transpose_fn kernel_from(const lt__transpose_fn *const tables[LT__TRANSPOSE_NPATHS], size_t es,
                                    lt__transpose_path path) {
  if ((unsigned)path >= LT__TRANSPOSE_NPATHS || size_index(es) < 0 || !path_runs(path)) return NULL;
  return tables[path][size_index(es)];
}

lt__transpose_fn lt__transpose_kernel(size_t es, lt__transpose_path path) {
  static const lt__transpose_fn *const tables[LT__TRANSPOSE_NPATHS] = {
      lt__transpose_scalar_table, lt__transpose_avx2_table, lt__transpose_avx512_table,
      lt__transpose_avx512vbmi_table};
  return kernel_from(tables, es, path);
}

lt__transpose_fn lt__transpose_best(size_t es) {
  for (int p = LT__TRANSPOSE_NPATHS - 1; p >= 0; p--) {
    lt__transpose_fn f = lt__transpose_kernel(es, (lt__transpose_path)p);
    if (f) return f;
  }
  return NULL;
}

lt__transpose_fn lt__transpose_streamed_kernel(size_t es, lt__transpose_path path) {
  static const lt__transpose_fn *const tables[LT__TRANSPOSE_NPATHS] = {
      lt__transpose_scalar_streamed_table, lt__transpose_avx2_streamed_table, lt__transpose_avx512_streamed_table,
      lt__transpose_avx512vbmi_streamed_table};
  return kernel_from(tables, es, path);
}

lt__transpose_fn lt__transpose_best_streamed(size_t es) {
  for (int p = LT__TRANSPOSE_NPATHS - 1; p >= 0; p--) {
    lt__transpose_fn f = lt__transpose_streamed_kernel(es, (lt__transpose_path)p);
    if (f) return f;
  }
  return NULL;
}

/* Whether this CPU runs the kernels that read rows where they lie, for
 * es-byte elements: AVX-512, with VBMI for bytes; none for 8 bytes. */
static bool rows_kernels_run(size_t es) {
  if (es != 1 && es != 2 && es != 4) return false;
  return path_runs(es == 1 ? LT__TRANSPOSE_AVX512VBMI : LT__TRANSPOSE_AVX512);
}

lt__transpose_rows_fn lt__transpose_rows_kernel(size_t es) {
  if (!rows_kernels_run(es)) return NULL;
  if (es == 1) return lt__transpose_rows_avx512vbmi_u8;
  return es == 4 ? lt__transpose_rows_avx512_f32 : lt__transpose_rows_avx512_f16;
}

lt__transpose_rows_fn lt__transpose_rows_streamed_kernel(size_t es) {
  if (!rows_kernels_run(es)) return NULL;
  if (es == 1) return lt__transpose_rows_streamed_avx512vbmi_u8;
  return es == 4 ? lt__transpose_rows_streamed_avx512_f32 : lt__transpose_rows_streamed_avx512_f16;
}

lt__transpose_rows_seamed_fn lt__transpose_rows_seamed_kernel(size_t es) {
  if (!rows_kernels_run(es)) return NULL;
  if (es == 1) return lt__transpose_rows_seamed_avx512vbmi_u8;
  return es == 4 ? lt__transpose_rows_seamed_avx512_f32 : lt__transpose_rows_seamed_avx512_f16;
}

lt__transpose_seamed_fn lt__transpose_seamed_kernel(size_t es) {
  if (es != 1 && es != 2 && es != 4) return NULL;
  if (path_runs(LT__TRANSPOSE_AVX512VBMI)) return lt__transpose_avx512vbmi_seamed_table[size_index(es)];
  return path_runs(LT__TRANSPOSE_AVX512) ? lt__transpose_avx512_seamed_table[size_index(es)] : NULL;
}

lt__transpose_side_fn lt__transpose_side_kernel(size_t es) {
  if (size_index(es) < 0) return NULL;
  if (path_runs(LT__TRANSPOSE_AVX512VBMI)) return lt__transpose_avx512vbmi_side_table[size_index(es)];
  return path_runs(LT__TRANSPOSE_AVX512) ? lt__transpose_avx512_side_table[size_index(es)] : NULL;
}

lt__transpose_fn lt__transpose_lagged_kernel(size_t es) {
  return es == 4 && path_runs(LT__TRANSPOSE_AVX512) ? lt__transpose_avx512_lagged4 : NULL;
}
