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

"""`report`: docs/results.md from a manifest and result JSONs (tests/data/results), the missing
sections, --check against stale or hand-edited documents and tables without a command, entries
without a command refused, --add copying only result JSONs and plots; the current default
(`current_builds`): its entries in full, every other entry one line of the index and in full on its
data folder's generated page, which --check verifies too."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest

from flexheap_harness import cli, results_manifest, results_report, results_summary
from flexheap_harness.jdk import repo_root
from flexheap_harness.results_manifest import SECTIONS, ManifestError

DATA = Path(__file__).parent / "data" / "results"
COMPARE_CMD = ("./flexheap harness compare --policies g1-90,flexheap,vg1 --reps 3 --budget 0.05x "
               "--index /idx --workload M1 --device nvme --out results/m1")
SWEEP_CMD = ("./flexheap harness sweep --fractions 0.3,0.9 --also flexheap --reps 3 --budget 0.1x "
             "--index /idx --workload M2 --device sata --out results/m2")
CHAR_CMD = "./flexheap bench characterize --index /idx --scale 0.1 --out char.json"
HEADER = 'output = "../results.md"\n\n[sections.paper]\ntext = ""\nmismatch = ""\n'


def with_current(*builds: str) -> str:
    """HEADER with current_builds (a top-level key: before the first table)."""
    listed = ", ".join(f'"{b}"' for b in builds)
    return HEADER.replace('output = "../results.md"\n', f'output = "../results.md"\ncurrent_builds = [{listed}]\n')


def entry(section: str, title: str, data: str, command: str | None, plots: list[str] = ()) -> str:
    lines = ["", "[[entry]]", f'section = "{section}"', f'title = "{title}"', f'data = "{data}"']
    if command is not None:
        lines.append(f"command = {json.dumps(command)}")
    if plots:
        lines.append("plots = [" + ", ".join(f'"{p}"' for p in plots) + "]")
    return "\n".join(lines) + "\n"


@pytest.fixture
def docs(tmp_path) -> Path:
    """tmp/docs/results/{manifest.toml, data/...} with the fixture JSONs; returns the manifest."""
    root = tmp_path / "docs" / "results"
    (root / "data" / "m1").mkdir(parents=True)
    (root / "data" / "m2").mkdir()
    shutil.copy(DATA / "compare-m1.json", root / "data" / "m1" / "comparison.json")
    shutil.copy(DATA / "timeline.png", root / "data" / "m1" / "timeline.png")
    shutil.copy(DATA / "sweep-m2.json", root / "data" / "m2" / "comparison.json")
    (root / "data" / "char").mkdir()
    shutil.copy(DATA / "characterize.json", root / "data" / "char" / "char.json")
    manifest = root / "manifest.toml"
    manifest.write_text(HEADER
                        + entry("characterization", "Query classes, scale 0.1", "data/char/char.json", CHAR_CMD)
                        + entry("comparisons", "M1, 5% of the index, nvme", "data/m1/comparison.json", COMPARE_CMD,
                                ["data/m1/timeline.png"])
                        + entry("comparisons", "M2 sweep, 10%, sata", "data/m2/comparison.json", SWEEP_CMD))
    return manifest


def report(manifest: Path, *extra: str) -> int:
    return cli.main(["report", "--manifest", str(manifest), *extra])


def block_after(md: str, heading: str) -> str:
    start = md.index(heading)
    nxt = md.find("\n#", start + len(heading))
    return md[start:nxt if nxt > 0 else None]


def test_render_tables_with_ci_and_their_commands(docs):
    md = results_report.render(results_manifest.load(docs))
    m1 = block_after(md, "### M1, 5% of the index, nvme")
    # The command sits in a code block right above the tables.
    assert f"```sh\n{COMPARE_CMD}\n```\n\n| policy" in m1
    rows = {ln.split("|")[1].strip(): ln for ln in m1.splitlines() if ln.startswith("| ")}
    # a result written before the paired interval: three runs a side that the bootstrap interval puts apart,
    # but 2 of the 20 ways to split six runs are as far apart (p = 0.1): not called
    assert "x0.50" in rows["flexheap"] and "0.42-0.60" in rows["flexheap"] and "no difference" in rows["flexheap"]
    assert "no difference" in rows["vg1"] and "[10.4..11.1]" in rows["vg1"]
    assert "x0.50 (CI 0.42-0.60)" in m1  # the full table: median [min..max] and ratio with its CI
    assert "Date: 2026-11-20 10:00 UTC · JDK: 25.0.3+9-LTS (Eclipse Adoptium), FlexHeap abc1234" in m1
    assert "[comparison.json](results/data/m1/comparison.json)" in m1
    assert "![timeline.png](results/data/m1/timeline.png)" in m1  # relative to docs/results.md
    m2 = block_after(md, "### M2 sweep, 10%, sata")
    assert "of per-phase oracle" in m2 and "sum (per-phase oracle)" in m2 and "static:1024m" in m2
    char = block_after(md, "### Query classes, scale 0.1")
    assert f"```sh\n{CHAR_CMD}\n```\n\n```text\nclass    queries" in char
    assert "JDK: 25.0.3 (OpenJDK 64-Bit Server VM)" in char
    assert results_report.uncommanded_tables(md) == []
    # Tables are markdown tables: a blank line parts them from the text around them.
    lines = md.splitlines()
    for a, b in zip(lines, lines[1:]):
        if a.startswith("|") != b.startswith("|"):
            assert not a.strip() or not b.strip(), (a, b)


def test_sections_without_results_say_what_is_missing(docs):
    docs.write_text(HEADER + entry("comparisons", "M1", "data/m1/comparison.json", COMPARE_CMD))
    md = results_report.render(results_manifest.load(docs))
    headings = [ln[3:] for ln in md.splitlines() if ln.startswith("## ")]
    assert headings == [s.title for s in SECTIONS]  # all seven, none dropped
    for sec in SECTIONS:
        body = block_after(md, f"## {sec.title}")
        if sec.id == "comparisons":
            assert "Not measured yet" not in body
        elif sec.id == "paper":
            assert f"**Not written yet.** Missing: {sec.needs}" in body
        else:
            assert f"**Not measured yet.** Missing: {sec.needs}" in body
    assert "### Where we do not match the paper, and why\n\n**Not written yet.**" in md


def test_free_text_of_the_paper_section(docs):
    docs.write_text(docs.read_text().replace('text = ""\nmismatch = ""',
                                             'text = "Paper Fig. 7: 1.8x."\nmismatch = "Our index is smaller."'))
    md = results_report.render(results_manifest.load(docs))
    assert "Paper Fig. 7: 1.8x." in md and "Our index is smaller." in md and "Not written yet" not in md


def test_check_passes_on_the_generated_document_and_fails_when_stale_or_edited(docs, capsys):
    assert report(docs) == 0
    out = docs.parent.parent / "results.md"
    assert report(docs, "--check") == 0
    good = out.read_text()
    out.write_text(good.replace("x0.50", "x0.40", 1))  # a number edited by hand
    assert report(docs, "--check") == 1
    err = capsys.readouterr().err
    assert "stale, or edited by hand" in err and "-| flexheap" in err and "./flexheap harness report" in err
    out.write_text(good)
    shutil.copytree(docs.parent / "data" / "m1", docs.parent / "data" / "new")
    docs.write_text(docs.read_text() + entry("timelines", "New", "data/new/comparison.json", COMPARE_CMD))
    assert report(docs, "--check") == 1  # the manifest changed, the document did not: stale
    assert "stale" in capsys.readouterr().err
    out.unlink()
    assert report(docs, "--check") == 1 and "does not exist" in capsys.readouterr().err


def test_check_finds_a_table_without_its_command(docs, capsys):
    table = "| ours | paper |\n|---|---|\n| 1.8x | 2.1x |"
    base = docs.read_text()
    docs.write_text(base.replace('text = ""', f"text = {json.dumps(table)}", 1))
    assert report(docs) == 0  # written, but --check refuses it
    assert report(docs, "--check") == 1
    assert "(under '7. The paper's numbers beside ours'): a table with no command" in capsys.readouterr().err
    with_cmd = f"```sh\n{COMPARE_CMD}\n```\n\n{table}"
    docs.write_text(base.replace('text = ""', f"text = {json.dumps(with_cmd)}", 1))
    assert report(docs) == 0 and report(docs, "--check") == 0


def test_uncommanded_tables():
    ok = "## A\n\n```sh\ncmd\n```\n\n| a |\n|---|\n\n```text\nt\n```\n"
    assert results_report.uncommanded_tables(ok) == []
    assert len(results_report.uncommanded_tables("## A\n\n| a |\n|---|\n")) == 1
    # A command under another heading does not count, nor does an empty one.
    assert len(results_report.uncommanded_tables("## A\n```sh\ncmd\n```\n## B\n| a |\n")) == 1
    assert len(results_report.uncommanded_tables("## A\n```sh\n\n```\n```text\nt\n```\n")) == 1


def test_an_entry_without_a_command_is_refused(docs, capsys):
    docs.write_text(HEADER + entry("comparisons", "M1", "data/m1/comparison.json", None))
    with pytest.raises(ManifestError, match="has no command"):
        results_manifest.load(docs)
    assert report(docs) == 2
    assert "entry 1 ('M1') has no command" in capsys.readouterr().err
    assert report(docs, "--check") == 1
    assert "has no command" in capsys.readouterr().err
    docs.write_text(HEADER + entry("comparisons", "M1", "data/m1/comparison.json", "  "))
    assert report(docs, "--check") == 1


def test_a_harness_command_must_parse(docs, capsys):
    docs.write_text(HEADER + entry("comparisons", "M1", "data/m1/comparison.json",
                                   "./flexheap harness compare --polcies g1-90"))
    assert report(docs) == 2
    assert "not a valid harness command line" in capsys.readouterr().err


@pytest.mark.parametrize("bad, message", [
    ('[sections.nope]\ntext = "x"\n', "unknown section [sections.nope]"),
    (entry("results", "x", "data/m1/comparison.json", COMPARE_CMD), "section 'results' is not one of"),
    (entry("comparisons", "x", "data/missing.json", COMPARE_CMD), "data/missing.json does not exist"),
    (entry("comparisons", "x", "data/m1/timeline.png", COMPARE_CMD), "cannot read result"),
    ('[[entry]]\nsection = "comparisons"\ncomand = "x"\n', "unknown key(s) comand"),
])
def test_manifest_mistakes_are_named(docs, capsys, bad, message):
    docs.write_text(HEADER + bad)
    assert report(docs) == 2
    assert message in capsys.readouterr().err


@pytest.fixture
def run_folder(tmp_path) -> Path:
    """A finished compare folder: result JSONs and plots beside runs/ with logs and samples."""
    d = tmp_path / "20260101-120000-compare"
    run = d / "runs" / "r1-g1-90"
    run.mkdir(parents=True)
    for name in ("gc.log", "samples.csv", "summary.json", "stderr.log"):
        (run / name).write_text("x\n")
    (run / "config.json").write_text(json.dumps({"jdk": "/gone/jdk", "policy": {"name": "g1-90"}}))
    shutil.copy(DATA / "compare-m1.json", d / "comparison.json")
    shutil.copy(DATA / "oracle.json", d / "oracle.json")
    shutil.copy(DATA / "timeline.png", d / "timeline.png")
    (d / "comparison.md").write_text("| table |\n")
    (d / "samples.csv").write_text("t\n")
    return d


def test_add_copies_only_result_jsons_and_plots(docs, run_folder, capsys):
    assert report(docs, "--add", "timelines", str(run_folder), "--command", COMPARE_CMD,
                  "--notes", "Median run per policy.") == 0
    out = capsys.readouterr().out
    assert "not copied (only the entry's result JSON and PNG plots are): comparison.md, oracle.json, runs/, samples.csv" in out
    dest = docs.parent / "data" / run_folder.name
    # the copied files, and the entry's page the report wrote beside them
    assert sorted(p.name for p in dest.rglob("*")) == ["README.md", "comparison.json", "timeline.png"]
    m = results_manifest.load(docs)
    e = m.entries[-1]
    assert (e.section, e.command, e.notes) == ("timelines", COMPARE_CMD, "Median run per policy.")
    assert e.data == f"data/{run_folder.name}/comparison.json" and e.plots == [f"data/{run_folder.name}/timeline.png"]
    assert e.title == f"{run_folder.name}: g1-90, flexheap, vg1"  # no workload/budget in the fixture runs
    assert report(docs, "--check") == 0  # --add regenerated the document
    assert "named by no entry" not in capsys.readouterr().err  # every copied file is the entry's
    md = (docs.parent.parent / "results.md").read_text()
    assert "Median run per policy." in block_after(md, f"### {e.title}")
    # The same folder twice is refused (another --name adds it again).
    with pytest.raises(ManifestError, match="exists already"):
        results_manifest.add(docs, "timelines", run_folder, COMPARE_CMD)


def test_add_refuses_without_a_command_or_with_a_non_result(docs, run_folder, capsys):
    before = docs.read_text()
    assert report(docs, "--add", "timelines", str(run_folder)) == 2
    assert "--add needs --command" in capsys.readouterr().err
    assert report(docs, "--add", "timelines", str(run_folder), "--command", "") == 2
    assert "has no command" in capsys.readouterr().err
    assert report(docs, "--add", "timelines", str(run_folder / "samples.csv"), "--command", COMPARE_CMD) == 2
    assert "is not a result JSON" in capsys.readouterr().err
    assert report(docs, "--add", "timelines", str(run_folder / "runs"), "--command", COMPARE_CMD) == 2
    assert "has no comparison.json or oracle.json" in capsys.readouterr().err
    assert report(docs, "--add", "nope", str(run_folder), "--command", COMPARE_CMD) == 2
    assert "unknown section 'nope'" in capsys.readouterr().err
    assert docs.read_text() == before and not (docs.parent / "data" / run_folder.name).exists()


def test_add_refuses_a_file_too_big_to_be_a_summary(docs, run_folder, monkeypatch):
    monkeypatch.setattr(results_manifest, "MAX_COPY_BYTES", 100)
    with pytest.raises(ManifestError, match="not a summary or a plot"):
        results_manifest.add(docs, "timelines", run_folder, COMPARE_CMD)


def test_add_a_single_json_and_record_provenance_of_an_old_folder(docs, run_folder):
    e, left = results_manifest.add(docs, "characterization", DATA / "characterize.json", CHAR_CMD)
    assert e.data == "data/characterize/characterize.json" and left == [] and e.date is None
    data = json.loads((run_folder / "comparison.json").read_text())
    del data["provenance"]  # a folder from before the harness recorded it
    (run_folder / "comparison.json").write_text(json.dumps(data))
    e, _ = results_manifest.add(docs, "timelines", run_folder, COMPARE_CMD, title="old")
    assert e.date and e.date.endswith("UTC") and e.jdk == "/gone/jdk"
    md = results_report.render(results_manifest.load(docs))
    assert f"Date: {e.date} · JDK: /gone/jdk" in block_after(md, "### old")


def test_commands_lists_every_command_in_document_order(docs, capsys):
    assert report(docs, "--commands") == 0
    out = capsys.readouterr().out
    assert out.index(CHAR_CMD) < out.index(COMPARE_CMD) < out.index(SWEEP_CMD)
    assert "report --add SECTION RUN_DIR" in out


def test_the_committed_results_document_is_up_to_date(capsys):
    """docs/results.md is exactly what docs/results/manifest.toml and its data regenerate."""
    manifest = repo_root() / "docs" / "results" / "manifest.toml"
    assert report(manifest, "--check") == 0, capsys.readouterr().err


def test_comparison_json_records_date_and_jdk(tmp_path):
    from flexheap_harness import compare, provenance
    home = tmp_path / "jdk"
    home.mkdir()
    (home / "release").write_text('JAVA_VERSION="25.0.3"\nJAVA_RUNTIME_VERSION="25.0.3+9-LTS"\n'
                                  'IMPLEMENTOR="Eclipse Adoptium"\nFLEXHEAP_REVISION="abc1234"\n')
    runs = []
    for policy in ("g1-90", "flexheap"):
        rd = tmp_path / "runs" / f"r1-{policy}"
        rd.mkdir(parents=True)
        (rd / "config.json").write_text(json.dumps({"jdk": str(home)}))
        runs.append({"policy": policy, "ok": True, "total_s": 1.0, "run_dir": str(rd)})
    compare._write(tmp_path, runs, "g1-90")
    prov = json.loads((tmp_path / "comparison.json").read_text())["provenance"]
    assert prov["jdks"] == [{"jdk": "25.0.3+9-LTS (Eclipse Adoptium), FlexHeap abc1234",
                             "policies": ["g1-90", "flexheap"]}]
    assert prov["date"].endswith(" UTC") and provenance.jdk_text(prov).endswith("FlexHeap abc1234")


PROBE_CMD = "sudo build/iostall/bench/overhead --json probe.json 0.25 41"


def test_the_probe_overhead_json_renders_its_table_under_its_command(docs):
    # The fixture is a real `overhead --json` output: its modes and its printed table.
    data = json.loads((DATA / "iostall-overhead.json").read_text())
    assert results_manifest.result_kind(data) == "iostall-overhead"
    assert set(data["modes"]) == {"off", "empty", "untracked", "tracked"}
    e, left = results_manifest.add(docs, "overhead", DATA / "iostall-overhead.json", PROBE_CMD)
    assert left == [] and e.title.startswith("iostall probe overhead, ")
    md = results_report.render(results_manifest.load(docs))
    block = block_after(md, f"### {e.title}")
    assert f"```sh\n{PROBE_CMD}\n```\n\n```text\nping-pong on cpu" in block
    assert "probe's own cost" in block and results_report.uncommanded_tables(md) == []
    # A JSON without its modes is not a probe result.
    del data["modes"]
    assert results_manifest.result_kind(data) is None


# ---------------------------------------------------------------- the summary table


SUMMARY = '\n[summary]\npolicy = "flexheap"\ntext = "The default, setting by setting."\n'
EARLIER = SUMMARY + 'previous_builds = ["abc1234"]\n'  # with with_current("def5678"): abc1234 is an earlier default


def labelled(manifest: Path, label: str, title: str) -> None:
    """Adds label = ... to the entry titled title."""
    text = manifest.read_text()
    anchor = f'title = "{title}"\n'
    assert anchor in text
    manifest.write_text(text.replace(anchor, anchor + f'label = "{label}"\n'))


def summary_rows(md: str) -> dict[str, list[str]]:
    block = block_after(md, "## Summary: the default against every baseline")
    return {cells[0]: cells[1:] for cells in
            ([c.strip() for c in ln.strip("|").split("|")] for ln in block.splitlines() if ln.startswith("| "))}


def with_sweep_provenance(docs: Path, scale: float = 1.0) -> None:
    """The sweep fixture as if it ran on abc1234, flexheap's times scaled."""
    path = docs.parent / "data" / "m2" / "comparison.json"
    data = json.loads(path.read_text())
    data["provenance"] = {"date": "2026-11-21 10:00 UTC", "jdks": [
        {"jdk": "25.0.3+9-LTS (Eclipse Adoptium), FlexHeap abc1234", "policies": data["policies"]}]}
    for r in data["runs"]:
        if r["policy"] == "flexheap":
            r["total_s"] *= scale
    path.write_text(json.dumps(data))


