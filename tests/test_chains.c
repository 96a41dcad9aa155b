/* Random chains of view and copy ops checked against the index model
 * (support/index_model.h). Before each step the model decides whether the
 * op is valid and which status the library must give; after each
 * successful step the shape, every value, every element's storage index
 * (offset + sum(index * stride)), contiguity, storage sharing and the copy
 * counters must be what the model says. A failure prints the chain's ops
 * and arguments so it can be replayed by hand. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/check_helpers.h"
#include "support/index_model.h"

enum {
  MAX_STEPS = 8,
  MAX_NUMEL = 4096, /* expand keeps a chain's tensors at most this big */
  LOG_SIZE = 3072
};

typedef enum op_kind {
  OP_VIEW, OP_RESHAPE, OP_FLATTEN, OP_UNFLATTEN, OP_SLICE, OP_SELECT, OP_NARROW, OP_TRANSPOSE,
  OP_PERMUTE, OP_MOVEDIM, OP_EXPAND, OP_SQUEEZE, OP_SQUEEZE_ALL, OP_UNSQUEEZE, OP_DIAGONAL,
  OP_CONTIGUOUS, OP_CLONE
} op_kind;

static const char *const op_names[] = {
  "view", "reshape", "flatten", "unflatten", "slice", "select", "narrow", "transpose",
  "permute", "movedim", "expand", "squeeze", "squeeze_all", "unsqueeze", "diagonal",
  "contiguous", "clone"};

/* One op and its arguments; which fields count depends on kind. */
typedef struct op {
  op_kind kind;
  int d0, d1;                   /* dims */
  int perm[LT_MAX_DIMS];
  int n;                        /* entries in sizes */
  int64_t sizes[LT_MAX_DIMS];   /* view/reshape/expand shape, unflatten sizes */
  int64_t a, b, step;           /* slice start/stop; select index; narrow start/length; diagonal offset */
  bool forbid;                  /* run under LT_COPY_FORBID */
} op;

/* What a family of chains draws from. */
typedef struct profile {
  const char *name;
  uint64_t seed;
  int chains;
  const op_kind *ops;
  int nops;
  bool empty_or_scalar; /* every base is 0-dim or has a size-0 dim */
  int zero_size_pct;    /* chance that a base size is 0 */
  int bad_pct;          /* chance that an op's arguments carry one defect */
  int extreme_pct;      /* chance that a bound, step, index or offset is huge */
  int forbid_pct;       /* chance that a reshape or flatten runs under LT_COPY_FORBID */
  bool views_only;      /* after a non-viewable view, go on from its input, not the reshape copy */
} profile;

typedef struct chain {
  const profile *p;
  uint64_t rng;
  lt_tensor *t; /* the current tensor, which the model describes */
  lt_model m;
  lt_tensor *roots[MAX_STEPS + 1]; /* roots[s] owns storage id s */
  int nroots;
  char log[LOG_SIZE];
  size_t len;
} chain;

/* ---- Reporting ---------------------------------------------------------- */

static void say(chain *c, const char *fmt, ...) {
  if (c->len >= sizeof c->log) return;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(c->log + c->len, sizeof c->log - c->len, fmt, ap);
  va_end(ap);
  if (n > 0) c->len += (size_t)n;
}

static void chain_fail(const chain *c, int line, const char *fmt, ...) {
  char msg[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  ck_abort_msg("test_chains.c:%d: %s\n  chain: %s", line, msg, c->log);
}

#define REQUIRE(c, cond, ...)                                \
  do {                                                       \
    if (!(cond)) chain_fail((c), __LINE__, __VA_ARGS__);     \
  } while (0)

static const char *dims_str(char *buf, size_t n, int ndim, const int64_t *v) {
  size_t k = (size_t)snprintf(buf, n, "[");
  for (int i = 0; i < ndim && k < n; i++)
    k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? "," : "", (long long)v[i]);
  if (k < n) snprintf(buf + k, n - k, "]");
  return buf;
}

static const char *bound_str(char *buf, size_t n, int64_t v) {
  if (v == LT_NONE) snprintf(buf, n, "LT_NONE");
  else snprintf(buf, n, "%lld", (long long)v);
  return buf;
}

static void say_op(chain *c, const op *o) {
  char s[LT_MAX_DIMS * 24], x[24], y[24];
  say(c, "\n    %s(", op_names[o->kind]);
  switch (o->kind) {
  case OP_VIEW: case OP_RESHAPE: case OP_EXPAND:
    say(c, "%d, %s)", o->n, dims_str(s, sizeof s, o->n, o->sizes));
    break;
  case OP_FLATTEN: case OP_TRANSPOSE: case OP_MOVEDIM:
    say(c, "%d, %d)", o->d0, o->d1);
    break;
  case OP_UNFLATTEN:
    say(c, "dim %d, %d, %s)", o->d0, o->n, dims_str(s, sizeof s, o->n, o->sizes));
    break;
  case OP_SLICE:
    say(c, "dim %d, %s, %s, %lld)", o->d0, bound_str(x, sizeof x, o->a), bound_str(y, sizeof y, o->b),
        (long long)o->step);
    break;
  case OP_SELECT:
    say(c, "dim %d, %lld)", o->d0, (long long)o->a);
    break;
  case OP_NARROW:
    say(c, "dim %d, %lld, %lld)", o->d0, (long long)o->a, (long long)o->b);
    break;
  case OP_PERMUTE: {
    int64_t p[LT_MAX_DIMS];
    for (int i = 0; i < o->n; i++) p[i] = o->perm[i];
    say(c, "%s)", dims_str(s, sizeof s, o->n, p));
    break;
  }
  case OP_SQUEEZE: case OP_UNSQUEEZE:
    say(c, "%d)", o->d0);
    break;
  case OP_DIAGONAL:
    say(c, "offset %lld, %d, %d)", (long long)o->a, o->d0, o->d1);
    break;
  default:
    say(c, ")");
  }
  if (o->forbid) say(c, " under LT_COPY_FORBID");
}

static void say_tensor(chain *c, const char *what, const lt_tensor *t) {
  char d[LT_MAX_DIMS * 48];
  lt_describe(t, d, sizeof d);
  say(c, " -> %s%s", what, d);
}

/* ---- Random arguments --------------------------------------------------- */

static uint64_t next_u64(chain *c) {
  uint64_t x = c->rng;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return c->rng = x;
}

/* Uniform in [0, n); n >= 1. */
static int64_t below(chain *c, int64_t n) { return (int64_t)(next_u64(c) % (uint64_t)n); }
static int64_t between(chain *c, int64_t lo, int64_t hi) { return lo + below(c, hi - lo + 1); }
static bool chance(chain *c, int pct) { return below(c, 100) < pct; }

