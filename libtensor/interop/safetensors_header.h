/* Internal: a safetensors header, parsed and checked from the file's
 * bytes in memory (the mapping, or the fuzzer's buffer). */
#ifndef LT_INTEROP_SAFETENSORS_HEADER_H
#define LT_INTEROP_SAFETENSORS_HEADER_H

#include <stddef.h>
#include <stdint.h>

#include "libtensor/types.h"

/* The reference implementation's bound on the JSON header. */
#define LT__ST_MAX_HEADER ((uint64_t)100000000)

/* One entry of the format's dtype table. */
typedef struct lt__st_dtype {
  const char *name; /* "F32" */
  int bits;         /* per element; sub-byte formats pack */
  int lt;           /* the lt_dtype, or -1 when libtensor has none */
} lt__st_dtype;

typedef struct lt__st_entry {
  char *name;
  const lt__st_dtype *dtype;
  int ndim;                     /* may exceed LT_MAX_DIMS: then get refuses it */
  int64_t shape[LT_MAX_DIMS];   /* the first LT_MAX_DIMS sizes */
  uint64_t begin, end;          /* byte range relative to the data start */
} lt__st_entry;

typedef struct lt__st_header {
  int n, entries_cap;
  lt__st_entry *entries;        /* in header order */
  int *by_name;                 /* entry indices sorted by name */
  int nmeta, meta_cap;
  char **meta;                  /* key, value, key, value, ..., NULL */
  uint64_t data_start;          /* 8 + header length */
} lt__st_header;

/* Parses and validates the whole header of a file of size bytes at data.
 * On success *h owns its allocations (free with lt__st_header_free). On
 * failure nothing is left allocated; LT_ERR_IO (naming path and the fault)
 * or LT_ERR_NOMEM. */
lt_status lt__st_parse(const unsigned char *data, size_t size, const char *path, lt__st_header *h);
void lt__st_header_free(lt__st_header *h);

/* Index of the entry named name, or -1. */
int lt__st_find(const lt__st_header *h, const char *name);

/* The table entry for an lt_dtype (every lt_dtype has one). */
const lt__st_dtype *lt__st_dtype_of(lt_dtype dt);

#endif
