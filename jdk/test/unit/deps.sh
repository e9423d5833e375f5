#!/usr/bin/env bash
# Install what the FlexHeap unit tests need: GoogleTest (Debian ships the built
# libgtest.a in libgtest-dev), g++, make.
exec "$(dirname "$0")/../../../tools/apt-install-missing.sh" "unit test" libgtest-dev g++ make
