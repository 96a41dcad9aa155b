/* lt_read and lt_write: bytes between a tensor of any layout and a
 * row-major host buffer, through the one strided-copy entry, or across
 * devices for a device tensor (uncounted: this is I/O, not a
 * materialisation). */
#include "copy_entry.h"
#include "dtype.h"
#include "error.h"
#include "overlap.h"
#include "tensor_impl.h"
#include "transfer.h"

static lt_status check_io(const lt_tensor *t, const void *buf, size_t nbytes, const char *op) {
  if (!lt__check_tensor(t, op)) return LT_ERR_ARG;
  size_t want;
  if (__builtin_mul_overflow((size_t)lt__layout_numel(&t->layout), lt__dtype_size(t->dtype), &want)) {
    char have[LT__TENSOR_BUF];
    return lt__fail(LT_ERR_ARG, "%s: %s holds more bytes than a buffer can", op, lt__fmt_tensor(have, sizeof have, t));
  }
  if (nbytes != want) {
    char have[LT__TENSOR_BUF];
    return lt__fail(LT_ERR_ARG, "%s: nbytes is %zu but %s holds %zu bytes", op, nbytes,
                    lt__fmt_tensor(have, sizeof have, t), want);
  }
  if (nbytes > 0 && !buf) return lt__fail(LT_ERR_ARG, "%s: buffer is NULL for %zu bytes", op, nbytes);
  return LT_OK;
}

/* The copy between t and the host buffer: in place on the host, or across
 * from or to t's device. */
static lt_status run_io(const lt__copy_request *r, bool to_host, lt_device dev) {
  if (dev.kind == LT_CPU) return lt__copy_run(r);
  return lt__copy_across(r, to_host ? dev : LT_HOST);
}

LT_API lt_status lt_read(const lt_tensor *t, void *dst, size_t nbytes) {
  lt_status s = check_io(t, dst, nbytes, "read");
  if (s != LT_OK) return s;
  int64_t rowmajor[LT_MAX_DIMS];
  lt__contiguous_strides(t->layout.ndim, t->layout.shape, rowmajor);
  lt__copy_request r = {
      .device = LT_HOST, .ndim = t->layout.ndim, .shape = t->layout.shape,
      .dst = dst, .dst_dtype = t->dtype, .dst_strides = rowmajor,
      .src = lt__tensor_ptr(t), .src_dtype = t->dtype, .src_strides = t->layout.strides,
      .op = "read", .kind = LT__COPY_IO};
  s = run_io(&r, true, t->storage->device);
  return s == LT_OK ? lt__ok() : s;
}

LT_API lt_status lt_write(lt_tensor *t, const void *src, size_t nbytes) {
  lt_status s = check_io(t, src, nbytes, "write");
  if (s == LT_OK) s = lt__check_mutable(t, "write");
  if (s == LT_OK) s = lt__check_writable(t, "write");
  if (s != LT_OK) return s;
  int64_t rowmajor[LT_MAX_DIMS];
  lt__contiguous_strides(t->layout.ndim, t->layout.shape, rowmajor);
  lt__copy_request r = {
      .device = t->storage->device, .ndim = t->layout.ndim, .shape = t->layout.shape,
      .dst = lt__tensor_ptr(t), .dst_dtype = t->dtype, .dst_strides = t->layout.strides,
      .src = src, .src_dtype = t->dtype, .src_strides = rowmajor,
      .op = "write", .kind = LT__COPY_IO};
  s = run_io(&r, false, t->storage->device);
  return s == LT_OK ? lt__ok() : s;
}
