#!/usr/bin/env bash
# Builds and runs bench_mprotect.c (one mprotect's wall-clock cost, alone and beside a second running thread).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${1:-/tmp/qs-bench-mprotect}
gcc -std=gnu11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -pthread -o "$out" "$here/bench_mprotect.c"
for variant in alone spinning sleeping; do "$out" "$variant"; done
