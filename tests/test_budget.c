/* ltx budget: the arithmetic against cases worked by hand, called
 * directly, and the ltx binary's text and JSON for the same cases. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "support/check_helpers.h"

/* The suites are built one source file each, so the pure module under
 * test is compiled in here, the same file ltx is built from. */
#include "../tools/ltx/budget.c"

/* Relative closeness, for figures that went through a division. */
#define ASSERT_NEAR(got, want) \
  ck_assert_msg(fabs((got) - (want)) <= 1e-12 * fabs(want), "%s = %.17g, want %.17g", #got, (got), (want))

/* The example: 70B parameters, 15T tokens, 1024 H100 at MFU 0.5. */
static budget_input example_70b(void) {
  return (budget_input){.params = 70e9, .tokens = 15e12, .gpus = 1024, .peak_flops = 989e12, .gpu_memory = 80e9,
                        .mfu = 0.5, .precision = BUDGET_BF16, .optimizer = BUDGET_ADAMW, .micro_batch = 1,
                        .seq = 2048};
}

static budget_result compute(const budget_input *in) {
  budget_result r;
  char err[256] = "";
  ck_assert_msg(budget_compute(in, &r, err, sizeof err) == 0, "budget_compute failed: %s", err);
  return r;
}

START_TEST(the_70b_15t_tokens_1024_h100_example_takes_144_days) {
  budget_input in = example_70b();
  budget_result r = compute(&in);
  ASSERT_NEAR(r.flops, 6.3e24);                 /* 6 * 70e9 * 15e12 */
  ASSERT_NEAR(r.cluster_flops, 5.06368e17);     /* 1024 * 989e12 * 0.5 */
  ASSERT_NEAR(r.seconds, 6.3e24 / 5.06368e17);  /* 12 441 544 s */
  ASSERT_NEAR(r.days, 6.3e24 / 5.06368e17 / 86400);
  ck_assert_msg(r.days > 143.99 && r.days < 144.01, "days %g", r.days);
  ASSERT_NEAR(r.tokens_per_second, 15e12 / r.seconds);
}
END_TEST

START_TEST(days_on_a100_for_a_1b_model_by_hand) {
  /* 6 * 1e9 * 20e9 = 1.2e20 FLOP; 8 * 312e12 * 0.5 = 1.248e15 FLOP/s;
   * 1.2e20 / 1.248e15 = 96153.846 s = 1.1129 days. */
  budget_input in = example_70b();
  in.params = 1e9, in.tokens = 20e9, in.gpus = 8, in.peak_flops = budget_gpu_find("a100")->peak_flops;
  budget_result r = compute(&in);
  ASSERT_NEAR(r.flops, 1.2e20);
  ASSERT_NEAR(r.cluster_flops, 1.248e15);
  ck_assert_msg(fabs(r.seconds - 96153.846) < 1e-3, "seconds %.6f", r.seconds);
  ck_assert_msg(fabs(r.days - 1.11289) < 1e-5, "days %.6f", r.days);
}
END_TEST

START_TEST(gpu_presets_are_dense_bf16_peaks_found_by_any_case) {
  ck_assert_double_eq(budget_gpu_find("a100")->peak_flops, 312e12);
  ck_assert_double_eq(budget_gpu_find("H100")->peak_flops, 989e12);
  ck_assert_double_eq(budget_gpu_find("h200")->peak_flops, 989e12);
  ck_assert_double_eq(budget_gpu_find("h200")->memory, 141e9);
  ck_assert_ptr_null(budget_gpu_find("v100"));
}
END_TEST

static void assert_bytes(budget_bytes b, double w, double g, double m, double o) {
  ck_assert_msg(b.weights == w && b.gradients == g && b.master == m && b.optimizer == o,
                "got weights %g gradients %g master %g optimizer %g, want %g %g %g %g", b.weights, b.gradients,
                b.master, b.optimizer, w, g, m, o);
}

START_TEST(adamw_in_fp32_is_16_bytes_per_param) {
  /* weights 4 + gradients 4 + m 4 + v 4 */
  assert_bytes(budget_bytes_per_param(BUDGET_FP32, BUDGET_ADAMW), 4, 4, 0, 8);
  budget_input in = example_70b();
  in.precision = BUDGET_FP32;
  budget_result r = compute(&in);
  ck_assert_double_eq(r.bytes_per_param, 16);
  ck_assert_double_eq(r.state_bytes_per_gpu, 16 * 70e9);
}
END_TEST

START_TEST(bf16_mixed_precision_with_adamw_is_also_16_bytes_per_param) {
  /* bf16 weights 2 + bf16 gradients 2 + fp32 master 4 + fp32 m, v 8 */
  assert_bytes(budget_bytes_per_param(BUDGET_BF16, BUDGET_ADAMW), 2, 2, 4, 8);
  budget_input in = example_70b();
  ck_assert_double_eq(compute(&in).bytes_per_param, 16);
}
END_TEST

START_TEST(sgd_with_momentum_keeps_one_state_instead_of_two) {
  assert_bytes(budget_bytes_per_param(BUDGET_FP32, BUDGET_SGD_MOMENTUM), 4, 4, 0, 4);
  assert_bytes(budget_bytes_per_param(BUDGET_BF16, BUDGET_SGD_MOMENTUM), 2, 2, 4, 4);
  budget_input in = example_70b();
  in.optimizer = BUDGET_SGD_MOMENTUM;
  ck_assert_double_eq(compute(&in).bytes_per_param, 12);
}
END_TEST

START_TEST(fp8_compute_keeps_an_fp8_weight_copy_and_bf16_gradients) {
  /* 1 + 2 + 4 + 8 */
  assert_bytes(budget_bytes_per_param(BUDGET_FP8, BUDGET_ADAMW), 1, 2, 4, 8);
  budget_input in = example_70b();
  in.precision = BUDGET_FP8;
  ck_assert_double_eq(compute(&in).bytes_per_param, 15);
}
END_TEST

START_TEST(zero_stages_shard_states_then_gradients_then_weights) {
  /* 7B, bf16 + AdamW (2 + 2 + 4 + 8), 8 GPUs:
   * none 16 B; ZeRO-1 2 + 2 + 12/8 = 5.5 B; ZeRO-2 2 + 14/8 = 3.75 B;
   * ZeRO-3 16/8 = 2 B per parameter on each GPU. */
  const double want[] = {16, 5.5, 3.75, 2};
  budget_input in = example_70b();
  in.params = 7e9, in.gpus = 8;
  for (int z = 0; z <= 3; z++) {
    in.zero = z;
    budget_result r = compute(&in);
    ck_assert_msg(r.bytes_per_param_per_gpu == want[z], "ZeRO-%d: %g B/param", z, r.bytes_per_param_per_gpu);
    ASSERT_NEAR(r.state_bytes_per_gpu, want[z] * 7e9);
    ck_assert_double_eq(r.bytes_per_param, 16); /* the model's total does not shrink */
  }
  in.zero = 1;
  assert_bytes(compute(&in).per_gpu, 2, 2, 0.5, 1);
}
END_TEST

START_TEST(the_gpt2_small_shape_gives_its_124m_parameters) {
  /* 12 (12*768^2 + 13*768) + (50257 + 1024) 768 + 2*768 = 124 439 808,
   * the count GPT-2 small's checkpoint holds. */
  ck_assert_double_eq(budget_params_from_shape(12, 768, 50257, 1024), 124439808);
  budget_input in = example_70b();
  in.params = 0, in.layers = 12, in.d_model = 768, in.vocab = 50257, in.seq = 1024;
  budget_result r = compute(&in);
  ck_assert(r.params_derived);
  ck_assert_double_eq(r.params, 124439808);
  ck_assert_int_eq(r.heads, 12); /* d_model / 64 */
}
END_TEST

START_TEST(activations_per_layer_follow_korthikanti_for_gpt3_175b) {
  /* s = 2048, b = 1, h = 12288, a = 96, bf16:
   * sbh = 25 165 824; 34 sbh = 855 638 016; 5 a s^2 b = 2 013 265 920. */
  ck_assert_double_eq(budget_activation_bytes(2, 2048, 1, 12288, 96, BUDGET_RECOMPUTE_NONE), 2868903936.0);
  ck_assert_double_eq(budget_activation_bytes(2, 2048, 1, 12288, 96, BUDGET_RECOMPUTE_SELECTIVE), 855638016.0);
  ck_assert_double_eq(budget_activation_bytes(2, 2048, 1, 12288, 96, BUDGET_RECOMPUTE_FULL), 50331648.0);
}
END_TEST

START_TEST(fp32_activations_take_4_bytes_but_masks_stay_1) {
  /* e = 4: sbh (16*4 + 2) + a s^2 b (2*4 + 1); s = 1024, b = 8, h = 768, a = 12:
   * 6 291 456 * 66 + 100 663 296 * 9 = 415 236 096 + 905 969 664. */
  ck_assert_double_eq(budget_activation_bytes(4, 1024, 8, 768, 12, BUDGET_RECOMPUTE_NONE), 1321205760.0);
}
END_TEST

START_TEST(per_gpu_totals_add_every_layer_and_the_recomputed_one) {
  budget_input in = example_70b();
  in.layers = 96, in.d_model = 12288, in.heads = 96, in.seq = 2048, in.zero = 3;
  budget_result r = compute(&in);
  ck_assert(r.has_activations);
  ck_assert_double_eq(r.act_bytes_per_gpu, 96 * 2868903936.0);
  ASSERT_NEAR(r.total_bytes_per_gpu, 70e9 * 16 / 1024 + 96 * 2868903936.0);
  in.recompute = BUDGET_RECOMPUTE_FULL;
  r = compute(&in);
  ck_assert_double_eq(r.act_bytes_per_gpu, 96 * 50331648.0 + 2868903936.0);
  in.layers = 0; /* shape unknown: no activations, states only */
  r = compute(&in);
  ck_assert(!r.has_activations);
  ck_assert_double_eq(r.total_bytes_per_gpu, r.state_bytes_per_gpu);
}
END_TEST

static void assert_rejected(budget_input in, const char *why) {
  budget_result r;
  char err[256] = "";
  ck_assert_int_eq(budget_compute(&in, &r, err, sizeof err), -1);
  ck_assert_msg(strstr(err, why), "message '%s' lacks '%s'", err, why);
}

START_TEST(bad_inputs_are_refused_with_the_flag_to_fix) {
  budget_input in = example_70b();
  assert_rejected((in.mfu = 0, in), "--mfu");
  assert_rejected((in.mfu = 1.5, in), "--mfu");
  in = example_70b();
  assert_rejected((in.gpus = 0, in), "--gpus");
  in = example_70b();
  assert_rejected((in.tokens = 0, in), "--tokens");
  in = example_70b();
  assert_rejected((in.params = 0, in), "--layers");
  in = example_70b();
  assert_rejected((in.zero = 4, in), "--zero");
  in = example_70b();
  assert_rejected((in.d_model = 1000, in.heads = 12, in), "--heads");
  in = example_70b();
  assert_rejected((in.peak_flops = 0, in), "--peak");
}
END_TEST

/* ---- the ltx binary ---------------------------------------------------------- */

#define EXAMPLE "budget --params 70e9 --tokens 15e12 --gpus 1024 --gpu h100 --mfu 0.5"

static int run_ltx(const char *args, char *out, size_t n) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "%s %s 2>&1", LTX_PATH, args);
  FILE *p = popen(cmd, "r");
  ck_assert_ptr_nonnull(p);
  size_t got = fread(out, 1, n - 1, p);
  out[got] = '\0';
  int status = pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The number after "key": in a one-line JSON object. */
