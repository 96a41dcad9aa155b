/* ltx budget's output: the arithmetic written out so a learner can redo
 * it by hand, or one JSON object for machines. Numbers come from
 * budget_compute; this file only formats them. */
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "budget_report.h"

/* Room for any number this file formats, with its unit. */
#define NUM 48

/* x in engineering notation, 4 significant digits: 70e9, 6.3e24, 1.244e6;
 * plainly under 10^4. */
static const char *eng(char *buf, size_t n, double x) {
  if (fabs(x) < 1e4 || !isfinite(x)) return snprintf(buf, n, "%.4g", x), buf;
  int e = (int)floor(log10(fabs(x)) / 3) * 3;
  double m = x / pow(10, e);
  char mant[16];
  snprintf(mant, sizeof mant, "%.4g", m);
  if (fabs(atof(mant)) >= 1000) e += 3, snprintf(mant, sizeof mant, "%.4g", m / 1000);
  if (e == 0) snprintf(buf, n, "%s", mant);
  else snprintf(buf, n, "%se%d", mant, e);
  return buf;
}

/* Bytes with a decimal unit (GB = 1e9 bytes, as GPU memory is sold). */
static const char *bytes(char *buf, size_t n, double b) {
  static const char *unit[] = {"B", "KB", "MB", "GB", "TB", "PB"};
  int u = 0;
  while (u < 5 && fabs(b) >= 1000) b /= 1000, u++;
  snprintf(buf, n, "%.4g %s", b, unit[u]);
  return buf;
}

/* "2", or "2/1024" when ZeRO shards that category. */
static void term(char *buf, size_t n, double b, bool sharded, int64_t gpus) {
  if (sharded && gpus > 1) snprintf(buf, n, "%g/%lld", b, (long long)gpus);
  else snprintf(buf, n, "%g", b);
}

static void print_model(FILE *f, const budget_input *in, const budget_result *r) {
  char a[NUM], b[NUM];
  if (!r->params_derived) {
    fprintf(f, "Model: N = %s parameters (given)\n", eng(a, sizeof a, r->params));
    return;
  }
  fprintf(f,
          "Model: N from the shape, GPT-2 layout (per layer: attention 4h^2+4h, MLP 8h^2+5h, two LayerNorms 4h;\n"
          "       token embedding V*h tied to the output, learned positions s*h, final LayerNorm 2h)\n"
          "  N = L*(12h^2 + 13h) + (V + s)*h + 2h\n"
          "    = %lld*(12*%lld^2 + 13*%lld) + (%lld + %lld)*%lld + 2*%lld = %.0f (%s)\n",
          (long long)in->layers, (long long)in->d_model, (long long)in->d_model, (long long)in->vocab,
          (long long)in->seq, (long long)in->d_model, (long long)in->d_model, r->params,
          eng(b, sizeof b, r->params));
}

static void print_compute(FILE *f, const budget_input *in, const budget_result *r, const char *gpu_label,
                          const char *peak_source) {
  char n[NUM], d[NUM], fl[NUM], pk[NUM], cl[NUM], s[NUM], tps[NUM], tpg[NUM];
  fprintf(f, "\nCompute: 6 FLOPs per parameter per token (forward 2: multiply and add; backward 4:\n"
             "         gradients of the activations and of the weights)\n");
  fprintf(f, "  total FLOPs   6 * N * D = 6 * %s * %s tokens = %s FLOP\n", eng(n, sizeof n, r->params),
          eng(d, sizeof d, in->tokens), eng(fl, sizeof fl, r->flops));
  fprintf(f, "  cluster rate  GPUs * peak * MFU = %lld * %s FLOP/s (%s, %s) * %g = %s FLOP/s\n",
          (long long)in->gpus, eng(pk, sizeof pk, in->peak_flops), gpu_label, peak_source, in->mfu,
          eng(cl, sizeof cl, r->cluster_flops));
  fprintf(f, "  time          %s FLOP / %s FLOP/s = %s s\n", fl, cl, eng(s, sizeof s, r->seconds));
  fprintf(f, "  days          %s s / 86400 s per day = %.*f days\n", s, r->days >= 10 ? 1 : 3, r->days);
  fprintf(f, "  throughput    %s tokens / %s s = %s tokens/s (%s per GPU)\n", d, s,
          eng(tps, sizeof tps, r->tokens_per_second),
          eng(tpg, sizeof tpg, r->tokens_per_second / (double)in->gpus));
  if (in->precision != BUDGET_BF16 && !strcmp(peak_source, "BF16 dense"))
    fprintf(f, "  note          the peak is the BF16 one; %s matmuls run at a different peak (TF32, FP8):\n"
               "                give it with --peak\n",
            budget_precision_name(in->precision));
  if (in->recompute == BUDGET_RECOMPUTE_FULL)
    fprintf(f, "  note          full recomputation runs each forward twice: the GPUs do 8 * N * D = %s FLOP,\n"
               "                but MFU counts the model's 6 * N * D, so the days above stand\n",
            eng(fl, sizeof fl, 8 * r->params * in->tokens));
}

