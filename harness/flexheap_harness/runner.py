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

"""One clean, budgeted, sampled JVM run, written to a run folder.

Run folder layout:
  config.json     what was asked and what the machine allowed (cgroups, device, flags)
  samples.csv     1 Hz samples (see sampling.py)
  gc.log          the JVM's unified GC log (+ gc+flexheap decisions)
  gc_pauses.csv   pauses parsed from gc.log, with time since run start
  decisions.csv   FlexHeap decisions parsed from gc.log
  workload.json   the workload's own result (bench jar --out), if it wrote one
  stdout.log, stderr.log
  summary.json    the numbers compare/plot use; ok=false runs carry error + log tails. jvm_config is
                  what the JVM said it ran (collector, FlexHeap policy, stall source, heap bounds,
                  version), config_ok whether that is what the policy means (runconfig.py): a run
                  whose JVM ran another configuration fails
"""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable

from . import gclog, jfr, runconfig
from .cgroups import CgroupSupport, RunCgroup, detect
from .devices import DeviceProfile, block_device_near, block_device_of, read_ahead, read_ahead_kb
from .integrity import UNBUDGETED, NotEnforced, enforcement_problems, refusal_message
from .jdk import Jdk
from .policies import Policy, jvm_flags, max_heap_bytes
from .provenance import release_fields
from .sampling import Sampler
from .sizes import format_size
from .thrash import ThrashLimit, thrashing

WORKLOAD_JSON = "{workload_json}"  # placeholder in program args
PHASE_RE = re.compile(r"FLEXHEAP-PHASE (\S+) (start|end) (\d+)(?: (\d+) (\S+))?")
_run_seq = 0


@dataclass
class RunConfig:
    policy: Policy
    budget: int | None
    device: DeviceProfile
    jdk: Jdk
    program: list[str]  # after the JVM flags: ['-jar', jar, 'run', ...] or ['-cp', dir, 'Main']
    data_dir: Path
    run_dir: Path
    extra_jvm_flags: list[str] = field(default_factory=list)
    drop_caches: bool = True
    timeout_s: float | None = None
    sample_interval_s: float = 1.0
    index_bytes: int | None = None
    cgroup_parent: str | None = None
    label: str = ""
    service: Any = None  # a services.Service (--workload opensearch:/spark:); runs through services.run
    # Run even when the budget / device profile is not enforced; the run is then
    # marked "unbudgeted" everywhere. Without it such a run raises NotEnforced.
    unbudgeted: bool = False
    # Record jdk.FlexHeapDecision with JFR (FlexHeap JDK only); decisions.csv then comes
    # from `jfr print --json` instead of the GC log.
    jfr: bool = False
    # Kill a run that thrashes in its cgroup instead of waiting for the timeout (thrash.py).
    thrash: ThrashLimit | None = ThrashLimit()
    # The data device's read-ahead in bytes for the run (devices.read_ahead); None leaves it.
    read_ahead: int | None = None
    # A second program started with the first in the same cgroup, under the same policy:
    # two JVMs in one budget (shared.py). None: one JVM.
    partner: list[str] | None = None


def bench_program(jar: Path, index: Path, workload: str, scale: float | None = None,
                  clients: int | None = None, seed: int | None = None) -> list[str]:
    args = ["-jar", str(jar), "run", "--index", str(index), "--workload", workload]
    if scale is not None:
        args += ["--scale", str(scale)]
    if clients is not None:
        args += ["--clients", str(clients)]
    if seed is not None:
        args += ["--seed", str(seed)]
    return args + ["--out", WORKLOAD_JSON]


def parse_phase_lines(lines: list[str]) -> list[dict[str, Any]]:
    """FLEXHEAP-PHASE markers -> [{'name', 'start_epoch', 'end_epoch', 'queries', 'throughput_qps'}]."""
    phases: dict[str, dict[str, Any]] = {}
    order: list[str] = []
    for line in lines:
        m = PHASE_RE.search(line)
        if not m:
            continue
        name, what, ms = m.group(1), m.group(2), int(m.group(3))
        if name not in phases:
            phases[name] = {"name": name, "start_epoch": None, "end_epoch": None}
            order.append(name)
        if what == "start":
            phases[name]["start_epoch"] = ms / 1000.0
        else:
            phases[name]["end_epoch"] = ms / 1000.0
            if m.group(4) is not None:
                phases[name]["queries"] = int(m.group(4))
                try:
                    phases[name]["throughput_qps"] = float(m.group(5))
                except ValueError:
                    pass
    return [phases[n] for n in order]


