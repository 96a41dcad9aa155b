/* lt_rearrange, lt_repeat and lt_reduce through the public API.
 *
 * The random part checks every result against a naive reference that
 * works from the parsed AST (lt__parse_pattern) and its own resolution of
 * the axis lengths, never from the library's recipe: for each output
 * element it decomposes the output index into the right side's axes,
 * composes the input index from the left side's axes (repeat: new axes
 * play no part; reduce: folds over the axes missing on the right, in
 * double) and reads the input element through the input's strides.
 * Whether a result must be a view is decided from the public view API:
 * the input viewed as its elementary axes (lt_view), permuted into output
 * order with new axes expanded (lt_permute, lt_unsqueeze, lt_expand), and
 * then lt_view to the output shape. The reference is REARRANGE.md. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern.h"
#include "support/check_helpers.h"

#define SHAPE(...) (int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)), (int64_t[]){__VA_ARGS__}
#define AXES(...) (lt_axis[]){__VA_ARGS__}, (int)(sizeof((lt_axis[]){__VA_ARGS__}) / sizeof(lt_axis))
#define NO_AXES NULL, 0

static void teardown(void) {
  lt_set_copy_policy(LT_COPY_ALLOW);
  lt_pattern_cache_clear();
}

/* ======================================================================
 * Small helpers
 * ====================================================================== */

static lt_tensor *from_floats(int ndim, const int64_t *shape, const float *v) {
  lt_tensor *t = lt_from_data(v, LT_F32, ndim, shape);
  LT_ASSERT_OK_PTR(t);
  return t;
}

/* Element idx of t read through its strides, as double. */
static double elem_at(const lt_tensor *t, const int64_t *idx) {
  const char *base = lt_data(t);
  int64_t off = 0;
  for (int d = 0; d < lt_ndim(t); d++) off += idx[d] * lt_strides(t)[d];
  switch (lt_dtype_of(t)) {
  case LT_F32: return ((const float *)base)[off];
  case LT_F64: return ((const double *)base)[off];
  case LT_I32: return ((const int32_t *)base)[off];
  case LT_U8: return ((const uint8_t *)base)[off];
  default: ck_abort_msg("unexpected dtype %s", lt_dtype_name(lt_dtype_of(t)));
  }
  return 0;
}

static void unravel(int64_t flat, int ndim, const int64_t *shape, int64_t *idx) {
  for (int d = ndim - 1; d >= 0; d--) {
    idx[d] = shape[d] ? flat % shape[d] : 0;
    flat = shape[d] ? flat / shape[d] : 0;
  }
}

/* All elements of t in row-major order, read through strides. */
static void read_all(const lt_tensor *t, double *out) {
  int64_t idx[LT_MAX_DIMS];
  for (int64_t i = 0; i < lt_numel(t); i++) {
    unravel(i, lt_ndim(t), lt_shape(t), idx);
    out[i] = elem_at(t, idx);
  }
}

static void assert_values(const lt_tensor *t, int n, const double *expected) {
  ck_assert_int_eq(lt_numel(t), n);
  double got[256];
  ck_assert(n <= 256);
  read_all(t, got);
  for (int i = 0; i < n; i++)
    ck_assert_msg(got[i] == expected[i] || (isnan(got[i]) && isnan(expected[i])), "element %d: %g, expected %g", i,
                  got[i], expected[i]);
}
#define ASSERT_VALUES(t, ...) \
  assert_values(t, (int)(sizeof((double[]){__VA_ARGS__}) / sizeof(double)), (double[]){__VA_ARGS__})

static int64_t implicit_copies(void) { return lt_stats_get(LT_HOST).implicit_copies; }

/* lt_last_error() is "op: 'pattern': text\n<col spaces>^" with col =
 * strlen(op) + 3 + pos. */
static void assert_caret(const char *op, const char *pattern, int pos) {
  const char *msg = lt_last_error();
  char head[400];
  snprintf(head, sizeof head, "%s: '%s': ", op, pattern);
  ck_assert_msg(strncmp(msg, head, strlen(head)) == 0, "message '%s' does not start with '%s'", msg, head);
  const char *nl = strchr(msg + strlen(head), '\n');
  ck_assert_msg(nl != NULL, "message '%s' has no caret line", msg);
  const char *line = nl + 1;
  int col = (int)strlen(op) + 3 + pos;
  for (int i = 0; i < col; i++) ck_assert_msg(line[i] == ' ', "caret line '%s': expected '^' at column %d", line, col);
  ck_assert_msg(strcmp(line + col, "^") == 0, "caret line '%s': expected '^' at column %d", line, col);
}

/* ======================================================================
 * The reference interpreter
 * ====================================================================== */

#define MAX_IDS 48

typedef struct ref {
  int nids;
  int64_t len[MAX_IDS];
  bool is_new[MAX_IDS]; /* a right-only axis of repeat */
  bool kept[MAX_IDS];   /* appears on the right */
  /* input dims: the ids composing each (C order); none for a unit dim */
  int n_in, in_n[LT_MAX_DIMS], in_ids[LT_MAX_DIMS][MAX_IDS];
  /* output dims */
  int n_out, out_n[LT_MAX_DIMS], out_ids[LT_MAX_DIMS][MAX_IDS];
  int64_t out_shape[LT_MAX_DIMS];
  int64_t out_numel;
  /* left ids in input order (the elementary axes), right ids in output order */
  int n_elem, elem_ids[MAX_IDS];
  int n_mid, mid_ids[MAX_IDS];
  int n_red, red_ids[MAX_IDS];
} ref;

static int64_t given_length(const char *name, int len, const lt_axis *axes, int naxes) {
  for (int i = 0; i < naxes; i++)
    if ((int)strlen(axes[i].name) == len && memcmp(axes[i].name, name, (size_t)len) == 0) return axes[i].size;
  return -1;
}

static int new_id(ref *R, int64_t len) {
  ck_assert(R->nids < MAX_IDS);
  R->len[R->nids] = len;
  return R->nids++;
}

/* Resolves the axes of a valid pattern for an input shape, from the AST
 * alone. */
static void ref_build(const lt__ast *ast, int ndim, const int64_t *shape, const lt_axis *axes, int naxes, ref *R) {
  memset(R, 0, sizeof *R);
  const lt__ast_side *L = &ast->left, *Rs = &ast->right;
  const char *text = ast->text;
  int E = L->ellipsis_group >= 0 ? ndim - (L->ngroups - 1) : 0;
  ck_assert(L->ellipsis_group >= 0 ? E >= 0 : ndim == L->ngroups);
  int ell_first = -1;
  int name_pos[MAX_IDS], name_len[MAX_IDS]; /* source of each named left id; len 0 otherwise */
  memset(name_len, 0, sizeof name_len);
  int dim = 0;
  for (int g = 0; g < L->ngroups; g++) {
    const lt__ast_group *G = &L->groups[g];
    if (g == L->ellipsis_group) {
      ell_first = R->nids;
      for (int k = 0; k < E; k++, dim++) {
        int id = new_id(R, shape[dim]);
        R->in_n[dim] = 1;
        R->in_ids[dim][0] = id;
        R->elem_ids[R->n_elem++] = id;
      }
      continue;
    }
    int64_t prod = 1;
    int unknown = -1;
    for (int i = G->first; i < G->first + G->count; i++) {
      const lt__ast_axis *a = &L->axes[i];
      int64_t len = a->kind == LT__AXIS_ANON ? a->value : given_length(text + a->pos, a->len, axes, naxes);
      int id = new_id(R, len);
      if (a->kind == LT__AXIS_NAME) {
        name_pos[id] = a->pos;
        name_len[id] = a->len;
      }
      if (len < 0) {
        ck_assert_msg(unknown < 0, "reference: two unknowns in one group");
        unknown = id;
      } else {
        prod *= len;
      }
      R->in_ids[dim][R->in_n[dim]++] = id;
      R->elem_ids[R->n_elem++] = id;
    }
    if (unknown >= 0) {
      ck_assert(prod > 0 && shape[dim] % prod == 0);
      R->len[unknown] = shape[dim] / prod;
    } else {
      ck_assert_msg(prod == shape[dim], "reference: group %d has %lld elements, dim has %lld", g, (long long)prod,
                    (long long)shape[dim]);
    }
    dim++;
  }
  R->n_in = dim;
  int n_left = R->nids;
  for (int g = 0; g < Rs->ngroups; g++) {
    const lt__ast_group *G = &Rs->groups[g];
    if (g == Rs->ellipsis_group && !G->paren) {
      for (int k = 0; k < E; k++) {
        int o = R->n_out++;
        R->out_n[o] = 1;
        R->out_ids[o][0] = ell_first + k;
      }
      continue;
    }
    int o = R->n_out++;
    for (int i = G->first; i < G->first + G->count; i++) {
      const lt__ast_axis *a = &Rs->axes[i];
      if (a->kind == LT__AXIS_ELLIPSIS) {
        for (int k = 0; k < E; k++) R->out_ids[o][R->out_n[o]++] = ell_first + k;
      } else if (a->kind == LT__AXIS_ANON) {
        int id = new_id(R, a->value);
        R->is_new[id] = true;
        R->out_ids[o][R->out_n[o]++] = id;
      } else {
        int id = -1;
        for (int k = 0; k < n_left && id < 0; k++)
          if (name_len[k] == a->len && memcmp(text + name_pos[k], text + a->pos, (size_t)a->len) == 0) id = k;
        if (id < 0) {
          id = new_id(R, given_length(text + a->pos, a->len, axes, naxes));
          ck_assert(R->len[id] >= 0);
          R->is_new[id] = true;
        }
        R->out_ids[o][R->out_n[o]++] = id;
      }
    }
  }
  R->out_numel = 1;
  for (int o = 0; o < R->n_out; o++) {
    R->out_shape[o] = 1;
    for (int k = 0; k < R->out_n[o]; k++) {
      int id = R->out_ids[o][k];
      R->out_shape[o] *= R->len[id];
      R->kept[id] = true;
      R->mid_ids[R->n_mid++] = id;
    }
    R->out_numel *= R->out_shape[o];
  }
  for (int id = 0; id < n_left; id++)
    if (!R->kept[id]) R->red_ids[R->n_red++] = id;
}

