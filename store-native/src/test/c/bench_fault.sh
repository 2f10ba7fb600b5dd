#!/usr/bin/env bash
# Builds and runs bench_fault.c (the fault-path cost breakdown) against the library sources.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$here/../../main/c
out=${1:-/tmp/qs-bench-fault}
gcc -std=gnu11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -pthread -I"$src" -o "$out" "$here/bench_fault.c" "$src"/*.c -lpthread
exec "$out"
