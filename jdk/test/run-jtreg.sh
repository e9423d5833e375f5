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
tests=("$@"); [ ${#tests[@]} -gt 0 ] || tests=("$FLEXHEAP_ROOT/jdk/test/jtreg/gc/g1/flexheap")
run_jtreg_suite "${FLEXHEAP_JDK:-$JDK_OUT}" "$FLEXHEAP_ROOT/build/jtreg" 2 "${tests[@]}"
