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

"""A large OpenSearch index built once and restored for every run (`base_docs=N`).

The paper's regime, a budget of 5-10% of the index, needs an index of several GB; ingesting
it in every run would take longer than the measurement. So a node outside every budget builds
it once into the services cache (documents streamed from the corpus generator straight into
_bulk, no NDJSON on disk), flushes and stops; each run's node then starts on a restored copy.

The restore hard-links Lucene's segment files (write-once: Lucene never opens an existing
file for writing and drops segments by unlinking, so the run can neither alter nor remove the
cached copy) and copies everything else (translog checkpoints and node state are rewritten in
place). A run's data folder therefore costs no disk and no copy time, and after the run's
drop_caches none of it is in the page cache.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import urllib.request
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable

from .base import chown_tree, ensure_user, terminate
from .corpus import CorpusSpec, Generator

INDEX = "fh-docs"
BULK_DOCS = 1000
BUILD_HEAP = "2g"  # outside every budget: only the build's speed depends on it


def is_segment_file(rel: Path) -> bool:
    """A Lucene file of a shard's index (…/<shard>/index/<file>), safe to share by hard link;
    write.lock is a lock, not data, and is copied."""
    return len(rel.parts) >= 2 and rel.parts[-2] == "index" and rel.name != "write.lock"


class RestoreError(RuntimeError):
    """The base index cannot be restored as a measurement needs it (hard-linked, complete)."""


def _raise(e: OSError) -> None:
    raise e


def restore_tree(src: Path, dst: Path) -> tuple[int, int]:
    """dst as a restored copy of the data folder src: segment files hard-linked, the rest
    copied. Returns (linked, copied) file counts.

    A segment file that cannot be linked is an error, not a copy: copying GBs inside the run
    would read the whole index into the page cache (charged to the harness, not the run's
    cgroup) before the node starts, and put the run's index on another device than the one
    the device profile throttles."""
    if not src.is_dir():
        raise RestoreError(f"the base index {src} is missing; delete {src.parent / 'base.json'} to rebuild it")
    linked = copied = 0
    for root, dirs, files in os.walk(src, onerror=_raise):
        rel_root = Path(root).relative_to(src)
        (dst / rel_root).mkdir(parents=True, exist_ok=True)
        for name in files:
            rel = rel_root / name
            if is_segment_file(rel):
                try:
                    os.link(src / rel, dst / rel)
                except OSError as e:
                    raise RestoreError(f"cannot hard-link {src / rel} into the node's data folder {dst} "
                                       f"({e.strerror}): the node folder (under --out, or /var/tmp when the "
                                       f"service user cannot reach --out) must be on the file system of {src}") from e
                linked += 1
                continue
            shutil.copy2(src / rel, dst / rel)
            copied += 1
    if not linked:
        raise RestoreError(f"the base index {src} holds no segment file")
    return linked, copied


def index_body(workload_dir: Path, refresh_interval: str) -> dict[str, Any]:
    """The workload's index.json with its one template variable filled in."""
    text = re.sub(r"\{\{\s*refresh_interval[^}]*\}\}", refresh_interval, (workload_dir / "index.json").read_text())
    return json.loads(text)


def bulk_body(docs: list[dict[str, Any]]) -> bytes:
    lines = []
    for d in docs:
        lines.append('{"index":{}}')
        lines.append(json.dumps(d, separators=(",", ":")))
    return ("\n".join(lines) + "\n").encode()


