/* Specification of the shared library's ABI surface: only lt_ functions
 * leave it (lt__ internals stay hidden), every function API.md promises is
 * there, and each public header compiles on its own. Runs nm and cc on the
 * built artefacts; a missing cc skips the header tests with a message. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/check_helpers.h"

#define MAX_SYMBOLS 1024

/* snprintf into an array, failing the test rather than truncating. */
#define FORMAT(buf, ...) \
  ck_assert_msg(snprintf(buf, sizeof buf, __VA_ARGS__) < (int)sizeof buf, "%s is too long", #buf)

typedef struct symbol_table {
  int n;
  char name[MAX_SYMBOLS][128];
  char type[MAX_SYMBOLS];
} symbol_table;

static symbol_table symbols;

static bool tool_exists(const char *tool) {
  char cmd[128];
  snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", tool);
  return system(cmd) == 0;
}

/* Reads the dynamic symbols the shared library defines. */
static void load_symbols(void) {
  ck_assert_msg(strchr(LT_SHARED_LIB_PATH, '\'') == NULL, "library path has a quote: %s", LT_SHARED_LIB_PATH);
  ck_assert_msg(access(LT_SHARED_LIB_PATH, R_OK) == 0, "cannot read %s", LT_SHARED_LIB_PATH);
  FILE *p = popen("nm -D --defined-only '" LT_SHARED_LIB_PATH "' 2>&1", "r");
  ck_assert_msg(p != NULL, "popen(nm) failed");
  char line[512];
  symbols.n = 0;
  while (fgets(line, sizeof line, p)) {
    char addr[64], type, name[128];
    if (sscanf(line, "%63s %c %127s", addr, &type, name) != 3) continue;
    ck_assert_int_lt(symbols.n, MAX_SYMBOLS);
    symbols.type[symbols.n] = type;
    snprintf(symbols.name[symbols.n], sizeof symbols.name[0], "%s", name);
    symbols.n++;
  }
  int rc = pclose(p);
  ck_assert_msg(rc == 0, "nm -D --defined-only %s exited with status %d", LT_SHARED_LIB_PATH, rc);
  ck_assert_msg(symbols.n > 0, "nm listed no symbols in %s", LT_SHARED_LIB_PATH);
}

/* T/t: text, W/w: weak, i: indirect function. */
static bool is_function(char type) { return strchr("TtWwi", type) != NULL; }

static bool exports_function(const char *name) {
  for (int i = 0; i < symbols.n; i++)
    if (is_function(symbols.type[i]) && strcmp(symbols.name[i], name) == 0) return true;
  return false;
}

START_TEST(every_exported_function_starts_with_lt_and_not_lt__) {
  load_symbols();
  char bad[4096] = "";
  int nbad = 0, nfunc = 0;
  for (int i = 0; i < symbols.n; i++) {
    if (!is_function(symbols.type[i])) continue;
    nfunc++;
    const char *s = symbols.name[i];
    if (strncmp(s, "lt_", 3) != 0 || strncmp(s, "lt__", 4) == 0) {
      nbad++;
      size_t used = strlen(bad);
      snprintf(bad + used, sizeof bad - used, " %s", s);
    }
  }
  ck_assert_int_gt(nfunc, 0);
  ck_assert_msg(nbad == 0, "%d exported function(s) outside the lt_ API:%s", nbad, bad);
}
END_TEST

/* API.md sections Types, Lifecycle and data, Introspection, Views, Copies
 * and Accounting, and the interop functions issue 8 names. */
static const char *const api_functions[] = {
    "lt_dtype_size", "lt_dtype_name", "lt_device_available", "lt_last_status", "lt_last_error",
    "lt_status_str", "lt_empty", "lt_zeros", "lt_from_data", "lt_wrap", "lt_retain", "lt_release",
    "lt_read", "lt_write", "lt_ndim", "lt_shape", "lt_strides", "lt_size", "lt_stride", "lt_offset",
    "lt_numel", "lt_dtype_of", "lt_device_of", "lt_is_contiguous", "lt_shares_storage", "lt_data",
    "lt_describe", "lt_view", "lt_slice", "lt_select", "lt_narrow", "lt_transpose", "lt_permute",
    "lt_movedim", "lt_expand", "lt_squeeze", "lt_squeeze_all", "lt_unsqueeze", "lt_unflatten",
    "lt_as_strided", "lt_diagonal", "lt_contiguous", "lt_clone", "lt_reshape", "lt_flatten", "lt_copy",
    "lt_to", "lt_cast", "lt_to_device", "lt_stats_get", "lt_stats_reset", "lt_set_copy_policy",
    "lt_to_dlpack", "lt_from_dlpack", "lt_safetensors_save", "lt_safetensors_open", "lt_safetensors_get",
    "lt_safetensors_close", "lt_save_npy", "lt_load_npy",
};

START_TEST(every_api_function_is_exported) {
  load_symbols();
  char missing[4096] = "";
  int nmissing = 0;
  int n = (int)(sizeof api_functions / sizeof api_functions[0]);
  for (int i = 0; i < n; i++) {
    if (exports_function(api_functions[i])) continue;
    nmissing++;
    size_t used = strlen(missing);
    snprintf(missing + used, sizeof missing - used, " %s", api_functions[i]);
  }
  ck_assert_msg(nmissing == 0, "%d API function(s) not exported by %s:%s", nmissing, LT_SHARED_LIB_PATH,
                missing);
}
END_TEST

/* ---- headers ------------------------------------------------------------ */

static char include_dir[4096];

static bool has_umbrella_header(const char *root) {
  char path[4096];
  FORMAT(path, "%s/include/libtensor.h", root);
  return access(path, R_OK) == 0;
}

/* Finds <source>/include: __FILE__ is absolute or relative to the build
 * dir (which holds the shared library); failing that, the source tree is
 * taken to be the build dir's parent. */
static void find_include_dir(void) {
  char build[4096], root[4096];
  FORMAT(build, "%s", LT_SHARED_LIB_PATH);
  char *slash = strrchr(build, '/');
  ck_assert_msg(slash != NULL, "LT_SHARED_LIB_PATH is not a path: %s", LT_SHARED_LIB_PATH);
  *slash = '\0';

  char file[4096];
  if (__FILE__[0] == '/') FORMAT(file, "%s", __FILE__);
  else FORMAT(file, "%s/%s", build, __FILE__);
  for (int up = 0; up < 2 && (slash = strrchr(file, '/')) != NULL; up++) *slash = '\0';
  if (has_umbrella_header(file)) {
    FORMAT(root, "%s", file);
  } else {
    FORMAT(root, "%s/..", build);
    ck_assert_msg(has_umbrella_header(root), "cannot find include/libtensor.h from %s or %s", file, root);
  }
  FORMAT(include_dir, "%s/include", root);
  ck_assert_msg(strchr(include_dir, '\'') == NULL, "include path has a quote: %s", include_dir);
}

/* Compiles a translation unit of the given source lines (printf %s args)
 * with strict flags; returns cc's exit status and its output in out. */
static int compile(const char *line1, const char *line2, const char *line3, char *out, size_t n) {
  char cmd[8192];
  FORMAT(cmd,
           "printf '%%s\\n' '%s' '%s' '%s' | cc -std=c11 -Wall -Wextra -pedantic -Werror -fsyntax-only "
           "-I'%s' -x c - 2>&1",
           line1, line2, line3, include_dir);
  FILE *p = popen(cmd, "r");
  ck_assert_msg(p != NULL, "popen(cc) failed");
  size_t len = fread(out, 1, n - 1, p);
  out[len] = '\0';
  return pclose(p);
}

/* The public headers: libtensor.h and every .h under include/libtensor/. */
static int list_headers(char names[][256], int max) {
  int n = 0;
  snprintf(names[n++], 256, "libtensor.h");
  char dir[4200];
  FORMAT(dir, "%s/libtensor", include_dir);
  DIR *d = opendir(dir);
  ck_assert_msg(d != NULL, "cannot open %s", dir);
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    size_t len = strlen(e->d_name);
    if (len > 2 && strcmp(e->d_name + len - 2, ".h") == 0 && n < max)
      snprintf(names[n++], 256, "libtensor/%s", e->d_name);
  }
  closedir(d);
  return n;
}

