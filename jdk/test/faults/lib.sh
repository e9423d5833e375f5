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
# Shared helpers of FlexHeap's fault, container and stress scripts (sourced).
# A case runs one JVM in its own directory with -XX:ErrorFile there, so a crash
# anywhere leaves an hs_err file the checks find. Counters: PASS, FAIL, SKIP.
. "$(dirname "${BASH_SOURCE[0]}")/../../common.sh"
JDK="${FLEXHEAP_JDK:-$JDK_OUT}"
JAVA="$JDK/bin/java"
PASS=0 FAIL=0 SKIP=0 XFAIL=0 FAILED=()
# Cases that wait on a fix: "name  reason" lines in $T_PENDING. Their failure is
# reported as XFAIL and does not fail the suite; when one passes, XPASS says so.
declare -A PENDING=()
t_load_pending() {
  local name reason
  [ -f "$1" ] || return 0
  while read -r name reason; do
    [[ -z $name || $name == \#* ]] && continue
    PENDING[$name]=$reason
  done < "$1"
}
T_WORK="${T_WORK:-$FLEXHEAP_ROOT/build/test-faults}"
T_CLASSES="$T_WORK/classes"

# Compile the workload once per change.
t_prepare() {
  [ -x "$JAVA" ] || die "no JDK at $JDK (run jdk/build.sh)"
  mkdir -p "$T_CLASSES"
  local src="$FLEXHEAP_ROOT/jdk/test/faults/FlexHeapWorkload.java"
  if [ ! -f "$T_CLASSES/FlexHeapWorkload.class" ] || [ "$src" -nt "$T_CLASSES/FlexHeapWorkload.class" ]; then
    # (quiet: ExtendedOpenOption.DIRECT draws an "internal proprietary API" warning)
    "$JDK/bin/javac" -XDsuppressNotes -nowarn -d "$T_CLASSES" "$src" > "$T_WORK/javac.log" 2>&1 \
      || { cat "$T_WORK/javac.log" >&2; die "cannot compile $src"; }
  fi
}

# t_run NAME [PREFIX...] -- JVM_ARGS...: run $JAVA (after PREFIX, e.g. env or
# setpriv) in $T_WORK/cases/NAME; sets T_DIR, T_OUT (file), T_RC.
t_run() {
  local name=$1; shift
  local prefix=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do prefix+=("$1"); shift; done
  shift
  T_DIR="$T_WORK/cases/$name"; rm -rf "$T_DIR"; mkdir -p "$T_DIR"
  T_OUT="$T_DIR/out"
  echo "${prefix[*]} $JAVA -XX:ErrorFile=$T_DIR/hs_err_%p.log -cp $T_CLASSES $*" > "$T_DIR/cmd"
  set +e
  (cd "$T_DIR" && timeout -k 5 "${T_TIMEOUT:-120}" "${prefix[@]}" "$JAVA" -XX:ErrorFile="$T_DIR/hs_err_%p.log" \
      -cp "$T_CLASSES" "$@") > "$T_OUT" 2>&1
  T_RC=$?
  set -e
}

t_pass() {
  PASS=$((PASS + 1)); echo "PASS $1${2:+: $2}"
  [ -z "${PENDING[$1]:-}" ] || echo "XPASS $1 is listed as pending (${PENDING[$1]}): remove it from the list"
}
t_fail() {
  if [ -n "${PENDING[$1]:-}" ]; then
    XFAIL=$((XFAIL + 1)); echo "XFAIL $1: $2  [pending: ${PENDING[$1]}]"
  else
    FAIL=$((FAIL + 1)); FAILED+=("$1"); echo "FAIL $1: $2"
  fi
  [ -n "${T_OUT:-}" ] && [ -f "$T_OUT" ] && { echo "  \$ $(cat "$T_DIR/cmd")"; tail -n 12 "$T_OUT" | sed 's/^/  | /'; }
  return 0
}
t_skip() { SKIP=$((SKIP + 1)); echo "SKIP $1: $2"; }

# Why the last run counts as a crash, or nothing.
t_crash() {
  local hs; hs=$(ls "$T_DIR"/hs_err_*.log 2>/dev/null | head -1)
  if [ -n "$hs" ]; then echo "hs_err file $(basename "$hs"): $(grep -m1 -E 'SIGSEGV|SIGBUS|Internal Error|assert|guarantee|Out of Memory' "$hs")"; return; fi
  if grep -q "A fatal error has been detected" "$T_OUT"; then echo "fatal error report in output"; return; fi
  if [ "$T_RC" -eq 124 ]; then echo "timed out after ${T_TIMEOUT:-120}s"; return; fi
  if [ "$T_RC" -ge 128 ]; then echo "died on a signal (exit $T_RC)"; return; fi
}

# Lines of the output matching an extended regex (case-insensitive).
t_count() { grep -ciE -- "$1" "$T_OUT" || true; }
t_decisions() { grep -c ' decision state=' "$T_OUT" || true; }

# t_expect_works NAME [REGEX of the one message]: exit 0, the workload finished,
# no crash, and (with REGEX) exactly one output line matches it.
t_expect_works() {
  local name=$1 re=${2:-} why n
  why=$(t_crash)
  if [ -n "$why" ]; then t_fail "$name" "$why"; return; fi
  if [ "$T_RC" -ne 0 ]; then t_fail "$name" "exit $T_RC, expected a working JVM"; return; fi
  if ! grep -q "WORKLOAD OK" "$T_OUT"; then t_fail "$name" "workload did not finish"; return; fi
  if [ -n "$re" ]; then
    n=$(t_count "$re")
    if [ "$n" -ne 1 ]; then t_fail "$name" "$n lines match /$re/, expected exactly one message"; return; fi
    t_pass "$name" "exit 0, $(grep -m1 -iE -- "$re" "$T_OUT" | sed 's/^\[[^]]*\]//; s/^ *//' | cut -c1-150)"
  else
    t_pass "$name" "exit 0"
  fi
}

# t_expect_refusal NAME REGEX: a clean refusal at start-up: exit 1, no crash,
# the workload never ran, and REGEX names the problem.
t_expect_refusal() {
  local name=$1 re=$2 why
  why=$(t_crash)
  if [ -n "$why" ]; then t_fail "$name" "$why"; return; fi
  if [ "$T_RC" -ne 1 ]; then t_fail "$name" "exit $T_RC, expected a refusal (exit 1)"; return; fi
  if grep -q "WORKLOAD OK" "$T_OUT"; then t_fail "$name" "the workload ran"; return; fi
  if [ "$(t_count "$re")" -lt 1 ]; then t_fail "$name" "no message matching /$re/"; return; fi
  t_pass "$name" "refused: $(grep -m1 -iE -- "$re" "$T_OUT" | cut -c1-150)"
}

# A v1 memory cgroup for one case: t_cgroup NAME LIMIT_BYTES -> path in T_CG.
CG_V1=/sys/fs/cgroup/memory
T_CGROUPS=()
t_cgroup() {
  T_CG="$CG_V1/flexheap-test-$1-$$"
  mkdir -p "$T_CG"
  echo "$2" > "$T_CG/memory.limit_in_bytes"
  T_CGROUPS+=("$T_CG")
}
t_cleanup_cgroups() {
  local cg
  for cg in "${T_CGROUPS[@]:-}"; do
    [ -n "$cg" ] && [ -d "$cg" ] || continue
    while read -r p; do echo "$p" > "$CG_V1/cgroup.procs" 2>/dev/null || true; done < "$cg/cgroup.procs"
    rmdir "$cg" 2>/dev/null || true
  done
}

t_summary() {  # t_summary SUITE
  echo "$1: $PASS passed, $FAIL failed, $SKIP skipped, $XFAIL pending (known failures waiting on a fix)"
  [ "$FAIL" -eq 0 ] || echo "$1 failed: ${FAILED[*]}"
  [ "$FAIL" -eq 0 ]
}
