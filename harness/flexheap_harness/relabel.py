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

"""What the committed results' `flexheap-paper` columns were: the default against itself.

From f8ff031 (21 Nov 2026) until e79d649 (6 Dec 2026, 20:26 UTC), the harness policy
`flexheap-paper` passed `-XX:+UseFlexHeap -XX:FlexHeapNegligibleCostPercent=0` and no
`-XX:FlexHeapPolicy`. Since 5847b20 (21 Nov 2026, 13:33 UTC) the JDK's FlexHeapPolicy is `balance`
by default, and the balance controller reads neither FlexHeapNegligibleCostPercent nor
FlexHeapStaticStepPercent (flexHeapController.cpp: only decide_paper does; decide_balance sizes
its steps with a static step of 0). So every such run, `flexheap-paper:FlexHeapStaticStepPercent=N`
included, ran the default policy `flexheap`: beside a `flexheap` column it is a free A/A pair
(calibration.py), and the documents name it `flexheap (A/A)`, not the paper mode.

A run shows what it ran by the controller its JVM's start-up line names (`jvm_config`, recorded
since a7aaebc: runconfig.py). The runs of that period recorded none, so what they were launched
with is the policy's definition then (LEGACY_PAPER_FLAGS, the variant's own -XX settings and the
comparison's --jvm-flags), for the runs dated within it."""

from __future__ import annotations

import copy
import re
from typing import Any

AA_LABEL = "flexheap (A/A)"
AA_NOTE = ("the default against itself: the run passed a flag the default ignores "
           "(`flexheap-paper` was `-XX:+UseFlexHeap -XX:FlexHeapNegligibleCostPercent=0`, without "
           "`-XX:FlexHeapPolicy=paper`, so FlexHeap ran its default balance controller)")
DEFAULT_POLICY = "flexheap"
MISNAMED = "flexheap-paper"
# What the harness's flexheap-paper passed from f8ff031 until e79d649 (policies.py's history).
LEGACY_PAPER_FLAGS = ("-XX:+UseFlexHeap", "-XX:FlexHeapNegligibleCostPercent=0")
# The runs whose flexheap-paper had LEGACY_PAPER_FLAGS on a JDK whose default is the balance policy:
# from 5847b20 (FlexHeapPolicy, balance by default) to e79d649 (flexheap-paper selects the paper
# controller), by their comparison's provenance date ("YYYY-MM-DD HH:MM UTC": compared as strings).
LEGACY_FROM = "2026-11-21 13:33 UTC"
LEGACY_UNTIL = "2026-12-06 20:26 UTC"
# FlexHeap flags the balance policy (the default) does not read: only FlexHeapPolicy=paper does.
PAPER_ONLY_FLAGS = ("FlexHeapNegligibleCostPercent", "FlexHeapStaticStepPercent")

_XX = re.compile(r"-XX:([+-]?)([A-Za-z0-9_]+)(?:=(.*))?")
_SETTING = re.compile(r"(FlexHeap[A-Za-z]+)=([A-Za-z0-9.]+)")


def _variant_flags(spec: str) -> list[str] | None:
    """The -XX flags of a flexheap-paper:SPEC variant as the harness then passed them; None when a
    setting is no FlexHeap flag (HeapPercent=P changed the max heap: not the default's)."""
    out = []
    for part in (p.strip() for p in spec.split("+")):
        m = _SETTING.fullmatch(part)
        if not m:
            return None
        name, value = m.groups()
        if value.lower() in ("true", "false"):
            out.append(f"-XX:{'+' if value.lower() == 'true' else '-'}{name}")
        else:
            out.append(f"-XX:{name}={value}")
    return out


def launched_flags(run: dict[str, Any], date: str | None) -> list[str] | None:
    """The JVM flags a flexheap-paper run of the legacy period was launched with: its policy's
    definition then plus its --jvm-flags; None for any other run (its flags are not what the harness
    passes now, nor recorded)."""
    policy = str(run.get("policy") or "")
    base, sep, spec = policy.partition(":")
    if base != MISNAMED or not date or not (LEGACY_FROM <= date < LEGACY_UNTIL):
        return None
    variant = _variant_flags(spec) if sep else []
    if variant is None:
        return None
    return [*LEGACY_PAPER_FLAGS, *variant, *(str(f) for f in run.get("extra_jvm_flags") or ())]