static double fold(lt_reduction op, double acc, double x, int64_t count) {
  if (count == 0) return x;
  switch (op) {
  case LT_SUM:
  case LT_MEAN: return acc + x;
  case LT_PROD: return acc * x;
  case LT_MAX: return isnan(acc) || isnan(x) ? NAN : (x > acc ? x : acc);
  case LT_MIN: return isnan(acc) || isnan(x) ? NAN : (x < acc ? x : acc);
  }
  return NAN;
}

/* The integer fold: int64 arithmetic that wraps. */
static int64_t ifold(lt_reduction op, int64_t acc, int64_t x, int64_t count) {
  if (count == 0) return x;
  switch (op) {
  case LT_SUM: return (int64_t)((uint64_t)acc + (uint64_t)x);
  case LT_PROD: return (int64_t)((uint64_t)acc * (uint64_t)x);
  case LT_MAX: return x > acc ? x : acc;
  default: return x < acc ? x : acc;
  }
}

/* out[i]: the expected output element i (row-major). reduce: whether to
 * fold the axes missing on the right with op (in double for floats, in
 * wrapping int64 for I32, stored with wrap-around). */
static void ref_compute(const ref *R, const lt_tensor *in, bool reduce, lt_reduction op, double *out) {
  bool integer = lt_dtype_of(in) == LT_I32;
  int64_t val[MAX_IDS] = {0}, oidx[LT_MAX_DIMS], iidx[LT_MAX_DIMS];
  for (int64_t o = 0; o < R->out_numel; o++) {
    unravel(o, R->n_out, R->out_shape, oidx);
    for (int d = 0; d < R->n_out; d++) { /* an output index into its axes, last fastest */
      int64_t rest = oidx[d];
      for (int k = R->out_n[d] - 1; k >= 0; k--) {
        int id = R->out_ids[d][k];
        val[id] = rest % R->len[id];
        rest /= R->len[id];
      }
    }
    int64_t nred = 1;
    for (int k = 0; k < R->n_red; k++) nred *= R->len[R->red_ids[k]];
    double acc = 0;
    int64_t iacc = 0;
    for (int64_t r = 0; r < nred; r++) {
      int64_t rest = r;
      for (int k = R->n_red - 1; k >= 0; k--) {
        int id = R->red_ids[k];
        val[id] = rest % R->len[id];
        rest /= R->len[id];
      }
      for (int d = 0; d < R->n_in; d++) {
        iidx[d] = 0;
        for (int k = 0; k < R->in_n[d]; k++) iidx[d] = iidx[d] * R->len[R->in_ids[d][k]] + val[R->in_ids[d][k]];
      }
      double x = elem_at(in, iidx);
      acc = reduce ? fold(op, acc, x, r) : x;
      iacc = reduce ? ifold(op, iacc, (int64_t)x, r) : 0;
    }
    if (reduce && nred == 0) acc = op == LT_PROD ? 1 : op == LT_MEAN ? NAN : 0;
    else if (reduce && op == LT_MEAN) acc /= (double)nred;
    if (reduce && integer) acc = nred == 0 ? (op == LT_PROD ? 1 : 0) : (double)(int32_t)(uint32_t)(uint64_t)iacc;
    out[o] = acc;
  }
}

/* The permuted elementary layout of `in` as a tensor built with the
 * public view API, or NULL (with the test failed) if that is impossible. */
static lt_tensor *permuted_elementary(const lt_tensor *in, const ref *R) {
  int64_t es[LT_MAX_DIMS + 1];
  for (int k = 0; k < R->n_elem; k++) es[k] = R->len[R->elem_ids[k]];
  lt_tensor *cur = lt_view(in, R->n_elem, es);
  ck_assert_msg(cur != NULL, "splitting into elementary axes is not a view: %s", lt_last_error());
  int perm[LT_MAX_DIMS], np = 0;
  for (int m = 0; m < R->n_mid; m++) {
    if (R->is_new[R->mid_ids[m]]) continue;
    int e = 0;
    while (R->elem_ids[e] != R->mid_ids[m]) e++;
    perm[np++] = e;
  }
  ck_assert_int_eq(np, R->n_elem);
  lt_tensor *p = lt_permute(cur, perm);
  LT_ASSERT_OK_PTR(p);
  lt_release(cur);
  cur = p;
  int64_t ms[LT_MAX_DIMS];
  for (int m = 0; m < R->n_mid; m++) {
    ms[m] = R->len[R->mid_ids[m]];
    if (!R->is_new[R->mid_ids[m]]) continue;
    p = lt_unsqueeze(cur, m);
    LT_ASSERT_OK_PTR(p);
    lt_release(cur);
    cur = p;
  }
  p = lt_expand(cur, R->n_mid, ms);
  LT_ASSERT_OK_PTR(p);
  lt_release(cur);
  return p;
}

/* ======================================================================
 * Random cases
 * ====================================================================== */

typedef struct rng {
  uint64_t s;
} rng;

static uint64_t rnext(rng *r) {
  r->s ^= r->s >> 12;
  r->s ^= r->s << 25;
  r->s ^= r->s >> 27;
  return r->s * 0x2545F4914F6CDD1Dull;
}

/* uniform in [lo, hi] */
static int rint_in(rng *r, int lo, int hi) { return lo + (int)(rnext(r) % (uint64_t)(hi - lo + 1)); }
static bool chance(rng *r, int percent) { return rint_in(r, 0, 99) < percent; }

static void shuffle(rng *r, int *v, int n) {
  for (int i = n - 1; i > 0; i--) {
    int j = rint_in(r, 0, i), t = v[i];
    v[i] = v[j];
    v[j] = t;
  }
}

static const char *const NAMES[] = {"a", "b", "c", "h", "w", "x1", "T", "\xc3\x9f", "d_k", "e", "f", "g"};
#define NNAMES 12

enum { T_NAME, T_ELL, T_ANON };
typedef struct tok {
  int kind, name, value;
} tok;

typedef struct item {
  int ntok;
  tok t[6];
  bool paren;
  const char *unit; /* a unit item's text, else NULL */
} item;

typedef struct rcase {
  lt__pattern_op op;
  char pattern[LT__PATTERN_MAX + 1];
  int ndim;
  int64_t shape[LT_MAX_DIMS];
  lt_axis axes[16];
  int naxes;
} rcase;

typedef struct gen {
  int64_t len[NNAMES]; /* axis lengths by name */
  int E;               /* ellipsis dims, -1 for none */
  int64_t ell[3];
} gen;

static const char *const UNITS[] = {"1", "01", "()", "(1)", "( )", "(1 1)"};

/* Groups toks into items; on the left an ellipsis stays bare. */
static int group_items(rng *r, const tok *toks, int n, bool left, item *items) {
  int ni = 0;
  for (int i = 0; i < n;) {
    item *it = &items[ni++];
    memset(it, 0, sizeof *it);
    int run = rint_in(r, 0, 9) < 6 ? 1 : rint_in(r, 2, 3);
    if (left && toks[i].kind == T_ELL) run = 1;
    for (int k = 0; k < run && i < n; k++) {
      if (left && k > 0 && toks[i].kind == T_ELL) break;
      it->t[it->ntok++] = toks[i++];
    }
    it->paren = it->ntok > 1 || chance(r, 20);
    if (left && it->t[0].kind == T_ELL) it->paren = false;
  }
  int units = chance(r, 30) ? rint_in(r, 1, 2) : 0;
  for (int u = 0; u < units; u++) {
    int at = rint_in(r, 0, ni);
    memmove(&items[at + 1], &items[at], sizeof(item) * (size_t)(ni - at));
    memset(&items[at], 0, sizeof(item));
    items[at].unit = UNITS[rint_in(r, 0, 5)];
    ni++;
  }
  return ni;
}