/* A valid dim for `range` positions (max(ndim, 1) for most ops), in its
 * positive or negative spelling. */
static int good_dim(chain *c, int range) {
  int d = (int)below(c, range);
  return chance(c, 50) ? d - range : d;
}

static int bad_dim(chain *c, int range) {
  return chance(c, 50) ? range + (int)below(c, 3) : -range - 1 - (int)below(c, 3);
}

static int dim_range(const lt_model *m) { return m->ndim > 0 ? m->ndim : 1; }

static int64_t huge(chain *c) {
  static const int64_t v[] = {INT64_MAX, -INT64_MAX, INT64_MAX / 2, INT64_MIN / 2};
  return v[below(c, 4)];
}

static int64_t divisor_of(chain *c, int64_t n) {
  int64_t d[128];
  int k = 0;
  for (int64_t i = 1; i * i <= n; i++)
    if (n % i == 0) {
      d[k++] = i;
      if (i != n / i) d[k++] = n / i;
    }
  return d[below(c, k)];
}

static void shuffle(chain *c, int64_t *v, int n) {
  for (int i = n - 1; i > 0; i--) {
    int j = (int)below(c, i + 1);
    int64_t x = v[i];
    v[i] = v[j], v[j] = x;
  }
}

/* k sizes whose product is numel: a random factorisation when numel > 0,
 * else small sizes with at least one 0. */
static void sizes_for(chain *c, int64_t numel, int k, int64_t *out) {
  if (k == 0) return; /* numel is 1 */
  if (numel == 0) {
    for (int i = 0; i < k; i++) out[i] = below(c, 4);
    out[below(c, k)] = 0;
    return;
  }
  for (int i = 0; i < k - 1; i++) {
    out[i] = divisor_of(c, numel);
    numel /= out[i];
  }
  out[k - 1] = numel;
  shuffle(c, out, k);
}

/* One defect in a list of sizes with the right product: a wrong product,
 * a second -1, or a size below -1. */
static void spoil_sizes(chain *c, int *n, int64_t *s) {
  int kind = (int)below(c, 3);
  if (*n == 0) s[(*n)++] = 1;
  int i = (int)below(c, *n);
  if (kind == 0) {
    s[i] = s[i] == -1 ? 2 : s[i] + 1 + below(c, 2);
  } else if (kind == 1) {
    if (*n == 1) s[(*n)++] = -1;
    s[i] = -1;
    s[(i + 1) % *n] = -1;
  } else {
    s[i] = -2 - below(c, 3);
  }
}

/* A target shape for view/reshape with the current numel, built the ways
 * programs build them: merging adjacent dims, splitting one, factorising,
 * permuting the sizes (rarely viewable), adding or dropping a 1. */
static void gen_shape(chain *c, op *o, bool bad) {
  const lt_model *m = &c->m;
  int64_t *s = o->sizes;
  int n = m->ndim;
  memcpy(s, m->shape, sizeof o->sizes);
  switch (below(c, 5)) {
  case 0:
    if (n > 0) { /* merge dims i..j, mostly at least two */
      int i = (int)below(c, n), j = i + 1 < n && chance(c, 80) ? (int)between(c, i + 1, n - 1) : i;
      for (int k = i + 1; k <= j; k++) s[i] *= m->shape[k];
      memmove(s + i + 1, m->shape + j + 1, sizeof *s * (size_t)(n - j - 1));
      n -= j - i;
    }
    break;
  case 1:
    if (n > 0 && n < LT_MAX_DIMS) {
      int d = (int)below(c, n);
      int64_t size = m->shape[d], f = size > 0 ? divisor_of(c, size) : below(c, 4);
      memmove(s + d + 1, m->shape + d, sizeof *s * (size_t)(n - d));
      s[d] = f;
      s[d + 1] = size > 0 ? size / f : 0;
      if (size == 0 && chance(c, 50)) s[d] = 0, s[d + 1] = f;
      n++;
    }
    break;
  case 2:
    n = m->numel == 1 ? (int)below(c, 4) : 1 + (int)below(c, 5);
    sizes_for(c, m->numel, n, s);
    break;
  case 3:
    shuffle(c, s, n);
    break;
  default: {
    int ones = 0;
    for (int i = 0; i < n; i++) ones += s[i] == 1;
    if (ones > 0 && chance(c, 50)) {
      int skip = (int)below(c, ones);
      for (int i = 0; i < n; i++)
        if (s[i] == 1 && skip-- == 0) {
          memmove(s + i, s + i + 1, sizeof *s * (size_t)(n - i - 1));
          n--;
          break;
        }
    } else if (n < LT_MAX_DIMS) {
      int at = (int)below(c, n + 1);
      memmove(s + at + 1, s + at, sizeof *s * (size_t)(n - at));
      s[at] = 1;
      n++;
    }
  }
  }
  if (n > 0 && chance(c, 25)) s[below(c, n)] = -1;
  if (bad) spoil_sizes(c, &n, s);
  o->n = n;
}

static void gen_flatten(chain *c, op *o, bool bad) {
  const lt_model *m = &c->m;
  int r = dim_range(m);
  int s = (int)below(c, r), e = (int)between(c, s, r - 1);
  bool reversed = bad && m->ndim >= 2 && chance(c, 50);
  if (reversed) {
    e = (int)below(c, r - 1);
    s = (int)between(c, e + 1, r - 1);
  }
  o->d0 = chance(c, 50) ? s - r : s;
  o->d1 = chance(c, 50) ? e - r : e;
  if (bad && !reversed) *(chance(c, 50) ? &o->d0 : &o->d1) = bad_dim(c, r);
}

static void gen_unflatten(chain *c, op *o, bool bad) {
  const lt_model *m = &c->m;
  int r = dim_range(m);
  o->d0 = good_dim(c, r);
  if (m->ndim == 0) { /* 0-dim: the only defect is having no dim to split */
    o->n = 1;
    o->sizes[0] = chance(c, 50) ? 1 : -1;
    return;
  }
  int d = o->d0 < 0 ? o->d0 + r : o->d0;
  o->n = 1 + (int)below(c, 3);
  if (m->ndim - 1 + o->n > LT_MAX_DIMS) o->n = 1;
  sizes_for(c, m->shape[d], o->n, o->sizes);
  if (chance(c, 30)) o->sizes[below(c, o->n)] = -1;
  if (!bad) return;
  if (chance(c, 50)) o->d0 = bad_dim(c, r);
  else spoil_sizes(c, &o->n, o->sizes);
}