class BaseIndexBuilder:
    """Builds `docs` documents (seed `seed`, ids from `start_id`) into `target` (a node data
    folder), with the OpenSearch distribution `dist` on the JDK `java_home`."""

    def __init__(self, dist: Path, java_home: Path, workload_dir: Path, target: Path,
                 docs: int, seed: int, start_id: int, log: Callable[[str], None]) -> None:
        self.dist, self.java_home, self.workload_dir = dist, java_home, workload_dir
        self.target, self.docs, self.seed, self.start_id, self.log = target, docs, seed, start_id, log
        self.port = 0

    def _request(self, method: str, path: str, body: bytes | None = None,
                 ctype: str = "application/json", timeout: float = 600) -> dict[str, Any]:
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=body, method=method,
                                     headers={"Content-Type": ctype})
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return json.loads(r.read())

    def build(self) -> dict[str, Any]:
        """Builds the index and moves the node's data folder to target; returns its size."""
        work = Path(tempfile.mkdtemp(prefix="flexheap-base-", dir="/var/tmp"))
        try:
            return self._build_in(work)
        finally:
            shutil.rmtree(work, ignore_errors=True)  # no half-built index of GBs left behind

    def _build_in(self, work: Path) -> dict[str, Any]:
        from .opensearch import free_port, link_tree, node_config, node_env, reachable_java_home, wait_healthy
        # In /var/tmp, as a run's private node: the service user may not pass the cache's path.
        os.chmod(work, 0o755)
        user = ensure_user()
        java_home = reachable_java_home(self.java_home, work, user)
        home = work / "opensearch"
        link_tree(self.dist, home)
        conf = work / "config"
        shutil.copytree(self.dist / "config", conf)
        for d in ("data", "logs", "tmp"):
            (work / d).mkdir()
        (home / "logs").mkdir(exist_ok=True)
        self.port = free_port()
        (conf / "opensearch.yml").write_text(node_config(work, self.port, free_port(), ""))
        (conf / "jvm.options.d" / "build.options").write_text(f"-Xms{BUILD_HEAP}\n-Xmx{BUILD_HEAP}\n")
        os.chown(work, user.pw_uid, user.pw_gid)
        for path in (conf, work / "data", work / "logs", work / "tmp", home / "logs"):
            chown_tree(path, user)
        out = open(work / "opensearch.out", "wb")

        def drop() -> None:
            os.setgroups([])
            os.setgid(user.pw_gid)
            os.setuid(user.pw_uid)

        proc = subprocess.Popen([str(home / "bin" / "opensearch")], stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, cwd=home, preexec_fn=drop, start_new_session=True,
                                env=node_env(work, conf, java_home))
        t0 = time.time()
        try:
            wait_healthy(lambda p: self._request("GET", p, timeout=5), proc, 240)
            self._request("PUT", f"/{INDEX}", json.dumps(index_body(self.workload_dir, "-1")).encode())
            self._ingest()
            self._request("PUT", f"/{INDEX}/_settings",
                          json.dumps({"index": {"refresh_interval": "5s"}}).encode())
            self._request("POST", f"/{INDEX}/_refresh")
            self._request("POST", f"/{INDEX}/_flush?wait_if_ongoing=true")
            stats = self._request("GET", f"/{INDEX}/_stats/store,docs")["_all"]["primaries"]
        finally:
            terminate(proc, 120)
            out.close()
        if proc.returncode not in (0, 143, -15):
            raise RuntimeError(f"the base-index node exited {proc.returncode} (see {work}/opensearch.out)")
        shutil.rmtree(self.target, ignore_errors=True)
        shutil.move(work / "data", self.target)
        meta = {"docs": stats["docs"]["count"], "store_bytes": stats["store"]["size_in_bytes"],
                "seed": self.seed, "build_s": round(time.time() - t0, 1)}
        return meta

    def _ingest(self) -> None:
        gen = Generator(CorpusSpec(docs=self.docs, seed=self.seed))
        pending: list[Future[dict[str, Any]]] = []
        done, t0, last = 0, time.time(), time.time()
        batch: list[dict[str, Any]] = []

        def settle(f: Future[dict[str, Any]]) -> None:
            r = f.result()
            if r.get("errors"):
                bad = next(i for i in r["items"] if i["index"].get("error"))
                raise RuntimeError(f"bulk ingest of the base index failed: {bad['index']['error']}")

        with ThreadPoolExecutor(max_workers=2) as pool:  # generating while two requests are indexed
            for doc in gen.documents(self.start_id, self.docs):
                batch.append(doc)
                if len(batch) < BULK_DOCS:
                    continue
                body = bulk_body(batch)
                batch = []
                while len(pending) >= 2:
                    settle(pending.pop(0))
                pending.append(pool.submit(self._request, "POST", f"/{INDEX}/_bulk", body, "application/x-ndjson"))
                done += BULK_DOCS
                if time.time() - last > 60:
                    last = time.time()
                    self.log(f"    base index: {done}/{self.docs} documents, {done / (last - t0):.0f}/s")
            if batch:
                pending.append(pool.submit(self._request, "POST", f"/{INDEX}/_bulk", bulk_body(batch),
                                           "application/x-ndjson"))
            for f in pending:
                settle(f)
