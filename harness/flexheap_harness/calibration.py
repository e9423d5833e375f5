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

"""The verdict rule calibrated on identical configurations, from the committed results.

Every committed comparison that ran one configuration as two columns, interleaved, is a free A/A
pair: a `flexheap` column beside a column named flexheap-paper that ran the default (relabel.py),
or two labelled columns of one policy (POLICY@a, POLICY@b). Each metric of such a pair is one A/A
cell, tested as the tables test a policy against their baseline (stats.aggregate: the paired t
interval where the runs pair, else the bootstrap). Any difference a rule calls between them is a
false call. This measures how often

  - the rule before (a 95% interval that excludes 1) calls a cell, an A/A column (every metric of a
    pair, as one table) and a table of the summary's size (its cells drawn from the A/A cells);
  - Holm's correction over a table's cells alone does, on the same cells and the same drawn tables;
  - the rule the tables use now (Holm, and a ratio outside the band of total-time ratios identical
    runs showed: stats.family_verdicts with stats.NOISE_BAND) does, each cell judged by the band of
    the other comparisons' A/A cells, so that no cell sets the band it is judged by.

    ./flexheap harness calibrate [--manifest M] [--tables N]
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np
from scipy import stats as sps
from tabulate import tabulate

from . import relabel, results_summary, stats
from .results_manifest import Manifest, budget_share, default_manifest, load, read_json, result_kind

COMMAND = "./flexheap harness calibrate"
TITLE = "Calibration: the verdict rule on identical configurations"
TABLES = 2000  # drawn tables of the summary's size
# Without a summary in the manifest: a table of ~30 settings x 7 columns.
DEFAULT_TABLE_CELLS = 210


@dataclass(frozen=True)
class AACell:
    """One metric of one A/A pair: column against reference, two names for one configuration."""
    data: str  # the result JSON, relative to the manifest
    workload: str
    reference: str
    column: str  # as committed
    metric: str
    reps: int  # the column's runs in the cell
    ratio: float
    ci: tuple[float, float]
    p: float | None
    method: str  # stats.PAIRED_T or stats.BOOTSTRAP
    band: tuple[float, float] | None = None  # the noise band of the other comparisons (calibrate)

    @property
    def called_before(self) -> bool:
        """The rule before: the cell's own 95% interval excludes 1."""
        return stats.verdict(self.ci) != stats.NO_DIFFERENCE

    @property
    def triple(self) -> tuple[float, tuple[float, float], float | None]:
        return self.ratio, self.ci, self.p


CALLED = ("higher", "lower")


def called_by_holm(cells: Sequence[AACell]) -> list[bool]:
    """Holm's calls over one family of A/A cells, without the noise band."""
    return [v in CALLED for v in stats.family_verdicts([c.triple for c in cells], band=None)]


def called_now(cells: Sequence[AACell]) -> list[bool]:
    """The rule now over one family of A/A cells: Holm's call and a ratio outside the cell's band."""
    return [h and not stats.inside_band(c.ratio, c.band) for c, h in zip(cells, called_by_holm(cells))]


def spread(ratios: Sequence[float]) -> tuple[float, float]:
    """The 2.5th and 97.5th percentiles of ratios (the noise band they give); (1, 1) for none."""
    if not len(ratios):
        return 1.0, 1.0
    return float(np.percentile(ratios, 2.5)), float(np.percentile(ratios, 97.5))


def noise_band(ratios: Sequence[float]) -> tuple[float, float]:
    """The band of stats.NOISE_BAND from A/A ratios: their spread's end farther from 1, both ways."""
    lo, hi = spread(ratios)
    far = max(abs(np.log(lo)), abs(np.log(hi)))
    return float(np.exp(-far)), float(np.exp(far))


def with_bands(cells: Sequence[AACell]) -> list[AACell]:
    """Each cell with the noise band of the total-time A/A ratios of every other comparison."""
    total = [c for c in cells if c.metric == "total_s"]
    bands = {d: noise_band([c.ratio for c in total if c.data != d]) for d in {c.data for c in cells}}
    return [dataclasses.replace(c, band=bands[c.data]) for c in cells]


