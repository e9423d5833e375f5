#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Install the Debian 12 packages iostall needs to build and test.
exec "$(dirname "$0")/../tools/apt-install-missing.sh" iostall \
	clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev pkg-config \
	gcc make util-linux libcap2-bin
