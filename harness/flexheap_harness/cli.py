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

"""flexheap-bench: run, compare, sweep, oracle, plot, report, demo.

Its module-level imports are the standard library's and the harness's own light modules only, so
that --help works before the harness's venv exists (./flexheap harness --help runs it with the
system python3): compare, oracle, plots and the results document (numpy, scipy, matplotlib, rich,
tabulate) are imported inside the functions that use them, and the modules imported here import
psutil and tabulate in theirs.
"""

from __future__ import annotations

import argparse
import shlex
import signal
import sys
import time
from pathlib import Path
from typing import Any, Sequence

from .cgroups import detect
from .devices import (KEEP_READ_AHEAD, PROFILES, block_device_near, parse_profile, read_ahead_file, read_ahead_kb,
                      read_ahead_settable, settle_read_ahead)
from .integrity import UNBUDGETED, UsageError, check_budget_above_floor, enforcement_problems, jvm_floor, refusal_message
from .jdk import bench_jar, find_jdk, jdk_for_policy, repo_root, require_policy_jdks
from .machine_lock import measuring
from .policies import BUILTIN, Policy, max_heap_bytes, parse_policy, policies_named_in
from .runner import RunConfig, bench_program, print_summary, run_once
from .services import parse_workload
from .services.cli import is_service_workload, prepare_service
from .sizes import (SizeError, check_budget_syntax, check_fraction_list, check_size_list, directory_size,
                    format_size, is_fraction, parse_budget, parse_size)
from .thrash import DEFAULT as THRASH_DEFAULT, ThrashLimit, parse_thrash_limit
from .warmup import DEFAULT_WARMUP

EPILOG_POLICIES = "\n".join(f"  {name:9} {p.description}" for name, p in BUILTIN.items()) + \
    "\n  static:S  stock G1 with a fixed max heap S (e.g. static:768m)" \
    "\n  fixed:S   stock G1 with -Xms = -Xmx = S (fixed-26:S on OpenJDK 26)" \
    "\n  flexheap:FlexHeapX=V[+...]  flexheap (or flexheap-paper:...) with its own FlexHeap settings" \
    "\n            (a flag other than the product ones adds -XX:+UnlockExperimentalVMOptions)" \
    "\n  POLICY@LABEL  the same policy under another column name, for an A/A calibration:" \
    "\n            --policies flexheap@a,flexheap@b --baseline flexheap@a"
EPILOG_DEVICES = "\n".join(
    f"  {p.name:5} " + ("as is" if not p.throttled else
                         f"read {p.read_bps >> 20} MiB/s {p.read_iops} IOPS, write {p.write_bps >> 20} MiB/s {p.write_iops} IOPS")
    for p in PROFILES.values()
) + "\n  custom:read=600m,write=300m,riops=40000,wiops=20000"



def _absolute_path(text: str) -> Path:
    """A path option (--out, --index, --jar, --data-dir) made absolute: each JVM runs in its own
    directory, so a relative log path (-Xlog:...:file=results/...) or index path would point
    nowhere and every run would fail."""
    return Path(text).absolute()

def device_arg(text: str) -> str:
    """argparse type for --device: validated now (exit 2 with the reason), kept as text."""
    parse_profile(text)
    return text


def policy_list(text: str) -> str:
    """argparse type for --policies / --also: every name must parse (exit 2 with the reason)."""
    for name in (p.strip() for p in text.split(",")):
        if name:
            try:
                parse_policy(name)
            except ValueError as e:
                raise SizeError(str(e)) from None
    return text


