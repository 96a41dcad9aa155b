/* libtensor: compute. Elementwise ops with NumPy broadcasting, reductions,
 * softmax, matmul through BLAS, and the FLOP arithmetic behind lt_stats.
 *
 * Inputs are read through their strides as they are (transposed, sliced
 * with negative steps, expanded): compute never copies an input first,
 * except where matmul's BLAS cannot express a layout (then the copy is
 * counted and traced like an implicit one).
 *
 * Dtypes: two inputs of one dtype give that dtype. Mixed inputs promote as
 * PyTorch does: bool < u8 < i32 < i64 < floats; among floats the result is
 * the narrowest dtype that holds both exactly (F64 over F32 over F16 and
 * BF16 over the FP8s), and two that do not hold each other (F16 with BF16,
 * E4M3 with E5M2) give F32. F16, BF16 and FP8 compute in F32 and round
 * once on output; F64 in double; integers in int64, wrapping on store.
 *
 * Every function returns a new tensor (NULL on error, lt_last_error()
 * says why) or, for the _out forms, a status. An _out form writes into an
 * existing dst of exactly the broadcast shape, of any dtype (the result is
 * converted into it as lt_copy would) and any non-aliasing layout; dst may
 * be one of the inputs (in place) when it is laid out exactly like it.
 * Errors: LT_ERR_ARG (NULL, a dim out of range or repeated, a read-only
 * dst), LT_ERR_SHAPE (not broadcastable, dst of another shape),
 * LT_ERR_DTYPE (an op the dtype has no meaning for, e.g. subtracting
 * bools), LT_ERR_DEVICE (inputs on different devices), LT_ERR_OVERLAP (dst
 * aliases itself or partly aliases an input), LT_ERR_NOMEM.
 * All functions are thread-safe; large ops run on the library's thread
 * pool (lt_set_num_threads). */
#ifndef LIBTENSOR_COMPUTE_H
#define LIBTENSOR_COMPUTE_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The dtype two inputs of dtypes a and b compute and return; an invalid
 * dtype gives LT_ERR_ARG and returns a. */
LT_API lt_dtype lt_promote_types(lt_dtype a, lt_dtype b);

/* ---- Binary elementwise, broadcasting a against b ---- */
LT_API lt_tensor *lt_add(const lt_tensor *a, const lt_tensor *b);
LT_API lt_tensor *lt_sub(const lt_tensor *a, const lt_tensor *b);
LT_API lt_tensor *lt_mul(const lt_tensor *a, const lt_tensor *b);
/* True division: integer inputs give F32 (as torch.div). */
LT_API lt_tensor *lt_div(const lt_tensor *a, const lt_tensor *b);
/* NaN in either input gives NaN (as torch.maximum). */
LT_API lt_tensor *lt_maximum(const lt_tensor *a, const lt_tensor *b);
LT_API lt_tensor *lt_minimum(const lt_tensor *a, const lt_tensor *b);

LT_API lt_status lt_add_out(lt_tensor *dst, const lt_tensor *a, const lt_tensor *b);
LT_API lt_status lt_sub_out(lt_tensor *dst, const lt_tensor *a, const lt_tensor *b);
LT_API lt_status lt_mul_out(lt_tensor *dst, const lt_tensor *a, const lt_tensor *b);
LT_API lt_status lt_div_out(lt_tensor *dst, const lt_tensor *a, const lt_tensor *b);
LT_API lt_status lt_maximum_out(lt_tensor *dst, const lt_tensor *a, const lt_tensor *b);
LT_API lt_status lt_minimum_out(lt_tensor *dst, const lt_tensor *a, const lt_tensor *b);

/* t + s and t * s. The scalar is "weak", as a Python number is in
 * PyTorch: the result keeps t's dtype, except that an integer t with a
 * non-integral s gives F32. */
LT_API lt_tensor *lt_add_scalar(const lt_tensor *t, double s);
LT_API lt_tensor *lt_mul_scalar(const lt_tensor *t, double s);

/* ---- Unary elementwise ----
 * neg, abs and relu keep integer dtypes (neg of bool is LT_ERR_DTYPE); the
 * others give F32 for integer inputs. gelu is the exact (erf) form,
 * x/2 * (1 + erf(x/sqrt 2)); sigmoid and silu do not overflow for any
 * input. */
LT_API lt_tensor *lt_neg(const lt_tensor *t);
LT_API lt_tensor *lt_abs(const lt_tensor *t);
LT_API lt_tensor *lt_exp(const lt_tensor *t);
LT_API lt_tensor *lt_log(const lt_tensor *t);
LT_API lt_tensor *lt_sqrt(const lt_tensor *t);
LT_API lt_tensor *lt_rsqrt(const lt_tensor *t);
LT_API lt_tensor *lt_tanh(const lt_tensor *t);
LT_API lt_tensor *lt_sigmoid(const lt_tensor *t);
LT_API lt_tensor *lt_relu(const lt_tensor *t);
LT_API lt_tensor *lt_gelu(const lt_tensor *t);
LT_API lt_tensor *lt_silu(const lt_tensor *t);

