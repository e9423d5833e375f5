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

"""One measurement at a time on a machine.

Two harness runs at once share the CPUs and the disk, so each measures the other. Each also
sets machine-wide kernel settings for its length and puts back what it found (the data device's
read-ahead, kernel.task_delayacct): the first to end would change them under the second. A
measuring command (run, compare, sweep, demo) therefore holds an exclusive flock for its whole
length, and a second one is refused (exit 2) with the holder's pid and command. The kernel drops
the lock when the holder exits, however it exits.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys
from pathlib import Path
from typing import Iterator, Sequence

from .integrity import UsageError

DEFAULT = Path("/run/lock/flexheap-harness.lock")


class Busy(UsageError):
    """Another harness process holds the machine: exit 2."""


def lock_path() -> Path:
    """$FLEXHEAP_RUN_LOCK (tests point it at their own folder), else /run/lock's file."""
    return Path(os.environ.get("FLEXHEAP_RUN_LOCK") or DEFAULT)


@contextlib.contextmanager
def measuring(argv: Sequence[str], path: Path | None = None) -> Iterator[None]:
    """Hold the machine for the block, or raise Busy naming who holds it."""
    path = path or lock_path()
    writable = True
    try:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except PermissionError:  # another user's lock file: it still locks, we cannot sign it
            fd, writable = os.open(path, os.O_RDONLY), False
    except OSError as e:  # e.g. no /run/lock, or not ours: degrade, do not refuse
        print(f"warning: cannot open the harness lock {path} ({e.strerror}): another harness run "
              "at the same time would go unnoticed", file=sys.stderr)
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 4096, 0).decode(errors="replace").strip() or "unknown process"
            raise Busy(f"another harness run is measuring on this machine ({holder}). Two at once share "
                       f"the CPUs, the disk and its read-ahead, and each would measure the other: wait "
                       f"for it to end (lock {path})") from None
        if writable:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"pid {os.getpid()}: {' '.join(argv)}\n".encode(), 0)
        yield
    finally:
        os.close(fd)  # releases the flock
