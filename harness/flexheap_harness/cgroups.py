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

"""Per-run cgroups: the DRAM budget (memory controller) and device throttling (io/blkio).

A fresh cgroup is made for every run and removed afterwards. The JVM is placed in
it before exec (see `RunCgroup.attach_current_process`, used as a preexec hook),
so the heap, JVM native memory and the page cache its reads fill are all charged
to the budget and nothing the JVM starts can escape.

cgroup v2 is used when its memory controller is available (cgroup.controllers of
the v2 root); otherwise cgroup v1 (memory + blkio hierarchies). On v1 the run
cgroup nests under the harness's own cgroup so limits of an enclosing container
still apply; on v2 it sits in a `flexheap` folder under the root, because v2
forbids enabling controllers below a cgroup that holds processes.
"""

from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

SELF_CGROUP_FILE = "/proc/self/cgroup"


# ---------------------------------------------------------------- parsing (pure)


def parse_kv_stat(text: str) -> dict[str, int]:
    """memory.stat (v1 and v2), cpu.stat, memory.events: 'key value' per line."""
    out: dict[str, int] = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2:
            try:
                out[parts[0]] = int(parts[1])
            except ValueError:
                pass
    return out


def page_cache_bytes(stat: dict[str, int]) -> int | None:
    """Page cache charged to the cgroup. v1 'total_cache' (hierarchical) or 'cache'; v2 'file'."""
    for key in ("total_cache", "cache", "file"):
        if key in stat:
            return stat[key]
    return None


def anon_bytes(stat: dict[str, int]) -> int | None:
    """Anonymous memory (heap + native). v1 'total_rss' or 'rss'; v2 'anon'."""
    for key in ("total_rss", "rss", "anon"):
        if key in stat:
            return stat[key]
    return None


def parse_io_stat_v2(text: str) -> dict[str, dict[str, int]]:
    """v2 io.stat: '254:0 rbytes=1 wbytes=2 rios=3 wios=4 ...' -> {'254:0': {...}}."""
    out: dict[str, dict[str, int]] = {}
    for line in text.splitlines():
        parts = line.split()
        if not parts or ":" not in parts[0]:
            continue
        fields: dict[str, int] = {}
        for kv in parts[1:]:
            k, _, v = kv.partition("=")
            if v.isdigit():
                fields[k] = int(v)
        out[parts[0]] = fields
    return out


def parse_blkio_v1(text: str) -> dict[str, dict[str, int]]:
    """v1 blkio.throttle.io_service_bytes: '254:0 Read 123' lines -> {'254:0': {'read': 123, ...}}."""
    out: dict[str, dict[str, int]] = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 3 and ":" in parts[0] and parts[2].isdigit():
            out.setdefault(parts[0], {})[parts[1].lower()] = int(parts[2])
    return out


def io_bytes_for(stats: dict[str, dict[str, int]], dev: str | None) -> tuple[int, int] | None:
    """(read, write) bytes from either parsed io format; one device or all summed.
    An empty stat file means nothing moved yet: (0, 0)."""
    r = w = 0
    for key, fields in stats.items():
        if dev is not None and key != dev:
            continue
        r += fields.get("rbytes", fields.get("read", 0))
        w += fields.get("wbytes", fields.get("write", 0))
    return r, w


def parse_pressure(text: str) -> dict[str, int]:
    """A PSI file ('some avg10=0.00 avg60=0.00 avg300=0.00 total=436' / 'full ...')
    -> {'some': 436, 'full': 428}: cumulative stall time in microseconds."""
    out: dict[str, int] = {}
    for line in text.splitlines():
        parts = line.split()
        if not parts:
            continue
        for kv in parts[1:]:
            k, _, v = kv.partition("=")
            if k == "total" and v.isdigit():
                out[parts[0]] = int(v)
    return out


def refault_file(stat: dict[str, int]) -> int | None:
    """Re-reads of page-cache pages evicted recently (memory.stat). v1: the hierarchical
    'total_workingset_refault_file' (or the local one); v2: 'workingset_refault_file'.
    Kernels before 5.9 only have 'workingset_refault' (anon + file)."""
    for key in ("total_workingset_refault_file", "workingset_refault_file",
                "total_workingset_refault", "workingset_refault"):
        if key in stat:
            return stat[key]
    return None


