/* The einops pattern machinery on its own, without tensors: the lexer and
 * parser (lt__parse_pattern), einops' shape-independent checks
 * (lt__check_ast) and the planner (lt__plan). The reference for every
 * expectation is /work/shared/REARRANGE.md (einops on NumPy).
 *
 * Error positions are written as caret strings: the index of '^' in the
 * string under the pattern is the expected err.pos, e.g.
 *     assert_parse_error("a b a -> a b",
 *                        "    ^");
 * A NULL caret means "no position" (err.pos == -1). */
#include <stdio.h>
#include <string.h>

#include "pattern.h"
#include "plan.h"
#include "support/check_helpers.h"

#define REARRANGE LT__OP_REARRANGE
#define REPEAT LT__OP_REPEAT
#define REDUCE LT__OP_REDUCE

/* An input shape: SHAPE(2, 3) expands to `ndim, shape`. */
#define SHAPE(...) (int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)), (int64_t[]){__VA_ARGS__}
#define SCALAR 0, NULL
/* Axis lengths: AXES({"h", 2}, {"w", 3}) expands to `axes, naxes`. */
#define AXES(...) (lt_axis[]){__VA_ARGS__}, (int)(sizeof((lt_axis[]){__VA_ARGS__}) / sizeof(lt_axis))
#define NO_AXES NULL, 0

static void teardown(void) { lt_pattern_cache_clear(); }

/* ---- Rendering -------------------------------------------------------- */

static void render_axis(const lt__ast *ast, const lt__ast_axis *a, char *out, size_t n) {
  switch (a->kind) {
  case LT__AXIS_NAME:
    snprintf(out, n, "%.*s", a->len, ast->text + a->pos);
    break;
  case LT__AXIS_ANON:
    snprintf(out, n, "#%lld", (long long)a->value);
    break;
  case LT__AXIS_ELLIPSIS:
    snprintf(out, n, "...");
    break;
  }
}

/* One side in a canonical form: items separated by one space; a bare unit
 * as "1", a parenthesised group as "(x y)" (so `()` and `(1)` are "()"),
 * anonymous axes as "#N". */
static void render_side(const lt__ast *ast, const lt__ast_side *s, char *out, size_t n) {
  size_t used = 0;
  out[0] = '\0';
  for (int g = 0; g < s->ngroups; g++) {
    const lt__ast_group *G = &s->groups[g];
    char item[256] = "";
    size_t k = 0;
    if (G->paren) k += (size_t)snprintf(item + k, sizeof item - k, "(");
    if (!G->paren && G->count == 0) k += (size_t)snprintf(item + k, sizeof item - k, "1");
    for (int i = G->first; i < G->first + G->count; i++) {
      char ax[64];
      render_axis(ast, &s->axes[i], ax, sizeof ax);
      k += (size_t)snprintf(item + k, sizeof item - k, "%s%s", i > G->first ? " " : "", ax);
    }
    if (G->paren) snprintf(item + k, sizeof item - k, ")");
    used += (size_t)snprintf(out + used, n - used, "%s%s", g ? " " : "", item);
  }
}

static void render_ast(const lt__ast *ast, char *out, size_t n) {
  char l[512], r[512];
  render_side(ast, &ast->left, l, sizeof l);
  render_side(ast, &ast->right, r, sizeof r);
  snprintf(out, n, "%s -> %s", l, r);
}

static void render_list(char *out, size_t n, int count, const int64_t *v) {
  size_t k = (size_t)snprintf(out, n, "[");
  for (int i = 0; i < count; i++) k += (size_t)snprintf(out + k, n - k, "%s%lld", i ? "," : "", (long long)v[i]);
  snprintf(out + k, n - k, "]");
}

/* "elem=[..] mid=[eK:len | new:len, ..] reduced=[..] out=[..]" */
static void render_recipe(const lt__recipe *r, char *out, size_t n) {
  char elem[256], red[256], res[256], mid[512];
  int64_t reduced[LT_MAX_DIMS];
  for (int i = 0; i < r->n_reduced; i++) reduced[i] = r->reduced[i];
  render_list(elem, sizeof elem, r->n_elem, r->elem_shape);
  render_list(red, sizeof red, r->n_reduced, reduced);
  render_list(res, sizeof res, r->n_out, r->out_shape);
  size_t k = (size_t)snprintf(mid, sizeof mid, "[");
  for (int i = 0; i < r->n_mid; i++) {
    if (r->mid_src[i] >= 0)
      k += (size_t)snprintf(mid + k, sizeof mid - k, "%se%d:%lld", i ? "," : "", r->mid_src[i],
                            (long long)r->mid_shape[i]);
    else
      k += (size_t)snprintf(mid + k, sizeof mid - k, "%snew:%lld", i ? "," : "", (long long)r->mid_shape[i]);
  }
  snprintf(mid + k, sizeof mid - k, "]");
  snprintf(out, n, "elem=%s mid=%s reduced=%s out=%s", elem, mid, red, res);
}

static int caret_pos(const char *caret) {
  if (!caret) return -1;
  const char *c = strchr(caret, '^');
  ck_assert_msg(c != NULL, "bad caret string '%s'", caret);
  return (int)(c - caret);
}

/* ---- Assertions ------------------------------------------------------- */

static void assert_parses_as(const char *pattern, const char *expected) {
  lt__ast ast;
  lt__pattern_error e = {0};
  ck_assert_msg(lt__parse_pattern(pattern, &ast, &e), "'%s' did not parse: %s (pos %d)", pattern, e.text, e.pos);
  char got[2048];
  render_ast(&ast, got, sizeof got);
  ck_assert_msg(strcmp(got, expected) == 0, "'%s' parsed as '%s', expected '%s'", pattern, got, expected);
}

static void assert_parse_error(const char *pattern, const char *caret) {
  lt__ast ast;
  lt__pattern_error e = {.status = LT_OK, .pos = -7};
  ck_assert_msg(!lt__parse_pattern(pattern, &ast, &e), "'%s' parsed", pattern);
  ck_assert_msg(e.status == LT_ERR_PATTERN, "'%s': status %s: %s", pattern, lt_status_str(e.status), e.text);
  ck_assert_msg(e.pos == caret_pos(caret), "'%s': error at %d, expected %d: %s", pattern, e.pos, caret_pos(caret),
                e.text);
  ck_assert_msg(e.text[0] != '\0', "'%s': error without text", pattern);
}

static void parse_ok(const char *pattern, lt__ast *ast) {
  lt__pattern_error e = {0};
  ck_assert_msg(lt__parse_pattern(pattern, ast, &e), "'%s' did not parse: %s (pos %d)", pattern, e.text, e.pos);
}

static void assert_check_ok(const char *pattern, lt__pattern_op op) {
  lt__ast ast;
  lt__pattern_error e = {0};
  parse_ok(pattern, &ast);
  ck_assert_msg(lt__check_ast(&ast, op, &e), "'%s' (op %d) failed the checks: %s (pos %d)", pattern, op, e.text,
                e.pos);
}

static void assert_check_error(const char *pattern, lt__pattern_op op, const char *caret) {
  lt__ast ast;
  lt__pattern_error e = {.status = LT_OK, .pos = -7};
  parse_ok(pattern, &ast);
  ck_assert_msg(!lt__check_ast(&ast, op, &e), "'%s' (op %d) passed the checks", pattern, op);
  ck_assert_msg(e.status == LT_ERR_PATTERN, "'%s' (op %d): status %s: %s", pattern, op, lt_status_str(e.status),
                e.text);
  ck_assert_msg(e.pos == caret_pos(caret), "'%s' (op %d): error at %d, expected %d: %s", pattern, op, e.pos,
                caret_pos(caret), e.text);
}