def tail(path: Path, lines: int = 20) -> str:
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-lines:])
    except OSError:
        return ""


def clean_caches() -> str | None:
    """sync + drop the page cache so each run starts cold; returns a warning if impossible."""
    os.sync()
    try:
        with open("/proc/sys/vm/drop_caches", "w") as f:
            f.write("3")
        return None
    except OSError as e:
        return f"cannot drop caches ({e.strerror}); runs start with a warm page cache (needs root)"


def _next_cgroup_name() -> str:
    global _run_seq
    _run_seq += 1
    return f"flexheap-run-{os.getpid()}-{_run_seq}"


def say(msg: str) -> None:
    """Progress output; flushed so it shows up live when piped to a file."""
    print(msg, flush=True)


def enter_run_cgroup(cfg: "RunConfig", support: CgroupSupport, device: str | None,
                     not_enforced: list[str], refuse: Callable[[list[str]], None]) -> RunCgroup | None:
    """Create and verify the run's cgroup (budget and device throttle). What
    cannot be enforced is appended to not_enforced; unless the run is
    --unbudgeted, refuse(not_enforced) then ends the run (exit 2), with no
    cgroup left behind."""
    cgroup: RunCgroup | None = None
    if support.memory or support.io:
        io_limit = cfg.device.io_limit(device) if (cfg.device.throttled and device) else None
        cgroup = RunCgroup(support, _next_cgroup_name(), cfg.budget, io_limit)
        try:
            cgroup.create()
        except OSError as e:
            not_enforced.append(f"cannot create the run's cgroup ({e})")
            cgroup = None
        if cgroup is not None:
            not_enforced += cgroup.verify()
        if not_enforced and not cfg.unbudgeted:
            if cgroup is not None:
                cgroup.remove()
            refuse(not_enforced)
    return cgroup


def jvm_command(cfg: "RunConfig", run_dir: Path, program: list[str]) -> tuple[list[str], runconfig.Expected]:
    """The JVM's argv for program under cfg.policy (its GC log, JFR recording and workload.json in
    run_dir) and the configuration its start-up lines must show (runconfig)."""
    flags = jvm_flags(cfg.policy, cfg.budget, str(run_dir / "gc.log"), cfg.extra_jvm_flags, cfg.jdk.is_flexheap_build)
    if cfg.jfr and cfg.jdk.is_flexheap_build:
        flags.insert(len(flags) - len(cfg.extra_jvm_flags), jfr.recording_flag(run_dir / jfr.RECORDING))
    expect = runconfig.expected_config(cfg.policy, flags, release_fields(cfg.jdk.home))
    program = [str(run_dir / "workload.json") if a == WORKLOAD_JSON else a for a in program]
    return [str(cfg.jdk.java), *flags, *program], expect


def start_clean(cfg: "RunConfig", support: CgroupSupport, device: str | None, not_enforced: list[str],
                refuse: Callable[[list[str]], None], summary: dict[str, Any], warnings: list[str]) -> RunCgroup | None:
    """Before the run: drop the page cache (cfg.drop_caches), enter the run's cgroup
    (enter_run_cgroup), and mark summary and warnings unbudgeted where not_enforced says so."""
    if cfg.drop_caches:
        w = clean_caches()
        if w:
            warnings.append(w)
    cgroup = enter_run_cgroup(cfg, support, device, not_enforced, refuse)
    summary["unbudgeted"] = bool(not_enforced)
    summary["unbudgeted_reasons"] = not_enforced
    warnings += [f"{UNBUDGETED}: {p}" for p in not_enforced]
    return cgroup


