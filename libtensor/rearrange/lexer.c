/* The pattern lexer: one side of a pattern into words, parentheses and
 * ellipses. It follows einops in what counts as a separator (only the
 * ASCII space and parentheses) and in checking dots over the whole side
 * before anything else. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pattern.h"

bool lt__pattern_fail(lt__pattern_error *err, lt_status st, int pos, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  err->status = st;
  err->pos = pos;
  vsnprintf(err->text, sizeof err->text, fmt, ap);
  va_end(ap);
  return false;
}

static bool is_word_char(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c >= 0x80;
}

/* Dots are legal only as exactly one `...` per side. */
static bool check_dots(const char *text, int begin, int end, lt__pattern_error *err) {
  int first_dot = -1, ellipses = 0;
  for (int i = begin; i < end; i++) {
    if (text[i] != '.') continue;
    if (first_dot < 0) first_dot = i;
    int run = 0;
    while (i + run < end && text[i + run] == '.') run++;
    if (run != 3 || ellipses > 0)
      return lt__pattern_fail(err, LT_ERR_PATTERN, i,
                              run < 3 && ellipses == 0
                                  ? "dots are allowed only as one ellipsis '...'"
                                  : "only one ellipsis '...' is allowed per side");
    ellipses++;
    i += run - 1;
  }
  return true;
}

bool lt__lex_begin(lt__lexer *lx, const char *text, int begin, int end, lt__pattern_error *err) {
  *lx = (lt__lexer){.text = text, .pos = begin, .end = end};
  return check_dots(text, begin, end, err);
}

bool lt__lex_at_end(const lt__lexer *lx) { return lx->pos == lx->end; }

bool lt__lex_next(lt__lexer *lx, lt__token *out, lt__pattern_error *err) {
  const char *text = lx->text;
  int i = lx->pos, end = lx->end;
  while (i < end && text[i] == ' ') i++;
  if (i == end) {
    lx->pos = end;
    *out = (lt__token){.kind = LT__TOK_END, .pos = end};
    return true;
  }
  unsigned char c = (unsigned char)text[i];
  lt__token t = {.pos = i, .len = 1};
  if (c == '(') t.kind = LT__TOK_OPEN;
  else if (c == ')') t.kind = LT__TOK_CLOSE;
  else if (c == '.') { t.kind = LT__TOK_ELLIPSIS; t.len = 3; }
  else if (is_word_char(c)) {
    t.kind = LT__TOK_WORD;
    while (i + t.len < end && is_word_char((unsigned char)text[i + t.len])) t.len++;
  } else if (c < 0x20 || c == 0x7f) {
    return lt__pattern_fail(err, LT_ERR_PATTERN, i, "unknown character 0x%02x (only spaces separate axes)", c);
  } else {
    return lt__pattern_fail(err, LT_ERR_PATTERN, i, "unknown character '%c'", c);
  }
  /* einops reads `a...` as one word, an invalid identifier. */
  int after = i + t.len;
  bool glued = after < end && (t.kind == LT__TOK_ELLIPSIS ? is_word_char((unsigned char)text[after]) : text[after] == '.');
  if ((t.kind == LT__TOK_WORD || t.kind == LT__TOK_ELLIPSIS) && glued)
    return lt__pattern_fail(err, LT_ERR_PATTERN, i,
                            "invalid axis identifier: an ellipsis must be separated from names by a space");
  lx->pos = after;
  *out = t;
  return true;
}