/* Parses, checks and plans; the plan's result. */
static bool plan(const char *pattern, lt__pattern_op op, int ndim, const int64_t *shape, const lt_axis *axes,
                 int naxes, lt__recipe *r, lt__pattern_error *e) {
  lt__ast ast;
  parse_ok(pattern, &ast);
  ck_assert_msg(lt__check_ast(&ast, op, e), "'%s' (op %d) failed the checks: %s", pattern, op, e->text);
  return lt__plan(&ast, op, ndim, shape, axes, naxes, r, e);
}

static void assert_recipe(const char *pattern, lt__pattern_op op, int ndim, const int64_t *shape, const lt_axis *axes,
                          int naxes, const char *expected) {
  lt__recipe r;
  lt__pattern_error e = {0};
  ck_assert_msg(plan(pattern, op, ndim, shape, axes, naxes, &r, &e), "'%s' (op %d) did not plan: %s (pos %d)",
                pattern, op, e.text, e.pos);
  char got[2048];
  render_recipe(&r, got, sizeof got);
  ck_assert_msg(strcmp(got, expected) == 0, "'%s' (op %d):\n  got      %s\n  expected %s", pattern, op, got,
                expected);
}

static void assert_plan_error(const char *pattern, lt__pattern_op op, int ndim, const int64_t *shape,
                              const lt_axis *axes, int naxes, lt_status st, const char *caret) {
  lt__recipe r;
  lt__pattern_error e = {.status = LT_OK, .pos = -7};
  ck_assert_msg(!plan(pattern, op, ndim, shape, axes, naxes, &r, &e), "'%s' (op %d) planned", pattern, op);
  ck_assert_msg(e.status == st, "'%s' (op %d): status %s, expected %s: %s", pattern, op, lt_status_str(e.status),
                lt_status_str(st), e.text);
  ck_assert_msg(e.pos == caret_pos(caret), "'%s' (op %d): error at %d, expected %d: %s", pattern, op, e.pos,
                caret_pos(caret), e.text);
}

/* ======================================================================
 * The arrow
 * ====================================================================== */

START_TEST(pattern_without_arrow_fails_at_its_end) {
  assert_parse_error("a b",
                     "   ^");
}
END_TEST

START_TEST(second_arrow_fails_where_it_starts) {
  assert_parse_error("a -> b -> c",
                     "       ^");
}
END_TEST

START_TEST(adjacent_arrows_count_as_two) {
  assert_parse_error("a ->-> a",
                     "    ^");
}
END_TEST

START_TEST(arrow_and_parentheses_need_no_spaces) {
  assert_parses_as("a(b c)->(c b)a", "a (b c) -> (c b) a");
}
END_TEST

START_TEST(empty_sides_are_zero_dimensional) {
  lt__ast ast;
  parse_ok("->", &ast);
  ck_assert_int_eq(ast.left.ngroups, 0);
  ck_assert_int_eq(ast.right.ngroups, 0);
  ck_assert_int_eq(ast.left.ellipsis_group, -1);
  parse_ok("  ->   ", &ast);
  ck_assert_int_eq(ast.left.ngroups + ast.left.naxes + ast.right.ngroups + ast.right.naxes, 0);
}
END_TEST

START_TEST(lone_dash_or_angle_bracket_is_an_unknown_character) {
  assert_parse_error("a - b -> a",
                     "  ^");
  assert_parse_error("a -> a>",
                     "      ^");
}
END_TEST

/* ======================================================================
 * Separators
 * ====================================================================== */

START_TEST(leading_trailing_and_repeated_spaces_are_ignored) {
  assert_parses_as("   a    b  ->  b     a   ", "a b -> b a");
}
END_TEST

START_TEST(tab_is_an_unknown_character) {
  assert_parse_error("a\tb -> a b",
                     " ^");
}
END_TEST

START_TEST(newline_is_an_unknown_character) {
  assert_parse_error("a b -> a\nb",
                     "        ^");
}
END_TEST

START_TEST(punctuation_is_an_unknown_character) {
  assert_parse_error("a,b -> a b",
                     " ^");
  assert_parse_error("a b -> [a b]",
                     "       ^");
}
END_TEST

/* ======================================================================
 * Ellipsis
 * ====================================================================== */

START_TEST(single_dot_is_an_error) {
  assert_parse_error("a . b -> a b",
                     "  ^");
  assert_parse_error("a.b -> a b",
                     " ^");
}
END_TEST

START_TEST(two_dots_are_an_error) {
  assert_parse_error("a .. -> a",
                     "  ^");
}
END_TEST

START_TEST(four_dots_are_an_error) {
  assert_parse_error("a .... -> a",
                     "  ^");
}
END_TEST

START_TEST(second_ellipsis_on_one_side_is_an_error) {
  assert_parse_error("... a ... -> a",
                     "      ^");
}
END_TEST

START_TEST(stray_dot_beside_an_ellipsis_is_an_error) {
  assert_parse_error("... a . -> a",
                     "      ^");
  assert_parse_error(". ... a -> a",
                     "^");
}
END_TEST

START_TEST(dots_are_checked_before_any_other_character_of_the_side) {
  /* einops counts the dots of a side before it looks at anything else. */
  assert_parse_error("a $ . -> a",
                     "    ^");
  assert_parse_error("a a . -> a",
                     "    ^");
}
END_TEST

START_TEST(left_side_is_checked_before_dots_of_the_right_side) {
  assert_parse_error("a $ -> . a",
                     "  ^");
}
END_TEST

START_TEST(ellipsis_glued_after_a_name_is_an_invalid_identifier) {
  assert_parse_error("a... -> a",
                     "^");
  assert_parse_error("b a...c -> b",
                     "  ^");
}
END_TEST

START_TEST(ellipsis_glued_before_a_name_is_an_invalid_identifier) {
  assert_parse_error("...a -> a",
                     "^");
  assert_parse_error("a ...b -> a b",
                     "  ^");
}
END_TEST

START_TEST(ellipsis_glued_to_a_name_across_the_arrow_fails_on_the_right) {
  assert_parse_error("a ...->...a",
                     "       ^");
}
END_TEST

START_TEST(ellipsis_separated_by_spaces_or_the_arrow_parses) {
  assert_parses_as("a ... -> ... a", "a ... -> ... a");
  assert_parses_as("...->...", "... -> ...");
}
END_TEST

START_TEST(ellipsis_may_touch_parentheses) {
  assert_parses_as("...(a b)->(...)(a b)", "... (a b) -> (...) (a b)");
  assert_parses_as("a ... -> (a ...)", "a ... -> (a ...)");
  assert_parses_as("a ... -> (... a)", "a ... -> (... a)");
}
END_TEST

START_TEST(ellipsis_group_is_the_index_of_the_item_holding_it) {
  lt__ast ast;
  parse_ok("a ... b -> (a ...) b", &ast);
  ck_assert_int_eq(ast.left.ellipsis_group, 1);
  ck_assert_int_eq(ast.right.ellipsis_group, 0);
  ck_assert(ast.right.groups[0].paren);
  parse_ok("a b -> b a", &ast);
  ck_assert_int_eq(ast.left.ellipsis_group, -1);
  ck_assert_int_eq(ast.right.ellipsis_group, -1);
}
END_TEST

START_TEST(ellipsis_inside_a_left_group_parses_and_fails_the_checks_later) {
  assert_parses_as("(a ...) -> a ...", "(a ...) -> a ...");
}
END_TEST

/* ======================================================================
 * Numbers
 * ====================================================================== */

START_TEST(top_level_one_with_or_without_leading_zeros_is_a_unit_dim) {
  lt__ast ast;
  parse_ok("a 1 01 001 -> a", &ast);
  ck_assert_int_eq(ast.left.ngroups, 4);
  ck_assert_int_eq(ast.left.naxes, 1);
  for (int g = 1; g < 4; g++) {
    ck_assert_int_eq(ast.left.groups[g].count, 0);
    ck_assert(!ast.left.groups[g].paren);
  }
  assert_parses_as("a 1 01 001 -> a", "a 1 1 1 -> a");
}
END_TEST