static void append(char *buf, const char *s) {
  size_t n = strlen(buf), k = strlen(s);
  ck_assert(n + k < LT__PATTERN_MAX);
  memcpy(buf + n, s, k + 1);
}

static void emit_tok(rng *r, const tok *t, char *buf) {
  char s[16];
  if (t->kind == T_NAME) append(buf, NAMES[t->name]);
  else if (t->kind == T_ELL) append(buf, "...");
  else {
    snprintf(s, sizeof s, chance(r, 20) ? "0%d" : "%d", t->value);
    append(buf, s);
  }
}

static bool is_bracketed(const item *it) { return it->paren || (it->unit && it->unit[0] == '('); }

static void emit_side(rng *r, const item *items, int ni, char *buf) {
  if (chance(r, 20)) append(buf, " ");
  for (int i = 0; i < ni; i++) {
    const item *it = &items[i];
    if (i > 0) {
      bool may_glue = is_bracketed(it) || is_bracketed(&items[i - 1]);
      append(buf, may_glue && chance(r, 50) ? "" : chance(r, 80) ? " " : "  ");
    }
    if (it->unit) {
      append(buf, it->unit);
      continue;
    }
    if (it->paren) append(buf, chance(r, 15) ? "( " : "(");
    for (int k = 0; k < it->ntok; k++) {
      if (k > 0) append(buf, " ");
      emit_tok(r, &it->t[k], buf);
      if (it->paren && chance(r, 8)) append(buf, " 1"); /* dropped inside a group */
    }
    if (it->paren) append(buf, chance(r, 15) ? " )" : ")");
  }
  if (chance(r, 20)) append(buf, " ");
}

static int64_t tok_len(const gen *g, const tok *t) { return t->kind == T_NAME ? g->len[t->name] : t->value; }

static void add_axis(rcase *c, int name, int64_t size) {
  for (int i = 0; i < c->naxes; i++)
    if (!strcmp(c->axes[i].name, NAMES[name])) return;
  c->axes[c->naxes++] = (lt_axis){NAMES[name], size};
}

/* A random valid pattern for op, an input shape and the axes it needs. */
static void gen_case(rng *r, lt__pattern_op op, rcase *c) {
  memset(c, 0, sizeof *c);
  c->op = op;
  gen g = {.E = -1};
  int pool[NNAMES];
  for (int i = 0; i < NNAMES; i++) pool[i] = i;
  shuffle(r, pool, NNAMES);
  int nn = rint_in(r, op == LT__OP_REPEAT ? 0 : 1, 5);
  if (chance(r, 5)) nn = 0;
  int64_t total = 1;
  for (int i = 0; i < nn; i++) {
    g.len[pool[i]] = rint_in(r, 1, 4);
    total *= g.len[pool[i]];
  }
  if (chance(r, 35)) {
    g.E = rint_in(r, 0, 3);
    for (int k = 0; k < g.E; k++) total *= (g.ell[k] = rint_in(r, 1, 3));
  }
  int64_t cap = op == LT__OP_REPEAT ? 120 : 360;
  while (total > cap) { /* shrink a random name to keep the case small */
    int i = pool[rint_in(r, 0, nn - 1)];
    if (g.len[i] > 1) {
      total = total / g.len[i] * (g.len[i] - 1);
      g.len[i]--;
    }
  }
  if (nn > 0 && chance(r, 4)) g.len[pool[rint_in(r, 0, nn - 1)]] = 0;

  /* left */
  tok lt[16];
  int nl = 0;
  for (int i = 0; i < nn; i++) lt[nl++] = (tok){T_NAME, pool[i], 0};
  if (op == LT__OP_REDUCE && chance(r, 40)) {
    int na = rint_in(r, 1, 2);
    for (int k = 0; k < na; k++) lt[nl++] = (tok){T_ANON, -1, rint_in(r, 2, 3)};
  }
  {
    int order[16];
    for (int i = 0; i < nl; i++) order[i] = i;
    shuffle(r, order, nl);
    tok tmp[16];
    for (int i = 0; i < nl; i++) tmp[i] = lt[order[i]];
    memcpy(lt, tmp, sizeof(tok) * (size_t)nl);
  }
  if (g.E >= 0) {
    int at = rint_in(r, 0, nl);
    memmove(&lt[at + 1], &lt[at], sizeof(tok) * (size_t)(nl - at));
    lt[at] = (tok){T_ELL, -1, 0};
    nl++;
  }
  item li[24];
  int nli = group_items(r, lt, nl, true, li);

  /* shape and the lengths the left side needs */
  for (int i = 0; i < nli; i++) {
    const item *it = &li[i];
    if (it->unit) {
      c->shape[c->ndim++] = 1;
      continue;
    }
    if (it->t[0].kind == T_ELL) {
      for (int k = 0; k < g.E; k++) c->shape[c->ndim++] = g.ell[k];
      continue;
    }
    int64_t n = 1;
    int names[6], nnm = 0;
    for (int k = 0; k < it->ntok; k++) {
      n *= tok_len(&g, &it->t[k]);
      if (it->t[k].kind == T_NAME) names[nnm++] = it->t[k].name;
    }
    c->shape[c->ndim++] = n;
    int unknown = nnm > 0 && chance(r, 85) ? rint_in(r, 0, nnm - 1) : -1;
    for (int k = 0; k < nnm && unknown >= 0; k++) /* known lengths must not multiply to 0 */
      if (g.len[names[k]] == 0) unknown = k;
    for (int k = 0; k < nnm; k++)
      if (k != unknown && (nnm > 1 || chance(r, 10))) add_axis(c, names[k], g.len[names[k]]);
  }

  /* right */
  tok rt[16];
  int nr = 0;
  for (int i = 0; i < nn; i++)
    if (op != LT__OP_REDUCE || chance(r, 60)) rt[nr++] = (tok){T_NAME, pool[i], 0};
  if (g.E >= 0 && (op != LT__OP_REDUCE || chance(r, 70))) rt[nr++] = (tok){T_ELL, -1, 0};
  if (op == LT__OP_REPEAT) {
    int nnew = rint_in(r, 0, 2);
    for (int k = 0; k < nnew; k++) {
      int name = pool[nn + k];
      add_axis(c, name, chance(r, 5) ? 0 : rint_in(r, 1, 3));
      rt[nr++] = (tok){T_NAME, name, 0};
    }
    int nanon = chance(r, 40) ? rint_in(r, 1, 2) : 0;
    for (int k = 0; k < nanon; k++) rt[nr++] = (tok){T_ANON, -1, rint_in(r, 2, 3)};
  }
  {
    int order[16];
    for (int i = 0; i < nr; i++) order[i] = i;
    shuffle(r, order, nr);
    tok tmp[16];
    for (int i = 0; i < nr; i++) tmp[i] = rt[order[i]];
    memcpy(rt, tmp, sizeof(tok) * (size_t)nr);
  }
  item ri[24];
  int nri = group_items(r, rt, nr, false, ri);

  emit_side(r, li, nli, c->pattern);
  append(c->pattern, chance(r, 30) ? "->" : " -> ");
  emit_side(r, ri, nri, c->pattern);
  /* shuffle the order of the axes given */
  for (int i = c->naxes - 1; i > 0; i--) {
    int j = rint_in(r, 0, i);
    lt_axis t = c->axes[i];
    c->axes[i] = c->axes[j];
    c->axes[j] = t;
  }
}

/* A tensor of the given logical shape whose layout is random: row-major,
 * or reached through permutes, negative-step slices, narrows (offsets) and
 * expands. Values: distinct (0, 1, 2, ... + start) unless small, then
 * small integers in [-2, 2]. */
