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

"""docs/results.md from the manifest and the result JSONs it names (`report`), a page per entry in its
data folder (data/NAME/README.md), and the check that the committed files are exactly that, with a
command beside every table (`report --check`).

The document shows in full the entries measured on the current default (the manifest's
`current_builds`), each setting's newest; every other entry is one line of its index of earlier
measurements, and every entry is in full on its own page, so nothing is lost and each stays one click
away. The tables are the harness's own (compare.py, oracle.py, over the JSON's stored statistics), so
the document shows the runs' numbers; two things are applied to the stored results. The verdicts
(faster, slower, no difference) are Holm's over each table's cells (stats.family_verdicts), p-values
from the stored intervals or the stored runs, whatever rule the run printed. And a column the runs
named flexheap-paper but that ran the default policy is named for what it was (relabel.py:
`flexheap (A/A)`), in its tables, title and notes; the Calibration section measures both rules on
those A/A pairs (calibration.py)."""

from __future__ import annotations

import difflib
import os
import re
from pathlib import Path
from typing import Any, NamedTuple

from . import calibration, oracle, provenance, relabel, results_summary, stats
from .compare import render_markdown, render_policy_rows
from .shared import members_markdown
from .results_manifest import ManifestError, PAGE, SECTIONS, Entry, Manifest, Section, budget_share, read_json, result_kind

NOT_MEASURED = "Not measured yet."
NOT_MEASURED_NOW = "Not measured on the current default yet."
NOT_WRITTEN = "Not written yet."
MISMATCH_TITLE = "Where we do not match the paper, and why"
EARLIER_TITLE = "Earlier measurements"
EARLIER_ANCHOR = "#earlier-measurements"
SHOWN_STALE = 3  # report --check shows the diff of this many stale files, and names the rest


def _link(m: Manifest, output: Path, rel: str) -> str:
    return _rel(m.root / rel, output)


class Setting(NamedTuple):
    """What an entry measured, as its runs record it."""
    section: str
    measured: results_summary.Measured
    swept: bool    # the entry holds a sweep's static caps and per-phase oracle


def setting(e: Entry, data: Any) -> Setting | None:
    """The entry's Setting; None when the JSON does not say (such an entry is never superseded)."""
    if result_kind(data) != "comparison":
        return None
    m = results_summary.measured(data, budget_share(e.command))
    return Setting(e.section, m, bool(data.get("oracle"))) if m is not None else None


def _supersedes(later: Setting, earlier: Setting) -> bool:
    """A later result of the same setting replaces an earlier one, but only a later sweep replaces a
    sweep: a comparison without static caps would take the setting's best static cap and per-phase
    oracle out of the document."""
    same = later.section == earlier.section and later.measured.same(earlier.measured)
    return same and (later.swept or not earlier.swept)


def build(m: Manifest, e: Entry, data: Any) -> str | None:
    """The FlexHeap build an entry measured: the one its default policy (the summary's, else flexheap)
    ran on, as the result records it, else the first FlexHeap build its JDK line names (the JSON's, or
    the manifest's `jdk` where the JSON has none); None when it names none (a stock JDK, the probe)."""
    policy = m.summary.policy if m.summary is not None else relabel.DEFAULT_POLICY
    found = results_summary.build_of(data, policy) if isinstance(data, dict) else None
    if found:
        return found
    _date, jdk = _provenance(data if isinstance(data, dict) else {}, e)
    named = results_summary.BUILD.search(jdk or "")
    return named.group(1).rstrip(";,)") if named else None


def on_current(m: Manifest, e: Entry, data: Any) -> bool:
    """True when the entry measured the current default (`current_builds`); every entry is, without them."""
    if m.current_builds is None:
        return True
    return results_summary.on_builds(build(m, e, data), m.current_builds)


Split = tuple[list[Entry], list[Entry]]  # split(m): (in full, indexed)


def split(m: Manifest) -> Split:
    """(in full, indexed). The document shows in full the entries on the current default, but one a
    later entry on it measured again (the same setting; a sweep only by a later sweep) that is no
    summary row (label): each setting's newest result and newest sweep. The rest, earlier builds'
    entries first of all, are one line each in its index. Without `current_builds` every entry is in full."""
    if m.current_builds is None:
        return list(m.entries), []
    datas = [read_json(m.root / e.data) for e in m.entries]
    now = [on_current(m, e, d) for e, d in zip(m.entries, datas)]
    keys = [setting(e, d) if on else None for e, d, on in zip(m.entries, datas, now)]
    full, indexed = [], []
    for i, (e, k) in enumerate(zip(m.entries, keys)):
        later = k is not None and any(o is not None and _supersedes(o, k) for o in keys[i + 1:])
        (full if now[i] and not (later and not e.label) else indexed).append(e)
    return full, indexed


