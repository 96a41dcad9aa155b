/* Copies read nothing outside their source. The copy kernels load whole
 * vectors and lines, so at a source's first and last bytes a load may
 * reach past it: here every layout lt_copy takes (transposes, 3-D and 4-D
 * permutations, stepped and reversed slices, expands) copies from caller
 * memory whose bytes end just before an inaccessible page, and again from
 * memory whose bytes start just after one, so that any such load faults.
 * Small shapes reach every kernel's edges (sides around a tile, 1 to 16
 * rows, runs of a few elements); shapes past 8 MiB reach the streamed
 * kernels. Each result must equal the naive gather, element by element. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "support/check_helpers.h"

enum { AT_END, AT_START };

/* bytes of fresh memory between two inaccessible pages, the bytes ending
 * at the second (AT_END) or starting at the first (AT_START); *map and
 * *map_len for munmap. */
static char *between_guard_pages(size_t bytes, int where, void **map, size_t *map_len) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE), body = (bytes + page - 1) / page * page;
  if (body == 0) body = page;
  *map_len = body + 2 * page;
  char *m = mmap(NULL, *map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ck_assert_ptr_ne(m, MAP_FAILED);
  ck_assert_int_eq(mprotect(m, page, PROT_NONE), 0);
  ck_assert_int_eq(mprotect(m + page + body, page, PROT_NONE), 0);
  *map = m;
  return where == AT_END ? m + page + body - bytes : m + page;
}

/* How a case makes its view of the source. */
typedef enum view_kind { PERMUTE, SLICE_LAST, EXPAND_FIRST } view_kind;

typedef struct bounds_case {
  lt_dtype dt;
  int ndim;
  int64_t shape[4]; /* the source's, row-major */
  view_kind kind;
  int perm[4];      /* PERMUTE */
  int64_t step;     /* SLICE_LAST: the last dim's step */
  int64_t copies;   /* EXPAND_FIRST: a size-1 first dim expanded to this */
} bounds_case;

static lt_tensor *view_of(const lt_tensor *src, const bounds_case *c) {
  switch (c->kind) {
  case PERMUTE: return lt_permute(src, c->perm);
  case SLICE_LAST: return lt_slice(src, c->ndim - 1, LT_NONE, LT_NONE, c->step);
  default: {
    int64_t shape[4];
    memcpy(shape, c->shape, sizeof shape);
    shape[0] = c->copies;
    return lt_expand(src, c->ndim, shape);
  }
  }
}

static void describe(const bounds_case *c, int where, char *buf, size_t n) {
  int k = snprintf(buf, n, "%s [", lt_dtype_name(c->dt));
  for (int d = 0; d < c->ndim; d++) k += snprintf(buf + k, n - (size_t)k, d ? ",%lld" : "%lld", (long long)c->shape[d]);
  if (c->kind == PERMUTE) {
    k += snprintf(buf + k, n - (size_t)k, "] permuted (");
    for (int d = 0; d < c->ndim; d++) k += snprintf(buf + k, n - (size_t)k, d ? ",%d" : "%d", c->perm[d]);
    k += snprintf(buf + k, n - (size_t)k, ")");
  } else if (c->kind == SLICE_LAST) {
    k += snprintf(buf + k, n - (size_t)k, "] last dim step %lld", (long long)c->step);
  } else {
    k += snprintf(buf + k, n - (size_t)k, "] expanded to %lld", (long long)c->copies);
  }
  snprintf(buf + k, n - (size_t)k, ", source %s a guard page", where == AT_END ? "ending at" : "starting after");
}

/* Copies c's view of a patterned source placed at `where` into a fresh
 * tensor and compares every element with the source element its index
 * names (offset plus index times stride, in elements). */
