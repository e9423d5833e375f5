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
# Obtain pristine OpenJDK 25.0.3+9 sources: Debian's openjdk-25 source package
# (only the .orig.tar.xz is used), checksum-verified; or FLEXHEAP_JDK_SRC=/path.
set -euo pipefail
. "$(dirname "$0")/common.sh"

if [ -n "${FLEXHEAP_JDK_SRC:-}" ]; then
  [ -f "$FLEXHEAP_JDK_SRC/src/hotspot/share/gc/g1/g1CollectedHeap.cpp" ] \
    || die "FLEXHEAP_JDK_SRC=$FLEXHEAP_JDK_SRC is not an OpenJDK source tree"
  echo "$FLEXHEAP_JDK_SRC"; exit 0
fi
fetch_openjdk_source openjdk-25 "$JDK_DEB_VERSION" "$JDK_DEB_SUITE" "$JDK_ORIG_TAR" "$JDK_ORIG_SHA256_FILE" \
  "$SRC_PRISTINE" src/hotspot/share/gc/g1/g1CollectedHeap.cpp
echo "$SRC_PRISTINE"
