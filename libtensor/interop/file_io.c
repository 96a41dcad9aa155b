/* Writing tensors to files: row-major element streams in bounded chunks,
 * and closing a file so that a failed save leaves nothing behind. */
#include "file_io.h"

#include <errno.h>
#include <string.h>

#include "alloc.h"
#include "dtype.h"
#include "error.h"
#include "libtensor/tensor.h"
#include "libtensor/views.h"
#include "tensor_impl.h"

/* Largest block read through the buffer at once. */
#define CHUNK_BYTES ((size_t)4 << 20)

typedef struct writer {
  FILE *f;
  char *buf;
  const char *op, *path;
} writer;

lt_status lt__write_bytes(FILE *f, const void *p, size_t n, const char *op, const char *path) {
  if (n == 0 || fwrite(p, 1, n, f) == n) return LT_OK;
  return lt__fail(LT_ERR_IO, "%s: cannot write %zu bytes to %s: %s", op, n, path, strerror(errno));
}

static size_t tensor_bytes(const lt_tensor *t) {
  return (size_t)lt__layout_numel(&t->layout) * lt__dtype_size(t->dtype);
}

/* Writes t, which holds at most CHUNK_BYTES, through the buffer. */
static lt_status write_small(writer *w, const lt_tensor *t) {
  size_t n = tensor_bytes(t);
  lt_status s = lt_read(t, w->buf, n);
  return s != LT_OK ? s : lt__write_bytes(w->f, w->buf, n, w->op, w->path);
}

/* Splits t along dim 0 into blocks of whole rows that fit the buffer, or
 * into single rows (recursively split) when one row does not. */
static lt_status write_blocks(writer *w, const lt_tensor *t) {
  size_t bytes = tensor_bytes(t);
  if (bytes <= CHUNK_BYTES) return write_small(w, t);
  int64_t rows = t->layout.shape[0];
  size_t row_bytes = bytes / (size_t)rows; /* bytes > 0, so rows > 0 and ndim >= 1 */
  int64_t per = row_bytes <= CHUNK_BYTES ? (int64_t)(CHUNK_BYTES / row_bytes) : 1;
  for (int64_t i = 0; i < rows; i += per) {
    int64_t len = rows - i < per ? rows - i : per;
    lt_tensor *part = row_bytes <= CHUNK_BYTES ? lt_narrow(t, 0, i, len) : lt_select(t, 0, i);
    if (!part) return lt_last_status();
    lt_status s = write_blocks(w, part);
    lt_release(part);
    if (s != LT_OK) return s;
  }
  return LT_OK;
}

lt_status lt__write_elements(FILE *f, const lt_tensor *t, const char *op, const char *path) {
  size_t bytes = tensor_bytes(t);
  if (bytes == 0) return LT_OK;
  if (t->storage->device.kind == LT_CPU && lt__layout_is_contiguous(&t->layout))
    return lt__write_bytes(f, lt__tensor_ptr(t), bytes, op, path);
  size_t cap = bytes < CHUNK_BYTES ? bytes : CHUNK_BYTES;
  writer w = {.f = f, .op = op, .path = path, .buf = lt__alloc(cap, LT__STORAGE_ALIGN)};
  if (!w.buf) return lt__fail(LT_ERR_NOMEM, "%s: out of memory for a %zu-byte write buffer", op, cap);
  lt_status s = write_blocks(&w, t);
  lt__free(w.buf, cap, LT__STORAGE_ALIGN);
  return s;
}

lt_status lt__finish_file(FILE *f, lt_status status, const char *op, const char *path) {
  if (fclose(f) != 0 && status == LT_OK)
    status = lt__fail(LT_ERR_IO, "%s: cannot finish writing %s: %s", op, path, strerror(errno));
  if (status != LT_OK) remove(path);
  return status;
}
