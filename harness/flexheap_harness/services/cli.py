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

"""The CLI side of service workloads: preparing them before any run, and a per-phase report.

  python -m flexheap_harness.services report DIR    per-phase table of a comparison (or run) folder
  python -m flexheap_harness.services prepare WORKLOAD   fetch + generate data only
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any, Callable, Sequence

from ..integrity import UsageError
from ..runner import say
from ..sizes import format_size
from .base import Service, ServiceUnavailable, is_service_workload, parse_workload

__all__ = ["is_service_workload", "prepare_service", "phase_table", "main"]


def prepare_service(args: argparse.Namespace, check: Callable[[Service], None] = lambda s: None) -> Service:
    """Parses --workload opensearch:/spark:, calls check(service) (a refusal raises), fetches
    and generates what it needs (outside every run's budget and timing) and records its data
    size for relative budgets ('0.1x')."""
    try:
        service = parse_workload(args.workload)
        check(service)
        service.prepare(say)
    except ServiceUnavailable as e:
        raise SystemExit(f"error: {args.workload} is unavailable (its artifact cannot be fetched): {e}")
    except UsageError:
        raise  # the caller's refusal, exit 2
    except ValueError as e:
        raise SystemExit(f"error: {e}")
    args.service_data_bytes = service.data_bytes()
    say(f"{service.name}: data {format_size(args.service_data_bytes)} on disk in {service.data_dir()}")
    return service


def _runs(path: Path) -> list[dict[str, Any]]:
    if (path / "comparison.json").exists():
        return json.loads((path / "comparison.json").read_text()).get("runs", [])
    if (path / "summary.json").exists():
        return [json.loads((path / "summary.json").read_text())]
    raise SystemExit(f"error: {path} has neither comparison.json nor summary.json")


METRICS = (("throughput_qps", "throughput", "{:.1f}"), ("p50_service_ms", "p50 ms", "{:.1f}"),
           ("p99_service_ms", "p99 ms", "{:.1f}"))


def phase_table(runs: list[dict[str, Any]]) -> tuple[list[str], list[list[str]]]:
    """Median over ok runs per (policy, phase) of throughput, p50 and p99 service time; a phase
    with a wall time and no throughput (OpenSearch's ingest, ingest-search and search spans), and a
    bulk task's own work time, as a "time <phase>" row in seconds, as the harness's comparison has
    it; plus per-policy run totals
    (bytes read, GC pause, mean committed heap and page cache)."""
    per: dict[tuple[str, str], dict[str, list[float]]] = {}
    units: dict[str, str] = {}
    policies: list[str] = []
    phases: list[str] = []
    totals: dict[str, dict[str, list[float]]] = {}
    spans: dict[str, dict[str, list[float]]] = {}  # phase -> policy -> wall times (s)
    for s in runs:
        if not s.get("ok"):
            continue
        pol = s["policy"]
        if pol not in policies:
            policies.append(pol)
        t = totals.setdefault(pol, {})
        for key in ("total_s", "read_bytes", "gc_pause_ms", "mean_heap_committed", "mean_page_cache"):
            if isinstance(s.get(key), (int, float)):
                t.setdefault(key, []).append(float(s[key]))
        for p in s.get("phases", []):
            name = p.get("name")
            if not isinstance(p.get("throughput_qps"), (int, float)):
                # a span-only record (an opensearch-benchmark phase's start and end): its wall time
                dur = p.get("duration_s")
                if name and isinstance(dur, (int, float)) and dur > 0:
                    spans.setdefault(name, {}).setdefault(pol, []).append(float(dur))
                continue
            if name not in phases:
                phases.append(name)
            if isinstance(p.get("work_s"), (int, float)) and p["work_s"] > 0:
                # a task of fixed work (a bulk): the time to its last request, finer than its phase's span
                spans.setdefault(name, {}).setdefault(pol, []).append(float(p["work_s"]))
            if p.get("unit"):
                units[name] = p["unit"]
            d = per.setdefault((pol, name), {})
            for key, _, _ in METRICS:
                if isinstance(p.get(key), (int, float)):
                    d.setdefault(key, []).append(float(p[key]))
    header = ["phase", "unit"] + [f"{pol} {label}" for pol in policies for _, label, _ in METRICS]
    rows: list[list[str]] = []
    for ph in phases:
        row = [ph, units.get(ph, "")]
        for pol in policies:
            for key, _, fmt in METRICS:
                vals = per.get((pol, ph), {}).get(key)
                row.append(fmt.format(statistics.median(vals)) if vals else "-")
        rows.append(row)
    for ph, by_policy in spans.items():
        row = [f"time {ph}", "s"]
        for pol in policies:
            vals = by_policy.get(pol)
            row += [f"{statistics.median(vals):.1f}" if vals else "-", "", ""]
        rows.append(row)
    for key, label, size in (("total_s", "run time s", False), ("read_bytes", "bytes read", True),
                             ("gc_pause_ms", "GC pause ms", False),
                             ("mean_heap_committed", "mean heap committed", True),
                             ("mean_page_cache", "mean page cache", True)):
        row = [f"(run) {label}", ""]
        for pol in policies:
            vals = totals.get(pol, {}).get(key)
            v = statistics.median(vals) if vals else None
            row += [format_size(v) if (size and v is not None) else (f"{v:.0f}" if v is not None else "-"), "", ""]
        rows.append(row)
    return header, rows


def render_markdown(header: list[str], rows: list[list[str]]) -> str:
    from tabulate import tabulate  # here, not at the top: the CLI's --help runs without the harness's venv
    return tabulate(rows, headers=header, tablefmt="github", disable_numparse=True) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m flexheap_harness.services")
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("report", help="per-phase table (median over repetitions) of a comparison or run folder")
    r.add_argument("path", type=Path)
    p = sub.add_parser("prepare", help="fetch the service and generate its data")
    p.add_argument("workload")
    args = ap.parse_args(argv)
    if args.command == "prepare":
        try:
            s = parse_workload(args.workload)
            s.prepare(say)
        except ServiceUnavailable as e:
            print(f"unavailable: {e}", file=sys.stderr)
            return 3
        print(f"{s.name}: {format_size(s.data_bytes())} in {s.data_dir()}")
        return 0
    header, rows = phase_table(_runs(args.path))
    text = render_markdown(header, rows)
    if (args.path / "comparison.json").exists():
        (args.path / "phases.md").write_text(text)
    print(text, end="")
    return 0
