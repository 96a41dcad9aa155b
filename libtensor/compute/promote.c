/* Dtype promotion for compute ops (PyTorch's rules, extended to the FP8
 * formats by the same principle), and the type each result computes in. */
#include "compute_impl.h"
#include "error.h"

/* Exponent and mantissa bits of each float format: one format holds
 * another exactly when it has at least as many of both. */
typedef struct float_bits {
  int exp, mant;
} float_bits;

static float_bits bits_of(lt_dtype dt) {
  switch (dt) {
  case LT_F64: return (float_bits){11, 52};
  case LT_F32: return (float_bits){8, 23};
  case LT_F16: return (float_bits){5, 10};
  case LT_BF16: return (float_bits){8, 7};
  case LT_F8_E4M3: return (float_bits){4, 3};
  default: return (float_bits){5, 2}; /* LT_F8_E5M2 */
  }
}

static bool holds(lt_dtype a, lt_dtype b) {
  float_bits x = bits_of(a), y = bits_of(b);
  return x.exp >= y.exp && x.mant >= y.mant;
}

/* bool < integers < floats. */
static int category(lt_dtype dt) {
  if (dt == LT_BOOL) return 0;
  return lt__dtype_is_float(dt) ? 2 : 1;
}

/* Integers widen by size: u8 < i32 < i64 (no two share a size). */
static lt_dtype wider_int(lt_dtype a, lt_dtype b) { return lt__dtype_size(a) >= lt__dtype_size(b) ? a : b; }

lt_dtype lt__promote(lt_dtype a, lt_dtype b) {
  if (a == b) return a;
  int ca = category(a), cb = category(b);
  if (ca != cb) return ca > cb ? a : b;
  if (ca == 1) return wider_int(a, b);
  if (holds(a, b)) return a;
  if (holds(b, a)) return b;
  return LT_F32;
}

lt_dtype lt__compute_type(lt_dtype result) {
  if (result == LT_F64) return LT_F64;
  return lt__dtype_is_float(result) ? LT_F32 : LT_I64;
}

bool lt__can_store_result(lt_dtype result, lt_dtype dst) { return category(result) <= category(dst); }

lt_dtype lt_promote_types(lt_dtype a, lt_dtype b) {
  if (!lt__dtype_valid(a) || !lt__dtype_valid(b)) {
    lt__fail(LT_ERR_ARG, "promote_types: invalid dtype %d", lt__dtype_valid(a) ? (int)b : (int)a);
    return a;
  }
  lt__ok();
  return lt__promote(a, b);
}
