#!/usr/bin/env bash
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
# Build a STOCK OpenJDK 26 image (26.0.2.1+1), the newest stock G1, as a
# baseline for the harness policies g1-26 and g1-27like.
#   source: Debian's openjdk-26 source package 26.0.2.1+1-1 (sid) through the
#           same private apt configuration as jdk/fetch-source.sh; only the
#           upstream .orig.tar.xz is used (no debian/patches), sha256-pinned in
#           jdk/baseline/openjdk-26.sha256. That tarball is Debian's repack: its
#           Files-Excluded drops bundled third-party code (zlib, libjpeg, giflib,
#           libpng, the pcsc-lite headers in libj2pcsc/MUSCLE), so the build uses
#           the system libraries instead (--with-*=system; MUSCLE/ is restored as
#           links to libpcsclite-dev's headers). No JDK code is changed.
#   build:  make images, release, into $FLEXHEAP_CACHE/build/jdk26 (never our
#           own build dir or lock), installed to $FLEXHEAP_CACHE/baseline/jdk-26
#           (or $FLEXHEAP_JDK26_OUT) with a stamp: a second run is a no-op.
# Usage: jdk/baseline/build-jdk26.sh [--plan | --fetch-only]
#   --plan        print the decisions and exit
#   --fetch-only  download, verify and unpack the source, print its path, exit
# Environment: FLEXHEAP_JDK26_BOOT_JDK (default Temurin 25), FLEXHEAP_JDK26_JOBS
# (default 2), FLEXHEAP_JDK26_NICE (default 15).
set -euo pipefail
. "$(dirname "$0")/../common.sh"

JDK26_VERSION="26.0.2.1+1"
JDK26_DEB_VERSION="26.0.2.1+1-1"
JDK26_DEB_SUITE="sid"
JDK26_ORIG_TAR="openjdk-26_$JDK26_VERSION.orig.tar.xz"
JDK26_SHA256_FILE="$FLEXHEAP_ROOT/jdk/baseline/openjdk-26.sha256"
JDK26_SRC="$FLEXHEAP_CACHE/src/jdk-$JDK26_VERSION"
JDK26_BUILD="$FLEXHEAP_CACHE/build/jdk26"
JDK26_OUT="${FLEXHEAP_JDK26_OUT:-$FLEXHEAP_CACHE/baseline/jdk-26}"
JDK26_BOOT="${FLEXHEAP_JDK26_BOOT_JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}"
JDK26_JOBS="${FLEXHEAP_JDK26_JOBS:-2}"
JDK26_NICE="${FLEXHEAP_JDK26_NICE:-15}"
STAMP="$JDK26_OUT/.flexheap-baseline-stamp"

conf_args=(--with-boot-jdk="$JDK26_BOOT" --enable-headless-only --with-debug-level=release
  --with-native-debug-symbols=none --enable-ccache --disable-warnings-as-errors
  --with-jvm-variants=server --with-jvm-features=-zgc,-shenandoahgc,-epsilongc,-jvmci
  --with-zlib=system --with-libjpeg=system --with-giflib=system --with-libpng=system
  --with-version-string="$JDK26_VERSION" --with-jobs="$JDK26_JOBS")
key=$(printf '%s\n' "$JDK26_VERSION" "$(awk '{print $1; exit}' "$JDK26_SHA256_FILE")" \
  "${conf_args[@]}" | sha256sum | cut -c1-16)

case "${1:-}" in
  --plan)
    echo "source=$JDK26_SRC"; echo "build=$JDK26_BUILD"; echo "out=$JDK26_OUT"
    echo "boot=$JDK26_BOOT"; echo "jobs=$JDK26_JOBS"; echo "nice=$JDK26_NICE"; echo "key=$key"
    if [ "$(cat "$STAMP" 2>/dev/null)" = "$key" ]; then echo "state=built"; else echo "state=missing"; fi
    exit 0 ;;
  --fetch-only|"") ;;
  *) die "usage: $0 [--plan | --fetch-only]" ;;
esac

