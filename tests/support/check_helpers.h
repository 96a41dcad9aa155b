/* Shared helpers for the Check suites: asserts that print lt_last_error()
 * on failure, and a main() runner that every suite uses. */
#ifndef LT_CHECK_HELPERS_H
#define LT_CHECK_HELPERS_H

#include <check.h>
#include <libtensor.h>

/* Asserts that a pointer-returning call succeeded. */
#define LT_ASSERT_OK_PTR(p) \
  ck_assert_msg((p) != NULL, "%s failed: %s: %s", #p, lt_status_str(lt_last_status()), lt_last_error())

/* Asserts a status-returning expression succeeded. */
#define LT_ASSERT_OK(expr)                                                                  \
  do {                                                                                      \
    lt_status s_ = (expr);                                                                  \
    ck_assert_msg(s_ == LT_OK, "%s -> %s: %s", #expr, lt_status_str(s_), lt_last_error()); \
  } while (0)

/* Asserts that a pointer-returning call failed with status st. */
#define LT_ASSERT_FAILS(p, st)                                                                  \
  do {                                                                                          \
    lt_tensor *r_ = (p);                                                                        \
    ck_assert_msg(r_ == NULL, "%s unexpectedly succeeded", #p);                                 \
    ck_assert_msg(lt_last_status() == (st), "%s: expected %s, got %s: %s", #p, lt_status_str(st), \
                  lt_status_str(lt_last_status()), lt_last_error());                            \
    ck_assert_msg(lt_last_error()[0] != '\0', "%s failed without a message", #p);              \
  } while (0)

/* Asserts that a status-returning call failed with st. */
#define LT_ASSERT_STATUS(expr, st)                                                          \
  do {                                                                                      \
    lt_status s_ = (expr);                                                                  \
    ck_assert_msg(s_ == (st), "%s: expected %s, got %s: %s", #expr, lt_status_str(st),      \
                  lt_status_str(s_), lt_last_error());                                      \
  } while (0)

/* Asserts shape and strides of t equal the given arrays. */
void lt_assert_geometry(const lt_tensor *t, int ndim, const int64_t *shape, const int64_t *strides,
                        int64_t offset);
#define LT_ASSERT_GEOMETRY(t, ndim, shape, strides, offset) lt_assert_geometry(t, ndim, shape, strides, offset)

/* A row-major f32 tensor holding 0, 1, 2, ... */
lt_tensor *lt_test_arange_f32(int ndim, const int64_t *shape);

/* A deterministic xorshift64 stream, seeded per test so that CK_FORK=no
 * runs agree: lt_test_seed, then lt_test_rand(lo, hi) in [lo, hi]. */
void lt_test_seed(uint64_t s);
int64_t lt_test_rand(int64_t lo, int64_t hi);

/* Product of shape (no overflow check: test shapes are small). */
int64_t lt_test_numel(int ndim, const int64_t *shape);
/* Row-major iteration over shape: first is false when there is no
 * element; next is false after the last one. */
bool lt_test_first_index(int ndim, const int64_t *shape, int64_t *idx);
bool lt_test_next_index(int ndim, const int64_t *shape, int64_t *idx);

/* Runs one suite and returns main's exit status. */
int lt_run_suite(Suite *s);

#endif
