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

"""Locating the repository, the FlexHeap JDK, the JDK-26 baseline, the bench jar, and what a JDK supports."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable

from .policies import JDK_26, JDK_FLEXHEAP, Policy

FALLBACK_JDKS = ("/usr/lib/jvm/temurin-25-jdk-amd64",)


def repo_root() -> Path:
    env = os.environ.get("FLEXHEAP_REPO")
    if env:
        return Path(env)
    # harness/flexheap_harness/jdk.py -> repo
    return Path(__file__).resolve().parents[2]


def flexheap_jdk_dir() -> Path:
    return Path(os.environ.get("FLEXHEAP_JDK") or repo_root() / "build" / "flexheap-jdk")


def bench_jar() -> Path:
    return Path(os.environ.get("FLEXHEAP_BENCH_JAR") or repo_root() / "bench" / "target" / "flexheap-bench.jar")


@dataclass(frozen=True)
class Jdk:
    home: Path
    is_flexheap_build: bool  # has -XX:+UseFlexHeap

    @property
    def java(self) -> Path:
        return self.home / "bin" / "java"

    def tool(self, name: str) -> Path:
        return self.home / "bin" / name


@lru_cache(maxsize=None)
def supports_flexheap(home: str) -> bool:
    """True when the JDK knows -XX:+UseFlexHeap (PrintFlagsFinal lists it)."""
    try:
        out = subprocess.run(
            [str(Path(home) / "bin" / "java"), "-XX:+PrintFlagsFinal", "-version"],
            capture_output=True, text=True, timeout=60,
        ).stdout
    except (OSError, subprocess.TimeoutExpired):
        return False
    return any(" UseFlexHeap " in line for line in out.splitlines())


def find_jdk(explicit: str | None = None, allow_fallback: bool = True) -> tuple[Jdk | None, str | None]:
    """(jdk, warning). Order: explicit path, $FLEXHEAP_JDK / build/flexheap-jdk, then a stock
    JDK 25 (baselines work there; the flexheap policy and gc+flexheap logging do not)."""
    candidates = [Path(explicit)] if explicit else [flexheap_jdk_dir()]
    if allow_fallback and not explicit:
        candidates += [Path(p) for p in FALLBACK_JDKS]
        if os.environ.get("JAVA_HOME"):
            candidates.append(Path(os.environ["JAVA_HOME"]))
    for home in candidates:
        if (home / "bin" / "java").exists():
            jdk = Jdk(home, supports_flexheap(str(home)))
            warning = None
            if not jdk.is_flexheap_build:
                warning = (
                    f"JDK {home} has no -XX:+UseFlexHeap (stock JDK); baselines run, the flexheap "
                    f"policy cannot. Build the FlexHeap JDK with: bash jdk/build.sh"
                )
            return jdk, warning
    return None, f"no JDK found (tried {', '.join(map(str, candidates))}); build one with: bash jdk/build.sh"


# ---------------------------------------------------------------- the stock OpenJDK 26 baseline

JDK26_BUILD_COMMAND = "bash jdk/baseline/build-jdk26.sh"
JDK26_BUILD_TIME = "a full OpenJDK image, 25-70 min on 2 cores, once"


class MissingJdkError(ValueError):
    """A policy's JDK is not there (the CLI turns ValueError into 'error: ...' and exit 2)."""


def flexheap_cache() -> Path:
    env = os.environ.get("FLEXHEAP_CACHE")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "flexheap"


def jdk26_dir() -> Path:
    """$FLEXHEAP_JDK26, else where jdk/baseline/build-jdk26.sh installs: $FLEXHEAP_CACHE/baseline/jdk-26."""
    return Path(os.environ.get("FLEXHEAP_JDK26") or flexheap_cache() / "baseline" / "jdk-26")


def release_version(home: Path) -> str | None:
    """JAVA_VERSION from a JDK's `release` file ('26.0.2.1'), None if unreadable."""
    try:
        for line in (home / "release").read_text().splitlines():
            if line.startswith("JAVA_VERSION="):
                return line.split("=", 1)[1].strip().strip('"')
    except OSError:
        return None
    return None