if [ -z "${1:-}" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$key" ] && [ -x "$JDK26_OUT/bin/java" ]; then
  log "JDK 26 baseline is up to date: $JDK26_OUT"; echo "$JDK26_OUT"; exit 0
fi

# One JDK-26 build at a time (a lock of its own; jdk/build.sh's lock is not touched).
mkdir -p "$FLEXHEAP_CACHE/build"
exec 8>"$FLEXHEAP_CACHE/build/jdk26.lock"
flock 8

# --- source -----------------------------------------------------------------
fetch_openjdk_source openjdk-26 "$JDK26_DEB_VERSION" "$JDK26_DEB_SUITE" "$JDK26_ORIG_TAR" "$JDK26_SHA256_FILE" \
  "$JDK26_SRC" src/hotspot/share/gc/g1/g1HeapSizingPolicy.cpp
if [ "${1:-}" = "--fetch-only" ]; then echo "$JDK26_SRC"; exit 0; fi

# --- build ------------------------------------------------------------------
[ -x "$JDK26_BOOT/bin/javac" ] || die "boot JDK $JDK26_BOOT not found (set FLEXHEAP_JDK26_BOOT_JDK to a JDK 25)"
"$FLEXHEAP_ROOT/tools/apt-install-missing.sh" "JDK 26 build" \
  autoconf make zip unzip file ccache xz-utils g++ \
  libasound2-dev libcups2-dev libfontconfig1-dev libfreetype-dev libx11-dev libxext-dev \
  libxrender-dev libxrandr-dev libxtst-dev libxt-dev \
  zlib1g-dev libjpeg-dev libgif-dev libpng-dev libpcsclite-dev
# Debian's repack removed the pcsc-lite headers OpenJDK bundles for libj2pcsc
# (which dlopen()s libpcsclite at run time); put the system's in their place.
muscle="$JDK26_SRC/src/java.smartcardio/unix/native/libj2pcsc/MUSCLE"
if [ ! -f "$muscle/winscard.h" ]; then
  mkdir -p "$muscle"
  for h in pcsclite.h winscard.h wintypes.h; do
    [ -f "/usr/include/PCSC/$h" ] || die "no /usr/include/PCSC/$h (package libpcsclite-dev)"
    ln -sf "/usr/include/PCSC/$h" "$muscle/$h"
  done
fi
# A ccache of its own: the FlexHeap JDK's cache is not evicted by this build.
export CCACHE_DIR="${FLEXHEAP_JDK26_CCACHE_DIR:-$FLEXHEAP_CACHE/ccache-jdk26}"
mkdir -p "$CCACHE_DIR"; ccache -M 4G >/dev/null

mkdir -p "$JDK26_BUILD"
if [ "$(cat "$JDK26_BUILD/.flexheap-configured" 2>/dev/null)" != "$key" ]; then
  log "configuring OpenJDK $JDK26_VERSION in $JDK26_BUILD"
  (cd "$JDK26_BUILD" && nice -n "$JDK26_NICE" bash "$JDK26_SRC/configure" "${conf_args[@]}" \
      > configure.log 2>&1) \
    || { tail -30 "$JDK26_BUILD/configure.log" >&2; die "configure failed (log: $JDK26_BUILD/configure.log)"; }
  echo "$key" > "$JDK26_BUILD/.flexheap-configured"
fi

start=$(date +%s)
log "building 'images' with $JDK26_JOBS jobs under nice -n $JDK26_NICE (log: $JDK26_BUILD/build.log)"
if ! nice -n "$JDK26_NICE" make -C "$JDK26_BUILD" images LOG=warn > "$JDK26_BUILD/build.log" 2>&1; then
  grep -E 'error|Error' "$JDK26_BUILD/build.log" | head -30 >&2
  die "build failed (log: $JDK26_BUILD/build.log)"
fi
secs=$(( $(date +%s) - start ))
log "build finished in ${secs}s"

img="$JDK26_BUILD/images/jdk"
"$img/bin/java" -version >/dev/null 2>&1 || die "built image $img does not run"
rm -rf "$JDK26_OUT.tmp"; mkdir -p "$(dirname "$JDK26_OUT")"
cp -a "$img" "$JDK26_OUT.tmp"
echo "$key" > "$JDK26_OUT.tmp/.flexheap-baseline-stamp"
echo "$secs" > "$JDK26_OUT.tmp/.flexheap-build-seconds"
rm -rf "$JDK26_OUT"; mv "$JDK26_OUT.tmp" "$JDK26_OUT"
log "JDK 26 baseline installed: $JDK26_OUT"
echo "$JDK26_OUT"
