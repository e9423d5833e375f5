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
# Build the FlexHeap JDK into $JDK_OUT (default build/flexheap-jdk).
#   Fast path: an installed JDK of exactly our OpenJDK version exists -> build
#   libjvm.so only and assemble a copy of that JDK with it (+ fresh CDS archives).
#   Otherwise: build a full JDK image (slow), never a mixed-version image.
# FLEXHEAP_DEBUG_LEVEL=fastdebug (or slowdebug) builds the same sources with
# HotSpot's asserts in its own build dir ($BUILD_DIR-fastdebug) and assembles
# build/flexheap-jdk-fastdebug (FLEXHEAP_JDK_OUT overrides) the same way.
# Usage: jdk/build.sh [--plan]   (--plan prints the decisions and exits)
set -euo pipefail
. "$(dirname "$0")/common.sh"

plan_only=0; [ "${1:-}" = "--plan" ] && plan_only=1
level="${FLEXHEAP_DEBUG_LEVEL:-release}"
case "$level" in release|fastdebug|slowdebug) ;; *) die "FLEXHEAP_DEBUG_LEVEL=$level: use release, fastdebug or slowdebug" ;; esac
if [ "$level" != release ] && [ -z "${FLEXHEAP_JDK_OUT:-}" ]; then JDK_OUT="$FLEXHEAP_ROOT/build/flexheap-jdk-$level"; fi
base=$("$FLEXHEAP_ROOT/jdk/find-base-jdk.sh" || true)
if [ -n "${FLEXHEAP_FORCE_FULL:-}" ]; then base=""; fi
mode=libjvm; [ -n "$base" ] || mode=full-image
boot="${FLEXHEAP_BOOT_JDK:-$base}"
if [ -z "$boot" ]; then   # any JDK 24/25 can boot the build
  for rel in /usr/lib/jvm/*/release; do
    grep -qE '^JAVA_VERSION="2[45](\.|")' "$rel" 2>/dev/null && { boot=$(dirname "$rel"); break; }
  done
fi
if [ $plan_only -eq 1 ]; then
  echo "mode=$mode"; echo "level=$level"; echo "base=${base:-none}"; echo "boot=${boot:-none}"; echo "out=$JDK_OUT"; exit 0
fi
[ -n "$boot" ] || die "no boot JDK 24 or 25 found (set FLEXHEAP_BOOT_JDK)"

# One build at a time per cache: parallel callers (tests, a demo, a second
# shell) wait here instead of corrupting the shared build directory.
mkdir -p "$FLEXHEAP_CACHE"
exec 9>"$FLEXHEAP_CACHE/build.lock"
flock 9

"$FLEXHEAP_ROOT/jdk/deps.sh"
src=$("$FLEXHEAP_ROOT/jdk/apply.sh")
# A debug build has its own build dir but compiles from the same source
# overlay, so it keeps the lock to the end: a release build of another
# checkout re-applied its sources under a running fastdebug compile, which
# then built a mix of two revisions.
export CCACHE_DIR="${CCACHE_DIR:-$FLEXHEAP_CACHE/ccache}"
mkdir -p "$CCACHE_DIR"; ccache -M 8G >/dev/null

if [ "$mode" = libjvm ]; then
  # Same version string as the base image, so the VM and class library agree.
  version=$(sed -n 's/^JAVA_RUNTIME_VERSION="\(.*\)"/\1/p' "$base/release")
  builddir="$BUILD_DIR"
else
  version="$JDK_VERSION"; builddir="$BUILD_DIR-full"
fi
[ "$level" = release ] || builddir="$builddir-$level"
conf_args=(--with-boot-jdk="$boot" --enable-headless-only --with-debug-level="$level"
  --with-native-debug-symbols=none --enable-ccache --disable-warnings-as-errors
  --with-jvm-variants=server --with-jvm-features=-zgc,-shenandoahgc,-epsilongc,-jvmci
  --with-version-string="$version" --with-vendor-name=FlexHeap
  --with-jobs="${FLEXHEAP_JOBS:-$(nproc)}")
conf_key=$(printf '%s\n' "$src" "${conf_args[@]}" | sha256sum | cut -c1-16)
mkdir -p "$builddir"
if [ "$(cat "$builddir/.flexheap-configured" 2>/dev/null)" != "$conf_key" ]; then
  # A new configuration starts from an empty dir: make compiles every file
  # under gensrc, and the C2 sources a build with compiler2 generated there
  # (ad_x86*.cpp) fail to compile without it. ccache keeps unchanged objects.
  rm -rf "$builddir"; mkdir -p "$builddir"
  log "configuring OpenJDK ($mode) in $builddir"
  (cd "$builddir" && bash "$src/configure" "${conf_args[@]}" > configure.log 2>&1) \
    || { tail -30 "$builddir/configure.log" >&2; die "configure failed (log: $builddir/configure.log)"; }
  echo "$conf_key" > "$builddir/.flexheap-configured"
fi

start=$(date +%s)
# A build killed while writing (a session or machine ending mid-compile) can
# leave empty object files that make takes as up to date and the link then
# fails on; remove them so they are compiled again.
find "$builddir" -name '*.o' -size 0 -print -delete 2>/dev/null | sed 's/^/flexheap: removed empty object /' >&2 || true
target=hotspot; [ "$mode" = full-image ] && target=images
log "building '$target' (log: $builddir/build.log)"
if ! make -C "$builddir" "$target" LOG=warn > "$builddir/build.log" 2>&1; then
  grep -E 'error|Error' "$builddir/build.log" | head -30 >&2; die "build failed (log: $builddir/build.log)"
fi
log "build finished in $(( $(date +%s) - start ))s"
# HotSpot builds with -Werror; configure turns that off here for OpenJDK's
# own code on this compiler, not for ours (ccache replays a cached warning).
# Checked on the release libjvm build, the one every JDK we ship comes from.
if [ "$level" = release ] && grep -E 'gc/g1/flexheap/[^ /:]*:[0-9]+:[0-9]+: warning:' "$builddir/build.log" >&2; then
  die "FlexHeap's sources compiled with warnings (log: $builddir/build.log)"
fi

if [ "$mode" = libjvm ]; then
  libjvm="$builddir/support/modules_libs/java.base/server/libjvm.so"
  [ -f "$libjvm" ] || die "build produced no $libjvm"
  "$FLEXHEAP_ROOT/jdk/assemble.sh" "$base" "$libjvm" "$JDK_OUT"
else
  "$FLEXHEAP_ROOT/jdk/assemble.sh" "$builddir/images/jdk" "" "$JDK_OUT"
fi
