/* The CUDA matmul through cuBLAS. Row-major c = a b is column-major
 * c^T = b^T a^T, so every call passes b first; an operand stored
 * transposed becomes cuBLAS's op T, and its leading dimension goes as it
 * is. The innermost batch dim is one strided-batched call (stride 0 where
 * broadcast); outer batch dims loop.
 *
 * F32 and F64 run as themselves (F32 in full precision: TF32 only when
 * LT_CUDA_TF32=1 is set), F16 and BF16 pairs with F32 accumulation into
 * their own dtype, and FP8 pairs through cuBLASLt (devices of compute
 * capability 8.9 and up, a stored as is and b stored transposed, as
 * cuBLASLt's FP8 kernels require) into an F32 block rounded once into c.
 * Every other combination converts the operands to the compute type (F32,
 * or F64 when c is F64) first, exactly as the CPU does, and rounds an F32
 * result into c with the reference conversion. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "copy_plan.h"
#include "cublas_loader.h"
#include "cuda_backend.h"
#include "dtype.h"
#include "error.h"
#include "layout.h"

#define MAX_DEVICES 16
#define LT_WORKSPACE ((size_t)32 << 20)

/* The loaded libraries, and one cuBLAS and one cuBLASLt handle per
 * device, made on first use; every call that uses them holds `lock` (a
 * handle must not serve two threads at once). */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static const lt__cublas_api *cb;
static cublasHandle_t blas[MAX_DEVICES];
static cublasLtHandle_t blas_lt[MAX_DEVICES];

static lt_status blas_fail(cublasStatus_t st, const char *what) {
  return lt__fail(LT_ERR_DEVICE, "matmul: %s failed: %s", what, cb->status_name(st));
}

/* Called with lock held and device index current. */
static lt_status handles_for(int index) {
  if (!cb && !(cb = lt__cublas())) return LT_ERR_DEVICE;
  if (index < 0 || index >= MAX_DEVICES)
    return lt__fail(LT_ERR_DEVICE, "matmul: cuda:%d is beyond the %d devices this build serves", index, MAX_DEVICES);
  if (!blas[index]) {
    cublasStatus_t st = cb->create(&blas[index]);
    if (st != CUBLAS_STATUS_SUCCESS) {
      blas[index] = NULL;
      return blas_fail(st, "cublasCreate");
    }
    /* Accumulate in full F32: no reduced-precision split-K reductions. */
    cb->set_math_mode(blas[index], (cublasMath_t)(CUBLAS_DEFAULT_MATH | CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION));
  }
  if (!blas_lt[index]) {
    cublasStatus_t st = cb->lt_create(&blas_lt[index]);
    if (st != CUBLAS_STATUS_SUCCESS) {
      blas_lt[index] = NULL;
      return blas_fail(st, "cublasLtCreate");
    }
  }
  return LT_OK;
}

static bool tf32_allowed(void) {
  const char *v = getenv("LT_CUDA_TF32");
  return v && strcmp(v, "1") == 0;
}

static cudaDataType cuda_type(lt_dtype dt) {
  switch (dt) {
  case LT_F64: return CUDA_R_64F;
  case LT_F16: return CUDA_R_16F;
  case LT_BF16: return CUDA_R_16BF;
  case LT_F8_E4M3: return CUDA_R_8F_E4M3;
  case LT_F8_E5M2: return CUDA_R_8F_E5M2;
  default: return CUDA_R_32F;
  }
}

/* ---- conversions through the strided copy ---- */

/* dst (row-major over shape, dtype dt) = src (strides src_st, dtype st). */
static lt_status convert(int ndim, const int64_t *shape, char *dst, lt_dtype dt, const char *src,
                         const int64_t *src_st, lt_dtype st) {
  int64_t dst_st[LT_MAX_DIMS + 2];
  lt__contiguous_strides(ndim, shape, dst_st);
  lt__copy_plan plan;
  lt__plan_copy(ndim, shape, dst_st, src_st, &plan);
  if (plan.kind == LT__PLAN_EMPTY) return LT_OK;
  lt__copy_args a = {.kind = plan.kind, .transpose_dim = plan.transpose_dim, .ndim = plan.ndim,
                     .dst = dst, .src = src, .dst_dtype = dt, .src_dtype = st, .mode = LT_CAST_DEFAULT};
  memcpy(a.shape, plan.shape, sizeof a.shape);
  memcpy(a.dst_strides, plan.dst_strides, sizeof a.dst_strides);
  memcpy(a.src_strides, plan.src_strides, sizeof a.src_strides);
  return lt__cuda_copy(&a);
}

/* Scratch the call owns, returned to the cache at the end. */
typedef struct scratch {
  void *p[4];
  size_t bytes[4];
  int n;
  int index;
} scratch;

