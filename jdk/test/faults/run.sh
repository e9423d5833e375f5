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
# FlexHeap fault tests (issue 11): the iostall library missing, unloadable,
# incomplete or returning errors; BPF refused; delay accounting off; not in a
# cgroup; budgets where the JVM barely fits; contradictory and out-of-range
# flags. Each case must give one clear message and a working JVM, or a clean
# refusal at start-up (exit 1); never a crash (exit status, hs_err file).
# Usage: jdk/test/faults/run.sh [CASE-NAME-REGEX]     (root: cgroups, sysctl, setpriv)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/lib.sh"
only=${1:-.}
[ "$(id -u)" -eq 0 ] || die "run as root (cgroups, sysctl, capabilities)"
t_prepare
t_load_pending "$here/pending.txt"
trap t_cleanup_cgroups EXIT

# The shim iostall library (fault injection) and an unrelated valid .so.
shim="$T_WORK/libiostall_shim.so"
for v in "" _nototal; do
  out="$T_WORK/libiostall_shim$v.so"
  if [ ! -f "$out" ] || [ "$here/iostall_shim.c" -nt "$out" ]; then
    gcc -O2 -Wall -fPIC -shared -fvisibility=hidden ${v:+-DSHIM_NO_TOTAL} -I"$FLEXHEAP_ROOT/iostall/include" \
      -o "$out" "$here/iostall_shim.c" -ldl -lpthread || die "cannot build the shim library"
  fi
done
printf 'int flexheap_unrelated(void) { return 0; }\n' | gcc -x c -fPIC -shared -o "$T_WORK/libunrelated.so" -
head -c 65536 /dev/urandom > "$T_WORK/libgarbage.so"

FH=(-XX:+UseFlexHeap -Xlog:gc+flexheap=info)
W=(FlexHeapWorkload alloc 2 16)
want() { [[ $1 =~ $only ]]; }

# --- the iostall library -----------------------------------------------------
if want lib-missing; then
  t_run lib-missing -- "${FH[@]}" -XX:FlexHeapIOStallLibrary=/nonexistent/libiostall.so "${W[@]}"
  t_expect_works lib-missing "/nonexistent/libiostall\.so"
fi
if want lib-garbage; then
  t_run lib-garbage -- "${FH[@]}" -XX:FlexHeapIOStallLibrary="$T_WORK/libgarbage.so" "${W[@]}"
  t_expect_works lib-garbage "libgarbage\.so"
fi
if want lib-unrelated; then
  t_run lib-unrelated -- "${FH[@]}" -XX:FlexHeapIOStallLibrary="$T_WORK/libunrelated.so" "${W[@]}"
  t_expect_works lib-unrelated "libunrelated\.so"
fi
if want lib-incomplete; then
  t_run lib-incomplete -- "${FH[@]}" -XX:FlexHeapIOStallLibrary="$T_WORK/libiostall_shim_nototal.so" "${W[@]}"
  t_expect_works lib-incomplete "libiostall_shim_nototal\.so"
fi
if want lib-wrong-version; then
  t_run lib-wrong-version env IOSTALL_SHIM_MODE=wrong_version -- "${FH[@]}" -XX:FlexHeapIOStallLibrary="$shim" "${W[@]}"
  t_expect_works lib-wrong-version "API 999"
fi
if want lib-open-fails; then
  t_run lib-open-fails env IOSTALL_SHIM_MODE=open_fail -- "${FH[@]}" -XX:FlexHeapIOStallLibrary="$shim" "${W[@]}"
  t_expect_works lib-open-fails "injected open failure"
fi
if want lib-register-fails; then
  # every thread registration fails: at most one message, not one per thread
  t_run lib-register-fails env IOSTALL_SHIM_MODE=register_fail -- "${FH[@]}" -XX:FlexHeapIOStallLibrary="$shim" \
    FlexHeapWorkload threads 300 50
  t_expect_works lib-register-fails
  n=$(grep -v "stall source" "$T_OUT" | grep -ciE "regist|track" || true)
  [ "$n" -eq 1 ] && t_pass lib-register-fails-message "one message about failed registrations for 300+ threads" \
                 || t_fail lib-register-fails-message "$n lines about the failed registrations of 300+ threads (want exactly one: the stall of untracked threads is not counted)"
