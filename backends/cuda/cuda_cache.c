/* The caching allocator behind CUDA storage. cudaMalloc and cudaFree
 * synchronise the device and cost tens of microseconds, so released blocks
 * wait in per-device, per-size-class free lists for the next request of
 * their class. All of the library's work runs on each device's legacy
 * default stream, in order, so a block released while a kernel that used
 * it is still queued is only handed to work queued after that kernel.
 * When cudaMalloc fails, the device's cached blocks go back to the driver
 * and the allocation is tried once more. lt_stats counts storage in use
 * (storage.c); cached blocks are not in it. */
#include <pthread.h>
#include <stdbool.h>

#include <cuda_runtime_api.h>

#include "alloc.h"
#include "cuda_backend.h"
#include "error.h"

#define MAX_DEVICES 16
/* Classes: 512 bytes, then 2^k * {5/4, 6/4, 7/4, 2} for k = 9..61. */
#define MIN_CLASS 512
#define NUM_CLASSES (1 + 4 * 53)

typedef struct node {
  void *p;
  struct node *next;
} node;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static node *lists[MAX_DEVICES][NUM_CLASSES];
static size_t cached[MAX_DEVICES];

/* Class index of nbytes and its size; false when no class holds it. */
static bool classify(size_t nbytes, int *cls, size_t *size) {
  if (nbytes <= MIN_CLASS) {
    *cls = 0, *size = MIN_CLASS;
    return true;
  }
  int k = 63 - __builtin_clzll((unsigned long long)(nbytes - 1)); /* 2^k < nbytes <= 2^(k+1) */
  if (k >= 62) return false;
  size_t base = (size_t)1 << k, quarter = base / 4;
  size_t q = (nbytes - base + quarter - 1) / quarter; /* 1..4 */
  *cls = 1 + (k - 9) * 4 + (int)(q - 1);
  *size = base + q * quarter;
  return true;
}

size_t lt__cuda_class_size(size_t nbytes) {
  int cls;
  size_t size;
  return classify(nbytes, &cls, &size) ? size : 0;
}

/* Hands every cached block of device index back to the driver. */
static void release_cached(int index) {
  pthread_mutex_lock(&lock);
  node *chain = NULL;
  for (int c = 0; c < NUM_CLASSES; c++) {
    while (lists[index][c]) {
      node *n = lists[index][c];
      lists[index][c] = n->next;
      n->next = chain;
      chain = n;
    }
  }
  cached[index] = 0;
  pthread_mutex_unlock(&lock);
  while (chain) {
    node *n = chain;
    chain = n->next;
    (void)cudaFree(n->p);
    lt__free(n, sizeof *n, _Alignof(node));
  }
}

void *lt__cuda_cache_alloc(int index, size_t nbytes) {
  int cls;
  size_t size;
  if (index < 0 || index >= MAX_DEVICES || !classify(nbytes, &cls, &size)) return NULL;
  pthread_mutex_lock(&lock);
  node *n = lists[index][cls];
  if (n) {
    lists[index][cls] = n->next;
    cached[index] -= size;
  }
  pthread_mutex_unlock(&lock);
  if (n) {
    void *p = n->p;
    lt__free(n, sizeof *n, _Alignof(node));
    return p;
  }
  void *p = NULL;
  if (cudaMalloc(&p, size) == cudaSuccess) return p;
  (void)cudaGetLastError();
  release_cached(index);
  if (cudaMalloc(&p, size) == cudaSuccess) return p;
  (void)cudaGetLastError();
  return NULL;
}

void lt__cuda_cache_free(int index, void *p, size_t nbytes) {
  int cls;
  size_t size;
  if (!p) return;
  node *n = lt__alloc(sizeof *n, _Alignof(node));
  if (!n || index < 0 || index >= MAX_DEVICES || !classify(nbytes, &cls, &size)) {
    /* No room to remember the block: it goes straight back. */
    if (n) lt__free(n, sizeof *n, _Alignof(node));
    (void)cudaFree(p);
    return;
  }
  n->p = p;
  pthread_mutex_lock(&lock);
  n->next = lists[index][cls];
  lists[index][cls] = n;
  cached[index] += size;
  pthread_mutex_unlock(&lock);
}

int64_t lt__cuda_cached_bytes(int index) {
  if (index < 0 || index >= MAX_DEVICES) return 0;
  pthread_mutex_lock(&lock);
  size_t n = cached[index];
  pthread_mutex_unlock(&lock);
  return (int64_t)n;
}

void *lt__cuda_scratch(int index, size_t nbytes, const char *op) {
  void *p = lt__cuda_cache_alloc(index, nbytes);
  if (!p) lt__fail(LT_ERR_NOMEM, "%s: cannot allocate %zu bytes of scratch on cuda:%d", op, nbytes, index);
  return p;
}
