/* bench/access: what non-contiguous access costs on this machine. f32 data
 * (or another dtype's, --dtype NAME) is copied through strided,
 * transposed, permuted, sliced, reversed and expanded views, each beside
 * memcpy measured in the same run at the same size class, as GB/s and as
 * a ratio to memcpy. The cases count elements: a stride-2 read of u8 steps
 * by 2 bytes, and the shapes hold as many elements as fit in the size.
 *
 * Bytes counted: every element of the copy once read and once written,
 * 2 * numel * element size bytes, whatever its stride (cache lines dragged
 * in but not used are the cost being shown, so they are not counted).
 * memcpy counts the same way: 2 * size bytes.
 *
 * Size class S: the footprint of the largest tensor a case touches. The
 * contiguous, transpose, permute and expand cases copy S bytes into S
 * bytes. A stride-s read takes every s-th float of an S-byte source into an
 * S/s-byte destination (a strided write the reverse), so at stride >= 16
 * (one float per 64-byte line) it pays for S bytes of lines to move S/s
 * bytes of data; the ratio shows that price. The ratio's base is always
 * memcpy of S bytes into S bytes, one thread per libtensor thread, timed
 * in turn with the case sample by sample: the bandwidth of our shared
 * machines drifts by a fifth within a minute, so a memcpy measured once
 * before 28 cases made the later ratios wander with it. Beside each
 * median ratio goes the middle half of the samples' ratios (first to
 * third quartile), so that a reader can tell a difference from that
 * drift. Separate runs can differ by more than that: at 1 MiB the same
 * binary's 2-D transpose measured 0.58 (middle half 0.581-0.586) in one
 * run and 0.46 (0.454-0.459) in the next, a minute apart, and eight
 * buffer pairs in one process all measured alike, so it is the machine's
 * state that moved, not where the buffers lie. --only TEXT runs the
 * cases whose name contains TEXT.
 *
 * The (read only) row reads the S-byte source and writes nothing,
 * counting the S bytes read: how fast this core (or these threads) reads
 * memory alone, as a ratio to memcpy. A case that must pull every line of
 * an S-byte source can go no faster, so that row bounds the others: the
 * slice with step 2 counts S bytes (S/2 read, S/2 written) and so can
 * reach its ratio at most, a strided read with s <= 16 counts 2S/s and
 * can reach 2/s of it. (It is a ceiling that writes nothing: a copy's
 * writes take some of the same core's time.)
 *
 * --permute P0,P1,.. --shape S0,S1,.. times one case of the user's own
 * instead: lt_copy of a row-major tensor of that shape, permuted, beside
 * memcpy of as many bytes (the size column rounds them to MiB; --json
 * gives them exactly).
 *
 * --rounds R goes through the cases R times, reps samples of each a
 * round, and gives each case's figures over all its samples: on such a
 * machine the rounds spread every case over the run's changes of state
 * instead of leaving one case to one of them.
 *
 * Usage: bench_access [--json] [--alloc] [--sizes MIB,MIB,..] [--reps N]
 *                     [--rounds R] [--threads N] [--only TEXT] [--dtype NAME]
 *                     [--permute P0,P1,.. --shape S0,S1,..]
 * Default: lt_copy into a preallocated, already touched destination. With
 * --alloc each call is lt_contiguous plus lt_release (allocation, page
 * faults and free included); strided writes have no --alloc form. */
#include <libtensor.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure.h"

#define MAX_REPS MEASURE_MAX_REPS
#define MAX_SIZES 8
#define MAX_THREADS MEASURE_MAX_THREADS

typedef enum case_kind { READ_ONLY, CONTIGUOUS, STRIDED_READ, STRIDED_WRITE, PERMUTE, LAST_DIM_STEP, EXPAND } case_kind;

