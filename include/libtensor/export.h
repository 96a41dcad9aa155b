/* libtensor: symbol visibility. Only declarations marked LT_API leave the
 * shared library; everything else is built with -fvisibility=hidden. */
#ifndef LIBTENSOR_EXPORT_H
#define LIBTENSOR_EXPORT_H

#if defined(LT_BUILDING_LIBRARY) && defined(__GNUC__)
#define LT_API __attribute__((visibility("default")))
#else
#define LT_API
#endif

#endif
