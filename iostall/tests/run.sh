#!/bin/bash
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
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Build iostall and run its tests as root. One line per check
# (PASS/FAIL/SKIP + numbers), then "iostall: N passed, N failed, N skipped".
# Exits non-zero on any failure. Restores kernel.task_delayacct.
set -u
shopt -s lastpipe	# let count() update the totals
HERE=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$(cd "$HERE/.." && pwd)/build/iostall}
export IOSTALL_TEST_DIR=${IOSTALL_TEST_DIR:-/var/tmp}

pass=0 fail=0 skip=0
count() {
	while IFS= read -r line; do
		echo "$line"
		case $line in
		PASS*) pass=$((pass + 1)) ;;
		FAIL*) fail=$((fail + 1)) ;;
		SKIP*) skip=$((skip + 1)) ;;
		esac
	done
}

if [ "$(id -u)" -ne 0 ]; then
	echo "FAIL run.sh: must run as root (cgroups, sysctl, bpf)"
	echo "iostall: 0 passed, 1 failed, 0 skipped"
	exit 1
fi

# One suite at a time (a concurrent one would rebuild under us and flip
# kernel.task_delayacct in test 6), and nobody else switching that sysctl
# meanwhile: scripts that switch it take the same lock around the switch.
LOCK=${FLEXHEAP_DELAYACCT_LOCK:-/run/lock/flexheap-task-delayacct.lock}
exec 9>"$LOCK"
if ! flock -w 300 9; then
	echo "note: $LOCK still held after 300 s; running anyway"
fi

# Keep the machine's setting whatever happens to the tests.
DA=/proc/sys/kernel/task_delayacct
da_orig=$(cat $DA 2>/dev/null || echo "")
trap '[ -n "$da_orig" ] && echo "$da_orig" > $DA' EXIT

# On a fresh machine this suite may run before anything else has installed
# clang, libbpf and bpftool: install what is missing (a no-op when present).
if ! bash "$HERE/deps.sh"; then
	echo "FAIL deps: iostall's build dependencies could not be installed"
	echo "iostall: 0 passed, 1 failed, 0 skipped"
	exit 1
fi
if ! nice make -s -j1 -C "$HERE" OUT="$OUT" all >/tmp/iostall-build.$$ 2>&1; then
	cat /tmp/iostall-build.$$
	rm -f /tmp/iostall-build.$$
	echo "FAIL build: see above"
	echo "iostall: 0 passed, 1 failed, 0 skipped"
	exit 1
fi
grep '^iostall:' /tmp/iostall-build.$$
rm -f /tmp/iostall-build.$$

# The probe does not need tracefs, but the runner provides it as debugging aid.
if ! mountpoint -q /sys/kernel/tracing; then
	mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null ||
		echo "note: could not mount tracefs"
fi

if [ ! -e /sys/kernel/btf/vmlinux ]; then
	echo "SKIP bpf tests: kernel has no BTF (/sys/kernel/btf/vmlinux)" | count
fi

for t in test_odirect test_quiet test_mmap_fault test_churn test_agree test_pidns test_pauseread test_psi test_footprint; do
	"$OUT/tests/$t" 2>&1 | count
	rc=${PIPESTATUS[0]}
	# A crash or a failure with no line of its own still counts.
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ] && [ "$rc" -ne 77 ]; then
		echo "FAIL $t: exited with status $rc" | count
	fi
done

# Test 6: AUTO without privilege falls back and says why; never crashes.
probe="$OUT/tests/probe_auto"
check_probe() {	# name, expected backend, setpriv args...
	local name=$1 want=$2 out err rc
	shift 2
	err=$(mktemp)
	out=$($RUNNER setpriv "$@" "$probe" 2>"$err")
	rc=$?
	if [ $rc -eq 0 ] && [[ $out == "backend=$want "* ]] &&
	   [[ $out == *"bpf: "*"permission denied"* ]] && [ ! -s "$err" ]; then
		echo "PASS 6-unprivileged-$name: rc=$rc, quiet stderr, ${out}"
	else
		echo "FAIL 6-unprivileged-$name: want backend=$want, rc=$rc, stderr=$(head -c 200 "$err"), ${out}"
	fi
	rm -f "$err"
}
nocaps=(--inh-caps=-all --ambient-caps=-all --bounding-set=-all)
nobody=(--reuid=65534 --regid=65534 --clear-groups "${nocaps[@]}")
# A cgroup v2 of the probe's own, as a container has: its I/O pressure is the
# last source before none. Where this script's own v2 cgroup is not the root
# (which has no cgroup.events) and has io.pressure, the probe finds psi there too.
RUNNER=""
cg2=$(awk '$0 ~ / - cgroup2 / {print $5; exit}' /proc/self/mountinfo)
own=$(sed -n 's/^0:://p' /proc/self/cgroup)
own_want=none
if [ -n "$cg2" ] && [ -n "$own" ] && [ -e "$cg2${own%/}/cgroup.events" ] &&
   cat "$cg2${own%/}/io.pressure" >/dev/null 2>&1; then
	own_want=psi
fi
psi_cg=""
if [ -n "$cg2" ] && mkdir "$cg2/iostall-test-probe-$$" 2>/dev/null; then
	psi_cg="$cg2/iostall-test-probe-$$"
	cat "$psi_cg/io.pressure" >/dev/null 2>&1 || { rmdir "$psi_cg"; psi_cg=""; }
fi
in_psi_cg() {	# run "$@" inside psi_cg
	( echo "$BASHPID" > "$psi_cg/cgroup.procs" && exec "$@" )
}
{
	echo 0 > $DA
	if [ -n "$psi_cg" ]; then
		RUNNER=in_psi_cg
		check_probe root-nocaps-delayacct-off-own-cgroup psi "${nocaps[@]}"
		RUNNER=""
		rmdir "$psi_cg"
	else
		echo "SKIP 6-unprivileged-own-cgroup: no cgroup v2 mount with PSI to make a cgroup in"
	fi
	check_probe root-nocaps-delayacct-off "$own_want" "${nocaps[@]}"
	echo 1 > $DA
	check_probe root-nocaps-delayacct-on delayacct "${nocaps[@]}"
	check_probe nobody-delayacct-on delayacct "${nobody[@]}"
	echo "$da_orig" > $DA
	out=$("$probe" 2>&1)
	if [[ $out == "backend=bpf "* ]]; then
		echo "PASS 6-root-auto: ${out}"
	else
		echo "FAIL 6-root-auto: want bpf as root: ${out}"
	fi
} | count

echo "iostall: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