def test_the_summary_pairs_the_default_with_every_baseline_by_repetition(docs):
    docs.write_text(docs.read_text().replace(HEADER, with_current("abc1234") + SUMMARY))
    labelled(docs, "M1 5% nvme", "M1, 5% of the index, nvme")
    md = results_report.render(results_manifest.load(docs))
    assert md.index("## Summary: the default against every baseline") < md.index("## 1. ")
    assert "The default, setting by setting." in md
    row = summary_rows(md)["M1 5% nvme"]
    header = summary_rows(md)["setting"]
    cell = dict(zip(header, row))
    assert cell["flexheap [s]"] == "5.5"  # the median of its three runs
    assert cell["x g1-90"] == "x0.50 (0.50-0.50) faster"  # 5/10, 5.5/11, 6/12: one ratio, no spread
    # vg1: 5/10.4, 5.5/10.8, 6/11.1 -> geometric mean 0.510, paired t interval
    assert cell["x vg1"].startswith("x0.51 (") and cell["x vg1"].endswith(") faster")
    assert cell["x g1-50"] == "-" and cell["x g1-26"] == "-"  # not run in that entry
    assert cell["x best static cap"] == "-" and cell["of per-phase oracle"] == "-"  # no sweep
    assert "Cells where flexheap is slower: 0; faster: 2 (of 2 with a CI)." in md
    assert results_report.uncommanded_tables(md) == []  # the summary has its command block