static int64_t gen_bound(chain *c, int64_t size) {
  if (chance(c, 25)) return LT_NONE;
  if (chance(c, c->p->extreme_pct)) return huge(c);
  return between(c, -size - 2, size + 2);
}

/* i in [0, size) spelled as i or i - size. */
static int64_t spell(chain *c, int64_t i, int64_t size) { return chance(c, 30) ? i - size : i; }

static void gen_slice(chain *c, op *o, bool bad) {
  const lt_model *m = &c->m;
  int r = dim_range(m);
  o->d0 = good_dim(c, r);
  int64_t size = m->ndim > 0 ? m->shape[o->d0 < 0 ? o->d0 + r : o->d0] : 1;
  static const int64_t huge_steps[] = {INT64_MAX, INT64_MIN, -INT64_MAX};
  if (chance(c, c->p->extreme_pct)) o->step = huge_steps[below(c, 3)];
  else o->step = chance(c, 50) ? between(c, 1, 3) : -between(c, 1, 3);
  if (size > 0 && chance(c, 60)) { /* a non-empty run lo..hi-1, walked either way */
    int64_t lo = below(c, size), hi = between(c, lo + 1, size);
    if (o->step > 0) {
      o->a = lo == 0 && chance(c, 30) ? LT_NONE : spell(c, lo, size);
      o->b = hi == size ? (chance(c, 50) ? LT_NONE : size) : spell(c, hi, size);
    } else {
      o->a = hi == size && chance(c, 30) ? LT_NONE : spell(c, hi - 1, size);
      o->b = lo == 0 ? LT_NONE : spell(c, lo - 1, size);
    }
  } else {
    o->a = gen_bound(c, size);
    o->b = gen_bound(c, size);
  }
  if (bad && m->ndim > 0) {
    if (chance(c, 50)) o->step = 0;
    else o->d0 = bad_dim(c, r);
  }
}

static void gen_select(chain *c, op *o, bool bad) {
  const lt_model *m = &c->m;
  int r = dim_range(m);
  o->d0 = good_dim(c, r);
  int64_t size = m->ndim > 0 ? m->shape[o->d0 < 0 ? o->d0 + r : o->d0] : 1;
  o->a = size > 0 ? between(c, -size, size - 1) : between(c, -1, 1);
  if (!bad || m->ndim == 0) return;
  if (chance(c, 30)) o->d0 = bad_dim(c, r);
  else if (chance(c, 30)) o->a = chance(c, 50) ? INT64_MAX : INT64_MIN;
  else o->a = chance(c, 50) ? size + below(c, 3) : -size - 1 - below(c, 3);
}

static void gen_narrow(chain *c, op *o, bool bad) {
  const lt_model *m = &c->m;
  int r = dim_range(m);
  o->d0 = good_dim(c, r);
  int64_t size = m->ndim > 0 ? m->shape[o->d0 < 0 ? o->d0 + r : o->d0] : 0;
  /* A negative start on a size-0 dim is left out: PyTorch's scalar wrap
   * makes narrow(d, -1, 0) valid there, a quirk not worth pinning down. */
  o->a = size > 0 ? between(c, -size, size) : 0;
  int64_t room = size - (o->a < 0 ? o->a + size : o->a);
  o->b = room > 0 && chance(c, 90) ? between(c, 1, room) : between(c, 0, room);
  if (!bad || m->ndim == 0) return;
  switch (below(c, 3)) {
  case 0:
    o->d0 = bad_dim(c, r);
    break;
  case 1: /* (not -1 on a size-0 dim: the quirk above) */
    if (chance(c, c->p->extreme_pct)) o->a = huge(c);
    else if (chance(c, 50)) o->a = size + 1 + below(c, 2);
    else o->a = -size - 1 - below(c, 2) - (size == 0);
    break;
  default:
    o->b = chance(c, c->p->extreme_pct) ? INT64_MAX : chance(c, 50) ? -1 - below(c, 2)
                                                                    : size - (o->a < 0 ? o->a + size : o->a) + 1;
  }
}

static void gen_two_dims(chain *c, op *o, bool bad) {
  int r = dim_range(&c->m);
  o->d0 = good_dim(c, r);
  o->d1 = good_dim(c, r);
  if (bad) *(chance(c, 50) ? &o->d0 : &o->d1) = bad_dim(c, r);
}

static void gen_permute(chain *c, op *o, bool bad) {
  int n = c->m.ndim;
  int64_t p[LT_MAX_DIMS];
  for (int i = 0; i < n; i++) p[i] = i;
  shuffle(c, p, n);
  for (int i = 0; i < n; i++) o->perm[i] = (int)p[i] - (chance(c, 30) ? n : 0);
  o->n = n;
  if (!bad || n == 0) return;
  int i = (int)below(c, n);
  if (n >= 2 && chance(c, 50)) {
    int j = (i + 1 + (int)below(c, n - 1)) % n;
    o->perm[i] = o->perm[j] < 0 ? o->perm[j] + n : o->perm[j] - (chance(c, 50) ? n : 0);
  } else {
    o->perm[i] = bad_dim(c, n);
  }
}

static void gen_expand(chain *c, op *o, bool bad) {
  const lt_model *m = &c->m;
  int lead = (int)below(c, 3);
  if (m->ndim + lead > LT_MAX_DIMS) lead = LT_MAX_DIMS - m->ndim;
  int n = m->ndim + lead;
  int64_t *s = o->sizes, numel = 1;
  for (int i = 0; i < n; i++) {
    int64_t have = i >= lead ? m->shape[i - lead] : 1;
    if (have == 1 && chance(c, 60)) s[i] = chance(c, 3) ? 0 : between(c, 2, 4);
    else s[i] = i >= lead && chance(c, 40) ? -1 : have;
    numel *= s[i] == -1 ? have : s[i];
  }
  if (numel > MAX_NUMEL)
    for (int i = 0; i < n; i++) s[i] = i >= lead ? -1 : 1;
  o->n = n;
  if (!bad) return;
  int nonone = -1;
  for (int i = 0; i < m->ndim; i++)
    if (m->shape[i] != 1) nonone = i;
  switch (below(c, 4)) {
  case 0:
    if (m->ndim > 0) { /* too few sizes */
      int k = (int)below(c, m->ndim);
      memmove(s, s + n - k, sizeof *s * (size_t)k);
      o->n = k;
      break;
    }
    /* fall through */
  case 1:
    if (nonone >= 0) { /* a non-1 size that differs */
      s[lead + nonone] = m->shape[nonone] + 1 + below(c, 2);
      break;
    }
    /* fall through */
  case 2:
    if (n > 0) {
      s[below(c, n)] = -2 - below(c, 3);
      break;
    }
    /* fall through */
  default:
    if (lead == 0 && n < LT_MAX_DIMS) {
      memmove(s + 1, s, sizeof *s * (size_t)n);
      o->n = ++n;
      lead = 1;
    }
    if (lead > 0) s[below(c, lead)] = -1;
  }
}

