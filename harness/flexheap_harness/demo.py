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

"""`flexheap-bench demo`: build or reuse everything, then compare the four policies.

Steps (each reused when already done):
  1. FlexHeap JDK      bash jdk/build.sh                 -> build/flexheap-jdk
  2. bench jar         bash bench/run.sh info            -> bench/target/flexheap-bench.jar
  3. demo index        bench build-index --size-mb N     -> ~/.cache/flexheap/index-demo
     (--workload phases: its data file instead           -> ~/.cache/flexheap/phases-demo.dat)
  4. compare           g1-90, g1-50, vg1, flexheap under a budget below the index size
  5. plots             timeline.png (Fig. 1/11 style), throughput.png (Fig. 7 style)
Ends with a row per policy (ratio to the baseline with its 95% CI), the plot files and the
command behind the full results (`./flexheap harness report`).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

from .integrity import refusal_message
from .jdk import bench_jar, find_jdk, flexheap_jdk_dir, repo_root
from .sizes import check_budget_syntax, directory_size, format_size

DEFAULT_INDEX = Path.home() / ".cache" / "flexheap" / "index-demo"

# --workload phases: the paper's motivating case as one program (bench `run --workload phases`):
# a 400 MiB live set with heavy allocation (a large heap saves GC), then random 4 KiB reads of a
# 768 MiB file that fits in a 1 GiB budget only beside a small heap (page cache saves I/O), twice.
# No static heap is right for both phases; no index is needed.
PHASES_FILE = Path.home() / ".cache" / "flexheap" / "phases-demo.dat"
PHASES_FILE_SIZE, PHASES_LIVE_SIZE = "768m", "400m"
BENCH_JAR_REL = Path("bench") / "target" / "flexheap-bench.jar"  # in printed commands, from the repository
# Per workload: default budget and scale (M1 runs on the index, so its budget is a multiple of it).
WORKLOAD_DEFAULTS = {"phases": ("1g", 0.3)}
INDEX_DEFAULTS = ("0.6x", 0.1)


def add_demo_arguments(d: argparse.ArgumentParser) -> None:
    from .cli import READ_AHEAD_HELP, _absolute_path, add_warmup_argument, device_arg, policy_list, read_ahead_arg

    d.add_argument("--budget", type=check_budget_syntax,
                   help="DRAM budget, size or multiple of the index size (default 0.6x: below the index, "
                        "so heap and page cache compete; 1g for --workload phases)")
    d.add_argument("--scale", type=float, help="workload --scale (default 0.1; 0.3 for --workload phases)")
    d.add_argument("--reps", type=int, default=3,
                   help="repetitions per policy (default 3; with 2, the 95%% t interval of a paired ratio uses t = 12.7 "
                        "and almost never excludes 1)")
    add_warmup_argument(d)
    d.add_argument("--device", default="nvme", type=device_arg, help="device profile (default nvme)")
    d.add_argument("--policies", default="g1-90,g1-50,vg1,flexheap", type=policy_list,
                   help="comma list (default all four)")
    d.add_argument("--baseline", default="g1-90", help="ratio baseline (default g1-90)")
    d.add_argument("--workload", default="M1",
                   help="bench workload (default M1, the paper's phased query mix on the demo index); 'phases': "
                        f"a live set of {PHASES_LIVE_SIZE} with heavy allocation, then random reads of a "
                        f"file of {PHASES_FILE_SIZE}, twice (no index; the file is {PHASES_FILE})")
    d.add_argument("--clients", type=int, help="bench --clients")
    d.add_argument("--read-ahead", type=read_ahead_arg, metavar="SIZE|keep", help=READ_AHEAD_HELP)
    d.add_argument("--seed", type=int, default=42, help="workload and index seed (default 42)")
    d.add_argument("--index", type=_absolute_path, default=DEFAULT_INDEX, help=f"index folder (default {DEFAULT_INDEX})")
    d.add_argument("--index-size-mb", type=int, default=2048, help="demo index size in MB (default 2048)")
    d.add_argument("--timeout", type=float, default=900, help="per-run timeout in s (default 900)")
    d.add_argument("--jdk", help="use this JDK instead of building the FlexHeap JDK")
    d.add_argument("--skip-jdk-build", action="store_true",
                   help="do not run jdk/build.sh; without a FlexHeap JDK the flexheap policy is dropped")
    d.add_argument("--jvm-flags", default="", help="extra JVM flags for every run")
    d.add_argument("--out", type=_absolute_path, help="output folder (default results/<time>-demo)")
    d.add_argument("--unbudgeted", action="store_true",
                   help="run even where the budget / device profile cannot be enforced (not root, no memory "
                        "controller); every table then says 'unbudgeted'. Without it the demo refuses (exit 2).")


def _step(n: int, text: str) -> None:
    print(f"\n== demo step {n}/5: {text}", flush=True)


def _run_logged(cmd: list[str], log_path: Path, what: str) -> None:
    """Runs a long build with its output in a log file, printing a heartbeat and the last line."""
    log_path.parent.mkdir(parents=True, exist_ok=True)
    print(f"   $ {' '.join(cmd)}   (log: {log_path})", flush=True)
    t0 = time.time()
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, cwd=repo_root(), stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        while True:
            try:
                proc.wait(timeout=30)
                break
            except subprocess.TimeoutExpired:
                last = _last_line(log_path)
                print(f"   ... {what}: {time.time() - t0:4.0f}s  {last[:100]}", flush=True)
    if proc.returncode != 0:
        tail = "".join(open(log_path, errors="replace").readlines()[-25:])
        raise SystemExit(f"error: {what} failed (exit {proc.returncode}); tail of {log_path}:\n{tail}")
    print(f"   {what} done in {time.time() - t0:.0f}s", flush=True)


def _last_line(path: Path) -> str:
    try:
        lines = open(path, errors="replace").read().strip().splitlines()
        return lines[-1].strip() if lines else ""
    except OSError:
        return ""


def ensure_jdk(args: argparse.Namespace, logs: Path) -> str | None:
    if args.jdk:
        return args.jdk
    target = flexheap_jdk_dir()
    if (target / "bin" / "java").exists():
        print(f"   reusing FlexHeap JDK {target}")
        return str(target)
    if args.skip_jdk_build:
        print("   no FlexHeap JDK and --skip-jdk-build: baselines run on the stock JDK")
        return None
    _run_logged(["bash", "jdk/build.sh"], logs / "jdk-build.log", "FlexHeap JDK build")
    return str(target)


def ensure_jar(logs: Path) -> Path:
    jar = bench_jar()
    if jar.exists():
        print(f"   reusing bench jar {jar}")
        return jar
    _run_logged(["bash", "bench/run.sh", "info"], logs / "bench-build.log", "bench jar build")
    if not jar.exists():
        raise SystemExit(f"error: bench/run.sh finished but {jar} does not exist")
    return jar


def ensure_index(java: Path, jar: Path, index: Path, size_mb: int, seed: int, logs: Path) -> int:
    stamp = index.with_name(index.name + ".stamp.json")
    want = {"size_mb": size_mb, "seed": seed, "jar": str(jar)}
    try:
        have = json.loads(stamp.read_text())
    except (OSError, ValueError):
        have = None
    if have and have.get("size_mb") == size_mb and have.get("seed") == seed and index.exists():
        size = directory_size(index)
        print(f"   reusing index {index} ({format_size(size)})")
        return size
    index.parent.mkdir(parents=True, exist_ok=True)
    _run_logged([str(java), "-jar", str(jar), "build-index", "--index", str(index),
                 "--size-mb", str(size_mb), "--seed", str(seed)], logs / "build-index.log", "index build")
    stamp.write_text(json.dumps(want) + "\n")
    size = directory_size(index)
    print(f"   index {index}: {format_size(size)}")
    return size


def is_phases(args: argparse.Namespace) -> bool:
    return args.workload == "phases"


def apply_workload_defaults(args: argparse.Namespace) -> None:
    """Fills --budget and --scale left out with the workload's defaults (idempotent)."""
    budget, scale = WORKLOAD_DEFAULTS.get(args.workload, INDEX_DEFAULTS)
    if args.budget is None:
        args.budget = budget
    if args.scale is None:
        args.scale = scale


