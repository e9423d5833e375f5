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

"""The sweep's oracles, computed from the sweep's own runs (no extra runs).

- best static cap: the `static:S` policy with the lowest median mix time.
- per-phase oracle: for each phase of a phased workload, the best median time any
  static cap reached in that phase, summed over the phases into a time per mix.
  It is what a policy that knew each phase's best heap size could reach,
  transition costs aside (issue 10).

Mix time = the sum of the phase durations the workload reported (workload.json
`phases[].duration_s`, else the FLEXHEAP-PHASE markers), so the policy and the
oracle are compared on exactly the same work; without phases it is `total_s`.
Every policy of the sweep (the static caps and the `--also` ones) is reported
as a fraction of the oracle's and of the best static cap's throughput:
oracle time / policy time (1.0 = as fast as the oracle, 0.9 = 10% less throughput).
"""

from __future__ import annotations

import copy
import json
import statistics
from pathlib import Path
from typing import Any, Sequence

import numpy as np
from tabulate import tabulate

from .integrity import UNBUDGETED
from .stats import CONFIDENCE, FAMILY_ALPHA, NO_DIFFERENCE, SEED, band_text, family_verdicts, paired_p, permutation_p

N_RESAMPLES = 4000

STATIC_PREFIX = "static:"


def phase_keys(phases: Sequence[dict[str, Any]]) -> list[str]:
    """Phase names, a repeated name numbered ('L50', 'L50#2') so every phase has its own key."""
    seen: dict[str, int] = {}
    keys = []
    for p in phases:
        name = str(p.get("name"))
        seen[name] = seen.get(name, 0) + 1
        keys.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return keys


def phase_seconds(p: dict[str, Any]) -> float | None:
    d = p.get("duration_s")
    if isinstance(d, (int, float)):
        return float(d)
    if isinstance(p.get("start_t"), (int, float)) and isinstance(p.get("end_t"), (int, float)):
        return float(p["end_t"]) - float(p["start_t"])
    return None


def phase_times(summary: dict[str, Any]) -> dict[str, float]:
    phases = summary.get("phases") or []
    out = {}
    for key, p in zip(phase_keys(phases), phases):
        t = phase_seconds(p)
        if t is not None:
            out[key] = t
    return out


def mix_time(summary: dict[str, Any]) -> float | None:
    times = phase_times(summary)
    if times:
        return sum(times.values())
    t = summary.get("total_s")
    return float(t) if isinstance(t, (int, float)) else None


def _median(values: Sequence[float]) -> float | None:
    return statistics.median(values) if values else None


