#!/usr/bin/env bash
# Builds and runs bench_newpages.c (a page a transaction allocates: install of zeros + pre-image capture against
# qs_make_new's zero pre-image, per frame and in runs of 8), under mprotect loads and under minor faults.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src="$here/../../main/c"
out=${1:-/tmp/qs-bench-newpages}
gcc -std=gnu11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -pthread -I"$src" -o "$out" "$here/bench_newpages.c" "$src"/*.c -lpthread
echo "mprotect loads:"
"$out"
echo "minor faults:"
QS_TEST_MINOR=1 "$out"