def test_the_vendor_default_and_the_previous_default_are_columns_only_where_a_row_ran_them():
    plain = [("a", {"policies": ["flexheap", "g1-50"]})]
    assert "vendor-50" not in results_summary.columns("flexheap", plain)
    assert "flexheap@old" not in results_summary.columns("flexheap", plain)
    both = plain + [("b", {"policies": ["flexheap", "vendor-50", "flexheap@old"]})]
    cols = results_summary.columns("flexheap", both)
    # the operators' baseline beside the stock policies, the previous default beside the A/A columns
    assert cols.index("vg1") < cols.index("vendor-50") < cols.index("g1-26") < cols.index("flexheap@old")


def test_the_summary_shows_the_best_static_cap_the_oracle_and_a_loss(docs):
    docs.write_text(docs.read_text().replace(HEADER, with_current("abc1234") + SUMMARY))
    with_sweep_provenance(docs)
    labelled(docs, "M2 10% sata", "M2 sweep, 10%, sata")
    cell = dict(zip(*(lambda r: (r["setting"], r["M2 10% sata"]))(summary_rows(
        results_report.render(results_manifest.load(docs))))))
    assert cell["x best static cap"].startswith("x0.82 (") and cell["x best static cap"].endswith("faster [1024m]")
    assert cell["of per-phase oracle"] == "85% (78-92%)"  # the sweep's own oracle figures
    with_sweep_provenance(docs, scale=2.0)  # now flexheap takes 52-56 s against 32-34 s
    md = results_report.render(results_manifest.load(docs))
    assert dict(zip(summary_rows(md)["setting"], summary_rows(md)["M2 10% sata"]))["x best static cap"].endswith(
        "slower [1024m]")
    assert "Cells where flexheap is slower: 1; faster: 0 (of 1 with a CI)." in md


