/* libtensor: exchanging tensors with the rest of the ecosystem without
 * copies: DLPack (in-memory hand-over), safetensors (memory-mapped
 * read-only views) and NumPy's .npy files. */
#ifndef LIBTENSOR_INTEROP_H
#define LIBTENSOR_INTEROP_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- DLPack ---------------------------------------------------------------
 * The structs are DLPack's own (dlpack/dlpack.h); this header only names
 * them, so it compiles without dlpack.h. Include <dlpack/dlpack.h> to use
 * their fields.
 *
 * Dtypes: f32, f16, f64 (kDLFloat), bf16 (kDLBfloat), i32, i64 (kDLInt), u8
 * (kDLUInt), with one lane; bool (kDLBool) and float8 e4m3fn / e5m2 only
 * when the dlpack.h the library was built against has those codes (0.8+
 * and 1.1+; Debian 12 ships 0.6, which has neither). Anything else is
 * LT_ERR_DTYPE. Devices: kDLCPU and kDLCUDA; anything else, or a device this
 * build cannot use, is LT_ERR_DEVICE. */
struct DLManagedTensor;
struct DLManagedTensorVersioned;

/* A DLManagedTensor viewing t's elements (data is the address of t's first
 * element, byte_offset 0, strides always filled in). It holds a reference
 * to t, so t's storage stays alive until the consumer calls the returned
 * struct's deleter, exactly once. Errors (NULL): LT_ERR_ARG (t NULL, or t
 * read-only: unversioned DLPack cannot say so; lt_clone it first),
 * LT_ERR_DTYPE, LT_ERR_NOMEM. Thread-safe. */
LT_API struct DLManagedTensor *lt_to_dlpack(const lt_tensor *t);
/* Zero-copy: a tensor over a producer's DLManagedTensor. On success the
 * tensor owns m: m->deleter(m) runs (if non-NULL) when the last reference
 * to its storage goes. On failure m is untouched and still the caller's
 * (who must call its deleter). Errors (NULL): LT_ERR_ARG (m NULL, ndim out
 * of 0..LT_MAX_DIMS, a negative size, data not aligned to its element
 * size), LT_ERR_DTYPE, LT_ERR_DEVICE, LT_ERR_NOMEM. */
LT_API lt_tensor *lt_from_dlpack(struct DLManagedTensor *m);
/* The same for DLPack 1.x's versioned struct, which carries a read-only
 * flag both ways (a read-only t is exported with it set; an imported
 * tensor flagged read-only refuses writes). A struct whose major version
 * is newer than the library's is refused with LT_ERR_ARG. When the
 * library was built against a dlpack.h without the versioned struct, both
 * fail with LT_ERR_ARG saying so. */
LT_API struct DLManagedTensorVersioned *lt_to_dlpack_versioned(const lt_tensor *t);
LT_API lt_tensor *lt_from_dlpack_versioned(struct DLManagedTensorVersioned *m);

/* ---- safetensors ------------------------------------------------------------
 * The format: an 8-byte little-endian header length N, N bytes of JSON
 * ({"name": {"dtype": "F32", "shape": [2, 3], "data_offsets": [begin,
 * end]}, ..., "__metadata__": {"key": "value"}}), then the data. Dtype
 * names: F32 F16 BF16 F8_E4M3 F8_E5M2 F64 I32 I64 U8 BOOL. */
typedef struct lt_safetensors lt_safetensors; /* an open file; opaque */

/* Writes n tensors (any layout, host or device; elements go out in
 * row-major order) under names (unique, non-empty) to path, replacing it.
 * metadata is NULL or a NULL-terminated list of key/value strings {"k1",
 * "v1", "k2", "v2", NULL} stored as __metadata__. Data is laid out largest
 * element size first, so every tensor starts aligned to its element size.
 * Errors: LT_ERR_ARG (NULL or duplicate names, n < 0, NULL tensor, odd
 * metadata list), LT_ERR_IO (cannot write; a partial file is removed),
 * LT_ERR_NOMEM. */
LT_API lt_status lt_safetensors_save(const char *path, int n, const char *const *names,
                                     lt_tensor *const *tensors, const char *const *metadata);
/* Memory-maps path read-only and checks the whole header: an exact
 * header length inside the file (at most 100 MB), valid JSON, known dtypes,
 * shapes whose byte sizes equal their offset ranges, ranges that tile the
 * data with no gap, overlap or overrun. Errors (NULL): LT_ERR_ARG (path
 * NULL), LT_ERR_IO (missing, unreadable or malformed, with the reason),
 * LT_ERR_NOMEM. Close it with lt_safetensors_close. */
LT_API lt_safetensors *lt_safetensors_open(const char *path);
/* Number of tensors in f (-1 and LT_ERR_ARG if f is NULL). */
LT_API int lt_safetensors_count(const lt_safetensors *f);
/* Name of tensor i (0 <= i < count), in the order the header lists them;
 * valid until lt_safetensors_close(f). NULL and LT_ERR_ARG if i is out of
 * range. */
LT_API const char *lt_safetensors_name(const lt_safetensors *f, int i);
/* The __metadata__ value for key, valid until close; NULL (and LT_OK) when
 * the file has none for key. */
LT_API const char *lt_safetensors_metadata(const lt_safetensors *f, const char *key);
/* A zero-copy, read-only view of the named tensor: lt_write and lt_copy
 * into it fail with LT_ERR_ARG; lt_clone gives a writable copy. The view
 * keeps the mapping alive after lt_safetensors_close. A tensor whose data
 * is not aligned to its element size in the file (legal, but not written
 * by common writers) comes back as a read-only aligned copy instead.
 * Errors (NULL): LT_ERR_ARG (f or name NULL, no such name), LT_ERR_DTYPE
 * (a valid safetensors dtype libtensor lacks, e.g. I16), LT_ERR_IO (a BOOL
 * byte other than 0 or 1), LT_ERR_NOMEM. Thread-safe for one f. */
LT_API lt_tensor *lt_safetensors_get(const lt_safetensors *f, const char *name);
/* Frees the header data; the mapping goes when the last view does too.
 * NULL is fine. Names and metadata strings from f die here. */
LT_API void lt_safetensors_close(lt_safetensors *f);

/* ---- NumPy .npy -------------------------------------------------------------
 * Dtypes: f32 <f4, f16 <f2, f64 <f8, i32 <i4, i64 <i8, u8 |u1, bool |b1.
 * bf16 and float8 have no NumPy descr: LT_ERR_DTYPE. */

/* Writes t (any layout, host or device) to path in format 1.0 (2.0 if the
 * header needs it), C order, little-endian. Errors: LT_ERR_ARG (NULL
 * argument), LT_ERR_DTYPE, LT_ERR_IO (cannot write; a partial file is
 * removed), LT_ERR_NOMEM. */
LT_API lt_status lt_save_npy(const char *path, const lt_tensor *t);
/* Reads a format 1.0, 2.0 or 3.0 file: little- or big-endian descr (the
 * result is in host order), C order, or Fortran order (the result then has
 * column-major strides, as NumPy's array does). A new, writable CPU
 * tensor. Errors (NULL): LT_ERR_ARG (path NULL), LT_ERR_DTYPE (a descr
 * other than those above, e.g. <i2 or a structured dtype), LT_ERR_IO
 * (missing, unreadable, malformed, or data not exactly the size the
 * header states), LT_ERR_NOMEM. */
LT_API lt_tensor *lt_load_npy(const char *path);

#ifdef __cplusplus
}
#endif
#endif
