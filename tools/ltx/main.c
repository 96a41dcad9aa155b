/* ltx: explain what views and copies do to a tensor, budget training.
 *   ltx explain --shape 4,6 [--dtype f32] 'transpose 0 1 | view 24'
 *   ltx explain --shape 2,128,768 'b t (h d) -> b h t d' h=12
 *   ltx budget --params 70e9 --tokens 15e12 --gpus 1024 --gpu h100 --mfu 0.5 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltx.h"

static int usage(void) {
  fprintf(stderr,
          "usage: ltx explain --shape D0,D1,... [--dtype f32|f16|bf16|f8_e4m3|f8_e5m2|f64|i32|i64|u8|bool]\n"
          "                   'op args | op args ...'      (view, reshape, transpose, permute, movedim, slice,\n"
          "                                                  select, narrow, expand, squeeze, unsqueeze, flatten,\n"
          "                                                  diagonal, contiguous, clone)\n"
          "       ltx explain --shape D0,D1,... 'einops pattern' [name=length ...]\n"
          "       ltx budget --params N --tokens D [--gpus G --gpu a100|h100|h200 --mfu X ...]  (ltx budget --help)\n");
  return 2;
}

static int parse_shape(const char *s, int64_t *shape) {
  int n = 0;
  while (*s && n < LT_MAX_DIMS) {
    char *end;
    shape[n++] = strtoll(s, &end, 10);
    if (end == s || (*end && *end != ',')) return -1;
    s = *end ? end + 1 : end;
  }
  return *s ? -1 : n;
}

static int parse_dtype(const char *name, lt_dtype *dt) {
  for (int d = 0; d < LT_NUM_DTYPES; d++)
    if (!strcmp(lt_dtype_name((lt_dtype)d), name)) return *dt = (lt_dtype)d, 0;
  return -1;
}

static int explain(int argc, char **argv) {
  int64_t shape[LT_MAX_DIMS];
  int ndim = -1;
  lt_dtype dt = LT_F32;
  const char *what = NULL;
  lt_axis axes[LT_MAX_DIMS];
  char names[LT_MAX_DIMS][64];
  int naxes = 0;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--shape") && i + 1 < argc) ndim = parse_shape(argv[++i], shape);
    else if (!strcmp(argv[i], "--dtype") && i + 1 < argc) {
      if (parse_dtype(argv[++i], &dt)) return fprintf(stderr, "ltx: unknown dtype '%s'\n", argv[i]), 2;
    } else if (!what) what = argv[i];
    else if (strchr(argv[i], '=') && naxes < LT_MAX_DIMS) {
      snprintf(names[naxes], sizeof names[naxes], "%.*s", (int)(strchr(argv[i], '=') - argv[i]), argv[i]);
      axes[naxes] = (lt_axis){names[naxes], strtoll(strchr(argv[i], '=') + 1, NULL, 10)};
      naxes++;
    } else return usage();
  }
  if (ndim < 0 || !what) return usage();
  lt_tensor *x = lt_zeros(dt, ndim, shape, LT_HOST);
  if (!x) return fprintf(stderr, "ltx: %s\n", lt_last_error()), 2;
  char d[256];
  lt_describe(x, d, sizeof d);
  printf("input  %s\n", d);
  int rc = strstr(what, "->") ? ltx_explain_pattern(x, what, naxes, axes) : ltx_explain_chain(x, what);
  lt_release(x);
  lt_pattern_cache_clear();
  return rc;
}

int main(int argc, char **argv) {
  if (argc >= 2 && !strcmp(argv[1], "explain")) return explain(argc - 2, argv + 2);
  if (argc >= 2 && !strcmp(argv[1], "budget")) return ltx_budget(argc - 2, argv + 2);
  return usage();
}
