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
# Runs the FlexHeap Lucene benchmark: finds a JDK 25+, (re)builds the jar when
# it is missing or older than the sources, then `java -jar` with the given args.
# Extra JVM flags: BENCH_JAVA_OPTS="-Xmx4g ..." ./run.sh run --index ... 
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
jar="$here/target/flexheap-bench.jar"

# Major version from a JDK's `release` file (JAVA_VERSION="25.0.3" -> 25).
jdk_major() {
    local v
    v="$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" 2>/dev/null || true)"
    echo "${v:-0}"
}

find_jdk() {
    if [[ -n "${JAVA_HOME:-}" && "$(jdk_major "$JAVA_HOME")" -ge 25 ]]; then
        echo "$JAVA_HOME"; return
    fi
    local d
    for d in /usr/lib/jvm/* /opt/java/* /opt/jdk*; do
        [[ -f "$d/release" && -x "$d/bin/java" ]] || continue
        if [[ "$(jdk_major "$d")" -ge 25 ]]; then echo "$d"; return; fi
    done
    echo "error: no JDK 25+ found (set JAVA_HOME)" >&2
    exit 2
}

JAVA_HOME="$(find_jdk)"
export JAVA_HOME

needs_build() {
    [[ ! -f "$jar" ]] && return 0
    [[ -n "$(find "$here/pom.xml" "$here/src/main" -newer "$jar" -type f -print -quit)" ]]
}

if needs_build; then
    echo "[run.sh] building $jar with $JAVA_HOME" >&2
    (cd "$here" && mvn -q -B -T1 -DskipTests package >&2)
fi

# shellcheck disable=SC2086
exec "$JAVA_HOME/bin/java" ${BENCH_JAVA_OPTS:-} -jar "$jar" "$@"
