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
# dist.sh: a relocatable tarball of the assembled FlexHeap JDK ($JDK_OUT, built
# by jdk/build.sh; `./flexheap dist` builds what is missing first) in
# $FLEXHEAP_DIST_DIR (default build/dist):
#   flexheap-jdk-<java version>-<revision>-linux-<arch>.tar.gz   one top-level
#     directory of that name: the JDK as assembled (lib/libiostall.so included),
#     LICENSE (the repository's; the JDK's own notices stay in legal/) and
#     README.md (from jdk/dist/README.md)
#   <tarball>.sha256   for `sha256sum -c`
# Relocatable: a symlink that leaves the JDK (Debian's Temurin links
# lib/security/cacerts to /etc/ssl/certs/java/cacerts) is shipped as a copy of
# its file, the build machine's path of the base JDK leaves `release`, and an
# absolute RUNPATH stops the build. Reproducible: sorted entries, owner 0:0,
# modes normalised, every mtime the revision's commit time (SOURCE_DATE_EPOCH
# overrides), gzip without name or time: the same JDK gives the same bytes.
# Older tarballs of the same arch in the directory are removed.
# Prints the tarball's path on stdout (last line).
set -euo pipefail
. "$(dirname "$0")/common.sh"

jdk="$JDK_OUT"
dist="${FLEXHEAP_DIST_DIR:-$FLEXHEAP_ROOT/build/dist}"
readme_in="$FLEXHEAP_ROOT/jdk/dist/README.md"

[ -x "$jdk/bin/java" ] && [ -f "$jdk/release" ] || die "no FlexHeap JDK at $jdk (run ./flexheap build)"
[ -f "$jdk/lib/server/libjvm.so" ] || die "$jdk has no lib/server/libjvm.so"
# FlexHeap loads the library from the JDK's lib/ (FlexHeapIOStallLibrary's default):
# a JDK without it runs FlexHeap with no I/O stall source.
[ -f "$jdk/lib/libiostall.so" ] || die "$jdk has no lib/libiostall.so (make -C iostall, then ./flexheap build)"
release_value() { sed -n "s/^$1=\"\(.*\)\"\$/\1/p" "$jdk/release" | head -1; }
version=$(release_value JAVA_RUNTIME_VERSION); version=${version%%-*}   # 25.0.3+9-LTS -> 25.0.3+9
rev=$(release_value FLEXHEAP_REVISION)
[ -n "$version" ] && [ -n "$rev" ] || die "$jdk/release lacks JAVA_RUNTIME_VERSION or FLEXHEAP_REVISION (not assembled by jdk/assemble.sh?)"
case "$(release_value OS_ARCH)" in
  x86_64|amd64) arch=x64 ;;
  aarch64|arm64) arch=aarch64 ;;
  "") die "$jdk/release lacks OS_ARCH" ;;
  *) arch=$(release_value OS_ARCH) ;;
esac
jvm_version=$("$jdk/bin/java" -version 2>&1) || die "$jdk/bin/java -version failed: $jvm_version"
grep -q "FlexHeap $rev" <<< "$jvm_version" \
  || die "$jdk/bin/java -version does not name FlexHeap $rev: not the FlexHeap JVM its release file says"
case "$rev" in *-dirty) log "warning: revision $rev: the JDK was built from uncommitted changes" ;; esac

name="flexheap-jdk-$version-$rev-linux-$arch"
tarball="$dist/$name.tar.gz"
if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then epoch=$SOURCE_DATE_EPOCH
elif ! epoch=$(git -C "$FLEXHEAP_ROOT" log -1 --format=%ct "${rev%-dirty}" 2>/dev/null) || [ -z "$epoch" ]; then
  epoch=$(stat -c %Y "$jdk/release")   # outside git: the JDK's own assembly time
fi

mkdir -p "$dist"
exec 8>"$dist/.lock"   # one dist at a time per directory
flock 8
rm -rf "$dist"/.stage-*
stage="$dist/.stage-$$"
trap 'rm -rf "$stage" "$tarball.tmp" "$tarball.sha256.tmp"' EXIT
mkdir -p "$stage"; stage=$(cd "$stage" && pwd -P)
top="$stage/$name"
# A hard-linked copy (instant, no space) taken under the build lock, so a build
# replacing $jdk meanwhile cannot mix two JDKs. Files of the copy are replaced,
# never written in place: they are the build's own inodes.
( flock 9
  cp -al "$jdk" "$top" 2>/dev/null || { rm -rf "$top"; cp -a "$jdk" "$top"; }
) 9>"$FLEXHEAP_CACHE/build.lock"
rm -f "$top/.flexheap-stamp"

# release: FLEXHEAP_BASE is the base JDK's path on the build machine; ship its name.
sed 's|^FLEXHEAP_BASE="\(.*/\)\{0,1\}\([^/"]*\)"$|FLEXHEAP_BASE="\2"|' "$jdk/release" > "$stage/release"
rm -f "$top/release"; mv "$stage/release" "$top/release"
if grep -nE '^[A-Z_]+="/' "$top/release" >&2; then die "release names an absolute path (above)"; fi

