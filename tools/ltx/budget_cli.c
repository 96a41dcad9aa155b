/* ltx budget's command line: flags to a budget_input, then the report. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "budget_report.h"
#include "ltx.h"

static int usage(void) {
  int n;
  const budget_gpu *g = budget_gpus(&n);
  fprintf(stderr,
          "usage: ltx budget (--params N | --layers L --d-model H --vocab V [--seq S]) --tokens D\n"
          "                  [--gpus G] [--gpu NAME] [--peak FLOP/s] [--gpu-mem GB] [--mfu X]\n"
          "                  [--precision fp32|bf16|fp8] [--optimizer adamw|sgd]\n"
          "                  [--sharding none|zero1|zero2|zero3 | --zero 0..3]\n"
          "                  [--micro-batch B] [--seq S] [--heads A] [--recompute none|selective|full] [--json]\n"
          "  numbers take exponents: --params 70e9 --tokens 15e12\n"
          "  defaults: --gpus 1 --gpu h100 --mfu 0.4 --precision bf16 --optimizer adamw --sharding none\n"
          "            --micro-batch 1 --seq 2048 --heads d_model/64 --recompute none\n"
          "  GPU presets (dense BF16 peak, memory):");
  for (int i = 0; i < n; i++) fprintf(stderr, " %s (%g TFLOP/s, %g GB)%s", g[i].name, g[i].peak_flops / 1e12,
                                      g[i].memory / 1e9, i + 1 < n ? "," : "\n");
  return 2;
}

/* A number, exponents allowed; false unless all of s is one. */
static bool number(const char *s, double *v) {
  char *end;
  *v = strtod(s, &end);
  return end != s && *end == '\0' && isfinite(*v);
}

static bool integer(const char *s, int64_t *v) {
  double d;
  if (!number(s, &d) || d != floor(d) || fabs(d) > 9e15) return false;
  *v = (int64_t)d;
  return true;
}

/* Index of s in names (n of them), or -1. */
static int choice(const char *s, const char *const *names, int n) {
  for (int i = 0; i < n; i++)
    if (!strcmp(s, names[i])) return i;
  return -1;
}

typedef struct cli {
  budget_input in;
  const budget_gpu *gpu; /* the preset: its peak and memory unless given */
  double peak, memory_gb; /* 0 = the preset's */
  bool json;
} cli;

/* Applies one flag and its value; false when either is wrong. */
static bool apply(cli *c, const char *flag, const char *val) {
  static const char *const prec[] = {"fp32", "bf16", "fp8"}, *const opt[] = {"adamw", "sgd"},
                           *const shard[] = {"none", "zero1", "zero2", "zero3"},
                           *const rec[] = {"none", "selective", "full"};
  budget_input *in = &c->in;
  int k;
  if (!strcmp(flag, "params")) return number(val, &in->params) && in->params > 0;
  if (!strcmp(flag, "tokens")) return number(val, &in->tokens);
  if (!strcmp(flag, "gpus")) return integer(val, &in->gpus);
  if (!strcmp(flag, "mfu")) return number(val, &in->mfu);
  if (!strcmp(flag, "layers")) return integer(val, &in->layers);
  if (!strcmp(flag, "d-model")) return integer(val, &in->d_model);
  if (!strcmp(flag, "heads")) return integer(val, &in->heads) && in->heads > 0;
  if (!strcmp(flag, "vocab")) return integer(val, &in->vocab);
  if (!strcmp(flag, "seq")) return integer(val, &in->seq);
  if (!strcmp(flag, "micro-batch")) return integer(val, &in->micro_batch);
  if (!strcmp(flag, "peak")) return number(val, &c->peak) && c->peak > 0;
  if (!strcmp(flag, "gpu-mem")) return number(val, &c->memory_gb) && c->memory_gb > 0;
  if (!strcmp(flag, "gpu")) return (c->gpu = budget_gpu_find(val)) != NULL;
  if (!strcmp(flag, "zero")) {
    int64_t z;
    return integer(val, &z) && z >= 0 && z <= 3 && (in->zero = (int)z, true);
  }
  if (!strcmp(flag, "precision")) return (k = choice(val, prec, 3)) >= 0 && (in->precision = (budget_precision)k, true);
  if (!strcmp(flag, "optimizer")) return (k = choice(val, opt, 2)) >= 0 && (in->optimizer = (budget_optimizer)k, true);
  if (!strcmp(flag, "sharding")) return (k = choice(val, shard, 4)) >= 0 && (in->zero = k, true);
  if (!strcmp(flag, "recompute")) return (k = choice(val, rec, 3)) >= 0 && (in->recompute = (budget_recompute)k, true);
  return false;
}

int ltx_budget(int argc, char **argv) {
  cli c = {.in = {.gpus = 1, .mfu = 0.4, .precision = BUDGET_BF16, .optimizer = BUDGET_ADAMW,
                  .micro_batch = 1, .seq = 2048},
           .gpu = budget_gpu_find("h100")};
  if (argc == 0) return usage();
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--json")) {
      c.json = true;
      continue;
    }
    if (strncmp(argv[i], "--", 2)) return usage();
    char flag[32];
    const char *eq = strchr(argv[i], '='), *val;
    if (eq) snprintf(flag, sizeof flag, "%.*s", (int)(eq - argv[i] - 2), argv[i] + 2), val = eq + 1;
    else if (i + 1 < argc) snprintf(flag, sizeof flag, "%s", argv[i] + 2), val = argv[++i];
    else return usage();
    if (!apply(&c, flag, val)) {
      fprintf(stderr, "ltx budget: bad value '%s' for --%s\n", val, flag);
      return usage();
    }
  }
  c.in.peak_flops = c.peak > 0 ? c.peak : c.gpu->peak_flops;
  c.in.gpu_memory = c.memory_gb > 0 ? c.memory_gb * 1e9 : c.gpu->memory;
  budget_result r;
  char err[256];
  if (budget_compute(&c.in, &r, err, sizeof err)) {
    fprintf(stderr, "ltx budget: %s\n", err);
    return 2;
  }
  if (c.json) budget_print_json(stdout, &c.in, &r, c.gpu->name);
  else budget_print_text(stdout, &c.in, &r, c.gpu->label, c.peak > 0 ? "from --peak" : "BF16 dense");
  return 0;
}
