/* Internal: the backend table. A backend is a table of functions on raw
 * pointers and plain layout descriptors (never lt_tensor), so adding a
 * device means filling one of these. */
#ifndef LT_DISPATCH_H
#define LT_DISPATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libtensor/copy.h"
#include "libtensor/types.h"

#include "copy_plan.h"

/* One strided copy on one device, planned by the core (copy_plan.h: dims
 * in the destination's order, merged, classified): for every index tuple
 * of shape, dst[sum i*dst_strides] = convert(src[sum i*src_strides]).
 * Strides are in elements and may be negative or (for src) zero; ndim 0 is
 * one element. Pointers address element (0,...,0). */
typedef struct lt__copy_args {
  lt__copy_kind_of_loop kind;
  int transpose_dim;       /* for LT__PLAN_TRANSPOSE */
  int ndim;
  int64_t shape[LT_MAX_DIMS];
  int64_t dst_strides[LT_MAX_DIMS];
  int64_t src_strides[LT_MAX_DIMS];
  char *dst;
  const char *src;
  lt_dtype dst_dtype, src_dtype;
  lt_cast_mode mode;
} lt__copy_args;

/* One reduction: dst (row-major, dtype) holds, for every index of the
 * first n_keep dims, op over the last n_red dims of src. Strides are in
 * elements. */
typedef struct lt__reduce_args {
  int n_keep, n_red;
  int64_t shape[LT_MAX_DIMS];
  int64_t src_strides[LT_MAX_DIMS];
  const char *src;
  char *dst;
  lt_dtype dtype;
  int op;               /* an lt_reduction */
} lt__reduce_args;

/* The elementwise ops of compute.h: binary ones first, then the unary
 * ones in lt_unary_op's order. */
typedef enum lt__ew_op {
  LT__EW_ADD, LT__EW_SUB, LT__EW_MUL, LT__EW_DIV, LT__EW_MAX, LT__EW_MIN,
  LT__EW_NEG, LT__EW_ABS, LT__EW_EXP, LT__EW_LOG, LT__EW_SQRT, LT__EW_RSQRT, LT__EW_TANH,
  LT__EW_SIGMOID, LT__EW_RELU, LT__EW_GELU, LT__EW_SILU
} lt__ew_op;
#define LT__EW_FIRST_UNARY LT__EW_NEG

/* One elementwise op, planned by the core (compute_impl.h): for every
 * index tuple of shape, dst = convert(op(in0, in1)) where each input is
 * converted to `compute` (LT_F32, LT_F64 or LT_I64), the arithmetic is
 * done in it, and the value is rounded (or wrapped) into the `result`
 * dtype before it is converted to dst's. Operand 0 is dst, 1 and 2 the
 * inputs; strides in elements
 * (inputs may have 0 and negative ones). When tiled is 1 or 2, that input
 * has stride 1 along dim ndim-2 (and not along the innermost dim, along
 * which dst has stride 1): the kernel should read it in 2-D tiles. */
typedef struct lt__ew_args {
  lt__ew_op op;
  int ninputs;
  lt_dtype compute, result;
  int tiled;
  int ndim;
  int64_t shape[LT_MAX_DIMS];
  int64_t strides[3][LT_MAX_DIMS];
  char *dst;
  const char *src[2];
  lt_dtype dst_dtype, src_dtype[2];
} lt__ew_args;

/* The reductions of compute.h (lt_reduction names einops's). */
typedef enum lt__red_op { LT__RED_SUM, LT__RED_MEAN, LT__RED_AMAX, LT__RED_AMIN, LT__RED_ARGMAX } lt__red_op;

/* One reduction, planned by the core: for every index of the first n_keep
 * dims (row-major into dst, one element each), the fold of op over the
 * last n_red dims of src, done in `compute` (LT_F32, LT_F64 or LT_I64)
 * and stored as dst_dtype (LT_I64 for argmax, which has n_red == 1).
 * Strides in elements; n_red >= 1 and every reduced dim is non-empty. */
