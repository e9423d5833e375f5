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

"""Whether a run's JVM ran the configuration its policy meant, from the JVM's own start-up lines.

A run is labelled by its policy; this module holds it to that label. expected_config() says what
the JVM flags the harness passed mean (last setting wins, as in HotSpot): the collector, FlexHeap
on or off, its controller (balance or paper), a forced I/O stall backend, the heap bounds, and the
JDK (its Java feature release, and the version its release file names). parse_startup() reads
what the JVM said at start-up in its GC log (-Xlog:gc*,gc+flexheap=info):

  [gc     ] Using G1
  [gc,init] Version: 25.0.3+9-LTS (release)
  [gc,init] Heap Region Size: 1M / Heap Min Capacity: 8M / Heap Initial Capacity: 128M / Heap Max Capacity: 1843M
  [gc,flexheap] I/O stall source: bpf (...)           or  No I/O stall source (...); ...
  [gc,flexheap] Policy balance; page cache (S_io) from ...; max heap 1843M, min heap 8M, ...
  [gc,flexheap] FlexHeap is off: the minimum heap equals the maximum heap ...

and check() lists every difference, each naming the expected and the seen value. The runner
(runner.close_summary) fails a run with any, as it fails a run that crashed. Pure functions but
read_startup(), which reads the run folder's GC log.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from .gclog import parse_line
from .policies import JDK_FEATURE, Policy

COLLECTOR = "G1"  # every policy runs G1 (policies.jvm_flags passes -XX:+UseG1GC)
# The start-up lines all precede the first GC; a log is read up to its first GC line, or this many lines.
STARTUP_LINES = 5000

_SIZE_RE = re.compile(r"^(\d+)([BKMGT]?)$", re.IGNORECASE)
_UNIT = {"": 1, "B": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
_VERSION_RE = re.compile(r"^Version: (\S+)(?: \(([^)]*)\))?")
_CAPACITY_RE = re.compile(r"^Heap (Region Size|Min Capacity|Initial Capacity|Max Capacity): (\S+)$")
_USING_RE = re.compile(r"^Using (\S+)$")
_STALL_RE = re.compile(r"^I/O stall source: (\S+)")
_POLICY_RE = re.compile(r"^Policy (\w+);")
_OFF_RE = re.compile(r"FlexHeap is off\b")
_GC_ID_RE = re.compile(r"^GC\(\d+\)")


@dataclass(frozen=True)
class Expected:
    """What the flags passed to the JVM ask for (None: not asked, anything goes)."""
    policy: str
    collector: str
    flexheap: bool
    flexheap_policy: str | None  # 'balance' or 'paper' when FlexHeap is on
    stall_backend: str | None  # a forced -XX:FlexHeapIOStallBackend (not auto)
    max_heap: int | None  # bytes: -Xmx / -XX:MaxHeapSize
    min_heap: int | None  # -Xms / -XX:MinHeapSize
    initial_heap: int | None  # -Xms / -XX:InitialHeapSize
    jdk_feature: int | None  # 25: the FlexHeap JDK (OpenJDK 25), 26: the stock JDK-26 baseline
    jdk_version: str | None  # the version the JDK's release file names, when it has one


@dataclass(frozen=True)
class Seen:
    """What the JVM said at start-up (None: it did not say)."""
    collector: str | None = None
    version: str | None = None  # '25.0.3+9-LTS'
    build: str | None = None  # 'release', 'fastdebug'
    region_size: int | None = None
    min_heap: int | None = None
    initial_heap: int | None = None
    max_heap: int | None = None
    flexheap_policy: str | None = None  # from FlexHeap's 'Policy ...' line: FlexHeap is on
    stall_source: str | None = None  # 'bpf', 'delayacct', 'psi'; 'none' for "No I/O stall source"
    flexheap_off: str | None = None  # FlexHeap's own word that it turned itself off


def jvm_size(text: str) -> int | None:
    """A HotSpot size ('1843m', '2G', '512k', '1073741824') or the GC log's ('1843M', '1048576B') in bytes."""
    m = _SIZE_RE.match(text.strip())
    if not m:
        return None
    return int(m.group(1)) * _UNIT[m.group(2).upper()]


def feature_release(version: str | None) -> int | None:
    """'25.0.3+9-LTS' -> 25, '26' -> 26, '26-ea+3' -> 26."""
    m = re.match(r"^(\d+)", version or "")
    return int(m.group(1)) if m else None