def _rel(path: Path, output: Path) -> str:
    return Path(os.path.relpath(path, output.parent)).as_posix()


def _generated(m: Manifest, output: Path, what: str) -> str:
    return (f"<!-- Generated by `./flexheap harness report` from {_rel(m.path, output)} and {what}. "
            "Do not edit: `./flexheap harness report --check` fails on any difference. -->")


def render(m: Manifest, output: Path | None = None, parts: Split | None = None) -> str:
    """The document; `parts` is split(m) when the caller has it already (it reads every entry's JSON)."""
    output = output or m.output
    full, indexed = parts or split(m)
    out = [_generated(m, output, "the result JSONs it names"),
           "",
           "# FlexHeap results",
           "",
           "Every table comes from a result JSON committed beside this file, with the exact command that "
           "produced it right above it, the date and JDK when the result records them, and its plots. "
           f"Sections without a result say so and what is missing. Regenerate with `./flexheap harness report`; "
           "add a result with `./flexheap harness report --add SECTION RUN_DIR --command \"...\"`; "
           "`./flexheap harness report --commands` lists every command to re-run.",
           ""]
    if m.current_builds is not None:
        builds = ", ".join(m.current_builds) or "none listed"
        n = len(indexed)
        data_dir = _rel(m.root / "data", output)
        out += [f"This document shows in full the entries measured on the current default, FlexHeap **{builds}** "
                f"(`current_builds` in [{m.path.name}]({_rel(m.path, output)})): each setting's newest result, its "
                f"newest static sweep (with the best static cap and the per-phase oracle) and every summary row. "
                f"The {n} other entr{'ies' if n != 1 else 'y'}, measured on earlier builds or measured again, "
                f"{'are' if n != 1 else 'is'} one line each under [{EARLIER_TITLE}]({EARLIER_ANCHOR}); every "
                f"entry's folder under [{data_dir}/]({data_dir}) has a {PAGE} with the entry in full: its "
                "command, tables, plots and notes.", ""]
    out += _aa_note(m, m.entries)
    if m.summary is not None:
        labelled = [e for e in m.entries if e.label]
        out += results_summary.render(m.summary, [(e.label, _data(m, e)) for e in labelled],
                                      [budget_share(e.command) for e in labelled])
    out += calibration.section(m)
    for sec in SECTIONS:
        out += _section(m, output, sec, [e for e in full if e.section == sec.id],
                        sum(e.section == sec.id for e in indexed))
    if m.current_builds is not None:
        out += _index(m, output, indexed)
    return "\n".join(out).rstrip() + "\n"


def _index(m: Manifest, output: Path, indexed: list[Entry]) -> list[str]:
    """The earlier measurements: one line per entry, by section, with the section's `earlier` text."""
    out = [f"## {EARLIER_TITLE}", "",
           "Entries not shown in full above: measured on builds other than the current default, or measured "
           "again on it by a later entry of the same setting, in the order they were added. A line gives the "
           f"entry's date, title and FlexHeap build, and its folder, whose {PAGE} shows it in full (command, "
           "tables, plots, notes). Compare policies within an entry, never across entries or builds.", ""]
    if not indexed:
        out += ["None yet.", ""]
    for sec in SECTIONS:
        entries = [e for e in indexed if e.section == sec.id]
        earlier = m.texts.get(sec.id, {}).get("earlier", "").strip()
        if not entries and not earlier:
            continue
        out += [f"### {sec.title}", ""]
        if earlier:
            out += [earlier, ""]
        out += [_index_line(m, output, e) for e in entries]
        out += [""] if entries else []
    return out


def _earlier(n: int) -> str:
    return f"{n} earlier measurement{'s' if n != 1 else ''}: one line each under [{EARLIER_TITLE}]({EARLIER_ANCHOR})."


def _index_line(m: Manifest, output: Path, e: Entry) -> str:
    data = _data(m, e)
    date, jdk = _provenance(data, e)
    day = re.match(r"\d{4}-\d{2}-\d{2}", date or "")
    b = build(m, e, data)
    made = f"FlexHeap {b}" if b else f"JDK {jdk}" if jdk else "no JDK recorded"
    if on_current(m, e, data):
        made += ", measured again by a later entry"
    title = relabel.relabel_text(e.title, _names(e, data))
    return (f"- {day.group(0) if day else date or 'undated'} · {title} · {made} · "
            f"[{Path(e.folder).name}/]({_link(m, output, e.page)})")


