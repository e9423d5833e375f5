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
if [ -f "$SRC_PRISTINE/.flexheap-verified" ]; then echo "$SRC_PRISTINE"; exit 0; fi

dl="$FLEXHEAP_CACHE/downloads"; mkdir -p "$dl"
tarball="$dl/$JDK_ORIG_TAR"
if [ ! -f "$tarball" ]; then
  log "downloading openjdk-25 $JDK_DEB_VERSION source ($JDK_DEB_SUITE) through a private apt configuration"
  tmp=$(mktemp -d "$dl/get.XXXXXX")
  # --download-only: side files (.debian.tar.xz, .dsc) may 404; only .orig is needed.
  (cd "$tmp" && private_apt deb-src "$JDK_DEB_SUITE" source --download-only -qq \
      "openjdk-25=$JDK_DEB_VERSION" >"$tmp/log" 2>&1) || true
  [ -f "$tmp/$JDK_ORIG_TAR" ] || { cat "$tmp/log" >&2; die "could not download $JDK_ORIG_TAR"; }
  mv "$tmp/$JDK_ORIG_TAR" "$tarball"; rm -rf "$tmp"
fi
"$(dirname "$0")/verify-checksum.sh" "$tarball" "$JDK_ORIG_SHA256_FILE"

log "unpacking $JDK_ORIG_TAR"
rm -rf "$SRC_PRISTINE.tmp"; mkdir -p "$SRC_PRISTINE.tmp"
tar -xJf "$tarball" -C "$SRC_PRISTINE.tmp" --strip-components=1
[ -f "$SRC_PRISTINE.tmp/src/hotspot/share/gc/g1/g1CollectedHeap.cpp" ] || die "unexpected tarball layout"
rm -rf "$SRC_PRISTINE"; mv "$SRC_PRISTINE.tmp" "$SRC_PRISTINE"
touch "$SRC_PRISTINE/.flexheap-verified"
echo "$SRC_PRISTINE"
