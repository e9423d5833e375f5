#!/usr/bin/env bash
# The FlexHeap revision a build carries: the last commit that touched the JDK
# sources or patches, "-dirty" if they have uncommitted changes.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if git -C "$root" rev-parse --git-dir >/dev/null 2>&1 && \
   rev=$(git -C "$root" log -1 --format=%h -- jdk/src jdk/patches 2>/dev/null) && [ -n "$rev" ]; then
  if [ -n "$(git -C "$root" status --porcelain -- jdk/src jdk/patches 2>/dev/null)" ]; then rev="$rev-dirty"; fi
else
  # outside git: a content hash of what goes into the JVM
  rev="src-$(cat $(find "$root/jdk/src" "$root/jdk/patches" -type f 2>/dev/null | sort) /dev/null | sha256sum | cut -c1-10)"
fi
echo "$rev"
