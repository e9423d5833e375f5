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

"""The verdict rule calibrated on identical configurations: p-values and Holm's correction
(stats.py), the committed flexheap-paper columns that ran the default (relabel.py), the A/A pairs
and both rules' false calls (calibration.py), and the tables that use the rule."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from scipy import stats as sps

from flexheap_harness import calibration, compare, oracle, relabel, results_manifest, results_report, stats
from flexheap_harness.jdk import repo_root
from flexheap_harness.stats import NO_DIFFERENCE

# ---------------------------------------------------------------- p-values and Holm


def test_holm_known_answers():
    # m = 4: 0.005 <= 0.05/4 and 0.01 <= 0.05/3 are rejected; 0.03 > 0.05/2 stops the steps down
    assert stats.holm([0.01, 0.04, 0.03, 0.005]) == [True, False, False, True]
    assert stats.holm_adjusted([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    # a cell without a test is no member of the family: m stays 2
    assert stats.holm([0.02, None, 0.024]) == [True, False, True]
    assert stats.holm([0.02, 0.03, 0.024]) == [False, False, False]  # m = 3: 0.02 > 0.05/3
    assert stats.holm([]) == [] and stats.holm([None]) == [False]


def test_p_values_are_the_tests_the_intervals_invert():
    rng = np.random.default_rng(3)
    for _ in range(200):
        n = int(rng.integers(2, 9))
        base = rng.uniform(10, 20, n)
        pairs = list(zip(base * np.exp(rng.normal(0.02, 0.03, n)), base))
        _r, ci = stats.paired_ratio_ci(pairs)
        p = stats.paired_p(pairs)
        assert (p < 0.05) == (not ci[0] <= 1.0 <= ci[1])
        # a stored interval gives the same p back (results written before cells carried theirs)
        assert stats.t_interval_p(ci, n) == pytest.approx(p, rel=1e-6, abs=1e-12)
    assert stats.paired_p([(10, 20), (11, 22), (12, 24)]) == 0.0  # one ratio, no spread: the interval is a point
    assert stats.paired_p([(10, 10), (11, 11)]) == 1.0
    assert stats.paired_p([(1, 2)]) is None and stats.paired_p([(1, 2), (0, 2)]) is None


def test_permutation_p_for_runs_that_do_not_pair():
    # 3 runs against 3, every one apart: 2 of the 20 splits are that far apart (either way)
    assert stats.permutation_p([5, 5.5, 6], [10, 11, 12]) == pytest.approx(0.1)
    assert stats.permutation_p([10, 11, 12], [10, 11, 12]) == 1.0
    # 5 against 5, apart: 2 of 252
    assert stats.permutation_p([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]) == pytest.approx(2 / 252)
    # more splits than resamples: random ones, seeded, with the +1
    many = stats.permutation_p(list(range(1, 11)), list(range(11, 21)), n_resamples=999)
    assert 0 < many < 0.01 and many == stats.permutation_p(list(range(1, 11)), list(range(11, 21)), n_resamples=999)
    assert stats.permutation_p([1], [1, 2]) is None and stats.permutation_p([1, 2], [0, 0]) is None


def test_a_called_cell_needs_holm_and_its_own_interval():
    cells = [(0.9, (0.85, 0.95), 0.001), (1.1, (1.01, 1.2), 0.04), (1.0, (0.9, 1.1), 0.9), (1.0, None, None)]
    assert stats.family_verdicts(cells) == ["lower", NO_DIFFERENCE, NO_DIFFERENCE, None]
    assert stats.family_verdicts(cells[1:2]) == ["higher"]  # alone, 0.04 < 0.05
    # a p that Holm rejects but an interval across 1 (a bootstrap cell): not called
    assert stats.family_verdicts([(0.9, (0.8, 1.01), 0.001)]) == [NO_DIFFERENCE]


def test_a_ratio_inside_the_noise_band_is_never_called():
    """x0.99 with a tight interval and a tiny p: what identical runs show (the A/A record's total time
    at x0.992, CI 0.991-0.994, p 0.002), so no call; just outside the band it is one."""
    lo, hi = stats.NOISE_BAND
    tight = [(0.99, (0.988, 0.992), 1e-6)]
    assert stats.family_verdicts(tight) == [NO_DIFFERENCE]
    assert stats.family_verdicts(tight, band=None) == ["lower"]  # Holm alone
    assert stats.family_verdicts([(lo * 0.99, (lo * 0.98, lo), 1e-6)]) == ["lower"]
    assert stats.family_verdicts([(hi * 1.01, (hi, hi * 1.02), 1e-6)]) == ["higher"]
    assert stats.family_verdicts([(hi, (hi * 0.99, hi * 1.01), 1e-6)]) == [NO_DIFFERENCE]  # the band's edge
    with pytest.raises(AssertionError):
        stats.family_verdicts(tight, band=(1.01, 1.05))  # a band that excludes 1 is no noise band


def _simulated_table(rng, m: int, reps: int, effects: np.ndarray, noise: float, drift: float):
    """m cells of two policies in reps interleaved repetitions: a drift per repetition both share, each
    run its own noise (log-normal); (ratio, CI, p) as the tables compute them."""
    shared = np.exp(rng.normal(0.0, drift, (m, reps)))
    a = effects[:, None] * shared * np.exp(rng.normal(0.0, noise, (m, reps)))
    b = shared * np.exp(rng.normal(0.0, noise, (m, reps)))
    logs = np.log(a / b)
    mean, se = logs.mean(axis=1), logs.std(axis=1, ddof=1) / np.sqrt(reps)
    t = sps.t.ppf(0.975, reps - 1)
    p = stats.paired_log_p(logs)
    return [(float(np.exp(mu)), (float(np.exp(mu - t * s)), float(np.exp(mu + t * s))), float(q))
            for mu, s, q in zip(mean, se, p)]


def test_a_summary_table_of_identical_policies_calls_a_difference_at_most_5_percent_of_the_time():
    """30 settings x 7 columns, 3 reps, every cell two identical policies: the rule before (a CI that
    excludes 1) calls something in nearly every table; Holm over the table in at most 5% of them (with
    independent cells the exact rate is 1 - (1 - 0.05/210)^210 = 4.88%; this seed draws 4.6%)."""
    rng = np.random.default_rng(20260101)
    n_tables, m = 2000, 30 * 7
    before = after = 0
    for _ in range(n_tables):
        cells = _simulated_table(rng, m, 3, np.ones(m), noise=0.05, drift=0.10)
        before += any(not ci[0] <= 1.0 <= ci[1] for _r, ci, _p in cells)
        after += any(v in ("higher", "lower") for v in stats.family_verdicts(cells))
    assert before / n_tables > 0.99
    assert after / n_tables <= stats.FAMILY_ALPHA


def test_a_real_20_percent_effect_is_still_called():
    """At the committed A/A pairs' median spread (a per-run log sd of 2.4%: 3.4% per pair), a 20% effect
    with 5 reps is called in a comparison's table of 6 policies, and with 8 reps in a summary-sized one."""
    rng = np.random.default_rng(20260102)
    for m, reps in ((6, 5), (30 * 7, 8)):
        called = 0
        for _ in range(300):
            effects = np.ones(m)
            effects[0] = 1.2
            called += stats.family_verdicts(_simulated_table(rng, m, reps, effects, 0.024, 0.10))[0] == "higher"
        assert called / 300 >= 0.95, (m, reps, called)


