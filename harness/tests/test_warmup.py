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

"""A comparison starts with warm-up runs of its first policy that no statistic counts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flexheap_harness import cli, compare


def _fake_runs(monkeypatch, times):
    """run_once stand-in: the n-th run (warm-ups included) takes times[n] seconds."""
    calls = []

    def run_once(cfg, log=None):
        calls.append(cfg)
        return {"policy": cfg[0], "ok": True, "total_s": times[len(calls) - 1]}

    monkeypatch.setattr(compare, "run_once", run_once)
    return calls


def _make(policy, rep, run_dir):
    return (policy, rep, run_dir)


def test_the_warmup_runs_first_and_is_not_counted(monkeypatch, tmp_path):
    # A cold first run (30 s) that would make g1-50 look 3x slower than flexheap if it counted.
    calls = _fake_runs(monkeypatch, [30.0, 10.0, 10.0, 10.0, 10.0])
    agg = compare.run_comparison(["g1-50", "flexheap"], 2, _make, tmp_path, "g1-50", log=lambda s: None)
    assert [(c[0], c[1]) for c in calls] == [("g1-50", 0), ("g1-50", 1), ("flexheap", 1), ("g1-50", 2),
                                             ("flexheap", 2)]
    assert calls[0][2] == tmp_path / "runs" / "warmup1-g1-50"
    assert agg["table"]["g1-50"]["total_s"]["median"] == 10.0 and agg["ok_runs"]["g1-50"] == 2
    assert agg["table"]["flexheap"]["total_s"]["ratio"] == pytest.approx(1.0)
    stored = json.loads((tmp_path / "comparison.json").read_text())
    assert stored["warmup_runs"] == [{"policy": "g1-50", "run_dir": str(tmp_path / "runs" / "warmup1-g1-50"),
                                      "ok": True, "total_s": 30.0, "error": None}]
    assert "1 warm-up run(s) of g1-50 before the counted ones, not counted (30.0 s)" in \
        (tmp_path / "comparison.md").read_text()


def test_a_failed_warmup_says_it_warmed_nothing(monkeypatch, tmp_path):
    # A static cap below the live set dies of OutOfMemoryError in seconds: it warms nothing.
    def run_once(cfg, log=None):
        if cfg[0] == "static:307m":
            return {"policy": cfg[0], "ok": False, "error": "OutOfMemoryError"}
        return {"policy": cfg[0], "ok": True, "total_s": 10.0}

    monkeypatch.setattr(compare, "run_once", run_once)
    lines = []
    agg = compare.run_comparison(["static:307m", "g1-50"], 1, _make, tmp_path, "g1-50", log=lines.append)
    assert "    warm-up failed (above): the first counted run may be cold" in lines
    assert "not counted (failed)" in compare.legend(agg)


def test_warmup_zero_runs_none_and_says_so(monkeypatch, tmp_path):
    calls = _fake_runs(monkeypatch, [10.0, 10.0])
    agg = compare.run_comparison(["g1-50", "flexheap"], 1, _make, tmp_path, "g1-50", log=lambda s: None, warmup=0)
    assert [c[1] for c in calls] == [1, 1]
    assert "no warm-up run (--warmup 0)" in compare.legend(agg)


def test_a_comparison_stored_before_warmups_says_its_first_run_may_be_cold():
    assert "predates them" in compare.warmup_text({"runs": []})


@pytest.mark.parametrize("bad", ["-1", "11", "one"])
def test_the_warmup_option_is_range_checked(bad, capsys):
    with pytest.raises(SystemExit) as e:
        cli.build_parser().parse_args(["compare", "--warmup", bad])
    assert e.value.code == 2 and "--warmup" in capsys.readouterr().err


def test_every_measuring_command_takes_warmup():
    for argv in (["compare"], ["sweep"], ["demo"]):
        assert cli.build_parser().parse_args(argv + ["--warmup", "2"]).warmup == 2
        assert cli.build_parser().parse_args(argv).warmup == compare.DEFAULT_WARMUP
