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

"""A run proves its configuration from the JVM's start-up lines (runconfig), and the runner fails it otherwise."""

import json
import shutil
from pathlib import Path

import pytest

from flexheap_harness import runconfig, runner
from flexheap_harness.policies import jvm_flags, parse_policy

DATA = Path(__file__).parent / "data" / "startup"
GIB = 1 << 30
RELEASE_25 = {"JAVA_RUNTIME_VERSION": "25.0.3+9-LTS", "JAVA_VERSION": "25.0.3"}


def seen(name):
    return runconfig.parse_startup((DATA / name).read_text().splitlines(True))


def expect(policy, budget=2 * GIB, extra=(), release=RELEASE_25):
    p = parse_policy(policy)
    return runconfig.expected_config(p, jvm_flags(p, budget, "/r/gc.log", list(extra), True), release)


def problems(policy, log, **kw):
    return runconfig.check(expect(policy, **kw), seen(log))


# ---------------------------------------------------------------- what the JVM said


def test_parse_startup_reads_the_init_and_flexheap_lines():
    s = seen("flexheap-balance-bpf.log")
    assert s == runconfig.Seen(collector="G1", version="25.0.3+9-LTS", build="release", region_size=1 << 20,
                               min_heap=8 << 20, initial_heap=32 << 20, max_heap=1843 << 20,
                               flexheap_policy="balance", stall_source="bpf", flexheap_off=None)
    assert seen("flexheap-paper-bpf.log").flexheap_policy == "paper"
    assert seen("g1-25.log").flexheap_policy is None and seen("g1-25.log").stall_source is None
    none = seen("flexheap-balance-no-stall-source.log")
    assert (none.stall_source, none.flexheap_policy, none.flexheap_off) == ("none", "balance", None)
    off = seen("flexheap-paper-no-stall-source.log")
    assert off.flexheap_policy is None and off.stall_source == "none" and "FlexHeap is off" in off.flexheap_off


def test_parse_startup_reads_the_committed_gc_log_fixture():
    s = runconfig.parse_startup((Path(__file__).parent / "data" / "gc-g1.log").read_text().splitlines(True))
    assert (s.collector, s.version, s.max_heap, s.initial_heap, s.min_heap) == (
        "G1", "25.0.3+9-LTS", 128 << 20, 128 << 20, 8 << 20)


def test_parse_startup_stops_at_the_first_gc():
    lines = (DATA / "g1-25.log").read_text().splitlines(True)
    late = "[9.000s][info][gc,flexheap] Policy paper; page cache (S_io) from x; max heap 1M, min heap 1M\n"
    assert runconfig.parse_startup(lines + [late]).flexheap_policy is None


@pytest.mark.parametrize("text,size", [("1843m", 1843 << 20), ("2G", 2 * GIB), ("512k", 512 << 10),
                                       ("1073741824", GIB), ("1048576B", 1 << 20), ("1x", None), ("", None)])
def test_jvm_size(text, size):
    assert runconfig.jvm_size(text) == size


# ---------------------------------------------------------------- what the flags ask for


def test_expected_config_follows_the_flags_last_one_winning():
    e = expect("flexheap-paper")
    assert (e.collector, e.flexheap, e.flexheap_policy, e.stall_backend) == ("G1", True, "paper", None)
    assert (e.max_heap, e.min_heap, e.initial_heap, e.jdk_feature, e.jdk_version) == (
        1843 << 20, None, None, 25, "25.0.3+9-LTS")
    assert expect("flexheap").flexheap_policy == "balance"
    assert not expect("g1-90").flexheap and expect("g1-90").flexheap_policy is None
    off = expect("flexheap", extra=["-XX:-UseFlexHeap", "-Xmx1g", "-Xms512m"])
    assert (off.flexheap, off.max_heap, off.min_heap, off.initial_heap) == (False, GIB, 512 << 20, 512 << 20)
    assert expect("flexheap:FlexHeapIOStallBackend=psi").stall_backend == "psi"
    assert expect("flexheap:FlexHeapIOStallBackend=auto").stall_backend is None
    assert expect("flexheap", extra=["-XX:FlexHeapIOStallBackend=none"]).stall_backend == "none"
    assert expect("g1-26", release={}).jdk_feature == 26 and expect("g1-26", release={}).jdk_version is None
    v = expect("vendor-50")
    assert (v.max_heap, v.min_heap, v.initial_heap) == (GIB, GIB, GIB)


# ---------------------------------------------------------------- runs that ran as meant


@pytest.mark.parametrize("policy,log,extra", [
    ("flexheap", "flexheap-balance-bpf.log", ()),
    ("flexheap@a", "flexheap-balance-bpf.log", ()),
    ("flexheap:FlexHeapIOStallBackend=bpf", "flexheap-balance-bpf.log", ()),
    ("flexheap", "flexheap-balance-no-stall-source.log", ("-XX:FlexHeapIOStallBackend=none",)),
    ("flexheap-paper", "flexheap-paper-bpf.log", ()),
    ("g1-90", "g1-25.log", ()),
    ("vg1", "g1-25.log", ()),
])
def test_a_run_that_ran_as_meant_passes(policy, log, extra):
    assert problems(policy, log, extra=extra) == []


