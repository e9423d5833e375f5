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

"""OpenSearch in production mode (issue 63): the README's recipe, services/opensearch/flexheap.options,
on a real OpenSearch 3.4.0 node on the FlexHeap JDK with bootstrap checks enforced.

A node bound to a non-loopback address enforces the bootstrap checks; one of them refuses a heap
whose initial size differs from its maximum (exit 78). The recipe keeps -Xms = -Xmx and lowers
-XX:MinHeapSize, which FlexHeap resizes down to. The node here stays on 127.0.0.1 and is told to
enforce the checks (-Dopensearch.enforce.bootstrap.checks=true). The old recipe (-Xms small,
-Xmx large) is the negative control: refused with the heap-size message.

The machine-level checks need vm.max_map_count >= 262144 and 65535 open files; the test sets them
as root where it can (and puts vm.max_map_count back). Where it cannot, the enforced node is
still refused, for those checks only, and the test says so by skipping at its end, after it has
checked the rest: the heap-size check passed (it is not among the failures), FlexHeap shrank the
same recipe's heap on a node without enforcement, and the old recipe was refused."""

import contextlib
import os
import re
import resource
import shutil
import subprocess
import time
import urllib.error
from pathlib import Path
from typing import Iterator

import pytest

from flexheap_harness.cgroups import RunCgroup, detect
from flexheap_harness.gclog import Decision, parse_file
from flexheap_harness.jdk import Jdk
from flexheap_harness.services import ServiceUnavailable
from flexheap_harness.services.base import Context, fetch
from flexheap_harness.services.opensearch import OpenSearch

from test_smoke import readme_block, readme_section

REPO = Path(__file__).resolve().parents[2]
JDK = Path(os.environ.get("FLEXHEAP_JDK") or REPO / "build" / "flexheap-jdk")
RECIPE = REPO / "services" / "opensearch" / "flexheap.options"
STOCK_JAVA = Path("/usr/lib/jvm/temurin-25-jdk-amd64/bin/java")

ENFORCE = "-Dopensearch.enforce.bootstrap.checks=true"
BUDGET = 1536 << 20  # the recipe's "1.5 GiB container"
OLD_XMS = "-Xms24m"  # the README's recipe before issue 63
START_TIMEOUT_S = 75  # to healthy, or to the bootstrap checks' exit 78
IDLE_S = 10  # the idle node watched from healthy
SHRINK_BELOW = 0.75  # of -Xms: a shrink, not a region or two
HEAP_CHECK = re.compile(r"initial heap size \[(\d+)\] not equal to maximum heap size \[(\d+)\]")
# The machine-level bootstrap checks the test may have to satisfy, by what their failure says.
MAP_COUNT_CHECK = "max virtual memory areas vm.max_map_count"
FILES_CHECK = "max file descriptors"
THREADS_CHECK = "max number of threads"
MIN_MAP_COUNT, MIN_FILES, MIN_THREADS = 262144, 65535, 4096


def recipe_options(text: str | None = None) -> list[str]:
    """The option lines of a jvm.options file (comments and blank lines dropped)."""
    text = RECIPE.read_text() if text is None else text
    return [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]


def size_of(options: list[str], prefix: str) -> int:
    """The last `prefix`<size> among options in bytes (-Xms1382m, -XX:MinHeapSize=24m)."""
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "": 1}
    values = [o[len(prefix):] for o in options if o.startswith(prefix)]
    assert values, f"no {prefix} in {options}"
    m = re.fullmatch(r"(\d+)([kmg]?)", values[-1].lower())
    assert m, values[-1]
    return int(m.group(1)) * units[m.group(2)]


def old_recipe(options: list[str]) -> list[str]:
    """The recipe as the README had it before: -Xms small, -Xmx large, no minimum heap."""
    return [OLD_XMS if o.startswith("-Xms") else o for o in options if not o.startswith("-XX:MinHeapSize=")]


# ---------------------------------------------------------------- the recipe itself (no node)


