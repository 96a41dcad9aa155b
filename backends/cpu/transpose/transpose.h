/* Internal: the CPU 2-D transpose kernels that every true-transpose copy
 * (the unit-stride dims of source and destination differ) is reduced to,
 * in a portable scalar version and AVX2/AVX-512 versions chosen at run
 * time. Every version moves exactly the bytes of the naive loop. */
#ifndef LT_TRANSPOSE_H
#define LT_TRANSPOSE_H

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
 * return (but see lt__transpose_best_streamed). That takes a buffer of up to 640 KiB from the library's
 * allocator (lt__alloc): the AVX2 path's panels, or the stage where
 * dst's rows are not 64-byte aligned (with the ends of packed rows,
 * lt__flush_ends). Without it a kernel
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
