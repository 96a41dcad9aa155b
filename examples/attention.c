/* Splitting and merging attention heads with rearrange: splitting a
 * fused QKV projection into per-head q, k, v is free (views), merging an
 * attention output back into [batch, tokens, heads*dim] copies once. The
 * library counts both. */
#include <libtensor.h>
#include <stdio.h>
#include <stdlib.h>

enum { B = 2, T = 16, H = 4, D = 8, C = H * D };

static void show(const char *what, const lt_tensor *t) {
  char d[200];
  lt_describe(t, d, sizeof d);
  lt_stats s = lt_stats_get(LT_HOST);
  printf("%-40s %s\n%-40s copies so far: %lld, bytes copied: %lld\n", what, d, "", (long long)s.copies,
         (long long)s.bytes_copied);
}

int main(void) {
  /* The fused projection's output: [B, T, 3*C], q, k and v side by side. */
  float *data = malloc(sizeof(float) * B * T * 3 * C);
  if (!data) return 1;
  for (int i = 0; i < B * T * 3 * C; i++) data[i] = (float)i;
  lt_tensor *qkv = lt_from_data(data, LT_F32, 3, (int64_t[]){B, T, 3 * C});
  free(data);
  if (!qkv) return fprintf(stderr, "%s\n", lt_last_error()), 1;
  lt_stats_reset(LT_HOST);
  show("qkv", qkv);

  /* One rearrange splits q/k/v and the heads and puts heads before tokens. */
  lt_axis ax[] = {{"three", 3}, {"h", H}};
  lt_tensor *heads = lt_rearrange(qkv, "b t (three h d) -> three b h t d", ax, 2);
  if (!heads) return fprintf(stderr, "%s\n", lt_last_error()), 1;
  show("b t (three h d) -> three b h t d", heads);
  lt_tensor *q = lt_select(heads, 0, 0), *k = lt_select(heads, 0, 1), *v = lt_select(heads, 0, 2);
  show("q = select(0, 0)", q);
  lt_tensor *kt = lt_transpose(k, 2, 3); /* what q @ k^T reads: a view as well */
  show("k^T = transpose(k, 2, 3)", kt);

  /* q[b=1, h=2, t=3, d=5] is qkv[1, 3, 0*C + 2*D + 5]: the same memory. */
  float got, want = (float)((1 * T + 3) * 3 * C + 2 * D + 5);
  lt_tensor *e = lt_as_strided(q, 0, NULL, NULL, lt_offset(q) + 1 * lt_stride(q, 0) + 2 * lt_stride(q, 1) +
                                                     3 * lt_stride(q, 2) + 5 * lt_stride(q, 3));
  lt_read(e, &got, sizeof got);
  printf("q[1,2,3,5] = %g, qkv[1,3,%d] = %g: %s\n", got, 2 * D + 5, want, got == want ? "same element" : "WRONG");

  /* Merging v's heads back is a view too: it undoes the split exactly. */
  lt_tensor *back = lt_rearrange(v, "b h t d -> b t (h d)", NULL, 0);
  show("v: b h t d -> b t (h d)", back);

  /* An attention kernel writes its output contiguous in [B, H, T, D]:
   * heads outermost, so h and d are no longer next to each other in
   * memory and merging them must copy B*T*C*4 bytes. */
  lt_tensor *out = lt_zeros(LT_F32, 4, (int64_t[]){B, H, T, D}, LT_HOST);
  lt_tensor *merged = lt_rearrange(out, "b h t d -> b t (h d)", NULL, 0);
  show("attention output: b h t d -> b t (h d)", merged);
  lt_stats s = lt_stats_get(LT_HOST);
  printf("total: %lld copy (%lld implicit) of %lld bytes = B*T*C*4 = %d\n", (long long)s.copies,
         (long long)s.implicit_copies, (long long)s.bytes_copied, B * T * C * 4);

  lt_release(merged); lt_release(out); lt_release(back); lt_release(e); lt_release(kt); lt_release(v); lt_release(k);
  lt_release(q); lt_release(heads); lt_release(qkv);
  lt_pattern_cache_clear();
  return 0;
}
