/* Reading safetensors files: the file is mapped read-only once, and each
 * tensor is a read-only storage over its bytes that holds a reference to
 * the mapping, so views outlive lt_safetensors_close. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "dtype.h"
#include "error.h"
#include "safetensors_file.h"
#include "safetensors_header.h"
#include "tensor_impl.h"

typedef struct mapping {
  atomic_long refs;
  const unsigned char *data;
  size_t size;
  void (*release)(const void *data, size_t size, void *ctx);
  void *ctx;
} mapping;

struct lt_safetensors {
  mapping *map;
  lt__st_header h;
  char *path;
};

static void mapping_release(void *p) {
  mapping *m = p;
  if (atomic_fetch_sub_explicit(&m->refs, 1, memory_order_acq_rel) != 1) return;
  m->release(m->data, m->size, m->ctx);
  lt__free(m, sizeof *m, _Alignof(mapping));
}

static void free_file(lt_safetensors *f) {
  lt__st_header_free(&f->h);
  if (f->path) lt__free(f->path, strlen(f->path) + 1, 1);
  lt__free(f, sizeof *f, _Alignof(lt_safetensors));
}

lt_safetensors *lt__safetensors_from_memory(const void *data, size_t size,
                                            void (*release)(const void *data, size_t size, void *ctx),
                                            void *ctx, const char *path) {
  size_t plen = strlen(path) + 1;
  lt_safetensors *f = lt__alloc(sizeof *f, _Alignof(lt_safetensors));
  mapping *m = lt__alloc(sizeof *m, _Alignof(mapping));
  char *p = lt__alloc(plen, 1);
  if (!f || !m || !p) {
    lt__free(f, sizeof *f, _Alignof(lt_safetensors));
    lt__free(m, sizeof *m, _Alignof(mapping));
    lt__free(p, plen, 1);
    return lt__fail_null(LT_ERR_NOMEM, "safetensors_open: out of memory opening %s", path);
  }
  memcpy(p, path, plen);
  *f = (lt_safetensors){.map = m, .path = p};
  *m = (mapping){.data = data, .size = size, .release = release, .ctx = ctx};
  atomic_init(&m->refs, 1);
  if (lt__st_parse(data, size, path, &f->h) != LT_OK) {
    lt__free(m, sizeof *m, _Alignof(mapping));
    free_file(f);
    return NULL;
  }
  return f;
}

static void unmap(const void *data, size_t size, void *ctx) {
  (void)ctx;
  munmap((void *)data, size);
}

LT_API lt_safetensors *lt_safetensors_open(const char *path) {
  const char *op = "safetensors_open";
  if (!path) return lt__fail_null(LT_ERR_ARG, "%s: path is NULL", op);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return lt__fail_null(LT_ERR_IO, "%s: cannot open %s: %s", op, path, strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 8) {
    close(fd);
    return lt__fail_null(LT_ERR_IO, "%s: %s is not a safetensors file (not a regular file of at least 8 bytes)",
                         op, path);
  }
  size_t size = (size_t)st.st_size;
  void *data = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
  int err = errno;
  close(fd);
  if (data == MAP_FAILED) return lt__fail_null(LT_ERR_IO, "%s: cannot map %s: %s", op, path, strerror(err));
  lt_safetensors *f = lt__safetensors_from_memory(data, size, unmap, NULL, path);
  if (!f) {
    munmap(data, size);
    return NULL;
  }
  lt__ok();
  return f;
}

LT_API void lt_safetensors_close(lt_safetensors *f) {
  if (!f) return;
  mapping_release(f->map);
  free_file(f);
}

LT_API int lt_safetensors_count(const lt_safetensors *f) {
  if (!f) {
    lt__fail(LT_ERR_ARG, "safetensors_count: file is NULL");
    return -1;
  }
  lt__ok();
  return f->h.n;
}

LT_API const char *lt_safetensors_name(const lt_safetensors *f, int i) {
  if (!f) return lt__fail_null(LT_ERR_ARG, "safetensors_name: file is NULL");
  if (i < 0 || i >= f->h.n)
    return lt__fail_null(LT_ERR_ARG, "safetensors_name: index %d is outside 0..%d of %s", i, f->h.n - 1, f->path);
  lt__ok();
  return f->h.entries[i].name;
}

LT_API const char *lt_safetensors_metadata(const lt_safetensors *f, const char *key) {
  if (!f || !key) return lt__fail_null(LT_ERR_ARG, "safetensors_metadata: %s is NULL", f ? "key" : "file");
  lt__ok();
  for (int i = 0; i < f->h.nmeta; i++)
    if (strcmp(f->h.meta[2 * i], key) == 0) return f->h.meta[2 * i + 1];
  return NULL;
}

/* ---- views ------------------------------------------------------------------- */

