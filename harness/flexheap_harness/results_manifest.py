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

"""docs/results/manifest.toml: which result backs each section of docs/results.md, and the
exact command that produced it.

    output = "../results.md"                 # the document, relative to the manifest
    current_builds = ["156fea6"]             # the FlexHeap builds that run today's default (below)

    [sections.paper]                         # free text per section (optional)
    text = "..."                             # above the section's entries on the current default
    mismatch = "..."                         # paper only: where we do not match it, and why
    earlier = "..."                          # above the section's lines in the index of earlier entries

    [summary]                                # the table atop the document (results_summary)
    policy = "flexheap"                      # whose time the table compares
    text = "..."
    previous_builds = ["2fa8164"]            # optional: earlier defaults'; their rows form a second table
    previous_text = "..."

An entry is on the current default when the runs of its FlexHeap policy (the summary's policy,
`flexheap`; else any FlexHeap build its result names) ran on one of `current_builds`, as the result
JSON records the JDK's FLEXHEAP_REVISION: read from the data, never declared per entry. Those
entries render in full in the document (but one a later entry of the same setting measured again,
unless it is a summary row); every other entry renders as one line in the document's index of
earlier measurements. Every entry also renders in full in a README.md generated in its own data
folder (data/NAME/README.md). Without `current_builds` every entry renders in full.

    [[entry]]                                # one result; appended by `report --add`
    section = "comparisons"                  # one of SECTIONS
    title = "M1, budget 5% of the index, nvme"
    label = "M1, 5%, nvme"                   # optional: a row of the summary, under this name
    command = "./flexheap harness sweep ..." # required: the command line that produced it
    data = "data/m1-5pct-nvme/comparison.json"
    plots = ["data/m1-5pct-nvme/timeline.png"]
    notes = "..."                            # optional
    date = "..."                             # optional, when the JSON has no provenance
    jdk = "..."

Paths are relative to the manifest. Only small JSON summaries and PNG plots are copied
into data/ (never gc logs or samples), so the document regenerates from the repository. Each entry's
files are in a folder of its own (data/NAME/, as --add makes it), which holds its generated README.md.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import re
import shlex
import shutil
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import provenance
from .jdk import repo_root
from .results_summary import HASH, Share, Summary, SummaryError, check_row
from .sizes import index_multiple


class ManifestError(ValueError):
    """A manifest or --add problem (the CLI prints it and exits 2)."""


@dataclass(frozen=True)
class Section:
    id: str
    title: str
    needs: str  # what "Not measured yet" says is missing


SECTIONS: tuple[Section, ...] = (
    Section("characterization", "1. Characterization of the query classes (paper Table 2)",
            "the bench's `characterize` on an index of at least 10x the DRAM budget (per query class: queries, "
            "GC %, storage read per query, cold read per query, beside the paper's columns): "
            "`./flexheap bench characterize --index IDX --out FILE.json`, then "
            "`./flexheap harness report --add characterization FILE.json --command \"...\"`."),
    Section("comparisons", "2. M1-M4 at budgets of 5% and 10% of the index, nvme and sata",
            "for each of M1, M2, M3, M4 x budget `0.05x` and `0.1x` x device `nvme` and `sata` (16 cells), on an "
            "index of at least 10x the budget: a `sweep --also flexheap,g1-50,g1-90,vg1,g1-26,g1-27like --reps 3` "
            "(FlexHeap against the baselines, the best static cap and the per-phase oracle; medians of 3 "
            "interleaved repetitions with 95% confidence intervals)."),
    Section("timelines", "3. Timelines (paper Fig. 11): M1 under g1-90, g1-26, vg1 and flexheap",
            "a `compare --policies g1-90,g1-26,vg1,flexheap --workload M1` folder with its `timeline.png` "
            "(committed heap, heap after GC, page cache and I/O stall over time)."),
    Section("step-sensitivity", "4. Step sensitivity (paper Fig. 13): fixed steps against the adaptive one",
            "one `compare` with the adaptive step against fixed ones in the same interleaved run: "
            "`--policies g1-90,flexheap,flexheap-paper,flexheap-paper:FlexHeapStaticStepPercent=N,...` "
            "for several N (the fixed step replaces the paper mode's logistic step)."),
    Section("services", "5. Ingest+search, OpenSearch and Spark",
            "compares of the bench's `ingest` workload and of the `opensearch:` and `spark:` workloads: ingest "
            "and search throughput and p99 per phase."),
    Section("overhead", "6. Overhead where there is nothing to gain",
            "a `compare --policies g1-90,flexheap` of a CPU-bound, I/O-free workload (e.g. `--workload alloc`; "
            "targets: < 1% time, equal peak committed heap); the iostall probe's cost per context switch "
            "(`iostall/bench/overhead`, target <= 30 ns) and its effect on a context-switch-heavy program "
            "(target < 1%): `sudo build/iostall/bench/overhead --json FILE.json`, then "
            "`./flexheap harness report --add overhead FILE.json --command \"...\"`."),
    Section("paper", "7. The paper's numbers beside ours",
            "the paper's figure beside ours for every result above where the paper has one "
            "(`text` of `[sections.paper]` in the manifest)."),
)
SECTION_IDS = tuple(s.id for s in SECTIONS)
SECTION_KEYS = {"text", "mismatch", "earlier"}
ENTRY_KEYS = {"section", "title", "command", "data", "plots", "notes", "date", "jdk", "label"}
TOP_KEYS = {"output", "current_builds", "sections", "entry", "summary", "readme", "readme_plot"}
README_PLOT_KEYS = {"image", "table", "command", "title"}
SUMMARY_KEYS = {"policy", "text", "previous_builds", "previous_text"}
# Keys of earlier manifests, and what replaced them.
MOVED_KEYS = {
    "history": "`history` is gone: entries not on `current_builds` render as one line each in the document's "
               "index of earlier measurements, and in full in their data folder's README.md; remove the key",
    "builds": "`[summary] builds` is now the top-level `current_builds` (it decides what the document shows "
              "in full, too)",
}
PAGE = "README.md"  # each entry's page, generated in its data folder

# What --add copies: the small summaries and the plots, nothing from runs/ (gc logs, samples).
RESULT_JSONS = ("comparison.json", "oracle.json")
MAX_COPY_BYTES = 4 << 20  # a summary or a plot is far smaller; a bigger file is not one


@dataclass
class Entry:
    section: str
    title: str
    command: str
    data: str
    plots: list[str] = field(default_factory=list)
    notes: str = ""
    date: str | None = None
    jdk: str | None = None
    label: str | None = None

    @property
    def folder(self) -> str:
        """The entry's own folder under data/, relative to the manifest (its page is there)."""
        return Path(self.data).parent.as_posix()

    @property
    def page(self) -> str:
        """Its generated page (README.md in its folder), relative to the manifest."""
        return f"{self.folder}/{PAGE}"


