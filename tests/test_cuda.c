/* Specification of the CUDA backend, against the CPU backend. When a CUDA
 * device answers, the same operations run on random layouts on both
 * devices and must agree: copies, casts and elementwise arithmetic bit for
 * bit (except that NaNs from arithmetic compare as NaN: GPU arithmetic
 * produces canonical NaNs where x86 keeps payloads; casts keep them on
 * both); exp, log, tanh, sigmoid, gelu and silu, sums, means, softmax and
 * matmul within the tolerances stated beside each check. When no device
 * answers, it checks what a machine without CUDA promises (clear
 * LT_ERR_DEVICE errors), prints "SKIP no CUDA device" and exits 77,
 * meson's skip status. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/check_helpers.h"

static const lt_device cuda0 = {LT_CUDA, 0};

static const lt_dtype all_dtypes[] = {LT_F32, LT_F16, LT_BF16, LT_F8_E4M3, LT_F8_E5M2,
                                      LT_F64, LT_I32, LT_I64, LT_U8, LT_BOOL};
#define NUM_DTYPES ((int)(sizeof all_dtypes / sizeof all_dtypes[0]))

static bool is_float(lt_dtype dt) { return dt <= LT_F64; }

/* ---- making inputs ---- */

/* A host tensor of random bytes: every bit pattern, NaNs and subnormals
 * included. */
static lt_tensor *host_bits(lt_dtype dt, int ndim, const int64_t *shape) {
  lt_tensor *t = lt_empty(dt, ndim, shape, LT_HOST);
  LT_ASSERT_OK_PTR(t);
  unsigned char *p = lt_data(t);
  size_t n = (size_t)lt_numel(t) * lt_dtype_size(dt);
  for (size_t i = 0; i < n; i++) p[i] = (unsigned char)lt_test_rand(0, 255);
  return t;
}

/* A host tensor of random values in [lo, hi] (multiples of 1/64 for
 * floats, integers otherwise, clamped to what the dtype holds), rounded
 * into dt by the CPU reference; with specials, about one element in 16
 * is NaN, an infinity, -0 or a subnormal. */
static lt_tensor *host_values(lt_dtype dt, int ndim, const int64_t *shape, int64_t lo, int64_t hi, bool specials) {
  lt_tensor *f = lt_empty(LT_F64, ndim, shape, LT_HOST);
  LT_ASSERT_OK_PTR(f);
  double *v = lt_data(f);
  if (dt == LT_U8) lo = lo < 0 ? 0 : lo, hi = hi > 255 ? 255 : hi;
  if (dt == LT_BOOL) lo = 0, hi = 1;
  for (int64_t i = 0; i < lt_numel(f); i++) {
    v[i] = is_float(dt) ? (double)lt_test_rand(lo * 64, hi * 64) / 64 : (double)lt_test_rand(lo, hi);
    if (specials && is_float(dt) && lt_test_rand(0, 15) == 0) {
      static const double special[] = {NAN, -NAN, INFINITY, -INFINITY, -0.0, 1e-40, -3e-8};
      v[i] = special[lt_test_rand(0, 6)];
    }
  }
  lt_tensor *t = lt_cast(f, dt, LT_CAST_SATURATE);
  LT_ASSERT_OK_PTR(t);
  lt_release(f);
  return t;
}

static lt_tensor *on_cuda(const lt_tensor *t) {
  lt_tensor *d = lt_to_device(t, cuda0);
  LT_ASSERT_OK_PTR(d);
  ck_assert_int_eq(lt_device_of(d).kind, LT_CUDA);
  return d;
}

static lt_tensor *on_host(const lt_tensor *t) {
  lt_tensor *h = lt_to_device(t, LT_HOST);
  LT_ASSERT_OK_PTR(h);
  return h;
}

/* A random view recipe, applied alike to a host tensor and its device
 * copy: a permutation, then a slice of every dim (steps -3..3, not 0),
 * then (for sources) size-1 dims expanded. */
typedef struct recipe {
  int ndim;
  int perm[4];
  int64_t start[4], stop[4], step[4];
  int64_t expand_to[4]; /* 0: keep */
} recipe;

static recipe random_recipe(int ndim, const int64_t *shape, bool expand) {
  recipe r = {.ndim = ndim};
  for (int i = 0; i < ndim; i++) r.perm[i] = i;
  for (int i = ndim - 1; i > 0; i--) {
    int j = (int)lt_test_rand(0, i), t = r.perm[i];
    r.perm[i] = r.perm[j], r.perm[j] = t;
  }
  for (int i = 0; i < ndim; i++) {
    int64_t n = shape[r.perm[i]];
    r.step[i] = lt_test_rand(0, 2) ? 1 : lt_test_rand(-3, 3);
    if (r.step[i] == 0) r.step[i] = -1;
    r.start[i] = lt_test_rand(0, 1) ? LT_NONE : lt_test_rand(-n, n);
    r.stop[i] = lt_test_rand(0, 1) ? LT_NONE : lt_test_rand(-n, n);
    r.expand_to[i] = expand && lt_test_rand(0, 3) == 0 ? lt_test_rand(2, 5) : 0;
  }
  return r;
}

static lt_tensor *apply_recipe(const lt_tensor *t, const recipe *r) {
  lt_tensor *v = lt_permute(t, r->perm);
  LT_ASSERT_OK_PTR(v);
  for (int i = 0; i < r->ndim; i++) {
    lt_tensor *s = lt_slice(v, i, r->start[i], r->stop[i], r->step[i]);
    LT_ASSERT_OK_PTR(s);
    lt_release(v);
    v = s;
    if (r->expand_to[i] && lt_size(v, i) == 1) {
      int64_t shape[4];
      for (int k = 0; k < r->ndim; k++) shape[k] = k == i ? r->expand_to[i] : -1;
      lt_tensor *e = lt_expand(v, r->ndim, shape);
      LT_ASSERT_OK_PTR(e);
      lt_release(v);
      v = e;
    }
  }
  return v;
}

/* 1 to max_ndim dims of 1 to max elements each. */
static void random_shape(int *ndim, int64_t *shape, int max_ndim, int64_t max) {
  *ndim = (int)lt_test_rand(1, max_ndim);
  for (int i = 0; i < *ndim; i++) shape[i] = lt_test_rand(1, max);
}

/* ---- comparing results ---- */