static void gen_squeeze(chain *c, op *o, bool bad) {
  const lt_model *m = &c->m;
  int r = dim_range(m);
  o->d0 = good_dim(c, r);
  for (int i = 0; i < m->ndim; i++)
    if (m->shape[i] == 1 && chance(c, 50)) o->d0 = chance(c, 50) ? i : i - r;
  if (bad) o->d0 = bad_dim(c, r);
}

static void gen_unsqueeze(chain *c, op *o, bool bad) {
  int r = c->m.ndim + 1;
  o->d0 = bad ? bad_dim(c, r) : good_dim(c, r);
}

static void gen_diagonal(chain *c, op *o, bool bad) {
  const lt_model *m = &c->m;
  int r = dim_range(m);
  o->a = chance(c, c->p->extreme_pct) ? (chance(c, 50) ? huge(c) : INT64_MIN) : between(c, -2, 2);
  if (m->ndim < 2) { /* needs two distinct dims: always LT_ERR_ARG */
    o->d0 = good_dim(c, r);
    o->d1 = good_dim(c, r);
    return;
  }
  int a = (int)below(c, r), b = (a + 1 + (int)below(c, r - 1)) % r;
  if (bad && chance(c, 50)) b = a;
  o->d0 = chance(c, 50) ? a - r : a;
  o->d1 = chance(c, 50) ? b - r : b;
  if (bad && a != b) *(chance(c, 50) ? &o->d0 : &o->d1) = bad_dim(c, r);
}

static void gen_op(chain *c, op *o) {
  memset(o, 0, sizeof *o);
  /* Contiguous inputs are the easy case for view and reshape: often
   * disturb them first. */
  static const op_kind disturb[] = {OP_TRANSPOSE, OP_PERMUTE, OP_MOVEDIM, OP_SLICE, OP_EXPAND, OP_DIAGONAL};
  if (c->m.ndim >= 2 && chance(c, 40) && lt_model_is_contiguous(&c->m)) o->kind = disturb[below(c, 6)];
  else o->kind = c->p->ops[below(c, c->p->nops)];
  bool bad = chance(c, c->p->bad_pct);
  switch (o->kind) {
  case OP_VIEW:
    gen_shape(c, o, bad);
    break;
  case OP_RESHAPE:
    gen_shape(c, o, bad);
    o->forbid = chance(c, c->p->forbid_pct);
    break;
  case OP_FLATTEN:
    gen_flatten(c, o, bad);
    o->forbid = chance(c, c->p->forbid_pct);
    break;
  case OP_UNFLATTEN: gen_unflatten(c, o, bad); break;
  case OP_SLICE: gen_slice(c, o, bad); break;
  case OP_SELECT: gen_select(c, o, bad); break;
  case OP_NARROW: gen_narrow(c, o, bad); break;
  case OP_TRANSPOSE: case OP_MOVEDIM: gen_two_dims(c, o, bad); break;
  case OP_PERMUTE: gen_permute(c, o, bad); break;
  case OP_EXPAND: gen_expand(c, o, bad); break;
  case OP_SQUEEZE: gen_squeeze(c, o, bad); break;
  case OP_UNSQUEEZE: gen_unsqueeze(c, o, bad); break;
  case OP_DIAGONAL: gen_diagonal(c, o, bad); break;
  default: break;
  }
}

/* ---- The op on the model and on the library ----------------------------- */

static lt_status model_apply(const lt_model *m, const op *o, lt_model *out) {
  switch (o->kind) {
  case OP_VIEW: case OP_RESHAPE: return lt_model_view(m, o->n, o->sizes, out);
  case OP_FLATTEN: return lt_model_flatten(m, o->d0, o->d1, out);
  case OP_UNFLATTEN: return lt_model_unflatten(m, o->d0, o->n, o->sizes, out);
  case OP_SLICE: return lt_model_slice(m, o->d0, o->a, o->b, o->step, out);
  case OP_SELECT: return lt_model_select(m, o->d0, o->a, out);
  case OP_NARROW: return lt_model_narrow(m, o->d0, o->a, o->b, out);
  case OP_TRANSPOSE: return lt_model_transpose(m, o->d0, o->d1, out);
  case OP_PERMUTE: return lt_model_permute(m, o->perm, out);
  case OP_MOVEDIM: return lt_model_movedim(m, o->d0, o->d1, out);
  case OP_EXPAND: return lt_model_expand(m, o->n, o->sizes, out);
  case OP_SQUEEZE: return lt_model_squeeze(m, o->d0, out);
  case OP_SQUEEZE_ALL: return lt_model_squeeze_all(m, out);
  case OP_UNSQUEEZE: return lt_model_unsqueeze(m, o->d0, out);
  case OP_DIAGONAL: return lt_model_diagonal(m, o->a, o->d0, o->d1, out);
  default: return lt_model_view(m, m->ndim, m->shape, out); /* contiguous, clone: same elements */
  }
}

static lt_tensor *lib_apply(const lt_tensor *t, const op *o) {
  switch (o->kind) {
  case OP_VIEW: return lt_view(t, o->n, o->sizes);
  case OP_RESHAPE: return lt_reshape(t, o->n, o->sizes);
  case OP_FLATTEN: return lt_flatten(t, o->d0, o->d1);
  case OP_UNFLATTEN: return lt_unflatten(t, o->d0, o->n, o->sizes);
  case OP_SLICE: return lt_slice(t, o->d0, o->a, o->b, o->step);
  case OP_SELECT: return lt_select(t, o->d0, o->a);
  case OP_NARROW: return lt_narrow(t, o->d0, o->a, o->b);
  case OP_TRANSPOSE: return lt_transpose(t, o->d0, o->d1);
  case OP_PERMUTE: return lt_permute(t, o->perm);
  case OP_MOVEDIM: return lt_movedim(t, o->d0, o->d1);
  case OP_EXPAND: return lt_expand(t, o->n, o->sizes);
  case OP_SQUEEZE: return lt_squeeze(t, o->d0);
  case OP_SQUEEZE_ALL: return lt_squeeze_all(t);
  case OP_UNSQUEEZE: return lt_unsqueeze(t, o->d0);
  case OP_DIAGONAL: return lt_diagonal(t, o->a, o->d0, o->d1);
  case OP_CONTIGUOUS: return lt_contiguous(t);
  default: return lt_clone(t);
  }
}

