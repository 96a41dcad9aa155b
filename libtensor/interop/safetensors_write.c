/* lt_safetensors_save: the JSON header (built with cJSON, integers written
 * exactly), padded with spaces so the data starts 8-byte aligned, then
 * each tensor's elements in row-major order, largest element size first
 * so every tensor starts aligned to its element size. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "dtype.h"
#include "error.h"
#include "file_io.h"
#include "libtensor/interop.h"
#include "safetensors_header.h"
#include "tensor_impl.h"

static const char op[] = "safetensors_save";

typedef struct plan {
  int n;
  const char *const *names;
  lt_tensor *const *tensors;
  const char *const *meta;
  int nmeta;
  int *order;         /* tensor indices in data order */
  uint64_t *begin;    /* per tensor, in caller order */
  uint64_t *end;
} plan;

/* ---- checks ----------------------------------------------------------------------- */

static bool ascii_or_utf8(const char *s) {
  /* The header is UTF-8 JSON: names and metadata must be UTF-8 too. */
  const unsigned char *p = (const unsigned char *)s;
  while (*p) {
    size_t len = *p < 0x80 ? 1 : (*p & 0xE0) == 0xC0 ? 2 : (*p & 0xF0) == 0xE0 ? 3 : (*p & 0xF8) == 0xF0 ? 4 : 0;
    if (len == 0) return false;
    for (size_t k = 1; k < len; k++)
      if ((p[k] & 0xC0) != 0x80) return false;
    p += len;
  }
  return true;
}