# Symlinks: those inside the JDK stay; one that leaves it is shipped as its file.
while IFS= read -r -d '' link; do
  target=$(readlink "$link")
  resolved=$(readlink -f "$link" || true)
  if [ "${target#/}" = "$target" ] && [ "${resolved#"$top"/}" != "$resolved" ] && [ -e "$resolved" ]; then continue; fi
  [ -n "$resolved" ] && [ -f "$resolved" ] \
    || die "${link#"$top"/} -> $target: leaves the JDK and is not a regular file, cannot ship it"
  rm -f "$link"; cp "$resolved" "$link"
  log "${link#"$top"/} -> $target: leaves the JDK, shipped as a copy of the file"
done < <(find "$top" -type l -print0)

# ELF files find their libraries through $ORIGIN only; note the newest glibc
# symbol any of them needs (our libjvm.so is built on this machine).
glibc=""
while IFS= read -r -d '' f; do
  head -c 4 "$f" | grep -q $'^\x7fELF' || continue
  rpath=$(readelf -d "$f" 2>/dev/null | sed -n 's/.*(R\(UN\)\{0,1\}PATH).*\[\(.*\)\]/\2/p')
  IFS=: read -r -a entries <<< "$rpath"
  for e in "${entries[@]}"; do
    case "$e" in '$ORIGIN'*|'${ORIGIN}'*) ;; *) die "${f#"$top"/}: RUNPATH entry $e is not relative to \$ORIGIN" ;; esac
  done
  glibc+=$(objdump -T "$f" 2>/dev/null | grep -o 'GLIBC_[0-9][0-9.]*' | sort -u || true)$'\n'
done < <(find "$top/bin" "$top/lib" -type f \( -perm -u+x -o -name '*.so' \) -print0)
glibc=$(grep . <<< "$glibc" | sed 's/^GLIBC_//' | sort -Vu | tail -1)
[ -n "$glibc" ] || die "found no glibc symbol versions in the JDK's ELF files"

# The README's defaults are the JVM's own, so it cannot drift from the build.
flags=$("$top/bin/java" -XX:+UseFlexHeap -XX:+PrintFlagsFinal -version 2>/dev/null) \
  || die "$top/bin/java -XX:+UseFlexHeap -XX:+PrintFlagsFinal failed"
flag_default() {
  local v
  v=$(awk -v f="$1" '$2 == f { print ($4 == "{product}" || $4 == "" ? "(empty)" : $4); exit }' <<< "$flags")
  [ -n "$v" ] || die "jdk/dist/README.md names -XX:$1, which $name's JVM does not have"
  case "$v" in *.*[0-9]) v=$(awk -v x="$v" 'BEGIN { printf "%g", x }') ;; esac   # 90.000000 -> 90
  printf '%s' "$v"
}
base_name=$(release_value IMPLEMENTOR_VERSION); [ -n "$base_name" ] || base_name="OpenJDK $version"
subst=(-e "s|@NAME@|$name|g" -e "s|@JAVA_VERSION@|$version|g" -e "s|@REVISION@|$rev|g"
       -e "s|@ARCH@|$arch|g" -e "s|@BASE@|$base_name|g" -e "s|@GLIBC@|$glibc|g"
       -e "s|@DATE@|$(date -u -d "@$epoch" +%Y-%m-%d)|g")
for f in $(grep -o '@FLAG:[A-Za-z]*@' "$readme_in" | sort -u); do
  f=${f#@FLAG:}; f=${f%@}
  v=$(flag_default "$f")
  subst+=(-e "s|@FLAG:$f@|$v|g")
done
sed "${subst[@]}" "$readme_in" > "$top/README.md"
if grep -n '@[A-Z_:a-z]*@' "$top/README.md" >&2; then die "README.md keeps placeholders (above)"; fi
cp "$FLEXHEAP_ROOT/LICENSE" "$top/LICENSE"

log "writing $tarball"
tar -C "$stage" -cf - --sort=name --format=gnu --owner=0 --group=0 --numeric-owner \
    --mtime="@$epoch" --mode='u+rw,go+rX,go-w' --hard-dereference "$name" \
  | gzip -n > "$tarball.tmp"
mv "$tarball.tmp" "$tarball"
(cd "$dist" && sha256sum "$name.tar.gz") > "$tarball.sha256.tmp"
mv "$tarball.sha256.tmp" "$tarball.sha256"
for old in "$dist"/flexheap-jdk-*-linux-"$arch".tar.gz; do
  [ "$old" = "$tarball" ] || [ ! -e "$old" ] || { rm -f "$old" "$old.sha256"; log "removed the older $(basename "$old")"; }
done
log "$(basename "$tarball"): $(du -h "$tarball" | cut -f1), sha256 $(cut -c1-16 "$tarball.sha256")…"
echo "$tarball"
