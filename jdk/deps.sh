#!/usr/bin/env bash
# Install the Debian packages the FlexHeap JDK build needs (idempotent, quiet when present).
set -euo pipefail
pkgs=(autoconf make zip unzip file ccache patch xz-utils dpkg-dev
      libasound2-dev libcups2-dev libfontconfig1-dev libx11-dev libxext-dev
      libxrender-dev libxrandr-dev libxtst-dev libxt-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "flexheap: installing build dependencies: ${missing[*]}" >&2
if [ "$(id -u)" -ne 0 ]; then
  echo "flexheap: need root (or sudo) to install: ${missing[*]}" >&2; exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null || true
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
