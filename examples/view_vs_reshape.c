/* view versus reshape: a view never copies and fails when it cannot be
 * expressed over the same memory; reshape copies exactly then, and the
 * copy trace (stderr) says so and why. */
#include <libtensor.h>
#include <stdio.h>

static void show(const char *what, const lt_tensor *t) {
  char d[160];
  lt_describe(t, d, sizeof d);
  printf("%-28s %s\n", what, d);
}

static void show_copies(const char *after) {
  lt_stats s = lt_stats_get(LT_HOST);
  printf("  copies after %s: %lld (%lld implicit), %lld bytes copied\n", after, (long long)s.copies,
         (long long)s.implicit_copies, (long long)s.bytes_copied);
}

/* Element i of a 24-element tensor in row-major order, read or written
 * through whatever strides it has. */
static float get(const lt_tensor *t, int i) {
  float buf[24] = {0};
  lt_read(t, buf, sizeof buf);
  return buf[i];
}

static void set(lt_tensor *t, int i, float v) {
  float buf[24] = {0};
  lt_read(t, buf, sizeof buf);
  buf[i] = v;
  lt_write(t, buf, sizeof buf);
}

int main(void) {
  float data[24];
  for (int i = 0; i < 24; i++) data[i] = (float)i;
  lt_tensor *x = lt_from_data(data, LT_F32, 2, (int64_t[]){4, 6});
  if (!x) return fprintf(stderr, "%s\n", lt_last_error()), 1;
  lt_set_trace(true); /* every copy from here on prints one line to stderr */
  lt_stats_reset(LT_HOST);
  show("x", x);

  /* Splitting a dim of a row-major tensor only changes strides. */
  lt_tensor *split = lt_view(x, 3, (int64_t[]){4, 2, 3});
  show("view(x, [4,2,3])", split);
  printf("  shares x's memory: %s\n", lt_shares_storage(split, x) ? "yes" : "no");

  /* The transpose is a view too, but its rows are no longer contiguous. */
  lt_tensor *t = lt_transpose(x, 0, 1);
  show("transpose(x, 0, 1)", t);
  lt_tensor *flat = lt_view(t, 1, (int64_t[]){24});
  printf("view(transpose, [24])        fails: %s\n  %s\n", lt_status_str(lt_last_status()), lt_last_error());
  show_copies("the views");

  /* reshape gives what view could not, by copying (the trace line). */
  fflush(stdout);
  lt_tensor *r = lt_reshape(t, 1, (int64_t[]){24});
  fflush(stderr);
  show("reshape(transpose, [24])", r);
  printf("  shares x's memory: %s\n", lt_shares_storage(r, x) ? "yes" : "no");
  show_copies("the reshape");

  /* Writing through a view changes x; writing into the copy does not. */
  set(t, 0, 100.0f);
  set(r, 0, -1.0f);
  printf("wrote 100 through transpose[0,0] and -1 into reshape's [0]: x[0,0] = %g, reshape[0] = %g\n",
         get(x, 0), get(r, 0));

  /* reshape is a view whenever view would be: no copy, nothing traced. */
  lt_tensor *again = lt_reshape(x, 2, (int64_t[]){6, 4});
  show("reshape(x, [6,4])", again);
  show_copies("a reshape that could be a view");

  lt_release(again); lt_release(r); lt_release(flat); lt_release(t); lt_release(split); lt_release(x);
  return 0;
}