static lt_tensor *make_input(rng *r, lt_dtype dt, int ndim, const int64_t *shape, int depth, bool small) {
  int mode = depth > 0 && ndim > 0 ? rint_in(r, 0, 4) : 0;
  int64_t b[LT_MAX_DIMS];
  memcpy(b, shape, sizeof(int64_t) * (size_t)ndim);
  int d = ndim > 0 ? rint_in(r, 0, ndim - 1) : 0;
  lt_tensor *inner = NULL, *t = NULL;
  switch (mode) {
  case 0: {
    t = lt_empty(dt, ndim, shape, LT_HOST);
    LT_ASSERT_OK_PTR(t);
    int64_t start = rint_in(r, 0, 50);
    for (int64_t i = 0; i < lt_numel(t); i++) {
      double v = small ? rint_in(r, -2, 2) : (double)(start + i);
      switch (dt) {
      case LT_F32: ((float *)lt_data(t))[i] = (float)v; break;
      case LT_F64: ((double *)lt_data(t))[i] = v; break;
      case LT_I32: ((int32_t *)lt_data(t))[i] = (int32_t)v; break;
      case LT_U8: ((uint8_t *)lt_data(t))[i] = (uint8_t)((int64_t)v & 0xff); break;
      default: ck_abort();
      }
    }
    return t;
  }
  case 1: {
    int p[LT_MAX_DIMS], q[LT_MAX_DIMS];
    for (int i = 0; i < ndim; i++) p[i] = i;
    shuffle(r, p, ndim);
    for (int i = 0; i < ndim; i++) b[i] = shape[p[i]];
    for (int i = 0; i < ndim; i++) q[p[i]] = i;
    inner = make_input(r, dt, ndim, b, depth - 1, small);
    t = lt_permute(inner, q);
    break;
  }
  case 2: {
    int64_t step = -rint_in(r, 1, 2);
    b[d] = shape[d] * -step;
    inner = make_input(r, dt, ndim, b, depth - 1, small);
    t = lt_slice(inner, d, LT_NONE, LT_NONE, step);
    break;
  }
  case 3: {
    b[d] = shape[d] + 2;
    inner = make_input(r, dt, ndim, b, depth - 1, small);
    t = lt_narrow(inner, d, 1, shape[d]);
    break;
  }
  default: {
    b[d] = 1;
    inner = make_input(r, dt, ndim, b, depth - 1, small);
    t = lt_expand(inner, ndim, shape);
    break;
  }
  }
  LT_ASSERT_OK_PTR(t);
  lt_release(inner);
  for (int i = 0; i < ndim; i++) ck_assert_int_eq(lt_shape(t)[i], shape[i]);
  return t;
}

static void describe_case(const rcase *c, const lt_tensor *in, char *buf, size_t n) {
  size_t k = (size_t)snprintf(buf, n, "'%s' on ", c->pattern);
  k += (size_t)lt_describe(in, buf + k, n - k);
  for (int i = 0; i < c->naxes && k < n; i++)
    k += (size_t)snprintf(buf + k, n - k, " %s=%lld", c->axes[i].name, (long long)c->axes[i].size);
}

static bool same_value(double got, double want, lt_dtype dt) {
  if (isnan(want)) return isnan(got);
  switch (dt) {
  case LT_F32: return got == (double)(float)want;
  case LT_I32: return got == (double)(int32_t)want;
  case LT_U8: return got == (double)(uint8_t)(int64_t)want;
  default: return got == want;
  }
}

/* The result must be a view exactly when lt_view can express it over the
 * permuted elementary layout: then with that view's geometry (strides of
 * dims longer than 1), else a contiguous copy counted once. */
static lt_tensor *call_op(const rcase *c, const lt_tensor *in, lt_reduction rop) {
  switch (c->op) {
  case LT__OP_REARRANGE: return lt_rearrange(in, c->pattern, c->axes, c->naxes);
  case LT__OP_REPEAT: return lt_repeat(in, c->pattern, c->axes, c->naxes);
  default: return lt_reduce(in, c->pattern, rop, c->axes, c->naxes);
  }
}

static void check_view_or_copy(const rcase *c, const lt_tensor *in, const lt_tensor *out, const ref *R,
                               lt_reduction rop, int64_t copies, const char *what) {
  lt_tensor *m = permuted_elementary(in, R);
  lt_tensor *v = lt_view(m, R->n_out, R->out_shape);
  if (v) {
    ck_assert_msg(lt_shares_storage(out, in), "%s: expected a view", what);
    ck_assert_msg(copies == 0, "%s: a view counted %lld implicit copies", what, (long long)copies);
    ck_assert_msg(lt_offset(out) == lt_offset(v) || lt_numel(v) == 0, "%s: offset %lld, expected %lld", what,
                  (long long)lt_offset(out), (long long)lt_offset(v));
    for (int d = 0; d < R->n_out && lt_numel(v) > 0; d++)
      if (R->out_shape[d] > 1)
        ck_assert_msg(lt_strides(out)[d] == lt_strides(v)[d], "%s: stride %d is %lld, expected %lld", what, d,
                      (long long)lt_strides(out)[d], (long long)lt_strides(v)[d]);
  } else {
    ck_assert_msg(lt_last_status() == LT_ERR_NOT_VIEWABLE, "%s: reference view failed: %s", what, lt_last_error());
    ck_assert_msg(!lt_shares_storage(out, in), "%s: expected a copy", what);
    ck_assert_msg(lt_is_contiguous(out), "%s: the copy is not contiguous", what);
    ck_assert_msg(copies == 1, "%s: a copy counted %lld implicit copies", what, (long long)copies);
    /* and under LT_COPY_FORBID the same call is refused */
    lt_copy_policy old = lt_set_copy_policy(LT_COPY_FORBID);
    lt_tensor *f = call_op(c, in, rop);
    lt_set_copy_policy(old);
    ck_assert_msg(f == NULL && lt_last_status() == LT_ERR_NOT_VIEWABLE, "%s: not refused under LT_COPY_FORBID: %s",
                  what, f ? "succeeded" : lt_last_error());
  }
  lt_release(v);
  lt_release(m);
}

static void run_random(lt__pattern_op op, int n, uint64_t seed) {
  rng r = {seed};
  static const lt_dtype layout_dtypes[] = {LT_F32, LT_F32, LT_F32, LT_F64, LT_I32, LT_U8};
  double *want = malloc(sizeof(double) * 40000), *got = malloc(sizeof(double) * 40000);
  ck_assert(want && got);
  for (int i = 0; i < n; i++) {
    rcase c;
    gen_case(&r, op, &c);
    lt_reduction rop = (lt_reduction)rint_in(&r, 0, 4);
    lt_dtype dt = layout_dtypes[rint_in(&r, 0, 5)];
    if (op == LT__OP_REDUCE) dt = rop == LT_MEAN ? (chance(&r, 70) ? LT_F32 : LT_F64) : layout_dtypes[rint_in(&r, 0, 4)];
    lt_tensor *in = make_input(&r, dt, c.ndim, c.shape, rint_in(&r, 0, 2), op == LT__OP_REDUCE);

    char what[1024];
    describe_case(&c, in, what, sizeof what);
    snprintf(what + strlen(what), sizeof what - strlen(what), " (case %d, op %d, reduction %d)", i, op, rop);

    lt__ast ast;
    lt__pattern_error e;
    ck_assert_msg(lt__parse_pattern(c.pattern, &ast, &e), "%s: does not parse: %s", what, e.text);
    ref R;
    ref_build(&ast, c.ndim, c.shape, c.axes, c.naxes, &R);
    ck_assert(R.out_numel <= 40000);
    bool reduce = op == LT__OP_REDUCE && R.n_red > 0;
    ref_compute(&R, in, reduce, rop, want);

    int64_t before = implicit_copies();
    lt_tensor *out = call_op(&c, in, rop);
    lt_status st = lt_last_status();
    char err[512];
    snprintf(err, sizeof err, "%s", lt_last_error());
    int64_t copies = implicit_copies() - before;
    bool empty_fold = false;
    for (int k = 0; k < R.n_red; k++) empty_fold |= R.len[R.red_ids[k]] == 0;
    if (reduce && empty_fold && (rop == LT_MAX || rop == LT_MIN)) {
      /* numpy: "zero-size array to reduction operation maximum which has
       * no identity". (The corner of an empty output as well has its own
       * test, reduce_max_over_an_empty_axis_fails_even_when_the_output_is_empty.) */
      if (R.out_numel > 0)
        ck_assert_msg(out == NULL && st == LT_ERR_SHAPE, "%s: max/min over an empty axis: %s", what,
                      out ? "succeeded" : lt_status_str(st));
      lt_release(out);
      lt_release(in);
      continue;
    }
    ck_assert_msg(out != NULL, "%s: failed: %s", what, err);
    ck_assert_msg(lt_ndim(out) == R.n_out, "%s: ndim %d, expected %d", what, lt_ndim(out), R.n_out);
    for (int d = 0; d < R.n_out; d++)
      ck_assert_msg(lt_shape(out)[d] == R.out_shape[d], "%s: dim %d is %lld, expected %lld", what, d,
                    (long long)lt_shape(out)[d], (long long)R.out_shape[d]);
    ck_assert_int_eq(lt_dtype_of(out), dt);
    read_all(out, got);
    for (int64_t k = 0; k < R.out_numel; k++)
      ck_assert_msg(same_value(got[k], want[k], dt), "%s: element %lld is %.17g, expected %.17g", what, (long long)k,
                    got[k], want[k]);
    if (reduce) {
      ck_assert_msg(!lt_shares_storage(out, in), "%s: a reduction shares the input's storage", what);
      ck_assert_msg(lt_is_contiguous(out), "%s: a reduction is not contiguous", what);
    } else {
      check_view_or_copy(&c, in, out, &R, rop, copies, what);
    }
    lt_release(out);
    lt_release(in);
  }
  free(want);
  free(got);
}

