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
# Run OpenJDK's own G1 tests (test/hotspot/jtreg of the source we build from)
# against a JDK, and print pass/fail counts.
#
# Usage: jdk/test/openjdk/run.sh [-c on|off|stock|debug-on] [-s ci|g1|gc|g1+gc] [jtreg args...] [tests...]
#   -c on        build/flexheap-jdk with -XX:+UseG1GC -XX:+UseFlexHeap (exclusions: flexheap-on.exclude)
#   -c off       build/flexheap-jdk with -XX:+UseG1GC (must equal stock)
#   -c stock     the Temurin 25.0.3 base JDK with -XX:+UseG1GC
#   -c debug-on  build/flexheap-jdk-fastdebug with UseFlexHeap and -XX:+VerifyBeforeGC -XX:+VerifyAfterGC
#   -s g1        test/hotspot/jtreg/gc/g1 (tier1_gc_1 and TestIHOPErgo: the whole directory)
#   -s gc        tier1_gc_2 (gc/ without g1, stress, epsilon, shenandoah); -XX:+UseG1GC makes jtreg
#                skip the tests of other collectors, so what runs is the G1-relevant part
#   -s ci        a fixed subset of a few minutes (ci-subset.txt)
# Tests given as arguments replace the subset. The test native libraries of gc/
# are built (see below) and passed with -nativepath. Exit status: 0 iff nothing failed.
# Environment: FLEXHEAP_JTREG_CONC (default 2), FLEXHEAP_OPENJDK_VMOPTS (extra VM options).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../../common.sh"
config=on subset=ci extra=() tests=()
while [ $# -gt 0 ]; do
  case "$1" in
    -c) config=$2; shift 2 ;;
    -s) subset=$2; shift 2 ;;
    -*) extra+=("$1"); shift ;;
    *) tests+=("$1"); shift ;;
  esac
done
src="$SRC_PRISTINE/test/hotspot/jtreg"
[ -d "$src" ] || src=$("$FLEXHEAP_ROOT/jdk/fetch-source.sh")/test/hotspot/jtreg
base=$("$FLEXHEAP_ROOT/jdk/find-base-jdk.sh" || true)
vmopts=(-XX:+UseG1GC)
exclude=(-exclude:"$src/ProblemList.txt")   # OpenJDK's own known failures, as in make test
case "$config" in
  on)       jdk="$JDK_OUT"; vmopts+=(-XX:+UseFlexHeap); exclude+=(-exclude:"$here/flexheap-on.exclude") ;;
  off)      jdk="$JDK_OUT" ;;
  stock)    jdk="${FLEXHEAP_STOCK_JDK:-$base}" ;;
  debug-on) jdk="$FLEXHEAP_ROOT/build/flexheap-jdk-fastdebug"
            vmopts+=(-XX:+UseFlexHeap -XX:+UnlockDiagnosticVMOptions -XX:+VerifyBeforeGC -XX:+VerifyAfterGC)
            exclude+=(-exclude:"$here/flexheap-on.exclude" -exclude:"$here/verify.exclude") ;;
  *) die "unknown config $config (on, off, stock, debug-on)" ;;
esac
[ -n "$jdk" ] && [ -x "$jdk/bin/java" ] || die "no JDK for config $config at '${jdk:-}'"
# shellcheck disable=SC2206
vmopts+=(${FLEXHEAP_OPENJDK_VMOPTS:-})

if [ ${#tests[@]} -eq 0 ]; then
  case "$subset" in
    g1) tests=("$src/gc/g1") ;;
    gc) tests=("$src:tier1_gc_2") ;;
    g1+gc) tests=("$src/gc/g1" "$src:tier1_gc_2") ;;
    ci) while read -r t; do tests+=("$src/$t"); done < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/ci-subset.txt") ;;
    *) die "unknown subset $subset (ci, g1, gc, g1+gc)" ;;
  esac
fi