def ran_default(run: dict[str, Any], date: str | None) -> bool:
    """True when a run named flexheap-paper shows that it ran the default policy with nothing but flags
    the default ignores (PAPER_ONLY_FLAGS): by its JVM's start-up line (jvm_config: 'Policy balance')
    where it recorded one, else by launched_flags: -XX:+UseFlexHeap with
    FlexHeapNegligibleCostPercent=0 and no FlexHeapPolicy but balance."""
    policy = str(run.get("policy") or "")
    if not policy.startswith(MISNAMED):
        return False
    seen = run.get("jvm_config")
    if isinstance(seen, dict):
        _base, sep, spec = policy.split("@", 1)[0].partition(":")
        variant = _variant_flags(spec) if sep else []
        return (seen.get("flexheap_policy") == "balance" and variant is not None
                and all(_XX.fullmatch(f).group(2) in PAPER_ONLY_FLAGS for f in variant))  # type: ignore[union-attr]
    flags = launched_flags(run, date)
    if flags is None:
        return False
    settings: dict[str, str] = {}
    for f in flags:
        m = _XX.fullmatch(f)
        if not m or not m.group(2).startswith(("UseFlexHeap", "FlexHeap")):
            continue  # not a FlexHeap flag (G1's, the heap bounds and the GC log are the policy's own)
        sign, name, value = m.groups()
        settings[name] = value if value is not None else sign
    if settings.get("UseFlexHeap") != "+" or settings.get("FlexHeapNegligibleCostPercent") != "0":
        return False
    if settings.get("FlexHeapPolicy", "balance") != "balance":
        return False
    return all(n in ("UseFlexHeap", "FlexHeapPolicy", *PAPER_ONLY_FLAGS) for n in settings)


def date_of(data: dict[str, Any]) -> str | None:
    return (data.get("provenance") or {}).get("date") if isinstance(data, dict) else None


def aa_name(policy: str) -> str:
    """flexheap-paper -> 'flexheap (A/A)'; flexheap-paper:FlexHeapStaticStepPercent=10 ->
    'flexheap (A/A: FlexHeapStaticStepPercent=10 ignored)'; a label after '@' is kept."""
    name, at, label = policy.partition("@")
    _base, sep, spec = name.partition(":")
    out = f"flexheap (A/A: {spec.replace('+', ', ')} ignored)" if sep else AA_LABEL
    return f"{out}@{label}" if at else out


def misnamed(data: dict[str, Any]) -> dict[str, str]:
    """policy -> its A/A name, for every column of a comparison all of whose runs ran the default
    while named flexheap-paper (ran_default)."""
    if not isinstance(data, dict):
        return {}
    date = date_of(data)
    out: dict[str, str] = {}
    for p in data.get("policies") or []:
        if not str(p).startswith(MISNAMED):
            continue
        runs = [r for r in data.get("runs") or [] if r.get("policy") == p]
        if runs and all(ran_default(r, date) for r in runs):
            out[p] = aa_name(p)
    return out


def relabel(data: Any) -> Any:
    """A copy of a result JSON with misnamed(data)'s columns renamed everywhere a policy is named
    (columns, table, runs, warm-ups, provenance, the sweep's oracle), and `relabelled` = the map;
    data itself when nothing is renamed."""
    names = misnamed(data) if isinstance(data, dict) else {}
    if not names:
        return data
    out = copy.deepcopy(data)

    def rn(p: Any) -> Any:
        return names.get(p, p) if isinstance(p, str) else p

    out["policies"] = [rn(p) for p in out.get("policies") or []]
    out["baseline"] = rn(out.get("baseline"))
    for key in ("table", "ok_runs", "failed_runs"):
        if isinstance(out.get(key), dict):
            out[key] = {rn(k): v for k, v in out[key].items()}
    for r in [*(out.get("runs") or []), *(out.get("warmup_runs") or [])]:
        if isinstance(r, dict) and r.get("policy") in names:
            old = r["policy"]
            r["policy"] = names[old]
            if isinstance(r.get("label"), str) and r["label"].startswith(old + " "):
                r["label"] = names[old] + r["label"][len(old):]
    for j in (out.get("provenance") or {}).get("jdks") or []:
        if isinstance(j, dict):
            j["policies"] = [rn(p) for p in j.get("policies") or []]
    orc = out.get("oracle")
    if isinstance(orc, dict):
        for row in orc.get("policies") or []:
            row["policy"] = rn(row.get("policy"))
        for ph in orc.get("phases") or []:
            if isinstance(ph.get("by_policy_s"), dict):
                ph["by_policy_s"] = {rn(k): v for k, v in ph["by_policy_s"].items()}
    out["relabelled"] = dict(names)
    return out


_NAMED = re.compile(r"flexheap-paper(?::[A-Za-z0-9=+.]+)?(?![A-Za-z0-9_@-])")


def prose_names(text: str, date: str | None) -> dict[str, str]:
    """The A/A names of the flexheap-paper policies prose written beside a result of that date names
    (an entry's notes name other entries' columns too): those a run of that date under that name
    would have run as the default (ran_default)."""
    out = {}
    for name in set(_NAMED.findall(text or "")):
        name = name.rstrip(".")
        if ran_default({"policy": name}, date):
            out[name] = aa_name(name)
    return out


def relabel_text(text: str, names: dict[str, str]) -> str:
    """Prose about a relabelled result (an entry's title and notes) with the misnamed columns' names
    replaced, outside `code` (commands stay as they ran); longest names first."""
    if not names or not text:
        return text
    pattern = re.compile("(?:" + "|".join(re.escape(k) for k in sorted(names, key=len, reverse=True))
                         + r")(?![A-Za-z0-9:=_@-])")
    parts = re.split(r"(`[^`]*`)", text)
    return "".join(p if p.startswith("`") else pattern.sub(lambda m: names[m.group(0)], p) for p in parts)
