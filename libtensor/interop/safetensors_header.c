/* Parsing and checking a safetensors header with cJSON. Everything the
 * header claims is checked against the file before any view is made: the
 * header length, UTF-8, the JSON itself, dtypes, that each shape's byte
 * size equals its offset range, and that the ranges tile the data exactly
 * (no gap, overlap or overrun), as the format's reference reader demands.
 * The fuzz target tests/fuzz/fuzz_safetensors.c drives it. */
#include "safetensors_header.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "error.h"
#include "file_io.h"

static const char op[] = "safetensors_open";

static const lt__st_dtype dtypes[] = {
    {"F32", 32, LT_F32},         {"F16", 16, LT_F16},         {"BF16", 16, LT_BF16},
    {"F8_E4M3", 8, LT_F8_E4M3},  {"F8_E5M2", 8, LT_F8_E5M2},  {"F64", 64, LT_F64},
    {"I32", 32, LT_I32},         {"I64", 64, LT_I64},         {"U8", 8, LT_U8},
    {"BOOL", 8, LT_BOOL},        {"I8", 8, -1},               {"I16", 16, -1},
    {"U16", 16, -1},             {"U32", 32, -1},             {"U64", 64, -1},
    {"F8_E8M0", 8, -1},          {"C64", 64, -1},             {"F4", 4, -1},
    {"F6_E2M3", 6, -1},          {"F6_E3M2", 6, -1},
};
#define NDTYPES ((int)(sizeof dtypes / sizeof dtypes[0]))

const lt__st_dtype *lt__st_dtype_of(lt_dtype dt) {
  for (int i = 0; i < NDTYPES; i++)
    if (dtypes[i].lt == (int)dt) return &dtypes[i];
  return NULL;
}

static const lt__st_dtype *dtype_named(const char *name) {
  for (int i = 0; i < NDTYPES; i++)
    if (strcmp(dtypes[i].name, name) == 0) return &dtypes[i];
  return NULL;
}

/* ---- small helpers ------------------------------------------------------------ */

static char *copy_string(const char *s) {
  size_t n = strlen(s) + 1;
  char *c = lt__alloc(n, 1);
  if (c) memcpy(c, s, n);
  return c;
}

static void free_string(char *s) {
  if (s) lt__free(s, strlen(s) + 1, 1);
}