/* t's elements (any device) as row-major host bytes; caller frees. */
static unsigned char *bytes_of(const lt_tensor *t, size_t *n) {
  *n = (size_t)lt_numel(t) * lt_dtype_size(lt_dtype_of(t));
  unsigned char *b = malloc(*n ? *n : 1);
  ck_assert_ptr_nonnull(b);
  LT_ASSERT_OK(lt_read(t, b, *n));
  return b;
}

/* t's elements as doubles (through the CPU's exact widening). */
static double *values_of(const lt_tensor *t) {
  lt_tensor *h = on_host(t);
  lt_tensor *f = lt_cast(h, LT_F64, LT_CAST_DEFAULT);
  LT_ASSERT_OK_PTR(f);
  size_t n;
  double *v = (double *)(void *)bytes_of(f, &n);
  lt_release(f);
  lt_release(h);
  return v;
}

/* Same shape and dtype, and the same bytes; with nan_class, two NaNs of a
 * float dtype also count as equal whatever their bits. */
static void assert_same(const lt_tensor *cpu, const lt_tensor *gpu, bool nan_class, const char *what) {
  if (!cpu) { /* an op the CPU refuses (e.g. a dtype it has no meaning for): refused alike */
    ck_assert_msg(gpu == NULL, "%s: the cpu refused it (%s) but cuda did not", what, lt_last_error());
    return;
  }
  ck_assert_msg(gpu != NULL, "%s: cuda failed: %s", what, lt_last_error());
  ck_assert_int_eq(lt_dtype_of(cpu), lt_dtype_of(gpu));
  ck_assert_int_eq(lt_ndim(cpu), lt_ndim(gpu));
  for (int d = 0; d < lt_ndim(cpu); d++) ck_assert_int_eq(lt_size(cpu, d), lt_size(gpu, d));
  size_t n, m, es = lt_dtype_size(lt_dtype_of(cpu));
  unsigned char *a = bytes_of(cpu, &n), *b = bytes_of(gpu, &m);
  ck_assert_uint_eq(n, m);
  if (memcmp(a, b, n) != 0) {
    double *x = values_of(cpu), *y = values_of(gpu);
    for (size_t i = 0; i < n / es; i++) {
      if (memcmp(a + i * es, b + i * es, es) == 0) continue;
      if (nan_class && is_float(lt_dtype_of(cpu)) && isnan(x[i]) && isnan(y[i])) continue;
      ck_abort_msg("%s (%s): element %zu differs: cpu %.17g, cuda %.17g", what, lt_dtype_name(lt_dtype_of(cpu)), i,
                   x[i], y[i]);
    }
    free(x);
    free(y);
  }
  free(a);
  free(b);
}

/* The relative size of one unit in the last place of dt's floats. */
static double ulp_of(lt_dtype dt) {
  switch (dt) {
  case LT_F64: return 0x1p-52;
  case LT_F32: return 0x1p-23;
  case LT_F16: return 0x1p-10;
  case LT_BF16: return 0x1p-7;
  case LT_F8_E4M3: return 0x1p-3;
  case LT_F8_E5M2: return 0x1p-2;
  default: return 0;
  }
}

/* |gpu - cpu| <= rel * |cpu| + bound[i] (bound NULL: 0) + the smallest
 * subnormal of F32, element by element; infinities and NaNs must match
 * in kind. */
static void assert_close(const lt_tensor *cpu, const lt_tensor *gpu, double rel, const double *bound, const char *what) {
  ck_assert_int_eq(lt_dtype_of(cpu), lt_dtype_of(gpu));
  ck_assert_int_eq(lt_numel(cpu), lt_numel(gpu));
  double *x = values_of(cpu), *y = values_of(gpu);
  for (int64_t i = 0; i < lt_numel(cpu); i++) {
    bool ok = isnan(x[i]) ? isnan(y[i]) : isinf(x[i]) ? x[i] == y[i]
                                         : fabs(y[i] - x[i]) <= rel * fabs(x[i]) + (bound ? bound[i] : 0) + 0x1p-149;
    if (!ok)
      ck_abort_msg("%s (%s): element %lld: cpu %.17g, cuda %.17g, allowed %.3g", what, lt_dtype_name(lt_dtype_of(cpu)),
                   (long long)i, x[i], y[i], rel * fabs(x[i]) + (bound ? bound[i] : 0));
  }
  free(x);
  free(y);
}

/* ---- copies ---------------------------------------------------------------------------- */

START_TEST(contiguous_of_random_views_matches_the_cpu_bit_for_bit) {
  lt_test_seed(0x5eed0001);
  for (int it = 0; it < 150; it++) {
    lt_dtype dt = all_dtypes[lt_test_rand(0, NUM_DTYPES - 1)];
    int ndim;
    int64_t shape[4];
    if (it % 10 == 0) random_shape(&ndim, shape, 3, 90); /* past the tile edges */
    else random_shape(&ndim, shape, 4, 9);
    lt_tensor *h = host_bits(dt, ndim, shape), *d = on_cuda(h);
    recipe r = random_recipe(ndim, shape, true);
    lt_tensor *vh = apply_recipe(h, &r), *vd = apply_recipe(d, &r);
    lt_tensor *ch = lt_contiguous(vh), *cd = lt_contiguous(vd);
    LT_ASSERT_OK_PTR(cd);
    ck_assert(lt_is_contiguous(cd));
    assert_same(ch, cd, false, "contiguous");
    assert_same(vh, vd, false, "lt_read of a strided device view");
    lt_release(ch), lt_release(cd), lt_release(vh), lt_release(vd), lt_release(h), lt_release(d);
  }
}
END_TEST

START_TEST(permute_copies_of_every_element_size_match_the_cpu) {
  /* Large enough for many 32 x 32 and 64 x 64 tiles with ragged edges,
   * and an outer dim the tile kernel loops over. */
  static const int perms[][3] = {{2, 0, 1}, {1, 2, 0}, {0, 2, 1}, {2, 1, 0}};
  lt_test_seed(0x5eed0002);
  lt_dtype dts[] = {LT_U8, LT_F16, LT_F32, LT_F64};
  for (int i = 0; i < 4; i++) {
    lt_tensor *h = host_bits(dts[i], 3, (int64_t[]){7, 133, 70}), *d = on_cuda(h);
    for (int p = 0; p < 4; p++) {
      lt_tensor *vh = lt_permute(h, perms[p]), *vd = lt_permute(d, perms[p]);
      lt_tensor *ch = lt_contiguous(vh), *cd = lt_contiguous(vd);
      LT_ASSERT_OK_PTR(cd);
      assert_same(ch, cd, false, "permute copy");
      lt_release(ch), lt_release(cd), lt_release(vh), lt_release(vd);
    }
    lt_release(h), lt_release(d);
  }
}
END_TEST

