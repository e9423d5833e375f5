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

"""OpenSearch 3.4.0 (the integ-test-zip distribution) under opensearch-benchmark.

Per run: a node folder in the run folder (the distribution hard-linked, config copied) with
the policy's heap flags in config/jvm.options.d/flexheap.options, started as an unprivileged
user inside the run cgroup, health-checked over HTTP on 127.0.0.1, driven by
opensearch-benchmark (our workload in services/opensearch/workload, generated corpus, one
invocation per phase: ingest, ingest-search, search), then stopped and its data removed.
"""

from __future__ import annotations

import hashlib
import json
import os
import pwd
import shutil
import socket
import stat
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any, Callable

from ..jdk import repo_root
from ..policies import JDK_26
from .base import (Context, Service, cache_dir, chown_tree, ensure_user, fetch, find_pid, initial_heap,
                   kill_by_environ, parse_options, spawn, terminate, descendants)
from .run import phase_record

PRESETS: dict[str, dict[str, Any]] = {
    # docs ~1.6 KB each on disk as NDJSON
    # base_docs: documents of an index built once and restored for every run (opensearch_base.py);
    # the phases then ingest fh-a and fh-b on top of it.
    "smoke": dict(docs_a=3000, docs_b=1000, search_s=5, warmup_s=1, bulk_clients=1, search_clients=1,
                  bulk_size=250, seed=42, phases="ingest+search", settings="", base_docs=0, term_ranks="20-420"),
    "small": dict(docs_a=300_000, docs_b=100_000, search_s=30, warmup_s=5, bulk_clients=2, search_clients=2,
                  bulk_size=500, seed=42, phases="ingest+ingest-search+search", settings="", base_docs=0,
                  term_ranks="20-420"),
    "medium": dict(docs_a=1_200_000, docs_b=300_000, search_s=60, warmup_s=10, bulk_clients=2,
                   search_clients=2, bulk_size=500, seed=42, phases="ingest+ingest-search+search", settings="",
                   base_docs=0, term_ranks="20-420"),
    # The paper's regime: a ~9.3 GB index built once, 150k documents added per run. Query terms
    # from the head to the tail of the vocabulary: on this index a head term matches most of
    # the 6M documents, and a workload of head terms only is a scan that no cache size serves.
    "large": dict(docs_a=100_000, docs_b=50_000, search_s=30, warmup_s=5, bulk_clients=2, search_clients=2,
                  bulk_size=500, seed=42, phases="ingest+ingest-search+search", settings="",
                  base_docs=6_000_000, term_ranks="100-20000"),
}
PHASES = ("ingest", "ingest-search", "search")
# Operations that run a fixed corpus to its end (the others run for a time period). The time
# to their last request is the time the work took, less that request's service time (median
# 0.1-0.4 s for a 500-document bulk here): a finer measure than the phase's wall time, which
# adds opensearch-benchmark's start-up and its 5-s completion checks.
FIXED_WORK_OPERATIONS = ("bulk-a", "bulk-b")
SETUP_OPERATIONS = ("delete-index", "create-index", "check-cluster-health", "refresh")


