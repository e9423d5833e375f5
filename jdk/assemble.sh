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
# assemble.sh BASE_JDK LIBJVM|"" OUT: copy BASE_JDK to OUT, drop in our
# libjvm.so (if given) and the iostall library (if built), regenerate the CDS
# archives for that libjvm, and stamp the release file. Skipped when nothing
# that goes into OUT changed.
#
# With a libjvm, the JFR metadata must match it too: our FlexHeapDecision
# event renumbers JFR's type ids, so jdk.jfr's metadata.bin is regenerated
# from the patched metadata.xml and swapped into lib/modules, and the patched
# default/profile.jfc (which enable the event) replace the base's.
set -euo pipefail
. "$(dirname "$0")/common.sh"
base=$1 libjvm=$2 out=$3
iostall="$FLEXHEAP_ROOT/build/iostall/libiostall.so"
# The revision the sources were overlaid with (apply.sh, at the start of the
# build; libjvm prints it in java -version): revision.sh again here would name
# a commit made while the build ran, and the release file would disagree with
# the JVM it describes.
rev=$(sed -n 's/^#define FLEXHEAP_REVISION "\(.*\)"$/\1/p' "$SRC_WORK/src/hotspot/share/runtime/flexHeapRevision.hpp" 2>/dev/null || true)
[ -n "$rev" ] || rev=$("$FLEXHEAP_ROOT/jdk/revision.sh")
[ -z "$libjvm" ] || [ -f "$libjvm" ] || die "no such libjvm.so: $libjvm"
jfr_meta="$SRC_WORK/src/hotspot/share/jfr/metadata"
jfr_conf="$SRC_WORK/src/jdk.jfr/share/conf/jfr"
stamp=$( { echo "$base $rev"
           if [ -n "$libjvm" ]; then
             sha256sum "$libjvm" "$jfr_meta/metadata.xml" "$jfr_conf"/*.jfc "$FLEXHEAP_ROOT/jdk/jimage-replace.py"
           fi
           if [ -f "$iostall" ]; then sha256sum "$iostall"; fi; } | sha256sum | cut -c1-16)
if [ "$(cat "$out/.flexheap-stamp" 2>/dev/null)" = "$stamp" ]; then
  log "FlexHeap JDK up to date: $out"; exit 0
fi
log "assembling FlexHeap JDK in $out"
rm -rf "$out.tmp"; mkdir -p "$(dirname "$out")"
cp -a "$base" "$out.tmp"
if [ -n "$libjvm" ]; then
  rm -f "$out.tmp/lib/server/libjvm.so"; cp "$libjvm" "$out.tmp/lib/server/libjvm.so"
fi
[ -f "$iostall" ] && cp "$iostall" "$out.tmp/lib/libiostall.so"
if [ -n "$libjvm" ]; then
  "$base/bin/java" "$SRC_WORK/make/src/classes/build/tools/jfr/GenerateJfrFiles.java" --mode metadata \
    --xml "$jfr_meta/metadata.xml" --xsd "$jfr_meta/metadata.xsd" --output "$out.tmp/metadata.bin" \
    || die "generating JFR metadata.bin failed"
  python3 "$FLEXHEAP_ROOT/jdk/jimage-replace.py" "$out.tmp/lib/modules" "$out.tmp/lib/modules" \
    "/jdk.jfr/jdk/jfr/internal/types/metadata.bin=$out.tmp/metadata.bin" \
    || die "replacing metadata.bin in lib/modules failed"
  rm -f "$out.tmp/metadata.bin"
  cp "$jfr_conf/default.jfc" "$jfr_conf/profile.jfc" "$out.tmp/lib/jfr/"
fi
# The base's CDS archives were dumped by another libjvm and would be rejected.
rm -f "$out.tmp"/lib/server/*.jsa
"$out.tmp/bin/java" -Xshare:dump -Xlog:cds=warning >/dev/null 2>"$out.tmp/cds-dump.log" \
  || { cat "$out.tmp/cds-dump.log" >&2; die "CDS dump failed"; }
"$out.tmp/bin/java" -Xshare:dump -XX:-UseCompressedOops -Xlog:cds=warning >/dev/null 2>>"$out.tmp/cds-dump.log" \
  || { cat "$out.tmp/cds-dump.log" >&2; die "CDS dump (no compressed oops) failed"; }
rm -f "$out.tmp/cds-dump.log"
printf 'FLEXHEAP_REVISION="%s"\nFLEXHEAP_BASE="%s"\n' "$rev" "$base" >> "$out.tmp/release"
echo "$stamp" > "$out.tmp/.flexheap-stamp"
rm -rf "$out"; mv "$out.tmp" "$out"
"$out/bin/java" -version 2>&1 | sed 's/^/  /' >&2
