#!/usr/bin/env bash
# Builds and runs bench_texas.c (Texas swizzling at fault time vs no translation) against the library sources.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$here/../../main/c
out=/tmp/qs-bench-texas
gcc -std=gnu11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -pthread -I"$src" -o "$out" "$here/bench_texas.c" "$src"/*.c -lpthread
exec "$out" "$@"
