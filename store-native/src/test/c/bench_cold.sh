#!/usr/bin/env bash
# Builds and runs bench_cold.c (what a cold opening's faults cost, read-ahead on and off) against the library
# sources; once in page order, once in a shuffled order.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$here/../../main/c
out=${1:-/tmp/qs-bench-cold}
gcc -std=gnu11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -pthread -I"$src" -o "$out" "$here/bench_cold.c" "$src"/*.c -lpthread
"$out"
"$out" shuffled
