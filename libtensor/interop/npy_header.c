/* The .npy preamble and header. The header is a Python dict literal,
 * e.g. {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }, so a
 * JSON parser does not apply; this reads exactly the subset NumPy writes
 * (quoted strings without escapes, True/False, tuples of non-negative
 * integers) with every read bounds-checked against the buffer. The fuzz
 * target tests/fuzz/fuzz_npy.c drives it. */
#include "npy_header.h"

#include <string.h>

#include "error.h"
#include "file_io.h"

static const char op[] = "load_npy";

typedef struct descr_entry {
  char code[3]; /* kind letter and size, e.g. "f4" */
  lt_dtype dtype;
} descr_entry;

static const descr_entry descrs[] = {
    {"f4", LT_F32}, {"f2", LT_F16}, {"f8", LT_F64}, {"i4", LT_I32},
    {"i8", LT_I64}, {"u1", LT_U8},  {"b1", LT_BOOL},
};

const char *lt__npy_descr(lt_dtype dt) {
  switch (dt) {
  case LT_F32: return "<f4";
  case LT_F16: return "<f2";
  case LT_F64: return "<f8";
  case LT_I32: return "<i4";
  case LT_I64: return "<i8";
  case LT_U8: return "|u1";
  case LT_BOOL: return "|b1";
  default: return NULL;
  }
}

/* ---- preamble ------------------------------------------------------------ */

lt_status lt__npy_data_offset(const unsigned char *buf, size_t n, const char *path, size_t *offset) {
  static const unsigned char magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
  if (n < 10 || memcmp(buf, magic, sizeof magic) != 0)
    return lt__fail(LT_ERR_IO, "%s: %s is not a .npy file (no \\x93NUMPY magic and version)", op, path);
  int major = buf[6], minor = buf[7];
  if (major < 1 || major > 3 || minor != 0)
    return lt__fail(LT_ERR_IO, "%s: %s has .npy format version %d.%d; libtensor reads 1.0, 2.0 and 3.0", op,
                    path, major, minor);
  size_t len, fixed = major == 1 ? 10 : 12;
  if (n < fixed) return lt__fail(LT_ERR_IO, "%s: %s ends inside its .npy preamble", op, path);
  len = major == 1 ? (size_t)buf[8] | (size_t)buf[9] << 8
                   : (size_t)buf[8] | (size_t)buf[9] << 8 | (size_t)buf[10] << 16 | (size_t)buf[11] << 24;
  if (len > LT__NPY_MAX_HEADER)
    return lt__fail(LT_ERR_IO, "%s: %s declares a %zu-byte header; libtensor reads headers up to %zu bytes", op,
                    path, len, LT__NPY_MAX_HEADER);
  *offset = fixed + len;
  return LT_OK;
}

/* ---- the header dict --------------------------------------------------------- */

typedef struct scanner {
  const char *start, *p, *end;
  const char *path;
} scanner;

static lt_status bad(const scanner *s, const char *what) {
  return lt__fail(LT_ERR_IO, "%s: %s has a malformed .npy header at byte %td: %s", op, s->path,
                  s->p - s->start, what);
}

static void skip_space(scanner *s) {
  while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r')) s->p++;
}

static bool eat(scanner *s, char c) {
  skip_space(s);
  if (s->p < s->end && *s->p == c) {
    s->p++;
    return true;
  }
  return false;
}

static bool at(scanner *s, char c) {
  skip_space(s);
  return s->p < s->end && *s->p == c;
}

/* A quoted string with no escapes; *str points into the buffer. */
static bool string_literal(scanner *s, const char **str, size_t *len) {
  skip_space(s);
  if (s->p >= s->end || (*s->p != '\'' && *s->p != '"')) return false;
  char quote = *s->p++;
  const char *begin = s->p;
  while (s->p < s->end && *s->p != quote && *s->p != '\\' && *s->p != '\n') s->p++;
  if (s->p >= s->end || *s->p != quote) return false;
  *str = begin;
  *len = (size_t)(s->p - begin);
  s->p++;
  return true;
}

static bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* True or False, as a whole word. */
static bool bool_literal(scanner *s, bool *v) {
  skip_space(s);
  size_t left = (size_t)(s->end - s->p);
  for (int b = 0; b < 2; b++) {
    const char *w = b ? "True" : "False";
    size_t len = strlen(w);
    if (left >= len && memcmp(s->p, w, len) == 0 && (left == len || !is_word_char(s->p[len]))) {
      s->p += len;
      *v = b;
      return true;
    }
  }
  return false;
}

/* A non-negative decimal integer (Python 2's NumPy wrote a trailing L). */
static bool int_literal(scanner *s, int64_t *v) {
  skip_space(s);
  if (s->p >= s->end || *s->p < '0' || *s->p > '9') return false;
  int64_t x = 0;
  while (s->p < s->end && *s->p >= '0' && *s->p <= '9') {
    if (__builtin_mul_overflow(x, 10, &x) || __builtin_add_overflow(x, *s->p - '0', &x)) return false;
    s->p++;
  }
  if (s->p < s->end && *s->p == 'L') s->p++;
  *v = x;
  return s->p >= s->end || !is_word_char(*s->p);
}

/* (), (n,), (n, m), ... : a tuple, so a single entry needs its comma. */
static lt_status shape_tuple(scanner *s, lt__npy_header *h) {
  if (!eat(s, '(')) return bad(s, "'shape' is not a tuple");
  int n = 0;
  bool comma = false;
  while (!eat(s, ')')) {
    int64_t v;
    if (!int_literal(s, &v)) return bad(s, "a shape entry is not a non-negative integer that fits int64");
    if (n < LT_MAX_DIMS) h->shape[n] = v;
    n++;
    comma = eat(s, ',');
    if (!comma && !at(s, ')')) return bad(s, "expected ',' or ')' in 'shape'");
  }
  if (n == 1 && !comma) return bad(s, "'shape' (n) is not a tuple; NumPy writes (n,)");
  h->ndim = n;
  return LT_OK;
}

/* Skips a bracketed value (a structured dtype's list of tuples), quotes
 * respected; false if it never closes. */
static bool skip_brackets(scanner *s) {
  int depth = 0;
  char quote = 0;
  for (; s->p < s->end; s->p++) {
    char c = *s->p;
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '[' || c == '(') {
      depth++;
    } else if ((c == ']' || c == ')') && --depth == 0) {
      s->p++;
      return true;
    }
  }
  return false;
}

/* The descr's text, checked for syntax only: it is interpreted once the
 * whole dict has parsed, so a malformed header is reported as such. */
typedef struct descr_text {
  const char *text;
  size_t len;
  bool structured;
} descr_text;

static lt_status descr_value(scanner *s, descr_text *d) {
  if (at(s, '[')) {
    d->structured = true;
    return skip_brackets(s) ? LT_OK : bad(s, "'descr' list never closes");
  }
  return string_literal(s, &d->text, &d->len) ? LT_OK : bad(s, "'descr' is not a quoted string");
}

static lt_status interpret_descr(const scanner *s, const descr_text *d, lt__npy_header *h) {
  if (d->structured)
    return lt__fail(LT_ERR_DTYPE, "%s: %s holds a structured dtype; libtensor reads plain <f4 <f2 <f8 <i4 <i8 "
                                  "|u1 |b1 arrays", op, s->path);
  if (d->len == 3 && strchr("<>|=", d->text[0]))
    for (size_t i = 0; i < sizeof descrs / sizeof descrs[0]; i++)
      if (memcmp(d->text + 1, descrs[i].code, 2) == 0) {
        h->dtype = descrs[i].dtype;
        h->big_endian = d->text[0] == '>' && descrs[i].code[1] != '1';
        return LT_OK;
      }
  return lt__fail(LT_ERR_DTYPE, "%s: %s has descr '%.*s'; libtensor reads <f4 <f2 <f8 <i4 <i8 |u1 |b1 (and "
                                "big-endian >f4 ...)", op, s->path, d->len > 32 ? 32 : (int)d->len, d->text);
}

