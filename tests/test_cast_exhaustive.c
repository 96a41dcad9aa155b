/* Every float32 input (all 2^32 bit patterns), for each narrow encoding
 * and cast mode: each kernel path this CPU runs (scalar, AVX2, AVX-512)
 * must give exactly the scalar reference's bits (libtensor/dtype.c, which
 * encodes from the exact value). Slow: meson test suite `slow`. */
#include <pthread.h>
#include <string.h>

#include "cast.h"
#include "dtype.h"
#include "support/check_helpers.h"

#define BLOCK (1u << 16)
#define NBLOCKS (1u << 16)

typedef struct sweep {
  lt_dtype dt;
  lt_cast_mode mode;
  int first_block, step;
  uint64_t mismatches[LT__CAST_NPATHS];
  uint32_t first_bad[LT__CAST_NPATHS];
} sweep;

static void *run_sweep(void *arg) {
  sweep *s = arg;
  size_t es = lt_dtype_size(s->dt);
  static _Thread_local uint32_t in[BLOCK];
  static _Thread_local uint8_t ref[BLOCK * 2], out[BLOCK * 2];
  lt__cast_fn fns[LT__CAST_NPATHS];
  for (int p = 0; p < LT__CAST_NPATHS; p++) fns[p] = lt__cast_kernel(s->dt, LT_F32, s->mode, (lt__cast_path)p);
  for (uint32_t b = (uint32_t)s->first_block; b < NBLOCKS; b += (uint32_t)s->step) {
    for (uint32_t i = 0; i < BLOCK; i++) {
      in[i] = b * BLOCK + i;
      float f;
      memcpy(&f, &in[i], 4);
      lt__scalar_store(s->dt, ref + i * es, (lt__scalar){.f = f}, s->mode);
    }
    for (int p = 0; p < LT__CAST_NPATHS; p++) {
      if (!fns[p]) continue;
      fns[p](out, in, BLOCK);
      if (!memcmp(out, ref, BLOCK * es)) continue;
      for (uint32_t i = 0; i < BLOCK; i++)
        if (memcmp(out + i * es, ref + i * es, es) && s->mismatches[p]++ == 0) s->first_bad[p] = in[i];
    }
  }
  return NULL;
}

static void sweep_all(lt_dtype dt, lt_cast_mode mode) {
  sweep halves[2] = {{dt, mode, 0, 2, {0}, {0}}, {dt, mode, 1, 2, {0}, {0}}};
  pthread_t th;
  ck_assert_int_eq(pthread_create(&th, NULL, run_sweep, &halves[1]), 0);
  run_sweep(&halves[0]);
  pthread_join(th, NULL);
  int paths = 0;
  for (int p = 0; p < LT__CAST_NPATHS; p++) {
    if (!lt__cast_kernel(dt, LT_F32, mode, (lt__cast_path)p)) continue;
    paths++;
    uint64_t bad = halves[0].mismatches[p] + halves[1].mismatches[p];
    uint32_t first = halves[0].mismatches[p] ? halves[0].first_bad[p] : halves[1].first_bad[p];
    ck_assert_msg(bad == 0, "%s mode %d path %d: %llu mismatches, e.g. input 0x%08x", lt_dtype_name(dt), (int)mode,
                  p, (unsigned long long)bad, first);
  }
  ck_assert_int_ge(paths, 1);
}

START_TEST(every_f32_to_f16_matches_the_reference) { sweep_all(LT_F16, (lt_cast_mode)_i); }
END_TEST
START_TEST(every_f32_to_bf16_matches_the_reference) { sweep_all(LT_BF16, (lt_cast_mode)_i); }
END_TEST
START_TEST(every_f32_to_e4m3_matches_the_reference) { sweep_all(LT_F8_E4M3, (lt_cast_mode)_i); }
END_TEST
START_TEST(every_f32_to_e5m2_matches_the_reference) { sweep_all(LT_F8_E5M2, (lt_cast_mode)_i); }
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("cast_exhaustive");
  TCase *tc = tcase_create("all_float32_inputs");
  tcase_set_timeout(tc, 1200);
  /* The loop index is the cast mode: LT_CAST_DEFAULT, LT_CAST_SATURATE. */
  tcase_add_loop_test(tc, every_f32_to_f16_matches_the_reference, 0, 2);
  tcase_add_loop_test(tc, every_f32_to_bf16_matches_the_reference, 0, 2);
  tcase_add_loop_test(tc, every_f32_to_e4m3_matches_the_reference, 0, 2);
  tcase_add_loop_test(tc, every_f32_to_e5m2_matches_the_reference, 0, 2);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return lt_run_suite(suite()); }
