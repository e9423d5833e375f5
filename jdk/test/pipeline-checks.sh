#!/usr/bin/env bash
# Checks of the JDK build pipeline itself (seconds, no compiler): checksum
# mismatches are errors, the base JDK is chosen by its release file and a
# missing one means a full build, re-applying our sources changes nothing,
# and no OpenJDK or Temurin file is tracked by git.
set -uo pipefail
. "$(dirname "$0")/../common.sh"
passed=0 failed=0
check() {  # check NAME COMMAND...
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); echo "PASS $name"
  else failed=$((failed + 1)); echo "FAIL $name"; fi
}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

echo hello > "$tmp/file"
sha256sum "$tmp/file" > "$tmp/good.sha256"
echo "0000000000000000000000000000000000000000000000000000000000000000  file" > "$tmp/bad.sha256"
check "checksum match accepted" "$FLEXHEAP_ROOT/jdk/verify-checksum.sh" "$tmp/file" "$tmp/good.sha256"
mismatch_is_error() {
  "$FLEXHEAP_ROOT/jdk/verify-checksum.sh" "$tmp/file" "$tmp/bad.sha256" 2>"$tmp/err"
  [ $? -eq 3 ] && grep -q "checksum mismatch" "$tmp/err"
}
check "checksum mismatch is an error (exit 3)" mismatch_is_error
check "pinned orig tarball checksum is recorded" grep -qE '^[0-9a-f]{64}  openjdk-25_25.0.3\+9.orig.tar.xz$' "$JDK_ORIG_SHA256_FILE"

# Fake JDK homes: the exact version is chosen, another 25.0.x is not.
fake_jdk() {  # fake_jdk DIR RUNTIME_VERSION
  mkdir -p "$1/bin" "$1/lib/server"
  printf 'JAVA_VERSION="25.0.x"\nJAVA_RUNTIME_VERSION="%s"\nJVM_VARIANT="Hotspot"\n' "$2" > "$1/release"
  touch "$1/lib/server/libjvm.so"; printf '#!/bin/sh\n' > "$1/bin/javac"; chmod +x "$1/bin/javac"
}
fake_jdk "$tmp/jvms/other-25" "25.0.2+10-LTS"
plan() { FLEXHEAP_BASE_JDK_DIRS="$1" "$FLEXHEAP_ROOT/jdk/build.sh" --plan; }
check "no base JDK -> full image build" bash -c "$(declare -f plan); FLEXHEAP_ROOT=$FLEXHEAP_ROOT; plan /nonexistent | grep -qx mode=full-image"
check "other 25.0.x is not a base -> full image build" bash -c "$(declare -f plan); FLEXHEAP_ROOT=$FLEXHEAP_ROOT; plan $tmp/jvms | grep -qx mode=full-image"
fake_jdk "$tmp/jvms/same-25" "$JDK_VERSION-LTS"
check "exact $JDK_VERSION base -> libjvm fast path" bash -c "$(declare -f plan); FLEXHEAP_ROOT=$FLEXHEAP_ROOT; plan $tmp/jvms | grep -qx 'base=$tmp/jvms/same-25'"

if [ -f "$SRC_WORK/.flexheap-work" ]; then
  reapply_is_noop() {
    "$FLEXHEAP_ROOT/jdk/apply.sh" >/dev/null 2>&1 &&
    "$FLEXHEAP_ROOT/jdk/apply.sh" 2>&1 >/dev/null | grep -q ", 0 files updated)"
  }
  check "re-applying our sources and patches changes nothing" reapply_is_noop
fi
no_jdk_files() {
  ! git -C "$FLEXHEAP_ROOT" ls-files | grep -E '(^|/)(g1CollectedHeap\.cpp|g1_globals\.hpp|threads\.cpp|libjvm\.so|classes\.jsa|release)$|^src/hotspot/'
}
check "no OpenJDK or Temurin file tracked by git" no_jdk_files
echo "pipeline: $passed passed, $failed failed"
[ $failed -eq 0 ]