def task_records(phase: str, tasks: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """One phase record per measured task of parse_test_run's output: throughput and service
    times, and for a task of fixed work its time to the last request (work_s)."""
    records = []
    for task, m in tasks.items():
        if m["operation"] in SETUP_OPERATIONS:
            continue
        rec = {"name": "ingest-bulk" if task == "bulk-a" else task, "osb_phase": phase,
               "throughput_qps": m["throughput"], "unit": m["unit"],
               "p50_service_ms": m["p50_service_ms"], "p99_service_ms": m["p99_service_ms"],
               "error_rate": m["error_rate"]}
        if m["operation"] in FIXED_WORK_OPERATIONS and m.get("last_request_s"):
            rec["work_s"] = round(m["last_request_s"], 3)
        records.append(rec)
    return records
MAIN_CLASS = "org.opensearch.bootstrap.OpenSearch"


def generator_sha256() -> str:
    """What a generated corpus, its query terms and the base index depend on: corpus.py's bytes."""
    return hashlib.sha256(Path(__file__).with_name("corpus.py").read_bytes()).hexdigest()


def workload_dir() -> Path:
    return repo_root() / "services" / "opensearch" / "workload"


def reachable_java_home(home: Path, node: Path, user: pwd.struct_passwd) -> Path:
    """`home`, or its hard-linked copy in `node` when `user` cannot reach it (the JDK 26
    baseline lives in root's private cache; OpenSearch would exit "could not find java")."""
    if user_can_traverse(home / "bin", user):
        return home
    linked = node / "jdk"
    link_tree(home, linked)
    return linked


def link_tree(src: Path, dst: Path) -> None:
    """dst as a tree of hard links to src's files (no copy, and readable wherever dst is);
    a real copy when they cannot be linked (another file system)."""
    if subprocess.run(["cp", "-al", str(src), str(dst)], capture_output=True).returncode != 0:
        shutil.copytree(src, dst, symlinks=True)


def user_can_traverse(path: Path, user: pwd.struct_passwd) -> bool:
    """Whether `user` can reach path (x permission on it and every ancestor)."""
    for p in [path.resolve(), *path.resolve().parents]:
        st = p.stat()
        if st.st_uid == user.pw_uid:
            ok = st.st_mode & stat.S_IXUSR
        elif st.st_gid == user.pw_gid:
            ok = st.st_mode & stat.S_IXGRP
        else:
            ok = st.st_mode & stat.S_IXOTH
        if not ok:
            return False
    return True


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def node_config(node: Path, port: int, transport_port: int, settings: str) -> str:
    """config/opensearch.yml of a single-node cluster on 127.0.0.1 with its data in node/data;
    `settings` adds node settings as key:value+key:value."""
    return "\n".join([
        "cluster.name: flexheap",
        "node.name: fh-node",
        f"path.data: {node / 'data'}",
        f"path.logs: {node / 'logs'}",
        "network.host: 127.0.0.1",
        f"http.port: {port}",
        f"transport.port: {transport_port}",
        "discovery.type: single-node",
        *(": ".join(kv.split(":", 1)) for kv in settings.split("+") if kv),
        "",
    ])


def node_env(node: Path, conf: Path, java_home: Path) -> dict[str, str]:
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(node),
        "OPENSEARCH_JAVA_HOME": str(java_home),
        "OPENSEARCH_PATH_CONF": str(conf),
        "OPENSEARCH_TMPDIR": str(node / "tmp"),
        "LANG": "C.UTF-8",
    }


def wait_healthy(get: Callable[[str], dict[str, Any]], server: subprocess.Popen[bytes], timeout_s: float,
                 check: Callable[[], None] | None = None) -> None:
    """Until the cluster is yellow or green; fails when the node exits or the time is up."""
    end = time.time() + timeout_s
    while time.time() < end:
        if check:
            check()
        if server.poll() is not None:
            raise RuntimeError(f"OpenSearch exited with {server.returncode} before it was healthy "
                               f"(see opensearch.out / node/logs)")
        try:
            h = get("/_cluster/health?wait_for_status=yellow&timeout=1s")
            if h.get("status") in ("yellow", "green"):
                return
        except (urllib.error.URLError, OSError, ValueError):
            pass
        time.sleep(1)
    raise RuntimeError(f"OpenSearch not healthy after {timeout_s:.0f}s")


def jvm_options_file(ctx_flags: list[str], xms: int) -> str:
    """config/jvm.options.d/flexheap.options: read after config/jvm.options, so these win over
    its -Xms1g/-Xmx1g (the JVM takes the last -Xms/-Xmx) and over any AlwaysPreTouch."""
    lines = ["# Written by the FlexHeap harness for this run's heap policy.",
             "# -Xms below the shipped 1g, so the heap can be resized at all.",
             f"-Xms{max(1, xms >> 20)}m",
             "-XX:-AlwaysPreTouch"]
    lines += ctx_flags
    return "\n".join(lines) + "\n"


def parse_test_run(path: Path) -> dict[str, dict[str, Any]]:
    """opensearch-benchmark's test_run.json -> {task: {throughput, unit, p50_ms, p99_ms, error_rate, ...}}."""
    data = json.loads(path.read_text())
    out: dict[str, dict[str, Any]] = {}
    for m in data.get("results", {}).get("op_metrics", []):
        thr = m.get("throughput", {}) or {}
        st = m.get("service_time", {}) or {}
        lat = m.get("latency", {}) or {}
        # opensearch-benchmark's task "duration": ms from the step's start to the start of the
        # task's last request (that request's own service time is not in it)
        last = m.get("duration")
        out[m["task"]] = {
            "operation": m.get("operation"),
            "throughput": thr.get("mean"),
            "throughput_median": thr.get("median"),
            "unit": thr.get("unit"),
            "p50_service_ms": st.get("50_0"),
            "p99_service_ms": st.get("99_0") or st.get("100_0"),
            "p99_latency_ms": lat.get("99_0") or lat.get("100_0"),
            "error_rate": m.get("error_rate"),
            "last_request_s": last / 1000.0 if isinstance(last, (int, float)) else None,
        }
    return out


