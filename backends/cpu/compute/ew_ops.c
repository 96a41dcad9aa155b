/* The elementwise arithmetic, and the lane sums of the reductions: one
 * loop per op and compute type, generated
 * from one expression each, with separate loops for a broadcast (scalar)
 * input so that every loop the compiler sees is a dense one it vectorises.
 * Integers compute in uint64 so that overflow wraps instead of being
 * undefined. Built with -O3 -fno-math-errno (see meson.build). */
#include <math.h>

#include "ew_ops.h"

#define BINARY_LOOPS(T, EXPR)                                                   \
  do {                                                                          \
    T *o = y;                                                                   \
    const T *p = x0, *q = x1;                                                   \
    if (!s0 && !s1) {                                                           \
      for (int64_t i = 0; i < n; i++) { T a = p[i], b = q[i]; o[i] = (EXPR); }  \
    } else if (!s0) {                                                           \
      T b = q[0];                                                               \
      for (int64_t i = 0; i < n; i++) { T a = p[i]; o[i] = (EXPR); }            \
    } else if (!s1) {                                                           \
      T a = p[0];                                                               \
      for (int64_t i = 0; i < n; i++) { T b = q[i]; o[i] = (EXPR); }            \
    } else {                                                                    \
      T a = p[0], b = q[0], v = (EXPR);                                         \
      for (int64_t i = 0; i < n; i++) o[i] = v;                                 \
    }                                                                           \
  } while (0)

#define UNARY_LOOPS(T, EXPR)                                                    \
  do {                                                                          \
    T *o = y;                                                                   \
    const T *p = x0;                                                            \
    if (!s0) {                                                                  \
      for (int64_t i = 0; i < n; i++) { T a = p[i]; o[i] = (EXPR); }            \
    } else {                                                                    \
      T a = p[0], v = (EXPR);                                                   \
      for (int64_t i = 0; i < n; i++) o[i] = v;                                 \
    }                                                                           \
  } while (0)

/* NaN in either input wins (torch.maximum / torch.minimum). */
#define MAXIMUM(a, b) ((a) != (a) || (a) > (b) ? (a) : (b))
#define MINIMUM(a, b) ((a) != (a) || (a) < (b) ? (a) : (b))
/* NaN stays NaN (torch.relu). */
#define RELU(a) ((a) > 0 || (a) != (a) ? (a) : 0)

/* The float ops for one type T, whose libm functions carry suffix F (f or
 * nothing). sigmoid takes the branch whose exp cannot overflow. */
#define FLOAT_OPS(T, F)                                                                      \
  switch (op) {                                                                              \
  case LT__EW_ADD: BINARY_LOOPS(T, a + b); break;                                            \
  case LT__EW_SUB: BINARY_LOOPS(T, a - b); break;                                            \
  case LT__EW_MUL: BINARY_LOOPS(T, a * b); break;                                            \
  case LT__EW_DIV: BINARY_LOOPS(T, a / b); break;                                            \
  case LT__EW_MAX: BINARY_LOOPS(T, MAXIMUM(a, b)); break;                                    \
  case LT__EW_MIN: BINARY_LOOPS(T, MINIMUM(a, b)); break;                                    \
  case LT__EW_NEG: UNARY_LOOPS(T, -a); break;                                                \
  case LT__EW_ABS: UNARY_LOOPS(T, fabs##F(a)); break;                                        \
  case LT__EW_EXP: UNARY_LOOPS(T, exp##F(a)); break;                                         \
  case LT__EW_LOG: UNARY_LOOPS(T, log##F(a)); break;                                         \
  case LT__EW_SQRT: UNARY_LOOPS(T, sqrt##F(a)); break;                                       \
  case LT__EW_RSQRT: UNARY_LOOPS(T, 1 / sqrt##F(a)); break;                                  \
  case LT__EW_TANH: UNARY_LOOPS(T, tanh##F(a)); break;                                       \
  case LT__EW_SIGMOID:                                                                       \
    UNARY_LOOPS(T, a >= 0 ? 1 / (1 + exp##F(-a)) : exp##F(a) / (1 + exp##F(a)));             \
    break;                                                                                   \
  case LT__EW_RELU: UNARY_LOOPS(T, RELU(a)); break;                                          \
  case LT__EW_GELU: UNARY_LOOPS(T, (T)0.5 * a * (1 + erf##F(a * (T)0.70710678118654752440))); break; \
  case LT__EW_SILU: UNARY_LOOPS(T, a / (1 + exp##F(-a))); break;                             \
  }

/* One copy of each loop function per instruction set, picked when the
 * library loads: the same loops with wider vectors. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define ISA_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define ISA_CLONES
#endif

#define WRAP(expr) ((int64_t)(expr))
#define U(a) ((uint64_t)(a))

ISA_CLONES static void int_ops(lt__ew_op op, void *y, const void *x0, bool s0, const void *x1, bool s1, int64_t n) {
  switch (op) {
  case LT__EW_ADD: BINARY_LOOPS(int64_t, WRAP(U(a) + U(b))); break;
  case LT__EW_SUB: BINARY_LOOPS(int64_t, WRAP(U(a) - U(b))); break;
  case LT__EW_MUL: BINARY_LOOPS(int64_t, WRAP(U(a) * U(b))); break;
  case LT__EW_MAX: BINARY_LOOPS(int64_t, a > b ? a : b); break;
  case LT__EW_MIN: BINARY_LOOPS(int64_t, a < b ? a : b); break;
  case LT__EW_NEG: UNARY_LOOPS(int64_t, WRAP(0 - U(a))); break;
  case LT__EW_ABS: UNARY_LOOPS(int64_t, a < 0 ? WRAP(0 - U(a)) : a); break;
  case LT__EW_RELU: UNARY_LOOPS(int64_t, a > 0 ? a : 0); break;
  default: break; /* the core gives other ops a float result */
  }
}

ISA_CLONES static void f32_ops(lt__ew_op op, void *y, const void *x0, bool s0, const void *x1, bool s1, int64_t n) {
  FLOAT_OPS(float, f)
}

ISA_CLONES static void f64_ops(lt__ew_op op, void *y, const void *x0, bool s0, const void *x1, bool s1, int64_t n) {
  FLOAT_OPS(double, )
}

void lt__ew_apply(lt__ew_op op, lt_dtype ct, void *y, const void *x0, bool s0, const void *x1, bool s1,
                  int64_t n) {
  if (ct == LT_F32)
    f32_ops(op, y, x0, s0, x1, s1, n);
  else if (ct == LT_F64)
    f64_ops(op, y, x0, s0, x1, s1, n);
  else
    int_ops(op, y, x0, s0, x1, s1, n);
}

#define LANE_SUM(T)                                                           \
  do {                                                                        \
    T acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};                                      \
    int64_t i = 0;                                                            \
    for (; i + 8 <= n; i += 8)                                                \
      for (int j = 0; j < 8; j++) acc[j] += x[i + j];                         \
    for (int j = 0; i < n; i++, j++) acc[j] += x[i];                          \
    return ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7])); \
  } while (0)

/* Static, with exported wrappers: a cloned function gets an ifunc symbol,
 * which would escape the library's hidden visibility. */
ISA_CLONES static float sum_f32(const float *x, int64_t n) { LANE_SUM(float); }
ISA_CLONES static double sum_f64(const double *x, int64_t n) { LANE_SUM(double); }

float lt__sum_f32(const float *x, int64_t n) { return sum_f32(x, n); }
double lt__sum_f64(const double *x, int64_t n) { return sum_f64(x, n); }
