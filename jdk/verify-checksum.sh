#!/usr/bin/env bash
# verify-checksum.sh FILE SHA256FILE: a mismatch is an error (exit 3), never a warning.
set -euo pipefail
file=$1 sumfile=$2
want=$(awk '{print $1; exit}' "$sumfile")
[ ${#want} -eq 64 ] || { echo "flexheap: error: no sha256 in $sumfile" >&2; exit 2; }
got=$(sha256sum "$file" | awk '{print $1}')
if [ "$got" != "$want" ]; then
  echo "flexheap: error: checksum mismatch for $(basename "$file"): expected $want, got $got" >&2
  exit 3
fi
echo "flexheap: checksum ok: $(basename "$file")" >&2