def find_jdk26() -> Jdk:
    """The JDK-26 baseline, or MissingJdkError saying exactly how to build it."""
    home = jdk26_dir()
    source = "$FLEXHEAP_JDK26" if os.environ.get("FLEXHEAP_JDK26") else "the default location"
    if not (home / "bin" / "java").exists():
        raise MissingJdkError(
            f"the stock OpenJDK 26 baseline is not built: no {home}/bin/java ({source}). "
            f"Build it with: {JDK26_BUILD_COMMAND} ({JDK26_BUILD_TIME}; it installs to "
            f"{flexheap_cache() / 'baseline' / 'jdk-26'}), or set FLEXHEAP_JDK26 to a JDK 26 home."
        )
    version = release_version(home)
    if version is None or not (version == "26" or version.startswith("26.")):
        raise MissingJdkError(
            f"{home} ({source}) is not a JDK 26 (release says JAVA_VERSION={version!r}). "
            f"Build the baseline with: {JDK26_BUILD_COMMAND} ({JDK26_BUILD_TIME}), "
            f"or set FLEXHEAP_JDK26 to a JDK 26 home."
        )
    # A stock build: no -XX:+UseFlexHeap and no 'flexheap' log tag.
    return Jdk(home, is_flexheap_build=False)


LABEL_JDK_ENV = "FLEXHEAP_LABEL_JDK"


def label_jdks(env: str | None = None) -> dict[str, Path]:
    """$FLEXHEAP_LABEL_JDK, 'LABEL=DIR[,LABEL=DIR...]': a FlexHeap policy labelled POLICY@LABEL
    runs on the JDK in DIR instead of the FlexHeap JDK, e.g. the previous default built into its
    own folder, interleaved with the current one (--policies flexheap,flexheap@old)."""
    text = os.environ.get(LABEL_JDK_ENV, "") if env is None else env
    mapping: dict[str, Path] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        label, eq, home = part.partition("=")
        if not eq or not label.strip() or not home.strip():
            raise ValueError(f"${LABEL_JDK_ENV}: {part!r} is not LABEL=DIR")
        mapping[label.strip().lower()] = Path(home.strip())
    return mapping


def _label_of(policy: Policy) -> str | None:
    _, at, label = policy.name.partition("@")
    return label if at else None


def jdk_for_policy(policy: Policy, default: Jdk) -> Jdk:
    """The JDK a policy runs on: `default` (the FlexHeap JDK or --jdk), the JDK $FLEXHEAP_LABEL_JDK
    names for the policy's label, or the JDK-26 baseline."""
    label = _label_of(policy)
    home = label_jdks().get(label) if label else None
    if home is not None and policy.jdk == JDK_FLEXHEAP:
        return Jdk(home, supports_flexheap(str(home)))
    if policy.jdk == JDK_FLEXHEAP:
        return default
    if policy.jdk == JDK_26:
        return find_jdk26()
    raise ValueError(f"policy {policy.name} names an unknown JDK {policy.jdk!r}")


def require_policy_jdks(policies: Iterable[Policy]) -> None:
    """Fail before any run when a named policy's own JDK (not the default one) is missing."""
    homes = label_jdks()
    for policy in policies:
        label = _label_of(policy)
        if label in homes and policy.jdk == JDK_FLEXHEAP:
            home = homes[label]
            if not (home / "bin" / "java").exists():
                raise MissingJdkError(f"policy {policy.name}: ${LABEL_JDK_ENV} names {home} for label "
                                      f"{label!r}, which has no bin/java")
            if policy.needs_flexheap and not supports_flexheap(str(home)):
                raise MissingJdkError(f"policy {policy.name}: {home} has no -XX:+UseFlexHeap")
            continue
        if policy.jdk == JDK_26:
            try:
                find_jdk26()
            except MissingJdkError as e:
                raise MissingJdkError(f"policy {policy.name} runs on OpenJDK 26, but {e}") from None
