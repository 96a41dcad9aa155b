/* Internal: the one strided-copy entry. Every materialising copy
 * (contiguous, clone, reshape fallback, copy, cast) and every lt_read /
 * lt_write goes through lt__copy_run, which coalesces the layout,
 * dispatches to the device's kernel, and does the accounting and tracing. */
#ifndef LT_COPY_ENTRY_H
#define LT_COPY_ENTRY_H

#include "libtensor/copy.h"
#include "libtensor/types.h"

typedef enum lt__copy_kind {
  LT__COPY_EXPLICIT, /* the caller asked for a copy */
  LT__COPY_IMPLICIT, /* a view was impossible: reshape, flatten, rearrange */
  LT__COPY_IO        /* lt_read / lt_write: not a materialisation, not counted */
} lt__copy_kind;

typedef struct lt__copy_request {
  lt_device device;
  int ndim;
  const int64_t *shape;
  char *dst;                   /* element (0,..,0) of the destination */
  lt_dtype dst_dtype;
  const int64_t *dst_strides;  /* elements */
  const char *src;             /* element (0,..,0) of the source */
  lt_dtype src_dtype;
  const int64_t *src_strides;  /* elements; 0 where broadcast */
  lt_cast_mode mode;
  const char *op;              /* "contiguous", "reshape", ... for stats and traces */
  lt__copy_kind kind;
  const char *why;             /* why a copy (and not a view) happened */
} lt__copy_request;

lt_status lt__copy_run(const lt__copy_request *r);

/* True when LT_COPY_FORBID is not set on this thread. */
bool lt__implicit_copy_allowed(void);
/* True when copies are traced: callers build their `why` text only then. */
bool lt__trace_on(void);
/* Prints one trace line if tracing is on. */
void lt__trace_copy(const lt__copy_request *r, int64_t bytes);

#endif
