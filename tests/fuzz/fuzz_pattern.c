/* libFuzzer target for the einops pattern path: the input's first bytes
 * choose an op, an input shape and axis lengths, the rest is the pattern.
 * Anything may fail; nothing may crash, leak or trip a sanitizer. */
#define _POSIX_C_SOURCE 200112L
#include <libtensor.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Patterns may legitimately ask for huge repeats; an allocator that refuses
 * more than 64 MiB keeps runs fast and exercises the LT_ERR_NOMEM paths. */
static void *capped_alloc(size_t size, size_t align, void *ctx) {
  (void)ctx;
  void *p = NULL;
  if (size > ((size_t)64 << 20)) return NULL;
  return posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size ? size : 1) ? NULL : p;
}

static void capped_free(void *p, size_t size, size_t align, void *ctx) {
  (void)size, (void)align, (void)ctx;
  free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const lt_allocator capped = {capped_alloc, capped_free, NULL};
  lt_set_allocator(&capped);
  if (size < 4) return 0;
  int op = data[0] % 3, ndim = data[1] % 5;
  int64_t shape[4];
  for (int i = 0; i < ndim; i++) shape[i] = 1 + (data[2 + (i & 1)] >> (2 * i)) % 4;
  char pattern[300];
  size_t n = size - 4 < sizeof pattern - 1 ? size - 4 : sizeof pattern - 1;
  memcpy(pattern, data + 4, n);
  pattern[n] = '\0';
  /* Lengths for the names a pattern most likely uses. */
  static const char *names[] = {"a", "b", "c", "h", "w"};
  lt_axis axes[5];
  int naxes = data[3] % 6;
  for (int i = 0; i < naxes; i++) axes[i] = (lt_axis){names[i], (data[3] >> i) % 4};
  lt_tensor *t = lt_zeros(LT_F32, ndim, shape, LT_HOST);
  lt_tensor *r = op == 0   ? lt_rearrange(t, pattern, axes, naxes)
                 : op == 1 ? lt_repeat(t, pattern, axes, naxes)
                           : lt_reduce(t, pattern, (lt_reduction)(data[2] % 5), axes, naxes);
  if (!r && lt_last_error()[0] == '\0') __builtin_trap(); /* a failure must say why */
  lt_release(r);
  lt_release(t);
  return 0;
}
