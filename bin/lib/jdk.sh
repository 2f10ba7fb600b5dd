# shellcheck shell=bash
# Finds a JDK >= 25 for QuickStore/J and exports JAVA_HOME. Sourced by bin/* scripts.
#   1. JAVA_HOME, when it points at a JDK 25 or newer;
#   2. otherwise the newest JDK >= 25 under the system JVM directory (/usr/lib/jvm, or QS_JVM_DIR);
#   3. otherwise one line saying what to install, and exit status 3.
QS_MIN_JDK=25

qs_jdk_feature() { # prints the feature version (e.g. 25) of the JDK at $1, or nothing
  local java="$1/bin/java" line v
  [ -x "$java" ] || return 0
  # `java -XshowSettings:properties` is slow; the release file is authoritative and instant.
  if [ -r "$1/release" ]; then
    line=$(grep -m1 '^JAVA_VERSION=' "$1/release" 2>/dev/null)
    v=${line#JAVA_VERSION=}; v=${v//\"/}
  fi
  if [ -z "${v:-}" ]; then
    v=$("$java" -version 2>&1 | sed -n '1s/.*version "\([^"]*\)".*/\1/p')
  fi
  v=${v#1.}          # 1.8 -> 8
  printf '%s\n' "${v%%[.+-]*}"
}

qs_find_jdk() {
  local cand f best="" bestv=0
  if [ -n "${JAVA_HOME:-}" ]; then
    f=$(qs_jdk_feature "$JAVA_HOME")
    if [ -n "$f" ] && [ "$f" -ge "$QS_MIN_JDK" ] 2>/dev/null; then
      printf '%s\n' "$JAVA_HOME"; return 0
    fi
  fi
  for cand in "${QS_JVM_DIR:-/usr/lib/jvm}"/*; do
    [ -d "$cand" ] && [ ! -L "$cand" ] || continue
    f=$(qs_jdk_feature "$cand")
    if [ -n "$f" ] && [ "$f" -ge "$QS_MIN_JDK" ] 2>/dev/null && [ "$f" -gt "$bestv" ]; then
      best=$cand; bestv=$f
    fi
  done
  [ -n "$best" ] && printf '%s\n' "$best"
}

if ! QS_JDK=$(qs_find_jdk) || [ -z "$QS_JDK" ]; then
  echo "error: QuickStore/J needs JDK ${QS_MIN_JDK}+; none found (JAVA_HOME=${JAVA_HOME:-unset}, searched ${QS_JVM_DIR:-/usr/lib/jvm}) - install one, e.g. 'apt-get install temurin-25-jdk', or set JAVA_HOME to it." >&2
  exit 3
fi
export JAVA_HOME="$QS_JDK"
export PATH="$JAVA_HOME/bin:$PATH"
# Maven 3.8's own libraries (Guice) use sun.misc.Unsafe, which JDK 24+ warns about on every build. The flag
# lives here, not in .mvn/jvm.config, so that `mvn` started with an older default JDK still starts and
# reaches the enforcer's one-line "needs JDK 25" message instead of dying on an unknown option.
case " ${MAVEN_OPTS:-} " in
  *" --sun-misc-unsafe-memory-access="*) ;;
  *) export MAVEN_OPTS="${MAVEN_OPTS:+$MAVEN_OPTS }--sun-misc-unsafe-memory-access=allow" ;;
esac
# Maven 3.8.7 (Debian's build) writes ANSI codes (ESC[0m) even with -B -q and style.color=never; when the output
# is not a terminal (CI logs, pipes, files) qs_mvn runs Maven with its two streams merged and those codes
# stripped, keeping Maven's exit status.
qs_mvn() {
  if [ -t 1 ] && [ -z "${CI:-}" ]; then
    mvn "$@"
  else
    set -o pipefail
    mvn -Dstyle.color=never "$@" 2>&1 | sed -u 's/\x1b\[[0-9;]*m//g'
  fi
}
