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

# Shared settings for the FlexHeap JDK scripts (sourced, not run).
# Everything fetched or built lives outside git, under $FLEXHEAP_CACHE.
FLEXHEAP_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FLEXHEAP_CACHE="${FLEXHEAP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/flexheap}"
JDK_VERSION="25.0.3+9"                      # OpenJDK tag we build on
JDK_DEB_VERSION="25.0.3+9-2~deb13u1"        # Debian source package version
JDK_DEB_SUITE="trixie"
JDK_ORIG_TAR="openjdk-25_25.0.3+9.orig.tar.xz"
JDK_ORIG_SHA256_FILE="$FLEXHEAP_ROOT/jdk/openjdk-25.sha256"
SRC_PRISTINE="$FLEXHEAP_CACHE/src/jdk-$JDK_VERSION"      # unpacked, never modified
SRC_WORK="$FLEXHEAP_CACHE/src/jdk-$JDK_VERSION-flexheap"  # pristine + our sources/patches
BUILD_DIR="$FLEXHEAP_CACHE/build/jdk"
JDK_OUT="${FLEXHEAP_JDK_OUT:-$FLEXHEAP_ROOT/build/flexheap-jdk}"

log() { echo "flexheap: $*" >&2; }
die() { echo "flexheap: error: $*" >&2; exit 1; }

# Why each jtreg test under WORK failed, from its .jtr (jtreg's summary names
# the test only; CI shows the console, not the work directory).
# Always returns 0: under set -e a passed test's .jtr (grep finds nothing)
# must not end the report, nor the runner that calls it.
jtreg_failures() {  # jtreg_failures WORK_DIR NEWER_THAN_FILE
  local jtr
  [ -d "$1" ] && [ -e "$2" ] || return 0
  while IFS= read -r jtr; do
    grep -m1 -E '^test result: (Failed|Error)' "$jtr" | cut -c1-600 | sed "s|^|  ${jtr#"$1"/}: |" || true
  done < <(find "$1" -name '*.jtr' -newer "$2" 2>/dev/null | sort)
  return 0
}

# jtreg on JDK, one test at a time in an agent VM, work and report under DIR;
# on failure, why each test failed. Returns jtreg's exit code.
run_jtreg_suite() {  # run_jtreg_suite JDK DIR TIMEOUT_FACTOR TEST...
  local jdk=$1 dir=$2 factor=$3 jar rc=0
  shift 3
  [ -x "$jdk/bin/java" ] || die "no FlexHeap JDK at $jdk (run jdk/build.sh)"
  jar=$("$FLEXHEAP_ROOT/jdk/fetch-jtreg.sh")
  mkdir -p "$dir"; rm -rf "$dir/report"
  touch "$dir/.started"
  "$jdk/bin/java" -jar "$jar" -jdk:"$jdk" -conc:1 -agentvm -verbose:summary -timeoutFactor:"$factor" \
    -w:"$dir/work" -r:"$dir/report" "$@" || rc=$?
  [ $rc -eq 0 ] || jtreg_failures "$dir/work" "$dir/.started" | tee -a "${FLEXHEAP_FAILURES:-/dev/null}"
  return $rc
}

# The first Debian mirror URI configured on this machine (deb822 or one-line format).
debian_mirror() {
  local f uri
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    uri=$(awk '/^URIs:/ {for (i=2;i<=NF;i++) if ($i ~ /\/debian\/?$/) {print $i; exit}}' "$f")
    [ -n "$uri" ] && { echo "${uri%/}"; return 0; }
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    uri=$(awk '$1=="deb" {for (i=2;i<=NF;i++) if ($i ~ /^(https?|file):.*\/debian\/?$/) {print $i; exit}}' "$f")
    [ -n "$uri" ] && { echo "${uri%/}"; return 0; }
  done
  return 1
}