def _add_common(p: argparse.ArgumentParser, workload_default: str | None = "M1") -> None:
    g = p.add_argument_group("budget and device")
    g.add_argument("--budget", type=check_budget_syntax,
                   help="DRAM budget: a size with a binary suffix (2g, 768m = MiB) or a multiple of the index "
                        "size (0.5x). A bare number or fraction is an error.")
    g.add_argument("--unbudgeted", action="store_true",
                   help="run even when the budget or device profile cannot be enforced (or no --budget is "
                        "given); every summary and table then says 'unbudgeted'. Without it such runs exit 2.")
    g.add_argument("--device", default="host", type=device_arg,
                   help="device profile: host, nvme, sata, custom:read=600m,... (rates in MiB/s; default host)")
    g.add_argument("--read-ahead", type=read_ahead_arg, metavar="SIZE|keep",
                   help=READ_AHEAD_HELP)
    g.add_argument("--data-dir", type=_absolute_path, help="directory whose block device is throttled/measured "
                                                 "(default: --index, else the current directory)")
    g.add_argument("--cgroup-parent", help="parent cgroup path (default: v1 the harness's own cgroup, v2 /flexheap)")
    w = p.add_argument_group("workload (bench jar), or a custom program after '--'")
    w.add_argument("--index", type=_absolute_path, help="Lucene index directory (bench jar)")
    w.add_argument("--workload", default=workload_default, help=f"bench workload name (default {workload_default})")
    w.add_argument("--scale", type=float, help="bench --scale")
    w.add_argument("--clients", type=int, help="bench --clients")
    w.add_argument("--seed", type=int, help="bench --seed")
    w.add_argument("--jar", type=_absolute_path, help="bench jar (default bench/target/flexheap-bench.jar or $FLEXHEAP_BENCH_JAR)")
    j = p.add_argument_group("JVM and run")
    j.add_argument("--jdk", help="JDK home (default $FLEXHEAP_JDK, build/flexheap-jdk, else stock Temurin 25 "
                                 "for baselines only)")
    w.add_argument("--partner", metavar="PROGRAM",
                   help="a second program (its java arguments, quoted; {workload_json} as after '--') started "
                        "with the first in the same cgroup under the same policy: two JVMs in one budget. "
                        "The run's total time lasts until both end; each JVM's own is phase 'a' / 'b'")
    j.add_argument("--jvm-flags", default="", help="extra JVM flags, passed through last (quoted string)")
    j.add_argument("--jfr", action="store_true",
                   help="record jdk.FlexHeapDecision with JFR (FlexHeap JDK) and read decisions with `jfr print "
                        "--json` instead of parsing the GC log (JFR costs some startup time and memory)")
    j.add_argument("--timeout", type=float, help="kill a run after this many seconds (counts as failed)")
    j.add_argument("--thrash-limit", type=parse_thrash_limit, default=ThrashLimit(),
                   metavar="PCT:SECONDS",
                   help="kill a run (counts as failed) whose own cgroup had every task stalled on memory "
                        f"(PSI 'full') PCT%% of the last SECONDS, as systemd-oomd would; 'off' to wait for "
                        f"the timeout instead (default {THRASH_DEFAULT})")
    j.add_argument("--no-drop-caches", action="store_true", help="do not sync + drop caches before each run")
    j.add_argument("--sample-interval", type=float, default=1.0, help="sampling period in s (default 1)")
    j.add_argument("--out", type=_absolute_path, help="output folder (default results/<time>-<command> in the repo)")


def _warmup_count(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 0 <= n <= 10:
        raise argparse.ArgumentTypeError(f"{n} is out of range 0..10")
    return n


def add_warmup_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--warmup", type=_warmup_count, default=DEFAULT_WARMUP, metavar="N",
                   help="runs of the first policy before the counted ones, not counted: the first run after a "
                        "quiet spell reads the data cold below the guest's page cache and was up to 3.3x "
                        f"slower (default {DEFAULT_WARMUP}; 0 to skip)")


class _Parser(argparse.ArgumentParser):
    """A parser whose epilog may be made when its help is shown (lazy_epilog): the report command's
    names the results document's sections, which only results_manifest (and its numpy) knows."""
    lazy_epilog: Any = None

    def format_help(self) -> str:
        if self.lazy_epilog is not None:
            self.epilog = self.lazy_epilog()
        return super().format_help()


REPORT_EPILOG = ("examples:\n"
                 "  flexheap-bench report                      # regenerate docs/results.md\n"
                 "  flexheap-bench report --check              # exit 1 if it is stale or hand-edited\n"
                 "  flexheap-bench report --add comparisons results/20260101-sweep \\\n"
                 "      --command \"./flexheap harness sweep ... --out results/20260101-sweep\"\n"
                 "  flexheap-bench report --commands           # every command, to re-run\n")


def _report_epilog() -> str:
    try:
        from . import results_manifest
    except ImportError as e:  # help before the venv exists: say where the list is
        return REPORT_EPILOG + f"sections: listed here once the harness's venv is set up (bash harness/setup.sh; {e})"
    return REPORT_EPILOG + "sections: " + ", ".join(results_manifest.SECTION_IDS)


