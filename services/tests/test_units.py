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

"""Fast tests of the service plumbing: workload names, the heap options we write into the
services' own configuration (checked by a real JVM), result parsing, the corpus, and the
fetch script's checksum check."""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import psutil
import pytest

from flexheap_harness.services import base, parse_workload
from flexheap_harness.services.cli import phase_table
from flexheap_harness.services.corpus import CorpusSpec, Generator, query_terms, vocabulary, write_ndjson
from flexheap_harness.services.opensearch import (FIXED_WORK_OPERATIONS, SETUP_OPERATIONS, jvm_options_file,
                                                  parse_test_run, reachable_java_home, task_records)
from flexheap_harness.services.opensearch_base import (RestoreError, bulk_body, index_body, is_segment_file,
                                                       restore_tree)
from flexheap_harness.services.spark import split_heap_flags
from flexheap_harness.services.stall_source import delay_accounting

HERE = Path(__file__).parent
REPO = HERE.parents[1]
STOCK_JAVA = Path("/usr/lib/jvm/temurin-25-jdk-amd64/bin/java")


def test_workload_names_presets_and_options():
    s = parse_workload("opensearch:smoke,docs_a=5000,search_s=3")
    assert s.kind == "opensearch" and s.params["docs_a"] == 5000 and s.params["search_s"] == 3
    assert s.phases == ["ingest", "search"]
    assert parse_workload("spark:small,scale=0.5").params["scale"] == 0.5
    assert base.is_service_workload("spark:smoke") and not base.is_service_workload("M1")
    with pytest.raises(ValueError, match="unknown opensearch preset"):
        parse_workload("opensearch:huge")
    with pytest.raises(ValueError, match="unknown option"):
        parse_workload("spark:smoke,nodes=3")
    with pytest.raises(ValueError, match="phases"):
        parse_workload("opensearch:smoke,phases=search")


def test_spark_keeps_a_native_reserve_out_of_the_heap_and_checks_it():
    assert parse_workload("spark:tpcds").native_reserve() == 640 << 20
    assert parse_workload("spark:smoke,native_reserve=1g").native_reserve() == 1 << 30
    assert parse_workload("opensearch:smoke").native_reserve() == 0
    with pytest.raises(ValueError, match="native_reserve"):
        parse_workload("spark:smoke,native_reserve=600MB")


def final_flags(java: Path, options: list[str]) -> dict[str, str]:
    out = subprocess.run([str(java), *options, "-XX:+PrintFlagsFinal", "-version"],
                         capture_output=True, text=True, check=True).stdout
    flags = {}
    for line in out.splitlines():
        m = re.match(r"\s*\S+\s+(\w+)\s+:?=\s+(\S+)", line)
        if m:
            flags[m.group(1)] = m.group(2)
    return flags


@pytest.mark.skipif(not STOCK_JAVA.exists(), reason="needs Temurin 25 at /usr/lib/jvm/temurin-25-jdk-amd64")
def test_jvm_options_d_overrides_the_shipped_fixed_heap():
    """OpenSearch appends config/jvm.options.d/*.options after config/jvm.options; the JVM takes
    the last -Xms/-Xmx: what we write must undo -Xms1g -Xmx1g and AlwaysPreTouch."""
    shipped = ["-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch", "-XX:+UseG1GC"]
    ours = [line for line in jvm_options_file(["-XX:+UseG1GC", "-Xmx1382m"], 24 << 20).splitlines()
            if line and not line.startswith("#")]
    flags = final_flags(STOCK_JAVA, shipped + ours)
    assert int(flags["InitialHeapSize"]) == 24 << 20
    assert int(flags["MaxHeapSize"]) == 1382 << 20
    assert flags["AlwaysPreTouch"] == "false"
    # And without our file the trap is real: nothing to resize.
    stock = final_flags(STOCK_JAVA, shipped)
    assert stock["InitialHeapSize"] == stock["MaxHeapSize"]


def test_initial_heap_is_the_jvm_default_share_of_the_budget():
    assert base.initial_heap(1536 << 20, 1382 << 20) == 24 << 20
    assert base.initial_heap(256 << 20, 230 << 20) == 16 << 20  # floor
    assert base.initial_heap(None, 8 << 20) == 8 << 20  # never above -Xmx


