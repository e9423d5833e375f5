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

"""FlexHeap decisions from the JDK's own JFR event (`jdk.FlexHeapDecision`) via `jfr print --json`.

With `--jfr` a run on the FlexHeap JDK records only that event (`settings=none`, so
no other JFR event is on) into `<run>/flexheap.jfr`; decisions.csv and the decision
counts in summary.json then come from the recording. It is opt-in because JFR itself
costs startup time and some native memory inside the budget. Without a recording
(the default, and always on stock JDKs) the gc+flexheap log lines are parsed
instead (gclog.py), the fallback. JFR starts recording some 0.5 s after the JVM, so
the GC log still supplies the decisions of the pauses before the recording began
(runner.py merges them, marked source=gc.log in decisions.csv).
"""

from __future__ import annotations

import json
import re
import subprocess
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

EVENT = "jdk.FlexHeapDecision"
RECORDING = "flexheap.jfr"
_FRACTION_RE = re.compile(r"(\.\d{6})\d+")
_DURATION_RE = re.compile(r"^PT(-?\d+(?:\.\d+)?)S$")


def recording_flag(path: Path | str) -> str:
    """The JVM option that records FlexHeap decisions, and nothing else, into path."""
    return f"-XX:StartFlightRecording:settings=none,+{EVENT}#enabled=true,filename={path}"


@dataclass
class JfrDecision:
    epoch_s: float
    gc_id: int | None
    fields: dict[str, Any]

    @property
    def action(self) -> str:
        return str(self.fields.get("action", ""))


def parse_time(text: str) -> float:
    """'2026-11-21T13:37:13.688833816Z' -> epoch seconds (nanoseconds cut to micro)."""
    t = _FRACTION_RE.sub(r"\1", text.strip())
    if t.endswith("Z"):
        t = t[:-1] + "+00:00"
    return datetime.fromisoformat(t).timestamp()


def _scalar(v: Any) -> Any:
    if isinstance(v, str):
        m = _DURATION_RE.match(v)
        if m:
            return float(m.group(1))
    return v


def parse_json(text: str) -> list[JfrDecision]:
    """`jfr print --json --events jdk.FlexHeapDecision` output -> decisions in time order."""
    data = json.loads(text)
    out: list[JfrDecision] = []
    for ev in data.get("recording", {}).get("events", []):
        if ev.get("type") != EVENT:
            continue
        values = dict(ev.get("values", {}))
        start = values.pop("startTime", None)
        if start is None:
            continue
        values.pop("eventThread", None)
        values.pop("stackTrace", None)
        gc_id = values.pop("gcId", None)
        out.append(JfrDecision(parse_time(start), int(gc_id) if gc_id is not None else None,
                               {k: _scalar(v) for k, v in values.items() if not isinstance(v, (dict, list))}))
    out.sort(key=lambda d: d.epoch_s)
    return out


def read_decisions(recording: Path, jfr_tool: Path, timeout_s: float = 120) -> list[JfrDecision]:
    """Runs `jfr print --json` on a recording. Raises OSError/ValueError when it cannot."""
    proc = subprocess.run([str(jfr_tool), "print", "--json", "--events", EVENT, str(recording)],
                          capture_output=True, text=True, timeout=timeout_s)
    if proc.returncode != 0:
        raise ValueError(f"jfr print failed ({proc.returncode}): {proc.stderr.strip()[-300:]}")
    return parse_json(proc.stdout)


def summary_counts(decisions: list[JfrDecision]) -> dict[str, int]:
    """The same counts gclog.GcLog.summary() gives for decision lines."""
    actions: dict[str, int] = {}
    for d in decisions:
        key = d.action.lower()
        actions[key] = actions.get(key, 0) + 1
    return {"flexheap_decisions": len(decisions), **{f"flexheap_{k or 'unknown'}": v for k, v in sorted(actions.items())}}