typedef struct lt__red_args {
  lt__red_op op;
  lt_dtype compute;
  int n_keep, n_red;
  int64_t shape[LT_MAX_DIMS];
  int64_t src_strides[LT_MAX_DIMS];
  const char *src;
  char *dst;
  lt_dtype src_dtype, dst_dtype;
} lt__red_args;

/* Softmax (log-softmax when log) along one dim of n elements: for every
 * index of the n_outer outer dims, the slice at src (stride src_stride)
 * goes to dst (stride dst_stride), computed in `compute` (LT_F32 or
 * LT_F64); src and dst share dtype. Strides in elements. */
typedef struct lt__softmax_args {
  bool log;
  lt_dtype dtype, compute;
  int n_outer;
  int64_t outer_shape[LT_MAX_DIMS], outer_src[LT_MAX_DIMS], outer_dst[LT_MAX_DIMS];
  int64_t n, src_stride, dst_stride;
  const char *src;
  char *dst;
} lt__softmax_args;

/* One matmul operand: per batch, a matrix stored row-major with leading
 * dimension ld (element (i,j) at i*ld + j), or, when trans, stored
 * transposed (element (i,j) at j*ld + i). ld is at least the stored row
 * length and fits LT__BLAS_MAX_LD, so BLAS takes it as it is. */
typedef struct lt__matmul_operand {
  const char *ptr;                     /* element (0,0) of the first batch */
  lt_dtype dtype;
  bool trans;
  int64_t ld;
  int64_t batch_strides[LT_MAX_DIMS];  /* elements; 0 where broadcast */
} lt__matmul_operand;

/* BLAS (OpenBLAS, cuBLAS) takes 32-bit leading dimensions: the core copies
 * an operand whose ld is larger. Larger m, n, k are the backend's to split. */
#define LT__BLAS_MAX_LD INT32_MAX

/* A batch of products c = a b, a m x k, b k x n, m, n, k >= 1: for every
 * index of batch_shape (row-major order; batch_ndim 0 is one product), c
 * is the next row-major m x n block of the contiguous output, in c_dtype.
 * a and b may have any float dtype; they are computed in F64 when c_dtype
 * is F64, else in F32, and each result element is rounded once. */
typedef struct lt__matmul_args {
  int64_t m, n, k;
  lt__matmul_operand a, b;
  char *c;
  lt_dtype c_dtype;
  int batch_ndim;
  int64_t batch_shape[LT_MAX_DIMS];
} lt__matmul_args;

typedef struct lt__backend {
  const char *name;
  /* True when device `index` answers. */
  bool (*available)(int index);
  /* nbytes > 0; NULL when out of memory. */
  void *(*alloc)(int index, size_t nbytes);
  void (*free)(int index, void *p, size_t nbytes);
  void (*fill_zero)(int index, void *p, size_t nbytes);
  /* nbytes of raw bytes from src to dst, where each side is host memory or
   * memory of one of this backend's devices (dst_dev and src_dev say which);
   * synchronous. NULL for the host backend. LT_OK, or the error set. */
  lt_status (*transfer)(void *dst, lt_device dst_dev, const void *src, lt_device src_dev, size_t nbytes);
  /* LT_OK, or a failure with the thread's error set (e.g. a NaN going to
   * an integer dtype). */
  lt_status (*copy)(const lt__copy_args *a);
  lt_status (*reduce)(const lt__reduce_args *a);
  lt_status (*elementwise)(const lt__ew_args *a);
  lt_status (*reduce_dims)(const lt__red_args *a);
  lt_status (*softmax)(const lt__softmax_args *a);
  /* LT_OK, or LT_ERR_NOMEM (error set) when scratch memory runs out. */
  lt_status (*matmul)(const lt__matmul_args *a);
} lt__backend;

/* The table built for a device kind, or NULL; sets no error. */
const lt__backend *lt__backend_table(lt_device_kind kind);
/* The backend for dev's kind, or NULL (error set) when it was not built or
 * the device does not answer; `op` names the caller in the message. */
const lt__backend *lt__backend_for(lt_device dev, const char *op);

/* Filled by each backend's own file. */
extern const lt__backend lt__cpu_backend;
#ifdef LT_HAVE_CUDA
extern const lt__backend lt__cuda_backend;
#endif

#endif
