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

"""Budget parsing and the policy -> JVM flags mapping."""

import pytest

from flexheap_harness.devices import PROFILES, parse_profile
from flexheap_harness.policies import (BUILTIN, JDK_26, JDK_FLEXHEAP, PRODUCT_FLAGS, UNLOCK_EXPERIMENTAL, jvm_flags,
                                       max_heap_bytes, parse_policy)
from flexheap_harness.sizes import format_size, parse_budget, parse_size

GIB = 1 << 30
LOG = "-Xlog:gc*,gc+flexheap=info:file=/r/gc.log:uptime,level,tags"


@pytest.mark.parametrize("text,expected", [
    ("2g", 2 * GIB), ("768m", 768 << 20), ("1.5G", 3 * GIB // 2), ("512MiB", 512 << 20),
    ("64k", 65536), (" 1g ", GIB),
])
def test_parse_size(text, expected):
    assert parse_size(text) == expected


@pytest.mark.parametrize("bad", ["", "abc", "-1g", "0", "1x1", "2q", "4096", "0.5", "600MB", "0m"])
def test_parse_size_rejects(bad):
    with pytest.raises(ValueError):
        parse_size(bad)


def test_budget_fraction_of_index():
    assert parse_budget("0.5x", 2 * GIB) == GIB
    assert parse_budget("0.1X", 10 * GIB) == GIB
    assert parse_budget("2g", None) == 2 * GIB
    with pytest.raises(ValueError, match="index"):
        parse_budget("0.5x", None)


def test_format_size():
    assert format_size(GIB) == "1.0G" and format_size(768 << 20) == "768.0M" and format_size(None) == "-"


def test_g1_90_flags():
    assert jvm_flags(parse_policy("g1-90"), 2 * GIB, "/r/gc.log") == ["-XX:+UseG1GC", "-Xmx1843m", LOG]


def test_g1_50_flags():
    assert jvm_flags(parse_policy("g1-50"), 2 * GIB, "/r/gc.log") == ["-XX:+UseG1GC", "-Xmx1024m", LOG]


def test_vg1_flags():
    assert jvm_flags(parse_policy("vg1"), 2 * GIB, "/r/gc.log") == [
        "-XX:+UseG1GC", "-Xmx1843m", "-XX:G1PeriodicGCInterval=1000", LOG]


def test_flexheap_flags_and_extra_flags_last():
    flags = jvm_flags(parse_policy("flexheap"), 2 * GIB, "/r/gc.log", ["-XX:MaxGCPauseMillis=50"])
    assert flags == ["-XX:+UseG1GC", "-Xmx1843m", "-XX:+UseFlexHeap", LOG, "-XX:MaxGCPauseMillis=50"]
    assert parse_policy("flexheap").needs_flexheap


def test_flexheap_paper_selects_the_paper_controller():
    # Not a tuning of the default (FlexHeapPolicy=balance): the paper's controller itself.
    flags = jvm_flags(parse_policy("flexheap-paper"), 2 * GIB, "/r/gc.log")
    assert flags == ["-XX:+UseG1GC", "-Xmx1843m", "-XX:+UseFlexHeap", "-XX:FlexHeapPolicy=paper", LOG]
    assert parse_policy("flexheap-paper").needs_flexheap
    assert "paper controller" in parse_policy("flexheap-paper").description
    assert not any("FlexHeapPolicy" in f for f in parse_policy("flexheap").flags)  # the default: balance


def test_vendor_50_holds_the_heap_at_half_the_budget():
    p = parse_policy("vendor-50")
    assert p.jdk == JDK_FLEXHEAP and not p.needs_flexheap and p.fixed_heap
    assert jvm_flags(p, 2 * GIB, "/r/gc.log") == ["-XX:+UseG1GC", "-Xmx1024m", "-Xms1024m", LOG]
    # -Xms follows -Xmx where a service's native reserve caps it
    budget, mib = 1536 << 20, 1 << 20
    assert jvm_flags(p, budget, "x", native_reserve=1024 * mib)[1:3] == ["-Xmx512m", "-Xms512m"]
    # g1-50 keeps its small initial heap
    assert not parse_policy("g1-50").fixed_heap


def test_static_ignores_budget_and_needs_none():
    p = parse_policy("static:768m")
    assert p.name == "static:768m"
    assert jvm_flags(p, None, "/r/gc.log")[:2] == ["-XX:+UseG1GC", "-Xmx768m"]
    assert parse_policy("STATIC:1g").name == "static:1024m"


def test_no_xms_but_for_a_fixed_heap():
    for name in ("g1-50", "g1-90", "vg1", "flexheap", "flexheap-paper", "static:1g", "g1-26", "g1-27like"):
        assert not any(f.startswith("-Xms") for f in jvm_flags(parse_policy(name), GIB, "x"))
    for name in ("vendor-50", "fixed:256m", "fixed-26:256m"):
        assert sum(f.startswith("-Xms") for f in jvm_flags(parse_policy(name), GIB, "x")) == 1


def test_fixed_holds_the_heap_on_either_jdk():
    for name, jdk in (("fixed:256m", JDK_FLEXHEAP), ("Fixed-26:256M", JDK_26)):
        p = parse_policy(name)
        assert p.name == name.lower() and p.jdk == jdk and not p.needs_flexheap
        assert jvm_flags(p, None, "/r/gc.log", flexheap_tags=False) == [
            "-XX:+UseG1GC", "-Xmx256m", "-Xms256m", STOCK_LOG]
    assert max_heap_bytes(parse_policy("fixed:1g"), GIB // 2) == GIB  # as asked, whatever the budget


@pytest.mark.parametrize("name", ["fixed:", "fixed:0.5", "fixed-26:300", "fixed-27:1g"])
def test_fixed_needs_a_size_with_a_unit_and_a_known_jdk(name):
    with pytest.raises(ValueError):
        parse_policy(name)


def test_stock_jdk_gets_no_flexheap_tag():
    flags = jvm_flags(parse_policy("g1-90"), GIB, "/r/gc.log", flexheap_tags=False)
    assert flags[-1] == "-Xlog:gc*:file=/r/gc.log:uptime,level,tags"


def test_fraction_policies_need_budget():
    with pytest.raises(ValueError, match="budget"):
        max_heap_bytes(parse_policy("g1-90"), None)


def test_native_reserve_caps_only_fraction_policies_that_would_take_it():
    budget, mib = 1536 << 20, 1 << 20
    g190, g150 = parse_policy("g1-90"), parse_policy("g1-50")
    assert max_heap_bytes(g190, budget, 0) == int(budget * 0.9)
    assert max_heap_bytes(g190, budget, 640 * mib) == budget - 640 * mib  # 896m, not 1382m
    assert max_heap_bytes(g150, budget, 640 * mib) == budget // 2  # 768m leaves more than 640m
    assert max_heap_bytes(g150, budget, budget // 2) == budget // 2  # the boundary: equal
    assert max_heap_bytes(g150, budget, budget // 2 + mib) == budget // 2 - mib
    assert max_heap_bytes(parse_policy("static:1g"), budget, 640 * mib) == 1 << 30  # asked for
    assert "-Xmx896m" in jvm_flags(g190, budget, "x", native_reserve=640 * mib)
    with pytest.raises(ValueError, match="leaves no heap"):
        max_heap_bytes(g190, budget, budget)


def test_unknown_policy():
    with pytest.raises(ValueError, match="unknown policy"):
        parse_policy("zgc")


def test_device_profiles_keep_paper_ratios():
    nvme, sata = PROFILES["nvme"], PROFILES["sata"]
    assert nvme.read_bps / sata.read_bps == pytest.approx(6)
    assert nvme.write_bps / sata.write_bps == pytest.approx(4)
    assert nvme.read_iops / sata.read_iops == pytest.approx(6, rel=0.01)
    assert not PROFILES["host"].throttled


def test_custom_device_profile():
    p = parse_profile("custom:read=200m,riops=1000")
    assert (p.read_bps, p.read_iops, p.write_bps) == (200 << 20, 1000, None)  # binary, like every size
    assert p.io_limit("8:0").device == "8:0"
    with pytest.raises(ValueError):
        parse_profile("custom:speed=1")
    with pytest.raises(ValueError):
        parse_profile("floppy")


# ---------------------------------------------------------------- policies on the stock OpenJDK 26 baseline

STOCK_LOG = "-Xlog:gc*:file=/r/gc.log:uptime,level,tags"


def _fake_jdk(home, version):
    (home / "bin").mkdir(parents=True)
    java = home / "bin" / "java"
    java.write_text("#!/bin/sh\nexit 0\n")
    java.chmod(0o755)
    (home / "release").write_text(f'IMPLEMENTOR="x"\nJAVA_VERSION="{version}"\n')
    return home


@pytest.fixture
def no_jdk26(tmp_path, monkeypatch):
    monkeypatch.delenv("FLEXHEAP_JDK26", raising=False)
    monkeypatch.setenv("FLEXHEAP_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "baseline" / "jdk-26"


def test_g1_26_is_jdk26_defaults_at_90_percent():
    p = parse_policy("g1-26")
    assert p.jdk == JDK_26 and not p.needs_flexheap and p.flags == ()
    assert jvm_flags(p, 2 * GIB, "/r/gc.log", flexheap_tags=False) == ["-XX:+UseG1GC", "-Xmx1843m", STOCK_LOG]


def test_g1_27like_adds_jdk27_free_ratio_defaults():
    p = parse_policy("G1-27LIKE")
    assert p.name == "g1-27like" and p.jdk == JDK_26 and not p.needs_flexheap
    assert jvm_flags(p, 2 * GIB, "/r/gc.log", flexheap_tags=False) == [
        "-XX:+UseG1GC", "-Xmx1843m", "-XX:MinHeapFreeRatio=0", "-XX:MaxHeapFreeRatio=100", STOCK_LOG]


def test_only_the_jdk26_policies_leave_the_flexheap_jdk():
    assert {n for n, p in BUILTIN.items() if p.jdk != JDK_FLEXHEAP} == {"g1-26", "g1-27like"}
    assert parse_policy("static:1g").jdk == JDK_FLEXHEAP


def test_jdk_for_policy_uses_the_baseline_as_a_stock_jdk(tmp_path, monkeypatch):
    from flexheap_harness.jdk import Jdk, jdk_for_policy
    home = _fake_jdk(tmp_path / "jdk-26", "26.0.2.1")
    monkeypatch.setenv("FLEXHEAP_JDK26", str(home))
    default = Jdk(tmp_path / "flexheap-jdk", is_flexheap_build=True)
    for name in ("g1-26", "g1-27like"):
        jdk = jdk_for_policy(parse_policy(name), default)
        assert jdk.home == home and jdk.java == home / "bin" / "java"
        assert not jdk.is_flexheap_build  # -> gc_log_option(..., flexheap_tags=False)
    for name in ("g1-90", "flexheap", "static:1g"):
        assert jdk_for_policy(parse_policy(name), default) is default


def test_default_jdk26_location_is_under_the_cache(tmp_path, monkeypatch):
    from flexheap_harness.jdk import jdk26_dir
    monkeypatch.delenv("FLEXHEAP_JDK26", raising=False)
    monkeypatch.setenv("FLEXHEAP_CACHE", str(tmp_path))
    assert jdk26_dir() == tmp_path / "baseline" / "jdk-26"


def test_missing_jdk26_says_how_to_build_it(no_jdk26):
    from flexheap_harness.jdk import Jdk, MissingJdkError, jdk_for_policy
    with pytest.raises(MissingJdkError) as e:
        jdk_for_policy(parse_policy("g1-26"), Jdk(no_jdk26, True))
    msg = str(e.value)
    assert "bash jdk/baseline/build-jdk26.sh" in msg and str(no_jdk26) in msg and "min" in msg
    assert "FLEXHEAP_JDK26" in msg


def test_a_jdk26_home_that_is_not_26_is_rejected(tmp_path, monkeypatch):
    from flexheap_harness.jdk import MissingJdkError, find_jdk26
    monkeypatch.setenv("FLEXHEAP_JDK26", str(_fake_jdk(tmp_path / "j", "25.0.3")))
    with pytest.raises(MissingJdkError, match="not a JDK 26"):
        find_jdk26()


@pytest.mark.parametrize("argv", [
    ["run", "--policy", "g1-26", "--budget", "600m", "--", "-version"],
    ["compare", "--policies", "g1-90,g1-27like", "--budget", "600m", "--", "-version"],
    ["sweep", "--sizes", "256m", "--also", "g1-26", "--", "-version"],
])
def test_cli_fails_at_argument_time_without_jdk26(no_jdk26, argv, capsys):
    from flexheap_harness.cli import main
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert "runs on OpenJDK 26" in err and "bash jdk/baseline/build-jdk26.sh" in err
    assert "budget" not in out  # stopped before any run was set up


def test_cli_run_config_takes_the_policys_jdk(tmp_path, monkeypatch):
    from flexheap_harness.cli import build_parser, make_config_factory
    jdk26 = _fake_jdk(tmp_path / "jdk-26", "26.0.2.1")
    default = _fake_jdk(tmp_path / "flexheap-jdk", "25.0.3")
    monkeypatch.setenv("FLEXHEAP_JDK26", str(jdk26))
    args = build_parser().parse_args(["compare", "--budget", "600m", "--jdk", str(default)])
    make = make_config_factory(args, ["-version"])
    assert make("g1-27like", 1, tmp_path / "r1").jdk.home == jdk26
    assert make("g1-90", 1, tmp_path / "r2").jdk.home == default


def test_flexheap_variant_adds_its_settings_after_the_base_flags():
    p = parse_policy("flexheap:FlexHeapCacheReservePercent=30+FlexHeapGCTimeRatio=19")
    assert p.name == "flexheap:FlexHeapCacheReservePercent=30+FlexHeapGCTimeRatio=19"
    assert p.flags == ("-XX:+UseFlexHeap", "-XX:FlexHeapCacheReservePercent=30", "-XX:FlexHeapGCTimeRatio=19")
    assert p.needs_flexheap and p.heap_fraction == 0.9
    paper = parse_policy("flexheap-paper:FlexHeapCacheReservePercent=30")
    assert paper.flags[:2] == BUILTIN["flexheap-paper"].flags


def test_product_flags_are_the_eight_that_stay_product():
    assert set(PRODUCT_FLAGS) == {"UseFlexHeap", "FlexHeapPolicy", "FlexHeapGCTimeRatio",
                                  "FlexHeapCacheReservePercent", "FlexHeapMaxRAMPercentage", "FlexHeapIOStallBackend",
                                  "FlexHeapIOStallLibrary", "FlexHeapProactiveGCInterval"}


def test_a_product_setting_needs_no_unlock():
    for name in ("flexheap:FlexHeapCacheReservePercent=30+FlexHeapGCTimeRatio=19+FlexHeapIOStallBackend=psi",
                 "flexheap-paper:FlexHeapProactiveGCInterval=0+FlexHeapMaxRAMPercentage=50", "flexheap:HeapPercent=50"):
        assert UNLOCK_EXPERIMENTAL not in parse_policy(name).flags


def test_an_experimental_setting_unlocks_experimental_options_once_before_the_flags():
    p = parse_policy("flexheap-paper:FlexHeapStaticStepPercent=10+FlexHeapNegligibleCostPercent=5")
    assert p.flags == (UNLOCK_EXPERIMENTAL, "-XX:+UseFlexHeap", "-XX:FlexHeapPolicy=paper",
                       "-XX:FlexHeapStaticStepPercent=10", "-XX:FlexHeapNegligibleCostPercent=5")
    mixed = parse_policy("flexheap:FlexHeapGCTimeRatio=19+FlexHeapRecentPhaseShift=true")
    assert mixed.flags == (UNLOCK_EXPERIMENTAL, "-XX:+UseFlexHeap", "-XX:FlexHeapGCTimeRatio=19",
                           "-XX:+FlexHeapRecentPhaseShift")
    flags = jvm_flags(mixed, 2 * GIB, "/r/gc.log")
    assert flags.count(UNLOCK_EXPERIMENTAL) == 1
    assert flags.index(UNLOCK_EXPERIMENTAL) < flags.index("-XX:+FlexHeapRecentPhaseShift")


# ---------------------------------------------------------------- POLICY@LABEL: one policy, two columns (A/A)


def test_a_label_names_the_same_policy_as_another_column():
    a, b = parse_policy("flexheap@a"), parse_policy("FLEXHEAP@B")
    assert (a.name, b.name) == ("flexheap@a", "flexheap@b")
    base = parse_policy("flexheap")
    for p in (a, b):
        assert (p.flags, p.heap_fraction, p.needs_flexheap, p.jdk, p.fixed_heap) == (
            base.flags, base.heap_fraction, base.needs_flexheap, base.jdk, base.fixed_heap)
        assert jvm_flags(p, 2 * GIB, "/r/gc.log") == jvm_flags(base, 2 * GIB, "/r/gc.log")
    assert parse_policy("static:1g@x").name == "static:1024m@x"
    assert parse_policy("vendor-50@rep2").fixed_heap
    v = parse_policy("flexheap:FlexHeapGCTimeRatio=19@one")
    assert v.name == "flexheap:FlexHeapGCTimeRatio=19@one" and v.flags[-1] == "-XX:FlexHeapGCTimeRatio=19"


@pytest.mark.parametrize("bad", ["flexheap@", "flexheap@a@b", "flexheap@a b", "flexheap@a/b", "zgc@a", "@a"])
def test_a_label_is_a_plain_word_on_a_known_policy(bad):
    with pytest.raises(ValueError):
        parse_policy(bad)


def test_compare_runs_a_labelled_pair_as_two_columns(tmp_path, monkeypatch):
    import flexheap_harness.compare as compare
    from flexheap_harness.runner import RunConfig

    seen = []

    def make(policy, rep, rd):
        seen.append((policy, rep, rd.name))
        return RunConfig(policy=parse_policy(policy), budget=GIB, device=None, jdk=None, program=[],
                         data_dir=tmp_path, run_dir=rd)

    def fake_run_once(cfg, log=None):
        cfg.run_dir.mkdir(parents=True, exist_ok=True)
        return {"label": cfg.policy.name, "policy": cfg.policy.name, "ok": True, "total_s": 10.0}

    monkeypatch.setattr(compare, "run_once", fake_run_once)
    agg = compare.run_comparison(["flexheap@a", "flexheap@b"], 2, make, tmp_path / "cmp", "flexheap@a",
                                 log=lambda _m: None, warmup=0)
    assert agg["ok_runs"] == {"flexheap@a": 2, "flexheap@b": 2}
    assert {name for _p, _r, name in seen} == {"r1-flexheap_a", "r2-flexheap_a", "r1-flexheap_b", "r2-flexheap_b"}


def test_cli_refuses_a_policy_named_twice_and_says_how_to_label_it(capsys):
    from flexheap_harness.cli import main
    assert main(["compare", "--policies", "flexheap,g1-90,flexheap", "--budget", "600m", "--", "-version"]) == 2
    err = capsys.readouterr().err
    assert "flexheap" in err and "flexheap@a,flexheap@b" in err


def test_cli_epilog_documents_labels():
    from flexheap_harness.cli import build_parser
    text = build_parser().format_help()
    assert "@" in text and "flexheap@a,flexheap@b" in text and "vendor-50" in text


def test_flexheap_variant_passes_booleans_as_hotspot_takes_them():
    # HotSpot refuses -XX:Flag=false for a bool ("Missing +/- setting").
    p = parse_policy("flexheap:FlexHeapRecentPhaseShift=false+FlexHeapCostAsRate=TRUE")
    assert p.flags == (UNLOCK_EXPERIMENTAL, "-XX:+UseFlexHeap", "-XX:-FlexHeapRecentPhaseShift",
                       "-XX:+FlexHeapCostAsRate")


def test_flexheap_variant_heap_percent_sets_the_max_heap_from_the_budget():
    p = parse_policy("flexheap:HeapPercent=50+FlexHeapGCTimeRatio=19")
    assert p.heap_fraction == 0.5
    assert p.flags == ("-XX:+UseFlexHeap", "-XX:FlexHeapGCTimeRatio=19")
    assert max_heap_bytes(p, 1000 * 1024 * 1024) == 500 * 1024 * 1024
    assert parse_policy("flexheap-paper:HeapPercent=100").heap_fraction == 1.0


@pytest.mark.parametrize("bad", ["flexheap:HeapPercent=0", "flexheap:HeapPercent=101", "flexheap:HeapPercent=5.5",
                                 "flexheap:HeapPercent=50+HeapPercent=60", "g1-90:HeapPercent=50"])
def test_flexheap_variant_refuses_a_heap_percent_out_of_range(bad):
    with pytest.raises(ValueError):
        parse_policy(bad)


@pytest.mark.parametrize("bad", ["flexheap:", "flexheap:Xmx=1g", "flexheap:FlexHeapX=1;rm", "g1-90:FlexHeapX=1",
                                 "flexheap:FlexHeapCacheReservePercent=30+", "flexheap:UseFlexHeap=false"])
def test_flexheap_variant_refuses_anything_but_flexheap_settings(bad):
    with pytest.raises(ValueError):
        parse_policy(bad)


def test_a_label_runs_on_the_jdk_flexheap_label_jdk_names(tmp_path, monkeypatch):
    from flexheap_harness import jdk as jdkmod
    old = tmp_path / "old-jdk"
    (old / "bin").mkdir(parents=True)
    (old / "bin" / "java").write_text("#!/bin/sh\n")
    monkeypatch.setenv(jdkmod.LABEL_JDK_ENV, f"old={old}")
    monkeypatch.setattr(jdkmod, "supports_flexheap", lambda home: home == str(old))
    default = jdkmod.Jdk(tmp_path / "current", True)
    assert jdkmod.jdk_for_policy(parse_policy("flexheap@old"), default).home == old
    assert jdkmod.jdk_for_policy(parse_policy("flexheap@new"), default) == default
    assert jdkmod.jdk_for_policy(parse_policy("flexheap"), default) == default
    jdkmod.require_policy_jdks([parse_policy("flexheap@old")])
    monkeypatch.setenv(jdkmod.LABEL_JDK_ENV, f"old={tmp_path / 'missing'}")
    with pytest.raises(jdkmod.MissingJdkError, match="no bin/java"):
        jdkmod.require_policy_jdks([parse_policy("flexheap@old")])
    monkeypatch.setenv(jdkmod.LABEL_JDK_ENV, "old")
    with pytest.raises(ValueError, match="LABEL=DIR"):
        jdkmod.label_jdks()