START_TEST(one_inside_a_group_is_dropped) {
  assert_parses_as("(a 1 b) (1) (1 1) (01) -> a b", "(a b) () () () -> a b");
}
END_TEST

START_TEST(empty_group_at_top_level_is_a_unit_dim) {
  lt__ast ast;
  parse_ok("() a -> a ()", &ast);
  ck_assert_int_eq(ast.left.ngroups, 2);
  ck_assert_int_eq(ast.left.groups[0].count, 0);
  ck_assert(ast.left.groups[0].paren);
  ck_assert_int_eq(ast.right.ngroups, 2);
  ck_assert_int_eq(ast.right.groups[1].count, 0);
}
END_TEST

START_TEST(number_of_two_or_more_is_an_anonymous_axis) {
  lt__ast ast;
  assert_parses_as("a 2 (3 b) 02 -> a", "a #2 (#3 b) #2 -> a");
  parse_ok("a 2 (3 b) 02 -> a", &ast);
  const lt__ast_axis *x = &ast.left.axes[4];
  ck_assert_int_eq(x->kind, LT__AXIS_ANON);
  ck_assert_int_eq(x->value, 2);
  ck_assert_int_eq(x->pos, 10);
  ck_assert_int_eq(x->len, 2);
}
END_TEST

START_TEST(equal_numbers_are_distinct_axes_not_duplicates) {
  lt__ast ast;
  assert_parses_as("2 2 -> 2 2", "#2 #2 -> #2 #2");
  parse_ok("2 2 -> 2 2", &ast);
  ck_assert(!lt__same_axis(&ast, &ast.left.axes[0], &ast.left.axes[1]));
  ck_assert(!lt__same_axis(&ast, &ast.left.axes[0], &ast.right.axes[0]));
}
END_TEST

START_TEST(zero_is_not_an_axis_length) {
  assert_parse_error("a 0 -> a",
                     "  ^");
  assert_parse_error("a (b 00) -> a b",
                     "     ^");
  assert_parse_error("a -> a 0",
                     "       ^");
}
END_TEST

START_TEST(name_starting_with_a_digit_is_invalid) {
  assert_parse_error("1a -> 1a",
                     "^");
  assert_parse_error("a (2b) -> a",
                     "   ^");
}
END_TEST

/* ======================================================================
 * Names
 * ====================================================================== */

START_TEST(names_may_hold_digits_and_inner_underscores) {
  assert_parses_as("a1 b_c B2 x__y -> x__y B2 b_c a1", "a1 b_c B2 x__y -> x__y B2 b_c a1");
}
END_TEST

START_TEST(names_are_case_sensitive) {
  assert_parses_as("a A -> A a", "a A -> A a");
}
END_TEST

START_TEST(name_starting_with_underscore_is_invalid) {
  assert_parse_error("_a b -> b",
                     "^");
}
END_TEST

START_TEST(name_ending_with_underscore_is_invalid) {
  assert_parse_error("a b_ -> a",
                     "  ^");
}
END_TEST

START_TEST(underscore_alone_is_invalid) {
  assert_parse_error("a _ -> a",
                     "  ^");
  assert_parse_error("a (b __) -> a b",
                     "     ^");
}
END_TEST

START_TEST(utf8_letters_are_name_characters) {
  lt__ast ast;
  assert_parses_as("\xc3\x9f x -> x \xc3\x9f", "\xc3\x9f x -> x \xc3\x9f");
  parse_ok("\xc3\x9f x -> x \xc3\x9f", &ast);
  ck_assert_int_eq(ast.left.axes[0].pos, 0);
  ck_assert_int_eq(ast.left.axes[0].len, 2);
  ck_assert(lt__same_axis(&ast, &ast.left.axes[0], &ast.right.axes[1]));
  assert_parses_as("a\xc3\xa9 -> a\xc3\xa9", "a\xc3\xa9 -> a\xc3\xa9");
}
END_TEST

START_TEST(utf8_names_are_checked_for_duplicates) {
  assert_parse_error("\xc3\x9f \xc3\x9f -> \xc3\x9f",
                     "   ^");
}
END_TEST

START_TEST(keywords_and_axis_are_accepted_as_names) {
  assert_parses_as("for axis -> axis for", "for axis -> axis for");
}
END_TEST

START_TEST(axis_name_validity_follows_python_identifiers_without_edge_underscores) {
  ck_assert(lt__axis_name_valid("a", 1));
  ck_assert(lt__axis_name_valid("a_b", 3));
  ck_assert(lt__axis_name_valid("A1", 2));
  ck_assert(lt__axis_name_valid("\xc3\x9f", 2));
  ck_assert(!lt__axis_name_valid("", 0));
  ck_assert(!lt__axis_name_valid("_a", 2));
  ck_assert(!lt__axis_name_valid("a_", 2));
  ck_assert(!lt__axis_name_valid("_", 1));
  ck_assert(!lt__axis_name_valid("1a", 2));
  ck_assert(!lt__axis_name_valid("a-b", 3));
  ck_assert(!lt__axis_name_valid("a b", 3));
  ck_assert(!lt__axis_name_valid("...", 3));
}
END_TEST

/* ======================================================================
 * Duplicates
 * ====================================================================== */

START_TEST(duplicate_name_fails_at_its_second_occurrence) {
  assert_parse_error("a b a -> a b",
                     "    ^");
}
END_TEST

START_TEST(duplicate_name_inside_a_group_is_a_duplicate) {
  assert_parse_error("a (b a) -> a b",
                     "     ^");
}
END_TEST

START_TEST(duplicate_name_on_the_right_is_a_duplicate) {
  assert_parse_error("a b -> (a b) a",
                     "             ^");
}
END_TEST

/* ======================================================================
 * Groups
 * ====================================================================== */

START_TEST(group_inside_a_group_is_an_error_at_the_inner_bracket) {
  assert_parse_error("((a)) -> a",
                     " ^");
  assert_parse_error("(a (b)) -> a b",
                     "   ^");
}
END_TEST

START_TEST(empty_group_inside_a_group_is_an_error) {
  assert_parse_error("(a () b) -> a b",
                     "   ^");
}
END_TEST

START_TEST(closing_bracket_without_opening_is_an_error_at_it) {
  assert_parse_error("a) -> a",
                     " ^");
  assert_parse_error(") a -> a",
                     "^");
  assert_parse_error("a -> a)",
                     "      ^");
}
END_TEST

START_TEST(unclosed_group_is_an_error_at_its_opening_bracket) {
  assert_parse_error("(a b -> a b",
                     "^");
  assert_parse_error("a -> (a",
                     "     ^");
}
END_TEST

START_TEST(group_of_one_axis_is_that_axis) {
  lt__ast ast;
  parse_ok("(a) -> a", &ast);
  ck_assert_int_eq(ast.left.groups[0].count, 1);
  ck_assert(lt__same_axis(&ast, &ast.left.axes[0], &ast.right.axes[0]));
}
END_TEST

START_TEST(ast_keeps_source_spans_of_axes_and_groups) {
  lt__ast ast;
  parse_ok("b (h w) c -> b h w c", &ast);
  ck_assert_int_eq(ast.left.ngroups, 3);
  ck_assert_int_eq(ast.left.naxes, 4);
  const lt__ast_group *g = &ast.left.groups[1];
  ck_assert(g->paren);
  ck_assert_int_eq(g->first, 1);
  ck_assert_int_eq(g->count, 2);
  ck_assert_int_eq(g->pos, 2);
  ck_assert_int_eq(g->end, 7);
  ck_assert_int_eq(ast.left.axes[2].pos, 5);
  ck_assert_int_eq(ast.left.axes[2].len, 1);
  ck_assert_int_eq(ast.right.axes[3].pos, 19);
  ck_assert_str_eq(ast.text, "b (h w) c -> b h w c");
  ck_assert_int_eq(ast.len, 20);
}
END_TEST

