/* Internal: what the file formats share: writing a tensor's elements in
 * row-major order with bounded extra memory, and little-endian integers. */
#ifndef LT_INTEROP_FILE_IO_H
#define LT_INTEROP_FILE_IO_H

#include <stdint.h>
#include <stdio.h>

#include "libtensor/types.h"

/* The formats store little-endian data, and mapped views hand file bytes
 * straight to the kernels. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "libtensor's file formats assume a little-endian host"
#endif

/* Writes t's elements (any layout, any device lt_read reaches) to f in
 * row-major order: straight from memory when t is a contiguous host
 * tensor, else through a buffer of at most a few MiB. LT_OK, or the error
 * set naming op and path. */
lt_status lt__write_elements(FILE *f, const lt_tensor *t, const char *op, const char *path);

/* Writes n bytes to f; LT_ERR_IO with errno's reason on failure. */
lt_status lt__write_bytes(FILE *f, const void *p, size_t n, const char *op, const char *path);

/* Closes f (flushing it); on failure, or when status is not LT_OK, removes
 * path so no partial file is left. Returns the first failure. */
lt_status lt__finish_file(FILE *f, lt_status status, const char *op, const char *path);

static inline uint64_t lt__le64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

static inline void lt__put_le64(unsigned char *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}

#endif
