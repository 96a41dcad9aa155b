#include "support/check_helpers.h"

START_TEST(view_of_transpose_fails_with_the_fix_in_the_message) {
  lt_tensor *a = lt_test_arange_f32(2, (int64_t[]){6, 4});
  lt_tensor *t = lt_transpose(a, 0, 1);
  LT_ASSERT_FAILS(lt_view(t, 1, (int64_t[]){24}), LT_ERR_NOT_VIEWABLE);
  ck_assert_str_eq(lt_last_error(),
                   "view: cannot view f32[4,6] strides=[1,4] as [24] without a copy: dims 0 and 1 are not "
                   "contiguous with each other; use lt_reshape (copies 96 bytes) or lt_contiguous first");
  lt_tensor *r = lt_reshape(t, 1, (int64_t[]){24});
  LT_ASSERT_OK_PTR(r);
  const float *p = lt_data(r);
  for (int i = 0; i < 24; i++) ck_assert_float_eq(p[i], (float)((i % 6) * 4 + i / 6));
  lt_release(r);
  lt_release(t);
  lt_release(a);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("smoke");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, view_of_transpose_fails_with_the_fix_in_the_message);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return lt_run_suite(suite()); }