static double json_number(const char *json, const char *key) {
  char pat[64];
  snprintf(pat, sizeof pat, "\"%s\":", key);
  const char *at = strstr(json, pat);
  ck_assert_msg(at != NULL, "no %s in %s", key, json);
  char *end;
  double v = strtod(at + strlen(pat), &end);
  ck_assert_msg(end != at + strlen(pat), "%s is not a number in %s", key, json);
  return v;
}

START_TEST(ltx_budget_prints_the_arithmetic_to_144_days) {
  char out[16384];
  ck_assert_int_eq(run_ltx(EXAMPLE, out, sizeof out), 0);
  ck_assert_msg(strstr(out, "6 * N * D = 6 * 70e9 * 15e12 tokens = 6.3e24 FLOP"), "%s", out);
  ck_assert_msg(strstr(out, "1024 * 989e12 FLOP/s (H100 SXM, BF16 dense) * 0.5 = 506.4e15 FLOP/s"), "%s", out);
  ck_assert_msg(strstr(out, "12.44e6 s / 86400 s per day = 144.0 days"), "%s", out);
  ck_assert_msg(strstr(out, "total            16 B/param"), "%s", out);
  ck_assert_msg(strstr(out, "does NOT fit"), "%s", out); /* 1.12 TB of states on an 80 GB GPU */
}
END_TEST