/* ---- Checks --------------------------------------------------------------*/

/* r against the model m: shape, storage, every value, every element's
 * storage index, contiguity. */
static void check_matches(const chain *c, const lt_tensor *r, const lt_model *m) {
  char d[LT_MAX_DIMS * 48];
  lt_describe(r, d, sizeof d);
  REQUIRE(c, lt_ndim(r) == m->ndim, "ndim %d, model %d (%s)", lt_ndim(r), m->ndim, d);
  for (int i = 0; i < m->ndim; i++)
    REQUIRE(c, lt_shape(r)[i] == m->shape[i], "size %lld at dim %d, model %lld (%s)",
            (long long)lt_shape(r)[i], i, (long long)m->shape[i], d);
  REQUIRE(c, lt_numel(r) == m->numel, "numel %lld, model %lld (%s)", (long long)lt_numel(r),
          (long long)m->numel, d);
  REQUIRE(c, lt_dtype_of(r) == LT_F32, "dtype %s (%s)", lt_dtype_name(lt_dtype_of(r)), d);
  REQUIRE(c, lt_shares_storage(r, c->roots[m->storage]), "%s does not share the storage it views", d);

  float *got = malloc(sizeof *got * (size_t)(m->numel + 1));
  ck_assert_ptr_nonnull(got);
  lt_status s = lt_read(r, got, sizeof *got * (size_t)m->numel);
  REQUIRE(c, s == LT_OK, "lt_read -> %s: %s (%s)", lt_status_str(s), lt_last_error(), d);
  for (int64_t k = 0; k < m->numel; k++)
    REQUIRE(c, got[k] == m->val[k], "element %lld reads %g, model %g (%s)", (long long)k, got[k],
            m->val[k], d);
  free(got);

  /* Walk the elements in row-major order, tracking offset + index . strides
   * (in wrapping arithmetic: a size-1 dim may carry any stride). */
  const int64_t *st = lt_strides(r);
  int64_t idx[LT_MAX_DIMS] = {0};
  uint64_t addr = (uint64_t)lt_offset(r);
  for (int64_t k = 0; k < m->numel; k++) {
    REQUIRE(c, (int64_t)addr == m->at[k], "element %lld is at storage index %lld, model %lld (%s)",
            (long long)k, (long long)addr, (long long)m->at[k], d);
    for (int i = m->ndim - 1; i >= 0; i--) {
      if (++idx[i] < m->shape[i]) {
        addr += (uint64_t)st[i];
        break;
      }
      addr -= (uint64_t)st[i] * (uint64_t)(m->shape[i] - 1);
      idx[i] = 0;
    }
  }
  REQUIRE(c, lt_is_contiguous(r) == lt_model_is_contiguous(m), "lt_is_contiguous is %d, model says %d (%s)",
          lt_is_contiguous(r), lt_model_is_contiguous(m), d);
}

static void check_counters(const chain *c, const lt_stats *before, const lt_stats *after, int64_t copies,
                           int64_t implicit, int64_t bytes) {
  int64_t dc = after->copies - before->copies, di = after->implicit_copies - before->implicit_copies,
          db = after->bytes_copied - before->bytes_copied;
  REQUIRE(c, dc == copies && di == implicit && db == bytes,
          "lt_stats moved by copies %lld, implicit_copies %lld, bytes_copied %lld; expected %lld, %lld, %lld",
          (long long)dc, (long long)di, (long long)db, (long long)copies, (long long)implicit, (long long)bytes);
}

typedef enum outcome { FAILS, VIEW, COPY, SAME } outcome;

/* The checks every successful call shares; takes ownership of r. Makes r
 * and *want the chain's new state when `advance`, else drops them. */
static void accept(chain *c, lt_tensor *r, lt_model *want, outcome kind, bool implicit, const lt_stats *before,
                   const lt_stats *after, bool advance) {
  char d[LT_MAX_DIMS * 48];
  lt_describe(r, d, sizeof d);
  if (kind == SAME) REQUIRE(c, r == c->t, "expected the input itself back, got %s", d);
  if (kind == VIEW) REQUIRE(c, lt_shares_storage(r, c->t), "expected a view of the input, got %s", d);
  if (kind == COPY) {
    for (int s = 0; s < c->nroots; s++)
      REQUIRE(c, !lt_shares_storage(r, c->roots[s]), "expected fresh storage, got %s sharing storage %d", d, s);
    c->roots[c->nroots++] = lt_retain(r);
  }
  int64_t bytes = kind == COPY ? want->numel * (int64_t)sizeof(float) : 0;
  check_counters(c, before, after, kind == COPY, kind == COPY && implicit, bytes);
  check_matches(c, r, want);
  if (!advance) {
    lt_release(r);
    lt_model_free(want);
    return;
  }
  lt_release(c->t);
  lt_model_free(&c->m);
  c->t = r;
  c->m = *want;
}

/* lt_view refused: lt_reshape of the same shape must copy. */
static void reshape_instead(chain *c, const op *o, const lt_model *viewed) {
  lt_model want;
  lt_model_copy(viewed, c->nroots, &want);
  lt_stats before = lt_stats_get(LT_HOST);
  lt_tensor *r = lt_reshape(c->t, o->n, o->sizes);
  lt_stats after = lt_stats_get(LT_HOST);
  say(c, "; reshape");
  REQUIRE(c, r != NULL, "lt_view was refused but lt_reshape failed too: %s: %s", lt_status_str(lt_last_status()),
          lt_last_error());
  say_tensor(c, "", r);
  accept(c, r, &want, COPY, true, &before, &after, !c->p->views_only);
}

