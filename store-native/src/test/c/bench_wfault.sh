#!/usr/bin/env bash
# Builds and runs bench_wfault.c (what a write fault costs beyond its baseline) against the library sources.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$here/../../main/c
out=${1:-/tmp/qs-bench-wfault}
gcc -std=gnu11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -pthread -I"$src" -o "$out" "$here/bench_wfault.c" "$src"/*.c -lpthread
"$out"
"$out" spin
