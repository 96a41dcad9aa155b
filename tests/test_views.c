/* Specification of the public view ops (include/libtensor/views.h): every
 * op checked element by element against a naive index model on random
 * small inputs (contiguous, permuted, negative-step sliced, expanded), the
 * PyTorch geometries of VIEWS.md section 6, and every error path. */
#include <stdio.h>
#include <string.h>

#include "support/check_helpers.h"

#define I64(...) ((const int64_t[]){__VA_ARGS__})
#define F32(...) ((const float[]){__VA_ARGS__})
#define TRIALS 400

/* ---- helpers -------------------------------------------------------------*/


static char *fmt_dims(char *buf, size_t n, int ndim, const int64_t *v) {
  size_t used = (size_t)snprintf(buf, n, "[");
  for (int i = 0; i < ndim && used < n; i++)
    used += (size_t)snprintf(buf + used, n - used, i ? ",%lld" : "%lld", (long long)v[i]);
  if (used < n) snprintf(buf + used, n - used, "]");
  return buf;
}

/* Storage offset of element idx, in elements (through t's own strides). */
static int64_t addr(const lt_tensor *t, const int64_t *idx) {
  int64_t a = lt_offset(t);
  for (int d = 0; d < lt_ndim(t); d++) a += idx[d] * lt_strides(t)[d];
  return a;
}

/* Element idx of an f32 tensor, read through lt_data and t's strides. */
static float at(const lt_tensor *t, const int64_t *idx) {
  const float *p = lt_data(t);
  return p[addr(t, idx) - lt_offset(t)];
}

/* A random shape: ndim 0..max_rank, sizes 0..4 (0 rarely). */
static int random_shape(int min_rank, int max_rank, int64_t *shape) {
  int ndim = (int)lt_test_rand(min_rank, max_rank);
  for (int i = 0; i < ndim; i++) {
    shape[i] = lt_test_rand(0, 4);
    if (shape[i] == 0 && lt_test_rand(0, 3)) shape[i] = lt_test_rand(1, 4);
  }
  return ndim;
}

/* A random shape with numel n: ndim 0..4 (0 only when n == 1). */
static int random_shape_of(int64_t n, int64_t *shape) {
  int ndim = (int)lt_test_rand(n == 1 ? 0 : 1, 4);
  if (n == 0) {
    for (int i = 0; i < ndim; i++) shape[i] = lt_test_rand(0, 4);
    shape[lt_test_rand(0, ndim - 1)] = 0;
    return ndim;
  }
  int64_t left = n;
  for (int i = 0; i < ndim - 1; i++) {
    int64_t divs[64];
    int k = 0;
    for (int64_t v = 1; v <= left; v++)
      if (left % v == 0) divs[k++] = v;
    shape[i] = divs[lt_test_rand(0, k - 1)];
    left /= shape[i];
  }
  if (ndim > 0) shape[ndim - 1] = left;
  for (int i = ndim - 1; i > 0; i--) {
    int j = (int)lt_test_rand(0, i);
    int64_t t = shape[i];
    shape[i] = shape[j];
    shape[j] = t;
  }
  return ndim;
}

/* A random dim argument valid for ndim (PyTorch's scalar wrap: a 0-dim
 * tensor takes 0 and -1), possibly negative; *wrapped gets it wrapped. */
static int random_dim(int ndim, int *wrapped) {
  int n = ndim > 0 ? ndim : 1;
  int d = (int)lt_test_rand(0, n - 1);
  *wrapped = d;
  return lt_test_rand(0, 1) ? d : d - n;
}

/* A view of logical shape `shape` over a fresh f32 arange (storage element
 * i holds i), laid out at random: contiguous, or through a permute of the
 * base, negative- and positive-step slices, and expand of size-1 dims. The
 * base is released (the view keeps the storage alive). */