@dataclass
class Manifest:
    path: Path
    output: Path
    texts: dict[str, dict[str, str]]
    entries: list[Entry]
    summary: Summary | None = None
    # The builds of today's default (`current_builds`); None: not given, every entry renders in full.
    current_builds: tuple[str, ...] | None = None
    # The README whose block between README_BEGIN and README_END the report writes (`readme`), and the plot
    # atop that block ([readme_plot]: image and table files under the manifest's folder, their command, a title).
    readme: Path | None = None
    readme_plot: dict[str, str] | None = None

    @property
    def root(self) -> Path:
        return self.path.parent

    def in_section(self, section: str) -> list[Entry]:
        return [e for e in self.entries if e.section == section]


def default_manifest() -> Path:
    return repo_root() / "docs" / "results" / "manifest.toml"


def result_kind(data: Any) -> str | None:
    """'comparison' (compare/sweep comparison.json), 'oracle' (oracle.json), 'characterize'
    (the bench's characterize JSON), 'iostall-overhead' (`iostall/bench/overhead --json`), else None."""
    if not isinstance(data, dict):
        return None
    if {"baseline", "policies", "table"} <= data.keys():
        return "comparison"
    if "oracle_s" in data and isinstance(data.get("policies"), list):
        return "oracle"
    if data.get("workload") == "characterize" and "table" in data:
        return "characterize"
    if data.get("workload") == "iostall-overhead" and {"modes", "table"} <= data.keys():
        return "iostall-overhead"
    return None


