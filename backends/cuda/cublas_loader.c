/* Loads cuBLAS and cuBLASLt (the sonames of the toolkit built against) on
 * first use and looks up the functions the matmul calls. */
#include "cublas_loader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include "error.h"

#define STR_(x) #x
#define STR(x) STR_(x)
#define BLAS_SONAME "libcublas.so." STR(CUBLAS_VER_MAJOR)
#define BLAS_LT_SONAME "libcublasLt.so." STR(CUBLAS_VER_MAJOR)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static lt__cublas_api api;
static bool loaded;
static char why[256];

/* dlsym into a function pointer of the member's own type (POSIX promises
 * that the conversion works). */
#define FIND(lib, soname, member, name)                    \
  do {                                                     \
    void *sym_ = dlsym(lib, name);                         \
    if (!sym_) {                                           \
      snprintf(why, sizeof why, "%s has no %s", soname, name); \
      return;                                              \
    }                                                      \
    *(void **)(&api.member) = sym_;                        \
  } while (0)

static void load(void) {
  /* cuBLASLt first: cuBLAS itself depends on it. */
  void *blas_lt = dlopen(BLAS_LT_SONAME, RTLD_NOW | RTLD_LOCAL);
  void *blas = blas_lt ? dlopen(BLAS_SONAME, RTLD_NOW | RTLD_LOCAL) : NULL;
  if (!blas) {
    const char *e = dlerror();
    snprintf(why, sizeof why, "cannot load %s: %s", blas_lt ? BLAS_SONAME : BLAS_LT_SONAME, e ? e : "unknown error");
    return;
  }
  FIND(blas, BLAS_SONAME, create, "cublasCreate_v2");
  FIND(blas, BLAS_SONAME, set_math_mode, "cublasSetMathMode");
  FIND(blas, BLAS_SONAME, gemm, "cublasGemmEx_64");
  FIND(blas, BLAS_SONAME, gemm_strided_batched, "cublasGemmStridedBatchedEx_64");
  FIND(blas, BLAS_SONAME, status_name, "cublasGetStatusName");
  FIND(blas_lt, BLAS_LT_SONAME, lt_create, "cublasLtCreate");
  FIND(blas_lt, BLAS_LT_SONAME, desc_create, "cublasLtMatmulDescCreate");
  FIND(blas_lt, BLAS_LT_SONAME, desc_destroy, "cublasLtMatmulDescDestroy");
  FIND(blas_lt, BLAS_LT_SONAME, desc_set, "cublasLtMatmulDescSetAttribute");
  FIND(blas_lt, BLAS_LT_SONAME, layout_create, "cublasLtMatrixLayoutCreate");
  FIND(blas_lt, BLAS_LT_SONAME, layout_destroy, "cublasLtMatrixLayoutDestroy");
  FIND(blas_lt, BLAS_LT_SONAME, layout_set, "cublasLtMatrixLayoutSetAttribute");
  FIND(blas_lt, BLAS_LT_SONAME, pref_create, "cublasLtMatmulPreferenceCreate");
  FIND(blas_lt, BLAS_LT_SONAME, pref_destroy, "cublasLtMatmulPreferenceDestroy");
  FIND(blas_lt, BLAS_LT_SONAME, pref_set, "cublasLtMatmulPreferenceSetAttribute");
  FIND(blas_lt, BLAS_LT_SONAME, heuristic, "cublasLtMatmulAlgoGetHeuristic");
  FIND(blas_lt, BLAS_LT_SONAME, matmul, "cublasLtMatmul");
  loaded = true; /* the libraries stay loaded for the life of the process */
}

const lt__cublas_api *lt__cublas(void) {
  pthread_once(&once, load);
  if (!loaded) return lt__fail_null(LT_ERR_DEVICE, "matmul: cuBLAS is not usable: %s", why);
  return &api;
}
