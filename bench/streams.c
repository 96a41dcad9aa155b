/* bench/streams: what reading many streams at once costs. A copy that
 * gathers from many places of its source (the 48 (h, b) planes of a BHTD
 * tensor permuted to (3,2,1,0), the rows of a tall transpose) reads them
 * as that many streams, a run of each in turn. This reads a source of
 * --mib MiB (512 by default) the same way, split into k planes of which each visit takes
 * `run` bytes (memcpy into a small buffer that stays in L1, as the
 * grouped transpose's gather does), for k from 1 to 64 and runs from
 * 512 bytes to 64 KiB, beside memcpy of the whole source timed in turn.
 *
 * Bytes counted: the source's, once (a read, nothing written back), so
 * the ratio to memcpy (which counts its reads and its writes) says what
 * share of the copy bandwidth reading alone gets: a copy whose reads and
 * writes take turns rather than overlap runs at most at
 * 1 / (1 / read + 1 / write) of that.
 *
 * A case whose planes are shorter than its run (a small --mib) is shown
 * as skipped rather than timed on nothing.
 *
 * Usage: bench_streams [--mib 1..65536] [--reps N] */
#include <libtensor.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure.h"

/* The largest run goes to the buffer in pieces of this size. */
enum { PIECE_BYTES = 4096, MAX_MIB = 65536 };

typedef struct streams_case {
  const char *src;
  size_t bytes; /* of the source */
  int streams;
  size_t run; /* bytes of a plane per visit */
} streams_case;

/* Each copy's first byte is read back into `kept`, so that no copy into
 * the buffer is a dead store the compiler could drop. */
static _Alignas(64) char sink[PIECE_BYTES];
static volatile unsigned kept;

/* Whole runs of each plane only: the bytes read are plane * streams. */
static size_t plane_bytes(const streams_case *c) { return c->bytes / (size_t)c->streams / c->run * c->run; }

static int read_streams(void *ctx, int k) {
  const streams_case *c = ctx;
  size_t plane = plane_bytes(c);
  unsigned acc = 0;
  for (int call = 0; call < k; call++)
    for (size_t at = 0; at < plane; at += c->run)
      for (int s = 0; s < c->streams; s++) {
        const char *p = c->src + (size_t)s * plane + at;
        for (size_t i = 0; i < c->run; i += PIECE_BYTES) {
          memcpy(sink, p + i, c->run - i < PIECE_BYTES ? c->run - i : PIECE_BYTES);
          acc += (unsigned char)sink[0];
        }
      }
  kept = acc;
  return 0;
}

static int parse_args(int argc, char **argv, int64_t *mib, int *reps) {
  for (int i = 1; i < argc; i++) {
    if (i + 1 < argc && strcmp(argv[i], "--mib") == 0) *mib = atoll(argv[++i]);
    else if (i + 1 < argc && strcmp(argv[i], "--reps") == 0) *reps = atoi(argv[++i]);
    else return -1;
  }
  return *mib >= 1 && *mib <= MAX_MIB && *reps >= 1 && *reps <= MEASURE_MAX_REPS ? 0 : -1;
}

int main(int argc, char **argv) {
  int64_t mib = 512;
  int reps = 5;
  if (parse_args(argc, argv, &mib, &reps)) {
    fprintf(stderr, "usage: %s [--mib 1..%d] [--reps 1..%d]\n", argv[0], MAX_MIB, MEASURE_MAX_REPS);
    return 2;
  }
  int64_t n = mib * (1 << 20) / 4;
  lt_tensor *src = measure_touched_f32(n, true), *dst = measure_touched_f32(n, false);
  if (!src || !dst) {
    fprintf(stderr, "bench_streams: %s\n", lt_last_error());
    lt_release(src);
    lt_release(dst);
    return 1;
  }
  measure_memcpy m = {lt_data(dst), lt_data(src), (size_t)n * 4, 1};
  static const int streams[] = {1, 4, 8, 16, 32, 48, 64};
  static const size_t runs[] = {512, 4096, 16384, 65536};
  printf("GB/s = bytes read / s; ratio = median over samples of GB/s / GB/s of memcpy (reads + writes),\n"
         "the two timed in turn, %lld MiB, one thread\n",
         (long long)mib);
  printf("%8s %8s %9s %9s %9s\n", "streams", "run", "GB/s", "ratio", "memcpy");
  int rc = 0;
  for (size_t r = 0; r < sizeof runs / sizeof *runs && !rc; r++)
    for (size_t s = 0; s < sizeof streams / sizeof *streams; s++) {
      streams_case c = {lt_data(src), (size_t)n * 4, streams[s], runs[r]};
      if (plane_bytes(&c) == 0) {
        printf("%8d %7zuB   skipped: planes shorter than a run\n", c.streams, c.run);
        continue;
      }
      measure_pair p;
      if (measure_paired(read_streams, &c, measure_memcpy_batch, &m, reps, &p)) {
        rc = 1;
        break;
      }
      double read = (double)(plane_bytes(&c) * (size_t)c.streams);
      printf("%8d %7zuB %9.2f %9.3f %9.2f\n", c.streams, c.run, read / p.seconds / 1e9,
             p.speed * read / (2.0 * (double)m.bytes), 2.0 * (double)m.bytes / p.base_seconds / 1e9);
      fflush(stdout);
    }
  lt_release(src);
  lt_release(dst);
  return rc;
}
