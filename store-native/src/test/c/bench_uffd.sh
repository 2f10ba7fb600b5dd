#!/usr/bin/env bash
# Builds and runs bench_uffd.c (write detection: page protection against userfaultfd write-protect in its
# asynchronous mode, Linux 6.7+), every frame and every third frame written, with and without a second thread
# of the process running on the other CPU (a JVM always has one: the TLB flush of an mprotect must reach it).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${1:-/tmp/qs-bench-uffd}
gcc -std=gnu11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -pthread -o "$out" "$here/bench_uffd.c"
for args in "1" "1 nospin" "3" "3 nospin"; do
    # shellcheck disable=SC2086
    "$out" $args
done
