/* libtensor: an embeddable C11 tensor library with a view/stride engine.
 * This umbrella header declares the whole public API. */
#ifndef LIBTENSOR_H
#define LIBTENSOR_H

#include "libtensor/types.h"
#include "libtensor/tensor.h"
#include "libtensor/views.h"
#include "libtensor/copy.h"
#include "libtensor/stats.h"
#include "libtensor/rearrange.h"
#include "libtensor/threads.h"
#include "libtensor/interop.h"
#include "libtensor/compute.h"

#endif