START_TEST(random_rearrange_patterns_match_the_reference) { run_random(LT__OP_REARRANGE, 2000, 0x5eed0001ull); }
END_TEST

START_TEST(random_repeat_patterns_match_the_reference) { run_random(LT__OP_REPEAT, 1500, 0x5eed0002ull); }
END_TEST

START_TEST(random_reduce_patterns_match_the_reference) { run_random(LT__OP_REDUCE, 1500, 0x5eed0003ull); }
END_TEST

/* ======================================================================
 * Hand-picked values
 * ====================================================================== */

START_TEST(rearrange_transpose_reads_columns) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(2, 3));
  lt_tensor *y = lt_rearrange(x, "a b -> b a", NO_AXES);
  LT_ASSERT_OK_PTR(y);
  ASSERT_VALUES(y, 0, 3, 1, 4, 2, 5);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(rearrange_composition_on_the_right_varies_the_last_axis_fastest) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(2, 3));
  lt_tensor *y = lt_rearrange(x, "a b -> (b a)", NO_AXES);
  LT_ASSERT_OK_PTR(y);
  ASSERT_VALUES(y, 0, 3, 1, 4, 2, 5);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(rearrange_splits_a_dim_with_the_given_length) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(6));
  lt_tensor *y = lt_rearrange(x, "(h w) -> w h", AXES({"h", 2}));
  LT_ASSERT_OK_PTR(y);
  lt_assert_geometry(y, SHAPE(3, 2), (int64_t[]){1, 3}, 0);
  ASSERT_VALUES(y, 0, 3, 1, 4, 2, 5);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(repeat_with_the_new_axis_first_tiles) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(3));
  lt_tensor *y = lt_repeat(x, "h -> (r h)", AXES({"r", 2}));
  LT_ASSERT_OK_PTR(y);
  ASSERT_VALUES(y, 0, 1, 2, 0, 1, 2);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(repeat_with_the_new_axis_last_repeats_each_element) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(3));
  lt_tensor *y = lt_repeat(x, "h -> (h r)", AXES({"r", 2}));
  LT_ASSERT_OK_PTR(y);
  ASSERT_VALUES(y, 0, 0, 1, 1, 2, 2);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(repeat_numeric_axis_needs_no_length) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(3));
  lt_tensor *y = lt_repeat(x, "a -> a 2", NO_AXES);
  LT_ASSERT_OK_PTR(y);
  lt_assert_geometry(y, SHAPE(3, 2), (int64_t[]){1, 0}, 0);
  ASSERT_VALUES(y, 0, 0, 1, 1, 2, 2);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(repeat_of_a_scalar_into_a_new_axis) {
  lt_tensor *x = from_floats(0, NULL, (float[]){7});
  lt_tensor *y = lt_repeat(x, " -> a", AXES({"a", 3}));
  LT_ASSERT_OK_PTR(y);
  lt_assert_geometry(y, SHAPE(3), (int64_t[]){0}, 0);
  ck_assert(lt_shares_storage(y, x));
  ASSERT_VALUES(y, 7, 7, 7);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(empty_pattern_on_a_scalar_is_the_scalar) {
  lt_tensor *x = from_floats(0, NULL, (float[]){7});
  lt_tensor *y = lt_rearrange(x, " -> ", NO_AXES);
  LT_ASSERT_OK_PTR(y);
  ck_assert_int_eq(lt_ndim(y), 0);
  ck_assert(lt_shares_storage(y, x));
  ASSERT_VALUES(y, 7);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(ellipsis_identity_on_a_scalar_is_the_scalar) {
  lt_tensor *x = from_floats(0, NULL, (float[]){7});
  lt_tensor *y = lt_rearrange(x, "... -> ...", NO_AXES);
  LT_ASSERT_OK_PTR(y);
  ck_assert_int_eq(lt_ndim(y), 0);
  ck_assert(lt_shares_storage(y, x));
  ASSERT_VALUES(y, 7);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(ellipsis_in_parentheses_on_a_scalar_gives_shape_1) {
  lt_tensor *x = from_floats(0, NULL, (float[]){7});
  lt_tensor *y = lt_rearrange(x, "... -> (...)", NO_AXES);
  LT_ASSERT_OK_PTR(y);
  lt_assert_geometry(y, SHAPE(1), NULL, 0);
  ASSERT_VALUES(y, 7);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(zero_size_dim_splits_and_permutes) {
  lt_tensor *x = lt_zeros(LT_F32, SHAPE(0, 2), LT_HOST);
  lt_tensor *y = lt_rearrange(x, "(a b) c -> c b a", AXES({"b", 5}));
  LT_ASSERT_OK_PTR(y);
  lt_assert_geometry(y, SHAPE(2, 5, 0), NULL, 0);
  lt_release(y);
  lt_release(x);
}
END_TEST

/* ======================================================================
 * Views and copies
 * ====================================================================== */

START_TEST(split_and_permute_is_a_view) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(2, 3, 8));
  int64_t before = implicit_copies();
  lt_tensor *y = lt_rearrange(x, "b t (h d) -> b h t d", AXES({"h", 2}));
  LT_ASSERT_OK_PTR(y);
  ck_assert(lt_shares_storage(y, x));
  lt_assert_geometry(y, SHAPE(2, 2, 3, 4), ((int64_t[]){24, 4, 8, 1}), 0);
  ck_assert_int_eq(implicit_copies() - before, 0);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(merging_axes_not_adjacent_in_memory_copies_once) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(2, 3));
  lt_stats s0 = lt_stats_get(LT_HOST);
  lt_tensor *y = lt_rearrange(x, "a b -> (b a)", NO_AXES);
  lt_stats s1 = lt_stats_get(LT_HOST);
  LT_ASSERT_OK_PTR(y);
  ck_assert(!lt_shares_storage(y, x));
  lt_assert_geometry(y, SHAPE(6), (int64_t[]){1}, 0);
  ck_assert_int_eq(s1.implicit_copies - s0.implicit_copies, 1);
  ck_assert_int_eq(s1.copies - s0.copies, 1);
  ck_assert_int_eq(s1.bytes_copied - s0.bytes_copied, 24);
  ASSERT_VALUES(y, 0, 3, 1, 4, 2, 5);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(merging_axes_adjacent_in_memory_after_a_transpose_is_a_view) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(3, 2));
  lt_tensor *t = lt_transpose(x, 0, 1); /* [2,3] strides [1,2] */
  int64_t before = implicit_copies();
  lt_tensor *y = lt_rearrange(t, "a b -> (b a)", NO_AXES);
  LT_ASSERT_OK_PTR(y);
  ck_assert(lt_shares_storage(y, x));
  lt_assert_geometry(y, SHAPE(6), (int64_t[]){1}, 0);
  ck_assert_int_eq(implicit_copies() - before, 0);
  ASSERT_VALUES(y, 0, 1, 2, 3, 4, 5);
  lt_release(y);
  lt_release(t);
  lt_release(x);
}
END_TEST

START_TEST(repeat_of_a_new_axis_is_a_stride_zero_view) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(2, 3));
  int64_t before = implicit_copies();
  lt_tensor *y = lt_repeat(x, "a b -> a b c", AXES({"c", 3}));
  LT_ASSERT_OK_PTR(y);
  ck_assert(lt_shares_storage(y, x));
  lt_assert_geometry(y, SHAPE(2, 3, 3), ((int64_t[]){3, 1, 0}), 0);
  ck_assert_int_eq(implicit_copies() - before, 0);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(repeat_into_a_composition_copies_once) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(2, 3));
  int64_t before = implicit_copies();
  lt_tensor *y = lt_repeat(x, "a b -> a (b c)", AXES({"c", 2}));
  LT_ASSERT_OK_PTR(y);
  ck_assert(!lt_shares_storage(y, x));
  lt_assert_geometry(y, SHAPE(2, 6), ((int64_t[]){6, 1}), 0);
  ck_assert_int_eq(implicit_copies() - before, 1);
  ASSERT_VALUES(y, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(repeat_that_adds_nothing_is_a_view) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(2, 3));
  lt_tensor *y = lt_repeat(x, "a b -> b a", NO_AXES);
  LT_ASSERT_OK_PTR(y);
  ck_assert(lt_shares_storage(y, x));
  lt_assert_geometry(y, SHAPE(3, 2), ((int64_t[]){1, 3}), 0);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(identity_pattern_is_a_view_with_the_same_geometry) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(2, 3));
  lt_tensor *t = lt_transpose(x, 0, 1);
  lt_tensor *y = lt_rearrange(t, "a b -> a b", NO_AXES);
  LT_ASSERT_OK_PTR(y);
  ck_assert(lt_shares_storage(y, x));
  lt_assert_geometry(y, SHAPE(3, 2), ((int64_t[]){1, 3}), 0);
  lt_release(y);
  lt_release(t);
  lt_release(x);
}
END_TEST

