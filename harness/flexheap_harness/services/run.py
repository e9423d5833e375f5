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

"""One budgeted, sampled run of a service workload, written as an ordinary run folder
(config.json, samples.csv, gc.log, gc_pauses.csv, decisions.csv, workload.json,
summary.json; plus the service's own logs), so compare/sweep/plot treat it like any run."""

from __future__ import annotations

import contextlib
import json
import time
import traceback
from dataclasses import asdict
from typing import Any, Callable

from .. import runconfig, runner
from ..cgroups import CgroupSupport, detect
from ..devices import read_ahead_kb
from ..integrity import NotEnforced, enforcement_problems, refusal_message
from ..policies import jvm_flags, max_heap_bytes
from ..provenance import release_fields
from ..sampling import Sampler
from ..sizes import format_size
from ..thrash import thrashing
from .base import RUN_MARK, Context, Service, kill_by_environ, kill_processes, process_tree
from .stall_source import delay_accounting


def run_service_once(cfg: "runner.RunConfig", service: Service, log: Callable[[str], None] = runner.say,
                     support: CgroupSupport | None = None) -> dict[str, Any]:
    """Like runner.run_once, for a service: never raises for a failed run; Ctrl-C (and SIGTERM,
    which the CLI turns into KeyboardInterrupt) propagates after the service is stopped and the
    cgroup removed."""
    rd = cfg.run_dir.resolve()  # services start in their own working directories
    rd.mkdir(parents=True, exist_ok=True)
    gc_log = rd / "gc.log"
    warnings: list[str] = []
    summary = runner.new_summary(cfg, workload=service.name)

    def refuse(problems: list[str]) -> None:
        """Budget or device profile not in force and not --unbudgeted: measure nothing (as runner)."""
        summary["error"] = refusal_message(problems)
        runner._write_json(rd / "summary.json", summary)
        raise NotEnforced(summary["error"])

    def fail(msg: str) -> dict[str, Any]:
        summary["error"] = msg
        log(f"  FAILED {summary['label']}: {msg}")
        runner._write_json(rd / "summary.json", summary)
        return summary

    if cfg.policy.needs_flexheap and not cfg.jdk.is_flexheap_build:
        return fail(f"policy {cfg.policy.name} needs the FlexHeap JDK; {cfg.jdk.home} lacks -XX:+UseFlexHeap")
    try:
        reserve = service.native_reserve()
        flags = jvm_flags(cfg.policy, cfg.budget, str(gc_log), cfg.extra_jvm_flags, cfg.jdk.is_flexheap_build,
                          reserve)
        max_heap = max_heap_bytes(cfg.policy, cfg.budget, reserve)
        summary["max_heap"] = max_heap
        summary["native_reserve"] = reserve
        if max_heap < max_heap_bytes(cfg.policy, cfg.budget):  # the reserve capped a fraction policy
            log(f"    max heap {format_size(max_heap)}, not {cfg.policy.heap_fraction:.0%} of the budget: "
                f"{service.kind} keeps {format_size(reserve)} of it for native memory")
        service.prepare(log)
    except ValueError as e:
        return fail(str(e))

    support = support or detect(cfg.cgroup_parent)
    warnings += support.problems
    data_dir = service.data_dir()
    device = runner.data_block_device(data_dir, warnings)
    not_enforced = enforcement_problems(support, cfg.budget, cfg.device, device, data_dir)
    if not_enforced and not cfg.unbudgeted:
        refuse(not_enforced)

    config: dict[str, Any] = {
        "label": summary["label"], "policy": asdict(cfg.policy), "budget": cfg.budget,
        "budget_human": format_size(cfg.budget), "index_bytes": cfg.index_bytes, "workload": service.name,
        "device_profile": asdict(cfg.device), "block_device": device, "read_ahead_kb": read_ahead_kb(device),
        "jdk": str(cfg.jdk.home), "native_reserve": reserve,
        "jdk_has_flexheap": cfg.jdk.is_flexheap_build, "jvm_flags": flags, "data_dir": str(data_dir),
        "timeout_s": cfg.timeout_s, "thrash_limit": asdict(cfg.thrash) if cfg.thrash else None,
        "sample_interval_s": cfg.sample_interval_s,
    }
    if cfg.drop_caches:
        w = runner.clean_caches()
        if w:
            warnings.append(w)

    cgroup = runner.enter_run_cgroup(cfg, support, device, not_enforced, refuse)
    summary["unbudgeted"] = bool(not_enforced)
    summary["unbudgeted_reasons"] = not_enforced
    config["unbudgeted"] = bool(not_enforced)
    config["cgroup"] = cgroup.describe() if cgroup else None
    config["warnings"] = warnings
    # Closed once the service has stopped (below), or at once if setting up the run fails
    # (the run cgroup is left then too).
    stall_setting = contextlib.ExitStack()
    try:
        config["task_delayacct"] = (stall_setting.enter_context(delay_accounting(log)) if service.unprivileged
                                    else "unchanged (the service's JVM runs as root and can load eBPF)")
        runner._write_json(rd / "config.json", config)
        for w in warnings:
            log(f"  warning: {w}")

        t0 = time.time()
        ctx = Context(run_dir=rd, jdk=cfg.jdk, jvm_flags=flags, max_heap=max_heap, budget=cfg.budget,
                      cgroup=cgroup, log=log, t0=t0, deadline=(t0 + cfg.timeout_s) if cfg.timeout_s else None)

        def pids() -> list[int]:
            main = service.main_pid(ctx)
            return [main] if main else []

        sampler = Sampler(rd / "samples.csv", cgroup, device, pids, t0, cfg.sample_interval_s)
        ctx.watchdog = lambda: thrashing(sampler.rows, cfg.thrash)
    except BaseException:
        try:
            stall_setting.close()
        finally:
            if cgroup:  # nothing runs in it yet
                runner.leave_run_cgroup(cgroup, summary, warnings)
        raise
    result: dict[str, Any] | None = None
    error: str | None = None
    try:
        sampler.start()
        service.start(ctx)
        service.wait_ready(ctx)
        log(f"    [{time.time() - t0:6.1f}s] {service.name} ready")
        result = service.drive(ctx)
    except (RuntimeError, TimeoutError, OSError, ValueError) as e:
        error = f"{type(e).__name__}: {e}"
        (rd / "harness-error.log").write_text(traceback.format_exc())
    finally:
        # What we started, with every descendant as it is now: a client's workers may leave
        # its process group (opensearch-benchmark's did, and outlived a Ctrl-C), and a client
        # runs outside the run cgroup, so the cgroup's teardown does not reach it.
        started = [proc for p in ctx.procs for proc in process_tree(p.pid)]
        try:
            service.stop(ctx)
        finally:
            stall_setting.close()
            sampler.stop()
            kill_processes(started)
            # ... and what had left both by then: a daemon in a session of its own, re-parented
            # to init (opensearch-benchmark's actor system), by the mark spawn() gave it.
            kill_by_environ(RUN_MARK, str(rd))
            if cgroup:
                runner.leave_run_cgroup(cgroup, summary, warnings)
            for f in ctx.files:
                f.close()
    wall = time.time() - t0
    if result is not None:
        (rd / "workload.json").write_text(json.dumps(result, indent=2) + "\n")
    # The runner's summarizer reads stderr.log for phase markers; ours are in workload.json.
    (rd / "stderr.log").touch()
    summary.update(runner._summarize(rd, sampler, t0, wall))
    summary["warnings"] = warnings
    if error is None and result is not None and not result.get("ok"):
        error = f"workload reported ok=false: {result.get('error')}"
    logs = sorted(rd.glob("*.err")) + sorted(rd.glob("*.out")) + [rd / "gc.log", rd / "harness-error.log"]
    # The service's JVM, too, must have run what its policy means (its -Xms where the policy sets one).
    expect = runconfig.expected_config(cfg.policy, flags, release_fields(cfg.jdk.home))
    return runner.close_summary(summary, error, rd, logs, log, expect)


def phase_record(name: str, t0: float, start: float, end: float, **metrics: Any) -> dict[str, Any]:
    """A phase as runner._summarize and the plots expect it (times relative to run start)."""
    rec: dict[str, Any] = {"name": name, "start_t": round(start - t0, 3), "end_t": round(end - t0, 3),
                           "duration_s": round(end - start, 3)}
    rec.update(metrics)
    return rec
