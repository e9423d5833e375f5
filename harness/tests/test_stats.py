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

import pytest

from flexheap_harness.compare import render_markdown, render_text
from flexheap_harness.stats import aggregate, describe, interleave, metrics_of, ratio


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
