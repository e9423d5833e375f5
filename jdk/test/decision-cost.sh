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
# Benchmark (not a test): the cost of a FlexHeap decision at the pause, i.e. signals + controller +
# resize request without the commit/uncommit itself (cost_us of -Xlog:gc+flexheap=debug), per stall
# backend and number of Java threads. Prints median, p99 and max in microseconds.
# Usage: jdk/test/decision-cost.sh [seconds] [thread counts...]   (default: 8 s, 10 and 2000 threads)
set -euo pipefail
. "$(dirname "$0")/../common.sh"
jdk="${FLEXHEAP_JDK:-$JDK_OUT}"
[ -x "$jdk/bin/java" ] || die "no FlexHeap JDK at $jdk (run jdk/build.sh)"
secs="${1:-8}"; shift || true
counts=("$@"); [ ${#counts[@]} -gt 0 ] || counts=(10 2000)
work=$(mktemp -d)
# The delayacct backend needs kernel delay accounting (off by default): on for
# the run when we may, restored after; the backend_used column says what ran.
delayacct_was=$(sysctl -n kernel.task_delayacct 2>/dev/null || echo "")
# psi reads the JVM's own cgroup v2 io.pressure (the root cgroup's is refused): its runs get a
# fresh v2 cgroup when we may make one, else the backend_used column says what ran instead.
cg2=$(awk '$0 ~ / - cgroup2 / {print $5; exit}' /proc/self/mountinfo)
psi_cg=""
if [ -n "$cg2" ] && [ -w "$cg2" ] && mkdir -p "$cg2/flexheap-decision-cost-$$" 2>/dev/null; then
  psi_cg="$cg2/flexheap-decision-cost-$$"
fi
restore() {
  [ -z "$delayacct_was" ] || sysctl -qw kernel.task_delayacct="$delayacct_was" 2>/dev/null || true
  [ -z "$psi_cg" ] || rmdir "$psi_cg" 2>/dev/null || true
  rm -rf "$work"
}
trap restore EXIT
[ "$delayacct_was" = 0 ] && { sysctl -qw kernel.task_delayacct=1 2>/dev/null || echo "note: could not turn on kernel.task_delayacct; delayacct will fall back" >&2; }
src="$FLEXHEAP_ROOT/jdk/test/jtreg/gc/g1/flexheap"
"$jdk/bin/javac" -d "$work" "$src/DecisionCostLoad.java" "$src/FlexHeapPhases.java"
printf '%-10s %7s %10s %9s %9s %9s %9s\n' backend threads decisions median_us p99_us max_us backend_used
for backend in bpf delayacct psi none; do
  launch=()
  if [ "$backend" = psi ] && [ -n "$psi_cg" ]; then
    launch=(sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$psi_cg")
  fi
  for n in "${counts[@]}"; do
    log="$work/$backend-$n.log"
    nice -n 10 "${launch[@]}" "$jdk/bin/java" -XX:+UseFlexHeap -XX:FlexHeapIOStallBackend="$backend" -Xms64m -Xmx256m \
      -Xss256k -Xlog:gc+flexheap=debug:file="$log" -cp "$work" DecisionCostLoad "$n" "$secs" \
      "${FLEXHEAP_BENCH_FILE:-/var/tmp/flexheap-decision-cost.dat}" > /dev/null 2>&1 || { echo "$backend $n: run failed"; continue; }
    used=$(grep -o "I/O stall source: [a-z]*" "$log" | awk "{print \$4}" | head -1 || true)
    python3 - "$log" "$backend" "$n" "${used:-none}" <<'PY'
import re, statistics, sys
log, backend, n, used = sys.argv[1:]
v = sorted(float(m) for m in re.findall(r"cost_us=([0-9.]+)", open(log).read()))
if not v:
    print(f"{backend:<10} {n:>7} {0:>10} {'-':>9} {'-':>9} {'-':>9} {used:>9}"); sys.exit()
p99 = v[min(len(v) - 1, int(round(0.99 * (len(v) - 1))))]
print(f"{backend:<10} {n:>7} {len(v):>10} {statistics.median(v):>9.1f} {p99:>9.1f} {v[-1]:>9.1f} {used:>9}")
PY
  done
done
