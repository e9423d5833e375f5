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

"""Measurement integrity: every validation rule (bad input -> its message, exit 2), the
refusal of unenforced budgets unless --unbudgeted, the JVM floor, and the bootstrap."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from flexheap_harness import cli
from flexheap_harness.cgroups import CgroupSupport, IoLimit, RunCgroup
from flexheap_harness.compare import render_markdown, render_text
from flexheap_harness.devices import PROFILES, parse_profile
from flexheap_harness.integrity import (NotEnforced, UsageError, check_budget_above_floor, enforcement_problems,
                                        jvm_floor, measure_floor)
from flexheap_harness.jdk import Jdk, find_jdk
from flexheap_harness.policies import parse_policy
from flexheap_harness.runner import RunConfig, run_once
from flexheap_harness.sizes import SizeError, parse_budget, parse_size
from flexheap_harness.stats import NO_DIFFERENCE, aggregate, ratio_ci, verdict

MIB = 1 << 20


# ---------------------------------------------------------------- one size convention


@pytest.mark.parametrize("text,expected", [
    ("768m", 768 * MIB), ("1.5g", 1536 * MIB), ("512MiB", 512 * MIB), ("64k", 64 << 10), ("2G", 2 << 30),
])
def test_sizes_are_binary(text, expected):
    assert parse_size(text) == expected


@pytest.mark.parametrize("bad,message", [
    ("300", "has no unit"), ("0.5", "has no unit"), (".5", "has no unit"),
    ("600MB", "decimal unit"), ("1gb", "decimal unit"),
    ("0m", "must be positive"), ("abc", "is not a size"), ("5 q", "is not a size"),
])
def test_bad_sizes_say_why(bad, message):
    with pytest.raises(SizeError, match=message):
        parse_size(bad)


def test_budget_multiple_of_index():
    assert parse_budget("0.6x", 1000 * MIB) == 600 * MIB
    with pytest.raises(SizeError, match="no index size"):
        parse_budget("0.6x", None)


def test_device_rates_use_the_same_convention():
    assert PROFILES["nvme"].read_bps == 600 * MIB and PROFILES["sata"].read_bps == 100 * MIB
    p = parse_profile("custom:read=600m,write=300m,riops=40000,wiops=20000")
    assert (p.read_bps, p.write_bps, p.read_iops, p.write_iops) == (600 * MIB, 300 * MIB, 40000, 20000)


@pytest.mark.parametrize("argv,message", [
    (["run", "--budget", "300"], "budget '300' has no unit"),
    (["run", "--budget", "0.5"], "budget '0.5' has no unit"),
    (["run", "--budget", "600MB"], "decimal unit"),
    (["run", "--budget", "0x"], "positive multiple of the index"),
    (["run", "--device", "custom:read=600"], "device rate read= '600' has no unit"),
    (["run", "--device", "custom:read=600MB"], "decimal unit"),
    (["run", "--device", "custom:riops=1.5"], "whole number"),
    (["run", "--device", "custom:speed=1m"], "bad custom device field"),
    (["run", "--device", "floppy"], "unknown device profile"),
    (["run", "--policy", "static:300"], "size '300' has no unit"),
    (["compare", "--policies", "g1-90,static:0.5"], "size '0.5' has no unit"),
    (["compare", "--policies", "g1-90,zgc"], "unknown policy"),
    (["sweep", "--sizes", "256,1g"], "size '256' has no unit"),
    (["sweep", "--fractions", "30"], r"must be in \(0, 1\]"),
    (["sweep", "--fractions", "0.5m"], "not a number"),
    (["sweep", "--also", "g1-90,static:12"], "has no unit"),
])
def test_cli_rejects_bad_input_with_exit_2(argv, message, capsys):
    with pytest.raises(SystemExit) as e:  # argparse: the type check runs at parse time
        cli.main(argv + ["--", "-version"])
    assert e.value.code == 2
    assert re.search(message, capsys.readouterr().err)


def test_compare_baseline_must_be_compared(capsys):
    rc = cli.main(["compare", "--policies", "g1-90,g1-50", "--baseline", "vg1", "--budget", "1g",
                   "--", "-version"])
    assert rc == 2
    assert "baseline vg1 is not one of the compared policies (g1-90, g1-50)" in capsys.readouterr().err


# ---------------------------------------------------------------- a fake JDK and an unenforceable machine


@pytest.fixture
def fake_jdk(tmp_path) -> Path:
    """A 'JDK' whose java exits 0 at once: enough for the harness's run machinery. It writes the
    start-up lines a stock G1 JVM 25 puts in its GC log (-Xlog:...:file=F), with the -Xmx it got, so
    that the run shows the configuration of a stock G1 policy (runconfig)."""
    home = tmp_path / "jdk"
    (home / "bin").mkdir(parents=True)
    java = home / "bin" / "java"
    java.write_text("#!/bin/sh\n"
                    "log=; xmx=\n"
                    "for a in \"$@\"; do case \"$a\" in\n"
                    "  -Xmx*) xmx=$(echo \"${a#-Xmx}\" | tr a-z A-Z) ;;\n"
                    "  -Xlog:*file=*) log=${a#*file=}; log=${log%%:*} ;;\n"
                    "esac; done\n"
                    "[ -z \"$log\" ] || printf '%s\\n' '[0.001s][info][gc     ] Using G1' \\\n"
                    "  '[0.002s][info][gc,init] Version: 25.0.3+9-LTS (release)' \\\n"
                    "  '[0.002s][info][gc,init] Heap Region Size: 1M' \\\n"
                    "  \"[0.002s][info][gc,init] Heap Max Capacity: $xmx\" > \"$log\"\n"
                    "exit 0\n")
    java.chmod(0o755)
    return home


NOT_ROOT = CgroupSupport(problems=["not root: cannot create cgroups"])


def test_enforcement_problems():
    ok = CgroupSupport(memory="v1", io="v1")
    assert enforcement_problems(ok, MIB * 500, PROFILES["nvme"], "8:0", "/d") == []
    assert "no --budget" in enforcement_problems(ok, None, PROFILES["host"], "8:0", "/d")[0]
    p = enforcement_problems(NOT_ROOT, 500 * MIB, PROFILES["sata"], "8:0", "/d")
    assert len(p) == 2 and "budget 500.0M cannot be enforced: not root" in p[0] and "sata" in p[1]
    p = enforcement_problems(ok, 500 * MIB, PROFILES["sata"], None, "/tmpfs")
    assert p == ["device profile sata cannot be applied: no block device holds /tmpfs (tmpfs or network file system?)"]


def test_cli_refuses_unenforced_budget(monkeypatch, fake_jdk, tmp_path, capsys):
    monkeypatch.setattr(cli, "detect", lambda _parent=None: NOT_ROOT)
    argv = ["run", "--policy", "g1-50", "--budget", "1g", "--jdk", str(fake_jdk), "--out", str(tmp_path / "r")]
    assert cli.main(argv + ["--", "-version"]) == 2
    err = capsys.readouterr().err
    assert "refusing to measure: budget 1.0G cannot be enforced: not root" in err and "--unbudgeted" in err
    assert not (tmp_path / "r").exists()  # nothing ran


def test_run_once_refuses_then_marks_unbudgeted(fake_jdk, tmp_path):
    def cfg(unbudgeted: bool, name: str) -> RunConfig:
        return RunConfig(policy=parse_policy("g1-50"), budget=512 * MIB, device=parse_profile("host"),
                         jdk=Jdk(fake_jdk, False), program=["-version"], data_dir=tmp_path,
                         run_dir=tmp_path / name, drop_caches=False, unbudgeted=unbudgeted)

    with pytest.raises(NotEnforced, match="budget 512.0M cannot be enforced"):
        run_once(cfg(False, "refused"), log=lambda _m: None, support=NOT_ROOT)
    assert "refusing to measure" in json.loads((tmp_path / "refused" / "summary.json").read_text())["error"]

    s = run_once(cfg(True, "forced"), log=lambda _m: None, support=NOT_ROOT)
    assert s["ok"] and s["unbudgeted"] and "not root" in s["unbudgeted_reasons"][0]
    assert json.loads((tmp_path / "forced" / "config.json").read_text())["unbudgeted"] is True
    agg = aggregate([{**s, "total_s": 1.0}], "g1-50")
    assert "UNBUDGETED" in render_text(agg) and "(unbudgeted)" in render_text(agg)
    assert "unbudgeted" in render_markdown(agg)


def _fake_cgroup(tmp_path, memory_limit_file: str, blkio: str) -> RunCgroup:
    rc = RunCgroup(CgroupSupport(memory="v1", io="v1"), "x", 300 * MIB, IoLimit("8:0", read_bps=100 * MIB))
    rc.memory_dir = tmp_path / "mem"
    rc.io_dir = tmp_path / "blkio"
    rc.memory_dir.mkdir(parents=True)
    rc.io_dir.mkdir(parents=True)
    (rc.memory_dir / "memory.limit_in_bytes").write_text(memory_limit_file)
    (rc.io_dir / "blkio.throttle.read_bps_device").write_text(blkio)
    return rc


def test_cgroup_limits_are_read_back(tmp_path):
    good = _fake_cgroup(tmp_path / "a", f"{300 * MIB}\n", f"8:0 {100 * MIB}\n")
    assert good.verify() == []
    bad = _fake_cgroup(tmp_path / "b", "9223372036854771712\n", "")  # the write did not take
    problems = bad.verify()
    assert any("memory limit not in force" in p for p in problems)
    assert any("device throttle not in force" in p for p in problems)


# ---------------------------------------------------------------- the JVM floor


def test_budget_below_floor_is_refused_with_the_floor():
    with pytest.raises(UsageError, match=r"budget 32.0M is below the JVM floor 40.0M for policy g1-90"):
        check_budget_above_floor(32 * MIB, 40 * MIB, "g1-90", ["-XX:+UseG1GC", "-Xmx28m"])
    check_budget_above_floor(64 * MIB, 40 * MIB, "g1-90", [])


def test_cli_refuses_budget_below_floor(monkeypatch, fake_jdk, tmp_path, capsys):
    monkeypatch.setattr(cli, "enforcement_problems", lambda *a: [])
    monkeypatch.setattr(cli, "jvm_floor", lambda java, flags: 200 * MIB)
    argv = ["run", "--policy", "g1-90", "--budget", "100m", "--jdk", str(fake_jdk), "--out", str(tmp_path / "r")]
    assert cli.main(argv + ["--", "-version"]) == 2
    assert "budget 100.0M is below the JVM floor 200.0M for policy g1-90" in capsys.readouterr().err


def test_cli_refuses_read_ahead_it_cannot_set(monkeypatch, fake_jdk, tmp_path, capsys):
    monkeypatch.setattr(cli, "enforcement_problems", lambda *a: [])
    monkeypatch.setattr(cli, "block_device_near", lambda _d: None)  # e.g. tmpfs
    argv = ["run", "--policy", "g1-90", "--read-ahead", "128k", "--jdk", str(fake_jdk), "--out", str(tmp_path / "r")]
    assert cli.main(argv + ["--", "-version"]) == 2
    assert "--read-ahead: the data directory is on no block device" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()
    with pytest.raises(SystemExit) as e:  # no unit: refused by the parser
        cli.main(["run", "--policy", "g1-90", "--read-ahead", "128", "--out", str(tmp_path / "r")])
    assert e.value.code == 2 and "no unit" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:  # the kernel keeps whole pages: 6k would be stored as 4k
        cli.main(["run", "--policy", "g1-90", "--read-ahead", "6k", "--out", str(tmp_path / "r")])
    assert e.value.code == 2 and "whole 4k pages" in capsys.readouterr().err


def test_cli_runs_at_128k_read_ahead_unless_told_to_keep_it(monkeypatch, fake_jdk, tmp_path, capsys):
    """The default sets Linux's 128 KiB where it can; 'keep' and a device it cannot set run at the
    device's own, with the large-read-ahead warning."""
    monkeypatch.setattr(cli, "enforcement_problems", lambda *a: [])
    monkeypatch.setattr(cli, "block_device_near", lambda _d: "8:0")
    monkeypatch.setattr(cli, "read_ahead_kb", lambda _b: 8192)
    settable = [True]
    monkeypatch.setattr(cli, "read_ahead_settable", lambda _b: settable[0])
    ran = []
    monkeypatch.setattr(cli, "run_once", lambda cfg: ran.append(cfg.read_ahead) or {"ok": False})
    monkeypatch.setattr(cli, "print_summary", lambda _s: None)
    argv = ["run", "--policy", "g1-90", "--jdk", str(fake_jdk), "--out", str(tmp_path / "r"), "--", "-version"]
    cli.main(argv)
    assert ran == [128 << 10] and "8192 KiB" not in capsys.readouterr().err
    cli.main(argv[:3] + ["--read-ahead", "keep"] + argv[3:])
    assert ran[-1] is None and "reads ahead 8192 KiB" in capsys.readouterr().err
    settable[0] = False  # not root: the default degrades to the device's own, said so
    cli.main(argv)
    assert ran[-1] is None and "reads ahead 8192 KiB" in capsys.readouterr().err
    assert cli.main(argv[:3] + ["--read-ahead", "1m"] + argv[3:]) == 2  # asked for and impossible: refused
    assert "give --read-ahead keep" in capsys.readouterr().err and len(ran) == 3