def activate_file(stat: dict[str, int]) -> int | None:
    """Refaults whose reuse distance fit within the cache's working set (memory.stat or
    /proc/vmstat 'workingset_activate_file'; older kernels 'workingset_activate'): reads that a
    cache about twice as large would have hit. cgroup v1's memory.stat does not have it."""
    for key in ("workingset_activate_file", "workingset_activate"):
        if key in stat:
            return stat[key]
    return None


def workingset_counts(stat: dict[str, int]) -> tuple[int, int] | None:
    """(refaults, activations) from one stat file, or None when it lacks either: the share
    activations / refaults is only meaningful when both come from the same scope."""
    rf, act = refault_file(stat), activate_file(stat)
    return (rf, act) if rf is not None and act is not None else None


def parse_mounts(partitions: Iterable[tuple[str, str, str, str]]) -> dict[str, str]:
    """Map 'v2' and each v1 controller name to its mount point, from
    psutil.disk_partitions(all=True) entries (device, mountpoint, fstype, opts)."""
    mounts: dict[str, str] = {}
    for part in partitions:
        _src, target, fstype, options = part[:4]
        if fstype == "cgroup2":
            mounts.setdefault("v2", target)
        elif fstype == "cgroup":
            for opt in options.split(","):
                if opt in ("memory", "blkio", "cpu", "cpuacct", "pids", "freezer"):
                    mounts.setdefault(opt, target)
    return mounts


def parse_self_cgroup(text: str) -> dict[str, str]:
    """/proc/self/cgroup -> {'memory': '/a/b', 'blkio': '/', 'v2': '/'}."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        hid, _, rest = line.partition(":")
        controllers, _, path = rest.partition(":")
        if hid == "0" and controllers == "":
            out["v2"] = path
        for c in controllers.split(","):
            if c:
                out[c] = path
    return out


# ---------------------------------------------------------------- detection


@dataclass
class CgroupSupport:
    """What this machine lets us do. `problems` says what is missing and why."""

    memory: str | None = None  # 'v2' | 'v1' | None
    io: str | None = None  # 'v2' | 'v1' | None
    memory_parent: Path | None = None
    io_parent: Path | None = None
    problems: list[str] = field(default_factory=list)
    # Where a per-run cgroup v2 directory gives the run's own PSI (io.pressure,
    # memory.pressure): the v2 memory parent, or on a hybrid (v1 controllers + a
    # v2 mount without controllers) a controller-less folder in the v2 tree.
    psi_parent: Path | None = None


def _read(path: str | Path) -> str:
    with open(path) as f:
        return f.read()


def detect(parent_override: str | None = None) -> CgroupSupport:
    sup = CgroupSupport()
    if os.geteuid() != 0:
        sup.problems.append(
            "not root: cannot create cgroups (budget and device throttling need root, "
            "or a delegated cgroup v2 subtree with memory+io controllers)"
        )
        return sup
    import psutil  # here, not at the top: the CLI's --help runs without the harness's venv
    try:
        mounts = parse_mounts(psutil.disk_partitions(all=True))
        own = parse_self_cgroup(_read(SELF_CGROUP_FILE))
    except OSError as e:
        sup.problems.append(f"cannot read cgroup mounts: {e}")
        return sup

    v2_controllers: set[str] = set()
    if "v2" in mounts:
        try:
            v2_controllers = set(_read(Path(mounts["v2"]) / "cgroup.controllers").split())
        except OSError:
            pass

    def v2_parent() -> Path:
        return Path(mounts["v2"]) / (parent_override or "flexheap").strip("/")

    def v1_parent(ctrl: str) -> Path:
        if parent_override:
            return Path(mounts[ctrl]) / parent_override.strip("/")
        return Path(mounts[ctrl]) / own.get(ctrl, "/").lstrip("/")

    if "memory" in v2_controllers:
        sup.memory, sup.memory_parent = "v2", v2_parent()
    elif "memory" in mounts:
        sup.memory, sup.memory_parent = "v1", v1_parent("memory")
    else:
        sup.problems.append(
            "no memory controller (not in cgroup v2 cgroup.controllers, no v1 memory mount): "
            "runs are NOT budgeted; enable it (cgroup_enable=memory) to enforce a DRAM budget"
        )

    if "v2" in mounts and (Path(mounts["v2"]) / "cgroup.procs").exists():
        if (Path(mounts["v2"]) / "io.pressure").exists() or sup.memory == "v2":
            sup.psi_parent = v2_parent()

    if "io" in v2_controllers and sup.memory in ("v2", None):
        sup.io, sup.io_parent = "v2", v2_parent()
    elif "blkio" in mounts:
        sup.io, sup.io_parent = "v1", v1_parent("blkio")
    else:
        sup.problems.append(
            "no io/blkio controller: device profiles other than 'host' cannot be emulated"
        )
    return sup


# ---------------------------------------------------------------- a run's cgroup


def write_memory_limit(d: Path, version: str | None, limit: int) -> None:
    """Sets cgroup d's memory limit, swap included (a run's budget, or a later change of it); v1 raises
    OSError (EBUSY) when the cgroup's usage cannot be reclaimed under the new limit."""
    if version == "v2":
        (d / "memory.max").write_text(str(limit))
        # Swap would silently extend the budget.
        if (d / "memory.swap.max").exists():
            (d / "memory.swap.max").write_text("0")
    else:
        (d / "memory.limit_in_bytes").write_text(str(limit))
        memsw = d / "memory.memsw.limit_in_bytes"
        if memsw.exists():
            try:
                memsw.write_text(str(limit))
            except OSError:
                pass


