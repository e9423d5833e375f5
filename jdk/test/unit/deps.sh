#!/usr/bin/env bash
# Install what the FlexHeap unit tests need (idempotent, quiet when present):
# GoogleTest (Debian ships the built libgtest.a in libgtest-dev), g++, make.
set -euo pipefail
pkgs=(libgtest-dev g++ make)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "flexheap: installing unit test dependencies: ${missing[*]}" >&2
if [ "$(id -u)" -ne 0 ]; then
  echo "flexheap: need root (or sudo) to install: ${missing[*]}" >&2; exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null || true
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
