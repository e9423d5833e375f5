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

"""Statistics, interleaving, the comparison table and the sweep's oracle."""

import math

import numpy as np
import pytest
from scipy import stats as sps

from flexheap_harness.compare import render_markdown, render_policy_rows, render_text
from flexheap_harness.stats import (BOOTSTRAP, NO_DIFFERENCE, PAIRED_T, aggregate, describe, interleave,
                                    metrics_of, paired_ratio_ci, ratio, ratio_ci, verdict)


def test_interleave_order():
    assert interleave(["A", "B", "C"], 2) == [(1, "A"), (1, "B"), (1, "C"), (2, "A"), (2, "B"), (2, "C")]
    assert interleave(["A"], 0) == []


def test_describe():
    assert describe([3, 1, 2]) == {"n": 3, "median": 2, "min": 1, "max": 3}
    assert describe([4, 1, 2, 3])["median"] == 2.5
    assert describe([None, 5])["n"] == 1
    assert describe([])["median"] is None


def test_ratio():
    assert ratio(5, 10) == 0.5
    assert ratio(None, 1) is None and ratio(1, 0) is None and ratio(1, None) is None


def run(policy, total, ok=True, qps=None, rep=1):
    return {"policy": policy, "ok": ok, "total_s": total, "gc_time_ms": total * 10, "rep": rep,
            "phases": [{"name": "q", "throughput_qps": qps or 100.0 / total}]}


def test_aggregate_medians_ratios_and_failures_excluded():
    runs = [run("g1-90", 10), run("flexheap", 5), run("g1-90", 12), run("flexheap", 7),
            run("g1-90", 11), run("flexheap", 1000, ok=False)]
    agg = aggregate(runs, "g1-90")
    t = agg["table"]
    assert t["g1-90"]["total_s"] == {"n": 3, "median": 11, "min": 10, "max": 12, "ratio": 1.0,
                                     "ratio_ci": None, "verdict": None}
    assert t["flexheap"]["total_s"]["median"] == 6  # the failed 1000 s run is not counted
    assert t["flexheap"]["total_s"]["ratio"] == pytest.approx(6 / 11)
    assert agg["failed_runs"] == {"g1-90": 0, "flexheap": 1}
    assert agg["ok_runs"] == {"g1-90": 3, "flexheap": 2}
    assert "qps:q" in agg["metrics"]
    text = render_text(agg)
    assert "x0.55" in text and "1 / 1".replace("1 / 1", "2 / 1") in text
    assert render_markdown(agg).startswith("| metric ")


def test_paired_ratio_ci_known_answers():
    # every repetition halves the time: the ratio is 0.5 and there is no spread
    r, ci = paired_ratio_ci([(10, 20), (11, 22), (12, 24)])
    assert r == pytest.approx(0.5) and ci == pytest.approx((0.5, 0.5))
    # by hand: mean log ratio +- t(0.975, n-1) * sd / sqrt(n)
    pairs = [(9.0, 10.0), (19.0, 20.0), (27.0, 30.0)]
    logs = [math.log(v / b) for v, b in pairs]
    mean, sd = float(np.mean(logs)), float(np.std(logs, ddof=1))
    half = sps.t.ppf(0.975, 2) * sd / math.sqrt(3)
    r, (lo, hi) = paired_ratio_ci(pairs)
    assert r == pytest.approx(math.exp(mean))
    assert (lo, hi) == pytest.approx((math.exp(mean - half), math.exp(mean + half)))
    assert paired_ratio_ci([(1, 2)]) is None and paired_ratio_ci([(1, 2), (0, 2)]) is None


def test_interleaved_runs_are_paired_by_repetition():
    # the machine drifts: rep 2 and rep 3 are 2x and 3x slower for both policies, and the
    # policy is 10% faster in each. Unpaired, the drift hides it; paired, it is "lower".
    runs = []
    for rep, scale in ((1, 1.0), (2, 2.0), (3, 3.0)):
        runs += [run("g1-50", 10 * scale, rep=rep), run("flexheap", 9 * scale * (1 + 0.01 * rep), rep=rep)]
    agg = aggregate(runs, "g1-50")
    d = agg["table"]["flexheap"]["total_s"]
    assert d["ci_method"] == PAIRED_T and d["verdict"] == "lower"
    assert d["ratio"] == pytest.approx(0.9 * (1.01 * 1.02 * 1.03) ** (1 / 3))
    assert d["ratio_ci"][1] < 1.0
    unpaired = ratio_ci([9.09, 18.36, 27.81], [10, 20, 30])
    assert verdict(unpaired) == NO_DIFFERENCE
    assert "paired by repetition" in render_policy_rows(agg) and "paired by repetition" in render_text(agg)


