/* Internal: transposes whose destination's innermost dim is shorter than
 * a tile, done as 2-D transposes whose rows are a group of dims. */
#ifndef LT_GROUPED_TRANSPOSE_H
#define LT_GROUPED_TRANSPOSE_H

#include <stdbool.h>
#include <stdint.h>

#include "dispatch.h"

/* Does the copy a (an LT__PLAN_TRANSPOSE of one dtype whose source runs
 * along dim a->transpose_dim) if it is such a transpose, and says whether
 * it did; false leaves the destination untouched. Cannot fail. */
bool lt__grouped_transpose(const lt__copy_args *a);

/* Whether the blocks a streamed group pulls into L2, of its rows rows at
 * row_at bytes from the first (rows >= 16), put 64 or more rows' lines on
 * one of L2's sets: such a group gathers instead (for tests). */
bool lt__blocks_crowd_sets(const int64_t *row_at, int64_t rows);

#endif