def test_cli_refuses_read_ahead_before_preparing_a_service(monkeypatch, fake_jdk, tmp_path, capsys):
    """A service's preparation may build a 9 GB index for 10 minutes: a --read-ahead that
    cannot be set is refused before it, not after."""
    from flexheap_harness.services import base, cli as services_cli
    prepared = []

    class Service(base.Service):
        kind = "fake"

        def prepare(self, log):
            prepared.append(True)

        def data_dir(self):
            return tmp_path / "not-yet-made"  # exists only once prepared

    monkeypatch.setattr(services_cli, "parse_workload", lambda _w: Service("x", ""))
    monkeypatch.setattr(cli, "is_service_workload", lambda _w: True)
    seen = []
    monkeypatch.setattr("flexheap_harness.devices.block_device_of", lambda d: seen.append(d) or None)
    argv = ["run", "--policy", "g1-90", "--workload", "opensearch:smoke", "--read-ahead", "128k",
            "--jdk", str(fake_jdk), "--out", str(tmp_path / "r")]
    assert cli.main(argv) == 2
    assert "--read-ahead: the data directory is on no block device" in capsys.readouterr().err
    assert not prepared and seen == [tmp_path]  # the nearest existing parent of the data folder


def test_cli_refuses_a_budget_the_service_native_reserve_fills(monkeypatch, fake_jdk, tmp_path, capsys):
    from flexheap_harness.services import base, cli as services_cli

    class Service(base.Service):
        kind = "fake"

        def prepare(self, log):
            pass

        def data_dir(self):
            return tmp_path

        def data_bytes(self):
            return 1 << 30

        def native_reserve(self):
            return 1 << 30

    monkeypatch.setattr(services_cli, "parse_workload", lambda _w: Service("x", ""))
    monkeypatch.setattr(cli, "is_service_workload", lambda _w: True)
    argv = ["run", "--policy", "g1-90", "--workload", "opensearch:smoke", "--budget", "1g",
            "--jdk", str(fake_jdk), "--out", str(tmp_path / "r")]
    assert cli.main(argv) == 2
    assert "budget 1.0G leaves no heap: opensearch:smoke keeps 1.0G of it for native memory" in capsys.readouterr().err
    assert not (tmp_path / "r" / "summary.json").exists()  # nothing ran