static void *take(scratch *s, size_t bytes) {
  void *p = lt__cuda_scratch(s->index, bytes ? bytes : 1, "matmul");
  if (p) {
    s->p[s->n] = p;
    s->bytes[s->n++] = bytes ? bytes : 1;
  }
  return p;
}

static void give_back(scratch *s) {
  for (int i = 0; i < s->n; i++) lt__cuda_cache_free(s->index, s->p[i], s->bytes[i]);
  s->n = 0;
}

/* x (logically rows x cols per batch) converted into scratch as dtype to,
 * same orientation, dense (ld = stored row length); broadcast batch dims
 * stay broadcast. */
static lt_status convert_operand(const lt__matmul_args *m, const lt__matmul_operand *x, int64_t rows, int64_t cols,
                                 lt_dtype to, scratch *s, lt__matmul_operand *out) {
  int bn = m->batch_ndim;
  int64_t shape[LT_MAX_DIMS + 2], src_st[LT_MAX_DIMS + 2], dst_st[LT_MAX_DIMS + 2];
  for (int d = 0; d < bn; d++) {
    shape[d] = x->batch_strides[d] ? m->batch_shape[d] : 1;
    src_st[d] = x->batch_strides[d];
  }
  shape[bn] = x->trans ? cols : rows;
  shape[bn + 1] = x->trans ? rows : cols;
  src_st[bn] = x->ld;
  src_st[bn + 1] = 1;
  int64_t numel = 1;
  for (int d = 0; d < bn + 2; d++) numel *= shape[d];
  char *p = take(s, (size_t)numel * lt__dtype_size(to));
  if (!p) return LT_ERR_NOMEM;
  lt_status st = convert(bn + 2, shape, p, to, x->ptr, src_st, x->dtype);
  if (st != LT_OK) return st;
  lt__contiguous_strides(bn + 2, shape, dst_st);
  *out = (lt__matmul_operand){.ptr = p, .dtype = to, .trans = x->trans, .ld = shape[bn + 1]};
  for (int d = 0; d < bn; d++) out->batch_strides[d] = x->batch_strides[d] ? dst_st[d] : 0;
  return LT_OK;
}

/* ---- cuBLAS ---- */

/* Every product of the batch: c (dtype ct, row-major blocks of m x n) =
 * a b, computed in `compute`. Called with lock held. */
static lt_status gemm_all(int index, const lt__matmul_args *m, const lt__matmul_operand *a,
                          const lt__matmul_operand *b, char *c, lt_dtype ct, lt_dtype compute) {
  cublasComputeType_t ctype = compute == LT_F64 ? CUBLAS_COMPUTE_64F
                              : tf32_allowed() && a->dtype == LT_F32 ? CUBLAS_COMPUTE_32F_FAST_TF32
                                                                     : CUBLAS_COMPUTE_32F;
  const float one_f = 1.0f, zero_f = 0.0f;
  const double one_d = 1.0, zero_d = 0.0;
  const void *alpha = compute == LT_F64 ? (const void *)&one_d : (const void *)&one_f;
  const void *beta = compute == LT_F64 ? (const void *)&zero_d : (const void *)&zero_f;
  int bn = m->batch_ndim;
  int64_t inner = bn > 0 ? m->batch_shape[bn - 1] : 1;
  int64_t as = bn > 0 ? a->batch_strides[bn - 1] : 0, bs = bn > 0 ? b->batch_strides[bn - 1] : 0;
  int64_t outer = 1, idx[LT_MAX_DIMS] = {0}, ao = 0, bo = 0;
  for (int d = 0; d + 1 < bn; d++) outer *= m->batch_shape[d];
  size_t aes = lt__dtype_size(a->dtype), bes = lt__dtype_size(b->dtype), ces = lt__dtype_size(ct);
  cublasOperation_t opb = b->trans ? CUBLAS_OP_T : CUBLAS_OP_N, opa = a->trans ? CUBLAS_OP_T : CUBLAS_OP_N;
  for (int64_t t = 0; t < outer; t++) {
    const char *pb = b->ptr + bo * (int64_t)bes, *pa = a->ptr + ao * (int64_t)aes;
    char *pc = c + t * inner * m->m * m->n * (int64_t)ces;
    /* A single product goes to plain GemmEx, the call users compare with. */
    cublasStatus_t st =
        inner == 1 ? cb->gemm(blas[index], opb, opa, m->n, m->m, m->k, alpha, pb, cuda_type(b->dtype), b->ld, pa,
                                     cuda_type(a->dtype), a->ld, beta, pc, cuda_type(ct), m->n, ctype,
                                     CUBLAS_GEMM_DEFAULT)
                   : cb->gemm_strided_batched(blas[index], opb, opa, m->n, m->m, m->k, alpha, pb,
                                                   cuda_type(b->dtype), b->ld, bs, pa, cuda_type(a->dtype), a->ld, as,
                                                   beta, pc, cuda_type(ct), m->n, m->m * m->n, inner, ctype,
                                                   CUBLAS_GEMM_DEFAULT);
    if (st != CUBLAS_STATUS_SUCCESS) return blas_fail(st, "cuBLAS GEMM");
    for (int d = bn - 2; d >= 0; d--) { /* odometer over the outer batch dims */
      ao += a->batch_strides[d];
      bo += b->batch_strides[d];
      if (++idx[d] < m->batch_shape[d]) break;
      ao -= a->batch_strides[d] * m->batch_shape[d];
      bo -= b->batch_strides[d] * m->batch_shape[d];
      idx[d] = 0;
    }
  }
  return LT_OK;
}

