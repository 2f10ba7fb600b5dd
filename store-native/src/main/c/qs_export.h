/* qs_export.h - symbol visibility: the library is built with -fvisibility=hidden; only QS_EXPORT is public. */
#ifndef QS_EXPORT_H
#define QS_EXPORT_H
#define QS_EXPORT __attribute__((visibility("default")))
#endif