def test_spark_heap_goes_to_driver_memory_and_the_rest_to_java_options():
    xmx, rest = split_heap_flags(["-XX:+UseG1GC", "-Xmx921m", "-XX:+UseFlexHeap", "-Xlog:gc*:file=x"])
    assert xmx == "921m"
    assert rest == ["-XX:+UseG1GC", "-XX:+UseFlexHeap", "-Xlog:gc*:file=x"]


def test_parse_opensearch_benchmark_results():
    tasks = parse_test_run(HERE / "data" / "osb-test_run-search.json")
    assert set(tasks) == {"search-term", "search-phrase", "search-topk", "search-agg"}
    t = tasks["search-term"]
    assert t["unit"] == "ops/s" and t["throughput"] == pytest.approx(45.694, rel=1e-3)
    assert t["p50_service_ms"] == pytest.approx(27.31, rel=1e-3)
    assert t["p99_service_ms"] == pytest.approx(108.33, rel=1e-3)
    assert t["error_rate"] == 0
    assert t["last_request_s"] == pytest.approx(6.0036, rel=1e-3)  # opensearch-benchmark gives ms


def test_task_records_time_the_fixed_work_of_a_bulk_only():
    def task(op, thr, last_s, err=0.0):
        return {"operation": op, "throughput": thr, "unit": "docs/s" if op.startswith("bulk") else "ops/s",
                "p50_service_ms": 1.0, "p99_service_ms": 2.0, "error_rate": err, "last_request_s": last_s}
    recs = task_records("ingest-search", {"refresh": task("refresh", None, 0.1),
                                          "mixed-bulk": task("bulk-b", 4781.0, 10.5714),
                                          "mixed-term": task("term", 0.75, 9.74),
                                          "bulk-a": task("bulk-a", 4300.0, None)})
    by = {r["name"]: r for r in recs}
    assert set(by) == {"mixed-bulk", "mixed-term", "ingest-bulk"}  # setup tasks are not measured
    assert by["mixed-bulk"]["work_s"] == 10.571 and by["mixed-bulk"]["throughput_qps"] == 4781.0
    assert "work_s" not in by["mixed-term"]  # a timed search: its duration is its time period
    assert "work_s" not in by["ingest-bulk"]  # no duration reported, no time
    # the fixed-work operations are the workload's bulk operations (a Jinja template, so by pattern)
    text = (REPO / "services/opensearch/workload/operations/default.json").read_text()
    kinds = dict(re.findall(r'"name":\s*"([^"]+)",\s*"operation-type":\s*"([^"]+)"', text))
    assert {name for name, kind in kinds.items() if kind == "bulk"} == set(FIXED_WORK_OPERATIONS)
    assert set(SETUP_OPERATIONS) <= set(kinds)


def test_phase_table_takes_medians_per_policy_and_phase():
    def run(policy, qps, p99, ok=True):
        return {"policy": policy, "ok": ok, "total_s": 10, "read_bytes": 1 << 20, "gc_pause_ms": 5,
                "phases": [{"name": "search-term", "unit": "ops/s", "throughput_qps": qps,
                            "p50_service_ms": 1.0, "p99_service_ms": p99}]}
    runs = [run("g1-90", 10, 50), run("g1-90", 30, 70), run("g1-90", 20, 60), run("flexheap", 40, 20),
            run("flexheap", 1000, 1, ok=False)]
    header, rows = phase_table(runs)
    assert header[:5] == ["phase", "unit", "g1-90 throughput", "g1-90 p50 ms", "g1-90 p99 ms"]
    term = rows[0]
    assert term[0] == "search-term" and term[2] == "20.0" and term[4] == "60.0"
    assert term[5] == "40.0" and term[7] == "20.0"  # the failed run is not counted


def test_phase_table_gives_span_phases_a_time_row():
    def run(policy, qps, span_s, work_s):
        return {"policy": policy, "ok": True, "total_s": 10,
                "phases": [{"name": "ingest-search", "duration_s": span_s},
                           {"name": "mixed-bulk", "unit": "docs/s", "throughput_qps": qps, "work_s": work_s}]}
    header, rows = phase_table([run("g1-50", 3000, 39.0, 9.0), run("g1-50", 3100, 41.0, 11.0),
                                run("g1-50", 2900, 60.0, 10.0), run("flexheap", 3200, 38.0, 12.5)])
    by_name = {r[0]: r for r in rows}
    assert "ingest-search" not in by_name  # no throughput row for a span
    assert by_name["time ingest-search"][1:] == ["s", "41.0", "", "", "38.0", "", ""]
    assert by_name["mixed-bulk"][2] == "3000.0"
    # the bulk's own work time, beside its phase's span
    assert by_name["time mixed-bulk"][1:] == ["s", "10.0", "", "", "12.5", "", ""]


