/* The pattern cache: a small array of refcounted entries under one mutex,
 * evicting the least recently used. Entries are immutable once built, so
 * callers use them outside the lock; an evicted entry lives until its last
 * user releases it. */
#include "cache.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "alloc.h"
#include "libtensor/rearrange.h"

#define SLOTS 64

struct lt__cached_pattern {
  atomic_int refs;   /* the cache's own reference plus one per user */
  lt__pattern_op op;
  uint64_t hash, stamp;
  lt__ast ast;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static lt__cached_pattern *slots[SLOTS];
static uint64_t clock_now;

static uint64_t hash_of(const char *s, lt__pattern_op op) {
  uint64_t h = 1469598103934665603ull ^ (uint64_t)op; /* FNV-1a */
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

void lt__pattern_release(lt__cached_pattern *c) {
  if (c && atomic_fetch_sub(&c->refs, 1) == 1) lt__free(c, sizeof *c, _Alignof(lt__cached_pattern));
}

const lt__ast *lt__pattern_ast(const lt__cached_pattern *c) { return &c->ast; }

static lt__cached_pattern *lookup(const char *pattern, lt__pattern_op op, uint64_t h) {
  for (int i = 0; i < SLOTS; i++) {
    lt__cached_pattern *c = slots[i];
    if (c && c->hash == h && c->op == op && !strcmp(c->ast.text, pattern)) {
      c->stamp = ++clock_now;
      atomic_fetch_add(&c->refs, 1);
      return c;
    }
  }
  return NULL;
}

/* Puts c in the empty or least recently used slot (lock held). */
static void insert(lt__cached_pattern *c) {
  int victim = 0;
  for (int i = 0; i < SLOTS; i++) {
    if (!slots[i]) { victim = i; break; }
    if (slots[i]->stamp < slots[victim]->stamp) victim = i;
  }
  lt__pattern_release(slots[victim]);
  c->stamp = ++clock_now;
  atomic_fetch_add(&c->refs, 1);
  slots[victim] = c;
}

lt__cached_pattern *lt__pattern_acquire(const char *pattern, lt__pattern_op op, lt__pattern_error *err) {
  uint64_t h = hash_of(pattern, op);
  pthread_mutex_lock(&lock);
  lt__cached_pattern *c = lookup(pattern, op, h);
  pthread_mutex_unlock(&lock);
  if (c) return c;
  c = lt__alloc(sizeof *c, _Alignof(lt__cached_pattern));
  if (!c) {
    lt__pattern_fail(err, LT_ERR_NOMEM, -1, "out of memory for the parsed pattern");
    return NULL;
  }
  atomic_init(&c->refs, 1);
  c->op = op;
  c->hash = h;
  if (!lt__parse_pattern(pattern, &c->ast, err) || !lt__check_ast(&c->ast, op, err)) {
    lt__pattern_release(c);
    return NULL;
  }
  pthread_mutex_lock(&lock);
  lt__cached_pattern *raced = lookup(pattern, op, h); /* another thread may have parsed it meanwhile */
  if (raced) {
    pthread_mutex_unlock(&lock);
    lt__pattern_release(c);
    return raced;
  }
  insert(c);
  pthread_mutex_unlock(&lock);
  return c;
}

LT_API void lt_pattern_cache_clear(void) {
  pthread_mutex_lock(&lock);
  for (int i = 0; i < SLOTS; i++) {
    lt__pattern_release(slots[i]);
    slots[i] = NULL;
  }
  pthread_mutex_unlock(&lock);
}
