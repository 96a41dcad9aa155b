/* ltx explain's step machinery, shared by chains of view ops and einops
 * patterns: run one step through the library, print what it did. */
#ifndef LTX_EXPLAIN_H
#define LTX_EXPLAIN_H

#include <libtensor.h>
#include <stdbool.h>

/* Width of the label column; longer labels get a line of their own. */
#define EXPLAIN_LABEL_WIDTH 30

/* What the counted steps did. */
typedef struct explain_tally {
  int steps, views, copies, failed;
  int64_t bytes;
} explain_tally;

/* One step: returns op's new tensor, or NULL with the library's error set. */
typedef lt_tensor *(*explain_op)(const lt_tensor *t, void *ctx);

/* Runs op on t and prints a row: label, the result's dtype, shape,
 * strides, offset and contiguity, then whether it is a view or a copy and
 * the bytes copied (from lt_stats), and for a copy the reason (for an
 * implicit copy, the library's own: the step is first run under
 * LT_COPY_FORBID, which refuses it and says why). A failure prints the
 * status and the library's message. indent prefixes every line; tally
 * (may be NULL) counts the step. Returns the result, or NULL. */
lt_tensor *explain_step(const char *indent, const char *label, const lt_tensor *t, explain_op op, void *ctx,
                        explain_tally *tally);

/* Prints label in the label column and text beside it; every line of a
 * multi-line text is indented alike (so a caret under a pattern stays
 * under its column). */
void explain_row(const char *indent, const char *label, const char *text);

/* Seconds on a monotonic clock. */
double explain_now(void);

/* Runs "op args | op args | ..." on x (view, reshape, transpose, permute,
 * ...), printing each step up to and including one that fails; after a
 * view that fails, the alternatives run on the same tensor. Returns 0, or
 * 2 on a malformed chain (unknown op, wrong arguments). */
int explain_chain(const lt_tensor *x, const char *chain, explain_tally *tally);

/* Runs lt_rearrange(x, pattern, axes): first the steps the library takes
 * (split the input into its elementary axes, permute them, merge them
 * into the output), each as its own lt_rearrange call, then the whole
 * pattern in one call. Returns 0. */
int explain_pattern(const lt_tensor *x, const char *pattern, int naxes, const lt_axis *axes, explain_tally *tally);

#endif
