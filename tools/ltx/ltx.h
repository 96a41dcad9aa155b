/* ltx: a command-line tool on libtensor's public API that explains
 * layouts and copies, budgets training memory and compute, and measures
 * what access patterns cost. One entry point per subcommand. */
#ifndef LTX_H
#define LTX_H

#include <libtensor.h>

/* Runs "op args | op args | ..." on x, printing each step up to and
 * including one that fails (with the library's reason); returns 0, or 2
 * on a malformed chain. */
int ltx_explain_chain(lt_tensor *x, const char *chain);
/* Runs lt_rearrange(x, pattern, axes) and explains the outcome. */
int ltx_explain_pattern(lt_tensor *x, const char *pattern, int naxes, const lt_axis *axes);

/* Each subcommand's main: argv holds the arguments after its name;
 * returns the exit status (2 on a usage error). */
int ltx_budget(int argc, char **argv);

#endif
