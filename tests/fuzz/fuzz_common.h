/* Shared by the file-format fuzz targets: an allocator capped at 64 MiB (so
 * hostile sizes exercise the LT_ERR_NOMEM paths instead of exhausting the
 * machine), and in-memory files reachable by path (memfd), so the public
 * path-taking functions run on each input without touching the disk. */
#ifndef LT_FUZZ_COMMON_H
#define LT_FUZZ_COMMON_H

#define _GNU_SOURCE
#include <libtensor.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static inline void *capped_alloc(size_t size, size_t align, void *ctx) {
  (void)ctx;
  void *p = NULL;
  if (size > ((size_t)64 << 20)) return NULL;
  return posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size ? size : 1) ? NULL : p;
}

static inline void capped_free(void *p, size_t size, size_t align, void *ctx) {
  (void)size, (void)align, (void)ctx;
  free(p);
}

static inline void fuzz_use_capped_allocator(void) {
  static const lt_allocator capped = {capped_alloc, capped_free, NULL};
  lt_set_allocator(&capped);
}

/* A memfd's path ("/proc/self/fd/N"), created once per process and slot. */
static inline const char *fuzz_memfd_path(int slot) {
  static char paths[2][64];
  if (!paths[slot][0]) {
    int fd = memfd_create(slot ? "fuzz-out" : "fuzz-in", 0);
    if (fd < 0) __builtin_trap();
    snprintf(paths[slot], sizeof paths[slot], "/proc/self/fd/%d", fd);
  }
  return paths[slot];
}

/* Replaces the in-memory file's contents with data. */
static inline const char *fuzz_file_with(const unsigned char *data, size_t size) {
  const char *path = fuzz_memfd_path(0);
  FILE *f = fopen(path, "wb");
  if (!f) __builtin_trap();
  if (size && fwrite(data, 1, size, f) != size) __builtin_trap();
  fclose(f);
  return path;
}

/* A failure must say why. */
static inline void fuzz_check_failure_message(void) {
  if (lt_last_status() == LT_OK || lt_last_error()[0] == '\0') __builtin_trap();
}

#endif
