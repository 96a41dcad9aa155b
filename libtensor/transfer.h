/* Internal: copies whose source and destination lie on different devices
 * (lt_to_device, lt_copy across devices, lt_read and lt_write of device
 * tensors). */
#ifndef LT_TRANSFER_H
#define LT_TRANSFER_H

#include "copy_entry.h"

/* As lt__copy_run, for a copy whose destination is on r->device and whose
 * source is on src_device (a different device). Each side's layout is
 * gathered into a dense row-major staging buffer on its own device by that
 * device's strided copy when it is not dense already, the bytes cross
 * once through the device backend's transfer entry, and a conversion of
 * dtype happens on the destination's device. Counted and traced as one
 * copy on the destination's device unless r->kind is LT__COPY_IO. LT_OK,
 * or the error set (LT_ERR_DEVICE when a device is missing, LT_ERR_NOMEM
 * for staging, LT_ERR_ARG for a failing conversion). */
lt_status lt__copy_across(const lt__copy_request *r, lt_device src_device);

#endif
