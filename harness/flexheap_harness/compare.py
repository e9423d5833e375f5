"""Policies x repetitions, interleaved; a table of median [min..max] and ratio to a baseline.

Comparison folder layout:
  runs/r<rep>-<policy>/    one run folder each (see runner.py)
  comparison.json          aggregate statistics + every run's summary
  comparison.md            the table, for humans
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any, Callable, Sequence

from .runner import RunConfig, run_once, say
from .sizes import format_size
from .stats import aggregate, interleave, metric_info


def run_dir_name(rep: int, policy: str) -> str:
    return f"r{rep}-{re.sub(r'[^A-Za-z0-9_.-]+', '_', policy)}"


def run_comparison(
    policies: Sequence[str],
    reps: int,
    make_config: Callable[[str, int, Path], RunConfig],
    out_dir: Path,
    baseline: str,
    log: Callable[[str], None] = say,
) -> dict[str, Any]:
    out_dir.mkdir(parents=True, exist_ok=True)
    order = interleave(policies, reps)
    summaries: list[dict[str, Any]] = []
    started = time.time()
    for i, (rep, policy) in enumerate(order, 1):
        rd = out_dir / "runs" / run_dir_name(rep, policy)
        log(f"[{i}/{len(order)}] rep {rep} policy {policy}  (elapsed {time.time() - started:.0f}s) -> {rd}")
        cfg = make_config(policy, rep, rd)
        s = run_once(cfg, log=log)
        s["rep"] = rep
        s["run_dir"] = str(rd)
        summaries.append(s)
        if s.get("ok"):
            log(f"    done: total {s.get('total_s', 0):.1f}s, GC {s.get('gc_time_ms', 0):.0f} ms, "
                f"peak cache {format_size(s.get('peak_page_cache'))}, read {format_size(s.get('read_bytes'))}")
        _write(out_dir, summaries, baseline)  # partial results survive an interrupted comparison
    return _write(out_dir, summaries, baseline)


def _write(out_dir: Path, summaries: list[dict[str, Any]], baseline: str) -> dict[str, Any]:
    agg = aggregate(summaries, baseline)
    agg["runs"] = summaries
    (out_dir / "comparison.json").write_text(json.dumps(agg, indent=2, default=str) + "\n")
    (out_dir / "comparison.md").write_text(render_markdown(agg))
    return agg


def load_comparison(path: Path) -> dict[str, Any]:
    if path.is_dir():
        path = path / "comparison.json"
    return json.loads(path.read_text())


def _fmt(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    if unit == "B":
        return format_size(value)
    if float(value).is_integer() and unit in ("", "ms"):
        return f"{value:.0f}"
    if abs(value) >= 100:
        return f"{value:.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def cell(d: dict[str, Any], unit: str, with_ratio: bool = True) -> str:
    if not d or d.get("median") is None:
        return "-"
    text = _fmt(d["median"], unit)
    if d.get("n", 0) > 1:
        text += f" [{_fmt(d['min'], unit)}..{_fmt(d['max'], unit)}]"
    if with_ratio and d.get("ratio") is not None:
        text += f" x{d['ratio']:.2f}"
    return text


def _rows(agg: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    header = ["metric"] + [f"{p}{' (base)' if p == agg['baseline'] else ''}" for p in agg["policies"]]
    rows: list[list[str]] = []
    for m in agg["metrics"]:
        label, unit, higher = metric_info(m)
        name = f"{label}{' [' + unit + ']' if unit and unit != 'B' else ''} {'↑' if higher else '↓'}"
        rows.append([name] + [cell(agg["table"][p].get(m, {}), unit, p != agg["baseline"]) for p in agg["policies"]])
    rows.append(["ok / failed runs"] + [f"{agg['ok_runs'][p]} / {agg['failed_runs'][p]}" for p in agg["policies"]])
    return header, rows


def render_text(agg: dict[str, Any]) -> str:
    header, rows = _rows(agg)
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths))]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in rows]
    lines.append(f"median [min..max] over ok runs; xR = median / median of {agg['baseline']}; "
                 "↑ higher is better, ↓ lower is better")
    return "\n".join(lines)


def render_markdown(agg: dict[str, Any]) -> str:
    header, rows = _rows(agg)
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    out.append("")
    out.append(f"Median [min..max] over successful runs; xR = ratio of medians to `{agg['baseline']}`. "
               "Failed runs are not counted.")
    failed = [r for r in agg.get("runs", []) if not r.get("ok")]
    if failed:
        out.append("")
        out.append("Failed runs:")
        out += [f"- {r.get('run_dir')}: {r.get('error')}" for r in failed]
    return "\n".join(out) + "\n"
