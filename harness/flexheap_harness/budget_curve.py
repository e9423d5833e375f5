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
"""Throughput against the memory budget: one comparison folder per budget (for example OpenSearch
at 5, 10, 25 and 50% of its index), one line per policy (`harness budget-curve`).

A run's throughput is the geometric mean of its phases' q/s whose names start with the prefix
('search-' by default: OpenSearch's search-only tasks), so every query type weighs the same
whatever its scale. Per budget and policy: the median over the ok runs, and against the baseline
the geometric mean of the per-repetition ratios with its 95% interval and the verdict rule of
the comparisons (Holm over the table's cells). With a subject (for example flexheap), each other
policy's cell carries the subject's ratio to that policy instead: where the subject helps, ties or
loses against each baseline, budget by budget.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from statistics import median
from typing import Any, Sequence

from .stats import band_text, family_verdicts, paired_p, paired_ratio_ci

DEFAULT_PREFIX = "search-"


def run_throughput(run: dict[str, Any], prefix: str = DEFAULT_PREFIX) -> float | None:
    """Geometric mean of the run's phase throughputs (q/s) named prefix*; None without any."""
    qps = [float(p["throughput_qps"]) for p in run.get("phases") or []
           if str(p.get("name", "")).startswith(prefix) and isinstance(p.get("throughput_qps"), (int, float))
           and p["throughput_qps"] > 0]
    return math.exp(sum(math.log(q) for q in qps) / len(qps)) if qps else None


def load(dirs: Sequence[Path]) -> list[dict[str, Any]]:
    """The comparisons, by budget (each folder's comparison.json; all its runs share one budget)."""
    out = []
    for d in dirs:
        agg = json.loads((Path(d) / "comparison.json").read_text())
        budgets = {r.get("budget") for r in agg.get("runs", [])}
        if len(budgets) != 1 or None in budgets:
            raise ValueError(f"{d}: its runs do not share one budget ({sorted(map(str, budgets))})")
        out.append({"dir": Path(d), "budget": budgets.pop(), "agg": agg})
    return sorted(out, key=lambda c: c["budget"])


def _pair(cell: dict[str, Any], num: dict[int, float], den: dict[int, float]) -> None:
    """Sets cell's ratio num/den (runs paired by repetition), its CI and p, given two pairs or more
    (paired_ratio_ci gives None with fewer)."""
    pairs = [(num[k], den[k]) for k in num if k in den]
    ci = paired_ratio_ci(pairs)
    if ci:
        cell["ratio"], cell["ci"] = ci[0], list(ci[1])
        cell["p"] = paired_p(pairs)


def curve(comparisons: Sequence[dict[str, Any]], baseline: str, prefix: str = DEFAULT_PREFIX,
          subject: str | None = None) -> dict[str, Any]:
    """{'budgets': [...], 'policies': [...], 'cells': {(budget, policy): {...}}} with per cell the
    median [min, max] throughput, n, and the ratio, its CI and the verdict: the cell's policy
    against baseline, or, with a subject, the subject against the cell's policy."""
    cells: dict[tuple[int, str], dict[str, Any]] = {}
    policies: list[str] = []
    for c in comparisons:
        by_policy: dict[str, dict[int, float]] = {}
        failed: dict[str, int] = {}
        for r in c["agg"]["runs"]:
            v = run_throughput(r, prefix) if r.get("ok") else None
            if v is not None:
                by_policy.setdefault(r["policy"], {})[int(r.get("rep") or 0)] = v
            elif not r.get("ok"):
                failed[r["policy"]] = failed.get(r["policy"], 0) + 1
        for p, n in failed.items():  # a policy that failed every run at this budget (e.g. it thrashed)
            if p not in by_policy:
                cells[(c["budget"], p)] = {"failed": n}
                if p not in policies:
                    policies.append(p)
        for p, reps in by_policy.items():
            if p not in policies:
                policies.append(p)
            vals = list(reps.values())
            cell: dict[str, Any] = {"median": median(vals), "min": min(vals), "max": max(vals), "n": len(vals)}
            if subject is not None:
                if p != subject and subject in by_policy:
                    _pair(cell, by_policy[subject], reps)
            elif p != baseline and baseline in by_policy:
                _pair(cell, reps, by_policy[baseline])
            cells[(c["budget"], p)] = cell
    # columns in the order the comparisons name their policies (a policy with no ok run anywhere has none)
    named = [p for c in comparisons for p in c["agg"].get("policies") or [] if p in policies]
    policies = list(dict.fromkeys(named + policies))
    keys = [k for k, v in cells.items() if "ci" in v]
    for k, verdict in zip(keys, family_verdicts([(cells[k]["ratio"], cells[k]["ci"], cells[k]["p"]) for k in keys])):
        cells[k]["verdict"] = verdict
    return {"budgets": [c["budget"] for c in comparisons], "policies": policies, "cells": cells,
            "baseline": baseline, "prefix": prefix, "subject": subject}


