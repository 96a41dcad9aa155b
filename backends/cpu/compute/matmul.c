/* The CPU matmul kernel: one cblas_sgemm/dgemm per product, on the
 * operands' own memory when they are in the type the product is computed
 * in, else on tiles converted to it (F16, BF16, FP8 to F32; anything to
 * F64), accumulating over k in F32/F64 and rounding once into c. BLAS
 * calls run on the calling thread: OpenBLAS threads them itself, and the
 * library's pool would only oversubscribe the cores. */
#include <cblas.h>

#include "alloc.h"
#include "cast.h"
#include "cpu_kernels.h"
#include "dtype.h"
#include "error.h"

/* Tile edges when operands or c need converting: three 512 x 512 tiles
 * (1 MiB each in F32) stay in L2/L3, and each converted element then
 * serves 512 multiply-adds, so the conversion costs a fraction of a
 * percent of the product. */
#define TILE 512
/* Without conversion the only split is BLAS's 32-bit int limit. */
#define BLAS_MAX_DIM INT32_MAX

/* Converts n contiguous elements into the compute type. The scalar cast
 * table has a kernel for every narrow format both ways, so lt__cast_best
 * always finds one. */
typedef struct converter {
  lt_dtype src, compute;
  lt__cast_fn to_f32; /* src -> F32; NULL when src is F32 or F64 */
} converter;

static converter converter_for(lt_dtype src, lt_dtype compute) {
  converter c = {src, compute, NULL};
  if (src != LT_F32 && src != LT_F64) c.to_f32 = lt__cast_best(LT_F32, src, LT_CAST_DEFAULT);
  return c;
}

/* Only called for src != compute: narrow to F32, or F32/narrow to F64. */
static void convert_run(const converter *c, void *dst, const char *src, int64_t n) {
  if (c->compute == LT_F32) {
    c->to_f32(dst, src, n);
    return;
  }
  double *d = dst;
  if (c->src == LT_F32) {
    for (int64_t i = 0; i < n; i++) d[i] = ((const float *)src)[i];
    return;
  }
  /* Narrow to F64 through F32, which holds every narrow value exactly. */
  float buf[256];
  size_t ss = lt__dtype_size(c->src);
  for (int64_t i = 0; i < n; i += 256) {
    int64_t len = n - i < 256 ? n - i : 256;
    c->to_f32(buf, src + i * (int64_t)ss, len);
    for (int64_t j = 0; j < len; j++) d[i + j] = buf[j];
  }
}

/* A block of an operand as BLAS takes it. */
typedef struct block {
  const void *ptr;
  int64_t ld;
  bool trans;
} block;

/* Rows r0.. (nr of them) and columns c0.. (nc) of operand x at base,
 * either in place (x already in the compute type) or converted into
 * scratch, keeping x's orientation so that the conversion reads runs. */
static block operand_block(const lt__matmul_operand *x, const char *base, int64_t r0, int64_t c0, int64_t nr,
                           int64_t nc, const converter *cv, void *scratch) {
  int64_t start = x->trans ? c0 * x->ld + r0 : r0 * x->ld + c0;
  int64_t runs = x->trans ? nc : nr, len = x->trans ? nr : nc;
  size_t es = lt__dtype_size(x->dtype);
  const char *p = base + start * (int64_t)es;
  if (x->dtype == cv->compute) return (block){p, x->ld, x->trans};
  size_t cs = lt__dtype_size(cv->compute);
  for (int64_t r = 0; r < runs; r++) convert_run(cv, (char *)scratch + r * len * (int64_t)cs, p + r * x->ld * (int64_t)es, len);
  return (block){scratch, len, x->trans};
}

/* c (ldc) = beta c + a b for an m x n x k block, in the compute type. */
static void gemm(lt_dtype compute, block a, block b, int64_t m, int64_t n, int64_t k, bool accumulate, void *c,
                 int64_t ldc) {
  enum CBLAS_TRANSPOSE ta = a.trans ? CblasTrans : CblasNoTrans, tb = b.trans ? CblasTrans : CblasNoTrans;
  if (compute == LT_F64)
    cblas_dgemm(CblasRowMajor, ta, tb, (int)m, (int)n, (int)k, 1.0, a.ptr, (int)a.ld, b.ptr, (int)b.ld,
                accumulate ? 1.0 : 0.0, c, (int)ldc);
  else
    cblas_sgemm(CblasRowMajor, ta, tb, (int)m, (int)n, (int)k, 1.0f, a.ptr, (int)a.ld, b.ptr, (int)b.ld,
                accumulate ? 1.0f : 0.0f, c, (int)ldc);
}

/* Everything one call needs besides the operands' pointers. */
typedef struct plan {
  const lt__matmul_args *x;
  lt_dtype compute;
  converter ca, cb;
  lt__cast_fn encode_c; /* F32 -> c_dtype, for narrow outputs */
  bool convert_c;
  int64_t tm, tn, tk;   /* block edges */
  void *sa, *sb, *sc;   /* scratch tiles (NULL where not needed) */
} plan;

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* Rounds an F32 block of c (ld tn) once into c_dtype. */
static void store_c(const plan *p, const float *acc, char *c, int64_t m, int64_t n) {
  size_t es = lt__dtype_size(p->x->c_dtype);
  for (int64_t i = 0; i < m; i++) p->encode_c(c + i * p->x->n * (int64_t)es, acc + i * p->tn, n);
}

