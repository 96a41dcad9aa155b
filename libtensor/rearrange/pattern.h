/* Internal: einops patterns. The lexer and the recursive-descent parser
 * turn a pattern string into an AST that keeps every token's source
 * position, so that any later error can put a caret under its fault. */
#ifndef LT_PATTERN_H
#define LT_PATTERN_H

#include <stdbool.h>
#include <stdint.h>

#include "libtensor/types.h"

#define LT__PATTERN_MAX 1024     /* characters in a pattern */
#define LT__SIDE_MAX_AXES 256    /* axes on one side */
#define LT__SIDE_MAX_GROUPS 256  /* top-level items on one side */

/* A failure found while parsing or planning: the status, the pattern
 * column at fault, and the text after "op: 'pattern': ". */
typedef struct lt__pattern_error {
  lt_status status;
  int pos;
  char text[200];
} lt__pattern_error;

typedef enum lt__axis_kind {
  LT__AXIS_NAME,     /* an identifier */
  LT__AXIS_ANON,     /* a number >= 2: an axis of that length with no name */
  LT__AXIS_ELLIPSIS  /* ... */
} lt__axis_kind;

typedef struct lt__ast_axis {
  lt__axis_kind kind;
  int pos, len;   /* source span: pattern[pos .. pos+len) */
  int64_t value;  /* the length of an anonymous axis */
} lt__ast_axis;

/* A top-level item: a bare axis (count 1, paren false), or a parenthesised
 * composition of `count` axes (0 for `()` and for a unit `1`). */
typedef struct lt__ast_group {
  int first, count;
  bool paren;
  int pos, end;   /* source span of the item: pattern[pos .. end) */
} lt__ast_group;

typedef struct lt__ast_side {
  int ngroups, naxes;
  lt__ast_group groups[LT__SIDE_MAX_GROUPS];
  lt__ast_axis axes[LT__SIDE_MAX_AXES];
  int ellipsis_group;  /* index of the group holding `...`, or -1 */
} lt__ast_side;

typedef struct lt__ast {
  char text[LT__PATTERN_MAX + 1];
  int len;
  lt__ast_side left, right;
} lt__ast;

/* Tokens of one side. */
typedef enum lt__token_kind { LT__TOK_WORD, LT__TOK_OPEN, LT__TOK_CLOSE, LT__TOK_ELLIPSIS, LT__TOK_END } lt__token_kind;
typedef struct lt__token {
  lt__token_kind kind;
  int pos, len;
} lt__token;

/* The lexer, on demand: the parser pulls one token at a time, so faults
 * are reported in the order einops meets them scanning left to right. */
typedef struct lt__lexer {
  const char *text;
  int pos, end;
} lt__lexer;
/* Starts on text[begin, end), first checking einops' side-level rule that
 * dots appear only as one `...`. False with *err set. */
bool lt__lex_begin(lt__lexer *lx, const char *text, int begin, int end, lt__pattern_error *err);
/* The next token (LT__TOK_END at the end). False with *err set. */
bool lt__lex_next(lt__lexer *lx, lt__token *t, lt__pattern_error *err);
/* True when the last token ended the side (no separator after it). */
bool lt__lex_at_end(const lt__lexer *lx);

/* The parser: pattern -> AST, checking syntax, identifiers and duplicate
 * names (the first of einops' checks). False with *err set. */
bool lt__parse_pattern(const char *pattern, lt__ast *ast, lt__pattern_error *err);

/* True when s[0..len) is a valid axis name: a Python identifier (bytes >=
 * 0x80 count as letters) that neither starts nor ends with '_'. */
bool lt__axis_name_valid(const char *s, int len);

/* What a pattern is used for: each op has its own identifier rules. */
typedef enum lt__pattern_op { LT__OP_REARRANGE, LT__OP_REPEAT, LT__OP_REDUCE } lt__pattern_op;

/* einops' shape-independent checks after parsing (ellipsis placement and
 * each op's identifier rules), in einops' order. False with *err set. */
bool lt__check_ast(const lt__ast *ast, lt__pattern_op op, lt__pattern_error *err);

/* True when axis a of side s and axis b of side t are the same named axis
 * (or both the ellipsis). Anonymous axes are never the same. */
bool lt__same_axis(const lt__ast *ast, const lt__ast_axis *a, const lt__ast_axis *b);

/* Sets *err and returns false: a helper for both parser and planner. */
bool lt__pattern_fail(lt__pattern_error *err, lt_status st, int pos, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#endif