def data_path(args: argparse.Namespace) -> Path:
    """What the workload reads: the index, or the phases program's file."""
    return PHASES_FILE if is_phases(args) else args.index


def _enforcement_problems(args: argparse.Namespace) -> list[str]:
    from .cgroups import detect
    from .devices import block_device_near, parse_profile
    from .integrity import enforcement_problems
    # the data may not exist yet: its disk is its nearest existing parent's
    block = block_device_near(data_path(args))
    return enforcement_problems(detect(None), 1, parse_profile(args.device), block, data_path(args))


def ensure_phases_file(java: Path, jar: Path, path: Path, logs: Path) -> int:
    """The phases program's data file, written once by the bench itself (seeded random bytes,
    synced and evicted) in a run of one minimal round, outside any measurement."""
    from .sizes import parse_size
    want = parse_size(PHASES_FILE_SIZE, "file size")
    if path.exists() and path.stat().st_size >= want:
        print(f"   reusing data file {path} ({format_size(path.stat().st_size)})")
        return want
    path.parent.mkdir(parents=True, exist_ok=True)
    _run_logged([str(java), "-jar", str(jar), "run", "--workload", "phases", "--data-file", str(path),
                 "--file-size", PHASES_FILE_SIZE, "--live-size", "1m", "--alloc-size", "64k", "--reads", "1",
                 "--rounds", "1", "--out", os.devnull], logs / "phases-file.log", "phases data file")
    if not path.exists() or path.stat().st_size < want:
        raise SystemExit(f"error: the bench finished but {path} is smaller than {PHASES_FILE_SIZE}")
    print(f"   data file {path}: {format_size(path.stat().st_size)}")
    return want


