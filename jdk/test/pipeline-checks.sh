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
# Checks of the JDK build pipeline itself (seconds, no compiler): checksum
# mismatches are errors, the base JDK is chosen by its release file and a
# missing one means a full build, re-applying our sources changes nothing,
# jimage-replace.py swaps exactly one resource of a real lib/modules, and no
# OpenJDK or Temurin file is tracked by git.
set -uo pipefail
. "$(dirname "$0")/../common.sh"
passed=0 failed=0
check() {  # check NAME COMMAND...
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); echo "PASS $name"
  else failed=$((failed + 1)); echo "FAIL $name"; fi
}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

echo hello > "$tmp/file"
sha256sum "$tmp/file" > "$tmp/good.sha256"
echo "0000000000000000000000000000000000000000000000000000000000000000  file" > "$tmp/bad.sha256"
check "checksum match accepted" "$FLEXHEAP_ROOT/jdk/verify-checksum.sh" "$tmp/file" "$tmp/good.sha256"
mismatch_is_error() {
  "$FLEXHEAP_ROOT/jdk/verify-checksum.sh" "$tmp/file" "$tmp/bad.sha256" 2>"$tmp/err"
  [ $? -eq 3 ] && grep -q "checksum mismatch" "$tmp/err"
}
check "checksum mismatch is an error (exit 3)" mismatch_is_error
# fetch_openjdk_source on a tarball already in the download cache (no network):
# a mismatch stops it with exit 3 and leaves no source tree, even when the
# caller tests it (errexit off); a match installs and stamps the tree.
mkdir -p "$tmp/fake/jdk/src" && echo x > "$tmp/fake/jdk/src/marker"
tar -cJf "$tmp/fake.orig.tar.xz" -C "$tmp/fake" jdk
(cd "$tmp" && sha256sum fake.orig.tar.xz > fake-good.sha256)
echo "0000000000000000000000000000000000000000000000000000000000000000  fake.orig.tar.xz" > "$tmp/fake-bad.sha256"
# With "pool": apt finds nothing (the suite's index no longer lists the pinned
# upload) and the tarball is only in a file:// mirror's pool.
fake_source() {  # fake_source SHA256_FILE [pool] -> exit status of fetch_openjdk_source
  local cache="$tmp/fetch-cache" mirror="$tmp/mirror" from_pool=${2:-}
  rm -rf "$cache" "$mirror"; mkdir -p "$cache/downloads" "$mirror/pool/main/f/fake"
  if [ -n "$from_pool" ]; then cp "$tmp/fake.orig.tar.xz" "$mirror/pool/main/f/fake/"
  else cp "$tmp/fake.orig.tar.xz" "$cache/downloads/"; fi
  ( FLEXHEAP_CACHE="$cache"; . "$FLEXHEAP_ROOT/jdk/common.sh"
    if [ -n "$from_pool" ]; then
      private_apt() { return 100; }
      eval "debian_mirror() { echo 'file://$mirror'; }"  # expanded now: bash scopes names dynamically
    fi
    if fetch_openjdk_source fake 1 none fake.orig.tar.xz "$1" "$cache/src/fake" src/marker 2>/dev/null; then :; fi )
}
source_mismatch_is_error() {
  fake_source "$tmp/fake-bad.sha256"
  [ $? -eq 3 ] && [ ! -e "$tmp/fetch-cache/src/fake" ]
}
check "source fetch: checksum mismatch exits 3 and unpacks nothing" source_mismatch_is_error
source_match_installs() {
  fake_source "$tmp/fake-good.sha256" && [ -f "$tmp/fetch-cache/src/fake/src/marker" ] &&
    [ -f "$tmp/fetch-cache/src/fake/.flexheap-verified" ]
}
check "source fetch: a matching tarball is unpacked and stamped" source_match_installs
# The .orig of an upload gone from the suite's index comes from the mirror's
# pool, and is checked all the same.
pool_fallback_installs() {
  fake_source "$tmp/fake-good.sha256" pool >/dev/null && [ -f "$tmp/fetch-cache/src/fake/.flexheap-verified" ]
}
check "source fetch: an upload gone from the suite's index comes from the mirror's pool" pool_fallback_installs
pool_fallback_verifies() {
  fake_source "$tmp/fake-bad.sha256" pool >/dev/null
  [ $? -eq 3 ] && [ ! -e "$tmp/fetch-cache/src/fake" ]
}
check "source fetch: the pool's tarball is checksum-verified too" pool_fallback_verifies
check "pinned orig tarball checksum is recorded" grep -qE '^[0-9a-f]{64}  openjdk-25_25.0.3\+9.orig.tar.xz$' "$JDK_ORIG_SHA256_FILE"