enum { KEY_DESCR, KEY_FORTRAN, KEY_SHAPE, NKEYS };
static const char *const keys[NKEYS] = {"descr", "fortran_order", "shape"};

static lt_status dict_entry(scanner *s, lt__npy_header *h, descr_text *descr, bool *seen) {
  const char *k;
  size_t len;
  if (!string_literal(s, &k, &len)) return bad(s, "expected a quoted key");
  int key = 0;
  while (key < NKEYS && !(strlen(keys[key]) == len && memcmp(keys[key], k, len) == 0)) key++;
  if (key == NKEYS) return bad(s, "unexpected key (NumPy writes exactly 'descr', 'fortran_order', 'shape')");
  if (seen[key]) return bad(s, "a key appears twice");
  seen[key] = true;
  if (!eat(s, ':')) return bad(s, "expected ':' after a key");
  if (key == KEY_DESCR) return descr_value(s, descr);
  if (key == KEY_SHAPE) return shape_tuple(s, h);
  return bool_literal(s, &h->fortran) ? LT_OK : bad(s, "'fortran_order' is not True or False");
}

static lt_status element_count(const scanner *s, lt__npy_header *h) {
  if (h->ndim > LT_MAX_DIMS)
    return lt__fail(LT_ERR_SHAPE, "%s: %s holds a %d-dim array; libtensor tensors have at most %d dims", op,
                    s->path, h->ndim, LT_MAX_DIMS);
  int64_t numel = 1, bytes;
  bool empty = false;
  for (int i = 0; i < h->ndim; i++) empty = empty || h->shape[i] == 0;
  for (int i = 0; i < h->ndim && !empty; i++)
    if (__builtin_mul_overflow(numel, h->shape[i], &numel))
      return lt__fail(LT_ERR_IO, "%s: %s declares more elements than int64 can count", op, s->path);
  if (empty) numel = 0;
  if (__builtin_mul_overflow(numel, (int64_t)lt_dtype_size(h->dtype), &bytes))
    return lt__fail(LT_ERR_IO, "%s: %s declares more bytes than int64 can count", op, s->path);
  h->numel = numel;
  return LT_OK;
}

lt_status lt__npy_parse(const unsigned char *buf, size_t n, const char *path, lt__npy_header *h) {
  size_t offset;
  lt_status st = lt__npy_data_offset(buf, n, path, &offset);
  if (st != LT_OK) return st;
  if (n < offset) return lt__fail(LT_ERR_IO, "%s: %s ends inside its .npy header", op, path);
  *h = (lt__npy_header){.major = buf[6], .data_offset = offset};
  size_t fixed = h->major == 1 ? 10 : 12;
  scanner s = {.start = (const char *)buf + fixed, .p = (const char *)buf + fixed,
               .end = (const char *)buf + offset, .path = path};
  bool seen[NKEYS] = {false};
  descr_text descr = {0};
  if (!eat(&s, '{')) return bad(&s, "the header is not a dict");
  while (!eat(&s, '}')) {
    if ((st = dict_entry(&s, h, &descr, seen)) != LT_OK) return st;
    if (!eat(&s, ',') && !at(&s, '}')) return bad(&s, "expected ',' or '}'");
  }
  skip_space(&s);
  if (s.p != s.end) return bad(&s, "text after the header dict");
  for (int k = 0; k < NKEYS; k++)
    if (!seen[k]) return lt__fail(LT_ERR_IO, "%s: %s's .npy header has no '%s'", op, path, keys[k]);
  st = interpret_descr(&s, &descr, h);
  return st == LT_OK ? element_count(&s, h) : st;
}