static void print_per_param(FILE *f, const budget_input *in, const budget_result *r) {
  static const char *recipe[] = {"fp32 throughout", "bf16 mixed precision (fp32 master weights and states)",
                                 "fp8 compute (fp8 weight copy, bf16 gradients, fp32 master and states)"};
  static const char *wdesc[] = {"fp32", "bf16", "fp8 copy the matmuls read"};
  const budget_bytes *p = &r->per_param;
  char n[NUM], t[NUM];
  fprintf(f, "\nMemory per parameter: %s, %s\n", recipe[in->precision],
          in->optimizer == BUDGET_ADAMW ? "AdamW" : "SGD with momentum");
  fprintf(f, "  weights          %2g B  %s\n", p->weights, wdesc[in->precision]);
  fprintf(f, "  gradients        %2g B  %s\n", p->gradients, in->precision == BUDGET_FP32 ? "fp32" : "bf16");
  if (p->master > 0) fprintf(f, "  master copy      %2g B  fp32 weights the optimizer updates\n", p->master);
  fprintf(f, "  optimizer states %2g B  %s\n", p->optimizer,
          in->optimizer == BUDGET_ADAMW ? "AdamW m and v, fp32 (4 B + 4 B)" : "momentum, fp32");
  fprintf(f, "  total            %2g B/param; the whole model: %g B * %s = %s\n", r->bytes_per_param,
          r->bytes_per_param, eng(n, sizeof n, r->params), bytes(t, sizeof t, r->bytes_per_param * r->params));
}

static void print_states_per_gpu(FILE *f, const budget_input *in, const budget_result *r) {
  static const char *how[] = {"no sharding: every GPU holds all of it (plain data parallel)",
                              "ZeRO-1: optimizer states and master copy split across the GPUs",
                              "ZeRO-2: ZeRO-1 plus the gradients split across the GPUs",
                              "ZeRO-3: everything split across the GPUs, weights gathered layer by layer"};
  const budget_bytes *p = &r->per_param;
  char w[NUM], g[NUM], m[NUM], o[NUM], n[NUM], t[NUM];
  term(w, sizeof w, p->weights, in->zero >= 3, in->gpus);
  term(g, sizeof g, p->gradients, in->zero >= 2, in->gpus);
  term(m, sizeof m, p->master, in->zero >= 1, in->gpus);
  term(o, sizeof o, p->optimizer, in->zero >= 1, in->gpus);
  fprintf(f, "\nPer GPU (%lld GPUs), %s\n", (long long)in->gpus, how[in->zero]);
  fprintf(f, "  model states   %s + %s%s%s + %s = %.4g B/param * %s = %s\n", w, g, p->master > 0 ? " + " : "",
          p->master > 0 ? m : "", o, r->bytes_per_param_per_gpu, eng(n, sizeof n, r->params),
          bytes(t, sizeof t, r->state_bytes_per_gpu));
}

static void print_activations(FILE *f, const budget_input *in, const budget_result *r) {
  char a[NUM], b[NUM], c[NUM];
  if (!r->has_activations) {
    fprintf(f, "  activations    not counted: they need the layer shape (--layers, --d-model; --heads, --seq,\n"
               "                 --micro-batch have defaults)\n");
    return;
  }
  double e = r->act_elem_bytes;
  long long s = in->seq, bt = in->micro_batch, h = in->d_model, hd = r->heads, L = in->layers;
  fprintf(f, "  activations    stored for the backward pass, per layer and micro-batch (Korthikanti et al. 2022,\n"
             "                 \"Reducing Activation Recomputation in Large Transformer Models\"; no tensor\n"
             "                 parallelism; e = %g bytes per element, dropout masks 1 byte):\n",
          e);
  fprintf(f, "                 s*b*h*(16e + 2) + a*s^2*b*(2e + 1)  [34*s*b*h + 5*a*s^2*b at e = 2]\n");
  fprintf(f, "                 with s = %lld tokens, b = %lld sequences, h = %lld, a = %lld heads%s:\n", s, bt, h, hd,
          in->heads ? "" : " (h/64)");
  fprintf(f, "                 full set:  %lld*%lld*%lld*%g + %lld*%lld^2*%lld*%g = %s\n", s, bt, h, 16 * e + 2, hd,
          s, bt, 2 * e + 1, bytes(a, sizeof a, r->act_bytes_full_layer));
  if (in->recompute == BUDGET_RECOMPUTE_SELECTIVE)
    fprintf(f, "                 selective recomputation drops the a*s^2 terms (attention scores):\n"
               "                 %lld*%lld*%lld*%g = %s per layer\n",
            s, bt, h, 16 * e + 2, bytes(b, sizeof b, r->act_bytes_per_layer));
  if (in->recompute == BUDGET_RECOMPUTE_FULL)
    fprintf(f, "                 full recomputation keeps each layer's input only, e*s*b*h = %g*%lld*%lld*%lld = %s,\n"
               "                 plus one full set for the layer being recomputed\n",
            e, s, bt, h, bytes(b, sizeof b, r->act_bytes_per_layer));
  fprintf(f, "                 %lld layers * %s%s = %s\n", L, bytes(b, sizeof b, r->act_bytes_per_layer),
          in->recompute == BUDGET_RECOMPUTE_FULL ? " + the full set" : "",
          bytes(c, sizeof c, r->act_bytes_per_gpu));
}

