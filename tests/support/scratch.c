/* Scratch directories and whole-file reads for the file format suites. */
#define _XOPEN_SOURCE 700
#include "scratch.h"

#include <check.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

static char scratch[64];

void scratch_make(void) {
  snprintf(scratch, sizeof scratch, "/tmp/lt_test_XXXXXX");
  ck_assert_msg(mkdtemp(scratch) != NULL, "mkdtemp failed");
}

static int remove_entry(const char *p, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(p);
}

void scratch_remove(void) { nftw(scratch, remove_entry, 8, FTW_DEPTH | FTW_PHYS); }

const char *scratch_path(const char *name) {
  static char path[128];
  snprintf(path, sizeof path, "%s/%s", scratch, name);
  return path;
}

size_t slurp(const char *path, unsigned char *buf, size_t cap) {
  FILE *f = fopen(path, "rb");
  ck_assert_msg(f != NULL, "cannot open %s", path);
  size_t n = fread(buf, 1, cap, f);
  fclose(f);
  return n;
}