def test_corpus_is_zipf_and_deterministic(tmp_path):
    gen = Generator(CorpusSpec(docs=400, seed=1))
    words = Counter(w for d in gen.documents(0, 400) for w in d["body"].split())
    vocab = vocabulary(50_000)
    f1, f10 = words[vocab[0]], words[vocab[9]]
    assert 6 < f1 / f10 < 18  # 10^1.07 = 11.7
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    write_ndjson(a, CorpusSpec(docs=50, seed=3))
    write_ndjson(b, CorpusSpec(docs=50, seed=3))
    assert a.read_bytes() == b.read_bytes()
    docs = [json.loads(line) for line in a.read_text().splitlines()]
    assert len(docs) == 50 and set(docs[0]) == {"id", "title", "body", "category", "views", "rating", "timestamp"}


def test_workload_json_in_the_repository_is_what_opensearch_benchmark_reads():
    wl = REPO / "services" / "opensearch" / "workload"
    procs = (wl / "test_procedures" / "default.json").read_text()
    for phase in ("ingest", "ingest-search", "search"):
        assert f'"name": "{phase}"' in procs
    assert '"completed-by": "mixed-bulk"' in procs and '"name": "mixed-bulk"' in procs
    ops = (wl / "operations" / "default.json").read_text()
    for op in ("term", "phrase", "topk", "agg"):
        assert f'"query-kind": "{op}"' in ops
    assert "register_param_source" in (wl / "workload.py").read_text()


def test_fetch_refuses_a_zip_whose_sha1_does_not_match(tmp_path):
    """A corrupted download must not be unpacked: services/fetch.sh compares the zip with the
    repository's .sha1 and fails."""
    cached = base.cache_dir() / "downloads" / "opensearch-3.4.0.zip"
    if not cached.exists():
        pytest.skip("the OpenSearch zip has not been fetched (services/fetch.sh opensearch)")
    dest = tmp_path / "services"
    (dest / "downloads").mkdir(parents=True)
    bad = dest / "downloads" / cached.name
    shutil.copy(cached, bad)
    with open(bad, "ab") as f:
        f.write(b"tampered")
    shutil.copy(str(cached) + ".sha1", str(bad) + ".sha1")
    os.utime(bad, (2_000_000_000, 2_000_000_000))  # newer than the repository copy: maven keeps it
    os.utime(str(bad) + ".sha1", (2_000_000_000, 2_000_000_000))
    proc = subprocess.run(["bash", str(REPO / "services" / "fetch.sh"), "opensearch"], capture_output=True,
                          text=True, env=dict(os.environ, FLEXHEAP_SERVICES=str(dest)))
    assert proc.returncode == 1, proc.stderr
    assert "sha1 mismatch" in proc.stderr
    assert not (dest / "opensearch-3.4.0").exists()


