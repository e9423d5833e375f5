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
touch "$work/.started"
rc=0
"$jdk/bin/java" -jar "$jar" -jdk:"$jdk" -conc:1 -agentvm -verbose:summary -timeoutFactor:2 \
  -w:"$work/work" -r:"$work/report" "${tests[@]}" || rc=$?
[ $rc -eq 0 ] || jtreg_failures "$work/work" "$work/.started"
exit $rc
