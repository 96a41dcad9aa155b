/* The index model: each op builds its result element by element from the
 * op's definition. See index_model.h. */
#include "index_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) {
    fprintf(stderr, "index_model: out of memory\n");
    abort();
  }
  return p;
}

/* An empty model of the given shape over `storage`; the elements are the
 * caller's to fill. */
static lt_status make(int ndim, const int64_t *shape, int storage, lt_model *out) {
  memset(out, 0, sizeof *out);
  out->ndim = ndim;
  out->numel = 1;
  for (int i = 0; i < ndim; i++) {
    out->shape[i] = shape[i];
    out->numel *= shape[i];
  }
  out->storage = storage;
  out->at = xmalloc(sizeof *out->at * (size_t)out->numel);
  out->val = xmalloc(sizeof *out->val * (size_t)out->numel);
  return LT_OK;
}

static lt_status fail(lt_status s, lt_model *out) {
  memset(out, 0, sizeof *out);
  return s;
}

void lt_model_free(lt_model *m) {
  free(m->at);
  free(m->val);
  memset(m, 0, sizeof *m);
}

lt_status lt_model_arange(int ndim, const int64_t *shape, int storage, lt_model *out) {
  make(ndim, shape, storage, out);
  for (int64_t k = 0; k < out->numel; k++) {
    out->at[k] = k;
    out->val[k] = (float)k;
  }
  return LT_OK;
}

lt_status lt_model_copy(const lt_model *m, int storage, lt_model *out) {
  make(m->ndim, m->shape, storage, out);
  for (int64_t k = 0; k < m->numel; k++) {
    out->at[k] = k;
    out->val[k] = m->val[k];
  }
  return LT_OK;
}

/* Row-major index of element k. */
static void unravel(int ndim, const int64_t *shape, int64_t k, int64_t *idx) {
  for (int d = ndim - 1; d >= 0; d--) {
    idx[d] = k % shape[d];
    k /= shape[d];
  }
}

static int64_t ravel(int ndim, const int64_t *shape, const int64_t *idx) {
  int64_t k = 0;
  for (int d = 0; d < ndim; d++) k = k * shape[d] + idx[d];
  return k;
}

/* The same elements in the same order under a new shape of equal numel:
 * what view, reshape, flatten, unflatten, squeeze and unsqueeze mean. */
static lt_status relist(const lt_model *m, int ndim, const int64_t *shape, lt_model *out) {
  make(ndim, shape, m->storage, out);
  memcpy(out->at, m->at, sizeof *m->at * (size_t)m->numel);
  memcpy(out->val, m->val, sizeof *m->val * (size_t)m->numel);
  return LT_OK;
}

/* Output index -> the input index whose element it is. */
typedef void (*index_map)(const void *ctx, const int64_t *out_idx, int64_t *in_idx);

static lt_status gather(const lt_model *m, int ndim, const int64_t *shape, index_map map, const void *ctx,
                        lt_model *out) {
  make(ndim, shape, m->storage, out);
  int64_t oi[LT_MAX_DIMS], ii[LT_MAX_DIMS];
  for (int64_t k = 0; k < out->numel; k++) {
    unravel(ndim, shape, k, oi);
    map(ctx, oi, ii);
    int64_t j = ravel(m->ndim, m->shape, ii);
    out->at[k] = m->at[j];
    out->val[k] = m->val[j];
  }
  return LT_OK;
}

/* A dim of a tensor with ndim dims: valid in [-n, n-1], n = max(ndim, 1). */
static bool wrap(int dim, int ndim, int *out) {
  int n = ndim > 0 ? ndim : 1;
  if (dim < -n || dim >= n) return false;
  *out = dim < 0 ? dim + n : dim;
  return true;
}

/* PyTorch's infer_size: resolves one -1 against numel. */
static lt_status infer(int64_t numel, int n, const int64_t *in, int64_t *out) {
  int minus_one = -1;
  int64_t known = 1;
  for (int i = 0; i < n; i++) {
    if (in[i] < -1) return LT_ERR_SHAPE;
    if (in[i] == -1) {
      if (minus_one >= 0) return LT_ERR_SHAPE;
      minus_one = i;
      continue;
    }
    known *= in[i];
  }
  memcpy(out, in, sizeof *in * (size_t)n);
  if (minus_one < 0) return known == numel ? LT_OK : LT_ERR_SHAPE;
  if (known == 0 || numel % known != 0) return LT_ERR_SHAPE;
  out[minus_one] = numel / known;
  return LT_OK;
}

