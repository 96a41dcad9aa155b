/* lt_save_npy and lt_load_npy: NumPy's .npy files. Loading reads the
 * whole file into a new tensor (byte-swapped when big-endian, with
 * column-major strides when Fortran-ordered); saving writes C order. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "alloc.h"
#include "dtype.h"
#include "error.h"
#include "file_io.h"
#include "libtensor/interop.h"
#include "libtensor/tensor.h"
#include "libtensor/views.h"
#include "npy_header.h"
#include "tensor_impl.h"

/* ---- saving ------------------------------------------------------------------ */

/* The padded header after the preamble: total length a multiple of 64, as
 * NumPy writes it. Returns the dict's length with padding and newline, or
 * 0 if buf is too small. */
static size_t format_header(char *buf, size_t cap, const char *descr, const lt_tensor *t, size_t preamble) {
  int len = snprintf(buf, cap, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
  for (int i = 0; i < t->layout.ndim && len > 0 && (size_t)len < cap; i++)
    len += snprintf(buf + len, cap - (size_t)len, "%lld,%s", (long long)t->layout.shape[i],
                    i + 1 < t->layout.ndim ? " " : "");
  if (t->layout.ndim > 1 && len > 0 && (size_t)len < cap) len--; /* (2, 3) rather than (2, 3,) */
  if (len > 0 && (size_t)len < cap) len += snprintf(buf + len, cap - (size_t)len, "), }");
  if (len < 0 || (size_t)len >= cap) return 0;
  size_t total = (preamble + (size_t)len + 1 + 63) / 64 * 64 - preamble;
  if (total >= cap) return 0;
  memset(buf + len, ' ', total - (size_t)len - 1);
  buf[total - 1] = '\n';
  return total;
}

LT_API lt_status lt_save_npy(const char *path, const lt_tensor *t) {
  const char *op = "save_npy";
  if (!path) return lt__fail(LT_ERR_ARG, "%s: path is NULL", op);
  if (!lt__check_tensor(t, op)) return LT_ERR_ARG;
  const char *descr = lt__npy_descr(t->dtype);
  if (!descr)
    return lt__fail(LT_ERR_DTYPE, "%s: NumPy has no dtype for %s (no .npy descr exists); lt_to() it to f32 first",
                    op, lt_dtype_name(t->dtype));
  /* 16 dims of 19 digits fit easily: format 1.0's 2-byte length always
   * suffices, so 2.0 is never needed. */
  char header[1024];
  unsigned char preamble[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  size_t len = format_header(header, sizeof header, descr, t, sizeof preamble);
  if (len == 0) return lt__fail(LT_ERR_ARG, "%s: the .npy header for this tensor does not fit", op);
  preamble[8] = (unsigned char)(len & 0xff);
  preamble[9] = (unsigned char)(len >> 8);
  FILE *f = fopen(path, "wb");
  if (!f) return lt__fail(LT_ERR_IO, "%s: cannot create %s: %s", op, path, strerror(errno));
  lt_status s = lt__write_bytes(f, preamble, sizeof preamble, op, path);
  if (s == LT_OK) s = lt__write_bytes(f, header, len, op, path);
  if (s == LT_OK) s = lt__write_elements(f, t, op, path);
  s = lt__finish_file(f, s, op, path);
  return s == LT_OK ? lt__ok() : s;
}

/* ---- loading ------------------------------------------------------------------ */

static lt_status read_exact(FILE *f, void *buf, size_t n, const char *path) {
  if (n == 0 || fread(buf, 1, n, f) == n) return LT_OK;
  return lt__fail(LT_ERR_IO, "load_npy: cannot read %s: %s", path, ferror(f) ? strerror(errno) : "unexpected end");
}

/* Reads the preamble and header of an open file of size bytes. */
static lt_status read_header(FILE *f, int64_t size, const char *path, lt__npy_header *h) {
  unsigned char pre[LT__NPY_PREAMBLE];
  size_t have = size < (int64_t)sizeof pre ? (size_t)size : sizeof pre, offset;
  lt_status s = read_exact(f, pre, have, path);
  if (s == LT_OK) s = lt__npy_data_offset(pre, have, path, &offset);
  if (s != LT_OK) return s;
  if ((int64_t)offset > size) return lt__fail(LT_ERR_IO, "load_npy: %s ends inside its .npy header", path);
  unsigned char buf[LT__NPY_PREAMBLE + 4096], *hb = buf;
  if (offset > sizeof buf) {
    hb = lt__alloc(offset, 1);
    if (!hb) return lt__fail(LT_ERR_NOMEM, "load_npy: out of memory for a %zu-byte header", offset);
  }
  memcpy(hb, pre, have);
  s = read_exact(f, hb + have, offset - have, path);
  if (s == LT_OK) s = lt__npy_parse(hb, offset, path, h);
  if (hb != buf) lt__free(hb, offset, 1);
  return s;
}

/* A tensor for the header's shape whose storage order is the file's. */
static lt_tensor *tensor_for(const lt__npy_header *h) {
  if (!h->fortran) return lt__tensor_alloc(h->dtype, h->ndim, h->shape, LT_HOST, "load_npy");
  int64_t reversed[LT_MAX_DIMS];
  int perm[LT_MAX_DIMS];
  for (int i = 0; i < h->ndim; i++) reversed[i] = h->shape[h->ndim - 1 - i], perm[i] = h->ndim - 1 - i;
  lt_tensor *r = lt__tensor_alloc(h->dtype, h->ndim, reversed, LT_HOST, "load_npy");
  if (!r) return NULL;
  lt_tensor *t = lt_permute(r, perm);
  lt_release(r);
  return t;
}

/* Host order for big-endian data; NumPy-style truth for bool bytes (any
 * non-zero byte is True), since libtensor's bool holds only 0 and 1. */
static void normalise(lt_tensor *t, const lt__npy_header *h) {
  unsigned char *p = (unsigned char *)t->storage->data;
  size_t esize = lt__dtype_size(h->dtype), n = (size_t)h->numel;
  if (h->big_endian)
    for (size_t i = 0; i < n; i++, p += esize)
      for (size_t a = 0, b = esize - 1; a < b; a++, b--) {
        unsigned char c = p[a];
        p[a] = p[b];
        p[b] = c;
      }
  if (h->dtype == LT_BOOL)
    for (size_t i = 0; i < n; i++) p[i] = p[i] != 0;
}

static lt_tensor *load_open(FILE *f, const char *path) {
  struct stat st;
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode))
    return lt__fail_null(LT_ERR_IO, "load_npy: %s is not a regular file", path);
  lt__npy_header h;
  if (read_header(f, (int64_t)st.st_size, path, &h) != LT_OK) return NULL;
  int64_t bytes = h.numel * (int64_t)lt__dtype_size(h.dtype), have = (int64_t)st.st_size - (int64_t)h.data_offset;
  if (bytes != have)
    return lt__fail_null(LT_ERR_IO, "load_npy: %s's header states %lld data bytes but the file holds %lld", path,
                         (long long)bytes, (long long)have);
  lt_tensor *t = tensor_for(&h);
  if (!t) return NULL;
  if (read_exact(f, t->storage->data, (size_t)bytes, path) != LT_OK) {
    lt_release(t);
    return NULL;
  }
  normalise(t, &h);
  return t;
}

LT_API lt_tensor *lt_load_npy(const char *path) {
  if (!path) return lt__fail_null(LT_ERR_ARG, "load_npy: path is NULL");
  FILE *f = fopen(path, "rb");
  if (!f) return lt__fail_null(LT_ERR_IO, "load_npy: cannot open %s: %s", path, strerror(errno));
  lt_tensor *t = load_open(f, path);
  fclose(f);
  if (t) lt__ok();
  return t;
}