def compute(summaries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The oracle report from a sweep's run summaries (ok runs only)."""
    ok = [s for s in summaries if s.get("ok")]
    policies: list[str] = []
    for s in summaries:
        if s["policy"] not in policies:
            policies.append(s["policy"])
    statics = [p for p in policies if p.startswith(STATIC_PREFIX)]

    # phase order: the longest phase list any run reported
    order: list[str] = []
    for s in ok:
        keys = phase_keys(s.get("phases") or [])
        if len(keys) > len(order):
            order = keys

    per_phase: dict[str, dict[str, float]] = {}  # policy -> phase -> median seconds
    mix: dict[str, list[float]] = {}
    for p in policies:
        runs = [s for s in ok if s["policy"] == p]
        per_phase[p] = {}
        for key in order:
            med = _median([phase_times(s)[key] for s in runs if key in phase_times(s)])
            if med is not None:
                per_phase[p][key] = med
        mix[p] = [t for t in (mix_time(s) for s in runs) if t is not None]

    best_static: tuple[str, float] | None = None
    for p in statics:
        med = _median(mix[p])
        if med is not None and (best_static is None or med < best_static[1]):
            best_static = (p, med)

    phases_out: list[dict[str, Any]] = []
    oracle_s: float | None = None
    if order and statics:
        oracle_s = 0.0
        for key in order:
            cands = [(per_phase[p][key], p) for p in statics if key in per_phase[p]]
            if not cands:
                oracle_s = None
                phases_out.append({"phase": key, "best_cap": None, "best_s": None})
                continue
            t, cap = min(cands)
            phases_out.append({"phase": key, "best_cap": cap, "best_s": t,
                               "by_policy_s": {p: per_phase[p].get(key) for p in policies}})
            if oracle_s is not None:
                oracle_s += t
    elif best_static is not None:
        oracle_s = best_static[1]  # no phases: the per-phase oracle is the best static cap

    rows: list[dict[str, Any]] = []
    for p in policies:
        times = mix[p]
        med = _median(times)
        row: dict[str, Any] = {"policy": p, "n": len(times), "mix_s": med,
                               "min_s": min(times) if times else None, "max_s": max(times) if times else None}
        for name, ref in (("of_oracle", oracle_s), ("of_best_static", best_static[1] if best_static else None)):
            if ref is not None and med:
                row[name] = ref / med
                row[name + "_range"] = [ref / max(times), ref / min(times)]
            else:
                row[name] = None
                row[name + "_range"] = None
        rows.append(row)

    _bootstrap(rows, ok, statics, order, policies)
    _best_static_p(rows, ok, best_static[0] if best_static else None)
    _verdicts(rows)

    unbudgeted = sorted({str(r) for s in summaries if s.get("unbudgeted")
                         for r in (s.get("unbudgeted_reasons") or ["not enforced"])})
    return {
        "definition": "per-phase oracle = sum over phases of the best median phase time any static cap reached; "
                      "of_oracle / of_best_static = reference time / policy time (throughput fraction)",
        "phases": phases_out,
        "oracle_s": oracle_s,
        "best_static": best_static[0] if best_static else None,
        "best_static_s": best_static[1] if best_static else None,
        "oracle_gain_over_best_static": (best_static[1] / oracle_s) if (best_static and oracle_s) else None,
        "policies": rows,
        "unbudgeted": unbudgeted,
        "verdicts": "holm",  # vs_best_static: Holm over the rows (with_verdicts)
    }


def _bootstrap(rows: list[dict[str, Any]], ok: Sequence[dict[str, Any]], statics: Sequence[str],
               order: Sequence[str], policies: Sequence[str]) -> None:
    """95% percentile-bootstrap intervals of of_oracle and of_best_static: every policy's runs
    (static caps included) are resampled with replacement, the oracle and the best cap are
    recomputed from the resampled caps, the policy's median from its own (seeded)."""
    rng = np.random.default_rng(SEED)
    cap_phase: dict[str, np.ndarray] = {}  # cap -> B x phases medians
    cap_mix: dict[str, np.ndarray] = {}  # cap -> B medians of mix time
    for cap in statics:
        runs = [s for s in ok if s["policy"] == cap]
        times = [phase_times(s) for s in runs]
        if not runs:
            continue  # a cap that never completed is no candidate
        if len(runs) < 2 or (order and not all(all(k in t for k in order) for t in times)):
            return  # an interval needs >= 2 complete runs of every cap
        idx = rng.integers(0, len(runs), size=(N_RESAMPLES, len(runs)))
        if order:
            m = np.array([[t[k] for k in order] for t in times])  # runs x phases
            cap_phase[cap] = np.median(m[idx], axis=1)
        mixes = np.array([mix_time(s) for s in runs], dtype=float)
        cap_mix[cap] = np.median(mixes[idx], axis=1)
    if not cap_mix:
        return
    best = np.min(np.stack(list(cap_mix.values())), axis=0)
    oracle_b = np.sum(np.min(np.stack(list(cap_phase.values())), axis=0), axis=1) if cap_phase else best
    lo_q, hi_q = 50 * (1 - CONFIDENCE), 100 - 50 * (1 - CONFIDENCE)
    for row in rows:
        runs = [s for s in ok if s["policy"] == row["policy"]]
        mixes = np.array([t for t in (mix_time(s) for s in runs) if t is not None], dtype=float)
        if len(mixes) < 2:
            continue
        med = np.median(mixes[rng.integers(0, len(mixes), size=(N_RESAMPLES, len(mixes)))], axis=1)
        for name, ref in (("of_oracle", oracle_b), ("of_best_static", best)):
            lo, hi = np.percentile(ref / med, [lo_q, hi_q])
            row[name + "_ci"] = [float(lo), float(hi)]



def _mix_by_rep(ok: Sequence[dict[str, Any]], policy: str) -> dict[int, float] | None:
    """rep -> mix time of policy's runs; None when a run has no repetition number or shares one."""
    out: dict[int, float] = {}
    for s in ok:
        t = mix_time(s) if s["policy"] == policy else None
        if t is None:
            continue
        rep = s.get("rep")
        if not isinstance(rep, int) or rep in out:
            return None
        out[rep] = t
    return out


def _best_static_p(rows: list[dict[str, Any]], ok: Sequence[dict[str, Any]], best: str | None) -> None:
    """vs_best_static_p of every row with an interval: the p-value of its mix times against the best
    static cap's, by the paired t-test where both ran the same repetitions (stats.paired_p), else the
    permutation test (stats.permutation_p). The interval beside it stays the bootstrap's."""
    if best is None:
        return
    base = _mix_by_rep(ok, best)
    for row in rows:
        if not row.get("of_best_static_ci"):
            continue
        mine = _mix_by_rep(ok, row["policy"])
        if mine and base and set(mine) == set(base):
            row["vs_best_static_p"] = paired_p([(mine[r], base[r]) for r in sorted(mine)])
        else:
            row["vs_best_static_p"] = permutation_p(
                [t for s in ok if s["policy"] == row["policy"] for t in [mix_time(s)] if t is not None],
                [t for s in ok if s["policy"] == best for t in [mix_time(s)] if t is not None])


def _verdicts(rows: list[dict[str, Any]]) -> None:
    """vs_best_static of every row with an interval: Holm over the table's rows (stats.family_verdicts)."""
    cells = [(r.get("of_best_static"), r.get("of_best_static_ci"), r.get("vs_best_static_p")) for r in rows]
    for row, v in zip(rows, family_verdicts(cells)):
        if v is not None:
            row["vs_best_static"] = {"higher": "faster", "lower": "slower"}.get(v, v)


def with_verdicts(report: dict[str, Any], runs: Sequence[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A copy of a stored report whose vs_best_static are Holm's over its rows. A report written before
    the rows carried their p gets them from its sweep's runs; without runs the rows have no p and are
    called no difference."""
    out = copy.deepcopy(report)
    rows = out.get("policies") or []
    if runs and any("vs_best_static_p" not in r for r in rows if r.get("of_best_static_ci")):
        _best_static_p(rows, [s for s in runs if s.get("ok")], out.get("best_static"))
    _verdicts(rows)
    out["verdicts"] = "holm"
    return out


def _pct(x: float | None, rng: Sequence[float] | None = None, ci: Sequence[float] | None = None) -> str:
    if x is None:
        return "-"
    text = f"{100 * x:.0f}%"
    if rng and abs(rng[1] - rng[0]) > 1e-9:
        text += f" [{100 * rng[0]:.0f}..{100 * rng[1]:.0f}]"
    if ci:
        text += f" (CI {100 * ci[0]:.0f}-{100 * ci[1]:.0f}%)"
    return text


def _s(x: float | None) -> str:
    return "-" if x is None else f"{x:.1f}"


def render(report: dict[str, Any], fmt: str = "simple") -> str:
    tag = f" ({UNBUDGETED})" if report.get("unbudgeted") else ""
    lines: list[str] = []
    if report.get("unbudgeted"):
        lines.append(f"{UNBUDGETED.upper()}: the budget or device profile was NOT enforced: "
                     + "; ".join(report["unbudgeted"]))
    rows = [[r["policy"] + tag,
             _s(r["mix_s"]) + (f" [{_s(r['min_s'])}..{_s(r['max_s'])}]" if r["n"] > 1 else ""),
             _pct(r["of_oracle"], r["of_oracle_range"], r.get("of_oracle_ci")),
             _pct(r["of_best_static"], r["of_best_static_range"], r.get("of_best_static_ci")),
             r.get("vs_best_static") or ""] for r in report["policies"]]
    lines.append(tabulate(rows, headers=["policy", "mix time [s]", "of per-phase oracle", "of best static cap",
                                         "vs best static"],
                          tablefmt=fmt, disable_numparse=True))
    if report["phases"]:
        policies = [r["policy"] for r in report["policies"]]
        prow = []
        for ph in report["phases"]:
            by = ph.get("by_policy_s") or {}
            prow.append([ph["phase"], ph["best_cap"] or "-", _s(ph["best_s"])] + [_s(by.get(p)) for p in policies])
        prow.append(["sum (per-phase oracle)", "", _s(report["oracle_s"])] + [""] * len(policies))
        lines.append("")
        lines.append(tabulate(prow, headers=["phase", "best static cap", "best [s]", *policies],
                              tablefmt=fmt, disable_numparse=True))
    gain = report.get("oracle_gain_over_best_static")
    lines.append("")
    lines.append(f"per-phase oracle {_s(report['oracle_s'])} s; best static cap {report['best_static'] or '-'} "
                 f"{_s(report['best_static_s'])} s" + (f" (oracle x{gain:.2f} its throughput)" if gain else "")
                 + ". Fractions = reference time / policy time over median mix times (sum of phase times), "
                   f"[min..max] over repetitions, {int(100 * CONFIDENCE)}% bootstrap CI (all runs resampled); "
                   + (f"'faster'/'slower' than the best static cap only where Holm's correction over the table's "
                      f"rows rejects a fraction of 100% (family-wise {FAMILY_ALPHA:.0%}; p of the mix times against the "
                      "best cap's: paired t by repetition, else a permutation test), "
                      f"its CI excludes 100% and {band_text()}, else '{NO_DIFFERENCE}'."
                      if report.get("verdicts") == "holm" else
                      f"'{NO_DIFFERENCE}' = the CI of the fraction of the best static cap spans 100%."))
    return "\n".join(lines)


def load_runs(folder: Path) -> list[dict[str, Any]]:
    """Every run summary of a sweep/compare folder (runs/*/summary.json), in run order."""
    out = []
    for f in sorted(Path(folder).glob("runs/*/summary.json")):
        try:
            s = json.loads(f.read_text())
        except (OSError, ValueError):
            continue
        s.setdefault("run_dir", str(f.parent))
        if "policy" in s:
            out.append(s)
    return out
