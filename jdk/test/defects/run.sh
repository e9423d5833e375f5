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

# Issue 11's defects, each with the test that must fail when it is put back:
# builds a FlexHeap JDK with a group of defects put back (put_back.py) from a
# git worktree of HEAD into a scratch directory, runs the group's tests on it
# and requires every one of them to FAIL, then says which message each gave.
# Not part of CI (two incremental builds, ~3-5 min); the shared build directory
# then holds the last mutant's objects until the next `./flexheap build`,
# which the script runs at the end. Defects 4 and 7 live in the iostall
# library, whose tests record their failing runs (iostall/README.md), and
# defect 6 in a unit test (FlexHeapFullGcFloor.*, see TRUST.md).
#
# Usage: jdk/test/defects/run.sh [jvm|container ...]
set -euo pipefail
. "$(dirname "$0")/../../common.sh"

declare -A TESTS=(
  [jvm]="TestFlexHeapCompressedOops TestFlexHeapNoStallSource TestFlexHeapFullGCAccounting TestFlexHeapConfigurations"
  [container]="TestFlexHeapContainerPageCache"
)
groups=("$@"); [ ${#groups[@]} -gt 0 ] || groups=(jvm container)
scratch=$(mktemp -d /tmp/flexheap-defects.XXXXXX)
cleanup() {
  git -C "$FLEXHEAP_ROOT" worktree remove --force "$scratch/tree" 2>/dev/null || true
  rm -rf "$scratch"
}
trap cleanup EXIT

bad=0
for g in "${groups[@]}"; do
  [ -n "${TESTS[$g]:-}" ] || die "unknown group $g (jvm, container)"
  git -C "$FLEXHEAP_ROOT" worktree remove --force "$scratch/tree" 2>/dev/null || true
  git -C "$FLEXHEAP_ROOT" worktree add -q --detach "$scratch/tree" HEAD
  python3 "$FLEXHEAP_ROOT/jdk/test/defects/put_back.py" "$scratch/tree" "$g"
  log "building a JDK with group '$g' put back into $scratch/jdk"
  FLEXHEAP_JDK_OUT="$scratch/jdk" bash "$scratch/tree/jdk/build.sh" > "$scratch/build-$g.log" 2>&1 \
    || { tail -20 "$scratch/build-$g.log"; die "the '$g' build failed"; }
  files=(); for t in ${TESTS[$g]}; do files+=("$scratch/tree/jdk/test/jtreg/gc/g1/flexheap/$t.java"); done
  FLEXHEAP_JDK="$scratch/jdk" bash "$scratch/tree/jdk/test/run-jtreg.sh" "${files[@]}" > "$scratch/jtreg-$g.log" 2>&1 || true
  for t in ${TESTS[$g]}; do
    jtr="$scratch/tree/build/jtreg/work/gc/g1/flexheap/$t.jtr"
    why=$(sed -n 's/^java.lang.RuntimeException: //p' "$jtr" 2>/dev/null | head -1 | cut -c1-160)
    if grep -q "^FAILED: .*/$t.java" "$scratch/jtreg-$g.log"; then
      echo "FAILS as it must ($g): $t: ${why:-see $jtr}"
    else
      echo "DID NOT FAIL ($g): $t"; bad=$((bad + 1))
    fi
  done
done
log "rebuilding the FlexHeap JDK from this tree (the build directory holds the mutant's objects)"
bash "$FLEXHEAP_ROOT/jdk/build.sh" > "$scratch/rebuild.log" 2>&1 || { tail -20 "$scratch/rebuild.log"; die "rebuild failed"; }
[ "$bad" -eq 0 ] || die "$bad test(s) passed with their defect put back"
echo "defects: every test failed with its defect put back"