@dataclass(frozen=True)
class IoLimit:
    device: str  # 'major:minor' of a whole disk
    read_bps: int | None = None
    write_bps: int | None = None
    read_iops: int | None = None
    write_iops: int | None = None


class RunCgroup:
    """One fresh cgroup (one dir per hierarchy) for one run."""

    def __init__(self, support: CgroupSupport, name: str, memory_limit: int | None, io_limit: IoLimit | None):
        self.support = support
        self.name = name
        self.memory_limit = memory_limit if support.memory else None
        self.io_limit = io_limit if support.io else None
        self.dirs: list[Path] = []
        self.memory_dir: Path | None = None
        self.io_dir: Path | None = None
        self.psi_dir: Path | None = None
        self.warnings: list[str] = []

    # -- setup

    def create(self) -> None:
        sup = self.support
        # The cgroups are made even without limits: they still give per-run stats.
        if sup.memory_parent is not None:
            self.memory_dir = self._make(sup.memory_parent, sup.memory, {"memory"})
        if sup.io_parent is not None:
            if sup.io == "v2" and self.memory_dir is not None and sup.memory == "v2":
                self.io_dir = self.memory_dir
                self._enable_v2(self.memory_dir.parent, {"io"})
            else:
                self.io_dir = self._make(sup.io_parent, sup.io, {"io"})
        if sup.psi_parent is not None:
            if sup.memory == "v2" and self.memory_dir is not None:
                self.psi_dir = self.memory_dir
            else:
                try:  # controller-less v2 cgroup: PSI only, charges nothing
                    self.psi_dir = self._make(sup.psi_parent, None, set(), mkparent=True)
                except OSError as e:
                    self.warnings.append(f"no per-run PSI cgroup ({e}); PSI is system-wide")
        try:
            if self.memory_dir is not None and self.memory_limit is not None:
                write_memory_limit(self.memory_dir, sup.memory, self.memory_limit)
            if self.io_dir is not None and self.io_limit is not None:
                self._set_io_limit(self.io_dir, sup.io, self.io_limit)
        except BaseException:
            self.remove()
            raise

    def _make(self, parent: Path, version: str | None, controllers: set[str], mkparent: bool = False) -> Path:
        if mkparent:
            parent.mkdir(exist_ok=True)
        if version == "v2":
            parent.mkdir(exist_ok=True)
            self._enable_v2(parent.parent, controllers)
            self._enable_v2(parent, controllers)
        d = parent / self.name
        d.mkdir()
        if d not in self.dirs:
            self.dirs.append(d)
        return d

    @staticmethod
    def _enable_v2(d: Path, controllers: set[str]) -> None:
        ctl = d / "cgroup.subtree_control"
        have = set(_read(ctl).split())
        missing = controllers - have
        if missing:
            with open(ctl, "w") as f:
                f.write(" ".join(f"+{c}" for c in sorted(missing)))

    @staticmethod
    def _set_io_limit(d: Path, version: str | None, lim: IoLimit) -> None:
        if version == "v2":
            parts = [lim.device]
            for key, val in (("rbps", lim.read_bps), ("wbps", lim.write_bps),
                             ("riops", lim.read_iops), ("wiops", lim.write_iops)):
                if val:
                    parts.append(f"{key}={val}")
            (d / "io.max").write_text(" ".join(parts))
        else:
            for fname, val in (("blkio.throttle.read_bps_device", lim.read_bps),
                               ("blkio.throttle.write_bps_device", lim.write_bps),
                               ("blkio.throttle.read_iops_device", lim.read_iops),
                               ("blkio.throttle.write_iops_device", lim.write_iops)):
                if val:
                    (d / fname).write_text(f"{lim.device} {val}")

    def attach_current_process(self) -> None:
        """Move the calling process into every hierarchy's run cgroup.

        Runs in the child between fork and exec (subprocess preexec_fn): only
        plain os calls, no allocation-heavy Python, no locks."""
        pid = str(os.getpid()).encode()
        for d in self.dirs:
            fd = os.open(str(d / "cgroup.procs"), os.O_WRONLY)
            try:
                os.write(fd, pid)
            finally:
                os.close(fd)

    # -- checking

    def verify(self) -> list[str]:
        """Reads back what create() wrote: [] when the budget and throttling are in force,
        else why not."""
        problems: list[str] = []
        if self.memory_limit is not None:
            if self.memory_dir is None:
                problems.append("no memory cgroup was created")
            else:
                name = "memory.max" if self.support.memory == "v2" else "memory.limit_in_bytes"
                try:
                    raw = _read(self.memory_dir / name).strip()
                    got = None if raw == "max" else int(raw)
                except (OSError, ValueError) as e:
                    got, raw = None, f"unreadable ({e})"
                # The kernel rounds the limit down to whole pages.
                if got is None or not (self.memory_limit - (1 << 16) <= got <= self.memory_limit):
                    problems.append(f"memory limit not in force: {name} is {raw}, wanted {self.memory_limit}")
        if self.io_limit is not None:
            if self.io_dir is None:
                problems.append("no io/blkio cgroup was created")
            else:
                problems += self._verify_io()
        return problems

    def _verify_io(self) -> list[str]:
        lim = self.io_limit
        assert lim is not None and self.io_dir is not None
        try:
            if self.support.io == "v2":
                text = _read(self.io_dir / "io.max")
                line = next((ln for ln in text.splitlines() if ln.startswith(lim.device + " ")), "")
                have = {k: v for k, _, v in (kv.partition("=") for kv in line.split()[1:])}
                want = {"rbps": lim.read_bps, "wbps": lim.write_bps, "riops": lim.read_iops, "wiops": lim.write_iops}
                bad = [k for k, v in want.items() if v and have.get(k) != str(v)]
                return [f"io.max for {lim.device} is {line!r}, wanted {want}"] if bad else []
            bad = []
            for fname, val in (("blkio.throttle.read_bps_device", lim.read_bps),
                               ("blkio.throttle.write_bps_device", lim.write_bps),
                               ("blkio.throttle.read_iops_device", lim.read_iops),
                               ("blkio.throttle.write_iops_device", lim.write_iops)):
                if val and f"{lim.device} {val}" not in _read(self.io_dir / fname).splitlines():
                    bad.append(f"{fname} lacks '{lim.device} {val}'")
            return [f"device throttle not in force: {'; '.join(bad)}"] if bad else []
        except OSError as e:
            return [f"device throttle unreadable: {e}"]

    def holds(self, pid: int) -> list[str]:
        """The hierarchies whose run cgroup does NOT hold pid (the budget would not apply)."""
        missing = []
        for d in (self.memory_dir, self.io_dir):
            if d is None:
                continue
            try:
                if str(pid) not in _read(d / "cgroup.procs").split():
                    missing.append(str(d))
            except OSError:
                missing.append(str(d))
        return missing

    # -- reading

    def pressure(self) -> tuple[dict[str, int], str]:
        """Cumulative PSI stall microseconds {'io_some', 'io_full', 'memory_some', 'memory_full'}
        and its scope: 'cgroup' (this run's own cgroup) or 'system' (/proc/pressure)."""
        for d in (self.psi_dir, self.memory_dir):
            if d is None:
                continue
            out: dict[str, int] = {}
            for res in ("io", "memory"):
                name = f"{res}.pressure"
                try:
                    for k, v in parse_pressure(_read(d / name)).items():
                        out[f"{res}_{k}"] = v
                except OSError:
                    pass
            if out:
                return out, "cgroup"
        return self.system_pressure()

    @staticmethod
    def system_pressure() -> tuple[dict[str, int], str]:
        out: dict[str, int] = {}
        for res in ("io", "memory"):
            try:
                for k, v in parse_pressure(_read(f"/proc/pressure/{res}")).items():
                    out[f"{res}_{k}"] = v
            except OSError:
                pass
        return out, ("system" if out else "none")

    def refaults(self) -> int | None:
        return refault_file(self.memory_stat())

    def workingset(self, stat: dict[str, int] | None = None) -> tuple[tuple[int, int] | None, str]:
        """(refaults, activations) of this run's page cache and their scope: 'cgroup' from
        its own memory.stat (cgroup v2; `stat` if the caller has just read it), else 'system'
        from /proc/vmstat (v1's memory.stat has no activations; the harness runs one run at a
        time, so the machine's are mostly the run's), else 'none'."""
        counts = workingset_counts(self.memory_stat() if stat is None else stat)
        if counts is not None:
            return counts, "cgroup"
        return RunCgroup.system_workingset()

    @staticmethod
    def system_workingset() -> tuple[tuple[int, int] | None, str]:
        try:
            counts = workingset_counts(parse_kv_stat(_read("/proc/vmstat")))
        except OSError:
            counts = None
        return counts, ("system" if counts is not None else "none")

    def memory_stat(self) -> dict[str, int]:
        if self.memory_dir is None:
            return {}
        try:
            return parse_kv_stat(_read(self.memory_dir / "memory.stat"))
        except OSError:
            return {}

    def memory_usage(self) -> int | None:
        if self.memory_dir is None:
            return None
        name = "memory.current" if self.support.memory == "v2" else "memory.usage_in_bytes"
        try:
            return int(_read(self.memory_dir / name))
        except (OSError, ValueError):
            return None

    def oom_kills(self) -> int:
        if self.memory_dir is None:
            return 0
        name = "memory.events" if self.support.memory == "v2" else "memory.oom_control"
        try:
            return parse_kv_stat(_read(self.memory_dir / name)).get("oom_kill", 0)
        except OSError:
            return 0

    def io_bytes(self, device: str | None) -> tuple[int, int] | None:
        """(read, write) bytes this cgroup moved on the device (v1: reads and direct
        writes only; buffered writeback is charged to the flusher in v1)."""
        if self.io_dir is None:
            return None
        try:
            if self.support.io == "v2":
                return io_bytes_for(parse_io_stat_v2(_read(self.io_dir / "io.stat")), device)
            return io_bytes_for(
                parse_blkio_v1(_read(self.io_dir / "blkio.throttle.io_service_bytes_recursive")), device
            )
        except OSError:
            return None

    def pids(self) -> list[int]:
        found: set[int] = set()
        for d in self.dirs:
            try:
                found.update(int(p) for p in _read(d / "cgroup.procs").split())
            except (OSError, ValueError):
                pass
        return sorted(found)

    # -- teardown

    def kill_all(self, timeout_s: float = 10.0) -> None:
        deadline = time.monotonic() + timeout_s
        while True:
            pids = self.pids()
            if not pids:
                return
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            if time.monotonic() > deadline:
                self.warnings.append(f"processes still in cgroup after SIGKILL: {pids}")
                return
            time.sleep(0.05)

    def remove(self) -> None:
        """Kill what is left and rmdir; safe to call twice."""
        self.kill_all()
        for d in reversed(self.dirs):
            for _ in range(100):  # rmdir fails with EBUSY while killed tasks exit
                try:
                    d.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.05)
            else:
                self.warnings.append(f"could not remove cgroup {d}")
        self.dirs = [d for d in self.dirs if d.exists()]

    def describe(self) -> dict[str, object]:
        return {
            "memory": self.support.memory,
            "memory_dir": str(self.memory_dir) if self.memory_dir else None,
            "memory_limit": self.memory_limit,
            "io": self.support.io,
            "io_dir": str(self.io_dir) if self.io_dir else None,
            "io_limit": self.io_limit.__dict__ if self.io_limit else None,
            "psi_dir": str(self.psi_dir) if self.psi_dir else None,
        }