/* A read-only storage over the mapped bytes, holding a mapping reference. */
static lt_tensor *mapped_view(const lt_safetensors *f, const lt__st_entry *e, lt_dtype dt, const lt__layout *l,
                              const char *op) {
  size_t bytes = (size_t)(e->end - e->begin);
  char *p = bytes ? (char *)f->map->data + f->h.data_start + e->begin : NULL;
  atomic_fetch_add_explicit(&f->map->refs, 1, memory_order_relaxed);
  lt__storage *s = lt__storage_wrap_readonly(p, bytes, LT_HOST, mapping_release, f->map, op);
  if (!s) {
    mapping_release(f->map);
    return NULL;
  }
  lt_tensor *t = lt__tensor_new(s, dt, l, op);
  lt__storage_release(s); /* the view holds it now, or it goes (and drops its reference) */
  return t;
}

/* The kernels load whole elements, so data not aligned to its element size
 * in the file is copied to aligned memory (still read-only, for one rule). */
static lt_tensor *aligned_copy(const lt_safetensors *f, const lt__st_entry *e, lt_dtype dt, const char *op) {
  lt_tensor *t = lt__tensor_alloc(dt, e->ndim, e->shape, LT_HOST, op);
  if (!t) return NULL;
  memcpy(t->storage->data, f->map->data + f->h.data_start + e->begin, (size_t)(e->end - e->begin));
  t->storage->readonly = true;
  return t;
}

LT_API lt_tensor *lt_safetensors_get(const lt_safetensors *f, const char *name) {
  const char *op = "safetensors_get";
  if (!f || !name) return lt__fail_null(LT_ERR_ARG, "%s: %s is NULL", op, f ? "name" : "file");
  int i = lt__st_find(&f->h, name);
  if (i < 0) return lt__fail_null(LT_ERR_ARG, "%s: %s has no tensor named '%.64s'", op, f->path, name);
  const lt__st_entry *e = &f->h.entries[i];
  if (e->dtype->lt < 0)
    return lt__fail_null(LT_ERR_DTYPE, "%s: tensor '%.64s' in %s has dtype %s, which libtensor has no type for", op,
                         name, f->path, e->dtype->name);
  if (e->ndim > LT_MAX_DIMS)
    return lt__fail_null(LT_ERR_SHAPE, "%s: tensor '%.64s' in %s has %d dims; libtensor tensors have at most %d",
                         op, name, f->path, e->ndim, LT_MAX_DIMS);
  lt_dtype dt = (lt_dtype)e->dtype->lt;
  const unsigned char *p = f->map->data + f->h.data_start + e->begin;
  size_t bytes = (size_t)(e->end - e->begin);
  if (dt == LT_BOOL)
    for (size_t k = 0; k < bytes; k++)
      if (p[k] > 1)
        return lt__fail_null(LT_ERR_IO, "%s: BOOL tensor '%.64s' in %s holds byte 0x%02x at element %zu", op, name,
                             f->path, p[k], k);
  lt__layout l = {.ndim = e->ndim, .offset = 0};
  memcpy(l.shape, e->shape, sizeof(int64_t) * (size_t)e->ndim);
  lt__contiguous_strides(l.ndim, l.shape, l.strides);
  bool aligned = (uintptr_t)p % lt__dtype_size(dt) == 0;
  lt_tensor *t = aligned || bytes == 0 ? mapped_view(f, e, dt, &l, op) : aligned_copy(f, e, dt, op);
  if (t) lt__ok();
  return t;
}
