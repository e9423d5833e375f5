#!/usr/bin/env bash
# Build and run the FlexHeap controller unit tests (a few seconds; outputs in build/unit/).
# Usage: jdk/test/unit/run.sh [--bench]   (--bench also runs the decide() micro-benchmark)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$(cd "$here/../../.." && pwd)/build/unit
[ -f /usr/include/gtest/gtest.h ] || "$here/deps.sh"
make -s -j1 -f "$here/Makefile"
"$out/flexheap_unit_tests" --gtest_brief=1
if [ "${1:-}" = "--bench" ]; then "$out/flexheap_bench"; fi