def leave_run_cgroup(cgroup: RunCgroup, summary: dict[str, Any], warnings: list[str]) -> None:
    """Remove the run's cgroup (after its processes ended), recording its OOM
    kills, its removal warnings and whether it is gone."""
    summary["oom_kills"] = cgroup.oom_kills()
    cgroup.remove()
    warnings.extend(cgroup.warnings)
    summary["cgroup_removed"] = not cgroup.dirs


def data_block_device(data_dir: Path, warnings: list[str]) -> str | None:
    """The block device the run reads (throttled and measured), or None with a warning."""
    try:
        device = block_device_of(data_dir)
    except OSError as e:
        warnings.append(f"cannot stat data dir {data_dir}: {e}")
        return None
    if device is None:
        warnings.append(f"no block device found for {data_dir}; no device stats or throttling")
    return device


def new_summary(cfg: RunConfig, **fields: Any) -> dict[str, Any]:
    """A run's summary before it runs: what it measures, not yet ok (run_once, services.run)."""
    return {
        "label": cfg.label or cfg.policy.name,
        "policy": cfg.policy.name,
        "budget": cfg.budget,
        "device": cfg.device.name,
        **fields,
        # --jvm-flags: part of what was measured (results_report keeps settings apart by it)
        "extra_jvm_flags": list(cfg.extra_jvm_flags),
        "ok": False,
        "error": None,
        "unbudgeted": False,
    }


def refuser(summary: dict[str, Any], rd: Path) -> Callable[[list[str]], None]:
    """What ends a run whose budget or device is not enforced and that is not --unbudgeted: its
    summary.json says why, and NotEnforced stops the comparison before it measures anything wrong."""
    def refuse(problems: list[str]) -> None:
        summary["error"] = refusal_message(problems)
        _write_json(rd / "summary.json", summary)
        raise NotEnforced(summary["error"])
    return refuse


def missing_flexheap(cfg: RunConfig) -> str | None:
    """Why cfg's policy cannot run on cfg's JDK, or None."""
    if cfg.policy.needs_flexheap and not cfg.jdk.is_flexheap_build:
        return f"policy {cfg.policy.name} needs the FlexHeap JDK; {cfg.jdk.home} lacks -XX:+UseFlexHeap"
    return None


def check_enforced(cfg: RunConfig, support: CgroupSupport | None, warnings: list[str],
                   refuse: Callable[[list[str]], None]) -> tuple[CgroupSupport, str | None, list[str]]:
    """The cgroup support, the data's block device and what of the budget and device profile is
    not enforced here; refuses the run when something is and it is not --unbudgeted."""
    support = support or detect(cfg.cgroup_parent)
    warnings += support.problems
    device = data_block_device(cfg.data_dir, warnings)
    not_enforced = enforcement_problems(support, cfg.budget, cfg.device, device, cfg.data_dir)
    if not_enforced and not cfg.unbudgeted:
        refuse(not_enforced)
    return support, device, not_enforced


def run_once(cfg: RunConfig, log: Callable[[str], None] = say, support: CgroupSupport | None = None) -> dict[str, Any]:
    """Runs one JVM under cfg and returns (and writes) its summary. Never raises for a failed
    JVM; KeyboardInterrupt propagates after cleanup."""
    # as the CLI's preflight found it (devices.block_device_near)
    with read_ahead(block_device_near(cfg.data_dir), cfg.read_ahead, warn=log):
        return _run_once(cfg, log, support)