def test_tpcds_generator_from_the_wheel_works_offline(tmp_path):
    """dsdgen and the 99 query texts come from the duckdb-extension-tpcds wheel, not a download."""
    try:
        duck = base.fetch("tpcds", print)
    except base.ServiceUnavailable as e:
        pytest.skip(f"duckdb-extension-tpcds cannot be fetched: {e}")
    proc = subprocess.run([str(duck / "bin" / "python"), str(REPO / "services" / "spark" / "tpcds_gen.py"),
                           "--sf", "0.01", "--out", str(tmp_path)], capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, no_proxy="*", http_proxy="http://127.0.0.1:9", https_proxy="http://127.0.0.1:9"))
    assert proc.returncode == 0, proc.stderr
    tables = sorted(p.name for p in tmp_path.iterdir() if (p / "part-0.parquet").exists())
    assert len(tables) == 24 and "store_sales" in tables
    queries = sorted((tmp_path / "queries").glob("q*.sql"))
    assert len(queries) == 99 and "store_sales" in (tmp_path / "queries" / "q03.sql").read_text()
    # Every table a TPC-DS preset cache()s exists, and one of its queries reads it: a cached
    # table nobody joins would hold storage memory without competing for anything.
    for preset in ("tpcds", "tpcds-10x", "tpcds-all"):
        params = parse_workload(f"spark:{preset}").params
        texts = [(tmp_path / "queries" / f"{q}.sql").read_text() for q in params["queries"].split(",")]
        for table in params["cache"].split("+"):
            assert table in tables, (preset, table)
            assert any(re.search(rf"\b{table}\b", t) for t in texts), (preset, table)
    with pytest.raises(ValueError, match="cannot parse"):
        parse_workload("spark:tpcds,queries=q03+q16")
    assert parse_workload("spark:tpcds,queries=q03+q07").params["queries"] == "q03,q07"


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to create the service user")
def test_a_jdk_the_service_user_cannot_reach_is_linked_into_the_node():
    # The JDK 26 baseline lives in root's private cache: OpenSearch, started as the service
    # user, exited with "could not find java in OPENSEARCH_JAVA_HOME" (every g1-26 run).
    user = base.ensure_user()
    # Not pytest's tmp_path: /tmp/pytest-of-root is private itself.
    tmp_path = Path(tempfile.mkdtemp(prefix="flexheap-test-", dir="/var/tmp"))
    try:
        _check_reachable_java_home(tmp_path, user)
    finally:
        shutil.rmtree(tmp_path)


def _check_reachable_java_home(tmp_path: Path, user) -> None:
    private = tmp_path / "private"
    (private / "jdk" / "bin").mkdir(parents=True)
    (private / "jdk" / "bin" / "java").write_text("#!/bin/sh\n")
    os.chmod(private, 0o700)
    public = tmp_path / "node"
    public.mkdir()
    os.chmod(tmp_path, 0o755)
    home = reachable_java_home(private / "jdk", public, user)
    assert home == public / "jdk"
    assert (home / "bin" / "java").read_text() == "#!/bin/sh\n"
    assert os.stat(home / "bin" / "java").st_ino == os.stat(private / "jdk" / "bin" / "java").st_ino  # linked
    os.chmod(private, 0o755)
    assert reachable_java_home(private / "jdk", public, user) == private / "jdk"  # reachable: used as it is


def test_a_client_worker_that_left_its_process_group_is_still_killed(tmp_path: Path):
    # opensearch-benchmark's workers leave the client's process group; after a Ctrl-C they
    # outlived the run. The runner notes the whole tree before stopping and kills what is left.
    marker = tmp_path / "worker.pid"
    script = ("import os, time\n"
              "if os.fork() == 0:\n"
              "    os.setsid()\n"
              f"    open({str(marker)!r}, 'w').write(str(os.getpid()))\n"
              "    time.sleep(300)\n"
              "time.sleep(300)\n")
    client = subprocess.Popen([sys.executable, "-c", script], start_new_session=True)
    try:
        for _ in range(100):
            if marker.exists() and marker.read_text():
                break
            time.sleep(0.05)
        worker = int(marker.read_text())
        assert os.getpgid(worker) != os.getpgid(client.pid)  # out of the client's group
        tree = base.process_tree(client.pid)
        assert {client.pid, worker} <= {p.pid for p in tree}
        base.terminate(client, 1)  # what a service's stop() does: the group only
        assert psutil.pid_exists(worker)
        base.kill_processes(tree)
        psutil.wait_procs([p for p in tree if p.pid == worker], timeout=5)
        assert not psutil.pid_exists(worker) or psutil.Process(worker).status() == psutil.STATUS_ZOMBIE
    finally:
        client.kill()


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False


