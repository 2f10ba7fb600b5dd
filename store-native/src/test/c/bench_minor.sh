#!/usr/bin/env bash
# Builds and runs bench_minor.c (a cold read fault through mprotect against userfaultfd's minor faults with SIGBUS):
# page order and shuffled, memory allocated ahead and by the loads.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${1:-/tmp/qs-bench-minor}
gcc -std=gnu11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -pthread -o "$out" "$here/bench_minor.c" -lpthread
"$out"
"$out" shuffled
"$out" alloc
"$out" alloc shuffled
