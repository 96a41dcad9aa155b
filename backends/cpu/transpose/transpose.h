/* Internal: the CPU 2-D transpose kernels that every true-transpose copy
 * (the unit-stride dims of source and destination differ) is reduced to,
 * in a portable scalar version and AVX2/AVX-512 versions chosen at run
 * time. Every version moves exactly the bytes of the naive loop. */
#ifndef LT_TRANSPOSE_H
#define LT_TRANSPOSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* dst[c * dst_ld + r] = src[r * src_ld + c] for 0 <= r < rows,
 * 0 <= c < cols, on elements of the kernel's size es (1, 2, 4 or 8 bytes).
 * src_ld and dst_ld are in elements, >= 1: rows of src are contiguous
 * along c, rows of dst along r. Any rows, cols >= 0; any alignment; dst
 * and src must not overlap. Cannot fail. Thread-safe: each call touches
 * only its dst.
 *
 * The vector kernels write outputs of more than 1 MiB (in one call) with
 * streaming stores, which leave dst out of cache and are fenced before
 * return (the streamed kernels below leave the fence to their caller).
 * That takes a buffer of up to 1.3 MiB from the library's allocator
 * (lt__alloc): the AVX2 path's panels, or the stage where dst's rows are
 * not 64-byte aligned (with the ends of packed rows, lt__flush_ends; a
 * stage of up to 24 KiB goes on the stack).
 * Without it a kernel
 * streams single tiles to aligned rows and uses plain stores, about three
 * times slower, on the others. So the planner should hand a kernel the
 * largest 2-D slice it can. */
typedef void (*lt__transpose_fn)(char *dst, int64_t dst_ld, const char *src, int64_t src_ld, int64_t rows,
                                 int64_t cols);

typedef enum lt__transpose_path {
  LT__TRANSPOSE_SCALAR,
  LT__TRANSPOSE_AVX2,
  LT__TRANSPOSE_AVX512,
  LT__TRANSPOSE_AVX512VBMI, /* AVX-512 with byte tiles from two-source byte permutes */
  LT__TRANSPOSE_NPATHS
} lt__transpose_path;

/* The kernel for element size es on one path; NULL when es is not 1, 2, 4
 * or 8 or this CPU cannot run the path. */
lt__transpose_fn lt__transpose_kernel(size_t es, lt__transpose_path path);
/* The fastest kernel this CPU runs for es; never NULL for es 1, 2, 4, 8. */
lt__transpose_fn lt__transpose_best(size_t es);
/* As lt__transpose_best, for one of many calls that together outgrow the
 * caches (a batch of small transposes): it streams whatever its own
 * output's size, and does not fence. Streaming stores are weakly ordered,
 * so the caller calls lt__stream_fence once after its last call, before
 * anyone else may read dst (a thread pool's join included). A fence per
 * call drains every store in flight before the next call's first: F32
 * BHTD (3,2,1,0) at 512 MiB, whose calls write 24 KiB each, ran at
 * 0.72-0.73 of memcpy fenced per call, at 0.76-0.77 fenced once (Xeon,
 * same-run ratio, three runs each in turn). */
lt__transpose_fn lt__transpose_best_streamed(size_t es);
/* The always-streaming kernel of one path (as lt__transpose_kernel's). */
lt__transpose_fn lt__transpose_streamed_kernel(size_t es, lt__transpose_path path);

/* A streamed kernel (unfenced, as lt__transpose_best_streamed's) for one
 * of a run of calls along the same destination rows, each call's rows
 * starting where the last call's ended (a batch of transposes whose
 * destination rows run on from one call to the next: grouped_transpose.c).
 * Where those rows are off lines, each call would end and start every
 * row inside a line that the next call or the last shares, and a plain
 * store of part of a line that misses holds every streaming store behind
 * it until memory answers. So where the call fits (whole tiles of the
 * kernel's side, two or more along each destination row, source rows
 * that need no band before their first full tile) and streams, it
 * writes every destination line it covers whole and nothing else, and
 * leaves in seams (128 bytes per destination row, 64-byte aligned) each
 * row's first 64 bytes and then its last 64, returning true; the caller
 * writes the rest through an lt__seam_run. Elsewhere it writes
 * everything as the streamed kernel does and returns false. */
typedef bool (*lt__transpose_seamed_fn)(char *dst, int64_t dst_ld, const char *src, int64_t src_ld, int64_t rows,
                                        int64_t cols, char *seams);
/* That kernel where this CPU runs AVX-512, for es 1, 2 or 4; else NULL. */
lt__transpose_seamed_fn lt__transpose_seamed_kernel(size_t es);
extern const lt__transpose_seamed_fn lt__transpose_avx512_seamed_table[3];
extern const lt__transpose_seamed_fn lt__transpose_avx512vbmi_seamed_table[3];

/* n transposes side by side through a stage (tiled_transpose.c's
 * batches whose slices continue each other's rows on both sides):
 * dst[c * dst_ld + s * rows + r] = src[r * src_ld + s * src_step + c] for
 * 0 <= r < rows, 0 <= c < cols, 0 <= s < n, leading dimensions and
 * src_step in elements. stage holds n * rows * cols elements, 64-byte
 * aligned. */
typedef void (*lt__transpose_side_fn)(char *dst, int64_t dst_ld, const char *src, int64_t src_ld, int64_t rows,
                                      int64_t cols, int64_t n, int64_t src_step, char *stage);
/* That kernel where this CPU runs AVX-512 (bytes from VBMI tiles where
 * it has them); else NULL. */
