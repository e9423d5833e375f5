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

"""The sweep's per-phase oracle and best static cap, on synthetic run folders."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flexheap_harness import cli, oracle


def write_run(folder: Path, rep: int, policy: str, phases: list[tuple[str, float]], ok: bool = True,
              total: float | None = None) -> None:
    d = folder / "runs" / f"r{rep}-{policy.replace(':', '_')}"
    d.mkdir(parents=True)
    summary = {"policy": policy, "ok": ok, "rep": rep,
               "total_s": total if total is not None else sum(t for _, t in phases) + 3.0,
               "phases": [{"name": n, "duration_s": t, "queries": 100, "throughput_qps": 100 / t}
                          for n, t in phases]}
    (d / "summary.json").write_text(json.dumps(summary))


@pytest.fixture
def sweep(tmp_path) -> Path:
    # static:256m is best in M500k, static:1024m in L50 and H500k; flexheap is between.
    for rep, jitter in ((1, 0.0), (2, 1.0), (3, -1.0)):
        write_run(tmp_path, rep, "static:256m", [("M500k", 10 + jitter), ("L50", 30), ("H500k", 8)])
        write_run(tmp_path, rep, "static:1024m", [("M500k", 20 + jitter), ("L50", 12), ("H500k", 6)])
        write_run(tmp_path, rep, "flexheap", [("M500k", 12 + jitter), ("L50", 14), ("H500k", 6)])
    write_run(tmp_path, 4, "static:512m", [("M500k", 1), ("L50", 1), ("H500k", 1)], ok=False)  # never counted
    return tmp_path


def test_per_phase_oracle_sums_the_best_phase_times(sweep):
    r = oracle.compute(oracle.load_runs(sweep))
    assert [(p["phase"], p["best_cap"], p["best_s"]) for p in r["phases"]] == [
        ("M500k", "static:256m", 10), ("L50", "static:1024m", 12), ("H500k", "static:1024m", 6)]
    assert r["oracle_s"] == 28
    # best single cap by mix time (sum of phases): 256m = 48, 1024m = 38
    assert (r["best_static"], r["best_static_s"]) == ("static:1024m", 38)
    assert r["oracle_gain_over_best_static"] == pytest.approx(38 / 28)
    rows = {row["policy"]: row for row in r["policies"]}
    fh = rows["flexheap"]
    assert fh["mix_s"] == 32 and fh["n"] == 3
    assert fh["of_oracle"] == pytest.approx(28 / 32)
    assert fh["of_best_static"] == pytest.approx(38 / 32)
    assert fh["of_oracle_range"] == pytest.approx([28 / 33, 28 / 31])
    assert rows["static:512m"]["n"] == 0 and rows["static:512m"]["of_oracle"] is None
    # Bootstrap: resampled oracles are 27, 28 or 29 s, flexheap's medians 31, 32 or 33 s; each extreme
    # pair has probability (7/27)^2 > 2.5 %, so the 95% interval is exactly [27/33, 29/31].
    assert fh["of_oracle_ci"] == pytest.approx([27 / 33, 29 / 31])
    assert fh["of_best_static_ci"] == pytest.approx([37 / 33, 39 / 31]) and fh["vs_best_static"] == "faster"
    assert rows["static:1024m"]["vs_best_static"] == "no difference"


def test_repeated_phase_names_are_separate_phases(tmp_path):
    write_run(tmp_path, 1, "static:256m", [("L50", 10), ("M500k", 5), ("L50", 20)])
    write_run(tmp_path, 1, "static:1024m", [("L50", 15), ("M500k", 4), ("L50", 10)])
    r = oracle.compute(oracle.load_runs(tmp_path))
    assert [p["phase"] for p in r["phases"]] == ["L50", "M500k", "L50#2"]
    assert r["oracle_s"] == 10 + 4 + 10


def test_without_phases_the_oracle_is_the_best_static_cap(tmp_path):
    write_run(tmp_path, 1, "static:256m", [], total=50)
    write_run(tmp_path, 1, "static:1024m", [], total=40)
    write_run(tmp_path, 1, "g1-90", [], total=44)
    r = oracle.compute(oracle.load_runs(tmp_path))
    assert r["oracle_s"] == 40 and r["best_static"] == "static:1024m"
    assert {row["policy"]: row["of_oracle"] for row in r["policies"]}["g1-90"] == pytest.approx(40 / 44)


def test_oracle_command_writes_json_and_table(sweep, capsys):
    assert cli.main(["oracle", str(sweep)]) == 0
    out = capsys.readouterr().out
    assert "of per-phase oracle" in out and "88% [85..90] (CI 82-94%)" in out and "sum (per-phase oracle)" in out
    data = json.loads((sweep / "oracle.json").read_text())
    assert data["oracle_s"] == 28
    assert "| policy" in (sweep / "oracle.md").read_text()


def test_oracle_command_on_an_empty_folder_is_a_usage_error(tmp_path, capsys):
    assert cli.main(["oracle", str(tmp_path)]) == 2
    assert "no runs/*/summary.json" in capsys.readouterr().err


def test_unbudgeted_runs_are_marked_in_the_oracle(tmp_path):
    write_run(tmp_path, 1, "static:256m", [("A", 1)])
    s = json.loads((tmp_path / "runs" / "r1-static_256m" / "summary.json").read_text())
    s.update(unbudgeted=True, unbudgeted_reasons=["not root"])
    (tmp_path / "runs" / "r1-static_256m" / "summary.json").write_text(json.dumps(s))
    r = oracle.compute(oracle.load_runs(tmp_path))
    assert r["unbudgeted"] == ["not root"]
    assert "UNBUDGETED" in oracle.render(r) and "(unbudgeted)" in oracle.render(r)