def jdk_of(data: dict[str, Any], policy: str) -> str | None:
    """The JDK a comparison's policy ran on (its provenance), None when the result does not say."""
    for j in (data.get("provenance") or {}).get("jdks") or []:
        if policy in (j.get("policies") or []):
            return str(j.get("jdk"))
    return None


def aa_groups(data: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """(reference, the other columns) for every configuration a comparison ran as two columns or more:
    flexheap with the flexheap-paper columns that ran it, and POLICY with POLICY@LABEL where the label
    ran the reference's own JDK (flexheap@old, on the previous default's JDK, is no copy)."""
    misnamed = relabel.misnamed(data)
    by: dict[str, list[str]] = {}
    for p in data.get("policies") or []:
        key = relabel.DEFAULT_POLICY if p in misnamed else str(p).split("@", 1)[0]
        by.setdefault(key, []).append(p)
    out = []
    for key, cols in by.items():
        ref = key if key in cols else cols[0]
        same = [c for c in cols if c != ref and (c in misnamed or jdk_of(data, c) == jdk_of(data, ref) is not None)]
        if same:
            out.append((ref, same))
    return out


def cells_of(data: dict[str, Any], where: str = "") -> list[AACell]:
    """Every A/A cell of one comparison JSON (with a CI: a metric both columns measured at least twice)."""
    if result_kind(data) != "comparison":
        return []
    workload = str(((data.get("runs") or [{}])[0]).get("workload") or "?")
    out = []
    for ref, others in aa_groups(data):
        for col in others:
            runs = [r for r in data.get("runs") or [] if r.get("policy") in (ref, col)]
            agg = {**stats.aggregate(runs, ref), "runs": runs}
            for metric in agg["metrics"]:
                d = agg["table"][col].get(metric) or {}
                if d.get("ratio_ci") and d.get("ratio") is not None:
                    out.append(AACell(where, workload, ref, col, metric, int(d.get("n") or 0), float(d["ratio"]),
                                      (float(d["ratio_ci"][0]), float(d["ratio_ci"][1])),
                                      stats.cell_p(agg, col, metric), str(d.get("ci_method"))))
    return out


def collect(m: Manifest) -> list[AACell]:
    """The A/A cells of every comparison the manifest names (each result JSON once)."""
    seen: set[str] = set()
    out: list[AACell] = []
    for e in m.entries:
        if e.data in seen:
            continue
        seen.add(e.data)
        out += cells_of(read_json(m.root / e.data), e.data)
    return out


def summary_table_cells(m: Manifest) -> int:
    """The number of cells with a CI in the summary's first table (its Holm family): every baseline and
    the best static cap of each row of the current default, or of the earlier builds' rows while the
    current default has none, where the runs give a paired interval (results_summary)."""
    if m.summary is None:
        return DEFAULT_TABLE_CELLS
    labelled = [e for e in m.entries if e.label]
    current, earlier = results_summary.split_rows(m.summary, [(e.label, read_json(m.root / e.data)) for e in labelled],
                                                  [budget_share(e.command) for e in labelled])
    policy, n = m.summary.policy, 0
    for _label, data in current or earlier:
        best = (data.get("oracle") or {}).get("best_static")
        mine = results_summary.times_by_rep(data, policy)
        for other in [*results_summary.baselines(policy), *([best] if best else [])]:
            theirs = results_summary.times_by_rep(data, other)
            if mine and theirs:
                reps = sorted(set(mine) & set(theirs))
                n += stats.paired_ratio_ci([(mine[r], theirs[r]) for r in reps]) is not None
    return n or DEFAULT_TABLE_CELLS


@dataclass(frozen=True)
class Rate:
    hits: int
    of: int

    @property
    def share(self) -> float:
        return self.hits / self.of if self.of else float("nan")

    def text(self, unit: str = "") -> str:
        return f"{100 * self.share:.1f}% ({self.hits} of {self.of}{unit})" if self.of else "-"


@dataclass(frozen=True)
class Tables:
    """Tables of `cells` A/A cells drawn from a pool (seeded), and how many have any call under each rule."""
    cells: int
    pool: int
    drawn: int
    before: Rate  # tables with a call by the rule before
    holm: Rate  # tables with a call by Holm alone
    now: Rate  # tables with a call by the rule now
    cells_now: Rate  # cells the rule now calls, over every drawn table's cells


def draw_tables(pool: Sequence[AACell], m: int, tables: int, rng: np.random.Generator) -> Tables:
    """tables tables of m cells each from pool, without replacement where the pool has m cells or more."""
    before = holm = now = called_cells = 0
    n = tables if pool and m > 0 else 0
    for _ in range(n):
        idx = rng.choice(len(pool), size=m, replace=len(pool) < m)
        drawn = [pool[i] for i in idx]
        before += any(c.called_before for c in drawn)
        holm += any(called_by_holm(drawn))
        called = sum(called_now(drawn))
        now += called > 0
        called_cells += called
    return Tables(m, len(pool), n, Rate(before, n), Rate(holm, n), Rate(now, n), Rate(called_cells, n * m))


@dataclass(frozen=True)
class Calibration:
    cells: list[AACell]
    pairs: int  # A/A columns (comparison, column)
    comparisons: int
    workloads: list[str]
    reps: dict[int, int]  # pairs by their repetitions (total time's)
    cell_before: Rate
    cell_total_before: Rate  # total time only: the summary's metric
    column_before: Rate  # A/A columns (all their metrics: one table) with any call
    column_holm: Rate
    column_now: Rate
    column_cells_holm: Rate  # cells called within their A/A column's family
    column_cells_now: Rate
    summary_tables: Tables  # of the summary's size, from the total-time cells (its one metric)
    mixed_tables: Tables  # of the summary's size, from every A/A cell (any metric)
    table_before_independent: float  # 1 - (1 - total-time cell rate)^m
    total_spread: tuple[float, float]  # 2.5th and 97.5th percentiles of total-time A/A ratios


def calibrate(cells: Sequence[AACell], table_cells: int, tables: int = TABLES, seed: int = stats.SEED) -> Calibration:
    """Both rules' false calls on the A/A cells: per cell, per A/A column (every metric of one pair, one
    family) and per table of table_cells cells drawn from the total-time cells (the summary's) and
    from every cell."""
    cells = with_bands(cells)
    columns: dict[tuple[str, str], list[AACell]] = {}
    for c in cells:
        columns.setdefault((c.data, c.column), []).append(c)
    reps = Counter(next((c.reps for c in cs if c.metric == "total_s"), max(c.reps for c in cs))
                   for cs in columns.values())
    col_before = sum(any(c.called_before for c in cs) for cs in columns.values())
    col_holm = [sum(called_by_holm(cs)) for cs in columns.values()]
    col_now = [sum(called_now(cs)) for cs in columns.values()]
    total = [c for c in cells if c.metric == "total_s"]
    rng = np.random.default_rng(seed)
    cell_total_before = Rate(sum(c.called_before for c in total), len(total))
    return Calibration(
        cells=cells, pairs=len(columns), comparisons=len({c.data for c in cells}),
        workloads=sorted({c.workload for c in cells}), reps=dict(sorted(reps.items())),
        cell_before=Rate(sum(c.called_before for c in cells), len(cells)), cell_total_before=cell_total_before,
        column_before=Rate(col_before, len(columns)), column_holm=Rate(sum(n > 0 for n in col_holm), len(columns)),
        column_now=Rate(sum(n > 0 for n in col_now), len(columns)),
        column_cells_holm=Rate(sum(col_holm), len(cells)), column_cells_now=Rate(sum(col_now), len(cells)),
        summary_tables=draw_tables(total, table_cells, tables, rng),
        mixed_tables=draw_tables(cells, table_cells, tables, rng),
        table_before_independent=(1.0 - (1.0 - cell_total_before.share) ** table_cells) if total else float("nan"),
        total_spread=spread([c.ratio for c in total]))


def of_manifest(m: Manifest, tables: int = TABLES) -> Calibration:
    return calibrate(collect(m), summary_table_cells(m), tables)


def _workloads(cal: Calibration) -> str:
    n = Counter(c.workload for c in {(c.data, c.column): c for c in cal.cells}.values())
    return ", ".join(f"{w} ({k})" for w, k in sorted(n.items(), key=lambda x: (-x[1], x[0])))


def rates_table(cal: Calibration, fmt: str = "github") -> str:
    st, mt = cal.summary_tables, cal.mixed_tables
    rows = [
        ["a 95% CI that excludes 1 (the rule before)", cal.cell_before.text(), cal.column_before.text(),
         st.before.text(), mt.before.text()],
        [f"Holm over the table's cells, family-wise {stats.FAMILY_ALPHA:.0%}, alone",
         cal.column_cells_holm.text(), cal.column_holm.text(), st.holm.text(), mt.holm.text()],
        [f"Holm, and a ratio outside x{stats.NOISE_BAND[0]:.3f}-x{stats.NOISE_BAND[1]:.3f} (the rule now)",
         cal.column_cells_now.text(), cal.column_now.text(), st.now.text(), mt.now.text()],
    ]
    return tabulate(rows, headers=["rule", "per A/A cell", "per A/A column (a pair's metrics, one table)",
                                   f"per table of {st.cells} total-time cells (the summary's size)",
                                   f"per table of {mt.cells} cells of any metric"],
                    tablefmt=fmt, disable_numparse=True)


def describe(cal: Calibration) -> str:
    reps = ", ".join(f"{n} with {r} reps" for r, n in cal.reps.items())
    five = sorted({c.workload for c in cal.cells if c.metric == "total_s" and c.reps >= 5})
    reps += f"; those with 5 reps or more on {len(five)} workload{'s' if len(five) != 1 else ''}" if five else ""
    return (f"{cal.pairs} A/A pairs in {cal.comparisons} comparisons ({reps}), on {len(cal.workloads)} workloads: "
            f"{_workloads(cal)}; {len(cal.cells)} A/A cells (a metric of a pair, with a CI), "
            f"{cal.cell_total_before.of} of them total time.")


def how(cal: Calibration) -> str:
    """What the table's columns are, and what they say."""
    st, mt = cal.summary_tables, cal.mixed_tables
    lo, hi = cal.total_spread
    return (f"Per A/A cell: the cells a rule calls (the rule now: within the cell's A/A column, one family). "
            f"Per A/A column: the pairs with any call among their metrics, each pair's metrics one table. The "
            f"summary-sized tables are {st.drawn} tables of {st.cells} cells each (the current summary table's "
            f"cells with a CI), drawn (seeded) from the {st.pool} total-time A/A cells, the summary's one metric"
            f"{' with replacement' if st.pool < st.cells else ''}; with cells called independently at the "
            f"before rule's total-time rate, {cal.cell_total_before.text()}, such a table would have a false call "
            f"with probability {100 * cal.table_before_independent:.1f}%. The last column draws the same number of "
            f"cells from all {mt.pool} A/A cells, any metric (the rule now calls {mt.cells_now.text()} of their "
            f"cells). {_outliers(cal, mt.cells)}A/A ratios of total time fall between x{lo:.3f} and x{hi:.3f} "
            f"(2.5th to 97.5th percentile); the end farther from 1, both ways, is the band the rule now never calls "
            f"inside (x{stats.NOISE_BAND[0]:.3f}-x{stats.NOISE_BAND[1]:.3f}: stats.NOISE_BAND), here each cell "
            f"judged by the band of the other comparisons' A/A cells, so that no cell sets its own. Per A/A column, "
            f"the rule now's "
            f"{cal.column_now.text()} has a 95% interval of {_interval(cal.column_now)}.")


def _interval(r: Rate) -> str:
    """The Clopper-Pearson 95% interval of a rate, in %."""
    ci = sps.binomtest(r.hits, r.of).proportion_ci(0.95)
    return f"{100 * ci.low:.1f}-{100 * ci.high:.1f}%"


def _outliers(cal: Calibration, m: int) -> str:
    """The A/A cells small enough in p to be called by Holm's first step in a table of m cells: Holm's
    bound holds when every p is valid, and these are differences between identical configurations that
    their own repetitions' spread does not allow."""
    low = sorted((c for c in cal.cells if c.p is not None and c.p <= stats.FAMILY_ALPHA / m), key=lambda c: c.p)
    if not low:
        return (f"No A/A cell has a p below {100 * stats.FAMILY_ALPHA:g}%/{m}, what Holm's first step needs in "
                "such a table. ")
    listed = "; ".join(f"{c.metric} x{c.ratio:.3f} (CI {c.ci[0]:.3f}-{c.ci[1]:.3f}, {c.reps} reps, p {c.p:.1g}) "
                       f"in {Path(c.data).parent.name or c.data}" for c in low)
    expected = sum(1 for c in cal.cells if c.p is not None) * stats.FAMILY_ALPHA / m
    return (f"Those calls come from the {len(low)} A/A cells whose p is below {100 * stats.FAMILY_ALPHA:g}%/{m}, "
            f"where valid p-values would give {expected:.1f}: {listed}. Holm's bound holds when each p is valid; "
            "there identical configurations differed by more than their own repetitions' spread makes likely, "
            "and a rule that trusts that spread alone cannot tell them from a real difference. ")


def section(m: Manifest, tables: int = TABLES) -> list[str]:
    """The Calibration section of docs/results.md; none when the manifest names no A/A pair."""
    cal = of_manifest(m, tables)
    if not cal.cells:
        return []  # no A/A pair: nothing to calibrate on
    out = [f"## {TITLE}", ""]
    out += [
        "Every committed comparison (the entries below and in the earlier measurements' pages) that ran one "
        "configuration as two interleaved columns is an A/A pair: "
        f"`flexheap` beside `{relabel.AA_LABEL}` (the runs named flexheap-paper, which ran the default) or "
        "beside a labelled copy of itself. Any difference a rule calls between them is a false call. "
        + describe(cal), "",
        "```sh", COMMAND, "```", "",
        rates_table(cal), "",
        how(cal) + " Every table in this document uses the rule now, each table its own family.", ""]
    return out


def _called_now(cal: Calibration) -> dict[AACell, bool]:
    """Each cell: called by the rule now, within its A/A column (one family)."""
    columns: dict[tuple[str, str], list[AACell]] = {}
    for c in cal.cells:
        columns.setdefault((c.data, c.column), []).append(c)
    out: dict[AACell, bool] = {}
    for cs in columns.values():
        out.update(zip(cs, called_now(cs)))
    return out


def by_workload(cal: Calibration, fmt: str = "simple") -> str:
    now = _called_now(cal)
    rows = []
    for w in cal.workloads:
        cs = [c for c in cal.cells if c.workload == w]
        reps = Counter(c.reps for c in cs if c.metric == "total_s")
        rows.append([w, len({(c.data, c.column) for c in cs}), ", ".join(f"{n}x{r}" for r, n in sorted(reps.items())),
                     len(cs), sum(c.called_before for c in cs), sum(now[c] for c in cs)])
    return tabulate(rows, headers=["workload", "A/A pairs", "pairs x reps", "A/A cells", "called by the rule before",
                                   "called by the rule now"], tablefmt=fmt, disable_numparse=True)


def by_metric(cal: Calibration, fmt: str = "simple") -> str:
    """Per metric (a phase's metrics by their kind: throughput, p99, ...): cells and both rules' calls,
    the rule now within each A/A column."""
    called = _called_now(cal)
    kinds: dict[str, list[AACell]] = {}
    for c in cal.cells:
        kind = c.metric.split(":", 1)[0] + (":*" if ":" in c.metric else "")
        kinds.setdefault(kind, []).append(c)
    rows = [[k, len(cs), sum(c.called_before for c in cs), sum(called[c] for c in cs)]
            for k, cs in kinds.items()]
    return tabulate(rows, headers=["metric", "A/A cells", "called by the rule before", "called by the rule now"],
                    tablefmt=fmt, disable_numparse=True)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="flexheap harness calibrate", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--manifest", type=Path, default=None, help="default: docs/results/manifest.toml")
    ap.add_argument("--tables", type=int, default=TABLES, help=f"drawn summary-sized tables (default {TABLES})")
    args = ap.parse_args(argv)
    m = load(args.manifest or default_manifest())
    cal = of_manifest(m, args.tables)
    if not cal.cells:
        print("no A/A pair in the committed results", file=sys.stderr)
        return 1
    print(describe(cal))
    print()
    print(rates_table(cal, "simple"))
    print()
    print(how(cal))
    print()
    print(by_workload(cal))
    print()
    print(by_metric(cal))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
