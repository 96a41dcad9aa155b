/* Accounting: bytes held and their peak, allocations, copies and FLOPs, per
 * device. One slot for the host and one per CUDA device index. */
#include <stdatomic.h>

#include "error.h"
#include "stats_impl.h"

#define MAX_CUDA_DEVICES 16

typedef struct counters {
  atomic_llong bytes_in_use, peak_bytes, allocs, copies, implicit_copies, bytes_copied, flops;
} counters;

static counters slots[1 + MAX_CUDA_DEVICES];

static counters *slot_of(lt_device dev) {
  if (dev.kind == LT_CPU && dev.index == 0) return &slots[0];
  if (dev.kind == LT_CUDA && dev.index >= 0 && dev.index < MAX_CUDA_DEVICES)
    return &slots[1 + dev.index];
  return NULL;
}

void lt__stats_alloc(lt_device dev, int64_t bytes) {
  counters *c = slot_of(dev);
  if (!c) return;
  long long now = atomic_fetch_add(&c->bytes_in_use, bytes) + bytes;
  long long peak = atomic_load(&c->peak_bytes);
  while (now > peak && !atomic_compare_exchange_weak(&c->peak_bytes, &peak, now)) {
  }
  atomic_fetch_add(&c->allocs, 1);
}

void lt__stats_free(lt_device dev, int64_t bytes) {
  counters *c = slot_of(dev);
  if (c) atomic_fetch_sub(&c->bytes_in_use, bytes);
}

void lt__stats_copy(lt_device dev, int64_t bytes, bool implicit) {
  counters *c = slot_of(dev);
  if (!c) return;
  atomic_fetch_add(&c->copies, 1);
  atomic_fetch_add(&c->bytes_copied, bytes);
  if (implicit) atomic_fetch_add(&c->implicit_copies, 1);
}

void lt__stats_flops(lt_device dev, int64_t flops) {
  counters *c = slot_of(dev);
  if (c) atomic_fetch_add(&c->flops, flops);
}

LT_API lt_stats lt_stats_get(lt_device dev) {
  counters *c = slot_of(dev);
  if (!c) {
    lt__fail(LT_ERR_DEVICE, "stats_get: no such device (kind %d, index %d)", (int)dev.kind, dev.index);
    return (lt_stats){0};
  }
  lt__ok();
  return (lt_stats){
      .bytes_in_use = atomic_load(&c->bytes_in_use),
      .peak_bytes = atomic_load(&c->peak_bytes),
      .allocs = atomic_load(&c->allocs),
      .copies = atomic_load(&c->copies),
      .implicit_copies = atomic_load(&c->implicit_copies),
      .bytes_copied = atomic_load(&c->bytes_copied),
      .flops = atomic_load(&c->flops),
  };
}

LT_API void lt_stats_reset(lt_device dev) {
  counters *c = slot_of(dev);
  if (!c) {
    lt__fail(LT_ERR_DEVICE, "stats_reset: no such device (kind %d, index %d)", (int)dev.kind, dev.index);
    return;
  }
  atomic_store(&c->peak_bytes, atomic_load(&c->bytes_in_use));
  atomic_store(&c->allocs, 0);
  atomic_store(&c->copies, 0);
  atomic_store(&c->implicit_copies, 0);
  atomic_store(&c->bytes_copied, 0);
  atomic_store(&c->flops, 0);
  lt__ok();
}