START_TEST(to_device_and_back_keeps_every_byte_of_any_layout) {
  lt_test_seed(0x5eed0003);
  for (int it = 0; it < 60; it++) {
    lt_dtype dt = all_dtypes[lt_test_rand(0, NUM_DTYPES - 1)];
    int ndim;
    int64_t shape[4];
    random_shape(&ndim, shape, 4, 8);
    lt_tensor *h = host_bits(dt, ndim, shape);
    recipe r = random_recipe(ndim, shape, true);
    lt_tensor *vh = apply_recipe(h, &r);
    lt_tensor *d = on_cuda(vh); /* a strided host source gathers first */
    ck_assert(lt_is_contiguous(d));
    assert_same(vh, d, false, "to_device of a view");
    lt_tensor *back = on_host(d);
    ck_assert_int_eq(lt_device_of(back).kind, LT_CPU);
    assert_same(vh, back, false, "to_device and back");
    lt_release(back), lt_release(d), lt_release(vh), lt_release(h);
  }
}
END_TEST

START_TEST(write_into_a_strided_device_view_lands_where_the_cpu_puts_it) {
  lt_test_seed(0x5eed0004);
  for (int it = 0; it < 40; it++) {
    lt_dtype dt = all_dtypes[lt_test_rand(0, NUM_DTYPES - 1)];
    int ndim;
    int64_t shape[4];
    random_shape(&ndim, shape, 4, 8);
    lt_tensor *h = host_bits(dt, ndim, shape), *d = on_cuda(h);
    recipe r = random_recipe(ndim, shape, false);
    lt_tensor *vh = apply_recipe(h, &r), *vd = apply_recipe(d, &r);
    lt_tensor *src = host_bits(dt, lt_ndim(vh), lt_shape(vh));
    size_t n;
    unsigned char *b = bytes_of(src, &n);
    LT_ASSERT_OK(lt_write(vh, b, n));
    LT_ASSERT_OK(lt_write(vd, b, n));
    assert_same(h, d, false, "write into a view");
    free(b);
    lt_release(src), lt_release(vh), lt_release(vd), lt_release(h), lt_release(d);
  }
}
END_TEST

START_TEST(copy_broadcasts_and_converts_within_and_across_devices) {
  lt_test_seed(0x5eed0005);
  for (int it = 0; it < 60; it++) {
    lt_dtype st = all_dtypes[lt_test_rand(0, NUM_DTYPES - 1)], dt = all_dtypes[lt_test_rand(0, NUM_DTYPES - 1)];
    /* dst [a, b, c] written through its transpose [c, b, a]; src [1, b]
     * transposed to [b, 1], broadcast to [c, b, a]. */
    int64_t shape[3] = {lt_test_rand(1, 40), lt_test_rand(1, 6), lt_test_rand(1, 6)};
    lt_tensor *src_h = host_values(st, 2, (int64_t[]){1, shape[1]}, 0, 100, false); /* fits every dtype */
    lt_tensor *src_d = on_cuda(src_h);
    lt_tensor *dst_h = lt_zeros(dt, 3, shape, LT_HOST), *dst_d = lt_zeros(dt, 3, shape, cuda0);
    lt_tensor *th = lt_transpose(dst_h, 0, 2), *td = lt_transpose(dst_d, 0, 2);
    lt_tensor *sh = lt_transpose(src_h, 0, 1), *sd = lt_transpose(src_d, 0, 1);
    LT_ASSERT_OK(lt_copy(th, sh));
    LT_ASSERT_OK(lt_copy(td, sd));
    assert_same(dst_h, dst_d, false, "copy on the device");
    lt_tensor *again = lt_zeros(dt, 3, shape, cuda0), *ta = lt_transpose(again, 0, 2);
    LT_ASSERT_OK(lt_copy(ta, sh)); /* host source, device destination */
    assert_same(dst_h, again, false, "copy from the host");
    lt_tensor *back = lt_zeros(dt, 3, shape, LT_HOST), *tb = lt_transpose(back, 0, 2);
    LT_ASSERT_OK(lt_copy(tb, sd)); /* device source, host destination */
    assert_same(dst_h, back, false, "copy to the host");
    lt_release(tb), lt_release(back), lt_release(ta), lt_release(again);
    lt_release(sh), lt_release(sd), lt_release(th), lt_release(td);
    lt_release(dst_h), lt_release(dst_d), lt_release(src_h), lt_release(src_d);
  }
}
END_TEST

START_TEST(zeros_on_the_device_reads_zeros_and_data_is_null) {
  lt_tensor *z = lt_zeros(LT_F32, 2, (int64_t[]){3, 5}, cuda0);
  LT_ASSERT_OK_PTR(z);
  ck_assert_ptr_null(lt_data(z));
  ck_assert_int_eq(lt_last_status(), LT_OK);
  float got[15];
  memset(got, 0xFF, sizeof got);
  LT_ASSERT_OK(lt_read(z, got, sizeof got));
  for (int i = 0; i < 15; i++) ck_assert(got[i] == 0.0f && !signbit(got[i]));
  lt_release(z);
}
END_TEST

START_TEST(device_storage_is_counted_in_the_device_stats) {
  lt_stats_reset(cuda0);
  lt_stats before = lt_stats_get(cuda0);
  lt_tensor *t = lt_empty(LT_F64, 2, (int64_t[]){100, 10}, cuda0);
  LT_ASSERT_OK_PTR(t);
  lt_stats s = lt_stats_get(cuda0);
  ck_assert_int_eq(s.bytes_in_use - before.bytes_in_use, 8000);
  ck_assert_int_ge(s.peak_bytes, s.bytes_in_use);
  ck_assert_int_eq(s.allocs - before.allocs, 1);
  lt_tensor *c = lt_clone(t);
  ck_assert_int_eq(lt_stats_get(cuda0).copies - before.copies, 1);
  ck_assert_int_eq(lt_stats_get(cuda0).bytes_copied - before.bytes_copied, 8000);
  lt_release(c);
  lt_release(t);
  ck_assert_int_eq(lt_stats_get(cuda0).bytes_in_use, before.bytes_in_use);
}
END_TEST

