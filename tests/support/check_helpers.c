/* Shared helpers for the Check suites. */
#include "check_helpers.h"

#include <stdlib.h>

void lt_assert_geometry(const lt_tensor *t, int ndim, const int64_t *shape, const int64_t *strides,
                        int64_t offset) {
  char d[256];
  lt_describe(t, d, sizeof d);
  ck_assert_msg(lt_ndim(t) == ndim, "ndim %d != %d (%s)", lt_ndim(t), ndim, d);
  for (int i = 0; i < ndim; i++) {
    ck_assert_msg(lt_shape(t)[i] == shape[i], "shape[%d] %lld != %lld (%s)", i, (long long)lt_shape(t)[i],
                  (long long)shape[i], d);
    if (strides)
      ck_assert_msg(lt_strides(t)[i] == strides[i], "strides[%d] %lld != %lld (%s)", i,
                    (long long)lt_strides(t)[i], (long long)strides[i], d);
  }
  ck_assert_msg(lt_offset(t) == offset, "offset %lld != %lld (%s)", (long long)lt_offset(t), (long long)offset, d);
}

lt_tensor *lt_test_arange_f32(int ndim, const int64_t *shape) {
  lt_tensor *t = lt_empty(LT_F32, ndim, shape, LT_HOST);
  if (!t) return NULL;
  float *p = lt_data(t);
  for (int64_t i = 0; i < lt_numel(t); i++) p[i] = (float)i;
  return t;
}

static uint64_t rng_state;

void lt_test_seed(uint64_t s) { rng_state = s; }

int64_t lt_test_rand(int64_t lo, int64_t hi) {
  uint64_t x = rng_state;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  rng_state = x;
  return lo + (int64_t)(x % (uint64_t)(hi - lo + 1));
}

int64_t lt_test_numel(int ndim, const int64_t *shape) {
  int64_t n = 1;
  for (int i = 0; i < ndim; i++) n *= shape[i];
  return n;
}

bool lt_test_first_index(int ndim, const int64_t *shape, int64_t *idx) {
  for (int i = 0; i < ndim; i++) idx[i] = 0;
  return lt_test_numel(ndim, shape) > 0;
}

bool lt_test_next_index(int ndim, const int64_t *shape, int64_t *idx) {
  for (int d = ndim - 1; d >= 0; d--) {
    if (++idx[d] < shape[d]) return true;
    idx[d] = 0;
  }
  return false;
}

int lt_run_suite(Suite *s) {
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