START_TEST(ellipsis_identity_is_a_view_with_the_same_geometry) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(4, 5));
  lt_tensor *s = lt_slice(x, 1, LT_NONE, LT_NONE, -2); /* [4,3] strides [5,-2] offset 4 */
  LT_ASSERT_OK_PTR(s);
  lt_tensor *y = lt_rearrange(s, "... -> ...", NO_AXES);
  LT_ASSERT_OK_PTR(y);
  ck_assert(lt_shares_storage(y, x));
  lt_assert_geometry(y, SHAPE(4, 3), ((int64_t[]){5, -2}), 4);
  lt_release(y);
  lt_release(s);
  lt_release(x);
}
END_TEST

START_TEST(moving_an_expanded_axis_is_a_view) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(1, 3));
  lt_tensor *e = lt_expand(x, SHAPE(4, 3));
  lt_tensor *y = lt_rearrange(e, "a b -> b a", NO_AXES);
  LT_ASSERT_OK_PTR(y);
  ck_assert(lt_shares_storage(y, x));
  lt_assert_geometry(y, SHAPE(3, 4), ((int64_t[]){1, 0}), 0);
  lt_release(y);
  lt_release(e);
  lt_release(x);
}
END_TEST

START_TEST(adding_and_removing_unit_dims_is_a_view) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(2, 3));
  lt_tensor *y = lt_rearrange(x, "a b -> a 1 b ()", NO_AXES);
  LT_ASSERT_OK_PTR(y);
  ck_assert(lt_shares_storage(y, x));
  lt_assert_geometry(y, SHAPE(2, 1, 3, 1), NULL, 0);
  lt_tensor *z = lt_rearrange(y, "a 1 b () -> b a", NO_AXES);
  LT_ASSERT_OK_PTR(z);
  ck_assert(lt_shares_storage(z, x));
  lt_assert_geometry(z, SHAPE(3, 2), ((int64_t[]){1, 3}), 0);
  lt_release(z);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(copy_forbid_refuses_a_copying_rearrange) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(2, 3));
  lt_set_copy_policy(LT_COPY_FORBID);
  int64_t before = implicit_copies();
  LT_ASSERT_FAILS(lt_rearrange(x, "a b -> (b a)", NO_AXES), LT_ERR_NOT_VIEWABLE);
  ck_assert_int_eq(implicit_copies() - before, 0);
  lt_set_copy_policy(LT_COPY_ALLOW);
  lt_release(x);
}
END_TEST

START_TEST(copy_forbid_refuses_a_copying_repeat) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(2, 3));
  lt_set_copy_policy(LT_COPY_FORBID);
  LT_ASSERT_FAILS(lt_repeat(x, "a b -> a (b c)", AXES({"c", 2})), LT_ERR_NOT_VIEWABLE);
  lt_set_copy_policy(LT_COPY_ALLOW);
  lt_release(x);
}
END_TEST

START_TEST(copy_forbid_allows_views) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(2, 3));
  lt_set_copy_policy(LT_COPY_FORBID);
  lt_tensor *y = lt_rearrange(x, "a b -> b a", NO_AXES);
  lt_tensor *z = lt_repeat(x, "a b -> a b c", AXES({"c", 3}));
  lt_set_copy_policy(LT_COPY_ALLOW);
  LT_ASSERT_OK_PTR(y);
  LT_ASSERT_OK_PTR(z);
  lt_release(z);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(copy_forbid_does_not_affect_a_reduction) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(2, 3));
  lt_set_copy_policy(LT_COPY_FORBID);
  lt_tensor *y = lt_reduce(x, "a b -> b", LT_SUM, NO_AXES);
  lt_set_copy_policy(LT_COPY_ALLOW);
  LT_ASSERT_OK_PTR(y);
  ASSERT_VALUES(y, 3, 5, 7);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(reduce_with_nothing_to_reduce_is_a_rearrange_view) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(2, 3));
  lt_tensor *y = lt_reduce(x, "a b -> b a", LT_MAX, NO_AXES);
  LT_ASSERT_OK_PTR(y);
  ck_assert(lt_shares_storage(y, x));
  lt_assert_geometry(y, SHAPE(3, 2), ((int64_t[]){1, 3}), 0);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(reduce_that_reduces_returns_a_new_tensor) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(2, 3));
  lt_tensor *y = lt_reduce(x, "a b -> a", LT_SUM, NO_AXES);
  LT_ASSERT_OK_PTR(y);
  ck_assert(!lt_shares_storage(y, x));
  lt_assert_geometry(y, SHAPE(2), (int64_t[]){1}, 0);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(reduce_over_an_axis_of_length_one_returns_a_new_tensor) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(2, 1));
  lt_tensor *y = lt_reduce(x, "a b -> a", LT_SUM, NO_AXES);
  LT_ASSERT_OK_PTR(y);
  ck_assert(!lt_shares_storage(y, x));
  lt_assert_geometry(y, SHAPE(2), (int64_t[]){1}, 0);
  ASSERT_VALUES(y, 0, 1);
  lt_release(y);
  lt_release(x);
}
END_TEST

/* ======================================================================
 * Reductions
 * ====================================================================== */

static const float MIXED[] = {1, 5, -2, 4, -3, 0}; /* [[1,5,-2],[4,-3,0]] */

START_TEST(reduce_sum_adds_pairs_of_rows) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(4, 3));
  lt_tensor *y = lt_reduce(x, "(h 2) w -> h w", LT_SUM, NO_AXES);
  LT_ASSERT_OK_PTR(y);
  lt_assert_geometry(y, SHAPE(2, 3), NULL, 0);
  ASSERT_VALUES(y, 3, 5, 7, 15, 17, 19);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(reduce_mean_averages_pairs_of_rows) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(4, 3));
  lt_tensor *y = lt_reduce(x, "(h 2) w -> h w", LT_MEAN, NO_AXES);
  LT_ASSERT_OK_PTR(y);
  ASSERT_VALUES(y, 1.5, 2.5, 3.5, 7.5, 8.5, 9.5);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(reduce_max_takes_the_largest) {
  lt_tensor *x = from_floats(SHAPE(2, 3), MIXED);
  lt_tensor *y = lt_reduce(x, "a b -> b", LT_MAX, NO_AXES);
  LT_ASSERT_OK_PTR(y);
  ASSERT_VALUES(y, 4, 5, 0);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(reduce_min_takes_the_smallest) {
  lt_tensor *x = from_floats(SHAPE(2, 3), MIXED);
  lt_tensor *y = lt_reduce(x, "a b -> b", LT_MIN, NO_AXES);
  LT_ASSERT_OK_PTR(y);
  ASSERT_VALUES(y, 1, -3, -2);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(reduce_prod_multiplies) {
  lt_tensor *x = from_floats(SHAPE(2, 3), MIXED);
  lt_tensor *y = lt_reduce(x, "a b -> a", LT_PROD, NO_AXES);
  LT_ASSERT_OK_PTR(y);
  ASSERT_VALUES(y, -10, 0);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(reduce_to_a_scalar) {
  lt_tensor *x = from_floats(SHAPE(2, 3), MIXED);
  lt_tensor *y = lt_reduce(x, "a b -> ", LT_SUM, NO_AXES);
  LT_ASSERT_OK_PTR(y);
  ck_assert_int_eq(lt_ndim(y), 0);
  ASSERT_VALUES(y, 5);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(reduce_keeps_unit_dims_written_on_the_right) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(2, 1, 2, 2));
  lt_tensor *y = lt_reduce(x, "b c h w -> b c 1 1", LT_MEAN, NO_AXES);
  LT_ASSERT_OK_PTR(y);
  lt_assert_geometry(y, SHAPE(2, 1, 1, 1), NULL, 0);
  ASSERT_VALUES(y, 1.5, 5.5);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(reduce_over_a_left_only_ellipsis_folds_all_its_dims) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(2, 2, 3));
  lt_tensor *y = lt_reduce(x, "a ... -> a", LT_SUM, NO_AXES);
  LT_ASSERT_OK_PTR(y);
  ASSERT_VALUES(y, 15, 51);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(reduce_of_a_non_contiguous_input) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(3, 4));
  lt_tensor *s = lt_slice(x, 1, LT_NONE, LT_NONE, -2); /* columns 3 and 1 */
  lt_tensor *y = lt_reduce(s, "a b -> b", LT_SUM, NO_AXES);
  LT_ASSERT_OK_PTR(y);
  ASSERT_VALUES(y, 3 + 7 + 11, 1 + 5 + 9);
  lt_release(y);
  lt_release(s);
  lt_release(x);
}
END_TEST

