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
"""Two JVMs in one budget: a run of two programs started together in one
memory cgroup, under the same policy (`compare --partner`).

Both JVMs see the same memory limit, as two services on a VM or two
containers of a pod that share a limit do; each sizes its heap from it on
its own. The pair's run folder holds one ordinary run folder per JVM (a/
and b/: gc.log, samples.csv, summary.json, each checked against the
policy's configuration as any run) and the pair's summary.json:

  total_s            until both JVMs have ended (the pair's makespan)
  phases             'a' and 'b': each JVM's own time; then each JVM's
                     throughput phases as 'a:NAME' / 'b:NAME'
  peak/mean_heap_committed   of the two heaps together, sample by sample
  cgroup metrics     (page cache, reads, refaults, stalls) of the shared cgroup
  members            per JVM: time, mean and peak heap committed, its heap's
                     direction reversals (see reversals()), GC pause time
"""

from __future__ import annotations

import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from . import runconfig
from .cgroups import CgroupSupport
from .policies import max_heap_bytes
from .runner import (RunConfig, _summarize, _write_json, check_enforced, close_summary, jvm_command,
                     leave_run_cgroup, missing_flexheap, new_summary, refuser, start_clean)
from .sampling import Sampler
from .thrash import thrashing

MEMBERS = ("a", "b")
# A heap move smaller than this is no change of direction (G1 commits in regions;
# a few regions up and down is G1's own jitter, not a fight).
REVERSAL_MIN_MOVE = 32 * 1024 * 1024
# The pair's cgroup-wide numbers, taken from member a's sampler (both sample the same cgroup).
CGROUP_KEYS = ("peak_page_cache", "mean_page_cache", "peak_cg_usage", "mean_cg_usage", "mean_iowait_pct",
               "cg_read_bytes", "dev_read_bytes", "read_bytes", "refault_file", "activate_share",
               "psi_scope", "workingset_scope", "psi_io_some_s", "psi_io_full_s", "psi_memory_some_s",
               "psi_memory_full_s")


def reversals(values: Sequence[float], min_move: float = REVERSAL_MIN_MOVE) -> int:
    """Direction changes of a series, counting only moves of at least min_move from the last
    turning point (a zigzag filter): 0 for a heap that only grows or only shrinks, 1 for one
    that grows then shrinks, and one more per further turn."""
    if not values:
        return 0
    turns, direction = 0, 0
    start = extreme = values[0]
    for v in values[1:]:
        if direction == 0:
            if abs(v - start) >= min_move:
                direction, extreme = (1 if v > start else -1), v
        elif (v - extreme) * direction > 0:
            extreme = v  # further the same way
        elif abs(v - extreme) >= min_move:
            turns, direction, extreme = turns + 1, -direction, v
    return turns


def combined(rows_a: Sequence[dict[str, Any]], rows_b: Sequence[dict[str, Any]], key: str) -> list[float]:
    """key of both JVMs added sample by sample: each row of a with b's latest row at or before it
    (b's value counts 0 before b's first sample, and stays at its last after b ended)."""
    out: list[float] = []
    j = -1
    for r in rows_a:
        while j + 1 < len(rows_b) and float(rows_b[j + 1]["t"]) <= float(r["t"]):
            j += 1
        a = r.get(key)
        b = rows_b[j].get(key) if j >= 0 else 0
        if a is None and b is None:
            continue
        out.append(float(a or 0) + float(b or 0))
    return out


@dataclass
class Member:
    name: str
    program: list[str]
    run_dir: Path
    argv: list[str] | None = None
    expect: runconfig.Expected | None = None
    proc: subprocess.Popen[bytes] | None = None
    sampler: Sampler | None = None
    wall: float | None = None