def test_cli_refuses_jdk26_policies_on_opensearch_before_any_run(monkeypatch, fake_jdk, tmp_path, capsys):
    # JDK 26 removed sun.misc.Unsafe.defineClass, which OpenSearch 3.4.0's agent calls: every g1-26 run
    # failed its health check. The harness says so up front, whether or not JDK 26 is built.
    monkeypatch.setattr(cli, "require_policy_jdks", lambda _p: None)
    prepared = []
    monkeypatch.setattr(cli, "prepare_service", lambda *a: prepared.append(a))
    for policies in ("g1-50,g1-26", "flexheap,g1-27like"):
        argv = ["compare", "--policies", policies, "--workload", "opensearch:smoke", "--budget", "1536m",
                "--jdk", str(fake_jdk), "--out", str(tmp_path / "r")]
        assert cli.main(argv) == 2
        err = capsys.readouterr().err
        assert "cannot run opensearch:smoke" in err and "Unsafe.defineClass" in err, err
    assert not prepared and not (tmp_path / "r").exists()
    # The same policies on a Spark workload are not refused by this check.
    argv = ["compare", "--policies", "g1-26", "--workload", "spark:smoke", "--budget", "1536m",
            "--jdk", str(fake_jdk), "--out", str(tmp_path / "s")]
    cli.require_service_jdks(cli.build_parser().parse_args(argv))


