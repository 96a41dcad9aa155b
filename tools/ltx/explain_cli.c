/* ltx explain's command line: the input tensor from --shape and --dtype,
 * then a chain of view ops or an einops pattern, then a summary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "ltx.h"

static int usage(void) {
  fprintf(stderr,
          "usage: ltx explain --shape D0,D1,... [--dtype f32|f16|bf16|f8_e4m3|f8_e5m2|f64|i32|i64|u8|bool]\n"
          "                   'op args | op args ...'\n"
          "         ops: view S.., reshape S.., expand S.., transpose d0 d1, permute d.., movedim src dst,\n"
          "              slice dim start stop [step] (_ for an omitted bound), select dim i, narrow dim start len,\n"
          "              squeeze [dim], unsqueeze dim, flatten [start [end]], diagonal [offset [d1 [d2]]],\n"
          "              contiguous, clone\n"
          "       ltx explain --shape D0,D1,... [--dtype ...] 'einops pattern' [name=length ...]\n"
          "  e.g. ltx explain --shape 4,6 'transpose 0 1 | view 24'\n"
          "       ltx explain --shape 2,128,768 'b t (h d) -> b h t d' h=12\n");
  return 2;
}

static int parse_shape(const char *s, int64_t *shape) {
  int n = 0;
  while (*s) {
    char *end;
    if (n == LT_MAX_DIMS) return -1;
    shape[n++] = strtoll(s, &end, 10);
    if (end == s || (*end && *end != ',')) return -1;
    s = *end ? end + 1 : end;
  }
  return n;
}

static int parse_dtype(const char *name, lt_dtype *dt) {
  for (int d = 0; d < LT_NUM_DTYPES; d++)
    if (!strcmp(lt_dtype_name((lt_dtype)d), name)) return *dt = (lt_dtype)d, 0;
  return -1;
}

/* "name=length" into axes[*n], name kept in names[*n]; false if malformed. */
static bool parse_axis(const char *arg, lt_axis *axes, char (*names)[64], int *n) {
  const char *eq = strchr(arg, '=');
  if (!eq || eq == arg || eq - arg >= 64 || *n == LT_MAX_DIMS) return false;
  char *end;
  long long v = strtoll(eq + 1, &end, 10);
  if (end == eq + 1 || *end) return false;
  snprintf(names[*n], 64, "%.*s", (int)(eq - arg), arg);
  axes[*n] = (lt_axis){names[*n], v};
  (*n)++;
  return true;
}

static void summary(const explain_tally *t) {
  printf("summary: %d step%s: %d view%s (0 bytes moved), %d cop%s (%lld bytes written)%s\n", t->steps,
         t->steps == 1 ? "" : "s", t->views, t->views == 1 ? "" : "s", t->copies, t->copies == 1 ? "y" : "ies",
         (long long)t->bytes, t->failed ? ", 1 failed" : "");
}

int ltx_explain(int argc, char **argv) {
  int64_t shape[LT_MAX_DIMS];
  int ndim = -1, naxes = 0;
  lt_dtype dt = LT_F32;
  const char *what = NULL;
  lt_axis axes[LT_MAX_DIMS];
  char names[LT_MAX_DIMS][64];
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--shape") && i + 1 < argc) {
      if ((ndim = parse_shape(argv[++i], shape)) < 0) return fprintf(stderr, "ltx: bad shape '%s'\n", argv[i]), 2;
    } else if (!strcmp(argv[i], "--dtype") && i + 1 < argc) {
      if (parse_dtype(argv[++i], &dt)) return fprintf(stderr, "ltx: unknown dtype '%s'\n", argv[i]), 2;
    } else if (!what && strncmp(argv[i], "--", 2)) {
      what = argv[i];
    } else if (!what || !parse_axis(argv[i], axes, names, &naxes)) {
      return usage();
    }
  }
  if (ndim < 0 || !what) return usage();
  if (naxes && !strstr(what, "->")) return fprintf(stderr, "ltx: name=length goes with an einops pattern\n"), 2;
  double t0 = explain_now();
  lt_tensor *x = lt_zeros(dt, ndim, shape, LT_HOST);
  if (!x) return fprintf(stderr, "ltx: %s\n", lt_last_error()), 2;
  if (explain_now() - t0 > 1) printf("(allocating the input took %.2f s)\n", explain_now() - t0);
  printf("ltx explain: %s, %zu byte%s per element; shapes, strides and offsets count elements\n",
         lt_dtype_name(dt), lt_dtype_size(dt), lt_dtype_size(dt) == 1 ? "" : "s");
  char d[1024];
  lt_describe(x, d, sizeof d);
  explain_row("", "input", d);
  explain_tally tally = {0};
  int rc = strstr(what, "->") ? explain_pattern(x, what, naxes, axes, &tally) : explain_chain(x, what, &tally);
  if (rc == 0) summary(&tally);
  lt_release(x);
  lt_pattern_cache_clear();
  return rc;
}
