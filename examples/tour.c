/* A two-minute tour of libtensor: views share memory and cost nothing,
 * copies happen only where you ask or where no view exists, and the
 * library tells you which is which. */
#include <libtensor.h>
#include <stdio.h>

static void show(const char *what, const lt_tensor *t) {
  char d[160];
  lt_describe(t, d, sizeof d);
  printf("  %-34s %s\n", what, d);
}

static void show_stats(void) {
  lt_stats s = lt_stats_get(LT_HOST);
  printf("  -> copies so far: %lld (%lld implicit), %lld bytes copied, %lld bytes in use\n",
         (long long)s.copies, (long long)s.implicit_copies, (long long)s.bytes_copied,
         (long long)s.bytes_in_use);
}

int main(void) {
  float data[24];
  for (int i = 0; i < 24; i++) data[i] = (float)i;
  lt_tensor *x = lt_from_data(data, LT_F32, 3, (int64_t[]){2, 3, 4});
  if (!x) return fprintf(stderr, "%s\n", lt_last_error()), 1;
  printf("1. Views: new shapes and strides over the same bytes\n");
  show("x = from_data(2x3x4)", x);
  lt_tensor *t = lt_transpose(x, 1, 2);
  show("transpose(x, 1, 2)", t);
  lt_tensor *s = lt_slice(x, 2, LT_NONE, LT_NONE, -1);
  show("slice(x, 2, ::-1)", s);
  lt_tensor *row = lt_narrow(x, 0, 0, 1);
  lt_tensor *e = lt_expand(row, 3, (int64_t[]){5, 3, 4});
  show("expand(narrow(x,0,0,1), [5,3,4])", e);
  printf("  shares storage with x: %s\n", lt_shares_storage(t, x) && lt_shares_storage(s, x) ? "yes" : "no");
  show_stats();

  printf("\n2. view refuses what would need a copy, and says why\n");
  lt_tensor *v = lt_view(t, 1, (int64_t[]){24});
  if (!v) printf("  %s\n  %s\n", lt_status_str(lt_last_status()), lt_last_error());

  printf("\n3. reshape copies only then, and the copy is counted\n");
  lt_tensor *ok = lt_reshape(x, 2, (int64_t[]){6, 4});
  show("reshape(x, [6,4]) (a view)", ok);
  lt_tensor *r = lt_reshape(t, 1, (int64_t[]){24});
  show("reshape(transpose, [24]) (a copy)", r);
  show_stats();

  printf("\n4. Under LT_COPY_FORBID the same reshape fails instead\n");
  lt_set_copy_policy(LT_COPY_FORBID);
  lt_tensor *f = lt_reshape(t, 1, (int64_t[]){24});
  if (!f) printf("  %s\n", lt_last_error());
  lt_set_copy_policy(LT_COPY_ALLOW);

  printf("\n5. contiguous() copies non-contiguous input, and returns contiguous input as is\n");
  lt_tensor *c = lt_contiguous(t);
  show("contiguous(transpose)", c);
  lt_tensor *c2 = lt_contiguous(x);
  printf("  contiguous(x) is x's storage: %s\n", lt_shares_storage(c2, x) ? "yes" : "no");
  show_stats();
  printf("\nRun with LT_TRACE=copies to see every copy as it happens.\n");

  lt_release(c2); lt_release(c); lt_release(f); lt_release(r); lt_release(ok);
  lt_release(v); lt_release(e); lt_release(row); lt_release(s); lt_release(t); lt_release(x);
  return 0;
}
