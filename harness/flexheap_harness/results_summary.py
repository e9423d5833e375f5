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

"""The summary at the top of docs/results.md: one row per labelled entry (`label = "..."`), the
default policy's total time against every baseline that ran beside it in that entry, the best
static cap and the per-phase oracle of its sweep.

Each ratio is recomputed from the entry's own runs, paired by repetition (stats.paired_ratio_ci),
because an entry's stored ratios are against its baseline only; the oracle share is the sweep's own. Only
entries whose default policy ran on the current default (the manifest's `current_builds`) or on an
earlier default (`[summary] previous_builds`) may carry a label. The first table holds the current
default's rows only (one line saying so while it has none); the earlier defaults' rows form a second
table, headed as such, each row naming its build, so an earlier build's row is never read as today's."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, NamedTuple

from tabulate import tabulate

from . import stats
from .relabel import AA_LABEL

# The columns, in the order issue 10 names the bar; a policy an entry did not run shows "-". vendor-50:
# the vendor default's fixed half-memory heap (issue 62); flexheap@old: the previous default on its own
# JDK (issue 61); AA_LABEL: the committed flexheap-paper columns, which ran the default (relabel.py);
# flexheap-paper: the paper controller, from runs that select it. The OPTIONAL ones are left out of a
# table where no row ran them.
BASELINES = ("g1-50", "g1-90", "vg1", "vendor-50", "g1-26", "g1-27like", "flexheap@old", AA_LABEL,
             "flexheap-paper")
OPTIONAL = ("vendor-50", "flexheap@old", AA_LABEL, "flexheap-paper")
BEST_STATIC = "best static cap"
TITLE = "Summary: the default against every baseline"
EARLIER_TITLE = "Earlier builds, not the current default"  # the second table's heading
BUILD = re.compile(r"FlexHeap (\S+)")  # a hash, or hash-dirty for a build of an uncommitted tree
HASH = re.compile(r"[0-9a-f]{7,40}")  # a commit as `builds` names it (a -dirty build is none)
# stats.verdict's words, as the summary says them
VERDICT_WORDS = {stats.NO_DIFFERENCE: "tie", "lower": "faster", "higher": "slower"}


# Budgets this close are one setting: a fraction of an index gives a few MiB more or less after
# the index is rebuilt (979 MiB against 992 MiB for 10% of the 10 GB index).
SAME_BUDGET = 0.03


Share = tuple[float, str | None]  # a budget's multiple F of the data and the --index it is of


class Measured(NamedTuple):
    """What a comparison's runs measured, as they record it."""
    workload: str
    device: str
    budget: float  # bytes
    jvm_flags: tuple[str, ...]  # their --jvm-flags (older results do not record them: none)
    # (--budget F, --index) when the command gave the budget as a multiple F of the data
    # (results_manifest.budget_share): runs record only the bytes, and those change with the data's
    # bytes on disk (a rebuilt OpenSearch index held 7.6 GiB on one machine and 8.9 GiB on another,
    # so 5% of it was 389 or 454 MiB)
    share: Share | None = None

    def same(self, other: Measured) -> bool:
        if (self.workload, self.device, self.jvm_flags) != (other.workload, other.device, other.jvm_flags):
            return False
        if self.share is not None and other.share is not None:
            return self.share == other.share  # one multiple of one data set, whatever its bytes
        return abs(self.budget - other.budget) <= SAME_BUDGET * max(self.budget, other.budget)


def measured(data: Any, share: Share | None = None) -> Measured | None:
    """The setting a comparison JSON's runs record, with the budget's share of the data when its command
    gave one; None when the runs do not say."""
    r = (data.get("runs") or [{}])[0] if isinstance(data, dict) else {}
    if not r.get("workload") or not r.get("budget") or not r.get("device"):
        return None
    return Measured(str(r["workload"]), str(r["device"]), float(r["budget"]),
                    tuple(str(f) for f in r.get("extra_jvm_flags") or ()), share)


class SummaryError(ValueError):
    """A labelled entry that cannot be a summary row (the manifest check reports it)."""


@dataclass(frozen=True)
class Summary:
    policy: str
    # The current default's builds: the manifest's top-level `current_builds` (results_manifest).
    builds: tuple[str, ...]
    text: str = ""
    # Earlier defaults' builds: their labelled entries form a second table, kept until the settings
    # they measured are re-run on `builds` (never mixed into the first).
    previous_builds: tuple[str, ...] = ()
    previous_text: str = ""