def read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise ManifestError(f"cannot read result {path}: {e}") from None


def check_command(command: Any, where: str) -> str:
    """Every table needs the exact command that produced it; a harness command must also parse."""
    if not isinstance(command, str) or not command.strip():
        raise ManifestError(f"{where} has no command: every result needs the exact command line that "
                            "produced it (--command \"...\" with --add, `command = \"...\"` in the manifest)")
    try:
        words = shlex.split(command)
    except ValueError as e:
        raise ManifestError(f"{where}: command is not a valid shell line ({e}): {command}") from None
    harness_args = _harness_args(words)
    if harness_args is not None:
        try:
            _parse_harness(harness_args)
        except SystemExit:
            raise ManifestError(f"{where}: not a valid harness command line (see the message above): "
                                f"{command}") from None
    return command.strip()


def budget_share(command: str | None) -> Share | None:
    """(F, its --index) of a harness command whose --budget is a multiple F of the data (`Fx`; the
    index is None for a service's own data); None for an absolute budget or another program. The
    command is read by the harness's own parser, as check_command validated it."""
    try:
        harness_args = _harness_args(shlex.split(command or ""))
        args = _parse_harness(harness_args) if harness_args is not None else None
    except (ValueError, SystemExit):
        return None
    multiple = index_multiple(str(getattr(args, "budget", None) or ""))
    index = getattr(args, "index", None)
    return None if multiple is None else (multiple, None if index is None else str(index))


def _parse_harness(harness_args: list[str]) -> argparse.Namespace:
    if "--" in harness_args:
        harness_args = harness_args[:harness_args.index("--")]  # the program after '--' is not ours
    return _harness_parser().parse_args(harness_args)


@functools.cache
def _harness_parser() -> argparse.ArgumentParser:
    """The harness's parser, built once: a report reads every entry's command two or three times
    (check_command, budget_share), and building the parser costs ~20x parsing with it."""
    from .cli import build_parser
    return build_parser()


def _harness_args(words: list[str]) -> list[str] | None:
    """The harness arguments of './flexheap harness ...', 'flexheap-bench ...' or
    'python -m flexheap_harness ...'; None for other programs (bench, iostall), not checked."""
    while words and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", words[0]):
        words = words[1:]  # VAR=value prefixes
    if len(words) >= 2 and Path(words[0]).name == "flexheap" and words[1] == "harness":
        return words[2:]
    if words and Path(words[0]).name == "flexheap-bench":
        return words[1:]
    if len(words) >= 3 and words[1:3] == ["-m", "flexheap_harness"]:
        return words[3:]
    return None