@pytest.mark.parametrize("head, summary, title, message", [
    (with_current("def5678"), SUMMARY, "M1, 5% of the index, nvme",
     "flexheap ran on abc1234, not on the summary's builds (def5678: current_builds"),
    (with_current("def5678"), SUMMARY + 'previous_builds = ["0123456"]\n', "M1, 5% of the index, nvme",
     "not on the summary's builds (def5678, 0123456"),
    (HEADER, "", "M1, 5% of the index, nvme", "has a label but the manifest has no [summary]"),
    (with_current("abc1234"), SUMMARY, "M2 sweep, 10%, sata", "flexheap ran on an unnamed build"),  # no JDK recorded
    (with_current("HEAD"), SUMMARY, "M1, 5% of the index, nvme", "current_builds must be a list of commit hashes"),
    (HEADER, SUMMARY, "M1, 5% of the index, nvme", "the [summary] needs `current_builds`"),
    (with_current("abc1234def0"), SUMMARY, "M1, 5% of the index, nvme", None),  # a longer hash matches
    (with_current("def5678"), EARLIER, "M1, 5% of the index, nvme", None),  # a row of an earlier default
])
def test_a_summary_row_must_be_the_default_on_a_listed_build(docs, capsys, head, summary, title, message):
    docs.write_text(docs.read_text().replace(HEADER, head + summary))
    labelled(docs, "a row", title)
    if message is None:
        assert report(docs) == 0
        return
    assert report(docs) == 2
    assert message in capsys.readouterr().err


def test_the_previous_defaults_rows_form_their_own_table(docs, capsys):
    # abc1234 is an earlier default now: its row moves to a second table, never mixed with def5678's,
    # and the summary says in one line that the current default has no row yet.
    docs.write_text(docs.read_text().replace(HEADER, with_current("def5678") + EARLIER))
    labelled(docs, "M1 5% nvme", "M1, 5% of the index, nvme")
    md = results_report.render(results_manifest.load(docs))
    main = block_after(md, "## Summary: the default against every baseline")
    assert main.strip().splitlines()[1:] == [
        "", "**No entry measures the current default yet** (FlexHeap def5678: `current_builds` in the manifest): its "
        "table fills in as entries labelled in the manifest whose flexheap ran on those builds are added."]
    assert "The default, setting by setting." not in md  # the text of the current default's table, not shown
    old = block_after(md, f"### {results_summary.EARLIER_TITLE}")
    assert "**Not today's controller.**" in old and "not on the current default (def5678)" in old
    rows = summary_rows(md.replace(f"### {results_summary.EARLIER_TITLE}", ""))  # the earlier table's rows
    assert dict(zip(rows["setting"], rows["M1 5% nvme"]))["build"] == "abc1234"  # each row names its build
    assert "x0.50 (0.50-0.50) faster" in old
    assert "Cells where flexheap is slower: 0; faster: 2 (of 2 with a CI)." in old
    assert "Read as the table above" not in old  # no table above
    assert results_report.uncommanded_tables(md) == []
    docs.write_text(docs.read_text().replace('previous_builds = ["abc1234"]', 'previous_builds = ["HEAD"]'))
    assert report(docs) == 2
    assert "previous_builds must be a list of commit hashes" in capsys.readouterr().err
    docs.write_text(docs.read_text().replace('previous_builds = ["HEAD"]', 'previous_builds = ["def5678"]'))
    assert report(docs) == 2
    assert "def5678 in both current_builds and previous_builds" in capsys.readouterr().err