START_TEST(a_released_block_serves_the_next_allocation_of_its_size) {
  /* Many cycles of one size: each after the first comes from the cache,
   * and bytes_in_use returns to where it was every time. */
  int64_t base = lt_stats_get(cuda0).bytes_in_use;
  for (int i = 0; i < 200; i++) {
    lt_tensor *t = lt_empty(LT_U8, 1, (int64_t[]){1000 + i % 3}, cuda0);
    LT_ASSERT_OK_PTR(t);
    lt_release(t);
    ck_assert_int_eq(lt_stats_get(cuda0).bytes_in_use, base);
  }
}
END_TEST

/* ---- casts --------------------------------------------------------------------------- */

/* Casts base (host), or its transpose when transposed, to dt with mode on
 * both devices: same status, and on success the same bytes. */
static void check_cast(const lt_tensor *base, bool transposed, lt_dtype dt, lt_cast_mode mode) {
  lt_tensor *base_d = on_cuda(base);
  lt_tensor *src_h = transposed ? lt_transpose(base, 0, 1) : lt_retain((lt_tensor *)base);
  lt_tensor *src_d = transposed ? lt_transpose(base_d, 0, 1) : lt_retain(base_d);
  lt_tensor *ch = lt_cast(src_h, dt, mode);
  lt_status sh = lt_last_status();
  lt_tensor *cd = lt_cast(src_d, dt, mode);
  lt_status sd = lt_last_status();
  ck_assert_msg(sh == sd, "cast %s -> %s: cpu %s, cuda %s (%s)", lt_dtype_name(lt_dtype_of(src_h)), lt_dtype_name(dt),
                lt_status_str(sh), lt_status_str(sd), lt_last_error());
  if (ch) {
    char what[64];
    snprintf(what, sizeof what, "cast %s -> %s mode %d", lt_dtype_name(lt_dtype_of(src_h)), lt_dtype_name(dt), (int)mode);
    assert_same(ch, cd, false, what);
  }
  lt_release(ch), lt_release(cd), lt_release(src_h), lt_release(src_d), lt_release(base_d);
}

START_TEST(casts_of_every_dtype_pair_and_mode_match_the_cpu_bit_for_bit) {
  lt_test_seed(0x5eed0006);
  for (int i = 0; i < NUM_DTYPES; i++) {
    lt_tensor *bits = host_bits(all_dtypes[i], 2, (int64_t[]){40, 50});
    lt_tensor *vals = host_values(all_dtypes[i], 2, (int64_t[]){40, 50}, -300, 300, true);
    for (int j = 0; j < NUM_DTYPES; j++)
      for (int mode = 0; mode < 2; mode++) {
        check_cast(bits, false, all_dtypes[j], (lt_cast_mode)mode);
        check_cast(vals, true, all_dtypes[j], (lt_cast_mode)mode); /* strided through the conversion kernel */
      }
    lt_release(vals), lt_release(bits);
  }
}
END_TEST

START_TEST(every_f16_bf16_and_fp8_pattern_converts_as_on_the_cpu) {
  lt_dtype narrow[] = {LT_F16, LT_BF16, LT_F8_E4M3, LT_F8_E5M2};
  for (int i = 0; i < 4; i++) {
    int64_t n = lt_dtype_size(narrow[i]) == 2 ? 65536 : 256;
    lt_tensor *t = lt_empty(narrow[i], 1, &n, LT_HOST);
    LT_ASSERT_OK_PTR(t);
    for (int64_t k = 0; k < n; k++) {
      if (n == 256) ((uint8_t *)lt_data(t))[k] = (uint8_t)k;
      else ((uint16_t *)lt_data(t))[k] = (uint16_t)k;
    }
    for (int j = 0; j < NUM_DTYPES; j++) {
      check_cast(t, false, all_dtypes[j], LT_CAST_DEFAULT);
      check_cast(t, false, all_dtypes[j], LT_CAST_SATURATE);
    }
    lt_release(t);
  }
}
END_TEST

START_TEST(random_f32_bit_patterns_round_to_the_narrow_floats_as_on_the_cpu) {
  lt_test_seed(0x5eed0007);
  lt_tensor *t = host_bits(LT_F32, 1, (int64_t[]){1 << 18});
  lt_dtype narrow[] = {LT_F16, LT_BF16, LT_F8_E4M3, LT_F8_E5M2, LT_F64};
  for (int i = 0; i < 5; i++) {
    check_cast(t, false, narrow[i], LT_CAST_DEFAULT);
    check_cast(t, false, narrow[i], LT_CAST_SATURATE);
  }
  lt_release(t);
}
END_TEST

START_TEST(a_nan_cast_to_an_integer_fails_on_the_device_as_on_the_cpu) {
  float v[3] = {1.0f, NAN, 2.0f};
  lt_tensor *h = lt_from_data(v, LT_F32, 1, (int64_t[]){3}), *d = on_cuda(h);
  LT_ASSERT_FAILS(lt_cast(d, LT_I32, LT_CAST_DEFAULT), LT_ERR_ARG);
  ck_assert_ptr_nonnull(strstr(lt_last_error(), "NaN or out of range"));
  lt_release(h), lt_release(d);
}
END_TEST

/* ---- elementwise ----------------------------------------------------------------------- */

typedef lt_tensor *(*binary_fn)(const lt_tensor *, const lt_tensor *);
typedef lt_tensor *(*unary_fn)(const lt_tensor *);

static const struct {
  const char *name;
  binary_fn fn;
} binaries[] = {{"add", lt_add}, {"sub", lt_sub}, {"mul", lt_mul}, {"div", lt_div}, {"maximum", lt_maximum},
                {"minimum", lt_minimum}};

/* exact: the op is correctly rounded IEEE arithmetic on both devices. */
static const struct {
  const char *name;
  unary_fn fn;
  bool exact;
} unaries[] = {{"neg", lt_neg, true},       {"abs", lt_abs, true},        {"exp", lt_exp, false},
               {"log", lt_log, false},      {"sqrt", lt_sqrt, true},      {"rsqrt", lt_rsqrt, true},
               {"tanh", lt_tanh, false},    {"sigmoid", lt_sigmoid, false}, {"relu", lt_relu, true},
               {"gelu", lt_gelu, false},    {"silu", lt_silu, false}};

static const lt_dtype ew_dtypes[] = {LT_F32, LT_F64, LT_F16, LT_BF16, LT_F8_E4M3, LT_I32, LT_I64, LT_U8};

/* CUDA's expf, logf, tanhf and erff are within 2 ulp of the exact value,
 * glibc's within 1: the two results lie within 4 F32 ulps (a few ulps
 * more through sigmoid's and silu's divisions), then at most one ulp
 * apart after rounding into a narrower dtype. */
