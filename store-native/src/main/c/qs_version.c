/*
 * qs_version.c - identity of the QuickStore/J native library.
 *
 * The Java binding checks qs_abi_version() against the version it was compiled for
 * (NativeLibrary.ABI_VERSION), so that a stale libquickstore.so from another build is refused with a
 * clear message instead of misbehaving. Bump both together whenever an exported function or a shared
 * struct changes.
 */
#include "qs_export.h"

#define QS_ABI_VERSION 20
#define QS_STR2(x) #x
#define QS_STR(x) QS_STR2(x)

QS_EXPORT int qs_abi_version(void) { return QS_ABI_VERSION; }

QS_EXPORT const char *qs_build_info(void) {
    return "libquickstore abi " QS_STR(QS_ABI_VERSION) " built " __DATE__ " " __TIME__ " gcc " __VERSION__;
}