def load(path: Path) -> Manifest:
    try:
        raw = tomllib.loads(path.read_text())
    except OSError as e:
        raise ManifestError(f"cannot read the manifest {path}: {e}") from None
    except tomllib.TOMLDecodeError as e:
        raise ManifestError(f"{path}: not valid TOML: {e}") from None
    _moved(raw, f"{path}")
    _no_unknown(raw, TOP_KEYS, f"{path}")
    texts: dict[str, dict[str, str]] = {}
    for sid, body in (raw.get("sections") or {}).items():
        if sid not in SECTION_IDS:
            raise ManifestError(f"{path}: unknown section [sections.{sid}]; sections: {', '.join(SECTION_IDS)}")
        _no_unknown(body, SECTION_KEYS, f"{path} [sections.{sid}]")
        texts[sid] = {k: str(v) for k, v in body.items()}
    current = _current_builds(path, raw)
    summary = _summary(path, raw["summary"], current) if "summary" in raw else None
    entries = [_entry(path, i, e, summary) for i, e in enumerate(raw.get("entry") or [], 1)]
    _own_folders(path, entries)
    output = Path(os.path.normpath(path.parent / raw.get("output", "results.md")))
    readme = Path(os.path.normpath(path.parent / raw["readme"])) if "readme" in raw else None
    return Manifest(path, output, texts, entries, summary, current, readme, _readme_plot(path, raw))


def _readme_plot(path: Path, raw: dict[str, Any]) -> dict[str, str] | None:
    plot = raw.get("readme_plot")
    if plot is None:
        return None
    _no_unknown(plot, README_PLOT_KEYS, f"{path} [readme_plot]")
    missing = sorted(README_PLOT_KEYS - set(plot))
    if missing:
        raise ManifestError(f"{path} [readme_plot]: needs {', '.join(missing)}")
    for key in ("image", "table"):
        if not (path.parent / plot[key]).is_file():
            raise ManifestError(f"{path} [readme_plot]: {key} {plot[key]} is not a file under {path.parent}")
    return {k: str(v) for k, v in plot.items()}


def _moved(raw: Any, where: str) -> None:
    for key, table in (("history", raw), ("builds", raw.get("summary") if isinstance(raw, dict) else None)):
        if isinstance(table, dict) and key in table:
            raise ManifestError(f"{where}: {MOVED_KEYS[key]}")


def _current_builds(path: Path, raw: dict[str, Any]) -> tuple[str, ...] | None:
    if "current_builds" not in raw:
        if "summary" in raw:
            raise ManifestError(f"{path}: the [summary] needs `current_builds`, the builds of today's default "
                                "(commit hashes, as the results' JDK lines name them)")
        return None
    builds = raw["current_builds"]
    if not isinstance(builds, list) or not all(isinstance(b, str) and HASH.fullmatch(b) for b in builds):
        raise ManifestError(f"{path}: current_builds must be a list of commit hashes (7-40 hex digits), "
                            f"not {builds!r}")
    return tuple(builds)


def _own_folders(path: Path, entries: list[Entry]) -> None:
    """Each entry's files in a folder of its own under data/: the folder holds its generated page."""
    owner: dict[str, int] = {}
    for i, e in enumerate(entries, 1):
        parts = Path(e.data).parts
        if len(parts) != 3 or parts[0] != "data":
            raise ManifestError(f"{path}: entry {i} ({e.title!r}): {e.data} is not in a folder of its own under "
                                f"data/ (data/NAME/{Path(e.data).name}, as --add copies it): the folder holds the "
                                f"entry's generated {PAGE}")
        if e.folder in owner:
            raise ManifestError(f"{path}: entries {owner[e.folder]} and {i} share {e.folder}/: each entry's "
                                f"files go in a folder of its own (it holds the entry's generated {PAGE})")
        owner[e.folder] = i


def _summary(path: Path, raw: Any, current: tuple[str, ...] | None) -> Summary:
    where = f"{path} [summary]"
    _no_unknown(raw, SUMMARY_KEYS, where)
    policy, builds = raw.get("policy"), current or ()
    if not isinstance(policy, str) or not policy.strip():
        raise ManifestError(f"{where}: no policy (the policy whose time the summary compares)")
    previous = raw.get("previous_builds", [])
    if not isinstance(previous, list) or not all(isinstance(b, str) and HASH.fullmatch(b) for b in previous):
        raise ManifestError(f"{where}: previous_builds must be a list of commit hashes (7-40 hex digits), "
                            f"not {previous!r}")
    both = sorted(set(builds) & set(previous))
    if both:
        raise ManifestError(f"{where}: {', '.join(both)} in both current_builds and previous_builds")
    return Summary(policy.strip(), tuple(builds), str(raw.get("text") or ""), tuple(previous),
                   str(raw.get("previous_text") or ""))