static double transcendental_tolerance(lt_dtype result) {
  return result == LT_F64 ? 16 * 0x1p-52 : 16 * 0x1p-23 + ulp_of(result);
}

/* gelu's 1 + erf(x/sqrt 2) cancels for negative x, so an ulp of erf near
 * -1 is a large relative error: its error is absolute, |x| ulps of 1. */
static double *gelu_bound(const lt_tensor *x, lt_dtype result) {
  double *v = values_of(x);
  double u = result == LT_F64 ? 0x1p-50 : 0x1p-21;
  for (int64_t i = 0; i < lt_numel(x); i++) v[i] = isfinite(v[i]) ? fabs(v[i]) * u : 0;
  return v;
}

START_TEST(binary_ops_on_broadcast_strided_inputs_match_the_cpu_bit_for_bit) {
  lt_test_seed(0x5eed0008);
  for (size_t op = 0; op < sizeof binaries / sizeof binaries[0]; op++)
    for (size_t i = 0; i < sizeof ew_dtypes / sizeof ew_dtypes[0]; i++) {
      lt_dtype da = ew_dtypes[i], db = ew_dtypes[lt_test_rand(0, 7)];
      lt_tensor *a = host_values(da, 2, (int64_t[]){23, 37}, -20, 20, true);
      lt_tensor *b = host_values(db, 2, (int64_t[]){1, 23}, -20, 20, true);
      lt_tensor *at = lt_transpose(a, 0, 1); /* [37, 23], transposed */
      lt_tensor *ad = on_cuda(a), *bd = on_cuda(b), *atd = lt_transpose(ad, 0, 1);
      lt_tensor *ch = binaries[op].fn(at, b), *cd = binaries[op].fn(atd, bd);
      LT_ASSERT_OK_PTR(ch);
      LT_ASSERT_OK_PTR(cd);
      ck_assert_int_eq(lt_device_of(cd).kind, LT_CUDA);
      char what[64];
      snprintf(what, sizeof what, "%s(%s, %s)", binaries[op].name, lt_dtype_name(da), lt_dtype_name(db));
      assert_same(ch, cd, true, what);
      lt_release(ch), lt_release(cd), lt_release(at), lt_release(atd);
      lt_release(a), lt_release(b), lt_release(ad), lt_release(bd);
    }
}
END_TEST

START_TEST(unary_ops_match_the_cpu_exactly_or_within_their_tolerance) {
  lt_test_seed(0x5eed0009);
  for (size_t op = 0; op < sizeof unaries / sizeof unaries[0]; op++)
    for (size_t i = 0; i < sizeof ew_dtypes / sizeof ew_dtypes[0]; i++) {
      lt_dtype dt = ew_dtypes[i];
      lt_tensor *a = host_values(dt, 3, (int64_t[]){5, 17, 9}, -12, 12, true);
      lt_tensor *s = lt_slice(a, 1, LT_NONE, LT_NONE, -2), *ad = on_cuda(a);
      lt_tensor *sd = lt_slice(ad, 1, LT_NONE, LT_NONE, -2);
      lt_tensor *ch = unaries[op].fn(s), *cd = unaries[op].fn(sd);
      if (!ch) { /* neg of bool and the like: refused alike */
        ck_assert_ptr_null(cd);
      } else {
        LT_ASSERT_OK_PTR(cd);
        char what[64];
        snprintf(what, sizeof what, "%s(%s)", unaries[op].name, lt_dtype_name(dt));
        double *bound = unaries[op].fn == lt_gelu ? gelu_bound(s, lt_dtype_of(ch)) : NULL;
        if (unaries[op].exact || !is_float(lt_dtype_of(ch))) assert_same(ch, cd, true, what);
        else assert_close(ch, cd, transcendental_tolerance(lt_dtype_of(ch)), bound, what);
        free(bound);
      }
      lt_release(ch), lt_release(cd), lt_release(s), lt_release(sd), lt_release(a), lt_release(ad);
    }
}
END_TEST

START_TEST(scalar_forms_and_out_forms_match_the_cpu) {
  lt_test_seed(0x5eed000a);
  lt_tensor *a = host_values(LT_BF16, 2, (int64_t[]){30, 20}, -50, 50, true), *ad = on_cuda(a);
  lt_tensor *ch = lt_add_scalar(a, 0.375), *cd = lt_add_scalar(ad, 0.375);
  assert_same(ch, cd, true, "add_scalar");
  lt_release(ch), lt_release(cd);
  ch = lt_mul_scalar(a, -3.0), cd = lt_mul_scalar(ad, -3.0);
  assert_same(ch, cd, true, "mul_scalar");
  lt_release(ch), lt_release(cd);
  /* Into a transposed F16 destination: converted on store. */
  lt_tensor *oh = lt_zeros(LT_F16, 2, (int64_t[]){20, 30}, LT_HOST), *od = lt_zeros(LT_F16, 2, (int64_t[]){20, 30}, cuda0);
  lt_tensor *th = lt_transpose(oh, 0, 1), *td = lt_transpose(od, 0, 1);
  LT_ASSERT_OK(lt_mul_out(th, a, a));
  LT_ASSERT_OK(lt_mul_out(td, ad, ad));
  assert_same(oh, od, true, "mul_out into a transposed f16 dst");
  lt_release(th), lt_release(td), lt_release(oh), lt_release(od), lt_release(a), lt_release(ad);
}
END_TEST

START_TEST(inputs_on_different_devices_are_a_device_error) {
  lt_tensor *a = lt_zeros(LT_F32, 1, (int64_t[]){4}, LT_HOST), *b = lt_zeros(LT_F32, 1, (int64_t[]){4}, cuda0);
  LT_ASSERT_FAILS(lt_add(a, b), LT_ERR_DEVICE);
  LT_ASSERT_FAILS(lt_matmul(a, b), LT_ERR_DEVICE);
  lt_release(a), lt_release(b);
}
END_TEST

/* ---- reductions -------------------------------------------------------------------------- */

/* sum_abs: the CPU's sum of |x| over the same dims (in F64), the scale of
 * a sum's rounding error. */
static double *abs_sums(const lt_tensor *x, int ndims, const int *dims) {
  lt_tensor *f = lt_cast(x, LT_F64, LT_CAST_DEFAULT), *a = lt_abs(f), *s = lt_sum(a, ndims, dims, false);
  LT_ASSERT_OK_PTR(s);
  double *v = values_of(s);
  lt_release(f), lt_release(a), lt_release(s);
  return v;
}