def _run_once(cfg: RunConfig, log: Callable[[str], None], support: CgroupSupport | None) -> dict[str, Any]:
    if cfg.service is not None:
        from .services.run import run_service_once
        result = run_service_once(cfg, cfg.service, log, support)
        if cfg.unbudgeted and not result.get("unbudgeted"):
            # The CLI's preflight found the budget / device unenforceable and --unbudgeted was given.
            result["unbudgeted"] = True
            result.setdefault("unbudgeted_reasons", ["--unbudgeted: the budget or device profile cannot be enforced"])
        return result
    if cfg.partner:
        from .shared import run_shared
        return run_shared(cfg, cfg.partner, log, support)
    rd = cfg.run_dir
    rd.mkdir(parents=True, exist_ok=True)
    warnings: list[str] = []
    summary = new_summary(cfg)
    refuse = refuser(summary, rd)

    def fail(msg: str) -> dict[str, Any]:
        summary["error"] = msg
        log(f"  FAILED {summary['label']}: {msg}")
        _write_json(rd / "summary.json", summary)
        return summary

    missing = missing_flexheap(cfg)
    if missing:
        return fail(missing)
    try:
        argv, expect = jvm_command(cfg, rd, cfg.program)
        summary["max_heap"] = max_heap_bytes(cfg.policy, cfg.budget)
    except ValueError as e:
        return fail(str(e))

    support, device, not_enforced = check_enforced(cfg, support, warnings, refuse)

    config = {
        "label": summary["label"],
        "policy": asdict(cfg.policy),
        "budget": cfg.budget,
        "budget_human": format_size(cfg.budget),
        "index_bytes": cfg.index_bytes,
        "device_profile": asdict(cfg.device),
        "block_device": device,
        "read_ahead_kb": read_ahead_kb(device),  # as set for the run (--read-ahead) or as found
        "jdk": str(cfg.jdk.home),
        "jdk_has_flexheap": cfg.jdk.is_flexheap_build,
        "argv": argv,
        "data_dir": str(cfg.data_dir),
        "timeout_s": cfg.timeout_s,
        "thrash_limit": asdict(cfg.thrash) if cfg.thrash else None,
        "sample_interval_s": cfg.sample_interval_s,
    }

    cgroup = start_clean(cfg, support, device, not_enforced, refuse, summary, warnings)
    config["unbudgeted"] = bool(not_enforced)
    config["unbudgeted_reasons"] = not_enforced
    config["cgroup"] = cgroup.describe() if cgroup else None
    config["warnings"] = warnings
    _write_json(rd / "config.json", config)
    for w in warnings:
        log(f"  warning: {w}")

    stdout = open(rd / "stdout.log", "wb")
    stderr = open(rd / "stderr.log", "wb")
    proc: subprocess.Popen[bytes] | None = None
    sampler: Sampler | None = None
    t0 = time.time()
    stopped: str | None = None
    try:
        proc = subprocess.Popen(
            argv,
            stdout=stdout,
            stderr=stderr,
            stdin=subprocess.DEVNULL,
            cwd=rd,
            # Joins the cgroup(s) between fork and exec, so the JVM's first page is charged.
            preexec_fn=cgroup.attach_current_process if cgroup else None,
            start_new_session=True,  # Ctrl-C reaches us, and we tear the run down in order
        )
        pid = proc.pid
        outside = cgroup.holds(pid) if cgroup else []
        if outside:
            problem = f"the JVM (pid {pid}) is not in its run cgroup(s) {', '.join(outside)}"
            not_enforced.append(problem)
            summary["unbudgeted"] = True
            warnings.append(f"{UNBUDGETED}: {problem}")
            if not cfg.unbudgeted:
                proc.kill()
                summary["error"] = refusal_message([problem])
                _write_json(rd / "summary.json", summary)
                raise NotEnforced(summary["error"])
        sampler = Sampler(rd / "samples.csv", cgroup, device,
                          (lambda: [pid] + (cgroup.pids() if cgroup else [])), t0, cfg.sample_interval_s)
        sampler.start()
        stopped = _wait(proc, cfg, rd / "stderr.log", sampler, log, t0)
    finally:
        if sampler:
            sampler.stop()
        if proc and proc.poll() is None:
            proc.kill()
        if cgroup:
            leave_run_cgroup(cgroup, summary, warnings)
        if proc:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        stdout.close()
        stderr.close()
    wall = time.time() - t0
    assert proc is not None and sampler is not None

    summary.update(_summarize(rd, sampler, t0, wall, cfg.jdk.tool("jfr")))
    summary["returncode"] = proc.returncode
    summary["warnings"] = warnings
    error = None
    if stopped:
        error = stopped
    elif proc.returncode != 0:
        error = f"JVM exited with {proc.returncode}" + (" (killed: OOM in the cgroup?)" if proc.returncode == -9 else "")
    elif summary.get("workload_ok") is False:
        error = "workload reported ok=false"
    return close_summary(summary, error, rd, [rd / n for n in ("stderr.log", "stdout.log", "gc.log")], log, expect)