# ---------------------------------------------------------------- which runs were the default


def comparison(policies, date="2026-11-25 10:00 UTC", times=None, reps=3, jvm_config=None, extra=()):
    """A comparison JSON of policies x reps (total time and one phase), paired by repetition."""
    times = times or {}
    runs = []
    for rep in range(1, reps + 1):
        for i, p in enumerate(policies):
            t = (times.get(p) or [20.0 + i + 0.1 * rep] * reps)[rep - 1]
            r = {"policy": p, "rep": rep, "ok": True, "total_s": t, "workload": "M1", "device": "nvme",
                 "budget": 1e9, "extra_jvm_flags": list(extra), "label": f"{p} rep {rep}",
                 "phases": [{"name": "q", "throughput_qps": 1000.0 / t}]}
            if jvm_config is not None and p.startswith("flexheap"):
                r["jvm_config"] = {"flexheap_policy": jvm_config}
            runs.append(r)
    agg = stats.aggregate(runs, policies[0])
    agg["runs"] = runs
    agg["provenance"] = {"date": date, "jdks": [{"jdk": "25.0.3+9-LTS, FlexHeap abc1234", "policies": policies}]}
    agg["warmup_runs"] = []
    return agg


@pytest.mark.parametrize("policy, date, extra, jvm_config, aa", [
    ("flexheap-paper", "2026-11-25 10:00 UTC", (), None, True),
    ("flexheap-paper:FlexHeapStaticStepPercent=10", "2026-11-25 10:00 UTC", (), None, True),
    # the balance policy reads FlexHeapGCTimeRatio: that variant was no copy of the default
    ("flexheap-paper:FlexHeapGCTimeRatio=9", "2026-11-25 10:00 UTC", (), None, False),
    ("flexheap-paper:HeapPercent=50", "2026-11-25 10:00 UTC", (), None, False),
    ("flexheap-paper", "2026-11-25 10:00 UTC", ("-XX:FlexHeapPolicy=paper",), None, False),
    ("flexheap-paper", "2026-11-21 12:00 UTC", (), None, False),  # before 5847b20: the paper FSM was there
    ("flexheap-paper", "2026-12-07 10:00 UTC", (), None, False),  # after e79d649: FlexHeapPolicy=paper
    ("flexheap-paper", "2026-12-07 10:00 UTC", (), "paper", False),
    ("flexheap-paper", "2026-12-07 10:00 UTC", (), "balance", True),  # the JVM's own word
    ("g1-90", "2026-11-25 10:00 UTC", (), None, False),
])
def test_which_flexheap_paper_runs_ran_the_default(policy, date, extra, jvm_config, aa):
    data = comparison(["g1-50", "flexheap", policy], date, jvm_config=jvm_config, extra=extra)
    assert (policy in relabel.misnamed(data)) == aa
    assert bool(calibration.aa_groups(data)) == aa