/* One product: c (row-major, ld n) = a b. k is the innermost block loop,
 * so a converted c block is complete before it is rounded. */
static void product(const plan *p, const char *a, const char *b, char *c) {
  const lt__matmul_args *x = p->x;
  size_t ces = lt__dtype_size(x->c_dtype);
  for (int64_t i0 = 0; i0 < x->m; i0 += p->tm) {
    int64_t mb = min64(p->tm, x->m - i0);
    for (int64_t j0 = 0; j0 < x->n; j0 += p->tn) {
      int64_t nb = min64(p->tn, x->n - j0);
      char *cblk = c + (i0 * x->n + j0) * (int64_t)ces;
      for (int64_t k0 = 0; k0 < x->k; k0 += p->tk) {
        int64_t kb = min64(p->tk, x->k - k0);
        block ab = operand_block(&x->a, a, i0, k0, mb, kb, &p->ca, p->sa);
        block bb = operand_block(&x->b, b, k0, j0, kb, nb, &p->cb, p->sb);
        if (p->convert_c) gemm(p->compute, ab, bb, mb, nb, kb, k0 > 0, p->sc, p->tn);
        else gemm(p->compute, ab, bb, mb, nb, kb, k0 > 0, cblk, x->n);
      }
      if (p->convert_c) store_c(p, p->sc, cblk, mb, nb);
    }
  }
}

static void *scratch(bool needed, int64_t elems, lt_dtype dt, bool *ok) {
  if (!needed) return NULL;
  void *s = lt__alloc((size_t)elems * lt__dtype_size(dt), LT__STORAGE_ALIGN);
  if (!s) *ok = false;
  return s;
}

static void free_scratch(plan *p) {
  size_t cs = lt__dtype_size(p->compute);
  lt__free(p->sa, (size_t)(p->tm * p->tk) * cs, LT__STORAGE_ALIGN);
  lt__free(p->sb, (size_t)(p->tk * p->tn) * cs, LT__STORAGE_ALIGN);
  lt__free(p->sc, (size_t)(p->tm * p->tn) * cs, LT__STORAGE_ALIGN);
}

/* Chooses block edges and allocates the scratch tiles; false when out of
 * memory (nothing held then). */
static bool plan_make(plan *p, const lt__matmul_args *x) {
  *p = (plan){.x = x, .compute = x->c_dtype == LT_F64 ? LT_F64 : LT_F32};
  p->ca = converter_for(x->a.dtype, p->compute);
  p->cb = converter_for(x->b.dtype, p->compute);
  p->convert_c = x->c_dtype != p->compute;
  if (p->convert_c) p->encode_c = lt__cast_best(x->c_dtype, LT_F32, LT_CAST_DEFAULT);
  bool direct = x->a.dtype == p->compute && x->b.dtype == p->compute && !p->convert_c;
  int64_t edge = direct ? BLAS_MAX_DIM : TILE;
  p->tm = min64(edge, x->m);
  p->tn = min64(edge, x->n);
  p->tk = min64(edge, x->k);
  bool ok = true;
  p->sa = scratch(x->a.dtype != p->compute, p->tm * p->tk, p->compute, &ok);
  p->sb = scratch(x->b.dtype != p->compute, p->tk * p->tn, p->compute, &ok);
  p->sc = scratch(p->convert_c, p->tm * p->tn, p->compute, &ok);
  if (!ok) free_scratch(p);
  return ok;
}

lt_status lt__cpu_matmul(const lt__matmul_args *x) {
  plan p;
  if (!plan_make(&p, x))
    return lt__fail(LT_ERR_NOMEM, "matmul: out of memory for the %s conversion tiles", lt_dtype_name(p.compute));
  int64_t count = 1, idx[LT_MAX_DIMS] = {0};
  for (int d = 0; d < x->batch_ndim; d++) count *= x->batch_shape[d];
  int64_t as = (int64_t)lt__dtype_size(x->a.dtype), bs = (int64_t)lt__dtype_size(x->b.dtype);
  int64_t c_step = x->m * x->n * (int64_t)lt__dtype_size(x->c_dtype);
  int64_t ao = 0, bo = 0; /* element offsets of the current batch */
  for (int64_t t = 0; t < count; t++) {
    product(&p, x->a.ptr + ao * as, x->b.ptr + bo * bs, x->c + t * c_step);
    for (int d = x->batch_ndim - 1; d >= 0; d--) { /* odometer over the batch dims */
      ao += x->a.batch_strides[d];
      bo += x->b.batch_strides[d];
      if (++idx[d] < x->batch_shape[d]) break;
      ao -= x->a.batch_strides[d] * x->batch_shape[d];
      bo -= x->b.batch_strides[d] * x->batch_shape[d];
      idx[d] = 0;
    }
  }
  free_scratch(&p);
  return LT_OK;
}
