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
# Fetches, verifies and unpacks the real services outside git, idempotently:
#   opensearch  org.opensearch.distribution.integ-test-zip:opensearch:$OPENSEARCH_VERSION:zip from Maven
#               Central (mvn dependency:copy), checked against the repository's .sha1, unpacked
#   osb         opensearch-benchmark ($OSB_VERSION) from PyPI into its own venv
#   spark       pyspark ($PYSPARK_VERSION, the whole Spark distribution) from PyPI into its own venv
#   tpcds       duckdb + the duckdb-extension-tpcds wheel ($DUCKDB_VERSION; TPC-DS dsdgen and the 99
#               queries, loaded from the wheel's file, never downloaded at run time) into its own venv
# Usage: services/fetch.sh [opensearch|osb|spark|tpcds|all]...   (default: all)
# Prints "NAME PATH" per service on stdout; progress goes to stderr. Exit 3 = cannot be fetched.
# Location: $FLEXHEAP_SERVICES, else $FLEXHEAP_CACHE/services, else ~/.cache/flexheap/services.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OPENSEARCH_VERSION="${OPENSEARCH_VERSION:-3.4.0}"
OSB_VERSION="${OSB_VERSION:-2.4.0}"
PYSPARK_VERSION="${PYSPARK_VERSION:-4.3.0}"
DUCKDB_VERSION="${DUCKDB_VERSION:-1.5.5}"
cache="${FLEXHEAP_CACHE:-$HOME/.cache/flexheap}"
dest="${FLEXHEAP_SERVICES:-$cache/services}"
python="${PYTHON:-python3}"
mkdir -p "$dest"
log() { echo "services: $*" >&2; }

# One fetcher at a time per destination (CI and a person may race).
exec 9>"$dest/.fetch.lock"
flock 9

fetch_opensearch() {
  local v=$OPENSEARCH_VERSION dir="$dest/opensearch-$OPENSEARCH_VERSION"
  local gav="org.opensearch.distribution.integ-test-zip:opensearch:$v"
  if [[ -f "$dir/.flexheap-verified" ]]; then echo "opensearch $dir"; return 0; fi
  command -v mvn >/dev/null || bash "$here/../tools/apt-install-missing.sh" maven maven >&2
  local dl="$dest/downloads"; mkdir -p "$dl"
  log "fetching $gav:zip (~130 MB) and its .sha1 through Maven"
  # The zip and the repository's checksum file, both as ordinary artifacts.
  if ! mvn -B -q org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy \
        -Dartifact="$gav:zip" -DoutputDirectory="$dl" -Dmdep.overWriteIfNewer=true >&2 ||
     ! mvn -B -q org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy \
        -Dartifact="$gav:zip.sha1" -DoutputDirectory="$dl" -Dmdep.overWriteIfNewer=true >&2; then
    log "cannot fetch $gav from Maven"; return 3
  fi
  local zip="$dl/opensearch-$v.zip" want got
  want=$(tr -dc '0-9a-f' < "$dl/opensearch-$v.zip.sha1" | head -c 40)
  got=$(sha1sum "$zip" | cut -d' ' -f1)
  if [[ ${#want} -ne 40 || "$want" != "$got" ]]; then
    log "sha1 mismatch for $zip: repository says '$want', file is $got"; rm -f "$zip"; return 1
  fi
  log "sha1 ok ($got); unpacking"
  local tmp="$dest/.unpack-opensearch.$$"; rm -rf "$tmp"; mkdir -p "$tmp"
  (cd "$tmp" && "$python" -m zipfile -e "$zip" .)
  chmod +x "$tmp/opensearch-$v/bin/"* 2>/dev/null || true
  rm -rf "$dir"; mv "$tmp/opensearch-$v" "$dir"; rm -rf "$tmp"
  echo "$got" > "$dir/.flexheap-verified"
  echo "opensearch $dir"
}

make_venv() {  # make_venv DIR PIP-SPEC...
  local venv=$1; shift
  local stamp="$venv/.flexheap-installed" want="$*"
  if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then return 0; fi
  rm -rf "$venv"
  "$python" -m venv "$venv" >&2
  "$venv/bin/python" -m pip install --quiet --upgrade pip >&2
  if ! "$venv/bin/python" -m pip install --quiet "$@" >&2; then
    log "cannot install $* from PyPI"; return 3
  fi
  echo "$want" > "$stamp"
}

fetch_osb() {
  local venv="$dest/osb-$OSB_VERSION"
  log "opensearch-benchmark $OSB_VERSION in $venv"
  make_venv "$venv" "opensearch-benchmark==$OSB_VERSION" || return $?
  echo "osb $venv"
}

fetch_spark() {
  local venv="$dest/pyspark-$PYSPARK_VERSION"
  log "pyspark $PYSPARK_VERSION in $venv"
  make_venv "$venv" "pyspark==$PYSPARK_VERSION" "pyarrow" "numpy" || return $?
  echo "spark $venv"
}

fetch_tpcds() {
  local venv="$dest/tpcds-duckdb-$DUCKDB_VERSION"
  log "duckdb $DUCKDB_VERSION + duckdb-extension-tpcds in $venv"
  make_venv "$venv" "duckdb==$DUCKDB_VERSION" "duckdb-extension-tpcds==$DUCKDB_VERSION" || return $?
  echo "tpcds $venv"
}

targets=("$@"); [[ ${#targets[@]} -gt 0 ]] || targets=(all)
rc=0
for t in "${targets[@]}"; do
  case $t in
    opensearch) fetch_opensearch || rc=$? ;;
    osb) fetch_osb || rc=$? ;;
    spark) fetch_spark || rc=$? ;;
    tpcds) fetch_tpcds || rc=$? ;;
    all) fetch_opensearch || rc=$?; fetch_osb || rc=$?; fetch_spark || rc=$?; fetch_tpcds || rc=$? ;;
    *) log "unknown service $t"; exit 2 ;;
  esac
done
exit $rc