def run_shared(cfg: RunConfig, partner: list[str], log: Callable[[str], None],
               support: CgroupSupport | None = None) -> dict[str, Any]:
    """cfg's program (a) and partner (b) under cfg.policy in one cgroup of cfg.budget. Never
    raises for a failed JVM; NotEnforced as run_once."""
    rd = cfg.run_dir
    rd.mkdir(parents=True, exist_ok=True)
    summary = new_summary(cfg, partner=list(partner))
    members = [Member("a", list(cfg.program), rd / "a"), Member("b", list(partner), rd / "b")]

    refuse = refuser(summary, rd)
    missing = missing_flexheap(cfg)
    if missing:
        summary["error"] = missing
        _write_json(rd / "summary.json", summary)
        return summary
    for m in members:
        m.run_dir.mkdir(parents=True, exist_ok=True)
        m.argv, m.expect = jvm_command(cfg, m.run_dir, m.program)
    summary["max_heap"] = max_heap_bytes(cfg.policy, cfg.budget)

    warnings: list[str] = []
    support, device, not_enforced = check_enforced(cfg, support, warnings, refuse)
    cgroup = start_clean(cfg, support, device, not_enforced, refuse, summary, warnings)
    _write_json(rd / "config.json", {
        "label": summary["label"], "policy": cfg.policy.name, "budget": cfg.budget, "device": cfg.device.name,
        "block_device": device, "jdk": str(cfg.jdk.home), "argv": {m.name: m.argv for m in members},
        "cgroup": cgroup.describe() if cgroup else None, "warnings": warnings, "unbudgeted": bool(not_enforced)})
    for w in warnings:
        log(f"  warning: {w}")

    t0 = time.time()
    stopped: str | None = None
    files = []
    try:
        for m in members:
            out, err = open(m.run_dir / "stdout.log", "wb"), open(m.run_dir / "stderr.log", "wb")
            files += [out, err]
            m.proc = subprocess.Popen(m.argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL, cwd=m.run_dir,
                                      preexec_fn=cgroup.attach_current_process if cgroup else None,
                                      start_new_session=True)
            pid = m.proc.pid
            m.sampler = Sampler(m.run_dir / "samples.csv", cgroup, device, (lambda p=pid: [p]), t0,
                                cfg.sample_interval_s)
            m.sampler.start()
        stopped = _wait_all(members, cfg, t0, log)
    finally:
        for m in members:
            if m.sampler:
                m.sampler.stop()
            if m.proc and m.proc.poll() is None:
                m.proc.kill()
        if cgroup:
            leave_run_cgroup(cgroup, summary, warnings)
        for m in members:
            if m.proc:
                try:
                    m.proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    pass
                if m.wall is None:
                    m.wall = time.time() - t0
        for f in files:
            f.close()
    return _close_pair(cfg, summary, members, t0, stopped, warnings, log)


def _wait_all(members: list[Member], cfg: RunConfig, t0: float, log: Callable[[str], None]) -> str | None:
    """Waits for both JVMs (each one's end time into .wall); why they were killed (timeout,
    thrashing, or one JVM failed: the other is then stopped), or None."""
    last_status = time.monotonic()
    while True:
        time.sleep(0.5)
        for m in members:
            if m.wall is None and m.proc is not None and m.proc.poll() is not None:
                m.wall = time.time() - t0
                log(f"    [{m.wall:6.1f}s] JVM {m.name} ended (exit {m.proc.returncode})")
                if m.proc.returncode != 0:
                    return f"JVM {m.name} exited with {m.proc.returncode}"
        if all(m.wall is not None for m in members):
            return None
        if cfg.timeout_s and time.time() - t0 > cfg.timeout_s:
            return f"timed out after {cfg.timeout_s:.0f}s"
        a = members[0].sampler
        reason = thrashing(a.rows, cfg.thrash) if a else None
        if reason:
            return reason
        if time.monotonic() - last_status >= 15:
            last_status = time.monotonic()
            heaps = ", ".join(f"{m.name} {_mib(m.sampler.rows[-1].get('heap_committed'))}"
                              for m in members if m.sampler and m.sampler.rows)
            log(f"    [{time.time() - t0:6.1f}s] heap committed {heaps}")


def _mib(v: Any) -> str:
    return f"{float(v) / 2**20:.0f}M" if isinstance(v, (int, float)) else "-"


