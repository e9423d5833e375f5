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

"""1 Hz background sampler writing samples.csv.

Sources, chosen to be cheap and not disturb the JVM:
  heap committed/used, GC count/time  hsperfdata file of the JVM (what jstat reads; no attach)
  page cache, anon memory            the run cgroup's memory.stat (v1 total_cache/total_rss, v2 file/anon)
  page-cache refaults                the run cgroup's memory.stat workingset_refault_file (pages
                                     evicted recently and read again: this run's cache misses)
  activations                        refaults whose reuse distance fit within the cache's working set
                                     (workingset_activate_file: reads a cache about twice as large
                                     would have hit), over the refaults of the same source: the
                                     run cgroup's memory.stat on v2, else /proc/vmstat, then
                                     labelled workingset_scope=system (v1 has no activations)
  I/O and memory stall (PSI)         the run's own cgroup v2 io.pressure / memory.pressure (also on a
                                     v1 hybrid, through a controller-less v2 cgroup), else
                                     /proc/pressure, then labelled psi_scope=system
  iowait, user, system CPU %         psutil.cpu_times() deltas (machine-wide)
  device read/write bytes            psutil.disk_io_counters for the data disk (machine-wide) and the
                                     run cgroup's io stats (this run only; v1 misses buffered writeback)
Heap used *after GC* and pauses come from the GC log after the run (gclog.py).
"""

from __future__ import annotations

import csv
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, TextIO

from . import hsperf
from .cgroups import RunCgroup, anon_bytes, page_cache_bytes, refault_file
from .devices import device_name

FIELDS = [
    "t",
    "epoch",
    "heap_committed",
    "heap_used",
    "gc_young",
    "gc_full",
    "gc_concurrent",
    "gc_time_s",
    "cg_usage",
    "page_cache",
    "anon",
    "iowait_pct",
    "user_pct",
    "system_pct",
    "dev_read_bytes",
    "dev_write_bytes",
    "cg_read_bytes",
    "cg_write_bytes",
    "read_mibps",
    "refault_file",
    "refault_per_s",
    "activations",
    "activate_share",
    "workingset_scope",
    "io_some_pct",
    "io_full_pct",
    "memory_some_pct",
    "memory_full_pct",
    "psi_scope",
]
PSI_KEYS = ("io_some", "io_full", "memory_some", "memory_full")


def cpu_percentages(prev, cur) -> dict[str, float]:
    """iowait/user/system % between two psutil.cpu_times() results (any object with
    user, nice, system, idle, iowait, irq, softirq, steal)."""
    names = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")
    d = {n: getattr(cur, n, 0) - getattr(prev, n, 0) for n in names}
    total = sum(d.values())
    if total <= 0:
        return {"iowait_pct": 0.0, "user_pct": 0.0, "system_pct": 0.0}
    return {
        "iowait_pct": 100.0 * d["iowait"] / total,
        "user_pct": 100.0 * (d["user"] + d["nice"]) / total,
        "system_pct": 100.0 * (d["system"] + d["irq"] + d["softirq"]) / total,
    }


def psi_percentages(prev: dict[str, int], cur: dict[str, int], dt_s: float) -> dict[str, float]:
    """Share of wall time (%) with some/all tasks stalled on I/O or memory, from two
    cumulative PSI totals (microseconds) dt_s apart."""
    out: dict[str, float] = {}
    if dt_s <= 0:
        return out
    for k in PSI_KEYS:
        if k in cur and k in prev:
            out[f"{k}_pct"] = round(max(0.0, 100.0 * (cur[k] - prev[k]) / 1e6 / dt_s), 2)
    return out


def _read(path: str) -> str:
    with open(path) as f:
        return f.read()


