/* ltx bench --svg: the run as one self-contained SVG document a browser
 * shows: GB/s against stride (a line on a log2 axis), then GB/s of each
 * permutation and cast (bars), with memcpy from the same run drawn across
 * both as a dashed line. Plain SVG 1.1, no script, no external styles. */
#include <math.h>
#include <string.h>

#include "bench.h"

#define WIDTH 900
#define LINE_LEFT 80    /* the stride chart's plot area */
#define LINE_RIGHT 760
#define LINE_TOP 120
#define LINE_BOTTOM 380
#define BAR_LEFT 200    /* bar labels sit left of this */
#define BAR_RIGHT 700   /* value labels right of the longest bar */
#define BAR_ROW 24
#define MEMCPY_STYLE "stroke=\"#555\" stroke-width=\"1.5\" stroke-dasharray=\"6,4\""

/* Text with XML's three special characters escaped. */
static void text(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '<') fputs("&lt;", f);
    else if (*s == '>') fputs("&gt;", f);
    else if (*s == '&') fputs("&amp;", f);
    else fputc(*s, f);
  }
}

static void label(FILE *f, double x, double y, const char *anchor, const char *extra, const char *s) {
  fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s>", x, y, anchor, extra);
  text(f, s);
  fputs("</text>\n", f);
}

/* A round tick step giving about `ticks` steps up to max. */
static double tick_step(double max, int ticks) {
  if (!(max > 0)) return 1;
  double raw = max / ticks, p = pow(10, floor(log10(raw))), m = raw / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

static double axis_max(double max, double step) { return max > 0 ? ceil(max / step) * step : step; }

static double max_gbs(const bench_run *run, bool strides) {
  double m = run->memcpy_gbs;
  for (int i = 0; i < run->n; i++)
    if ((run->r[i].group == BENCH_STRIDE) == strides && run->r[i].gbs > m) m = run->r[i].gbs;
  return m * 1.05;
}

static void stride_chart(FILE *f, const bench_run *run) {
  double step = tick_step(max_gbs(run, true), 5), top = axis_max(max_gbs(run, true), step);
  double h = LINE_BOTTOM - LINE_TOP, w = LINE_RIGHT - LINE_LEFT;
  char buf[96];
  label(f, LINE_LEFT, LINE_TOP - 20, "start", " font-size=\"16\" font-weight=\"bold\"",
        "Bandwidth against stride (strided read into a contiguous tensor)");
  for (double v = 0; v <= top + step / 2; v += step) {
    double y = LINE_BOTTOM - v / top * h;
    fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", LINE_LEFT, y, LINE_RIGHT, y);
    snprintf(buf, sizeof buf, "%g", v);
    label(f, LINE_LEFT - 8, y + 4, "end", "", buf);
  }
  for (int k = 0; k <= 6; k++) {
    snprintf(buf, sizeof buf, "%d", 1 << k);
    label(f, LINE_LEFT + k / 6.0 * w, LINE_BOTTOM + 18, "middle", "", buf);
  }
  label(f, LINE_LEFT + w / 2, LINE_BOTTOM + 40, "middle", "",
        "stride: elements between reads (log scale; 1 = contiguous; 16 floats = one 64-byte cache line)");
  fprintf(f, "<text x=\"20\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 20 %d)\">GB/s</text>\n",
          LINE_TOP + (int)h / 2, LINE_TOP + (int)h / 2);
  double my = LINE_BOTTOM - run->memcpy_gbs / top * h;
  fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" " MEMCPY_STYLE "/>\n", LINE_LEFT, my, LINE_RIGHT, my);
  snprintf(buf, sizeof buf, "memcpy %.2f GB/s", run->memcpy_gbs);
  label(f, LINE_RIGHT + 6, my + 4, "start", " fill=\"#555\"", buf);
  fputs("<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2.5\" points=\"", f);
  for (int i = 0; i < run->n; i++)
    if (run->r[i].group == BENCH_STRIDE)
      fprintf(f, "%.1f,%.1f ", LINE_LEFT + log2(run->r[i].stride) / 6 * w, LINE_BOTTOM - run->r[i].gbs / top * h);
  fputs("\"/>\n", f);
  for (int i = 0; i < run->n; i++) {
    const bench_result *r = &run->r[i];
    if (r->group != BENCH_STRIDE) continue;
    fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#1f77b4\"><title>", LINE_LEFT + log2(r->stride) / 6 * w,
            LINE_BOTTOM - r->gbs / top * h);
    text(f, r->name);
    fprintf(f, ": %.2f GB/s, %.2f x memcpy</title></circle>\n", r->gbs, r->ratio);
  }
}