def _close_pair(cfg: RunConfig, summary: dict[str, Any], members: list[Member], t0: float,
                stopped: str | None, warnings: list[str], log: Callable[[str], None]) -> dict[str, Any]:
    per: dict[str, dict[str, Any]] = {}
    full: dict[str, dict[str, Any]] = {}
    errors: list[str] = [stopped] if stopped else []
    for m in members:
        assert m.sampler is not None and m.proc is not None and m.wall is not None
        s = new_summary(cfg)
        s.update(_summarize(m.run_dir, m.sampler, t0, m.wall, cfg.jdk.tool("jfr")))
        s["returncode"] = m.proc.returncode
        s["oom_kills"] = summary.get("oom_kills")
        error = None
        if m.proc.returncode != 0:
            error = f"JVM {m.name} exited with {m.proc.returncode}"
        elif s.get("workload_ok") is False:
            error = f"workload {m.name} reported ok=false"
        logs = [m.run_dir / n for n in ("stderr.log", "stdout.log", "gc.log")]
        s = close_summary(s, error, m.run_dir, logs, log, m.expect)
        full[m.name] = s
        if not s.get("ok"):
            errors.append(f"{m.name}: {s.get('error')}")
        heap = [float(r["heap_committed"]) for r in m.sampler.rows if r.get("heap_committed") is not None]
        per[m.name] = {
            "total_s": round(m.wall, 3), "workload_total_s": s.get("total_s"), "ok": bool(s.get("ok")),
            "error": s.get("error"), "mean_heap_committed": s.get("mean_heap_committed"),
            "peak_heap_committed": s.get("peak_heap_committed"), "reversals": reversals(heap),
            "gc_pause_ms": s.get("gc_pause_ms"), "full_gcs": s.get("gc_full"), "config_ok": s.get("config_ok"),
            "jvm_config": s.get("jvm_config"), "phases": s.get("phases", [])}
    a, b = (m.sampler for m in members)
    assert a is not None and b is not None
    first = per["a"]
    summary.update({k: v for k, v in full["a"].items() if k in CGROUP_KEYS})
    heap = combined(a.rows, b.rows, "heap_committed")
    summary["peak_heap_committed"] = max(heap) if heap else None
    summary["mean_heap_committed"] = round(sum(heap) / len(heap)) if heap else None
    summary["gc_pause_ms"] = sum(p["gc_pause_ms"] or 0 for p in per.values())
    summary["gc_time_ms"] = summary["gc_pause_ms"]
    for key in ("gc_pauses", "gc_young", "gc_full", "gc_remark_cleanup", "gc_concurrent_cycles",
                "flexheap_decisions"):
        summary[key] = sum(full[m.name].get(key) or 0 for m in members)
    summary["total_s"] = round(max(p["total_s"] for p in per.values()), 3)
    summary["wall_s"] = summary["total_s"]
    summary["members"] = {k: {x: y for x, y in v.items() if x != "phases"} for k, v in per.items()}
    summary["phases"] = [{"name": k, "duration_s": v["total_s"]} for k, v in per.items()] + [
        {**p, "name": f"{k}:{p['name']}"} for k, v in per.items() for p in v["phases"]
        if isinstance(p.get("throughput_qps"), (int, float))]
    summary["config_ok"] = all(p["config_ok"] for p in per.values())
    summary["jvm_config"] = first["jvm_config"]
    summary["warnings"] = warnings
    if summary.get("oom_kills"):
        errors.append(f"{summary['oom_kills']} OOM kill(s) in the cgroup")
    if errors:
        summary["error"] = "; ".join(dict.fromkeys(errors))
        log(f"  FAILED {summary['label']}: {summary['error']}")
    else:
        summary["ok"] = True
    _write_json(cfg.run_dir / "summary.json", summary)
    return summary



def members_markdown(runs: Sequence[dict[str, Any]]) -> str:
    """Per policy, each JVM of the pairs: its own time, its heap (mean and peak committed) and its
    heap's direction reversals, medians over the ok runs ('' when no run had a partner)."""
    from statistics import median
    by_policy: dict[str, list[dict[str, Any]]] = {}
    for r in runs:
        if r.get("ok") and r.get("members"):
            by_policy.setdefault(r["policy"], []).append(r["members"])
    if not by_policy:
        return ""

    def med(values: list[Any], fmt: Callable[[float], str]) -> str:
        nums = [float(v) for v in values if isinstance(v, (int, float))]
        return fmt(median(nums)) if nums else "-"

    lines = ["| policy | JVM | time [s] | mean heap | peak heap | heap reversals (median, max) | GC pause [ms] |",
             "|---|---|---|---|---|---|---|"]
    for policy, pairs in by_policy.items():
        for name in MEMBERS:
            ms = [p[name] for p in pairs if name in p]
            rev = [m["reversals"] for m in ms]
            lines.append(f"| {policy} | {name} | {med([m['total_s'] for m in ms], lambda v: f'{v:.1f}')} "
                         f"| {med([m['mean_heap_committed'] for m in ms], _mib)} "
                         f"| {med([m['peak_heap_committed'] for m in ms], _mib)} "
                         f"| {med(rev, lambda v: f'{v:g}')}, {max(rev) if rev else '-'} "
                         f"| {med([m['gc_pause_ms'] for m in ms], lambda v: f'{v:.0f}')} |")
    return ("\n\nEach JVM of the pair (two JVMs in one budget, `--partner`): its own time from the pair's start, "
            "its committed heap, and the direction reversals of its committed heap (turns of at least "
            f"{REVERSAL_MIN_MOVE >> 20} MiB); medians over the ok runs.\n\n" + "\n".join(lines) + "\n")
