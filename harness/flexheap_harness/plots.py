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

"""PNG plots: timelines like the paper's Fig. 1 / Fig. 11 and normalised bars like Fig. 7."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any, Sequence

import matplotlib

matplotlib.use("Agg")  # no display on benchmark machines
import matplotlib.pyplot as plt  # noqa: E402

from .sampling import read_samples  # noqa: E402
from .stats import PHASE_PREFIX, ratio  # noqa: E402

GIB = float(1 << 30)
COLORS = {"committed": "#1f77b4", "used": "#ff7f0e", "cache": "#2ca02c", "iowait": "#d62728", "budget": "#555555",
          "psi": "#9467bd"}


def load_run(run_dir: Path) -> dict[str, Any]:
    summary = json.loads((run_dir / "summary.json").read_text())
    pauses: list[dict[str, float]] = []
    try:
        with open(run_dir / "gc_pauses.csv", newline="") as f:
            for r in csv.DictReader(f):
                pauses.append({"t": float(r["t"]), "after": float(r["after"]), "committed": float(r["committed"])})
    except FileNotFoundError:
        pass
    return {"dir": run_dir, "summary": summary, "samples": read_samples(run_dir / "samples.csv"), "pauses": pauses}


def representative_runs(comparison: dict[str, Any]) -> list[Path]:
    """Per policy, the successful run with the median total time (what a timeline should show)."""
    chosen: list[Path] = []
    for policy in comparison["policies"]:
        runs = [r for r in comparison["runs"] if r["policy"] == policy and r.get("ok")]
        if not runs:
            continue
        runs.sort(key=lambda r: r.get("total_s") or 0)
        chosen.append(Path(runs[(len(runs) - 1) // 2]["run_dir"]))
    return chosen


def _series(samples: list[dict[str, float | None]], key: str) -> tuple[list[float], list[float]]:
    xs, ys = [], []
    for s in samples:
        if s.get(key) is not None and s.get("t") is not None:
            xs.append(float(s["t"]))  # type: ignore[arg-type]
            ys.append(float(s[key]))  # type: ignore[arg-type]
    return xs, ys


def _timeline_panel(ax: plt.Axes, run: dict[str, Any], show_legend: bool) -> None:
    s, samples = run["summary"], run["samples"]
    x, cache = _series(samples, "page_cache")
    if x:
        ax.fill_between(x, [v / GIB for v in cache], color=COLORS["cache"], alpha=0.25, lw=0)
        ax.plot(x, [v / GIB for v in cache], color=COLORS["cache"], lw=1.2, label="page cache")
    x, committed = _series(samples, "heap_committed")
    if x:
        ax.plot(x, [v / GIB for v in committed], color=COLORS["committed"], lw=1.8, label="heap committed")
    if run["pauses"]:
        ax.scatter([p["t"] for p in run["pauses"]], [p["after"] / GIB for p in run["pauses"]],
                   s=4, color=COLORS["used"], label="heap used after GC", zorder=3)
    if s.get("budget"):
        ax.axhline(s["budget"] / GIB, color=COLORS["budget"], ls="--", lw=1, label="budget")
    if s.get("max_heap"):
        ax.axhline(s["max_heap"] / GIB, color=COLORS["committed"], ls=":", lw=1, label="max heap")
    ax.set_ylabel("GiB")
    ax.set_ylim(bottom=0)
    ax2 = ax.twinx()
    x, iow = _series(samples, "iowait_pct")
    if x:
        ax2.plot(x, iow, color=COLORS["iowait"], lw=0.9, alpha=0.8, label="iowait % (machine)")
    x, psi = _series(samples, "io_some_pct")
    if x:
        scope = "run cgroup" if s.get("psi_scope") == "cgroup" else "system-wide"
        ax2.plot(x, psi, color=COLORS["psi"], lw=0.9, alpha=0.8, ls="--", label=f"I/O stall PSI some % ({scope})")
    ax2.set_ylim(0, 100)
    ax2.set_ylabel("iowait / I/O stall %", color=COLORS["iowait"])
    phases = s.get("phases", [])
    if phases and phases[-1].get("end_t") is not None:
        ax.axvline(phases[-1]["end_t"], color="k", lw=0.7, alpha=0.5, ls="--")
    # Short phases would print their names on top of each other: stagger close labels.
    span = max((float(r["t"]) for r in samples if r.get("t") is not None), default=1.0) or 1.0
    last_x, row = None, 0
    for p in phases:
        if p.get("start_t") is not None:
            x = p["start_t"]
            row = row + 1 if last_x is not None and x - last_x < 0.06 * span else 0
            last_x = x
            ax.axvline(x, color="k", lw=0.7, alpha=0.5)
            ax.annotate(p["name"], (x, 1.0), xycoords=("data", "axes fraction"),
                        xytext=(2, -10 - 11 * (row % 4)), textcoords="offset points", fontsize=8, va="top")
    status = ("" if s.get("ok") else "  [FAILED]") + ("  [UNBUDGETED]" if s.get("unbudgeted") else "")
    ax.set_title(f"{s.get('label', s.get('policy'))}: total {s.get('total_s', 0):.1f} s, "
                 f"GC {s.get('gc_time_ms', 0):.0f} ms{status}", fontsize=10, loc="left")
    if show_legend:
        h1, l1 = ax.get_legend_handles_labels()
        h2, l2 = ax2.get_legend_handles_labels()
        ax.legend(h1 + h2, l1 + l2, loc="upper right", fontsize=7, ncol=3, framealpha=0.8)


def plot_timelines(run_dirs: Sequence[Path], out: Path, title: str | None = None) -> Path:
    """One panel per run (policy), shared time axis."""
    runs = [load_run(d) for d in run_dirs]
    fig, axes = plt.subplots(len(runs), 1, figsize=(11, 2.8 * len(runs) + 0.6), sharex=True, squeeze=False)
    for i, (ax, run) in enumerate(zip(axes[:, 0], runs)):
        _timeline_panel(ax, run, show_legend=(i == 0))
    axes[-1, 0].set_xlabel("time since JVM launch (s)")
    if title:
        fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def plot_overlay(run_dirs: Sequence[Path], out: Path, title: str | None = None) -> Path:
    """Committed heap and page cache of several runs on one axis."""
    runs = [load_run(d) for d in run_dirs]
    fig, ax = plt.subplots(figsize=(11, 4))
    for i, run in enumerate(runs):
        color = f"C{i}"
        name = run["summary"].get("label", run["summary"].get("policy"))
        x, y = _series(run["samples"], "heap_committed")
        ax.plot(x, [v / GIB for v in y], color=color, lw=1.6, label=f"{name} heap committed")
        x, y = _series(run["samples"], "page_cache")
        ax.plot(x, [v / GIB for v in y], color=color, lw=1.0, ls="--", label=f"{name} page cache")
    ax.set_xlabel("time since JVM launch (s)")
    ax.set_ylabel("GiB")
    ax.set_ylim(bottom=0)
    ax.legend(fontsize=7, ncol=2)
    if title:
        ax.set_title(title, fontsize=11)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def normalised_throughput(comparison: dict[str, Any]) -> tuple[list[str], dict[str, list[tuple[float, float, float] | None]]]:
    """Groups (phases, then 'overall' = baseline time / time) -> per policy (median, min, max) ratios."""
    base = comparison["baseline"]
    table = comparison["table"]
    groups = [m for m in comparison["metrics"] if m.startswith(PHASE_PREFIX)]
    values: dict[str, list[tuple[float, float, float] | None]] = {}
    base_total = table.get(base, {}).get("total_s", {}).get("median")
    for p in comparison["policies"]:
        row: list[tuple[float, float, float] | None] = []
        for g in groups:
            d, b = table[p].get(g, {}), table.get(base, {}).get(g, {}).get("median")
            r = ratio(d.get("median"), b)
            row.append((r, ratio(d.get("min"), b) or r, ratio(d.get("max"), b) or r) if r is not None else None)
        d = table[p].get("total_s", {})
        # Overall throughput ~ 1 / time, so min time gives max throughput.
        r = ratio(base_total, d.get("median"))
        row.append((r, ratio(base_total, d.get("max")) or r, ratio(base_total, d.get("min")) or r) if r else None)
        values[p] = row
    return [g[len(PHASE_PREFIX):] for g in groups] + ["overall"], values


def plot_bars(comparison: dict[str, Any], out: Path, title: str | None = None) -> Path:
    groups, values = normalised_throughput(comparison)
    policies = comparison["policies"]
    width = 0.8 / max(1, len(policies))
    fig, ax = plt.subplots(figsize=(max(6, 1.3 * len(groups) * len(policies) / 2 + 3), 4))
    for i, p in enumerate(policies):
        xs, hs, lo, hi = [], [], [], []
        for j, v in enumerate(values[p]):
            if v is None:
                continue
            xs.append(j + (i - (len(policies) - 1) / 2) * width)
            hs.append(v[0])
            lo.append(max(0.0, v[0] - v[1]))
            hi.append(max(0.0, v[2] - v[0]))
        bars = ax.bar(xs, hs, width, label=p, color=f"C{i}", yerr=[lo, hi], capsize=2, error_kw={"lw": 0.8})
        for b, h, up in zip(bars, hs, hi):
            ax.annotate(f"{h:.2f}", (b.get_x() + b.get_width() / 2, h + up), xytext=(0, 2),
                        textcoords="offset points", ha="center", va="bottom", fontsize=7)
    ax.axhline(1.0, color="k", lw=0.8)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups)
    ax.set_ylabel(f"throughput / {comparison['baseline']}")
    ax.legend(fontsize=8)
    ax.set_title(title or f"Throughput normalised to {comparison['baseline']} (median, min..max)", fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def plot_comparison(comparison_dir: Path, out_dir: Path | None = None, overlay: bool = False) -> list[Path]:
    comp = json.loads((comparison_dir / "comparison.json").read_text())
    out_dir = out_dir or comparison_dir
    out_dir.mkdir(parents=True, exist_ok=True)
    runs = representative_runs(comp)
    written: list[Path] = []
    if runs:
        written.append(plot_timelines(runs, out_dir / "timeline.png", title="Heap, page cache and iowait over time"))
        if overlay:
            written.append(plot_overlay(runs, out_dir / "timeline-overlay.png"))
    if comp.get("metrics"):
        written.append(plot_bars(comp, out_dir / "throughput.png"))
    return written