def close_summary(summary: dict[str, Any], error: str | None, rd: Path, logs: list[Path],
                  log: Callable[[str], None], expect: runconfig.Expected | None = None) -> dict[str, Any]:
    """The run's verdict into summary.json: an OOM kill in the cgroup fails it, and so does a JVM
    whose start-up lines in rd/gc.log show another configuration than expect (the policy's; the
    error names the expected and the seen values, unless the run already failed otherwise); a
    failed run keeps (and prints) the tails of its logs."""
    if expect is not None:
        seen = runconfig.read_startup(rd)
        problems = runconfig.check(expect, seen)
        summary["jvm_config"] = asdict(seen)
        summary["config_expected"] = asdict(expect)
        summary["config_ok"] = not problems
        if problems:
            summary["config_errors"] = problems
            error = error or runconfig.error_message(problems)
    if summary.get("oom_kills"):
        error = (error + "; " if error else "") + f"{summary['oom_kills']} OOM kill(s) in the cgroup"
    if error:
        summary["error"] = error
        summary["log_tail"] = {p.name: tail(p) for p in logs}
        log(f"  FAILED {summary['label']}: {error}")
        for name, text in summary["log_tail"].items():
            if text.strip():
                log(f"  --- tail of {name} ---\n" + "\n".join("  | " + s for s in text.rstrip().splitlines()))
    else:
        summary["ok"] = True
    _write_json(rd / "summary.json", summary)
    return summary


def _wait(proc: subprocess.Popen[bytes], cfg: RunConfig, stderr_path: Path, sampler: Sampler,
          log: Callable[[str], None], t0: float) -> str | None:
    """Waits for the JVM, echoing phase markers and a status line every 15 s. Why the JVM was
    killed (timeout, thrashing), or None when it exited by itself."""
    seen = 0
    last_status = time.monotonic()
    while True:
        try:
            proc.wait(timeout=1.0)
            done = True
        except subprocess.TimeoutExpired:
            done = False
        try:
            with open(stderr_path, "rb") as f:
                f.seek(seen)
                chunk = f.read()
            complete = chunk[: chunk.rfind(b"\n") + 1]
            seen += len(complete)
            for line in complete.decode(errors="replace").splitlines():
                m = PHASE_RE.search(line)
                if m:
                    extra = f" {m.group(4)} queries, {m.group(5)} q/s" if m.group(4) else ""
                    log(f"    [{time.time() - t0:6.1f}s] phase {m.group(1)} {m.group(2)}{extra}")
        except OSError:
            pass
        if done:
            return None
        if cfg.timeout_s and time.time() - t0 > cfg.timeout_s:
            proc.kill()
            return f"timed out after {cfg.timeout_s:.0f}s"
        reason = thrashing(sampler.rows, cfg.thrash)
        if reason:
            proc.kill()
            return reason
        if time.monotonic() - last_status >= 15 and sampler.rows:
            r = sampler.rows[-1]
            log(f"    [{r['t']:6.1f}s] heap {format_size(r['heap_committed'])} committed / "
                f"{format_size(r['heap_used'])} used, page cache {format_size(r['page_cache'])}, "
                f"iowait {r['iowait_pct'] if r['iowait_pct'] is not None else '-'}%")
            last_status = time.monotonic()


