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

"""Where a policy gains or loses, phase by phase.

A comparison's table gives each phase's throughput and p99; what explains
them is what memory the phase ran with and what it cost: here, for every run
and phase of a phased workload (as the runner placed them on the run's clock
in summary.json), the phase's duration and the bytes it read (the bench's own
figures; for a service, the cgroup's read bytes between the samples around
the phase), the mean committed heap and page
cache while it ran (samples.csv, 1 Hz), and the GC pauses, their total time
and the marking cycles (Remark pauses) that fell inside it (gc_pauses.csv).
Per policy and phase, the medians over the repetitions with [min..max].
"""

from __future__ import annotations

import csv
import json
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from tabulate import tabulate

from .oracle import phase_keys, phase_seconds
from .sampling import read_samples

MIB = float(1 << 20)


@dataclass(frozen=True)
class PhaseStats:
    run: str                 # the run folder's name (r1-flexheap, ...)
    policy: str
    phase: str
    duration_s: float
    read_bytes: float | None
    heap_mean: float | None  # bytes; None without samples inside the phase
    cache_mean: float | None
    pauses: int
    pause_s: float
    remarks: int             # marking cycles that reached Remark


def run_folders(paths: Iterable[Path]) -> list[Path]:
    """Run folders (holding summary.json) given directly, or a comparison folder's runs/* but its
    warm-up runs (which the comparison does not count either)."""
    out: list[Path] = []
    for p in paths:
        if (p / "summary.json").is_file():
            out.append(p)
        else:
            out.extend(sorted(d for d in (p / "runs").glob("*")
                              if (d / "summary.json").is_file() and not d.name.startswith("warmup")))
    return out


def _mean(values: Sequence[float]) -> float | None:
    return statistics.fmean(values) if values else None


def _pauses(path: Path) -> list[tuple[float, str, float]]:
    try:
        with open(path, newline="") as f:
            return [(float(r["t"]), r["kind"], float(r["ms"])) for r in csv.DictReader(f)]
    except FileNotFoundError:
        return []


def _read_between(samples: Sequence[dict], a: float, b: float) -> float | None:
    """Bytes the run's cgroup (else the device) read from the last sample at or before a to the last
    at or before b: the cumulative counters of samples.csv, to the sampler's 1 s resolution."""
    key = "cg_read_bytes" if any(isinstance(s.get("cg_read_bytes"), float) for s in samples) else "dev_read_bytes"
    points = [(s["t"], s[key]) for s in samples if isinstance(s.get("t"), float) and isinstance(s.get(key), float)]
    before = [v for t, v in points if t <= a] or [v for t, v in points[:1]]
    after = [v for t, v in points if t <= b]
    return after[-1] - before[-1] if before and after else None


def phase_stats(run_dir: Path) -> list[PhaseStats]:
    """One PhaseStats per phase the runner placed on the run's clock (summary.json's phases with start_t
    and end_t; a service's sub-phases have none); [] for a run without such phases."""
    summary = json.loads((run_dir / "summary.json").read_text())
    phases = summary.get("phases") or []
    samples = read_samples(run_dir / "samples.csv")
    pauses = _pauses(run_dir / "gc_pauses.csv")
    out = []
    for key, ph in zip(phase_keys(phases), phases):
        a, b = ph.get("start_t"), ph.get("end_t")
        if not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
            continue
        inside = [s for s in samples if isinstance(s.get("t"), float) and a <= s["t"] <= b]
        heap = [s["heap_committed"] for s in inside if isinstance(s.get("heap_committed"), float)]
        cache = [s["page_cache"] for s in inside if isinstance(s.get("page_cache"), float)]
        mine = [p for p in pauses if a <= p[0] <= b]
        out.append(PhaseStats(run=run_dir.name, policy=summary.get("policy") or run_dir.name, phase=key,
                              duration_s=phase_seconds(ph),
                              read_bytes=ph["read_bytes"] if "read_bytes" in ph else _read_between(samples, a, b),
                              heap_mean=_mean(heap), cache_mean=_mean(cache), pauses=len(mine),
                              pause_s=sum(p[2] for p in mine) / 1000.0,
                              remarks=sum(1 for p in mine if p[1] == "Remark")))
    return out


def _spread(values: Sequence[float | None], scale: float = 1.0, fmt: str = "{:.1f}") -> str:
    v = sorted(x / scale for x in values if x is not None)
    if not v:
        return "-"
    med = fmt.format(statistics.median(v))
    return med if len(v) == 1 else f"{med} [{fmt.format(v[0])}..{fmt.format(v[-1])}]"


def aggregate(stats: Sequence[PhaseStats]) -> list[list[str]]:
    """Rows per policy (in first-seen order) and phase (in run order): medians [min..max] over runs."""
    groups: dict[tuple[str, str], list[PhaseStats]] = {}
    for s in stats:
        groups.setdefault((s.policy, s.phase), []).append(s)
    rows = []
    for (policy, phase), g in groups.items():
        rows.append([policy, phase, len(g), _spread([s.duration_s for s in g]),
                     _spread([s.read_bytes for s in g], MIB, "{:.0f}"),
                     _spread([s.heap_mean for s in g], MIB, "{:.0f}"),
                     _spread([s.cache_mean for s in g], MIB, "{:.0f}"),
                     _spread([float(s.pauses) for s in g], fmt="{:.0f}"),
                     _spread([s.pause_s for s in g], fmt="{:.2f}"),
                     _spread([float(s.remarks) for s in g], fmt="{:.0f}")])
    return rows


HEADERS = ["duration [s]", "read [MiB]", "mean heap [MiB]", "mean page cache [MiB]", "GC pauses",
           "pause time [s]", "marking cycles"]


def report(runs: Sequence[Path], policy_filter: str | None = None, per_run: bool = False) -> tuple[str, int]:
    """The table and how many runs had phases; policy_filter keeps policies whose name holds it."""
    stats: list[PhaseStats] = []
    counted = 0
    for r in runs:
        ps = phase_stats(r)
        if policy_filter:
            ps = [s for s in ps if policy_filter in s.policy]
        if ps:
            counted += 1
            stats.extend(ps)
    if per_run:
        rows = [[s.run, s.phase, f"{s.duration_s:.1f}",
                 "-" if s.read_bytes is None else f"{s.read_bytes / MIB:.0f}",
                 "-" if s.heap_mean is None else f"{s.heap_mean / MIB:.0f}",
                 "-" if s.cache_mean is None else f"{s.cache_mean / MIB:.0f}",
                 s.pauses, f"{s.pause_s:.2f}", s.remarks] for s in stats]
        table = tabulate(rows, headers=["run", "phase", *HEADERS])
    else:
        table = tabulate(aggregate(stats), headers=["policy", "phase", "runs", *HEADERS])
        table += ("\n\nmedian [min..max] over the runs; read: the workload's own count, else the cgroup's between "
                  "the 1 Hz samples around the phase; heap and page cache: means of the samples inside the phase; "
                  "pauses and marking cycles (Remark pauses): those that fell inside it")
    return table, counted