def on_builds(build: str | None, builds: tuple[str, ...] | list[str]) -> bool:
    """True when build (as a result records it) is one of builds: a commit, either hash a prefix of the
    other; a -dirty build (of an uncommitted tree) or none is on no build."""
    hashes = build if build and HASH.fullmatch(build) else None
    return bool(hashes) and any(hashes.startswith(b) or b.startswith(hashes) for b in builds)



def is_previous(data: dict[str, Any], summary: Summary) -> bool:
    """True when summary.policy ran on one of the previous default's builds, not on the current one."""
    build = build_of(data, summary.policy)
    return not on_builds(build, summary.builds) and on_builds(build, summary.previous_builds)


def times_by_rep(data: dict[str, Any], policy: str) -> dict[int, float] | None:
    """rep -> total time of policy's ok runs; None when two runs claim one rep (they cannot pair)."""
    out: dict[int, float] = {}
    for r in data.get("runs") or []:
        if r.get("policy") == policy and r.get("ok") and r.get("rep") is not None and r.get("total_s") is not None:
            if int(r["rep"]) in out:
                return None
            out[int(r["rep"])] = float(r["total_s"])
    return out


def build_of(data: dict[str, Any], policy: str) -> str | None:
    """The FlexHeap build policy's runs recorded (provenance), None when none is named."""
    for j in (data.get("provenance") or {}).get("jdks") or []:
        if policy in (j.get("policies") or []):
            m = BUILD.search(str(j.get("jdk") or ""))
            return m.group(1) if m else None
    return None


def check_row(data: dict[str, Any], summary: Summary, where: str) -> None:
    """Raises SummaryError unless data is a comparison in which summary.policy ran on a listed build."""
    if not isinstance(data, dict) or summary.policy not in (data.get("policies") or []):
        raise SummaryError(f"{where}: has a label but no {summary.policy} runs, so it cannot be a summary row")
    build = build_of(data, summary.policy)
    listed = summary.builds + summary.previous_builds
    if not on_builds(build, listed):
        raise SummaryError(f"{where}: has a label but {summary.policy} ran on {build or 'an unnamed build'}, "
                           f"not on the summary's builds ({', '.join(listed) or 'none listed'}: current_builds "
                           "and [summary] previous_builds); drop the label or re-run it on the default")
    if len(times_by_rep(data, summary.policy) or {}) < 2:
        raise SummaryError(f"{where}: has a label but fewer than 2 ok runs of {summary.policy}")


class Ratio(NamedTuple):
    """policy's total time over another's in one entry, paired by repetition (ratio_of)."""
    x: float
    lo: float
    hi: float
    p: float | None  # the paired t-test's (stats.paired_p)
    short: int  # pairs, when a failed run left fewer than the runs of either side, else 0


def ratio_of(data: dict[str, Any], policy: str, other: str) -> Ratio | str:
    """The Ratio of policy's total time over other's, or the cell's text where there is none: '-'
    when other did not run, 'unpaired (...)', 'no CI: ...'."""
    mine, theirs = times_by_rep(data, policy), times_by_rep(data, other)
    if mine is None or theirs is None:
        return "unpaired (two runs in one rep)"
    if not theirs:
        return "-"
    reps = sorted(set(mine) & set(theirs))
    pairs = [(mine[r], theirs[r]) for r in reps]
    got = stats.paired_ratio_ci(pairs)
    if got is None:
        return f"no CI: {len(reps)} paired rep(s)"
    x, (lo, hi) = got
    short = len(reps) if len(reps) < max(len(mine), len(theirs)) else 0
    return Ratio(x, lo, hi, stats.paired_p(pairs), short)


def ratio_text(r: Ratio | str, verdict: str | None) -> str:
    """'x0.97 (0.95-0.99) faster' with the verdict of the cell's table; ' n=K' appended when a failed
    run left only K repetitions to pair."""
    if isinstance(r, str):
        return r
    word = VERDICT_WORDS[verdict or stats.NO_DIFFERENCE]
    digits = 2
    while word != "tie" and digits < 5 and round(r.lo, digits) <= 1.0 <= round(r.hi, digits):
        digits += 1  # print the bound nearest 1 so that it shows the verdict
    n = f" n={r.short}" if r.short else ""
    return f"x{r.x:.{digits}f} ({r.lo:.{digits}f}-{r.hi:.{digits}f}) {word}{n}"


