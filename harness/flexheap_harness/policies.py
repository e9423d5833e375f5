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

"""Heap-sizing policies and their mapping to JVM flags (a pure function).

A policy names the JDK it runs on (Policy.jdk): the FlexHeap JDK (stock G1 of
OpenJDK 25 plus -XX:+UseFlexHeap), or the stock OpenJDK 26 baseline built by
jdk/baseline/build-jdk26.sh (jdk.py finds it). On the FlexHeap JDK:

  g1-50     stock G1, -Xmx = 50% of the budget (Elasticsearch's guideline), small initial heap
  vendor-50 stock G1, -Xms = -Xmx = 50% of the budget: the fixed heap Elasticsearch's
            automatic heap sizing and OpenSearch's guidance give a data node
  g1-90     stock G1, -Xmx = 90% of the budget
  vg1       stock G1 + periodic GC every second (-XX:G1PeriodicGCInterval=1000), -Xmx 90%
  flexheap  -XX:+UseFlexHeap, -Xmx 90% (the paper's setting); the default controller,
            FlexHeapPolicy=balance
  flexheap-paper  the paper's controller (-XX:+UseFlexHeap -XX:FlexHeapPolicy=paper: the
            Fig. 4 state machine), -Xmx 90%
  static:S  stock G1 with a fixed -Xmx S (used by the oracle sweep)
  fixed:S   stock G1 with -Xms = -Xmx = S: a heap that never resizes, to compare
            collectors at one heap size (fixed-26:S runs on the JDK 26 baseline)
  flexheap:FLAG=V[+FLAG=V...]  (also flexheap-paper:...) a FlexHeap policy with
            its own -XX:FlexHeap* settings, to compare settings interleaved in
            one run (e.g. flexheap:FlexHeapCacheReservePercent=30); HeapPercent=P
            sets its -Xmx to P% of the budget instead of 90% (flexheap:HeapPercent=50
            is Elasticsearch's rule with FlexHeap: a service that sizes buffers
            from -Xmx sizes them as under g1-50). A setting of a flag that is not
            one of PRODUCT_FLAGS (the others are experimental) brings
            -XX:+UnlockExperimentalVMOptions, once, before the policy's flags.

On the stock OpenJDK 26 baseline (the newest stock G1: GCTimeRatio 24 for G1 and
CPU-usage-driven expansion and shrinking at young GCs):

  g1-26     JDK 26 defaults, -Xmx = 90% of the budget
  g1-27like as g1-26 plus -XX:MinHeapFreeRatio=0 -XX:MaxHeapFreeRatio=100, the
            defaults JDK 27 adopts (no free-ratio floor or cap after full GCs and
            remarks; the GC-time-driven sizing alone decides)

Any of them may carry a label after '@' (POLICY@LABEL, LABEL of letters, digits, '_',
'.', '-'): the same policy under another name, so that it can be two columns of one
comparison, an A/A calibration of the verdict rule (e.g. --policies flexheap@a,flexheap@b
--baseline flexheap@a). The label changes the column's name and nothing else.

-Xms is deliberately left at the JVM default so every policy can resize, but for
vendor-50, fixed:S and fixed-26:S: with the size held, the difference between
fixed:S and fixed-26:S is the collector's own (JDK 26's G1 changed more than its
sizing), not the heap policy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Sequence

from .sizes import format_size, parse_size, to_jvm_size

GC_LOG_DECORATORS = "uptime,level,tags"

# Which JDK a policy runs on (see jdk.jdk_for_policy).
JDK_FLEXHEAP = "flexheap"  # build/flexheap-jdk or $FLEXHEAP_JDK (or --jdk)
JDK_26 = "jdk26"  # $FLEXHEAP_JDK26 or $FLEXHEAP_CACHE/baseline/jdk-26
# The Java feature release of each (the GC log's "Version: 25.0.3+9-LTS"): runconfig checks
# that a run's JVM was the one its policy runs on.
JDK_FEATURE = {JDK_FLEXHEAP: 25, JDK_26: 26}

# FlexHeap's product flags; every other -XX:FlexHeap* flag is experimental and needs
# UNLOCK_EXPERIMENTAL before it.
PRODUCT_FLAGS = (
    "UseFlexHeap",
    "FlexHeapPolicy",
    "FlexHeapGCTimeRatio",
    "FlexHeapCacheReservePercent",
    "FlexHeapMaxRAMPercentage",
    "FlexHeapIOStallBackend",
    "FlexHeapIOStallLibrary",
    "FlexHeapProactiveGCInterval",
)
UNLOCK_EXPERIMENTAL = "-XX:+UnlockExperimentalVMOptions"


@dataclass(frozen=True)
class Policy:
    name: str
    heap_fraction: float | None = None  # of the budget
    static_heap: int | None = None  # bytes
    flags: tuple[str, ...] = ()
    needs_flexheap: bool = False
    description: str = ""
    jdk: str = JDK_FLEXHEAP
    fixed_heap: bool = False  # -Xms = -Xmx: the heap is held at its maximum


BUILTIN: dict[str, Policy] = {
    "g1-50": Policy("g1-50", heap_fraction=0.5, description="stock G1, max heap 50% of budget"),
    "vendor-50": Policy(
        "vendor-50",
        heap_fraction=0.5,
        fixed_heap=True,
        description="stock G1, heap fixed at 50% of budget (-Xms = -Xmx), as Elasticsearch and OpenSearch "
                    "size a data node",
    ),
    "g1-90": Policy("g1-90", heap_fraction=0.9, description="stock G1, max heap 90% of budget"),
    "vg1": Policy(
        "vg1",
        heap_fraction=0.9,
        flags=("-XX:G1PeriodicGCInterval=1000",),
        description="stock G1 + periodic GC each 1 s (returns memory eagerly), max heap 90%",
    ),
    "flexheap": Policy(
        "flexheap",
        heap_fraction=0.9,
        flags=("-XX:+UseFlexHeap",),
        needs_flexheap=True,
        description="FlexHeap (GC + I/O cost driven resizing), max heap 90% of budget",
    ),
    "flexheap-paper": Policy(
        "flexheap-paper",
        heap_fraction=0.9,
        flags=("-XX:+UseFlexHeap", "-XX:FlexHeapPolicy=paper"),
        needs_flexheap=True,
        description="FlexHeap's paper controller (FlexHeapPolicy=paper, the Fig. 4 state machine), max heap 90%",
    ),
    "g1-26": Policy(
        "g1-26",
        heap_fraction=0.9,
        jdk=JDK_26,
        description="stock G1 of OpenJDK 26 (its defaults), max heap 90% of budget",
    ),
    "g1-27like": Policy(
        "g1-27like",
        heap_fraction=0.9,
        flags=("-XX:MinHeapFreeRatio=0", "-XX:MaxHeapFreeRatio=100"),
        jdk=JDK_26,
        description="OpenJDK 26 G1 with JDK 27's free-ratio defaults (Min 0, Max 100), max heap 90%",
    ),
}


# Policies named with a heap size: name -> (JDK, whether -Xms holds the heap at it).
_SIZED = {"static": (JDK_FLEXHEAP, False), "fixed": (JDK_FLEXHEAP, True), "fixed-26": (JDK_26, True)}


_LABEL = re.compile(r"[A-Za-z0-9_.-]+")


def parse_policy(text: str) -> Policy:
    """'g1-90', 'vg1', 'flexheap', 'static:768m', 'fixed-26:256m', 'flexheap@b' -> Policy."""
    name, at, label = text.strip().partition("@")
    if not at:
        return _parse_unlabelled(name)
    if not _LABEL.fullmatch(label):
        raise ValueError(f"policy {text!r}: the label after '@' must be letters, digits, '_', '.' or '-' "
                         "(e.g. flexheap@a,flexheap@b: the same policy as two columns)")
    policy = _parse_unlabelled(name)
    return replace(policy, name=f"{policy.name}@{label.lower()}",
                   description=f"{policy.description} [label {label.lower()}: the same policy, another column]")


def _parse_unlabelled(text: str) -> Policy:
    key = text.strip().lower()
    if key in BUILTIN:
        return BUILTIN[key]
    base, sep, spec = text.strip().partition(":")
    base = base.lower()
    if sep and base in _SIZED:
        return _sized_policy(base, parse_size(spec))
    if sep and base in ("flexheap", "flexheap-paper"):
        return _flexheap_variant(BUILTIN[base], spec)
    raise ValueError(f"unknown policy {text!r}; choose from {', '.join(BUILTIN)}, static:<size>, "
                     "fixed:<size>, fixed-26:<size> or flexheap:<FlexHeapFlag>=<value>[+...], "
                     "each optionally with @<label>")


def _sized_policy(base: str, size: int) -> Policy:
    """static:S (-Xmx S), fixed:S and fixed-26:S (-Xms = -Xmx = S) on their JDK."""
    jdk, fixed = _SIZED[base]
    stock = "stock G1 of OpenJDK 26" if jdk == JDK_26 else "stock G1"
    return Policy(
        f"{base}:{to_jvm_size(size)}",
        static_heap=size,
        fixed_heap=fixed,
        jdk=jdk,
        description=f"{stock}, heap fixed at {format_size(size)} (-Xms = -Xmx)" if fixed
        else f"{stock}, fixed max heap {format_size(size)}",
    )


_FLEXHEAP_SETTING = re.compile(r"(FlexHeap[A-Za-z]+)=([A-Za-z0-9.]+)")
_HEAP_PERCENT = re.compile(r"HeapPercent=([0-9]+)")


def _xx_flag(setting: str) -> str:
    """FlexHeapX=30 -> -XX:FlexHeapX=30; a boolean as HotSpot takes it: FlexHeapX=false -> -XX:-FlexHeapX."""
    name, value = setting.split("=", 1)
    if value.lower() in ("true", "false"):
        return f"-XX:{'+' if value.lower() == 'true' else '-'}{name}"
    return f"-XX:{setting}"


def _flexheap_variant(base: Policy, spec: str) -> Policy:
    """flexheap:FlexHeapCacheReservePercent=30+FlexHeapGCTimeRatio=19 -> base plus those -XX flags;
    HeapPercent=P among them replaces the base's max heap fraction (P% of the budget). A flag
    outside PRODUCT_FLAGS is experimental: -XX:+UnlockExperimentalVMOptions goes first."""
    settings = [part.strip() for part in spec.split("+")]
    xx: list[str] = []
    percents: list[int] = []
    bad: list[str] = []
    for part in settings:  # each setting matched once: an -XX flag, the heap cap, or neither
        if _FLEXHEAP_SETTING.fullmatch(part):
            xx.append(part)
        elif percent := _HEAP_PERCENT.fullmatch(part):
            percents.append(int(percent.group(1)))
        else:
            bad.append(part)
    if not settings or bad:
        raise ValueError(f"{base.name}:{spec!r}: each setting must be FlexHeap<Name>=<value> or HeapPercent=<1-100>, "
                         "joined by '+'" + (f" (not {', '.join(repr(b) for b in bad)})" if bad else ""))
    fraction = base.heap_fraction
    if percents:
        if len(percents) > 1 or not 1 <= percents[0] <= 100:
            raise ValueError(f"{base.name}:{spec!r}: give HeapPercent once, from 1 to 100 (% of the budget)")
        fraction = percents[0] / 100
    experimental = any(part.split("=", 1)[0] not in PRODUCT_FLAGS for part in xx)
    return Policy(
        f"{base.name}:{'+'.join(settings)}",
        heap_fraction=fraction,
        flags=((UNLOCK_EXPERIMENTAL,) if experimental else ()) + base.flags + tuple(_xx_flag(part) for part in xx),
        needs_flexheap=True,
        description=f"{base.description}; with {', '.join(settings)}",
    )


def policies_named_in(args: object) -> list[Policy]:
    """Every policy a parsed command line names (--policy, --policies, --baseline, --also)."""
    names: list[str] = []
    for attr in ("policy", "policies", "baseline", "also"):
        value = getattr(args, attr, None)
        if isinstance(value, str):
            names += [n.strip() for n in value.split(",") if n.strip()]
    return [parse_policy(n) for n in names]


def max_heap_bytes(policy: Policy, budget: int | None, native_reserve: int = 0) -> int:
    """A static cap as given; a fraction of the budget, but never more than the budget less
    native_reserve, the memory the workload's processes need besides the Java heap (a Spark
    driver's ~440 MiB: at 90% of a 1.5 GiB budget it is OOM-killed under every policy)."""
    if policy.static_heap is not None:
        return policy.static_heap
    if budget is None:
        raise ValueError(f"policy {policy.name} sizes the heap from the budget; give --budget")
    assert policy.heap_fraction is not None
    assert native_reserve >= 0
    by_fraction = int(budget * policy.heap_fraction)
    if native_reserve == 0:
        return by_fraction
    if native_reserve >= budget:
        raise ValueError(f"the budget {format_size(budget)} leaves no heap next to the workload's "
                         f"native reserve of {format_size(native_reserve)}")
    return min(by_fraction, budget - native_reserve)


def gc_log_option(gc_log_path: str, flexheap_tags: bool) -> str:
    # Stock JDKs reject the unknown 'flexheap' tag, so it is only added when the JDK has it.
    selection = "gc*,gc+flexheap=info" if flexheap_tags else "gc*"
    return f"-Xlog:{selection}:file={gc_log_path}:{GC_LOG_DECORATORS}"


def jvm_flags(
    policy: Policy,
    budget: int | None,
    gc_log_path: str,
    extra_flags: Sequence[str] = (),
    flexheap_tags: bool = True,
    native_reserve: int = 0,
) -> list[str]:
    """The JVM options for one run. Extra flags come last so they can override ours."""
    max_heap = to_jvm_size(max_heap_bytes(policy, budget, native_reserve))
    flags = ["-XX:+UseG1GC", f"-Xmx{max_heap}"]
    if policy.fixed_heap:
        flags.append(f"-Xms{max_heap}")
    flags += policy.flags
    flags.append(gc_log_option(gc_log_path, flexheap_tags))
    flags += extra_flags
    return flags