def expected_config(policy: Policy, flags: Sequence[str], release: Mapping[str, str] | None = None) -> Expected:
    """What a run of policy with these JVM flags (policies.jvm_flags: the policy's, then the extra
    ones) must show; release: the JDK's release file (provenance.release_fields), for its version."""
    flexheap = False
    controller: str | None = None
    backend: str | None = None
    max_heap = min_heap = initial_heap = None
    for flag in flags:
        if flag in ("-XX:+UseFlexHeap", "-XX:-UseFlexHeap"):
            flexheap = flag[4] == "+"
        elif flag.startswith("-XX:FlexHeapPolicy="):
            controller = flag.split("=", 1)[1]
        elif flag.startswith("-XX:FlexHeapIOStallBackend="):
            backend = flag.split("=", 1)[1]
        elif flag.startswith("-Xmx"):
            max_heap = jvm_size(flag[4:])
        elif flag.startswith("-XX:MaxHeapSize="):
            max_heap = jvm_size(flag.split("=", 1)[1])
        elif flag.startswith("-Xms"):
            min_heap = initial_heap = jvm_size(flag[4:])
        elif flag.startswith("-XX:MinHeapSize="):
            min_heap = jvm_size(flag.split("=", 1)[1])
        elif flag.startswith("-XX:InitialHeapSize="):
            initial_heap = jvm_size(flag.split("=", 1)[1])
    release = release or {}
    return Expected(
        policy=policy.name,
        collector=COLLECTOR,
        flexheap=flexheap,
        flexheap_policy=(controller or "balance") if flexheap else None,
        stall_backend=backend if flexheap and backend and backend != "auto" else None,
        max_heap=max_heap,
        min_heap=min_heap,
        initial_heap=initial_heap,
        jdk_feature=JDK_FEATURE.get(policy.jdk),
        jdk_version=release.get("JAVA_RUNTIME_VERSION") or release.get("JVM_VERSION") or None,
    )


def parse_startup(lines: Iterable[str]) -> Seen:
    """The start-up lines of a GC log (decorations as gclog parses them), up to its first GC."""
    found: dict[str, object] = {}
    capacity = {"Region Size": "region_size", "Min Capacity": "min_heap", "Initial Capacity": "initial_heap",
                "Max Capacity": "max_heap"}
    for n, raw in enumerate(lines):
        if n >= STARTUP_LINES:
            break
        line = parse_line(raw)
        if line is None or "gc" not in line.tags:
            continue
        msg = line.message
        if _GC_ID_RE.match(msg):
            break  # the first GC: start-up is over
        if "flexheap" in line.tags:
            if m := _POLICY_RE.match(msg):
                found.setdefault("flexheap_policy", m.group(1))
            elif m := _STALL_RE.match(msg):
                found.setdefault("stall_source", m.group(1))
            elif msg.startswith("No I/O stall source"):
                found.setdefault("stall_source", "none")
            if _OFF_RE.search(msg):
                found.setdefault("flexheap_off", msg)
        elif line.tags == ("gc",):
            if m := _USING_RE.match(msg):
                found.setdefault("collector", m.group(1))
        elif line.tags == ("gc", "init"):
            if m := _VERSION_RE.match(msg):
                found.setdefault("version", m.group(1))
                if m.group(2):
                    found.setdefault("build", m.group(2))
            elif m := _CAPACITY_RE.match(msg):
                found.setdefault(capacity[m.group(1)], jvm_size(m.group(2)))
    return Seen(**found)  # type: ignore[arg-type]


def read_startup(run_dir: Path) -> Seen:
    """The start-up lines of run_dir/gc.log; if the JVM rotated its log (20 MB by default), of the
    rotated file that holds them."""
    candidates = [run_dir / "gc.log"] + sorted(run_dir.glob("gc.log.*"))
    first = Seen()
    for path in candidates:
        try:
            with open(path, errors="replace") as f:
                seen = parse_startup(f)
        except OSError:
            continue
        if seen.collector or seen.version:
            return seen
        if path == candidates[0]:
            first = seen
    return first


# G1's heap alignment is at least the card table's: a card (512 B) for every byte of a 4 KiB page, 2 MiB
# (CardTable::ct_max_alignment_constraint). -Xmx921m in a 1 GiB budget logs a Heap Max Capacity of 922M.
CARD_TABLE_ALIGNMENT = 512 * 4096


def heap_alignment(region: int | None) -> int | None:
    """The alignment HotSpot rounds G1's heap sizes up to: the larger of the region size and the card table's."""
    return max(region, CARD_TABLE_ALIGNMENT) if region else None


