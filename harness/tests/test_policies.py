"""Budget parsing and the policy -> JVM flags mapping."""

import pytest

from flexheap_harness.devices import PROFILES, parse_profile
from flexheap_harness.policies import jvm_flags, max_heap_bytes, parse_policy
from flexheap_harness.sizes import format_size, parse_budget, parse_size

GIB = 1 << 30
LOG = "-Xlog:gc*,gc+flexheap=info:file=/r/gc.log:uptime,level,tags"


@pytest.mark.parametrize("text,expected", [
    ("2g", 2 * GIB), ("768m", 768 << 20), ("1.5G", 3 * GIB // 2), ("512MiB", 512 << 20),
    ("4096", 4096), ("64k", 65536), (" 1g ", GIB),
])
def test_parse_size(text, expected):
    assert parse_size(text) == expected


@pytest.mark.parametrize("bad", ["", "abc", "-1g", "0", "1x1", "2q"])
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


def test_flexheap_paper_turns_the_negligible_cost_rule_off():
    flags = jvm_flags(parse_policy("flexheap-paper"), 2 * GIB, "/r/gc.log")
    assert flags == ["-XX:+UseG1GC", "-Xmx1843m", "-XX:+UseFlexHeap", "-XX:FlexHeapNegligibleCostPercent=0", LOG]
    assert parse_policy("flexheap-paper").needs_flexheap


def test_static_ignores_budget_and_needs_none():
    p = parse_policy("static:768m")
    assert p.name == "static:768m"
    assert jvm_flags(p, None, "/r/gc.log")[:2] == ["-XX:+UseG1GC", "-Xmx768m"]
    assert parse_policy("STATIC:1g").name == "static:1024m"


def test_no_xms_ever():
    for name in ("g1-50", "g1-90", "vg1", "flexheap", "flexheap-paper", "static:1g"):
        assert not any(f.startswith("-Xms") for f in jvm_flags(parse_policy(name), GIB, "x"))


def test_stock_jdk_gets_no_flexheap_tag():
    flags = jvm_flags(parse_policy("g1-90"), GIB, "/r/gc.log", flexheap_tags=False)
    assert flags[-1] == "-Xlog:gc*:file=/r/gc.log:uptime,level,tags"


def test_fraction_policies_need_budget():
    with pytest.raises(ValueError, match="budget"):
        max_heap_bytes(parse_policy("g1-90"), None)


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
    assert (p.read_bps, p.read_iops, p.write_bps) == (200_000_000, 1000, None)
    assert p.io_limit("8:0").device == "8:0"
    with pytest.raises(ValueError):
        parse_profile("custom:speed=1")
    with pytest.raises(ValueError):
        parse_profile("floppy")
