/* Transposes whose source unit dim holds a few interleaved channels
 * (pixels in HWC order to CHW planes), which the tile kernels take
 * badly: as gathers of the strided copy, a row per channel, or a block
 * of pixels at a time. */
#include "channel_transpose.h"

#include "dtype.h"
#include "gather.h"
#include "odometer.h"
#include "pool.h"
#include "stream.h"

/* A transpose whose source unit dim holds a few interleaved channels (an
 * image's pixels in HWC order to CHW: src[p][c] to dst[c][p], C of 2 to 8)
 * has no full tile along the source's rows: the edge kernel took it 16
 * pixels at a time, each a 16 x 16 transpose of which C columns count, and
 * stored C pieces of 64 bytes to rows far apart. Taken as C gathers instead
 * (each destination row, the source's elements C apart: the strided copy's
 * gathers), it reads the source C times, from cache after the first where a
 * plane fits there, and writes each row in order. Same-run ratio to memcpy,
 * bench_access --permute 0,3,1,2, tiles -> gathers: F32 [32, 224, 224, 3]
 * 0.29 -> 0.86, [64, 224, 224, 2] 0.28 -> 1.04, [64, 224, 224, 4] 0.34 ->
 * 0.88, [1, 4096, 4096, 3] (planes past the caches) 0.53 -> 0.60; bf16 [64,
 * 224, 224, 2] 0.11 -> 0.90, [32, 224, 224, 3] 0.10 -> 0.43, [64, 224, 224,
 * 4] 0.20 -> 0.54; u8 [64, 224, 224, 2] 0.045 -> 0.67, [32, 224, 224, 3]
 * 0.05 -> 0.46, [64, 224, 224, 4] 0.16 -> 0.46; 2-D [20000, C] (in cache)
 * F32 C = 2, 3, 4 0.07-0.20 -> 0.34-0.45, bf16 0.04-0.16 -> 0.22-0.43, u8
 * 0.02-0.08 -> 0.20-0.29. Up to 4 channels that holds at every size (planes
 * past the caches go in blocks: below). From 5 to 8
 * (GATHER_MAX_CHANNELS_WIDE) it holds for copies of 16 MiB or more whose
 * planes (a gather's source) stay cached, up to GATHER_PLANE_MAX_BYTES:
 * [64, 224, 224, C], C = 5, 6, 7: F32 0.36-0.40 -> 0.53-0.62, bf16
 * 0.22-0.26 -> 0.43-0.51, u8 0.16-0.17 -> 0.35-0.41; C = 8: F32 level
 * (0.43), bf16 0.30 -> 0.43, u8 0.17 -> 0.33; planes of 6 MiB, [16, 512,
 * 512, 6] F32 0.41 -> 0.59, [8, 1024, 1024, 6] u8 0.20 -> 0.49. Whole
 * planes of 24 MiB ([8, 1024, 1024, 6] F32) came level, of 134 MiB
 * ([5000000, 7]) lost (F32 0.41 -> 0.26, bf16 0.33 -> 0.24), and go in
 * blocks; near 8 MiB of output, where memcpy runs from the last-level
 * cache, the tiles came ahead (F32 [8, 224, 224, 5 to 7] 0.42-0.46 against
 * 0.30-0.33 gathered; [16, 224, 224, 6] 0.33 -> 0.44, [24, 224, 224, 6]
 * 0.31 -> 0.43). */
enum { GATHER_MAX_CHANNELS = 4, GATHER_MAX_CHANNELS_WIDE = 8, GATHER_PLANE_MAX_BYTES = 8 << 20 };
#define GATHER_WIDE_MIN_BYTES ((int64_t)16 << 20)

/* Planes past GATHER_PLANE_MAX_BYTES, which the gathers would read from
 * memory once per channel, go a block of pixels at a time instead
 * (channel_blocks): every channel's gather of the block, whose source stays
 * in L2 from the first to the last. Same-run ratio to memcpy, bench_access
 * --permute 1,0, tiles or whole-plane gathers -> blocks: [16000000, 3] F32
 * 0.60 -> 1.06, bf16 0.62 -> 1.04, u8 0.59 -> 1.00; [5000000, 7] F32 0.41
 * -> 0.60-0.61, bf16 0.29 -> 0.50-0.53, u8 0.20 -> 0.44; --permute 0,3,1,2
 * [4, 1024, 1024, 6] F32 0.38 -> 0.60-0.61, bf16 0.26 -> 0.49. Planes that
 * stay cached lost that way (F32 [64, 224, 224, 3] 0.93 -> 0.88, [16, 224,
 * 224, 3] 0.62 -> 0.54) and keep whole-plane gathers. A channel's block is
 * CHANNEL_BLOCK_BYTES of its row for up to 4 channels and
 * CHANNEL_BLOCK_BYTES_WIDE past that: [16000000, 3] F32 measured 0.93-0.94
 * at 16 KiB, 0.96-0.98 at 24, 1.02-1.08 at 40 and 64; [5000000, 7] and
 * [8000000, 5] 0.61-0.65 at 16 KiB, 0.56-0.60 at 40 and 64. */
