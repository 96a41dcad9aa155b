/* ltx budget: the arithmetic (see budget.h). Every figure the report
 * prints is computed here, once, so the text, the JSON and the tests agree. */
#include "budget.h"

#include <stdio.h>
#include <strings.h>

/* Dense BF16 tensor-core peaks from the vendor's data sheets (SXM parts;
 * the sheets' larger figures assume 2:4 sparsity). */
static const budget_gpu gpus[] = {
    {"a100", "A100 SXM 80GB", 312e12, 80e9},
    {"h100", "H100 SXM", 989e12, 80e9},
    {"h200", "H200 SXM", 989e12, 141e9},
};

const budget_gpu *budget_gpus(int *n) {
  *n = (int)(sizeof gpus / sizeof gpus[0]);
  return gpus;
}

const budget_gpu *budget_gpu_find(const char *name) {
  for (size_t i = 0; i < sizeof gpus / sizeof gpus[0]; i++)
    if (!strcasecmp(gpus[i].name, name)) return &gpus[i];
  return NULL;
}

const char *budget_precision_name(budget_precision p) {
  return p == BUDGET_FP32 ? "fp32" : p == BUDGET_BF16 ? "bf16" : "fp8";
}

const char *budget_optimizer_name(budget_optimizer o) { return o == BUDGET_ADAMW ? "adamw" : "sgd"; }

const char *budget_recompute_name(budget_recompute r) {
  return r == BUDGET_RECOMPUTE_NONE ? "none" : r == BUDGET_RECOMPUTE_SELECTIVE ? "selective" : "full";
}

double budget_params_from_shape(int64_t layers, int64_t d_model, int64_t vocab, int64_t seq) {
  double L = (double)layers, h = (double)d_model;
  return L * (12 * h * h + 13 * h) + (double)vocab * h + (double)seq * h + 2 * h;
}

budget_bytes budget_bytes_per_param(budget_precision p, budget_optimizer o) {
  /* Optimizer states live in fp32 in every recipe: AdamW keeps m and v,
   * SGD its momentum. Mixed precision adds the fp32 master weights the
   * optimizer updates, and keeps gradients in bf16 (fp8 gradients are not
   * accumulated in practice, so the fp8 recipe keeps them in bf16 too). */
  budget_bytes b = {.optimizer = o == BUDGET_ADAMW ? 8 : 4};
  switch (p) {
  case BUDGET_FP32:
    b.weights = 4, b.gradients = 4, b.master = 0;
    break;
  case BUDGET_BF16:
    b.weights = 2, b.gradients = 2, b.master = 4;
    break;
  case BUDGET_FP8:
    b.weights = 1, b.gradients = 2, b.master = 4;
    break;
  }
  return b;
}

double budget_activation_bytes(double e, int64_t seq, int64_t batch, int64_t d_model, int64_t heads,
                               budget_recompute r) {
  double s = (double)seq, b = (double)batch, h = (double)d_model, a = (double)heads;
  if (r == BUDGET_RECOMPUTE_FULL) return e * s * b * h;
  double linear = s * b * h * (16 * e + 2); /* 34 sbh at e = 2 */
  if (r == BUDGET_RECOMPUTE_SELECTIVE) return linear;
  return linear + a * s * s * b * (2 * e + 1); /* 5 a s^2 b at e = 2 */
}

static double sum(budget_bytes b) { return b.weights + b.gradients + b.master + b.optimizer; }

/* ZeRO stage k shards, across all GPUs: 1 the optimizer states and master
 * copy, 2 also the gradients, 3 also the weights. */
static budget_bytes shard(budget_bytes b, int zero, double ways) {
  if (zero >= 1) b.optimizer /= ways, b.master /= ways;
  if (zero >= 2) b.gradients /= ways;
  if (zero >= 3) b.weights /= ways;
  return b;
}

static int check(const budget_input *in, char *err, size_t n) {
  const char *bad = NULL;
  if (in->params < 0) bad = "--params must be positive";
  else if (in->params == 0 && (in->layers <= 0 || in->d_model <= 0 || in->vocab <= 0 || in->seq <= 0))
    bad = "give --params N, or --layers, --d-model, --vocab and --seq to derive it";
  else if (in->layers < 0 || in->d_model < 0 || in->heads < 0 || in->vocab < 0 || in->seq < 0)
    bad = "shape values must be positive";
  else if (in->heads > 0 && in->d_model > 0 && in->d_model % in->heads)
    bad = "--d-model must be a multiple of --heads";
  else if (in->heads == 0 && in->d_model > 0 && in->d_model < 64)
    bad = "--d-model under 64 needs --heads";
  else if (!(in->tokens > 0)) bad = "--tokens must be positive";
  else if (in->gpus < 1) bad = "--gpus must be at least 1";
  else if (!(in->peak_flops > 0)) bad = "give --gpu a100|h100|h200 or --peak FLOP/s per GPU";
  else if (!(in->mfu > 0 && in->mfu <= 1)) bad = "--mfu must be in (0, 1]";
  else if (in->micro_batch < 1) bad = "--micro-batch must be at least 1";
  else if (in->zero < 0 || in->zero > 3) bad = "--zero must be 0, 1, 2 or 3";
  else if (in->gpu_memory < 0) bad = "--gpu-mem must be positive";
  if (bad) snprintf(err, n, "%s", bad);
  return bad ? -1 : 0;
}

int budget_compute(const budget_input *in, budget_result *out, char *err, size_t n) {
  *out = (budget_result){0};
  if (check(in, err, n)) return -1;
  out->params_derived = in->params == 0;
  out->params = out->params_derived ? budget_params_from_shape(in->layers, in->d_model, in->vocab, in->seq)
                                    : in->params;
  out->heads = in->heads ? in->heads : in->d_model / 64;

  out->per_param = budget_bytes_per_param(in->precision, in->optimizer);
  out->bytes_per_param = sum(out->per_param);
  out->per_gpu = shard(out->per_param, in->zero, (double)in->gpus);
  out->bytes_per_param_per_gpu = sum(out->per_gpu);
  out->state_bytes_per_gpu = out->params * out->bytes_per_param_per_gpu;

  /* Activations are kept in the compute precision; the fp8 recipe casts
   * to fp8 inside its matmuls and stores bf16. */
  out->act_elem_bytes = in->precision == BUDGET_FP32 ? 4 : 2;
  out->has_activations = in->layers > 0 && in->d_model > 0 && in->seq > 0;
  if (out->has_activations) {
    double e = out->act_elem_bytes;
    out->act_bytes_per_layer = budget_activation_bytes(e, in->seq, in->micro_batch, in->d_model, out->heads,
                                                       in->recompute);
    out->act_bytes_full_layer = budget_activation_bytes(e, in->seq, in->micro_batch, in->d_model, out->heads,
                                                        BUDGET_RECOMPUTE_NONE);
    out->act_bytes_per_gpu = (double)in->layers * out->act_bytes_per_layer +
                             (in->recompute == BUDGET_RECOMPUTE_FULL ? out->act_bytes_full_layer : 0);
  }
  out->total_bytes_per_gpu = out->state_bytes_per_gpu + out->act_bytes_per_gpu;

  /* Per parameter per token: 2 FLOPs forward (a multiply and an add), 4
   * backward (gradients of the inputs and of the weights). */
  out->flops = 6 * out->params * in->tokens;
  out->cluster_flops = (double)in->gpus * in->peak_flops * in->mfu;
  out->seconds = out->flops / out->cluster_flops;
  out->days = out->seconds / 86400;
  out->tokens_per_second = in->tokens / out->seconds;
  return 0;
}
