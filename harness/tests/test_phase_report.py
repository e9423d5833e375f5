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

"""Per-phase figures of a run, on a synthetic run folder whose answers are known."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from flexheap_harness import cli, phase_report

MIB = 2 ** 20


def write_run(folder: Path, policy: str, a_s: float = 10.0, heap_a: float = 100, heap_b: float = 300) -> Path:
    """Phase A for a_s seconds from t = 2, then phase B for 10 s, as the runner places them in
    summary.json; samples every second with the heap (MiB) of the phase they fall in; pauses at
    known times, one after the run."""
    folder.mkdir(parents=True)
    b0, b1 = 2 + a_s, 2 + a_s + 10
    phases = [{"name": "A", "duration_s": a_s, "read_bytes": 5 * MIB, "start_t": 2.0, "end_t": b0},
              {"name": "B", "duration_s": 10.0, "read_bytes": 50 * MIB, "start_t": b0, "end_t": b1}]
    (folder / "summary.json").write_text(json.dumps({"policy": policy, "phases": phases}))
    with open(folder / "samples.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["t", "epoch", "heap_committed", "page_cache"])
        w.writerow([0.0, "", "", 10 * MIB])              # before the JVM's first sample: no heap
        for t in range(1, int(b1) + 3):
            in_a = 2 <= t <= b0 - 1
            in_b = b0 + 1 <= t <= b1
            heap = heap_a if in_a else heap_b if in_b else 999
            cache = 500 if in_a else 200 if in_b else 999
            if t == b0:                                    # a sample on the boundary counts in both
                heap, cache = heap_a, 500
            w.writerow([float(t), "", heap * MIB, cache * MIB])
    with open(folder / "gc_pauses.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["t", "gc_id", "kind", "before", "after", "committed", "ms"])
        w.writerow([1.0, 0, "Young (Normal) (G1 Evacuation Pause)", 0, 0, 0, 50])   # before A
        w.writerow([3.0, 1, "Young (Concurrent Start) (G1 Evacuation Pause)", 0, 0, 0, 10])
        w.writerow([3.5, 2, "Remark", 0, 0, 0, 5])
        w.writerow([3.6, 3, "Cleanup", 0, 0, 0, 1])
        w.writerow([b0 + 2, 4, "Young (Normal) (G1 Evacuation Pause)", 0, 0, 0, 20])
        w.writerow([b1 + 1, 5, "Remark", 0, 0, 0, 7])                              # after B
    return folder


def test_phase_stats_counts_what_fell_inside_each_phase(tmp_path):
    run = write_run(tmp_path / "r1-flexheap", "flexheap")
    a, b = phase_report.phase_stats(run)
    assert (a.phase, a.policy, a.run) == ("A", "flexheap", "r1-flexheap")
    assert a.duration_s == 10.0 and a.read_bytes == 5 * MIB
    # Samples t = 2..12 are in A; 12 (on the boundary, with A's heap) to 22 in B.
    assert a.heap_mean == pytest.approx(100 * MIB)
    assert a.cache_mean == pytest.approx(500 * MIB)
    assert b.heap_mean == pytest.approx((100 + 10 * 300) / 11 * MIB)
    assert (a.pauses, a.remarks) == (3, 1)
    assert a.pause_s == pytest.approx(0.016)
    assert (b.pauses, b.remarks, b.pause_s) == (1, 0, pytest.approx(0.020))


def test_aggregate_gives_medians_with_the_spread_per_policy_and_phase(tmp_path):
    runs = [write_run(tmp_path / f"r{i}-g1-50", "g1-50", a_s=a, heap_a=h)
            for i, (a, h) in enumerate([(10.0, 100), (12.0, 140), (20.0, 120)], 1)]
    runs.append(write_run(tmp_path / "r1-flexheap", "flexheap", a_s=8.0, heap_a=60))
    stats = [s for r in runs for s in phase_report.phase_stats(r)]
    rows = {(r[0], r[1]): r for r in phase_report.aggregate(stats)}
    assert set(rows) == {("g1-50", "A"), ("g1-50", "B"), ("flexheap", "A"), ("flexheap", "B")}
    g_a = rows[("g1-50", "A")]
    assert g_a[2] == 3
    assert g_a[3] == "12.0 [10.0..20.0]"     # duration
    assert g_a[5] == "120 [100..140]"        # mean heap, MiB
    assert rows[("flexheap", "A")][3] == "8.0"  # one run: no spread


def test_run_folders_skip_warmups_and_report_filters_policies(tmp_path):
    cmp = tmp_path / "cmp"
    write_run(cmp / "runs" / "warmup1-g1-90", "g1-90")
    write_run(cmp / "runs" / "r1-g1-50", "g1-50")
    write_run(cmp / "runs" / "r1-flexheap", "flexheap")
    (cmp / "runs" / "r2-flexheap").mkdir()  # a run that failed before writing anything
    runs = phase_report.run_folders([cmp])
    assert [r.name for r in runs] == ["r1-flexheap", "r1-g1-50"]
    table, counted = phase_report.report(runs, "flexheap")
    assert counted == 1 and "flexheap" in table and "g1-50" not in table
    table, counted = phase_report.report(runs, per_run=True)
    assert counted == 2 and "r1-g1-50" in table


def test_phases_the_runner_could_not_place_are_left_out_and_repeated_names_numbered(tmp_path):
    """A service's sub-phases have no start_t/end_t; a mix that runs a phase twice gets 'A#2'."""
    run = write_run(tmp_path / "r1-flexheap", "flexheap")
    summary = json.loads((run / "summary.json").read_text())
    summary["phases"].insert(1, {"name": "A-sub", "start_t": None, "end_t": None})
    summary["phases"][2]["name"] = "A"
    (run / "summary.json").write_text(json.dumps(summary))
    assert [s.phase for s in phase_report.phase_stats(run)] == ["A", "A#2"]