class Sampler:
    """Samples once per `interval_s` in a daemon thread until stop()."""

    def __init__(
        self,
        csv_path: Path,
        cgroup: RunCgroup | None,
        device: str | None,
        jvm_pids: Callable[[], list[int]],
        t0_epoch: float,
        interval_s: float = 1.0,
    ):
        self.csv_path = csv_path
        self.cgroup = cgroup
        self.device = device
        self.jvm_pids = jvm_pids
        self.t0 = t0_epoch
        self.interval_s = interval_s
        self.rows: list[dict[str, float | int | None]] = []
        self.vm_start_epoch_ms: int | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="flexheap-sampler", daemon=True)
        self._hsperf_path: str | None = None
        self._prev_cpu = None
        self._disk_name = device_name(device) if device else None
        self._refault0: int | None = None
        self._prev_refault: tuple[float, int] | None = None
        self._ws0: tuple[int, int] | None = None
        self._psi0: dict[str, int] = {}
        # Rates need a full interval: the first sample (right after start) has none.
        self._prev_psi: tuple[float, dict[str, int]] | None = None
        self._last_psi: dict[str, int] = {}
        self.psi_scope: str | None = None
        self._dev0: tuple[int, int] | None = None
        self._cg0: tuple[int, int] | None = None
        self._prev_read: tuple[float, int] | None = None
        self.errors: list[str] = []

    def start(self) -> None:
        self._prev_cpu = self._cpu()
        self._dev0 = self._dev_bytes()
        self._cg0 = self.cgroup.io_bytes(self.device) if self.cgroup else None
        self._refault0 = self.cgroup.refaults() if self.cgroup else None
        self._ws0, self.workingset_scope = self._workingset()
        self._psi0, self.psi_scope = self._psi()
        self._last_psi = self._psi0
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    # -- sources

    def _cpu(self):
        import psutil  # here, not at the top: the CLI's --help runs without the harness's venv
        try:
            return psutil.cpu_times()
        except (OSError, RuntimeError):
            return None

    def _dev_bytes(self) -> tuple[int, int] | None:
        if self._disk_name is None:
            return None
        import psutil
        try:
            c = psutil.disk_io_counters(perdisk=True, nowrap=True).get(self._disk_name)
        except (OSError, RuntimeError):
            return None
        return (c.read_bytes, c.write_bytes) if c else None

    def _psi(self) -> tuple[dict[str, int], str]:
        if self.cgroup is not None:
            return self.cgroup.pressure()
        return RunCgroup.system_pressure()

    def _workingset(self, stat: dict[str, int] | None = None) -> tuple[tuple[int, int] | None, str]:
        if self.cgroup is not None:
            return self.cgroup.workingset(stat)
        return RunCgroup.system_workingset()

    def pressure_totals(self) -> dict[str, float]:
        """Stall seconds since the run started, per PSI key ({'io_some_s': ...})."""
        cur = self._last_psi
        return {f"{k}_s": round((cur[k] - self._psi0[k]) / 1e6, 3) for k in PSI_KEYS if k in cur and k in self._psi0}

    def _heap(self) -> hsperf.HeapCounters | None:
        if self._hsperf_path is None:
            for pid in self.jvm_pids():
                self._hsperf_path = hsperf.find_hsperf_file(pid)
                if self._hsperf_path:
                    break
        if self._hsperf_path is None:
            return None
        counters = hsperf.read_counters(self._hsperf_path)
        if counters is None:
            return None
        heap = hsperf.heap_counters(counters)
        if heap.vm_start_epoch_ms and self.vm_start_epoch_ms is None:
            self.vm_start_epoch_ms = heap.vm_start_epoch_ms
        return heap

    # -- loop

    def sample(self) -> dict[str, float | int | None]:
        now = time.time()
        row: dict[str, float | int | None] = {k: None for k in FIELDS}
        row["t"] = round(now - self.t0, 3)
        row["epoch"] = round(now, 3)
        heap = self._heap()
        if heap is not None:
            row.update(
                heap_committed=heap.committed,
                heap_used=heap.used,
                gc_young=heap.young_gcs,
                gc_full=heap.full_gcs,
                gc_concurrent=heap.concurrent_gcs,
                gc_time_s=round(heap.gc_time_s, 4),
            )
        stat: dict[str, int] | None = None
        if self.cgroup is not None:
            stat = self.cgroup.memory_stat()
            row["page_cache"] = page_cache_bytes(stat)
            row["anon"] = anon_bytes(stat)
            row["cg_usage"] = self.cgroup.memory_usage()
            cg = self.cgroup.io_bytes(self.device)
            if cg is not None and self._cg0 is not None:
                row["cg_read_bytes"], row["cg_write_bytes"] = cg[0] - self._cg0[0], cg[1] - self._cg0[1]
            rf = refault_file(stat)
            if rf is not None and self._refault0 is not None:
                row["refault_file"] = rf - self._refault0
                if self._prev_refault is not None and now > self._prev_refault[0]:
                    row["refault_per_s"] = round((rf - self._prev_refault[1]) / (now - self._prev_refault[0]), 1)
                self._prev_refault = (now, rf)
        ws, ws_scope = self._workingset(stat)  # memory.stat once per sample
        if ws is not None and self._ws0 is not None and ws_scope == self.workingset_scope:
            refaults, activations = ws[0] - self._ws0[0], ws[1] - self._ws0[1]
            row["activations"] = activations
            row["activate_share"] = round(activations / refaults, 4) if refaults > 0 else None
            row["workingset_scope"] = ws_scope
        psi, scope = self._psi()
        if psi:
            row["psi_scope"] = scope
            if self._prev_psi is not None:
                row.update(psi_percentages(self._prev_psi[1], psi, now - self._prev_psi[0]))
            self._prev_psi = (now, psi)
            self._last_psi = psi
        cpu = self._cpu()
        if cpu is not None and self._prev_cpu is not None:
            row.update({k: round(v, 2) for k, v in cpu_percentages(self._prev_cpu, cpu).items()})
        self._prev_cpu = cpu or self._prev_cpu
        dev = self._dev_bytes()
        if dev is not None and self._dev0 is not None:
            row["dev_read_bytes"], row["dev_write_bytes"] = dev[0] - self._dev0[0], dev[1] - self._dev0[1]
        # Prefer this run's own reads for the rate; fall back to the whole device.
        read = row["cg_read_bytes"] if row["cg_read_bytes"] is not None else row["dev_read_bytes"]
        if isinstance(read, int):
            if self._prev_read is not None and now > self._prev_read[0]:
                row["read_mibps"] = round((read - self._prev_read[1]) / (now - self._prev_read[0]) / (1 << 20), 3)
            self._prev_read = (now, read)
        return row

    def _loop(self) -> None:
        with open(self.csv_path, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=FIELDS)
            writer.writeheader()
            next_at = time.monotonic()
            while True:
                self._write(writer, f)
                next_at += self.interval_s
                if self._stop.wait(max(0.0, next_at - time.monotonic())):
                    break
            self._write(writer, f)  # one last sample at the end of the run

    def _write(self, writer: csv.DictWriter, f: TextIO) -> None:
        try:
            row = self.sample()
        except Exception as e:  # a broken source must not kill sampling of the others
            self.errors.append(repr(e))
            return
        self.rows.append(row)
        writer.writerow(row)
        f.flush()  # a crashed run still leaves its samples


def read_samples(path: Path) -> list[dict[str, float | None]]:
    rows: list[dict[str, float | None]] = []
    try:
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                rows.append({k: _num(v) for k, v in r.items()})
    except FileNotFoundError:
        pass
    return rows


def _num(v: str | None) -> float | str | None:
    if v in ("", None):
        return None
    try:
        return float(v)
    except ValueError:
        return v  # psi_scope
