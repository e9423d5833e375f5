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

"""Where a result came from: when it was written and on which JDK(s), for docs/results.md."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Sequence


def release_fields(home: Path) -> dict[str, str]:
    """KEY="value" pairs of a JDK's `release` file; {} if unreadable."""
    out: dict[str, str] = {}
    try:
        for line in (Path(home) / "release").read_text().splitlines():
            if "=" in line:
                key, value = line.split("=", 1)
                out[key.strip()] = value.strip().strip('"')
    except OSError:
        pass
    return out


def jdk_identity(home: Path | str) -> str:
    """'25.0.3+9-LTS, FlexHeap 7e02192' from the release file; the home path when it is gone
    (the path alone says nothing on another machine, the version and revision do)."""
    rel = release_fields(Path(home))
    version = rel.get("JAVA_RUNTIME_VERSION") or rel.get("JAVA_VERSION")
    if not version:
        return str(home)
    vendor = rel.get("IMPLEMENTOR")
    text = version + (f" ({vendor})" if vendor and vendor != "N/A" else "")  # own builds say N/A
    if rel.get("FLEXHEAP_REVISION"):
        text += f", FlexHeap {rel['FLEXHEAP_REVISION']}"
    return text


def utc_date(epoch: float | None = None) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(epoch))


def of_runs(summaries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """{'date': now, 'jdks': [{'jdk': identity, 'policies': [...]}]} from the runs' config.json."""
    by_jdk: dict[str, list[str]] = {}
    for s in summaries:
        try:
            home = json.loads((Path(s["run_dir"]) / "config.json").read_text())["jdk"]
        except (KeyError, OSError, ValueError, TypeError):
            continue
        policies = by_jdk.setdefault(jdk_identity(home), [])
        if s.get("policy") and s["policy"] not in policies:
            policies.append(s["policy"])
    return {"date": utc_date(), "jdks": [{"jdk": j, "policies": p} for j, p in by_jdk.items()]}


def jdk_text(prov: dict[str, Any]) -> str | None:
    jdks = prov.get("jdks") or []
    if not jdks:
        return None
    if len(jdks) == 1:
        return jdks[0]["jdk"]
    return "; ".join(f"{j['jdk']} ({', '.join(j['policies'])})" for j in jdks)