def test_the_readme_quotes_the_recipe_file():
    """One recipe: the README's block is services/opensearch/flexheap.options, line for line."""
    m = re.search(r"<!-- opensearch-jvm-options -->\s*```\w*\n(.*?)```", readme_section(), re.S)
    assert m, "README 'Real services' has no block marked <!-- opensearch-jvm-options -->"
    assert m.group(1) == RECIPE.read_text(), "README block and services/opensearch/flexheap.options differ"
    assert readme_block("opensearch-jvm-options") == recipe_options()
    opts = recipe_options()
    assert size_of(opts, "-Xms") == size_of(opts, "-Xmx"), "the heap-size bootstrap check needs -Xms = -Xmx"
    assert size_of(opts, "-XX:MinHeapSize=") < size_of(opts, "-Xms")
    assert "-XX:+UseFlexHeap" in opts and "-XX:-AlwaysPreTouch" in opts


def final_flags(java: Path, options: list[str]) -> dict[str, str]:
    out = subprocess.run([str(java), *options, "-XX:+PrintFlagsFinal", "-version"],
                         capture_output=True, text=True, check=True, timeout=60).stdout
    return {m.group(1): m.group(2) for m in re.finditer(r"^\s*\S+\s+(\w+)\s+:?=\s+(\S+)", out, re.M)}


@pytest.mark.skipif(not STOCK_JAVA.exists(), reason="needs Temurin 25 at /usr/lib/jvm/temurin-25-jdk-amd64")
def test_the_minimum_heap_must_come_after_every_xms():
    """-Xms sets the minimum heap too: the recipe works after OpenSearch's own options (its
    launcher's -XX:+AlwaysPreTouch, the shipped -Xms1g -Xmx1g), and a later -Xms (as in
    OPENSEARCH_JAVA_OPTS, read last) puts the minimum back to -Xms: nothing to resize."""
    launcher = ["-XX:+AlwaysPreTouch"]  # OpenSearch 3.4.0's SystemJvmOptions, before jvm.options
    shipped = ["-Xms1g", "-Xmx1g", "-XX:+UseG1GC"]
    ours = [o for o in recipe_options() if not o.startswith(("-XX:+UseFlexHeap", "-Xlog"))]  # stock JDK
    flags = final_flags(STOCK_JAVA, launcher + shipped + ours)
    assert int(flags["InitialHeapSize"]) == int(flags["MaxHeapSize"]) == size_of(ours, "-Xmx")
    assert int(flags["MinHeapSize"]) == size_of(ours, "-XX:MinHeapSize=")
    assert flags["AlwaysPreTouch"] == "false"
    later = final_flags(STOCK_JAVA, launcher + shipped + ours + ["-Xms1382m", "-Xmx1382m"])
    assert later["MinHeapSize"] == later["MaxHeapSize"]


# ---------------------------------------------------------------- a real node


@contextlib.contextmanager
def machine_limits() -> Iterator[dict[str, str]]:
    """Raises what the machine-level bootstrap checks need, where this process may; yields
    {check message: why it is not met} for the rest. Puts vm.max_map_count and our limits back."""
    unmet: dict[str, str] = {}
    sysctl = Path("/proc/sys/vm/max_map_count")
    old_map_count = int(sysctl.read_text())
    old_files = resource.getrlimit(resource.RLIMIT_NOFILE)
    old_threads = resource.getrlimit(resource.RLIMIT_NPROC)
    try:
        if old_map_count < MIN_MAP_COUNT:
            try:
                sysctl.write_text(str(MIN_MAP_COUNT))
            except OSError as e:
                unmet[MAP_COUNT_CHECK] = f"vm.max_map_count is {old_map_count} and cannot be raised ({e.strerror})"
        for rlimit, minimum, check, what in ((resource.RLIMIT_NOFILE, MIN_FILES, FILES_CHECK, "open files"),
                                             (resource.RLIMIT_NPROC, MIN_THREADS, THREADS_CHECK, "processes")):
            soft, hard = resource.getrlimit(rlimit)
            if hard != resource.RLIM_INFINITY and hard < minimum:
                try:
                    resource.setrlimit(rlimit, (minimum, minimum))  # the node's JVM inherits it
                except (ValueError, OSError):
                    unmet[check] = (f"the hard limit of {what} (ulimit) is {hard}, below {minimum}, and this "
                                    f"process cannot raise it (no CAP_SYS_RESOURCE)")
            elif soft != resource.RLIM_INFINITY and soft < minimum:
                resource.setrlimit(rlimit, (minimum, hard))
        yield unmet
    finally:
        if int(sysctl.read_text()) != old_map_count:
            sysctl.write_text(str(old_map_count))
        resource.setrlimit(resource.RLIMIT_NOFILE, old_files)
        resource.setrlimit(resource.RLIMIT_NPROC, old_threads)


