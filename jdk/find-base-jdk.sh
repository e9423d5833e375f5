#!/usr/bin/env bash
# Print the home of an installed HotSpot JDK of exactly our OpenJDK version
# (by its release file, not its path), or nothing. FLEXHEAP_BASE_JDK_DIRS
# overrides where to look (colon separated).
set -euo pipefail
. "$(dirname "$0")/common.sh"
IFS=: read -r -a dirs <<< "${FLEXHEAP_BASE_JDK_DIRS:-/usr/lib/jvm:/opt/java:/opt:/usr/local}"
for d in "${dirs[@]}"; do
  for rel in "$d"/*/release; do
    [ -f "$rel" ] || continue
    home=$(dirname "$rel")
    ver=$(sed -n 's/^JAVA_RUNTIME_VERSION="\(.*\)"/\1/p' "$rel")
    case "$ver" in "$JDK_VERSION"|"$JDK_VERSION"-*) ;; *) continue ;; esac
    grep -q '^JVM_VARIANT="Hotspot"' "$rel" || continue
    [ -f "$home/lib/server/libjvm.so" ] && [ -x "$home/bin/javac" ] || continue
    echo "$home"; exit 0
  done
done
