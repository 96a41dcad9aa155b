/* libtensor: the library's thread pool, used by large copies, casts and
 * compute ops. A pool (workers started on first use and kept), not a
 * thread per call, so a small copy costs no thread start; work below 16
 * MiB (bytes read plus bytes written) runs on the calling thread alone,
 * as waking a worker costs more than it saves there. */
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