START_TEST(reduce_mean_of_an_integer_dtype_is_a_dtype_error) {
  lt_tensor *x = lt_from_data((int32_t[]){1, 2, 3}, LT_I32, SHAPE(3));
  LT_ASSERT_OK_PTR(x);
  LT_ASSERT_FAILS(lt_reduce(x, "a -> ", LT_MEAN, NO_AXES), LT_ERR_DTYPE);
  lt_release(x);
}
END_TEST

START_TEST(reduce_sum_of_an_integer_dtype_keeps_the_dtype) {
  lt_tensor *x = lt_from_data((int32_t[]){1, 2, 3}, LT_I32, SHAPE(3));
  LT_ASSERT_OK_PTR(x);
  lt_tensor *y = lt_reduce(x, "a -> ", LT_SUM, NO_AXES);
  LT_ASSERT_OK_PTR(y);
  ck_assert_int_eq(lt_dtype_of(y), LT_I32);
  ck_assert_int_eq(*(int32_t *)lt_data(y), 6);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(reduce_sum_over_an_empty_axis_is_zero) {
  lt_tensor *x = lt_zeros(LT_F32, SHAPE(2, 0), LT_HOST);
  lt_tensor *y = lt_reduce(x, "a b -> a", LT_SUM, NO_AXES);
  LT_ASSERT_OK_PTR(y);
  ASSERT_VALUES(y, 0, 0);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(reduce_prod_over_an_empty_axis_is_one) {
  lt_tensor *x = lt_zeros(LT_F32, SHAPE(2, 0), LT_HOST);
  lt_tensor *y = lt_reduce(x, "a b -> a", LT_PROD, NO_AXES);
  LT_ASSERT_OK_PTR(y);
  ASSERT_VALUES(y, 1, 1);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(reduce_mean_over_an_empty_axis_is_nan) {
  lt_tensor *x = lt_zeros(LT_F32, SHAPE(2, 0), LT_HOST);
  lt_tensor *y = lt_reduce(x, "a b -> a", LT_MEAN, NO_AXES);
  LT_ASSERT_OK_PTR(y);
  ASSERT_VALUES(y, NAN, NAN);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(reduce_max_or_min_over_an_empty_axis_is_a_shape_error) {
  lt_tensor *x = lt_zeros(LT_F32, SHAPE(2, 0), LT_HOST);
  LT_ASSERT_FAILS(lt_reduce(x, "a b -> a", LT_MAX, NO_AXES), LT_ERR_SHAPE);
  LT_ASSERT_FAILS(lt_reduce(x, "a b -> a", LT_MIN, NO_AXES), LT_ERR_SHAPE);
  lt_release(x);
}
END_TEST

START_TEST(reduce_max_over_an_empty_axis_fails_even_when_the_output_is_empty) {
  /* numpy: np.zeros((0, 0)).max(axis=1) raises "zero-size array to
   * reduction operation maximum which has no identity". (Everything is
   * released before asserting, so a failure here leaks nothing.) */
  lt_tensor *x = lt_zeros(LT_F32, SHAPE(0, 0), LT_HOST);
  LT_ASSERT_OK_PTR(x);
  lt_tensor *mx = lt_reduce(x, "a b -> a", LT_MAX, NO_AXES);
  lt_status smax = lt_last_status();
  lt_tensor *mn = lt_reduce(x, "a b -> a", LT_MIN, NO_AXES);
  lt_status smin = lt_last_status();
  bool max_failed = mx == NULL, min_failed = mn == NULL;
  lt_release(mn);
  lt_release(mx);
  lt_release(x);
  ck_assert_msg(max_failed && smax == LT_ERR_SHAPE, "max over [0,0] -> [0]: %s", lt_status_str(smax));
  ck_assert_msg(min_failed && smin == LT_ERR_SHAPE, "min over [0,0] -> [0]: %s", lt_status_str(smin));
}
END_TEST

START_TEST(reduce_max_over_a_non_empty_axis_with_an_empty_output_is_empty) {
  lt_tensor *x = lt_zeros(LT_F32, SHAPE(0, 3), LT_HOST);
  lt_tensor *y = lt_reduce(x, "a b -> a", LT_MAX, NO_AXES);
  LT_ASSERT_OK_PTR(y);
  lt_assert_geometry(y, SHAPE(0), NULL, 0);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(nan_propagates_through_max) {
  lt_tensor *x = from_floats(SHAPE(3, 3), (float[]){NAN, 1, 2, 1, NAN, 2, 1, 2, NAN});
  lt_tensor *y = lt_reduce(x, "a b -> a", LT_MAX, NO_AXES);
  LT_ASSERT_OK_PTR(y);
  ASSERT_VALUES(y, NAN, NAN, NAN);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(nan_propagates_through_min) {
  lt_tensor *x = from_floats(SHAPE(3, 3), (float[]){NAN, 1, 2, 1, NAN, 2, 1, 2, NAN});
  lt_tensor *y = lt_reduce(x, "a b -> a", LT_MIN, NO_AXES);
  LT_ASSERT_OK_PTR(y);
  ASSERT_VALUES(y, NAN, NAN, NAN);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(invalid_reduction_is_an_argument_error) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(2, 3));
  LT_ASSERT_FAILS(lt_reduce(x, "a b -> a", (lt_reduction)99, NO_AXES), LT_ERR_ARG);
  lt_release(x);
}
END_TEST

START_TEST(invalid_reduction_is_checked_after_the_pattern) {
  /* REARRANGE.md: the unknown-reduction check comes after the pattern
   * checks (here: c only on the right) */
  lt_tensor *x = lt_test_arange_f32(SHAPE(2, 3));
  lt_tensor *y = lt_reduce(x, "a b -> a c", (lt_reduction)99, NO_AXES);
  lt_status st = lt_last_status();
  bool failed = y == NULL;
  lt_release(y);
  lt_release(x);
  ck_assert_msg(failed && st == LT_ERR_PATTERN, "expected LT_ERR_PATTERN, got %s", lt_status_str(st));
}
END_TEST

/* ======================================================================
 * Errors
 * ====================================================================== */

START_TEST(uninferable_split_reports_the_exact_message_and_caret) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(2, 6, 3));
  LT_ASSERT_FAILS(lt_rearrange(x, "b (h w) c -> b h w c", NO_AXES), LT_ERR_PATTERN);
  ck_assert_str_eq(lt_last_error(),
                   "rearrange: 'b (h w) c -> b h w c': cannot infer both h and w in '(h w)'\n"
                   "               ^");
  lt_release(x);
}
END_TEST

START_TEST(missing_new_axis_length_puts_the_caret_under_the_axis) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(3));
  LT_ASSERT_FAILS(lt_repeat(x, "a -> a b", NO_AXES), LT_ERR_PATTERN);
  assert_caret("repeat", "a -> a b", 7);
  lt_release(x);
}
END_TEST

START_TEST(right_only_axis_of_reduce_puts_the_caret_under_it) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(2, 3));
  LT_ASSERT_FAILS(lt_reduce(x, "a b -> a c", LT_SUM, NO_AXES), LT_ERR_PATTERN);
  assert_caret("reduce", "a b -> a c", 9);
  lt_release(x);
}
END_TEST

START_TEST(unknown_character_puts_the_caret_under_it) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(2, 3));
  LT_ASSERT_FAILS(lt_rearrange(x, "a b -> b;a", NO_AXES), LT_ERR_PATTERN);
  assert_caret("rearrange", "a b -> b;a", 8);
  lt_release(x);
}
END_TEST

START_TEST(indivisible_length_is_a_shape_error_with_a_caret) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(7));
  LT_ASSERT_FAILS(lt_rearrange(x, "(a b) -> a b", AXES({"b", 2})), LT_ERR_SHAPE);
  assert_caret("rearrange", "(a b) -> a b", 1);
  lt_release(x);
}
END_TEST

START_TEST(wrong_number_of_dims_is_a_shape_error) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(2, 3));
  LT_ASSERT_FAILS(lt_rearrange(x, "a b c -> c b a", NO_AXES), LT_ERR_SHAPE);
  LT_ASSERT_FAILS(lt_rearrange(x, "a b c ... -> c b a ...", NO_AXES), LT_ERR_SHAPE);
  lt_release(x);
}
END_TEST

START_TEST(error_without_a_position_has_no_caret_line) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(2, 3));
  LT_ASSERT_FAILS(lt_rearrange(x, "a b -> b a", AXES({"zz", 2})), LT_ERR_PATTERN);
  ck_assert_ptr_null(strchr(lt_last_error(), '\n'));
  ck_assert(strncmp(lt_last_error(), "rearrange: 'a b -> b a': ", 25) == 0);
  lt_release(x);
}
END_TEST