START_TEST(reductions_over_random_dims_match_the_cpu) {
  lt_test_seed(0x5eed000b);
  static const lt_dtype dts[] = {LT_F32, LT_BF16, LT_F64, LT_F16, LT_I32, LT_U8, LT_BOOL};
  for (int it = 0; it < 60; it++) {
    lt_dtype dt = dts[lt_test_rand(0, 6)];
    int ndim;
    int64_t shape[4];
    /* Now and then a long reduced dim, split over several blocks. */
    if (it % 6 == 0) ndim = 2, shape[0] = lt_test_rand(1, 3), shape[1] = lt_test_rand(20000, 300000);
    else random_shape(&ndim, shape, 4, 12);
    lt_tensor *h = host_values(dt, ndim, shape, -8, 8, it % 3 == 0), *d = on_cuda(h);
    recipe r = random_recipe(ndim, shape, false);
    lt_tensor *vh = apply_recipe(h, &r), *vd = apply_recipe(d, &r);
    int dims[4], nd = (int)lt_test_rand(0, ndim);
    for (int k = 0; k < nd; k++) dims[k] = ndim - 1 - k; /* the innermost nd dims */
    bool empty = lt_numel(vh) == 0;
    lt_tensor *xh, *xd;
    /* amax, amin, argmax: exact. */
    if (!empty) {
      xh = lt_amax(vh, nd, dims, false), xd = lt_amax(vd, nd, dims, false);
      assert_same(xh, xd, true, "amax");
      lt_release(xh), lt_release(xd);
      xh = lt_amin(vh, nd, dims, true), xd = lt_amin(vd, nd, dims, true);
      assert_same(xh, xd, true, "amin");
      lt_release(xh), lt_release(xd);
      xh = lt_argmax(vh, -1, false), xd = lt_argmax(vd, -1, false);
      assert_same(xh, xd, false, "argmax");
      lt_release(xh), lt_release(xd);
    }
    /* sum: integers exactly; floats within 2^-21 of the sum of |x| (F32
     * accumulation in two different orders) plus one ulp of the result's
     * dtype. */
    xh = lt_sum(vh, nd, dims, false), xd = lt_sum(vd, nd, dims, false);
    LT_ASSERT_OK_PTR(xd);
    if (!is_float(dt)) {
      assert_same(xh, xd, false, "integer sum");
    } else {
      double *bound = abs_sums(vh, nd, dims);
      double scale = dt == LT_F64 ? 0x1p-48 : 0x1p-21;
      for (int64_t k = 0; k < lt_numel(xh); k++) bound[k] *= scale;
      assert_close(xh, xd, ulp_of(dt), bound, "sum");
      int64_t outs = lt_numel(xh), count = outs ? lt_numel(vh) / outs : 0;
      lt_release(xh), lt_release(xd);
      xh = lt_mean(vh, nd, dims, false), xd = lt_mean(vd, nd, dims, false);
      for (int64_t k = 0; k < outs; k++) bound[k] /= (double)(count ? count : 1);
      assert_close(xh, xd, 2 * ulp_of(dt), bound, "mean");
      free(bound);
    }
    lt_release(xh), lt_release(xd), lt_release(vh), lt_release(vd), lt_release(h), lt_release(d);
  }
}
END_TEST

START_TEST(a_sum_of_2_pow_24_f32_ones_is_exact_on_the_device) {
  int64_t n = (int64_t)1 << 24;
  lt_tensor *one = lt_from_data((float[]){1.0f}, LT_F32, 1, (int64_t[]){1});
  lt_tensor *d1 = on_cuda(one), *e = lt_expand(d1, 1, &n), *s = lt_sum(e, 0, NULL, false);
  LT_ASSERT_OK_PTR(s);
  float got;
  LT_ASSERT_OK(lt_read(s, &got, sizeof got));
  ck_assert(got == 16777216.0f);
  lt_release(s), lt_release(e), lt_release(d1), lt_release(one);
}
END_TEST

START_TEST(softmax_and_log_softmax_match_the_cpu_within_tolerance) {
  lt_test_seed(0x5eed000c);
  static const lt_dtype dts[] = {LT_F32, LT_BF16, LT_F64, LT_F16};
  for (int it = 0; it < 16; it++) {
    lt_dtype dt = dts[it % 4];
    int64_t shape[3] = {lt_test_rand(1, 5), lt_test_rand(1, 700), lt_test_rand(1, 7)};
    lt_tensor *h = host_values(dt, 3, shape, -30, 30, false), *d = on_cuda(h);
    int dim = (int)lt_test_rand(0, 2);
    /* exp in both, then a sum of n terms each within 2 ulp: 2^-20
     * relative, plus one ulp of the dtype. */
    double rel = (dt == LT_F64 ? 64 * 0x1p-52 : 0x1p-19) + ulp_of(dt);
    lt_tensor *xh = lt_softmax(h, dim), *xd = lt_softmax(d, dim);
    assert_close(xh, xd, rel, NULL, "softmax");
    lt_release(xh), lt_release(xd);
    xh = lt_log_softmax(h, dim), xd = lt_log_softmax(d, dim);
    /* log-softmax's error is absolute: log(sum) is off by about rel. */
    double *bound = malloc(sizeof(double) * (size_t)lt_numel(xh));
    ck_assert_ptr_nonnull(bound);
    for (int64_t k = 0; k < lt_numel(xh); k++) bound[k] = (dt == LT_F64 ? 0x1p-44 : 0x1p-18);
    assert_close(xh, xd, ulp_of(dt), bound, "log_softmax");
    free(bound);
    lt_release(xh), lt_release(xd), lt_release(h), lt_release(d);
  }
}
END_TEST

START_TEST(einops_reduce_matches_the_cpu) {
  lt_test_seed(0x5eed000d);
  static const lt_reduction ops[] = {LT_SUM, LT_MEAN, LT_MAX, LT_MIN, LT_PROD};
  static const lt_dtype dts[] = {LT_F32, LT_I32, LT_F64, LT_BF16};
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 4; j++) {
      if (ops[i] == LT_MEAN && !is_float(dts[j])) continue;
      lt_tensor *h = host_values(dts[j], 3, (int64_t[]){6, 9, 5}, -3, 3, false), *d = on_cuda(h);
      lt_tensor *xh = lt_reduce(h, "a b c -> c a", ops[i], NULL, 0), *xd = lt_reduce(d, "a b c -> c a", ops[i], NULL, 0);
      LT_ASSERT_OK_PTR(xd);
      if (ops[i] == LT_MAX || ops[i] == LT_MIN || !is_float(dts[j])) assert_same(xh, xd, true, "reduce");
      else assert_close(xh, xd, 1e-12 + ulp_of(dts[j]), NULL, "reduce (F64 accumulation)");
      lt_release(xh), lt_release(xd), lt_release(h), lt_release(d);
    }
}
END_TEST