START_TEST(lexer_splits_a_side_into_words_brackets_and_ellipses) {
  const char *text = "ab(c ...)  d";
  lt__lexer lx;
  lt__pattern_error e = {0};
  ck_assert(lt__lex_begin(&lx, text, 0, (int)strlen(text), &e));
  const lt__token_kind kinds[] = {LT__TOK_WORD, LT__TOK_OPEN, LT__TOK_WORD, LT__TOK_ELLIPSIS, LT__TOK_CLOSE,
                                  LT__TOK_WORD, LT__TOK_END};
  const int pos[] = {0, 2, 3, 5, 8, 11, 12}, len[] = {2, 1, 1, 3, 1, 1};
  for (int i = 0; i < 7; i++) {
    lt__token t;
    ck_assert(lt__lex_next(&lx, &t, &e));
    ck_assert_int_eq(t.kind, kinds[i]);
    ck_assert_int_eq(t.pos, pos[i]);
    if (i < 6) ck_assert_int_eq(t.len, len[i]);
  }
  ck_assert(lt__lex_at_end(&lx));
}
END_TEST

/* ======================================================================
 * Which syntax error wins: einops scans a side left to right and reports
 * the first fault it meets (after the side-wide dot check).
 * ====================================================================== */

START_TEST(earlier_invalid_name_wins_over_a_later_unknown_character) {
  assert_parse_error("_a $ -> a",
                     "^");
}
END_TEST

START_TEST(earlier_duplicate_wins_over_a_later_unknown_character) {
  assert_parse_error("a a $ -> a",
                     "  ^");
}
END_TEST

START_TEST(earlier_invalid_name_wins_over_a_later_glued_ellipsis) {
  assert_parse_error("_b a... -> a",
                     "^");
}
END_TEST

START_TEST(earlier_stray_closing_bracket_wins_over_a_later_unknown_character) {
  assert_parse_error("a ) $ -> a",
                     "  ^");
}
END_TEST

START_TEST(earlier_nested_bracket_wins_over_a_later_unknown_character) {
  assert_parse_error("((a $ -> a",
                     " ^");
}
END_TEST

START_TEST(unknown_character_wins_over_an_unclosed_group) {
  assert_parse_error("(a $ -> a",
                     "   ^");
}
END_TEST

START_TEST(name_ending_an_unclosed_side_is_checked_after_the_imbalance) {
  /* einops checks the last word of a side after the bracket balance... */
  assert_parse_error("(a _b->a",
                     "^");
  /* ...but a word followed by a space is checked when the space is read. */
  assert_parse_error("(a _b ->a",
                     "   ^");
}
END_TEST

START_TEST(left_side_errors_win_over_right_side_errors) {
  assert_parse_error("a _b -> $",
                     "  ^");
}
END_TEST

START_TEST(syntax_errors_win_over_the_semantic_checks) {
  /* right-only ellipsis, but the bad name on the right is found first */
  assert_parse_error("a -> ... _b",
                     "         ^");
}
END_TEST

/* ======================================================================
 * einops' checks after parsing, in order
 * ====================================================================== */

START_TEST(ellipsis_only_on_the_right_fails_for_every_op) {
  assert_check_error("a -> a ...", REARRANGE,
                     "       ^");
  assert_check_error("a -> a ...", REPEAT,
                     "       ^");
  assert_check_error("a -> a ...", REDUCE,
                     "       ^");
}
END_TEST

START_TEST(right_only_ellipsis_check_comes_before_the_op_rules) {
  assert_check_error("a 2 -> a ...", REARRANGE,
                     "         ^");
  assert_check_error("a 2 -> a ...", REPEAT,
                     "         ^");
  assert_check_error("a -> b ...", REDUCE,
                     "       ^");
}
END_TEST

START_TEST(ellipsis_inside_a_left_group_fails_for_every_op) {
  assert_check_error("(a ...) -> a ...", REARRANGE,
                     "   ^");
  assert_check_error("(... a) -> a ...", REPEAT,
                     " ^");
  assert_check_error("(a ...) -> a", REDUCE,
                     "   ^");
}
END_TEST

START_TEST(left_group_ellipsis_check_comes_before_the_op_rules) {
  assert_check_error("(a ...) 2 -> a", REARRANGE,
                     "   ^");
  assert_check_error("(a ...) b -> a", REPEAT,
                     "   ^");
}
END_TEST

START_TEST(ellipsis_inside_a_right_group_is_allowed) {
  assert_check_ok("a ... -> (a ...)", REARRANGE);
  assert_check_ok("a ... -> (... a)", REPEAT);
  assert_check_ok("a ... -> (...)", REDUCE);
  assert_check_ok("... -> (...)", REARRANGE);
}
END_TEST

START_TEST(rearrange_rejects_anonymous_axes_on_the_left) {
  assert_check_error("a 2 -> a", REARRANGE,
                     "  ^");
  assert_check_error("(a 3) -> a", REARRANGE,
                     "   ^");
}
END_TEST

START_TEST(rearrange_rejects_anonymous_axes_on_the_right) {
  assert_check_error("a -> a 2", REARRANGE,
                     "       ^");
}
END_TEST

START_TEST(rearrange_anonymous_check_comes_before_the_identifier_check) {
  /* b is left-only, but the anonymous 3 on the right is reported */
  assert_check_error("a b -> a 3", REARRANGE,
                     "         ^");
}
END_TEST

START_TEST(rearrange_accepts_unit_axes) {
  assert_check_ok("a 1 () -> 1 a (1) ()", REARRANGE);
}
END_TEST

START_TEST(rearrange_rejects_a_name_only_on_the_left) {
  assert_check_error("a b -> a", REARRANGE,
                     "  ^");
}
END_TEST

START_TEST(rearrange_rejects_a_name_only_on_the_right) {
  assert_check_error("a -> a b", REARRANGE,
                     "       ^");
}
END_TEST

START_TEST(rearrange_rejects_an_ellipsis_only_on_the_left) {
  assert_check_error("a ... -> a", REARRANGE,
                     "  ^");
}
END_TEST

START_TEST(repeat_rejects_a_name_only_on_the_left) {
  assert_check_error("a b -> a", REPEAT,
                     "  ^");
}
END_TEST

START_TEST(repeat_rejects_a_left_anonymous_axis_even_if_the_right_has_the_same_number) {
  assert_check_error("a 3 -> a 3", REPEAT,
                     "  ^");
}
END_TEST

START_TEST(repeat_rejects_an_ellipsis_only_on_the_left) {
  assert_check_error("... a -> a", REPEAT,
                     "^");
}
END_TEST

START_TEST(repeat_accepts_new_names_and_numbers_on_the_right) {
  assert_check_ok("a -> a b 3 (c 2)", REPEAT);
  assert_check_ok("a ... -> (r a) ... 1", REPEAT);
}
END_TEST

START_TEST(reduce_rejects_a_name_only_on_the_right) {
  assert_check_error("a -> a b", REDUCE,
                     "       ^");
}
END_TEST

START_TEST(reduce_rejects_an_anonymous_axis_on_the_right) {
  assert_check_error("a 2 -> a 2", REDUCE,
                     "         ^");
  assert_check_error("a -> (a 2)", REDUCE,
                     "        ^");
}
END_TEST

START_TEST(reduce_accepts_left_anonymous_axes_and_a_left_only_ellipsis) {
  assert_check_ok("(h 2) w ... 3 -> h", REDUCE);
}
END_TEST

START_TEST(reduce_with_nothing_to_reduce_is_allowed) {
  assert_check_ok("a b -> b a", REDUCE);
}
END_TEST

START_TEST(reduce_accepts_units_on_the_right) {
  assert_check_ok("b c h w -> b c 1 1", REDUCE);
  assert_check_ok("b c -> () b (1)", REDUCE);
}
END_TEST

/* ======================================================================
 * The planner's checks (einops' checks 4-8), in order
 * ====================================================================== */

START_TEST(repeat_new_axis_needs_a_length) {
  assert_plan_error("a -> a b", REPEAT, SHAPE(3), NO_AXES, LT_ERR_PATTERN,
                    "       ^");
}
END_TEST