def ratio_cell(data: dict[str, Any], policy: str, other: str) -> str:
    """One cell as a table of its own would say it (a family of one): 'x0.97 (0.95-0.99) faster'."""
    r = ratio_of(data, policy, other)
    if isinstance(r, str):
        return r
    return ratio_text(r, stats.family_verdicts([(r.x, (r.lo, r.hi), r.p)])[0])


def oracle_cell(data: dict[str, Any], policy: str) -> str:
    """policy's share of the per-phase oracle's throughput with its CI, '-' without a sweep."""
    row = next((p for p in (data.get("oracle") or {}).get("policies") or [] if p.get("policy") == policy), None)
    if not row or row.get("of_oracle") is None:
        return "-"
    ci = row.get("of_oracle_ci")
    return f"{100 * row['of_oracle']:.0f}%" + (f" ({100 * ci[0]:.0f}-{100 * ci[1]:.0f}%)" if ci else "")


def baselines(policy: str) -> list[str]:
    return [b for b in BASELINES if b != policy]


def columns(policy: str, rows: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """The baselines, but an OPTIONAL one no row ran (it would be '-' throughout)."""
    return [b for b in baselines(policy)
            if b not in OPTIONAL or any(b in (data.get("policies") or []) for _label, data in rows)]


class Table(NamedTuple):
    text: str
    slower: int  # cells the family's verdict calls slower
    faster: int
    family: int  # cells with an interval: Holm's m
    header: list[str]
    body: list[list[str]]


def _table(summary: Summary, rows: list[tuple[str, dict[str, Any]]]) -> Table:
    """The rows as a table: every ratio cell (each baseline and the best static cap) one family, whose
    verdicts are Holm's over the table (stats.family_verdicts), and how many cells it calls each way."""
    policy = summary.policy
    cols = columns(policy, rows)
    header = ["setting", "build", f"{policy} [s]", *(f"x {b}" for b in cols), f"x {BEST_STATIC}",
              "of per-phase oracle"]
    grid: list[list[Ratio | str]] = []
    for _label, data in rows:
        best = (data.get("oracle") or {}).get("best_static")
        grid.append([ratio_of(data, policy, b) for b in cols] + [ratio_of(data, policy, best) if best else "-"])
    flat = [r for line in grid for r in line if isinstance(r, Ratio)]
    verdicts = iter(stats.family_verdicts([(r.x, (r.lo, r.hi), r.p) for r in flat]))
    body, slower, faster = [], 0, 0
    for (label, data), line in zip(rows, grid):
        mine = times_by_rep(data, policy) or {}
        cells = [label, build_of(data, policy) or "-", f"{stats.describe(mine.values())['median']:.1f}"]
        for r in line:
            v = next(verdicts) if isinstance(r, Ratio) else None
            slower += v == "higher"
            faster += v == "lower"
            cells.append(ratio_text(r, v))
        best = (data.get("oracle") or {}).get("best_static")
        if best:
            cells[-1] += f" [{best.split(':', 1)[-1]}]"
        cells.append(oracle_cell(data, policy))
        body.append(cells)
    return Table(tabulate(body, headers=header, tablefmt="github", disable_numparse=True), slower, faster, len(flat),
                 header, body)


def compact(summary: Summary, rows: list[tuple[str, dict[str, Any]]], links: dict[str, str]) -> str:
    """The rows as _table has them (same cells, same family), without the columns no row has a value
    in, and each setting linked to links[label]."""
    if not rows:
        return f"No entry measures the current default yet ({', '.join(summary.builds) or 'none listed'})."
    table = _table(summary, rows)
    header, body = table.header, table.body
    keep = [i for i in range(len(header)) if i != 1 and (i < 3 or any(r[i] != "-" for r in body))]
    out = ["| " + " | ".join(header[i] for i in keep) + " |", "|" + "---|" * len(keep)]
    for r in body:
        label = f"[{r[0]}]({links[r[0]]})" if r[0] in links else r[0]
        out.append("| " + " | ".join([label] + [r[i] for i in keep[1:]]) + " |")
    return "\n".join(out)


def split_rows(summary: Summary, rows: list[tuple[str, dict[str, Any]]], shares: list[Share | None] | None = None
               ) -> tuple[list[tuple[str, dict[str, Any]]], list[tuple[str, dict[str, Any]]]]:
    """(the current default's rows, the earlier defaults' rows still to show), as render() tables them."""
    current: list[tuple[str, dict[str, Any]]] = []
    previous: list[tuple[tuple[str, dict[str, Any]], Measured | None]] = []
    now: list[Measured] = []
    for r, share in zip(rows, shares or [None] * len(rows)):
        m = measured(r[1], share)
        if is_previous(r[1], summary):
            previous.append((r, m))
        else:
            current.append(r)
            now += [m] if m is not None else []
    # A setting re-measured on the current default leaves the earlier builds' table (its entry stays in
    # the document's index), and so does one a later earlier-default row measured again: the table shows
    # the earlier builds' newest row of each setting, not every default before them.
    previous_rows = [r for i, (r, m) in enumerate(previous)
                     if m is None or not any(m.same(n) for n in now + [p for _, p in previous[i + 1:] if p])]
    return current, previous_rows


def render(summary: Summary, rows: list[tuple[str, dict[str, Any]]],
           shares: list[Share | None] | None = None) -> list[str]:
    """The summary section's lines; rows are (label, comparison JSON) in document order, shares their
    budgets' shares of the data where their commands gave one (compared as that share)."""
    out = [f"## {TITLE}", ""]
    rows, previous_rows = split_rows(summary, rows, shares)
    builds = ", ".join(summary.builds) or "none listed"
    if not rows:
        out += [f"**No entry measures the current default yet** (FlexHeap {builds}: `current_builds` in the "
                f"manifest): its table fills in as entries labelled in the manifest whose {summary.policy} ran on "
                "those builds are added.", ""]
    else:
        if summary.text.strip():
            out += [summary.text.strip(), ""]
        out += [f"On the current default, FlexHeap {builds}:", ""]
        out += _explained(summary, _table(summary, rows))
    if previous_rows:
        table = _table(summary, previous_rows)
        out += [f"### {EARLIER_TITLE}", ""]
        out += [f"**Not today's controller.** Each row ran on the earlier build its build column names, not on "
                f"the current default ({builds}); a row leaves this table once a labelled entry measures its "
                "setting on the current default.", ""]
        if summary.previous_text.strip():
            out += [summary.previous_text.strip(), ""]
        if rows:
            out += ["```sh", "./flexheap harness report   # this table too", "```", "", table.text, "",
                    f"Read as the table above; its verdicts are Holm's over its own {_cells(table.family)}. "
                    f"{_counts(summary, table)}", ""]
        else:
            out += _explained(summary, table)
    return out


def _cells(n: int) -> str:
    return f"{n} cell{'s' if n != 1 else ''}"


def _counts(summary: Summary, table: Table) -> str:
    return (f"Cells where {summary.policy} is slower: {table.slower}; faster: {table.faster} "
            f"(of {table.family} with a CI).")


def _explained(summary: Summary, table: Table) -> list[str]:
    return [
        "```sh",
        "./flexheap harness report   # this table, from the labelled entries; each has its own command",
        "```", "", table.text, "",
        f"Build: the FlexHeap build {summary.policy} ran on. {summary.policy} [s]: the median total time of its "
        f"runs. x P = {summary.policy}'s total time / P's: the geometric mean of the per-repetition ratios (runs "
        "paired by repetition within the entry; n=K when a failed run left K pairs), with the 95% Student-t CI "
        "of that cell. Faster or slower only where "
        f"Holm's correction over the table's {_cells(table.family)} with a CI rejects a ratio of 1 (p from the "
        f"paired t-test that gives the CI; Holm bounds the chance of any call between identical configurations "
        f"at {stats.FAMILY_ALPHA:.0%} only where those p are valid: the Calibration section counts the calls on "
        "identical runs), the CI excludes 1 and " + stats.band_text() + "; tie otherwise, so a tie's CI may "
        "exclude 1; - = P did not run in that entry. Best static cap: the static max heap with the "
        "shortest median mix time in the entry's sweep, compared by total time like the other columns (- "
        "without a sweep). Of per-phase oracle: the sweep's oracle mix time / "
        f"{summary.policy}'s median mix time (a throughput share, above 100% = faster than the oracle), with "
        "the sweep's 95% bootstrap CI, as the entry's oracle table gives it. "
        + _counts(summary, table), ""]
