/* The recursive-descent parser: pattern := side '->' side; side := item*;
 * item := axis | '(' axis* ')'; axis := name | number | '...'. It builds
 * the AST with source positions and applies einops' syntax rules. */
#include <string.h>

#include "pattern.h"

typedef struct parser {
  const char *text;
  lt__lexer lx;
  lt__token tok;         /* the current token */
  lt__ast_side *side;
  lt__pattern_error *err;
} parser;

static bool advance(parser *p) { return lt__lex_next(&p->lx, &p->tok, p->err); }

bool lt__axis_name_valid(const char *s, int len) {
  if (len == 0 || (s[0] >= '0' && s[0] <= '9') || s[0] == '_' || s[len - 1] == '_') return false;
  for (int i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c >= 0x80;
    if (!ok) return false;
  }
  return true;
}

static bool all_digits(const char *s, int len) {
  for (int i = 0; i < len; i++)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

static bool add_axis(parser *p, lt__ast_axis a) {
  lt__ast_side *s = p->side;
  if (s->naxes == LT__SIDE_MAX_AXES)
    return lt__pattern_fail(p->err, LT_ERR_PATTERN, a.pos, "too many axes on one side (at most %d)",
                            LT__SIDE_MAX_AXES);
  for (int i = 0; a.kind == LT__AXIS_NAME && i < s->naxes; i++) {
    const lt__ast_axis *b = &s->axes[i];
    if (b->kind == LT__AXIS_NAME && b->len == a.len && !memcmp(p->text + b->pos, p->text + a.pos, (size_t)a.len))
      return lt__pattern_fail(p->err, LT_ERR_PATTERN, a.pos, "duplicate axis name '%.*s' on one side", a.len,
                              p->text + a.pos);
  }
  s->axes[s->naxes++] = a;
  return true;
}

/* A word: a number (unit 1, anonymous >= 2) or a name. Units are dropped:
 * the caller makes a top-level unit an empty group. *unit says which. */
static bool check_word(parser *p, const lt__token *t, bool *unit) {
  const char *w = p->text + t->pos;
  *unit = false;
  if (all_digits(w, t->len)) {
    int64_t v = 0;
    for (int i = 0; i < t->len; i++) {
      if (v > (INT64_MAX - (w[i] - '0')) / 10)
        return lt__pattern_fail(p->err, LT_ERR_PATTERN, t->pos, "axis length '%.*s' is too large", t->len, w);
      v = v * 10 + (w[i] - '0');
    }
    if (v == 0)
      return lt__pattern_fail(p->err, LT_ERR_PATTERN, t->pos, "anonymous axis should have positive length, not 0");
    if (v == 1) {
      *unit = true;
      return true;
    }
    return add_axis(p, (lt__ast_axis){.kind = LT__AXIS_ANON, .pos = t->pos, .len = t->len, .value = v});
  }
  if (!lt__axis_name_valid(w, t->len))
    return lt__pattern_fail(p->err, LT_ERR_PATTERN, t->pos,
                            "invalid axis identifier '%.*s' (a name starts with a letter and neither starts "
                            "nor ends with '_')",
                            t->len, w);
  return add_axis(p, (lt__ast_axis){.kind = LT__AXIS_NAME, .pos = t->pos, .len = t->len});
}

/* The current word: einops checks an unclosed group before the word that
 * ends the side, so that comes first. */
static bool parse_word(parser *p, bool *unit, const lt__ast_group *open) {
  lt__token t = p->tok;
  if (open && lt__lex_at_end(&p->lx))
    return lt__pattern_fail(p->err, LT_ERR_PATTERN, open->pos, "unbalanced parentheses: '(' is never closed");
  return check_word(p, &t, unit) && advance(p);
}

static bool add_group(parser *p, lt__ast_group g) {
  lt__ast_side *s = p->side;
  if (s->ngroups == LT__SIDE_MAX_GROUPS)
    return lt__pattern_fail(p->err, LT_ERR_PATTERN, g.pos, "too many dims on one side (at most %d)",
                            LT__SIDE_MAX_GROUPS);
  s->groups[s->ngroups++] = g;
  return true;
}

static bool parse_ellipsis(parser *p) {
  int pos = p->tok.pos;
  p->side->ellipsis_group = p->side->ngroups;
  return add_axis(p, (lt__ast_axis){.kind = LT__AXIS_ELLIPSIS, .pos = pos, .len = 3}) && advance(p);
}

/* '(' axis* ')' */
static bool parse_group(parser *p) {
  lt__ast_group g = {.first = p->side->naxes, .paren = true, .pos = p->tok.pos};
  if (!advance(p)) return false;
  for (;;) {
    bool unit;
    switch (p->tok.kind) {
    case LT__TOK_CLOSE:
      g.end = p->tok.pos + 1;
      g.count = p->side->naxes - g.first;
      return add_group(p, g) && advance(p);
    case LT__TOK_OPEN:
      return lt__pattern_fail(p->err, LT_ERR_PATTERN, p->tok.pos,
                              "axis composition is one level only (brackets inside brackets are not allowed)");
    case LT__TOK_END:
      return lt__pattern_fail(p->err, LT_ERR_PATTERN, g.pos, "unbalanced parentheses: '(' is never closed");
    case LT__TOK_ELLIPSIS:
      if (!parse_ellipsis(p)) return false;
      break;
    case LT__TOK_WORD:
      if (!parse_word(p, &unit, &g)) return false;
      break;
    }
  }
}

/* item := axis | group */
static bool parse_item(parser *p) {
  int pos = p->tok.pos, end = pos + p->tok.len, first = p->side->naxes;
  bool unit;
  switch (p->tok.kind) {
  case LT__TOK_OPEN:
    return parse_group(p);
  case LT__TOK_CLOSE:
    return lt__pattern_fail(p->err, LT_ERR_PATTERN, pos, "unbalanced parentheses: ')' without '('");
  case LT__TOK_ELLIPSIS:
    if (!parse_ellipsis(p)) return false;
    return add_group(p, (lt__ast_group){.first = first, .count = 1, .pos = pos, .end = end});
  default:
    if (!parse_word(p, &unit, NULL)) return false;
    return add_group(p, (lt__ast_group){.first = first, .count = unit ? 0 : 1, .pos = pos, .end = end});
  }
}

static bool parse_side(const char *text, int begin, int end, lt__ast_side *side, lt__pattern_error *err) {
  side->ngroups = side->naxes = 0;
  side->ellipsis_group = -1;
  parser p = {.text = text, .side = side, .err = err};
  if (!lt__lex_begin(&p.lx, text, begin, end, err) || !advance(&p)) return false;
  while (p.tok.kind != LT__TOK_END)
    if (!parse_item(&p)) return false;
  return true;
}

bool lt__parse_pattern(const char *pattern, lt__ast *ast, lt__pattern_error *err) {
  size_t len = strlen(pattern);
  if (len > LT__PATTERN_MAX)
    return lt__pattern_fail(err, LT_ERR_PATTERN, LT__PATTERN_MAX, "pattern is longer than %d characters",
                            LT__PATTERN_MAX);
  memcpy(ast->text, pattern, len + 1);
  ast->len = (int)len;
  const char *arrow = strstr(pattern, "->");
  if (!arrow) return lt__pattern_fail(err, LT_ERR_PATTERN, (int)len, "missing '->' between input and output");
  const char *again = strstr(arrow + 2, "->");
  if (again)
    return lt__pattern_fail(err, LT_ERR_PATTERN, (int)(again - pattern), "'->' may appear only once");
  int a = (int)(arrow - pattern);
  return parse_side(ast->text, 0, a, &ast->left, err) &&
         parse_side(ast->text, a + 2, (int)len, &ast->right, err);
}
