/* A standalone program built against an installed libtensor (see
 * Makefile): it opens a safetensors file, takes one image tensor laid out
 * height x width x channels as a zero-copy read-only view, rearranges it to
 * channels first, writes that as an .npy file NumPy can load, and reads it
 * back to check.
 *
 *   ./external                       writes demo.safetensors, then uses it
 *   ./external IN.safetensors NAME OUT.npy
 */
#include <libtensor.h>
#include <stdio.h>
#include <string.h>

static int fail(const char *what) {
  fprintf(stderr, "external: %s: %s: %s\n", what, lt_status_str(lt_last_status()), lt_last_error());
  return 1;
}

/* A 2x3x4 (h w c) f32 image whose values say where they came from: 100h + 10w + c. */
static int write_demo(const char *path) {
  float px[2 * 3 * 4];
  for (int h = 0; h < 2; h++)
    for (int w = 0; w < 3; w++)
      for (int c = 0; c < 4; c++) px[(h * 3 + w) * 4 + c] = (float)(100 * h + 10 * w + c);
  lt_tensor *img = lt_from_data(px, LT_F32, 3, (int64_t[]){2, 3, 4});
  if (!img) return fail("from_data");
  const char *meta[] = {"layout", "h w c", NULL};
  lt_status s = lt_safetensors_save(path, 1, (const char *[]){"image"}, &img, meta);
  lt_release(img);
  return s == LT_OK ? 0 : fail("safetensors_save");
}

static void show(const char *what, const lt_tensor *t) {
  char d[160];
  lt_describe(t, d, sizeof d);
  printf("%-26s %s\n", what, d);
}

int main(int argc, char **argv) {
  const char *in = "demo.safetensors", *name = "image", *out = "image_chw.npy";
  if (argc == 4) {
    in = argv[1], name = argv[2], out = argv[3];
  } else if (argc != 1) {
    fprintf(stderr, "usage: %s [IN.safetensors NAME OUT.npy]\n", argv[0]);
    return 2;
  } else if (write_demo(in) != 0) {
    return 1;
  }
  lt_safetensors *f = lt_safetensors_open(in);
  if (!f) return fail("safetensors_open");
  for (int i = 0; i < lt_safetensors_count(f); i++) printf("%s holds '%s'\n", in, lt_safetensors_name(f, i));
  lt_tensor *hwc = lt_safetensors_get(f, name);
  lt_safetensors_close(f); /* the view keeps the mapping alive */
  if (!hwc) return fail("safetensors_get");
  show("mapped view (h w c):", hwc);

  lt_tensor *chw = lt_rearrange(hwc, "h w c -> c h w", NULL, 0);
  if (!chw) return lt_release(hwc), fail("rearrange");
  show("rearranged (c h w):", chw);
  printf("bytes copied so far: %lld (the rearrange is a view)\n", (long long)lt_stats_get(LT_HOST).bytes_copied);

  int rc = 0;
  if (lt_save_npy(out, chw) != LT_OK) rc = fail("save_npy");
  lt_tensor *back = rc ? NULL : lt_load_npy(out);
  if (!rc && !back) rc = fail("load_npy");
  if (back) {
    show("written and read back:", back);
    int64_t n = lt_numel(back);
    float got[4096], want[4096];
    if (n <= 4096 && lt_read(back, got, (size_t)n * 4) == LT_OK && lt_read(chw, want, (size_t)n * 4) == LT_OK &&
        memcmp(got, want, (size_t)n * 4) == 0) {
      printf("%s matches the rearranged view element for element\n", out);
    } else {
      fprintf(stderr, "external: %s does not match the rearranged view\n", out);
      rc = 1;
    }
  }
  lt_release(back);
  lt_release(chw);
  lt_release(hwc);
  return rc;
}