static int by_string(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Names (or metadata keys, with stride 2) are unique: sorted copies of the
 * pointers, compared with their neighbours. */
static lt_status check_unique(const char *const *s, int n, int stride, const char *what) {
  if (n < 2) return LT_OK;
  size_t bytes = sizeof(char *) * (size_t)n;
  const char **sorted = lt__alloc(bytes, _Alignof(char *));
  if (!sorted) return lt__fail(LT_ERR_NOMEM, "%s: out of memory checking %s", op, what);
  for (int i = 0; i < n; i++) sorted[i] = s[i * stride];
  qsort(sorted, (size_t)n, sizeof *sorted, by_string);
  lt_status st = LT_OK;
  for (int i = 1; i < n && st == LT_OK; i++)
    if (strcmp(sorted[i - 1], sorted[i]) == 0)
      st = lt__fail(LT_ERR_ARG, "%s: %s '%.64s' appears twice", op, what, sorted[i]);
  lt__free(sorted, bytes, _Alignof(char *));
  return st;
}

static lt_status check_args(plan *p, const char *path) {
  if (!path) return lt__fail(LT_ERR_ARG, "%s: path is NULL", op);
  if (p->n < 0) return lt__fail(LT_ERR_ARG, "%s: n is %d", op, p->n);
  if (p->n > 0 && (!p->names || !p->tensors))
    return lt__fail(LT_ERR_ARG, "%s: %s is NULL for %d tensors", op, p->names ? "tensors" : "names", p->n);
  for (int i = 0; i < p->n; i++) {
    if (!p->names[i]) return lt__fail(LT_ERR_ARG, "%s: names[%d] is NULL", op, i);
    if (!p->tensors[i]) return lt__fail(LT_ERR_ARG, "%s: tensors[%d] ('%.64s') is NULL", op, i, p->names[i]);
    if (!ascii_or_utf8(p->names[i])) return lt__fail(LT_ERR_ARG, "%s: names[%d] is not UTF-8", op, i);
    if (strcmp(p->names[i], "__metadata__") == 0)
      return lt__fail(LT_ERR_ARG, "%s: names[%d] is __metadata__, which the format reserves", op, i);
  }
  for (p->nmeta = 0; p->meta && p->meta[2 * p->nmeta]; p->nmeta++) {
    const char *k = p->meta[2 * p->nmeta], *v = p->meta[2 * p->nmeta + 1];
    if (!v) return lt__fail(LT_ERR_ARG, "%s: metadata key '%.64s' has no value (the list must pair them)", op, k);
    if (!ascii_or_utf8(k) || !ascii_or_utf8(v))
      return lt__fail(LT_ERR_ARG, "%s: metadata entry '%.64s' is not UTF-8", op, k);
  }
  lt_status s = check_unique(p->names, p->n, 1, "tensor name");
  return s == LT_OK ? check_unique(p->meta, p->nmeta, 2, "metadata key") : s;
}

/* ---- layout of the data ------------------------------------------------------------ */

/* Largest element size first; ties keep the caller's order. */
static void order_by_size(plan *p) {
  for (int i = 0; i < p->n; i++) p->order[i] = i;
  for (int i = 1; i < p->n; i++) {
    int v = p->order[i], j = i;
    size_t sv = lt__dtype_size(p->tensors[v]->dtype);
    for (; j > 0 && lt__dtype_size(p->tensors[p->order[j - 1]]->dtype) < sv; j--) p->order[j] = p->order[j - 1];
    p->order[j] = v;
  }
}

static lt_status place_tensors(plan *p) {
  order_by_size(p);
  uint64_t at = 0;
  for (int k = 0; k < p->n; k++) {
    int i = p->order[k];
    const lt_tensor *t = p->tensors[i];
    uint64_t bytes = (uint64_t)lt__layout_numel(&t->layout) * lt__dtype_size(t->dtype);
    p->begin[i] = at;
    if (__builtin_add_overflow(at, bytes, &at)) return lt__fail(LT_ERR_NOMEM, "%s: the tensors' bytes overflow", op);
    p->end[i] = at;
  }
  return LT_OK;
}

/* ---- the header --------------------------------------------------------------------- */

static bool add_number(cJSON *array, uint64_t v) {
  char text[24];
  snprintf(text, sizeof text, "%" PRIu64, v);
  cJSON *raw = cJSON_CreateRaw(text);
  return raw && cJSON_AddItemToArray(array, raw);
}

static bool add_tensor(cJSON *root, const plan *p, int i) {
  const lt_tensor *t = p->tensors[i];
  cJSON *e = cJSON_CreateObject(), *shape = cJSON_CreateArray(), *offs = cJSON_CreateArray();
  bool ok = e && shape && offs && cJSON_AddStringToObject(e, "dtype", lt__st_dtype_of(t->dtype)->name);
  for (int d = 0; ok && d < t->layout.ndim; d++) ok = add_number(shape, (uint64_t)t->layout.shape[d]);
  ok = ok && add_number(offs, p->begin[i]) && add_number(offs, p->end[i]);
  if (ok && cJSON_AddItemToObject(e, "shape", shape)) shape = NULL;
  if (ok && cJSON_AddItemToObject(e, "data_offsets", offs)) offs = NULL;
  ok = ok && !shape && !offs && cJSON_AddItemToObject(root, p->names[i], e);
  cJSON_Delete(shape);
  cJSON_Delete(offs);
  if (!ok) cJSON_Delete(e);
  return ok;
}

/* The header JSON (cJSON_free it), or NULL when out of memory. */
static char *header_json(const plan *p) {
  cJSON *root = cJSON_CreateObject();
  bool ok = root != NULL;
  if (ok && p->nmeta > 0) {
    cJSON *m = cJSON_AddObjectToObject(root, "__metadata__");
    ok = m != NULL;
    for (int k = 0; ok && k < p->nmeta; k++) ok = cJSON_AddStringToObject(m, p->meta[2 * k], p->meta[2 * k + 1]);
  }
  for (int i = 0; ok && i < p->n; i++) ok = add_tensor(root, p, i);
  char *text = ok ? cJSON_PrintUnformatted(root) : NULL;
  cJSON_Delete(root);
  return text;
}

static lt_status write_file(const plan *p, const char *json, const char *path) {
  size_t len = strlen(json), padded = (len + 7) / 8 * 8;
  if (padded > LT__ST_MAX_HEADER)
    return lt__fail(LT_ERR_ARG, "%s: the header would be %zu bytes, over the format's 100 MB limit", op, padded);
  FILE *f = fopen(path, "wb");
  if (!f) return lt__fail(LT_ERR_IO, "%s: cannot create %s: %s", op, path, strerror(errno));
  unsigned char size[8];
  static const char spaces[8] = "        ";
  lt__put_le64(size, padded);
  lt_status s = lt__write_bytes(f, size, sizeof size, op, path);
  if (s == LT_OK) s = lt__write_bytes(f, json, len, op, path);
  if (s == LT_OK) s = lt__write_bytes(f, spaces, padded - len, op, path);
  for (int k = 0; k < p->n && s == LT_OK; k++) s = lt__write_elements(f, p->tensors[p->order[k]], op, path);
  return lt__finish_file(f, s, op, path);
}

LT_API lt_status lt_safetensors_save(const char *path, int n, const char *const *names,
                                     lt_tensor *const *tensors, const char *const *metadata) {
  plan p = {.n = n, .names = names, .tensors = tensors, .meta = metadata};
  lt_status s = check_args(&p, path);
  if (s != LT_OK) return s;
  size_t cnt = n > 0 ? (size_t)n : 1;
  p.order = lt__alloc(sizeof(int) * cnt, _Alignof(int));
  p.begin = lt__alloc(sizeof(uint64_t) * cnt, _Alignof(uint64_t));
  p.end = lt__alloc(sizeof(uint64_t) * cnt, _Alignof(uint64_t));
  char *json = NULL;
  if (!p.order || !p.begin || !p.end) s = lt__fail(LT_ERR_NOMEM, "%s: out of memory planning %d tensors", op, n);
  if (s == LT_OK) s = place_tensors(&p);
  if (s == LT_OK && !(json = header_json(&p)))
    s = lt__fail(LT_ERR_NOMEM, "%s: out of memory building the header", op);
  if (s == LT_OK) s = write_file(&p, json, path);
  cJSON_free(json);
  lt__free(p.order, sizeof(int) * cnt, _Alignof(int));
  lt__free(p.begin, sizeof(uint64_t) * cnt, _Alignof(uint64_t));
  lt__free(p.end, sizeof(uint64_t) * cnt, _Alignof(uint64_t));
  return s == LT_OK ? lt__ok() : s;
}
