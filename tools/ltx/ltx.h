/* ltx: a command-line tool on libtensor's public API that explains
 * layouts and copies, budgets training memory and compute, and measures
 * what access patterns cost. One entry point per subcommand. */
#ifndef LTX_H
#define LTX_H

#include <libtensor.h>

/* Each subcommand's main: argv holds the arguments after its name;
 * returns the exit status (2 on a usage error). */
int ltx_explain(int argc, char **argv);
int ltx_budget(int argc, char **argv);
int ltx_bench(int argc, char **argv);

#endif