@pytest.mark.parametrize("leader_done", [False, True], ids=["leader-running", "leader-exited"])
def test_terminate_kills_a_group_member_that_ignores_sigterm_and_outlives_its_leader(leader_done):
    # A client's worker that ignores SIGTERM (inherited across exec) stays in the group after
    # its leader is gone; terminate() must still kill it.
    leader = "exit 0" if leader_done else "sleep 300"
    client = subprocess.Popen(["sh", "-c", f"(trap '' TERM; exec sleep 300) & {leader}"],
                              start_new_session=True)
    try:
        if leader_done:
            client.wait(timeout=10)
        time.sleep(0.3)
        assert _group_alive(client.pid)  # the member is there (and survives SIGTERM below)
        base.terminate(client, 1)
        deadline = time.time() + 5
        while _group_alive(client.pid) and time.time() < deadline:
            time.sleep(0.05)
        assert not _group_alive(client.pid)
        assert client.returncode is not None
    finally:
        try:
            os.killpg(client.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


_DAEMON = """
import os, signal, sys, time
if os.fork():
    os._exit(0)  # the client exits; its child daemonizes as opensearch-benchmark's actor system does
os.setsid()
signal.signal(signal.SIGTERM, signal.SIG_IGN)
open(sys.argv[1], "w").write(str(os.getpid()))
time.sleep(300)
"""


def _daemon_pid(pidfile: Path) -> int:
    deadline = time.time() + 10
    while not (pidfile.exists() and pidfile.read_text()) and time.time() < deadline:
        time.sleep(0.05)
    return int(pidfile.read_text())


def _kill_quietly(pid: int | None) -> None:
    if pid is not None:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def test_kill_by_environ_reaches_a_daemon_that_left_the_clients_session(tmp_path):
    # opensearch-benchmark's actor system double-forks into a session of its own; after a
    # client killed mid-run it stayed, and every later client exited 64. terminate() cannot
    # reach it (another group, reparented to init); the client's environment marks it.
    pidfile = tmp_path / "daemon.pid"
    env = dict(os.environ, FLEXHEAP_TEST_MARK=str(tmp_path))
    client = subprocess.Popen([sys.executable, "-c", _DAEMON, str(pidfile)], env=env, start_new_session=True)
    daemon = None
    try:
        daemon = _daemon_pid(pidfile)
        base.terminate(client, 1)
        time.sleep(0.2)
        assert psutil.pid_exists(daemon) and os.getsid(daemon) != client.pid  # out of terminate()'s reach
        assert base.kill_by_environ("FLEXHEAP_TEST_MARK", str(tmp_path) + "-other") == []
        assert base.kill_by_environ("FLEXHEAP_TEST_MARK", str(tmp_path)) == [daemon]
        deadline = time.time() + 5
        while psutil.pid_exists(daemon) and psutil.Process(daemon).status() != psutil.STATUS_ZOMBIE \
                and time.time() < deadline:
            time.sleep(0.05)
        assert not psutil.pid_exists(daemon) or psutil.Process(daemon).status() == psutil.STATUS_ZOMBIE
    finally:
        _kill_quietly(daemon)


def test_spawn_marks_a_client_so_the_runs_teardown_reaches_its_daemon(tmp_path):
    # run.py's teardown kills by RUN_MARK what left the client's group and tree.
    pidfile = tmp_path / "daemon.pid"
    ctx = base.Context(run_dir=tmp_path, jdk=None, jvm_flags=[], max_heap=0, budget=None, cgroup=None,
                       log=print, t0=time.time())
    client = base.spawn(ctx, [sys.executable, "-c", _DAEMON, str(pidfile)], "client", in_cgroup=False)
    daemon = None
    try:
        daemon = _daemon_pid(pidfile)
        client.wait(timeout=10)
        assert psutil.Process(daemon).environ()[base.RUN_MARK] == str(tmp_path)
        assert base.kill_by_environ(base.RUN_MARK, str(tmp_path)) == [daemon]
    finally:
        for f in ctx.files:
            f.close()
        _kill_quietly(daemon)


# The kernel's delay accounting for unprivileged service JVMs (stall_source.py).

def test_delay_accounting_is_turned_on_for_the_run_and_put_back(tmp_path):
    knob = tmp_path / "task_delayacct"
    knob.write_text("0\n")
    with delay_accounting(print, knob) as note:
        assert knob.read_text().strip() == "1"
        assert note == "on for the run (was 0)"
    assert knob.read_text().strip() == "0"
    # Put back after a failed run too.
    with pytest.raises(RuntimeError):
        with delay_accounting(print, knob):
            raise RuntimeError("run failed")
    assert knob.read_text().strip() == "0"


def test_delay_accounting_already_on_or_missing_is_left_alone(tmp_path):
    knob = tmp_path / "task_delayacct"
    knob.write_text("1\n")
    with delay_accounting(print, knob) as note:
        assert note == "on (already)"
    assert knob.read_text().strip() == "1"
    with delay_accounting(print, tmp_path / "absent") as note:
        assert note.startswith("unavailable")
    assert not (tmp_path / "absent").exists()


def test_delay_accounting_that_cannot_be_set_warns_and_runs(tmp_path):
    knob = tmp_path / "ro" / "task_delayacct"
    knob.parent.mkdir()
    knob.write_text("0\n")
    said = []
    real_write = Path.write_text

    def refuse(self, *a, **k):
        if self == knob:
            raise PermissionError(13, "Permission denied")
        return real_write(self, *a, **k)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Path, "write_text", refuse)
        with delay_accounting(said.append, knob) as note:
            assert note.startswith("off: cannot turn it on")
    assert knob.read_text().strip() == "0"
    assert said and "no I/O stall source" in said[0]