def test_the_current_defaults_rows_come_first_and_the_earlier_ones_are_headed_as_such(docs):
    gib = 1 << 30
    now = measured(docs, "now", "M2", gib, "sata")
    data = json.loads((docs.parent / now).read_text())
    data["provenance"]["jdks"][0]["jdk"] = data["provenance"]["jdks"][0]["jdk"].replace("abc1234", "def5678")
    (docs.parent / now).write_text(json.dumps(data))
    docs.write_text(docs.read_text().replace(HEADER, with_current("def5678") + EARLIER)
                    + entry("comparisons", "M2 now", now, COMPARE_CMD))
    labelled(docs, "M1 then", "M1, 5% of the index, nvme")
    labelled(docs, "M2 now", "M2 now")
    md = results_report.render(results_manifest.load(docs))
    main = block_after(md, "## Summary: the default against every baseline")
    assert "The default, setting by setting." in main and "On the current default, FlexHeap def5678:" in main
    assert "| M2 now " in main and "| def5678 " in main and "M1 then" not in main
    old = block_after(md, f"### {results_summary.EARLIER_TITLE}")
    assert "| M1 then " in old and "| abc1234 " in old and "M2 now" not in old
    assert "Read as the table above" in old


def test_a_setting_re_measured_on_the_default_leaves_the_previous_defaults_table(docs):
    gib = 1 << 30
    current = measured(docs, "now", "M1", gib, "sata")
    data = json.loads((docs.parent / current).read_text())
    data["provenance"]["jdks"][0]["jdk"] = data["provenance"]["jdks"][0]["jdk"].replace("abc1234", "def5678")
    (docs.parent / current).write_text(json.dumps(data))
    docs.write_text(with_current("def5678") + EARLIER
                    + entry("comparisons", "old M1 sata", measured(docs, "a", "M1", gib, "sata"), COMPARE_CMD)
                    + entry("comparisons", "old M1 nvme", measured(docs, "b", "M1", gib), COMPARE_CMD)
                    + entry("comparisons", "new M1 sata", current, COMPARE_CMD))
    for title in ("old M1 sata", "old M1 nvme", "new M1 sata"):
        labelled(docs, title.replace(" ", "-"), title)
    md = results_report.render(results_manifest.load(docs))
    main = block_after(md, "## Summary: the default against every baseline")
    old = block_after(md, f"### {results_summary.EARLIER_TITLE}")
    assert "| new-M1-sata " in main and "| old-M1-nvme " in old
    # re-measured on def5678: out of the earlier builds' table, its entry one line of the index
    assert "old-M1-sata" not in old and "old M1 sata · FlexHeap abc1234 · [a/](results/data/a/README.md)" in md


def test_the_previous_defaults_table_keeps_the_newest_row_of_a_setting(docs):
    # Two rows of one setting on previous builds (an older default's, then a newer one's): only the
    # newer one is the previous default's figure; another setting keeps its row.
    gib = 1 << 30
    docs.write_text(with_current("def5678") + EARLIER
                    + entry("comparisons", "older M1 sata", measured(docs, "a", "M1", gib, "sata"), COMPARE_CMD)
                    + entry("comparisons", "newer M1 sata", measured(docs, "b", "M1", gib, "sata"), COMPARE_CMD)
                    + entry("comparisons", "M1 nvme", measured(docs, "c", "M1", gib), COMPARE_CMD))
    for title in ("older M1 sata", "newer M1 sata", "M1 nvme"):
        labelled(docs, title.replace(" ", "-"), title)
    md = results_report.render(results_manifest.load(docs))
    old = block_after(md, f"### {results_summary.EARLIER_TITLE}")
    assert "| newer-M1-sata " in old and "| M1-nvme " in old
    assert "older-M1-sata" not in old and "· older M1 sata · " in md  # its entry stays in the index


def test_one_multiple_of_one_index_is_one_setting_whatever_its_bytes(docs):
    # 5% of a rebuilt index: 16% more bytes, the same --budget 0.05x of the same --index
    gib = 1 << 30
    current = measured(docs, "now", "M1", int(gib * 1.16))
    data = json.loads((docs.parent / current).read_text())
    data["provenance"]["jdks"][0]["jdk"] = data["provenance"]["jdks"][0]["jdk"].replace("abc1234", "def5678")
    (docs.parent / current).write_text(json.dumps(data))
    other_index = COMPARE_CMD.replace("--index /idx", "--index /idx2")
    docs.write_text(with_current("def5678") + EARLIER
                    + entry("comparisons", "old M1", measured(docs, "a", "M1", gib), COMPARE_CMD)
                    + entry("comparisons", "old M1 other index", measured(docs, "b", "M1", gib), other_index)
                    + entry("comparisons", "new M1", current, COMPARE_CMD))
    for title in ("old M1", "old M1 other index", "new M1"):
        labelled(docs, title.replace(" ", "-"), title)
    md = results_report.render(results_manifest.load(docs))
    old = block_after(md, f"### {results_summary.EARLIER_TITLE}")
    assert "| old-M1-other-index " in old  # 0.05x of another index is another setting
    assert "| old-M1 " not in old


def test_budget_share_reads_a_multiple_of_the_data_from_the_command():
    assert results_manifest.budget_share(COMPARE_CMD) == (0.05, "/idx")
    assert results_manifest.budget_share("./flexheap harness compare --budget=0.1X --workload opensearch:large") \
        == (0.1, None)
    assert results_manifest.budget_share("./flexheap harness compare --budget 768m --index /idx") is None
    assert results_manifest.budget_share("./flexheap harness compare --budget") is None
    assert results_manifest.budget_share("./flexheap 'unclosed") is None
    assert results_manifest.budget_share(None) is None
    # an absolute budget is compared by bytes, as before
    a = results_summary.Measured("M1", "nvme", 1e9, (), None)
    assert a.same(a._replace(budget=1.02e9)) and not a.same(a._replace(budget=1.1e9))
    shared = a._replace(share=(0.05, "/idx"))
    assert shared.same(shared._replace(budget=1.2e9))
    assert not shared.same(shared._replace(share=(0.05, "/idx2")))
    assert not shared.same(shared._replace(device="sata"))