def build_parser() -> argparse.ArgumentParser:
    fmt = argparse.RawDescriptionHelpFormatter
    ap = argparse.ArgumentParser(
        prog="flexheap-bench",
        description="Run JVM workloads under a DRAM budget (memory cgroup) and a device profile "
                    "(io throttling), per heap-sizing policy; sample heap, page cache, iowait and I/O; "
                    "compare policies and plot timelines.",
        epilog=f"policies:\n{EPILOG_POLICIES}\n\ndevice profiles:\n{EPILOG_DEVICES}\n\n"
               "Custom programs: everything after '--' replaces the bench jar, e.g.\n"
               "  flexheap-bench run --policy g1-90 --budget 300m -- -cp /tmp/app Main arg",
        formatter_class=fmt,
    )
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)

    r = sub.add_parser("run", help="one run of one policy", formatter_class=fmt,
                       description="One clean run: drop caches, fresh cgroup, sample at 1 Hz, write a run folder.")
    r.add_argument("--policy", default="g1-90", type=policy_list, help=f"{', '.join(BUILTIN)} or static:<size> (default g1-90)")
    _add_common(r)

    c = sub.add_parser("compare", help="several policies x repetitions, interleaved", formatter_class=fmt,
                       description="Runs A B C A B C ... and prints median [min..max] per metric and the "
                                   "ratio to a baseline; writes comparison.json and comparison.md and plots.")
    c.add_argument("--policies", default="g1-90,g1-50,vg1,flexheap", type=policy_list, help="comma list (default g1-90,g1-50,vg1,flexheap)")
    c.add_argument("--reps", type=int, default=3, help="repetitions per policy (default 3)")
    c.add_argument("--baseline", default="g1-90",
                   help="policy the ratios are relative to, one of --policies (default g1-90)")
    c.add_argument("--no-plots", action="store_true", help="skip the PNGs")
    add_warmup_argument(c)
    _add_common(c)

    s = sub.add_parser("sweep", help="static max heap sizes: find the best fixed -Xmx (oracle)", formatter_class=fmt,
                       description="Runs static:<size> for each size (interleaved) plus the --also policies, and "
                                   "reports the best static cap and the per-phase oracle (per phase, the best time "
                                   "any static cap reached, summed over the phases), every policy as a fraction of "
                                   "both; writes oracle.json, oracle.md and 'oracle' in comparison.json.")
    grid = s.add_mutually_exclusive_group()
    grid.add_argument("--sizes", type=check_size_list, help="comma list of max heap sizes, e.g. 256m,512m,1g")
    grid.add_argument("--fractions", default="0.3,0.5,0.7,0.9", type=check_fraction_list,
                      help="comma list of fractions of the budget (default 0.3,0.5,0.7,0.9)")
    s.add_argument("--reps", type=int, default=1, help="repetitions per size (default 1)")
    s.add_argument("--also", default="", type=policy_list, help="extra policies to include, e.g. g1-90,flexheap")
    add_warmup_argument(s)
    _add_common(s)

    o = sub.add_parser("oracle", help="recompute the best static cap and the per-phase oracle of a sweep folder",
                       formatter_class=fmt,
                       description="Reads DIR/runs/*/summary.json of a finished sweep (or compare with static: "
                                   "policies) and writes oracle.json and oracle.md next to them.")
    o.add_argument("dir", type=Path, help="sweep folder")
    rc = sub.add_parser("recheck", help="check a finished comparison's runs against their configuration again",
                        formatter_class=fmt,
                        description="Checks every run of DIR/comparison.json again, with today's check, against the "
                                    "configuration its policy meant (recorded as config_expected) and the JVM's "
                                    "start-up lines in its gc.log, and rewrites comparison.json and .md: for runs "
                                    "whose check was wrong when they ran. A run that failed only that check and "
                                    "passes it now counts; any other error stays.")
    rc.add_argument("dir", type=Path, help="compare folder")

    sub.add_parser("calibrate", help="the verdict rule's false calls on the results' A/A pairs "
                                     "(calibrate --help for its options)", add_help=False)
    bc = sub.add_parser("budget-curve", help="throughput against the budget: one comparison folder per budget",
                        formatter_class=fmt,
                        description="One line per policy through the comparisons' budgets (e.g. OpenSearch at 5, "
                                    "10, 25 and 50%% of its index): budget-curve.png and budget-curve.md (the "
                                    "table, each cell against --baseline with the calibrated verdict rule).")
    bc.add_argument("dirs", nargs="+", type=Path, help="comparison folders, one per budget")
    bc.add_argument("--baseline", default="vendor-50", help="policy the cells are compared with (default vendor-50)")
    bc.add_argument("--subject", help="instead, compare this policy with each other one, e.g. flexheap "
                                      "(its ratio in every other policy's cell)")
    bc.add_argument("--phases", default="search-", help="phase-name prefix of the throughput (default search-)")
    bc.add_argument("--out", type=_absolute_path, help="output folder (default the first comparison's parent)")
    e = sub.add_parser("elasticity", help="whether runs' own intervals pin down the page cache's elasticity",
                       formatter_class=fmt,
                       description="Reads FlexHeap decision logs (decisions.csv of run folders, or of a "
                                   "comparison folder's runs) and estimates, from neighbouring windows whose page "
                                   "cache differs, e = -dlog(I/O stall)/dlog(cache): the balance rule assumes 1. "
                                   "Exit 0 if every run's 95% interval excludes 0 or 1, else 1.")
    e.add_argument("paths", nargs="+", type=Path, help="run folders, comparison folders or decisions.csv files")
    e.add_argument("--window", type=float, default=2.0, help="window length in seconds (default 2, the rule's own)")
    e.add_argument("--min-change", type=float, default=0.15,
                   help="least |dlog cache| between neighbouring windows for a pair (default 0.15)")
    # dest is not "policy": that one is checked as a policy name, and this is a substring
    e.add_argument("--policy", dest="policy_filter", default="flexheap",
                   help="only runs whose folder name holds this (default flexheap)")

    ph = sub.add_parser("phases", help="per phase: duration, bytes read, mean heap and page cache, GC pauses",
                        formatter_class=fmt,
                        description="Reads the runs of comparison folders (warm-up runs left out) or run folders "
                                    "and prints, per policy and phase, the medians [min..max] over the runs of "
                                    "the phase's duration and bytes read, the mean committed heap and page cache "
                                    "while it ran, and the GC pauses, their time and the marking cycles inside it.")
    ph.add_argument("paths", nargs="+", type=Path, help="comparison folders or run folders")
    ph.add_argument("--policy", dest="policy_filter", default="", help="only policies whose name holds this")
    ph.add_argument("--runs", action="store_true", help="one row per run and phase instead of the medians")

    p = sub.add_parser("plot", help="PNG timelines and normalised throughput bars", formatter_class=fmt,
                       description="PATH is a comparison folder (one timeline panel per policy, its median run, "
                                   "plus throughput bars) or one or more run folders.")
    p.add_argument("paths", nargs="+", type=Path, help="comparison folder or run folders")
    p.add_argument("--out", type=_absolute_path, help="output folder (default: the comparison folder / first run folder)")
    p.add_argument("--overlay", action="store_true", help="also draw all runs on one axis")

    rp = sub.add_parser("report", help="docs/results.md from docs/results/manifest.toml (--add, --check)",
                        formatter_class=fmt,
                        description="Regenerates docs/results.md from the manifest and the result JSONs it names "
                                    "(copied under docs/results/data/): every table with the exact command that "
                                    "produced it; a section without a result says 'Not measured yet' and what is "
                                    "missing. Entries measured on the current default (the manifest's "
                                    "current_builds) show in full, each setting's newest; every other entry is one "
                                    "line of its index of earlier measurements. Every entry is in full in a README.md "
                                    "written in its data folder.",
                        epilog=REPORT_EPILOG)
    rp.lazy_epilog = _report_epilog  # + the sections, when the help is shown
    mode = rp.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true",
                      help="do not write; exit 1 if the document is not what the manifest and data regenerate "
                           "or a table has no command")
    mode.add_argument("--add", nargs=2, metavar=("SECTION", "PATH"),
                      help="copy a compare/sweep folder's comparison.json, oracle.json and PNG plots (or one "
                           "result JSON file) into data/, append its entry to the manifest, regenerate")
    mode.add_argument("--commands", action="store_true", help="print every entry's command (to re-run them)")
    rp.add_argument("--command", dest="entry_command", metavar="CMD",
                    help="with --add (required): the exact command line that produced PATH")
    rp.add_argument("--title", help="with --add: the entry's heading (default from the runs: workload, budget, "
                                    "device, policies)")
    rp.add_argument("--notes", default="", help="with --add: a note shown under the heading")
    rp.add_argument("--name", help="with --add: folder name under data/ (default the folder or file name)")
    rp.add_argument("--label", help="with --add: make the entry a row of the summary table under this short name "
                                    "(its flexheap runs must be on one of the manifest's [summary] builds)")
    rp.add_argument("--manifest", type=Path, help="manifest (default docs/results/manifest.toml in the repo)")
    rp.add_argument("--output", type=Path, help="document (default the manifest's `output`, docs/results.md)")

    d = sub.add_parser("demo", help="build what is missing and compare the four policies on a small index",
                       formatter_class=fmt,
                       description="Builds or reuses the FlexHeap JDK, the bench jar and a demo index, then "
                                   "compares policies under a budget below the index size and plots.")
    from .demo import add_demo_arguments
    add_demo_arguments(d)
    return ap


