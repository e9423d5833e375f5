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

"""Parsing of unified JVM logging GC logs (-Xlog:gc*,gc+flexheap=info:...:uptime,level,tags).

Only what the harness needs: pauses (kind, heap before/after/committed, ms),
concurrent cycles, and FlexHeap decision lines (`key=value` pairs, tolerant of
keys added later). Decorations may be padded (`[gc          ]`) or reordered.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

_DECOR_RE = re.compile(r"^((?:\[[^\]]*\])+)\s?(.*)$")
_UPTIME_RE = re.compile(r"^(\d+(?:\.\d+)?)(s|ms)$")
_PAUSE_RE = re.compile(
    r"^GC\((\d+)\) Pause (.+?) (\d+(?:\.\d+)?)([KMG])->(\d+(?:\.\d+)?)([KMG])\((\d+(?:\.\d+)?)([KMG])\) (\d+(?:\.\d+)?)ms$"
)
_CONC_RE = re.compile(r"^GC\((\d+)\) Concurrent (Mark|Undo) Cycle (\d+(?:\.\d+)?)ms$")
_GCID_RE = re.compile(r"^GC\((\d+)\)\s*")
_UNIT = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


@dataclass
class LogLine:
    uptime_s: float | None
    level: str
    tags: tuple[str, ...]
    message: str


@dataclass
class Pause:
    uptime_s: float
    gc_id: int
    kind: str  # 'Young (Normal) (G1 Evacuation Pause)', 'Remark', 'Full (System.gc())', ...
    before: int
    after: int
    committed: int
    ms: float

    @property
    def is_full(self) -> bool:
        return self.kind.startswith("Full")

    @property
    def is_young(self) -> bool:
        return self.kind.startswith("Young")


@dataclass
class Decision:
    uptime_s: float
    gc_id: int | None
    fields: dict[str, str]

    def number(self, key: str) -> float | None:
        try:
            return float(self.fields[key])
        except (KeyError, ValueError):
            return None

    @property
    def action(self) -> str:
        return self.fields.get("action", "")


@dataclass
class GcLog:
    pauses: list[Pause] = field(default_factory=list)
    concurrent_cycles_ms: list[float] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    flexheap_other: list[LogLine] = field(default_factory=list)

    def summary(self) -> dict[str, float | int]:
        young = [p for p in self.pauses if p.is_young]
        full = [p for p in self.pauses if p.is_full]
        actions: dict[str, int] = {}
        for d in self.decisions:
            key = d.action.lower()
            actions[key] = actions.get(key, 0) + 1
        return {
            "gc_pauses": len(self.pauses),
            "gc_young": len(young),
            "gc_full": len(full),
            "gc_remark_cleanup": len(self.pauses) - len(young) - len(full),
            "gc_pause_ms": round(sum(p.ms for p in self.pauses), 3),
            "gc_pause_max_ms": round(max((p.ms for p in self.pauses), default=0.0), 3),
            "gc_concurrent_cycles": len(self.concurrent_cycles_ms),
            "heap_committed_max": max((p.committed for p in self.pauses), default=0),
            "heap_after_gc_max": max((p.after for p in self.pauses), default=0),
            "flexheap_decisions": len(self.decisions),
            **{f"flexheap_{k or 'unknown'}": v for k, v in sorted(actions.items())},
        }


def parse_line(line: str) -> LogLine | None:
    m = _DECOR_RE.match(line.rstrip("\n"))
    if not m:
        return None
    decorations = [d.strip() for d in m.group(1)[1:-1].split("][")]
    uptime: float | None = None
    level = ""
    tags: tuple[str, ...] = ()
    for d in decorations:
        um = _UPTIME_RE.match(d)
        if um and uptime is None:
            uptime = float(um.group(1)) / (1000.0 if um.group(2) == "ms" else 1.0)
        elif d in ("trace", "debug", "info", "warning", "error"):
            level = d
        elif d and all(t.isidentifier() for t in d.split(",")):
            tags = tuple(d.split(","))
    return LogLine(uptime, level, tags, m.group(2).strip())


def parse_kv(text: str) -> dict[str, str]:
    """'a=1 b=x,y c=' -> {'a': '1', 'b': 'x,y', 'c': ''}; words without '=' are ignored."""
    out: dict[str, str] = {}
    for token in text.split():
        k, sep, v = token.partition("=")
        if sep:
            out[k] = v
    return out


def parse_lines(lines: Iterable[str]) -> GcLog:
    log = GcLog()
    for raw in lines:
        line = parse_line(raw)
        if line is None or "gc" not in line.tags:
            continue
        t = line.uptime_s or 0.0
        if "flexheap" in line.tags:
            gm = _GCID_RE.match(line.message)
            body = line.message[gm.end():] if gm else line.message
            if body.startswith("decision"):
                log.decisions.append(Decision(t, int(gm.group(1)) if gm else None, parse_kv(body)))
            else:
                log.flexheap_other.append(line)
            continue
        if line.tags != ("gc",):
            continue
        pm = _PAUSE_RE.match(line.message)
        if pm:
            log.pauses.append(
                Pause(
                    uptime_s=t,
                    gc_id=int(pm.group(1)),
                    kind=pm.group(2),
                    before=int(float(pm.group(3)) * _UNIT[pm.group(4)]),
                    after=int(float(pm.group(5)) * _UNIT[pm.group(6)]),
                    committed=int(float(pm.group(7)) * _UNIT[pm.group(8)]),
                    ms=float(pm.group(9)),
                )
            )
            continue
        cm = _CONC_RE.match(line.message)
        if cm:
            log.concurrent_cycles_ms.append(float(cm.group(3)))
    return log


def parse_file(path: str | Path) -> GcLog:
    try:
        with open(path, errors="replace") as f:
            return parse_lines(f)
    except FileNotFoundError:
        return GcLog()
