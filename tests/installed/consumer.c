/* Built by .ci/run against the installed library (pkg-config) with
 * -std=c11 -Wall -Wextra -pedantic -Werror: the public header must stand on
 * its own and the shared library must export what it declares. */
#include <libtensor.h>
#include <stdio.h>

int main(void) {
  lt_tensor *x = lt_zeros(LT_F32, 2, (int64_t[]){4, 6}, LT_HOST);
  lt_tensor *t = lt_transpose(x, 0, 1);
  lt_tensor *v = lt_view(t, 1, (int64_t[]){24});
  int ok = x && t && !v && lt_last_status() == LT_ERR_NOT_VIEWABLE;
  lt_tensor *r = lt_reshape(t, 1, (int64_t[]){24});
  ok = ok && r && lt_stats_get(LT_HOST).implicit_copies == 1;
  char d[128];
  if (r) lt_describe(r, d, sizeof d);
  printf("%s\n", ok ? d : lt_last_error());
  lt_release(r);
  lt_release(t);
  lt_release(x);
  return ok ? 0 : 1;
}
