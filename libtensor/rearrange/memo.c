/* The per-thread plan memo: a few slots, replaced round-robin. Thread-local,
 * so it needs no lock and holds no heap memory. */
#include "memo.h"

#include <string.h>

#define SLOTS 8
#define MAX_AXES 8
#define MAX_NAME 32

typedef struct slot {
  bool used;
  lt__pattern_op op;
  int ndim, naxes;
  int64_t shape[LT_MAX_DIMS];
  char names[MAX_AXES][MAX_NAME];
  int64_t sizes[MAX_AXES];
  char pattern[LT__PATTERN_MAX + 1];
  lt__recipe recipe;
} slot;

static _Thread_local slot slots[SLOTS];
static _Thread_local int next_victim;

static bool key_fits(const char *pattern, int naxes, const lt_axis *axes) {
  if (naxes > MAX_AXES || strlen(pattern) > LT__PATTERN_MAX) return false;
  for (int i = 0; i < naxes; i++)
    if (strlen(axes[i].name) >= MAX_NAME) return false;
  return true;
}

static bool matches(const slot *s, const char *pattern, lt__pattern_op op, int ndim, const int64_t *shape,
                    const lt_axis *axes, int naxes) {
  if (!s->used || s->op != op || s->ndim != ndim || s->naxes != naxes) return false;
  if (ndim > 0 && memcmp(s->shape, shape, sizeof(int64_t) * (size_t)ndim)) return false;
  for (int i = 0; i < naxes; i++)
    if (!axes[i].name || s->sizes[i] != axes[i].size || strcmp(s->names[i], axes[i].name)) return false;
  return !strcmp(s->pattern, pattern);
}

bool lt__memo_get(const char *pattern, lt__pattern_op op, int ndim, const int64_t *shape, const lt_axis *axes,
                  int naxes, lt__recipe *r) {
  for (int i = 0; i < SLOTS; i++) {
    if (matches(&slots[i], pattern, op, ndim, shape, axes, naxes)) {
      *r = slots[i].recipe;
      return true;
    }
  }
  return false;
}

void lt__memo_put(const char *pattern, lt__pattern_op op, int ndim, const int64_t *shape, const lt_axis *axes,
                  int naxes, const lt__recipe *r) {
  if (!key_fits(pattern, naxes, axes)) return;
  slot *s = &slots[next_victim];
  next_victim = (next_victim + 1) % SLOTS;
  s->used = true;
  s->op = op;
  s->ndim = ndim;
  s->naxes = naxes;
  if (ndim > 0) memcpy(s->shape, shape, sizeof(int64_t) * (size_t)ndim);
  for (int i = 0; i < naxes; i++) {
    strcpy(s->names[i], axes[i].name);
    s->sizes[i] = axes[i].size;
  }
  strcpy(s->pattern, pattern);
  s->recipe = *r;
}