typedef struct bench_case {
  const char *name;
  case_kind kind;
  int64_t step; /* STRIDED_*: elements between accesses; LAST_DIM_STEP: slice step */
  int ndim;     /* PERMUTE: 2, 3 or 4; the user's case (--permute): up to LT_MAX_DIMS */
  int perm[LT_MAX_DIMS];
  int64_t shape[LT_MAX_DIMS]; /* the user's case: its shape; the others: zeros (shaped by the size) */
} bench_case;

static const bench_case cases[] = {
    {"(read only)", READ_ONLY, 1, 0, {0}, {0}},
    {"contiguous", CONTIGUOUS, 1, 0, {0}, {0}},
    {"strided read s=1", STRIDED_READ, 1, 0, {0}, {0}},
    {"strided read s=2", STRIDED_READ, 2, 0, {0}, {0}},
    {"strided read s=4", STRIDED_READ, 4, 0, {0}, {0}},
    {"strided read s=8", STRIDED_READ, 8, 0, {0}, {0}},
    {"strided read s=16", STRIDED_READ, 16, 0, {0}, {0}},
    {"strided read s=32", STRIDED_READ, 32, 0, {0}, {0}},
    {"strided read s=64", STRIDED_READ, 64, 0, {0}, {0}},
    {"strided write s=1", STRIDED_WRITE, 1, 0, {0}, {0}},
    {"strided write s=2", STRIDED_WRITE, 2, 0, {0}, {0}},
    {"strided write s=4", STRIDED_WRITE, 4, 0, {0}, {0}},
    {"strided write s=8", STRIDED_WRITE, 8, 0, {0}, {0}},
    {"strided write s=16", STRIDED_WRITE, 16, 0, {0}, {0}},
    {"strided write s=32", STRIDED_WRITE, 32, 0, {0}, {0}},
    {"strided write s=64", STRIDED_WRITE, 64, 0, {0}, {0}},
    {"transpose 2-D", PERMUTE, 1, 2, {1, 0}, {0}},
    {"permute 3-D (0,1,2)", PERMUTE, 1, 3, {0, 1, 2}, {0}},
    {"permute 3-D (0,2,1)", PERMUTE, 1, 3, {0, 2, 1}, {0}},
    {"permute 3-D (1,0,2)", PERMUTE, 1, 3, {1, 0, 2}, {0}},
    {"permute 3-D (1,2,0)", PERMUTE, 1, 3, {1, 2, 0}, {0}},
    {"permute 3-D (2,0,1)", PERMUTE, 1, 3, {2, 0, 1}, {0}},
    {"permute 3-D (2,1,0)", PERMUTE, 1, 3, {2, 1, 0}, {0}},
    {"permute BHTD (0,2,1,3)", PERMUTE, 1, 4, {0, 2, 1, 3}, {0}},
    {"permute BHTD (0,2,3,1)", PERMUTE, 1, 4, {0, 2, 3, 1}, {0}},
    {"permute BHTD (0,3,1,2)", PERMUTE, 1, 4, {0, 3, 1, 2}, {0}},
    {"permute BHTD (3,2,1,0)", PERMUTE, 1, 4, {3, 2, 1, 0}, {0}},
    {"last dim step 2", LAST_DIM_STEP, 2, 0, {0}, {0}},
    {"last dim reversed", LAST_DIM_STEP, -1, 0, {0}, {0}},
    {"expand [1,N]->[M,N]", EXPAND, 1, 0, {0}, {0}},
};
#define NUM_CASES ((int)(sizeof cases / sizeof cases[0]))

typedef struct options {
  bool json, alloc;
  lt_dtype dtype;
  const char *only; /* run only the cases whose name holds this */
  int reps, rounds, threads, nsizes;
  int64_t sizes_mib[MAX_SIZES];
  bench_case user; /* --permute and --shape: user.ndim > 0 */
  int user_shape_dims;
  char user_name[256];
} options;

/* One case's figures: its GB/s and its ratio to memcpy (the median, and
 * the first and third quartiles, of the samples' ratios), with the GB/s of
 * the memcpy samples taken in turn with its own (measure_paired). */
typedef struct case_figures {
  double gbs, memcpy_gbs, ratio, ratio_q1, ratio_q3;
} case_figures;

