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

"""Policies x repetitions, interleaved; a table of median [min..max] and ratio to a baseline.

Comparison folder layout:
  runs/r<rep>-<policy>/    one run folder each (see runner.py)
  runs/warmup<n>-<policy>/ the warm-up runs, not counted (run_comparison)
  comparison.json          aggregate statistics + every run's summary
  comparison.md            the table, for humans
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any, Callable, Sequence

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from tabulate import tabulate

from . import provenance
from .integrity import UNBUDGETED
from .runner import RunConfig, run_once, say
from .sizes import format_size
from .stats import (FAMILY_ALPHA, NO_DIFFERENCE, aggregate, band_text, interleave, metric_info, ratio_legend,
                    table_verdicts)
from .warmup import DEFAULT_WARMUP  # the default of run_comparison, and of the CLI's --warmup


def _safe(policy: str) -> str:
    return re.sub(r'[^A-Za-z0-9_.-]+', '_', policy)


def run_dir_name(rep: int, policy: str) -> str:
    return f"r{rep}-{_safe(policy)}"


def warmup_dir_name(n: int, policy: str) -> str:
    return f"warmup{n}-{_safe(policy)}"


def run_comparison(
    policies: Sequence[str],
    reps: int,
    make_config: Callable[[str, int, Path], RunConfig],
    out_dir: Path,
    baseline: str,
    log: Callable[[str], None] = say,
    warmup: int = DEFAULT_WARMUP,
) -> dict[str, Any]:
    if warmup < 0:
        raise ValueError(f"warmup must be >= 0, not {warmup}")
    out_dir.mkdir(parents=True, exist_ok=True)
    order = interleave(policies, reps)
    summaries: list[dict[str, Any]] = []
    warmups: list[dict[str, Any]] = []
    started = time.time()
    first = order[0][1] if order else None
    for n in range(1, warmup + 1 if first is not None else 1):
        rd = out_dir / "runs" / warmup_dir_name(n, first)
        log(f"[warm-up {n}/{warmup}] policy {first}, not counted: it reads the data and the JDK once, so that "
            f"the first measured run does not pay for a cold host cache -> {rd}")
        s = run_once(make_config(first, 0, rd), log=log)
        warmups.append({"policy": first, "run_dir": str(rd), "ok": bool(s.get("ok")),
                        "total_s": s.get("total_s"), "error": s.get("error")})
        if s.get("ok"):
            log(f"    warm-up done: total {s.get('total_s', 0):.1f}s")
        else:  # a run that fails early (too small a heap) reads little: it does not warm the host cache
            log("    warm-up failed (above): the first counted run may be cold")
    # rich.progress: on a terminal a bar with the time estimate under the log lines (rich prints
    # them above it); piped to a file there is no bar and the per-run log line carries the estimate.
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                  console=Console(), transient=True) as progress:
        task = progress.add_task("runs", total=len(order))
        for i, (rep, policy) in enumerate(order, 1):
            rd = out_dir / "runs" / run_dir_name(rep, policy)
            eta = progress.tasks[0].time_remaining
            log(f"[{i}/{len(order)}] rep {rep} policy {policy}  (elapsed {time.time() - started:.0f}s"
                + (f", ETA {eta:.0f}s" if eta is not None else "") + f") -> {rd}")
            progress.update(task, description=f"rep {rep} {policy}")
            cfg = make_config(policy, rep, rd)
            s = run_once(cfg, log=log)
            s["rep"] = rep
            s["run_dir"] = str(rd)
            summaries.append(s)
            if s.get("ok"):
                log(f"    done: total {s.get('total_s', 0):.1f}s, GC {s.get('gc_time_ms', 0):.0f} ms, "
                    f"peak cache {format_size(s.get('peak_page_cache'))}, read {format_size(s.get('read_bytes'))}")
            _write(out_dir, summaries, baseline, warmups)  # partial results survive an interrupted comparison
            progress.advance(task)
    return _write(out_dir, summaries, baseline, warmups)


def _write(out_dir: Path, summaries: list[dict[str, Any]], baseline: str,
           warmups: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    agg = aggregate(summaries, baseline)
    agg["warmup_runs"] = warmups or []
    agg["provenance"] = provenance.of_runs(summaries)  # date and JDK(s), shown by `report`
    agg["runs"] = summaries
    (out_dir / "comparison.json").write_text(json.dumps(agg, indent=2, default=str) + "\n")
    from .shared import members_markdown
    (out_dir / "comparison.md").write_text(render_markdown(agg) + members_markdown(summaries))
    return agg


def recheck_comparison(out_dir: Path) -> dict[str, Any]:
    """A finished comparison with every run's configuration checked again by today's check
    (runconfig.recheck_run), comparison.json and .md rewritten: for runs whose check was wrong when they ran."""
    from . import runconfig
    agg = load_comparison(out_dir)
    summaries = []
    for old in agg["runs"]:
        new, _ = runconfig.recheck_run(Path(old["run_dir"]))
        new["rep"], new["run_dir"] = old.get("rep"), old["run_dir"]
        summaries.append(new)
    return _write(Path(out_dir), summaries, agg["baseline"], agg.get("warmup_runs"))


def load_comparison(path: Path) -> dict[str, Any]:
    if path.is_dir():
        path = path / "comparison.json"
    return json.loads(path.read_text())


def _fmt(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    if unit == "B":
        return format_size(value)
    if float(value).is_integer() and unit in ("", "ms", "pages"):
        return f"{value:.0f}"
    if abs(value) >= 100:
        return f"{value:.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def ratio_text(d: dict[str, Any], verdict: str | None = None) -> str:
    """'x0.55 (CI 0.50-0.61)', 'x0.98 (CI 0.90-1.07) no difference', 'x0.55 (no CI: n<2)'; verdict
    is the cell's in its table (table_verdicts), the stored one when not given."""
    if d.get("ratio") is None:
        return ""
    text = f"x{d['ratio']:.2f}"
    ci = d.get("ratio_ci")
    if ci:
        text += f" (CI {ci[0]:.2f}-{ci[1]:.2f})"
        if (verdict if verdict is not None else d.get("verdict")) == NO_DIFFERENCE:
            text += f" {NO_DIFFERENCE}"
    else:
        text += " (no CI: n<2)"
    return text


