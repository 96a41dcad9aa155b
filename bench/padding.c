/* bench/padding: what rows a power of two apart (or nearly) cost a
 * transpose. The shapes of bench_access are powers of two, so at some
 * sizes the rows a tile spans lie 2-16 KiB apart (BHTD's destination
 * rows 4080 bytes at 1 MiB): a tile's lines then fall in a few sets of
 * the cache, more lines than it has ways. Each case is copied with
 * lt_copy between packed tensors and between tensors whose rows are
 * padded by one cache line (16 F32) on each side that has such rows,
 * with the destination at each of SHIFTS bytes into a page, each timed in
 * turn with a memcpy of the same bytes (median of the pairs' ratios, as
 * bench_access); the table gives the median over the shifts and their
 * range. Padding is the user's remedy: it changes the layout, which the
 * library never does behind the caller. Usage: bench_padding [--sizes
 * MIB,MIB,..] [--reps N] (default 1,64 MiB, 7 repetitions). */
#include <libtensor.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure.h"

enum { PAD = 16 }; /* elements: one 64-byte line of F32 */

/* A permutation, and the dim of each side whose stride the padding
 * lengthens (-1: that side stays packed): the dim that steps over the
 * rows the transpose's tiles span. */
typedef struct pad_case {
  const char *name;
  int ndim;
  int perm[4];
  int src_dim, dst_dim;
} pad_case;

static const pad_case cases[] = {
    {"transpose 2-D", 2, {1, 0}, 0, 0},
    {"permute 3-D (1,2,0)", 3, {1, 2, 0}, 0, -1}, /* only the source's rows lie 16 KiB apart at 1 MiB */
    {"permute 3-D (2,0,1)", 3, {2, 0, 1}, -1, 0}, /* only the destination's */
    {"permute 3-D (2,1,0)", 3, {2, 1, 0}, 0, 0},
    /* dst [B, D, H, T]: its D rows hold H * T elements each */
    {"permute BHTD (0,3,1,2)", 4, {0, 3, 1, 2}, -1, 1},
};

/* Row-major strides of shape with pad more elements between consecutive
 * indices of dim (none where dim < 0), the dims outside it scaled to
 * match; returns the storage elements they reach. */
static int64_t padded_strides(int ndim, const int64_t *shape, int dim, int64_t pad, int64_t *strides) {
  int64_t s = 1;
  for (int d = ndim - 1; d >= 0; d--) {
    strides[d] = s;
    s *= shape[d];
    if (d == dim) {
      strides[d] += pad;
      s = strides[d] * shape[d];
    }
  }
  return s;
}

/* Where the destination starts, in bytes past a 4 KiB boundary, with the
 * source on one: the two sides' offset within a page decides which of
 * their lines share the L1's sets, and moves a packed transpose's speed
 * by half again (64^3 (2,1,0) at 1 MiB: 0.27-0.41 of memcpy over these),
 * so each layout is timed at each and the table shows the range. */
static const int64_t SHIFTS[] = {0, 64, 256, 1024, 2048, 3072};
#define NSHIFTS ((int)(sizeof SHIFTS / sizeof SHIFTS[0]))

/* lt_copy(dst, permute(src)) over src of shape, each side padded by pad
 * at its case's dim, the destination shift bytes into a page, paired
 * with memcpy of the same bytes: the median ratio to memcpy in *ratio. */
static int ratio_at(const pad_case *c, const int64_t *shape, int64_t pad, int64_t shift, int reps, double *ratio) {
  int64_t dshape[4], sst[4], dst_st[4], numel = 1;
  for (int d = 0; d < c->ndim; d++) dshape[d] = shape[c->perm[d]], numel *= shape[d];
  int64_t ns = padded_strides(c->ndim, shape, c->src_dim, pad, sst);
  int64_t nd = padded_strides(c->ndim, dshape, c->dst_dim, pad, dst_st);
  int64_t dst_at = (ns + 1023) / 1024 * 1024 + shift / 4; /* elements past the source: whole pages, then shift */
  lt_tensor *buf = measure_touched_f32(1024 + dst_at + nd, true), *mbuf = measure_touched_f32(numel, false);
  /* The source starts at buf's first 4 KiB boundary. */
  int64_t first = buf ? (int64_t)((4096 - (uintptr_t)lt_data(buf) % 4096) % 4096) / 4 : 0;
  lt_tensor *src = buf ? lt_as_strided(buf, c->ndim, shape, sst, first) : NULL;
  lt_tensor *view = src ? lt_permute(src, c->perm) : NULL;
  lt_tensor *dst = view ? lt_as_strided(buf, c->ndim, dshape, dst_st, first + dst_at) : NULL;
  int rc = -1;
  if (dst && mbuf) {
    measure_copy copy = {dst, view};
    measure_memcpy base = {lt_data(mbuf), lt_data(src), (size_t)numel * 4, 1};
    measure_pair m;
    rc = measure_paired(measure_copy_batch, &copy, measure_memcpy_batch, &base, reps, &m);
    *ratio = m.speed;
  }
  if (rc != 0) fprintf(stderr, "bench_padding: %s: %s\n", c->name, lt_last_error());
  lt_release(dst), lt_release(view), lt_release(src), lt_release(mbuf), lt_release(buf);
  return rc;
}