/* One case's samples, from every round so far, and the bytes it counts
 * per call. */
typedef struct case_samples {
  measure_samples s;
  double bytes;
} case_samples;

/* ---- the libtensor operations ------------------------------------------- */

/* lt_contiguous hands back a contiguous source itself; lt_clone makes those
 * cases still copy, so every case measures one materialisation. */
static int alloc_batch(void *ctx, int k) {
  const lt_tensor *src = ctx;
  for (int i = 0; i < k; i++) {
    lt_tensor *t = lt_is_contiguous(src) ? lt_clone(src) : lt_contiguous(src);
    if (!t) return -1;
    lt_release(t);
  }
  return 0;
}

/* ---- case geometry ------------------------------------------------------- */

/* The source view a case reads (*from) and the destination it writes (*to),
 * over the 1-D n-element tensors src and dst. */
static lt_status case_views(const bench_case *c, lt_tensor *src, lt_tensor *dst, lt_tensor **from,
                            lt_tensor **to) {
  int64_t n = lt_numel(src), shape[LT_MAX_DIMS];
  lt_tensor *base = NULL;
  *from = *to = NULL;
  switch (c->kind) {
  case READ_ONLY: /* no views: sample_read_only times it */
    break;
  case CONTIGUOUS:
    *from = measure_prefix(src, 1, &n);
    break;
  case STRIDED_READ:
    *from = lt_slice(src, 0, LT_NONE, LT_NONE, c->step);
    break;
  case STRIDED_WRITE:
    *to = lt_slice(dst, 0, LT_NONE, LT_NONE, c->step);
    if (*to) *from = measure_prefix(src, 1, lt_shape(*to));
    break;
  case PERMUTE:
    if (c->shape[0] > 0) memcpy(shape, c->shape, sizeof c->shape);
    else measure_permute_shape(c->ndim, n, shape);
    base = measure_prefix(src, c->ndim, shape);
    if (base) *from = lt_permute(base, c->perm);
    break;
  case LAST_DIM_STEP:
    measure_matrix_shape(n, shape);
    base = measure_prefix(src, 2, shape);
    if (base) *from = lt_slice(base, 1, LT_NONE, LT_NONE, c->step);
    break;
  case EXPAND:
    measure_matrix_shape(n, shape);
    base = measure_prefix(src, 2, (int64_t[2]){1, shape[1]});
    if (base) *from = lt_expand(base, 2, shape);
    break;
  }
  lt_release(base);
  if (*from && !*to) *to = measure_prefix(dst, lt_ndim(*from), lt_shape(*from));
  if (*from && *to) return LT_OK;
  lt_release(*from);
  lt_release(*to);
  *from = *to = NULL;
  return lt_last_status();
}

/* ---- one size class ------------------------------------------------------ */

static void report(const options *o, const bench_case *c, int64_t bytes, case_figures f) {
  double mib = (double)bytes / (1 << 20);
  if (o->json)
    printf("{\"bench\":\"access\",\"mode\":\"%s\",\"dtype\":\"%s\",\"case\":\"%s\",\"size_bytes\":%lld,"
           "\"threads\":%d,\"rounds\":%d,\"gbs\":%.3f,\"memcpy_gbs\":%.3f,\"ratio\":%.4f,\"ratio_q1\":%.4f,"
           "\"ratio_q3\":%.4f}\n",
           o->alloc ? "alloc" : "copy", lt_dtype_name(o->dtype), c ? c->name : "memcpy", (long long)bytes,
           o->threads, o->rounds, f.gbs, f.memcpy_gbs, f.ratio, f.ratio_q1, f.ratio_q3);
  else
    printf("%-24s %5.0f MiB %9.2f %9.3f  %5.3f-%5.3f %9.2f\n", c ? c->name : "(memcpy)", mib, f.gbs, f.ratio,
           f.ratio_q1, f.ratio_q3, f.memcpy_gbs);
  fflush(stdout);
}