def test_floor_is_cached(monkeypatch, fake_jdk, tmp_path):
    calls = []
    monkeypatch.setattr("flexheap_harness.integrity.measure_floor", lambda j, f: calls.append(f) or 42 * MIB)
    cache = tmp_path / "floor.json"
    java = fake_jdk / "bin" / "java"
    assert jvm_floor(java, ["-Xmx1g"], cache) == 42 * MIB
    assert jvm_floor(java, ["-Xmx1g"], cache) == 42 * MIB
    assert jvm_floor(java, ["-Xmx2g"], cache) == 42 * MIB
    assert len(calls) == 2  # once per flag set


def test_floor_of_a_real_jvm():
    jdk, _ = find_jdk()
    if jdk is None:
        pytest.skip("no JDK")
    floor = measure_floor(jdk.java, ["-XX:+UseG1GC", "-Xmx256m"])
    # a JVM's own footprint, not the harness's (~150 MB of Python with numpy/scipy)
    assert 10 * MIB < floor < 120 * MIB
    with pytest.raises(UsageError, match="refuses the run's flags"):
        measure_floor(jdk.java, ["-XX:+NoSuchFlagAtAll"])


# ---------------------------------------------------------------- bootstrap CI of ratios


def test_bootstrap_known_answers():
    # medians of resamples of [1,2,3] are 1, 2 or 3, each end with probability 7/27 > 2.5 %
    assert ratio_ci([1, 2, 3], [1, 1, 1]) == pytest.approx((1.0, 3.0))
    assert ratio_ci([10, 10, 10], [5, 5]) == pytest.approx((2.0, 2.0))
    assert verdict((2.0, 2.0)) == "higher"
    lo, hi = ratio_ci([9.9, 10, 10.1], [19.8, 20, 20.2])
    assert 0.48 < lo <= 0.5 <= hi < 0.52 and verdict((lo, hi)) == "lower"
    same = ratio_ci([10, 11, 12], [10, 11, 12])
    assert same[0] < 1 < same[1] and verdict(same) == NO_DIFFERENCE
    assert ratio_ci([1, 2, 3], [1, 1, 1]) == ratio_ci([1, 2, 3], [1, 1, 1])  # seeded
    assert ratio_ci([1], [1, 2]) is None and ratio_ci([1, 2], [0, 0]) is None and verdict(None) is None


