/* Mixed precision from the memory side: fp32 master weights that the
 * optimizer updates, the bf16 copy the matmuls read, bf16 gradients and
 * AdamW's two fp32 states make 16 bytes per parameter, counted here by
 * lt_stats; a bf16 matmul reads the bf16 copy. And why the master copy
 * stays fp32: small updates vanish in bf16. */
#include <libtensor.h>
#include <stdio.h>

enum { IN = 256, OUT = 256 }; /* one linear layer: weight [OUT, IN], bias [OUT] */

static int64_t in_use(void) { return lt_stats_get(LT_HOST).bytes_in_use; }

/* Allocates with make(), then prints the bytes per parameter it took. */
static lt_tensor *account(const char *what, lt_tensor *t, int64_t before, int64_t params) {
  if (!t) fprintf(stderr, "%s: %s\n", what, lt_last_error());
  else printf("  %-34s %-5s %5.2f B/param\n", what, lt_dtype_name(lt_dtype_of(t)),
              (double)(in_use() - before) / (double)params);
  return t;
}

/* x rounded to bf16 and back, by the library's casts. */
static float through_bf16(float x) {
  lt_tensor *f = lt_from_data(&x, LT_F32, 0, NULL), *b = lt_cast(f, LT_BF16, LT_CAST_DEFAULT), *back = lt_to(b, LT_F32);
  float y = 0;
  lt_read(back, &y, sizeof y);
  lt_release(back), lt_release(b), lt_release(f);
  return y;
}

int main(void) {
  int64_t params = (int64_t)OUT * IN + OUT, before;
  static float init[OUT * IN + OUT];
  for (int64_t i = 0; i < params; i++) init[i] = (float)((i * 7919) % 2001 - 1000) * 1e-4f;
  lt_stats_reset(LT_HOST);
  printf("a %dx%d linear layer: %lld parameters, one flat buffer per role\n", OUT, IN, (long long)params);

  before = in_use();
  lt_tensor *master =
      account("master weights (optimizer updates)", lt_from_data(init, LT_F32, 1, &params), before, params);
  before = in_use();
  lt_tensor *w = account("weights the matmuls read", lt_cast(master, LT_BF16, LT_CAST_DEFAULT), before, params);
  before = in_use();
  lt_tensor *grad = account("gradients", lt_zeros(LT_BF16, 1, &params, LT_HOST), before, params);
  before = in_use();
  lt_tensor *m = account("AdamW first moment m", lt_zeros(LT_F32, 1, &params, LT_HOST), before, params);
  before = in_use();
  lt_tensor *v = account("AdamW second moment v", lt_zeros(LT_F32, 1, &params, LT_HOST), before, params);
  if (!master || !w || !grad || !m || !v) return 1;
  printf("  %-40s %5.2f B/param (lt_stats: %lld bytes in use)\n", "total", (double)in_use() / (double)params,
         (long long)in_use());

  /* The layer's weight and bias are views of the flat bf16 buffer: free. */
  lt_tensor *wflat = lt_narrow(w, 0, 0, (int64_t)OUT * IN), *weight = lt_view(wflat, 2, (int64_t[]){OUT, IN});
  lt_tensor *bias = lt_narrow(w, 0, (int64_t)OUT * IN, OUT);
  char d[128];
  lt_describe(weight, d, sizeof d);
  printf("weight view: %s, bias view: [%lld]; still %lld bytes in use\n", d, (long long)lt_size(bias, 0),
         (long long)in_use());

  /* The forward pass reads the bf16 weight, transposed by a view, and
   * multiplies with fp32 accumulation, rounding once to bf16. */
  lt_tensor *x = lt_zeros(LT_BF16, 2, (int64_t[]){8, IN}, LT_HOST), *wt = lt_transpose(weight, 0, 1);
  lt_stats f0 = lt_stats_get(LT_HOST);
  lt_tensor *y = lt_matmul(x, wt);
  lt_stats f1 = lt_stats_get(LT_HOST);
  if (!y) return fprintf(stderr, "%s\n", lt_last_error()), 1;
  lt_describe(y, d, sizeof d);
  printf("y = x @ weight^T: %s, %lld FLOPs (2*8*%d*%d), %lld copies\n", d, (long long)(f1.flops - f0.flops), IN, OUT,
         (long long)(f1.copies - f0.copies));
  lt_release(y), lt_release(wt), lt_release(x);

  /* After each optimizer step the bf16 copy is refreshed in place: a
   * converting copy into existing memory, no allocation. */
  lt_stats s0 = lt_stats_get(LT_HOST);
  if (lt_copy(w, master) != LT_OK) return fprintf(stderr, "%s\n", lt_last_error()), 1;
  lt_stats s1 = lt_stats_get(LT_HOST);
  printf("refresh bf16 from fp32: %lld allocations, %lld bytes written (%lld params * 2 B)\n",
         (long long)(s1.allocs - s0.allocs), (long long)(s1.bytes_copied - s0.bytes_copied), (long long)params);

  /* Ten updates of 1e-3 to a weight of 1.0: bf16's spacing at 1.0 is
   * 2^-7, so each update rounds away unless it lands in fp32. */
  float w32 = 1.0f, w16 = 1.0f;
  for (int step = 0; step < 10; step++) {
    w32 += 1e-3f;
    w16 = through_bf16(w16 + 1e-3f);
  }
  printf("1.0 plus ten updates of 0.001: fp32 master %.5f, bf16 only %.5f\n", w32, w16);

  lt_release(bias); lt_release(weight); lt_release(wflat);
  lt_release(v); lt_release(m); lt_release(grad); lt_release(w); lt_release(master);
  return 0;
}