# Test native libraries of gc/ (libTestPeriodicCollectionJNI, libTestJNIWeak,
# libTestCSLocker): plain JNI sources, compiled here against the JDK's own
# headers as OpenJDK's make does (build-test-hotspot-jtreg-native), without a
# configured build dir or its lock. FLEXHEAP_OPENJDK_NATIVE=make builds all of
# them with that make target in the release build dir instead (minutes).
native="$FLEXHEAP_ROOT/build/openjdk-jtreg/native"
if [ "${FLEXHEAP_OPENJDK_NATIVE:-gcc}" = make ]; then
  native="$BUILD_DIR/support/test/hotspot/jtreg/native/lib"
  if [ ! -f "$native/.flexheap-built" ]; then
    [ -f "$BUILD_DIR/spec.gmk" ] || die "no configured build in $BUILD_DIR (run jdk/build.sh first)"
    log "building the hotspot jtreg test native libraries (log: $BUILD_DIR/build-test-native.log)"
    (flock 9; nice -n 10 make -C "$BUILD_DIR" build-test-hotspot-jtreg-native LOG=warn) \
      9>"$FLEXHEAP_CACHE/build.lock" > "$BUILD_DIR/build-test-native.log" 2>&1 \
      || { tail -20 "$BUILD_DIR/build-test-native.log" >&2; die "building test native libraries failed"; }
    touch "$native/.flexheap-built"
  fi
else
  mkdir -p "$native"
  while read -r c; do
    lib="$native/$(basename "${c%.*}").so"
    [ "$lib" -nt "$c" ] && continue
    cc=gcc; [[ $c == *.cpp ]] && cc=g++
    $cc -O2 -fPIC -shared -I"$jdk/include" -I"$jdk/include/linux" -o "$lib" "$c" \
      || die "cannot compile test native library $c"
  done < <(find "$src/gc" \( -name 'lib*.c' -o -name 'lib*.cpp' \) -not -path '*/z/*' -not -path '*/shenandoah/*')
fi

jar=$("$FLEXHEAP_ROOT/jdk/fetch-jtreg.sh")
name="$config-$subset"
work="$FLEXHEAP_ROOT/build/openjdk-jtreg/$name"
rm -rf "$work/report"; mkdir -p "$work"; touch "$work/.started"
jvmopt_args=(); for o in "${vmopts[@]}"; do jvmopt_args+=(-vmoption:"$o"); done
log "OpenJDK tests ($subset) on $jdk with ${vmopts[*]}"
start=$SECONDS
set +e
nice -n "${FLEXHEAP_NICE:-10}" "$jdk/bin/java" -jar "$jar" -jdk:"$jdk" -conc:"${FLEXHEAP_JTREG_CONC:-2}" \
  -agentvm -timeoutFactor:"${FLEXHEAP_JTREG_TIMEOUT_FACTOR:-4}" -verbose:summary -retain:fail,error \
  -nativepath:"$native" "${jvmopt_args[@]}" "${exclude[@]}" \
  -w:"$work/work" -r:"$work/report" "${extra[@]}" "${tests[@]}" > "$work/jtreg.out" 2>&1
rc=$?
set -e
# Counts from jtreg's own totals of this run (report/text/summary.txt also lists
# results of earlier runs kept in the work directory).
totals=$(grep -m1 '^Test results:' "$work/jtreg.out" || true)
[ -n "$totals" ] || { tail -30 "$work/jtreg.out" >&2; die "jtreg printed no totals (exit $rc)"; }
num() { local n; n=$(sed -n "s/.*[ ;:]$1: \([0-9]*\).*/\1/p" <<<"$totals" | head -1); echo "${n:-0}"; }
passed=$(num passed) failed=$(num failed) errors=$(num error) skipped=$(num skipped)
grep -E '^(FAILED|Error): ' "$work/jtreg.out" | grep -v '^Error: Some tests' | sed 's/^/  /' || true
[ "$rc" -eq 0 ] || jtreg_failures "$work/work" "$work/.started"
echo "openjdk-tests config=$config subset=$subset: passed=$passed failed=$failed error=$errors skipped=$skipped in $((SECONDS - start))s"
echo "  jtreg: $totals  [report: $work/report]"
[ "$failed" -eq 0 ] && [ "$errors" -eq 0 ] && [ "$passed" -gt 0 ]
