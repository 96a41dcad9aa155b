#define _POSIX_C_SOURCE 200809L
/* ltx explain: runs each step through the library itself and prints after
 * it the shape, strides, offset and contiguity, whether it was a view or a
 * copy (and the bytes copied, and why), and for a failing view the reason
 * and the alternatives, run too. It models nothing itself: every answer is
 * the library's. This file holds the step machinery and view-op chains. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "explain.h"

#define MAX_ARGS 20
#define TEXT 2048

double explain_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void explain_row(const char *indent, const char *label, const char *text) {
  int w = EXPLAIN_LABEL_WIDTH - (int)strlen(indent);
  if ((int)strlen(label) >= w) printf("%s%s\n%s%-*s", indent, label, indent, w, "");
  else printf("%s%-*s", indent, w, label);
  for (const char *line = text; *line;) {
    size_t len = strcspn(line, "\n");
    printf("%.*s\n", (int)len, line);
    line += len;
    if (*line == '\n' && *++line) printf("%s%-*s", indent, w, "");
  }
}

/* Appends printf-style text to buf (n bytes), cutting what does not fit. */
static void append(char *buf, size_t n, const char *fmt, ...) {
  size_t used = strlen(buf);
  va_list ap;
  va_start(ap, fmt);
  if (used + 1 < n) vsnprintf(buf + used, n - used, fmt, ap);
  va_end(ap);
}

lt_tensor *explain_step(const char *indent, const char *label, const lt_tensor *t, explain_op op, void *ctx,
                        explain_tally *tally) {
  char text[TEXT], why[1024] = "";
  double t0 = explain_now();
  lt_stats before = lt_stats_get(LT_HOST);
  lt_copy_policy policy = lt_set_copy_policy(LT_COPY_FORBID);
  lt_tensor *out = op(t, ctx);
  lt_set_copy_policy(policy);
  if (!out && lt_last_status() == LT_ERR_NOT_VIEWABLE) {
    /* Refused only because it would copy, or not viewable at all: asking
     * again with copies allowed tells which. */
    snprintf(why, sizeof why, "%s", lt_last_error());
    out = op(t, ctx);
  }
  double seconds = explain_now() - t0;
  if (!out) {
    snprintf(text, sizeof text, "FAILS: %s\n%s", lt_status_str(lt_last_status()), lt_last_error());
    explain_row(indent, label, text);
    if (tally) tally->steps++, tally->failed++;
    return NULL;
  }
  lt_stats after = lt_stats_get(LT_HOST);
  lt_describe(out, text, sizeof text);
  long long copied = (long long)(after.bytes_copied - before.bytes_copied);
  bool copy = after.copies != before.copies, implicit = after.implicit_copies != before.implicit_copies;
  if (!copy && out == t) append(text, sizeof text, "\nsame tensor: already contiguous, moved 0 bytes");
  else if (!copy) append(text, sizeof text, "\nview: shares storage, moved 0 bytes");
  else append(text, sizeof text, "\nCOPY: %s, wrote %lld bytes into new storage",
              implicit ? "implicit (no view could express it)" : "explicit (asked for)", copied);
  if (implicit && why[0]) append(text, sizeof text, "\nwhy (run under LT_COPY_FORBID it fails): %s", why);
  if (seconds > 1) append(text, sizeof text, "\ntook %.2f s", seconds);
  explain_row(indent, label, text);
  if (tally) {
    tally->steps++;
    if (copy) tally->copies++, tally->bytes += copied;
    else tally->views++;
  }
  return out;
}

/* ---- chains of view ops ---------------------------------------------------- */

typedef struct chain_op {
  char name[32];
  int n;
  int64_t a[MAX_ARGS];
} chain_op;

/* Argument counts each op takes; -1 in max means "the tensor's ndim". */
static const struct {
  const char *name;
  int min, max;
} known[] = {
    {"view", 0, MAX_ARGS},   {"reshape", 0, MAX_ARGS}, {"expand", 0, MAX_ARGS}, {"transpose", 2, 2},
    {"permute", -1, -1},     {"movedim", 2, 2},        {"slice", 3, 4},         {"select", 2, 2},
    {"narrow", 3, 3},        {"squeeze", 0, 1},        {"unsqueeze", 1, 1},     {"flatten", 0, 2},
    {"diagonal", 0, 3},      {"contiguous", 0, 0},     {"clone", 0, 0},
};

static bool valid(const chain_op *c, int ndim) {
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
    if (strcmp(known[i].name, c->name)) continue;
    int lo = known[i].min < 0 ? ndim : known[i].min, hi = known[i].max < 0 ? ndim : known[i].max;
    for (int k = 0; k < c->n; k++) /* '_' (an omitted bound) is for slice only */
      if (c->a[k] == LT_NONE && strcmp(c->name, "slice")) return false;
    return c->n >= lo && c->n <= hi;
  }
  return false;
}

/* A dim argument as the library's int; out of range stays out of range. */
static int dim(int64_t v) { return v > INT_MAX ? INT_MAX : v < INT_MIN ? INT_MIN : (int)v; }

