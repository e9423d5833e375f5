#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Install the Debian 12 packages iostall needs to build and test.
# Idempotent: installs only what is missing. Needs root (or sudo).
set -euo pipefail

pkgs=(clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev pkg-config
      gcc make util-linux libcap2-bin)

missing=()
for p in "${pkgs[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
	     grep -q "install ok installed"; then
		missing+=("$p")
	fi
done

if [ ${#missing[@]} -eq 0 ]; then
	echo "iostall deps: all installed"
	exit 0
fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "iostall deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
