#!/usr/bin/env bash
# Run FlexHeap's jtreg tests against the FlexHeap JDK (jtreg 8 on JDK 25).
# Usage: jdk/test/run-jtreg.sh [jtreg args / test paths]   (default: all of ours)
set -euo pipefail
. "$(dirname "$0")/../common.sh"
jdk="${FLEXHEAP_JDK:-$JDK_OUT}"
[ -x "$jdk/bin/java" ] || die "no FlexHeap JDK at $jdk (run jdk/build.sh)"
jar=$("$FLEXHEAP_ROOT/jdk/fetch-jtreg.sh")
work="$FLEXHEAP_ROOT/build/jtreg"
mkdir -p "$work"
tests=("$@"); [ ${#tests[@]} -gt 0 ] || tests=("$FLEXHEAP_ROOT/jdk/test/jtreg/gc/g1/flexheap")
"$jdk/bin/java" -jar "$jar" -jdk:"$jdk" -conc:1 -agentvm -verbose:summary -timeoutFactor:2 \
  -w:"$work/work" -r:"$work/report" "${tests[@]}"
