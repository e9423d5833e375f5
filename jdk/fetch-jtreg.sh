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
# Print the path of jtreg.jar (jtreg 8, needed by JDK 25's tests): Debian
# trixie's jtreg8 package and its Java dependencies, fetched through a private
# apt configuration and unpacked with dpkg -x (nothing is installed).
set -euo pipefail
. "$(dirname "$0")/common.sh"
root="$FLEXHEAP_CACHE/jtreg/root"
jar="$root/usr/share/jtreg/lib/jtreg.jar"
if [ -f "$jar" ] && [ -f "$root/.complete" ]; then echo "$jar"; exit 0; fi
debs="$FLEXHEAP_CACHE/jtreg/debs"; mkdir -p "$debs"
log "downloading jtreg8 from Debian trixie"
(cd "$debs" && private_apt deb trixie download -qq jtreg8 libjtharness-java libasmtools-java \
   libjcommander-java libslf4j-java libguice-java > "$debs/download.log" 2>&1) \
  || { cat "$debs/download.log" >&2; die "could not download jtreg8"; }
rm -rf "$root"; mkdir -p "$root"
for d in "$debs"/*.deb; do dpkg -x "$d" "$root"; done
[ -f "$jar" ] || die "jtreg8 package has no $jar"
touch "$root/.complete"
echo "$jar"
