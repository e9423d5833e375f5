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

"""Statistics over repeated runs: interleaving order, per-metric median/min/max, ratios
with a 95% confidence interval: paired by repetition where the runs were interleaved (a
Student-t interval of the mean log ratio), else a bootstrap of the ratio of medians."""

from __future__ import annotations

import statistics
import warnings
from typing import Any, Iterable, Sequence

import numpy as np
from scipy import stats as sps

CONFIDENCE = 0.95
N_RESAMPLES = 9999
SEED = 20260101  # fixed: the same runs always give the same interval
NO_DIFFERENCE = "no difference"
# How a cell's interval was made (comparison.json "ci_method"; absent in older results: bootstrap).
PAIRED_T = "paired t"
BOOTSTRAP = "bootstrap"

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
    "psi_io_some_s": ("I/O stall (PSI some)", "s", False),
    "psi_memory_some_s": ("memory stall (PSI some)", "s", False),
    "refault_file": ("page-cache refaults", "pages", False),
    # The share of refaults a cache about twice as large would have hit (workingset activations).
    "activate_share": ("refaults a 2x cache would hit", "share", False),
}
PHASE_PREFIX = "qps:"
# Per-phase latency and ingest rate (bench workload.json phases): the response-time p99
# (from the scheduled arrival, M3/M4: coordinated omission included) when the phase has
# one, else the service-time p99; documents indexed per second for ingest phases.
P99_RESPONSE_PREFIX = "p99rsp:"
P99_SERVICE_PREFIX = "p99svc:"
DOCS_PREFIX = "docs:"
# Wall time of a phase that only groups others and has no throughput of its own (OpenSearch's
# ingest+search phase ends when its documents are in: its time is the ingest rate without
# opensearch-benchmark's per-second samples). Timed phases with a throughput are not repeated here.
PHASE_TIME_PREFIX = "time:"


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


def _median_ratio(a: np.ndarray, b: np.ndarray, axis: int = -1) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.median(a, axis=axis) / np.median(b, axis=axis)


def ratio_ci(values: Sequence[float], baseline: Sequence[float], confidence: float = CONFIDENCE,
             n_resamples: int = N_RESAMPLES, seed: int = SEED) -> tuple[float, float] | None:
    """Percentile-bootstrap confidence interval of median(values) / median(baseline), the two
    samples resampled independently (scipy.stats.bootstrap, seeded). None with fewer than two
    runs on either side or a zero baseline."""
    a = np.asarray([float(v) for v in values if v is not None])
    b = np.asarray([float(v) for v in baseline if v is not None])
    if len(a) < 2 or len(b) < 2 or np.median(b) == 0:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # degenerate (all-equal) samples are fine for the percentile method
        res = sps.bootstrap((a, b), _median_ratio, vectorized=True, paired=False, method="percentile",
                            confidence_level=confidence, n_resamples=n_resamples,
                            random_state=np.random.default_rng(seed))
    low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
    if not (np.isfinite(low) and np.isfinite(high)):
        return None
    return low, high


def paired_ratio_ci(pairs: Sequence[tuple[float, float]], confidence: float = CONFIDENCE
                    ) -> tuple[float, tuple[float, float]] | None:
    """Ratio and confidence interval of (value, baseline) pairs, one pair per repetition of an
    interleaved comparison: the geometric mean of the per-repetition ratios with the Student-t
    interval of their mean log (scipy.stats.ttest_1samp). Pairing removes what a repetition
    shares (drift: on this machine every policy ran 10-20% faster in rep 3 than in rep 1), and
    unlike a bootstrap of 3 values it holds its 95% at n = 3 (harness/bench/ci_calibration.py).
    None with fewer than two pairs or a value <= 0."""
    if len(pairs) < 2 or any(not (v > 0 and b > 0) for v, b in pairs):
        return None
    logs = np.log(np.asarray([v / b for v, b in pairs], dtype=float))
    mean = float(np.mean(logs))
    if np.ptp(logs) == 0.0:  # identical ratios: no spread to estimate (the t interval is NaN)
        return float(np.exp(mean)), (float(np.exp(mean)), float(np.exp(mean)))
    ci = sps.ttest_1samp(logs, 0.0).confidence_interval(confidence)
    return float(np.exp(mean)), (float(np.exp(ci.low)), float(np.exp(ci.high)))


def _paired(values: dict[int, float], baseline: dict[int, float]) -> list[tuple[float, float]] | None:
    """The (value, baseline) pairs when both sides ran in exactly the same repetitions, else None."""
    if not values or set(values) != set(baseline):
        return None
    return [(values[r], baseline[r]) for r in sorted(values)]


def verdict(ci: tuple[float, float] | None) -> str | None:
    """'no difference' when the interval spans 1.0, None when there is no interval."""
    if ci is None:
        return None
    return NO_DIFFERENCE if ci[0] <= 1.0 <= ci[1] else ("higher" if ci[0] > 1.0 else "lower")


def ratio_legend(agg: dict[str, Any]) -> str:
    """How the table's ratios and intervals were made, from the cells' ci_method (results written
    before the paired interval carry none: bootstrap)."""
    methods = {d.get("ci_method", BOOTSTRAP) for row in agg.get("table", {}).values() for d in row.values()
               if isinstance(d, dict) and d.get("ratio_ci")}
    conf = int(round(100 * agg.get("confidence", CONFIDENCE)))
    base = agg.get("baseline")
    paired = (f"x = geometric mean of the per-repetition ratios to {base} (runs paired by repetition), "
              f"with the {conf}% Student-t CI of the mean log ratio")
    boot = f"x = ratio of medians to {base} with its {conf}% bootstrap CI (runs resampled, unpaired)"
    if methods == {PAIRED_T}:
        return paired
    if PAIRED_T in methods:
        return f"{paired}; where the runs do not pair, {boot}"
    return boot