fi
if want lib-bad-total; then
  # the stall total jumps backwards and to 2^64-8: no crash, no assert, costs stay finite and >= 0
  t_run lib-bad-total env IOSTALL_SHIM_MODE=bad_total -- "${FH[@]}" -XX:FlexHeapIOStallLibrary="$shim" \
    FlexHeapWorkload alloc 3 32
  t_expect_works lib-bad-total
  bad=$(grep ' decision state=' "$T_OUT" | grep -ciE 'C_io=(-|nan|inf)|C_gc=(-|nan|inf)|C_io=[0-9]{7,}' || true)
  nd=$(t_decisions)
  if [ "$nd" -gt 0 ] && [ "$bad" -eq 0 ]; then t_pass lib-bad-total-costs "$nd decisions, all costs finite and >= 0"
  else t_fail lib-bad-total-costs "$nd decisions, $bad with a negative, NaN, infinite or absurd cost"; fi
fi

# --- privileges and kernel settings ---------------------------------------------
nocaps=(setpriv --inh-caps=-bpf,-sys_admin,-perfmon --bounding-set=-bpf,-sys_admin,-perfmon)
if want bpf-refused; then
  if "${nocaps[@]}" grep -q CapEff /proc/self/status; then
    t_run bpf-refused "${nocaps[@]}" -- "${FH[@]}" -XX:FlexHeapIOStallBackend=bpf "${W[@]}"
    t_expect_works bpf-refused "bpf.*(permission|denied|privilege|CAP_)|(permission|denied|privilege|CAP_).*bpf"
    t_run bpf-refused-auto "${nocaps[@]}" -- "${FH[@]}" -XX:FlexHeapIOStallBackend=auto "${W[@]}"
    if grep -qE "I/O stall source: bpf" "$T_OUT"; then t_fail bpf-refused-auto "chose bpf without CAP_BPF/CAP_SYS_ADMIN"
    else t_expect_works bpf-refused-auto "stall source"; fi
  else
    t_skip bpf-refused "setpriv cannot drop capabilities here"
  fi
fi
if want delayacct-off; then
  DA=/proc/sys/kernel/task_delayacct; da_orig=$(cat $DA)
  # briefly off for this one JVM (the iostall suite does the same), then restored
  trap 'echo "$da_orig" > '"$DA"'; t_cleanup_cgroups' EXIT
  echo 0 > $DA
  t_run delayacct-off "${nocaps[@]}" -- "${FH[@]}" -XX:FlexHeapIOStallBackend=delayacct "${W[@]}"
  t_expect_works delayacct-off "task_delayacct"
  t_run delayacct-off-auto "${nocaps[@]}" -- "${FH[@]}" "${W[@]}"
  t_expect_works delayacct-off-auto "stall source"
  echo "$da_orig" > $DA
fi

# --- cgroups and budgets ---------------------------------------------------------
if ! [ -f "$CG_V1/cgroup.procs" ]; then
  t_skip no-cgroup "no cgroup v1 memory hierarchy at $CG_V1"; t_skip tiny-budget "no cgroup v1 memory hierarchy at $CG_V1"
  only='^$'   # the cases below need it
fi
if want no-cgroup; then
  # the root of the v1 memory hierarchy: no limit, host page cache
  t_run no-cgroup sh -c 'echo $$ > /sys/fs/cgroup/memory/cgroup.procs && exec "$0" "$@"' -- "${FH[@]}" "${W[@]}"
  t_expect_works no-cgroup
  nd=$(t_decisions)
  [ "$nd" -gt 0 ] && t_pass no-cgroup-decides "$nd decisions" || t_fail no-cgroup-decides "no decisions logged"
