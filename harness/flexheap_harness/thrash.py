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
"""Memory thrashing: a run that fills its cgroup is not always OOM-killed.

When the anonymous memory (heap + native) reaches the memory limit, the kernel can keep
reclaiming the last file pages (the JVM's own code, jars, the CDS archive) and faulting them
back, so the process lives on at ~100% system time and makes no progress until the run's
timeout (seen: stock G1 at a 90% cap in a 1.5 GiB Spark run, memory PSI 'full' 55-99% for
minutes). A production host's systemd-oomd kills such a cgroup on its memory pressure; the
harness does the same, so a thrashing run fails fast and is reported as what it is.
"""
from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any, Sequence


@dataclass(frozen=True)
class ThrashLimit:
    """Kill a run whose own cgroup spent >= full_pct % of the last `seconds` with every task
    stalled on memory (PSI 'full'); systemd-oomd's defaults are 60 % over 30 s."""

    full_pct: float = 60.0
    seconds: float = 30.0

    def __post_init__(self) -> None:
        assert 0 < self.full_pct <= 100 and self.seconds > 0

    def __str__(self) -> str:
        return f"{self.full_pct:g}:{self.seconds:g}"  # what parse_thrash_limit reads


DEFAULT = str(ThrashLimit())


def parse_thrash_limit(text: str) -> ThrashLimit | None:
    """'PCT:SECONDS' (e.g. 60:30) or 'off'; argparse type."""
    if text.strip().lower() == "off":
        return None
    pct, sep, secs = text.partition(":")
    try:
        p, s = float(pct), float(secs)
    except ValueError:
        p = s = float("nan")
    if not sep or not (0 < p <= 100) or not (1 <= s <= 3600):
        raise argparse.ArgumentTypeError(
            f"invalid thrash limit {text!r}: give PCT:SECONDS with 0 < PCT <= 100 and 1 <= SECONDS <= 3600 "
            f"(default {DEFAULT}), or 'off'")
    return ThrashLimit(p, s)


def thrashing(rows: Sequence[dict[str, Any]], limit: ThrashLimit | None) -> str | None:
    """Why the run is thrashing, or None. Looks only at samples of the run's own cgroup PSI
    (psi_scope 'cgroup'): machine-wide pressure may be another process's."""
    if limit is None or len(rows) < 2:
        return None
    stalled = covered = 0.0
    # Each sample's memory_full_pct covers the interval since the sample before it.
    for i in range(len(rows) - 1, 0, -1):
        r, before = rows[i], rows[i - 1]
        pct = r.get("memory_full_pct")
        if r.get("psi_scope") != "cgroup" or pct is None or r.get("t") is None or before.get("t") is None:
            return None
        dt = r["t"] - before["t"]
        stalled += pct / 100.0 * dt
        covered += dt
        if covered >= limit.seconds:
            break
    if covered < limit.seconds or 100.0 * stalled / covered < limit.full_pct:
        return None
    return (f"memory thrashing: every task of the run's cgroup stalled on memory {100.0 * stalled / covered:.0f}% "
            f"of the last {covered:.0f} s (PSI 'full'; limit {limit.full_pct:g}% over {limit.seconds:g} s, "
            f"systemd-oomd's default; --thrash-limit)")
