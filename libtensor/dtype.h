/* Internal: the dtype table and the scalar reference conversions. The
 * conversions work on integer bit patterns (no FPU rounding-mode
 * dependence for the narrow formats) and round exactly once. */
#ifndef LT_DTYPE_H
#define LT_DTYPE_H

#include <stdbool.h>
#include <stdint.h>

#include "libtensor/copy.h"
#include "libtensor/types.h"

bool lt__dtype_valid(lt_dtype dt);
bool lt__dtype_is_float(lt_dtype dt);
/* Element size of a valid dtype; sets no error state. */
size_t lt__dtype_size(lt_dtype dt);

/* A value read from any dtype without loss: floats (every supported float
 * format is exactly a double) or integers (bool and u8 included). */
typedef struct lt__scalar {
  bool is_int;
  double f;
  int64_t i;
} lt__scalar;

/* Reads one element of dtype dt at p. */
lt__scalar lt__scalar_load(lt_dtype dt, const void *p);
/* Writes v as dtype dt at p, rounding to nearest even once. False (nothing
 * written) for a NaN or out-of-range float going to an integer dtype;
 * integers narrowing to smaller integers wrap as two's complement. */
bool lt__scalar_store(lt_dtype dt, void *p, lt__scalar v, lt_cast_mode mode);

#endif
