#!/usr/bin/env bash
# Builds and runs bench_diff.c (qs_page_diff per 8 KiB page: a new page against zeros, an update of six words) over
# 512 pages (out of the core's caches) and over 64 pages (in them), 200 passes each for the latter.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src="$here/../../main/c"
out=${1:-/tmp/qs-bench-diff}
gcc -std=gnu11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -pthread -I"$src" -o "$out" "$here/bench_diff.c" "$src"/*.c -lpthread
gcc -std=gnu11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -pthread -I"$src" -DPAGES=64 -DREPS=200 -o "$out-64" \
    "$here/bench_diff.c" "$src"/*.c -lpthread
echo "512 pages:"
"$out"
echo "64 pages, 200 passes:"
"$out-64"