static bool cc_or_skip(void) {
  if (tool_exists("cc")) return true;
  fprintf(stderr, "SKIP %s: no cc on PATH, public headers not compiled\n", __FILE__);
  return false;
}

START_TEST(each_public_header_compiles_on_its_own) {
  if (!cc_or_skip()) return;
  find_include_dir();
  char headers[32][256], out[4096], include[300];
  int n = list_headers(headers, 32);
  ck_assert_int_ge(n, 7); /* libtensor.h, types, export, tensor, views, copy, stats */
  for (int i = 0; i < n; i++) {
    FORMAT(include, "#include <%s>", headers[i]);
    /* The typedef keeps a macro-only header from making an empty
     * translation unit, which -pedantic rejects on its own account. */
    int rc = compile(include, "typedef int translation_unit_is_not_empty;", "", out, sizeof out);
    ck_assert_msg(rc == 0, "<%s> does not compile on its own:\n%s", headers[i], out);
  }
}
END_TEST

START_TEST(each_public_header_can_be_included_twice) {
  if (!cc_or_skip()) return;
  find_include_dir();
  char headers[32][256], out[4096], include[300];
  int n = list_headers(headers, 32);
  for (int i = 0; i < n; i++) {
    FORMAT(include, "#include <%s>", headers[i]);
    int rc = compile(include, include, "typedef int translation_unit_is_not_empty;", out, sizeof out);
    ck_assert_msg(rc == 0, "<%s> included twice does not compile:\n%s", headers[i], out);
  }
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("exports");
  TCase *syms = tcase_create("symbols");
  tcase_add_test(syms, every_exported_function_starts_with_lt_and_not_lt__);
  tcase_add_test(syms, every_api_function_is_exported);
  suite_add_tcase(s, syms);

  TCase *headers = tcase_create("headers");
  tcase_set_timeout(headers, 60);
  tcase_add_test(headers, each_public_header_compiles_on_its_own);
  tcase_add_test(headers, each_public_header_can_be_included_twice);
  suite_add_tcase(s, headers);
  return s;
}

int main(void) { return lt_run_suite(suite()); }
