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
#
# Check the stock OpenJDK 26 baseline built by build-jdk26.sh: its version, the
# GCTimeRatio G1 really uses, and that G1 shrinks the heap at young GCs
# (ShrinkAtYoungGC.java, about 20 s). Exit 1 when a check fails.
# Usage: jdk/baseline/check-jdk26.sh [JDK_HOME]   (default $FLEXHEAP_JDK26 or the build's output)
#        CHECK_SECONDS=N (default 20), CHECK_ANY_JDK=1 (allow a non-26 JDK, for contrast)
set -euo pipefail
. "$(dirname "$0")/../common.sh"
here="$(cd "$(dirname "$0")" && pwd)"
home="${1:-${FLEXHEAP_JDK26:-$FLEXHEAP_CACHE/baseline/jdk-26}}"
java="$home/bin/java"
[ -x "$java" ] || die "no $java; build the baseline with: bash jdk/baseline/build-jdk26.sh"

echo "== java -version ($home)"
"$java" -version 2>&1
if ! "$java" -version 2>&1 | grep -q 'version "26'; then
  # CHECK_ANY_JDK=1: run the same checks on another JDK for contrast (JDK 25 fails the last one).
  [ -n "${CHECK_ANY_JDK:-}" ] || die "$home is not a JDK 26"
fi

echo "== G1 flags after ergonomics (-XX:+UseG1GC -XX:+PrintFlagsFinal)"
flags=$("$java" -XX:+UseG1GC -XX:+PrintFlagsFinal -version 2>/dev/null)
echo "$flags" | grep -E ' (GCTimeRatio|MinHeapFreeRatio|MaxHeapFreeRatio|G1CPUUsageDeviationPercent|G1CPUUsageExpandThreshold|G1CPUUsageShrinkThreshold|G1ShrinkByPercentOfAvailable) ' || true
ratio=$(echo "$flags" | awk '$2 == "GCTimeRatio" {print $4}')
echo "GCTimeRatio for G1: $ratio (GC CPU target 1/(1+$ratio) = $(awk -v r="$ratio" 'BEGIN {printf "%.1f%%", 100 / (1 + r)}'))"

secs="${CHECK_SECONDS:-20}"
out=$(mktemp -d /tmp/flexheap-jdk26-check.XXXXXX)
echo "== ${secs}-s G1 program, -Xmx1g, -Xlog:gc,gc+heap*=debug (log: $out/gc.log)"
"$java" -XX:+UseG1GC -Xmx1g -Xlog:gc,gc+heap*=debug:file="$out/gc.log":uptime,level,tags \
  "$here/ShrinkAtYoungGC.java" "$secs"
python3 - "$out/gc.log" <<'PY'
import re, sys
text = open(sys.argv[1]).read().splitlines()
young = {}      # gc id -> committed MB after the young pause
shrinks = {}    # gc id -> bytes G1's young-GC policy decided to shrink by
remark_or_full = set()
for line in text:
    m = re.search(r"GC\((\d+)\) Pause Young .* (\d+)M->(\d+)M\((\d+)M\)", line)
    if m:
        young[int(m[1])] = int(m[4])
    m = re.search(r"GC\((\d+)\) Heap resize: .* resize by (\d+)B expand false", line)
    if m and int(m[2]) > 0:
        shrinks[int(m[1])] = int(m[2])
    m = re.search(r"GC\((\d+)\) Pause (Remark|Full)", line)
    if m:
        remark_or_full.add(int(m[1]))
young_shrinks = {g: b for g, b in shrinks.items() if g in young}
caps = [young[g] for g in sorted(young)]
print(f"young pauses: {len(young)}; committed heap after them: max {max(caps, default=0)} MB, "
      f"last {caps[-1] if caps else 0} MB")
print(f"shrink decisions at young pauses: {len(young_shrinks)}, "
      f"{sum(young_shrinks.values()) >> 20} MB in total "
      f"(GC ids {', '.join(map(str, sorted(young_shrinks)[:12]))}{' ...' if len(young_shrinks) > 12 else ''})")
print(f"remark/full pauses: {len(remark_or_full)}")
for g in sorted(young_shrinks)[:3]:
    for line in text:
        if f"GC({g}) Heap resize" in line or re.search(rf"GC\({g}\) Pause Young", line):
            print("  " + line)
sys.exit(0 if young_shrinks else 1)
PY
echo "ok: JDK 26 G1 shrinks the heap at young GCs"