/* The bars' chart, its title at y0, below the stride chart. */
static int bar_rows(const bench_run *run) {
  int rows = 0;
  for (int i = 0; i < run->n; i++) rows += run->r[i].group != BENCH_STRIDE;
  return rows;
}

/* The bars' chart, its title at y0, below the stride chart. */
static void bar_chart(FILE *f, const bench_run *run, int y0) {
  double step = tick_step(max_gbs(run, false), 5), top = axis_max(max_gbs(run, false), step);
  double w = BAR_RIGHT - BAR_LEFT;
  int bars_top = y0 + 20, bottom = bars_top + bar_rows(run) * BAR_ROW, row = 0;
  char buf[96];
  label(f, LINE_LEFT, y0, "start", " font-size=\"16\" font-weight=\"bold\"",
        "Bandwidth by permutation and cast (the same bytes in another order or dtype)");
  for (double v = 0; v <= top + step / 2; v += step) {
    double x = BAR_LEFT + v / top * w;
    fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n", x, bars_top, x, bottom);
    snprintf(buf, sizeof buf, "%g", v);
    label(f, x, bottom + 16, "middle", "", buf);
  }
  label(f, BAR_LEFT + w / 2, bottom + 36, "middle", "", "GB/s");
  for (int i = 0; i < run->n; i++) {
    const bench_result *r = &run->r[i];
    if (r->group == BENCH_STRIDE) continue;
    double y = bars_top + row++ * BAR_ROW;
    label(f, BAR_LEFT - 8, y + 15, "end", "", r->name);
    fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>", BAR_LEFT, y + 3,
            r->gbs / top * w, BAR_ROW - 6, r->group == BENCH_PERMUTE ? "#ff7f0e" : "#2ca02c");
    text(f, r->name);
    fprintf(f, "</title></rect>\n");
  }
  double mx = BAR_LEFT + run->memcpy_gbs / top * w;
  fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" " MEMCPY_STYLE "/>\n", mx, bars_top - 6, mx,
          bottom);
  label(f, mx, bars_top - 8, "middle", " fill=\"#555\" font-size=\"12\"", "memcpy");
  row = 0;
  for (int i = 0; i < run->n; i++) { /* last, so no line crosses them */
    const bench_result *r = &run->r[i];
    if (r->group == BENCH_STRIDE) continue;
    snprintf(buf, sizeof buf, "%.2f GB/s (%.2f x memcpy)", r->gbs, r->ratio);
    label(f, BAR_LEFT + r->gbs / top * w + 6, bars_top + row++ * BAR_ROW + 15, "start",
          " font-size=\"12\" stroke=\"white\" stroke-width=\"3\" paint-order=\"stroke\"", buf);
  }
}

void bench_write_svg(FILE *f, const bench_run *run) {
  int bars_y = LINE_BOTTOM + 80, height = bars_y + 20 + bar_rows(run) * BAR_ROW + 50;
  char sub[200];
  snprintf(sub, sizeof sub, "f32 unless a cast says otherwise; %lld MiB per tensor, %d thread%s, median of %d samples",
           (long long)run->size_mib, run->threads, run->threads > 1 ? "s" : "", run->reps);
  fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
             "font-family=\"sans-serif\" font-size=\"13\">\n",
          WIDTH, height, WIDTH, height);
  fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", WIDTH, height);
  label(f, 20, 30, "start", " font-size=\"20\" font-weight=\"bold\"", "libtensor: what access patterns cost");
  label(f, 20, 52, "start", " fill=\"#555\"", sub);
  label(f, 20, 70, "start", " fill=\"#555\"",
        "GB/s = (bytes read + bytes written) / s; dashed: memcpy measured in the same run");
  stride_chart(f, run);
  bar_chart(f, run, bars_y);
  fputs("</svg>\n", f);
}
