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

"""Smoke runs of the real services through the harness CLI, the way an operator would run them:
a 1-node OpenSearch under opensearch-benchmark in a 1.5 GiB budget and a small Spark SQL job,
both with -XX:+UseFlexHeap on the FlexHeap JDK; plus teardown on failure and on Ctrl-C, and
the README's recipe checked against what the runs used.

Skipped only when an artifact cannot be fetched (services/fetch.sh exit 3)."""

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from flexheap_harness.cgroups import write_memory_limit
from flexheap_harness.services import ServiceUnavailable, parse_workload

REPO = Path(__file__).resolve().parents[2]
JDK = Path(os.environ.get("FLEXHEAP_JDK") or REPO / "build" / "flexheap-jdk")
README = REPO / "README.md"

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="needs root (cgroups, the service user, drop_caches)")


def prepared(workload: str):
    try:
        s = parse_workload(workload)
        s.prepare(print)
        return s
    except ServiceUnavailable as e:
        pytest.skip(f"{workload}: artifact cannot be fetched: {e}")


def harness(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flexheap_harness", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=REPO)


def leftover_pids(needle: str) -> list[int]:
    found = []
    for d in os.listdir("/proc"):
        if d.isdigit() and int(d) != os.getpid():
            try:
                if needle.encode() in Path(f"/proc/{d}/cmdline").read_bytes():
                    found.append(int(d))
            except OSError:
                pass
    return found


def run_leftovers(out: Path) -> list[int]:
    """Processes still in this run's cgroup (others may run the same services concurrently)."""
    cg = json.loads((out / "config.json").read_text())["cgroup"]
    names = {Path(d).name for d in (cg["memory_dir"], cg["io_dir"]) if d}
    assert names, "the run had no cgroup"
    found = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                text = Path(f"/proc/{d}/cgroup").read_text()
            except OSError:
                continue
            if any(f"/{n}\n" in text or text.endswith(f"/{n}") for n in names):
                found.append(int(d))
    return found


def readme_section() -> str:
    text = README.read_text()
    m = re.search(r"^## Real services\n(.*?)(?=^## )", text, re.S | re.M)
    assert m, "README.md has no '## Real services' section"
    return m.group(1)


def readme_block(tag: str) -> list[str]:
    """Lines of the fenced block that follows the marker <!-- tag --> in the section."""
    m = re.search(rf"<!-- {re.escape(tag)} -->\s*```\w*\n(.*?)```", readme_section(), re.S)
    assert m, f"README 'Real services' has no block marked <!-- {tag} -->"
    return [line.strip() for line in m.group(1).splitlines() if line.strip() and not line.startswith("#")]


def option_key(opt: str) -> str:
    """-Xms64m -> -Xms, -XX:+UseFlexHeap -> UseFlexHeap, -Xlog:...:file=x -> -Xlog."""
    if opt.startswith(("-Xms", "-Xmx")):
        return opt[:4]
    if opt.startswith("-XX:"):
        return re.split(r"[=]", opt[4:].lstrip("+-"))[0]
    return opt.split(":")[0]


@pytest.fixture(scope="module")
def jdk() -> Path:
    assert (JDK / "bin" / "java").exists(), f"the FlexHeap JDK is not built at {JDK} (bash jdk/build.sh)"
    return JDK


def test_opensearch_smoke_on_flexheap(tmp_path, jdk):
    prepared("opensearch:smoke")
    out = tmp_path / "os"
    proc = harness("run", "--workload", "opensearch:smoke", "--policy", "flexheap", "--budget", "1536m",
                   "--jdk", str(jdk), "--out", str(out))
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    s = json.loads((out / "summary.json").read_text())
    assert s["ok"] and not s.get("unbudgeted") and s["cgroup_removed"]
    phases = {p["name"]: p for p in s["phases"]}
    assert phases["ingest"]["duration_s"] > 0 and phases["search"]["duration_s"] > 0
    assert phases["ingest-bulk"]["throughput_qps"] > 0 and phases["ingest-bulk"]["unit"] == "docs/s"
    # The bulk's own work time, within the phase's wall time; the timed searches have none.
    assert 0 < phases["ingest-bulk"]["work_s"] <= phases["ingest"]["duration_s"]
    assert "work_s" not in phases["search-term"]
    for q in ("search-term", "search-phrase", "search-topk", "search-agg"):
        assert phases[q]["throughput_qps"] > 0 and phases[q]["p99_service_ms"] >= phases[q]["p50_service_ms"] > 0
    wl = json.loads((out / "workload.json").read_text())
    assert wl["index_docs"] == 4000 - 1000  # smoke ingests corpus a only
    # The heap policy is in OpenSearch's own configuration, and it won over jvm.options.
    opts = (out / "node" / "config" / "jvm.options.d" / "flexheap.options").read_text()
    assert "-XX:+UseFlexHeap" in opts and "-XX:-AlwaysPreTouch" in opts
    gc = (out / "gc.log").read_text()
    assert "Heap Max Capacity: 1382M" in gc
    initial = int(re.search(r"Heap Initial Capacity: (\d+)M", gc).group(1))
    assert initial < 1024
    decisions = [line for line in gc.splitlines() if "gc,flexheap" in line]
    assert len(decisions) >= 3, "no FlexHeap decision lines in the node's GC log"
    assert s["flexheap_decisions"] >= 3
    assert s["samples"] > 10 and s["peak_heap_committed"] and s["peak_page_cache"]
    # The node runs unprivileged, without eBPF: the run turned on delay accounting, so the
    # JVM still sees its I/O stalls, and put the setting back.
    assert "No I/O stall source" not in gc, [line for line in gc.splitlines() if "stall source" in line]
    assert "I/O stall source: delayacct" in gc, gc[:3000]
    config = json.loads((out / "config.json").read_text())
    assert config["task_delayacct"].startswith("on")
    # Stopped and cleaned up.
    assert not run_leftovers(out)
    assert not (out / "node" / "data").exists()
    # The README recipe says what this run did, but for the heap's sizes: a measured run takes the
    # policy's (-Xms small); the recipe's production heap (-Xms = -Xmx, a small -XX:MinHeapSize)
    # is started with bootstrap checks enforced in test_production.py.
    for opt in readme_block("opensearch-jvm-options"):
        if option_key(opt) not in ("-Xms", "-Xmx", "MinHeapSize"):
            assert any(option_key(opt) == option_key(o) for o in opts.splitlines()), opt
    assert "OPENSEARCH_JAVA_HOME" in readme_section()


def test_spark_smoke_on_flexheap(tmp_path, jdk):
    prepared("spark:smoke")
    out = tmp_path / "spark"
    # As the README says: the driver's maximum heap leaves room for its ~350-700 MB of non-heap
    # memory; at the policy's 90% of 1 GiB FlexHeap's growth got the driver OOM-killed. The
    # harness keeps Spark's native reserve (640m) out of the heap: 1.5g - 640m (at 1g, 384m would be
    # below the 450m Spark starts with, and the harness refuses the budget).
    proc = harness("run", "--workload", "spark:smoke", "--policy", "flexheap", "--budget", "1536m",
                   "--jdk", str(jdk), "--out", str(out))
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    s = json.loads((out / "summary.json").read_text())
    assert s["ok"] and not s.get("unbudgeted") and s["cgroup_removed"]
    names = [p["name"] for p in s["phases"]]
    assert names == ["scan-agg", "cache-build", "cached-cat-month", "cached-segment", "cached-price-bands",
                     "cached-repeat", "brand-rank"]
    assert all(p["duration_s"] > 0 and p["rows"] > 0 for p in s["phases"])
    argv = (out / "spark-submit.argv").read_text()
    assert s["max_heap"] == 896 << 20 and s["native_reserve"] == 640 << 20
    assert "spark.driver.memory=896m" in argv and "-XX:+UseFlexHeap" in argv and "local[2]" in argv
    assert "spark.memory." not in argv  # defaults
    assert s["flexheap_decisions"] >= 3
    assert not run_leftovers(out)
    section = readme_section()
    for conf in readme_block("spark-submit"):
        for key in re.findall(r"(spark\.driver\.[A-Za-z]+)=", conf):
            assert key in argv, key


def test_a_failing_service_is_reported_and_cleaned_up(tmp_path, jdk):
    prepared("opensearch:smoke")
    out = tmp_path / "bad"
    # A node setting OpenSearch rejects at start-up: the node exits before it is healthy.
    proc = harness("run", "--workload", "opensearch:smoke,settings=no.such.setting:1", "--policy", "g1-90",
                   "--budget", "1536m", "--jdk", str(jdk), "--out", str(out))
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-2000:]
    s = json.loads((out / "summary.json").read_text())
    assert not s["ok"] and "exited" in s["error"]
    assert "no.such.setting" in proc.stdout  # the node's own error is shown
    assert s["cgroup_removed"]
    assert not run_leftovers(out)