enum { CHANNEL_BLOCK_BYTES = 65536, CHANNEL_BLOCK_BYTES_WIDE = 16384, CHANNEL_PIECE_BYTES = 16384 };

typedef enum channels_route { CHANNELS_TILED, CHANNELS_GATHERED, CHANNELS_BLOCKED } channels_route;

/* How a transpose whose output is out_bytes long takes its source unit
 * dim, where that holds a few channels. */
static channels_route route_channels(const lt__copy_args *a, int64_t out_bytes) {
  int in = a->ndim - 1, k = a->transpose_dim;
  int64_t channels = a->shape[k], step = a->src_strides[in];
  if (channels > GATHER_MAX_CHANNELS_WIDE || step > GATHER_MAX_CHANNELS_WIDE) return CHANNELS_TILED;
  int64_t plane = a->shape[in] * step * (int64_t)lt__dtype_size(a->src_dtype);
  if (plane > GATHER_PLANE_MAX_BYTES) return CHANNELS_BLOCKED;
  if (channels <= GATHER_MAX_CHANNELS && step <= GATHER_MAX_CHANNELS) return CHANNELS_GATHERED;
  return out_bytes >= GATHER_WIDE_MIN_BYTES ? CHANNELS_GATHERED : CHANNELS_TILED;
}

typedef struct channel_job {
  const lt__copy_args *a;
  int64_t per;    /* pixels per block */
  int64_t blocks; /* blocks per plane */
  bool streamed;  /* the copy outgrows the caches: stream the rows */
} channel_job;

/* n elements step apart from src to dst, streamed: by a kernel of the
 * step where this CPU has one, else gathered through buf a piece at a
 * time. */
static void stream_gather(char *dst, const char *src, int64_t step, int64_t n, int64_t es, char *buf) {
  if (lt__stream_strided(dst, src, step, n, (size_t)es)) return;
  for (int64_t i = 0, piece = CHANNEL_PIECE_BYTES / es; i < n; i += piece) {
    int64_t m = n - i < piece ? n - i : piece;
    lt__gather(buf, src + i * step * es, step, m, (size_t)es, true);
    lt__stream_copy(dst + i * es, buf, (size_t)(m * es));
  }
}

/* Blocks [u0, u1) of pixels (outer index u / blocks, block u % blocks),
 * each channel's row of each block in turn (see route_channels). */
static void channel_blocks(void *ctx, int64_t u0, int64_t u1) {
  const channel_job *j = ctx;
  const lt__copy_args *a = j->a;
  int64_t es = (int64_t)lt__dtype_size(a->dst_dtype);
  int in = a->ndim - 1, k = a->transpose_dim;
  int64_t step = a->src_strides[in], dld = a->dst_strides[k] * es;
  _Alignas(64) char buf[CHANNEL_PIECE_BYTES];
  for (int64_t u = u0; u < u1; u++) {
    int64_t p0 = u % j->blocks * j->per, n = a->shape[in] - p0 < j->per ? a->shape[in] - p0 : j->per;
    lt__odometer o = lt__odometer_at(a, in, k, u / j->blocks, es, es);
    char *dst = a->dst + o.dst_off + p0 * es;
    const char *src = a->src + o.src_off + p0 * step * es;
    for (int64_t c = 0; c < a->shape[k]; c++) {
      if (j->streamed) stream_gather(dst + c * dld, src + c * es, step, n, es, buf);
      else lt__gather(dst + c * dld, src + c * es, step, n, (size_t)es, true);
    }
  }
  if (j->streamed) lt__stream_fence();
}

lt__channels lt__channel_transpose(const lt__copy_args *a, int64_t numel, int64_t bytes) {
  int64_t es = (int64_t)lt__dtype_size(a->dst_dtype), pixels = a->shape[a->ndim - 1];
  switch (route_channels(a, numel * es)) {
  case CHANNELS_TILED: return LT__CHANNELS_TILES;
  case CHANNELS_GATHERED: return LT__CHANNELS_GATHERS;
  case CHANNELS_BLOCKED: break;
  }
  int64_t block = a->shape[a->transpose_dim] <= GATHER_MAX_CHANNELS ? CHANNEL_BLOCK_BYTES : CHANNEL_BLOCK_BYTES_WIDE;
  channel_job j = {a, block / es, 0, numel * es >= LT__STREAM_MIN_BYTES};
  j.blocks = (pixels + j.per - 1) / j.per;
  lt__parallel_for(numel / (pixels * a->shape[a->transpose_dim]) * j.blocks, bytes, channel_blocks, &j);
  return LT__CHANNELS_DONE;
}
