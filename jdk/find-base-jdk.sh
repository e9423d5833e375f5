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
# Print the home of an installed HotSpot JDK of exactly our OpenJDK version
# (by its release file, not its path), or nothing. FLEXHEAP_BASE_JDK_DIRS
# overrides where to look (colon separated).
set -euo pipefail
. "$(dirname "$0")/common.sh"
IFS=: read -r -a dirs <<< "${FLEXHEAP_BASE_JDK_DIRS:-/usr/lib/jvm:/opt/java:/opt:/usr/local}"
for d in "${dirs[@]}"; do
  for rel in "$d"/*/release; do
    [ -f "$rel" ] || continue
    home=$(dirname "$rel")
    ver=$(sed -n 's/^JAVA_RUNTIME_VERSION="\(.*\)"/\1/p' "$rel")
    case "$ver" in "$JDK_VERSION"|"$JDK_VERSION"-*) ;; *) continue ;; esac
    grep -q '^JVM_VARIANT="Hotspot"' "$rel" || continue
    [ -f "$home/lib/server/libjvm.so" ] && [ -x "$home/bin/javac" ] || continue
    echo "$home"; exit 0
  done
done
