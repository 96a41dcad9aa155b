/* libFuzzer target for the .npy reader. Each input is parsed twice: the
 * header parser on an exact-size heap copy (so any read past the input
 * trips AddressSanitizer), and the whole file through lt_load_npy on an
 * in-memory file. What loads is saved and loaded again and must come back
 * byte for byte. Anything may fail; nothing may crash, leak or trip a
 * sanitizer, and every failure must carry a message.
 * Seeds: tests/fuzz/corpus_npy (files NumPy wrote; gen_corpus.py). */
#include "fuzz_common.h"

#include <string.h>

#include "interop/npy_header.h"

static void parse_header(const uint8_t *data, size_t size) {
  unsigned char *copy = malloc(size ? size : 1);
  memcpy(copy, data, size);
  lt__npy_header h;
  if (lt__npy_parse(copy, size, "input", &h) != LT_OK) fuzz_check_failure_message();
  else if (h.ndim > LT_MAX_DIMS || h.data_offset > size || h.numel < 0) __builtin_trap();
  free(copy);
}

static void load_and_resave(const uint8_t *data, size_t size) {
  lt_tensor *t = lt_load_npy(fuzz_file_with(data, size));
  if (!t) {
    fuzz_check_failure_message();
    return;
  }
  size_t bytes = (size_t)lt_numel(t) * lt_dtype_size(lt_dtype_of(t));
  unsigned char *a = malloc(bytes + 1), *b = malloc(bytes + 1);
  if (lt_read(t, a, bytes) != LT_OK) __builtin_trap();
  const char *out = fuzz_memfd_path(1);
  if (lt_save_npy(out, t) != LT_OK) __builtin_trap();
  lt_tensor *u = lt_load_npy(out);
  if (!u || lt_read(u, b, bytes) != LT_OK || memcmp(a, b, bytes) != 0) __builtin_trap();
  lt_release(u);
  free(a);
  free(b);
  lt_release(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_use_capped_allocator();
  parse_header(data, size);
  load_and_resave(data, size);
  return 0;
}