static void check_case(const bounds_case *c, int where) {
  size_t es = lt_dtype_size(c->dt);
  int64_t n = 1;
  for (int d = 0; d < c->ndim; d++) n *= c->shape[d];
  void *map;
  size_t map_len;
  unsigned char *data = (unsigned char *)between_guard_pages((size_t)n * es, where, &map, &map_len);
  for (int64_t i = 0; i < n * (int64_t)es; i++) data[i] = (unsigned char)(i * 131 + (i >> 9) * 7 + 1);
  lt_tensor *src = lt_wrap(data, c->dt, c->ndim, c->shape, NULL, LT_HOST, NULL, NULL);
  LT_ASSERT_OK_PTR(src);
  lt_tensor *view = view_of(src, c);
  LT_ASSERT_OK_PTR(view);
  int nd = lt_ndim(view);
  const int64_t *shape = lt_shape(view), *strides = lt_strides(view);
  lt_tensor *dst = lt_empty(c->dt, nd, shape, LT_HOST);
  LT_ASSERT_OK_PTR(dst);
  LT_ASSERT_OK(lt_copy(dst, view));
  const unsigned char *got = lt_data(dst);
  int64_t idx[LT_MAX_DIMS] = {0}, m = lt_numel(view);
  for (int64_t i = 0; i < m; i++) {
    int64_t at = lt_offset(view);
    for (int d = 0; d < nd; d++) at += idx[d] * strides[d];
    if (memcmp(got + i * (int64_t)es, data + at * (int64_t)es, es) != 0) {
      char what[200];
      describe(c, where, what, sizeof what);
      ck_abort_msg("%s: element %lld of the copy is not source element %lld", what, (long long)i, (long long)at);
    }
    for (int d = nd - 1; d >= 0 && ++idx[d] == shape[d]; d--) idx[d] = 0;
  }
  lt_release(dst), lt_release(view), lt_release(src);
  munmap(map, map_len);
}

static void check_both_ends(const bounds_case *c) {
  check_case(c, AT_END);
  check_case(c, AT_START);
}

static const lt_dtype DTYPES[] = {LT_U8, LT_F16, LT_F32, LT_F64};
enum { NUM_DTYPES = sizeof DTYPES / sizeof DTYPES[0] };

/* 2-D transposes around every tile side (16 F32, 32 halves, 64 bytes, 8
 * doubles), few-row ones, and rows a multiple of 1 KiB apart (another
 * walk over the tiles), for every element size. */
START_TEST(transposes_read_only_their_source) {
  static const int64_t sides[][2] = {{1, 7},   {7, 1},   {3, 17},  {17, 3},   {16, 16},  {31, 33},  {33, 31},
                                     {64, 64}, {65, 63}, {100, 37}, {130, 129}, {2, 1000}, {1000, 2}, {5, 300},
                                     {300, 5}, {15, 64}, {64, 15}, {256, 256}, {256, 512}};
  for (int k = 0; k < NUM_DTYPES; k++)
    for (size_t s = 0; s < sizeof sides / sizeof sides[0]; s++) {
      bounds_case c = {.dt = DTYPES[k], .ndim = 2, .shape = {sides[s][0], sides[s][1]}, .kind = PERMUTE,
                       .perm = {1, 0}};
      check_both_ends(&c);
    }
}
END_TEST

/* Each of nperms permutations (ndim entries each, packed) of each of
 * nshapes source shapes (ndim sizes each, packed), for element type dt. */
static void check_permutations(lt_dtype dt, int ndim, const int64_t *shapes, size_t nshapes, const int *perms,
                               size_t nperms) {
  for (size_t s = 0; s < nshapes; s++)
    for (size_t p = 0; p < nperms; p++) {
      bounds_case c = {.dt = dt, .ndim = ndim, .kind = PERMUTE};
      memcpy(c.shape, shapes + s * (size_t)ndim, (size_t)ndim * sizeof *shapes);
      memcpy(c.perm, perms + p * (size_t)ndim, (size_t)ndim * sizeof *perms);
      check_both_ends(&c);
    }
}

