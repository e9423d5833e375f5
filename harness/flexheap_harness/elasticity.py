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

"""Could a run have taught the controller its page cache's elasticity?

The balance rule assumes that the I/O stall more page cache can save falls as
1/cache: an elasticity e = -dlog(stall) / dlog(cache) of 1. Where the truth is
far from 1 the rule sizes the heap wrongly (a cache a tenth of the reads'
footprint saves nothing, e ~ 0; a working set just past the cache saves more,
e > 1). Learning e from the run's own intervals would fix both, if the
intervals carry it.

This reads a run's decisions.csv (one row per GC: the interval's I/O cost C_io
and the page cache S_io at the decision), cuts it into consecutive windows of
at least `window_s` seconds, and, for each pair of neighbouring windows whose
mean page cache differs by at least `min_change` in log, the elasticity the
pair implies. Differences of neighbours cancel slow drift; the median of the
pairs' e with its 95% bootstrap interval (scipy) says whether the run pins e
down: an interval spanning both 0 and 1 means the run cannot tell a useless
cache from the one the model assumes, and one below 0 (more cache, more
stall) that the load moved the stall, not the cache.
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np
from scipy import stats
from tabulate import tabulate

# Below this stall rate (CPU s per s) a window's log is noise.
MIN_IO_RATE = 0.02


@dataclass(frozen=True)
class Window:
    end_s: float
    io_rate: float   # sum(C_io) / wall
    cache: float     # wall-weighted page cache at the intervals' starts (bytes)


@dataclass(frozen=True)
class Estimate:
    pairs: int
    median: float
    q1: float
    q3: float
    wrong_sign: float        # share of pairs where more cache came with more stall
    low: float               # 95% bootstrap interval of the median
    high: float

    @property
    def confounded(self) -> bool:
        """More cache with more stall beyond doubt: no cache does that; the load changed, not the cache."""
        return self.pairs >= 3 and self.high < 0.0

    @property
    def pins_down(self) -> bool:
        """A physical e whose interval excludes either a useless cache (0) or the model's 1."""
        return (self.pairs >= 3 and not self.confounded
                and not (self.low <= 0.0 <= self.high and self.low <= 1.0 <= self.high))

    @property
    def verdict(self) -> str:
        if self.pairs < 3:
            return "too few pairs"
        if self.confounded:
            return "confounded (e < 0)"
        return f"e in {self.low:.2f}..{self.high:.2f}" if self.pins_down else "cannot tell 0 from 1"


def read_decisions(path: Path) -> list[tuple[float, float, float]]:
    """(t, C_io, S_io) per decision, in log order."""
    with open(path, newline="") as f:
        return [(float(r["t"]), float(r["C_io"]), float(r["S_io"])) for r in csv.DictReader(f)]


def windows(rows: Sequence[tuple[float, float, float]], window_s: float) -> list[Window]:
    """Consecutive windows of at least window_s; an interval's I/O belongs to the cache at its start."""
    out: list[Window] = []
    wall = io = cache_wall = 0.0
    for (t0, _, cache0), (t1, io1, _) in zip(rows, rows[1:]):
        dt = t1 - t0
        if dt <= 0:
            continue
        wall += dt
        io += io1
        cache_wall += cache0 * dt
        if wall >= window_s:
            out.append(Window(t1, io / wall, cache_wall / wall))
            wall = io = cache_wall = 0.0
    return out


def pair_changes(ws: Sequence[Window], min_change: float) -> list[tuple[float, float]]:
    """(dlog cache, dlog stall) of neighbouring windows that both stall and differ enough in cache."""
    out = []
    for a, b in zip(ws, ws[1:]):
        if min(a.io_rate, b.io_rate) < MIN_IO_RATE or min(a.cache, b.cache) <= 0:
            continue
        dc = math.log(b.cache / a.cache)
        if abs(dc) >= min_change:
            out.append((dc, math.log(b.io_rate / a.io_rate)))
    return out


def estimate(changes: Sequence[tuple[float, float]]) -> Estimate | None:
    if not changes:
        return None
    dc = np.array([c for c, _ in changes])
    dio = np.array([d for _, d in changes])
    each = -dio / dc
    q1, med, q3 = np.percentile(each, [25, 50, 75])
    low, high = -math.inf, math.inf
    if len(each) >= 3:
        ci = stats.bootstrap((each,), np.median, confidence_level=0.95, method="percentile",
                             n_resamples=2000, random_state=np.random.default_rng(0)).confidence_interval
        low, high = float(ci.low), float(ci.high)
    return Estimate(len(changes), float(med), float(q1), float(q3), float(np.mean(each < 0)), low, high)


def estimate_run(decisions_csv: Path, window_s: float, min_change: float) -> Estimate | None:
    """The estimate from one run's decision log; None without a pair."""
    return estimate(pair_changes(windows(read_decisions(decisions_csv), window_s), min_change))


def run_decision_files(paths: Iterable[Path]) -> list[Path]:
    """decisions.csv files of run folders, comparison folders (runs/*) or the files themselves."""
    out: list[Path] = []
    for p in paths:
        if p.is_file():
            out.append(p)
        elif (p / "decisions.csv").is_file():
            out.append(p / "decisions.csv")
        else:
            out.extend(sorted((p / "runs").glob("*/decisions.csv")))
    return out


def report(files: Sequence[Path], window_s: float = 2.0, min_change: float = 0.15,
           policy_filter: str | None = "flexheap") -> tuple[str, int, int]:
    """A table, one row per decisions.csv (of run_decision_files()) whose run folder holds policy_filter;
    the runs in it and how many pin e down."""
    rows, pinned = [], 0
    for f in files:
        run = f"{f.parent.parent.parent.name}/{f.parent.name}" if f.parent.parent.name == "runs" else f.parent.name
        if policy_filter and policy_filter not in run:
            continue
        est = estimate_run(f, window_s, min_change)
        if est is None:
            rows.append([run, 0, "-", "-", "-", "too few pairs"])
            continue
        pinned += est.pins_down
        rows.append([run, est.pairs, f"{est.median:.2f} [{est.q1:.2f}..{est.q3:.2f}]",
                     f"{est.low:.2f}..{est.high:.2f}", f"{est.wrong_sign:.0%}", est.verdict])
    table = tabulate(rows, headers=["run", "pairs", "e: median [IQR]", "median's 95% CI", "e < 0", "verdict"])
    legend = (f"windows of >= {window_s:g} s; pairs of neighbours whose page cache differs by >= "
              f"{min_change:g} in log and that both stall >= {MIN_IO_RATE:g} CPU s/s; e = -dlog(stall)/dlog(cache), "
              "1 = the balance rule's 1/cache model, 0 = a cache that saves nothing")
    return f"{table}\n\n{legend}", len(rows), pinned
