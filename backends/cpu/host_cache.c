/* The caching allocator behind host storage: size classes, one free list
 * per class plus one list of every cached block by age, a bound on the
 * bytes held, and one mutex (a lock round trip is tens of nanoseconds,
 * far below the microsecond a small copy may cost). */
#define _GNU_SOURCE /* sysconf(_SC_PHYS_PAGES) */
#include "host_cache.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "alloc.h"
#include "error.h"
#include "libtensor/stats.h"

/* Under AddressSanitizer a cached block is poisoned past its list links,
 * so a use of storage after its tensor's release is still reported. */
#if defined(__SANITIZE_ADDRESS__)
#define CACHE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CACHE_ASAN 1
#endif
#endif
#ifdef CACHE_ASAN
#include <sanitizer/asan_interface.h>
#else
#define ASAN_POISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
#define ASAN_UNPOISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
#endif

/* Below this the default bound does not go: a working set of a few tensors
 * of up to 64 MiB (a quarter) still reuses pages on a small machine. */
#define MIN_DEFAULT_LIMIT ((size_t)256 << 20)

/* Classes 0..3: 64, 128, 192, 256 bytes. Then four per k = 8 .. bits-2:
 * 2^k * 5/4, 6/4, 7/4, 8/4 (all multiples of 64), the last being 2^(bits-1). */
#define SIZE_BITS ((int)(sizeof(size_t) * 8))
#define SMALL_CLASSES 4
#define NUM_CLASSES (SMALL_CLASSES + 4 * (SIZE_BITS - 9))

typedef struct node {
  struct node *prev, *next;
} node;

/* Written into the first bytes of a cached block (every class holds at
 * least 64 bytes), so caching allocates nothing. */
typedef struct cached_block {
  node in_class; /* first: a node of a class list is its block */
  node in_age;
  int cls;
} cached_block;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* All below under lock. Lists are circular with sentinels, newest first. */
static bool ready;
static node bins[NUM_CLASSES];
static node by_age;
static size_t cached, limit;

static int class_of(size_t n) {
  if (n <= 256) return n == 0 ? 0 : (int)((n - 1) / 64);
  int k = 63 - __builtin_clzll((unsigned long long)(n - 1)); /* 2^k < n <= 2^(k+1) */
  if (k > SIZE_BITS - 2) return -1;
  size_t q = (n - 1) / ((size_t)1 << (k - 2)) + 1; /* n in quarters of 2^k, rounded up: 5..8 */
  return SMALL_CLASSES + 4 * (k - 8) + (int)(q - 5);
}

static size_t class_size(int c) {
  if (c < SMALL_CLASSES) return (size_t)64 * (size_t)(c + 1);
  int k = 8 + (c - SMALL_CLASSES) / 4;
  return (size_t)(5 + (c - SMALL_CLASSES) % 4) << (k - 2);
}

size_t lt__host_cache_class_size(size_t nbytes) {
  int c = class_of(nbytes);
  return c < 0 ? 0 : class_size(c);
}

/* LT_CACHE_LIMIT (bytes) from the environment, else an eighth of physical
 * memory: idle memory a library may keep from other processes without
 * being asked, yet enough for a few large tensors to recycle. */
static size_t default_limit(void) {
  const char *e = getenv("LT_CACHE_LIMIT");
  if (e && *e) {
    char *end;
    unsigned long long v = strtoull(e, &end, 10);
    if (*end == '\0') return (size_t)v;
  }
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  size_t eighth = pages > 0 && page > 0 ? (size_t)pages / 8 * (size_t)page : 0;
  return eighth > MIN_DEFAULT_LIMIT ? eighth : MIN_DEFAULT_LIMIT;
}

/* Lock held. */
static void prepare(void) {
  if (ready) return;
  for (int c = 0; c < NUM_CLASSES; c++) bins[c].prev = bins[c].next = &bins[c];
  by_age.prev = by_age.next = &by_age;
  limit = default_limit();
  ready = true;
}