def _summarize(rd: Path, sampler: Sampler, t0: float, wall: float, jfr_tool: Path | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"wall_s": round(wall, 3)}
    rows = sampler.rows

    def col(name: str) -> list[float]:
        return [float(r[name]) for r in rows if r.get(name) is not None]

    for name in ("page_cache", "heap_committed", "heap_used", "anon", "cg_usage"):
        values = col(name)
        out[f"peak_{name}"] = max(values) if values else None
        out[f"mean_{name}"] = round(sum(values) / len(values)) if values else None
    iow = col("iowait_pct")
    out["mean_iowait_pct"] = round(sum(iow) / len(iow), 2) if iow else None
    for name in ("cg_read_bytes", "cg_write_bytes", "dev_read_bytes", "dev_write_bytes"):
        values = col(name)
        out[name] = int(values[-1]) if values else None
    out["read_bytes"] = out["cg_read_bytes"] if out["cg_read_bytes"] is not None else out["dev_read_bytes"]
    # This run's own stall and cache misses (PSI of its cgroup when the kernel has it).
    refaults = col("refault_file")
    out["refault_file"] = int(refaults[-1]) if refaults else None
    out["psi_scope"] = sampler.psi_scope
    # Of those misses, the share a cache about twice as large would have hit.
    shares = [r for r in rows if r.get("activate_share") is not None]
    out["activate_share"] = shares[-1]["activate_share"] if shares else None
    out["workingset_scope"] = sampler.workingset_scope
    for k, v in sampler.pressure_totals().items():
        out[f"psi_{k}"] = v  # psi_io_some_s, psi_io_full_s, psi_memory_some_s, psi_memory_full_s
    out["samples"] = len(rows)
    out["sampler_errors"] = sampler.errors[:5]

    # The GC log's uptimes are relative to JVM start, which hsperfdata records in epoch ms.
    jvm_start = (sampler.vm_start_epoch_ms / 1000.0) if sampler.vm_start_epoch_ms else t0
    out["jvm_start_t"] = round(jvm_start - t0, 3)
    gl = gclog.parse_file(rd / "gc.log")
    out.update(gl.summary())
    out["gc_time_ms"] = out["gc_pause_ms"]
    _write_pauses(rd / "gc_pauses.csv", gl, jvm_start - t0)
    decisions = None
    if (rd / jfr.RECORDING).exists() and jfr_tool is not None:
        try:
            decisions = jfr.read_decisions(rd / jfr.RECORDING, jfr_tool)
        except (OSError, ValueError, subprocess.TimeoutExpired) as e:
            out["decisions_error"] = f"cannot read {jfr.RECORDING}: {e}; decisions from gc.log"
    if decisions is not None:
        # JFR starts recording some 0.5 s into the JVM's life: the GC log's decisions of the
        # pauses before that (gc ids JFR never saw, earlier than its first event) fill the gap.
        first = decisions[0].epoch_s - t0 if decisions else float("inf")
        seen = {d.gc_id for d in decisions}
        early = [d for d in gl.decisions if d.gc_id not in seen and d.uptime_s + (jvm_start - t0) <= first]
        out["decisions_source"] = "jfr" + (f" (+{len(early)} before the recording from gc.log)" if early else "")
        out = {k: v for k, v in out.items() if not k.startswith("flexheap_")}
        counts = jfr.summary_counts(decisions)
        for d in early:
            key = f"flexheap_{d.action.lower() or 'unknown'}"
            counts[key] = counts.get(key, 0) + 1
        counts["flexheap_decisions"] += len(early)
        out.update(counts)
        _write_jfr_decisions(rd / "decisions.csv", decisions, t0, early, jvm_start - t0)
    else:
        out["decisions_source"] = "gc.log"
        _write_decisions(rd / "decisions.csv", gl, jvm_start - t0)

    try:
        with open(rd / "stderr.log", errors="replace") as f:
            markers = parse_phase_lines(f.readlines())
    except OSError:
        markers = []
    for m in markers:
        m["start_t"] = round(m["start_epoch"] - t0, 3) if m["start_epoch"] else None
        m["end_t"] = round(m["end_epoch"] - t0, 3) if m["end_epoch"] else None
    workload: dict[str, Any] | None = None
    try:
        workload = json.loads((rd / "workload.json").read_text())
    except (OSError, ValueError):
        pass
    phases: list[dict[str, Any]] = []
    if workload:
        out["workload"] = workload.get("workload")
        out["workload_ok"] = workload.get("ok")
        by_name = {m["name"]: m for m in markers}
        for p in workload.get("phases", []):
            merged = dict(p)
            m = by_name.get(p.get("name"), {})
            merged.update({k: m[k] for k in ("start_t", "end_t") if k in m})
            phases.append(merged)
        out["total_s"] = workload.get("total_s", wall)
    else:
        for m in markers:
            phase = {k: m.get(k) for k in ("name", "start_t", "end_t", "queries", "throughput_qps")}
            if m.get("start_epoch") and m.get("end_epoch"):
                phase["duration_s"] = round(m["end_epoch"] - m["start_epoch"], 3)
            phases.append(phase)
        out["total_s"] = round(wall, 3)
    out["phases"] = phases
    return out