def test_relabel_renames_the_column_everywhere_and_keeps_the_commands():
    data = comparison(["g1-50", "flexheap", "flexheap-paper", "flexheap-paper:FlexHeapStaticStepPercent=25"])
    data["oracle"] = {"policies": [{"policy": "flexheap-paper"}], "phases": [{"by_policy_s": {"flexheap-paper": 1}}]}
    out = relabel.relabel(data)
    variant = "flexheap (A/A: FlexHeapStaticStepPercent=25 ignored)"
    assert out["policies"] == ["g1-50", "flexheap", "flexheap (A/A)", variant]
    assert set(out["table"]) == set(out["policies"]) and set(out["ok_runs"]) == set(out["policies"])
    assert {r["policy"] for r in out["runs"]} == set(out["policies"])
    assert out["provenance"]["jdks"][0]["policies"] == out["policies"]
    assert out["oracle"]["policies"][0]["policy"] == "flexheap (A/A)"
    assert "flexheap (A/A)" in out["oracle"]["phases"][0]["by_policy_s"]
    assert data["policies"][2] == "flexheap-paper"  # a copy: the committed JSON is not touched
    assert relabel.relabel(comparison(["g1-50", "flexheap"])) is not None
    text = ("flexheap-paper x0.99, flexheap-paper:FlexHeapStaticStepPercent=25 x1.1 and "
            "flexheap-paper:FlexHeapStaticStepPercent=250 (`--policies flexheap,flexheap-paper`)")
    assert relabel.relabel_text(text, out["relabelled"]) == (
        f"flexheap (A/A) x0.99, {variant} x1.1 and flexheap-paper:FlexHeapStaticStepPercent=250 "
        "(`--policies flexheap,flexheap-paper`)")


def test_the_balance_controller_reads_no_flag_the_a_a_columns_set():
    """relabel.PAPER_ONLY_FLAGS are the paper controller's alone; this fails once the balance
    controller (FlexHeapPolicy's default) reads one of them, and the past runs that set it stop being
    A/A pairs."""
    src = repo_root() / "jdk" / "src" / "hotspot" / "share" / "gc" / "g1" / "flexheap"
    assert re.search(r'product\(ccstr,\s*FlexHeapPolicy,\s*"balance"', (src / "flexHeap_globals.hpp").read_text())
    controller = (src / "flexHeapController.cpp").read_text()
    start = controller.index("void FlexHeapController::decide_balance(")
    end = controller.index("\n}\n", start)
    balance = controller[start:end] + (src / "flexHeapBalance.cpp").read_text()
    for word in ("negligible_percent", "static_step_percent", *relabel.PAPER_ONLY_FLAGS):
        assert word not in balance, word
    assert "static_step_percent" in controller[:start] + controller[end:]  # the paper controller reads it


