"""Statistics over repeated runs: interleaving order, per-metric median/min/max, ratios."""

from __future__ import annotations

import statistics
from typing import Any, Iterable, Sequence

# metric -> (label, unit, higher_is_better)
METRICS: dict[str, tuple[str, str, bool]] = {
    "total_s": ("total time", "s", False),
    "gc_time_ms": ("GC pause time", "ms", False),
    "gc_full": ("full GCs", "", False),
    "read_bytes": ("bytes read", "B", False),
    "peak_page_cache": ("peak page cache", "B", True),
    "mean_page_cache": ("mean page cache", "B", True),
    "peak_heap_committed": ("peak heap committed", "B", False),
    "mean_iowait_pct": ("mean iowait", "%", False),
}
PHASE_PREFIX = "qps:"


def interleave(policies: Sequence[str], reps: int) -> list[tuple[int, str]]:
    """A B C A B C ...: each repetition runs every policy once, so slow drift
    (other load, thermal, fragmentation) hits all policies alike."""
    return [(rep, p) for rep in range(1, reps + 1) for p in policies]


def describe(values: Iterable[float]) -> dict[str, float | int | None]:
    v = [float(x) for x in values if x is not None]
    if not v:
        return {"n": 0, "median": None, "min": None, "max": None}
    return {"n": len(v), "median": statistics.median(v), "min": min(v), "max": max(v)}


def ratio(value: float | None, baseline: float | None) -> float | None:
    if value is None or baseline is None or baseline == 0:
        return None
    return value / baseline


def metrics_of(summary: dict[str, Any]) -> dict[str, float]:
    """The comparable numbers of one run: top-level metrics plus throughput per phase."""
    out: dict[str, float] = {}
    for key in METRICS:
        v = summary.get(key)
        if isinstance(v, (int, float)):
            out[key] = float(v)
    for p in summary.get("phases", []) or []:
        qps = p.get("throughput_qps")
        if isinstance(qps, (int, float)) and p.get("name"):
            out[PHASE_PREFIX + str(p["name"])] = float(qps)
    return out


def metric_info(metric: str) -> tuple[str, str, bool]:
    if metric.startswith(PHASE_PREFIX):
        return (f"throughput {metric[len(PHASE_PREFIX):]}", "q/s", True)
    return METRICS.get(metric, (metric, "", False))


def aggregate(
    summaries: Sequence[dict[str, Any]], baseline: str
) -> dict[str, Any]:
    """Failed runs (ok=false) are listed but never enter the statistics."""
    policies: list[str] = []
    for s in summaries:
        if s["policy"] not in policies:
            policies.append(s["policy"])
    metric_names: list[str] = []
    per_policy: dict[str, dict[str, list[float]]] = {p: {} for p in policies}
    failed: dict[str, int] = {p: 0 for p in policies}
    for s in summaries:
        if not s.get("ok"):
            failed[s["policy"]] += 1
            continue
        for k, v in metrics_of(s).items():
            per_policy[s["policy"]].setdefault(k, []).append(v)
            if k not in metric_names:
                metric_names.append(k)
    table: dict[str, dict[str, Any]] = {}
    for p in policies:
        table[p] = {}
        for m in metric_names:
            d = describe(per_policy[p].get(m, []))
            base = describe(per_policy.get(baseline, {}).get(m, []))["median"] if baseline in per_policy else None
            d["ratio"] = ratio(d["median"], base)
            table[p][m] = d
    return {
        "baseline": baseline,
        "policies": policies,
        "metrics": metric_names,
        "table": table,
        "ok_runs": {p: sum(1 for s in summaries if s["policy"] == p and s.get("ok")) for p in policies},
        "failed_runs": failed,
    }