/* The read-only row, beside memcpy m: m's source read and nothing
 * written, counting the bytes read. */
static bool sample_read_only(const options *o, measure_memcpy *m, case_samples *cs) {
  measure_memcpy read = {NULL, m->src, m->bytes, m->threads};
  cs->bytes = (double)m->bytes;
  if (!measure_paired_into(measure_memcpy_batch, &read, measure_memcpy_batch, m, o->reps, &cs->s)) return true;
  fprintf(stderr, "\nbench_access: (read only): could not time it");
  return false;
}

/* Times one case beside memcpy m, adding o->reps samples to *cs; false
 * with the error printed. */
static bool sample_case(const options *o, const bench_case *c, lt_tensor *src, lt_tensor *dst, measure_memcpy *m,
                        case_samples *cs) {
  if (c->kind == READ_ONLY) return sample_read_only(o, m, cs);
  lt_tensor *from, *to;
  if (case_views(c, src, dst, &from, &to) != LT_OK) {
    fprintf(stderr, "\nbench_access: %s: %s", c->name, lt_last_error());
    return false;
  }
  measure_copy copy = {to, from};
  int rc = o->alloc ? measure_paired_into(alloc_batch, from, measure_memcpy_batch, m, o->reps, &cs->s)
                    : measure_paired_into(measure_copy_batch, &copy, measure_memcpy_batch, m, o->reps, &cs->s);
  if (rc) fprintf(stderr, "\nbench_access: %s: %s", c->name, lt_last_error());
  cs->bytes = 2.0 * (double)lt_numel(from) * (double)lt_dtype_size(o->dtype);
  lt_release(from);
  lt_release(to);
  return rc == 0;
}

static case_figures figures_of(const case_samples *cs, const measure_memcpy *m) {
  measure_pair p = measure_pair_of(&cs->s);
  double memcpy_bytes = 2.0 * (double)m->bytes;
  double scale = cs->bytes / memcpy_bytes; /* a time ratio into a ratio of GB/s */
  return (case_figures){cs->bytes / p.seconds / 1e9, memcpy_bytes / p.base_seconds / 1e9, p.speed * scale,
                        p.speed_q1 * scale, p.speed_q3 * scale};
}

/* The bytes of the f32 tensor t as a 1-D tensor of dtype dt, without a
 * copy: t must outlive it. */
static lt_tensor *as_dtype(lt_tensor *t, lt_dtype dt) {
  int64_t n = lt_numel(t) * 4 / (int64_t)lt_dtype_size(dt);
  return lt_wrap(lt_data(t), dt, 1, &n, NULL, LT_HOST, NULL, NULL);
}

/* The cases (ncases of them from list) over buffers of bytes each, a
 * multiple of 4. */
static int run_size(const options *o, int64_t bytes, const bench_case *list, int ncases) {
  int64_t n = bytes / 4;
  int rc = 1;
  fprintf(stderr, "bench_access: %.0f MiB ", (double)bytes / (1 << 20));
  case_samples *samples = calloc((size_t)ncases, sizeof *samples);
  lt_tensor *src = samples ? measure_touched_f32(n, true) : NULL, *dst = src ? measure_touched_f32(n, false) : NULL;
  lt_tensor *src_as = dst ? as_dtype(src, o->dtype) : NULL, *dst_as = src_as ? as_dtype(dst, o->dtype) : NULL;
  if (!dst_as) {
    fprintf(stderr, "%s", samples ? lt_last_error() : "out of memory");
    goto done;
  }
  measure_memcpy m = {lt_data(dst), lt_data(src), (size_t)n * 4, o->threads};
  double mt = measure_seconds_per_call(measure_memcpy_batch, &m, o->reps);
  if (mt < 0) {
    fprintf(stderr, "could not start the memcpy threads");
    goto done;
  }
  double mem_gbs = 2.0 * (double)m.bytes / mt / 1e9;
  report(o, NULL, bytes, (case_figures){mem_gbs, mem_gbs, 1.0, 1.0, 1.0});
  /* Round by round through the cases, so that each case's samples span
   * the whole run; a case's row comes with its last round. */
  for (int round = 0; round < o->rounds; round++)
    for (int i = 0; i < ncases; i++) {
      if (o->alloc && list[i].kind == STRIDED_WRITE) continue;
      if (o->only && !strstr(list[i].name, o->only)) continue;
      fputc('.', stderr);
      if (!sample_case(o, &list[i], src_as, dst_as, &m, &samples[i])) goto done;
      if (round == o->rounds - 1) report(o, &list[i], bytes, figures_of(&samples[i], &m));
    }
  rc = 0;
done:
  fputc('\n', stderr);
  free(samples);
  lt_release(src_as);
  lt_release(dst_as);
  lt_release(src);
  lt_release(dst);
  return rc;
}