/* Runs o on the chain's tensor and on its model and checks that they agree. */
static void run_op(chain *c, op o) {
  say_op(c, &o);

  lt_model want;
  lt_status expect = model_apply(&c->m, &o, &want);
  outcome kind = expect == LT_OK ? VIEW : FAILS;
  bool implicit = false, viewable = false;
  if (expect == LT_OK) {
    int64_t offset, strides[LT_MAX_DIMS];
    viewable = lt_model_strides(&want, &offset, strides);
  }
  if (kind == VIEW) {
    switch (o.kind) {
    case OP_VIEW:
      if (!viewable) kind = FAILS, expect = LT_ERR_NOT_VIEWABLE;
      break;
    case OP_RESHAPE: case OP_FLATTEN:
      if (!viewable && o.forbid) kind = FAILS, expect = LT_ERR_NOT_VIEWABLE;
      else if (!viewable) kind = COPY, implicit = true;
      break;
    case OP_CONTIGUOUS:
      kind = lt_model_is_contiguous(&c->m) ? SAME : COPY;
      break;
    case OP_CLONE:
      kind = COPY;
      break;
    default:
      break;
    }
  }
  if (kind == COPY) {
    lt_model copied;
    lt_model_copy(&want, c->nroots, &copied);
    lt_model_free(&want);
    want = copied;
  }

  lt_stats before = lt_stats_get(LT_HOST);
  lt_copy_policy old = lt_set_copy_policy(o.forbid ? LT_COPY_FORBID : LT_COPY_ALLOW);
  lt_tensor *r = lib_apply(c->t, &o);
  lt_status got = lt_last_status();
  char err[512];
  snprintf(err, sizeof err, "%s", lt_last_error());
  lt_set_copy_policy(old);
  lt_stats after = lt_stats_get(LT_HOST);

  if (kind == FAILS) {
    char d[LT_MAX_DIMS * 48] = "";
    if (r) lt_describe(r, d, sizeof d);
    REQUIRE(c, r == NULL, "succeeded with %s, expected %s", d, lt_status_str(expect));
    REQUIRE(c, got == expect, "expected %s, got %s: %s", lt_status_str(expect), lt_status_str(got), err);
    REQUIRE(c, err[0] != '\0', "failed with %s but no message", lt_status_str(got));
    say(c, " -> %s", lt_status_str(got));
    check_counters(c, &before, &after, 0, 0, 0);
    if (o.kind == OP_VIEW && expect == LT_ERR_NOT_VIEWABLE) reshape_instead(c, &o, &want);
    lt_model_free(&want);
    return;
  }
  REQUIRE(c, r != NULL, "expected success, got %s: %s", lt_status_str(got), err);
  REQUIRE(c, got == LT_OK && err[0] == '\0', "succeeded, but lt_last_status() is %s and lt_last_error() \"%s\"",
          lt_status_str(got), err);
  say_tensor(c, kind == COPY ? "copy " : "", r);
  accept(c, r, &want, kind, implicit, &before, &after, true);
}

static void step(chain *c) {
  op o;
  gen_op(c, &o);
  run_op(c, o);
}

/* ---- Chains --------------------------------------------------------------*/

static void chain_begin(chain *c, int ndim, const int64_t *shape) {
  char s[LT_MAX_DIMS * 24];
  say(c, " base lt_test_arange_f32(%d, %s)", ndim, dims_str(s, sizeof s, ndim, shape));
  c->t = lt_test_arange_f32(ndim, shape);
  REQUIRE(c, c->t != NULL, "base: %s", lt_last_error());
  lt_model_arange(ndim, shape, 0, &c->m);
  c->roots[c->nroots++] = lt_retain(c->t);
}

static void chain_end(chain *c) {
  lt_release(c->t);
  lt_model_free(&c->m);
  for (int i = 0; i < c->nroots; i++) lt_release(c->roots[i]);
}

