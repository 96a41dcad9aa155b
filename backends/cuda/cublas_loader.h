/* Internal: the cuBLAS and cuBLASLt functions the matmul calls, loaded
 * from their shared libraries on the first CUDA matmul. Linking them
 * would cost every program that links libtensor (and every forked test)
 * tens of milliseconds at start and exit, GPU or not. */
#ifndef LT_CUBLAS_LOADER_H
#define LT_CUBLAS_LOADER_H

/* cublasLt.h declares one function without a prototype. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#include <cublasLt.h>
#pragma GCC diagnostic pop
#include <cublas_v2.h>

#include "cuda_backend.h"

/* Each member has the type of the function it is named for. */
typedef struct lt__cublas_api {
  __typeof__(&cublasCreate_v2) create;
  __typeof__(&cublasSetMathMode) set_math_mode;
  __typeof__(&cublasGemmEx_64) gemm;
  __typeof__(&cublasGemmStridedBatchedEx_64) gemm_strided_batched;
  __typeof__(&cublasGetStatusName) status_name;
  __typeof__(&cublasLtCreate) lt_create;
  __typeof__(&cublasLtMatmulDescCreate) desc_create;
  __typeof__(&cublasLtMatmulDescDestroy) desc_destroy;
  __typeof__(&cublasLtMatmulDescSetAttribute) desc_set;
  __typeof__(&cublasLtMatrixLayoutCreate) layout_create;
  __typeof__(&cublasLtMatrixLayoutDestroy) layout_destroy;
  __typeof__(&cublasLtMatrixLayoutSetAttribute) layout_set;
  __typeof__(&cublasLtMatmulPreferenceCreate) pref_create;
  __typeof__(&cublasLtMatmulPreferenceDestroy) pref_destroy;
  __typeof__(&cublasLtMatmulPreferenceSetAttribute) pref_set;
  __typeof__(&cublasLtMatmulAlgoGetHeuristic) heuristic;
  __typeof__(&cublasLtMatmul) matmul;
} lt__cublas_api;

/* The functions, loaded once (thread-safe); NULL with LT_ERR_DEVICE set
 * (naming the library and dlerror's reason) when they cannot be. */
LT__CUDA_HIDDEN const lt__cublas_api *lt__cublas(void);

#endif
