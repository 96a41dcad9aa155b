/* Internal: copies with streaming stores, for outputs too large to stay
 * cached. */
#ifndef LT_STREAM_H
#define LT_STREAM_H

#include <stddef.h>
#include <stdint.h>

/* Past this many bytes of output, plain stores cost a read of every
 * destination line (read-for-ownership) that nobody needs, since the
 * output outgrows the caches before anyone reads it back; streaming
 * stores skip that read, a third of an add's memory traffic. */
#define LT__STREAM_MIN_BYTES ((int64_t)8 << 20)

/* n bytes from src to dst, streaming from the first 64-byte aligned byte
 * of dst on (plain stores before it and after the last whole line); the
 * caller fences with lt__stream_fence before anyone else reads dst. */
void lt__stream_copy(char *dst, const char *src, size_t n);
/* Orders this thread's streaming stores before what follows. */
void lt__stream_fence(void);

#endif