static lt_tensor *make_input(int ndim, const int64_t *shape, int64_t *storage_numel) {
  int mode[LT_MAX_DIMS], perm[LT_MAX_DIMS], inv[LT_MAX_DIMS];
  int64_t e[LT_MAX_DIMS] = {0}, p[LT_MAX_DIMS] = {0}, b[LT_MAX_DIMS] = {0};
  bool plain = lt_test_rand(0, 3) == 0, expand = false;
  for (int d = 0; d < ndim; d++) {
    /* 0 plain, 1 x[e:0:-1], 2 x[2e:0:-2], 3 x[1::2], 4 expanded from size 1 */
    mode[d] = plain ? 0 : (int)lt_test_rand(0, 4);
    expand = expand || mode[d] == 4;
    e[d] = mode[d] == 4 ? 1 : shape[d];
    p[d] = mode[d] == 1 ? e[d] + 1 : mode[d] == 2 || mode[d] == 3 ? 2 * e[d] + 1 : e[d];
    perm[d] = d;
  }
  for (int i = ndim - 1; i > 0 && !plain; i--) {
    int j = (int)lt_test_rand(0, i), t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  for (int i = 0; i < ndim; i++) {
    b[i] = p[perm[i]];
    inv[perm[i]] = i;
  }
  lt_tensor *base = lt_test_arange_f32(ndim, b);
  LT_ASSERT_OK_PTR(base);
  *storage_numel = lt_test_numel(ndim, b);
  lt_tensor *x = lt_permute(base, inv);
  LT_ASSERT_OK_PTR(x);
  lt_release(base);
  for (int d = 0; d < ndim; d++) {
    lt_tensor *y = x;
    if (mode[d] == 1) y = lt_slice(x, d, e[d], 0, -1);
    if (mode[d] == 2) y = lt_slice(x, d, 2 * e[d], 0, -2);
    if (mode[d] == 3) y = lt_slice(x, d, 1, LT_NONE, 2);
    LT_ASSERT_OK_PTR(y);
    if (y != x) lt_release(x);
    x = y;
  }
  if (expand) {
    lt_tensor *y = lt_expand(x, ndim, shape);
    LT_ASSERT_OK_PTR(y);
    lt_release(x);
    x = y;
  }
  ck_assert_int_eq(lt_ndim(x), ndim);
  for (int d = 0; d < ndim; d++) ck_assert_int_eq(lt_shape(x)[d], shape[d]);
  return x;
}

/* Maps an output index to the input index the op's definition reads. */
typedef void (*index_map)(const void *ctx, const int64_t *out_idx, int64_t *in_idx);

/* out (just returned by the op described by `what`) succeeded with no
 * error left behind, is a view of in's storage with shape, and each of its
 * elements is the input element that map names. Call it right after the
 * op: it reads lt_last_status() first. */
static void check_view(const char *what, const lt_tensor *in, const lt_tensor *out, int ndim,
                       const int64_t *shape, index_map map, const void *ctx) {
  lt_status st = lt_last_status();
  char err[1024];
  snprintf(err, sizeof err, "%s", lt_last_error());
  ck_assert_msg(out != NULL, "%s failed: %s: %s", what, lt_status_str(st), err);
  ck_assert_msg(st == LT_OK && err[0] == '\0', "%s succeeded but left %s \"%s\"", what, lt_status_str(st), err);
  char d[256], s[400];
  lt_describe(out, d, sizeof d);
  ck_assert_msg(lt_ndim(out) == ndim, "%s: got %s, want shape %s", what, d, fmt_dims(s, sizeof s, ndim, shape));
  for (int i = 0; i < ndim; i++)
    ck_assert_msg(lt_shape(out)[i] == shape[i], "%s: got %s, want shape %s", what, d,
                  fmt_dims(s, sizeof s, ndim, shape));
  ck_assert_msg(lt_shares_storage(out, in), "%s: result does not share the input's storage", what);
  ck_assert_int_eq(lt_dtype_of(out), LT_F32);
  int64_t j[LT_MAX_DIMS] = {0}, i[LT_MAX_DIMS] = {0};
  if (!lt_test_first_index(ndim, shape, j)) return;
  do {
    map(ctx, j, i);
    for (int k = 0; k < lt_ndim(in); k++)
      ck_assert_msg(i[k] >= 0 && i[k] < lt_shape(in)[k], "%s: model index out of range", what);
    float got = at(out, j), want = at(in, i);
    if (got != want) {
      char a[400], b[400];
      ck_abort_msg("%s: got %s; element %s is %g, want input element %s = %g", what, d,
                   fmt_dims(a, sizeof a, ndim, j), (double)got, fmt_dims(b, sizeof b, lt_ndim(in), i),
                   (double)want);
    }
  } while (lt_test_next_index(ndim, shape, j));
}

/* "slice(dim=1, ...) of f32[2,3] strides=[...] offset=..." for messages. */
static char *describe_call(char *buf, size_t n, const char *call, const lt_tensor *in) {
  char d[256];
  lt_describe(in, d, sizeof d);
  snprintf(buf, n, "%s of %s", call, d);
  return buf;
}

/* Reads t (f32) in row-major order and compares with want. */
static void assert_values(const lt_tensor *t, int64_t n, const float *want) {
  float got[64];
  ck_assert_int_eq(lt_numel(t), n);
  LT_ASSERT_OK(lt_read(t, got, (size_t)n * sizeof(float)));
  for (int64_t i = 0; i < n; i++)
    ck_assert_msg(got[i] == want[i], "element %lld is %g, want %g", (long long)i, (double)got[i], (double)want[i]);
}

/* A successful op leaves the last error empty. */
static void assert_no_error(void) {
  ck_assert_msg(lt_last_status() == LT_OK, "status %s after a success", lt_status_str(lt_last_status()));
  ck_assert_str_eq(lt_last_error(), "");
}

/* ---- random inputs against the index model --------------------------------*/

/* Python's slice.indices, then the walk: the indices start:stop:step picks. */
static int64_t py_slice(int64_t n, int64_t start, int64_t stop, int64_t step, int64_t *out) {
  int64_t lower = step > 0 ? 0 : -1, upper = step > 0 ? n : n - 1;
  int64_t s, e;
  if (start == LT_NONE) s = step > 0 ? lower : upper;
  else {
    s = start < 0 ? start + n : start;
    s = s < lower ? lower : s > upper ? upper : s;
  }
  if (stop == LT_NONE) e = step > 0 ? upper : lower;
  else {
    e = stop < 0 ? stop + n : stop;
    e = e < lower ? lower : e > upper ? upper : e;
  }
  int64_t k = 0;
  for (int64_t i = s; step > 0 ? i < e : i > e; i += step) out[k++] = i;
  return k;
}

struct pick_ctx { int dim; const int64_t *picked; };
static void pick_map(const void *c, const int64_t *j, int64_t *i) {
  const struct pick_ctx *x = c;
  memcpy(i, j, sizeof(int64_t) * LT_MAX_DIMS);
  i[x->dim] = x->picked[j[x->dim]];
}

START_TEST(slice_reads_the_elements_python_slicing_picks) {
  lt_test_seed(1);
  for (int iter = 0; iter < TRIALS; iter++) {
    int64_t shape[LT_MAX_DIMS], storage, picked[16];
    int ndim = random_shape(1, 4, shape), d;
    lt_tensor *in = make_input(ndim, shape, &storage);
    int dim = random_dim(ndim, &d);
    int64_t start = lt_test_rand(0, 4) ? lt_test_rand(-6, 6) : LT_NONE, stop = lt_test_rand(0, 4) ? lt_test_rand(-6, 6) : LT_NONE;
    int64_t step = lt_test_rand(-3, 2);
    if (step >= 0) step++;
    int64_t out_shape[LT_MAX_DIMS];
    memcpy(out_shape, shape, sizeof out_shape);
    out_shape[d] = py_slice(shape[d], start, stop, step, picked);
    char call[128], what[512];
    snprintf(call, sizeof call, "iter %d: slice(%d, %lld, %lld, %lld)", iter, dim, (long long)start,
             (long long)stop, (long long)step);
    describe_call(what, sizeof what, call, in);
    lt_tensor *out = lt_slice(in, dim, start, stop, step);
    check_view(what, in, out, ndim, out_shape, pick_map,
               &(struct pick_ctx){d, picked});
    lt_release(out);
    lt_release(in);
  }
}
END_TEST

START_TEST(narrow_reads_length_elements_from_start) {
  lt_test_seed(2);
  for (int iter = 0; iter < TRIALS; iter++) {
    int64_t shape[LT_MAX_DIMS], storage, picked[16];
    int ndim = random_shape(1, 4, shape), d;
    lt_tensor *in = make_input(ndim, shape, &storage);
    int dim = random_dim(ndim, &d);
    int64_t n = shape[d], start = lt_test_rand(-n, n), first = start < 0 ? start + n : start, length = lt_test_rand(0, n - first);
    for (int64_t k = 0; k < length; k++) picked[k] = first + k;
    int64_t out_shape[LT_MAX_DIMS];
    memcpy(out_shape, shape, sizeof out_shape);
    out_shape[d] = length;
    char call[128], what[512];
    snprintf(call, sizeof call, "iter %d: narrow(%d, %lld, %lld)", iter, dim, (long long)start, (long long)length);
    describe_call(what, sizeof what, call, in);
    lt_tensor *out = lt_narrow(in, dim, start, length);
    check_view(what, in, out, ndim, out_shape, pick_map,
               &(struct pick_ctx){d, picked});
    lt_release(out);
    lt_release(in);
  }
}
END_TEST

struct insert_ctx { int dim; int64_t index; int in_ndim; };
/* Input index = output index with `index` inserted at dim. */
static void insert_map(const void *c, const int64_t *j, int64_t *i) {
  const struct insert_ctx *x = c;
  for (int d = 0, o = 0; d < x->in_ndim; d++) i[d] = d == x->dim ? x->index : j[o++];
}

START_TEST(select_reads_the_index_and_drops_the_dim) {
  lt_test_seed(3);
  for (int iter = 0; iter < TRIALS; iter++) {
    int64_t shape[LT_MAX_DIMS], storage;
    int ndim = random_shape(1, 4, shape), d;
    int dim = random_dim(ndim, &d);
    if (shape[d] == 0) shape[d] = 3;
    lt_tensor *in = make_input(ndim, shape, &storage);
    int64_t index = lt_test_rand(-shape[d], shape[d] - 1);
    int64_t out_shape[LT_MAX_DIMS];
    for (int k = 0, o = 0; k < ndim; k++)
      if (k != d) out_shape[o++] = shape[k];
    char call[128], what[512];
    snprintf(call, sizeof call, "iter %d: select(%d, %lld)", iter, dim, (long long)index);
    describe_call(what, sizeof what, call, in);
    lt_tensor *out = lt_select(in, dim, index);
    check_view(what, in, out, ndim - 1, out_shape, insert_map,
               &(struct insert_ctx){d, index < 0 ? index + shape[d] : index, ndim});
    lt_release(out);
    lt_release(in);
  }
}
END_TEST

struct perm_ctx { int ndim; const int *perm; };
/* Output dim k is input dim perm[k]. */
static void perm_map(const void *c, const int64_t *j, int64_t *i) {
  const struct perm_ctx *x = c;
  for (int k = 0; k < x->ndim; k++) i[x->perm[k]] = j[k];
}

static void permuted_shape(int ndim, const int64_t *shape, const int *perm, int64_t *out) {
  for (int k = 0; k < ndim; k++) out[k] = shape[perm[k]];
}

START_TEST(transpose_swaps_two_dims) {
  lt_test_seed(4);
  for (int iter = 0; iter < TRIALS; iter++) {
    int64_t shape[LT_MAX_DIMS], storage, out_shape[LT_MAX_DIMS];
    int ndim = random_shape(0, 4, shape), a, b, perm[LT_MAX_DIMS];
    lt_tensor *in = make_input(ndim, shape, &storage);
    int d0 = random_dim(ndim, &a), d1 = random_dim(ndim, &b);
    for (int k = 0; k < ndim; k++) perm[k] = k;
    if (ndim > 0) {
      perm[a] = b;
      perm[b] = a;
    }
    permuted_shape(ndim, shape, perm, out_shape);
    char call[128], what[512];
    snprintf(call, sizeof call, "iter %d: transpose(%d, %d)", iter, d0, d1);
    describe_call(what, sizeof what, call, in);
    lt_tensor *out = lt_transpose(in, d0, d1);
    check_view(what, in, out, ndim, out_shape, perm_map,
               &(struct perm_ctx){ndim, perm});
    lt_release(out);
    lt_release(in);
  }
}
END_TEST

START_TEST(permute_reorders_dims) {
  lt_test_seed(5);
  for (int iter = 0; iter < TRIALS; iter++) {
    int64_t shape[LT_MAX_DIMS], storage, out_shape[LT_MAX_DIMS];
    int ndim = random_shape(0, 4, shape), perm[LT_MAX_DIMS], arg[LT_MAX_DIMS];
    lt_tensor *in = make_input(ndim, shape, &storage);
    for (int k = 0; k < ndim; k++) perm[k] = k;
    for (int k = ndim - 1; k > 0; k--) {
      int j = (int)lt_test_rand(0, k), t = perm[k];
      perm[k] = perm[j];
      perm[j] = t;
    }
    for (int k = 0; k < ndim; k++) arg[k] = lt_test_rand(0, 1) ? perm[k] : perm[k] - ndim;
    permuted_shape(ndim, shape, perm, out_shape);
    char call[128], what[512], p[200];
    int64_t a64[LT_MAX_DIMS];
    for (int k = 0; k < ndim; k++) a64[k] = arg[k];
    snprintf(call, sizeof call, "iter %d: permute(%s)", iter, fmt_dims(p, sizeof p, ndim, a64));
    describe_call(what, sizeof what, call, in);
    lt_tensor *out = lt_permute(in, arg);
    check_view(what, in, out, ndim, out_shape, perm_map,
               &(struct perm_ctx){ndim, perm});
    lt_release(out);
    lt_release(in);
  }
}
END_TEST

START_TEST(movedim_moves_one_dim_and_keeps_the_others_in_order) {
  lt_test_seed(6);
  for (int iter = 0; iter < TRIALS; iter++) {
    int64_t shape[LT_MAX_DIMS], storage, out_shape[LT_MAX_DIMS];
    int ndim = random_shape(0, 4, shape), s, t, perm[LT_MAX_DIMS];
    lt_tensor *in = make_input(ndim, shape, &storage);
    int src = random_dim(ndim, &s), dst = random_dim(ndim, &t);
    /* The dims without s, in order, with s inserted at position t. */
    int rest[LT_MAX_DIMS], n = 0;
    for (int k = 0; k < ndim; k++)
      if (k != s) rest[n++] = k;
    for (int k = 0, r = 0; k < ndim; k++) perm[k] = k == t ? s : rest[r++];
    permuted_shape(ndim, shape, perm, out_shape);
    char call[128], what[512];
    snprintf(call, sizeof call, "iter %d: movedim(%d, %d)", iter, src, dst);
    describe_call(what, sizeof what, call, in);
    lt_tensor *out = lt_movedim(in, src, dst);
    check_view(what, in, out, ndim, out_shape, perm_map,
               &(struct perm_ctx){ndim, perm});
    lt_release(out);
    lt_release(in);
  }
}
END_TEST

struct expand_ctx { int lead, in_ndim; const int64_t *in_shape; };
static void expand_map(const void *c, const int64_t *j, int64_t *i) {
  const struct expand_ctx *x = c;
  for (int d = 0; d < x->in_ndim; d++) i[d] = x->in_shape[d] == 1 ? 0 : j[d + x->lead];
}

START_TEST(expand_repeats_size_1_dims_with_stride_0) {
  lt_test_seed(7);
  for (int iter = 0; iter < TRIALS; iter++) {
    int64_t shape[LT_MAX_DIMS], storage, target[LT_MAX_DIMS], out_shape[LT_MAX_DIMS];
    int ndim = random_shape(0, 3, shape);
    for (int d = 0; d < ndim; d++)
      if (lt_test_rand(0, 1)) shape[d] = 1;
    lt_tensor *in = make_input(ndim, shape, &storage);
    int lead = (int)lt_test_rand(0, 2), n = ndim + lead;
    for (int i = 0; i < n; i++) {
      int d = i - lead;
      out_shape[i] = target[i] = d < 0 || shape[d] == 1 ? lt_test_rand(0, 3) : shape[d];
      if (d >= 0 && lt_test_rand(0, 2) == 0) {
        target[i] = -1;
        out_shape[i] = shape[d];
      }
    }
    char call[128], what[512], t[200];
    snprintf(call, sizeof call, "iter %d: expand(%s)", iter, fmt_dims(t, sizeof t, n, target));
    describe_call(what, sizeof what, call, in);
    lt_tensor *out = lt_expand(in, n, target);
    check_view(what, in, out, n, out_shape, expand_map,
               &(struct expand_ctx){lead, ndim, shape});
    for (int i = 0; i < n; i++)
      if (out_shape[i] != 1 && (i < lead || shape[i - lead] != out_shape[i]))
        ck_assert_msg(lt_strides(out)[i] == 0, "%s: broadcast dim %d has stride %lld", what, i,
                      (long long)lt_strides(out)[i]);
    lt_release(out);
    lt_release(in);
  }
}
END_TEST

START_TEST(squeeze_drops_the_dim_only_when_its_size_is_1) {
  lt_test_seed(8);
  for (int iter = 0; iter < TRIALS; iter++) {
    int64_t shape[LT_MAX_DIMS], storage, out_shape[LT_MAX_DIMS];
    int ndim = random_shape(0, 4, shape), d;
    for (int k = 0; k < ndim; k++)
      if (lt_test_rand(0, 1)) shape[k] = 1;
    lt_tensor *in = make_input(ndim, shape, &storage);
    int dim = random_dim(ndim, &d);
    bool drop = ndim > 0 && shape[d] == 1;
    int n = 0;
    for (int k = 0; k < ndim; k++)
      if (!(drop && k == d)) out_shape[n++] = shape[k];
    char call[128], what[512];
    snprintf(call, sizeof call, "iter %d: squeeze(%d)", iter, dim);
    describe_call(what, sizeof what, call, in);
    lt_tensor *out = lt_squeeze(in, dim);
    check_view(what, in, out, n, out_shape, insert_map,
               &(struct insert_ctx){drop ? d : -1, 0, ndim});
    if (!drop) {
      LT_ASSERT_GEOMETRY(out, ndim, lt_shape(in), lt_strides(in), lt_offset(in));
    }
    lt_release(out);
    lt_release(in);
  }
}
END_TEST

struct squeeze_all_ctx { int in_ndim; const int64_t *in_shape; };
static void squeeze_all_map(const void *c, const int64_t *j, int64_t *i) {
  const struct squeeze_all_ctx *x = c;
  for (int d = 0, o = 0; d < x->in_ndim; d++) i[d] = x->in_shape[d] == 1 ? 0 : j[o++];
}

START_TEST(squeeze_all_drops_every_size_1_dim) {
  lt_test_seed(9);
  for (int iter = 0; iter < TRIALS; iter++) {
    int64_t shape[LT_MAX_DIMS], storage, out_shape[LT_MAX_DIMS];
    int ndim = random_shape(0, 4, shape), n = 0;
    for (int k = 0; k < ndim; k++)
      if (lt_test_rand(0, 1)) shape[k] = 1;
    lt_tensor *in = make_input(ndim, shape, &storage);
    for (int k = 0; k < ndim; k++)
      if (shape[k] != 1) out_shape[n++] = shape[k];
    char call[128], what[512];
    snprintf(call, sizeof call, "iter %d: squeeze_all()", iter);
    describe_call(what, sizeof what, call, in);
    lt_tensor *out = lt_squeeze_all(in);
    check_view(what, in, out, n, out_shape, squeeze_all_map,
               &(struct squeeze_all_ctx){ndim, shape});
    lt_release(out);
    lt_release(in);
  }
}
END_TEST

struct remove_ctx { int dim, out_ndim; };
/* Input index = output index without dim. */
static void remove_map(const void *c, const int64_t *j, int64_t *i) {
  const struct remove_ctx *x = c;
  for (int d = 0, o = 0; d < x->out_ndim; d++)
    if (d != x->dim) i[o++] = j[d];
}

START_TEST(unsqueeze_inserts_a_size_1_dim_with_pytorchs_stride) {
  lt_test_seed(10);
  for (int iter = 0; iter < TRIALS; iter++) {
    int64_t shape[LT_MAX_DIMS], storage, out_shape[LT_MAX_DIMS];
    int ndim = random_shape(0, 4, shape);
    lt_tensor *in = make_input(ndim, shape, &storage);
    int d = (int)lt_test_rand(0, ndim), dim = lt_test_rand(0, 1) ? d : d - ndim - 1;
    for (int k = 0, o = 0; k <= ndim; k++) out_shape[k] = k == d ? 1 : shape[o++];
    int64_t want_stride = d == ndim ? 1 : shape[d] * lt_strides(in)[d];
    char call[128], what[512];
    snprintf(call, sizeof call, "iter %d: unsqueeze(%d)", iter, dim);
    describe_call(what, sizeof what, call, in);
    lt_tensor *out = lt_unsqueeze(in, dim);
    check_view(what, in, out, ndim + 1, out_shape, remove_map,
               &(struct remove_ctx){d, ndim + 1});
    ck_assert_msg(lt_strides(out)[d] == want_stride, "%s: new dim has stride %lld, want %lld", what,
                  (long long)lt_strides(out)[d], (long long)want_stride);
    ck_assert_int_eq(lt_offset(out), lt_offset(in));
    lt_release(out);
    lt_release(in);
  }
}
END_TEST

struct reflow_ctx { int in_ndim, out_ndim; const int64_t *in_shape, *out_shape; };
/* view semantics: the same row-major position in both shapes. */
static void reflow_map(const void *c, const int64_t *j, int64_t *i) {
  const struct reflow_ctx *x = c;
  int64_t flat = 0;
  for (int d = 0; d < x->out_ndim; d++) flat = flat * x->out_shape[d] + j[d];
  for (int d = x->in_ndim - 1; d >= 0; d--) {
    i[d] = flat % x->in_shape[d];
    flat /= x->in_shape[d];
  }
}

START_TEST(unflatten_splits_one_dim_in_row_major_order) {
  lt_test_seed(11);
  for (int iter = 0; iter < TRIALS; iter++) {
    int64_t shape[LT_MAX_DIMS], storage, sizes[LT_MAX_DIMS], split[LT_MAX_DIMS], out_shape[LT_MAX_DIMS];
    int ndim = random_shape(1, 3, shape), d;
    lt_tensor *in = make_input(ndim, shape, &storage);
    int dim = random_dim(ndim, &d);
    int n = random_shape_of(shape[d], split);
    if (n == 0) split[n++] = 1;
    memcpy(sizes, split, sizeof sizes);
    int zeros = 0, zero_at = -1;
    for (int k = 0; k < n; k++)
      if (split[k] == 0) zeros++, zero_at = k;
    if (lt_test_rand(0, 2) == 0 && zeros <= 1) sizes[zeros ? zero_at : lt_test_rand(0, n - 1)] = -1;
    int m = 0;
    for (int k = 0; k < ndim; k++) {
      if (k != d) out_shape[m++] = shape[k];
      else for (int s = 0; s < n; s++) out_shape[m++] = split[s];
    }
    char call[128], what[512], sz[200];
    snprintf(call, sizeof call, "iter %d: unflatten(%d, %s)", iter, dim, fmt_dims(sz, sizeof sz, n, sizes));
    describe_call(what, sizeof what, call, in);
    lt_tensor *out = lt_unflatten(in, dim, n, sizes);
    check_view(what, in, out, m, out_shape, reflow_map,
               &(struct reflow_ctx){ndim, m, shape, out_shape});
    ck_assert_int_eq(lt_offset(out), lt_offset(in));
    if (lt_test_numel(ndim, shape) > 0) {
      int64_t inner = 1;
      for (int s = n - 1; s >= 0; s--) {
        if (split[s] > 1)
          ck_assert_msg(lt_strides(out)[d + s] == inner * lt_strides(in)[d], "%s: split dim %d has stride %lld",
                        what, d + s, (long long)lt_strides(out)[d + s]);
        inner *= split[s];
      }
    }
    lt_release(out);
    lt_release(in);
  }
}
END_TEST

START_TEST(view_keeps_row_major_order_and_fails_exactly_when_no_strides_exist) {
  lt_test_seed(12);
  int viewed = 0, refused = 0;
  for (int iter = 0; iter < 2 * TRIALS; iter++) {
    int64_t shape[LT_MAX_DIMS], storage, target[LT_MAX_DIMS], arg[LT_MAX_DIMS];
    int ndim = random_shape(0, 4, shape);
    lt_tensor *in = make_input(ndim, shape, &storage);
    int64_t numel = lt_test_numel(ndim, shape);
    int n = random_shape_of(numel, target);
    memcpy(arg, target, sizeof arg);
    if (n > 0 && lt_test_rand(0, 2) == 0) {
      int zeros = 0, zero_at = -1;
      for (int k = 0; k < n; k++)
        if (target[k] == 0) zeros++, zero_at = k;
      if (zeros <= 1) arg[zeros ? zero_at : lt_test_rand(0, n - 1)] = -1;
    }
    /* Brute force: a view exists iff the strides read off unit steps
     * reproduce the storage offset of every element in row-major order. */
    int64_t want[1024], idx[LT_MAX_DIMS], unit[LT_MAX_DIMS], f = 0, step = 1;
    if (lt_test_first_index(ndim, shape, idx)) do want[f++] = addr(in, idx);
      while (lt_test_next_index(ndim, shape, idx));
    for (int d = n - 1; d >= 0; d--) {
      unit[d] = numel > 0 && target[d] > 1 ? want[step] - want[0] : 0;
      step *= target[d] > 0 ? target[d] : 1;
    }
    bool viewable = true;
    f = 0;
    if (lt_test_first_index(n, target, idx)) do {
        int64_t a = want[0];
        for (int d = 0; d < n; d++) a += idx[d] * unit[d];
        viewable = viewable && a == want[f++];
      } while (lt_test_next_index(n, target, idx));
    char call[128], what[512], t[200];
    snprintf(call, sizeof call, "iter %d: view(%s)", iter, fmt_dims(t, sizeof t, n, arg));
    describe_call(what, sizeof what, call, in);
    lt_tensor *out = lt_view(in, n, arg);
    if (viewable) {
      viewed++;
      check_view(what, in, out, n, target, reflow_map, &(struct reflow_ctx){ndim, n, shape, target});
      ck_assert_msg(lt_offset(out) == lt_offset(in), "%s: offset %lld", what, (long long)lt_offset(out));
      for (int d = 0; d < n; d++)
        if (target[d] > 1 && numel > 0)
          ck_assert_msg(lt_strides(out)[d] == unit[d], "%s: stride %d is %lld, want %lld", what, d,
                        (long long)lt_strides(out)[d], (long long)unit[d]);
    } else {
      refused++;
      ck_assert_msg(out == NULL, "%s: succeeded although no strides express it", what);
      ck_assert_msg(lt_last_status() == LT_ERR_NOT_VIEWABLE, "%s: %s", what, lt_status_str(lt_last_status()));
      ck_assert_msg(strstr(lt_last_error(), "lt_reshape") != NULL, "%s: message \"%s\"", what, lt_last_error());
    }
    lt_release(out);
    lt_release(in);
  }
  ck_assert_int_gt(viewed, TRIALS / 2);
  ck_assert_int_gt(refused, TRIALS / 10);
}
END_TEST

struct diag_ctx { int d1, d2, in_ndim; int64_t off; };
static void diag_map(const void *c, const int64_t *j, int64_t *i) {
  const struct diag_ctx *x = c;
  int64_t k = j[x->in_ndim - 2];
  for (int d = 0, o = 0; d < x->in_ndim; d++) {
    if (d == x->d1) i[d] = k + (x->off < 0 ? -x->off : 0);
    else if (d == x->d2) i[d] = k + (x->off > 0 ? x->off : 0);
    else i[d] = j[o++];
  }
}

START_TEST(diagonal_reads_index_pairs_offset_apart) {
  lt_test_seed(13);
  for (int iter = 0; iter < TRIALS; iter++) {
    int64_t shape[LT_MAX_DIMS], storage, out_shape[LT_MAX_DIMS];
    int ndim = random_shape(2, 4, shape), a, b;
    lt_tensor *in = make_input(ndim, shape, &storage);
    int d1 = random_dim(ndim, &a), d2;
    do d2 = random_dim(ndim, &b);
    while (b == a);
    int64_t off = lt_test_rand(-5, 5), size = 0;
    while (size + (off < 0 ? -off : 0) < shape[a] && size + (off > 0 ? off : 0) < shape[b]) size++;
    int n = 0;
    for (int k = 0; k < ndim; k++)
      if (k != a && k != b) out_shape[n++] = shape[k];
    out_shape[n++] = size;
    char call[128], what[512];
    snprintf(call, sizeof call, "iter %d: diagonal(%lld, %d, %d)", iter, (long long)off, d1, d2);
    describe_call(what, sizeof what, call, in);
    lt_tensor *out = lt_diagonal(in, off, d1, d2);
    check_view(what, in, out, n, out_shape, diag_map,
               &(struct diag_ctx){a, b, ndim, off});
    if (size == 0) ck_assert_int_eq(lt_offset(out), lt_offset(in));
    lt_release(out);
    lt_release(in);
  }
}
END_TEST

START_TEST(as_strided_reads_storage_at_offset_plus_index_times_strides) {
  lt_test_seed(14);
  int made = 0, refused = 0;
  for (int iter = 0; iter < TRIALS; iter++) {
    int64_t shape[LT_MAX_DIMS], storage, out_shape[LT_MAX_DIMS], strides[LT_MAX_DIMS];
    int ndim = random_shape(0, 3, shape);
    lt_tensor *in = make_input(ndim, shape, &storage);
    int n = random_shape(0, 3, out_shape);
    int64_t offset = lt_test_rand(0, storage + 1), reach = offset;
    for (int d = 0; d < n; d++) {
      strides[d] = lt_test_rand(0, 4);
      reach += (out_shape[d] - 1) * strides[d];
    }
    bool fits = lt_test_numel(n, out_shape) == 0 || reach < storage;
    char call[128], what[512], a[200], b[200];
    snprintf(call, sizeof call, "iter %d: as_strided(%s, %s, %lld) with %lld storage elements", iter,
             fmt_dims(a, sizeof a, n, out_shape), fmt_dims(b, sizeof b, n, strides), (long long)offset,
             (long long)storage);
    describe_call(what, sizeof what, call, in);
    lt_tensor *out = lt_as_strided(in, n, out_shape, strides, offset);
    if (!fits) {
      refused++;
      ck_assert_msg(out == NULL, "%s: succeeded out of bounds", what);
      ck_assert_msg(lt_last_status() == LT_ERR_ARG, "%s: %s", what, lt_status_str(lt_last_status()));
      ck_assert_msg(lt_last_error()[0] != '\0', "%s: no message", what);
      lt_release(in);
      continue;
    }
    made++;
    lt_status st = lt_last_status();
    ck_assert_msg(out != NULL && st == LT_OK, "%s failed: %s", what, lt_last_error());
    assert_no_error();
    LT_ASSERT_GEOMETRY(out, n, out_shape, strides, offset);
    ck_assert(lt_shares_storage(out, in));
    int64_t j[LT_MAX_DIMS];
    if (lt_test_first_index(n, out_shape, j)) do {
        int64_t s = offset;
        for (int d = 0; d < n; d++) s += j[d] * strides[d];
        ck_assert_msg(at(out, j) == (float)s, "%s: wrong element", what);
      } while (lt_test_next_index(n, out_shape, j));
    lt_release(out);
    lt_release(in);
  }
  ck_assert_int_gt(made, TRIALS / 4);
  ck_assert_int_gt(refused, TRIALS / 10);
}
END_TEST

START_TEST(a_view_keeps_the_storage_alive_after_its_input_is_released) {
  lt_tensor *a = lt_test_arange_f32(2, I64(3, 4));
  lt_tensor *v = lt_slice(a, 1, LT_NONE, LT_NONE, -1);
  LT_ASSERT_OK_PTR(v);
  lt_release(a);
  lt_tensor *w = lt_transpose(v, 0, 1);
  LT_ASSERT_OK_PTR(w);
  lt_release(v);
  assert_values(w, 12, F32(3, 7, 11, 2, 6, 10, 1, 5, 9, 0, 4, 8));
  lt_release(w);
}
END_TEST

/* ---- PyTorch geometries (VIEWS.md sections 4 and 6) -----------------------*/

/* arange over [2,3,4]: strides [12,4,1]. */
static lt_tensor *cube(void) { return lt_test_arange_f32(3, I64(2, 3, 4)); }

START_TEST(slice_start_past_the_end_is_empty_one_past_the_end) {
  lt_tensor *a = lt_test_arange_f32(1, I64(10));
  lt_tensor *s = lt_slice(a, 0, 20, LT_NONE, 1);
  LT_ASSERT_OK_PTR(s);
  LT_ASSERT_GEOMETRY(s, 1, I64(0), I64(1), 10);
  lt_release(s);
  lt_release(a);
}
END_TEST

START_TEST(slice_with_step_2_multiplies_the_stride) {
  lt_tensor *a = cube();
  lt_tensor *s = lt_slice(a, 2, 0, LT_NONE, 2);
  LT_ASSERT_OK_PTR(s);
  LT_ASSERT_GEOMETRY(s, 3, I64(2, 3, 2), I64(12, 4, 2), 0);
  lt_release(s);
  lt_release(a);
}
END_TEST

START_TEST(slice_with_step_minus_1_reverses_from_the_last_element) {
  lt_tensor *a = lt_test_arange_f32(1, I64(10));
  lt_tensor *s = lt_slice(a, 0, LT_NONE, LT_NONE, -1);
  LT_ASSERT_OK_PTR(s);
  LT_ASSERT_GEOMETRY(s, 1, I64(10), I64(-1), 9);
  assert_values(s, 10, F32(9, 8, 7, 6, 5, 4, 3, 2, 1, 0));
  lt_release(s);
  lt_release(a);
}
END_TEST

START_TEST(slice_with_negative_step_walks_down_from_start) {
  lt_tensor *a = lt_test_arange_f32(1, I64(10));
  lt_tensor *s = lt_slice(a, 0, 8, 2, -3);
  LT_ASSERT_OK_PTR(s);
  LT_ASSERT_GEOMETRY(s, 1, I64(2), I64(-3), 8);
  assert_values(s, 2, F32(8, 5));
  lt_release(s);
  lt_release(a);
}
END_TEST

START_TEST(slice_of_a_negative_dim_moves_the_offset) {
  lt_tensor *a = cube();
  lt_tensor *s = lt_slice(a, -2, 1, LT_NONE, 1);
  LT_ASSERT_OK_PTR(s);
  LT_ASSERT_GEOMETRY(s, 3, I64(2, 2, 4), I64(12, 4, 1), 4);
  lt_release(s);
  lt_release(a);
}
END_TEST

START_TEST(select_negative_index_counts_from_the_end) {
  lt_tensor *a = cube();
  lt_tensor *s = lt_select(a, 1, -1);
  LT_ASSERT_OK_PTR(s);
  LT_ASSERT_GEOMETRY(s, 2, I64(2, 4), I64(12, 1), 8);
  assert_values(s, 8, F32(8, 9, 10, 11, 20, 21, 22, 23));
  lt_release(s);
  lt_release(a);
}
END_TEST

START_TEST(select_of_a_1d_tensor_is_0dim_at_the_index) {
  lt_tensor *a = lt_test_arange_f32(1, I64(5));
  lt_tensor *s = lt_select(a, 0, 3);
  LT_ASSERT_OK_PTR(s);
  LT_ASSERT_GEOMETRY(s, 0, NULL, NULL, 3);
  assert_values(s, 1, F32(3));
  lt_release(s);
  lt_release(a);
}
END_TEST

START_TEST(select_on_an_empty_tensor_moves_the_offset_anyway) {
  lt_tensor *a = lt_test_arange_f32(2, I64(0, 2));
  lt_tensor *s = lt_select(a, 1, 1);
  LT_ASSERT_OK_PTR(s);
  LT_ASSERT_GEOMETRY(s, 1, I64(0), I64(2), 1);
  lt_release(s);
  lt_release(a);
}
END_TEST

START_TEST(narrow_at_the_end_with_length_0_is_allowed) {
  lt_tensor *a = lt_test_arange_f32(1, I64(10));
  lt_tensor *s = lt_narrow(a, 0, 10, 0);
  LT_ASSERT_OK_PTR(s);
  LT_ASSERT_GEOMETRY(s, 1, I64(0), I64(1), 10);
  lt_release(s);
  lt_release(a);
}
END_TEST

START_TEST(narrow_negative_start_counts_from_the_end) {
  lt_tensor *a = lt_test_arange_f32(1, I64(10));
  lt_tensor *s = lt_narrow(a, 0, -3, 2);
  LT_ASSERT_OK_PTR(s);
  LT_ASSERT_GEOMETRY(s, 1, I64(2), I64(1), 7);
  lt_release(s);
  lt_release(a);
}
END_TEST

START_TEST(narrow_of_an_inner_dim_moves_the_offset_by_start) {
  lt_tensor *a = lt_test_arange_f32(2, I64(3, 4));
  lt_tensor *s = lt_narrow(a, 1, 1, 2);
  LT_ASSERT_OK_PTR(s);
  LT_ASSERT_GEOMETRY(s, 2, I64(3, 2), I64(4, 1), 1);
  assert_values(s, 6, F32(1, 2, 5, 6, 9, 10));
  lt_release(s);
  lt_release(a);
}
END_TEST

START_TEST(transpose_swaps_sizes_and_strides) {
  lt_tensor *a = cube();
  lt_tensor *t = lt_transpose(a, 0, 2);
  LT_ASSERT_OK_PTR(t);
  LT_ASSERT_GEOMETRY(t, 3, I64(4, 3, 2), I64(1, 4, 12), 0);
  lt_tensor *n = lt_transpose(a, -1, 0);
  LT_ASSERT_OK_PTR(n);
  LT_ASSERT_GEOMETRY(n, 3, I64(4, 3, 2), I64(1, 4, 12), 0);
  lt_release(n);
  lt_release(t);
  lt_release(a);
}
END_TEST

START_TEST(transpose_of_a_dim_with_itself_is_a_view_of_the_same_geometry) {
  lt_tensor *a = cube();
  lt_tensor *t = lt_transpose(a, 1, -2);
  LT_ASSERT_OK_PTR(t);
  ck_assert(lt_shares_storage(t, a));
  LT_ASSERT_GEOMETRY(t, 3, I64(2, 3, 4), I64(12, 4, 1), 0);
  lt_release(t);
  lt_release(a);
}
END_TEST

START_TEST(transpose_of_a_0dim_tensor_accepts_0_and_minus_1) {
  lt_tensor *s = lt_test_arange_f32(0, NULL);
  lt_tensor *t = lt_transpose(s, 0, -1);
  LT_ASSERT_OK_PTR(t);
  LT_ASSERT_GEOMETRY(t, 0, NULL, NULL, 0);
  lt_release(t);
  lt_release(s);
}
END_TEST

START_TEST(permute_2_0_1_takes_sizes_and_strides_in_that_order) {
  lt_tensor *a = cube();
  lt_tensor *p = lt_permute(a, (const int[]){2, 0, 1});
  LT_ASSERT_OK_PTR(p);
  LT_ASSERT_GEOMETRY(p, 3, I64(4, 2, 3), I64(1, 12, 4), 0);
  lt_tensor *q = lt_permute(a, (const int[]){-1, 0, -2});
  LT_ASSERT_OK_PTR(q);
  LT_ASSERT_GEOMETRY(q, 3, I64(4, 2, 3), I64(1, 12, 4), 0);
  lt_release(q);
  lt_release(p);
  lt_release(a);
}
END_TEST

START_TEST(movedim_to_the_end_or_front_keeps_the_other_dims_in_order) {
  lt_tensor *a = cube();
  lt_tensor *m = lt_movedim(a, 0, 2);
  LT_ASSERT_OK_PTR(m);
  LT_ASSERT_GEOMETRY(m, 3, I64(3, 4, 2), I64(4, 1, 12), 0);
  lt_tensor *f = lt_movedim(a, -1, 0);
  LT_ASSERT_OK_PTR(f);
  LT_ASSERT_GEOMETRY(f, 3, I64(4, 2, 3), I64(1, 12, 4), 0);
  lt_tensor *s = lt_movedim(a, 1, 1);
  LT_ASSERT_OK_PTR(s);
  LT_ASSERT_GEOMETRY(s, 3, I64(2, 3, 4), I64(12, 4, 1), 0);
  lt_release(s);
  lt_release(f);
  lt_release(m);
  lt_release(a);
}
END_TEST

START_TEST(expand_broadcasts_size_1_and_new_dims_with_stride_0) {
  lt_tensor *a = lt_test_arange_f32(2, I64(3, 1));
  lt_tensor *e = lt_expand(a, 3, I64(2, 3, 4));
  LT_ASSERT_OK_PTR(e);
  LT_ASSERT_GEOMETRY(e, 3, I64(2, 3, 4), I64(0, 1, 0), 0);
  lt_release(e);
  lt_release(a);
}
END_TEST

START_TEST(expand_minus_one_keeps_an_existing_size) {
  lt_tensor *a = lt_test_arange_f32(2, I64(3, 1));
  lt_tensor *e = lt_expand(a, 2, I64(-1, 2));
  LT_ASSERT_OK_PTR(e);
  LT_ASSERT_GEOMETRY(e, 2, I64(3, 2), I64(1, 0), 0);
  assert_values(e, 6, F32(0, 0, 1, 1, 2, 2));
  lt_release(e);
  lt_release(a);
}
END_TEST

START_TEST(expand_new_leading_size_1_dim_continues_the_next_dim) {
  lt_tensor *a = lt_test_arange_f32(1, I64(3));
  lt_tensor *e = lt_expand(a, 2, I64(1, 3));
  LT_ASSERT_OK_PTR(e);
  LT_ASSERT_GEOMETRY(e, 2, I64(1, 3), I64(3, 1), 0);
  lt_release(e);
  lt_release(a);
}
END_TEST

START_TEST(expand_size_1_to_0_is_allowed) {
  lt_tensor *a = lt_test_arange_f32(1, I64(1));
  lt_tensor *e = lt_expand(a, 1, I64(0));
  LT_ASSERT_OK_PTR(e);
  LT_ASSERT_GEOMETRY(e, 1, I64(0), I64(0), 0);
  lt_release(e);
  lt_release(a);
}
END_TEST

START_TEST(expand_of_a_0dim_tensor_gives_stride_0) {
  lt_tensor *s = lt_test_arange_f32(0, NULL);
  lt_tensor *e = lt_expand(s, 2, I64(3, 4));
  LT_ASSERT_OK_PTR(e);
  LT_ASSERT_GEOMETRY(e, 2, I64(3, 4), I64(0, 0), 0);
  lt_release(e);
  lt_release(s);
}
END_TEST

START_TEST(expand_of_a_0dim_tensor_gives_stride_0_even_to_size_1_dims) {
  lt_tensor *s = lt_test_arange_f32(0, NULL);
  lt_tensor *e = lt_expand(s, 2, I64(2, 1));
  LT_ASSERT_OK_PTR(e);
  int64_t size1 = lt_size(e, 1), stride0 = lt_stride(e, 0), stride1 = lt_stride(e, 1);
  lt_release(e);
  lt_release(s);
  ck_assert_int_eq(size1, 1);
  ck_assert_int_eq(stride0, 0);
  ck_assert_int_eq(stride1, 0);
}
END_TEST

START_TEST(squeeze_drops_a_size_1_dim) {
  lt_tensor *a = lt_test_arange_f32(3, I64(2, 1, 3));
  lt_tensor *s = lt_squeeze(a, 1);
  LT_ASSERT_OK_PTR(s);
  LT_ASSERT_GEOMETRY(s, 2, I64(2, 3), I64(3, 1), 0);
  lt_tensor *n = lt_squeeze(a, -2);
  LT_ASSERT_OK_PTR(n);
  LT_ASSERT_GEOMETRY(n, 2, I64(2, 3), I64(3, 1), 0);
  lt_release(n);
  lt_release(s);
  lt_release(a);
}
END_TEST

START_TEST(squeeze_of_a_dim_not_of_size_1_is_a_silent_no_op) {
  lt_tensor *a = lt_test_arange_f32(3, I64(2, 1, 3));
  lt_tensor *s = lt_squeeze(a, 0);
  LT_ASSERT_OK_PTR(s);
  assert_no_error();
  LT_ASSERT_GEOMETRY(s, 3, I64(2, 1, 3), I64(3, 3, 1), 0);
  lt_release(s);
  lt_release(a);
}
END_TEST

START_TEST(squeeze_of_a_0dim_tensor_is_a_no_op) {
  lt_tensor *a = lt_test_arange_f32(0, NULL);
  lt_tensor *s = lt_squeeze(a, -1);
  LT_ASSERT_OK_PTR(s);
  LT_ASSERT_GEOMETRY(s, 0, NULL, NULL, 0);
  lt_release(s);
  lt_release(a);
}
END_TEST

START_TEST(squeeze_all_drops_every_size_1_dim_and_keeps_the_offset) {
  lt_tensor *a = lt_test_arange_f32(5, I64(1, 2, 1, 3, 2));
  lt_tensor *n = lt_narrow(a, 4, 1, 1); /* [1,2,1,3,1] at offset 1 */
  LT_ASSERT_OK_PTR(n);
  lt_tensor *s = lt_squeeze_all(n);
  LT_ASSERT_OK_PTR(s);
  LT_ASSERT_GEOMETRY(s, 2, I64(2, 3), I64(6, 2), 1);
  lt_tensor *ones = lt_test_arange_f32(2, I64(1, 1));
  lt_tensor *z = lt_squeeze_all(ones);
  LT_ASSERT_OK_PTR(z);
  LT_ASSERT_GEOMETRY(z, 0, NULL, NULL, 0);
  lt_release(z);
  lt_release(ones);
  lt_release(s);
  lt_release(n);
  lt_release(a);
}
END_TEST

START_TEST(unsqueeze_stride_is_size_times_stride_of_the_displaced_dim) {
  lt_tensor *a = cube();
  lt_tensor *s = lt_slice(a, 2, 0, LT_NONE, 2); /* [2,3,2]/[12,4,2] */
  LT_ASSERT_OK_PTR(s);
  lt_tensor *end = lt_unsqueeze(s, 3);
  LT_ASSERT_OK_PTR(end);
  LT_ASSERT_GEOMETRY(end, 4, I64(2, 3, 2, 1), I64(12, 4, 2, 1), 0);
  lt_tensor *mid = lt_unsqueeze(s, 1);
  LT_ASSERT_OK_PTR(mid);
  LT_ASSERT_GEOMETRY(mid, 4, I64(2, 1, 3, 2), I64(12, 12, 4, 2), 0);
  lt_tensor *neg = lt_unsqueeze(s, -1);
  LT_ASSERT_OK_PTR(neg);
  LT_ASSERT_GEOMETRY(neg, 4, I64(2, 3, 2, 1), I64(12, 4, 2, 1), 0);
  lt_tensor *front = lt_unsqueeze(s, -4);
  LT_ASSERT_OK_PTR(front);
  LT_ASSERT_GEOMETRY(front, 4, I64(1, 2, 3, 2), I64(24, 12, 4, 2), 0);
  lt_release(front);
  lt_release(neg);
  lt_release(mid);
  lt_release(end);
  lt_release(s);
  lt_release(a);
}
END_TEST

START_TEST(unsqueeze_of_a_0dim_tensor_accepts_0_and_minus_1) {
  lt_tensor *a = lt_test_arange_f32(0, NULL);
  lt_tensor *u = lt_unsqueeze(a, 0);
  LT_ASSERT_OK_PTR(u);
  LT_ASSERT_GEOMETRY(u, 1, I64(1), I64(1), 0);
  lt_tensor *v = lt_unsqueeze(a, -1);
  LT_ASSERT_OK_PTR(v);
  LT_ASSERT_GEOMETRY(v, 1, I64(1), I64(1), 0);
  lt_release(v);
  lt_release(u);
  lt_release(a);
}
END_TEST

START_TEST(unflatten_infers_a_minus_one) {
  lt_tensor *a = lt_test_arange_f32(2, I64(2, 12));
  lt_tensor *u = lt_unflatten(a, 1, 2, I64(3, -1));
  LT_ASSERT_OK_PTR(u);
  LT_ASSERT_GEOMETRY(u, 3, I64(2, 3, 4), I64(12, 4, 1), 0);
  lt_release(u);
  lt_release(a);
}
END_TEST

START_TEST(unflatten_of_a_transposed_dim_scales_its_stride) {
  lt_tensor *a = lt_test_arange_f32(2, I64(4, 6));
  lt_tensor *t = lt_transpose(a, 0, 1); /* [6,4]/[1,6] */
  LT_ASSERT_OK_PTR(t);
  lt_tensor *u = lt_unflatten(t, 0, 2, I64(2, 3));
  LT_ASSERT_OK_PTR(u);
  LT_ASSERT_GEOMETRY(u, 3, I64(2, 3, 4), I64(3, 1, 6), 0);
  lt_release(u);
  lt_release(t);
  lt_release(a);
}
END_TEST

START_TEST(diagonal_above_starts_at_column_offset_and_below_at_row_offset) {
  lt_tensor *a = lt_test_arange_f32(2, I64(3, 4));
  lt_tensor *up = lt_diagonal(a, 1, 0, 1);
  LT_ASSERT_OK_PTR(up);
  LT_ASSERT_GEOMETRY(up, 1, I64(3), I64(5), 1);
  assert_values(up, 3, F32(1, 6, 11));
  lt_tensor *down = lt_diagonal(a, -1, 0, 1);
  LT_ASSERT_OK_PTR(down);
  LT_ASSERT_GEOMETRY(down, 1, I64(2), I64(5), 4);
  assert_values(down, 2, F32(4, 9));
  lt_release(down);
  lt_release(up);
  lt_release(a);
}
END_TEST

START_TEST(diagonal_out_of_range_is_empty_and_does_not_move_the_offset) {
  lt_tensor *a = lt_test_arange_f32(2, I64(3, 4));
  lt_tensor *n = lt_narrow(a, 0, 1, 2); /* offset 4 */
  LT_ASSERT_OK_PTR(n);
  lt_tensor *d = lt_diagonal(n, 5, 0, 1);
  LT_ASSERT_OK_PTR(d);
  LT_ASSERT_GEOMETRY(d, 1, I64(0), I64(5), 4);
  lt_tensor *e = lt_diagonal(n, -2, 0, 1);
  LT_ASSERT_OK_PTR(e);
  LT_ASSERT_GEOMETRY(e, 1, I64(0), I64(5), 4);
  lt_release(e);
  lt_release(d);
  lt_release(n);
  lt_release(a);
}
END_TEST

START_TEST(diagonal_of_3d_appends_the_diagonal_as_the_last_dim) {
  lt_tensor *a = cube();
  lt_tensor *d = lt_diagonal(a, 0, 0, -1);
  LT_ASSERT_OK_PTR(d);
  LT_ASSERT_GEOMETRY(d, 2, I64(3, 2), I64(4, 13), 0);
  assert_values(d, 6, F32(0, 13, 4, 17, 8, 21));
  lt_release(d);
  lt_release(a);
}
END_TEST

START_TEST(as_strided_offset_is_absolute_in_the_storage) {
  lt_tensor *a = lt_test_arange_f32(1, I64(12));
  lt_tensor *n = lt_narrow(a, 0, 2, 3); /* offset 2 */
  LT_ASSERT_OK_PTR(n);
  lt_tensor *s = lt_as_strided(n, 2, I64(2, 2), I64(3, 1), 1);
  LT_ASSERT_OK_PTR(s);
  LT_ASSERT_GEOMETRY(s, 2, I64(2, 2), I64(3, 1), 1);
  assert_values(s, 4, F32(1, 2, 4, 5));
  lt_release(s);
  lt_release(n);
  lt_release(a);
}
END_TEST

START_TEST(as_strided_bounds_are_the_whole_storage_not_the_view) {
  lt_tensor *a = lt_test_arange_f32(1, I64(12));
  lt_tensor *n = lt_narrow(a, 0, 0, 2);
  LT_ASSERT_OK_PTR(n);
  lt_tensor *s = lt_as_strided(n, 2, I64(3, 4), I64(4, 1), 0);
  LT_ASSERT_OK_PTR(s);
  LT_ASSERT_GEOMETRY(s, 2, I64(3, 4), I64(4, 1), 0);
  LT_ASSERT_FAILS(lt_as_strided(n, 2, I64(3, 4), I64(4, 1), 1), LT_ERR_ARG);
  lt_release(s);
  lt_release(n);
  lt_release(a);
}
END_TEST

START_TEST(as_strided_with_no_elements_may_sit_anywhere) {
  lt_tensor *a = lt_test_arange_f32(1, I64(4));
  lt_tensor *s = lt_as_strided(a, 1, I64(0), I64(1), 100);
  LT_ASSERT_OK_PTR(s);
  LT_ASSERT_GEOMETRY(s, 1, I64(0), I64(1), 100);
  lt_tensor *t = lt_as_strided(a, 2, I64(3, 0), I64(1000000, 1), 50);
  LT_ASSERT_OK_PTR(t);
  LT_ASSERT_GEOMETRY(t, 2, I64(3, 0), I64(1000000, 1), 50);
  lt_release(t);
  lt_release(s);
  lt_release(a);
}
END_TEST

START_TEST(as_strided_allows_overlapping_strides) {
  lt_tensor *a = lt_test_arange_f32(1, I64(4));
  lt_tensor *s = lt_as_strided(a, 2, I64(3, 2), I64(1, 1), 0);
  LT_ASSERT_OK_PTR(s);
  assert_values(s, 6, F32(0, 1, 1, 2, 2, 3));
  lt_tensor *z = lt_as_strided(a, 1, I64(5), I64(0), 3);
  LT_ASSERT_OK_PTR(z);
  assert_values(z, 5, F32(3, 3, 3, 3, 3));
  lt_release(z);
  lt_release(s);
  lt_release(a);
}
END_TEST

START_TEST(view_of_a_stepped_slice_merges_and_keeps_the_offset) {
  lt_tensor *a = cube();
  lt_tensor *s = lt_slice(a, 2, 1, LT_NONE, 2); /* [2,3,2]/[12,4,2] offset 1 */
  LT_ASSERT_OK_PTR(s);
  lt_tensor *v = lt_view(s, 1, I64(12));
  LT_ASSERT_OK_PTR(v);
  LT_ASSERT_GEOMETRY(v, 1, I64(12), I64(2), 1);
  lt_tensor *w = lt_view(s, 2, I64(6, -1));
  LT_ASSERT_OK_PTR(w);
  LT_ASSERT_GEOMETRY(w, 2, I64(6, 2), I64(4, 2), 1);
  lt_release(w);
  lt_release(v);
  lt_release(s);
  lt_release(a);
}
END_TEST

START_TEST(view_of_permute_2_0_1_merges_the_contiguous_pair) {
  lt_tensor *a = cube();
  lt_tensor *p = lt_permute(a, (const int[]){2, 0, 1});
  LT_ASSERT_OK_PTR(p);
  lt_tensor *v = lt_view(p, 2, I64(4, 6));
  LT_ASSERT_OK_PTR(v);
  LT_ASSERT_GEOMETRY(v, 2, I64(4, 6), I64(1, 4), 0);
  LT_ASSERT_FAILS(lt_view(p, 1, I64(-1)), LT_ERR_NOT_VIEWABLE);
  lt_release(v);
  lt_release(p);
  lt_release(a);
}
END_TEST

START_TEST(view_of_an_expanded_scalar_flattens_with_stride_0) {
  lt_tensor *s = lt_test_arange_f32(0, NULL);
  lt_tensor *e = lt_expand(s, 2, I64(3, 4));
  LT_ASSERT_OK_PTR(e);
  lt_tensor *v = lt_view(e, 1, I64(12));
  LT_ASSERT_OK_PTR(v);
  LT_ASSERT_GEOMETRY(v, 1, I64(12), I64(0), 0);
  lt_release(v);
  lt_release(e);
  lt_release(s);
}
END_TEST

START_TEST(view_of_an_expanded_row_cannot_flatten) {
  lt_tensor *r = lt_test_arange_f32(2, I64(1, 4));
  lt_tensor *e = lt_expand(r, 2, I64(3, 4));
  LT_ASSERT_OK_PTR(e);
  LT_ASSERT_FAILS(lt_view(e, 1, I64(12)), LT_ERR_NOT_VIEWABLE);
  lt_tensor *v = lt_view(e, 3, I64(3, 2, 2));
  LT_ASSERT_OK_PTR(v);
  LT_ASSERT_GEOMETRY(v, 3, I64(3, 2, 2), I64(0, 2, 1), 0);
  lt_release(v);
  lt_release(e);
  lt_release(r);
}
END_TEST

START_TEST(view_of_a_0dim_tensor_to_all_ones_gives_strides_1) {
  lt_tensor *s = lt_test_arange_f32(0, NULL);
  lt_tensor *v = lt_view(s, 3, I64(1, 1, 1));
  LT_ASSERT_OK_PTR(v);
  LT_ASSERT_GEOMETRY(v, 3, I64(1, 1, 1), I64(1, 1, 1), 0);
  lt_tensor *w = lt_view(v, 0, NULL);
  LT_ASSERT_OK_PTR(w);
  LT_ASSERT_GEOMETRY(w, 0, NULL, NULL, 0);
  lt_release(w);
  lt_release(v);
  lt_release(s);
}
END_TEST

START_TEST(view_of_an_empty_tensor_never_fails_once_numel_matches) {
  lt_tensor *a = lt_test_arange_f32(2, I64(0, 3));
  lt_tensor *t = lt_transpose(a, 0, 1); /* [3,0]/[1,3] */
  LT_ASSERT_OK_PTR(t);
  lt_tensor *same = lt_view(t, 2, I64(3, 0));
  LT_ASSERT_OK_PTR(same);
  LT_ASSERT_GEOMETRY(same, 2, I64(3, 0), I64(1, 3), 0);
  lt_tensor *other = lt_view(t, 2, I64(0, 3));
  LT_ASSERT_OK_PTR(other);
  LT_ASSERT_GEOMETRY(other, 2, I64(0, 3), I64(3, 1), 0);
  lt_tensor *flat = lt_view(t, 1, I64(-1));
  LT_ASSERT_OK_PTR(flat);
  LT_ASSERT_GEOMETRY(flat, 1, I64(0), I64(1), 0);
  lt_release(flat);
  lt_release(other);
  lt_release(same);
  lt_release(t);
  lt_release(a);
}
END_TEST

START_TEST(view_trailing_size_1_dim_inherits_the_innermost_stride) {
  lt_tensor *a = lt_test_arange_f32(1, I64(4));
  lt_tensor *s = lt_as_strided(a, 2, I64(4, 1), I64(1, 100), 0);
  LT_ASSERT_OK_PTR(s);
  lt_tensor *v = lt_view(s, 2, I64(4, 1));
  LT_ASSERT_OK_PTR(v);
  LT_ASSERT_GEOMETRY(v, 2, I64(4, 1), I64(1, 100), 0);
  lt_release(v);
  lt_release(s);
  lt_release(a);
}
END_TEST

/* ---- errors ----------------------------------------------------------------*/

START_TEST(view_that_needs_a_copy_names_the_dims_and_suggests_lt_reshape) {
  lt_tensor *a = cube();
  lt_tensor *t = lt_transpose(a, 0, 1); /* [3,2,4]/[4,12,1] */
  LT_ASSERT_OK_PTR(t);
  LT_ASSERT_FAILS(lt_view(t, 2, I64(12, 2)), LT_ERR_NOT_VIEWABLE);
  ck_assert_msg(strstr(lt_last_error(), "dims 1 and 2") != NULL, "message: %s", lt_last_error());
  ck_assert_msg(strstr(lt_last_error(), "lt_reshape") != NULL, "message: %s", lt_last_error());
  LT_ASSERT_FAILS(lt_view(t, 2, I64(6, 4)), LT_ERR_NOT_VIEWABLE);
  ck_assert_msg(strstr(lt_last_error(), "dims 0 and 1") != NULL, "message: %s", lt_last_error());
  lt_tensor *u = lt_transpose(a, 1, 2); /* [2,4,3]/[12,1,4] */
  LT_ASSERT_OK_PTR(u);
  LT_ASSERT_FAILS(lt_view(u, 2, I64(2, 12)), LT_ERR_NOT_VIEWABLE);
  ck_assert_msg(strstr(lt_last_error(), "dims 1 and 2") != NULL, "message: %s", lt_last_error());
  lt_release(u);
  lt_release(t);
  lt_release(a);
}
END_TEST

START_TEST(view_with_a_numel_mismatch_fails_with_shape) {
  lt_tensor *a = cube();
  LT_ASSERT_FAILS(lt_view(a, 2, I64(5, 5)), LT_ERR_SHAPE);
  LT_ASSERT_FAILS(lt_view(a, 2, I64(-1, 5)), LT_ERR_SHAPE);
  LT_ASSERT_FAILS(lt_view(a, 2, I64(0, -1)), LT_ERR_SHAPE);
  lt_release(a);
}
END_TEST

START_TEST(view_with_two_minus_ones_fails_with_shape) {
  lt_tensor *a = cube();
  LT_ASSERT_FAILS(lt_view(a, 2, I64(-1, -1)), LT_ERR_SHAPE);
  lt_release(a);
}
END_TEST

START_TEST(view_with_a_size_below_minus_one_fails_with_shape) {
  lt_tensor *a = cube();
  LT_ASSERT_FAILS(lt_view(a, 2, I64(-2, -12)), LT_ERR_SHAPE);
  lt_release(a);
}
END_TEST

START_TEST(view_of_an_empty_tensor_with_minus_one_beside_0_fails_with_shape) {
  lt_tensor *a = lt_test_arange_f32(1, I64(0));
  LT_ASSERT_FAILS(lt_view(a, 2, I64(-1, 0)), LT_ERR_SHAPE);
  lt_release(a);
}
END_TEST

START_TEST(view_with_a_bad_shape_argument_fails_with_arg) {
  lt_tensor *a = cube();
  LT_ASSERT_FAILS(lt_view(a, 2, NULL), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_view(a, -1, I64(24)), LT_ERR_ARG);
  int64_t ones[LT_MAX_DIMS + 1];
  for (int i = 0; i <= LT_MAX_DIMS; i++) ones[i] = 1;
  ones[0] = 24;
  LT_ASSERT_FAILS(lt_view(a, LT_MAX_DIMS + 1, ones), LT_ERR_ARG);
  lt_release(a);
}
END_TEST

START_TEST(every_view_op_rejects_a_null_tensor_with_arg) {
  LT_ASSERT_FAILS(lt_view(NULL, 1, I64(1)), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_slice(NULL, 0, 0, 1, 1), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_select(NULL, 0, 0), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_narrow(NULL, 0, 0, 1), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_transpose(NULL, 0, 1), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_permute(NULL, (const int[]){0}), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_movedim(NULL, 0, 0), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_expand(NULL, 1, I64(1)), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_squeeze(NULL, 0), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_squeeze_all(NULL), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_unsqueeze(NULL, 0), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_unflatten(NULL, 0, 1, I64(1)), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_as_strided(NULL, 1, I64(1), I64(1), 0), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_diagonal(NULL, 0, 0, 1), LT_ERR_ARG);
}
END_TEST

START_TEST(slice_step_0_fails_with_arg) {
  lt_tensor *a = lt_test_arange_f32(2, I64(3, 4));
  LT_ASSERT_FAILS(lt_slice(a, 0, 0, 2, 0), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_slice(a, 1, LT_NONE, LT_NONE, 0), LT_ERR_ARG);
  lt_release(a);
}
END_TEST

START_TEST(slice_dim_out_of_range_fails_with_arg) {
  lt_tensor *a = lt_test_arange_f32(2, I64(3, 4));
  LT_ASSERT_FAILS(lt_slice(a, 2, 0, 2, 1), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_slice(a, -3, 0, 2, 1), LT_ERR_ARG);
  lt_release(a);
}
END_TEST

START_TEST(slice_of_a_0dim_tensor_fails_with_arg) {
  lt_tensor *s = lt_test_arange_f32(0, NULL);
  LT_ASSERT_FAILS(lt_slice(s, 0, 0, 1, 1), LT_ERR_ARG);
  lt_release(s);
}
END_TEST

START_TEST(select_index_out_of_range_fails_with_arg) {
  lt_tensor *a = lt_test_arange_f32(2, I64(3, 4));
  LT_ASSERT_FAILS(lt_select(a, 1, 4), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_select(a, 1, -5), LT_ERR_ARG);
  lt_release(a);
}
END_TEST

START_TEST(select_on_a_size_0_dim_fails_with_arg) {
  lt_tensor *e = lt_test_arange_f32(2, I64(3, 0));
  LT_ASSERT_FAILS(lt_select(e, 1, 0), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_select(e, 1, -1), LT_ERR_ARG);
  lt_release(e);
}
END_TEST

START_TEST(select_dim_out_of_range_fails_with_arg) {
  lt_tensor *a = lt_test_arange_f32(2, I64(3, 4));
  LT_ASSERT_FAILS(lt_select(a, 2, 0), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_select(a, -3, 0), LT_ERR_ARG);
  lt_release(a);
}
END_TEST

START_TEST(select_of_a_0dim_tensor_fails_with_arg) {
  lt_tensor *s = lt_test_arange_f32(0, NULL);
  LT_ASSERT_FAILS(lt_select(s, 0, 0), LT_ERR_ARG);
  lt_release(s);
}
END_TEST

START_TEST(narrow_start_beyond_the_size_fails_with_arg) {
  lt_tensor *a = lt_test_arange_f32(1, I64(10));
  LT_ASSERT_FAILS(lt_narrow(a, 0, 11, 0), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_narrow(a, 0, -11, 1), LT_ERR_ARG);
  lt_release(a);
}
END_TEST

START_TEST(narrow_past_the_end_fails_with_arg) {
  lt_tensor *a = lt_test_arange_f32(1, I64(10));
  LT_ASSERT_FAILS(lt_narrow(a, 0, 7, 4), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_narrow(a, 0, -3, 4), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_narrow(a, 0, 10, 1), LT_ERR_ARG);
  lt_release(a);
}
END_TEST

START_TEST(narrow_negative_length_fails_with_arg) {
  lt_tensor *a = lt_test_arange_f32(1, I64(10));
  LT_ASSERT_FAILS(lt_narrow(a, 0, 2, -1), LT_ERR_ARG);
  lt_release(a);
}
END_TEST

START_TEST(narrow_dim_out_of_range_fails_with_arg) {
  lt_tensor *a = lt_test_arange_f32(1, I64(10));
  LT_ASSERT_FAILS(lt_narrow(a, 1, 0, 1), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_narrow(a, -2, 0, 1), LT_ERR_ARG);
  lt_release(a);
}
END_TEST

START_TEST(narrow_of_a_0dim_tensor_fails_with_arg) {
  lt_tensor *s = lt_test_arange_f32(0, NULL);
  LT_ASSERT_FAILS(lt_narrow(s, 0, 0, 1), LT_ERR_ARG);
  lt_release(s);
}
END_TEST

START_TEST(transpose_dim_out_of_range_fails_with_arg) {
  lt_tensor *a = lt_test_arange_f32(2, I64(3, 4));
  lt_tensor *s = lt_test_arange_f32(0, NULL);
  LT_ASSERT_FAILS(lt_transpose(a, 2, 0), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_transpose(a, 0, -3), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_transpose(s, 0, 1), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_transpose(s, -2, 0), LT_ERR_ARG);
  lt_release(s);
  lt_release(a);
}
END_TEST

START_TEST(permute_duplicate_dims_fail_with_arg) {
  lt_tensor *a = cube();
  LT_ASSERT_FAILS(lt_permute(a, (const int[]){0, 1, 1}), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_permute(a, (const int[]){0, 1, -3}), LT_ERR_ARG); /* -3 wraps to 0 */
  lt_release(a);
}
END_TEST

START_TEST(permute_dim_out_of_range_fails_with_arg) {
  lt_tensor *a = cube();
  LT_ASSERT_FAILS(lt_permute(a, (const int[]){0, 1, 3}), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_permute(a, (const int[]){-4, 1, 2}), LT_ERR_ARG);
  lt_release(a);
}
END_TEST

START_TEST(permute_with_a_null_perm_fails_with_arg) {
  lt_tensor *a = cube();
  LT_ASSERT_FAILS(lt_permute(a, NULL), LT_ERR_ARG);
  lt_release(a);
}
END_TEST

START_TEST(movedim_src_or_dst_out_of_range_fails_with_arg) {
  lt_tensor *a = cube();
  LT_ASSERT_FAILS(lt_movedim(a, 3, 0), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_movedim(a, 0, 3), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_movedim(a, -4, 0), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_movedim(a, 0, -4), LT_ERR_ARG);
  lt_release(a);
}
END_TEST

START_TEST(expand_to_fewer_dims_fails_with_shape) {
  lt_tensor *a = lt_test_arange_f32(2, I64(3, 1));
  LT_ASSERT_FAILS(lt_expand(a, 1, I64(3)), LT_ERR_SHAPE);
  lt_release(a);
}
END_TEST

START_TEST(expand_of_a_non_1_dim_to_another_size_fails_with_shape) {
  lt_tensor *a = lt_test_arange_f32(2, I64(3, 1));
  LT_ASSERT_FAILS(lt_expand(a, 2, I64(4, 1)), LT_ERR_SHAPE);
  LT_ASSERT_FAILS(lt_expand(a, 3, I64(2, 1, 5)), LT_ERR_SHAPE);
  lt_release(a);
}
END_TEST

START_TEST(expand_minus_one_in_a_new_leading_dim_fails_with_arg) {
  lt_tensor *a = lt_test_arange_f32(2, I64(3, 1));
  lt_tensor *s = lt_test_arange_f32(0, NULL);
  LT_ASSERT_FAILS(lt_expand(a, 3, I64(-1, 3, 1)), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_expand(s, 1, I64(-1)), LT_ERR_ARG);
  lt_release(s);
  lt_release(a);
}
END_TEST

START_TEST(expand_to_a_size_below_minus_one_fails_with_arg_even_for_0dim) {
  lt_tensor *a = lt_test_arange_f32(2, I64(3, 1));
  lt_tensor *s = lt_test_arange_f32(0, NULL);
  LT_ASSERT_FAILS(lt_expand(a, 2, I64(3, -2)), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_expand(a, 3, I64(-5, 3, 1)), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_expand(s, 1, I64(-2)), LT_ERR_ARG);
  lt_release(s);
  lt_release(a);
}
END_TEST

START_TEST(expand_with_a_null_shape_fails_with_arg) {
  lt_tensor *a = lt_test_arange_f32(2, I64(3, 1));
  LT_ASSERT_FAILS(lt_expand(a, 2, NULL), LT_ERR_ARG);
  lt_release(a);
}
END_TEST

START_TEST(squeeze_dim_out_of_range_fails_with_arg) {
  lt_tensor *a = lt_test_arange_f32(2, I64(3, 1));
  lt_tensor *s = lt_test_arange_f32(0, NULL);
  LT_ASSERT_FAILS(lt_squeeze(a, 2), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_squeeze(a, -3), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_squeeze(s, 1), LT_ERR_ARG);
  lt_release(s);
  lt_release(a);
}
END_TEST

START_TEST(unsqueeze_dim_outside_the_ndim_plus_1_range_fails_with_arg) {
  lt_tensor *a = lt_test_arange_f32(2, I64(3, 1));
  lt_tensor *s = lt_test_arange_f32(0, NULL);
  LT_ASSERT_FAILS(lt_unsqueeze(a, 3), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_unsqueeze(a, -4), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_unsqueeze(s, 1), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_unsqueeze(s, -2), LT_ERR_ARG);
  lt_release(s);
  lt_release(a);
}
END_TEST

START_TEST(unsqueeze_of_a_tensor_with_max_dims_fails_with_arg) {
  int64_t ones[LT_MAX_DIMS];
  for (int i = 0; i < LT_MAX_DIMS; i++) ones[i] = 1;
  lt_tensor *full = lt_test_arange_f32(LT_MAX_DIMS, ones);
  LT_ASSERT_OK_PTR(full);
  LT_ASSERT_FAILS(lt_unsqueeze(full, 0), LT_ERR_ARG);
  lt_release(full);
}
END_TEST

START_TEST(unflatten_sizes_that_do_not_split_the_dim_fail_with_shape) {
  lt_tensor *a = lt_test_arange_f32(2, I64(2, 6));
  LT_ASSERT_FAILS(lt_unflatten(a, 1, 2, I64(4, 2)), LT_ERR_SHAPE);  /* 8 != 6 */
  LT_ASSERT_FAILS(lt_unflatten(a, 1, 2, I64(-1, 4)), LT_ERR_SHAPE); /* 4 does not divide 6 */
  lt_release(a);
}
END_TEST

START_TEST(unflatten_with_two_minus_ones_fails_with_shape) {
  lt_tensor *a = lt_test_arange_f32(2, I64(2, 6));
  LT_ASSERT_FAILS(lt_unflatten(a, 1, 2, I64(-1, -1)), LT_ERR_SHAPE);
  lt_release(a);
}
END_TEST

START_TEST(unflatten_with_no_sizes_fails_with_arg) {
  lt_tensor *a = lt_test_arange_f32(2, I64(2, 6));
  LT_ASSERT_FAILS(lt_unflatten(a, 1, 0, I64(6)), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_unflatten(a, 1, 1, NULL), LT_ERR_ARG);
  lt_release(a);
}
END_TEST

START_TEST(unflatten_dim_out_of_range_fails_with_arg) {
  lt_tensor *a = lt_test_arange_f32(2, I64(2, 6));
  LT_ASSERT_FAILS(lt_unflatten(a, 2, 2, I64(2, 3)), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_unflatten(a, -3, 2, I64(2, 1)), LT_ERR_ARG);
  lt_release(a);
}
END_TEST

START_TEST(unflatten_past_max_dims_fails_with_arg) {
  lt_tensor *a = lt_test_arange_f32(2, I64(2, 6));
  int64_t sizes[LT_MAX_DIMS];
  for (int i = 0; i < LT_MAX_DIMS; i++) sizes[i] = 1;
  sizes[0] = 6;
  LT_ASSERT_FAILS(lt_unflatten(a, 1, LT_MAX_DIMS, sizes), LT_ERR_ARG); /* 17 dims */
  lt_release(a);
}
END_TEST

START_TEST(as_strided_reaching_past_the_storage_fails_with_arg) {
  lt_tensor *a = lt_test_arange_f32(1, I64(12));
  lt_tensor *e = lt_test_arange_f32(1, I64(0));
  LT_ASSERT_FAILS(lt_as_strided(a, 2, I64(3, 4), I64(4, 1), 1), LT_ERR_ARG); /* reaches 12 */
  LT_ASSERT_FAILS(lt_as_strided(a, 1, I64(13), I64(1), 0), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_as_strided(a, 0, NULL, NULL, 12), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_as_strided(e, 0, NULL, NULL, 0), LT_ERR_ARG); /* one element, empty storage */
  lt_release(e);
  lt_release(a);
}
END_TEST

START_TEST(as_strided_negative_stride_fails_with_arg) {
  lt_tensor *a = lt_test_arange_f32(1, I64(12));
  LT_ASSERT_FAILS(lt_as_strided(a, 1, I64(2), I64(-1), 5), LT_ERR_ARG);
  lt_release(a);
}
END_TEST

START_TEST(as_strided_negative_offset_fails_with_arg_even_when_empty) {
  lt_tensor *a = lt_test_arange_f32(1, I64(12));
  LT_ASSERT_FAILS(lt_as_strided(a, 1, I64(2), I64(1), -1), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_as_strided(a, 1, I64(0), I64(1), -1), LT_ERR_ARG);
  lt_release(a);
}
END_TEST

START_TEST(as_strided_negative_size_fails_with_arg) {
  lt_tensor *a = lt_test_arange_f32(1, I64(12));
  LT_ASSERT_FAILS(lt_as_strided(a, 1, I64(-2), I64(1), 0), LT_ERR_ARG);
  lt_release(a);
}
END_TEST

START_TEST(as_strided_whose_reach_overflows_fails_with_arg) {
  lt_tensor *a = lt_test_arange_f32(1, I64(12));
  LT_ASSERT_FAILS(lt_as_strided(a, 1, I64(3), I64(INT64_MAX), 0), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_as_strided(a, 1, I64(2), I64(INT64_MAX), 1), LT_ERR_ARG);
  lt_release(a);
}
END_TEST

START_TEST(as_strided_with_null_shape_or_strides_fails_with_arg) {
  lt_tensor *a = lt_test_arange_f32(1, I64(12));
  LT_ASSERT_FAILS(lt_as_strided(a, 1, NULL, I64(1), 0), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_as_strided(a, 1, I64(1), NULL, 0), LT_ERR_ARG);
  lt_release(a);
}
END_TEST

START_TEST(diagonal_of_the_same_dim_twice_fails_with_arg) {
  lt_tensor *a = lt_test_arange_f32(2, I64(3, 4));
  LT_ASSERT_FAILS(lt_diagonal(a, 0, 0, 0), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_diagonal(a, 0, 0, -2), LT_ERR_ARG); /* the same dim once wrapped */
  lt_release(a);
}
END_TEST

START_TEST(diagonal_dim_out_of_range_fails_with_arg) {
  lt_tensor *a = lt_test_arange_f32(2, I64(3, 4));
  LT_ASSERT_FAILS(lt_diagonal(a, 0, 0, 2), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_diagonal(a, 0, -3, 1), LT_ERR_ARG);
  lt_release(a);
}
END_TEST

START_TEST(diagonal_of_fewer_than_2_dims_fails_with_arg) {
  lt_tensor *v = lt_test_arange_f32(1, I64(3));
  lt_tensor *s = lt_test_arange_f32(0, NULL);
  LT_ASSERT_FAILS(lt_diagonal(v, 0, 0, 1), LT_ERR_ARG);
  LT_ASSERT_FAILS(lt_diagonal(s, 0, 0, -1), LT_ERR_ARG);
  lt_release(s);
  lt_release(v);
}
END_TEST

START_TEST(a_successful_view_op_clears_the_last_error) {
  lt_tensor *a = cube();
  lt_tensor *r;
#define FAIL_THEN_SUCCEED(bad, good)       \
  do {                                     \
    ck_assert_ptr_null(bad);               \
    ck_assert_str_ne(lt_last_error(), ""); \
    r = (good);                            \
    LT_ASSERT_OK_PTR(r);                   \
    assert_no_error();                     \
    lt_release(r);                         \
  } while (0)
  FAIL_THEN_SUCCEED(lt_view(a, 1, I64(7)), lt_view(a, 1, I64(24)));
  FAIL_THEN_SUCCEED(lt_slice(a, 0, 0, 1, 0), lt_slice(a, 0, 0, 1, 1));
  FAIL_THEN_SUCCEED(lt_select(a, 0, 2), lt_select(a, 0, 1));
  FAIL_THEN_SUCCEED(lt_narrow(a, 0, 1, 2), lt_narrow(a, 0, 1, 1));
  FAIL_THEN_SUCCEED(lt_transpose(a, 0, 3), lt_transpose(a, 0, 2));
  FAIL_THEN_SUCCEED(lt_permute(a, (const int[]){0, 0, 1}), lt_permute(a, (const int[]){1, 0, 2}));
  FAIL_THEN_SUCCEED(lt_movedim(a, 0, 5), lt_movedim(a, 0, 1));
  FAIL_THEN_SUCCEED(lt_expand(a, 3, I64(2, 3, 5)), lt_expand(a, 4, I64(2, 2, 3, 4)));
  FAIL_THEN_SUCCEED(lt_squeeze(a, 3), lt_squeeze(a, 0));
  FAIL_THEN_SUCCEED(lt_squeeze(a, 3), lt_squeeze_all(a));
  FAIL_THEN_SUCCEED(lt_unsqueeze(a, 4), lt_unsqueeze(a, 3));
  FAIL_THEN_SUCCEED(lt_unflatten(a, 2, 2, I64(3, 3)), lt_unflatten(a, 2, 2, I64(2, 2)));
  FAIL_THEN_SUCCEED(lt_as_strided(a, 1, I64(25), I64(1), 0), lt_as_strided(a, 1, I64(24), I64(1), 0));
  FAIL_THEN_SUCCEED(lt_diagonal(a, 0, 1, 1), lt_diagonal(a, 0, 1, 2));
#undef FAIL_THEN_SUCCEED
  lt_release(a);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("views");
  TCase *tc;

  tc = tcase_create("index_model");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, slice_reads_the_elements_python_slicing_picks);
  tcase_add_test(tc, narrow_reads_length_elements_from_start);
  tcase_add_test(tc, select_reads_the_index_and_drops_the_dim);
  tcase_add_test(tc, transpose_swaps_two_dims);
  tcase_add_test(tc, permute_reorders_dims);
  tcase_add_test(tc, movedim_moves_one_dim_and_keeps_the_others_in_order);
  tcase_add_test(tc, expand_repeats_size_1_dims_with_stride_0);
  tcase_add_test(tc, squeeze_drops_the_dim_only_when_its_size_is_1);
  tcase_add_test(tc, squeeze_all_drops_every_size_1_dim);
  tcase_add_test(tc, unsqueeze_inserts_a_size_1_dim_with_pytorchs_stride);
  tcase_add_test(tc, unflatten_splits_one_dim_in_row_major_order);
  tcase_add_test(tc, view_keeps_row_major_order_and_fails_exactly_when_no_strides_exist);
  tcase_add_test(tc, diagonal_reads_index_pairs_offset_apart);
  tcase_add_test(tc, as_strided_reads_storage_at_offset_plus_index_times_strides);
  tcase_add_test(tc, a_view_keeps_the_storage_alive_after_its_input_is_released);
  suite_add_tcase(s, tc);

  tc = tcase_create("slice_select_narrow");
  tcase_add_test(tc, slice_start_past_the_end_is_empty_one_past_the_end);
  tcase_add_test(tc, slice_with_step_2_multiplies_the_stride);
  tcase_add_test(tc, slice_with_step_minus_1_reverses_from_the_last_element);
  tcase_add_test(tc, slice_with_negative_step_walks_down_from_start);
  tcase_add_test(tc, slice_of_a_negative_dim_moves_the_offset);
  tcase_add_test(tc, select_negative_index_counts_from_the_end);
  tcase_add_test(tc, select_of_a_1d_tensor_is_0dim_at_the_index);
  tcase_add_test(tc, select_on_an_empty_tensor_moves_the_offset_anyway);
  tcase_add_test(tc, narrow_at_the_end_with_length_0_is_allowed);
  tcase_add_test(tc, narrow_negative_start_counts_from_the_end);
  tcase_add_test(tc, narrow_of_an_inner_dim_moves_the_offset_by_start);
  suite_add_tcase(s, tc);

  tc = tcase_create("reordering");
  tcase_add_test(tc, transpose_swaps_sizes_and_strides);
  tcase_add_test(tc, transpose_of_a_dim_with_itself_is_a_view_of_the_same_geometry);
  tcase_add_test(tc, transpose_of_a_0dim_tensor_accepts_0_and_minus_1);
  tcase_add_test(tc, permute_2_0_1_takes_sizes_and_strides_in_that_order);
  tcase_add_test(tc, movedim_to_the_end_or_front_keeps_the_other_dims_in_order);
  suite_add_tcase(s, tc);

  tc = tcase_create("expand");
  tcase_add_test(tc, expand_broadcasts_size_1_and_new_dims_with_stride_0);
  tcase_add_test(tc, expand_minus_one_keeps_an_existing_size);
  tcase_add_test(tc, expand_new_leading_size_1_dim_continues_the_next_dim);
  tcase_add_test(tc, expand_size_1_to_0_is_allowed);
  tcase_add_test(tc, expand_of_a_0dim_tensor_gives_stride_0);
  tcase_add_test(tc, expand_of_a_0dim_tensor_gives_stride_0_even_to_size_1_dims);
  suite_add_tcase(s, tc);

  tc = tcase_create("size_1_dims");
  tcase_add_test(tc, squeeze_drops_a_size_1_dim);
  tcase_add_test(tc, squeeze_of_a_dim_not_of_size_1_is_a_silent_no_op);
  tcase_add_test(tc, squeeze_of_a_0dim_tensor_is_a_no_op);
  tcase_add_test(tc, squeeze_all_drops_every_size_1_dim_and_keeps_the_offset);
  tcase_add_test(tc, unsqueeze_stride_is_size_times_stride_of_the_displaced_dim);
  tcase_add_test(tc, unsqueeze_of_a_0dim_tensor_accepts_0_and_minus_1);
  tcase_add_test(tc, unflatten_infers_a_minus_one);
  tcase_add_test(tc, unflatten_of_a_transposed_dim_scales_its_stride);
  suite_add_tcase(s, tc);

  tc = tcase_create("diagonal_as_strided");
  tcase_add_test(tc, diagonal_above_starts_at_column_offset_and_below_at_row_offset);
  tcase_add_test(tc, diagonal_out_of_range_is_empty_and_does_not_move_the_offset);
  tcase_add_test(tc, diagonal_of_3d_appends_the_diagonal_as_the_last_dim);
  tcase_add_test(tc, as_strided_offset_is_absolute_in_the_storage);
  tcase_add_test(tc, as_strided_bounds_are_the_whole_storage_not_the_view);
  tcase_add_test(tc, as_strided_with_no_elements_may_sit_anywhere);
  tcase_add_test(tc, as_strided_allows_overlapping_strides);
  suite_add_tcase(s, tc);

  tc = tcase_create("view");
  tcase_add_test(tc, view_of_a_stepped_slice_merges_and_keeps_the_offset);
  tcase_add_test(tc, view_of_permute_2_0_1_merges_the_contiguous_pair);
  tcase_add_test(tc, view_of_an_expanded_scalar_flattens_with_stride_0);
  tcase_add_test(tc, view_of_an_expanded_row_cannot_flatten);
  tcase_add_test(tc, view_of_a_0dim_tensor_to_all_ones_gives_strides_1);
  tcase_add_test(tc, view_of_an_empty_tensor_never_fails_once_numel_matches);
  tcase_add_test(tc, view_trailing_size_1_dim_inherits_the_innermost_stride);
  suite_add_tcase(s, tc);

  tc = tcase_create("view_errors");
  tcase_add_test(tc, view_that_needs_a_copy_names_the_dims_and_suggests_lt_reshape);
  tcase_add_test(tc, view_with_a_numel_mismatch_fails_with_shape);
  tcase_add_test(tc, view_with_two_minus_ones_fails_with_shape);
  tcase_add_test(tc, view_with_a_size_below_minus_one_fails_with_shape);
  tcase_add_test(tc, view_of_an_empty_tensor_with_minus_one_beside_0_fails_with_shape);
  tcase_add_test(tc, view_with_a_bad_shape_argument_fails_with_arg);
  tcase_add_test(tc, every_view_op_rejects_a_null_tensor_with_arg);
  tcase_add_test(tc, a_successful_view_op_clears_the_last_error);
  suite_add_tcase(s, tc);

  tc = tcase_create("indexing_errors");
  tcase_add_test(tc, slice_step_0_fails_with_arg);
  tcase_add_test(tc, slice_dim_out_of_range_fails_with_arg);
  tcase_add_test(tc, slice_of_a_0dim_tensor_fails_with_arg);
  tcase_add_test(tc, select_index_out_of_range_fails_with_arg);
  tcase_add_test(tc, select_on_a_size_0_dim_fails_with_arg);
  tcase_add_test(tc, select_dim_out_of_range_fails_with_arg);
  tcase_add_test(tc, select_of_a_0dim_tensor_fails_with_arg);
  tcase_add_test(tc, narrow_start_beyond_the_size_fails_with_arg);
  tcase_add_test(tc, narrow_past_the_end_fails_with_arg);
  tcase_add_test(tc, narrow_negative_length_fails_with_arg);
  tcase_add_test(tc, narrow_dim_out_of_range_fails_with_arg);
  tcase_add_test(tc, narrow_of_a_0dim_tensor_fails_with_arg);
  suite_add_tcase(s, tc);

  tc = tcase_create("reordering_errors");
  tcase_add_test(tc, transpose_dim_out_of_range_fails_with_arg);
  tcase_add_test(tc, permute_duplicate_dims_fail_with_arg);
  tcase_add_test(tc, permute_dim_out_of_range_fails_with_arg);
  tcase_add_test(tc, permute_with_a_null_perm_fails_with_arg);
  tcase_add_test(tc, movedim_src_or_dst_out_of_range_fails_with_arg);
  suite_add_tcase(s, tc);

  tc = tcase_create("reshaping_errors");
  tcase_add_test(tc, expand_to_fewer_dims_fails_with_shape);
  tcase_add_test(tc, expand_of_a_non_1_dim_to_another_size_fails_with_shape);
  tcase_add_test(tc, expand_minus_one_in_a_new_leading_dim_fails_with_arg);
  tcase_add_test(tc, expand_to_a_size_below_minus_one_fails_with_arg_even_for_0dim);
  tcase_add_test(tc, expand_with_a_null_shape_fails_with_arg);
  tcase_add_test(tc, squeeze_dim_out_of_range_fails_with_arg);
  tcase_add_test(tc, unsqueeze_dim_outside_the_ndim_plus_1_range_fails_with_arg);
  tcase_add_test(tc, unsqueeze_of_a_tensor_with_max_dims_fails_with_arg);
  tcase_add_test(tc, unflatten_sizes_that_do_not_split_the_dim_fail_with_shape);
  tcase_add_test(tc, unflatten_with_two_minus_ones_fails_with_shape);
  tcase_add_test(tc, unflatten_with_no_sizes_fails_with_arg);
  tcase_add_test(tc, unflatten_dim_out_of_range_fails_with_arg);
  tcase_add_test(tc, unflatten_past_max_dims_fails_with_arg);
  suite_add_tcase(s, tc);

  tc = tcase_create("as_strided_diagonal_errors");
  tcase_add_test(tc, as_strided_reaching_past_the_storage_fails_with_arg);
  tcase_add_test(tc, as_strided_negative_stride_fails_with_arg);
  tcase_add_test(tc, as_strided_negative_offset_fails_with_arg_even_when_empty);
  tcase_add_test(tc, as_strided_negative_size_fails_with_arg);
  tcase_add_test(tc, as_strided_whose_reach_overflows_fails_with_arg);
  tcase_add_test(tc, as_strided_with_null_shape_or_strides_fails_with_arg);
  tcase_add_test(tc, diagonal_of_the_same_dim_twice_fails_with_arg);
  tcase_add_test(tc, diagonal_dim_out_of_range_fails_with_arg);
  tcase_add_test(tc, diagonal_of_fewer_than_2_dims_fails_with_arg);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return lt_run_suite(suite()); }