def test_only_the_unprivileged_service_needs_delay_accounting():
    assert parse_workload("opensearch:smoke").unprivileged
    assert not parse_workload("spark:smoke").unprivileged


def test_restore_links_segment_files_and_copies_the_rest(tmp_path):
    """A run's node must never alter the cached base index: Lucene's segment files are shared
    by hard link (write-once), translog and state files are real copies (rewritten in place)."""
    src = tmp_path / "base"
    seg = src / "nodes" / "0" / "indices" / "u1" / "0" / "index"
    tlog = src / "nodes" / "0" / "indices" / "u1" / "0" / "translog"
    for d in (seg, tlog, src / "nodes" / "0" / "_state"):
        d.mkdir(parents=True)
    (seg / "_0.cfs").write_bytes(b"segment")
    (seg / "segments_2").write_bytes(b"commit")
    (seg / "write.lock").write_bytes(b"")
    (tlog / "translog.ckp").write_bytes(b"ckp-0")
    (src / "nodes" / "0" / "_state" / "node-0.st").write_bytes(b"state")
    dst = tmp_path / "run" / "data"
    assert restore_tree(src, dst) == (2, 3)
    assert os.path.samefile(seg / "_0.cfs", dst / "nodes/0/indices/u1/0/index/_0.cfs")
    assert not os.path.samefile(seg / "write.lock", dst / "nodes/0/indices/u1/0/index/write.lock")
    # The run rewrites its checkpoint in place and drops a merged-away segment:
    with open(dst / "nodes/0/indices/u1/0/translog/translog.ckp", "r+b") as f:
        f.write(b"ckp-9")
    (dst / "nodes/0/indices/u1/0/index/_0.cfs").unlink()
    assert (tlog / "translog.ckp").read_bytes() == b"ckp-0"
    assert (seg / "_0.cfs").read_bytes() == b"segment"
    assert not is_segment_file(Path("nodes/0/indices/u1/0/translog/translog-1.tlog"))


def test_restore_refuses_to_copy_what_it_cannot_link(monkeypatch, tmp_path):
    """Copying GBs of segments inside the run would warm the page cache before the node starts
    and put the index on another device: a segment that cannot be linked fails the run."""
    seg = tmp_path / "base" / "nodes" / "0" / "indices" / "u1" / "0" / "index"
    seg.mkdir(parents=True)
    (seg / "_0.cfs").write_bytes(b"segment")

    def cross_device(_src, _dst):
        raise OSError(18, "Invalid cross-device link")

    monkeypatch.setattr(os, "link", cross_device)
    with pytest.raises(RestoreError, match="must be on the file system of"):
        restore_tree(tmp_path / "base", tmp_path / "run" / "data")
    monkeypatch.undo()
    with pytest.raises(RestoreError, match="is missing"):
        restore_tree(tmp_path / "gone", tmp_path / "run2" / "data")
    (seg / "_0.cfs").unlink()
    with pytest.raises(RestoreError, match="no segment file"):
        restore_tree(tmp_path / "base", tmp_path / "run3" / "data")


