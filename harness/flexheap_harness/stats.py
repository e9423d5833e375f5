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
Student-t interval of the mean log ratio), else a bootstrap of the ratio of medians.

The verdict of a table (faster/slower or no difference) is Holm's step-down correction over
the table's cells, each cell's p-value from the test its interval inverts (table_verdicts),
and a ratio outside NOISE_BAND, the spread of total time between identical configurations. With
valid p-values Holm alone would keep the chance that a table calls any difference between
identical configurations at most FAMILY_ALPHA, however many cells it has; the committed A/A pairs
hold differences their repetitions' spread does not allow, and the band keeps them out. A 95%
interval that excludes 1 is not enough: a table of many cells almost surely has some between
identical configurations (flexheap_harness.calibration measures how often each rule calls one,
on the A/A pairs of the committed results)."""

from __future__ import annotations

import itertools
import math
import statistics
import warnings
from typing import Any, Iterable, Sequence

import numpy as np
from scipy import stats as sps

CONFIDENCE = 0.95
# The family-wise false-call rate of a table's verdicts (table_verdicts: Holm over its cells).
FAMILY_ALPHA = 1.0 - CONFIDENCE
N_RESAMPLES = 9999
SEED = 20260101  # fixed: the same runs always give the same interval
NO_DIFFERENCE = "no difference"
# The ratio of total time between two columns of one configuration over the committed A/A record, its
# 2.5th or 97.5th percentile, whichever is farther from 1, both ways (a slower time is a lower rate):
# identical runs differ this much, so a ratio inside it is never called. `./flexheap harness calibrate`
# measures it; test_calibration fails when the record moves it.
NOISE_BAND = (0.931, 1.075)
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
    """One cell on its own: 'no difference' when the interval spans 1.0, None when there is no
    interval. A table's verdicts are table_verdicts' (Holm over its cells), not this."""
    if ci is None:
        return None
    return NO_DIFFERENCE if ci[0] <= 1.0 <= ci[1] else ("higher" if ci[0] > 1.0 else "lower")


# ---------------------------------------------------------------- p-values and Holm's correction


def _zero_spread_p(mean_log: float) -> float:
    """The p of n identical log ratios: the t statistic's limit (the interval is the point itself,
    paired_ratio_ci), 1 at a ratio of exactly 1, else 0."""
    return 1.0 if mean_log == 0.0 else 0.0


def paired_log_p(logs: np.ndarray) -> np.ndarray:
    """Two-sided p-values of the one-sample t-test of mean 0, one per row of logs (cells x
    repetitions, every row complete): the test whose interval paired_ratio_ci gives. Vectorized,
    so that a calibration can test many simulated tables."""
    logs = np.atleast_2d(np.asarray(logs, dtype=float))
    n = logs.shape[1]
    if n < 2:
        raise ValueError("a paired t-test needs at least two repetitions")
    mean = logs.mean(axis=1)
    sd = logs.std(axis=1, ddof=1)
    spread = np.ptp(logs, axis=1) > 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(spread, mean / (sd / np.sqrt(n)), 0.0)
    p = np.where(spread, 2.0 * sps.t.sf(np.abs(t), n - 1), np.where(mean == 0.0, 1.0, 0.0))
    return np.clip(p, 0.0, 1.0)


def paired_p(pairs: Sequence[tuple[float, float]]) -> float | None:
    """The p-value of (value, baseline) pairs under the paired t-test of their log ratios (the
    interval of paired_ratio_ci excludes 1 exactly when p < 1 - confidence). None where
    paired_ratio_ci gives no interval."""
    if len(pairs) < 2 or any(not (v > 0 and b > 0) for v, b in pairs):
        return None
    logs = np.log(np.asarray([v / b for v, b in pairs], dtype=float))
    return float(paired_log_p(logs[None, :])[0])


def t_interval_p(ci: Sequence[float], n: int, confidence: float = CONFIDENCE) -> float | None:
    """The p-value of a stored paired-t interval (results written before cells carried their p):
    the interval is mean log ratio +- t(df) * se, so its centre and half-width give t. n is the
    number of pairs (the cell's runs: a cell pairs only when both sides ran the same reps)."""
    if n < 2 or len(ci) != 2 or not (ci[0] > 0 and ci[1] > 0) or ci[1] < ci[0]:
        return None
    lo, hi = math.log(ci[0]), math.log(ci[1])
    mean, half = (lo + hi) / 2, (hi - lo) / 2
    if half == 0.0:
        return _zero_spread_p(mean)
    se = half / float(sps.t.ppf(0.5 + confidence / 2, n - 1))
    return float(min(1.0, 2.0 * sps.t.sf(abs(mean) / se, n - 1)))


def permutation_p(values: Sequence[float], baseline: Sequence[float], n_resamples: int = N_RESAMPLES,
                  seed: int = SEED) -> float | None:
    """Two-sided permutation p-value that values and baseline come from one distribution, for runs that
    do not pair (the cells whose interval is ratio_ci's bootstrap): the share of the ways to split the
    pooled runs into groups of those sizes whose mean logs (means, where a value is not positive) differ
    at least as much as the observed groups' do. Every split when there are at most n_resamples, else
    n_resamples random ones (seeded, with the +1 of a Monte Carlo p). Unlike a p read off the
    bootstrap, it holds its level with three runs a side, where it is never below 0.1 (2 of the 20
    splits are as far apart as the farthest). None where ratio_ci gives no interval."""
    a = [float(v) for v in values if v is not None]
    b = [float(v) for v in baseline if v is not None]
    if len(a) < 2 or len(b) < 2 or statistics.median(b) == 0:
        return None
    pooled = np.asarray(a + b)
    if np.all(pooled > 0):
        pooled = np.log(pooled)  # the mean log ratio, as the paired test's
    observed = abs(float(np.mean(pooled[:len(a)]) - np.mean(pooled[len(a):])))
    n, k = len(pooled), len(a)
    if math.comb(n, k) <= n_resamples:
        splits = np.asarray(list(itertools.combinations(range(n), k)))
        mask = np.zeros((len(splits), n), dtype=bool)
        mask[np.arange(len(splits))[:, None], splits] = True
        extra = 0
    else:
        rng = np.random.default_rng(seed)
        order = np.argsort(rng.random((n_resamples, n)), axis=1)
        mask = np.zeros((n_resamples, n), dtype=bool)
        mask[np.arange(n_resamples)[:, None], order[:, :k]] = True
        extra = 1
    groups = np.broadcast_to(pooled, mask.shape)
    mine = groups[mask].reshape(len(mask), k).mean(axis=1)
    theirs = groups[~mask].reshape(len(mask), n - k).mean(axis=1)
    far = int(np.sum(np.abs(mine - theirs) >= observed * (1 - 1e-12)))
    return float(min(1.0, (far + extra) / (len(mask) + extra)))


def holm(pvalues: Sequence[float | None], alpha: float = FAMILY_ALPHA) -> list[bool]:
    """Holm's step-down rejections: sorted ascending, the k-th smallest of the m p-values is
    rejected while every one before it was and it is <= alpha / (m - k + 1). The chance of any
    rejection among true nulls is at most alpha, whatever the dependence between the tests.
    None (a cell without a test) is no member of the family and never rejected."""
    order = sorted((i for i, p in enumerate(pvalues) if p is not None and math.isfinite(p)),
                   key=lambda i: pvalues[i])  # type: ignore[index]
    out = [False] * len(pvalues)
    m = len(order)
    for k, i in enumerate(order):
        if pvalues[i] > alpha / (m - k):  # type: ignore[operator]
            break
        out[i] = True
    return out


def holm_adjusted(pvalues: Sequence[float | None]) -> list[float | None]:
    """Holm-adjusted p-values: a cell is rejected at level a exactly when its adjusted p <= a."""
    order = sorted((i for i, p in enumerate(pvalues) if p is not None and math.isfinite(p)),
                   key=lambda i: pvalues[i])  # type: ignore[index]
    out: list[float | None] = [None] * len(pvalues)
    m, running = len(order), 0.0
    for k, i in enumerate(order):
        running = max(running, min(1.0, (m - k) * pvalues[i]))  # type: ignore[operator]
        out[i] = running
    return out


def inside_band(ratio: float, band: tuple[float, float] | None) -> bool:
    """Whether ratio lies within band (a noise band: never called); False without a band."""
    return band is not None and band[0] <= ratio <= band[1]


def band_text() -> str:
    """The noise band's part of a table's legend."""
    return (f"its ratio lies outside x{NOISE_BAND[0]:.3f}-x{NOISE_BAND[1]:.3f}, what identical runs differ by "
            "(`./flexheap harness calibrate`)")


def family_verdicts(cells: Sequence[tuple[float | None, Sequence[float] | None, float | None]],
                    alpha: float = FAMILY_ALPHA,
                    band: tuple[float, float] | None = NOISE_BAND) -> list[str | None]:
    """The verdicts of one table's cells, each (ratio, interval, p): Holm over the cells with a p,
    a cell called 'higher' or 'lower' only when Holm rejects it, its own interval excludes 1 too
    (so that no called cell shows an interval across 1) and its ratio lies outside band, the spread
    identical configurations showed (None: Holm and the interval alone); 'no difference' for the
    others; None for a cell without an interval. Holm alone bounds the false calls only where every
    p is valid; the A/A record holds differences their own repetitions' spread does not allow, which
    the band keeps out."""
    assert band is None or band[0] <= 1.0 <= band[1], band
    rejected = holm([p if ci else None for _r, ci, p in cells], alpha)
    out: list[str | None] = []
    for (r, ci, _p), called in zip(cells, rejected):
        if not ci or r is None:
            out.append(None)
        elif called and not (ci[0] <= 1.0 <= ci[1]) and not inside_band(r, band):
            out.append("higher" if ci[0] > 1.0 else "lower")
        else:
            out.append(NO_DIFFERENCE)
    return out


def cell_p(agg: dict[str, Any], policy: str, metric: str) -> float | None:
    """The p-value of one cell of a comparison (policy's metric against the baseline's): the cell's
    own "p" when it carries one (written since the verdicts are Holm's), else from its stored
    paired-t interval, else (a bootstrap cell: runs that do not pair) the permutation test of the runs
    stored beside it."""
    d = (agg.get("table") or {}).get(policy, {}).get(metric) or {}
    ci = d.get("ratio_ci")
    if policy == agg.get("baseline") or not ci:
        return None
    if isinstance(d.get("p"), (int, float)):
        return float(d["p"])
    if d.get("ci_method") == PAIRED_T:
        return t_interval_p(ci, int(d.get("n") or 0), float(agg.get("confidence", CONFIDENCE)))
    runs = [s for s in agg.get("runs") or [] if s.get("ok")]
    if not runs:
        return None
    values = [metrics_of(s).get(metric) for s in runs if s.get("policy") == policy]
    base = [metrics_of(s).get(metric) for s in runs if s.get("policy") == agg.get("baseline")]
    return permutation_p([v for v in values if v is not None], [v for v in base if v is not None])


def table_verdicts(agg: dict[str, Any], metrics: Sequence[str] | None = None,
                   policies: Sequence[str] | None = None) -> dict[tuple[str, str], str | None]:
    """(policy, metric) -> verdict over one table of a comparison: the cells of those metrics (all
    of the comparison's by default) of every policy but the baseline (or those given), as one
    family (family_verdicts)."""
    metrics = list(agg.get("metrics") or []) if metrics is None else list(metrics)
    policies = [p for p in (agg.get("policies") if policies is None else policies) or []
                if p != agg.get("baseline")]
    keys = [(p, m) for p in policies for m in metrics]
    cells = []
    for p, m in keys:
        d = (agg.get("table") or {}).get(p, {}).get(m) or {}
        cells.append((d.get("ratio"), d.get("ratio_ci"), cell_p(agg, p, m)))
    return dict(zip(keys, family_verdicts(cells)))


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
                    d["p"] = paired_p(pairs) if pairs else None
                else:
                    ci = ratio_ci(values, base_values)
                    d["ci_method"] = BOOTSTRAP
                    d["p"] = permutation_p(values, base_values) if ci else None
                d["ratio_ci"] = list(ci) if ci else None
            table[p][m] = d
    # One family: every cell of the comparison's table (Holm over them, table_verdicts).
    keys = [(p, m) for p in policies if p != baseline for m in metric_names if table[p][m].get("ratio_ci")]
    for (p, m), v in zip(keys, family_verdicts([(table[p][m]["ratio"], table[p][m]["ratio_ci"], table[p][m]["p"])
                                                for p, m in keys])):
        table[p][m]["verdict"] = v
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
