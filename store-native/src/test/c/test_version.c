/* test_version.c - smoke test of the C unit-test harness: the ABI version is what Java expects. */
#include <stdio.h>
#include <string.h>

int qs_abi_version(void);
const char *qs_build_info(void);

int main(void) {
    if (qs_abi_version() != 20) { fprintf(stderr, "abi version %d, expected 20\n", qs_abi_version()); return 1; }
    if (strstr(qs_build_info(), "libquickstore") == NULL) { fprintf(stderr, "bad build info\n"); return 1; }
    return 0;
}