def test_cli_exit_codes(tmp_path, capsys):
    write_run(tmp_path / "cmp" / "runs" / "r1-flexheap", "flexheap")
    assert cli.main(["phases", str(tmp_path / "cmp")]) == 0
    out = capsys.readouterr().out
    assert "flexheap" in out and "marking cycles" in out
    assert cli.main(["phases", str(tmp_path / "cmp"), "--policy", "vg1"]) == 2
    # a substring, not a policy name: no "unknown policy" refusal
    assert cli.main(["phases", str(tmp_path / "cmp"), "--policy", "flex"]) == 0
    (tmp_path / "empty").mkdir()
    assert cli.main(["phases", str(tmp_path / "empty")]) == 2


def test_service_phases_read_from_the_cgroup_counter(tmp_path):
    """OpenSearch and Spark phases have no read count: the bytes come from the cumulative cgroup
    counter of the samples around the phase."""
    run = tmp_path / "r1-flexheap"
    run.mkdir()
    (run / "summary.json").write_text(json.dumps({"phases": [
        {"name": "ingest", "start_t": 2.5, "end_t": 6.0, "duration_s": 3.5},
        {"name": "search", "start_t": 6.0, "end_t": 9.0}]}))
    with open(run / "samples.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["t", "epoch", "heap_committed", "page_cache", "cg_read_bytes", "dev_read_bytes"])
        for t in range(11):  # 10 MiB a second up to t = 6, then 1 MiB a second
            read = 10 * min(t, 6) + max(t - 6, 0)
            w.writerow([float(t), "", 200 * MIB, 300 * MIB, read * MIB, 999 * MIB])
    ingest, search = phase_report.phase_stats(run)
    assert ingest.read_bytes == 40 * MIB   # samples t = 2 (20 MiB) .. t = 6 (60 MiB)
    assert search.read_bytes == 3 * MIB    # t = 6 (60) .. t = 9 (63)
    assert search.duration_s == 3.0        # no duration_s: end_t - start_t
    assert ingest.heap_mean == pytest.approx(200 * MIB)
    assert ingest.policy == "r1-flexheap"   # no policy in summary.json: the folder's name
