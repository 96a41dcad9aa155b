/* libFuzzer target for the safetensors reader. Each input is opened from
 * an exact-size heap copy (so any read past the file trips
 * AddressSanitizer) and every tensor is fetched and read in full; what
 * opens is also saved again and reopened through the mapped path, and must
 * come back byte for byte. Anything may fail; nothing may crash, leak or
 * trip a sanitizer, and every failure must carry a message.
 * Seeds: tests/fuzz/corpus_safetensors (files the safetensors package
 * wrote; gen_corpus.py). */
#include "fuzz_common.h"

#include <string.h>

#include "interop/safetensors_file.h"

static void release_copy(const void *data, size_t size, void *ctx) {
  (void)size, (void)ctx;
  free((void *)data);
}

/* Every tensor of f, read in full; the readable ones go to ts/names. */
static int read_all(const lt_safetensors *f, lt_tensor **ts, const char **names, int cap) {
  int n = lt_safetensors_count(f), kept = 0;
  if (n < 0) __builtin_trap();
  for (int i = 0; i < n; i++) {
    const char *name = lt_safetensors_name(f, i);
    if (!name) __builtin_trap();
    lt_tensor *t = lt_safetensors_get(f, name);
    if (!t) {
      fuzz_check_failure_message();
      continue;
    }
    size_t bytes = (size_t)lt_numel(t) * lt_dtype_size(lt_dtype_of(t));
    unsigned char *buf = malloc(bytes + 1);
    if (lt_read(t, buf, bytes) != LT_OK) __builtin_trap();
    free(buf);
    if (kept < cap) {
      names[kept] = name;
      ts[kept++] = t;
    } else {
      lt_release(t);
    }
  }
  lt_safetensors_metadata(f, "format");
  return kept;
}

/* Saves the tensors, reopens the file through lt_safetensors_open, and
 * compares every byte. */
static void resave(lt_tensor **ts, const char **names, int n) {
  const char *out = fuzz_memfd_path(1);
  if (lt_safetensors_save(out, n, names, ts, NULL) != LT_OK) {
    fuzz_check_failure_message(); /* e.g. a name that is not UTF-8 after unescaping */
    return;
  }
  lt_safetensors *g = lt_safetensors_open(out);
  if (!g || lt_safetensors_count(g) != n) __builtin_trap();
  for (int i = 0; i < n; i++) {
    lt_tensor *u = lt_safetensors_get(g, names[i]);
    size_t bytes = (size_t)lt_numel(ts[i]) * lt_dtype_size(lt_dtype_of(ts[i]));
    unsigned char *a = malloc(bytes + 1), *b = malloc(bytes + 1);
    if (!u || lt_read(ts[i], a, bytes) != LT_OK || lt_read(u, b, bytes) != LT_OK || memcmp(a, b, bytes) != 0)
      __builtin_trap();
    free(a);
    free(b);
    lt_release(u);
  }
  lt_safetensors_close(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_use_capped_allocator();
  unsigned char *copy = malloc(size ? size : 1);
  memcpy(copy, data, size);
  lt_safetensors *f = lt__safetensors_from_memory(copy, size, release_copy, NULL, "input");
  if (!f) {
    fuzz_check_failure_message();
    free(copy);
    return 0;
  }
  lt_tensor *ts[16];
  const char *names[16];
  int n = read_all(f, ts, names, 16);
  resave(ts, names, n);
  for (int i = 0; i < n; i++) lt_release(ts[i]);
  lt_safetensors_close(f);
  return 0;
}
