/* The planner: checks a parsed pattern against an input shape and axis
 * lengths (einops' checks 4-8, in its order) and produces the recipe.
 * Pure: no tensors and no allocation, so it is tested on its own. */
#include <string.h>

#include "plan.h"

typedef struct planner {
  const lt__ast *ast;
  lt__pattern_op op;
  const lt_axis *axes;
  int naxes;
  lt__pattern_error *err;
  lt__recipe *r;
  int64_t len[LT__SIDE_MAX_AXES];   /* lengths of the left side's axes */
  int elem[LT__SIDE_MAX_AXES];      /* elementary index of each left axis; -1 for length 1 */
  int ell_dims;                     /* input dims the ellipsis stands for */
  int ell_elem[LT_MAX_DIMS];        /* their elementary indices (-1 for length 1) */
  int64_t ell_len[LT_MAX_DIMS];     /* and lengths */
} planner;

static const char *axis_text(const planner *p, const lt__ast_axis *a) { return p->ast->text + a->pos; }

/* Index in axes of the length given for axis a, or -1. */
static int given(const planner *p, const lt__ast_axis *a) {
  if (a->kind != LT__AXIS_NAME) return -1;
  for (int i = 0; i < p->naxes; i++) {
    const char *n = p->axes[i].name;
    if (n && strlen(n) == (size_t)a->len && !memcmp(n, axis_text(p, a), (size_t)a->len)) return i;
  }
  return -1;
}

static int find_on(const planner *p, const lt__ast_side *s, const lt__ast_axis *a) {
  for (int i = 0; i < s->naxes; i++)
    if (lt__same_axis(p->ast, &s->axes[i], a)) return i;
  return -1;
}

static bool new_axes_have_lengths(planner *p) {
  const lt__ast_side *R = &p->ast->right;
  for (int i = 0; p->op == LT__OP_REPEAT && i < R->naxes; i++) {
    const lt__ast_axis *a = &R->axes[i];
    if (a->kind == LT__AXIS_NAME && find_on(p, &p->ast->left, a) < 0 && given(p, a) < 0)
      return lt__pattern_fail(p->err, LT_ERR_PATTERN, a->pos, "new axis '%.*s' needs a length in axes", a->len,
                              axis_text(p, a));
  }
  return true;
}

static bool ndim_matches(planner *p, int ndim) {
  const lt__ast_side *L = &p->ast->left;
  bool ell = L->ellipsis_group >= 0;
  if (!ell && ndim != L->ngroups)
    return lt__pattern_fail(p->err, LT_ERR_SHAPE, 0, "the pattern's left side has %d dims but the input has %d",
                            L->ngroups, ndim);
  if (ell && ndim < L->ngroups - 1)
    return lt__pattern_fail(p->err, LT_ERR_SHAPE, 0,
                            "the pattern's left side needs at least %d dims but the input has %d", L->ngroups - 1,
                            ndim);
  p->ell_dims = ell ? ndim - (L->ngroups - 1) : 0;
  return true;
}

/* Where axis `name` occurs in the pattern, or -1. */
static int occurrence(const planner *p, const char *name) {
  const lt__ast_side *sides[2] = {&p->ast->left, &p->ast->right};
  size_t n = strlen(name);
  for (int s = 0; s < 2; s++)
    for (int i = 0; i < sides[s]->naxes; i++) {
      const lt__ast_axis *a = &sides[s]->axes[i];
      if (a->kind == LT__AXIS_NAME && (size_t)a->len == n && !memcmp(axis_text(p, a), name, n)) return a->pos;
    }
  return -1;
}

static bool axes_valid(planner *p) {
  for (int i = 0; i < p->naxes; i++) {
    const char *n = p->axes[i].name;
    if (!n) return lt__pattern_fail(p->err, LT_ERR_ARG, -1, "axes[%d].name is NULL", i);
    if (!lt__axis_name_valid(n, (int)strlen(n)))
      return lt__pattern_fail(p->err, LT_ERR_PATTERN, -1, "'%s' (axes[%d]) is not a valid axis name", n, i);
    int pos = occurrence(p, n);
    if (pos < 0)
      return lt__pattern_fail(p->err, LT_ERR_PATTERN, -1, "axis '%s' (axes[%d]) is not used in the pattern", n, i);
    for (int j = 0; j < i; j++)
      if (p->axes[j].name && !strcmp(p->axes[j].name, n))
        return lt__pattern_fail(p->err, LT_ERR_PATTERN, pos, "axis '%s' is given twice in axes", n);
  }
  return true;
}

