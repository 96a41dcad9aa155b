/* Internal: what the compute ops' entry points share: dtype promotion,
 * the type arithmetic runs in, and the elementwise planner. */
#ifndef LT_COMPUTE_IMPL_H
#define LT_COMPUTE_IMPL_H

#include <stdbool.h>

#include "dispatch.h"
#include "dtype.h"
#include "libtensor/compute.h"

/* lt_promote_types for valid dtypes, without touching the error state. */
lt_dtype lt__promote(lt_dtype a, lt_dtype b);
/* LT_F64 for F64, LT_F32 for the other floats, LT_I64 for integers and
 * bool: the type a result of dtype `result` is computed in. */
lt_dtype lt__compute_type(lt_dtype result);
/* PyTorch's rule for _out forms: a result may go into a dst of its own
 * category or a higher one (bool < integer < float), never lower. */
bool lt__can_store_result(lt_dtype result, lt_dtype dst);

/* Plans a->shape / a->strides in place (pure): dims ordered by dst's
 * strides, size-1 dims dropped, dims contiguous in every operand merged,
 * and, where an input's unit-stride dim is not the innermost one, that dim
 * moved next to the innermost and a->tiled set to the input. */
void lt__plan_elementwise(lt__ew_args *a);

#endif
