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

"""End to end: a real JVM in a real memory cgroup (needs root and a memory controller)."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from pathlib import Path

import pytest

from flexheap_harness.cgroups import detect
from flexheap_harness.devices import parse_profile
from flexheap_harness.jdk import find_jdk
from flexheap_harness.policies import parse_policy
from flexheap_harness.runner import RunConfig, run_once
from flexheap_harness.sampling import read_samples

DATA = Path(__file__).parent / "data"
MB = 1 << 20
BUDGET = 300 * MB

SPAWNER = """
public class Spawner {
    public static void main(String[] a) throws Exception {
        Process p = new ProcessBuilder("sleep", "300").start();
        System.out.println("child " + p.pid());
        System.out.flush();
        System.exit(3);  // a crashed run that leaves a child behind in the cgroup
    }
}
"""


def _requirements() -> str | None:
    if os.geteuid() != 0:
        return "needs root to create cgroups and drop caches"
    if detect().memory is None:
        return "no memory cgroup controller (cgroup v2 memory or v1 memory mount)"
    jdk, _ = find_jdk()
    if jdk is None or not jdk.tool("javac").exists():
        return "no JDK with javac (build/flexheap-jdk or Temurin 25)"
    return None


pytestmark = [pytest.mark.integration]
skip_reason = _requirements()
if skip_reason:
    pytestmark.append(pytest.mark.skip(reason=skip_reason))


@pytest.fixture(scope="module")
def jdk():
    return find_jdk()[0]


def _compile(jdk, src: Path, out: Path) -> None:
    subprocess.run([str(jdk.tool("javac")), "-d", str(out), str(src)], check=True)


def test_page_cache_capped_by_budget_and_cgroup_removed(jdk, tmp_path):
    classes = tmp_path / "classes"
    _compile(jdk, DATA / "PhasedReader.java", classes)
    data_file = tmp_path / "big.bin"
    run_dir = tmp_path / "run"
    cfg = RunConfig(
        policy=parse_policy("g1-50"), budget=BUDGET, device=parse_profile("host"), jdk=jdk,
        program=["-cp", str(classes), "PhasedReader", str(data_file), "600", "2", "0.5"],
        data_dir=tmp_path, run_dir=run_dir, sample_interval_s=0.2, timeout_s=120,
    )
    s = run_once(cfg, log=lambda _m: None)
    assert s["ok"], s.get("error")
    assert s["max_heap"] == BUDGET // 2
    # the JVM's own start-up lines show what g1-50 means (runconfig)
    assert s["config_ok"] and s["jvm_config"]["collector"] == "G1"
    assert s["jvm_config"]["max_heap"] == BUDGET // 2 and s["jvm_config"]["flexheap_policy"] is None
    samples = read_samples(run_dir / "samples.csv")
    cache = [r["page_cache"] for r in samples if r["page_cache"] is not None]
    # 600 MB went through the page cache twice, but the cgroup held it under the budget.
    assert max(cache) <= BUDGET
    assert max(cache) > 100 * MB
    assert any(r["heap_committed"] for r in samples), "hsperfdata sampling saw the heap"
    assert s["cgroup_removed"] is True
    cg = json.loads((run_dir / "config.json").read_text())["cgroup"]
    assert cg["memory_limit"] == BUDGET and not Path(cg["memory_dir"]).exists()
    if cg["io_dir"]:
        assert not Path(cg["io_dir"]).exists()
    assert [p["name"] for p in s["phases"]][-2:] == ["read0", "read1"]
    # The second pass re-reads pages the budget evicted: the run's own refaults and I/O stall.
    assert s["refault_file"] is not None and s["refault_file"] > 10_000
    # ... and the share of them a cache twice as large would have hit, from one source.
    assert s["workingset_scope"] in ("cgroup", "system")
    assert s["activate_share"] is not None and 0.0 <= s["activate_share"] <= 1.0
    assert s["psi_scope"] in ("cgroup", "system") and s["psi_io_some_s"] > 0
    assert any(r["io_some_pct"] for r in samples if r.get("io_some_pct") is not None)
    assert s["unbudgeted"] is False and s["decisions_source"] == "gc.log"
    assert s["gc_pauses"] >= 1 and (run_dir / "gc.log").exists()
    for name in ("samples.csv", "gc.log", "stdout.log", "stderr.log", "summary.json", "config.json"):
        assert (run_dir / name).exists()


def test_crashed_run_is_failed_and_leftover_processes_are_killed(jdk, tmp_path):
    src = tmp_path / "Spawner.java"
    src.write_text(SPAWNER)
    _compile(jdk, src, tmp_path)
    run_dir = tmp_path / "run"
    cfg = RunConfig(
        policy=parse_policy("static:64m"), budget=BUDGET, device=parse_profile("host"), jdk=jdk,
        program=["-cp", str(tmp_path), "Spawner"], data_dir=tmp_path, run_dir=run_dir,
        drop_caches=False, timeout_s=60, extra_jvm_flags=["-XX:MaxGCPauseMillis=150"],
    )
    s = run_once(cfg, log=lambda _m: None)
    assert not s["ok"] and "exited with 3" in s["error"]
    # --jvm-flags are part of what was measured: recorded, and passed last
    assert s["extra_jvm_flags"] == ["-XX:MaxGCPauseMillis=150"]
    argv = json.loads((run_dir / "config.json").read_text())["argv"]
    assert argv[argv.index("-XX:MaxGCPauseMillis=150") + 1:][:2] == ["-cp", str(tmp_path)]
    assert "log_tail" in s
    child = int((run_dir / "stdout.log").read_text().split()[1])
    assert not Path(f"/proc/{child}").exists() or "Z" in Path(f"/proc/{child}/stat").read_text().split()[2]
    assert s["cgroup_removed"] is True


def test_flexheap_decisions_from_jfr_agree_with_the_gc_log(tmp_path):
    from flexheap_harness import gclog
    from flexheap_harness.jdk import flexheap_jdk_dir, supports_flexheap

    home = flexheap_jdk_dir()
    if not (home / "bin" / "java").exists() or not supports_flexheap(str(home)):
        pytest.skip(f"no FlexHeap JDK at {home} (bash jdk/build.sh)")
    from flexheap_harness.jdk import Jdk
    jdk = Jdk(home, True)
    classes = tmp_path / "classes"
    _compile(jdk, DATA / "PhasedReader.java", classes)
    run_dir = tmp_path / "run"
    cfg = RunConfig(
        policy=parse_policy("flexheap"), budget=2 * BUDGET, device=parse_profile("host"), jdk=jdk,
        program=["-cp", str(classes), "PhasedReader", str(tmp_path / "big.bin"), "200", "1", "1"],
        data_dir=tmp_path, run_dir=run_dir, sample_interval_s=0.5, timeout_s=120, jfr=True,
    )
    s = run_once(cfg, log=lambda _m: None)
    assert s["ok"], s.get("error")
    assert s["decisions_source"].startswith("jfr"), s.get("decisions_error")
    from_log = gclog.parse_file(run_dir / "gc.log").decisions
    assert s["flexheap_decisions"] > 0
    # Every decision the log has, once: JFR's, plus the log's from before the recording started.
    assert s["flexheap_decisions"] == len(from_log)
    rows = (run_dir / "decisions.csv").read_text().splitlines()
    header = rows[0].split(",")
    assert header[:3] == ["t", "gc_id", "source"] and "action" in header and "committed" in header
    sources = [r.split(",")[2] for r in rows[1:]]
    assert "jfr" in sources and sources == sorted(sources, key=lambda x: x != "gc.log")
    ids = [int(r.split(",")[1]) for r in rows[1:]]
    assert sorted(ids) == sorted(d.gc_id for d in from_log)


def test_tiny_compare_then_report_with_every_table_and_its_command(jdk, tmp_path, capsys):
    """CI's scaled-down docs/results.md: a two-policy compare of a small phased program, then `report`
    on a temporary manifest pointing at it. Every section is there (measured or 'Not measured yet'),
    every table has its command, only the result JSON and plots are copied, and --check passes."""
    from flexheap_harness import cli
    from flexheap_harness.results_manifest import SECTIONS
    from flexheap_harness.results_report import uncommanded_tables

    classes = tmp_path / "classes"
    _compile(jdk, DATA / "PhasedReader.java", classes)
    out = tmp_path / "compare"
    args = ["compare", "--policies", "g1-90,g1-50", "--reps", "2", "--budget", "300m", "--device", "host",
            "--data-dir", str(tmp_path), "--jdk", str(jdk.home), "--no-drop-caches", "--sample-interval", "0.5",
            "--timeout", "120", "--out", str(out),
            "--", "-cp", str(classes), "PhasedReader", str(tmp_path / "data.bin"), "64", "1", "0.3"]
    assert cli.main(args) == 0
    docs = tmp_path / "docs" / "results"
    docs.mkdir(parents=True)
    manifest = docs / "manifest.toml"
    manifest.write_text('output = "../results.md"\n')
    command = "./flexheap harness " + shlex.join(args)
    report = ["report", "--manifest", str(manifest)]
    assert cli.main(report + ["--add", "comparisons", str(out), "--command", command, "--title", "tiny"]) == 0
    assert cli.main(report) == 0
    capsys.readouterr()
    md = (tmp_path / "docs" / "results.md").read_text()

    assert [ln[3:] for ln in md.splitlines() if ln.startswith("## ")] == [s.title for s in SECTIONS]
    assert md.count("**Not measured yet.**") == len(SECTIONS) - 2  # all but comparisons and paper
    assert uncommanded_tables(md) == []
    tiny = md[md.index("### tiny"):md.index("## 3.")]
    assert f"```sh\n{command}\n```" in tiny
    total = next(ln for ln in tiny.splitlines() if ln.startswith("| total time"))
    assert "(CI " in total  # g1-50's ratio to g1-90 with its bootstrap interval
    assert "| g1-90 (base)" in tiny and "JDK: " in tiny and "Date: " in tiny
    copied = sorted(p.name for p in (docs / "data").rglob("*"))
    # no runs/, logs, samples; the entry's page (README.md) is the report's
    assert copied == ["README.md", "compare", "comparison.json", "throughput.png", "timeline.png"]
    for name in ("timeline.png", "throughput.png"):
        assert f"(results/data/compare/{name})" in tiny
    assert cli.main(report + ["--check"]) == 0