/* ---- FP8 through cuBLASLt ---- */

static uint32_t alignment_of(const void *p) {
  uintptr_t v = (uintptr_t)p;
  uintptr_t low = v & (~v + 1);
  return v == 0 || low >= 256 ? 256 : (uint32_t)low;
}

typedef struct lt_call {
  cublasLtMatmulDesc_t op;
  cublasLtMatrixLayout_t layout[3]; /* b (cuBLAS's A), a (its B), d */
  cublasLtMatmulPreference_t pref;
} lt_call;

static void lt_call_free(lt_call *c) {
  if (c->pref) cb->pref_destroy(c->pref);
  for (int i = 0; i < 3; i++)
    if (c->layout[i]) cb->layout_destroy(c->layout[i]);
  if (c->op) cb->desc_destroy(c->op);
}

/* Builds the descriptors of d (F32, row-major m x n blocks) = a b and asks
 * for an algorithm; false when cuBLASLt has none for this case. */
static bool lt_plan(cublasLtHandle_t h, const lt__matmul_args *m, const float *d, lt_call *c,
                    cublasLtMatmulHeuristicResult_t *algo) {
  memset(c, 0, sizeof *c);
  int64_t count = m->batch_ndim == 1 ? m->batch_shape[0] : 1;
  int64_t strides[3] = {m->batch_ndim == 1 ? m->b.batch_strides[0] : 0,
                        m->batch_ndim == 1 ? m->a.batch_strides[0] : 0, m->m * m->n};
  cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
  bool ok = cb->desc_create(&c->op, CUBLAS_COMPUTE_32F, CUDA_R_32F) == CUBLAS_STATUS_SUCCESS &&
            cb->desc_set(c->op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta) == CUBLAS_STATUS_SUCCESS &&
            cb->desc_set(c->op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb) == CUBLAS_STATUS_SUCCESS &&
            cb->layout_create(&c->layout[0], cuda_type(m->b.dtype), (uint64_t)m->k, (uint64_t)m->n, m->b.ld) ==
                CUBLAS_STATUS_SUCCESS &&
            cb->layout_create(&c->layout[1], cuda_type(m->a.dtype), (uint64_t)m->k, (uint64_t)m->m, m->a.ld) ==
                CUBLAS_STATUS_SUCCESS &&
            cb->layout_create(&c->layout[2], CUDA_R_32F, (uint64_t)m->n, (uint64_t)m->m, m->n) ==
                CUBLAS_STATUS_SUCCESS &&
            cb->pref_create(&c->pref) == CUBLAS_STATUS_SUCCESS;
  for (int i = 0; i < 3 && ok && count > 1; i++) {
    int32_t n32 = (int32_t)count;
    ok = count <= INT32_MAX &&
         cb->layout_set(c->layout[i], CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &n32, sizeof n32) ==
             CUBLAS_STATUS_SUCCESS &&
         cb->layout_set(c->layout[i], CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &strides[i],
                                          sizeof strides[i]) == CUBLAS_STATUS_SUCCESS;
  }
  size_t ws = LT_WORKSPACE;
  uint32_t align[4] = {alignment_of(m->b.ptr), alignment_of(m->a.ptr), alignment_of(d), alignment_of(d)};
  cublasLtMatmulPreferenceAttributes_t which[4] = {
      CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
      CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES};
  ok = ok && cb->pref_set(c->pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws) ==
                 CUBLAS_STATUS_SUCCESS;
  for (int i = 0; i < 4 && ok; i++)
    ok = cb->pref_set(c->pref, which[i], &align[i], sizeof align[i]) == CUBLAS_STATUS_SUCCESS;
  int found = 0;
  ok = ok && cb->heuristic(h, c->op, c->layout[0], c->layout[1], c->layout[2], c->layout[2],
                                            c->pref, 1, algo, &found) == CUBLAS_STATUS_SUCCESS;
  return ok && found > 0 && algo->state == CUBLAS_STATUS_SUCCESS;
}

