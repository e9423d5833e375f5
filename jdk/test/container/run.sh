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
# FlexHeap in containers, for real (issue 11): the FlexHeap JDK started in new
# PID, mount and cgroup namespaces (unshare) inside a memory-limited cgroup, as
# Docker and Kubernetes start it, and checked against the cgroup's own files:
#   - the default max heap is 90% of the memory limit (FlexHeapMaxRAMPercentage)
#   - the page-cache figure S_io (-Xlog:gc+flexheap) matches the cgroup's memory.stat
#   - the chosen I/O-stall backend counts the JVM's own threads inside the PID
#     namespace (a thread doing O_DIRECT reads shows at least half its off-CPU
#     time, wall less its CPU time, as stall), or another backend is chosen with a reason
#   - UseCompressedOops stays on with a 64 GB memory size (-XX:MaxRAM=64g) as with stock G1
#   - the heap follows the memory limit changed at run time and SoftMaxHeapSize set
#     by jcmd (issue 63): the budget-* cases, in budget.sh
# cgroup v1: the memory controller at /sys/fs/cgroup/memory. cgroup v2: used
# when the v2 mount offers the memory controller (on this machine it is bound to
# the v1 hierarchy, so the v2 cases report SKIP with that reason).
# Usage: jdk/test/container/run.sh [CASE-NAME-REGEX]   (root)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../faults/lib.sh"
T_WORK="$FLEXHEAP_ROOT/build/test-container"; T_CLASSES="$T_WORK/classes"
only=${1:-.}
want() { [[ $1 =~ $only ]]; }
if ! [ -f "$CG_V1/memory.limit_in_bytes" ]; then   # only the v2 and -XX:MaxRAM cases can run
  t_skip v1 "no cgroup v1 memory hierarchy at $CG_V1"; only="^(oops|v2)"
fi
[ "$(id -u)" -eq 0 ] || die "run as root (cgroups, namespaces)"
t_prepare
trap t_cleanup_cgroups EXIT
LIMIT=$((1024 << 20))
data="${FLEXHEAP_TEST_DATADIR:-/var/tmp}/flexheap-container-$$.dat"
trap 't_cleanup_cgroups; rm -f "$data"' EXIT

inside="$here/inside.sh"

flag() { sed -n "s/^ *[a-z_]* $1 *= *\([0-9a-z]*\) .*/\1/p" "$T_OUT" | head -1; }

# --- sanity of the namespace setup ------------------------------------------------
if want setup; then
  t_cgroup setup $LIMIT
  out=$("$inside" "$T_CG" ns sh -c 'echo pid=$$; grep memory /proc/self/cgroup; cat /sys/fs/cgroup/memory/memory.limit_in_bytes' 2>&1 || true)
  if grep -q "pid=1" <<<"$out" && grep -q "memory:/$" <<<"$out" && grep -q "^$LIMIT$" <<<"$out"; then
    t_pass setup-v1-namespaces "pid 1, /proc/self/cgroup memory:/, limit visible at /sys/fs/cgroup/memory"
  else
    t_fail setup-v1-namespaces "unexpected view inside the namespaces: $(tr '\n' ' ' <<<"$out")"
  fi
fi