/* ---- command line -------------------------------------------------------- */

/* A comma-separated list of at most max integers in [lo, hi]; their count,
 * or -1. */
static int parse_list(const char *s, int64_t *out, int max, int64_t lo, int64_t hi) {
  for (int k = 0;;) {
    char *end;
    long long v = strtoll(s, &end, 10);
    if (end == s || v < lo || v > hi || k == max) return -1;
    out[k++] = v;
    if (*end == '\0') return k;
    if (*end != ',') return -1;
    s = end + 1;
  }
}

static bool parse_sizes(const char *s, options *o) {
  o->nsizes = parse_list(s, o->sizes_mib, MAX_SIZES, 1, 65536);
  return o->nsizes > 0;
}

/* --permute and --shape together make the user's case: a permutation of
 * the shape's dims, named after both, of at most USER_MAX_ELEMENTS
 * elements. */
#define USER_MAX_ELEMENTS ((int64_t)1 << 36)

static bool user_case(options *o, const int64_t *perm, int nperm) {
  bench_case *c = &o->user;
  if (nperm != o->user_shape_dims) return false;
  int64_t numel = 1;
  for (int d = 0; d < nperm; d++)
    if ((numel *= c->shape[d]) > USER_MAX_ELEMENTS) return false;
  bool seen[LT_MAX_DIMS] = {false};
  int at = snprintf(o->user_name, sizeof o->user_name, "permute (");
  for (int d = 0; d < nperm; d++) {
    if (perm[d] >= nperm || seen[perm[d]]) return false;
    seen[perm[d]] = true;
    c->perm[d] = (int)perm[d];
    at += snprintf(o->user_name + at, sizeof o->user_name - (size_t)at, d ? ",%d" : "%d", c->perm[d]);
  }
  at += snprintf(o->user_name + at, sizeof o->user_name - (size_t)at, ") of [");
  for (int d = 0; d < nperm; d++)
    at += snprintf(o->user_name + at, sizeof o->user_name - (size_t)at, d ? ",%lld" : "%lld", (long long)c->shape[d]);
  snprintf(o->user_name + at, sizeof o->user_name - (size_t)at, "]");
  c->name = o->user_name, c->kind = PERMUTE, c->step = 1, c->ndim = nperm;
  return true;
}

static bool parse_dtype(const char *s, lt_dtype *dt) {
  for (int d = 0; d < LT_NUM_DTYPES; d++)
    if (!strcmp(s, lt_dtype_name((lt_dtype)d))) return *dt = (lt_dtype)d, true;
  return false;
}

