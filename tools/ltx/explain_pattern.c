/* ltx explain for einops patterns. lt_rearrange splits its input into the
 * elementary axes (always a view), permutes them (a view), and merges them
 * into the output (a view when the merged axes lie contiguously, else the
 * one copy). ltx shows those three steps, each written as a pattern of its
 * own and run through lt_rearrange, then the whole pattern in one call.
 * Only the pattern's text is taken apart here; what is a view and what
 * copies is always the library's answer. */
#include <stdio.h>
#include <string.h>

#include "explain.h"

#define SIDE 512

/* The axes of one side without parentheses or unit axes ("1", "()"):
 * "b (h d) 1" gives "b h d". *plain says whether side had none of them.
 * False for numeric axes other than 1 (left to the one-call result). */
static bool elementary(const char *side, char *flat, size_t n, bool *plain) {
  size_t len = 0;
  *plain = true;
  flat[0] = '\0';
  for (const char *p = side; *p;) {
    if (*p == ' ' || *p == '\t') {
      p++;
      continue;
    }
    if (*p == '(' || *p == ')') {
      *plain = false, p++;
      continue;
    }
    size_t k = strcspn(p, " \t()");
    if (k == 1 && *p == '1') *plain = false;
    else if (*p >= '0' && *p <= '9') return false;
    else len += (size_t)snprintf(flat + len, len < n ? n - len : 0, "%s%.*s", len ? " " : "", (int)k, p);
    p += k;
  }
  return len < n;
}

/* Drops leading and trailing blanks, in place. */
static void trim(char *s) {
  size_t lead = strspn(s, " \t"), len = strlen(s);
  while (len > lead && (s[len - 1] == ' ' || s[len - 1] == '\t')) len--;
  memmove(s, s + lead, len - lead);
  s[len - lead] = '\0';
}

typedef struct rearrange_args {
  const char *pattern;
  const lt_axis *axes;
  int naxes;
} rearrange_args;

static lt_tensor *rearrange(const lt_tensor *t, void *ctx) {
  const rearrange_args *r = ctx;
  return lt_rearrange(t, r->pattern, r->axes, r->naxes);
}

/* The split, permute and merge patterns of lhs -> rhs; an empty pattern
 * is a step with nothing to do. False when the pattern is not one these
 * steps can spell. */
static bool decompose(const char *pattern, char steps[3][2 * SIDE + 8]) {
  const char *arrow = strstr(pattern, "->");
  if (!arrow || strstr(arrow + 2, "->") || arrow - pattern >= SIDE || strlen(arrow + 2) >= SIDE) return false;
  char lhs[SIDE], rhs[SIDE], lflat[SIDE], rflat[SIDE];
  snprintf(lhs, sizeof lhs, "%.*s", (int)(arrow - pattern), pattern);
  snprintf(rhs, sizeof rhs, "%s", arrow + 2);
  trim(lhs), trim(rhs);
  bool lplain, rplain;
  if (!elementary(lhs, lflat, sizeof lflat, &lplain) || !elementary(rhs, rflat, sizeof rflat, &rplain))
    return false;
  steps[0][0] = steps[1][0] = steps[2][0] = '\0';
  if (!lplain) snprintf(steps[0], sizeof steps[0], "%s -> %s", lhs, lflat);
  if (strcmp(lflat, rflat)) snprintf(steps[1], sizeof steps[1], "%s -> %s", lflat, rflat);
  if (!rplain) snprintf(steps[2], sizeof steps[2], "%s -> %s", rflat, rhs);
  return (steps[0][0] != 0) + (steps[1][0] != 0) + (steps[2][0] != 0) >= 2;
}

/* Whether the steps run: split and permute as views, merge as a view or
 * refused only for wanting a copy. Run under LT_COPY_FORBID, so nothing
 * is copied and nothing counted. */
static bool steps_run(const lt_tensor *x, char steps[3][2 * SIDE + 8], const lt_axis *axes, int naxes) {
  lt_copy_policy policy = lt_set_copy_policy(LT_COPY_FORBID);
  lt_tensor *cur = lt_retain((lt_tensor *)x);
  bool ok = true;
  for (int i = 0; i < 3 && ok && cur; i++) {
    if (!steps[i][0]) continue;
    lt_tensor *next = lt_rearrange(cur, steps[i], i == 0 ? axes : NULL, i == 0 ? naxes : 0);
    ok = next || (i == 2 && lt_last_status() == LT_ERR_NOT_VIEWABLE);
    lt_release(cur);
    cur = next;
  }
  lt_release(cur);
  lt_set_copy_policy(policy);
  return ok;
}

/* "h=12 w=4" for the heading. */
static void axes_text(char *buf, size_t n, const lt_axis *axes, int naxes) {
  size_t len = 0;
  buf[0] = '\0';
  for (int i = 0; i < naxes && len < n; i++)
    len += (size_t)snprintf(buf + len, n - len, " %s=%lld", axes[i].name, (long long)axes[i].size);
}

int explain_pattern(const lt_tensor *x, const char *pattern, int naxes, const lt_axis *axes, explain_tally *tally) {
  static const char *const names[] = {"split", "permute", "merge"};
  static const char *const what[] = {"the input into its elementary axes", "the elementary axes into output order",
                                     "axes into the output's"};
  char steps[3][2 * SIDE + 8], lengths[256];
  axes_text(lengths, sizeof lengths, axes, naxes);
  if (decompose(pattern, steps) && steps_run(x, steps, axes, naxes)) {
    printf("'%s'%s, step by step as lt_rearrange takes it (each step one lt_rearrange call):\n", pattern, lengths);
    lt_tensor *cur = lt_retain((lt_tensor *)x);
    for (int i = 0; i < 3 && cur; i++) {
      if (!steps[i][0]) continue;
      printf("  %s %s:\n", names[i], what[i]);
      rearrange_args r = {steps[i], i == 0 ? axes : NULL, i == 0 ? naxes : 0};
      lt_tensor *next = explain_step("  ", steps[i], cur, rearrange, &r, NULL);
      lt_release(cur);
      cur = next;
    }
    lt_release(cur);
    printf("the whole pattern in one call:\n");
  }
  rearrange_args r = {pattern, axes, naxes};
  lt_release(explain_step("", pattern, x, rearrange, &r, tally));
  return 0;
}