# ---------------------------------------------------------------- the A/A pairs and the rates


def test_a_a_pairs_of_legacy_and_labelled_columns():
    legacy = comparison(["g1-50", "flexheap", "flexheap-paper", "flexheap-paper:FlexHeapStaticStepPercent=10"])
    assert calibration.aa_groups(legacy) == [
        ("flexheap", ["flexheap-paper", "flexheap-paper:FlexHeapStaticStepPercent=10"])]
    labelled = comparison(["flexheap@a", "flexheap@b", "g1-50@a", "g1-50@b", "vg1"], date="2026-12-07 10:00 UTC")
    assert calibration.aa_groups(labelled) == [("flexheap@a", ["flexheap@b"]), ("g1-50@a", ["g1-50@b"])]
    # flexheap@old on the previous default's JDK is another configuration, no copy of flexheap
    old = comparison(["g1-50", "flexheap", "flexheap@old"], date="2026-12-07 10:00 UTC")
    old["provenance"]["jdks"] = [{"jdk": "25.0.3+9-LTS, FlexHeap 698c91f", "policies": ["g1-50", "flexheap"]},
                                 {"jdk": "25.0.3+9-LTS, FlexHeap 123b2dc", "policies": ["flexheap@old"]}]
    assert calibration.aa_groups(old) == []
    old["provenance"]["jdks"] = [{"jdk": "25.0.3+9-LTS, FlexHeap 698c91f", "policies": old["policies"]}]
    assert calibration.aa_groups(old) == [("flexheap", ["flexheap@old"])]
    del old["provenance"]["jdks"]  # a result that does not say which JDK ran: no A/A pair claimed
    assert calibration.aa_groups(old) == []
    cells = calibration.cells_of(legacy, "x.json")
    assert {(c.column, c.metric) for c in cells} == {(p, m) for p in ("flexheap-paper",
                                                                       "flexheap-paper:FlexHeapStaticStepPercent=10")
                                                     for m in ("total_s", "qps:q")}
    assert all(c.reference == "flexheap" and c.reps == 3 and c.workload == "M1" for c in cells)
    assert calibration.cells_of(comparison(["g1-50", "flexheap"]), "y.json") == []


def cell(data, column, metric, ratio, ci, p):
    return calibration.AACell(data, "M1", "flexheap", column, metric, 3, ratio, ci, p, stats.PAIRED_T)


def test_calibrate_counts_both_rules_calls():
    # two pairs: one whose total time the before rule calls (p 0.01), one with no call at all
    cells = [cell("a", "fp", "total_s", 1.05, (1.01, 1.09), 0.01), cell("a", "fp", "qps:q", 1.0, (0.9, 1.1), 0.9),
             cell("b", "fp", "total_s", 0.99, (0.95, 1.03), 0.5), cell("b", "fp", "qps:q", 1.0, (0.9, 1.1), 0.9)]
    cal = calibration.calibrate(cells, table_cells=2, tables=200)
    assert (cal.pairs, cal.comparisons, cal.reps) == (2, 2, {3: 2})
    assert (cal.cell_before.hits, cal.cell_before.of) == (1, 4)
    assert (cal.cell_total_before.hits, cal.cell_total_before.of) == (1, 2)
    assert (cal.column_before.hits, cal.column_before.of) == (1, 2)
    assert cal.column_holm.hits == 1  # 0.01 <= 0.05/2 in its column of two cells
    # x1.05 lies outside the band of the other comparison's total time (b: x0.99 alone), so called now
    assert cal.column_now.hits == 1 and {c.data: c.band for c in cal.cells}["a"] == pytest.approx((0.99, 1 / 0.99))
    assert cal.table_before_independent == pytest.approx(1 - 0.5 ** 2)
    st = cal.summary_tables  # two total-time cells drawn from two: every table holds both
    assert (st.before.hits, st.before.of, st.holm.hits, st.now.hits) == (200, 200, 200, 200)
    assert cal.total_spread[0] == pytest.approx(np.percentile([1.05, 0.99], 2.5))
    # with a wider record (b at x0.95, c at x1.06), a's x1.05 is inside the band they give: Holm calls it,
    # the rule now does not
    cells[2] = cell("b", "fp", "total_s", 0.95, (0.85, 1.06), 0.5)
    cal = calibration.calibrate([*cells, cell("c", "fp", "total_s", 1.06, (0.95, 1.18), 0.5)], table_cells=3,
                                tables=50)
    assert {c.data: c.band for c in cal.cells}["a"][1] > 1.05
    assert (cal.column_holm.hits, cal.column_now.hits, cal.summary_tables.now.hits) == (1, 0, 0)