# ---------------------------------------------------------------- helpers


def _default_out(command: str) -> Path:
    return repo_root() / "results" / f"{time.strftime('%Y%m%d-%H%M%S')}-{command}"


def resolve_budget(args: argparse.Namespace) -> tuple[int | None, int | None]:
    """(budget bytes, index bytes)."""
    index_bytes = directory_size(args.index) if args.index and args.index.exists() else None
    index_bytes = index_bytes or getattr(args, "service_data_bytes", None)  # opensearch:/spark: data
    if not args.budget:
        return None, index_bytes
    if is_fraction(args.budget) and not index_bytes:
        raise UsageError(f"budget {args.budget} is relative to the index size; give an existing --index")
    return parse_budget(args.budget, index_bytes), index_bytes


def floor_flags(policy: str, budget: int | None, extra: Sequence[str], native_reserve: int = 0) -> list[str]:
    """The run's JVM flags without its per-run files (GC log, JFR): what the floor is measured with."""
    from .policies import jvm_flags
    flags = jvm_flags(parse_policy(policy), budget, "/dev/null", extra, False, native_reserve)
    return [f for f in flags if not f.startswith("-Xlog:") and "StartFlightRecording" not in f]


READ_AHEAD_HELP = ("the data device's read-ahead for each run, put back after: a size (4k..64m) or 'keep' (as "
                   "found). Default: 128k, Linux's default for a disk, where it can be set (root); a VM disk may "
                   "read 8m around every mmap fault, which no page cache size helps")


def read_ahead_arg(text: str) -> int:
    """--read-ahead: 'keep' (KEEP_READ_AHEAD) or a binary size, 4k to 64m, in whole 4 KiB pages
    (the kernel keeps pages: 6k would be stored, and recorded, as 4)."""
    if text == "keep":
        return KEEP_READ_AHEAD
    try:
        size = parse_size(text, "--read-ahead")
    except SizeError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    if size % (4 << 10) or not 4 << 10 <= size <= 64 << 20:
        raise argparse.ArgumentTypeError(f"--read-ahead {text}: give 4k..64m in whole 4k pages")
    return size