lt_status lt_model_view(const lt_model *m, int ndim, const int64_t *shape, lt_model *out) {
  int64_t resolved[LT_MAX_DIMS];
  lt_status s = infer(m->numel, ndim, shape, resolved);
  if (s != LT_OK) return fail(s, out);
  return relist(m, ndim, resolved, out);
}

lt_status lt_model_flatten(const lt_model *m, int start, int end, lt_model *out) {
  int s, e;
  if (!wrap(start, m->ndim, &s) || !wrap(end, m->ndim, &e) || s > e) return fail(LT_ERR_ARG, out);
  if (m->ndim == 0) return relist(m, 1, (int64_t[]){1}, out);
  int64_t shape[LT_MAX_DIMS];
  int n = 0;
  for (int d = 0; d < m->ndim; d++) {
    if (d > s && d <= e) shape[n - 1] *= m->shape[d];
    else shape[n++] = m->shape[d];
  }
  return relist(m, n, shape, out);
}

lt_status lt_model_unflatten(const lt_model *m, int dim, int n, const int64_t *sizes, lt_model *out) {
  int d;
  if (m->ndim == 0 || !wrap(dim, m->ndim, &d) || n < 1 || m->ndim - 1 + n > LT_MAX_DIMS)
    return fail(LT_ERR_ARG, out);
  int64_t split[LT_MAX_DIMS], shape[LT_MAX_DIMS];
  lt_status s = infer(m->shape[d], n, sizes, split);
  if (s != LT_OK) return fail(s, out);
  int k = 0;
  for (int i = 0; i < m->ndim; i++) {
    if (i != d) shape[k++] = m->shape[i];
    else
      for (int j = 0; j < n; j++) shape[k++] = split[j];
  }
  return relist(m, k, shape, out);
}

/* Picks along one dim: output index i of dim `dim` is input index pick[i]. */
typedef struct pick_ctx {
  int ndim, dim;
  const int64_t *pick;
} pick_ctx;

static void pick_map(const void *ctx, const int64_t *oi, int64_t *ii) {
  const pick_ctx *c = ctx;
  for (int d = 0; d < c->ndim; d++) ii[d] = d == c->dim ? c->pick[oi[d]] : oi[d];
}

static lt_status pick(const lt_model *m, int dim, int64_t n, const int64_t *picks, lt_model *out) {
  int64_t shape[LT_MAX_DIMS];
  memcpy(shape, m->shape, sizeof shape);
  shape[dim] = n;
  pick_ctx c = {m->ndim, dim, picks};
  return gather(m, m->ndim, shape, pick_map, &c, out);
}

/* CPython's slice.indices(): a bound clamps to [0, n] for a positive step,
 * to [-1, n-1] (-1 = before the first) for a negative one. */
static int64_t slice_bound(int64_t v, int64_t omitted, int64_t step, int64_t n) {
  if (v == LT_NONE) return omitted;
  if (v < 0) {
    v += n;
    if (v < 0) v = step < 0 ? -1 : 0;
  } else if (v >= n) {
    v = step < 0 ? n - 1 : n;
  }
  return v;
}

lt_status lt_model_slice(const lt_model *m, int dim, int64_t start, int64_t stop, int64_t step,
                         lt_model *out) {
  int d;
  if (m->ndim == 0 || !wrap(dim, m->ndim, &d) || step == 0) return fail(LT_ERR_ARG, out);
  int64_t n = m->shape[d], count = 0, *picks = xmalloc(sizeof *picks * (size_t)n);
  int64_t first = slice_bound(start, step > 0 ? 0 : n - 1, step, n);
  int64_t last = slice_bound(stop, step > 0 ? n : -1, step, n);
  /* range(first, last, step), read off index by index. */
  if (step > 0) {
    for (int64_t j = 0; j < n; j++)
      if (j >= first && j < last && (j - first) % step == 0) picks[count++] = j;
  } else {
    for (int64_t j = n - 1; j >= 0; j--)
      if (j <= first && j > last && (first - j) % step == 0) picks[count++] = j;
  }
  lt_status s = pick(m, d, count, picks, out);
  free(picks);
  return s;
}

lt_status lt_model_select(const lt_model *m, int dim, int64_t index, lt_model *out) {
  int d;
  if (m->ndim == 0 || !wrap(dim, m->ndim, &d)) return fail(LT_ERR_ARG, out);
  int64_t n = m->shape[d];
  if (index < -n || index >= n) return fail(LT_ERR_ARG, out);
  int64_t i = index < 0 ? index + n : index;
  lt_model one;
  pick(m, d, 1, &i, &one);
  int64_t shape[LT_MAX_DIMS];
  int k = 0;
  for (int j = 0; j < m->ndim; j++)
    if (j != d) shape[k++] = m->shape[j];
  lt_status s = relist(&one, k, shape, out);
  lt_model_free(&one);
  return s;
}