def test_the_committed_record_sets_the_noise_band_and_the_rule_now_meets_its_bound():
    """stats.NOISE_BAND is the committed A/A record's spread of total time (an A/A entry that moves it
    fails this until the constant follows), and on that record the rule now calls a difference in at
    most 5% of summary-sized tables (total time, the summary's metric), where Holm alone did not, and
    in at most 5% of the A/A pairs' own tables (every metric of a comparison, one family)."""
    m = results_manifest.load(results_manifest.default_manifest())
    cal = calibration.of_manifest(m, tables=500)
    assert tuple(round(x, 3) for x in calibration.noise_band([c.ratio for c in cal.cells if c.metric == "total_s"])
                 ) == stats.NOISE_BAND
    assert cal.summary_tables.now.share <= stats.FAMILY_ALPHA
    assert cal.column_now.share <= stats.FAMILY_ALPHA
    # why the band: at 24 cells (the summary's size when the rule was adopted) Holm alone missed the bound
    at24 = calibration.calibrate(cal.cells, table_cells=24, tables=500)
    assert at24.summary_tables.holm.share > stats.FAMILY_ALPHA >= at24.summary_tables.now.share


def a_a_manifest(tmp_path, summary: bool = False):
    """A manifest with one comparison of g1-50, flexheap and flexheap-paper (of the legacy period);
    returns (manifest, its data, the data's path)."""
    root = tmp_path / "docs" / "results"
    (root / "data" / "a").mkdir(parents=True)
    data = comparison(["g1-50", "flexheap", "flexheap-paper"],
                      times={"flexheap": [20.0, 21.0, 22.0], "flexheap-paper": [20.2, 20.8, 22.1]})
    path = root / "data" / "a" / "comparison.json"
    path.write_text(json.dumps(data))
    manifest = root / "manifest.toml"
    manifest.write_text('output = "../results.md"\n'
                        + ('current_builds = ["abc1234"]\n\n[summary]\npolicy = "flexheap"\n' if summary else "")
                        + '\n[[entry]]\nsection = "comparisons"\ntitle = "M1 with flexheap-paper"\n'
                        'command = "./flexheap harness compare --policies g1-50,flexheap,flexheap-paper '
                        '--baseline g1-50 --budget 1g --workload M1 --out x"\ndata = "data/a/comparison.json"\n'
                        'notes = "flexheap-paper ties (`flexheap-paper`)."\n' + ('label = "M1 row"\n' if summary else ""))
    return manifest, data, path


def test_the_calibration_of_a_manifest(tmp_path):
    manifest, _data, _path = a_a_manifest(tmp_path)
    cal = calibration.of_manifest(results_manifest.load(manifest), tables=50)
    assert (cal.pairs, len(cal.cells), cal.summary_tables.cells) == (1, 2, calibration.DEFAULT_TABLE_CELLS)
    assert all(c.p is not None and c.method == stats.PAIRED_T for c in cal.cells)  # every cell tested
    assert calibration.main(["--manifest", str(manifest), "--tables", "10"]) == 0
    # with a summary, the drawn tables are as large as its table's family: g1-50 and the A/A column
    manifest, _data, _path = a_a_manifest(tmp_path / "with-summary", summary=True)
    assert calibration.summary_table_cells(results_manifest.load(manifest)) == 2


