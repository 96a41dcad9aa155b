/* ltx budget: the memory and compute accounting of training a transformer,
 * as pure arithmetic on plain numbers (no I/O, no library calls), so that
 * tests can check it by hand and the report can print every step. */
#ifndef LTX_BUDGET_H
#define LTX_BUDGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum budget_precision {
  BUDGET_FP32, /* everything in fp32 */
  BUDGET_BF16, /* bf16 weights, gradients and activations; fp32 master weights and optimizer states */
  BUDGET_FP8   /* as BF16, but the matmuls read an fp8 copy of the weights */
} budget_precision;

typedef enum budget_optimizer { BUDGET_ADAMW, BUDGET_SGD_MOMENTUM } budget_optimizer;

/* What the backward pass finds stored, per layer:
 * NONE: everything the Korthikanti et al. formula counts; SELECTIVE: the
 * attention scores (the a*s^2 terms) are recomputed; FULL: only each
 * layer's input, the layer being recomputed holds its full set. */
typedef enum budget_recompute { BUDGET_RECOMPUTE_NONE, BUDGET_RECOMPUTE_SELECTIVE, BUDGET_RECOMPUTE_FULL } budget_recompute;

/* A GPU preset: dense BF16 tensor-core peak (no sparsity) and memory. */
typedef struct budget_gpu {
  const char *name;   /* as typed: "a100", "h100", "h200" */
  const char *label;  /* as printed */
  double peak_flops;  /* FLOP/s */
  double memory;      /* bytes (GB = 1e9, as the vendors count) */
} budget_gpu;

/* The preset named name (case-insensitive), or NULL. */
const budget_gpu *budget_gpu_find(const char *name);
/* Presets in order; n receives their count. */
const budget_gpu *budget_gpus(int *n);

typedef struct budget_input {
  double params;         /* N; 0 = derive it from layers, d_model, vocab, seq */
  int64_t layers;        /* L; 0 = unknown (no activations, no derived N) */
  int64_t d_model;       /* h */
  int64_t heads;         /* a; 0 = d_model / 64 */
  int64_t vocab;         /* V, for a derived N */
  int64_t seq;           /* s: tokens per sequence */
  int64_t micro_batch;   /* b: sequences per GPU per step */
  double tokens;         /* D: training tokens */
  int64_t gpus;          /* data-parallel GPUs */
  double peak_flops;     /* per GPU, FLOP/s */
  double gpu_memory;     /* per GPU, bytes; 0 = unknown */
  double mfu;            /* model FLOPs utilisation, (0, 1] */
  budget_precision precision;
  budget_optimizer optimizer;
  int zero;              /* ZeRO stage 0 (no sharding) .. 3 */
  budget_recompute recompute;
} budget_input;

/* Bytes of training state per parameter, by category. */
typedef struct budget_bytes {
  double weights;   /* the copy forward and backward read */
  double gradients;
  double master;    /* fp32 weights the optimizer updates (mixed precision only) */
  double optimizer; /* AdamW: m and v; SGD: momentum */
} budget_bytes;

typedef struct budget_result {
  double params;         /* N used (given or derived) */
  bool params_derived;
  int64_t heads;         /* a used */
  budget_bytes per_param;      /* whole model, before sharding */
  double bytes_per_param;      /* their sum */
  budget_bytes per_gpu;        /* per parameter of the model, on one GPU after sharding */
  double bytes_per_param_per_gpu;
  double state_bytes_per_gpu;  /* N * bytes_per_param_per_gpu */
  double act_elem_bytes;       /* e: bytes per stored activation element */
  bool has_activations;        /* false when the layer shape is unknown */
  double act_bytes_per_layer;  /* stored per layer per micro-batch, after recomputation */
  double act_bytes_full_layer; /* one layer with nothing recomputed */
  double act_bytes_per_gpu;    /* every layer, plus the layer being recomputed under FULL */
  double total_bytes_per_gpu;  /* states + activations */
  double flops;                /* 6 N D */
  double cluster_flops;        /* gpus * peak * mfu, FLOP/s */
  double seconds;              /* flops / cluster_flops */
  double days;                 /* seconds / 86400 */
  double tokens_per_second;    /* D / seconds, whole cluster */
} budget_result;

/* Parameters of a GPT-2-style decoder: L (12h^2 + 13h) + V h + s h + 2h
 * (attention 4h^2 + 4h, MLP with a 4h hidden layer 8h^2 + 5h, two
 * LayerNorms 4h; learned position embeddings; output tied to the token
 * embedding; a final LayerNorm 2h). */
double budget_params_from_shape(int64_t layers, int64_t d_model, int64_t vocab, int64_t seq);

/* Bytes per parameter of a recipe, unsharded. */
budget_bytes budget_bytes_per_param(budget_precision p, budget_optimizer o);

/* Stored activation bytes of one layer for one micro-batch (Korthikanti et
 * al. 2022, no tensor or sequence parallelism), with e bytes per element
 * and 1-byte dropout masks: s b h (16e + 2) + a s^2 b (2e + 1), which is
 * 34 sbh + 5 a s^2 b at e = 2. SELECTIVE keeps s b h (16e + 2); FULL keeps
 * e s b h (the layer input). */
double budget_activation_bytes(double e, int64_t seq, int64_t batch, int64_t d_model, int64_t heads,
                               budget_recompute r);

/* Fills out from in. Returns 0, or -1 with a message in err (n bytes)
 * naming the bad input. */
int budget_compute(const budget_input *in, budget_result *out, char *err, size_t n);

const char *budget_precision_name(budget_precision p);
const char *budget_optimizer_name(budget_optimizer o);
const char *budget_recompute_name(budget_recompute r);

#endif
