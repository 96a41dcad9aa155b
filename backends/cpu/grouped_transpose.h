/* Internal: transposes whose destination's innermost dim is shorter than
 * a tile, done as 2-D transposes whose rows are a group of dims. */
#ifndef LT_GROUPED_TRANSPOSE_H
#define LT_GROUPED_TRANSPOSE_H

#include <stdbool.h>

#include "dispatch.h"

/* Does the copy a (an LT__PLAN_TRANSPOSE of one dtype whose source runs
 * along dim a->transpose_dim) if it is such a transpose, and says whether
 * it did; false leaves the destination untouched. Cannot fail. */
bool lt__grouped_transpose(const lt__copy_args *a);

#endif