def test_runs_that_do_not_pair_fall_back_to_the_bootstrap():
    # flexheap's rep 3 failed: the two policies did not run in the same repetitions
    runs = [run("g1-50", 10, rep=1), run("flexheap", 9, rep=1), run("g1-50", 11, rep=2),
            run("flexheap", 10, rep=2), run("g1-50", 12, rep=3), run("flexheap", 99, ok=False, rep=3)]
    d = aggregate(runs, "g1-50")["table"]["flexheap"]["total_s"]
    assert d["ci_method"] == BOOTSTRAP and d["ratio"] == pytest.approx(9.5 / 11)
    assert "bootstrap" in render_text(aggregate(runs, "g1-50"))


def test_paired_interval_holds_its_confidence_at_three_repetitions():
    """Calibration: two identical policies, 3 interleaved repetitions with 5% noise per run and
    10% drift per repetition. A 95% interval must call them different about 5% of the time
    (a percentile bootstrap of 3 paired values does so ~22% of the time, unpaired ~2%:
    harness/benchmarks/ci_calibration.py)."""
    rng = np.random.default_rng(7)
    n_sim, wrong = 2000, 0
    for _ in range(n_sim):
        drift = np.exp(rng.normal(0.0, 0.10, 3))
        a = drift * np.exp(rng.normal(0.0, 0.05, 3))
        b = drift * np.exp(rng.normal(0.0, 0.05, 3))
        _r, ci = paired_ratio_ci(list(zip(a, b)))
        wrong += verdict(ci) != NO_DIFFERENCE
    assert 0.03 < wrong / n_sim < 0.07


def test_metrics_of_ignores_missing():
    m = metrics_of({"total_s": 3, "read_bytes": None, "phases": [{"name": "a"}]})
    assert m == {"total_s": 3.0}


def test_phase_latency_and_ingest_metrics():
    m = metrics_of({"phases": [
        {"name": "M500k", "throughput_qps": 10, "p99_ms": 40.0},
        {"name": "mixed", "throughput_qps": 5, "p99_ms": 30.0, "response_ms": {"p99_ms": 900.0}},
        {"name": "ingest", "docs_per_s": 1234.0},
    ]})
    assert list(m.items()) == [("qps:M500k", 10.0), ("qps:mixed", 5.0), ("docs:ingest", 1234.0),
                               ("p99svc:M500k", 40.0), ("p99rsp:mixed", 900.0)]
    from flexheap_harness.stats import metric_info
    assert metric_info("p99rsp:mixed") == ("p99 response mixed", "ms", False)
    assert metric_info("docs:ingest") == ("ingest ingest", "docs/s", True)


def test_group_phase_time_metric():
    # A phase with a duration and no throughput of its own (OpenSearch's ingest-search, which
    # ends when its documents are in) is compared by its wall time; a timed phase with a
    # throughput, or a zero or missing duration, adds no time row; a task of fixed work does,
    # from its work_s, beside its throughput.
    m = metrics_of({"phases": [
        {"name": "ingest-search", "start_t": 72.1, "end_t": 117.2, "duration_s": 45.069},
        {"name": "mixed-bulk", "throughput_qps": 2622.0},
        {"name": "M500k", "throughput_qps": 10, "duration_s": 4.0},
        {"name": "empty", "duration_s": 0.0},
        {"name": "unknown", "duration_s": None},
    ]})
    assert m == {"qps:mixed-bulk": 2622.0, "qps:M500k": 10.0, "time:ingest-search": 45.069}
    # A bulk task's own work time (opensearch-benchmark's task duration) joins its throughput.
    m = metrics_of({"phases": [{"name": "mixed-bulk", "throughput_qps": 4781.0, "work_s": 10.571},
                               {"name": "mixed-term", "throughput_qps": 0.75, "work_s": None}]})
    assert m == {"qps:mixed-bulk": 4781.0, "qps:mixed-term": 0.75, "time:mixed-bulk": 10.571}
    from flexheap_harness.stats import metric_info
    assert metric_info("time:ingest-search") == ("time ingest-search", "s", False)
