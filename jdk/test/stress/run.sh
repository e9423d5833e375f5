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
# FlexHeap stress tests (issue 11), jtreg tests in jdk/test/jtreg/gc/g1/flexheapstress:
#   TestFlexHeapSpikeAfterIO       allocation spike to 380 of 512 MB right after an I/O phase shrank the heap
#   TestFlexHeapHumongousShrink    humongous allocations while shrinking
#   TestFlexHeapThreadChurn        10,000 threads start and exit; registry and iostall entries stay bounded
#   TestFlexHeapAlternatingPhases  alternating phases: committed within [-Xms, -Xmx], reversals bounded
# Usage: jdk/test/stress/run.sh [jtreg args] [tests]   (FLEXHEAP_JDK selects the JDK; root for BPF)
set -euo pipefail
. "$(dirname "$0")/../../common.sh"
jdk="${FLEXHEAP_JDK:-$JDK_OUT}"
args=("$@"); [ ${#args[@]} -gt 0 ] || args=("$FLEXHEAP_ROOT/jdk/test/jtreg/gc/g1/flexheapstress")
run_jtreg_suite "$jdk" "$FLEXHEAP_ROOT/build/jtreg-stress/$(basename "$jdk")" \
  "${FLEXHEAP_JTREG_TIMEOUT_FACTOR:-2}" "${args[@]}"
