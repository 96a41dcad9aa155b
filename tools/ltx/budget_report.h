/* ltx budget's two outputs: the arithmetic as text, and JSON. */
#ifndef LTX_BUDGET_REPORT_H
#define LTX_BUDGET_REPORT_H

#include <stdio.h>

#include "budget.h"

/* Every step of r's arithmetic from in's numbers; gpu_label names the
 * GPU, peak_source says where its peak came from ("BF16 dense"). */
void budget_print_text(FILE *f, const budget_input *in, const budget_result *r, const char *gpu_label,
                       const char *peak_source);
/* One JSON object on one line: the inputs, then flops, days,
 * bytes_per_param and the rest (null where the inputs do not say). */
void budget_print_json(FILE *f, const budget_input *in, const budget_result *r, const char *gpu_name);

#endif