def phases_program(args: argparse.Namespace, jar: Path | str, scale: float) -> list[str]:
    """The bench command line of the phases program ({workload_json}: the harness's per-run file)."""
    cmd = ["-jar", str(jar), "run", "--workload", "phases", "--data-file", str(PHASES_FILE),
           "--file-size", PHASES_FILE_SIZE, "--live-size", PHASES_LIVE_SIZE, "--scale", f"{scale:g}",
           "--seed", str(args.seed)]
    if args.clients:
        cmd += ["--clients", str(args.clients)]
    return cmd + ["--out", "{workload_json}"]


def run_demo(args: argparse.Namespace) -> int:
    from .cli import _compare_and_report, _default_out
    from .compare import render_policy_rows
    from .sizes import is_fraction

    apply_workload_defaults(args)
    if is_phases(args) and is_fraction(args.budget):
        print(f"error: --budget {args.budget} is a multiple of the index, and --workload phases reads no index; "
              "give a size such as 1g", file=sys.stderr)
        return 2
    out = args.out or _default_out("demo")
    args.requested_jdk = args.jdk  # for the reproduce commands (args.jdk is filled in below)
    logs = out / "build-logs"
    # Refuse before building anything when the budget or device profile could not be enforced.
    problems = _enforcement_problems(args)
    if problems and not args.unbudgeted:
        print(f"error: {refusal_message(problems)}", file=sys.stderr)
        return 2

    _step(1, "FlexHeap JDK")
    jdk_home = ensure_jdk(args, logs)
    jdk, warning = find_jdk(jdk_home)
    if jdk is None:
        raise SystemExit(f"error: {warning}")
    policies = [p.strip() for p in args.policies.split(",") if p.strip()]
    if not jdk.is_flexheap_build and "flexheap" in policies:
        print(f"warning: {warning}; dropping the flexheap policy", file=sys.stderr)
        policies.remove("flexheap")

    _step(2, "bench jar")
    jar = ensure_jar(logs)

    program = None
    if is_phases(args):
        _step(3, f"phases data file ({PHASES_FILE_SIZE})")
        index_bytes = ensure_phases_file(jdk.java, jar, PHASES_FILE, logs)
        program = phases_program(args, jar, args.scale)
        args.index = None  # the runs read the file; its folder's disk gets the device profile
    else:
        _step(3, f"demo index ({args.index_size_mb} MB)")
        index_bytes = ensure_index(jdk.java, jar, args.index, args.index_size_mb, args.seed, logs)

    data = f"a file of {format_size(index_bytes)}" if is_phases(args) else f"an index of {format_size(index_bytes)}"
    _step(4, f"compare {', '.join(policies)} x {args.reps}: budget {args.budget}, {data}, "
             f"device {args.device}, {args.workload} scale {args.scale}")
    # The compare machinery takes the same namespace as `compare`; fill in what demo does not expose.
    data_dir = str(PHASES_FILE.parent) if is_phases(args) else None
    for name, value in (("jdk", str(jdk.home)), ("jar", jar), ("data_dir", data_dir), ("cgroup_parent", None),
                        ("no_drop_caches", False), ("sample_interval", 1.0), ("out", out)):
        setattr(args, name, value)
    if args.baseline not in policies:
        print(f"error: baseline {args.baseline} is not one of the demo's policies ({', '.join(policies)})",
              file=sys.stderr)
        return 2
    print(f"   baseline {args.baseline}", flush=True)
    agg = _compare_and_report(args, policies, args.reps, args.baseline, program, "demo")

    _step(5, "done")
    print()
    print(render_policy_rows(agg))
    print()
    for line in closing_lines(args, policies, index_bytes, out):
        print(line)
    return 0 if all(agg["ok_runs"].values()) else 1