START_TEST(repeat_new_axis_length_check_comes_before_the_ndim_check) {
  assert_plan_error("a -> a b", REPEAT, SHAPE(3, 4), NO_AXES, LT_ERR_PATTERN,
                    "       ^");
}
END_TEST

START_TEST(ndim_must_equal_the_number_of_left_items) {
  assert_plan_error("a b -> b a", REARRANGE, SHAPE(2, 3, 4), NO_AXES, LT_ERR_SHAPE,
                    "^");
  assert_plan_error("a b -> b a", REARRANGE, SHAPE(6), NO_AXES, LT_ERR_SHAPE,
                    "^");
}
END_TEST

START_TEST(unit_items_count_as_dims) {
  assert_plan_error("a 1 () -> a", REARRANGE, SHAPE(3), NO_AXES, LT_ERR_SHAPE,
                    "^");
  assert_recipe("a 1 () -> a", REARRANGE, SHAPE(3, 1, 1), NO_AXES,
                "elem=[3] mid=[e0:3] reduced=[] out=[3]");
}
END_TEST

START_TEST(ellipsis_needs_at_least_the_other_items) {
  assert_plan_error("a b ... -> b a ...", REARRANGE, SHAPE(2), NO_AXES, LT_ERR_SHAPE,
                    "^");
  assert_plan_error("a b ... -> b a ...", REARRANGE, SCALAR, NO_AXES, LT_ERR_SHAPE,
                    "^");
}
END_TEST

START_TEST(ndim_check_comes_before_the_axes_checks) {
  assert_plan_error("a b -> b a", REARRANGE, SHAPE(2, 3, 4), AXES({"zz", 1}), LT_ERR_SHAPE,
                    "^");
}
END_TEST

START_TEST(axes_name_must_be_a_valid_name) {
  assert_plan_error("a b -> b a", REARRANGE, SHAPE(2, 3), AXES({"_a", 2}), LT_ERR_PATTERN, NULL);
  assert_plan_error("a b -> b a", REARRANGE, SHAPE(2, 3), AXES({"a b", 2}), LT_ERR_PATTERN, NULL);
  assert_plan_error("a b -> b a", REARRANGE, SHAPE(2, 3), AXES({"", 2}), LT_ERR_PATTERN, NULL);
}
END_TEST

START_TEST(axes_name_must_occur_in_the_pattern) {
  assert_plan_error("a b -> b a", REARRANGE, SHAPE(2, 3), AXES({"c", 2}), LT_ERR_PATTERN, NULL);
  assert_plan_error("a b -> b a", REARRANGE, SHAPE(2, 3), AXES({"A", 2}), LT_ERR_PATTERN, NULL);
}
END_TEST

START_TEST(axes_are_checked_in_order) {
  lt__recipe r;
  lt__pattern_error e = {0};
  ck_assert(!plan("a b -> b a", REARRANGE, SHAPE(2, 3), AXES({"zz", 2}, {"_x", 1}), &r, &e));
  ck_assert_ptr_nonnull(strstr(e.text, "zz"));
  ck_assert_ptr_null(strstr(e.text, "_x"));
  ck_assert(!plan("a b -> b a", REARRANGE, SHAPE(2, 3), AXES({"_x", 1}, {"zz", 2}), &r, &e));
  ck_assert_ptr_nonnull(strstr(e.text, "_x"));
  ck_assert_ptr_null(strstr(e.text, "zz"));
}
END_TEST

START_TEST(axes_name_that_is_null_is_an_argument_error) {
  assert_plan_error("a b -> b a", REARRANGE, SHAPE(2, 3), AXES({NULL, 2}), LT_ERR_ARG, NULL);
}
END_TEST

START_TEST(axis_given_twice_is_a_pattern_error) {
  lt__recipe r;
  lt__pattern_error e = {0};
  ck_assert(!plan("a b -> b a", REARRANGE, SHAPE(2, 3), AXES({"a", 2}, {"a", 2}), &r, &e));
  ck_assert_int_eq(e.status, LT_ERR_PATTERN);
}
END_TEST

START_TEST(axes_may_name_any_axis_of_the_pattern) {
  assert_recipe("a b -> b a", REARRANGE, SHAPE(2, 3), AXES({"b", 3}, {"a", 2}),
                "elem=[2,3] mid=[e1:3,e0:2] reduced=[] out=[3,2]");
  assert_recipe("a b -> a", REDUCE, SHAPE(2, 3), AXES({"b", 3}),
                "elem=[2,3] mid=[e0:2] reduced=[1] out=[2]");
}
END_TEST

START_TEST(axes_checks_come_before_the_inference_check) {
  assert_plan_error("(a b) -> a b", REARRANGE, SHAPE(6), AXES({"zz", 1}), LT_ERR_PATTERN, NULL);
}
END_TEST

START_TEST(two_unknown_lengths_in_one_group_cannot_be_inferred) {
  assert_plan_error("b (h w) c -> b h w c", REARRANGE, SHAPE(2, 6, 3), NO_AXES, LT_ERR_PATTERN,
                    "   ^");
}
END_TEST

START_TEST(inference_check_covers_every_group_before_any_length_is_checked) {
  /* (a b) with b=5 does not divide 6, but (c d) cannot be inferred at all */
  assert_plan_error("(a b) (c d) -> a b c d", REARRANGE, SHAPE(6, 4), AXES({"b", 5}), LT_ERR_PATTERN,
                    "       ^");
}
END_TEST

START_TEST(known_lengths_must_multiply_to_the_dim) {
  assert_plan_error("(a b) -> a b", REARRANGE, SHAPE(4), AXES({"a", 2}, {"b", 3}), LT_ERR_SHAPE,
                    "^");
}
END_TEST

START_TEST(unknown_length_must_divide_the_dim) {
  assert_plan_error("(a b) -> a b", REARRANGE, SHAPE(6), AXES({"b", 4}), LT_ERR_SHAPE,
                    " ^");
}
END_TEST

START_TEST(unit_item_requires_a_dim_of_length_one) {
  assert_plan_error("a 1 -> a", REARRANGE, SHAPE(3, 2), NO_AXES, LT_ERR_SHAPE,
                    "  ^");
  assert_plan_error("() a -> a", REARRANGE, SHAPE(2, 3), NO_AXES, LT_ERR_SHAPE,
                    "^");
  assert_plan_error("a (1) -> a", REARRANGE, SHAPE(3, 0), NO_AXES, LT_ERR_SHAPE,
                    "  ^");
}
END_TEST

START_TEST(anonymous_length_must_match_the_dim) {
  assert_plan_error("a 3 -> a", REDUCE, SHAPE(2, 4), NO_AXES, LT_ERR_SHAPE,
                    "  ^");
  assert_plan_error("(h 2) -> h", REDUCE, SHAPE(7), NO_AXES, LT_ERR_SHAPE,
                    " ^");
}
END_TEST

START_TEST(axes_restating_a_length_are_checked) {
  assert_plan_error("a b -> b a", REARRANGE, SHAPE(2, 5), AXES({"a", 3}), LT_ERR_SHAPE,
                    "^");
  assert_recipe("a b -> b a", REARRANGE, SHAPE(2, 5), AXES({"a", 2}),
                "elem=[2,5] mid=[e1:5,e0:2] reduced=[] out=[5,2]");
  assert_plan_error("a -> a b", REPEAT, SHAPE(4), AXES({"a", 3}, {"b", 2}), LT_ERR_SHAPE,
                    "^");
}
END_TEST

START_TEST(dims_are_checked_left_to_right) {
  assert_plan_error("(a b) (c d) -> a b c d", REARRANGE, SHAPE(6, 7), AXES({"b", 4}, {"d", 5}), LT_ERR_SHAPE,
                    " ^");
}
END_TEST