START_TEST(ltx_budget_json_has_flops_days_and_bytes_per_param) {
  char out[16384];
  ck_assert_int_eq(run_ltx(EXAMPLE " --json", out, sizeof out), 0);
  ck_assert_msg(out[0] == '{' && strstr(out, "}\n") && !strchr(out, '\n')[1], "not one JSON line: %s", out);
  ck_assert_double_eq(json_number(out, "flops"), 6.3e24);
  double days = json_number(out, "days");
  ck_assert_msg(fabs(days - 6.3e24 / 5.06368e17 / 86400) < 1e-6, "days %.10g", days);
  ck_assert_double_eq(json_number(out, "bytes_per_param"), 16);
  ck_assert_double_eq(json_number(out, "weights"), 2);
  ck_assert_msg(strstr(out, "\"activation_bytes_per_layer\":null"), "%s", out);
  ck_assert_int_eq(run_ltx(EXAMPLE " --precision fp32 --zero 3 --json", out, sizeof out), 0);
  ck_assert_double_eq(json_number(out, "bytes_per_param"), 16);
  ck_assert_double_eq(json_number(out, "bytes_per_param_per_gpu"), 16.0 / 1024);
}
END_TEST

START_TEST(ltx_budget_flags_take_the_equals_form_and_shape_flags) {
  char out[16384];
  ck_assert_int_eq(run_ltx("budget --layers=12 --d-model=768 --vocab=50257 --seq=1024 --tokens=1e9 --json", out,
                           sizeof out), 0);
  ck_assert_double_eq(json_number(out, "params"), 124439808);
  ck_assert_msg(strstr(out, "\"params_derived\":true"), "%s", out);
  /* 1024*1*768*34 + 12*1024^2*1*5 = 26 738 688 + 62 914 560 */
  ck_assert_double_eq(json_number(out, "activation_bytes_per_layer"), 89653248);
}
END_TEST