def test_the_document_names_the_a_a_columns_and_reports_the_calibration(tmp_path):
    manifest, data, path = a_a_manifest(tmp_path, summary=True)
    m = results_manifest.load(manifest)
    md = results_report.render(m)
    assert f"(of {calibration.summary_table_cells(m)} with a CI)" in md  # the drawn tables' size is the summary's
    # the note where the A/A column first shows, the renamed column, title and notes; the command as it ran
    assert md.index(f"**{relabel.AA_LABEL}**") < md.index("## Summary")
    assert "### M1 with flexheap (A/A)" in md and "flexheap (A/A) ties (`flexheap-paper`)." in md
    assert "| flexheap (A/A)" in md and "x flexheap (A/A)" in md and "--policies g1-50,flexheap,flexheap-paper " in md
    block = md[md.index(f"## {calibration.TITLE}"):md.index("## 1. ")]
    assert "1 A/A pairs in 1 comparisons (1 with 3 reps)" in block
    assert f"```sh\n{calibration.COMMAND}\n```" in block and results_report.uncommanded_tables(md) == []
    # no A/A pair: no section; the notes of that time still name the column for what it was
    data["policies"].remove("flexheap-paper")
    data["runs"] = [r for r in data["runs"] if r["policy"] != "flexheap-paper"]
    path.write_text(json.dumps(data))
    md = results_report.render(results_manifest.load(manifest))
    assert calibration.TITLE not in md and "| flexheap (A/A)" not in md
    assert "flexheap (A/A) ties" in md and md.count(f"**{relabel.AA_LABEL}**") == 1
    # a result of after the fix: flexheap-paper is the paper mode, named so
    data["provenance"]["date"] = "2026-12-07 10:00 UTC"
    path.write_text(json.dumps(data))
    md = results_report.render(results_manifest.load(manifest))
    assert relabel.AA_LABEL not in md and "### M1 with flexheap-paper" in md


# ---------------------------------------------------------------- the rule in every table


def test_a_comparisons_tables_call_only_what_holm_calls():
    # flexheap at x0.90 in each of 3 reps; 'near' at x0.985, 0.99, 0.98 (p about 0.035): called alone, not
    # among the table's other cells (Holm's second step needs p <= 0.05/2)
    times = {"g1-50": [20.0, 21.0, 22.0], "flexheap": [18.0, 18.9, 19.8], "near": [19.7, 20.79, 21.56],
             "vg1": [20.1, 20.9, 22.2]}
    data = comparison(["g1-50", "flexheap", "near", "vg1"], times=times)
    near = data["table"]["near"]["total_s"]
    assert near["ratio_ci"][1] < 1.0 and 0.025 < near["p"] < 0.05  # the rule before would call it
    rows = compare.render_policy_rows(data, "github")
    line = {ln.split("|")[1].strip(): ln for ln in rows.splitlines() if ln.startswith("| ")}
    assert "| faster " in line["flexheap"] and "| no difference " in line["near"]
    assert "Holm's correction over the table's 3 cells" in rows
    assert data["table"]["near"]["total_s"]["verdict"] == NO_DIFFERENCE  # stored: Holm over the whole table
    md = compare.render_markdown(data)
    assert "Holm's correction over the table's 6 cells" in md


def test_a_stored_oracle_gets_holms_verdicts_from_its_runs():
    sweep = json.loads((repo_root() / "harness" / "tests" / "data" / "results" / "sweep-m2.json").read_text())
    stored = sweep["oracle"]
    assert all("vs_best_static_p" not in r for r in stored["policies"])  # written before the rule
    again = oracle.with_verdicts(stored, sweep["runs"])
    fresh = oracle.compute(sweep["runs"])
    for a, b in zip(again["policies"], fresh["policies"]):
        assert a["of_best_static_ci"] == b["of_best_static_ci"] and a["vs_best_static_p"] == b["vs_best_static_p"]
        assert a.get("vs_best_static") == b.get("vs_best_static")
    assert "Holm's correction" in oracle.render(again)
    # without its runs a stored row has no p: nothing is called
    blind = oracle.with_verdicts(stored)
    assert {r.get("vs_best_static") for r in blind["policies"] if r.get("of_best_static_ci")} == {NO_DIFFERENCE}
