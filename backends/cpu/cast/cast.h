/* Internal: the CPU cast kernels between F32 and the narrow float formats
 * (F16, BF16, FP8 E4M3, FP8 E5M2), each on contiguous runs, in a portable
 * scalar version and AVX2/AVX-512 versions chosen at run time. Every
 * version is bit-identical to the scalar reference of libtensor/dtype.c. */
#ifndef LT_CAST_H
#define LT_CAST_H

#include <stdint.h>

#include "libtensor/copy.h"
#include "libtensor/types.h"

/* Converts n contiguous elements. dst and src need only their element
 * alignment. */
typedef void (*lt__cast_fn)(void *dst, const void *src, int64_t n);

/* Paths from slowest to fastest; a path may lack kernels (NULL entries),
 * and lt__cast_best then takes the next slower path that has one. */
typedef enum lt__cast_path {
  LT__CAST_SCALAR,
  LT__CAST_AVX2,
  LT__CAST_AVX512,
  LT__CAST_AVX512BF16, /* F32 -> BF16 only */
  LT__CAST_NPATHS
} lt__cast_path;

/* The kernel converting src to dst in mode on one path; NULL when the pair
 * has no kernel on that path or this CPU cannot run it (widening has
 * kernels for LT_CAST_DEFAULT only). */
lt__cast_fn lt__cast_kernel(lt_dtype dst, lt_dtype src, lt_cast_mode mode, lt__cast_path path);
/* The fastest kernel this CPU runs for the pair, or NULL (use the generic
 * element path). */
lt__cast_fn lt__cast_best(lt_dtype dst, lt_dtype src, lt_cast_mode mode);

/* One kernel table per path: [encode/decode][format][mode]. Formats are
 * indexed F16, BF16, E4M3, E5M2. */
typedef struct lt__cast_table {
  lt__cast_fn encode[4][2]; /* F32 -> format, per lt_cast_mode */
  lt__cast_fn decode[4];    /* format -> F32 */
} lt__cast_table;

extern const lt__cast_table lt__cast_scalar_table;
extern const lt__cast_table lt__cast_avx2_table;
extern const lt__cast_table lt__cast_avx512_table;
extern const lt__cast_table lt__cast_avx512bf16_table;

#endif