@contextlib.contextmanager
def budget_cgroup() -> Iterator[RunCgroup | None]:
    """A memory cgroup of the recipe's 1.5 GiB, as a container would be (none without a memory controller)."""
    support = detect()
    if support.memory is None:
        yield None
        return
    cg = RunCgroup(support, f"flexheap-prodtest-{os.getpid()}", BUDGET, None)
    cg.create()
    try:
        yield cg
    finally:
        cg.remove()


def peak_memory(cg: RunCgroup | None) -> int | None:
    if cg is None or cg.memory_dir is None:
        return None
    for name in ("memory.max_usage_in_bytes", "memory.peak"):  # v1, v2
        f = cg.memory_dir / name
        if f.exists():
            return int(f.read_text().split()[0])
    return None


class Node:
    """One OpenSearch node started by the harness's own launcher (services/opensearch.py: node
    folder, single-node on 127.0.0.1, unprivileged user) with `options` as its
    config/jvm.options.d/flexheap.options."""

    def __init__(self, run_dir: Path, dist: Path, jdk: Path, options: list[str], cgroup: RunCgroup | None):
        run_dir.mkdir(parents=True)
        self.service = OpenSearch("smoke", "")
        self.service.dist = dist
        self.service.jvm_options = "\n".join(options) + "\n"
        self.ctx = Context(run_dir=run_dir, jdk=Jdk(jdk, True), jvm_flags=[], max_heap=size_of(options, "-Xmx"),
                           budget=BUDGET if cgroup else None, cgroup=cgroup, log=print, t0=time.time())
        self.gc_log = run_dir / "flexheap.log"  # the recipe's -Xlog file, copied out before the stop
        self.stopped = False

    def start(self) -> None:
        self.service.start(self.ctx)

    def outcome(self, timeout_s: float = START_TIMEOUT_S) -> int | str:
        """'healthy', or the exit code of a node that exited first."""
        server = self.service.server
        assert server is not None
        end = time.time() + timeout_s
        while time.time() < end:
            if server.poll() is not None:
                return server.returncode
            try:
                if self.service._get("/_cluster/health", timeout=2).get("status") in ("yellow", "green"):
                    return "healthy"
            except (urllib.error.URLError, OSError, ValueError):
                pass
            time.sleep(0.5)
        pytest.fail(f"the node was neither healthy nor exited within {timeout_s}s; see {self.ctx.run_dir}")

    def heap_committed(self) -> int:
        stats = self.service._get("/_nodes/_local/stats/jvm", timeout=5)
        return int(next(iter(stats["nodes"].values()))["jvm"]["mem"]["heap_committed_in_bytes"])

    def console(self) -> str:
        """What the node printed (the bootstrap checks' failures go here) and its own log."""
        run = self.ctx.run_dir
        parts = [p.read_text(errors="replace") for p in (run / "opensearch.out", run / "opensearch.err") if p.exists()]
        return "\n".join(parts)

    def node_log(self) -> str:
        """The node's own logs (path.logs), while it runs."""
        logs = self.ctx.run_dir / "node" / "logs"
        return "\n".join(p.read_text(errors="replace") for p in sorted(logs.glob("*.log"))) if logs.exists() else ""

    def stop(self) -> None:
        if self.stopped:
            return
        self.stopped = True
        try:
            live = self.ctx.run_dir / "node" / "opensearch" / "logs" / "flexheap.log"
            if live.exists():
                shutil.copy(live, self.gc_log)
            self.service.stop(self.ctx)
        finally:
            for f in self.ctx.files:
                f.close()