def _no_unknown(table: Any, allowed: set[str], where: str) -> None:
    if not isinstance(table, dict):
        raise ManifestError(f"{where}: expected a table")
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise ManifestError(f"{where}: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(sorted(allowed))}")


def _entry(path: Path, i: int, raw: Any, summary: Summary | None = None) -> Entry:
    where = f"{path}: entry {i}" + (f" ({raw.get('title')!r})" if isinstance(raw, dict) and raw.get("title") else "")
    _no_unknown(raw, ENTRY_KEYS, where)
    if raw.get("section") not in SECTION_IDS:
        raise ManifestError(f"{where}: section {raw.get('section')!r} is not one of {', '.join(SECTION_IDS)}")
    command = check_command(raw.get("command"), where)
    for key in ("title", "data"):
        if not isinstance(raw.get(key), str) or not raw[key].strip():
            raise ManifestError(f"{where}: no {key}")
    label = raw.get("label")
    if label is not None and (not isinstance(label, str) or not label.strip()):
        raise ManifestError(f"{where}: label must be a non-empty string")
    e = Entry(raw["section"], raw["title"], command, raw["data"], list(raw.get("plots") or []),
              str(raw.get("notes") or ""), raw.get("date"), raw.get("jdk"), label)
    for rel in [e.data, *e.plots]:
        if not (path.parent / rel).is_file():
            raise ManifestError(f"{where}: {rel} does not exist next to the manifest (expected "
                                f"{path.parent / rel})")
    data = read_json(path.parent / e.data)
    if result_kind(data) is None:
        raise ManifestError(f"{where}: {e.data} is not a comparison.json, oracle.json or bench characterize JSON")
    if label is not None:
        if summary is None:
            raise ManifestError(f"{where}: has a label but the manifest has no [summary] (policy, and "
                                "current_builds)")
        try:
            check_row(data, summary, where)
        except SummaryError as err:
            raise ManifestError(str(err)) from None
    return e


# ---------------------------------------------------------------- report --add


def _toml_str(s: str) -> str:
    # JSON string escapes are valid TOML basic-string escapes; TOML also wants DEL escaped.
    return json.dumps(s, ensure_ascii=False).replace("\x7f", "\\u007f")


def entry_toml(e: Entry) -> str:
    lines = ["", "[[entry]]", f"section = {_toml_str(e.section)}", f"title = {_toml_str(e.title)}",
             f"command = {_toml_str(e.command)}", f"data = {_toml_str(e.data)}"]
    if e.plots:
        lines.append("plots = [" + ", ".join(_toml_str(p) for p in e.plots) + "]")
    for key in ("label", "notes", "date", "jdk"):
        if getattr(e, key):
            lines.append(f"{key} = {_toml_str(getattr(e, key))}")
    return "\n".join(lines) + "\n"


def files_to_copy(src: Path) -> tuple[list[Path], list[str]]:
    """(files --add copies, what it leaves behind). A folder gives its entry's JSON (comparison.json,
    which holds a sweep's oracle too, else oracle.json) and top-level PNGs: only files the entry
    names, so none is left orphaned; a file must be a result JSON itself."""
    if src.is_file():
        if src.suffix != ".json" or result_kind(read_json(src)) is None:
            raise ManifestError(f"{src} is not a result JSON (comparison.json, oracle.json or the bench's "
                                "characterize JSON); give the file or its compare/sweep folder")
        return [src], []
    if not src.is_dir():
        raise ManifestError(f"{src} does not exist")
    jsons = [src / n for n in RESULT_JSONS if (src / n).is_file()][:1]
    if not jsons:
        raise ManifestError(f"{src} has no {' or '.join(RESULT_JSONS)}: give a compare or sweep folder "
                            "(or a result JSON file)")
    pngs = sorted(p for p in src.glob("*.png") if p.is_file())
    chosen = set(jsons + pngs)
    left = sorted(p.name + ("/" if p.is_dir() else "") for p in src.iterdir() if p not in chosen)
    return jsons + pngs, left


