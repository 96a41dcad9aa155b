/* A scratch directory per test for the suites that write files, and
 * reading a whole file back: setup and teardown for a checked fixture. */
#ifndef LT_TEST_SCRATCH_H
#define LT_TEST_SCRATCH_H

#include <stddef.h>

/* Creates a fresh directory under /tmp (checked fixture setup). */
void scratch_make(void);
/* Removes it and everything in it (checked fixture teardown). */
void scratch_remove(void);
/* name inside the scratch directory; a static buffer, valid until the
 * next call. */
const char *scratch_path(const char *name);
/* The file at path (at most cap bytes) into buf; returns its size. */
size_t slurp(const char *path, unsigned char *buf, size_t cap);

#endif
