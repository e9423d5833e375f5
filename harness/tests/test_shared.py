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

"""Two JVMs in one budget (shared.py): the reversal count, the summed heap, and a real pair
of JVMs in one memory cgroup."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flexheap_harness.shared import REVERSAL_MIN_MOVE, combined, reversals

M = REVERSAL_MIN_MOVE


def test_a_heap_that_only_grows_or_only_shrinks_never_reverses():
    assert reversals([]) == 0
    assert reversals([1 * M, 2 * M, 3 * M, 10 * M]) == 0
    assert reversals([10 * M, 4 * M, 1 * M]) == 0


def test_each_turn_beyond_the_minimum_move_is_one_reversal():
    assert reversals([1 * M, 5 * M, 2 * M]) == 1
    assert reversals([1 * M, 5 * M, 2 * M, 6 * M, 1 * M]) == 3


def test_jitter_below_the_minimum_move_is_no_reversal():
    small = M // 4
    series = [4 * M + (small if i % 2 else 0) for i in range(40)]
    assert reversals(series) == 0
    # ... but the same jitter on a real turn leaves the turn counted once
    assert reversals(series + [8 * M, 8 * M - small, 8 * M, 2 * M]) == 1


def test_combined_adds_the_latest_sample_of_the_other_jvm():
    a = [{"t": 0.0, "h": 10}, {"t": 1.0, "h": 20}, {"t": 2.0, "h": 30}, {"t": 3.0, "h": None}]
    b = [{"t": 0.5, "h": 1}, {"t": 2.0, "h": 2}]
    # b counts 0 before its first sample and keeps its last; a sample without a value counts 0
    assert combined(a, b, "h") == [10.0, 21.0, 32.0, 2.0]


@pytest.mark.integration
def test_two_jvms_share_one_cgroup_and_the_pair_waits_for_both(tmp_path):
    from test_integration import BUDGET, DATA, MB, _compile, skip_reason
    if skip_reason:
        pytest.skip(skip_reason)
    from flexheap_harness.devices import parse_profile
    from flexheap_harness.jdk import find_jdk
    from flexheap_harness.policies import parse_policy
    from flexheap_harness.runner import RunConfig, run_once
    jdk = find_jdk()[0]
    classes = tmp_path / "classes"
    _compile(jdk, DATA / "PhasedReader.java", classes)
    run_dir = tmp_path / "run"
    reader = ["-cp", str(classes), "PhasedReader"]
    # each heap bounded to a quarter of the budget: two g1-50 heaps (half the budget each) fill it
    # with the JVMs' own memory on top, and the cgroup then thrashes on their code pages
    cfg = RunConfig(
        policy=parse_policy("static:150m"), budget=2 * BUDGET, device=parse_profile("host"), jdk=jdk,
        program=[*reader, str(tmp_path / "a.bin"), "120", "2", "0.5"],
        partner=[*reader, str(tmp_path / "b.bin"), "60", "1", "0.5"],
        data_dir=tmp_path, run_dir=run_dir, sample_interval_s=0.2, timeout_s=120,
    )
    s = run_once(cfg, log=lambda _m: None)
    assert s["ok"], s.get("error")
    members = s["members"]
    assert set(members) == {"a", "b"} and all(m["ok"] and m["config_ok"] for m in members.values())
    # the pair lasts until its longer JVM has ended; each JVM's own time is a phase
    assert s["total_s"] == max(m["total_s"] for m in members.values())
    times = {p["name"]: p["duration_s"] for p in s["phases"] if p["name"] in ("a", "b")}
    assert times == {k: m["total_s"] for k, m in members.items()}
    # one cgroup, both JVMs in it: the page cache of both readers stayed under the one budget
    argv = json.loads((run_dir / "config.json").read_text())["argv"]
    assert argv["a"][-4] == str(tmp_path / "a.bin") and argv["b"][-4] == str(tmp_path / "b.bin")
    assert 20 * MB < s["peak_page_cache"] <= 2 * BUDGET
    # both heaps are counted together, and each alone is below the pair's
    assert s["peak_heap_committed"] >= max(m["peak_heap_committed"] for m in members.values())
    for name in ("a", "b"):
        d = run_dir / name
        assert (d / "gc.log").exists() and json.loads((d / "summary.json").read_text())["ok"]
    assert s["cgroup_removed"] is True


def test_members_table_has_a_row_per_policy_and_jvm():
    from flexheap_harness.shared import members_markdown
    member = {"total_s": 10.0, "mean_heap_committed": 100 * 2**20, "peak_heap_committed": 200 * 2**20,
              "reversals": 2, "gc_pause_ms": 50}
    runs = [{"policy": "flexheap", "ok": True, "members": {"a": member, "b": {**member, "reversals": 4}}},
            {"policy": "flexheap", "ok": False, "members": {"a": {**member, "reversals": 99}}},
            {"policy": "g1-50", "ok": True}]
    text = members_markdown(runs)
    assert "| flexheap | a | 10.0 | 100M | 200M | 2, 2 | 50 |" in text
    assert "| flexheap | b | 10.0 | 100M | 200M | 4, 4 | 50 |" in text
    assert "99" not in text and "g1-50" not in text
    assert members_markdown([{"policy": "g1-50", "ok": True}]) == ""