/* Every 3-D permutation and the common 4-D ones, for every element size. */
START_TEST(permutations_read_only_their_source) {
  static const int perms3[5][3] = {{0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  static const int64_t cubes[][3] = {{3, 5, 7}, {17, 16, 15}, {33, 2, 65}, {64, 64, 4}, {2, 65, 33}};
  static const int perms4[4][4] = {{0, 2, 1, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {3, 2, 1, 0}};
  static const int64_t bhtd[][4] = {{2, 3, 17, 16}, {1, 5, 33, 64}, {3, 2, 9, 5}};
  for (int k = 0; k < NUM_DTYPES; k++) {
    check_permutations(DTYPES[k], 3, cubes[0], sizeof cubes / sizeof cubes[0], perms3[0], 5);
    check_permutations(DTYPES[k], 4, bhtd[0], sizeof bhtd / sizeof bhtd[0], perms4[0], 4);
  }
}
END_TEST

/* Stepped and reversed last dims, 1-D and in rows, and expands, for
 * every element size. */
START_TEST(slices_and_expands_read_only_their_source) {
  static const int64_t steps[] = {2, 3, 4, 5, 8, 16, -1, -2, -3};
  static const int64_t rows[][2] = {{1, 4099}, {17, 129}, {3, 1000}, {40, 64}};
  for (int k = 0; k < NUM_DTYPES; k++) {
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++)
      for (size_t s = 0; s < sizeof steps / sizeof steps[0]; s++) {
        bounds_case c = {.dt = DTYPES[k], .ndim = 2, .shape = {rows[r][0], rows[r][1]}, .kind = SLICE_LAST,
                         .step = steps[s]};
        check_both_ends(&c);
      }
    bounds_case e = {.dt = DTYPES[k], .ndim = 2, .shape = {1, 1001}, .kind = EXPAND_FIRST, .copies = 37};
    check_both_ends(&e);
  }
}
END_TEST

/* Past 8 MiB of output the kernels stream: transposes of F32, halves and
 * bytes, the attention permutations that go through groups of rows, and
 * stepped and reversed rows. */
START_TEST(large_copies_read_only_their_source) {
  static const bounds_case cases[] = {
      {.dt = LT_F32, .ndim = 2, .shape = {1501, 1503}, .kind = PERMUTE, .perm = {1, 0}},
      {.dt = LT_BF16, .ndim = 2, .shape = {2049, 2051}, .kind = PERMUTE, .perm = {1, 0}},
      {.dt = LT_U8, .ndim = 2, .shape = {3001, 3003}, .kind = PERMUTE, .perm = {1, 0}},
      {.dt = LT_F32, .ndim = 4, .shape = {4, 12, 683, 64}, .kind = PERMUTE, .perm = {0, 3, 1, 2}},
      {.dt = LT_F32, .ndim = 4, .shape = {4, 12, 683, 64}, .kind = PERMUTE, .perm = {3, 2, 1, 0}},
      {.dt = LT_F32, .ndim = 3, .shape = {131, 129, 127}, .kind = PERMUTE, .perm = {2, 1, 0}},
      /* Whole lines of output in all (2200 elements a row, an even
       * number of rows), so that the last line's kernel reads up to the
       * source's last element; and rows that end inside a line. */
      {.dt = LT_F32, .ndim = 2, .shape = {1000, 8797}, .kind = SLICE_LAST, .step = 4},
      {.dt = LT_F32, .ndim = 2, .shape = {1000, 4399}, .kind = SLICE_LAST, .step = 2},
      {.dt = LT_F32, .ndim = 2, .shape = {1000, 6598}, .kind = SLICE_LAST, .step = 3},
      {.dt = LT_F32, .ndim = 2, .shape = {1001, 4401}, .kind = SLICE_LAST, .step = 2},
      {.dt = LT_F32, .ndim = 2, .shape = {1501, 1503}, .kind = SLICE_LAST, .step = -1},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) check_both_ends(&cases[k]);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("copy_bounds");
  TCase *small = tcase_create("small");
  tcase_set_timeout(small, 300); /* under valgrind */
  tcase_add_test(small, transposes_read_only_their_source);
  tcase_add_test(small, permutations_read_only_their_source);
  tcase_add_test(small, slices_and_expands_read_only_their_source);
  suite_add_tcase(s, small);
  TCase *large = tcase_create("large");
  tcase_set_timeout(large, 300); /* under valgrind */
  tcase_add_test(large, large_copies_read_only_their_source);
  suite_add_tcase(s, large);
  return s;
}

int main(void) { return lt_run_suite(suite()); }