static void print_total(FILE *f, const budget_input *in, const budget_result *r, const char *gpu_label) {
  char a[NUM], b[NUM], c[NUM];
  fprintf(f, "  total          %s%s%s%s", bytes(a, sizeof a, r->state_bytes_per_gpu), r->has_activations ? " + " : "",
          r->has_activations ? bytes(b, sizeof b, r->act_bytes_per_gpu) : "",
          r->has_activations ? "" : " (model states only)");
  if (r->has_activations) fprintf(f, " = %s", bytes(c, sizeof c, r->total_bytes_per_gpu));
  if (in->gpu_memory <= 0) {
    fputc('\n', f);
    return;
  }
  bool fits = r->total_bytes_per_gpu <= in->gpu_memory;
  fprintf(f, " vs %s per %s: %s\n", bytes(a, sizeof a, in->gpu_memory), gpu_label, fits ? "fits" : "does NOT fit");
  if (!fits && in->zero < 3 && r->state_bytes_per_gpu > in->gpu_memory)
    fprintf(f, "                 the model states alone are too big: try --zero 3 (or tensor/pipeline\n"
               "                 parallelism, which this budget does not model)\n");
  else if (!fits && r->has_activations)
    fprintf(f, "                 try a smaller --micro-batch or --recompute selective|full\n");
}

void budget_print_text(FILE *f, const budget_input *in, const budget_result *r, const char *gpu_label,
                       const char *peak_source) {
  fprintf(f, "ltx budget: the memory and compute of training a transformer (GB = 1e9 bytes)\n\n");
  print_model(f, in, r);
  print_compute(f, in, r, gpu_label, peak_source);
  print_per_param(f, in, r);
  print_states_per_gpu(f, in, r);
  print_activations(f, in, r);
  print_total(f, in, r, gpu_label);
}

static void json_bytes(FILE *f, const char *key, const budget_bytes *b) {
  fprintf(f, "\"%s\":{\"weights\":%.10g,\"gradients\":%.10g,\"master\":%.10g,\"optimizer\":%.10g}", key, b->weights,
          b->gradients, b->master, b->optimizer);
}

/* null for a figure the inputs do not determine. */
static void json_num(FILE *f, const char *key, bool known, double v) {
  if (known) fprintf(f, "\"%s\":%.10g,", key, v);
  else fprintf(f, "\"%s\":null,", key);
}

void budget_print_json(FILE *f, const budget_input *in, const budget_result *r, const char *gpu_name) {
  fprintf(f, "{\"params\":%.10g,\"params_derived\":%s,\"tokens\":%.10g,\"gpus\":%lld,\"gpu\":\"%s\","
             "\"peak_flops_per_gpu\":%.10g,\"mfu\":%.10g,\"precision\":\"%s\",\"optimizer\":\"%s\",\"zero\":%d,"
             "\"recompute\":\"%s\",",
          r->params, r->params_derived ? "true" : "false", in->tokens, (long long)in->gpus, gpu_name,
          in->peak_flops, in->mfu, budget_precision_name(in->precision), budget_optimizer_name(in->optimizer),
          in->zero, budget_recompute_name(in->recompute));
  fprintf(f, "\"flops\":%.10g,\"cluster_flops_per_s\":%.10g,\"seconds\":%.10g,\"days\":%.10g,"
             "\"tokens_per_s\":%.10g,\"bytes_per_param\":%.10g,",
          r->flops, r->cluster_flops, r->seconds, r->days, r->tokens_per_second, r->bytes_per_param);
  json_bytes(f, "bytes_per_param_by_category", &r->per_param);
  fputc(',', f);
  json_bytes(f, "bytes_per_param_per_gpu_by_category", &r->per_gpu);
  fprintf(f, ",\"bytes_per_param_per_gpu\":%.10g,\"model_state_bytes_per_gpu\":%.10g,", r->bytes_per_param_per_gpu,
          r->state_bytes_per_gpu);
  fprintf(f, "\"activation_formula\":\"s*b*h*(16e+2) + a*s^2*b*(2e+1) per layer (Korthikanti et al. 2022)\",");
  json_num(f, "activation_bytes_per_element", true, r->act_elem_bytes);
  json_num(f, "activation_bytes_per_layer", r->has_activations, r->act_bytes_per_layer);
  json_num(f, "activation_bytes_per_gpu", r->has_activations, r->act_bytes_per_gpu);
  json_num(f, "total_bytes_per_gpu", true, r->total_bytes_per_gpu);
  json_num(f, "gpu_memory_bytes", in->gpu_memory > 0, in->gpu_memory);
  if (in->gpu_memory > 0) fprintf(f, "\"fits\":%s}\n", r->total_bytes_per_gpu <= in->gpu_memory ? "true" : "false");
  else fprintf(f, "\"fits\":null}\n");
}