def check_read_ahead(size: int | None, block: str | None) -> None:
    """A --read-ahead size that cannot be applied is refused before any run (exit 2); the
    default (None) falls back to the device's own with a warning instead."""
    if not size:
        return
    if block is None:
        raise UsageError("--read-ahead: the data directory is on no block device")
    if not read_ahead_settable(block):
        raise UsageError(f"--read-ahead: cannot set {read_ahead_file(block)} (not root?); "
                         "give --read-ahead keep")


def preflight(args: argparse.Namespace, policies: Sequence[str], budget: int | None, device, data_dir: Path,
              default_jdk, native_reserve: int = 0) -> bool:
    """Refuses (UsageError, exit 2) what would not be measured as asked: a budget or device profile the
    machine cannot enforce (unless --unbudgeted) and a budget below the JVM floor. True = unbudgeted."""
    support = detect(args.cgroup_parent)
    block = block_device_near(data_dir)
    asked = getattr(args, "read_ahead", None)
    check_read_ahead(asked, block)
    args.read_ahead_bytes, advice = settle_read_ahead(asked, read_ahead_kb(block), read_ahead_settable(block))
    if advice:
        print(f"warning: {advice}", file=sys.stderr)
    problems = enforcement_problems(support, budget, device, block, data_dir)
    if problems and not getattr(args, "unbudgeted", False):
        raise UsageError(refusal_message(problems))
    if problems:
        print(f"warning: {UNBUDGETED.upper()} (--{UNBUDGETED}): " + "; ".join(problems), file=sys.stderr)
        return True
    if budget is not None:
        extra = shlex.split(args.jvm_flags)
        for name in policies:
            pol = parse_policy(name)
            jdk = jdk_for_policy(pol, default_jdk)
            if pol.needs_flexheap and not jdk.is_flexheap_build:
                continue  # reported as a failed run with its reason
            flags = floor_flags(name, budget, extra, native_reserve)
            check_budget_above_floor(budget, jvm_floor(jdk.java, flags), pol.name, flags)
    return False


def make_config_factory(args: argparse.Namespace, program: list[str] | None, policies: Sequence[str] = ()):
    jdk, warning = find_jdk(args.jdk)
    if jdk is None:
        raise UsageError(warning)
    if warning:
        print(f"warning: {warning}", file=sys.stderr)
    service = None
    if program is None and is_service_workload(args.workload):
        # fetch + generate data before any run; a --read-ahead that cannot be set is refused first
        service = prepare_service(args, lambda s: check_read_ahead(getattr(args, "read_ahead", None),
                                                                   block_device_near(args.data_dir or s.data_dir())))
        program = []
        if getattr(args, "partner", None):
            raise UsageError("--partner runs a second JVM program beside the first; a service workload "
                             f"({args.workload}) cannot be one of the pair")
    budget, index_bytes = resolve_budget(args)
    device = parse_profile(args.device)
    if program is None:
        jar = args.jar or bench_jar()
        if not args.index:
            raise UsageError("give --index DIR for the bench workload, or a custom program after '--'")
        if not jar.exists():
            raise UsageError(f"bench jar {jar} not found; build it with: bash bench/run.sh info")
        program = bench_program(jar, args.index, args.workload, args.scale, args.clients, args.seed)
    data_dir = args.data_dir or args.index or (service.data_dir() if service else Path.cwd())
    extra = shlex.split(args.jvm_flags)
    reserve = service.native_reserve() if service else 0
    check_budget_above_reserve(budget, reserve, args.workload, service.min_heap() if service else 0)
    unbudgeted = preflight(args, policies, budget, device, Path(data_dir), jdk, reserve)

    def make(policy: str, rep: int, run_dir: Path) -> RunConfig:
        pol = parse_policy(policy)
        return RunConfig(
            policy=pol, budget=budget, device=device, jdk=jdk_for_policy(pol, jdk), program=list(program),
            data_dir=Path(data_dir), run_dir=run_dir, extra_jvm_flags=extra,
            drop_caches=not args.no_drop_caches, timeout_s=args.timeout,
            thrash=getattr(args, "thrash_limit", ThrashLimit()),  # demo has no --thrash-limit
            sample_interval_s=args.sample_interval, index_bytes=index_bytes,
            cgroup_parent=args.cgroup_parent, label=f"{policy}" + (f" rep {rep}" if rep else ""),
            service=service, unbudgeted=unbudgeted, jfr=getattr(args, "jfr", False),
            read_ahead=args.read_ahead_bytes,  # settled by preflight
            partner=shlex.split(args.partner) if getattr(args, "partner", None) else None,
        )

    print(f"budget {format_size(budget)}" + (f" (index {format_size(index_bytes)})" if index_bytes else "")
          + f", device {device.name}, JDK {jdk.home}" + (f"  [{UNBUDGETED.upper()}]" if unbudgeted else ""))
    return make