lt_status lt_model_narrow(const lt_model *m, int dim, int64_t start, int64_t length, lt_model *out) {
  int d;
  if (m->ndim == 0 || !wrap(dim, m->ndim, &d)) return fail(LT_ERR_ARG, out);
  int64_t n = m->shape[d];
  if (start < -n || start > n) return fail(LT_ERR_ARG, out);
  if (start < 0) start += n;
  if (length < 0 || length > n - start) return fail(LT_ERR_ARG, out);
  int64_t *picks = xmalloc(sizeof *picks * (size_t)length);
  for (int64_t i = 0; i < length; i++) picks[i] = start + i;
  lt_status s = pick(m, d, length, picks, out);
  free(picks);
  return s;
}

/* Output dim a is input dim perm[a]. */
typedef struct perm_ctx {
  int ndim;
  const int *perm;
} perm_ctx;

static void perm_map(const void *ctx, const int64_t *oi, int64_t *ii) {
  const perm_ctx *c = ctx;
  for (int a = 0; a < c->ndim; a++) ii[c->perm[a]] = oi[a];
}

static lt_status reorder(const lt_model *m, const int *perm, lt_model *out) {
  int64_t shape[LT_MAX_DIMS];
  for (int a = 0; a < m->ndim; a++) shape[a] = m->shape[perm[a]];
  perm_ctx c = {m->ndim, perm};
  return gather(m, m->ndim, shape, perm_map, &c, out);
}

lt_status lt_model_transpose(const lt_model *m, int dim0, int dim1, lt_model *out) {
  int a, b, perm[LT_MAX_DIMS];
  if (!wrap(dim0, m->ndim, &a) || !wrap(dim1, m->ndim, &b)) return fail(LT_ERR_ARG, out);
  for (int i = 0; i < m->ndim; i++) perm[i] = i == a ? b : i == b ? a : i;
  return reorder(m, perm, out);
}

lt_status lt_model_permute(const lt_model *m, const int *perm, lt_model *out) {
  int p[LT_MAX_DIMS];
  bool seen[LT_MAX_DIMS] = {false};
  for (int i = 0; i < m->ndim; i++) {
    if (!wrap(perm[i], m->ndim, &p[i]) || seen[p[i]]) return fail(LT_ERR_ARG, out);
    seen[p[i]] = true;
  }
  return reorder(m, p, out);
}

lt_status lt_model_movedim(const lt_model *m, int src, int dst, lt_model *out) {
  int s, d, rest[LT_MAX_DIMS], perm[LT_MAX_DIMS];
  if (!wrap(src, m->ndim, &s) || !wrap(dst, m->ndim, &d)) return fail(LT_ERR_ARG, out);
  /* The other dims in order, with s inserted at position d. */
  int n = 0;
  for (int i = 0; i < m->ndim; i++)
    if (i != s) rest[n++] = i;
  for (int i = 0, k = 0; i < m->ndim; i++) perm[i] = i == d ? s : rest[k++];
  return reorder(m, perm, out);
}

/* Input dim d is output dim d + lead; a size-1 input dim repeats its one
 * element. */
typedef struct expand_ctx {
  int lead;
  const lt_model *in;
} expand_ctx;

static void expand_map(const void *ctx, const int64_t *oi, int64_t *ii) {
  const expand_ctx *c = ctx;
  for (int d = 0; d < c->in->ndim; d++) ii[d] = c->in->shape[d] == 1 ? 0 : oi[d + c->lead];
}

lt_status lt_model_expand(const lt_model *m, int ndim, const int64_t *shape, lt_model *out) {
  if (ndim < m->ndim) return fail(LT_ERR_SHAPE, out);
  if (ndim > LT_MAX_DIMS) return fail(LT_ERR_ARG, out);
  int lead = ndim - m->ndim;
  int64_t target[LT_MAX_DIMS];
  for (int i = 0; i < ndim; i++) {
    int64_t want = shape[i];
    if (want < -1 || (want == -1 && i < lead)) return fail(LT_ERR_ARG, out);
    if (i < lead) {
      target[i] = want;
      continue;
    }
    int64_t have = m->shape[i - lead];
    if (want == -1) want = have;
    if (want != have && have != 1) return fail(LT_ERR_SHAPE, out);
    target[i] = want;
  }
  expand_ctx c = {lead, m};
  return gather(m, ndim, target, expand_map, &c, out);
}

