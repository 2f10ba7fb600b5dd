/*
 * qs_version.c - identity of the QuickStore/J native library.
 *
 * The Java binding checks qs_abi_version() against the version it was compiled for, so that a stale
 * libquickstore.so from another build is refused with a clear message instead of misbehaving.
 */
#include "qs_export.h"

#define QS_ABI_VERSION 3

QS_EXPORT int qs_abi_version(void) { return QS_ABI_VERSION; }

QS_EXPORT const char *qs_build_info(void) { return "libquickstore abi " "3" " built " __DATE__ " " __TIME__ " gcc " __VERSION__; }