@contextlib.contextmanager
def node(run_dir: Path, dist: Path, jdk: Path, options: list[str], cgroup: RunCgroup | None) -> Iterator[Node]:
    n = Node(run_dir, dist, jdk, options, cgroup)
    try:
        n.start()
        yield n
    finally:
        n.stop()


def bootstrap_failures(text: str) -> list[str]:
    """The failed checks an enforcing node lists before it exits 78."""
    # OpenSearch 3.4.0: "ERROR: [2] bootstrap checks failed" and then "[1]: <message>" a line;
    # later Elasticsearch: "bootstrap check failure [1] of [2]: <message>".
    return re.findall(r"^(?:\[\d+\]|bootstrap check failure \[\d+\] of \[\d+\]): (.+)$", text, re.M)


def idle_series(n: Node) -> list[tuple[float, int]]:
    """(seconds since healthy, committed heap) every second for IDLE_S seconds of an idle node."""
    t0 = time.time()
    series = [(0.0, n.heap_committed())]
    while time.time() - t0 < IDLE_S:
        time.sleep(1)
        series.append((round(time.time() - t0, 1), n.heap_committed()))
    return series


def is_own_shrink(d: Decision) -> bool:
    """A shrink FlexHeap's controller made (not only G1's own at a Remark, reason ...,g1Shrink)."""
    return d.action.lower() == "shrink" and (d.number("bytes") or 0) > 0 and "g1Shrink" not in d.fields.get("reason", "")


