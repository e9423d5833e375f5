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


"""The kernel's per-thread delay accounting, on for a service run that cannot load eBPF.

A service that refuses root (OpenSearch) runs its JVM without CAP_BPF, so FlexHeap's
iostall probe cannot load and its fallback reads the kernel's per-thread block-I/O delay,
which counts only while kernel.task_delayacct is 1 (off by default). With neither, the JVM
logs "No I/O stall source" and sizes the heap on GC cost alone: it cannot see a page cache
it has starved. An operator turns the sysctl on (or grants the JVM CAP_BPF+CAP_PERFMON);
the harness does the same for every policy's run alike, and puts the old value back."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Callable, Iterator

SYSCTL = Path("/proc/sys/kernel/task_delayacct")


def read_setting(path: Path = SYSCTL) -> str | None:
    """'0' or '1', or None when the kernel has no such setting."""
    try:
        return path.read_text().strip()
    except OSError:
        return None


@contextlib.contextmanager
def delay_accounting(log: Callable[[str], None], path: Path = SYSCTL) -> Iterator[str]:
    """Turn kernel.task_delayacct on for the block; yields what was done, for config.json.
    Never fails the run: without the setting or the right to change it the JVM says in its
    GC log that it has no stall source, and the note yielded says why."""
    before = read_setting(path)
    if before is None:
        yield "unavailable: the kernel has no task_delayacct setting"
        return
    if before == "1":
        yield "on (already)"
        return
    try:
        path.write_text("1\n")
    except OSError as e:
        log(f"  warning: cannot turn on kernel.task_delayacct ({e.strerror}): "
            "an unprivileged JVM will have no I/O stall source")
        yield f"off: cannot turn it on ({e.strerror})"
        return
    try:
        yield f"on for the run (was {before})"
    finally:
        try:
            path.write_text(before + "\n")
        except OSError as e:
            log(f"  warning: cannot put kernel.task_delayacct back to {before} ({e.strerror})")