START_TEST(ltx_budget_usage_errors_exit_2_and_say_why) {
  char out[16384];
  ck_assert_int_eq(run_ltx("budget --params x --tokens 1e9", out, sizeof out), 2);
  ck_assert_msg(strstr(out, "bad value 'x' for --params"), "%s", out);
  ck_assert_int_eq(run_ltx("budget --params 1e9 --tokens 1e9 --gpu v100", out, sizeof out), 2);
  ck_assert_int_eq(run_ltx("budget --params 1e9", out, sizeof out), 2);
  ck_assert_msg(strstr(out, "--tokens must be positive"), "%s", out);
  ck_assert_int_eq(run_ltx("budget --params 1e9 --tokens 1e9 --mfu 2", out, sizeof out), 2);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("budget");
  TCase *a = tcase_create("arithmetic");
  tcase_add_test(a, the_70b_15t_tokens_1024_h100_example_takes_144_days);
  tcase_add_test(a, days_on_a100_for_a_1b_model_by_hand);
  tcase_add_test(a, gpu_presets_are_dense_bf16_peaks_found_by_any_case);
  tcase_add_test(a, adamw_in_fp32_is_16_bytes_per_param);
  tcase_add_test(a, bf16_mixed_precision_with_adamw_is_also_16_bytes_per_param);
  tcase_add_test(a, sgd_with_momentum_keeps_one_state_instead_of_two);
  tcase_add_test(a, fp8_compute_keeps_an_fp8_weight_copy_and_bf16_gradients);
  tcase_add_test(a, zero_stages_shard_states_then_gradients_then_weights);
  tcase_add_test(a, the_gpt2_small_shape_gives_its_124m_parameters);
  tcase_add_test(a, activations_per_layer_follow_korthikanti_for_gpt3_175b);
  tcase_add_test(a, fp32_activations_take_4_bytes_but_masks_stay_1);
  tcase_add_test(a, per_gpu_totals_add_every_layer_and_the_recomputed_one);
  tcase_add_test(a, bad_inputs_are_refused_with_the_flag_to_fix);
  suite_add_tcase(s, a);
  TCase *b = tcase_create("ltx budget");
  tcase_add_test(b, ltx_budget_prints_the_arithmetic_to_144_days);
  tcase_add_test(b, ltx_budget_json_has_flops_days_and_bytes_per_param);
  tcase_add_test(b, ltx_budget_flags_take_the_equals_form_and_shape_flags);
  tcase_add_test(b, ltx_budget_usage_errors_exit_2_and_say_why);
  suite_add_tcase(s, b);
  return s;
}

int main(void) { return lt_run_suite(suite()); }
