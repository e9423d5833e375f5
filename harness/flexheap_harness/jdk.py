"""Locating the repository, the FlexHeap JDK, the bench jar, and what a JDK supports."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

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
