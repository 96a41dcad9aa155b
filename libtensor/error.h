/* Internal: the thread-local last status and message, and formatting
 * helpers for messages. No heap: the message lives in a fixed buffer. */
#ifndef LT_ERROR_H
#define LT_ERROR_H

#include <stddef.h>
#include <stdint.h>

#include "libtensor/types.h"

#if defined(__GNUC__)
#define LT__PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define LT__PRINTF(f, a)
#endif

/* Sets the thread's status and message; returns the status. */
lt_status lt__fail(lt_status s, const char *fmt, ...) LT__PRINTF(2, 3);
/* As lt__fail, returning NULL for pointer-returning functions. */
void *lt__fail_null(lt_status s, const char *fmt, ...) LT__PRINTF(2, 3);
/* Marks the last call as successful; returns LT_OK. */
lt_status lt__ok(void);

/* "[2,3,4]" into buf (truncated with "..." if too small); returns buf so it
 * can sit inside a printf argument list. */
char *lt__fmt_dims(char *buf, size_t n, int ndim, const int64_t *v);
/* "[0,2,1]" for int dims. */
char *lt__fmt_ints(char *buf, size_t n, int ndim, const int *v);

/* Buffer size that fits any formatted dim list of LT_MAX_DIMS entries. */
#define LT__DIMS_BUF (LT_MAX_DIMS * 21 + 3)

#endif