def _mib(n: int) -> str:
    return f"{n / 2**20:.0f} MiB"


def markdown(cv: dict[str, Any]) -> str:
    head = "| budget | " + " | ".join(cv["policies"]) + " |"
    lines = [head, "|---" * (len(cv["policies"]) + 1) + "|"]
    for b in cv["budgets"]:
        row = [_mib(b)]
        for p in cv["policies"]:
            c = cv["cells"].get((b, p))
            if c is None:
                row.append("-")
                continue
            if "failed" in c:
                row.append(f"failed ({c['failed']} of {c['failed']} runs)")
                continue
            text = f"{c['median']:.3g}"
            if "ratio" in c:
                who = f"{cv['subject']} " if cv.get("subject") else ""
                text += (f" ({who}x{c['ratio']:.2f}, CI {c['ci'][0]:.2f}-{c['ci'][1]:.2f}, "
                         f"{c.get('verdict') or '-'})")
            row.append(text)
        lines.append("| " + " | ".join(row) + " |")
    if cv.get("subject"):
        ratio = (f"{cv['subject']} x = the geometric mean of the per-repetition ratios of {cv['subject']}'s "
                 f"throughput to the column's policy's (above 1: {cv['subject']} serves more)")
    else:
        ratio = f"x = geometric mean of the per-repetition ratios to {cv['baseline']}"
    return ("\n".join(lines) + f"\n\n{cv['prefix']}* throughput [q/s]: per run the geometric mean over those "
            f"phases, median over the ok runs; {ratio}, with the 95% Student-t CI; a difference is called only "
            f"where Holm's correction over the table's cells rejects it (family-wise level 5%) and {band_text()}; "
            f"failed: every run of the policy failed at that budget (a cross on the plot's axis); - = not run.\n")


def plot(cv: dict[str, Any], out: Path, title: str | None = None) -> Path:
    from .plots import plt
    fig, ax = plt.subplots(figsize=(6.5, 4))
    for i, p in enumerate(cv["policies"]):
        pts = [(b / 2**20, cv["cells"][(b, p)]) for b in cv["budgets"] if "median" in cv["cells"].get((b, p), {})]
        fails = [b / 2**20 for b in cv["budgets"] if "failed" in cv["cells"].get((b, p), {})]
        if fails:  # every run failed there: a cross on the axis, not a point of the line
            ax.plot(fails, [0] * len(fails), "x", color=f"C{i}", ms=9, mew=2, clip_on=False)
        xs = [x for x, _ in pts]
        ys = [c["median"] for _, c in pts]
        err = [[c["median"] - c["min"] for _, c in pts], [c["max"] - c["median"] for _, c in pts]]
        ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=p, color=f"C{i}",
                    lw=2.2 if p.startswith("flexheap") else 1.2)
    ax.set_ylim(bottom=0)
    ax.set_xscale("log", base=2)
    ax.set_xticks([b / 2**20 for b in cv["budgets"]])
    ax.set_xticklabels([_mib(b) for b in cv["budgets"]], fontsize=8)
    ax.set_xlabel("memory budget (heap + page cache)")
    ax.set_ylabel(f"{cv['prefix']}* throughput [q/s] (geomean)")
    ax.legend(fontsize=8)
    ax.set_title(title or "Throughput against the memory budget (median, min..max; x: every run failed)",
                 fontsize=10)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out
