/* Internal to the CPU strided copy (strided_copy.c, and the copies
 * written in the destination's order in dest_order_copy.c): a copy split
 * over the thread pool by indices of its outermost dim. */
#ifndef LT_PARALLEL_COPY_H
#define LT_PARALLEL_COPY_H

#include <stdbool.h>
#include <stdint.h>

#include "cast.h"
#include "dispatch.h"
#include "dtype.h"

/* Which sides of the whole copy outgrow the caches (lt__outgrows_cache):
 * read from or written to memory, whatever share a thread takes. */
typedef struct lt__outgrows {
  bool src, dst;
} lt__outgrows;

typedef struct lt__parallel_copy {
  const lt__copy_args *a;
  lt__cast_fn fast;
  bool stream;
  lt__outgrows big;
} lt__parallel_copy;

/* Indices [begin, end) of the outermost dim of a, as a copy of their own. */
static inline lt__copy_args lt__outer_share(const lt__copy_args *a, int64_t begin, int64_t end) {
  lt__copy_args part = *a;
  part.shape[0] = end - begin;
  part.dst += begin * part.dst_strides[0] * (int64_t)lt__dtype_size(part.dst_dtype);
  part.src += begin * part.src_strides[0] * (int64_t)lt__dtype_size(part.src_dtype);
  return part;
}

/* One thread's share of a copy of one dtype (ctx: its lt__parallel_copy)
 * written in the destination's order through lt__run_stream: indices
 * [begin, end) of the outermost dim, dense runs or runs that
 * lt__stream_strided has a kernel for; fenced. */
void lt__copy_in_destination_order(void *ctx, int64_t begin, int64_t end);
/* Whether a large copy of dense runs of one dtype goes in the
 * destination's order rather than the source's. */
bool lt__runs_in_destination_order(const lt__copy_args *a);

#endif
