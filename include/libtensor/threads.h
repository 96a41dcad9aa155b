/* libtensor: the library's thread pool, used by large copies and casts.
 * A pool (workers started on first use and kept), not a thread per call,
 * so a small copy costs no thread start; work below about 1 MiB runs on
 * the calling thread alone. */
#ifndef LIBTENSOR_THREADS_H
#define LIBTENSOR_THREADS_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Threads a large kernel may use, the caller included: 1 .. 64, or 0 for
 * one per online core (the default). LT_ERR_ARG outside that range.
 * Process-wide; thread-safe. */
LT_API lt_status lt_set_num_threads(int n);
/* The current setting (one per core until set). */
LT_API int lt_get_num_threads(void);

#ifdef __cplusplus
}
#endif
#endif