lt_status lt_model_squeeze(const lt_model *m, int dim, lt_model *out) {
  int d;
  if (!wrap(dim, m->ndim, &d)) return fail(LT_ERR_ARG, out);
  if (m->ndim == 0 || m->shape[d] != 1) return relist(m, m->ndim, m->shape, out);
  int64_t shape[LT_MAX_DIMS];
  int k = 0;
  for (int i = 0; i < m->ndim; i++)
    if (i != d) shape[k++] = m->shape[i];
  return relist(m, k, shape, out);
}

lt_status lt_model_squeeze_all(const lt_model *m, lt_model *out) {
  int64_t shape[LT_MAX_DIMS];
  int k = 0;
  for (int i = 0; i < m->ndim; i++)
    if (m->shape[i] != 1) shape[k++] = m->shape[i];
  return relist(m, k, shape, out);
}

lt_status lt_model_unsqueeze(const lt_model *m, int dim, lt_model *out) {
  int n = m->ndim + 1;
  if (n > LT_MAX_DIMS || dim < -n || dim >= n) return fail(LT_ERR_ARG, out);
  int d = dim < 0 ? dim + n : dim;
  int64_t shape[LT_MAX_DIMS];
  for (int i = 0, j = 0; i < n; i++) shape[i] = i == d ? 1 : m->shape[j++];
  return relist(m, n, shape, out);
}

/* Output (rest..., k) is input (rest... with k + skip1 at d1 and k + skip2
 * at d2). */
typedef struct diag_ctx {
  int ndim, d1, d2;
  int64_t skip1, skip2;
} diag_ctx;

static void diag_map(const void *ctx, const int64_t *oi, int64_t *ii) {
  const diag_ctx *c = ctx;
  int64_t k = oi[c->ndim - 2];
  for (int d = 0, j = 0; d < c->ndim; d++) {
    if (d == c->d1) ii[d] = k + c->skip1;
    else if (d == c->d2) ii[d] = k + c->skip2;
    else ii[d] = oi[j++];
  }
}

lt_status lt_model_diagonal(const lt_model *m, int64_t offset, int dim1, int dim2, lt_model *out) {
  int a, b;
  if (m->ndim < 2 || !wrap(dim1, m->ndim, &a) || !wrap(dim2, m->ndim, &b) || a == b)
    return fail(LT_ERR_ARG, out);
  /* offset > 0 starts the diagonal `offset` columns (dim2) to the right,
   * offset < 0 that many rows (dim1) down. */
  int64_t n1 = m->shape[a], n2 = m->shape[b], rows = n1, cols = n2, skip1 = 0, skip2 = 0;
  if (offset > 0) {
    cols = offset >= n2 ? 0 : n2 - offset;
    skip2 = cols > 0 ? offset : 0;
  } else if (offset < 0) {
    rows = offset <= -n1 ? 0 : n1 + offset;
    skip1 = rows > 0 ? -offset : 0;
  }
  int64_t shape[LT_MAX_DIMS];
  int k = 0;
  for (int i = 0; i < m->ndim; i++)
    if (i != a && i != b) shape[k++] = m->shape[i];
  shape[k++] = rows < cols ? rows : cols;
  diag_ctx c = {m->ndim, a, b, skip1, skip2};
  return gather(m, k, shape, diag_map, &c, out);
}

bool lt_model_strides(const lt_model *m, int64_t *offset, int64_t *strides) {
  *offset = 0;
  for (int d = 0; d < m->ndim; d++) strides[d] = 0;
  if (m->numel == 0) return true;
  /* The candidates are forced: the step from element 0 to its neighbour
   * along each dim. */
  *offset = m->at[0];
  int64_t step = 1;
  for (int d = m->ndim - 1; d >= 0; d--) {
    if (m->shape[d] > 1) strides[d] = m->at[step] - m->at[0];
    step *= m->shape[d];
  }
  int64_t idx[LT_MAX_DIMS];
  for (int64_t k = 0; k < m->numel; k++) {
    unravel(m->ndim, m->shape, k, idx);
    int64_t addr = *offset;
    for (int d = 0; d < m->ndim; d++) addr += idx[d] * strides[d];
    if (addr != m->at[k]) return false;
  }
  return true;
}

bool lt_model_is_contiguous(const lt_model *m) {
  for (int64_t k = 1; k < m->numel; k++)
    if (m->at[k] != m->at[0] + k) return false;
  return true;
}
