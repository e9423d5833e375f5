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

"""Measurement integrity: refuse to measure what the table would not mean.

- A budget or a device profile that the machine cannot enforce is an error
  (exit 2, with the reason), unless the user passes `--unbudgeted`; then every
  summary, table and comparison.md says "unbudgeted".
- A budget below the JVM's own floor (peak RSS of a minimal JVM started with the
  run's flags, measured once per JDK and flag set, cached) is refused up front
  instead of showing up as an OOM kill afterwards.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from pathlib import Path
from typing import Sequence

from .cgroups import CgroupSupport
from .devices import DeviceProfile
from .sizes import format_size

UNBUDGETED = "unbudgeted"
FLOOR_CACHE = Path(os.environ.get("FLEXHEAP_CACHE", Path.home() / ".cache" / "flexheap")) / "jvm-floor.json"


class UsageError(ValueError):
    """Bad input or a setting the harness refuses to measure under: exit 2."""


class NotEnforced(UsageError):
    """The budget or the device profile was asked for but is not in force."""


def enforcement_problems(support: CgroupSupport, budget: int | None, device: DeviceProfile,
                         block_device: str | None, data_dir: Path | str) -> list[str]:
    """Why the asked-for budget / device profile would NOT be enforced ([] = it would)."""
    problems: list[str] = []
    if budget is None:
        problems.append("no --budget given: the JVM and its page cache are not limited")
    elif support.memory is None:
        why = "; ".join(support.problems) or "no memory controller"
        problems.append(f"budget {format_size(budget)} cannot be enforced: {why}")
    if device.throttled:
        if support.io is None:
            why = "; ".join(p for p in support.problems if "io" in p or "root" in p) or "no io/blkio controller"
            problems.append(f"device profile {device.name} cannot be applied: {why}")
        elif block_device is None:
            problems.append(f"device profile {device.name} cannot be applied: no block device holds "
                            f"{data_dir} (tmpfs or network file system?)")
    return problems


def refusal_message(problems: Sequence[str]) -> str:
    return ("refusing to measure: " + "; ".join(problems) +
            ". Give a --budget and --device the machine can enforce (root, a memory and an io/blkio cgroup "
            "controller, a block device under the data dir), or pass --unbudgeted to run anyway: every "
            "summary and table then says 'unbudgeted'")


# ---------------------------------------------------------------- JVM floor


def _jdk_stamp(java: Path) -> str:
    """Changes when the JDK is rebuilt: the libjvm.so mtime and size."""
    home = Path(os.path.realpath(java)).parent.parent
    for lib in (home / "lib" / "server" / "libjvm.so", Path(os.path.realpath(java))):
        try:
            st = lib.stat()
            return f"{lib}:{st.st_mtime_ns}:{st.st_size}"
        except OSError:
            continue
    return str(java)


def floor_key(java: Path, flags: Sequence[str]) -> str:
    return hashlib.sha256(("\0".join([_jdk_stamp(java), *flags])).encode()).hexdigest()[:24]


# ru_maxrss survives exec and fork: a JVM started straight from the harness (a Python process
# of ~150 MB with numpy/scipy loaded) would report the harness's size. A bare interpreter
# (-I -S, ~10 MB) forks and execs the JVM and reports the JVM's own peak.
_FLOOR_HELPER = (
    "import os,sys\n"
    "pid=os.fork()\n"
    "if pid==0:\n"
    "    os.dup2(2,1); os.execv(sys.argv[1], sys.argv[1:])\n"
    "_,st,ru=os.wait4(pid,0)\n"
    "sys.stdout.write('FLOOR %d %d\\n' % (ru.ru_maxrss, os.waitstatus_to_exitcode(st)))\n"
)


def measure_floor(java: Path, flags: Sequence[str], timeout_s: float = 60) -> int:
    """Peak RSS in bytes of `java <flags> -version`: what any run with these flags needs
    before it does any work. Raises UsageError when the JVM refuses the flags."""
    import sys
    proc = subprocess.run([sys.executable, "-I", "-S", "-c", _FLOOR_HELPER, str(java), *flags, "-version"],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout_s)
    line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("FLOOR ")), None)
    if line is None:
        raise UsageError(f"cannot measure the JVM floor with {java}: {proc.stderr.strip()[-400:]}")
    maxrss_kib, code = (int(x) for x in line.split()[1:3])
    if code != 0:
        raise UsageError(f"the JVM refuses the run's flags ({' '.join(flags)}): exit {code}: "
                         f"{proc.stderr.strip()[-800:]}")
    return maxrss_kib * 1024  # Linux reports KiB


def jvm_floor(java: Path, flags: Sequence[str], cache: Path | None = None) -> int:
    """measure_floor, cached per JDK build and flag set in ~/.cache/flexheap/jvm-floor.json."""
    cache = cache or FLOOR_CACHE
    key = floor_key(java, flags)
    try:
        data = json.loads(cache.read_text())
    except (OSError, ValueError):
        data = {}
    if key in data:
        return int(data[key]["bytes"])
    floor = measure_floor(java, flags)
    data[key] = {"bytes": floor, "java": str(java), "flags": list(flags)}
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data, indent=1) + "\n")
        tmp.replace(cache)
    except OSError:
        pass
    return floor


def check_budget_above_floor(budget: int, floor: int, policy: str, flags: Sequence[str]) -> None:
    if budget < floor:
        raise UsageError(
            f"budget {format_size(budget)} is below the JVM floor {format_size(floor)} for policy {policy} "
            f"(peak RSS of `java {' '.join(flags)} -version`); no run with this budget can measure the policy, "
            f"give a budget above {format_size(floor)}")
