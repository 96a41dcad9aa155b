/* Internal: a per-thread memo of recent plans, keyed by everything a plan
 * depends on (pattern text, op, input shape, axis lengths). A hit skips
 * the shared cache's lock and the planner, which is what makes a repeated
 * lt_rearrange cost about as much as the views it stands for. */
#ifndef LT_PLAN_MEMO_H
#define LT_PLAN_MEMO_H

#include "plan.h"

/* True and *r filled when this thread planned exactly this before. */
bool lt__memo_get(const char *pattern, lt__pattern_op op, int ndim, const int64_t *shape, const lt_axis *axes,
                  int naxes, lt__recipe *r);
/* Remembers a successful plan (silently skipped for keys too big to keep). */
void lt__memo_put(const char *pattern, lt__pattern_op op, int ndim, const int64_t *shape, const lt_axis *axes,
                  int naxes, const lt__recipe *r);

#endif
