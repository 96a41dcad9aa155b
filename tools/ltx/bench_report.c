/* ltx bench's text outputs: a table that says how to read it, and JSON
 * lines for machines. */
#include "bench.h"

#define BAR_FOR_MEMCPY 40 /* characters of bar for a ratio of 1 */

static const char *group_name(bench_group g) {
  return g == BENCH_STRIDE ? "stride" : g == BENCH_PERMUTE ? "permute" : "cast";
}

static void row(FILE *f, const char *name, double gbs, double ratio) {
  int bar = (int)(ratio * BAR_FOR_MEMCPY + 0.5);
  fprintf(f, "%-24s %8.2f %8.2f  ", name, gbs, ratio);
  for (int i = 0; i < bar && i < BAR_FOR_MEMCPY * 3 / 2; i++) fputc('#', f);
  fputs(bar > BAR_FOR_MEMCPY * 3 / 2 ? "+\n" : "\n", f);
}

/* Whether the run measured a cache or memory: source and destination
 * together against the largest cache. */
static void cache_note(FILE *f, const bench_run *run) {
  if (run->cache_bytes <= 0) return;
  int64_t both = 2 * (run->size_mib << 20), cache_mib = run->cache_bytes >> 20;
  if (both <= run->cache_bytes)
    fprintf(f, "note: source and destination (%lld MiB) fit in this CPU's largest cache (%lld MiB): these are\n"
               "      cache figures; --size %lld or more measures main memory\n\n",
            (long long)(both >> 20), (long long)cache_mib, (long long)(cache_mib > 0 ? cache_mib : 1));
  else
    fprintf(f, "note: source and destination (%lld MiB) exceed this CPU's largest cache (%lld MiB): these are\n"
               "      main-memory figures\n\n",
            (long long)(both >> 20), (long long)cache_mib);
}

void bench_print_table(FILE *f, const bench_run *run) {
  fprintf(f,
          "ltx bench: what access patterns cost on this machine (f32 unless a cast says otherwise)\n"
          "size %lld MiB per tensor, %d thread%s, median of %d timed samples after a warm-up, %.1f s in all\n"
          "GB/s     = (bytes read + bytes written) / seconds, each element counted once, whatever its stride\n"
          "x memcpy = median of GB/s / GB/s of a memcpy of %lld MiB timed in turn with each sample of\n"
          "           the case (bandwidth drifts on a busy machine; the memcpy row is the median of those\n"
          "           memcpys). 1.00 is as fast as memcpy, 0.25 four times slower; one # per 1/%d of memcpy\n",
          (long long)run->size_mib, run->threads, run->threads > 1 ? "s" : "", run->reps, run->seconds,
          (long long)run->size_mib, BAR_FOR_MEMCPY);
  cache_note(f, run);
  fprintf(f, "%-24s %8s %8s\n", "case", "GB/s", "x memcpy");
  row(f, "memcpy", run->memcpy_gbs, 1.0);
  for (int i = 0; i < run->n; i++) {
    if (i > 0 && run->r[i].group != run->r[i - 1].group) fputc('\n', f);
    row(f, run->r[i].name, run->r[i].gbs, run->r[i].ratio);
  }
  fprintf(f,
          "\nhow to read it:\n"
          "  strided read s=k  copies every k-th float of a %lld MiB buffer into a contiguous one. Memory moves\n"
          "                    whole 64-byte cache lines, so from s=16 on every float read costs a full line\n"
          "                    of which 4 bytes are used: GB/s counts the useful bytes only.\n"
          "  transpose/permute the same bytes read in one order and written in another (the permutation\n"
          "                    says which source dim each output dim comes from); the gap to memcpy is the\n"
          "                    price of the order. BHTD is an attention [batch, heads, tokens, head dim].\n"
          "  cast              reads one dtype and writes another; both sides' bytes count.\n",
          (long long)run->size_mib);
}

void bench_print_json(FILE *f, const bench_run *run) {
  fprintf(f, "{\"bench\":\"ltx\",\"case\":\"memcpy\",\"group\":\"memcpy\",\"size_bytes\":%lld,\"threads\":%d,"
             "\"gbs\":%.3f,\"memcpy_gbs\":%.3f,\"ratio\":1}\n",
          (long long)run->size_mib << 20, run->threads, run->memcpy_gbs, run->memcpy_gbs);
  for (int i = 0; i < run->n; i++) {
    const bench_result *r = &run->r[i];
    fprintf(f, "{\"bench\":\"ltx\",\"case\":\"%s\",\"group\":\"%s\",\"stride\":%d,\"size_bytes\":%lld,"
               "\"threads\":%d,\"bytes_per_call\":%lld,\"gbs\":%.3f,\"memcpy_gbs\":%.3f,\"ratio\":%.4f}\n",
            r->name, group_name(r->group), r->stride, (long long)run->size_mib << 20, run->threads,
            (long long)r->bytes, r->gbs, r->memcpy_gbs, r->ratio);
  }
}
