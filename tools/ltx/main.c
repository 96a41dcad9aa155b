/* ltx: explain what views and copies do to a tensor, budget training,
 * measure what access patterns cost.
 *   ltx explain --shape 4,6 [--dtype f32] 'transpose 0 1 | view 24'
 *   ltx explain --shape 2,128,768 'b t (h d) -> b h t d' h=12
 *   ltx budget --params 70e9 --tokens 15e12 --gpus 1024 --gpu h100 --mfu 0.5
 *   ltx bench --svg access.svg */
#include <stdio.h>
#include <string.h>

#include "ltx.h"

static int usage(void) {
  fprintf(stderr,
          "usage: ltx explain --shape D0,D1,... [--dtype DT] 'view ops | ...' or 'einops pattern' [name=length ...]\n"
          "       ltx budget --params N --tokens D [--gpus G --gpu a100|h100|h200 --mfu X ...] [--json]\n"
          "       ltx bench [--size MIB] [--reps N] [--threads N] [--svg FILE] [--json]\n"
          "run a subcommand without arguments for its options\n");
  return 2;
}

int main(int argc, char **argv) {
  if (argc >= 2 && !strcmp(argv[1], "explain")) return ltx_explain(argc - 2, argv + 2);
  if (argc >= 2 && !strcmp(argv[1], "budget")) return ltx_budget(argc - 2, argv + 2);
  if (argc >= 2 && !strcmp(argv[1], "bench")) return ltx_bench(argc - 2, argv + 2);
  return usage();
}