def test_a_stale_base_index_is_rebuilt(monkeypatch, tmp_path):
    """A base index built from another mapping, corpus generator, document count or distribution
    is rebuilt (the runs never create the index, so a change would otherwise not take effect)."""
    from flexheap_harness.services import opensearch as os_mod
    from flexheap_harness.services import opensearch_base
    builds = []

    class Builder:
        def __init__(self, dist, java_home, workload_dir, target, docs, seed, start_id, log):
            builds.append((docs, seed, start_id))
            self.docs = docs

        def build(self):
            return {"docs": self.docs, "store_bytes": 1 << 30, "seed": 0, "build_s": 1.0}

    monkeypatch.setattr(opensearch_base, "BaseIndexBuilder", Builder)
    monkeypatch.setattr("flexheap_harness.jdk.find_jdk", lambda: (type("J", (), {"home": tmp_path})(), None))
    s = parse_workload("opensearch:large,base_docs=1000")
    s.base_root, s.dist = tmp_path / "base", tmp_path / "opensearch-3.4.0"
    first = s._base_index(lambda _m: None)
    assert builds == [(1000, 44, 150_000)] and first["key"]["docs"] == 1000
    assert s._base_index(lambda _m: None) == first and len(builds) == 1  # reused
    meta = json.loads((tmp_path / "base" / "base.json").read_text())
    meta["key"]["mapping_sha256"] = "0" * 64  # built with another index.json
    (tmp_path / "base" / "base.json").write_text(json.dumps(meta))
    said = []
    s._base_index(said.append)
    assert len(builds) == 2 and any("stale (mapping_sha256 changed)" in m for m in said)
    meta.pop("key")  # built before the key existed
    (tmp_path / "base" / "base.json").write_text(json.dumps(meta))
    s._base_index(lambda _m: None)
    assert len(builds) == 3
    Builder.build = lambda self: {"docs": self.docs - 1, "store_bytes": 1, "seed": 0, "build_s": 1.0}
    (tmp_path / "base" / "base.json").unlink()
    with pytest.raises(RuntimeError, match="holds 999 documents, not 1000"):
        s._base_index(lambda _m: None)


def test_a_stale_corpus_and_its_terms_are_regenerated(monkeypatch, tmp_path):
    """A corpus made by another generator or for other parameters (or before corpora were keyed)
    is made again, with its query terms: the runs would otherwise measure the old documents."""
    from flexheap_harness.services import opensearch as os_mod
    s = parse_workload("opensearch:smoke,docs_a=200,docs_b=100")
    s.data_root, s.osb_home = tmp_path / "data", tmp_path / "data" / "osb-home"
    s.terms_file = s.data_root / "terms-x.json"
    s.data_root.mkdir()
    said: list[str] = []
    s._corpus(said.append)
    docs_a = s._corpus_dir("fh-a") / "docs-a.json"
    assert s.meta["fh-a"]["docs"] == 200 and s.meta["key"]["docs_a"] == 200 and s.terms_file.exists()
    assert len(docs_a.read_text().splitlines()) == 200 and any("generating" in m for m in said)
    said.clear()
    s._corpus(said.append)
    assert not any("generating" in m for m in said)  # reused
    monkeypatch.setattr(os_mod, "generator_sha256", lambda: "f" * 64)  # corpus.py changed
    s.terms_file.write_text("{}")
    s._corpus(said.append)
    assert any("stale (generator_sha256 changed)" in m for m in said)
    assert json.loads(s.terms_file.read_text())["terms"]  # drawn again
    meta = json.loads((s.data_root / "corpus.json").read_text())
    meta.pop("key")  # made before corpora were keyed
    (s.data_root / "corpus.json").write_text(json.dumps(meta))
    said.clear()
    s._corpus(said.append)
    assert any("stale (docs_a, docs_b, generator_sha256, seed changed)" in m for m in said)


def test_a_node_that_opens_less_than_the_base_index_fails_the_run(monkeypatch):
    from flexheap_harness.services import opensearch as os_mod
    s = parse_workload("opensearch:large,base_docs=1000")
    s.base_meta = {"docs": 1000}
    s.server = object()
    monkeypatch.setattr(os_mod, "wait_healthy", lambda *a, **k: None)
    ctx = type("Ctx", (), {"check_deadline": staticmethod(lambda: None)})()
    monkeypatch.setattr(s, "_get", lambda path, timeout=5.0: {"count": 1000})
    s.wait_ready(ctx)  # the whole base index: ready
    monkeypatch.setattr(s, "_get", lambda path, timeout=5.0: {"count": 12})
    with pytest.raises(RuntimeError, match="holds 12 documents, not 1000"):
        s.wait_ready(ctx)


def test_base_index_body_and_bulk_request():
    body = index_body(REPO / "services" / "opensearch" / "workload", "-1")
    assert body["settings"]["index.refresh_interval"] == "-1"
    assert body["mappings"]["dynamic"] == "strict"
    lines = bulk_body([{"id": 1}, {"id": 2}]).decode().split("\n")
    assert lines == ['{"index":{}}', '{"id":1}', '{"index":{}}', '{"id":2}', ""]


