/* The lines where one seamed transpose call's destination rows end and
 * the next call's begin (see lt__transpose_seamed_fn): written whole
 * from the two calls' seams, so that no part of a line is stored plainly
 * between streaming stores. */
#include <string.h>

#include "stream.h"
#include "transpose.h"

/* A row's seams: its first 64-byte segment, then its last. */
enum { SEAM_BYTES = 128, LAST = 64 };

static const char *seams_of(const lt__seam_run *s, int half) { return s->seams + half * s->n * SEAM_BYTES; }

/* The starts of the rows at dst from cur's first segments, after prev's
 * rows where prev is not NULL. */
static void open_rows(const lt__seam_run *s, char *dst, const char *prev, const char *cur) {
  for (int64_t c = 0; c < s->n; c++) {
    char *at = dst + c * s->dld;
    size_t mis = (uintptr_t)at % 64; /* also how far prev's rows end into this line */
    const char *first = cur + c * SEAM_BYTES;
    if (!prev) {
      memcpy(at, first, 64 - mis);
      continue;
    }
    _Alignas(64) char line[64];
    memcpy(line, prev + c * SEAM_BYTES + LAST + 64 - mis, mis);
    memcpy(line + mis, first, 64 - mis);
    lt__stream_copy(at - mis, line, 64);
  }
}

/* The ends of the rows that end at s->end, from the last seamed call's
 * last segments. */
static void close_rows(lt__seam_run *s) {
  const char *prev = seams_of(s, s->cur ^ 1);
  for (int64_t c = 0; c < s->n; c++) {
    char *at = s->end + c * s->dld;
    size_t mis = (uintptr_t)at % 64;
    memcpy(at - mis, prev + c * SEAM_BYTES + LAST + 64 - mis, mis);
  }
  s->end = NULL;
}

void lt__seam_run_step(lt__seam_run *s, char *dst, int64_t bytes, bool seamed) {
  if (s->end && (!seamed || s->end != dst)) close_rows(s);
  if (!seamed) return;
  open_rows(s, dst, s->end ? seams_of(s, s->cur ^ 1) : NULL, seams_of(s, s->cur));
  s->end = dst + bytes;
  s->cur ^= 1;
}

void lt__seam_run_finish(lt__seam_run *s) {
  if (s->end) close_rows(s);
}