def metrics_of(summary: dict[str, Any]) -> dict[str, float]:
    """The comparable numbers of one run: top-level metrics plus throughput per phase."""
    out: dict[str, float] = {}
    for key in METRICS:
        v = summary.get(key)
        if isinstance(v, (int, float)):
            out[key] = float(v)
    groups: dict[str, dict[str, float]] = {k: {} for k in (PHASE_PREFIX, DOCS_PREFIX, PHASE_TIME_PREFIX, "p99")}
    for p in summary.get("phases", []) or []:
        name = p.get("name")
        if not name:
            continue
        qps = p.get("throughput_qps")
        if isinstance(qps, (int, float)):
            groups[PHASE_PREFIX][PHASE_PREFIX + str(name)] = float(qps)
        rsp = (p.get("response_ms") or {}).get("p99_ms") if isinstance(p.get("response_ms"), dict) else None
        if isinstance(rsp, (int, float)):
            groups["p99"][P99_RESPONSE_PREFIX + str(name)] = float(rsp)
        elif isinstance(p.get("p99_ms"), (int, float)):
            groups["p99"][P99_SERVICE_PREFIX + str(name)] = float(p["p99_ms"])
        if isinstance(p.get("docs_per_s"), (int, float)):
            groups[DOCS_PREFIX][DOCS_PREFIX + str(name)] = float(p["docs_per_s"])
        # A task of fixed work (a bulk of N documents) is timed by the work itself,
        # beside its throughput; a phase without a throughput by its wall time.
        work, dur = p.get("work_s"), p.get("duration_s")
        if not isinstance(work, (int, float)):
            work = dur if not isinstance(qps, (int, float)) else None
        if isinstance(work, (int, float)) and work > 0:
            groups[PHASE_TIME_PREFIX][PHASE_TIME_PREFIX + str(name)] = float(work)
    for g in groups.values():  # throughputs, ingest rates, group phase times, p99s, each in phase order
        out.update(g)
    return out


def metric_info(metric: str) -> tuple[str, str, bool]:
    if metric.startswith(PHASE_PREFIX):
        return (f"throughput {metric[len(PHASE_PREFIX):]}", "q/s", True)
    if metric.startswith(P99_RESPONSE_PREFIX):
        return (f"p99 response {metric[len(P99_RESPONSE_PREFIX):]}", "ms", False)
    if metric.startswith(P99_SERVICE_PREFIX):
        return (f"p99 service {metric[len(P99_SERVICE_PREFIX):]}", "ms", False)
    if metric.startswith(DOCS_PREFIX):
        return (f"ingest {metric[len(DOCS_PREFIX):]}", "docs/s", True)
    if metric.startswith(PHASE_TIME_PREFIX):
        return (f"time {metric[len(PHASE_TIME_PREFIX):]}", "s", False)
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
    # policy -> metric -> rep -> value; None for a policy whose runs cannot be paired by rep
    by_rep: dict[str, dict[str, dict[int, float]] | None] = {p: {} for p in policies}
    failed: dict[str, int] = {p: 0 for p in policies}
    for s in summaries:
        if not s.get("ok"):
            failed[s["policy"]] += 1
            continue
        rep = s.get("rep")
        for k, v in metrics_of(s).items():
            per_policy[s["policy"]].setdefault(k, []).append(v)
            if k not in metric_names:
                metric_names.append(k)
            reps = by_rep[s["policy"]]
            if reps is not None:
                if not isinstance(rep, int) or rep in reps.setdefault(k, {}):
                    by_rep[s["policy"]] = None  # no repetition number, or two runs in one
                else:
                    reps[k][rep] = v
    table: dict[str, dict[str, Any]] = {}
    for p in policies:
        table[p] = {}
        for m in metric_names:
            values = per_policy[p].get(m, [])
            base_values = per_policy.get(baseline, {}).get(m, [])
            d = describe(values)
            d["ratio"] = ratio(d["median"], describe(base_values)["median"])
            d["ratio_ci"] = None
            d["verdict"] = None
            if p != baseline and d["ratio"] is not None:
                mine, theirs = by_rep.get(p), by_rep.get(baseline)
                pairs = _paired(mine.get(m, {}), theirs.get(m, {})) if mine is not None and theirs is not None else None
                paired = paired_ratio_ci(pairs) if pairs else None
                if paired:
                    d["ratio"], ci = paired
                    d["ci_method"] = PAIRED_T
                else:
                    ci = ratio_ci(values, base_values)
                    d["ci_method"] = BOOTSTRAP
                d["ratio_ci"] = list(ci) if ci else None
                d["verdict"] = verdict(ci)
            table[p][m] = d
    return {
        "baseline": baseline,
        "policies": policies,
        "metrics": metric_names,
        "table": table,
        "ok_runs": {p: sum(1 for s in summaries if s["policy"] == p and s.get("ok")) for p in policies},
        "failed_runs": failed,
        "confidence": CONFIDENCE,
        "unbudgeted": sorted({str(r) for s in summaries if s.get("unbudgeted")
                              for r in (s.get("unbudgeted_reasons") or ["not enforced"])}),
    }
