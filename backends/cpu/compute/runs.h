/* Internal: runs of elements of any dtype moved to and from the type a
 * compute kernel works in (LT_F32, LT_F64 or LT_I64), in chunks small
 * enough to stay in L1. Shared by the elementwise, reduction and softmax
 * kernels. */
#ifndef LT_RUNS_H
#define LT_RUNS_H

#include <stdbool.h>
#include <stdint.h>

#include "cast.h"
#include "stream.h"

/* Elements per chunk. Each chunk costs a handful of calls (load, op,
 * store, advance), which at 256 elements took a sixth of an add's time at
 * 256 MiB; at 1024 they fade, and a kernel's chunk buffers (8 KiB each,
 * for 8-byte values) still fit L1 and take at most 32 KiB of stack. */
enum { LT__RUN_CHUNK = 1024 };

/* A run: its first element, its step in elements, its dtype, and the
 * vector conversion to or from F32 when one exists for the dtype. */
typedef struct lt__run {
  const char *p;
  int64_t stride;
  lt_dtype dt;
  size_t es;
  lt__cast_fn convert;
} lt__run;

/* A run of dtype dt at p with stride, converting to compute type ct (or
 * from it, when is_dst). */
lt__run lt__run_make(const char *p, int64_t stride, lt_dtype dt, lt_dtype ct, bool is_dst);
/* Advances r by n elements. */
void lt__run_skip(lt__run *r, int64_t n);

/* n values of r as ct: r's own memory when it already is ct and dense,
 * else converted into buf (room for n values of 8 bytes). */
const void *lt__run_load(void *buf, lt_dtype ct, const lt__run *r, int64_t n);
/* Writes n values of ct into r (nothing when vals is r's own memory),
 * with streaming stores when stream and r is dense in ct (the caller
 * then fences with lt__stream_fence). Converting into r's dtype cannot
 * fail: the core stores a result only into its category or a higher one. */
void lt__run_store(const lt__run *r, lt_dtype ct, const void *vals, int64_t n, bool stream);

#endif
