#!/usr/bin/env bash
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
