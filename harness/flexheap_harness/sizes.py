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

"""Parsing and printing of byte sizes, budgets and device rates: ONE convention.

Every size the harness accepts (budgets, `static:S`, sweep `--sizes`, device
rates in `custom:read=...`) uses binary suffixes, like `-Xmx`:
`k` = KiB, `m` = MiB, `g` = GiB, `t` = TiB (optionally spelled `KiB`, `MiB`, ...).
A bare number (`300`) or a bare fraction (`0.5`) is refused, because both were
silently misread before (`300` -> 300 bytes -> `-Xmx1m`; `0.5` -> 0 bytes).
Decimal units (`MB`) are refused too, so `600m` can never mean two things.
A budget may also be a multiple of the index size: `0.6x`.
"""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path

_UNITS = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
_SIZE_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt])(?:ib)?\s*$", re.IGNORECASE)
_DECIMAL_UNIT_RE = re.compile(r"^\s*\d+(?:\.\d+)?\s*[kmgt]b\s*$", re.IGNORECASE)
_BARE_RE = re.compile(r"^\s*\d*\.?\d+\s*$")
_FRACTION_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*x\s*$", re.IGNORECASE)

SIZE_HELP = "binary suffixes: k=KiB, m=MiB, g=GiB (e.g. 768m, 1.5g)"


class SizeError(ValueError, argparse.ArgumentTypeError):
    """A size, budget or rate that does not follow the one convention (argparse shows its message)."""


def parse_size(text: str, what: str = "size") -> int:
    """'2g', '768m', '1.5G', '512MiB' -> bytes (binary units, like -Xmx).

    Bare numbers ('300', '0.5') and decimal units ('600MB') are errors."""
    t = str(text)
    m = _SIZE_RE.match(t)
    if not m:
        if _BARE_RE.match(t):
            raise SizeError(f"{what} {t!r} has no unit: a bare number is ambiguous; "
                            f"use {SIZE_HELP}" + (" or a multiple of the index (0.6x)" if what == "budget" else ""))
        if _DECIMAL_UNIT_RE.match(t):
            raise SizeError(f"{what} {t!r} uses a decimal unit; the harness uses one convention, {SIZE_HELP}")
        raise SizeError(f"{what} {t!r} is not a size; use {SIZE_HELP}")
    value = int(float(m.group(1)) * _UNITS[m.group(2).lower()])
    if value <= 0:
        raise SizeError(f"{what} {t!r} must be positive")
    return value


def index_multiple(text: str) -> float | None:
    """F of a budget 'Fx' (a multiple of the index), None for any other text."""
    m = _FRACTION_RE.match(text)
    return float(m.group(1)) if m else None


def is_fraction(text: str) -> bool:
    return index_multiple(text) is not None


def parse_budget(text: str, reference_bytes: int | None = None) -> int:
    """A budget is an absolute size ('2g') or a multiple of a reference size,
    normally the index size ('0.5x')."""
    multiple = index_multiple(text)
    if multiple is not None:
        if reference_bytes is None:
            raise SizeError(f"budget {text!r} is relative but no index size is known (give an existing --index)")
        budget = int(multiple * reference_bytes)
        if budget <= 0:
            raise SizeError(f"budget {text!r} of {format_size(reference_bytes)} is empty")
        return budget
    return parse_size(text, "budget")


def check_budget_syntax(text: str) -> str:
    """argparse type for --budget: validates now (exit 2 on error), resolves later
    (a multiple of the index needs the index size)."""
    multiple = index_multiple(text)
    if multiple is None:
        parse_size(text, "budget")
    elif multiple <= 0:
        raise SizeError(f"budget {text!r} must be a positive multiple of the index")
    return text


def check_size_list(text: str) -> str:
    """argparse type for --sizes: '256m,1g'."""
    items = [s.strip() for s in text.split(",") if s.strip()]
    if not items:
        raise SizeError("empty size list")
    for s in items:
        parse_size(s)
    return text


def check_fraction_list(text: str) -> str:
    """argparse type for --fractions: '0.3,0.5' (fractions of the budget, 0 < f <= 1)."""
    items = [s.strip() for s in text.split(",") if s.strip()]
    if not items:
        raise SizeError("empty fraction list")
    for s in items:
        try:
            f = float(s)
        except ValueError:
            raise SizeError(f"fraction {s!r} is not a number (fractions of the budget, e.g. 0.3,0.5)") from None
        if not 0 < f <= 1:
            raise SizeError(f"fraction {s!r} must be in (0, 1]: it is a share of the budget")
    return text


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