for mode in plain ns; do
  # --- default max heap: 90% of the limit --------------------------------------
  if want "maxheap-$mode"; then
    t_cgroup "maxheap-$mode" $LIMIT
    t_run "maxheap-v1-$mode-stock" "$inside" "$T_CG" $mode -- -XX:+UseG1GC -XX:+PrintFlagsFinal -version
    stock_mh=$(flag MaxHeapSize)
    t_run "maxheap-v1-$mode" "$inside" "$T_CG" $mode -- -XX:+UseFlexHeap -XX:+PrintFlagsFinal -version
    mh=$(flag MaxHeapSize); want_mh=$((LIMIT * 90 / 100))
    if [ -n "$(t_crash)" ] || [ "$T_RC" -ne 0 ]; then t_fail "maxheap-v1-$mode" "exit $T_RC $(t_crash)"
    elif [ -n "$mh" ] && [ "$mh" -le $((want_mh + (4 << 20))) ] && [ "$mh" -ge $((want_mh - (4 << 20))) ]; then
      t_pass "maxheap-v1-$mode" "MaxHeapSize=$mh, 90% of the 1 GiB limit is $want_mh (stock G1: $stock_mh)"
    else t_fail "maxheap-v1-$mode" "MaxHeapSize=${mh:-?}, want 90% of the limit ($want_mh, +-4 MiB alignment); stock G1 sees the limit: MaxHeapSize=$stock_mh"; fi
  fi

  # --- S_io against the cgroup's memory.stat --------------------------------------
  if want "pagecache-$mode"; then
    t_cgroup "pagecache-$mode" $LIMIT
    [ -f "$data" ] || dd if=/dev/urandom of="$data" bs=1M count=256 status=none
    # evict the file, so the reads inside charge its pages to the test cgroup
    python3 -c 'import os,sys; fd=os.open(sys.argv[1], os.O_RDONLY); os.posix_fadvise(fd,0,0,os.POSIX_FADV_DONTNEED)' "$data"
    # the workload reads the cgroup's memory.stat where it sees it: at the host's
    # path without namespaces, at the fresh mount's root inside them
    stat="$T_CG/memory.stat"; [ $mode = ns ] && stat=/sys/fs/cgroup/memory/memory.stat
    t_run "pagecache-v1-$mode" "$inside" "$T_CG" $mode -- -XX:+UseFlexHeap -Xlog:gc+flexheap -Xmx256m \
      FlexHeapWorkload cache "$data" 200 "$stat"
    host=$(awk '/^Cached:/ {print $2 * 1024}' /proc/meminfo)
    if [ -n "$(t_crash)" ] || [ "$T_RC" -ne 0 ]; then t_fail "pagecache-v1-$mode" "exit $T_RC $(t_crash)"
    else
      # pair every CGCACHE line with the S_io of the decision logged just before it
      res=$(awk -v lim=$LIMIT '
        / decision state=/ { if (match($0, /S_io=[0-9]+/)) sio = substr($0, RSTART + 5, RLENGTH - 5) + 0 }
        /^CGCACHE / { b = $2 + 0; a = $3 + 0; tol = a / 10; if (tol < 16 * 1048576) tol = 16 * 1048576
                      # the machine is shared: a pair where the cgroup cache moved during the GC
                      # (someone dropped caches) says nothing
                      if (b - a > tol || a - b > tol) { unstable++; next }
                      n++; d = sio - a; if (d < 0) d = -d
                      if (sio == "" || d > tol || sio > lim) bad++
                      last = sprintf("S_io=%d cgroup=%d", sio, a) }
        END { printf "%d %d %d %s", n, bad + 0, unstable + 0, last }' "$T_OUT")
      read -r n bad unstable last <<<"$res" || true
      if [ "${n:-0}" -ge 3 ] && [ "${bad:-1}" -eq 0 ]; then
        t_pass "pagecache-v1-$mode" "$n pairs within 10%/16 MB ($unstable unstable left out), last $last (host Cached=$host)"
      else
        t_fail "pagecache-v1-$mode" "$bad of $n S_io figures differ from the cgroup's memory.stat ($unstable unstable left out), last $last (host Cached=$host)"
      fi
    fi
  fi

  # --- the heap leaves the JVM's native memory and a page-cache reserve ------------
  # 160 MB of touched direct buffers, then GC-heavy churn over 60 MB of live
  # data with no I/O: the GC goal wants more heap than the 461 MB max (90% of
  # 512 MB), and a heap that large plus the native memory does not fit in the
  # limit (a FlexHeap without the ceiling was OOM-killed here). The JVM must
  # finish, the ceiling (limit - native - 10%) must count the buffers once it
  # has counted the heap's resident pages, and no grow of FlexHeap's own may
  # end above it. G1's own expansion in a pause (an evacuation that finds no
  # free region, an allocation retried after a GC) may still pass it, which
  # avoids an evacuation failure or an OutOfMemoryError; a mutator's humongous
  # allocation may not. Either way no decision may leave the heap above the
  # ceiling while it has free regions to give back (FlexHeap once held it
  # there, behind G1's eden target and its reversal band, until a Spark
  # driver's cgroup thrashed).
  if want "ceiling-$mode"; then
    climit=$((512 << 20)); native_mb=160
    t_cgroup "ceiling-$mode" $climit
    t_run "ceiling-v1-$mode" "$inside" "$T_CG" $mode -- -XX:+UseFlexHeap -Xlog:gc+flexheap \
      -XX:FlexHeapIOStallBackend=none FlexHeapWorkload native $native_mb 6 60
    res=$(awk '/ decision state=/ {
                 for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
                 n++; last = v["ceiling"] + 0
                 if (v["action"] == "Grow" && v["reason"] !~ /stock|fullGcFloor/ && v["committed"] + 0 > last + 2097152) over++
                 # the controller dead band (2% of the heap) may leave it that far above
                 if (last > 0 && v["committed"] * 0.98 > last + 2097152 && v["reason"] !~ /stock|fullGcFloor|noFree|atMin/) stay++
                 if (v["committed"] + 0 > peak) peak = v["committed"] + 0
                 if (v["reason"] ~ /^memLimit/) lim++ }
               END { printf "%d %d %d %d %d %d", n, over + 0, lim + 0, peak, last, stay + 0 }' "$T_OUT")
    read -r n over lim peak last stay <<<"$res" || true
    most=$((climit * 90 / 100 - (native_mb << 20)))
    if [ -n "$(t_crash)" ] || [ "$T_RC" -ne 0 ]; then t_fail "ceiling-v1-$mode" "exit $T_RC $(t_crash) (137: OOM-killed)"
    elif [ "${n:-0}" -ge 5 ] && [ "${over:-1}" -eq 0 ] && [ "${stay:-1}" -eq 0 ] && [ "${lim:-0}" -ge 1 ] \
         && [ "${last:-0}" -gt 0 ] && [ "$last" -le "$most" ]; then
      t_pass "ceiling-v1-$mode" "$n decisions, $lim by memLimit, no grow above the ceiling, none left above it, peak committed $((peak >> 20))M, last ceiling $((last >> 20))M (limit $((climit >> 20))M, $native_mb MB of direct buffers)"
    else
      t_fail "ceiling-v1-$mode" "$n decisions, ${over:-?} grows above the ceiling, ${stay:-?} left above it (beyond the 2% dead band) with free regions, ${lim:-?} by memLimit, peak $(( ${peak:-0} >> 20 ))M, last ceiling ${last:-?} (want <= $most: 90% of $climit less the buffers)"
    fi
  fi

  # --- the stall backend sees the JVM's threads ------------------------------------
  if want "stall-$mode"; then
    t_cgroup "stall-$mode" $LIMIT
    [ -f "$data" ] || dd if=/dev/urandom of="$data" bs=1M count=256 status=none
    secs=3
    t_run "stall-v1-$mode" "$inside" "$T_CG" $mode -- -XX:+UseFlexHeap -Xlog:gc+flexheap=debug -Xmx256m \
      -XX:FlexHeapProactiveGCInterval=0 FlexHeapWorkload direct "$data" $secs
    src=$(grep -m1 -E "I/O stall source|No I/O stall source" "$T_OUT" | sed 's/^\[[^]]*\]\[[^]]*\]\[[^]]*\] *//' || true)
    stall=$(grep -oE ' stall=[0-9.]+' "$T_OUT" | awk -F= '{s += $2} END {printf "%.3f", s + 0}')
    backend=$(sed -n 's/.*I\/O stall source: \([a-z]*\).*/\1/p' "$T_OUT" | head -1)
    # The reference is the reader's own off-CPU time: a fast device (one CI run
    # did 15k reads/s) keeps the thread mostly on the CPU, so 3 s of reads need
    # not block for any fixed share of the 3 s. The backend counts blocked time
    # up to the switch back in; only preemptions may be off CPU and not stall.
    offcpu=$(sed -n 's/^DIRECTOFFCPU //p' "$T_OUT" | head -1)
    if [ -n "$(t_crash)" ] || [ "$T_RC" -ne 0 ]; then t_fail "stall-v1-$mode" "exit $T_RC $(t_crash)"
    elif [ -n "$backend" ] && [ "$backend" != none ]; then
      if ! awk -v o="${offcpu:-0}" 'BEGIN { exit !(o >= 0.2) }'; then
        t_fail "stall-v1-$mode" "the reader was off the CPU ${offcpu:-?}s of ${secs}s: too little blocking to check the backend against"
      elif awk -v s="$stall" -v o="$offcpu" 'BEGIN { exit !(s >= 0.5 * o) }'; then
        t_pass "stall-v1-$mode" "backend $backend counted ${stall}s of stall; the reader was off the CPU ${offcpu}s of ${secs}s of O_DIRECT reads"
      else
        t_fail "stall-v1-$mode" "backend $backend counted only ${stall}s of stall; the reader was off the CPU ${offcpu}s of ${secs}s of O_DIRECT reads (want at least half; $src)"
      fi
    elif [ "$mode" = ns ] && grep -qiE "namespace" <<<"$src"; then
      t_pass "stall-v1-$mode" "no backend in a PID namespace, with a reason: $src"
    else
      t_fail "stall-v1-$mode" "no stall backend: $src"
    fi
  fi
done

# --- compressed oops at 64 GB -------------------------------------------------------
if want oops; then
  T_OUT_STOCK=""
  t_run oops-64g-stock -- -XX:+UseG1GC -XX:MaxRAM=64g -XX:+PrintFlagsFinal -version
  stock_oops=$(flag UseCompressedOops); stock_mh=$(flag MaxHeapSize)
  t_run oops-64g -- -XX:+UseFlexHeap -XX:MaxRAM=64g -XX:+PrintFlagsFinal -version
  oops=$(flag UseCompressedOops); mh=$(flag MaxHeapSize)
  if [ "$T_RC" -ne 0 ]; then t_fail oops-64g "exit $T_RC"
  elif [ "$oops" = true ] && [ "$stock_oops" = true ]; then
    t_pass oops-64g "UseCompressedOops=true, MaxHeapSize=$mh (stock G1: $stock_mh)"
  else t_fail oops-64g "UseCompressedOops=$oops MaxHeapSize=$mh with -XX:MaxRAM=64g; stock G1 keeps compressed oops ($stock_oops, $stock_mh)"; fi
  # an explicit -Xmx beyond the compressed-oops limit is the user's choice
  t_run oops-xmx40g -- -XX:+UseFlexHeap -Xmx40g -XX:+PrintFlagsFinal -version
  [ "$T_RC" -eq 0 ] && [ "$(flag MaxHeapSize)" = $((40 << 30)) ] \
    && t_pass oops-xmx40g "explicit -Xmx40g kept (UseCompressedOops=$(flag UseCompressedOops))" \
    || t_fail oops-xmx40g "exit $T_RC, MaxHeapSize=$(flag MaxHeapSize)"
  # inside a container: a 64 GB cgroup limit is above this machine's RAM, which
  # HotSpot reads as no limit, so the namespace case uses -XX:MaxRAM=64g as well
  if [ -f "$CG_V1/memory.limit_in_bytes" ]; then
    t_cgroup oops-ns $((64 << 30))
    t_run oops-64g-ns "$inside" "$T_CG" ns -- -XX:+UseFlexHeap -XX:MaxRAM=64g -XX:+PrintFlagsFinal -version
    [ "$T_RC" -eq 0 ] && [ "$(flag UseCompressedOops)" = true ] \
      && t_pass oops-64g-ns "UseCompressedOops=true, MaxHeapSize=$(flag MaxHeapSize)" \
      || t_fail oops-64g-ns "exit $T_RC, UseCompressedOops=$(flag UseCompressedOops), MaxHeapSize=$(flag MaxHeapSize)"
  fi
fi

# --- the heap follows the memory limit (issue 63): budget.sh ---------------------------
. "$here/budget.sh"

# --- cgroup v2 ------------------------------------------------------------------------
if want v2; then
  v2=$(mount -t cgroup2 | awk '{print $3; exit}')
  if [ -z "$v2" ]; then t_skip v2 "no cgroup v2 mount"
  elif ! grep -qw memory "$v2/cgroup.controllers"; then
    t_skip v2 "the v2 mount $v2 offers only '$(cat "$v2/cgroup.controllers")': the memory controller is bound to the v1 hierarchy at /sys/fs/cgroup/memory (a controller lives in one hierarchy; moving it needs the v1 hierarchy unmounted, i.e. no v1 memory cgroups at all)"
  else
    cg="$v2/flexheap-test-v2-$$"; mkdir -p "$cg"; echo $LIMIT > "$cg/memory.max"
    t_run maxheap-v2-ns "$inside" "$cg" ns -- -XX:+UseFlexHeap -XX:+PrintFlagsFinal -version
    mh=$(flag MaxHeapSize); rmdir "$cg" 2>/dev/null || true
    [ -n "$mh" ] && [ "$mh" -le $((LIMIT * 90 / 100)) ] && [ "$mh" -ge $((LIMIT * 85 / 100)) ] \
      && t_pass maxheap-v2-ns "MaxHeapSize=$mh" || t_fail maxheap-v2-ns "MaxHeapSize=${mh:-?}"
  fi
fi

t_summary containers
