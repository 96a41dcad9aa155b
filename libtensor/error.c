/* The thread-local last error: every public call that can fail ends in
 * lt__ok() or lt__fail*(), so lt_last_status() always describes the last
 * such call on this thread. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>

static _Thread_local lt_status last_status = LT_OK;
static _Thread_local char last_message[1024];

static void set_message(lt_status s, const char *fmt, va_list ap) {
  last_status = s;
  vsnprintf(last_message, sizeof last_message, fmt, ap);
}

lt_status lt__fail(lt_status s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  set_message(s, fmt, ap);
  va_end(ap);
  return s;
}

void *lt__fail_null(lt_status s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  set_message(s, fmt, ap);
  va_end(ap);
  return NULL;
}

lt_status lt__ok(void) {
  last_status = LT_OK;
  last_message[0] = '\0';
  return LT_OK;
}

LT_API lt_status lt_last_status(void) { return last_status; }

LT_API const char *lt_last_error(void) { return last_message; }

LT_API const char *lt_status_str(lt_status s) {
  static const char *const names[] = {
      "LT_OK",          "LT_ERR_ARG",   "LT_ERR_SHAPE",  "LT_ERR_NOT_VIEWABLE",
      "LT_ERR_PATTERN", "LT_ERR_DTYPE", "LT_ERR_DEVICE", "LT_ERR_NOMEM",
      "LT_ERR_IO",      "LT_ERR_OVERLAP"};
  if ((unsigned)s < sizeof names / sizeof names[0]) return names[s];
  return "LT_ERR_UNKNOWN";
}

char *lt__fmt_dims(char *buf, size_t n, int ndim, const int64_t *v) {
  size_t used = 0;
  int w = snprintf(buf, n, "[");
  used = w > 0 ? (size_t)w : 0;
  for (int i = 0; i < ndim && used < n; i++) {
    w = snprintf(buf + used, n - used, i ? ",%lld" : "%lld", (long long)v[i]);
    if (w > 0) used += (size_t)w;
  }
  if (used < n) snprintf(buf + used, n - used, "]");
  else if (n >= 4) snprintf(buf + n - 4, 4, "...");
  return buf;
}

char *lt__fmt_ints(char *buf, size_t n, int ndim, const int *v) {
  int64_t wide[LT_MAX_DIMS];
  int k = ndim < LT_MAX_DIMS ? ndim : LT_MAX_DIMS;
  for (int i = 0; i < k; i++) wide[i] = v[i];
  return lt__fmt_dims(buf, n, k, wide);
}