def test_a_dirty_build_is_not_the_listed_build(docs, capsys):
    m1 = docs.parent / "data" / "m1" / "comparison.json"
    m1.write_text(m1.read_text().replace("FlexHeap abc1234", "FlexHeap abc1234-dirty"))
    docs.write_text(docs.read_text().replace(HEADER, with_current("abc1234") + SUMMARY))
    labelled(docs, "a row", "M1, 5% of the index, nvme")
    assert report(docs) == 2
    assert "flexheap ran on abc1234-dirty, not on the summary's builds" in capsys.readouterr().err


def runs(times: dict[str, list[float | None]]) -> dict:
    """A comparison with one run per (policy, rep); None = a failed run."""
    return {"runs": [{"policy": p, "rep": i, "ok": t is not None, "total_s": t}
                     for p, ts in times.items() for i, t in enumerate(ts, 1)]}


def test_ratio_cells_pair_by_repetition_not_by_order():
    # g1-90's reps out of order: 5/12, 5.5/11, 6/10 has a geometric mean of 0.50 but a wide interval;
    # pairing by sorted value would give 5/10, 5.5/11, 6/12 and (0.50-0.50).
    cell = results_summary.ratio_cell(runs({"flexheap": [5, 5.5, 6], "g1-90": [12, 11, 10]}), "flexheap", "g1-90")
    assert cell == "x0.50 (0.32-0.79) faster"


def test_ratio_cells_print_enough_digits_to_show_the_verdict_and_say_when_a_run_failed():
    # ratios 0.855, 0.895, 0.935: faster (beyond the noise band), with the upper bound 0.9995, which
    # prints 1.00 at 2 and 3 digits
    close = runs({"flexheap": [85.5, 89.5, 93.5], "g1-50": [100, 100, 100]})
    cell = results_summary.ratio_cell(close, "flexheap", "g1-50")
    assert cell.endswith(" faster") and "1.00" not in cell.split("(")[1], cell
    # ratios 0.9990, 0.9995, 0.9993: a tight interval below 1, inside the noise band: a tie
    assert results_summary.ratio_cell(runs({"flexheap": [99.90, 99.95, 99.93], "g1-50": [100, 100, 100]}),
                                      "flexheap", "g1-50").endswith(" tie")
    failed = runs({"flexheap": [5, 5.5, 6], "vg1": [10.4, None, 11.1]})
    assert results_summary.ratio_cell(failed, "flexheap", "vg1").endswith(" n=2")
    assert results_summary.ratio_cell(failed, "flexheap", "g1-26") == "-"
    twice = {"runs": failed["runs"] + [{"policy": "vg1", "rep": 1, "ok": True, "total_s": 10.0}]}
    assert results_summary.ratio_cell(twice, "flexheap", "vg1").startswith("unpaired")


def test_add_with_a_label_makes_a_summary_row(docs, run_folder):
    docs.write_text(docs.read_text().replace(HEADER, with_current("abc1234") + SUMMARY))
    assert report(docs, "--add", "comparisons", str(run_folder), "--command", COMPARE_CMD, "--label", "added") == 0
    assert results_manifest.load(docs).entries[-1].label == "added"
    assert "added" in summary_rows((docs.parent.parent / "results.md").read_text())
    assert report(docs, "--label", "x") == 2  # --label without --add is a usage error


def measured(docs: Path, name: str, workload: str, budget: int, device: str = "nvme",
             jvm_flags: list[str] | None = None) -> str:
    """A copy of the M1 comparison whose runs record workload, budget, device (and --jvm-flags when
    given: older results do not record them); returns its data path."""
    data = json.loads((DATA / "compare-m1.json").read_text())
    for r in data["runs"]:
        r.update(workload=workload, budget=budget, device=device)
        if jvm_flags is not None:
            r["extra_jvm_flags"] = jvm_flags
    (docs.parent / "data" / name).mkdir()
    (docs.parent / "data" / name / "comparison.json").write_text(json.dumps(data))
    return f"data/{name}/comparison.json"


def test_a_later_result_of_the_same_setting_on_the_current_default_moves_the_earlier_one_to_the_index(docs, capsys):
    gib = 1 << 30
    docs.write_text(with_current("abc1234") + SUMMARY
                    + entry("comparisons", "old M1", measured(docs, "a", "M1", gib), COMPARE_CMD)
                    + entry("comparisons", "labelled old M1", measured(docs, "b", "M1", gib), COMPARE_CMD)
                    + entry("comparisons", "M1 on sata", measured(docs, "c", "M1", gib, "sata"), COMPARE_CMD)
                    + entry("comparisons", "M2", measured(docs, "d", "M2", gib), COMPARE_CMD)
                    # 2% more bytes at one share (a rebuilt index): one setting; 0.045x: another
                    + entry("comparisons", "new M1", measured(docs, "e", "M1", int(gib * 1.02)), COMPARE_CMD)
                    + entry("comparisons", "M1 at 0.9", measured(docs, "f", "M1", int(gib * 0.9)),
                            COMPARE_CMD.replace("0.05x", "0.045x"))
                    + entry("characterization", "Query classes", "data/char/char.json", CHAR_CMD))
    labelled(docs, "M1 row", "labelled old M1")
    m = results_manifest.load(docs)
    full, indexed = results_report.split(m)
    # the characterization ran on a stock JDK (no FlexHeap build): not the current default either
    assert [e.title for e in indexed] == ["old M1", "Query classes"]
    assert [e.title for e in full] == ["labelled old M1", "M1 on sata", "M2", "new M1", "M1 at 0.9"]
    assert report(docs) == 0
    md = (docs.parent.parent / "results.md").read_text()
    assert "### old M1" not in md and "### new M1" in md and "### labelled old M1" in md
    # a section with entries in full points to its earlier ones
    assert "1 earlier measurement: one line each under [Earlier measurements](#earlier-measurements)." in \
        block_after(md, f"## {SECTIONS[1].title}")
    assert "The 2 other entries, measured on earlier builds or measured again, are one line each" in md
    index = md[md.index(f"## {results_report.EARLIER_TITLE}"):]
    assert ("- 2026-11-20 · old M1 · FlexHeap abc1234, measured again by a later entry · "
            "[a/](results/data/a/README.md)") in index
    assert ("- undated · Query classes · JDK 25.0.3 (OpenJDK 64-Bit Server VM) · "
            "[char/](results/data/char/README.md)") in index
    page = (docs.parent / "data" / "a" / "README.md").read_text()
    assert "Measured on the current default, FlexHeap abc1234, and measured again by a later entry" in page
    assert f"```sh\n{COMPARE_CMD}\n```" in page and "](comparison.json)" in page  # links relative to the page
    assert "the document shows it in full too" in (docs.parent / "data" / "e" / "README.md").read_text()
    assert report(docs, "--check") == 0