def test_ctrl_c_stops_the_service_and_removes_the_cgroup(tmp_path, jdk):
    prepared("spark:smoke")
    out = tmp_path / "int"
    p = subprocess.Popen([sys.executable, "-m", "flexheap_harness", "run", "--workload", "spark:smoke",
                          "--policy", "g1-90", "--budget", "1536m", "--jdk", str(jdk), "--out", str(out)],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=REPO)
    deadline = time.time() + 120
    assert p.stdout is not None
    for line in p.stdout:
        if "spark-submit local[2]" in line:
            break
        assert time.time() < deadline
    for _ in range(60):  # until our driver JVM runs (its -Xlog names our run folder)
        if [p for p in leftover_pids(str(out)) if p in leftover_pids("org.apache.spark.deploy.SparkSubmit")]:
            break
        time.sleep(0.5)
    assert [p for p in leftover_pids(str(out)) if p in leftover_pids("org.apache.spark.deploy.SparkSubmit")], \
        "the driver never started"
    p.send_signal(signal.SIGINT)
    rest = p.communicate(timeout=90)[0]
    assert p.returncode == 130, rest
    assert not run_leftovers(out)
    assert not leftover_pids(str(out))
    cfg = json.loads((out / "config.json").read_text())
    for d in (cfg["cgroup"]["memory_dir"], cfg["cgroup"]["io_dir"]):
        assert d is None or not Path(d).exists()


