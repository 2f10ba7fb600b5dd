#!/usr/bin/env bash
# Builds the QuickStore/J native library (mode "lib") or builds and runs the C unit tests
# (mode "test"). Called by Maven (exec-maven-plugin); usable by hand:
#   bash store-native/src/main/c/build.sh lib  /tmp/out
#   bash store-native/src/main/c/build.sh test /tmp/out
set -euo pipefail
mode=${1:?usage: build.sh lib|test OUTDIR}
out=${2:?usage: build.sh lib|test OUTDIR}
src=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tests=$(cd "$src/../../test/c" 2>/dev/null && pwd || true)

os=$(uname -s); arch=$(uname -m)
if [ "$os" != Linux ] || [ "$arch" != x86_64 ]; then
  echo "error: QuickStore/J's native fault path supports linux-x86_64 only; this is $os-$arch." >&2
  exit 2
fi
CC=${CC:-gcc}
if ! command -v "$CC" >/dev/null 2>&1; then
  echo "error: no C compiler '$CC' on PATH; QuickStore/J builds its native library with gcc - install it (e.g. 'apt-get install gcc') or set CC." >&2
  exit 2
fi
CFLAGS_COMMON=(-std=gnu11 -O2 -fPIC -Wall -Wextra -Werror -fvisibility=hidden -D_GNU_SOURCE -pthread)
mkdir -p "$out"
lib_sources=("$src"/*.c)

case "$mode" in
  lib)
    "$CC" "${CFLAGS_COMMON[@]}" -shared -o "$out/libquickstore.so.tmp" "${lib_sources[@]}" -lpthread
    mv -f "$out/libquickstore.so.tmp" "$out/libquickstore.so"
    echo "[native] built $out/libquickstore.so"
    ;;
  test)
    shopt -s nullglob
    failed=0; ran=0
    for t in "$tests"/test_*.c; do
      name=$(basename "$t" .c)
      # Tests link the library sources directly (hidden symbols stay visible to them) and run under a watchdog.
      "$CC" "${CFLAGS_COMMON[@]}" -g -I"$src" -o "$out/$name" "$t" "${lib_sources[@]}" -lpthread
      ran=$((ran + 1))
      if timeout 120 "$out/$name"; then echo "[native] $name: ok"; else echo "[native] $name: FAILED (exit $?)" >&2; failed=$((failed + 1)); fi
      # again with every store arena loading by userfaultfd minor faults (qs_minor.c; qs_test.h's qs_arena_open)
      ran=$((ran + 1))
      if QS_TEST_MINOR=1 timeout 120 "$out/$name" >/dev/null; then echo "[native] $name (minor faults): ok"
      else echo "[native] $name (minor faults): FAILED (exit $?)" >&2; failed=$((failed + 1)); fi
    done
    echo "[native] C unit tests: $((ran - failed)) passed, $failed failed"
    [ "$failed" -eq 0 ]
    ;;
  *) echo "usage: build.sh lib|test OUTDIR" >&2; exit 2 ;;
esac