def cell(d: dict[str, Any], unit: str, with_ratio: bool = True, verdict: str | None = None) -> str:
    if not d or d.get("median") is None:
        return "-"
    text = _fmt(d["median"], unit)
    if d.get("n", 0) > 1:
        text += f" [{_fmt(d['min'], unit)}..{_fmt(d['max'], unit)}]"
    if with_ratio and d.get("ratio") is not None:
        text += " " + ratio_text(d, verdict)
    return text


def family_text(verdicts: dict[tuple[str, str], str | None]) -> str:
    """How a table's verdicts were made, with the size of its family."""
    n = sum(1 for v in verdicts.values() if v is not None)
    return (f"a difference is called (else '{NO_DIFFERENCE}') only where Holm's correction over the table's "
            f"{n} cell{'s' if n != 1 else ''} with a CI rejects it (p from the test the CI inverts; family-wise "
            f"level {FAMILY_ALPHA:.0%}), the CI excludes 1 and {band_text()}")


def _rows(agg: dict[str, Any]) -> tuple[list[str], list[list[str]], dict[tuple[str, str], str | None]]:
    tag = f" ({UNBUDGETED})" if agg.get("unbudgeted") else ""
    header = ["metric"] + [f"{p}{' (base)' if p == agg['baseline'] else ''}{tag}" for p in agg["policies"]]
    verdicts = table_verdicts(agg)
    rows: list[list[str]] = []
    for m in agg["metrics"]:
        label, unit, higher = metric_info(m)
        name = f"{label}{' [' + unit + ']' if unit and unit != 'B' else ''} {'↑' if higher else '↓'}"
        rows.append([name] + [cell(agg["table"][p].get(m, {}), unit, p != agg["baseline"], verdicts.get((p, m)))
                              for p in agg["policies"]])
    rows.append(["ok / failed runs"] + [f"{agg['ok_runs'][p]} / {agg['failed_runs'][p]}" for p in agg["policies"]])
    return header, rows, verdicts


def unbudgeted_banner(agg: dict[str, Any]) -> str | None:
    reasons = agg.get("unbudgeted") or []
    if not reasons:
        return None
    return (f"{UNBUDGETED.upper()}: these runs were {UNBUDGETED} (--{UNBUDGETED}); the budget or device profile "
            f"was NOT enforced: " + "; ".join(reasons))