/* einops leaves negative lengths to its backend, after its own checks, so
 * this comes after inference and divisibility. */
static bool lengths_non_negative(planner *p) {
  for (int i = 0; i < p->naxes; i++)
    if (p->axes[i].size < 0)
      return lt__pattern_fail(p->err, LT_ERR_SHAPE, occurrence(p, p->axes[i].name), "axis '%s' has a negative length (%lld)",
                              p->axes[i].name, (long long)p->axes[i].size);
  return true;
}

/* A left axis's length when it is known before looking at the input. */
static bool known_length(const planner *p, const lt__ast_axis *a, int64_t *len) {
  int k = given(p, a);
  if (a->kind == LT__AXIS_ANON) *len = a->value;
  else if (k >= 0) *len = p->axes[k].size;
  return a->kind == LT__AXIS_ANON || k >= 0;
}

static bool one_unknown_per_group(planner *p) {
  const lt__ast_side *L = &p->ast->left;
  for (int g = 0; g < L->ngroups; g++) {
    const lt__ast_group *G = &L->groups[g];
    int first = -1;
    for (int i = G->first; i < G->first + G->count; i++) {
      int64_t len;
      if (L->axes[i].kind != LT__AXIS_NAME || known_length(p, &L->axes[i], &len)) continue;
      if (first < 0) { first = i; continue; }
      const lt__ast_axis *a = &L->axes[first], *b = &L->axes[i];
      return lt__pattern_fail(p->err, LT_ERR_PATTERN, a->pos, "cannot infer both %.*s and %.*s in '%.*s'", a->len,
                              axis_text(p, a), b->len, axis_text(p, b), G->end - G->pos, p->ast->text + G->pos);
    }
  }
  return true;
}

/* Adds an elementary axis; *index gets its index, or -1 for a unit axis. */
static bool add_elem(planner *p, int64_t len, int pos, int *index) {
  lt__recipe *r = p->r;
  *index = -1;
  if (len == 1) return true;
  if (r->n_elem == LT_MAX_DIMS)
    return lt__pattern_fail(p->err, LT_ERR_SHAPE, pos, "the input splits into more than %d axes", LT_MAX_DIMS);
  *index = r->n_elem;
  r->elem_shape[r->n_elem++] = len;
  return true;
}

/* Lengths of one left composition against its input dim (check 8). */
static bool split_group(planner *p, const lt__ast_group *G, int dim, int64_t n) {
  const lt__ast_side *L = &p->ast->left;
  const char *gtext = p->ast->text + G->pos;
  int glen = G->end - G->pos, unknown = -1;
  int64_t prod = 1;
  bool overflow = false;
  for (int i = G->first; i < G->first + G->count; i++) {
    if (!known_length(p, &L->axes[i], &p->len[i])) { unknown = i; continue; }
    if (__builtin_mul_overflow(prod, p->len[i], &prod)) overflow = true;
  }
  if (unknown < 0 && overflow)
    return lt__pattern_fail(p->err, LT_ERR_SHAPE, G->pos, "input dim %d has length %lld but '%.*s' multiplies past int64",
                            dim, (long long)n, glen, gtext);
  if (unknown < 0 && prod != n)
    return lt__pattern_fail(p->err, LT_ERR_SHAPE, G->pos, "input dim %d has length %lld but '%.*s' multiplies to %lld",
                            dim, (long long)n, glen, gtext, (long long)prod);
  if (unknown >= 0) {
    const lt__ast_axis *u = &L->axes[unknown];
    if (overflow || prod == 0 || n % prod != 0)
      return lt__pattern_fail(p->err, LT_ERR_SHAPE, u->pos,
                              "cannot infer %.*s: input dim %d of length %lld does not divide into '%.*s' "
                              "(the other lengths multiply to %lld)",
                              u->len, axis_text(p, u), dim, (long long)n, glen, gtext, (long long)prod);
    p->len[unknown] = n / prod;
  }
  for (int i = G->first; i < G->first + G->count; i++)
    if (!add_elem(p, p->len[i], L->axes[i].pos, &p->elem[i])) return false;
  return true;
}

static bool split_input(planner *p, const int64_t *shape) {
  const lt__ast_side *L = &p->ast->left;
  for (int g = 0, dim = 0; g < L->ngroups; g++) {
    const lt__ast_group *G = &L->groups[g];
    if (g == L->ellipsis_group) {
      for (int k = 0; k < p->ell_dims; k++) {
        p->ell_len[k] = shape[dim];
        if (!add_elem(p, shape[dim++], G->pos, &p->ell_elem[k])) return false;
      }
      continue;
    }
    if (G->count == 0 && shape[dim] != 1)
      return lt__pattern_fail(p->err, LT_ERR_SHAPE, G->pos, "input dim %d has length %lld where the pattern has a unit axis",
                              dim, (long long)shape[dim]);
    if (G->count > 0 && !split_group(p, G, dim, shape[dim])) return false;
    dim++;
  }
  return true;
}