fi
if want tiny-budget; then
  # Wherever stock G1 (default ergonomics) runs the workload in a budget, FlexHeap
  # (default max heap = 90% of the budget) must too, or refuse cleanly at start-up.
  for mb in 256 128 96 64; do
    t_cgroup "tiny$mb" $((mb << 20))
    echo 0 > "$T_CG/memory.swappiness" 2>/dev/null || true
    into=(sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' sh "$T_CG")
    live=$((mb * 5 / 32))   # ~60% of stock G1's default max heap (25% of the budget): barely fits for stock
    t_run "tiny-budget-${mb}m-stock" "${into[@]}" -- -XX:+UseG1GC FlexHeapWorkload alloc 3 $live
    stock_ok=0; [ "$T_RC" -eq 0 ] && grep -q "WORKLOAD OK" "$T_OUT" && stock_ok=1
    stock_rc=$T_RC; stock_peak=$(( $(cat "$T_CG/memory.max_usage_in_bytes") >> 20 ))
    echo 0 > "$T_CG/memory.max_usage_in_bytes"
    t_run "tiny-budget-${mb}m" "${into[@]}" -- "${FH[@]}" FlexHeapWorkload alloc 3 $live
    peak=$(( $(cat "$T_CG/memory.max_usage_in_bytes") >> 20 )); kills=$(awk '/^oom_kill /{print $2}' "$T_CG/memory.oom_control")
    note="live ${live} MB; peak cgroup usage: stock ${stock_peak} MB, FlexHeap ${peak} MB of ${mb}; OOM kills ${kills:-0}"
    if [ $stock_ok -eq 1 ]; then
      if [ "$T_RC" -eq 1 ] && [ -z "$(t_crash)" ] && ! grep -q "WORKLOAD OK" "$T_OUT"; then
        t_pass "tiny-budget-${mb}m" "refused cleanly: $(grep -m1 -iE 'error|budget|limit|small' "$T_OUT" | cut -c1-120)"
      elif [ "$T_RC" -eq 0 ] && grep -q "WORKLOAD OK" "$T_OUT"; then
        t_pass "tiny-budget-${mb}m" "$note"
      else
        t_fail "tiny-budget-${mb}m" "stock G1 runs it, FlexHeap: exit $T_RC $(t_crash); $note"
      fi
    else
      why=$(t_crash)
      [ -z "$why" ] && t_pass "tiny-budget-${mb}m" "stock G1 fails too (exit $stock_rc); FlexHeap exit $T_RC, no crash; $note" \
                    || t_fail "tiny-budget-${mb}m" "stock G1 fails too (exit $stock_rc), but FlexHeap: $why; $note"
    fi
  done
fi

only=${1:-.}
# --- flags -----------------------------------------------------------------------
refuse() {  # refuse NAME REGEX FLAGS...
  local name=$1 re=$2; shift 2
  want "$name" || return 0
  t_run "$name" -- "$@" "${W[@]}"
  t_expect_refusal "$name" "$re"
}
refuse flags-serial "UseFlexHeap" -XX:+UseFlexHeap -XX:+UseSerialGC
refuse flags-parallel "UseFlexHeap" -XX:+UseFlexHeap -XX:+UseParallelGC
refuse flags-history-0 "FlexHeapHistoryLength" -XX:+UnlockExperimentalVMOptions -XX:+UseFlexHeap -XX:FlexHeapHistoryLength=0
refuse flags-history-101 "FlexHeapHistoryLength" -XX:+UnlockExperimentalVMOptions -XX:+UseFlexHeap -XX:FlexHeapHistoryLength=101
refuse flags-scale-inverted "FlexHeapMaxScaleFactor" -XX:+UnlockExperimentalVMOptions -XX:+UseFlexHeap -XX:FlexHeapMinScaleFactor=0.9 -XX:FlexHeapMaxScaleFactor=0.5
refuse flags-scale-negative "FlexHeapMinScaleFactor" -XX:+UnlockExperimentalVMOptions -XX:+UseFlexHeap -XX:FlexHeapMinScaleFactor=-1
refuse flags-maxram-0 "FlexHeapMaxRAMPercentage" -XX:+UseFlexHeap -XX:FlexHeapMaxRAMPercentage=0
refuse flags-maxram-150 "FlexHeapMaxRAMPercentage" -XX:+UseFlexHeap -XX:FlexHeapMaxRAMPercentage=150
refuse flags-static-step-101 "FlexHeapStaticStepPercent" -XX:+UnlockExperimentalVMOptions -XX:+UseFlexHeap -XX:FlexHeapStaticStepPercent=101
refuse flags-stall-percent-0 "FlexHeapProactiveStallPercent" -XX:+UnlockExperimentalVMOptions -XX:+UseFlexHeap -XX:FlexHeapProactiveStallPercent=0
refuse flags-negligible-101 "FlexHeapNegligibleCostPercent" -XX:+UnlockExperimentalVMOptions -XX:+UseFlexHeap -XX:FlexHeapNegligibleCostPercent=101
refuse flags-interval-negative "FlexHeapProactiveGCInterval" -XX:+UseFlexHeap -XX:FlexHeapProactiveGCInterval=-5
refuse flags-backend-bogus "FlexHeapIOStallBackend" -XX:+UseFlexHeap -XX:FlexHeapIOStallBackend=bogus
refuse flags-experimental-locked "UnlockExperimentalVMOptions" -XX:+UseFlexHeap -XX:FlexHeapHistoryLength=5
if want flags-fixed-heap; then
  # -Xms = -Xmx leaves nothing to resize: say so once and do not decide at every pause
  t_run flags-fixed-heap -- "${FH[@]}" -Xms256m -Xmx256m "${W[@]}"
  t_expect_works flags-fixed-heap "(cannot|can't|nothing to|not) resiz|Xms.{0,20}(=|equal).{0,20}Xmx|MinHeapSize.{0,20}(=|equal).{0,20}MaxHeapSize|fixed.{0,10}heap"
  nd=$(t_decisions)
  [ "$nd" -eq 0 ] && t_pass flags-fixed-heap-disabled "no per-pause decisions" \
                  || t_fail flags-fixed-heap-disabled "$nd per-pause decisions on a heap that cannot resize"
fi
if want flags-ergonomic-serial; then
  # one CPU: ergonomics would pick Serial; UseFlexHeap must select G1 (or say once that it is off), never exit
  t_run flags-ergonomic-serial -- -XX:ActiveProcessorCount=1 "${FH[@]}" -Xlog:gc "${W[@]}"
  if grep -q "Using G1" "$T_OUT"; then t_expect_works flags-ergonomic-serial "Using G1"
  else t_expect_works flags-ergonomic-serial "FlexHeap"; fi
fi
if want flags-proactive-manageable; then
  # FlexHeapProactiveGCInterval is manageable: turning it on at run time from 0 must start the checks
  t_run flags-proactive-manageable -- -XX:+UseFlexHeap -XX:FlexHeapProactiveGCInterval=0 \
      -Xlog:gc+flexheap=debug FlexHeapWorkload idle 6 &
  jpid=""
  for _ in $(seq 50); do
    jpid=$(pgrep -f "^$JAVA -XX:ErrorFile=$T_WORK/cases/flags-proactive-manageable/" | head -1 || true)
    [ -n "$jpid" ] && "$JDK/bin/jcmd" "$jpid" VM.version >/dev/null 2>&1 && break
    sleep 0.2
  done
  setout=$("$JDK/bin/jcmd" "$jpid" VM.set_flag FlexHeapProactiveGCInterval 200 2>&1 || true)
  wait
  T_DIR="$T_WORK/cases/flags-proactive-manageable"; T_OUT="$T_DIR/out"
  t_expect_works flags-proactive-manageable
  if grep -qiE "error|cannot|not" <<<"$setout"; then t_fail flags-proactive-manageable-on "jcmd: $setout"
  elif [ "$(t_count 'proactive')" -gt 0 ]; then t_pass flags-proactive-manageable-on "$(t_count 'proactive') proactive checks after VM.set_flag"
  else t_fail flags-proactive-manageable-on "no proactive checks after VM.set_flag FlexHeapProactiveGCInterval 200 ($setout)"; fi
fi

t_summary faults