REPORT_COMMAND = "./flexheap harness report"


def closing_lines(args: argparse.Namespace, policies: list[str], index_bytes: int, out: Path) -> list[str]:
    """Where the table and plots are, how to rerun this demo, and last the one command behind the
    full results (docs/results.md) with how to re-run its measurements."""
    plots = [p for p in (out / "timeline.png", out / "throughput.png") if p.exists()]
    return [
        f"   table:  {out / 'comparison.md'}",
        f"   reproduce this table:          {reproduce_command(args, policies)}",
        f"   this comparison at full scale: {full_results_command(args, policies, index_bytes)}",
        "   plots:  " + (", ".join(str(p) for p in plots) if plots else "none (plotting failed, see above)"),
        f"   the full results: {REPORT_COMMAND}   (docs/results.md from docs/results/manifest.toml, every table "
        "with the command that produced it)",
        f"     to re-measure them: {REPORT_COMMAND} --commands | bash   (then put each new folder back with "
        f"{REPORT_COMMAND} --add SECTION RUN_DIR --command \"...\")",
    ]


def _policy_arg(policies: list[str]) -> str:
    return ",".join(policies)


def _shared_options(args: argparse.Namespace) -> list[str]:
    """The options both commands below repeat when the demo was given them."""
    from .compare import DEFAULT_WARMUP
    opts = ["--jdk", str(args.requested_jdk)] if getattr(args, "requested_jdk", None) else []
    if args.warmup != DEFAULT_WARMUP:
        opts += ["--warmup", str(args.warmup)]
    if args.jvm_flags:
        opts.append("--jvm-flags=" + shlex.quote(args.jvm_flags))
    if args.unbudgeted:
        opts.append("--unbudgeted")
    if args.read_ahead is not None:  # the default is every command's own
        opts += ["--read-ahead", f"{args.read_ahead >> 10}k" if args.read_ahead else "keep"]
    return opts


def reproduce_command(args: argparse.Namespace, policies: list[str]) -> str:
    """The one command that reruns exactly this demo (same index, budget, mix, scale, reps, seed)."""
    apply_workload_defaults(args)
    cmd = ["./flexheap", "demo", "--budget", args.budget, "--scale", f"{args.scale:g}", "--reps", str(args.reps),
           "--device", args.device, "--policies", _policy_arg(policies), "--baseline", args.baseline,
           "--workload", args.workload, "--seed", str(args.seed)]
    if not is_phases(args):
        cmd += ["--index-size-mb", str(args.index_size_mb)]
    if args.index and args.index != DEFAULT_INDEX:
        cmd += ["--index", str(args.index)]
    if args.timeout != 900:
        cmd += ["--timeout", f"{args.timeout:g}"]
    return " ".join(cmd + _shared_options(args))


def full_results_command(args: argparse.Namespace, policies: list[str], index_bytes: int) -> str:
    """The same comparison at full scale (the whole mix, 3 interleaved repetitions); for the phases
    program, the static sweep beside the same policies, which also gives the per-phase oracle."""
    apply_workload_defaults(args)
    if is_phases(args):
        cmd = ["./flexheap", "harness", "sweep", "--fractions", "0.5,0.7,0.9", "--also", _policy_arg(policies),
               "--reps", str(max(3, args.reps)), "--budget", args.budget, "--device", args.device,
               "--workload", "phases", "--data-dir", str(PHASES_FILE.parent)]
        return " ".join(cmd + _shared_options(args) + ["--"] + phases_program(args, "$PWD/" + str(BENCH_JAR_REL),
                                                                                args.scale))
    cmd = ["./flexheap", "harness", "compare", "--policies", _policy_arg(policies), "--baseline", args.baseline,
           "--reps", str(max(3, args.reps)), "--budget", args.budget, "--index", str(args.index),
           "--workload", args.workload, "--scale", "1", "--device", args.device, "--seed", str(args.seed)]
    return " ".join(cmd + _shared_options(args))