static void push_front(node *list, node *l) {
  l->prev = list;
  l->next = list->next;
  list->next->prev = l;
  list->next = l;
}

static void unlink_from(node *l) {
  l->prev->next = l->next;
  l->next->prev = l->prev;
}

static cached_block *block_of_age_node(node *l) {
  return (cached_block *)(void *)((char *)l - offsetof(cached_block, in_age));
}

/* Lock held. Takes b out of both lists and the count. */
static void take(cached_block *b) {
  unlink_from(&b->in_class);
  unlink_from(&b->in_age);
  cached -= class_size(b->cls);
}

/* Lock held. Evicts the oldest blocks until at most `bound` bytes stay,
 * chaining them on *out (through in_class.next) to be freed unlocked: the
 * embedder's free must not run under our lock. */
static void trim_to(size_t bound, node **out) {
  while (cached > bound) {
    cached_block *b = block_of_age_node(by_age.prev);
    take(b);
    b->in_class.next = *out;
    *out = &b->in_class;
  }
}

static void free_chain(node *l) {
  while (l) {
    cached_block *b = (cached_block *)(void *)l;
    node *next = l->next;
    size_t size = class_size(b->cls);
    ASAN_UNPOISON_MEMORY_REGION(b, size);
    lt__free(b, size, LT__STORAGE_ALIGN);
    l = next;
  }
}

void *lt__host_cache_alloc(size_t nbytes) {
  int c = class_of(nbytes);
  if (c < 0) return NULL;
  size_t size = class_size(c);
  cached_block *b = NULL;
  pthread_mutex_lock(&lock);
  prepare();
  if (bins[c].next != &bins[c]) {
    b = (cached_block *)(void *)bins[c].next;
    take(b);
  }
  pthread_mutex_unlock(&lock);
  if (!b) return lt__alloc(size, LT__STORAGE_ALIGN);
  ASAN_UNPOISON_MEMORY_REGION(b, size);
  return b;
}

void lt__host_cache_free(void *p, size_t nbytes) {
  int c = class_of(nbytes);
  size_t size = class_size(c);
  node *victims = NULL;
  pthread_mutex_lock(&lock);
  prepare();
  /* A block above a quarter of the bound would flush most of the cache. */
  bool keep = size <= limit / 4;
  if (keep) {
    trim_to(limit - size, &victims);
    cached_block *b = p;
    b->cls = c;
    push_front(&bins[c], &b->in_class);
    push_front(&by_age, &b->in_age);
    cached += size;
    ASAN_POISON_MEMORY_REGION((char *)p + sizeof *b, size - sizeof *b);
  }
  pthread_mutex_unlock(&lock);
  free_chain(victims);
  if (!keep) lt__free(p, size, LT__STORAGE_ALIGN);
}

LT_API void lt_empty_cache(void) {
  node *victims = NULL;
  pthread_mutex_lock(&lock);
  trim_to(0, &victims); /* never prepared means nothing cached */
  pthread_mutex_unlock(&lock);
  free_chain(victims);
  lt__ok();
}

LT_API size_t lt_set_cache_limit(size_t bytes) {
  node *victims = NULL;
  pthread_mutex_lock(&lock);
  prepare();
  size_t old = limit;
  limit = bytes;
  trim_to(bytes, &victims);
  pthread_mutex_unlock(&lock);
  free_chain(victims);
  lt__ok();
  return old;
}

LT_API int64_t lt_cached_bytes(lt_device dev) {
  bool host = dev.kind == LT_CPU && dev.index == 0;
  if (!host && !(dev.kind == LT_CUDA && dev.index >= 0)) {
    lt__fail(LT_ERR_DEVICE, "cached_bytes: no such device (kind %d, index %d)", (int)dev.kind, dev.index);
    return 0;
  }
  size_t n = 0; /* a CUDA device has no cache (yet) */
  if (host) {
    pthread_mutex_lock(&lock);
    n = cached;
    pthread_mutex_unlock(&lock);
  }
  lt__ok();
  return (int64_t)n;
}
