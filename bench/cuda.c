/* bench/cuda: the CUDA backend beside CUDA's own baselines, measured in
 * the same run on the same device:
 *  - copies (a contiguous clone, a 2-D transpose, 3-D and 4-D permutes)
 *    beside cudaMemcpy device to device of the same bytes;
 *  - casts (F32 <-> BF16, F32 -> F16, F32 -> FP8 E4M3) beside the same
 *    cudaMemcpy;
 *  - lt_matmul on square products (F32 with TF32 off, BF16, F16) beside
 *    cublasGemmEx called directly on the same buffers, and FP8 E4M3
 *    (a x w^T, through cuBLASLt) on its own.
 * Bandwidth counts bytes read plus bytes written. Each figure is the
 * median of the repetitions, timed with CUDA events around one call on
 * the default stream after one warm-up; lt calls allocate their result
 * each time, as a caller sees it (from the device cache after the first).
 * Prints a table and, with --json, one JSON line per case. Without a CUDA
 * device it says so and exits 0.
 * Usage: bench_cuda [--json] [--reps N] [--mib N] [--n N] */
#include <libtensor.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

static const lt_device cuda0 = {LT_CUDA, 0};

typedef struct options {
  bool json;
  int reps;
  int64_t mib; /* copy and cast sizes */
  int64_t n;   /* matmul edge */
} options;

static void die(const char *what) {
  fprintf(stderr, "bench_cuda: %s: %s\n", what, lt_last_error());
  exit(1);
}

static void check_cuda(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    fprintf(stderr, "bench_cuda: %s: %s\n", what, cudaGetErrorString(e));
    exit(1);
  }
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* ---- timing ---- */

typedef void (*op_fn)(void *ctx);

