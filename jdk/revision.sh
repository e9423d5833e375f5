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
# The FlexHeap revision a build carries: the last commit that touched the JDK
# sources or patches or the iostall library the JDK ships (lib/libiostall.so:
# its probe's maps come out of the budget), "-dirty" if they have uncommitted
# changes.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
paths="jdk/src jdk/patches iostall/src iostall/include"
if git -C "$root" rev-parse --git-dir >/dev/null 2>&1 && \
   rev=$(git -C "$root" log -1 --format=%h -- $paths 2>/dev/null) && [ -n "$rev" ]; then
  if [ -n "$(git -C "$root" status --porcelain -- $paths 2>/dev/null)" ]; then rev="$rev-dirty"; fi
else
  # outside git: a content hash of what goes into the JVM
  rev="src-$(cd "$root" && cat $(find $paths -type f 2>/dev/null | sort) /dev/null | sha256sum | cut -c1-10)"
fi
echo "$rev"