PHRASE_PAIRS = 60  # phrase queries of two neighbouring query terms


class OpenSearch(Service):
    kind = "opensearch"
    unprivileged = True   # OpenSearch refuses to run as root

    def jdk_problem(self, jdk: str) -> str | None:
        # Seen in all 3 g1-26 runs of 28 Nov: UnsupportedOperationException in the agent's premain.
        if jdk == JDK_26:
            return ("OpenSearch 3.4.0's java agent (byte-buddy) calls sun.misc.Unsafe.defineClass, which JDK 26 "
                    "removed, so the node exits before it is healthy")
        return None

    def __init__(self, preset: str, opts: str) -> None:
        super().__init__(preset, opts)
        if preset not in PRESETS:
            raise ValueError(f"unknown opensearch preset {preset!r}; choose from {', '.join(PRESETS)}")
        self.params = parse_options(opts, PRESETS[preset])
        p = self.params
        self.phases = [x for x in str(p["phases"]).split("+") if x]
        bad = [x for x in self.phases if x not in PHASES]
        if bad or not self.phases or self.phases[0] != "ingest":
            raise ValueError(f"phases must start with ingest and name only {'+'.join(PHASES)}: {p['phases']!r}")
        if p["base_docs"] < 0:
            raise ValueError(f"base_docs must be >= 0, got {p['base_docs']}")
        self.data_root = cache_dir() / "data" / f"opensearch-{p['docs_a']}-{p['docs_b']}-{p['seed']}"
        self.base_root = cache_dir() / "data" / f"opensearch-base-{p['base_docs']}-{p['seed'] + 2}"
        self.base_meta: dict[str, Any] | None = None
        try:
            lo, hi = (int(x) for x in str(p["term_ranks"]).split("-"))
        except ValueError:
            raise ValueError(f"term_ranks must be LO-HI (Zipf ranks), got {p['term_ranks']!r}") from None
        from .corpus import CorpusSpec
        vocab = CorpusSpec.vocab
        if not 0 <= lo < hi <= vocab or hi - lo < PHRASE_PAIRS + 1:
            raise ValueError(f"term_ranks must be LO-HI with 0 <= LO, LO + {PHRASE_PAIRS + 1} <= HI <= {vocab} "
                             f"(the phrase queries pair {PHRASE_PAIRS} terms), got {p['term_ranks']!r}")
        self.term_ranks = (lo, hi)
        self.terms_file = self.data_root / f"terms-{lo}-{hi}.json"
        self.osb_home = self.data_root / "osb-home"
        self.dist: Path | None = None
        self.osb: Path | None = None
        self.port = 0
        self.node: Path | None = None
        self.server: subprocess.Popen[bytes] | None = None
        self.private_node: Path | None = None
        # config/jvm.options.d/flexheap.options as given (an operator's recipe, verbatim)
        # instead of the one written from the run's policy flags.
        self.jvm_options: str | None = None

    # ------------------------------------------------------------------ outside the run

    def _corpus_dir(self, name: str) -> Path:
        return self.osb_home / ".osb" / "benchmarks" / "data" / name

    def prepare(self, log: Callable[[str], None]) -> None:
        self.dist = fetch("opensearch", log)
        self.osb = fetch("osb", log)
        self._corpus(log)
        if self.params["base_docs"]:
            self.base_meta = self._base_index(log)

    def _corpus(self, log: Callable[[str], None]) -> None:
        """The generated corpora and query terms, (re)made when missing or made by another
        generator or for other parameters: a stale corpus would be measured as the new one."""
        from .corpus import CorpusSpec, query_terms, write_ndjson  # numpy only here
        p = self.params
        meta_path = self.data_root / "corpus.json"
        key = {"docs_a": p["docs_a"], "docs_b": p["docs_b"], "seed": p["seed"], "generator_sha256": generator_sha256()}
        if meta_path.exists():
            old = json.loads(meta_path.read_text()).get("key") or {}
            if old != key:
                stale = sorted(k for k in key if old.get(k) != key[k])
                log(f"  the corpus {self.data_root} is stale ({', '.join(stale)} changed): regenerating it")
                meta_path.unlink()
                for terms in self.data_root.glob("terms-*.json"):  # drawn by the same generator
                    terms.unlink()
        if not meta_path.exists():
            log(f"  generating corpus {self.data_root} ({p['docs_a']} + {p['docs_b']} documents)")
            t = time.time()
            meta: dict[str, Any] = {"key": key}
            for corpus, docs, start, seed in (("fh-a", p["docs_a"], 0, p["seed"]),
                                              ("fh-b", p["docs_b"], p["docs_a"], p["seed"] + 1)):
                d = self._corpus_dir(corpus)
                d.mkdir(parents=True, exist_ok=True)
                name = "docs-a.json" if corpus == "fh-a" else "docs-b.json"
                n, size = write_ndjson(d / name, CorpusSpec(docs=docs, seed=seed), start)
                meta[corpus] = {"docs": n, "bytes": size}
            meta["generate_s"] = round(time.time() - t, 1)
            meta_path.write_text(json.dumps(meta, indent=2))  # last: a cut-off generation is redone
        self.meta = json.loads(meta_path.read_text())
        if not self.terms_file.exists():
            terms = query_terms(400, *self.term_ranks)
            phrases = [f"{terms[i]} {terms[i + 1]}" for i in range(0, PHRASE_PAIRS)] + [f"{a} {b}" for a, b in zip(terms[:40], terms[1:41])]
            self.terms_file.write_text(json.dumps({"terms": terms, "phrases": phrases}))

    def _base_index(self, log: Callable[[str], None]) -> dict[str, Any]:
        """The cached base index, built when missing (once; about 15 min for 6M documents)."""
        from ..jdk import find_jdk
        from .opensearch_base import BaseIndexBuilder
        meta_path = self.base_root / "base.json"
        p = self.params
        # What the index's bytes depend on: a change to any rebuilds it (its runs do not create
        # the index, so a new mapping would otherwise never take effect).
        key = {"docs": p["base_docs"], "seed": p["seed"] + 2, "start_id": p["docs_a"] + p["docs_b"],
               "distribution": self.dist.name if self.dist else None,
               "mapping_sha256": hashlib.sha256((workload_dir() / "index.json").read_bytes()).hexdigest(),
               "generator_sha256": generator_sha256()}
        if meta_path.exists():
            meta = json.loads(meta_path.read_text())
            if meta.get("key") == key:
                return meta
            stale = sorted(k for k in key if (meta.get("key") or {}).get(k) != key[k])
            log(f"  the base index {self.base_root} is stale ({', '.join(stale)} changed): rebuilding it")
            meta_path.unlink()
        jdk, warning = find_jdk()
        if jdk is None:
            raise RuntimeError(warning)
        log(f"  building the base index {self.base_root} ({p['base_docs']} documents, once)")
        self.base_root.mkdir(parents=True, exist_ok=True)
        os.chmod(self.base_root, 0o755)
        # ids after fh-a and fh-b; seed unlike theirs, so no document repeats one of them
        meta = BaseIndexBuilder(self.dist, jdk.home, workload_dir(), self.base_root / "data", p["base_docs"],
                                key["seed"], key["start_id"], log).build()
        if meta["docs"] != p["base_docs"]:
            raise RuntimeError(f"the base index holds {meta['docs']} documents, not {p['base_docs']}")
        meta["key"] = key
        meta_path.write_text(json.dumps(meta, indent=2))
        log(f"  base index: {meta['docs']} documents, {meta['store_bytes'] / 1e9:.2f} GB in {meta['build_s']:.0f}s")
        return meta

    def data_bytes(self) -> int:
        """The corpora's bytes, plus the base index's bytes on disk when there is one."""
        base = int(self.base_meta["store_bytes"]) if self.base_meta else 0
        return base + int(self.meta["fh-a"]["bytes"] + self.meta["fh-b"]["bytes"])

    def data_dir(self) -> Path:
        return self.data_root

    # ------------------------------------------------------------------ the node

    def start(self, ctx: Context) -> None:
        assert self.dist is not None
        user = ensure_user()
        node = ctx.run_dir / "node"
        if node.is_symlink():
            node.unlink()
        elif node.exists():
            shutil.rmtree(node)
        self.private_node = None
        flags = list(ctx.jvm_flags)
        if user_can_traverse(ctx.run_dir, user):
            node.mkdir()
        else:
            # The run folder is private (e.g. under a 0700 /tmp/pytest-of-root): the node lives
            # in /var/tmp and the run folder links to it; gc.log is copied back at stop.
            self.private_node = Path(tempfile.mkdtemp(prefix="flexheap-node-", dir="/var/tmp"))
            os.chmod(self.private_node, 0o755)
            node.symlink_to(self.private_node)
            flags = [f.replace(f"file={ctx.run_dir / 'gc.log'}:", f"file={self.private_node / 'gc.log'}:")
                     for f in flags]
        self.node = node
        node = self.private_node or node  # the real path: the service user may not pass the run folder
        home = node / "opensearch"
        # Hard links: no copy of 130 MB per run, and readable by the service user even when
        # the cache is under a private home directory.
        link_tree(self.dist, home)
        java_home = reachable_java_home(ctx.jdk.home, node, user)
        conf = node / "config"
        shutil.copytree(self.dist / "config", conf)
        for d in ("logs", "tmp"):
            (node / d).mkdir()
        if self.base_meta:
            from .opensearch_base import restore_tree
            linked, copied = restore_tree(self.base_root / "data", node / "data")
            ctx.log(f"    base index restored: {linked} segment files linked, {copied} files copied")
        else:
            (node / "data").mkdir()
        (home / "logs").mkdir(exist_ok=True)
        self.port = free_port()
        (conf / "opensearch.yml").write_text(node_config(node, self.port, free_port(), str(self.params["settings"])))
        xms = initial_heap(ctx.budget, ctx.max_heap)
        options = self.jvm_options if self.jvm_options is not None else jvm_options_file(flags, xms)
        (conf / "jvm.options.d" / "flexheap.options").write_text(options)
        gc_log = (self.private_node or ctx.run_dir) / "gc.log"
        gc_log.touch()
        for path in (conf, node / "data", node / "logs", node / "tmp", home / "logs"):
            chown_tree(path, user)
        os.chown(gc_log, user.pw_uid, user.pw_gid)
        os.chown(node, user.pw_uid, user.pw_gid)
        env = node_env(node, conf, java_home)
        # the last -Xms wins: the policy's own (a fixed heap) over the resizable default
        xms_flag = ([f for f in ctx.jvm_flags if f.startswith("-Xms")] or [f"-Xms{xms >> 20}m"])[-1]
        heap = (f"{xms_flag} -Xmx{ctx.max_heap >> 20}m" if self.jvm_options is None
                else "heap as in the given jvm.options.d/flexheap.options")
        ctx.log(f"    starting OpenSearch as {user.pw_name} on 127.0.0.1:{self.port} ({heap})")
        self.server = spawn(ctx, [str(home / "bin" / "opensearch")], "opensearch", env=env, cwd=home, user=user)

    def main_pid(self, ctx: Context) -> int | None:
        if self.server is None:
            return None
        pids = ctx.cgroup.pids() if ctx.cgroup else descendants(self.server.pid)
        return find_pid(pids, MAIN_CLASS)

    def _get(self, path: str, timeout: float = 5.0) -> dict[str, Any]:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=timeout) as r:
            return json.loads(r.read())

    def wait_ready(self, ctx: Context, timeout_s: float = 240.0) -> None:
        assert self.server is not None
        wait_healthy(lambda p: self._get(p, timeout=5), self.server, timeout_s, ctx.check_deadline)
        if self.base_meta:
            from .opensearch_base import INDEX as BASE_INDEX
            # A node that opened less than the base index would still take the run's documents
            # (the ingest phase adds to the index) and measure a small index as a large one.
            count = int(self._get(f"/{BASE_INDEX}/_count", timeout=60)["count"])
            if count != int(self.base_meta["docs"]):
                raise RuntimeError(f"the restored base index holds {count} documents, not {self.base_meta['docs']}")

    # ------------------------------------------------------------------ the workload

    def _osb_params(self, ctx: Context) -> Path:
        p = self.params
        params = {
            "docs_a": self.meta["fh-a"]["docs"], "bytes_a": self.meta["fh-a"]["bytes"],
            "docs_b": self.meta["fh-b"]["docs"], "bytes_b": self.meta["fh-b"]["bytes"],
            "terms_file": str(self.terms_file),
            "bulk_size": p["bulk_size"], "bulk_clients": p["bulk_clients"], "search_clients": p["search_clients"],
            "search_s": p["search_s"], "warmup_s": p["warmup_s"],
            "fresh_index": not self.base_meta,  # with a base index, fh-a is added to it
        }
        path = ctx.run_dir / "osb-params.json"
        path.write_text(json.dumps(params, indent=2))
        return path

    def drive(self, ctx: Context) -> dict[str, Any]:
        assert self.osb is not None
        params = self._osb_params(ctx)
        env = dict(os.environ, BENCHMARK_HOME=str(self.osb_home))
        phases: list[dict[str, Any]] = []
        osb_runs: dict[str, Any] = {}
        ok, error = True, None
        for phase in self.phases:
            run_id = str(uuid.uuid4())
            argv = [str(self.osb / "bin" / "opensearch-benchmark"), "run", "--pipeline=benchmark-only",
                    f"--target-hosts=127.0.0.1:{self.port}", f"--workload-path={workload_dir()}",
                    f"--test-procedure={phase}", f"--workload-params={params}", f"--test-run-id={run_id}",
                    # --quiet: OSB 2.4.0's progress line crashes on time-period tasks in a parallel block.
                    "--offline", "--quiet", "--client-options=timeout:300", "--on-error=continue",
                    "--results-format=csv", f"--results-file={ctx.run_dir / f'osb-{phase}.csv'}"]
            # What an earlier harness, killed before its teardown, left running: every client and
            # the actor system it daemonizes carry BENCHMARK_HOME, and OSB refuses to start beside them.
            left = kill_by_environ("BENCHMARK_HOME", str(self.osb_home))
            if left:
                ctx.log(f"    warning: killed {len(left)} opensearch-benchmark process(es) an earlier client left running")
            ctx.log(f"    [{time.time() - ctx.t0:6.1f}s] phase {phase} start")
            start = time.time()
            client = spawn(ctx, argv, f"osb-{phase}", env=env, in_cgroup=False)  # the load generator is not budgeted
            while client.poll() is None:
                ctx.check_deadline()
                if self.server is not None and self.server.poll() is not None:
                    terminate(client, 5)
                    raise RuntimeError(f"OpenSearch died during phase {phase} (exit {self.server.returncode})")
                time.sleep(0.5)
            end = time.time()
            result = self.osb_home / ".osb" / "benchmarks" / "test-runs" / run_id / "test_run.json"
            if client.returncode != 0 or not result.exists():
                ok, error = False, f"opensearch-benchmark phase {phase} exited {client.returncode} (see osb-{phase}.err/.out)"
                break
            shutil.copy(result, ctx.run_dir / f"osb-{phase}.json")
            tasks = parse_test_run(result)
            osb_runs[phase] = tasks
            # One record for the phase's span (timelines), then one per task (throughput, service times).
            phases.append(phase_record(phase, ctx.t0, start, end))
            phases += task_records(phase, tasks)
            for task, m in tasks.items():
                if m["operation"] not in SETUP_OPERATIONS and m["error_rate"]:
                    ok, error = False, f"task {task} had error rate {m['error_rate']}"
            thr = ", ".join(f"{t} {m['throughput']:.1f} {m['unit']}" for t, m in tasks.items()
                            if isinstance(m["throughput"], (int, float)) and m["operation"] != "refresh")
            ctx.log(f"    [{time.time() - ctx.t0:6.1f}s] phase {phase} end ({end - start:.0f}s): {thr}")
        try:
            stats = self._get("/fh-docs/_stats/store,docs", timeout=30)
            index_bytes = stats["_all"]["primaries"]["store"]["size_in_bytes"]
            docs = stats["_all"]["primaries"]["docs"]["count"]
        except (urllib.error.URLError, OSError, ValueError, KeyError):
            index_bytes, docs = None, None
        return {"workload": self.name, "ok": ok, "error": error, "phases": phases,
                "total_s": round(sum(p.get("duration_s", 0) for p in phases), 3),
                "index_store_bytes": index_bytes, "index_docs": docs, "corpus_bytes": self.data_bytes(),
                "osb": osb_runs, "params": self.params}

    def stop(self, ctx: Context) -> None:
        for p in ctx.procs:
            if p is not self.server:
                terminate(p, 5)
        if self.server is not None:
            terminate(self.server, 60)
        if self.node is not None and self.node.exists():
            logs = self.node / "logs"
            if logs.exists():
                shutil.copytree(logs, ctx.run_dir / "opensearch-logs", dirs_exist_ok=True)
            for d in ("data", "opensearch", "tmp"):
                shutil.rmtree(self.node / d, ignore_errors=True)
        if self.private_node is not None:
            if (self.private_node / "gc.log").exists():
                shutil.copy(self.private_node / "gc.log", ctx.run_dir / "gc.log")
            if (self.private_node / "config").exists():
                self.node.unlink()
                shutil.copytree(self.private_node / "config", self.node / "config")
            shutil.rmtree(self.private_node, ignore_errors=True)
            self.private_node = None