def _section(m: Manifest, output: Path, sec: Section, entries: list[Entry], earlier: int = 0) -> list[str]:
    texts = m.texts.get(sec.id, {})
    out = [f"## {sec.title}", ""]
    if texts.get("text", "").strip():
        out += [texts["text"].strip(), ""]
    if not entries and not (sec.id == "paper" and texts.get("text", "").strip()):
        marker = NOT_WRITTEN if sec.id == "paper" else NOT_MEASURED if m.current_builds is None else NOT_MEASURED_NOW
        out += [f"**{marker}** Missing: {sec.needs}" + (f" {_earlier(earlier)}" if earlier else ""), ""]
    elif earlier:
        out += [_earlier(earlier), ""]
    for e in entries:
        out += _entry(m, output, e)
    if sec.id == "paper":
        out += [f"### {MISMATCH_TITLE}", ""]
        mismatch = texts.get("mismatch", "").strip()
        out += [mismatch if mismatch else f"**{NOT_WRITTEN}** Missing: for every figure above that differs "
                "from the paper's, what differs and why (`mismatch` of `[sections.paper]` in the manifest).", ""]
    return out


def _data(m: Manifest, e: Entry) -> Any:
    """An entry's result JSON with its misnamed columns relabelled (relabel.relabel)."""
    return relabel.relabel(read_json(m.root / e.data))


def _aa_note(m: Manifest, entries: list[Entry], where: str = "in the tables below, the titles and the notes"
             ) -> list[str]:
    """The note on the A/A columns, where the document first shows one (none without one)."""
    def renamed(e: Entry) -> bool:
        data = read_json(m.root / e.data)
        return bool(relabel.misnamed(data) or relabel.prose_names(e.title + " " + e.notes, relabel.date_of(data)))
    if not any(renamed(e) for e in entries):
        return []
    return [f"**{relabel.AA_LABEL}** {where} (and `flexheap (A/A: ... "
            f"ignored)` for a variant): {relabel.AA_NOTE}. The commands above the tables keep the name they ran "
            "with.", ""]


def _names(e: Entry, data: Any) -> dict[str, str]:
    """The A/A names of the entry's columns and prose (relabel.py)."""
    names = data.get("relabelled") or {} if isinstance(data, dict) else {}
    return {**relabel.prose_names(e.title + " " + e.notes, relabel.date_of(data)), **names}


def _entry(m: Manifest, output: Path, e: Entry) -> list[str]:
    data = _data(m, e)
    names = _names(e, data)
    return [f"### {relabel.relabel_text(e.title, names)}", ""] + _body(m, output, e, data, names)


def _body(m: Manifest, output: Path, e: Entry, data: Any, names: dict[str, str]) -> list[str]:
    """The entry below its title: notes, date, JDK and data, its command, its tables and plots."""
    date, jdk = _provenance(data, e)
    out: list[str] = []
    if e.notes.strip():
        out += [relabel.relabel_text(e.notes.strip(), names), ""]
    meta = [f"Date: {date}" if date else None, f"JDK: {jdk}" if jdk else None,
            f"data: [{Path(e.data).name}]({_link(m, output, e.data)})"]
    out += [" · ".join(x for x in meta if x), "", "```sh", e.command, "```", ""]
    out += _tables(data, result_kind(data))
    if e.plots:
        out += [" ".join(f"![{Path(p).name}]({_link(m, output, p)})" for p in e.plots), ""]
    return out


def render_page(m: Manifest, e: Entry, parts: Split | None = None) -> str:
    """The entry's page, README.md in its data folder: the entry in full, as the document would show it,
    and whether it measured the current default."""
    output = m.root / e.page
    full, _indexed = parts or split(m)
    data = _data(m, e)
    names = _names(e, data)
    sec = next(s for s in SECTIONS if s.id == e.section)
    doc = f"[{m.output.name}]({_rel(m.output, output)})"
    index = f"[{EARLIER_TITLE}]({_rel(m.output, output)}{EARLIER_ANCHOR})"
    about = f"An entry of section {sec.title.split('.', 1)[0]} of the FlexHeap results, {doc}."
    if m.current_builds is not None:
        b = build(m, e, data)
        if e in full:
            about += f" Measured on the current default, FlexHeap {b}: the document shows it in full too."
        elif on_current(m, e, data):
            about += (f" Measured on the current default, FlexHeap {b}, and measured again by a later entry of "
                      f"the same setting, which the document shows; this one is a line of its {index}.")
        else:
            about += (f" **Measured on {f'FlexHeap {b}' if b else 'no FlexHeap build'}, not on the current "
                      f"default ({', '.join(m.current_builds) or 'none listed'})**: compare the policies within "
                      f"this entry, never with the current default's results. It is a line of the document's {index}.")
    out = [_generated(m, output, "the result JSON in this folder"), "",
           f"# {relabel.relabel_text(e.title, names)}", "", about, ""]
    out += _aa_note(m, [e], "below")
    out += _body(m, output, e, data, names)
    return "\n".join(out).rstrip() + "\n"