def test_vendor_50_and_fixed_pass_with_min_initial_and_max_at_the_size():
    assert problems("vendor-50", "g1-25-fixed-1024m.log") == []
    assert problems("fixed:1g", "g1-25-fixed-1024m.log") == []


def test_g1_26_passes_on_jdk_26_with_the_max_heap_rounded_up_to_its_region():
    # -Xmx1843m on 2 MB regions: HotSpot aligns the heap up to 1844M.
    assert problems("g1-26", "g1-26-region-2m.log", release={"JAVA_RUNTIME_VERSION": "26.0.1+8"}) == []


# ---------------------------------------------------------------- runs that did not


def test_flexheap_paper_that_ran_the_balance_controller_fails():
    # The bug of issue 62: every flexheap-paper run logged 'Policy balance'.
    found = problems("flexheap-paper", "flexheap-balance-bpf.log")
    assert len(found) == 1
    assert "FlexHeap policy: expected paper (-XX:FlexHeapPolicy=paper)" in found[0]
    assert "the JVM logged 'Policy balance'" in found[0]


def test_the_balance_default_that_ran_the_paper_controller_fails():
    found = problems("flexheap", "flexheap-paper-bpf.log")
    assert len(found) == 1 and "expected balance" in found[0] and "'Policy paper'" in found[0]


def test_a_wrong_max_heap_fails():
    found = problems("flexheap", "flexheap-balance-bpf.log", budget=GIB)  # -Xmx921m, the log says 1843M
    assert found == ["max heap: expected 921M (-Xmx, up to the 2M heap alignment), "
                     "the JVM logged Heap Max Capacity 1843M"]
    assert problems("g1-90", "g1-25.log", extra=["-Xmx1842m"])  # another -Xmx given last wins


def test_a_max_heap_rounded_up_to_the_card_tables_alignment_passes():
    # -Xmx921m with 1M regions: G1 aligns the heap to 2M (the card table's), and logs 922M.
    from flexheap_harness.runconfig import _heap_matches, heap_alignment
    assert heap_alignment(1 << 20) == 2 << 20 and heap_alignment(4 << 20) == 4 << 20
    assert _heap_matches(921 << 20, 922 << 20, 1 << 20)
    assert not _heap_matches(921 << 20, 924 << 20, 1 << 20)
    assert not _heap_matches(921 << 20, 920 << 20, 1 << 20)


def test_a_max_heap_beyond_the_region_rounding_fails():
    assert problems("g1-26", "g1-26-region-2m.log", budget=2 * GIB - (4 << 20), release={})  # -Xmx1839m vs 1844M


def test_a_stock_run_that_shows_flexheap_on_fails():
    found = problems("g1-90", "flexheap-balance-bpf.log")
    assert found == ["FlexHeap: expected off (no -XX:+UseFlexHeap), the JVM logged 'Policy balance' (FlexHeap on)"]


def test_a_flexheap_run_without_flexheap_fails_and_says_why():
    assert problems("flexheap", "g1-25.log") == [
        "FlexHeap: expected on (-XX:+UseFlexHeap), the JVM logged no FlexHeap 'Policy ...' line"]
    paper = problems("flexheap-paper", "flexheap-paper-no-stall-source.log")
    assert len(paper) == 1 and "it said: No I/O stall source" in paper[0] and "FlexHeap is off" in paper[0]
    fixed = problems("flexheap", "flexheap-fixed-heap-off.log", extra=["-Xms1843m"])
    assert any("the minimum heap equals the maximum heap" in p for p in fixed)


def test_a_stall_backend_mismatch_fails():
    found = problems("flexheap:FlexHeapIOStallBackend=psi", "flexheap-balance-bpf.log")
    assert found == ["I/O stall backend: expected psi (-XX:FlexHeapIOStallBackend=psi), "
                     "the JVM logged 'I/O stall source: bpf'"]
    none = problems("flexheap", "flexheap-balance-bpf.log", extra=["-XX:FlexHeapIOStallBackend=none"])
    assert len(none) == 1 and "expected none" in none[0]
    forced = problems("flexheap:FlexHeapIOStallBackend=bpf", "flexheap-balance-no-stall-source.log")
    assert forced == ["I/O stall backend: expected bpf (-XX:FlexHeapIOStallBackend=bpf), "
                      "the JVM logged 'No I/O stall source'"]


def test_a_fixed_heap_that_was_not_held_fails():
    found = problems("vendor-50", "g1-25.log")
    assert {p.split(":")[0] for p in found} == {"max heap", "min heap", "initial heap"}
    assert any("expected 1024M (-Xms" in p and "Heap Min Capacity 8M" in p for p in found)