def test_table_marks_no_difference():
    runs = [{"policy": p, "ok": True, "total_s": t} for p, t in
            [("g1-90", 10), ("a", 10.5), ("b", 5), ("g1-90", 11), ("a", 10.2), ("b", 5.5), ("g1-90", 12),
             ("a", 11.9), ("b", 6)]]
    agg = aggregate(runs, "g1-90")
    a, b = agg["table"]["a"]["total_s"], agg["table"]["b"]["total_s"]
    # runs without repetitions do not pair: b's three runs below g1-90's three are 2 of the 20 ways to
    # split six runs (p = 0.1, the permutation test), too few to call at 5% whatever the interval says
    assert a["verdict"] == NO_DIFFERENCE and b["verdict"] == NO_DIFFERENCE and b["p"] == pytest.approx(0.1)
    # extremes 5/12 and 6/10 each come up with probability (7/27)^2 > 2.5 %: the interval is exact
    assert b["ratio_ci"] == pytest.approx([5 / 12, 0.6])
    text = render_text(agg)
    assert "x0.95 (CI 0.85-1.19) no difference" in text and "x0.50 (CI 0.42-0.60) no difference" in text
    # five a side apart: 2 of 252 splits, called
    five = runs + [{"policy": p, "ok": True, "total_s": t} for p, t in
                   [("g1-90", 10.5), ("b", 5.2), ("g1-90", 11.5), ("b", 5.8)]]
    assert aggregate(five, "g1-90")["table"]["b"]["total_s"]["verdict"] == "lower"
