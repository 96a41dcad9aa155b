#define _POSIX_C_SOURCE 200809L
/* ltx explain: runs a chain of view ops (or an einops pattern) on a tensor
 * of a given shape through the library itself, and prints after each step
 * the shape, strides, offset and contiguity, whether it was a view or a
 * copy (and the bytes copied), and for a failing view the reason and the
 * alternatives. It models nothing itself: every answer is the library's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltx.h"

#define MAX_ARGS 20

/* Whitespace-separated integers after the op name; returns how many. */
static int parse_ints(char *rest, int64_t *out) {
  int n = 0;
  char *save = NULL;
  for (char *tok = strtok_r(rest, " \t", &save); tok && n < MAX_ARGS; tok = strtok_r(NULL, " \t", &save)) {
    char *end;
    out[n++] = strtoll(tok, &end, 10);
    if (*end) return -1;
  }
  return n;
}

/* Applies one named op with its integer arguments. */
static lt_tensor *apply(const lt_tensor *t, const char *op, int n, const int64_t *a) {
  int d[MAX_ARGS];
  for (int i = 0; i < n; i++) d[i] = (int)a[i];
  if (!strcmp(op, "view")) return lt_view(t, n, a);
  if (!strcmp(op, "reshape")) return lt_reshape(t, n, a);
  if (!strcmp(op, "transpose") && n == 2) return lt_transpose(t, d[0], d[1]);
  if (!strcmp(op, "permute") && n == lt_ndim(t)) return lt_permute(t, d);
  if (!strcmp(op, "movedim") && n == 2) return lt_movedim(t, d[0], d[1]);
  if (!strcmp(op, "slice") && (n == 3 || n == 4)) return lt_slice(t, d[0], a[1], a[2], n == 4 ? a[3] : 1);
  if (!strcmp(op, "select") && n == 2) return lt_select(t, d[0], a[1]);
  if (!strcmp(op, "narrow") && n == 3) return lt_narrow(t, d[0], a[1], a[2]);
  if (!strcmp(op, "expand")) return lt_expand(t, n, a);
  if (!strcmp(op, "squeeze") && n == 1) return lt_squeeze(t, d[0]);
  if (!strcmp(op, "squeeze") && n == 0) return lt_squeeze_all(t);
  if (!strcmp(op, "unsqueeze") && n == 1) return lt_unsqueeze(t, d[0]);
  if (!strcmp(op, "flatten") && n == 2) return lt_flatten(t, d[0], d[1]);
  if (!strcmp(op, "flatten") && n == 0) return lt_flatten(t, 0, -1);
  if (!strcmp(op, "diagonal") && n == 3) return lt_diagonal(t, a[0], d[1], d[2]);
  if (!strcmp(op, "contiguous") && n == 0) return lt_contiguous(t);
  if (!strcmp(op, "clone") && n == 0) return lt_clone(t);
  fprintf(stderr, "ltx explain: unknown op or wrong arguments: '%s' with %d numbers\n", op, n);
  return NULL;
}

/* What the step cost, from the library's own counters. */
static void report_step(const char *step, const lt_tensor *out, lt_stats before) {
  char d[256];
  lt_stats after = lt_stats_get(LT_HOST);
  lt_describe(out, d, sizeof d);
  int64_t copied = after.bytes_copied - before.bytes_copied;
  if (after.copies == before.copies)
    printf("  %-28s %s\n  %-28s view: shares storage, moved 0 bytes\n", step, d, "");
  else
    printf("  %-28s %s\n  %-28s COPY: %s, wrote %lld bytes into new storage\n", step, d, "",
           after.implicit_copies > before.implicit_copies ? "implicit (no view could express it)" : "explicit",
           (long long)copied);
}

static void explain_failure(const char *step) {
  char msg[1024];
  snprintf(msg, sizeof msg, "%s", lt_last_error());
  printf("  %-28s FAILS: %s\n  %-28s %s\n", step, lt_status_str(lt_last_status()), "", msg);
}

int ltx_explain_chain(lt_tensor *x, const char *chain) {
  char *copy = strdup(chain);
  int status = 0;
  lt_tensor *cur = lt_retain(x);
  for (char *save = NULL, *step = strtok_r(copy, "|", &save); step; step = strtok_r(NULL, "|", &save)) {
    while (*step == ' ') step++;
    char label[64], op[32];
    snprintf(label, sizeof label, "%s", step);
    for (size_t i = strlen(label); i > 0 && label[i - 1] == ' '; i--) label[i - 1] = '\0';
    int64_t a[MAX_ARGS];
    char *rest = step + strcspn(step, " ");
    snprintf(op, sizeof op, "%.*s", (int)(rest - step), step);
    char args[256];
    snprintf(args, sizeof args, "%s", rest);
    int n = parse_ints(args, a);
    if (n < 0) {
      fprintf(stderr, "ltx explain: '%s': arguments must be integers\n", step);
      status = 2;
      break;
    }
    lt_stats before = lt_stats_get(LT_HOST);
    lt_tensor *next = apply(cur, op, n, a);
    if (!next) { /* explained, which is what was asked: not an error of ltx */
      explain_failure(label);
      break;
    }
    report_step(label, next, before);
    lt_release(cur);
    cur = next;
  }
  lt_release(cur);
  free(copy);
  return status;
}

int ltx_explain_pattern(lt_tensor *x, const char *pattern, int naxes, const lt_axis *axes) {
  lt_stats before = lt_stats_get(LT_HOST);
  lt_tensor *r = lt_rearrange(x, pattern, axes, naxes);
  if (!r) {
    explain_failure(pattern);
    return 0;
  }
  report_step(pattern, r, before);
  lt_release(r);
  return 0;
}