static void run_chain(const profile *p, int index) {
  chain c = {.p = p};
  /* splitmix64 of (seed, index): every chain replays on its own. */
  uint64_t z = p->seed + 0x9e3779b97f4a7c15u * (uint64_t)(index + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  c.rng = (z ^ (z >> 31)) | 1;

  int ndim = p->empty_or_scalar && chance(&c, 40) ? 0 : (int)below(&c, 6);
  int64_t shape[5];
  bool empty = false;
  for (int i = 0; i < ndim; i++) {
    shape[i] = chance(&c, p->zero_size_pct) ? 0 : chance(&c, 10) ? 1 : between(&c, 2, 5);
    empty |= shape[i] == 0;
  }
  if (p->empty_or_scalar && ndim > 0 && !empty) shape[below(&c, ndim)] = 0;

  say(&c, "%s chain %d:", p->name, index);
  chain_begin(&c, ndim, shape);
  int steps = 1 + (int)below(&c, MAX_STEPS);
  for (int i = 0; i < steps; i++) step(&c);
  chain_end(&c);
}

/* One fixed chain, checked step by step like the random ones. */
static void replay(const char *name, int ndim, const int64_t *shape, int nops, const op *ops) {
  static const profile replayed = {.name = "replayed"};
  chain c = {.p = &replayed};
  say(&c, "%s:", name);
  chain_begin(&c, ndim, shape);
  for (int i = 0; i < nops; i++) run_op(&c, ops[i]);
  chain_end(&c);
}

static void run_profile(const profile *p) {
  for (int i = 0; i < p->chains; i++) run_chain(p, i);
}

/* Weighted by repetition: ops that break contiguity come often, so that
 * view and reshape meet non-viewable inputs. */
static const op_kind view_ops[] = {
  OP_VIEW, OP_VIEW, OP_VIEW, OP_VIEW, OP_UNFLATTEN, OP_SLICE, OP_SLICE, OP_SELECT, OP_NARROW,
  OP_TRANSPOSE, OP_TRANSPOSE, OP_PERMUTE, OP_PERMUTE, OP_MOVEDIM, OP_EXPAND, OP_EXPAND, OP_SQUEEZE,
  OP_SQUEEZE_ALL, OP_UNSQUEEZE, OP_DIAGONAL};

static const op_kind all_ops[] = {
  OP_VIEW, OP_VIEW, OP_RESHAPE, OP_RESHAPE, OP_RESHAPE, OP_FLATTEN, OP_FLATTEN, OP_CONTIGUOUS,
  OP_CLONE, OP_UNFLATTEN, OP_SLICE, OP_SLICE, OP_SELECT, OP_NARROW, OP_TRANSPOSE, OP_TRANSPOSE,
  OP_PERMUTE, OP_PERMUTE, OP_MOVEDIM, OP_EXPAND, OP_EXPAND, OP_SQUEEZE, OP_SQUEEZE_ALL,
  OP_UNSQUEEZE, OP_DIAGONAL};

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

START_TEST(chains_of_view_ops_share_storage_and_match_the_index_model) {
  run_profile(&(profile){.name = "views", .seed = 0x7e11501, .chains = 8000, .ops = view_ops,
                         .nops = COUNT(view_ops), .zero_size_pct = 3, .bad_pct = 10, .extreme_pct = 3,
                         .views_only = true});
}
END_TEST

START_TEST(chains_mixing_views_with_reshape_flatten_contiguous_and_clone_match_the_index_model) {
  run_profile(&(profile){.name = "copies", .seed = 0xc0b1e5, .chains = 8000, .ops = all_ops,
                         .nops = COUNT(all_ops), .zero_size_pct = 3, .bad_pct = 10, .extreme_pct = 3,
                         .forbid_pct = 20});
}
END_TEST

START_TEST(chains_from_empty_and_zero_dim_bases_match_the_index_model) {
  run_profile(&(profile){.name = "empty", .seed = 0xe5e7, .chains = 3000, .ops = all_ops,
                         .nops = COUNT(all_ops), .empty_or_scalar = true, .zero_size_pct = 25,
                         .bad_pct = 10, .extreme_pct = 5, .forbid_pct = 20});
}
END_TEST

START_TEST(chains_with_mostly_bad_or_extreme_arguments_fail_as_the_index_model_predicts) {
  run_profile(&(profile){.name = "bad-args", .seed = 0xbad5eed, .chains = 1500, .ops = all_ops,
                         .nops = COUNT(all_ops), .zero_size_pct = 10, .bad_pct = 60, .extreme_pct = 30,
                         .forbid_pct = 20});
}
END_TEST

/* ---- Chains the random runs found, replayed ---------------------------- */

/* A slice with a huge step leaves a size-1 dim with a huge stride; the
 * views taken past it must still be ordinary (empty or not) tensors. */
START_TEST(empty_slice_past_a_size_one_dim_with_a_huge_negative_stride_reads_as_empty) {
  replay("empty slice after step -INT64_MAX", 1, (int64_t[]){2}, 2,
         (op[]){{.kind = OP_SLICE, .d0 = 0, .a = 1, .b = 0, .step = -INT64_MAX},
                {.kind = OP_SLICE, .d0 = 0, .a = 1, .b = LT_NONE, .step = 2}});
}
END_TEST

START_TEST(narrow_to_nothing_past_a_size_one_dim_with_a_huge_stride_reads_as_empty) {
  replay("empty narrow after step INT64_MAX", 1, (int64_t[]){2}, 2,
         (op[]){{.kind = OP_SLICE, .d0 = 0, .a = 1, .b = 2, .step = INT64_MAX},
                {.kind = OP_NARROW, .d0 = 0, .a = 1, .b = 0}});
}
END_TEST

START_TEST(diagonal_through_a_size_one_dim_with_a_huge_stride_is_its_one_element) {
  replay("diagonal after step INT64_MAX", 2, (int64_t[]){2, 2}, 2,
         (op[]){{.kind = OP_SLICE, .d0 = 1, .a = 0, .b = 2, .step = INT64_MAX},
                {.kind = OP_DIAGONAL, .a = 0, .d0 = 0, .d1 = 1}});
}
END_TEST

/* ---- The model itself, pinned to hand-computed answers ----------------- */

static void assert_model(const lt_model *m, int ndim, const int64_t *shape, int64_t numel, const int64_t *at) {
  ck_assert_int_eq(m->ndim, ndim);
  for (int i = 0; i < ndim; i++) ck_assert_int_eq(m->shape[i], shape[i]);
  ck_assert_int_eq(m->numel, numel);
  for (int64_t k = 0; k < numel; k++) ck_assert_int_eq(m->at[k], at[k]);
}

START_TEST(index_model_slice_follows_python_slice_indices) {
  lt_model base, s;
  lt_model_arange(1, (int64_t[]){10}, 0, &base);
  ck_assert_int_eq(lt_model_slice(&base, 0, LT_NONE, LT_NONE, -1, &s), LT_OK); /* [::-1] */
  assert_model(&s, 1, (int64_t[]){10}, 10, (int64_t[]){9, 8, 7, 6, 5, 4, 3, 2, 1, 0});
  lt_model_free(&s);
  ck_assert_int_eq(lt_model_slice(&base, 0, 8, 2, -3, &s), LT_OK); /* [8:2:-3] */
  assert_model(&s, 1, (int64_t[]){2}, 2, (int64_t[]){8, 5});
  lt_model_free(&s);
  ck_assert_int_eq(lt_model_slice(&base, -1, -3, LT_NONE, 1, &s), LT_OK); /* [-3:] */
  assert_model(&s, 1, (int64_t[]){3}, 3, (int64_t[]){7, 8, 9});
  lt_model_free(&s);
  ck_assert_int_eq(lt_model_slice(&base, 0, 20, LT_NONE, 1, &s), LT_OK); /* [20:] */
  assert_model(&s, 1, (int64_t[]){0}, 0, NULL);
  lt_model_free(&s);
  ck_assert_int_eq(lt_model_slice(&base, 0, LT_NONE, -20, -4, &s), LT_OK); /* [:-20:-4] */
  assert_model(&s, 1, (int64_t[]){3}, 3, (int64_t[]){9, 5, 1});
  lt_model_free(&s);
  ck_assert_int_eq(lt_model_slice(&base, 0, 3, 100, INT64_MAX, &s), LT_OK); /* [3:100:huge] */
  assert_model(&s, 1, (int64_t[]){1}, 1, (int64_t[]){3});
  lt_model_free(&s);
  ck_assert_int_eq(lt_model_slice(&base, 0, LT_NONE, LT_NONE, INT64_MIN, &s), LT_OK); /* [::-huge] */
  assert_model(&s, 1, (int64_t[]){1}, 1, (int64_t[]){9});
  lt_model_free(&s);
  ck_assert_int_eq(lt_model_slice(&base, 0, 0, 5, 0, &s), LT_ERR_ARG);
  lt_model_free(&base);
}
END_TEST

START_TEST(index_model_transpose_reads_the_storage_column_by_column) {
  lt_model base, t;
  lt_model_arange(2, (int64_t[]){2, 3}, 0, &base);
  ck_assert_int_eq(lt_model_transpose(&base, 0, -1, &t), LT_OK);
  assert_model(&t, 2, (int64_t[]){3, 2}, 6, (int64_t[]){0, 3, 1, 4, 2, 5});
  ck_assert(!lt_model_is_contiguous(&t));
  lt_model_free(&t);
  lt_model_free(&base);
}
END_TEST

START_TEST(index_model_movedim_reinserts_the_moved_dim) {
  lt_model base, t;
  lt_model_arange(3, (int64_t[]){2, 3, 4}, 0, &base);
  ck_assert_int_eq(lt_model_movedim(&base, 0, 2, &t), LT_OK);
  ck_assert_int_eq(t.ndim, 3);
  ck_assert_int_eq(t.shape[0], 3);
  ck_assert_int_eq(t.shape[1], 4);
  ck_assert_int_eq(t.shape[2], 2);
  ck_assert_int_eq(t.at[1], 12); /* (0,0,1) is base (1,0,0) */
  ck_assert_int_eq(t.at[2], 1);  /* (0,1,0) is base (0,0,1) */
  ck_assert_int_eq(t.at[8], 4);  /* (1,0,0) is base (0,1,0) */
  lt_model_free(&t);
  lt_model_free(&base);
}
END_TEST

START_TEST(index_model_diagonal_with_an_offset_starts_off_the_main_diagonal) {
  lt_model base, t;
  lt_model_arange(2, (int64_t[]){3, 4}, 0, &base);
  ck_assert_int_eq(lt_model_diagonal(&base, 1, 0, 1, &t), LT_OK);
  assert_model(&t, 1, (int64_t[]){3}, 3, (int64_t[]){1, 6, 11});
  lt_model_free(&t);
  ck_assert_int_eq(lt_model_diagonal(&base, -1, 0, 1, &t), LT_OK);
  assert_model(&t, 1, (int64_t[]){2}, 2, (int64_t[]){4, 9});
  lt_model_free(&t);
  ck_assert_int_eq(lt_model_diagonal(&base, 0, 1, 0, &t), LT_OK);
  assert_model(&t, 1, (int64_t[]){3}, 3, (int64_t[]){0, 5, 10});
  lt_model_free(&t);
  ck_assert_int_eq(lt_model_diagonal(&base, INT64_MIN, 0, 1, &t), LT_OK);
  assert_model(&t, 1, (int64_t[]){0}, 0, NULL);
  lt_model_free(&t);
  ck_assert_int_eq(lt_model_diagonal(&base, 0, 1, -1, &t), LT_ERR_ARG);
  lt_model_free(&base);
}
END_TEST

START_TEST(index_model_expand_repeats_the_size_one_dims) {
  lt_model base, t;
  lt_model_arange(2, (int64_t[]){3, 1}, 0, &base);
  ck_assert_int_eq(lt_model_expand(&base, 3, (int64_t[]){2, -1, 2}, &t), LT_OK);
  assert_model(&t, 3, (int64_t[]){2, 3, 2}, 12, (int64_t[]){0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2});
  lt_model_free(&t);
  ck_assert_int_eq(lt_model_expand(&base, 2, (int64_t[]){4, 1}, &t), LT_ERR_SHAPE);
  ck_assert_int_eq(lt_model_expand(&base, 3, (int64_t[]){-1, 3, 1}, &t), LT_ERR_ARG);
  ck_assert_int_eq(lt_model_expand(&base, 1, (int64_t[]){3}, &t), LT_ERR_SHAPE);
  lt_model_free(&base);
}
END_TEST

START_TEST(index_model_finds_strides_exactly_when_a_view_can_express_the_elements) {
  lt_model base, t, v;
  int64_t offset, strides[LT_MAX_DIMS];
  lt_model_arange(3, (int64_t[]){2, 3, 4}, 0, &base);
  ck_assert_int_eq(lt_model_slice(&base, 2, 1, LT_NONE, 2, &t), LT_OK); /* [2,3,2] over odd columns */
  ck_assert_int_eq(lt_model_view(&t, 1, (int64_t[]){-1}, &v), LT_OK);
  ck_assert(lt_model_strides(&v, &offset, strides));
  ck_assert_int_eq(offset, 1);
  ck_assert_int_eq(strides[0], 2);
  lt_model_free(&v);
  lt_model_free(&t);
  ck_assert_int_eq(lt_model_transpose(&base, 0, 1, &t), LT_OK); /* [3,2,4] */
  ck_assert_int_eq(lt_model_view(&t, 2, (int64_t[]){3, 8}, &v), LT_OK);
  ck_assert(!lt_model_strides(&v, &offset, strides));
  lt_model_free(&v);
  ck_assert_int_eq(lt_model_view(&t, 4, (int64_t[]){3, 2, 2, 2}, &v), LT_OK);
  ck_assert(lt_model_strides(&v, &offset, strides));
  ck_assert_int_eq(strides[0], 4);
  ck_assert_int_eq(strides[1], 12);
  ck_assert_int_eq(strides[2], 2);
  ck_assert_int_eq(strides[3], 1);
  lt_model_free(&v);
  ck_assert_int_eq(lt_model_view(&t, 2, (int64_t[]){-1, 0}, &v), LT_ERR_SHAPE);
  lt_model_free(&t);
  lt_model_free(&base);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("chains");
  TCase *model = tcase_create("model");
  tcase_add_test(model, index_model_slice_follows_python_slice_indices);
  tcase_add_test(model, index_model_transpose_reads_the_storage_column_by_column);
  tcase_add_test(model, index_model_movedim_reinserts_the_moved_dim);
  tcase_add_test(model, index_model_diagonal_with_an_offset_starts_off_the_main_diagonal);
  tcase_add_test(model, index_model_expand_repeats_the_size_one_dims);
  tcase_add_test(model, index_model_finds_strides_exactly_when_a_view_can_express_the_elements);
  suite_add_tcase(s, model);

  TCase *views = tcase_create("pure_views");
  tcase_set_timeout(views, 600);
  tcase_add_test(views, chains_of_view_ops_share_storage_and_match_the_index_model);
  suite_add_tcase(s, views);

  TCase *copies = tcase_create("reshape_and_copies");
  tcase_set_timeout(copies, 600);
  tcase_add_test(copies, chains_mixing_views_with_reshape_flatten_contiguous_and_clone_match_the_index_model);
  suite_add_tcase(s, copies);

  TCase *empty = tcase_create("empty_and_zero_dim");
  tcase_set_timeout(empty, 600);
  tcase_add_test(empty, chains_from_empty_and_zero_dim_bases_match_the_index_model);
  suite_add_tcase(s, empty);

  TCase *bad = tcase_create("bad_arguments");
  tcase_set_timeout(bad, 600);
  tcase_add_test(bad, chains_with_mostly_bad_or_extreme_arguments_fail_as_the_index_model_predicts);
  suite_add_tcase(s, bad);

  TCase *replayed = tcase_create("replayed_chains");
  tcase_add_test(replayed, empty_slice_past_a_size_one_dim_with_a_huge_negative_stride_reads_as_empty);
  tcase_add_test(replayed, narrow_to_nothing_past_a_size_one_dim_with_a_huge_stride_reads_as_empty);
  tcase_add_test(replayed, diagonal_through_a_size_one_dim_with_a_huge_stride_is_its_one_element);
  suite_add_tcase(s, replayed);
  return s;
}

int main(void) { return lt_run_suite(suite()); }