def test_an_entry_not_on_the_current_default_is_one_line_of_the_index_and_in_full_on_its_page(docs, capsys):
    # m1 ran on abc1234; def5678 is the current default, and the M2 sweep ran on it.
    with_sweep_provenance(docs)
    m2 = docs.parent / "data" / "m2" / "comparison.json"
    m2.write_text(m2.read_text().replace("FlexHeap abc1234", "FlexHeap def5678"))
    docs.write_text(docs.read_text().replace(HEADER, with_current("def5678")))
    assert report(docs) == 0
    md = (docs.parent.parent / "results.md").read_text()
    title = "M1, 5% of the index, nvme"
    # in the document: one line, with its date, title, build and a link to its folder's page; no table
    assert [ln for ln in md.splitlines() if title in ln] == [
        f"- 2026-11-20 · {title} · FlexHeap abc1234 · [m1/](results/data/m1/README.md)"]
    assert "x0.50 (CI 0.42-0.60)" not in md and "![timeline.png]" not in md and COMPARE_CMD not in md
    assert "### M2 sweep, 10%, sata" in md and "sum (per-phase oracle)" in md  # the current default's, in full
    assert ("**Not measured on the current default yet.** Missing: "
            + SECTIONS[0].needs + " 1 earlier measurement: one line each under "
            f"[{results_report.EARLIER_TITLE}](#earlier-measurements).") in md
    # on its page: in full, as the document showed it, and said to be an earlier build
    page = (docs.parent / "data" / "m1" / "README.md").read_text()
    assert page.startswith("<!-- Generated by `./flexheap harness report` from ../../manifest.toml")
    assert f"\n# {title}\n" in page
    assert "**Measured on FlexHeap abc1234, not on the current default (def5678)**" in page
    assert "[Earlier measurements](../../../results.md#earlier-measurements)" in page
    assert f"```sh\n{COMPARE_CMD}\n```\n\n| policy" in page and "x0.50 (CI 0.42-0.60)" in page
    assert "![timeline.png](timeline.png)" in page and "[comparison.json](comparison.json)" in page
    assert results_report.uncommanded_tables(page) == []
    # below its title and the line on its build, the page is what the document showed for it before
    shown = block_after(results_report.render(dataclasses.replace(results_manifest.load(docs), current_builds=None)),
                        f"### {title}")
    assert page.split("**Measured on", 1)[1].split("\n\n", 1)[1] \
        == shown.split("\n\n", 1)[1].replace("](results/data/m1/", "](")
    now_page = (docs.parent / "data" / "m2" / "README.md").read_text()
    assert "Measured on the current default, FlexHeap def5678: the document shows it in full too." in now_page
    # report --check verifies the pages: edited, missing, or one left by a removed entry
    assert report(docs, "--check") == 0
    (docs.parent / "data" / "m1" / "README.md").write_text(page.replace("x0.50", "x0.40", 1))
    assert report(docs, "--check") == 1
    err = capsys.readouterr().err
    assert "data/m1/README.md is not what" in err and "-| flexheap" in err
    (docs.parent / "data" / "m1" / "README.md").unlink()
    assert report(docs, "--check") == 1
    assert "data/m1/README.md does not exist" in capsys.readouterr().err
    assert report(docs) == 0 and report(docs, "--check") == 0
    (docs.parent / "data" / "gone").mkdir()
    (docs.parent / "data" / "gone" / "README.md").write_text("old page\n")
    assert report(docs, "--check") == 1
    assert "gone/README.md is the page of no entry" in capsys.readouterr().err
    # the default moves on: abc1234 listed too, its entry shows in full and its page says so
    (docs.parent / "data" / "gone" / "README.md").unlink()
    docs.write_text(docs.read_text().replace('current_builds = ["def5678"]', 'current_builds = ["def5678", "abc1234"]'))
    assert report(docs, "--check") == 1  # the document and m1's page are stale
    assert report(docs) == 0
    md = (docs.parent.parent / "results.md").read_text()
    assert f"### {title}" in md and "Measured on the current default, FlexHeap abc1234" in \
        (docs.parent / "data" / "m1" / "README.md").read_text()


def test_many_stale_pages_show_a_few_diffs_and_name_the_rest(docs, capsys, monkeypatch):
    assert report(docs) == 0
    for name in ("m1", "m2", "char"):
        page = docs.parent / "data" / name / "README.md"
        page.write_text(page.read_text() + "edited\n")
    monkeypatch.setattr(results_report, "SHOWN_STALE", 1)
    assert report(docs, "--check") == 1
    err = capsys.readouterr().err
    assert err.count("is not what") == 1 and "2 more stale file(s)" in err and "data/m2/README.md" in err


def test_add_says_where_the_entry_shows(docs, run_folder, capsys):
    docs.write_text(docs.read_text().replace(HEADER, with_current("def5678")))
    assert report(docs, "--add", "timelines", str(run_folder), "--command", COMPARE_CMD) == 0
    out = capsys.readouterr().out
    assert "not on the current default (def5678): one line of results.md's index, in full in " in out
    assert (f"data/{run_folder.name}/README.md. If FlexHeap abc1234 runs today's default, add it to "
            "current_builds") in out
    docs.write_text(docs.read_text().replace('current_builds = ["def5678"]', 'current_builds = ["abc1234"]'))
    assert report(docs, "--add", "timelines", str(run_folder), "--command", COMPARE_CMD, "--name", "again") == 0
    out = capsys.readouterr().out
    assert f"{run_folder.name}: g1-90, flexheap, vg1: on the current default, in full in " in out
    assert "add it to current_builds" not in out


def swept(docs: Path, name: str, workload: str, budget: int) -> str:
    """measured(), with a sweep's oracle in the JSON (a `sweep` folder's comparison.json)."""
    path = measured(docs, name, workload, budget)
    data = json.loads((docs.parent / path).read_text())
    data["oracle"] = {"oracle_s": 1.0}
    (docs.parent / path).write_text(json.dumps(data))
    return path