/* Strict UTF-8: no overlong forms, surrogates or code points past U+10FFFF. */
static bool valid_utf8(const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n;) {
    unsigned c = p[i];
    size_t len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (len == 0 || n - i < len) return false;
    uint32_t cp = len == 1 ? c : len == 2 ? c & 0x1F : len == 3 ? c & 0x0F : c & 0x07;
    for (size_t k = 1; k < len; k++) {
      if ((p[i + k] & 0xC0) != 0x80) return false;
      cp = cp << 6 | (p[i + k] & 0x3F);
    }
    static const uint32_t min_cp[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_cp[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += len;
  }
  return true;
}

/* A JSON number that is a non-negative integer exactly representable in a
 * double (2^53 bytes is far beyond any file). */
static bool json_uint(const cJSON *j, uint64_t *v) {
  if (!cJSON_IsNumber(j)) return false;
  double d = j->valuedouble;
  if (!(d >= 0 && d <= 9007199254740992.0) || d != (double)(uint64_t)d) return false;
  *v = (uint64_t)d;
  return true;
}

/* ---- building the header -------------------------------------------------------- */

typedef struct parse_ctx {
  const char *path;
  lt__st_header *h;
  uint64_t data_len;
} parse_ctx;

static lt_status bad_tensor(const parse_ctx *c, const char *name, const char *what) {
  return lt__fail(LT_ERR_IO, "%s: %s is not a valid safetensors file: tensor '%.64s': %s", op, c->path, name,
                  what);
}

static int by_key(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static lt_status read_metadata(parse_ctx *c, const cJSON *m) {
  if (cJSON_IsNull(m)) return LT_OK;
  if (!cJSON_IsObject(m) || c->h->meta)
    return lt__fail(LT_ERR_IO, "%s: %s is not a valid safetensors file: __metadata__ is repeated or not an object",
                    op, c->path);
  int n = cJSON_GetArraySize(m);
  c->h->meta = lt__alloc(sizeof(char *) * (size_t)(2 * n + 1), _Alignof(char *));
  if (!c->h->meta) return lt__fail(LT_ERR_NOMEM, "%s: out of memory for %s's metadata", op, c->path);
  c->h->meta_cap = 2 * n + 1;
  memset(c->h->meta, 0, sizeof(char *) * (size_t)c->h->meta_cap);
  const cJSON *kv;
  cJSON_ArrayForEach(kv, m) {
    if (!cJSON_IsString(kv))
      return lt__fail(LT_ERR_IO, "%s: %s is not a valid safetensors file: __metadata__ value of '%.64s' is not a "
                                 "string", op, c->path, kv->string);
    char **slot = &c->h->meta[2 * c->h->nmeta];
    if (!(slot[0] = copy_string(kv->string)) || !(slot[1] = copy_string(kv->valuestring)))
      return lt__fail(LT_ERR_NOMEM, "%s: out of memory for %s's metadata", op, c->path);
    c->h->nmeta++;
  }
  /* Sorted by key, so a repeated key sits next to itself. */
  qsort(c->h->meta, (size_t)c->h->nmeta, 2 * sizeof(char *), by_key);
  for (int i = 1; i < c->h->nmeta; i++)
    if (strcmp(c->h->meta[2 * i - 2], c->h->meta[2 * i]) == 0)
      return lt__fail(LT_ERR_IO, "%s: %s is not a valid safetensors file: __metadata__ key '%.64s' repeats", op,
                      c->path, c->h->meta[2 * i]);
  return LT_OK;
}

static lt_status read_shape(const parse_ctx *c, const cJSON *shape, lt__st_entry *e, uint64_t *numel) {
  if (!cJSON_IsArray(shape)) return bad_tensor(c, e->name, "shape is not an array");
  uint64_t n = 1;
  bool overflow = false, empty = false;
  const cJSON *d;
  e->ndim = 0;
  cJSON_ArrayForEach(d, shape) {
    uint64_t v;
    if (!json_uint(d, &v)) return bad_tensor(c, e->name, "a shape entry is not a non-negative integer");
    if (e->ndim < LT_MAX_DIMS) e->shape[e->ndim] = (int64_t)v;
    if (e->ndim < 1 << 30) e->ndim++;
    empty = empty || v == 0;
    overflow = overflow || __builtin_mul_overflow(n, v, &n);
  }
  if (overflow && !empty) return bad_tensor(c, e->name, "the shape has more elements than 64 bits count");
  *numel = empty ? 0 : n;
  return LT_OK;
}

static lt_status read_tensor(parse_ctx *c, const cJSON *j, lt__st_entry *e) {
  if (!(e->name = copy_string(j->string)))
    return lt__fail(LT_ERR_NOMEM, "%s: out of memory reading %s", op, c->path);
  if (!cJSON_IsObject(j)) return bad_tensor(c, e->name, "its entry is not an object");
  const cJSON *dt = cJSON_GetObjectItemCaseSensitive(j, "dtype");
  const cJSON *shape = cJSON_GetObjectItemCaseSensitive(j, "shape");
  const cJSON *offs = cJSON_GetObjectItemCaseSensitive(j, "data_offsets");
  if (!cJSON_IsString(dt)) return bad_tensor(c, e->name, "dtype is missing or not a string");
  if (!(e->dtype = dtype_named(dt->valuestring))) return bad_tensor(c, e->name, "dtype is not a safetensors dtype");
  uint64_t numel = 0, bits;
  lt_status s = read_shape(c, shape, e, &numel);
  if (s != LT_OK) return s;
  if (!cJSON_IsArray(offs) || cJSON_GetArraySize(offs) != 2 || !json_uint(offs->child, &e->begin) ||
      !json_uint(offs->child->next, &e->end) || e->begin > e->end)
    return bad_tensor(c, e->name, "data_offsets is not [begin, end] with 0 <= begin <= end");
  if (__builtin_mul_overflow(numel, (uint64_t)e->dtype->bits, &bits) || bits % 8 != 0 ||
      bits / 8 != e->end - e->begin)
    return bad_tensor(c, e->name, "its shape and dtype do not fill data_offsets exactly");
  return LT_OK;
}

/* ---- whole-file checks ------------------------------------------------------------ */

static int by_offsets(const void *a, const void *b) {
  const lt__st_entry *x = *(const lt__st_entry *const *)a, *y = *(const lt__st_entry *const *)b;
  if (x->begin != y->begin) return x->begin < y->begin ? -1 : 1;
  return x->end < y->end ? -1 : x->end > y->end;
}

static int by_names(const void *a, const void *b) {
  return strcmp((*(const lt__st_entry *const *)a)->name, (*(const lt__st_entry *const *)b)->name);
}

/* Sorts entries by offsets and by name: the ranges must tile the data and
 * names must be unique. Fills h->by_name. */
static lt_status check_entries(parse_ctx *c) {
  lt__st_header *h = c->h;
  if (h->n == 0) {
    if (c->data_len == 0) return LT_OK;
    return lt__fail(LT_ERR_IO, "%s: %s is not a valid safetensors file: %llu data bytes belong to no tensor", op,
                    c->path, (unsigned long long)c->data_len);
  }
  size_t bytes = sizeof(lt__st_entry *) * (size_t)h->n;
  lt__st_entry **order = lt__alloc(bytes, _Alignof(lt__st_entry *));
  h->by_name = lt__alloc(sizeof(int) * (size_t)h->n, _Alignof(int));
  if (!order || !h->by_name) {
    lt__free(order, bytes, _Alignof(lt__st_entry *));
    return lt__fail(LT_ERR_NOMEM, "%s: out of memory checking %s", op, c->path);
  }
  lt_status s = LT_OK;
  for (int i = 0; i < h->n; i++) order[i] = &h->entries[i];
  qsort(order, (size_t)h->n, sizeof *order, by_offsets);
  uint64_t expect = 0;
  for (int i = 0; i < h->n && s == LT_OK; i++) {
    if (order[i]->begin != expect)
      s = bad_tensor(c, order[i]->name, order[i]->begin > expect ? "a gap precedes its data_offsets"
                                                                  : "its data_offsets overlap another tensor's");
    expect = order[i]->end;
  }
  if (s == LT_OK && expect != c->data_len)
    s = lt__fail(LT_ERR_IO, "%s: %s is not a valid safetensors file: the tensors cover %llu data bytes but the "
                            "file holds %llu", op, c->path, (unsigned long long)expect,
                 (unsigned long long)c->data_len);
  qsort(order, (size_t)h->n, sizeof *order, by_names);
  for (int i = 0; i < h->n && s == LT_OK; i++) {
    if (i > 0 && strcmp(order[i - 1]->name, order[i]->name) == 0)
      s = bad_tensor(c, order[i]->name, "the name appears twice");
    h->by_name[i] = (int)(order[i] - h->entries);
  }
  lt__free(order, bytes, _Alignof(lt__st_entry *));
  return s;
}

static lt_status read_root(parse_ctx *c, const cJSON *root) {
  lt__st_header *h = c->h;
  if (!cJSON_IsObject(root))
    return lt__fail(LT_ERR_IO, "%s: %s is not a valid safetensors file: the header is not a JSON object", op,
                    c->path);
  int n = cJSON_GetArraySize(root);
  if (n > 0) {
    h->entries = lt__alloc(sizeof(lt__st_entry) * (size_t)n, _Alignof(lt__st_entry));
    if (!h->entries) return lt__fail(LT_ERR_NOMEM, "%s: out of memory for %s's %d entries", op, c->path, n);
    h->entries_cap = n;
    memset(h->entries, 0, sizeof(lt__st_entry) * (size_t)n);
  }
  const cJSON *j;
  cJSON_ArrayForEach(j, root) {
    lt_status s = strcmp(j->string, "__metadata__") == 0 ? read_metadata(c, j) : read_tensor(c, j, &h->entries[h->n++]);
    if (s != LT_OK) return s;
  }
  return check_entries(c);
}

/* The JSON text, NUL-terminated so cJSON never reads past it. */
static lt_status parse_json(const unsigned char *text, size_t len, const char *path, cJSON **root) {
  char *buf = lt__alloc(len + 1, 1);
  if (!buf) return lt__fail(LT_ERR_NOMEM, "%s: out of memory for %s's %zu-byte header", op, path, len);
  memcpy(buf, text, len);
  buf[len] = '\0';
  const char *end = NULL;
  *root = cJSON_ParseWithOpts(buf, &end, 0);
  lt_status s = LT_OK;
  size_t at = end ? (size_t)(end - buf) : 0;
  if (!*root) {
    s = lt__fail(LT_ERR_IO, "%s: %s is not a valid safetensors file: its header is not valid JSON (byte %zu)", op,
                 path, at);
  } else {
    while (at < len && (buf[at] == ' ' || buf[at] == '\n' || buf[at] == '\r' || buf[at] == '\t')) at++;
    if (at != len) {
      s = lt__fail(LT_ERR_IO, "%s: %s is not a valid safetensors file: text follows the header's JSON (byte %zu)", op,
                   path, at);
      cJSON_Delete(*root);
      *root = NULL;
    }
  }
  lt__free(buf, len + 1, 1);
  return s;
}

lt_status lt__st_parse(const unsigned char *data, size_t size, const char *path, lt__st_header *h) {
  *h = (lt__st_header){0};
  if (size < 8)
    return lt__fail(LT_ERR_IO, "%s: %s is not a safetensors file: %zu bytes, less than the 8-byte header length",
                    op, path, size);
  uint64_t len = lt__le64(data);
  if (len > size - 8 || len > LT__ST_MAX_HEADER)
    return lt__fail(LT_ERR_IO, "%s: %s is not a safetensors file: header length %llu exceeds the %zu bytes left "
                               "(or the format's 100 MB limit)", op, path, (unsigned long long)len, size - 8);
  const unsigned char *text = data + 8;
  if (len == 0 || text[0] != '{')
    return lt__fail(LT_ERR_IO, "%s: %s is not a safetensors file: the header does not start with '{'", op, path);
  if (!valid_utf8(text, (size_t)len))
    return lt__fail(LT_ERR_IO, "%s: %s is not a valid safetensors file: its header is not UTF-8", op, path);
  cJSON *root = NULL;
  lt_status s = parse_json(text, (size_t)len, path, &root);
  if (s != LT_OK) return s;
  parse_ctx c = {.path = path, .h = h, .data_len = size - 8 - len};
  h->data_start = 8 + len;
  s = read_root(&c, root);
  cJSON_Delete(root);
  if (s != LT_OK) lt__st_header_free(h);
  return s;
}

void lt__st_header_free(lt__st_header *h) {
  for (int i = 0; i < h->n; i++) free_string(h->entries[i].name);
  lt__free(h->entries, sizeof(lt__st_entry) * (size_t)h->entries_cap, _Alignof(lt__st_entry));
  lt__free(h->by_name, sizeof(int) * (size_t)h->n, _Alignof(int));
  for (int i = 0; i < 2 * h->nmeta; i++) free_string(h->meta[i]);
  lt__free(h->meta, sizeof(char *) * (size_t)h->meta_cap, _Alignof(char *));
  *h = (lt__st_header){0};
}

int lt__st_find(const lt__st_header *h, const char *name) {
  int lo = 0, hi = h->n - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2, c = strcmp(h->entries[h->by_name[mid]].name, name);
    if (c == 0) return h->by_name[mid];
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