lt__transpose_side_fn lt__transpose_side_kernel(size_t es);
extern const lt__transpose_side_fn lt__transpose_avx512_side_table[4];
extern const lt__transpose_side_fn lt__transpose_avx512vbmi_side_table[4];

/* The streamed kernel of a lagged band (unfenced, as
 * lt__transpose_best_streamed's): LT__LAGGED_ROWS source rows, two
 * strips whose lines would crowd the same sets of L2 together, the
 * second a few columns behind the first (transpose_avx512_lagged.h).
 * Calls of other rows, or with a destination row off a line, go to the
 * streamed tiles. Where this CPU runs AVX-512 and es is 4; else NULL. */
enum { LT__LAGGED_ROWS = 32 };
lt__transpose_fn lt__transpose_lagged_kernel(size_t es);
extern const lt__transpose_fn lt__transpose_avx512_lagged4;

/* The calls of a seamed kernel over the same n destination rows, dld
 * bytes apart, and what their seams leave to write: seams holds two
 * calls' (2 * n * 128 bytes, 64-byte aligned), cur names the half the
 * next call fills, end is where the last seamed call's rows ended (row c
 * at end + c * dld) or NULL. Start with {seams, n, dld} and the rest
 * zero; call lt__seam_run_step after each call, lt__seam_run_finish
 * after the last, then fence. */
typedef struct lt__seam_run {
  char *seams;
  int64_t n, dld;
  int cur;
  char *end;
} lt__seam_run;
/* The seams the next call fills. */
static inline char *lt__seam_run_next(const lt__seam_run *s) { return s->seams + s->cur * s->n * 128; }
/* After a call whose rows start at dst (row c at dst + c * dld), bytes
 * long each, whose kernel returned seamed: writes the line across the
 * boundary with the last seamed call where that call's rows ended at
 * dst, streamed whole (the end of its last segments, the start of this
 * call's first); the last call's row ends otherwise, and this call's
 * row starts without such a call before, with plain stores of their
 * bytes alone (their lines hold bytes that are not the copy's). */
void lt__seam_run_step(lt__seam_run *s, char *dst, int64_t bytes, bool seamed);
/* Writes the row ends the last seamed call left. */
void lt__seam_run_finish(lt__seam_run *s);

/* dst[c * dst_ld + r] = rows[r][c] for 0 <= r < nrows, 0 <= c < ncols:
 * 4-, 2- or 1-byte elements whose source rows lie anywhere (the rows of
 * a group of dims, grouped_transpose.c), read where they lie rather than
 * gathered first. nrows and ncols are multiples of the tile's side (16,
 * 32 or 64); plain stores, for outputs that stay cached. Cannot fail. */
typedef void (*lt__transpose_rows_fn)(char *dst, int64_t dst_ld, const char *const *rows, int64_t nrows,
                                      int64_t ncols);
/* That kernel where this CPU runs AVX-512 (for es 1, with VBMI); NULL
 * for es 8 or elsewhere. */
lt__transpose_rows_fn lt__transpose_rows_kernel(size_t es);
extern const lt__transpose_rows_fn lt__transpose_rows_avx512_f32;
extern const lt__transpose_rows_fn lt__transpose_rows_avx512_f16;
extern const lt__transpose_rows_fn lt__transpose_rows_avx512vbmi_u8;
/* The same with streaming stores (unfenced: the caller fences), into
 * destination rows that begin on lines (dst and dst_ld * es multiples of
 * 64 bytes): for outputs that outgrow the caches, from rows the caller
 * has just read into them (grouped_transpose.c's pulled blocks). */
lt__transpose_rows_fn lt__transpose_rows_streamed_kernel(size_t es);
extern const lt__transpose_rows_fn lt__transpose_rows_streamed_avx512_f32;
extern const lt__transpose_rows_fn lt__transpose_rows_streamed_avx512_f16;
extern const lt__transpose_rows_fn lt__transpose_rows_streamed_avx512vbmi_u8;
/* And into destination rows off lines, as a seamed kernel
 * (lt__transpose_seamed_fn): it writes every destination line its rows
 * cover whole and nothing else, leaving in seams (128 bytes per
 * destination row) each row's first 64 bytes and then its last 64, for
 * the caller's lt__seam_run. nrows at least two tiles' sides. */
typedef void (*lt__transpose_rows_seamed_fn)(char *dst, int64_t dst_ld, const char *const *rows, int64_t nrows,
                                             int64_t ncols, char *seams);
lt__transpose_rows_seamed_fn lt__transpose_rows_seamed_kernel(size_t es);
extern const lt__transpose_rows_seamed_fn lt__transpose_rows_seamed_avx512_f32;
extern const lt__transpose_rows_seamed_fn lt__transpose_rows_seamed_avx512_f16;
extern const lt__transpose_rows_seamed_fn lt__transpose_rows_seamed_avx512vbmi_u8;

/* One kernel table per path, indexed by log2(es). The vector tables may
 * only be called once the CPU is known to run their ISA. */
extern const lt__transpose_fn lt__transpose_scalar_table[4];
extern const lt__transpose_fn lt__transpose_avx2_table[4];
extern const lt__transpose_fn lt__transpose_avx512_table[4];
extern const lt__transpose_fn lt__transpose_avx512vbmi_table[4];
extern const lt__transpose_fn lt__transpose_scalar_streamed_table[4];
extern const lt__transpose_fn lt__transpose_avx2_streamed_table[4];
extern const lt__transpose_fn lt__transpose_avx512_streamed_table[4];
extern const lt__transpose_fn lt__transpose_avx512vbmi_streamed_table[4];

#endif
