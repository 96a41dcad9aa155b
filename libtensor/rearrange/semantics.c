/* einops' shape-independent rules, checked once per (pattern, op) right
 * after parsing and in einops' order, so that a pattern with several
 * faults reports the one einops reports. */
#include <string.h>

#include "pattern.h"

bool lt__same_axis(const lt__ast *ast, const lt__ast_axis *a, const lt__ast_axis *b) {
  if (a->kind != b->kind || a->kind == LT__AXIS_ANON) return false;
  return a->kind == LT__AXIS_ELLIPSIS ||
         (a->len == b->len && !memcmp(ast->text + a->pos, ast->text + b->pos, (size_t)a->len));
}

/* Index in side s of the axis that is `a`, or -1. */
static int find_axis(const lt__ast *ast, const lt__ast_side *s, const lt__ast_axis *a) {
  for (int i = 0; i < s->naxes; i++)
    if (lt__same_axis(ast, &s->axes[i], a)) return i;
  return -1;
}

static const char *side_name(const lt__ast *ast, const lt__ast_side *s) {
  return s == &ast->left ? "left" : "right";
}

/* Every axis of `from` must be on `to`; `what` names the rule. */
static bool all_on_other_side(const lt__ast *ast, const lt__ast_side *from, const lt__ast_side *to,
                              const char *op, lt__pattern_error *err) {
  for (int i = 0; i < from->naxes; i++) {
    const lt__ast_axis *a = &from->axes[i];
    if (find_axis(ast, to, a) >= 0) continue;
    if (a->kind == LT__AXIS_ANON)
      return lt__pattern_fail(err, LT_ERR_PATTERN, a->pos,
                              "anonymous axis %lld on the %s has no counterpart on the %s (numbers never match "
                              "each other) in %s",
                              (long long)a->value, side_name(ast, from), side_name(ast, to), op);
    return lt__pattern_fail(err, LT_ERR_PATTERN, a->pos, "axis '%.*s' is on the %s side only; %s needs it on the %s",
                            a->len, ast->text + a->pos, side_name(ast, from), op, side_name(ast, to));
  }
  return true;
}

static bool no_anonymous(const lt__ast *ast, const lt__ast_side *s, lt__pattern_error *err) {
  for (int i = 0; i < s->naxes; i++)
    if (s->axes[i].kind == LT__AXIS_ANON)
      return lt__pattern_fail(err, LT_ERR_PATTERN, s->axes[i].pos,
                              "anonymous axes other than 1 are not supported in rearrange (use repeat or reduce)");
  (void)ast;
  return true;
}

bool lt__check_ast(const lt__ast *ast, lt__pattern_op op, lt__pattern_error *err) {
  const lt__ast_side *l = &ast->left, *r = &ast->right;
  if (r->ellipsis_group >= 0 && l->ellipsis_group < 0) {
    int pos = r->axes[find_axis(ast, r, &(lt__ast_axis){.kind = LT__AXIS_ELLIPSIS})].pos;
    return lt__pattern_fail(err, LT_ERR_PATTERN, pos, "'...' on the right needs a '...' on the left");
  }
  if (l->ellipsis_group >= 0 && l->groups[l->ellipsis_group].paren) {
    int pos = l->axes[find_axis(ast, l, &(lt__ast_axis){.kind = LT__AXIS_ELLIPSIS})].pos;
    return lt__pattern_fail(err, LT_ERR_PATTERN, pos, "'...' inside parentheses is not allowed on the left");
  }
  switch (op) {
  case LT__OP_REARRANGE:
    return no_anonymous(ast, l, err) && no_anonymous(ast, r, err) &&
           all_on_other_side(ast, l, r, "rearrange", err) && all_on_other_side(ast, r, l, "rearrange", err);
  case LT__OP_REPEAT:
    return all_on_other_side(ast, l, r, "repeat", err);
  default:
    return all_on_other_side(ast, r, l, "reduce", err);
  }
}