/* ---- matmul ------------------------------------------------------------------------------ */

/* Checks lt_matmul(a, b) on both devices: |cuda - cpu| <= 2 k u sum_k
 * |a||b| (two summation orders, u the compute type's unit roundoff) plus
 * one ulp of the result's dtype. */
static void check_matmul(const lt_tensor *a, const lt_tensor *b, const char *what) {
  lt_tensor *ad = on_cuda(a), *bd = on_cuda(b);
  lt_tensor *ch = lt_matmul(a, b), *cd = lt_matmul(ad, bd);
  LT_ASSERT_OK_PTR(ch);
  LT_ASSERT_OK_PTR(cd);
  lt_tensor *fa = lt_cast(a, LT_F64, LT_CAST_DEFAULT), *fb = lt_cast(b, LT_F64, LT_CAST_DEFAULT);
  lt_tensor *aa = lt_abs(fa), *ab = lt_abs(fb), *mag = lt_matmul(aa, ab);
  LT_ASSERT_OK_PTR(mag);
  double *bound = values_of(mag);
  int64_t k = lt_size(a, -1);
  double u = lt_dtype_of(ch) == LT_F64 ? 0x1p-53 : 0x1p-24;
  for (int64_t i = 0; i < lt_numel(mag); i++) bound[i] *= 2.0 * (double)k * u;
  assert_close(ch, cd, ulp_of(lt_dtype_of(ch)), bound, what);
  free(bound);
  lt_release(mag), lt_release(aa), lt_release(ab), lt_release(fa), lt_release(fb);
  lt_release(ch), lt_release(cd), lt_release(ad), lt_release(bd);
}

START_TEST(matmul_of_every_float_pair_matches_the_cpu_within_tolerance) {
  lt_test_seed(0x5eed000e);
  static const lt_dtype dts[] = {LT_F32, LT_F64, LT_F16, LT_BF16, LT_F8_E4M3, LT_F8_E5M2};
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++) {
      int64_t m = lt_test_rand(1, 70), n = lt_test_rand(1, 70), k = lt_test_rand(1, 70);
      lt_tensor *a = host_values(dts[i], 2, (int64_t[]){m, k}, -4, 4, false);
      lt_tensor *b = host_values(dts[j], 2, (int64_t[]){k, n}, -4, 4, false);
      char what[64];
      snprintf(what, sizeof what, "matmul %s x %s", lt_dtype_name(dts[i]), lt_dtype_name(dts[j]));
      check_matmul(a, b, what);
      lt_release(a), lt_release(b);
    }
}
END_TEST

START_TEST(matmul_of_transposed_and_batched_operands_matches_the_cpu) {
  lt_test_seed(0x5eed000f);
  static const lt_dtype dts[] = {LT_F32, LT_BF16, LT_F16, LT_F64};
  for (int it = 0; it < 16; it++) {
    lt_dtype dt = dts[it % 4];
    int64_t m = lt_test_rand(1, 50), n = lt_test_rand(1, 50), k = lt_test_rand(1, 50), batch = lt_test_rand(1, 4);
    /* a: [batch, m, k] read through a transpose of [batch, k, m]; b:
     * [k, n] broadcast over the batch, stored transposed on odd its. */
    lt_tensor *as = host_values(dt, 3, (int64_t[]){batch, k, m}, -4, 4, false), *a = lt_transpose(as, 1, 2);
    lt_tensor *bs = host_values(dt, 2, it % 2 ? (int64_t[]){n, k} : (int64_t[]){k, n}, -4, 4, false);
    lt_tensor *b = it % 2 ? lt_transpose(bs, 0, 1) : lt_retain(bs);
    check_matmul(a, b, "batched transposed matmul");
    lt_release(a), lt_release(as), lt_release(b), lt_release(bs);
  }
}
END_TEST

START_TEST(fp8_matmul_in_the_layout_cublaslt_takes_matches_the_cpu) {
  /* a [m, k] row-major and b stored as [n, k] (x @ w^T), dims multiples
   * of 16: the cuBLASLt FP8 path on devices that have it, else the
   * conversion path; the result must agree either way. */
  lt_test_seed(0x5eed0010);
  static const lt_dtype pairs[][2] = {{LT_F8_E4M3, LT_F8_E4M3}, {LT_F8_E4M3, LT_F8_E5M2}, {LT_F8_E5M2, LT_F8_E4M3}};
  for (int i = 0; i < 3; i++) {
    lt_tensor *a = host_values(pairs[i][0], 3, (int64_t[]){2, 64, 96}, -4, 4, false);
    lt_tensor *w = host_values(pairs[i][1], 2, (int64_t[]){48, 96}, -4, 4, false), *b = lt_transpose(w, 0, 1);
    check_matmul(a, b, "fp8 matmul, a x w^T");
    lt_release(a), lt_release(w), lt_release(b);
  }
}
END_TEST

START_TEST(matmul_counts_its_flops_on_the_device) {
  lt_tensor *a = lt_zeros(LT_F32, 2, (int64_t[]){3, 4}, cuda0), *b = lt_zeros(LT_F32, 2, (int64_t[]){4, 5}, cuda0);
  lt_stats_reset(cuda0);
  lt_tensor *c = lt_matmul(a, b);
  LT_ASSERT_OK_PTR(c);
  ck_assert_int_eq(lt_stats_get(cuda0).flops, 2 * 3 * 4 * 5);
  float got[15];
  LT_ASSERT_OK(lt_read(c, got, sizeof got));
  for (int i = 0; i < 15; i++) ck_assert(got[i] == 0.0f);
  lt_release(a), lt_release(b), lt_release(c);
}
END_TEST

/* ---- on every machine ---------------------------------------------------------------------- */

START_TEST(cuda_indices_beyond_the_device_count_are_unavailable) {
  ck_assert(!lt_device_available((lt_device){LT_CUDA, -1}));
  ck_assert(!lt_device_available((lt_device){LT_CUDA, 1000}));
  LT_ASSERT_FAILS(lt_empty(LT_F32, 1, (int64_t[]){4}, ((lt_device){LT_CUDA, 1000})), LT_ERR_DEVICE);
}
END_TEST

/* ---- without a device ---------------------------------------------------------------------- */