/* d = a b for FP8 a, b. *done false (and LT_OK) when cuBLASLt cannot do
 * this case, so that the caller converts instead. Called with lock held. */
static lt_status fp8_gemm(int index, const lt__matmul_args *m, float *d, scratch *s, bool *done) {
  *done = false;
  bool fp8 = (m->a.dtype == LT_F8_E4M3 || m->a.dtype == LT_F8_E5M2) &&
             (m->b.dtype == LT_F8_E4M3 || m->b.dtype == LT_F8_E5M2);
  if (!fp8 || lt__cuda_capability(index) < 89 || m->a.trans || !m->b.trans || m->batch_ndim > 1) return LT_OK;
  lt_call c;
  cublasLtMatmulHeuristicResult_t algo;
  memset(&algo, 0, sizeof algo);
  if (!lt_plan(blas_lt[index], m, d, &c, &algo)) {
    lt_call_free(&c);
    return LT_OK;
  }
  void *ws = take(s, LT_WORKSPACE);
  if (!ws) {
    lt_call_free(&c);
    return LT_ERR_NOMEM;
  }
  const float one = 1.0f, zero = 0.0f;
  cublasStatus_t st = cb->matmul(blas_lt[index], c.op, &one, m->b.ptr, c.layout[0], m->a.ptr, c.layout[1], &zero, d,
                                     c.layout[2], d, c.layout[2], &algo.algo, ws, LT_WORKSPACE, 0);
  lt_call_free(&c);
  /* A refusal (an alignment or size rule the heuristic did not check)
   * leaves the product to the conversion path. */
  *done = st == CUBLAS_STATUS_SUCCESS;
  if (!*done) (void)cudaGetLastError();
  return LT_OK;
}

/* ---- entry ---- */

static int64_t batch_count(const lt__matmul_args *m) {
  int64_t n = 1;
  for (int d = 0; d < m->batch_ndim; d++) n *= m->batch_shape[d];
  return n;
}

/* Rounds the F32 products in acc (count blocks of m x n) once into c. */
static lt_status store_c(const lt__matmul_args *m, const float *acc) {
  int64_t n = batch_count(m) * m->m * m->n, one = 1;
  return convert(1, &n, m->c, m->c_dtype, (const char *)acc, &one, LT_F32);
}

static lt_status matmul_locked(int index, const lt__matmul_args *m, scratch *s) {
  lt_status st = handles_for(index);
  if (st != LT_OK) return st;
  lt_dtype compute = m->c_dtype == LT_F64 ? LT_F64 : LT_F32;
  lt_dtype ad = m->a.dtype, bd = m->b.dtype;
  bool half_pair = ad == bd && (ad == LT_F16 || ad == LT_BF16) && m->c_dtype == ad;
  bool native = ad == bd && ad == compute && m->c_dtype == compute;
  if (native || half_pair) return gemm_all(index, m, &m->a, &m->b, m->c, m->c_dtype, compute);
  size_t c_bytes = (size_t)(batch_count(m) * m->m * m->n) * lt__dtype_size(compute);
  char *acc = m->c_dtype == compute ? m->c : take(s, c_bytes);
  if (!acc) return LT_ERR_NOMEM;
  bool done = false;
  if (compute == LT_F32) {
    st = fp8_gemm(index, m, (float *)acc, s, &done);
    if (st != LT_OK) return st;
  }
  if (!done) {
    lt__matmul_operand a = m->a, b = m->b;
    if (ad != compute && (st = convert_operand(m, &m->a, m->m, m->k, compute, s, &a)) != LT_OK) return st;
    if (bd != compute && (st = convert_operand(m, &m->b, m->k, m->n, compute, s, &b)) != LT_OK) return st;
    st = gemm_all(index, m, &a, &b, acc, compute, compute);
    if (st != LT_OK) return st;
  }
  return acc == m->c ? LT_OK : store_c(m, (const float *)acc);
}

lt_status lt__cuda_matmul(const lt__matmul_args *m) {
  int prev;
  lt_status st = lt__cuda_enter_ptr(m->c, &prev, "matmul");
  if (st != LT_OK) return st;
  scratch s = {.n = 0};
  cudaGetDevice(&s.index);
  pthread_mutex_lock(&lock);
  st = matmul_locked(s.index, m, &s);
  pthread_mutex_unlock(&lock);
  if (st == LT_OK) {
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) st = lt__cuda_fail(e, "matmul", "after cuBLAS");
  }
  give_back(&s); /* later work on the stream runs after the products that read it */
  lt__cuda_leave(prev);
  return st;
}