# Fake JDK homes: the exact version is chosen, another 25.0.x is not.
fake_jdk() {  # fake_jdk DIR RUNTIME_VERSION
  mkdir -p "$1/bin" "$1/lib/server"
  printf 'JAVA_VERSION="25.0.x"\nJAVA_RUNTIME_VERSION="%s"\nJVM_VARIANT="Hotspot"\n' "$2" > "$1/release"
  touch "$1/lib/server/libjvm.so"; printf '#!/bin/sh\n' > "$1/bin/javac"; chmod +x "$1/bin/javac"
}
fake_jdk "$tmp/jvms/other-25" "25.0.2+10-LTS"
plan() { FLEXHEAP_BASE_JDK_DIRS="$1" "$FLEXHEAP_ROOT/jdk/build.sh" --plan; }
check "no base JDK -> full image build" bash -c "$(declare -f plan); FLEXHEAP_ROOT=$FLEXHEAP_ROOT; plan /nonexistent | grep -qx mode=full-image"
check "other 25.0.x is not a base -> full image build" bash -c "$(declare -f plan); FLEXHEAP_ROOT=$FLEXHEAP_ROOT; plan $tmp/jvms | grep -qx mode=full-image"
fake_jdk "$tmp/jvms/same-25" "$JDK_VERSION-LTS"
check "exact $JDK_VERSION base -> libjvm fast path" bash -c "$(declare -f plan); FLEXHEAP_ROOT=$FLEXHEAP_ROOT; plan $tmp/jvms | grep -qx 'base=$tmp/jvms/same-25'"

if [ -f "$SRC_WORK/.flexheap-work" ]; then
  reapply_is_noop() {
    "$FLEXHEAP_ROOT/jdk/apply.sh" >/dev/null 2>&1 &&
    "$FLEXHEAP_ROOT/jdk/apply.sh" 2>&1 >/dev/null | grep -q ", 0 files updated)"
  }
  check "re-applying our sources and patches changes nothing" reapply_is_noop