def _provenance(data: dict[str, Any], e: Entry) -> tuple[str | None, str | None]:
    """The JSON's own date and JDK, else what --add recorded in the manifest."""
    prov = data.get("provenance") or {}
    jdk = provenance.jdk_text(prov)
    if not jdk and isinstance(data.get("jvm"), dict):  # the bench's characterize JSON
        jvm = data["jvm"]
        jdk = " ".join(str(x) for x in (jvm.get("java_version"), f"({jvm['vm']})" if jvm.get("vm") else None) if x)
    return prov.get("date") or e.date, jdk or e.jdk


def _tables(data: dict[str, Any], kind: str | None) -> list[str]:
    if kind in ("characterize", "iostall-overhead"):  # the tool's own printed table
        return ["```text", str(data["table"]).rstrip(), "```", ""]
    if kind == "oracle":
        return [_blank_around_tables(oracle.render(oracle.with_verdicts(data), "github")), ""]
    parts = [render_policy_rows(data, "github"), render_markdown(data)]
    members = members_markdown(data.get("runs") or [])
    if members:
        parts.append(members.strip())
    if data.get("oracle"):
        parts.append("Best static cap and per-phase oracle of this sweep:")
        parts.append(oracle.render(oracle.with_verdicts(data["oracle"], data.get("runs")), "github"))
    return [_blank_around_tables(p.rstrip()) + "\n" for p in parts]


def _is_table(line: str) -> bool:
    return line.lstrip().startswith("|")


def _blank_around_tables(text: str) -> str:
    """Markdown needs a blank line between a table and the text next to it (else the text joins
    the table); the harness's tables are printed for terminals, without one."""
    out: list[str] = []
    for line in text.splitlines():
        if out and out[-1].strip() and line.strip() and _is_table(out[-1]) != _is_table(line):
            out.append("")
        out.append(line)
    return "\n".join(out)


# ---------------------------------------------------------------- report --check


def uncommanded_tables(markdown: str) -> list[str]:
    """Every table (markdown rows, or a ```text block) must have a non-empty ```sh command block
    above it under the same heading. Returns one message per table that has none."""
    problems: list[str] = []
    heading, commanded, fence, body, in_table = "(top of the file)", False, None, [], False
    for n, line in enumerate(markdown.splitlines(), 1):
        if fence is not None:
            if line.startswith("```"):
                commanded = commanded or (fence == "sh" and any(b.strip() for b in body))
                fence = None
            else:
                body.append(line)
            continue
        if line.startswith("```"):
            fence, body = line[3:].strip(), []
            if fence == "text" and not commanded:
                problems.append(f"line {n} (under '{heading}'): a table with no command (```sh block) above it")
            continue
        if line.startswith("#"):
            heading, commanded = line.lstrip("#").strip(), False
        table = _is_table(line)
        if table and not in_table and not commanded:
            problems.append(f"line {n} (under '{heading}'): a table with no command (```sh block) above it")
        in_table = table
    return problems


def check(m: Manifest, output: Path | None = None) -> list[str]:
    """Why the committed document and entry pages are not what the manifest and data regenerate ([] = they are)."""
    output = output or m.output
    problems: list[str] = []
    stale: list[Path] = []
    for path, want in generated(m, output):
        block = want if path != m.readme else want[want.index(README_BEGIN):want.index(README_END)]
        problems += [f"{path}: {p}" for p in uncommanded_tables(block)]  # e.g. a table in the manifest's free text
        if not path.exists():
            problems.append(f"{path} does not exist; generate it with: ./flexheap harness report")
            continue
        have = path.read_text()
        if have == want:
            continue
        stale.append(path)
        if len(stale) > SHOWN_STALE:
            continue
        problems += [f"{path}: {p}" for p in uncommanded_tables(have)]
        diff = list(difflib.unified_diff(have.splitlines(), want.splitlines(), f"{path} (committed)",
                                         f"{path} (regenerated)", lineterm="", n=1))
        shown = "\n".join(diff[:40]) + (f"\n... {len(diff) - 40} more diff lines" if len(diff) > 40 else "")
        problems.append(f"{path} is not what {m.path} and its data regenerate (stale, or edited by hand); "
                        f"regenerate it with: ./flexheap harness report\n{shown}")
    if len(stale) > SHOWN_STALE:
        problems.append(f"{len(stale) - SHOWN_STALE} more stale file(s), regenerate them with: ./flexheap harness "
                        "report: " + ", ".join(str(p) for p in stale[SHOWN_STALE:]))
    problems += [f"{p} is the page of no entry of {m.path} (left from a removed entry?): remove it"
                 for p in orphan_pages(m)]
    return problems