def _heap_matches(expected: int, seen: int, region: int | None) -> bool:
    """HotSpot aligns heap sizes up to the heap alignment: seen is expected rounded up to it."""
    align = heap_alignment(region)
    if align:
        return expected <= seen <= -(-expected // align) * align
    return seen == expected


def _mib(n: int | None) -> str:
    if n is None:
        return "none"
    return f"{n >> 20}M" if n % (1 << 20) == 0 else f"{n}B"


def check(expected: Expected, seen: Seen) -> list[str]:
    """Every way the JVM's start-up differs from what its flags asked for: [] when it ran as meant."""
    if seen.collector is None and seen.version is None:
        return ["the GC log holds none of the JVM's start-up lines ('Using ...', 'Version: ...', 'Heap ... Capacity'):"
                " the configuration it ran cannot be shown"]
    problems: list[str] = []
    if seen.collector != expected.collector:
        problems.append(f"collector: expected {expected.collector}, the JVM logged "
                        + (f"'Using {seen.collector}'" if seen.collector else "no 'Using ...' line"))
    if expected.flexheap and seen.flexheap_policy is None:
        problems.append("FlexHeap: expected on (-XX:+UseFlexHeap), the JVM logged no FlexHeap 'Policy ...' line"
                        + (f"; it said: {seen.flexheap_off}" if seen.flexheap_off else ""))
    elif not expected.flexheap and seen.flexheap_policy is not None:
        problems.append(f"FlexHeap: expected off (no -XX:+UseFlexHeap), the JVM logged 'Policy {seen.flexheap_policy}'"
                        " (FlexHeap on)")
    elif expected.flexheap and seen.flexheap_policy != expected.flexheap_policy:
        asked = (f"-XX:FlexHeapPolicy={expected.flexheap_policy}" if expected.flexheap_policy != "balance"
                 else "the default, or -XX:FlexHeapPolicy=balance")
        problems.append(f"FlexHeap policy: expected {expected.flexheap_policy} ({asked}), "
                        f"the JVM logged 'Policy {seen.flexheap_policy}'")
    if expected.stall_backend is not None and seen.stall_source != expected.stall_backend:
        problems.append(f"I/O stall backend: expected {expected.stall_backend} "
                        f"(-XX:FlexHeapIOStallBackend={expected.stall_backend}), the JVM logged "
                        + ("'No I/O stall source'" if seen.stall_source == "none"
                           else f"'I/O stall source: {seen.stall_source}'" if seen.stall_source
                           else "no I/O stall source line"))
    for what, flag, want, got in (("max heap", "-Xmx", expected.max_heap, seen.max_heap),
                                  ("min heap", "-Xms", expected.min_heap, seen.min_heap),
                                  ("initial heap", "-Xms", expected.initial_heap, seen.initial_heap)):
        if want is None:
            continue
        if got is None or not _heap_matches(want, got, seen.region_size):
            problems.append(f"{what}: expected {_mib(want)} ({flag}"
                            + (f", up to the {_mib(heap_alignment(seen.region_size))} heap alignment"
                               if seen.region_size else "")
                            + f"), the JVM logged Heap {what.split()[0].capitalize()} Capacity {_mib(got)}")
    if expected.jdk_feature is not None:
        feature = feature_release(seen.version)
        if feature != expected.jdk_feature:
            problems.append(f"JDK: policy {expected.policy} runs on JDK {expected.jdk_feature}, the JVM logged "
                            + (f"Version: {seen.version}" if seen.version else "no 'Version: ...' line"))
    if expected.jdk_version and seen.version and seen.version != expected.jdk_version:
        problems.append(f"JDK build: expected {expected.jdk_version} (the JDK's release file), the JVM logged "
                        f"Version: {seen.version}")
    return problems


def error_message(problems: Sequence[str]) -> str:
    """One line for summary['error']: the run did not run what its policy names."""
    return "the JVM did not run the configuration its policy means: " + "; ".join(problems)


def recheck_run(run_dir: Path) -> tuple[dict, list[str]]:
    """A finished run's summary.json checked again against its recorded expectation (config_expected)
    and its GC log, by this module's current check: (the updated summary, its problems). A run that
    failed only its configuration check and passes it now becomes ok; any other error stays. For runs
    whose configuration check was wrong when they ran, not to wave through a run that differs."""
    import json  # a maintenance path: the pure checks above need none of it
    path = Path(run_dir) / "summary.json"
    summary = json.loads(path.read_text())
    if "config_expected" not in summary:
        return summary, ["no config_expected recorded: this run predates the configuration check"]
    expected = Expected(**summary["config_expected"])
    seen = read_startup(Path(run_dir))
    problems = check(expected, seen)
    old_errors = summary.get("config_errors") or []
    summary["jvm_config"] = asdict(seen)
    summary["config_ok"] = not problems
    if problems:
        summary["config_errors"] = problems
    else:
        summary.pop("config_errors", None)
        if old_errors and summary.get("error") == error_message(old_errors):
            summary.pop("error", None)
            summary.pop("log_tail", None)
            summary["ok"] = True
    path.write_text(json.dumps(summary, indent=2, default=str) + "\n")
    return summary, problems