/* Median seconds of one call of fn over reps, after a warm-up. */
static double time_op(op_fn fn, void *ctx, int reps) {
  cudaEvent_t start, stop;
  check_cuda(cudaEventCreate(&start), "cudaEventCreate");
  check_cuda(cudaEventCreate(&stop), "cudaEventCreate");
  fn(ctx);
  check_cuda(cudaDeviceSynchronize(), "warm-up");
  double t[64];
  if (reps > 64) reps = 64;
  for (int r = 0; r < reps; r++) {
    check_cuda(cudaEventRecord(start, 0), "cudaEventRecord");
    fn(ctx);
    check_cuda(cudaEventRecord(stop, 0), "cudaEventRecord");
    check_cuda(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0;
    check_cuda(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    t[r] = ms * 1e-3;
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  qsort(t, (size_t)reps, sizeof t[0], cmp_double);
  return t[reps / 2];
}

typedef struct memcpy_ctx {
  void *dst;
  const void *src;
  size_t bytes;
} memcpy_ctx;

static void run_memcpy(void *ctx) {
  memcpy_ctx *c = ctx;
  check_cuda(cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDeviceToDevice, 0), "cudaMemcpyAsync");
}

/* cudaMemcpy of bytes between two device buffers, in GB/s (read + write). */
static double memcpy_gbps(size_t bytes, int reps) {
  memcpy_ctx c = {.bytes = bytes};
  check_cuda(cudaMalloc(&c.dst, bytes), "cudaMalloc");
  check_cuda(cudaMalloc((void **)&c.src, bytes), "cudaMalloc");
  check_cuda(cudaMemset(c.dst, 1, bytes), "cudaMemset");
  check_cuda(cudaMemset((void *)c.src, 2, bytes), "cudaMemset");
  double s = time_op(run_memcpy, &c, reps);
  cudaFree(c.dst);
  cudaFree((void *)c.src);
  return 2.0 * (double)bytes / s * 1e-9;
}

/* ---- copies and casts ---- */

typedef struct copy_ctx {
  const lt_tensor *src; /* the view to materialise */
  lt_dtype to;          /* its own dtype: a copy; another: a cast */
} copy_ctx;

static void run_copy(void *ctx) {
  copy_ctx *c = ctx;
  lt_tensor *out = c->to == lt_dtype_of(c->src) ? lt_clone(c->src) : lt_cast(c->src, c->to, LT_CAST_DEFAULT);
  if (!out) die("copy");
  lt_release(out);
}

/* A device tensor of shape holding F32 values in [-1, 1), cast to dt. */
static lt_tensor *device_filled(lt_dtype dt, int ndim, const int64_t *shape) {
  lt_tensor *h = lt_empty(LT_F32, ndim, shape, LT_HOST);
  if (!h) die("host buffer");
  float *p = lt_data(h);
  uint32_t seed = 12345;
  for (int64_t i = 0; i < lt_numel(h); i++) {
    seed = seed * 1664525u + 1013904223u;
    p[i] = (float)(int32_t)seed / 2147483648.0f;
  }
  lt_tensor *d = lt_to_device(h, cuda0);
  lt_release(h);
  if (!d) die("to_device");
  if (dt == LT_F32) return d;
  lt_tensor *c = lt_cast(d, dt, LT_CAST_DEFAULT);
  lt_release(d);
  if (!c) die("cast");
  return c;
}

static void report_bw(const options *o, const char *kind, const char *name, double gbps, double base) {
  printf("  %-34s %9.1f GB/s  %9.1f GB/s  %6.3f\n", name, gbps, base, gbps / base);
  if (o->json)
    printf("{\"bench\":\"cuda_%s\",\"case\":\"%s\",\"gbps\":%.2f,\"memcpy_gbps\":%.2f,\"ratio\":%.4f}\n", kind, name, gbps,
           base, gbps / base);
}

/* One copy case: src_shape permuted by perm (NULL: as is) and made
 * contiguous. */
static void copy_case(const options *o, const char *name, lt_dtype dt, int ndim, const int64_t *shape, const int *perm,
                      double base) {
  lt_tensor *x = device_filled(dt, ndim, shape);
  lt_tensor *v = perm ? lt_permute(x, perm) : lt_retain(x);
  if (!v) die("permute");
  copy_ctx c = {.src = v, .to = dt};
  double s = time_op(run_copy, &c, o->reps);
  double bytes = 2.0 * (double)lt_numel(x) * (double)lt_dtype_size(dt);
  report_bw(o, "copy", name, bytes / s * 1e-9, base);
  lt_release(v);
  lt_release(x);
}

static void cast_case(const options *o, const char *name, lt_dtype from, lt_dtype to, int64_t n, double base) {
  lt_tensor *x = device_filled(from, 1, &n);
  copy_ctx c = {.src = x, .to = to};
  double s = time_op(run_copy, &c, o->reps);
  double bytes = (double)n * (double)(lt_dtype_size(from) + lt_dtype_size(to));
  report_bw(o, "cast", name, bytes / s * 1e-9, base);
  lt_release(x);
}

/* ---- matmul ---- */

typedef struct mm_ctx {
  const lt_tensor *a, *b;   /* for lt_matmul */
  cublasHandle_t h;         /* for the direct call */
  const void *pa, *pb;
  void *pc;
  cudaDataType type;
  int64_t n;
} mm_ctx;

static void run_lt_matmul(void *ctx) {
  mm_ctx *c = ctx;
  lt_tensor *out = lt_matmul(c->a, c->b);
  if (!out) die("lt_matmul");
  lt_release(out);
}

/* Row-major c = a b as column-major c^T = b^T a^T, as the backend calls it. */
static void run_direct(void *ctx) {
  mm_ctx *c = ctx;
  const float one = 1.0f, zero = 0.0f;
  int n = (int)c->n;
  cublasStatus_t st = cublasGemmEx(c->h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, c->pb, c->type, n, c->pa, c->type, n,
                                   &zero, c->pc, c->type, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  if (st != CUBLAS_STATUS_SUCCESS) {
    fprintf(stderr, "bench_cuda: cublasGemmEx: %s\n", cublasGetStatusName(st));
    exit(1);
  }
}

/* A device buffer of n x n elements of dt, filled through the library and
 * wrapped as a tensor (the caller frees the buffer after the tensor). */
static lt_tensor *wrapped_matrix(lt_dtype dt, int64_t n, void **buf) {
  int64_t shape[2] = {n, n};
  check_cuda(cudaMalloc(buf, (size_t)(n * n) * lt_dtype_size(dt)), "cudaMalloc");
  lt_tensor *t = lt_wrap(*buf, dt, 2, shape, NULL, cuda0, NULL, NULL);
  if (!t) die("wrap");
  lt_tensor *src = device_filled(dt, 2, shape);
  if (lt_copy(t, src) != LT_OK) die("fill");
  lt_release(src);
  return t;
}

static void matmul_case(const options *o, cublasHandle_t h, const char *name, lt_dtype dt, cudaDataType type) {
  void *pa, *pb, *pc;
  lt_tensor *a = wrapped_matrix(dt, o->n, &pa), *b = wrapped_matrix(dt, o->n, &pb);
  check_cuda(cudaMalloc(&pc, (size_t)(o->n * o->n) * lt_dtype_size(dt)), "cudaMalloc");
  mm_ctx c = {.a = a, .b = b, .h = h, .pa = pa, .pb = pb, .pc = pc, .type = type, .n = o->n};
  double flops = 2.0 * (double)o->n * (double)o->n * (double)o->n;
  double t_lt = time_op(run_lt_matmul, &c, o->reps), t_direct = time_op(run_direct, &c, o->reps);
  double lt_tf = flops / t_lt * 1e-12, direct_tf = flops / t_direct * 1e-12;
  printf("  %-34s %9.1f TF/s  %9.1f TF/s  %6.3f\n", name, lt_tf, direct_tf, lt_tf / direct_tf);
  if (o->json)
    printf("{\"bench\":\"cuda_matmul\",\"case\":\"%s\",\"n\":%lld,\"tflops\":%.2f,\"cublas_tflops\":%.2f,\"ratio\":%.4f}\n",
           name, (long long)o->n, lt_tf, direct_tf, lt_tf / direct_tf);
  lt_release(a);
  lt_release(b);
  cudaFree(pa);
  cudaFree(pb);
  cudaFree(pc);
}

/* x [n, n] times w^T, w [n, n] E4M3: the layout cuBLASLt's FP8 kernels take. */
static void fp8_case(const options *o) {
  int64_t shape[2] = {o->n, o->n};
  lt_tensor *x = device_filled(LT_F8_E4M3, 2, shape), *w = device_filled(LT_F8_E4M3, 2, shape);
  lt_tensor *wt = lt_transpose(w, 0, 1);
  mm_ctx c = {.a = x, .b = wt};
  double t = time_op(run_lt_matmul, &c, o->reps);
  double tf = 2.0 * (double)o->n * (double)o->n * (double)o->n / t * 1e-12;
  printf("  %-34s %9.1f TF/s  %14s\n", "fp8 e4m3 x w^T (cuBLASLt)", tf, "-");
  if (o->json)
    printf("{\"bench\":\"cuda_matmul\",\"case\":\"fp8_e4m3\",\"n\":%lld,\"tflops\":%.2f}\n", (long long)o->n, tf);
  lt_release(wt);
  lt_release(w);
  lt_release(x);
}

static options parse(int argc, char **argv) {
  options o = {.json = false, .reps = 10, .mib = 256, .n = 8192};
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--json") == 0) o.json = true;
    else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) o.reps = atoi(argv[++i]);
    else if (strcmp(argv[i], "--mib") == 0 && i + 1 < argc) o.mib = atoll(argv[++i]);
    else if (strcmp(argv[i], "--n") == 0 && i + 1 < argc) o.n = atoll(argv[++i]);
    else {
      fprintf(stderr, "usage: bench_cuda [--json] [--reps N] [--mib N] [--n N]\n");
      exit(2);
    }
  }
  if (o.reps < 1) o.reps = 1;
  if (o.mib < 1) o.mib = 1;
  if (o.n < 16) o.n = 16;
  return o;
}

int main(int argc, char **argv) {
  options o = parse(argc, argv);
  if (!lt_device_available(cuda0)) {
    printf("SKIP no CUDA device: bench_cuda measured nothing\n");
    return 0;
  }
  struct cudaDeviceProp prop;
  check_cuda(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  check_cuda(cudaSetDevice(0), "cudaSetDevice");
  printf("bench_cuda on %s (compute capability %d.%d), median of %d\n", prop.name, prop.major, prop.minor, o.reps);

  int64_t n = o.mib << 18; /* F32 elements */
  double base = memcpy_gbps((size_t)n * 4, o.reps);
  printf("\n  %-34s %14s  %14s  %6s\n", "copy (f32 unless named)", "libtensor", "cudaMemcpy", "ratio");
  copy_case(&o, "clone (contiguous)", LT_F32, 1, &n, NULL, base);
  int64_t side = 1;
  while ((side * 2) * (side * 2) <= n) side *= 2;
  copy_case(&o, "transpose 2-D", LT_F32, 2, (int64_t[]){side, n / side}, (int[]){1, 0}, base);
  int64_t c3 = 1;
  while ((c3 + 1) * (c3 + 1) * (c3 + 1) <= n) c3++;
  copy_case(&o, "permute 3-D (2,0,1)", LT_F32, 3, (int64_t[]){c3, c3, c3}, (int[]){2, 0, 1}, base);
  int64_t t4 = n / (4 * 12 * 64);
  int64_t attn[4] = {4, 12, t4, 64};
  copy_case(&o, "permute 4-D [B,H,T,D] (0,2,1,3)", LT_F32, 4, attn, (int[]){0, 2, 1, 3}, base);
  copy_case(&o, "permute 4-D [B,H,T,D] (0,1,3,2)", LT_F32, 4, attn, (int[]){0, 1, 3, 2}, base);
  copy_case(&o, "transpose 2-D bf16", LT_BF16, 2, (int64_t[]){side, n / side}, (int[]){1, 0}, base);

  printf("\n  %-34s %14s  %14s  %6s\n", "cast", "libtensor", "cudaMemcpy", "ratio");
  cast_case(&o, "f32 -> bf16", LT_F32, LT_BF16, n, base);
  cast_case(&o, "bf16 -> f32", LT_BF16, LT_F32, n, base);
  cast_case(&o, "f32 -> f16", LT_F32, LT_F16, n, base);
  cast_case(&o, "f32 -> f8_e4m3", LT_F32, LT_F8_E4M3, n, base);

  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
    fprintf(stderr, "bench_cuda: cublasCreate failed\n");
    return 1;
  }
  printf("\n  %-34s %14s  %14s  %6s\n", "matmul n x n x n", "libtensor", "cublasGemmEx", "ratio");
  matmul_case(&o, h, "f32 (TF32 off)", LT_F32, CUDA_R_32F);
  matmul_case(&o, h, "bf16, f32 accumulation", LT_BF16, CUDA_R_16BF);
  matmul_case(&o, h, "f16, f32 accumulation", LT_F16, CUDA_R_16F);
  if (prop.major * 10 + prop.minor >= 89) fp8_case(&o);
  cublasDestroy(h);
  return 0;
}