def lower_memory_limit(memory_dir: Path, limit: int) -> None:
    """Lowers the run's memory limit (swap included, as the harness set it) as an operator or the
    kubelet would; v1 refuses with EBUSY while the cgroup's usage cannot be reclaimed under it, so
    it tries for a few seconds."""
    version = "v2" if (memory_dir / "memory.max").exists() else "v1"
    for _ in range(20):
        try:
            write_memory_limit(memory_dir, version, limit)
            return
        except OSError:
            time.sleep(0.5)
    pytest.fail(f"the kernel refused a {version} memory limit of {limit} bytes for 10 s")


def test_opensearch_limit_lowered_mid_search_no_kill_and_search_goes_on(tmp_path, jdk):
    """Issue 63's OpenSearch scenario: the run's limit drops from 1536 to 1024 MiB 3 s into the
    search phase (an in-place pod resize). The node is not killed, FlexHeap logs the new budget and
    every decision after it keeps the heap under the new ceiling, and every timed search after the
    drop has throughput."""
    prepared("opensearch:smoke")
    out = tmp_path / "drop"
    p = subprocess.Popen([sys.executable, "-m", "flexheap_harness", "run", "--workload",
                          "opensearch:smoke,search_s=10", "--policy", "flexheap", "--budget", "1536m",
                          "--jdk", str(jdk), "--out", str(out)],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=REPO)
    assert p.stdout is not None
    lines: list[str] = []
    deadline = time.time() + 400
    for line in p.stdout:
        lines.append(line)
        if "phase search start" in line:
            break
        assert time.time() < deadline, "".join(lines[-40:])
    else:
        pytest.fail("the run ended before its search phase:\n" + "".join(lines[-40:]))
    time.sleep(3)
    memory_dir = Path(json.loads((out / "config.json").read_text())["cgroup"]["memory_dir"])
    lower_memory_limit(memory_dir, 1024 << 20)
    rest = p.communicate(timeout=400)[0]
    assert p.returncode == 0, "".join(lines[-20:]) + rest[-4000:]
    s = json.loads((out / "summary.json").read_text())
    assert s["ok"] and not s.get("oom_kills"), s.get("error")
    gc = (out / "gc.log").read_text()
    budget = re.search(r"Memory budget: limit 1536M -> 1024M, .*heap ceiling (\d+)M -> (\d+)M, committed (\d+)M", gc)
    assert budget, [line for line in gc.splitlines() if "Memory budget" in line]
    old_ceiling, new_ceiling = int(budget.group(1)), int(budget.group(2))
    assert new_ceiling < old_ceiling
    # every decision after the drop keeps the committed heap under the new ceiling
    after = gc[budget.end():]
    committed = [int(c) // (1 << 20) for c in re.findall(r"decision .*? committed=(\d+)", after)]
    assert committed and max(committed) <= new_ceiling, (new_ceiling, committed[:20])
    for q in ("search-term", "search-phrase", "search-topk", "search-agg"):
        phase = next(ph for ph in s["phases"] if ph["name"] == q)
        assert phase["throughput_qps"] > 0, phase
    assert not run_leftovers(out)
