/* Choosing a cast kernel: by dtype pair and mode, then by what this CPU
 * runs (detected once), preferring the latest instruction set that has
 * a kernel for the pair: AVX512_BF16, AVX-512, AVX2, scalar. */
#include <cpuid.h>

#include "cast.h"

/* F16C, which not every compiler's __builtin_cpu_supports names. */
static bool has_f16c(void) {
  unsigned a, b, c, d;
  return __get_cpuid(1, &a, &b, &c, &d) && (c & bit_F16C);
}

static int format_index(lt_dtype dt) {
  switch (dt) {
  case LT_F16: return 0;
  case LT_BF16: return 1;
  case LT_F8_E4M3: return 2;
  case LT_F8_E5M2: return 3;
  default: return -1;
  }
}

static bool path_runs(lt__cast_path path) {
  switch (path) {
  case LT__CAST_SCALAR: return true;
  case LT__CAST_AVX2: return __builtin_cpu_supports("avx2") && has_f16c();
  case LT__CAST_AVX512:
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
  case LT__CAST_AVX512BF16: return path_runs(LT__CAST_AVX512) && __builtin_cpu_supports("avx512bf16");
  default: return false;
  }
}

static const lt__cast_table *table_of(lt__cast_path path) {
  static const lt__cast_table *const tables[LT__CAST_NPATHS] = {
      &lt__cast_scalar_table, &lt__cast_avx2_table, &lt__cast_avx512_table, &lt__cast_avx512bf16_table};
  return tables[path];
}

lt__cast_fn lt__cast_kernel(lt_dtype dst, lt_dtype src, lt_cast_mode mode, lt__cast_path path) {
  if ((unsigned)path >= LT__CAST_NPATHS || !path_runs(path) || (unsigned)mode > LT_CAST_SATURATE) return NULL;
  const lt__cast_table *t = table_of(path);
  if (src == LT_F32 && format_index(dst) >= 0) return t->encode[format_index(dst)][mode];
  /* Widening kernels keep inf; saturating it to FLT_MAX is the generic
   * path's job (a mode nobody needs fast when widening). */
  if (dst == LT_F32 && format_index(src) >= 0 && mode == LT_CAST_DEFAULT) return t->decode[format_index(src)];
  return NULL;
}

lt__cast_fn lt__cast_best(lt_dtype dst, lt_dtype src, lt_cast_mode mode) {
  for (int p = LT__CAST_NPATHS - 1; p >= 0; p--) {
    lt__cast_fn f = lt__cast_kernel(dst, src, mode, (lt__cast_path)p);
    if (f) return f;
  }
  return NULL;
}
