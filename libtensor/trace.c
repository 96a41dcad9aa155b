/* LT_TRACE=copies: one stderr line per materialising copy, so a user can
 * find the copy that costs them and learn why no view was possible. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "copy_entry.h"
#include "error.h"

/* -1: not yet read from the environment; 0 off; 1 on. */
static atomic_int trace_state = -1;

bool lt__trace_on(void) {
  int s = atomic_load(&trace_state);
  if (s < 0) {
    const char *e = getenv("LT_TRACE");
    int want = e && strstr(e, "copies") ? 1 : 0;
    atomic_compare_exchange_strong(&trace_state, &s, want);
    s = atomic_load(&trace_state);
  }
  return s == 1;
}

LT_API bool lt_set_trace(bool on) {
  bool was = lt__trace_on();
  atomic_store(&trace_state, on ? 1 : 0);
  return was;
}

void lt__trace_copy(const lt__copy_request *r, int64_t bytes) {
  if (!lt__trace_on()) return;
  char shape[LT__DIMS_BUF];
  fprintf(stderr, "libtensor: copy %s (%s) %lld bytes %s -> %s %s: %s\n", r->op,
          r->kind == LT__COPY_IMPLICIT ? "implicit" : "explicit", (long long)bytes,
          lt_dtype_name(r->src_dtype), lt_dtype_name(r->dst_dtype),
          lt__fmt_dims(shape, sizeof shape, r->ndim, r->shape), r->why ? r->why : "requested");
}