# Run apt-get with a private configuration for one extra suite (deb-src or deb),
# leaving /etc/apt and the system's package lists untouched.
private_apt() {  # private_apt <types> <suite> <apt-get args...>
  local types=$1 suite=$2; shift 2
  local dir="$FLEXHEAP_CACHE/apt/$suite-${types// /-}" mirror
  mirror=$(debian_mirror) || die "no Debian mirror found in /etc/apt sources"
  mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
  cat > "$dir/sources.list" <<SRC
deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main
SRC
  [ "$types" = "deb" ] && sed -i 's/^deb-src/deb/' "$dir/sources.list"
  local opts=(-o "Dir::Etc::SourceList=$dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
              -o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache"
              -o APT::Get::List-Cleanup=0 -o Debug::NoLocking=1)
  if [ ! -f "$dir/updated" ] || [ -n "$(find "$dir/updated" -mmin +1440)" ]; then
    apt-get "${opts[@]}" update -qq >/dev/null 2>"$dir/update.err" || { cat "$dir/update.err" >&2; die "apt update for $suite failed"; }
    touch "$dir/updated"
  fi
  "${PRIVATE_APT_TOOL:-apt-get}" "${opts[@]}" "$@"
}

# Download ORIG of source package PKG from the Debian mirror's pool into DIR.
fetch_from_pool() {  # fetch_from_pool PKG ORIG DIR
  local pkg=$1 orig=$2 dir=$3 mirror prefix=${1:0:1}  # Debian pool layout: o/openjdk-25, libb/libbpf
  mirror=$(debian_mirror) || return 1
  case "$pkg" in lib?*) prefix=${pkg:0:4} ;; esac
  log "$orig is not in the suite's index any more; trying the mirror's pool"
  /usr/lib/apt/apt-helper download-file "$mirror/pool/main/$prefix/$pkg/$orig" "$dir/$orig"
}

# An OpenJDK source tree from a Debian source package's .orig.tar.xz, checked
# against a pinned sha256 and unpacked into DEST (stamped; a no-op once done).
# Only the .orig is used: --download-only unpacks and patches nothing, and
# side files (.debian.tar.xz, .dsc) may 404. LAYOUT_FILE, relative to the
# tree, must exist in the unpacked source.
fetch_openjdk_source() {  # fetch_openjdk_source PACKAGE DEB_VERSION SUITE ORIG_TAR SHA256_FILE DEST LAYOUT_FILE
  local pkg=$1 version=$2 suite=$3 orig=$4 sha=$5 dest=$6 layout=$7
  [ -f "$dest/.flexheap-verified" ] && return 0
  local dl="$FLEXHEAP_CACHE/downloads" tmp
  mkdir -p "$dl"
  local tarball="$dl/$orig"
  if [ ! -f "$tarball" ]; then
    log "downloading $pkg $version source ($suite) through a private apt configuration"
    tmp=$(mktemp -d "$dl/get.XXXXXX")
    (cd "$tmp" && private_apt deb-src "$suite" source --download-only -qq "$pkg=$version" >"$tmp/log" 2>&1) || true
    # A suite's index lists only its newest upload; the .orig of an older one
    # stays in the mirror's pool until the archive prunes it. apt's own
    # downloader fetches it from there (same mirror, same checksum below).
    [ -f "$tmp/$orig" ] || fetch_from_pool "$pkg" "$orig" "$tmp" >>"$tmp/log" 2>&1 || true
    [ -f "$tmp/$orig" ] || { cat "$tmp/log" >&2; rm -rf "$tmp"; die "could not download $orig ($pkg $version is no longer in $suite's index nor in the mirror's pool; set FLEXHEAP_JDK_SRC to an unpacked source tree)"; }
    mv "$tmp/$orig" "$tarball"; rm -rf "$tmp"
  fi
  # Explicit exits: errexit is off when a caller tests this function.
  "$FLEXHEAP_ROOT/jdk/verify-checksum.sh" "$tarball" "$sha" || exit $?
  log "unpacking $orig"
  rm -rf "$dest.tmp"; mkdir -p "$dest.tmp"
  tar -xJf "$tarball" -C "$dest.tmp" --strip-components=1 || die "could not unpack $tarball"
  [ -f "$dest.tmp/$layout" ] || die "unexpected tarball layout"
  rm -rf "$dest" && mv "$dest.tmp" "$dest" && touch "$dest/.flexheap-verified" || die "could not install $dest"
}
