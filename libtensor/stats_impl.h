/* Internal: per-device counters behind lt_stats_get. Lock-free atomics, so
 * any thread may count. */
#ifndef LT_STATS_IMPL_H
#define LT_STATS_IMPL_H

#include <stdint.h>

#include "libtensor/stats.h"

void lt__stats_alloc(lt_device dev, int64_t bytes);
void lt__stats_free(lt_device dev, int64_t bytes);
void lt__stats_copy(lt_device dev, int64_t bytes, bool implicit);
void lt__stats_flops(lt_device dev, int64_t flops);

#endif