# ---------------------------------------------------------------- commands


def cmd_run(args: argparse.Namespace, program: list[str] | None) -> int:
    parse_policy(args.policy)  # fail fast on typos
    make = make_config_factory(args, program, [args.policy])
    out = args.out or _default_out("run")
    summary = run_once(make(args.policy, 0, out))
    print_summary(summary)
    print(f"run folder: {out}")
    return 0 if summary.get("ok") else 1


def _compare_and_report(args: argparse.Namespace, policies: list[str], reps: int, baseline: str,
                        program: list[str] | None, command: str, plots_wanted: bool = True,
                        after_runs: Any = None) -> dict[str, Any]:
    # Canonical names ('static:1g' -> 'static:1024m') so the baseline matches run summaries.
    policies = [parse_policy(p).name for p in policies]
    baseline = parse_policy(baseline).name
    twice = sorted({p for p in policies if policies.count(p) > 1})
    if twice:
        raise UsageError(f"policy {', '.join(twice)} named more than once; to run one policy as two columns "
                         f"(an A/A calibration), label them: {twice[0]}@a,{twice[0]}@b")
    if baseline not in policies:
        raise UsageError(f"baseline {baseline} is not one of the compared policies ({', '.join(policies)}); "
                         "add it to --policies or choose one of them")
    from . import plots
    from .compare import render_text, run_comparison
    make = make_config_factory(args, program, policies)
    out = args.out or _default_out(command)
    agg = run_comparison(policies, reps, make, out, baseline, warmup=args.warmup)
    if after_runs is not None:
        after_runs(agg, out)
    print()
    print(render_text(agg))
    print(f"\nwritten: {out / 'comparison.json'}, {out / 'comparison.md'}")
    if plots_wanted:
        try:
            for path in plots.plot_comparison(out):
                print(f"plot: {path}")
        except Exception as e:  # plots must not lose a finished comparison
            print(f"warning: plotting failed: {e!r}", file=sys.stderr)
    return agg


def cmd_compare(args: argparse.Namespace, program: list[str] | None) -> int:
    policies = [p.strip() for p in args.policies.split(",") if p.strip()]
    # A baseline outside --policies is an error (exit 2), never silently another policy.
    agg = _compare_and_report(args, policies, args.reps, args.baseline, program, "compare", not args.no_plots)
    return 0 if all(agg["ok_runs"].values()) else 1


def sweep_sizes(args: argparse.Namespace, budget: int | None) -> list[str]:
    if args.sizes:
        return [f"static:{s.strip()}" for s in args.sizes.split(",") if s.strip()]
    if budget is None:
        raise UsageError("--fractions needs --budget (or give --sizes)")
    # A service's caps stop where its native reserve starts, as the fraction policies' do: a cap
    # above it is OOM-killed, not measured (duplicates are swept once).
    try:
        workload = getattr(args, "workload", None)
        service = parse_workload(workload) if is_service_workload(workload) else None
    except ValueError as e:
        raise UsageError(f"--workload {workload}: {e}") from None
    reserve = service.native_reserve() if service else 0
    check_budget_above_reserve(budget, reserve, workload, service.min_heap() if service else 0)
    caps: list[str] = []
    for f in (f for f in args.fractions.split(",") if f.strip()):
        share = Policy(f"fraction {f.strip()}", heap_fraction=float(f))
        uncapped, cap = max_heap_bytes(share, budget), max_heap_bytes(share, budget, reserve)
        if cap < uncapped:
            print(f"note: --fractions {f.strip()}: cap {format_size(cap)}, not {format_size(uncapped)}: "
                  f"{workload} keeps {format_size(reserve)} of the budget for native memory", file=sys.stderr)
        name = f"static:{max(1, cap >> 20)}m"
        if name not in caps:
            caps.append(name)
    return caps


def check_budget_above_reserve(budget: int | None, reserve: int, workload: str, min_heap: int = 0) -> None:
    """A budget the service's native memory fills, or that leaves less heap than the service
    starts with, is refused before any run (exit 2)."""
    if budget is None:
        return
    if reserve >= budget:
        raise UsageError(f"budget {format_size(budget)} leaves no heap: {workload} keeps {format_size(reserve)} "
                         "of it for native memory; give a larger --budget or native_reserve=<size>")
    if budget - reserve < min_heap:
        raise UsageError(f"budget {format_size(budget)} less {workload}'s native reserve of {format_size(reserve)} "
                         f"leaves a {format_size(budget - reserve)} heap; it needs at least {format_size(min_heap)}: "
                         "give a larger --budget")


def write_oracle(agg: dict[str, Any], out: Path) -> dict[str, Any]:
    """The sweep's oracles into comparison.json ('oracle'), oracle.json and oracle.md."""
    from . import oracle
    report = oracle.compute(agg.get("runs", []))
    agg["oracle"] = report
    import json
    (out / "oracle.json").write_text(json.dumps(report, indent=2, default=str) + "\n")
    (out / "oracle.md").write_text(oracle.render(report, "github") + "\n")
    cj = out / "comparison.json"
    if cj.exists():
        data = json.loads(cj.read_text())
        data["oracle"] = report
        cj.write_text(json.dumps(data, indent=2, default=str) + "\n")
    return report


