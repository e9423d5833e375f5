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

"""budget-curve: throughput against the budget from one comparison per budget."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from flexheap_harness import budget_curve
from flexheap_harness.cli import main

DATA = Path(__file__).resolve().parents[2] / "docs" / "results" / "data"
FIVE = DATA / "services-opensearch-large-5pct-63236a4"
TEN = DATA / "services-opensearch-large-10pct-322c9f9"


def test_a_runs_throughput_is_the_geometric_mean_of_its_prefixed_phases():
    run = {"phases": [{"name": "search-a", "throughput_qps": 2.0}, {"name": "search-b", "throughput_qps": 8.0},
                      {"name": "mixed-a", "throughput_qps": 1000.0}, {"name": "search-c"}]}
    assert budget_curve.run_throughput(run) == pytest.approx(4.0)
    assert budget_curve.run_throughput(run, "mixed-") == pytest.approx(1000.0)
    assert budget_curve.run_throughput({"phases": []}) is None


def _comparison(tmp: Path, name: str, budget: int, values: dict[str, list[float]]) -> Path:
    runs = [{"policy": p, "rep": i + 1, "ok": True, "budget": budget,
             "phases": [{"name": "search-x", "throughput_qps": v}]}
            for p, vs in values.items() for i, v in enumerate(vs)]
    runs.append({"policy": "flexheap", "rep": 9, "ok": False, "budget": budget, "phases": []})
    d = tmp / name
    d.mkdir()
    (d / "comparison.json").write_text(json.dumps({"runs": runs}))
    return d


def test_cells_pair_by_repetition_and_call_only_clear_differences(tmp_path):
    small = _comparison(tmp_path, "s", 100 << 20, {"vendor-50": [10, 11, 12], "flexheap": [20, 22.2, 23.9]})
    large = _comparison(tmp_path, "l", 400 << 20, {"vendor-50": [30, 31, 29], "flexheap": [30, 32, 28]})
    cv = budget_curve.curve(budget_curve.load([large, small]), "vendor-50")
    assert cv["budgets"] == [100 << 20, 400 << 20]  # sorted by budget
    cell = cv["cells"][(100 << 20, "flexheap")]
    assert cell["median"] == pytest.approx(22.2) and cell["n"] == 3  # the failed run is left out
    assert cell["ratio"] == pytest.approx(math.exp(sum(math.log(x) for x in (2.0, 22.2 / 11, 23.9 / 12)) / 3))
    assert cell["verdict"] == "higher"
    assert cv["cells"][(400 << 20, "flexheap")]["verdict"] == "no difference"
    assert "ratio" not in cv["cells"][(100 << 20, "vendor-50")]


def test_a_policy_that_failed_every_run_at_a_budget_is_marked_failed(tmp_path):
    d = _comparison(tmp_path, "s", 100 << 20, {"g1-50": [10, 11]})
    agg = json.loads((d / "comparison.json").read_text())
    agg["runs"] += [{"policy": "vendor-50", "rep": i, "ok": False, "budget": 100 << 20} for i in (1, 2)]
    (d / "comparison.json").write_text(json.dumps(agg))
    cv = budget_curve.curve(budget_curve.load([d]), "vendor-50")
    assert cv["cells"][(100 << 20, "vendor-50")] == {"failed": 2}
    assert "failed (2 of 2 runs)" in budget_curve.markdown(cv)
    assert cv["cells"][(100 << 20, "flexheap")] == {"failed": 1}  # _comparison's one failed flexheap run
    assert budget_curve.plot(cv, tmp_path / "c.png").stat().st_size > 5_000
    assert main(["budget-curve", str(d), "--subject", "vendor-50", "--out", str(tmp_path)]) == 2  # never ok
    assert main(["budget-curve", str(d), "--phases", "nothing-", "--out", str(tmp_path)]) == 2  # failed cells only


def test_a_subject_is_compared_with_every_other_policy(tmp_path):
    d = _comparison(tmp_path, "s", 100 << 20, {"vendor-50": [10, 11, 12], "g1-50": [20, 20, 20],
                                                "flexheap": [20, 22, 24]})
    cv = budget_curve.curve(budget_curve.load([d]), "vendor-50", subject="flexheap")
    cells = {p: cv["cells"][(100 << 20, p)] for p in ("vendor-50", "g1-50", "flexheap")}
    assert cells["vendor-50"]["ratio"] == pytest.approx(2.0)  # flexheap / vendor-50, each rep 2x
    assert cells["vendor-50"]["verdict"] == "higher"
    assert cells["g1-50"]["ratio"] == pytest.approx((1.0 * 1.1 * 1.2) ** (1 / 3))
    assert cells["g1-50"]["verdict"] == "no difference"
    assert "ratio" not in cells["flexheap"]
    text = budget_curve.markdown(cv)
    assert "| 100 MiB | 11 (flexheap x2.00, CI 2.00-2.00, higher) |" in text
    assert main(["budget-curve", str(d), "--subject", "nothing", "--out", str(tmp_path)]) == 2
    agg = json.loads((d / "comparison.json").read_text())
    agg["policies"] = ["flexheap", "g1-27", "vendor-50"]  # the comparison's own order; g1-27 never ran ok
    (d / "comparison.json").write_text(json.dumps(agg))
    assert budget_curve.curve(budget_curve.load([d]), "vendor-50")["policies"] == ["flexheap", "vendor-50", "g1-50"]


def test_a_folder_whose_runs_have_two_budgets_is_refused(tmp_path):
    d = _comparison(tmp_path, "x", 1, {"g1-50": [1.0]})
    agg = json.loads((d / "comparison.json").read_text())
    agg["runs"][0]["budget"] = 2
    (d / "comparison.json").write_text(json.dumps(agg))
    with pytest.raises(ValueError, match="one budget"):
        budget_curve.load([d])


@pytest.mark.skipif(not (FIVE.exists() and TEN.exists()), reason="committed OpenSearch results missing")
def test_cli_draws_the_curve_of_committed_opensearch_results(tmp_path, capsys):
    assert main(["budget-curve", str(FIVE), str(TEN), "--baseline", "g1-50", "--out", str(tmp_path)]) == 0
    text = (tmp_path / "budget-curve.md").read_text()
    assert text.splitlines()[0] == "| budget | g1-50 | vg1 | flexheap | g1-90 |"
    assert "| 480 MiB |" in text and "| 907 MiB |" in text
    assert (tmp_path / "budget-curve.png").stat().st_size > 10_000
    assert main(["budget-curve", str(FIVE), "--phases", "nothing-", "--out", str(tmp_path)]) == 2


def test_calibrate_is_a_harness_command_with_its_own_options(capsys):
    assert main(["calibrate", "--tables", "20"]) == 0
    out = capsys.readouterr().out
    assert "total_s" in out and "A/A" in out
    with pytest.raises(SystemExit) as e:
        main(["calibrate", "--no-such-option"])
    assert e.value.code == 2