def test_the_wrong_jdk_fails():
    on_25 = problems("g1-26", "g1-25.log", release={})
    assert on_25 == ["JDK: policy g1-26 runs on JDK 26, the JVM logged Version: 25.0.3+9-LTS"]
    on_26 = problems("g1-90", "g1-26-region-2m.log", budget=2 * GIB, release={})
    assert any(p.startswith("JDK: policy g1-90 runs on JDK 25") for p in on_26)
    other_build = problems("g1-90", "g1-25.log", release={"JAVA_RUNTIME_VERSION": "25.0.2+10-LTS"})
    assert other_build == ["JDK build: expected 25.0.2+10-LTS (the JDK's release file), "
                           "the JVM logged Version: 25.0.3+9-LTS"]


def test_a_log_without_start_up_lines_fails():
    found = runconfig.check(expect("g1-90"), runconfig.parse_startup([]))
    assert len(found) == 1 and "none of the JVM's start-up lines" in found[0]


# ---------------------------------------------------------------- the runner fails such a run


def _run_dir(tmp_path, log):
    rd = tmp_path / "run"
    rd.mkdir()
    shutil.copy(DATA / log, rd / "gc.log")
    return rd


def test_close_summary_fails_a_run_whose_jvm_ran_another_configuration(tmp_path):
    rd = _run_dir(tmp_path, "flexheap-balance-bpf.log")
    said = []
    summary = runner.close_summary({"label": "flexheap-paper rep 1", "ok": False, "error": None}, None, rd,
                                   [rd / "gc.log"], said.append, expect("flexheap-paper"))
    assert summary["ok"] is False and summary["config_ok"] is False
    assert summary["error"].startswith("the JVM did not run the configuration its policy means: FlexHeap policy: "
                                       "expected paper")
    assert summary["jvm_config"]["flexheap_policy"] == "balance"
    assert summary["config_expected"]["flexheap_policy"] == "paper"
    assert "gc.log" in summary["log_tail"]
    assert any("FAILED" in line for line in said)
    assert json.loads((rd / "summary.json").read_text())["config_ok"] is False


def test_close_summary_keeps_a_run_that_ran_as_meant_and_records_what_it_saw(tmp_path):
    rd = _run_dir(tmp_path, "flexheap-paper-bpf.log")
    summary = runner.close_summary({"label": "x", "ok": False, "error": None}, None, rd, [], lambda _m: None,
                                   expect("flexheap-paper"))
    assert summary["ok"] is True and summary["config_ok"] is True and "error" in summary
    assert summary["error"] is None and "config_errors" not in summary
    assert summary["jvm_config"]["version"] == "25.0.3+9-LTS"
    assert json.loads((rd / "summary.json").read_text())["jvm_config"]["stall_source"] == "bpf"


def test_close_summary_keeps_the_first_error_of_a_crashed_run(tmp_path):
    rd = tmp_path / "run"
    rd.mkdir()
    (rd / "gc.log").write_text("")
    summary = runner.close_summary({"label": "x", "ok": False, "error": None}, "JVM exited with 1", rd, [],
                                   lambda _m: None, expect("g1-90"))
    assert summary["error"] == "JVM exited with 1" and summary["config_ok"] is False
    assert "none of the JVM's start-up lines" in summary["config_errors"][0]


def test_read_startup_finds_the_start_up_lines_in_a_rotated_log(tmp_path):
    shutil.copy(DATA / "flexheap-paper-bpf.log", tmp_path / "gc.log.0")
    (tmp_path / "gc.log").write_text("[99.0s][info][gc] GC(9000) Pause Young (Normal) 4M->3M(30M) 1.0ms\n")
    assert runconfig.read_startup(tmp_path).flexheap_policy == "paper"
    assert runconfig.read_startup(tmp_path / "missing") == runconfig.Seen()


def test_recheck_turns_a_run_failed_only_by_a_wrong_check_into_an_ok_run(tmp_path):
    import json
    from dataclasses import asdict
    from flexheap_harness import runconfig
    rd = tmp_path / "r1-g1-90"
    rd.mkdir()
    (rd / "gc.log").write_text((DATA / "g1-25.log").read_text())
    seen = runconfig.read_startup(rd)
    expected = runconfig.Expected("g1-90", "G1", False, None, None, seen.max_heap, None, None, 25, None)
    wrong = ["max heap: a check that compared to the region size only"]
    (rd / "summary.json").write_text(json.dumps({"label": "g1-90", "config_expected": asdict(expected),
                                                 "config_ok": False, "config_errors": wrong,
                                                 "error": runconfig.error_message(wrong), "total_s": 50.0}))
    summary, problems = runconfig.recheck_run(rd)
    assert problems == [] and summary["ok"] is True and summary["config_ok"] is True and "error" not in summary
    # A run that differs stays failed, and so does one with another error.
    bad = runconfig.Expected("g1-90", "G1", True, "balance", None, seen.max_heap, None, None, 25, None)
    (rd / "summary.json").write_text(json.dumps({"label": "g1-90", "config_expected": asdict(bad),
                                                 "error": "exit 137", "total_s": 50.0}))
    summary, problems = runconfig.recheck_run(rd)
    assert problems and summary["config_ok"] is False and summary["error"] == "exit 137" and "ok" not in summary