START_TEST(null_arguments_are_argument_errors) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(2, 3));
  LT_ASSERT_FAILS(lt_rearrange(x, NULL, NO_AXES), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_rearrange(NULL, "a b -> b a", NO_AXES), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_repeat(x, "a b -> a b c", NULL, 1), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_reduce(x, "a b -> a", LT_SUM, (lt_axis[]){{"a", 2}}, -1), LT_ERR_ARG);
  lt_release(x);
}
END_TEST

/* ======================================================================
 * The pattern cache
 * ====================================================================== */

START_TEST(pattern_valid_for_reduce_stays_invalid_for_rearrange) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(3, 2));
  lt_tensor *y = lt_reduce(x, "a 2 -> a", LT_SUM, NO_AXES);
  LT_ASSERT_OK_PTR(y);
  ASSERT_VALUES(y, 1, 5, 9);
  LT_ASSERT_FAILS(lt_rearrange(x, "a 2 -> a", NO_AXES), LT_ERR_PATTERN);
  LT_ASSERT_FAILS(lt_repeat(x, "a 2 -> a", NO_AXES), LT_ERR_PATTERN);
  lt_release(y);
  lt_release(x);
}
END_TEST

START_TEST(invalid_pattern_fails_the_same_way_every_time) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(2, 3));
  for (int i = 0; i < 3; i++) {
    LT_ASSERT_FAILS(lt_rearrange(x, "a b -> a a", NO_AXES), LT_ERR_PATTERN);
    assert_caret("rearrange", "a b -> a a", 9);
  }
  lt_release(x);
}
END_TEST

START_TEST(many_distinct_patterns_keep_working_after_eviction) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(2, 3));
  for (int round = 0; round < 2; round++)
    for (int i = 0; i < 100; i++) {
      char p[160];
      snprintf(p, sizeof p, "a b ->%*s(b a)", i + 1, "");
      lt_tensor *y = lt_rearrange(x, p, NO_AXES);
      LT_ASSERT_OK_PTR(y);
      ASSERT_VALUES(y, 0, 3, 1, 4, 2, 5);
      lt_release(y);
    }
  lt_release(x);
}
END_TEST

START_TEST(cache_clear_while_patterns_are_cached_is_safe) {
  lt_tensor *x = lt_test_arange_f32(SHAPE(2, 3));
  lt_tensor *y = lt_rearrange(x, "a b -> b a", NO_AXES);
  LT_ASSERT_OK_PTR(y);
  lt_pattern_cache_clear();
  lt_tensor *z = lt_rearrange(x, "a b -> b a", NO_AXES);
  LT_ASSERT_OK_PTR(z);
  lt_assert_geometry(z, SHAPE(3, 2), ((int64_t[]){1, 3}), 0);
  lt_release(z);
  lt_release(y);
  lt_release(x);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("rearrange");
  TCase *tc;

  tc = tcase_create("random");
  tcase_add_checked_fixture(tc, NULL, teardown);
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, random_rearrange_patterns_match_the_reference);
  tcase_add_test(tc, random_repeat_patterns_match_the_reference);
  tcase_add_test(tc, random_reduce_patterns_match_the_reference);
  suite_add_tcase(s, tc);

  tc = tcase_create("values");
  tcase_add_checked_fixture(tc, NULL, teardown);
  tcase_add_test(tc, rearrange_transpose_reads_columns);
  tcase_add_test(tc, rearrange_composition_on_the_right_varies_the_last_axis_fastest);
  tcase_add_test(tc, rearrange_splits_a_dim_with_the_given_length);
  tcase_add_test(tc, repeat_with_the_new_axis_first_tiles);
  tcase_add_test(tc, repeat_with_the_new_axis_last_repeats_each_element);
  tcase_add_test(tc, repeat_numeric_axis_needs_no_length);
  tcase_add_test(tc, repeat_of_a_scalar_into_a_new_axis);
  tcase_add_test(tc, empty_pattern_on_a_scalar_is_the_scalar);
  tcase_add_test(tc, ellipsis_identity_on_a_scalar_is_the_scalar);
  tcase_add_test(tc, ellipsis_in_parentheses_on_a_scalar_gives_shape_1);
  tcase_add_test(tc, zero_size_dim_splits_and_permutes);
  suite_add_tcase(s, tc);

  tc = tcase_create("views");
  tcase_add_checked_fixture(tc, NULL, teardown);
  tcase_add_test(tc, split_and_permute_is_a_view);
  tcase_add_test(tc, merging_axes_not_adjacent_in_memory_copies_once);
  tcase_add_test(tc, merging_axes_adjacent_in_memory_after_a_transpose_is_a_view);
  tcase_add_test(tc, repeat_of_a_new_axis_is_a_stride_zero_view);
  tcase_add_test(tc, repeat_into_a_composition_copies_once);
  tcase_add_test(tc, repeat_that_adds_nothing_is_a_view);
  tcase_add_test(tc, identity_pattern_is_a_view_with_the_same_geometry);
  tcase_add_test(tc, ellipsis_identity_is_a_view_with_the_same_geometry);
  tcase_add_test(tc, moving_an_expanded_axis_is_a_view);
  tcase_add_test(tc, adding_and_removing_unit_dims_is_a_view);
  tcase_add_test(tc, copy_forbid_refuses_a_copying_rearrange);
  tcase_add_test(tc, copy_forbid_refuses_a_copying_repeat);
  tcase_add_test(tc, copy_forbid_allows_views);
  tcase_add_test(tc, copy_forbid_does_not_affect_a_reduction);
  tcase_add_test(tc, reduce_with_nothing_to_reduce_is_a_rearrange_view);
  tcase_add_test(tc, reduce_that_reduces_returns_a_new_tensor);
  tcase_add_test(tc, reduce_over_an_axis_of_length_one_returns_a_new_tensor);
  suite_add_tcase(s, tc);

  tc = tcase_create("reduce");
  tcase_add_checked_fixture(tc, NULL, teardown);
  tcase_add_test(tc, reduce_sum_adds_pairs_of_rows);
  tcase_add_test(tc, reduce_mean_averages_pairs_of_rows);
  tcase_add_test(tc, reduce_max_takes_the_largest);
  tcase_add_test(tc, reduce_min_takes_the_smallest);
  tcase_add_test(tc, reduce_prod_multiplies);
  tcase_add_test(tc, reduce_to_a_scalar);
  tcase_add_test(tc, reduce_keeps_unit_dims_written_on_the_right);
  tcase_add_test(tc, reduce_over_a_left_only_ellipsis_folds_all_its_dims);
  tcase_add_test(tc, reduce_of_a_non_contiguous_input);
  tcase_add_test(tc, reduce_mean_of_an_integer_dtype_is_a_dtype_error);
  tcase_add_test(tc, reduce_sum_of_an_integer_dtype_keeps_the_dtype);
  tcase_add_test(tc, reduce_sum_over_an_empty_axis_is_zero);
  tcase_add_test(tc, reduce_prod_over_an_empty_axis_is_one);
  tcase_add_test(tc, reduce_mean_over_an_empty_axis_is_nan);
  tcase_add_test(tc, reduce_max_or_min_over_an_empty_axis_is_a_shape_error);
  tcase_add_test(tc, reduce_max_over_an_empty_axis_fails_even_when_the_output_is_empty);
  tcase_add_test(tc, reduce_max_over_a_non_empty_axis_with_an_empty_output_is_empty);
  tcase_add_test(tc, nan_propagates_through_max);
  tcase_add_test(tc, nan_propagates_through_min);
  tcase_add_test(tc, invalid_reduction_is_an_argument_error);
  tcase_add_test(tc, invalid_reduction_is_checked_after_the_pattern);
  suite_add_tcase(s, tc);

  tc = tcase_create("errors");
  tcase_add_checked_fixture(tc, NULL, teardown);
  tcase_add_test(tc, uninferable_split_reports_the_exact_message_and_caret);
  tcase_add_test(tc, missing_new_axis_length_puts_the_caret_under_the_axis);
  tcase_add_test(tc, right_only_axis_of_reduce_puts_the_caret_under_it);
  tcase_add_test(tc, unknown_character_puts_the_caret_under_it);
  tcase_add_test(tc, indivisible_length_is_a_shape_error_with_a_caret);
  tcase_add_test(tc, wrong_number_of_dims_is_a_shape_error);
  tcase_add_test(tc, error_without_a_position_has_no_caret_line);
  tcase_add_test(tc, null_arguments_are_argument_errors);
  suite_add_tcase(s, tc);

  tc = tcase_create("cache");
  tcase_add_checked_fixture(tc, NULL, teardown);
  tcase_add_test(tc, pattern_valid_for_reduce_stays_invalid_for_rearrange);
  tcase_add_test(tc, invalid_pattern_fails_the_same_way_every_time);
  tcase_add_test(tc, many_distinct_patterns_keep_working_after_eviction);
  tcase_add_test(tc, cache_clear_while_patterns_are_cached_is_safe);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return lt_run_suite(suite()); }