/* The median, lowest and highest ratio over SHIFTS. */
static int ratios(const pad_case *c, const int64_t *shape, int64_t pad, int reps, double out[3]) {
  double r[NSHIFTS];
  for (int i = 0; i < NSHIFTS; i++)
    if (ratio_at(c, shape, pad, SHIFTS[i], reps, &r[i])) return -1;
  out[1] = out[2] = r[0];
  for (int i = 1; i < NSHIFTS; i++) {
    if (r[i] < out[1]) out[1] = r[i];
    if (r[i] > out[2]) out[2] = r[i];
  }
  out[0] = measure_median(r, NSHIFTS);
  return 0;
}

static int run_size(int64_t mib, int reps) {
  int64_t n = (mib << 20) / 4;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const pad_case *c = &cases[i];
    int64_t shape[4];
    if (c->ndim == 2) measure_matrix_shape(n, shape);
    else measure_permute_shape(c->ndim, n, shape);
    double packed[3], padded[3];
    if (ratios(c, shape, 0, reps, packed) || ratios(c, shape, PAD, reps, padded)) return 1;
    char dims[64] = "";
    for (int d = 0; d < c->ndim; d++)
      snprintf(dims + strlen(dims), sizeof dims - strlen(dims), d ? "x%lld" : "%lld", (long long)shape[d]);
    /* The packed rows' step, where the destination pads, else the source. */
    int pdim = c->dst_dim >= 0 ? c->dst_dim : c->src_dim;
    int64_t row_bytes = 4;
    for (int d = pdim + 1; d < c->ndim; d++) row_bytes *= c->dst_dim >= 0 ? shape[c->perm[d]] : shape[d];
    printf("%-22s %5lld MiB %-14s %8lld B %7.3f %5.2f-%4.2f %7.3f %5.2f-%4.2f %6.2f\n", c->name, (long long)mib, dims,
           (long long)row_bytes, packed[0], packed[1], packed[2], padded[0], padded[1], padded[2], padded[0] / packed[0]);
    fflush(stdout);
  }
  return 0;
}

int main(int argc, char **argv) {
  const char *sizes = "1,64";
  int reps = 7;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--sizes") == 0 && i + 1 < argc) sizes = argv[++i];
    else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) reps = atoi(argv[++i]);
    else return fprintf(stderr, "usage: %s [--sizes MIB,MIB,..] [--reps 1..%d]\n", argv[0], MEASURE_MAX_REPS), 2;
  }
  if (reps < 1 || reps > MEASURE_MAX_REPS) return fprintf(stderr, "--reps: 1..%d\n", MEASURE_MAX_REPS), 2;
  int64_t mibs[16];
  int nsizes = 0;
  for (const char *p = sizes; *p;) {
    char *end;
    long long mib = strtoll(p, &end, 10);
    if (end == p || mib < 1 || mib > (1 << 20) || (*end && *end != ',') || nsizes == 16)
      return fprintf(stderr, "--sizes: 1 to 16 sizes in MiB, e.g. 1,64\n"), 2;
    mibs[nsizes++] = mib;
    p = *end ? end + 1 : end;
  }
  lt_set_num_threads(1);
  printf("packed rows against rows padded by one line, f32, lt_copy, 1 thread, median of %d\n", reps);
  printf("ratio = GB/s / GB/s of a memcpy of the same bytes timed in turn with it; median over the destination\n");
  printf("starting 0, 64, 256, 1024, 2048 and 3072 bytes into a page, and their range; gain = padded / packed\n\n");
  printf("%-22s %9s %-14s %10s %7s %9s %7s %9s %6s\n", "case", "size", "source shape", "row step", "packed", "range", "padded",
         "range", "gain");
  for (int i = 0; i < nsizes; i++)
    if (run_size(mibs[i], reps)) return 1;
  return 0;
}