static bool add_mid(planner *p, int src, int64_t len, int pos) {
  lt__recipe *r = p->r;
  if (len == 1) return true;
  if (r->n_mid == LT_MAX_DIMS)
    return lt__pattern_fail(p->err, LT_ERR_SHAPE, pos, "the output has more than %d axes", LT_MAX_DIMS);
  r->mid_src[r->n_mid] = src;
  r->mid_shape[r->n_mid++] = len;
  return true;
}

static bool add_out(planner *p, int64_t len, int pos) {
  lt__recipe *r = p->r;
  if (r->n_out == LT_MAX_DIMS)
    return lt__pattern_fail(p->err, LT_ERR_SHAPE, pos, "the output has more than %d dims", LT_MAX_DIMS);
  r->out_shape[r->n_out++] = len;
  return true;
}

/* One right-side axis into the mid list; *len gets its total length. */
static bool place_axis(planner *p, const lt__ast_axis *a, int64_t *len) {
  if (a->kind == LT__AXIS_ELLIPSIS) {
    *len = 1;
    for (int k = 0; k < p->ell_dims; k++) {
      if (!add_mid(p, p->ell_elem[k], p->ell_len[k], a->pos)) return false;
      *len *= p->ell_len[k]; /* dims of a valid input: cannot overflow */
    }
    return true;
  }
  int l = find_on(p, &p->ast->left, a);
  if (l >= 0) {
    *len = p->len[l];
    return add_mid(p, p->elem[l], *len, a->pos);
  }
  *len = a->kind == LT__AXIS_ANON ? a->value : p->axes[given(p, a)].size; /* a new axis of repeat */
  return add_mid(p, -1, *len, a->pos);
}

static bool compose_output(planner *p) {
  const lt__ast_side *R = &p->ast->right;
  for (int g = 0; g < R->ngroups; g++) {
    const lt__ast_group *G = &R->groups[g];
    if (g == R->ellipsis_group && !G->paren) {
      int64_t unused;
      if (!place_axis(p, &R->axes[G->first], &unused)) return false;
      for (int k = 0; k < p->ell_dims; k++)
        if (!add_out(p, p->ell_len[k], G->pos)) return false;
      continue;
    }
    int64_t prod = 1;
    for (int i = G->first; i < G->first + G->count; i++) {
      int64_t len;
      if (!place_axis(p, &R->axes[i], &len)) return false;
      if (__builtin_mul_overflow(prod, len, &prod))
        return lt__pattern_fail(p->err, LT_ERR_SHAPE, G->pos, "'%.*s' has more elements than int64 can count",
                                G->end - G->pos, p->ast->text + G->pos);
    }
    if (!add_out(p, prod, G->pos)) return false;
  }
  return true;
}

static void find_reduced(planner *p) {
  lt__recipe *r = p->r;
  const lt__ast_side *L = &p->ast->left;
  for (int i = 0; i < L->naxes && !r->reduces; i++) {
    bool empty_ellipsis = L->axes[i].kind == LT__AXIS_ELLIPSIS && p->ell_dims == 0;
    r->reduces = !empty_ellipsis && find_on(p, &p->ast->right, &L->axes[i]) < 0;
  }
  for (int e = 0; e < r->n_elem; e++) {
    bool kept = false;
    for (int k = 0; k < r->n_mid && !kept; k++) kept = r->mid_src[k] == e;
    if (!kept) r->reduced[r->n_reduced++] = e;
  }
}

bool lt__plan(const lt__ast *ast, lt__pattern_op op, int ndim, const int64_t *shape, const lt_axis *axes,
              int naxes, lt__recipe *r, lt__pattern_error *err) {
  *r = (lt__recipe){0};
  planner p = {.ast = ast, .op = op, .axes = axes, .naxes = naxes, .err = err, .r = r};
  if (!new_axes_have_lengths(&p) || !ndim_matches(&p, ndim) || !axes_valid(&p) || !one_unknown_per_group(&p) ||
      !split_input(&p, shape) || !lengths_non_negative(&p) || !compose_output(&p))
    return false;
  find_reduced(&p);
  return true;
}