fi
# jimage-replace.py on the base JDK's lib/modules (skipped without a base).
base=$("$FLEXHEAP_ROOT/jdk/find-base-jdk.sh" 2>/dev/null || true)
if [ -n "$base" ] && [ -x "$base/bin/jimage" ]; then
  meta=/jdk.jfr/jdk/jfr/internal/types/metadata.bin
  head -c 4099 /dev/urandom > "$tmp/new.bin"
  jimage_swap_one() {
    python3 "$FLEXHEAP_ROOT/jdk/jimage-replace.py" "$base/lib/modules" "$tmp/modules" "$meta=$tmp/new.bin" &&
    "$base/bin/jimage" extract --dir "$tmp/x" --include 'regex:.*(metadata\.bin|java/lang/Object\.class)' "$tmp/modules" &&
    "$base/bin/jimage" extract --dir "$tmp/y" --include 'regex:.*java/lang/Object\.class' "$base/lib/modules" &&
    cmp -s "$tmp/new.bin" "$tmp/x/jdk.jfr/jdk/jfr/internal/types/metadata.bin" &&
    cmp -s "$tmp/x/java.base/java/lang/Object.class" "$tmp/y/java.base/java/lang/Object.class" &&
    [ "$("$base/bin/jimage" list "$tmp/modules" | wc -l)" -eq "$("$base/bin/jimage" list "$base/lib/modules" | wc -l)" ]
  }
  check "jimage-replace swaps one resource and keeps all others" jimage_swap_one
  jimage_unknown_is_error() {
    ! python3 "$FLEXHEAP_ROOT/jdk/jimage-replace.py" "$base/lib/modules" "$tmp/m2" "/jdk.jfr/no/such.bin=$tmp/new.bin" 2>"$tmp/err" &&
    grep -q "not in the image: /jdk.jfr/no/such.bin" "$tmp/err" && [ ! -e "$tmp/m2" ]
  }
  check "jimage-replace: a resource not in the image is an error" jimage_unknown_is_error
  jimage_garbage_is_error() {
    head -c 100 /dev/zero > "$tmp/zeros"
    ! python3 "$FLEXHEAP_ROOT/jdk/jimage-replace.py" "$tmp/zeros" "$tmp/m3" "$meta=$tmp/new.bin" 2>"$tmp/err" &&
    grep -q "not a jimage" "$tmp/err"
  }
  check "jimage-replace: a file that is no jimage is an error" jimage_garbage_is_error
  # Our metadata.bin swap assumes the base's came from the same metadata.xml.
  if [ -f "$SRC_WORK/.flexheap-work" ]; then
    base_jfr_metadata_matches_source() {
      local src; src=$("$FLEXHEAP_ROOT/jdk/fetch-source.sh" 2>/dev/null) || return 1
      "$base/bin/java" "$src/make/src/classes/build/tools/jfr/GenerateJfrFiles.java" --mode metadata \
        --xml "$src/src/hotspot/share/jfr/metadata/metadata.xml" \
        --xsd "$src/src/hotspot/share/jfr/metadata/metadata.xsd" --output "$tmp/pristine.bin" &&
      "$base/bin/jimage" extract --dir "$tmp/b" --include 'regex:.*metadata\.bin' "$base/lib/modules" &&
      cmp -s "$tmp/pristine.bin" "$tmp/b/jdk.jfr/jdk/jfr/internal/types/metadata.bin"
    }
    check "base JDK's JFR metadata.bin is the pristine source's" base_jfr_metadata_matches_source
  fi
fi
no_jdk_files() {
  ! git -C "$FLEXHEAP_ROOT" ls-files | grep -E '(^|/)(g1CollectedHeap\.cpp|g1_globals\.hpp|threads\.cpp|libjvm\.so|classes\.jsa|release)$|^src/hotspot/'
}
check "no OpenJDK or Temurin file tracked by git" no_jdk_files
# Compiler dependency files belong in build/, never in the work tree.
no_stray_dep_files() {
  ! git -C "$FLEXHEAP_ROOT" ls-files --others --cached --exclude-standard | grep -E '\.d$'
}
check "no stray compiler dependency (.d) files in the work tree" no_stray_dep_files
# Every tracked source, script, build file and patch carries a licence header
# (GPL-2.0 with the Classpath exception, or SPDX for the libbpf-tools-style C);
# test data files are exempt.
files_without_licence() {
  git -C "$FLEXHEAP_ROOT" ls-files | grep -E '\.(c|h|cpp|hpp|java|py|sh|patch|map|xml)$|(^|/)(flexheap|run|Makefile)$' |
    while read -r f; do
      head -40 "$FLEXHEAP_ROOT/$f" | grep -qE 'GNU General Public License|SPDX-License-Identifier' || echo "$f"
    done
}
no_missing_licence() { local missing; missing=$(files_without_licence); [ -z "$missing" ] || { echo "$missing" >&2; false; }; }
check "every tracked source file has a licence header" no_missing_licence
echo "pipeline: $passed passed, $failed failed"
[ $failed -eq 0 ]