def cmd_sweep(args: argparse.Namespace, program: list[str] | None) -> int:
    from . import oracle
    budget, _ = resolve_budget(args)
    policies = sweep_sizes(args, budget) + [p.strip() for p in args.also.split(",") if p.strip()]
    agg = _compare_and_report(args, policies, args.reps, policies[0], program, "sweep",
                              after_runs=write_oracle)
    report = agg["oracle"]
    print()
    print(oracle.render(report))
    if report["best_static"] is None:
        print("no static size completed successfully")
        return 1
    print(f"\noracle: best static max heap {report['best_static'].split(':', 1)[1]} "
          f"(median mix time {report['best_static_s']:.1f} s); per-phase oracle "
          + (f"{report['oracle_s']:.1f} s" if report["oracle_s"] is not None else "-"))
    return 0


def cmd_oracle(args: argparse.Namespace) -> int:
    from . import oracle
    runs = oracle.load_runs(args.dir)
    if not runs:
        raise UsageError(f"{args.dir} has no runs/*/summary.json")
    report = write_oracle({"runs": runs}, args.dir)
    print(oracle.render(report))
    print(f"\nwritten: {args.dir / 'oracle.json'}, {args.dir / 'oracle.md'}")
    return 0 if report["best_static"] else 1


def cmd_budget_curve(args: argparse.Namespace) -> int:
    from . import budget_curve
    cv = budget_curve.curve(budget_curve.load(args.dirs), args.baseline, args.phases, args.subject)
    measured = {p for (_, p), c in cv["cells"].items() if "median" in c}
    if not measured:
        raise UsageError(f"no ok run with a {args.phases}* throughput in {', '.join(map(str, args.dirs))}")
    if args.subject and args.subject not in measured:
        raise UsageError(f"--subject {args.subject}: no ok run of it (policies: {', '.join(cv['policies'])})")
    out = args.out or Path(args.dirs[0]).resolve().parent
    out.mkdir(parents=True, exist_ok=True)
    text = budget_curve.markdown(cv)
    (out / "budget-curve.md").write_text(text)
    png = budget_curve.plot(cv, out / "budget-curve.png")
    print(text)
    print(f"written: {out / 'budget-curve.md'}, {png}")
    return 0


def cmd_elasticity(args: argparse.Namespace) -> int:
    from . import elasticity
    if not (args.window > 0) or not (args.min_change > 0):
        raise UsageError("--window and --min-change must be positive")
    files = elasticity.run_decision_files(args.paths)
    if not files:
        raise UsageError(f"no decisions.csv under {', '.join(map(str, args.paths))}")
    table, runs, pinned = elasticity.report(files, args.window, args.min_change, args.policy_filter or None)
    print(table)
    return 0 if runs > 0 and pinned == runs else 1


def cmd_phases(args: argparse.Namespace) -> int:
    from . import phase_report
    runs = phase_report.run_folders(args.paths)
    if not runs:
        raise UsageError(f"no run folder (with summary.json) under {', '.join(map(str, args.paths))}")
    table, counted = phase_report.report(runs, args.policy_filter or None, args.runs)
    if not counted:
        raise UsageError("no run with phases"
                         + (f" of a policy holding {args.policy_filter!r}" if args.policy_filter else ""))
    print(table)
    return 0


