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
"""The thrash guard: when a run counts as thrashing, and that a thrashing run is killed."""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from flexheap_harness import runner
from flexheap_harness.services.base import Context
from flexheap_harness.thrash import DEFAULT, ThrashLimit, parse_thrash_limit, thrashing


def rows(pcts: list[float], scope: str = "cgroup", dt: float = 1.0) -> list[dict]:
    """Samples dt apart; the first has no PSI share yet, as the sampler's first row."""
    out = [{"t": 0.0, "psi_scope": scope}]
    for i, p in enumerate(pcts, start=1):
        out.append({"t": i * dt, "psi_scope": scope, "memory_full_pct": p})
    return out


LIMIT = ThrashLimit(60.0, 30.0)


def test_sustained_full_stall_is_thrashing():
    reason = thrashing(rows([5.0] * 10 + [85.0] * 30), LIMIT)
    assert reason and "memory thrashing" in reason and "85%" in reason and "last 30 s" in reason


def test_the_window_is_an_average_so_a_dip_does_not_reset_it():
    # What the livelocked Spark driver showed: 54-99% a second, 78% on average.
    seen = [78.4, 72.8, 82.8, 65.1, 77.4, 98.6, 87.7, 54.1, 62.2, 74.0] * 3
    assert thrashing(rows(seen), LIMIT)


def test_below_the_limit_or_too_short_is_not_thrashing():
    assert thrashing(rows([59.0] * 40), LIMIT) is None
    assert thrashing(rows([100.0] * 29), LIMIT) is None           # 29 s of history < 30 s
    assert thrashing(rows([0.0] * 20 + [100.0] * 15), LIMIT) is None  # 50% over the last 30 s
    assert thrashing(rows([100.0] * 40), None) is None              # --thrash-limit off


def test_machine_wide_pressure_never_kills_a_run():
    # /proc/pressure counts every process on the machine, not this run's.
    assert thrashing(rows([100.0] * 40, scope="system"), LIMIT) is None
    mixed = rows([100.0] * 40)
    mixed[-5]["psi_scope"] = "system"
    assert thrashing(mixed, LIMIT) is None


def test_parse_thrash_limit():
    assert parse_thrash_limit("60:30") == ThrashLimit(60.0, 30.0)
    assert parse_thrash_limit(DEFAULT) == ThrashLimit()  # the help text's default is the one used
    assert parse_thrash_limit("off") is None
    for bad in ("60", "0:30", "101:30", "60:0", "x:y", "60:30:1"):
        with pytest.raises(argparse.ArgumentTypeError, match="PCT:SECONDS"):
            parse_thrash_limit(bad)


class FakeSampler:
    def __init__(self, samples: list[dict]):
        self.rows = samples


def test_runner_kills_a_thrashing_jvm_long_before_its_timeout(tmp_path: Path):
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    (tmp_path / "stderr.log").write_text("")
    cfg = SimpleNamespace(timeout_s=120.0, thrash=LIMIT)
    start = time.monotonic()
    try:
        why = runner._wait(proc, cfg, tmp_path / "stderr.log", FakeSampler(rows([90.0] * 31)), lambda m: None,
                           time.time())
    finally:
        proc.kill()
    assert why and why.startswith("memory thrashing")
    assert time.monotonic() - start < 10
    assert proc.wait(timeout=10) != 0  # killed, not exited


def test_runner_leaves_a_healthy_jvm_alone(tmp_path: Path):
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(2)"])
    (tmp_path / "stderr.log").write_text("")
    cfg = SimpleNamespace(timeout_s=120.0, thrash=LIMIT)
    assert runner._wait(proc, cfg, tmp_path / "stderr.log", FakeSampler(rows([20.0] * 31)), lambda m: None,
                        time.time()) is None
    assert proc.returncode == 0


def test_a_service_run_stops_on_its_watchdog(tmp_path: Path):
    samples = FakeSampler(rows([10.0] * 31))
    ctx = Context(run_dir=tmp_path, jdk=None, jvm_flags=[], max_heap=0, budget=None, cgroup=None,  # type: ignore[arg-type]
                  log=lambda m: None, t0=time.time(), deadline=time.time() + 600,
                  watchdog=lambda: thrashing(samples.rows, LIMIT))
    ctx.check_deadline()  # healthy: no exception
    samples.rows = rows([95.0] * 31)
    with pytest.raises(RuntimeError, match="memory thrashing"):
        ctx.check_deadline()