def warmup_text(agg: dict[str, Any]) -> str:
    """What ran before the counted runs; comparisons stored before warm-ups existed had none."""
    if "warmup_runs" not in agg:
        return "no warm-up run (this comparison predates them): the first run may be slow from a cold host cache"
    runs = agg["warmup_runs"]
    if not runs:
        return "no warm-up run (--warmup 0)"
    times = ", ".join(f"{r['total_s']:.1f} s" if r.get("ok") and r.get("total_s") is not None else "failed"
                      for r in runs)
    return f"{len(runs)} warm-up run(s) of {runs[0]['policy']} before the counted ones, not counted ({times})"


def legend(agg: dict[str, Any], verdicts: dict[tuple[str, str], str | None] | None = None) -> str:
    verdicts = table_verdicts(agg) if verdicts is None else verdicts
    return (f"median [min..max] over ok runs; {ratio_legend(agg)}; {family_text(verdicts)}; "
            f"↑ higher is better, ↓ lower is better; {warmup_text(agg)}")


def render_text(agg: dict[str, Any]) -> str:
    header, rows, verdicts = _rows(agg)
    lines = []
    banner = unbudgeted_banner(agg)
    if banner:
        lines.append(banner)
    lines.append(tabulate(rows, headers=header, tablefmt="simple", disable_numparse=True))
    lines.append(legend(agg, verdicts))
    if banner:
        lines.append(banner)
    return "\n".join(lines)


def render_markdown(agg: dict[str, Any]) -> str:
    header, rows, verdicts = _rows(agg)
    out = []
    banner = unbudgeted_banner(agg)
    if banner:
        out += [f"**{banner}**", ""]
    out.append(tabulate(rows, headers=header, tablefmt="github", disable_numparse=True))
    out.append("")
    out.append(legend(agg, verdicts) + ". Failed runs are not counted.")
    failed = [r for r in agg.get("runs", []) if not r.get("ok")]
    if failed:
        out.append("")
        out.append("Failed runs:")
        out += [f"- {r.get('run_dir')}: {r.get('error')}" for r in failed]
    return "\n".join(out) + "\n"


# metric, column title
POLICY_ROW_METRICS = (
    ("gc_time_ms", "GC pause [ms]"),
    ("read_bytes", "read"),
    ("peak_heap_committed", "peak heap"),
    ("psi_io_some_s", "I/O stall [s]"),
)


def render_policy_rows(agg: dict[str, Any], fmt: str = "simple") -> str:
    """One row per policy: total time with [min..max], its ratio to the baseline with its
    confidence interval and the verdict (Holm over this table's total-time cells), and a few cost
    figures (the demo's closing table)."""
    tag = f" ({UNBUDGETED})" if agg.get("unbudgeted") else ""
    verdicts = table_verdicts(agg, ["total_s"])
    conf = int(round(100 * agg.get("confidence", 0.95)))
    header = ["policy", "total time [s]", f"x {agg['baseline']}", f"{conf}% CI", "verdict"]
    header += [title for _m, title in POLICY_ROW_METRICS]
    rows = []
    for p in agg["policies"]:
        t = agg["table"][p].get("total_s", {})
        is_base = p == agg["baseline"]
        ci = t.get("ratio_ci")
        row = [p + (" (base)" if is_base else "") + tag, cell(t, "s", False),
               "1" if is_base else (f"x{t['ratio']:.2f}" if t.get("ratio") is not None else "-"),
               "-" if is_base else (f"{ci[0]:.2f}-{ci[1]:.2f}" if ci else "no CI: n<2"),
               "" if is_base else {"lower": "faster", "higher": "slower"}.get(v := verdicts.get((p, "total_s")),
                                                                             v or "-")]
        for m, _title in POLICY_ROW_METRICS:
            row.append(_fmt(agg["table"][p].get(m, {}).get("median"), metric_info(m)[1]))
        rows.append(row)
    lines = []
    banner = unbudgeted_banner(agg)
    if banner:
        lines.append(banner)
    lines.append(tabulate(rows, headers=header, tablefmt=fmt, disable_numparse=True))
    lines.append(f"total time: median [min..max] of {max(agg['ok_runs'].values(), default=0)} run(s); "
                 f"{ratio_legend(agg)}; {family_text(verdicts)}; other columns: medians; {warmup_text(agg)}")
    return "\n".join(lines)