START_TEST(known_factor_zero_cannot_be_divided) {
  assert_plan_error("(a b) -> a b", REARRANGE, SHAPE(0), AXES({"b", 0}), LT_ERR_SHAPE,
                    " ^");
  assert_plan_error("(a b) -> a b", REARRANGE, SHAPE(6), AXES({"b", 0}), LT_ERR_SHAPE,
                    " ^");
}
END_TEST

START_TEST(zero_length_dim_divides_by_a_positive_factor) {
  assert_recipe("(a b) -> b a", REARRANGE, SHAPE(0), AXES({"b", 5}),
                "elem=[0,5] mid=[e1:5,e0:0] reduced=[] out=[5,0]");
}
END_TEST

START_TEST(zero_product_of_known_lengths_matches_a_zero_dim) {
  assert_recipe("(a b) -> b a", REARRANGE, SHAPE(0), AXES({"a", 0}, {"b", 3}),
                "elem=[0,3] mid=[e1:3,e0:0] reduced=[] out=[3,0]");
}
END_TEST

START_TEST(negative_length_of_a_new_axis_is_a_shape_error) {
  lt__recipe r;
  lt__pattern_error e = {0};
  ck_assert(!plan("a -> a b", REPEAT, SHAPE(3), AXES({"b", -1}), &r, &e));
  ck_assert_int_eq(e.status, LT_ERR_SHAPE);
}
END_TEST

START_TEST(negative_length_that_divides_is_still_a_shape_error) {
  lt__recipe r;
  lt__pattern_error e = {0};
  ck_assert(!plan("(a b) -> a b", REARRANGE, SHAPE(6), AXES({"b", -1}), &r, &e));
  ck_assert_int_eq(e.status, LT_ERR_SHAPE);
  ck_assert(!plan("(a b) -> a b", REARRANGE, SHAPE(6), AXES({"a", -2}, {"b", -3}), &r, &e));
  ck_assert_int_eq(e.status, LT_ERR_SHAPE);
}
END_TEST

START_TEST(negative_length_that_does_not_divide_fails_the_divisibility_check) {
  /* REARRANGE.md: with b=-4 einops' own "can't divide" check fires */
  assert_plan_error("(a b) -> a b", REARRANGE, SHAPE(6), AXES({"b", -4}), LT_ERR_SHAPE,
                    " ^");
}
END_TEST

START_TEST(negative_length_does_not_preempt_the_inference_check) {
  /* einops reports "Could not infer sizes for {a, c}" before numpy ever
   * sees the negative length */
  assert_plan_error("(a b c) -> a b c", REARRANGE, SHAPE(6), AXES({"b", -1}), LT_ERR_PATTERN,
                    " ^");
}
END_TEST

START_TEST(negative_length_does_not_preempt_a_later_unused_axis) {
  assert_plan_error("(a b) -> a b", REARRANGE, SHAPE(6), AXES({"b", -1}, {"zz", 2}), LT_ERR_PATTERN, NULL);
}
END_TEST

/* ======================================================================
 * Recipes
 * ====================================================================== */

START_TEST(recipe_splits_then_permutes) {
  assert_recipe("b t (h d) -> b h t d", REARRANGE, SHAPE(2, 3, 8), AXES({"h", 4}),
                "elem=[2,3,4,2] mid=[e0:2,e2:4,e1:3,e3:2] reduced=[] out=[2,4,3,2]");
}
END_TEST

START_TEST(recipe_permutes_then_merges) {
  assert_recipe("a b c -> (c a) b", REARRANGE, SHAPE(2, 3, 4), NO_AXES,
                "elem=[2,3,4] mid=[e2:4,e0:2,e1:3] reduced=[] out=[8,3]");
}
END_TEST

START_TEST(recipe_infers_the_unknown_length_of_a_group) {
  assert_recipe("(a b) c -> c a b", REARRANGE, SHAPE(6, 4), AXES({"b", 3}),
                "elem=[2,3,4] mid=[e2:4,e0:2,e1:3] reduced=[] out=[4,2,3]");
}
END_TEST

START_TEST(recipe_accepts_axes_restating_every_length) {
  assert_recipe("a (b c) -> c b a", REARRANGE, SHAPE(2, 6), AXES({"a", 2}, {"b", 3}, {"c", 2}),
                "elem=[2,3,2] mid=[e2:2,e1:3,e0:2] reduced=[] out=[2,3,2]");
}
END_TEST

START_TEST(recipe_of_ellipsis_keeps_its_dims_in_order) {
  assert_recipe("a ... b -> b ... a", REARRANGE, SHAPE(2, 3, 4, 5), NO_AXES,
                "elem=[2,3,4,5] mid=[e3:5,e1:3,e2:4,e0:2] reduced=[] out=[5,3,4,2]");
}
END_TEST

START_TEST(recipe_of_ellipsis_expanding_to_zero_dims) {
  assert_recipe("a ... b -> b ... a", REARRANGE, SHAPE(2, 3), NO_AXES,
                "elem=[2,3] mid=[e1:3,e0:2] reduced=[] out=[3,2]");
}
END_TEST

START_TEST(recipe_of_ellipsis_in_a_right_group_merges_its_dims) {
  assert_recipe("a ... -> (...) a", REARRANGE, SHAPE(2, 3, 4), NO_AXES,
                "elem=[2,3,4] mid=[e1:3,e2:4,e0:2] reduced=[] out=[12,2]");
  assert_recipe("a ... -> (a ...)", REARRANGE, SHAPE(2, 3, 4), NO_AXES,
                "elem=[2,3,4] mid=[e0:2,e1:3,e2:4] reduced=[] out=[24]");
}
END_TEST

START_TEST(recipe_of_empty_ellipsis_in_a_right_group_is_a_unit_dim) {
  assert_recipe("a ... -> (...) a", REARRANGE, SHAPE(2), NO_AXES,
                "elem=[2] mid=[e0:2] reduced=[] out=[1,2]");
  assert_recipe("... -> (...)", REARRANGE, SCALAR, NO_AXES, "elem=[] mid=[] reduced=[] out=[1]");
}
END_TEST

START_TEST(recipe_of_empty_pattern_on_a_scalar_is_empty) {
  assert_recipe(" -> ", REARRANGE, SCALAR, NO_AXES, "elem=[] mid=[] reduced=[] out=[]");
  assert_recipe("... -> ...", REARRANGE, SCALAR, NO_AXES, "elem=[] mid=[] reduced=[] out=[]");
}
END_TEST

START_TEST(recipe_drops_unit_dims_and_adds_them_back_on_the_right) {
  assert_recipe("a 1 b () -> 1 (b 1 a) ()", REARRANGE, SHAPE(2, 1, 3, 1), NO_AXES,
                "elem=[2,3] mid=[e1:3,e0:2] reduced=[] out=[1,6,1]");
}
END_TEST

START_TEST(recipe_of_repeat_marks_new_axes) {
  assert_recipe("h w -> h (r w) 2", REPEAT, SHAPE(2, 4), AXES({"r", 3}),
                "elem=[2,4] mid=[e0:2,new:3,e1:4,new:2] reduced=[] out=[2,12,2]");
}
END_TEST

START_TEST(recipe_of_repeat_tiles_or_interleaves_by_position) {
  assert_recipe("h -> (r h)", REPEAT, SHAPE(3), AXES({"r", 2}),
                "elem=[3] mid=[new:2,e0:3] reduced=[] out=[6]");
  assert_recipe("h -> (h r)", REPEAT, SHAPE(3), AXES({"r", 2}),
                "elem=[3] mid=[e0:3,new:2] reduced=[] out=[6]");
}
END_TEST

START_TEST(recipe_of_repeat_on_a_scalar) {
  assert_recipe(" -> a", REPEAT, SCALAR, AXES({"a", 3}), "elem=[] mid=[new:3] reduced=[] out=[3]");
}
END_TEST