def test_large_preset_restores_a_base_index_and_ingest_keeps_it():
    s = parse_workload("opensearch:large")
    assert s.params["base_docs"] == 6_000_000 and s.base_root.name == "opensearch-base-6000000-44"
    assert parse_workload("opensearch:small").params["base_docs"] == 0
    with pytest.raises(ValueError, match="base_docs"):
        parse_workload("opensearch:small,base_docs=-5")
    procs = (REPO / "services" / "opensearch" / "workload" / "test_procedures" / "default.json").read_text()
    ingest = procs[:procs.index('"name": "ingest-search"')]
    guard = ingest.index("{% if fresh_index | default(true) %}")
    assert guard < ingest.index('"delete-index"') < ingest.index('"create-index"') < ingest.index("{% endif %}")


def test_delay_accounting_is_put_back_when_the_run_fails_before_the_service_starts(monkeypatch, tmp_path):
    """Setting the run up (its Sampler, here) can fail after delay accounting was turned on."""
    from flexheap_harness.cgroups import CgroupSupport
    from flexheap_harness.devices import parse_profile
    from flexheap_harness.jdk import Jdk
    from flexheap_harness.policies import parse_policy
    from flexheap_harness.runner import RunConfig
    from flexheap_harness.services import run as run_mod

    knob = tmp_path / "task_delayacct"
    knob.write_text("0\n")
    monkeypatch.setattr(run_mod, "delay_accounting", lambda log: delay_accounting(log, knob))

    def broken_sampler(*_a, **_k):
        assert knob.read_text().strip() == "1"
        raise OSError("no sampler")

    monkeypatch.setattr(run_mod, "Sampler", broken_sampler)

    class Unprivileged(base.Service):
        kind, unprivileged = "fake", True

        def prepare(self, log):
            pass

        def data_dir(self):
            return tmp_path

    cfg = RunConfig(policy=parse_policy("g1-50"), budget=512 << 20, device=parse_profile("host"),
                    jdk=Jdk(tmp_path, False), program=[], data_dir=tmp_path, run_dir=tmp_path / "run",
                    drop_caches=False, unbudgeted=True)
    class Cgroup:  # the run's cgroup, as enter_run_cgroup() made it
        dirs, warnings = ["/sys/fs/cgroup/memory/flexheap-run"], []

        def oom_kills(self):
            return 0

        def remove(self):
            self.dirs = []

        def describe(self):
            return {}

    cgroup = Cgroup()
    monkeypatch.setattr(run_mod.runner, "enter_run_cgroup", lambda *a: cgroup)
    try:
        run_mod.run_service_once(cfg, Unprivileged("x", ""), log=lambda _m: None,
                                 support=CgroupSupport(problems=["not root: cannot create cgroups"]))
    except OSError as e:
        assert str(e) == "no sampler"
        # Checked while the failed call's frames are alive: a setting put back only when the
        # garbage collector closes the context manager would still be 1 here.
        assert knob.read_text().strip() == "0"
        assert cgroup.dirs == [], "the run's cgroup outlived a run that failed before its service started"
    else:
        pytest.fail("the broken sampler did not fail the run")


def test_query_terms_span_the_requested_zipf_ranks():
    words = vocabulary(50_000)
    assert query_terms(400, 20, 420) == words[20:420]  # the small presets' terms, as before
    spread = query_terms(400, 100, 20_000)
    ranks = sorted(words.index(t) for t in spread)
    assert len(spread) == len(set(spread)) > 300
    assert ranks[0] == 100 and ranks[-1] == 19_999
    # log-uniform: as many terms among the first 10x of the range as among the last 10x
    assert abs(sum(r < 1000 for r in ranks) - sum(r >= 2000 for r in ranks)) < 0.1 * len(ranks)
    with pytest.raises(ValueError, match="term_ranks"):
        parse_workload("opensearch:small,term_ranks=500")
    with pytest.raises(ValueError, match="term_ranks"):
        parse_workload("opensearch:small,term_ranks=400-100")
    with pytest.raises(ValueError, match="the phrase queries pair 60 terms"):
        parse_workload("opensearch:small,term_ranks=20-50")  # 30 terms: too few for 60 phrases
    with pytest.raises(ValueError, match="HI <= 50000"):
        parse_workload("opensearch:small,term_ranks=100-60000")
    assert parse_workload("opensearch:small,term_ranks=20-81").term_ranks == (20, 81)
