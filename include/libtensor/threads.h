/* libtensor: the library's thread pool, used by large copies, casts and
 * compute ops. A pool (workers started on first use and kept), not a
 * thread per call, so a small copy costs no thread start. Work of 1 to 16
 * MiB (bytes read plus bytes written) runs on the calling thread alone
 * unless the workers are still awake from a call just before (calls back
 * to back), as waking a sleeping worker costs more than it saves there;
 * under 1 MiB it always does. Matrix products run on OpenBLAS's own
 * threads, which this setting does not govern (OPENBLAS_NUM_THREADS
 * does). */
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