def cmd_plot(args: argparse.Namespace) -> int:
    from . import plots
    paths: list[Path] = args.paths
    written: list[Path] = []
    if len(paths) == 1 and (paths[0] / "comparison.json").exists():
        written = plots.plot_comparison(paths[0], args.out, args.overlay)
    else:
        runs = [p for p in paths if (p / "summary.json").exists()]
        missing = [p for p in paths if p not in runs]
        if missing:
            print(f"error: not run folders (no summary.json): {', '.join(map(str, missing))}", file=sys.stderr)
            return 2
        out = args.out or runs[0]
        out.mkdir(parents=True, exist_ok=True)
        written.append(plots.plot_timelines(runs, out / "timeline.png"))
        if args.overlay:
            written.append(plots.plot_overlay(runs, out / "timeline-overlay.png"))
    for w in written:
        print(f"plot: {w}")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from . import results_manifest, results_report
    manifest_path = args.manifest or results_manifest.default_manifest()
    if args.add:
        if args.entry_command is None:
            raise UsageError("--add needs --command \"...\": the exact command line that produced the result")
        entry, left = results_manifest.add(manifest_path, args.add[0], Path(args.add[1]), args.entry_command,
                                           args.title, args.notes, args.name, args.label)
        print(f"added to {manifest_path}: [{entry.section}] {entry.title}: {entry.data}"
              + (f", {len(entry.plots)} plot(s)" if entry.plots else ""))
        if left:
            print(f"not copied (only the entry's result JSON and PNG plots are): {', '.join(left)}")
    elif any((args.entry_command, args.title, args.notes, args.name, args.label)):
        raise UsageError("--command, --title, --notes, --name and --label go with --add SECTION PATH")
    try:
        manifest = results_manifest.load(manifest_path)
    except results_manifest.ManifestError as e:
        if not args.check:
            raise
        print(f"report --check: FAILED: {e}", file=sys.stderr)
        return 1
    output = args.output or manifest.output
    for orphan in results_report.unreferenced_data(manifest):
        print(f"warning: {orphan} is named by no entry of {manifest_path}", file=sys.stderr)
    if args.commands:
        print(results_report.commands(manifest), end="")
        return 0
    if args.check:
        problems = results_report.check(manifest, output)
        for p in problems:
            print(f"report --check: FAILED: {p}", file=sys.stderr)
        if not problems:
            print(f"report --check: {output} and the {len(manifest.entries)} entries' "
                  f"{results_manifest.PAGE} are what {manifest_path} regenerates; every table has its command")
        return 1 if problems else 0
    output.parent.mkdir(parents=True, exist_ok=True)
    full, indexed = results_report.split(manifest)
    changed = results_report.write(manifest, output)
    measured = sum(1 for s in results_manifest.SECTIONS if manifest.in_section(s.id))
    print(f"written: {output} ({len(full)} result(s) in full, {len(indexed)} in its index of earlier measurements; "
          f"{measured} of {len(results_manifest.SECTIONS)} sections with results) and the entries' "
          f"{results_manifest.PAGE} in their data folders ({len(changed)} file(s) changed)")
    for orphan in results_report.orphan_pages(manifest):
        print(f"warning: {orphan} is the page of no entry; remove it (report --check fails on it)", file=sys.stderr)
    if args.add and manifest.current_builds is not None:
        added = next(e for e in reversed(manifest.entries) if e.data == entry.data)
        if any(e is added for e in full):
            print(f"{entry.title}: on the current default, in full in {output}")
        else:
            built = results_report.build(manifest, added, results_manifest.read_json(manifest.root / added.data))
            print(f"{entry.title}: not on the current default ({', '.join(manifest.current_builds) or 'none listed'}): "
                  f"one line of {output.name}'s index, in full in {manifest.root / added.page}"
                  + (f". If FlexHeap {built} runs today's default, add it to current_builds in {manifest_path}"
                     if built and built not in manifest.current_builds else ""))
    return 0


def _sigterm(_signum: int, _frame: Any) -> None:
    # Turn SIGTERM into the same orderly teardown as Ctrl-C (kill the cgroup, rmdir it).
    raise KeyboardInterrupt


def require_service_jdks(args: argparse.Namespace) -> None:
    """Refuse a policy whose JDK the service workload cannot start on, before anything runs."""
    workload = getattr(args, "workload", None)
    if not is_service_workload(workload):
        return
    try:
        service = parse_workload(workload)
    except ValueError as e:
        raise UsageError(f"--workload {workload}: {e}") from None
    for policy in policies_named_in(args):
        problem = service.jdk_problem(policy.jdk)
        if problem:
            raise UsageError(f"policy {policy.name} cannot run {workload}: {problem}; leave it out of the policies")


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    program: list[str] | None = None
    if "--" in argv:
        i = argv.index("--")
        argv, program = argv[:i], argv[i + 1:]
        if not program:
            program = None
    if argv[:1] == ["calibrate"]:  # its own options (calibration.py), passed through
        from .calibration import main as calibrate
        return calibrate(argv[1:])
    args = build_parser().parse_args(argv)
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(line_buffering=True)  # progress shows live when piped to a file
    signal.signal(signal.SIGTERM, _sigterm)
    # Ctrl-C must tear runs down even if our parent started us with SIGINT ignored.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        require_policy_jdks(policies_named_in(args))  # e.g. g1-26 without the JDK-26 baseline: exit 2
        require_service_jdks(args)  # e.g. g1-26 on opensearch: exit 2 before any run
        if args.command == "plot":
            return cmd_plot(args)
        if args.command == "oracle":
            return cmd_oracle(args)
        if args.command == "recheck":
            from .compare import recheck_comparison, render_text
            agg = recheck_comparison(args.dir)
            print(render_text(agg))
            failed = agg.get("failed_runs") or {}
            return 0 if not any(failed.values() if isinstance(failed, dict) else [failed]) else 1
        if args.command == "elasticity":
            return cmd_elasticity(args)
        if args.command == "budget-curve":
            return cmd_budget_curve(args)
        if args.command == "phases":
            return cmd_phases(args)
        if args.command == "report":
            return cmd_report(args)
        with measuring(["flexheap-bench", *argv]):  # a second measuring command meanwhile: exit 2
            if args.command == "run":
                return cmd_run(args, program)
            if args.command == "compare":
                return cmd_compare(args, program)
            if args.command == "sweep":
                return cmd_sweep(args, program)
            if args.command == "demo":
                from .demo import run_demo
                return run_demo(args)
    except KeyboardInterrupt:
        print("\ninterrupted; the run's cgroup was cleaned up", file=sys.stderr)
        return 130
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 2
