"""Parsing and printing of byte sizes and DRAM budgets."""

from __future__ import annotations

import os
import re
from pathlib import Path

_UNITS = {"": 1, "b": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
_SIZE_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$", re.IGNORECASE)
_FRACTION_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*x\s*$", re.IGNORECASE)


def parse_size(text: str) -> int:
    """'2g', '768m', '1.5G', '512MiB', '4096' -> bytes (binary units, like -Xmx)."""
    m = _SIZE_RE.match(text)
    if not m:
        raise ValueError(f"not a size: {text!r} (examples: 2g, 768m, 1.5g, 4096)")
    value = float(m.group(1)) * _UNITS[m.group(2).lower()]
    if value <= 0:
        raise ValueError(f"size must be positive: {text!r}")
    return int(value)


def is_fraction(text: str) -> bool:
    return bool(_FRACTION_RE.match(text))


def parse_budget(text: str, reference_bytes: int | None = None) -> int:
    """A budget is an absolute size ('2g') or a multiple of a reference size,
    normally the index size ('0.5x')."""
    m = _FRACTION_RE.match(text)
    if m:
        if reference_bytes is None:
            raise ValueError(f"budget {text!r} is relative but no index size is known (pass --index)")
        budget = int(float(m.group(1)) * reference_bytes)
        if budget <= 0:
            raise ValueError(f"budget {text!r} of {format_size(reference_bytes)} is empty")
        return budget
    return parse_size(text)


def format_size(n: float | int | None) -> str:
    if n is None:
        return "-"
    n = float(n)
    for unit, scale in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if abs(n) >= scale:
            return f"{n / scale:.1f}{unit}"
    return f"{int(n)}B"


def to_jvm_size(n: int) -> str:
    """Bytes -> a JVM size flag value, in whole MiB (G1 rounds to regions anyway)."""
    return f"{max(1, n >> 20)}m"


def directory_size(path: str | os.PathLike[str]) -> int:
    """Sum of regular file sizes under path (the index size for '0.5x' budgets)."""
    total = 0
    for root, _dirs, files in os.walk(path):
        for name in files:
            try:
                total += (Path(root) / name).stat().st_size
            except OSError:
                pass
    return total