/* The last error is a device error naming op and CUDA. */
static void assert_device_error(const char *op) {
  ck_assert_int_eq(lt_last_status(), LT_ERR_DEVICE);
  ck_assert_msg(strstr(lt_last_error(), op) != NULL, "\"%s\" does not name %s", lt_last_error(), op);
  ck_assert_msg(strstr(lt_last_error(), "CUDA") != NULL, "\"%s\" does not say CUDA is missing", lt_last_error());
}

START_TEST(without_a_device_cuda0_is_unavailable) {
  ck_assert(!lt_device_available(cuda0));
  ck_assert_int_eq(lt_device_available(LT_HOST), true);
}
END_TEST

START_TEST(without_a_device_empty_and_zeros_on_cuda_fail_with_a_device_error) {
  ck_assert_ptr_null(lt_empty(LT_F32, 1, (int64_t[]){4}, cuda0));
  assert_device_error("empty");
  ck_assert_ptr_null(lt_zeros(LT_F32, 1, (int64_t[]){4}, cuda0));
  assert_device_error("zeros");
}
END_TEST

START_TEST(without_a_device_to_device_fails_with_a_device_error) {
  lt_tensor *h = lt_test_arange_f32(1, (int64_t[]){4});
  ck_assert_ptr_null(lt_to_device(h, cuda0));
  assert_device_error("to_device");
  lt_release(h);
}
END_TEST

START_TEST(without_a_device_wrapping_memory_as_cuda_fails) {
  float buf[4];
  ck_assert_ptr_null(lt_wrap(buf, LT_F32, 1, (int64_t[]){4}, NULL, cuda0, NULL, NULL));
  assert_device_error("wrap");
}
END_TEST

START_TEST(without_a_device_its_stats_are_zero) {
  lt_stats s = lt_stats_get(cuda0);
  ck_assert_int_eq(lt_last_status(), LT_OK);
  ck_assert_int_eq(s.bytes_in_use, 0);
  ck_assert_int_eq(s.allocs, 0);
  ck_assert_int_eq(s.copies, 0);
}
END_TEST

static Suite *device_suite(void) {
  Suite *s = suite_create("cuda");
  TCase *cp = tcase_create("copies");
  tcase_set_timeout(cp, 300);
  tcase_add_test(cp, contiguous_of_random_views_matches_the_cpu_bit_for_bit);
  tcase_add_test(cp, permute_copies_of_every_element_size_match_the_cpu);
  tcase_add_test(cp, to_device_and_back_keeps_every_byte_of_any_layout);
  tcase_add_test(cp, write_into_a_strided_device_view_lands_where_the_cpu_puts_it);
  tcase_add_test(cp, copy_broadcasts_and_converts_within_and_across_devices);
  tcase_add_test(cp, zeros_on_the_device_reads_zeros_and_data_is_null);
  tcase_add_test(cp, device_storage_is_counted_in_the_device_stats);
  tcase_add_test(cp, a_released_block_serves_the_next_allocation_of_its_size);
  tcase_add_test(cp, cuda_indices_beyond_the_device_count_are_unavailable);
  suite_add_tcase(s, cp);
  TCase *ca = tcase_create("casts");
  tcase_set_timeout(ca, 300);
  tcase_add_test(ca, casts_of_every_dtype_pair_and_mode_match_the_cpu_bit_for_bit);
  tcase_add_test(ca, every_f16_bf16_and_fp8_pattern_converts_as_on_the_cpu);
  tcase_add_test(ca, random_f32_bit_patterns_round_to_the_narrow_floats_as_on_the_cpu);
  tcase_add_test(ca, a_nan_cast_to_an_integer_fails_on_the_device_as_on_the_cpu);
  suite_add_tcase(s, ca);
  TCase *ew = tcase_create("elementwise");
  tcase_set_timeout(ew, 300);
  tcase_add_test(ew, binary_ops_on_broadcast_strided_inputs_match_the_cpu_bit_for_bit);
  tcase_add_test(ew, unary_ops_match_the_cpu_exactly_or_within_their_tolerance);
  tcase_add_test(ew, scalar_forms_and_out_forms_match_the_cpu);
  tcase_add_test(ew, inputs_on_different_devices_are_a_device_error);
  suite_add_tcase(s, ew);
  TCase *rd = tcase_create("reductions");
  tcase_set_timeout(rd, 300);
  tcase_add_test(rd, reductions_over_random_dims_match_the_cpu);
  tcase_add_test(rd, a_sum_of_2_pow_24_f32_ones_is_exact_on_the_device);
  tcase_add_test(rd, softmax_and_log_softmax_match_the_cpu_within_tolerance);
  tcase_add_test(rd, einops_reduce_matches_the_cpu);
  suite_add_tcase(s, rd);
  TCase *mm = tcase_create("matmul");
  tcase_set_timeout(mm, 300);
  tcase_add_test(mm, matmul_of_every_float_pair_matches_the_cpu_within_tolerance);
  tcase_add_test(mm, matmul_of_transposed_and_batched_operands_matches_the_cpu);
  tcase_add_test(mm, fp8_matmul_in_the_layout_cublaslt_takes_matches_the_cpu);
  tcase_add_test(mm, matmul_counts_its_flops_on_the_device);
  suite_add_tcase(s, mm);
  return s;
}

static Suite *no_device_suite(void) {
  Suite *s = suite_create("cuda_absent");
  TCase *tc = tcase_create("no_device");
  tcase_add_test(tc, without_a_device_cuda0_is_unavailable);
  tcase_add_test(tc, without_a_device_empty_and_zeros_on_cuda_fail_with_a_device_error);
  tcase_add_test(tc, without_a_device_to_device_fails_with_a_device_error);
  tcase_add_test(tc, without_a_device_wrapping_memory_as_cuda_fails);
  tcase_add_test(tc, without_a_device_its_stats_are_zero);
  tcase_add_test(tc, cuda_indices_beyond_the_device_count_are_unavailable);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  if (lt_device_available(cuda0)) {
    /* CUDA cannot be used in a child forked after the parent initialised
     * it (asking for the device count did): run every test in this
     * process. */
    setenv("CK_FORK", "no", 1);
    return lt_run_suite(device_suite());
  }
  int rc = lt_run_suite(no_device_suite());
  if (rc != EXIT_SUCCESS) return rc;
  printf("SKIP no CUDA device: the CPU-versus-CUDA comparisons did not run (the checks above, for a machine "
         "without one, passed)\n");
  return 77;
}
