/* Internal: the .npy preamble and header dict (NumPy's format 1.0-3.0),
 * parsed from bytes in memory so the fuzzer can drive it directly. */
#ifndef LT_INTEROP_NPY_HEADER_H
#define LT_INTEROP_NPY_HEADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libtensor/types.h"

/* Longest header dict read; NumPy's own reader stops at 10000 bytes. */
#define LT__NPY_MAX_HEADER ((size_t)1 << 20)
/* Magic, version and the longest (4-byte) length field. */
#define LT__NPY_PREAMBLE 12

typedef struct lt__npy_header {
  int major;          /* 1, 2 or 3 */
  lt_dtype dtype;
  bool big_endian;    /* multi-byte elements are stored big-endian */
  bool fortran;       /* column-major element order */
  int ndim;
  int64_t shape[LT_MAX_DIMS];
  int64_t numel;
  size_t data_offset; /* bytes from the start of the file to the data */
} lt__npy_header;

/* From the first n bytes of a file (n >= LT__NPY_PREAMBLE, or the whole
 * file if shorter): the offset where the data starts, i.e. the bytes to
 * read before lt__npy_parse. LT_ERR_IO (naming path) on a bad magic or
 * version, a truncated preamble, or a header longer than
 * LT__NPY_MAX_HEADER. */
lt_status lt__npy_data_offset(const unsigned char *buf, size_t n, const char *path, size_t *offset);

/* Parses buf[0 .. n), which holds at least the preamble and the whole
 * header dict. LT_ERR_IO (malformed), LT_ERR_DTYPE (a descr libtensor does
 * not read), LT_ERR_SHAPE (more than LT_MAX_DIMS dims), each naming path. */
lt_status lt__npy_parse(const unsigned char *buf, size_t n, const char *path, lt__npy_header *h);

/* The descr NumPy spells for dt ("<f4", "|b1"), or NULL for bf16/fp8. */
const char *lt__npy_descr(lt_dtype dt);

#endif