def generated(m: Manifest, output: Path | None = None) -> list[tuple[Path, str]]:
    """(path, text) of every file the report writes: the document, each entry's page, and the README
    with its results block (the manifest's `readme`)."""
    output = output or m.output
    parts = split(m)
    out = [(output, render(m, output, parts))] + [(m.root / e.page, render_page(m, e, parts)) for e in m.entries]
    if m.readme is not None:
        out.append((m.readme, with_readme_block(m.readme.read_text(), readme_block(m, output, parts))))
    return out


README_BEGIN, README_END = "<!-- results-summary -->", "<!-- /results-summary -->"


def with_readme_block(readme: str, block: str) -> str:
    """readme with the text between README_BEGIN and README_END replaced by block."""
    start, end = readme.find(README_BEGIN), readme.find(README_END)
    if start < 0 or end < start:
        raise ManifestError(f"the README has no {README_BEGIN} ... {README_END} block for the report to write")
    return readme[:start + len(README_BEGIN)] + "\n" + block.rstrip() + "\n" + readme[end:]


def readme_block(m: Manifest, output: Path, parts: Split | None = None) -> str:
    """The README's results: the manifest's plot (its image, command and table) and the current default's
    summary rows, compacted to the baselines some row ran, each row linked to its entry."""
    assert m.readme is not None
    base = m.readme  # _rel: relative to this file's folder
    lines = [f"<!-- Generated by `./flexheap harness report` from {_rel(m.path, base)}; `report --check` fails "
             "on any difference. -->"]
    plot = m.readme_plot
    if plot is not None:
        lines += [f"**{plot['title']}**", "", "```sh", plot["command"], "```", "",
                  f"![{plot['title']}]({_rel(m.root / plot['image'], base)})", "",
                  (m.root / plot["table"]).read_text().strip(), ""]
    if m.summary is not None:
        full, _ = parts or split(m)
        labelled = [e for e in m.entries if e.label]
        rows, _previous = results_summary.split_rows(m.summary, [(e.label, _data(m, e)) for e in labelled],
                                                     [budget_share(e.command) for e in labelled])
        pages = {e.label: _rel(m.root / e.page, base) for e in labelled}
        lines += [f"**Every setting measured on the current default** ([{_rel(output, base)}]({_rel(output, base)}), "
                  "each row's entry with its command; x = FlexHeap's time / the baseline's, paired 95% CI, "
                  "faster or slower only where Holm's correction over the table calls it and "
                  f"{stats.band_text()}):", "",
                  "```sh", "./flexheap harness report   # this table, from the labelled entries", "```", "",
                  results_summary.compact(m.summary, rows, pages)]
    return "\n".join(lines)


def write(m: Manifest, output: Path | None = None) -> list[Path]:
    """Writes the document and every entry's page; returns the files whose text changed."""
    changed = []
    for path, text in generated(m, output):
        if not path.exists() or path.read_text() != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            changed.append(path)
    return changed


def orphan_pages(m: Manifest) -> list[Path]:
    """Generated pages (data/*/README.md) in a folder that no entry's data is in."""
    named = {(m.root / e.page).resolve() for e in m.entries}
    return sorted(p for p in (m.root / "data").glob(f"*/{PAGE}") if p.resolve() not in named)


def unreferenced_data(m: Manifest) -> list[Path]:
    """Files under data/ that no entry names (left over from a removed entry); the pages are the entries'."""
    named = {(m.root / rel).resolve() for e in m.entries for rel in (e.data, *e.plots, e.page)}
    named |= {(m.root / m.readme_plot[k]).resolve() for k in ("image", "table")} if m.readme_plot else set()
    return sorted(p for p in (m.root / "data").rglob("*") if p.is_file() and p.resolve() not in named)


def commands(m: Manifest) -> str:
    """Every entry's command, in document order, as a shell script to re-run the measurements."""
    out = ["# The commands behind docs/results.md and its entries' pages, by section. Re-run one, then add its folder:",
           "#   ./flexheap harness report --add SECTION RUN_DIR --command \"THE COMMAND\" --name NEW_NAME"]
    for sec in SECTIONS:
        for e in m.in_section(sec.id):
            out += ["", f"# {sec.title} / {e.title}", e.command]
    return "\n".join(out) + "\n"