START_TEST(recipe_of_repeat_with_a_zero_length_new_axis) {
  assert_recipe("a -> a b", REPEAT, SHAPE(2), AXES({"b", 0}), "elem=[2] mid=[e0:2,new:0] reduced=[] out=[2,0]");
}
END_TEST

START_TEST(recipe_of_reduce_always_reduces_a_left_anonymous_axis) {
  assert_recipe("(h 2) w -> h w", REDUCE, SHAPE(6, 5), NO_AXES,
                "elem=[3,2,5] mid=[e0:3,e2:5] reduced=[1] out=[3,5]");
}
END_TEST

START_TEST(recipe_of_reduce_with_a_left_only_ellipsis_reduces_its_dims) {
  assert_recipe("a ... -> a", REDUCE, SHAPE(2, 3, 4), NO_AXES,
                "elem=[2,3,4] mid=[e0:2] reduced=[1,2] out=[2]");
}
END_TEST

START_TEST(recipe_of_reduce_keeps_unit_dims_on_the_right) {
  assert_recipe("b c h w -> b c 1 1", REDUCE, SHAPE(2, 3, 4, 5), NO_AXES,
                "elem=[2,3,4,5] mid=[e0:2,e1:3] reduced=[2,3] out=[2,3,1,1]");
}
END_TEST

START_TEST(recipe_of_reduce_with_nothing_reduced) {
  assert_recipe("a b -> b a", REDUCE, SHAPE(2, 3), NO_AXES, "elem=[2,3] mid=[e1:3,e0:2] reduced=[] out=[3,2]");
}
END_TEST

START_TEST(recipe_lists_reduced_axes_in_input_order) {
  assert_recipe("a b c d -> (d b)", REDUCE, SHAPE(2, 3, 4, 5), NO_AXES,
                "elem=[2,3,4,5] mid=[e3:5,e1:3] reduced=[0,2] out=[15]");
}
END_TEST

START_TEST(recipe_leaves_out_named_axes_of_length_one) {
  assert_recipe("a b c -> c (b a)", REARRANGE, SHAPE(2, 1, 3), NO_AXES,
                "elem=[2,3] mid=[e1:3,e0:2] reduced=[] out=[3,2]");
}
END_TEST

START_TEST(recipe_leaves_out_ellipsis_dims_of_length_one) {
  assert_recipe("... a -> a ...", REARRANGE, SHAPE(1, 4, 2), NO_AXES,
                "elem=[4,2] mid=[e1:2,e0:4] reduced=[] out=[2,1,4]");
}
END_TEST

START_TEST(recipe_of_reduce_over_an_axis_of_length_one_reduces_without_folding) {
  lt__recipe r;
  lt__pattern_error e = {0};
  assert_recipe("a b -> a", REDUCE, SHAPE(2, 1), NO_AXES, "elem=[2] mid=[e0:2] reduced=[] out=[2]");
  ck_assert(plan("a b -> a", REDUCE, SHAPE(2, 1), NO_AXES, &r, &e));
  ck_assert(r.reduces);
}
END_TEST