def _default_title(data: Any, kind: str, src: Path) -> str:
    if kind == "comparison":
        runs = data.get("runs") or [{}]
        r = runs[0]
        from .sizes import format_size
        parts = [str(r.get("workload") or src.name)]
        if r.get("budget"):
            parts.append(f"budget {format_size(r['budget'])}")
        if r.get("device"):
            parts.append(f"device {r['device']}")
        return ", ".join(parts) + ": " + ", ".join(data["policies"])
    if kind == "characterize":
        return f"characterize, scale {data.get('scale')}"
    if kind == "iostall-overhead":
        return f"iostall probe overhead, {data.get('rounds')} rounds x {data.get('seconds_per_run')} s"
    return src.stem if src.is_file() else src.name


def _provenance_of_folder(src: Path, primary: Path, data: Any) -> tuple[str | None, str | None]:
    """(date, jdk) for a result whose JSON has no provenance block (older folders): the JSON's
    modification time and the JDK release files named by runs/*/config.json."""
    if isinstance(data, dict) and (data.get("provenance") or data.get("jvm")):
        return None, None  # the renderer reads them from the JSON
    runs = []
    for config in sorted(src.glob("runs/*/config.json")) if src.is_dir() else []:
        try:
            policy = (json.loads(config.read_text()).get("policy") or {}).get("name")
        except (OSError, ValueError):
            continue
        runs.append({"run_dir": str(config.parent), "policy": policy})
    return provenance.utc_date(primary.stat().st_mtime), provenance.jdk_text(provenance.of_runs(runs))


def add(manifest_path: Path, section: str, src: Path, command: str, title: str | None = None,
        notes: str = "", name: str | None = None, label: str | None = None) -> tuple[Entry, list[str]]:
    """Copies a result into <manifest dir>/data/<name>/ and appends its [[entry]].
    Returns (the entry, what was not copied)."""
    if section not in SECTION_IDS:
        raise ManifestError(f"unknown section {section!r}; sections: {', '.join(SECTION_IDS)}")
    command = check_command(command, f"--add {section} {src}")
    manifest = load(manifest_path)  # refuse to append to a broken manifest
    files, left = files_to_copy(src)
    for f in files:
        if f.stat().st_size > MAX_COPY_BYTES:
            raise ManifestError(f"{f} is {f.stat().st_size >> 20} MiB: not a summary or a plot; not copied")
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", name or (src.stem if src.is_file() else src.name))
    dest = manifest.root / "data" / name
    if dest.exists():
        raise ManifestError(f"{dest} exists already: choose another --name (or remove the old entry and folder)")
    primary = files[0]
    data = read_json(primary)
    date, jdk = _provenance_of_folder(src, primary, data)
    rel = os.path.relpath(dest, manifest.root)
    entry = Entry(section, title or _default_title(data, result_kind(data) or "", src), command,
                  f"{rel}/{primary.name}", [f"{rel}/{p.name}" for p in files if p.suffix == ".png"],
                  notes, date, jdk, label)
    text = manifest_path.read_text()
    dest.mkdir(parents=True)
    try:
        for f in files:
            shutil.copy2(f, dest / f.name)
        manifest_path.write_text(text + entry_toml(entry))
        load(manifest_path)  # the appended entry parses and validates
    except BaseException:
        manifest_path.write_text(text)
        shutil.rmtree(dest, ignore_errors=True)
        raise
    return entry, left