def _write_pauses(path: Path, gl: gclog.GcLog, offset: float) -> None:
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["t", "gc_id", "kind", "before", "after", "committed", "ms"])
        for p in gl.pauses:
            w.writerow([round(p.uptime_s + offset, 3), p.gc_id, p.kind, p.before, p.after, p.committed, p.ms])


def _write_decisions(path: Path, gl: gclog.GcLog, offset: float) -> None:
    keys: list[str] = []
    for d in gl.decisions:
        keys += [k for k in d.fields if k not in keys]
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["t", "gc_id", *keys])
        for d in gl.decisions:
            w.writerow([round(d.uptime_s + offset, 3), d.gc_id, *(d.fields.get(k, "") for k in keys)])


def _write_jfr_decisions(path: Path, decisions: list[jfr.JfrDecision], t0: float,
                         early: list[gclog.Decision], offset: float) -> None:
    """JFR's decisions, after the GC log's ones from before the recording started (their
    own field names; the 'source' column says which)."""
    keys: list[str] = []
    for fields in [d.fields for d in early] + [d.fields for d in decisions]:
        keys += [k for k in fields if k not in keys]
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["t", "gc_id", "source", *keys])
        for d in early:
            w.writerow([round(d.uptime_s + offset, 3), d.gc_id, "gc.log", *(d.fields.get(k, "") for k in keys)])
        for d in decisions:
            w.writerow([round(d.epoch_s - t0, 3), d.gc_id, "jfr", *(d.fields.get(k, "") for k in keys)])


def _write_json(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=2, default=str) + "\n")


def print_summary(s: dict[str, Any], out: Callable[[str], None] = print) -> None:
    status = "ok" if s.get("ok") else f"FAILED ({s.get('error')})"
    out(f"{s.get('label')}: {status}")
    if s.get("unbudgeted"):
        out(f"  {UNBUDGETED.upper()}: not enforced: " + "; ".join(s.get("unbudgeted_reasons") or []))
    out(f"  budget {format_size(s.get('budget'))}, max heap {format_size(s.get('max_heap'))}, device {s.get('device')}")
    if "total_s" in s:
        out(f"  total {s['total_s']:.1f} s (wall {s.get('wall_s', 0):.1f} s)")
        out(f"  GC: {s.get('gc_pauses', 0)} pauses ({s.get('gc_young', 0)} young, {s.get('gc_full', 0)} full), "
            f"{s.get('gc_pause_ms', 0):.0f} ms paused; FlexHeap decisions: {s.get('flexheap_decisions', 0)}")
        out(f"  peak heap committed {format_size(s.get('peak_heap_committed'))}, "
            f"peak page cache {format_size(s.get('peak_page_cache'))}, "
            f"read {format_size(s.get('read_bytes'))}, mean iowait {s.get('mean_iowait_pct')}%")
        if s.get("psi_scope"):
            out(f"  stall (PSI, {s['psi_scope']}): I/O {s.get('psi_io_some_s', '-')} s, memory "
                f"{s.get('psi_memory_some_s', '-')} s; page-cache refaults {s.get('refault_file', '-')}"
                + (f", {s['activate_share']:.0%} of them within reach of a 2x cache ({s.get('workingset_scope')})"
                   if isinstance(s.get("activate_share"), (int, float)) else ""))
        for p in s.get("phases", []):
            qps = p.get("throughput_qps")
            out(f"  phase {p.get('name')}: {p.get('duration_s', '-')} s"
                + (f", {qps:.1f} q/s" if isinstance(qps, (int, float)) else ""))
    if s.get("cgroup_removed") is False:
        out("  WARNING: cgroup could not be removed")
    sys.stdout.flush()