def test_only_a_later_sweep_moves_a_sweep_with_its_oracle_to_the_index(docs):
    gib = 1 << 30
    docs.write_text(with_current("abc1234")
                    + entry("comparisons", "old compare", measured(docs, "a", "M1", gib), COMPARE_CMD)
                    + entry("comparisons", "old sweep", swept(docs, "b", "M1", gib), COMPARE_CMD)
                    + entry("comparisons", "new compare", measured(docs, "c", "M1", gib), COMPARE_CMD)
                    + entry("comparisons", "M2 sweep", swept(docs, "d", "M2", gib), COMPARE_CMD)
                    + entry("comparisons", "new M2 sweep", swept(docs, "e", "M2", gib), COMPARE_CMD)
                    + entry("comparisons", "M2 compare", measured(docs, "f", "M2", gib), COMPARE_CMD))
    full, indexed = results_report.split(results_manifest.load(docs))
    # a compare replaces the compare before it, never a sweep; a sweep replaces both
    assert [e.title for e in indexed] == ["old compare", "M2 sweep"]
    assert [e.title for e in full] == ["old sweep", "new compare", "new M2 sweep", "M2 compare"]


def test_extra_jvm_flags_make_another_setting(docs):
    gib = 1 << 30
    parallel = ["-XX:-UseG1GC", "-XX:+UseParallelGC"]
    docs.write_text(with_current("abc1234")
                    + entry("comparisons", "old M2", measured(docs, "a", "M2", gib), COMPARE_CMD)
                    + entry("comparisons", "M2 G1", measured(docs, "b", "M2", gib, jvm_flags=[]), COMPARE_CMD)
                    + entry("comparisons", "M2 Parallel", measured(docs, "c", "M2", gib, jvm_flags=parallel),
                            COMPARE_CMD)
                    + entry("comparisons", "M2 Parallel again", measured(docs, "d", "M2", gib, jvm_flags=parallel),
                            COMPARE_CMD))
    full, indexed = results_report.split(results_manifest.load(docs))
    # no flags recorded is no flags given; the Parallel GC runs replace only each other
    assert [e.title for e in indexed] == ["old M2", "M2 Parallel"]
    assert [e.title for e in full] == ["M2 G1", "M2 Parallel again"]


def test_without_current_builds_every_entry_stays_in_the_document(docs):
    docs.write_text(HEADER + entry("comparisons", "old M1", measured(docs, "a", "M1", 1 << 30), COMPARE_CMD)
                    + entry("comparisons", "new M1", measured(docs, "b", "M1", 1 << 30), COMPARE_CMD))
    m = results_manifest.load(docs)
    assert results_report.split(m) == (m.entries, [])
    md = results_report.render(m)
    assert "### old M1" in md and "### new M1" in md and results_report.EARLIER_TITLE not in md
    assert "current default" not in results_report.render_page(m, m.entries[0])


@pytest.mark.parametrize("change, message", [
    (('output = "../results.md"\n', 'output = "../results.md"\nhistory = "../results-history.md"\n'),
     "`history` is gone: entries not on `current_builds` render as one line each"),
    (('[summary]\npolicy = "flexheap"\n', '[summary]\npolicy = "flexheap"\nbuilds = ["abc1234"]\n'),
     "`[summary] builds` is now the top-level `current_builds`"),
    (('data = "data/m2/comparison.json"', 'data = "data/m1/comparison.json"'), "entries 2 and 3 share data/m1/"),
    (('data = "data/char/char.json"', 'data = "data/char.json"'),
     "data/char.json is not in a folder of its own under data/"),
])
def test_manifest_keys_and_layouts_of_before_are_named(docs, capsys, change, message):
    (docs.parent / "data" / "char.json").write_text((DATA / "characterize.json").read_text())
    docs.write_text(docs.read_text().replace(HEADER, with_current("abc1234") + SUMMARY))
    assert change[0] in docs.read_text()
    docs.write_text(docs.read_text().replace(*change))
    assert report(docs) == 2
    assert message in capsys.readouterr().err


# ---------------------------------------------------------------- the README's results block


README = "# Tool\n\nIntro.\n\n<!-- results-summary -->\nold text\n<!-- /results-summary -->\n\n| flag | x |\n|---|---|\n"


def test_the_readme_block_is_generated_with_the_plot_and_the_compact_summary(docs, capsys):
    readme = docs.parent.parent.parent / "README.md"
    readme.write_text(README)
    (docs.parent / "data" / "curve").mkdir()
    shutil.copy(DATA / "timeline.png", docs.parent / "data" / "curve" / "budget-curve.png")
    (docs.parent / "data" / "curve" / "budget-curve.md").write_text("| budget | flexheap |\n|---|---|\n| 1 | 2 |\n")
    head = with_current("abc1234").replace('output = "../results.md"\n', 'output = "../results.md"\n'
                                           'readme = "../../README.md"\n')
    plot = ('\n[readme_plot]\nimage = "data/curve/budget-curve.png"\ntable = "data/curve/budget-curve.md"\n'
            'command = "./flexheap harness budget-curve a b"\ntitle = "Search against budget"\n')
    docs.write_text(docs.read_text().replace(HEADER, head + plot + SUMMARY))
    labelled(docs, "M1 5% nvme", "M1, 5% of the index, nvme")
    assert report(docs) == 0
    text = readme.read_text()
    assert text.startswith("# Tool\n\nIntro.\n\n<!-- results-summary -->\n") and "old text" not in text
    assert text.endswith("<!-- /results-summary -->\n\n| flag | x |\n|---|---|\n")  # outside the block: kept
    block = text[text.index("<!-- results-summary -->"):text.index("<!-- /results-summary -->")]
    assert "![Search against budget](docs/results/data/curve/budget-curve.png)" in block
    assert block.index("./flexheap harness budget-curve a b") < block.index("| budget | flexheap |")
    # the compact summary: the columns some row has a value in, the setting linked to its entry's page
    header = next(ln for ln in block.splitlines() if ln.startswith("| setting"))
    assert header == "| setting | flexheap [s] | x g1-90 | x vg1 |"
    assert "| [M1 5% nvme](docs/results/data/m1/README.md) | 5.5 | x0.50 (0.50-0.50) faster |" in block
    # the README's other tables need no command; a hand edit inside the block is stale
    assert report(docs, "--check") == 0
    readme.write_text(text.replace("| 5.5 |", "| 4.0 |"))
    assert report(docs, "--check") == 1
    out = capsys.readouterr()
    assert "README.md is not what" in out.out + out.err


def test_a_readme_without_the_block_is_refused(docs):
    with pytest.raises(ManifestError, match="results-summary"):
        results_report.with_readme_block("# no block\n", "x")