def check_flexheap_shrank(n: Node, xms: int, xmx: int, min_heap: int) -> str:
    """(b): FlexHeap is on, logs decisions, shrinks the heap itself, and the idle node's committed
    heap is below SHRINK_BELOW of -Xms; the whole -Xms was never touched."""
    series = idle_series(n)
    peak = peak_memory(n.ctx.cgroup)
    n.stop()  # copies the GC log out
    gc_text = n.gc_log.read_text(errors="replace")
    assert "FlexHeap is off" not in gc_text, [line for line in gc_text.splitlines() if "FlexHeap is off" in line]
    m = re.search(r"max heap (\d+)M, min heap (\d+)M", gc_text)
    assert m, "no FlexHeap start-up line in the GC log: FlexHeap is not on"
    assert (int(m.group(1)) << 20, int(m.group(2)) << 20) == (xmx, min_heap), m.group(0)
    assert re.search(rf"Heap Initial Capacity: {xms >> 20}M", gc_text), "the JVM did not start with -Xms committed"
    log = parse_file(n.gc_log)
    assert log.decisions, "FlexHeap logged no decision"
    own = [d for d in log.decisions if is_own_shrink(d)]
    assert own, f"FlexHeap made no shrink of its own among its {len(log.decisions)} decisions"
    first = own[0]
    start, healthy, end = xms, series[0][1], series[-1][1]
    summary = (f"committed {start >> 20} MiB at start (-Xms), {int(first.number('committed') or 0) >> 20} MiB after "
               f"FlexHeap's first shrink at {first.uptime_s:.1f}s of uptime, {healthy >> 20} MiB when the node was "
               f"healthy, {end >> 20} MiB {series[-1][0]:.0f}s later; {len(log.decisions)} decisions, {len(own)} "
               f"shrinks of FlexHeap's own; cgroup peak {peak >> 20 if peak else '-'} MiB")
    print(f"    idle (s after healthy, committed MiB): {[(t, c >> 20) for t, c in series]}")
    print(f"    {summary}")
    assert end < SHRINK_BELOW * xms, (f"the committed heap is {end >> 20} MiB {series[-1][0]:.0f}s after the node was "
                                      f"healthy, not below {SHRINK_BELOW:.0%} of -Xms {xms >> 20} MiB")
    # The whole -Xms was committed but never touched: -XX:-AlwaysPreTouch won over the launcher's +.
    if peak is not None:
        assert peak < xms, f"the node's cgroup peaked at {peak >> 20} MiB, above -Xms: was the heap pre-touched?"
    return summary


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root (the service user, cgroups, vm.max_map_count)")
def test_production_mode_node_passes_the_heap_check_and_flexheap_shrinks(tmp_path):
    assert (JDK / "bin" / "java").exists(), f"the FlexHeap JDK is not built at {JDK} (./flexheap build)"
    try:
        dist = fetch("opensearch", print)
    except ServiceUnavailable as e:
        pytest.skip(f"OpenSearch cannot be fetched: {e}")
    opts = recipe_options()
    xms, xmx, min_heap = size_of(opts, "-Xms"), size_of(opts, "-Xmx"), size_of(opts, "-XX:MinHeapSize=")
    t_start = time.time()
    with machine_limits() as unmet, budget_cgroup() as cg:
        # (c) The negative control: the old recipe is refused by the heap-size check.
        with node(tmp_path / "old", dist, JDK, old_recipe(opts) + [ENFORCE], cg) as old:
            result = old.outcome()
            assert result == 78, f"the old recipe's node: {result}, not exit 78\n{old.console()[-3000:]}"
            m = HEAP_CHECK.search(old.console())
            assert m, f"exit 78 without the heap-size message:\n{old.console()[-3000:]}"
            assert (int(m.group(1)), int(m.group(2))) == (size_of(old_recipe(opts), "-Xms"), xmx), m.group(0)
        print(f"    old recipe: exit 78, {m.group(0)}")

        # (a) The recipe with the checks enforced.
        with node(tmp_path / "enforced", dist, JDK, opts + [ENFORCE], cg) as n:
            result = n.outcome()
            failures = bootstrap_failures(n.console())
            assert not [f for f in failures if HEAP_CHECK.search(f)], failures
            if not unmet:
                assert result == "healthy", (f"the recipe's node with bootstrap checks enforced: exit {result}; "
                                             f"failed checks {failures}\n{n.console()[-3000:]}")
                shrank = check_flexheap_shrank(n, xms, xmx, min_heap)
            else:
                # Refused, but only for the machine-level checks this process could not satisfy.
                assert result == 78, f"exit {result}\n{n.console()[-3000:]}"
                assert failures, n.console()[-3000:]
                unexpected = [f for f in failures if not any(f.startswith(c) for c in unmet)]
                assert not unexpected, f"bootstrap checks failed besides the machine's limits: {unexpected}"
        if unmet:
            # (b) on the same recipe without enforcement: the checks only warn, the node starts.
            with node(tmp_path / "warned", dist, JDK, opts, cg) as n:
                result = n.outcome()
                assert result == "healthy", f"exit {result}\n{n.console()[-3000:]}"
                # The checks ran and warned of the machine's limits, and not of the heap.
                warned = n.node_log() + n.console()
                assert all(c in warned for c in unmet), f"no bootstrap warning for {list(unmet)}"
                assert not HEAP_CHECK.search(warned), HEAP_CHECK.search(warned).group(0)
                shrank = check_flexheap_shrank(n, xms, xmx, min_heap)
    print(f"    {time.time() - t_start:.0f}s in all")
    if unmet:
        pytest.skip("the node could not start with bootstrap checks enforced on this machine: "
                    + "; ".join(unmet.values())
                    + f". Checked instead: the heap-size check passed (the only failures: {', '.join(unmet)}), "
                    f"the recipe's node without enforcement started and FlexHeap shrank it ({shrank}), "
                    "and the old recipe was refused with exit 78")