START_TEST(recipe_of_reduce_that_drops_nothing_does_not_reduce) {
  lt__recipe r;
  lt__pattern_error e = {0};
  ck_assert(plan("a b -> b a", REDUCE, SHAPE(2, 3), NO_AXES, &r, &e));
  ck_assert(!r.reduces);
  ck_assert(plan("a ... -> a", REDUCE, SHAPE(2), NO_AXES, &r, &e)); /* the ellipsis stands for no dims */
  ck_assert(!r.reduces);
  ck_assert(plan("a ... -> a", REDUCE, SHAPE(2, 1), NO_AXES, &r, &e));
  ck_assert(r.reduces);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("pattern");
  TCase *tc;

  tc = tcase_create("arrow_and_separators");
  tcase_add_checked_fixture(tc, NULL, teardown);
  tcase_add_test(tc, pattern_without_arrow_fails_at_its_end);
  tcase_add_test(tc, second_arrow_fails_where_it_starts);
  tcase_add_test(tc, adjacent_arrows_count_as_two);
  tcase_add_test(tc, arrow_and_parentheses_need_no_spaces);
  tcase_add_test(tc, empty_sides_are_zero_dimensional);
  tcase_add_test(tc, lone_dash_or_angle_bracket_is_an_unknown_character);
  tcase_add_test(tc, leading_trailing_and_repeated_spaces_are_ignored);
  tcase_add_test(tc, tab_is_an_unknown_character);
  tcase_add_test(tc, newline_is_an_unknown_character);
  tcase_add_test(tc, punctuation_is_an_unknown_character);
  suite_add_tcase(s, tc);

  tc = tcase_create("ellipsis");
  tcase_add_checked_fixture(tc, NULL, teardown);
  tcase_add_test(tc, single_dot_is_an_error);
  tcase_add_test(tc, two_dots_are_an_error);
  tcase_add_test(tc, four_dots_are_an_error);
  tcase_add_test(tc, second_ellipsis_on_one_side_is_an_error);
  tcase_add_test(tc, stray_dot_beside_an_ellipsis_is_an_error);
  tcase_add_test(tc, dots_are_checked_before_any_other_character_of_the_side);
  tcase_add_test(tc, left_side_is_checked_before_dots_of_the_right_side);
  tcase_add_test(tc, ellipsis_glued_after_a_name_is_an_invalid_identifier);
  tcase_add_test(tc, ellipsis_glued_before_a_name_is_an_invalid_identifier);
  tcase_add_test(tc, ellipsis_glued_to_a_name_across_the_arrow_fails_on_the_right);
  tcase_add_test(tc, ellipsis_separated_by_spaces_or_the_arrow_parses);
  tcase_add_test(tc, ellipsis_may_touch_parentheses);
  tcase_add_test(tc, ellipsis_group_is_the_index_of_the_item_holding_it);
  tcase_add_test(tc, ellipsis_inside_a_left_group_parses_and_fails_the_checks_later);
  suite_add_tcase(s, tc);

  tc = tcase_create("numbers_names_groups");
  tcase_add_checked_fixture(tc, NULL, teardown);
  tcase_add_test(tc, top_level_one_with_or_without_leading_zeros_is_a_unit_dim);
  tcase_add_test(tc, one_inside_a_group_is_dropped);
  tcase_add_test(tc, empty_group_at_top_level_is_a_unit_dim);
  tcase_add_test(tc, number_of_two_or_more_is_an_anonymous_axis);
  tcase_add_test(tc, equal_numbers_are_distinct_axes_not_duplicates);
  tcase_add_test(tc, zero_is_not_an_axis_length);
  tcase_add_test(tc, name_starting_with_a_digit_is_invalid);
  tcase_add_test(tc, names_may_hold_digits_and_inner_underscores);
  tcase_add_test(tc, names_are_case_sensitive);
  tcase_add_test(tc, name_starting_with_underscore_is_invalid);
  tcase_add_test(tc, name_ending_with_underscore_is_invalid);
  tcase_add_test(tc, underscore_alone_is_invalid);
  tcase_add_test(tc, utf8_letters_are_name_characters);
  tcase_add_test(tc, utf8_names_are_checked_for_duplicates);
  tcase_add_test(tc, keywords_and_axis_are_accepted_as_names);
  tcase_add_test(tc, axis_name_validity_follows_python_identifiers_without_edge_underscores);
  tcase_add_test(tc, duplicate_name_fails_at_its_second_occurrence);
  tcase_add_test(tc, duplicate_name_inside_a_group_is_a_duplicate);
  tcase_add_test(tc, duplicate_name_on_the_right_is_a_duplicate);
  tcase_add_test(tc, group_inside_a_group_is_an_error_at_the_inner_bracket);
  tcase_add_test(tc, empty_group_inside_a_group_is_an_error);
  tcase_add_test(tc, closing_bracket_without_opening_is_an_error_at_it);
  tcase_add_test(tc, unclosed_group_is_an_error_at_its_opening_bracket);
  tcase_add_test(tc, group_of_one_axis_is_that_axis);
  tcase_add_test(tc, ast_keeps_source_spans_of_axes_and_groups);
  tcase_add_test(tc, lexer_splits_a_side_into_words_brackets_and_ellipses);
  suite_add_tcase(s, tc);

  tc = tcase_create("syntax_error_order");
  tcase_add_checked_fixture(tc, NULL, teardown);
  tcase_add_test(tc, earlier_invalid_name_wins_over_a_later_unknown_character);
  tcase_add_test(tc, earlier_duplicate_wins_over_a_later_unknown_character);
  tcase_add_test(tc, earlier_invalid_name_wins_over_a_later_glued_ellipsis);
  tcase_add_test(tc, earlier_stray_closing_bracket_wins_over_a_later_unknown_character);
  tcase_add_test(tc, earlier_nested_bracket_wins_over_a_later_unknown_character);
  tcase_add_test(tc, unknown_character_wins_over_an_unclosed_group);
  tcase_add_test(tc, name_ending_an_unclosed_side_is_checked_after_the_imbalance);
  tcase_add_test(tc, left_side_errors_win_over_right_side_errors);
  tcase_add_test(tc, syntax_errors_win_over_the_semantic_checks);
  suite_add_tcase(s, tc);

  tc = tcase_create("semantic_checks");
  tcase_add_checked_fixture(tc, NULL, teardown);
  tcase_add_test(tc, ellipsis_only_on_the_right_fails_for_every_op);
  tcase_add_test(tc, right_only_ellipsis_check_comes_before_the_op_rules);
  tcase_add_test(tc, ellipsis_inside_a_left_group_fails_for_every_op);
  tcase_add_test(tc, left_group_ellipsis_check_comes_before_the_op_rules);
  tcase_add_test(tc, ellipsis_inside_a_right_group_is_allowed);
  tcase_add_test(tc, rearrange_rejects_anonymous_axes_on_the_left);
  tcase_add_test(tc, rearrange_rejects_anonymous_axes_on_the_right);
  tcase_add_test(tc, rearrange_anonymous_check_comes_before_the_identifier_check);
  tcase_add_test(tc, rearrange_accepts_unit_axes);
  tcase_add_test(tc, rearrange_rejects_a_name_only_on_the_left);
  tcase_add_test(tc, rearrange_rejects_a_name_only_on_the_right);
  tcase_add_test(tc, rearrange_rejects_an_ellipsis_only_on_the_left);
  tcase_add_test(tc, repeat_rejects_a_name_only_on_the_left);
  tcase_add_test(tc, repeat_rejects_a_left_anonymous_axis_even_if_the_right_has_the_same_number);
  tcase_add_test(tc, repeat_rejects_an_ellipsis_only_on_the_left);
  tcase_add_test(tc, repeat_accepts_new_names_and_numbers_on_the_right);
  tcase_add_test(tc, reduce_rejects_a_name_only_on_the_right);
  tcase_add_test(tc, reduce_rejects_an_anonymous_axis_on_the_right);
  tcase_add_test(tc, reduce_accepts_left_anonymous_axes_and_a_left_only_ellipsis);
  tcase_add_test(tc, reduce_with_nothing_to_reduce_is_allowed);
  tcase_add_test(tc, reduce_accepts_units_on_the_right);
  suite_add_tcase(s, tc);

  tc = tcase_create("planner_checks");
  tcase_add_checked_fixture(tc, NULL, teardown);
  tcase_add_test(tc, repeat_new_axis_needs_a_length);
  tcase_add_test(tc, repeat_new_axis_length_check_comes_before_the_ndim_check);
  tcase_add_test(tc, ndim_must_equal_the_number_of_left_items);
  tcase_add_test(tc, unit_items_count_as_dims);
  tcase_add_test(tc, ellipsis_needs_at_least_the_other_items);
  tcase_add_test(tc, ndim_check_comes_before_the_axes_checks);
  tcase_add_test(tc, axes_name_must_be_a_valid_name);
  tcase_add_test(tc, axes_name_must_occur_in_the_pattern);
  tcase_add_test(tc, axes_are_checked_in_order);
  tcase_add_test(tc, axes_name_that_is_null_is_an_argument_error);
  tcase_add_test(tc, axis_given_twice_is_a_pattern_error);
  tcase_add_test(tc, axes_may_name_any_axis_of_the_pattern);
  tcase_add_test(tc, axes_checks_come_before_the_inference_check);
  tcase_add_test(tc, two_unknown_lengths_in_one_group_cannot_be_inferred);
  tcase_add_test(tc, inference_check_covers_every_group_before_any_length_is_checked);
  tcase_add_test(tc, known_lengths_must_multiply_to_the_dim);
  tcase_add_test(tc, unknown_length_must_divide_the_dim);
  tcase_add_test(tc, unit_item_requires_a_dim_of_length_one);
  tcase_add_test(tc, anonymous_length_must_match_the_dim);
  tcase_add_test(tc, axes_restating_a_length_are_checked);
  tcase_add_test(tc, dims_are_checked_left_to_right);
  tcase_add_test(tc, known_factor_zero_cannot_be_divided);
  tcase_add_test(tc, zero_length_dim_divides_by_a_positive_factor);
  tcase_add_test(tc, zero_product_of_known_lengths_matches_a_zero_dim);
  tcase_add_test(tc, negative_length_of_a_new_axis_is_a_shape_error);
  tcase_add_test(tc, negative_length_that_divides_is_still_a_shape_error);
  tcase_add_test(tc, negative_length_that_does_not_divide_fails_the_divisibility_check);
  tcase_add_test(tc, negative_length_does_not_preempt_the_inference_check);
  tcase_add_test(tc, negative_length_does_not_preempt_a_later_unused_axis);
  suite_add_tcase(s, tc);

  tc = tcase_create("recipes");
  tcase_add_checked_fixture(tc, NULL, teardown);
  tcase_add_test(tc, recipe_splits_then_permutes);
  tcase_add_test(tc, recipe_permutes_then_merges);
  tcase_add_test(tc, recipe_infers_the_unknown_length_of_a_group);
  tcase_add_test(tc, recipe_accepts_axes_restating_every_length);
  tcase_add_test(tc, recipe_of_ellipsis_keeps_its_dims_in_order);
  tcase_add_test(tc, recipe_of_ellipsis_expanding_to_zero_dims);
  tcase_add_test(tc, recipe_of_ellipsis_in_a_right_group_merges_its_dims);
  tcase_add_test(tc, recipe_of_empty_ellipsis_in_a_right_group_is_a_unit_dim);
  tcase_add_test(tc, recipe_of_empty_pattern_on_a_scalar_is_empty);
  tcase_add_test(tc, recipe_drops_unit_dims_and_adds_them_back_on_the_right);
  tcase_add_test(tc, recipe_of_repeat_marks_new_axes);
  tcase_add_test(tc, recipe_of_repeat_tiles_or_interleaves_by_position);
  tcase_add_test(tc, recipe_of_repeat_on_a_scalar);
  tcase_add_test(tc, recipe_of_repeat_with_a_zero_length_new_axis);
  tcase_add_test(tc, recipe_of_reduce_always_reduces_a_left_anonymous_axis);
  tcase_add_test(tc, recipe_of_reduce_with_a_left_only_ellipsis_reduces_its_dims);
  tcase_add_test(tc, recipe_of_reduce_keeps_unit_dims_on_the_right);
  tcase_add_test(tc, recipe_of_reduce_with_nothing_reduced);
  tcase_add_test(tc, recipe_lists_reduced_axes_in_input_order);
  tcase_add_test(tc, recipe_leaves_out_named_axes_of_length_one);
  tcase_add_test(tc, recipe_leaves_out_ellipsis_dims_of_length_one);
  tcase_add_test(tc, recipe_of_reduce_over_an_axis_of_length_one_reduces_without_folding);
  tcase_add_test(tc, recipe_of_reduce_that_drops_nothing_does_not_reduce);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return lt_run_suite(suite()); }
