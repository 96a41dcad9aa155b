/* A naive, independent model of a tensor for checking the layout algebra:
 * its shape and, for every element in row-major order, which storage
 * element it is and the value it holds. Each op is written from its
 * definition (which input element lands at which output index), never
 * through strides, so the library's strides and offsets can be judged
 * against it. Nothing here calls the library. */
#ifndef LT_INDEX_MODEL_H
#define LT_INDEX_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include <libtensor.h>

typedef struct lt_model {
  int ndim;
  int64_t shape[LT_MAX_DIMS];
  int64_t numel;
  int storage; /* which storage `at` indexes: an id the caller hands out */
  int64_t *at; /* numel storage element indices, row-major */
  float *val;  /* numel values, row-major */
} lt_model;

/* Every function below that makes a model returns the status the library
 * must report for the same call (LT_OK, LT_ERR_ARG or LT_ERR_SHAPE). On
 * LT_OK *out is a new model the caller frees with lt_model_free; otherwise
 * *out is left empty (freeing it is still fine). Allocation failure
 * aborts: this is test code. */

/* A fresh row-major tensor in storage `storage` whose element i is storage
 * element i and holds the value i (what lt_test_arange_f32 makes). */
lt_status lt_model_arange(int ndim, const int64_t *shape, int storage, lt_model *out);
void lt_model_free(lt_model *m);

/* Materialising copy (lt_contiguous, lt_clone, a reshape fallback): the
 * same values, element i of fresh storage `storage` at index i. */
lt_status lt_model_copy(const lt_model *m, int storage, lt_model *out);

/* lt_view / lt_reshape as far as elements go: the same list under a new
 * shape, one entry may be -1 (PyTorch's infer_size). Whether the library
 * may answer with a view is lt_model_strides' question. */
lt_status lt_model_view(const lt_model *m, int ndim, const int64_t *shape, lt_model *out);
/* Dims start..end merged into one; a 0-dim m gives shape [1]. */
lt_status lt_model_flatten(const lt_model *m, int start, int end, lt_model *out);
lt_status lt_model_unflatten(const lt_model *m, int dim, int n, const int64_t *sizes, lt_model *out);

/* Python slice semantics (negative steps, LT_NONE, clamping). */
lt_status lt_model_slice(const lt_model *m, int dim, int64_t start, int64_t stop, int64_t step,
                         lt_model *out);
lt_status lt_model_select(const lt_model *m, int dim, int64_t index, lt_model *out);
lt_status lt_model_narrow(const lt_model *m, int dim, int64_t start, int64_t length, lt_model *out);

lt_status lt_model_transpose(const lt_model *m, int dim0, int dim1, lt_model *out);
/* perm has m->ndim entries. */
lt_status lt_model_permute(const lt_model *m, const int *perm, lt_model *out);
lt_status lt_model_movedim(const lt_model *m, int src, int dst, lt_model *out);

/* Aligned from the right; -1 keeps an existing size; new leading dims may
 * not be -1. LT_ERR_SHAPE for too few sizes or a non-1 size that differs,
 * LT_ERR_ARG for sizes below -1 and a -1 in a new dim. */
lt_status lt_model_expand(const lt_model *m, int ndim, const int64_t *shape, lt_model *out);
lt_status lt_model_squeeze(const lt_model *m, int dim, lt_model *out);
lt_status lt_model_squeeze_all(const lt_model *m, lt_model *out);
lt_status lt_model_unsqueeze(const lt_model *m, int dim, lt_model *out);
lt_status lt_model_diagonal(const lt_model *m, int64_t offset, int dim1, int dim2, lt_model *out);

/* True when some offset and strides describe m's storage indices, i.e.
 * at[k] == offset + sum(index_d * stride_d) for every element k: exactly
 * when a view (rather than a copy) can express m. Size-1 dims get stride 0
 * and a model without elements gets offset 0, strides 0. */
bool lt_model_strides(const lt_model *m, int64_t *offset, int64_t *strides);
/* PyTorch's contiguity, by its meaning: no elements, or the elements sit at
 * consecutive storage indices in row-major order. */
bool lt_model_is_contiguous(const lt_model *m);

#endif
