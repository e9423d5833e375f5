#!/usr/bin/env bash
#
# Copyright (c) 2026, FlexHeap contributors. All rights reserved.
# DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
#
# This code is free software; you can redistribute it and/or modify it
# under the terms of the GNU General Public License version 2 only, as
# published by the Free Software Foundation.  The FlexHeap contributors
# designate this particular file as subject to the "Classpath" exception
# as provided by Oracle in the LICENSE file that accompanied this code.
#
# This code is distributed in the hope that it will be useful, but WITHOUT
# ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
# FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General Public License
# version 2 for more details (a copy is included in the LICENSE file that
# accompanied this code).
#
# You should have received a copy of the GNU General Public License version
# 2 along with this work; if not, write to the Free Software Foundation,
# Inc., 51 Franklin St, Fifth Floor, Boston, MA 02110-1301 USA.
#
# FlexHeap's own jtreg tests on the fastdebug JVM (HotSpot's asserts on), with
# heap verification before and after every GC in every JVM the tests start.
# Usage: jdk/test/debug/run-jtreg-debug.sh [--release] [--no-verify] [tests...]
#   --release: heap verification on the release JDK (build/flexheap-jdk; no asserts), e.g.
#              while no fastdebug build exists
#   default tests: jdk/test/jtreg/gc/g1/flexheap (ours) and gc/g1/flexheapstress
# The verification flags reach the child JVMs the tests launch through
# JAVA_TOOL_OPTIONS (jtreg -e), since our tests start their own child JVMs.
set -euo pipefail
. "$(dirname "$0")/../../common.sh"
jdk="${FLEXHEAP_DEBUG_JDK:-$FLEXHEAP_ROOT/build/flexheap-jdk-fastdebug}"
if [ "${1:-}" = --release ]; then jdk="$JDK_OUT"; shift
else
  [ -x "$jdk/bin/java" ] || die "no fastdebug FlexHeap JDK at $jdk (FLEXHEAP_DEBUG_LEVEL=fastdebug jdk/build.sh)"
  "$jdk/bin/java" -version 2>&1 | grep -q fastdebug || die "$jdk is not a fastdebug JVM"
fi
[ -x "$jdk/bin/java" ] || die "no JDK at $jdk"
verify="-XX:+UnlockDiagnosticVMOptions -XX:+VerifyBeforeGC -XX:+VerifyAfterGC"
if [ "${1:-}" = --no-verify ]; then verify=""; shift; fi
tests=("$@") default_tests=0
[ ${#tests[@]} -gt 0 ] || default_tests=1 tests=("$FLEXHEAP_ROOT/jdk/test/jtreg/gc/g1/flexheap" "$FLEXHEAP_ROOT/jdk/test/jtreg/gc/g1/flexheapstress")
jar=$("$FLEXHEAP_ROOT/jdk/fetch-jtreg.sh")
work="$FLEXHEAP_ROOT/build/jtreg-verify/$(basename "$jdk")"
mkdir -p "$work"; rm -rf "$work/report" "$work/report-noverify"
# Tests that judge sizing by the GC cost they measure cannot run under heap
# verification (it multiplies every pause); they run on the same JVM, asserts
# on, without it (no-verify.txt, one reason each).
noverify_file="$(dirname "$0")/no-verify.txt"
mapfile -t noverify < <(sed -e 's/#.*//' "$noverify_file" | awk 'NF { print $1 }' |
                         sed "s|^|$FLEXHEAP_ROOT/jdk/test/jtreg/|")
run_jtreg() {  # run_jtreg REPORT_DIR JTREG_ARGS...
  local report=$1; shift
  nice -n "${FLEXHEAP_NICE:-10}" "$jdk/bin/java" -jar "$jar" -jdk:"$jdk" -conc:1 -agentvm -verbose:summary \
    -timeoutFactor:"${FLEXHEAP_JTREG_TIMEOUT_FACTOR:-6}" -w:"$work/work" -r:"$report" "$@"
}
log "jtreg on $jdk${verify:+ with $verify}"
start=$SECONDS
touch "$work/.started"
set +e
if [ -n "$verify" ] && [ $default_tests = 1 ]; then
  run_jtreg "$work/report" -e:JAVA_TOOL_OPTIONS="$verify" -exclude:"$noverify_file" "${tests[@]}"
  rc=$?
  if [ ${#noverify[@]} -gt 0 ]; then
    log "without heap verification (no-verify.txt): ${#noverify[@]} tests"
    run_jtreg "$work/report-noverify" "${noverify[@]}"
    r=$?; [ $rc -ne 0 ] || rc=$r
  fi
else
  # Tests named on the command line run as asked, no-verify.txt or not.
  env_args=(); [ -z "$verify" ] || env_args=(-e:JAVA_TOOL_OPTIONS="$verify")
  run_jtreg "$work/report" "${env_args[@]}" "${tests[@]}"
  rc=$?
fi
set -e
[ $rc -eq 0 ] || jtreg_failures "$work/work" "$work/.started"
# A failed HotSpot assert leaves an hs_err file in the scratch directories.
hs=$(find "$work/work" -name 'hs_err_pid*.log' -newer "$work/.started" 2>/dev/null | head -5)
if [ -n "$hs" ]; then
  echo "hs_err files (asserts or crashes):"; for f in $hs; do echo "  $f: $(grep -m1 -E 'assert|guarantee|SIGSEGV|Internal Error' "$f")"; done
  rc=1
fi
echo "jtreg-fastdebug: exit $rc in $((SECONDS - start))s"
exit $rc