static bool parse_args(int argc, char **argv, options *o) {
  *o = (options){.dtype = LT_F32, .reps = 5, .rounds = 1, .threads = 1, .nsizes = 3, .sizes_mib = {1, 64, 512}};
  int64_t perm[LT_MAX_DIMS];
  int nperm = 0;
  for (int i = 1; i < argc; i++) {
    bool more = i + 1 < argc;
    if (!strcmp(argv[i], "--json")) o->json = true;
    else if (!strcmp(argv[i], "--alloc")) o->alloc = true;
    else if (!strcmp(argv[i], "--only") && more) o->only = argv[++i];
    else if (!strcmp(argv[i], "--dtype") && more) {
      if (!parse_dtype(argv[++i], &o->dtype)) return false;
    }
    else if (!strcmp(argv[i], "--reps") && more) o->reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--rounds") && more) o->rounds = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--threads") && more) o->threads = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--sizes") && more) {
      if (!parse_sizes(argv[++i], o)) return false;
    } else if (!strcmp(argv[i], "--permute") && more) {
      if ((nperm = parse_list(argv[++i], perm, LT_MAX_DIMS, 0, LT_MAX_DIMS - 1)) < 1) return false;
    } else if (!strcmp(argv[i], "--shape") && more) {
      if ((o->user_shape_dims = parse_list(argv[++i], o->user.shape, LT_MAX_DIMS, 1, (int64_t)1 << 40)) < 1)
        return false;
    } else return false;
  }
  if ((nperm || o->user_shape_dims) && !user_case(o, perm, nperm)) return false;
  return o->reps >= 1 && o->reps <= MAX_REPS && o->rounds >= 1 && o->rounds <= MEASURE_MAX_SAMPLES / o->reps &&
         o->threads >= 1 && o->threads <= MAX_THREADS;
}

int main(int argc, char **argv) {
  options o;
  if (!parse_args(argc, argv, &o))
    return fprintf(stderr,
                   "usage: %s [--json] [--alloc] [--sizes MIB,MIB,..] [--reps 1..%d] [--rounds N] [--threads 1..%d]"
                   " [--only TEXT]\n       [--dtype f32|f16|bf16|f8_e4m3|f8_e5m2|f64|i32|i64|u8|bool]"
                   " [--permute P0,P1,.. --shape S0,S1,..]\n"
                   "(rounds x reps at most %d)\n",
                   argv[0], MAX_REPS, MAX_THREADS, MEASURE_MAX_SAMPLES),
           2;
  /* libtensor gets as many threads as the memcpy it is compared with. */
  if (lt_set_num_threads(o.threads) != LT_OK) return fprintf(stderr, "%s\n", lt_last_error()), 1;
  if (!o.json)
    printf("access costs, %s, %s, %d thread%s, median of %d samples (%d round%s through the cases) after a warm-up\n"
           "GB/s = (bytes read + bytes written) / s, each element counted once, whatever its stride;\n"
           "strided s=k moves size/k bytes out of (or into) a buffer of size bytes, stepping k elements;\n"
           "ratio = median over samples of GB/s / GB/s of memcpy of size bytes, the two timed in turn;\n"
           "middle half = the first to the third quartile of those samples' ratios;\n"
           "memcpy = GB/s of those memcpy samples (the first row: memcpy alone, before the cases)\n\n"
           "%-24s %9s %9s %9s  %11s %9s\n",
           lt_dtype_name(o.dtype),
           o.alloc ? "lt_contiguous (allocation included)" : "lt_copy into a preallocated destination", o.threads,
           o.threads > 1 ? "s" : "", o.reps * o.rounds, o.rounds, o.rounds > 1 ? "s" : "", "case", "size", "GB/s",
           "ratio", "middle half", "memcpy");
  if (o.user.ndim > 0) {
    /* the user's tensor's bytes, in whole 4-byte words (the buffers are f32's) */
    int64_t bytes = (int64_t)lt_dtype_size(o.dtype);
    for (int d = 0; d < o.user.ndim; d++) bytes *= o.user.shape[d];
    if (run_size(&o, (bytes + 3) / 4 * 4, &o.user, 1)) return 1;
  }
  for (int i = 0; i < o.nsizes && o.user.ndim == 0; i++)
    if (run_size(&o, o.sizes_mib[i] << 20, cases, NUM_CASES)) return 1;
  int64_t held = lt_stats_get(LT_HOST).bytes_in_use;
  if (held != 0) return fprintf(stderr, "bench_access: %lld bytes still held at exit\n", (long long)held), 1;
  return 0;
}