/* The unary ops into dst (same rules as the binary _out forms). */
typedef enum lt_unary_op {
  LT_NEG, LT_ABS, LT_EXP, LT_LOG, LT_SQRT, LT_RSQRT, LT_TANH, LT_SIGMOID, LT_RELU, LT_GELU, LT_SILU
} lt_unary_op;
LT_API lt_status lt_unary_out(lt_tensor *dst, lt_unary_op op, const lt_tensor *t);

/* ---- Reductions ----
 * Over the ndims dims listed in dims (negative counts from the end; ndims
 * == 0 reduces every dim); keepdim keeps them as size 1. Floats accumulate
 * in F32 (F64 for F64) with blocked pairwise summation, so that 2^24 F32
 * ones sum to exactly 2^24, and round once into the input's dtype;
 * integers and bools sum in int64 to I64 (as torch.sum). lt_mean of an
 * integer dtype is LT_ERR_DTYPE. amax/amin propagate NaN and fail with
 * LT_ERR_SHAPE over an empty dim; the sum over an empty dim is 0 and the
 * mean NaN. */
LT_API lt_tensor *lt_sum(const lt_tensor *t, int ndims, const int *dims, bool keepdim);
LT_API lt_tensor *lt_mean(const lt_tensor *t, int ndims, const int *dims, bool keepdim);
LT_API lt_tensor *lt_amax(const lt_tensor *t, int ndims, const int *dims, bool keepdim);
LT_API lt_tensor *lt_amin(const lt_tensor *t, int ndims, const int *dims, bool keepdim);
/* Index (I64) of the largest element along dim, the first one on ties and
 * the first NaN if any (as torch.argmax); LT_ERR_SHAPE over an empty dim. */
LT_API lt_tensor *lt_argmax(const lt_tensor *t, int dim, bool keepdim);
/* exp(x - max) / sum exp(x - max) along dim, and its log, computed stably
 * in F32 (F64 for F64); float dtypes only (else LT_ERR_DTYPE). Counts 4
 * FLOPs per element (max, exp, sum, divide or log). */
LT_API lt_tensor *lt_softmax(const lt_tensor *t, int dim);
LT_API lt_tensor *lt_log_softmax(const lt_tensor *t, int dim);

/* ---- Matmul ----
 * torch.matmul semantics: 1-D operands are promoted to a matrix and the
 * added dim removed from the result; dims before the last two are batch
 * dims and broadcast. An operand whose last two dims are transposed or have
 * a leading-dimension stride goes to BLAS through its transpose flag and
 * leading dimension without a copy; only layouts BLAS cannot express
 * (neither last dim of unit stride, or stride-0 or negative strides in
 * them) are copied, counted and traced; under LT_COPY_FORBID such an
 * operand fails with LT_ERR_NOT_VIEWABLE instead. F32 and F64 go to
 * cblas_sgemm / cblas_dgemm; F16, BF16 and FP8 are converted to F32 in
 * tiles, multiplied with F32 accumulation and rounded once into the
 * promoted dtype; integer and bool operands are LT_ERR_DTYPE. Matrix rows
 * longer than BLAS's 32-bit leading dimension (2^31-1 elements) are
 * LT_ERR_SHAPE, a FLOP count beyond int64 LT_ERR_NOMEM. Counts 2*m*n*k
 * FLOPs per product in lt_stats.flops. */
LT_API lt_tensor *lt_matmul(const lt_tensor *a, const lt_tensor *b);

/* ---- FLOP arithmetic, to predict a cost before running ----
 * The FLOPs lt_matmul counts for operands of these shapes (the same shape
 * rules and errors as lt_matmul; -1 with the error set when they do not
 * multiply, LT_ERR_ARG for a NULL shape, a negative size or ndim outside
 * 0..LT_MAX_DIMS). */
LT_API int64_t lt_flops_matmul(int a_ndim, const int64_t *a_shape, int b_ndim, const int64_t *b_shape);
/* The FLOPs lt_stats counts for an elementwise call over numel output
 * elements: one per output element per call (lt_add, lt_exp and lt_gelu
 * alike), times ops_per_element for a chain of calls; -1 (LT_ERR_NOMEM)
 * on overflow. Reductions count one per input element. */
LT_API int64_t lt_flops_elementwise(int64_t numel, int ops_per_element);

#ifdef __cplusplus
}
#endif
#endif
