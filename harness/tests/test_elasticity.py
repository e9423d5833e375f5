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

"""Whether a run's own intervals pin down the page cache's elasticity, on synthetic decision logs."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from flexheap_harness import cli, elasticity

MIB = 2 ** 20


def write_decisions(folder: Path, caches: list[float], io_rate, step_s: float = 0.5, per_window: int = 4) -> Path:
    """A decision every step_s; the cache holds each value of `caches` for per_window decisions; an interval's
    C_io is io_rate(cache at its start, window number) * its wall time."""
    folder.mkdir(parents=True)
    lines = ["t,gc_id,C_gc,C_io,S_io"]
    t, n = 0.0, 0
    prev_cache = caches[0]
    for w, cache in enumerate(caches):
        for _ in range(per_window):
            c_io = io_rate(prev_cache, w) * step_s if n > 0 else 0.0
            lines.append(f"{t:.3f},{n},0.01,{c_io:.6f},{cache:.0f}")
            prev_cache = cache
            t += step_s
            n += 1
    (folder / "decisions.csv").write_text("\n".join(lines) + "\n")
    return folder


ALTERNATING = [400 * MIB if w % 2 else 200 * MIB for w in range(12)]


def test_a_cache_as_the_model_assumes_gives_one(tmp_path):
    run = write_decisions(tmp_path / "r1-flexheap", ALTERNATING, lambda c, w: 0.5 * (300 * MIB) / c)
    est = elasticity.estimate_run(run / "decisions.csv", 2.0, 0.15)
    assert est is not None and est.pairs >= 8
    assert est.median == pytest.approx(1.0, abs=0.05)
    assert est.pins_down and est.wrong_sign == 0.0


def test_a_cache_that_saves_nothing_gives_zero(tmp_path):
    run = write_decisions(tmp_path / "r1-flexheap", ALTERNATING, lambda c, w: 0.5)
    est = elasticity.estimate_run(run / "decisions.csv", 2.0, 0.15)
    assert est.median == pytest.approx(0.0, abs=0.05)
    assert est.high < 1.0 and est.pins_down


def test_stall_that_the_load_moves_cannot_tell_zero_from_one(tmp_path):
    # The stall doubles or halves from window to window whatever the cache.
    swing = [1.0, 2.0, 0.5, 1.0, 0.25, 2.0, 1.0, 0.5, 2.0, 0.5, 1.0, 2.0]
    run = write_decisions(tmp_path / "r1-flexheap", ALTERNATING, lambda c, w: 0.4 * swing[w] * (300 * MIB) / c)
    est = elasticity.estimate_run(run / "decisions.csv", 2.0, 0.15)
    assert est.low <= 0.0 <= est.high and est.low <= 1.0 <= est.high
    assert not est.pins_down and est.verdict == "cannot tell 0 from 1"


def test_more_cache_with_more_stall_is_confounded(tmp_path):
    growing = [100 * MIB * 1.3 ** w for w in range(8)]
    run = write_decisions(tmp_path / "r1-flexheap", growing, lambda c, w: 0.05 * 1.5 ** w)
    est = elasticity.estimate_run(run / "decisions.csv", 2.0, 0.15)
    assert est.confounded and not est.pins_down and est.verdict.startswith("confounded")


def test_an_intervals_stall_belongs_to_the_cache_at_its_start():
    rows = [(0.0, 0.0, 100.0), (1.0, 0.2, 300.0), (2.0, 0.6, 300.0)]
    (w,) = elasticity.windows(rows, 2.0)
    assert w.end_s == 2.0
    assert w.io_rate == pytest.approx(0.4)
    assert w.cache == pytest.approx((100.0 + 300.0) / 2)


def test_pairs_need_a_cache_change_and_a_stall_to_log():
    ws = [elasticity.Window(2.0, 0.5, 100.0), elasticity.Window(4.0, 0.5, 105.0),
          elasticity.Window(6.0, 0.001, 200.0), elasticity.Window(8.0, 0.4, 400.0)]
    # 100 -> 105 is too small a change; both pairs with the idle window are noise.
    assert elasticity.pair_changes(ws, 0.15) == []
    assert elasticity.pair_changes(ws[:2], 0.01) == [(pytest.approx(math.log(1.05)), 0.0)]


def test_cli_exit_codes(tmp_path, capsys):
    write_decisions(tmp_path / "cmp" / "runs" / "r1-flexheap", ALTERNATING, lambda c, w: 0.5 * (300 * MIB) / c)
    write_decisions(tmp_path / "cmp" / "runs" / "r1-g1-50", ALTERNATING, lambda c, w: 0.5)
    assert cli.main(["elasticity", str(tmp_path / "cmp")]) == 0
    out = capsys.readouterr().out
    assert "cmp/r1-flexheap" in out and "r1-g1-50" not in out and "e in 1.00..1.00" in out
    write_decisions(tmp_path / "cmp" / "runs" / "r2-flexheap", ALTERNATING,
                    lambda c, w: 0.4 * [1.0, 2.0, 0.5, 1.0, 0.25, 2.0, 1.0, 0.5, 2.0, 0.5, 1.0, 2.0][w] * (300 * MIB) / c)
    assert cli.main(["elasticity", str(tmp_path / "cmp")]) == 1
    assert cli.main(["elasticity", str(tmp_path / "empty")]) == 2
    assert "no decisions.csv" in capsys.readouterr().err
    assert cli.main(["elasticity", "--window", "0", str(tmp_path / "cmp")]) == 2
