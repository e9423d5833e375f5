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

"""demo: refuses unenforced budgets before building anything, closes with a per-policy table
carrying the confidence interval, the plot files and the commands that reproduce it."""

from __future__ import annotations

from pathlib import Path

import pytest

from flexheap_harness import cli, demo
from flexheap_harness.compare import render_policy_rows
from flexheap_harness.stats import aggregate


def test_demo_refuses_unenforced_budget_before_building(monkeypatch, capsys):
    monkeypatch.setattr(demo, "_enforcement_problems", lambda args: ["budget cannot be enforced: not root"])
    monkeypatch.setattr(demo, "ensure_jdk", lambda *a: pytest.fail("must not build"))
    assert cli.main(["demo", "--out", "/nonexistent/x"]) == 2
    err = capsys.readouterr().err
    assert "refusing to measure: budget cannot be enforced: not root" in err and "--unbudgeted" in err


def test_demo_policy_rows_carry_the_ci():
    runs = [{"policy": p, "ok": True, "total_s": t, "rep": i // 3 + 1} for i, (p, t) in enumerate(
            [("g1-90", 10), ("flexheap", 5), ("vg1", 10.4), ("g1-90", 11), ("flexheap", 5.5), ("vg1", 10.8),
             ("g1-90", 12), ("flexheap", 6), ("vg1", 11.1)])]
    text = render_policy_rows(aggregate(runs, "g1-90"))
    lines = {ln.split()[0]: ln for ln in text.splitlines() if ln.split() and ln.split()[0] in ("g1-90", "flexheap", "vg1")}
    assert "x0.50" in lines["flexheap"] and "0.50-0.50" in lines["flexheap"] and "faster" in lines["flexheap"]
    assert "no difference" in lines["vg1"]
    assert "(base)" in lines["g1-90"]


def test_reproduce_commands():
    args = cli.build_parser().parse_args(["demo", "--budget", "0.5x", "--reps", "3", "--device", "sata",
                                          "--policies", "g1-90,flexheap", "--jvm-flags=-XX:+AlwaysPreTouch",
                                          "--read-ahead", "128k"])
    one = demo.reproduce_command(args, ["g1-90", "flexheap"])
    assert one.startswith("./flexheap demo --budget 0.5x --scale 0.1 --reps 3 --device sata "
                          "--policies g1-90,flexheap --baseline g1-90 --workload M1 --seed 42 --index-size-mb 2048")
    assert "--jvm-flags=-XX:+AlwaysPreTouch" in one and "--read-ahead 128k" in one
    assert cli.build_parser().parse_args(one.split()[1:]).read_ahead == 128 << 10  # a valid demo command
    full = demo.full_results_command(args, ["g1-90", "flexheap"], 1 << 30)
    assert "harness compare --policies g1-90,flexheap" in full and "--scale 1 " in full and "--reps 3" in full
    reparsed = cli.build_parser().parse_args(full.split()[2:])  # it is a valid command line
    assert reparsed.device == "sata" and reparsed.budget == "0.5x" and reparsed.read_ahead == 128 << 10
    keep = cli.build_parser().parse_args(["demo", "--read-ahead", "keep"])
    assert "--read-ahead keep" in demo.reproduce_command(keep, ["g1-90"])
    default = cli.build_parser().parse_args(["demo"])  # the default is every command's own: not repeated
    assert "--read-ahead" not in demo.reproduce_command(default, ["g1-90"])


def test_demo_ends_with_the_plots_and_the_full_results_command(tmp_path):
    args = cli.build_parser().parse_args(["demo", "--budget", "0.5x", "--policies", "g1-90,flexheap"])
    (tmp_path / "timeline.png").write_bytes(b"png")
    lines = demo.closing_lines(args, ["g1-90", "flexheap"], 1 << 30, tmp_path)
    assert lines[-3].strip() == f"plots:  {tmp_path / 'timeline.png'}"
    assert lines[-2].strip().startswith("the full results: ./flexheap harness report ")
    assert "./flexheap harness report --commands | bash" in lines[-1] and "--add SECTION RUN_DIR" in lines[-1]
    assert any("reproduce this table:" in ln and "./flexheap demo --budget 0.5x" in ln for ln in lines)


def test_the_phases_demo_takes_its_own_defaults_and_reruns_without_an_index():
    args = cli.build_parser().parse_args(["demo", "--workload", "phases", "--policies", "g1-50,flexheap",
                                          "--baseline", "g1-50"])
    one = demo.reproduce_command(args, ["g1-50", "flexheap"])
    assert one == ("./flexheap demo --budget 1g --scale 0.3 --reps 3 --device nvme --policies g1-50,flexheap "
                   "--baseline g1-50 --workload phases --seed 42")
    full = demo.full_results_command(args, ["g1-50", "flexheap"], 768 << 20)
    harness_part, program = full.split(" -- ")
    assert harness_part.startswith("./flexheap harness sweep --fractions 0.5,0.7,0.9 --also g1-50,flexheap --reps 3")
    reparsed = cli.build_parser().parse_args(harness_part.split()[2:])  # a valid command line
    assert reparsed.budget == "1g" and reparsed.workload == "phases"
    assert f"--data-file {demo.PHASES_FILE} --file-size 768m --live-size 400m --scale 0.3" in program
    assert program.endswith("--out {workload_json}")


def test_the_m1_demo_keeps_its_defaults():
    args = cli.build_parser().parse_args(["demo"])
    demo.apply_workload_defaults(args)
    assert (args.budget, args.scale) == ("0.6x", 0.1)
    assert demo.data_path(args) == demo.DEFAULT_INDEX


def test_the_phases_demo_refuses_a_budget_relative_to_an_index(monkeypatch, capsys):
    monkeypatch.setattr(demo, "_enforcement_problems", lambda args: [])
    monkeypatch.setattr(demo, "ensure_jdk", lambda *a: pytest.fail("must not build"))
    assert cli.main(["demo", "--workload", "phases", "--budget", "0.6x", "--out", "/nonexistent/x"]) == 2
    assert "--workload phases reads no index; give a size such as 1g" in capsys.readouterr().err