static lt_tensor *apply(const lt_tensor *t, void *ctx) {
  const chain_op *c = ctx;
  const int64_t *a = c->a;
  int n = c->n, d[MAX_ARGS];
  for (int i = 0; i < n; i++) d[i] = dim(a[i]);
  const char *op = c->name;
  if (!strcmp(op, "view")) return lt_view(t, n, a);
  if (!strcmp(op, "reshape")) return lt_reshape(t, n, a);
  if (!strcmp(op, "expand")) return lt_expand(t, n, a);
  if (!strcmp(op, "transpose")) return lt_transpose(t, d[0], d[1]);
  if (!strcmp(op, "permute")) return lt_permute(t, d);
  if (!strcmp(op, "movedim")) return lt_movedim(t, d[0], d[1]);
  if (!strcmp(op, "slice")) return lt_slice(t, d[0], a[1], a[2], n == 4 ? a[3] : 1);
  if (!strcmp(op, "select")) return lt_select(t, d[0], a[1]);
  if (!strcmp(op, "narrow")) return lt_narrow(t, d[0], a[1], a[2]);
  if (!strcmp(op, "squeeze")) return n ? lt_squeeze(t, d[0]) : lt_squeeze_all(t);
  if (!strcmp(op, "unsqueeze")) return lt_unsqueeze(t, d[0]);
  if (!strcmp(op, "flatten")) return lt_flatten(t, n > 0 ? d[0] : 0, n > 1 ? d[1] : -1);
  if (!strcmp(op, "diagonal")) return lt_diagonal(t, n > 0 ? a[0] : 0, n > 1 ? d[1] : 0, n > 2 ? d[2] : 1);
  if (!strcmp(op, "contiguous")) return lt_contiguous(t);
  return lt_clone(t);
}

/* "op 1 2 _" into c; false unless every argument is an integer or '_'. */
static bool parse_op(const char *step, chain_op *c) {
  char buf[512];
  snprintf(buf, sizeof buf, "%s", step);
  char *save = NULL, *tok = strtok_r(buf, " \t", &save);
  *c = (chain_op){0};
  if (!tok) return false;
  snprintf(c->name, sizeof c->name, "%s", tok);
  while ((tok = strtok_r(NULL, " \t", &save))) {
    if (c->n == MAX_ARGS) return false;
    char *end;
    c->a[c->n] = !strcmp(tok, "_") ? LT_NONE : strtoll(tok, &end, 10);
    if (strcmp(tok, "_") && (end == tok || *end)) return false;
    c->n++;
  }
  return true;
}

/* "name a0 a1 ..." into label (n bytes). */
static void op_label(char *label, size_t n, const char *name, const chain_op *c) {
  size_t len = (size_t)snprintf(label, n, "%s", name);
  for (int i = 0; i < c->n && len < n; i++)
    len += (size_t)snprintf(label + len, n - len, " %lld", (long long)c->a[i]);
}

/* After a view that cannot be expressed: the two ways out, run on the
 * same tensor, so the bytes they would move are the library's. */
static void show_alternatives(const lt_tensor *t, const chain_op *view) {
  char label[256];
  chain_op reshape = *view, contiguous = {.name = "contiguous"};
  snprintf(reshape.name, sizeof reshape.name, "reshape");
  printf("%-*salternatives, run on the tensor before this step:\n", EXPLAIN_LABEL_WIDTH, "");
  op_label(label, sizeof label, "reshape", view);
  lt_release(explain_step("    ", label, t, apply, &reshape, NULL));
  lt_tensor *c = explain_step("    ", "contiguous", t, apply, &contiguous, NULL);
  if (c) {
    op_label(label, sizeof label, "| view", view);
    lt_release(explain_step("    ", label, c, apply, (void *)view, NULL));
  }
  lt_release(c);
}

int explain_chain(const lt_tensor *x, const char *chain, explain_tally *tally) {
  char *steps = strdup(chain);
  if (!steps) return fprintf(stderr, "ltx explain: out of memory\n"), 1;
  int status = 0;
  lt_tensor *cur = lt_retain((lt_tensor *)x);
  for (char *save = NULL, *step = strtok_r(steps, "|", &save); step; step = strtok_r(NULL, "|", &save)) {
    while (*step == ' ' || *step == '\t') step++;
    for (size_t i = strlen(step); i > 0 && (step[i - 1] == ' ' || step[i - 1] == '\t'); i--) step[i - 1] = '\0';
    chain_op c;
    if (!parse_op(step, &c) || !valid(&c, lt_ndim(cur))) {
      fprintf(stderr, "ltx explain: '%s': unknown op, wrong number of arguments, or not integers\n", step);
      status = 2;
      break;
    }
    lt_tensor *next = explain_step("", step, cur, apply, &c, tally);
    if (!next) { /* explained, which is what was asked: not an error of ltx */
      if (!strcmp(c.name, "view") && lt_last_status() == LT_ERR_NOT_VIEWABLE) show_alternatives(cur, &c);
      char *rest = strtok_r(NULL, "", &save);
      if (rest) printf("%-*s(the steps after this one did not run:%s)\n", EXPLAIN_LABEL_WIDTH, "", rest);
      break;
    }
    lt_release(cur);
    cur = next;
  }
  lt_release(cur);
  free(steps);
  return status;
}
