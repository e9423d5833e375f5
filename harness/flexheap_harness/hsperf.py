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

"""Reader for HotSpot's hsperfdata file (/tmp/hsperfdata_<user>/<pid>).

This is the shared-memory file jstat reads. Reading it is one 32 KiB read() and
a parse, no attach, no safepoint, so it can be done every second without
disturbing the JVM (jcmd GC.heap_info would stop the world and fork a JVM).

Layout (all little/big endian as the prologue says):
  prologue: magic 0xcafec0c0 (big endian bytes), byte_order (0 big, 1 little),
            major, minor, accessible, used:i32, overflow:i32, mod_time:i64,
            entry_offset:i32, num_entries:i32
  entry:    entry_length:i32, name_offset:i32, vector_length:i32, data_type:u8,
            flags:u8, data_units:u8, data_variability:u8, data_offset:i32;
            name is NUL-terminated at entry+name_offset; value at entry+data_offset;
            type 'J' is an i64 scalar, 'B' with vector_length>0 a byte string.
"""

from __future__ import annotations

import glob
import os
import struct
from dataclasses import dataclass

MAGIC = b"\xca\xfe\xc0\xc0"


def parse_hsperf(data: bytes) -> dict[str, int | str]:
    if len(data) < 32 or data[:4] != MAGIC:
        raise ValueError("not an hsperfdata file")
    bo = "<" if data[4] == 1 else ">"
    entry_offset, num_entries = struct.unpack_from(bo + "ii", data, 24)
    out: dict[str, int | str] = {}
    off = entry_offset
    for _ in range(num_entries):
        if off + 20 > len(data):
            break
        length, name_off, vec_len, dtype, _flags, _units, _var, data_off = struct.unpack_from(
            bo + "iiiBBBBi", data, off
        )
        if length <= 0:
            break
        name_end = data.index(b"\0", off + name_off)
        name = data[off + name_off : name_end].decode("ascii", "replace")
        value_at = off + data_off
        if dtype == ord("J") and vec_len == 0:
            out[name] = struct.unpack_from(bo + "q", data, value_at)[0]
        elif dtype == ord("B") and vec_len > 0:
            raw = data[value_at : value_at + vec_len]
            out[name] = raw.split(b"\0", 1)[0].decode("utf-8", "replace")
        off += length
    return out


@dataclass
class HeapCounters:
    committed: int  # bytes, young + old capacity
    used: int  # bytes, sum of space usage (eden, survivors, old)
    young_gcs: int
    full_gcs: int
    concurrent_gcs: int  # G1: remark+cleanup pauses of concurrent cycles
    gc_time_s: float  # pause time of all collectors
    vm_start_epoch_ms: int | None


def heap_counters(c: dict[str, int | str]) -> HeapCounters:
    def num(key: str) -> int:
        v = c.get(key, 0)
        return v if isinstance(v, int) else 0

    committed = num("sun.gc.generation.0.capacity") + num("sun.gc.generation.1.capacity")
    used = sum(
        v
        for k, v in c.items()
        if isinstance(v, int) and k.startswith("sun.gc.generation.") and ".space." in k and k.endswith(".used")
    )
    freq = num("sun.os.hrt.frequency") or 1_000_000_000
    ticks = sum(num(f"sun.gc.collector.{i}.time") for i in range(3))
    start = c.get("sun.rt.createVmBeginTime")
    return HeapCounters(
        committed=committed,
        used=used,
        young_gcs=num("sun.gc.collector.0.invocations"),
        full_gcs=num("sun.gc.collector.1.invocations"),
        concurrent_gcs=num("sun.gc.collector.2.invocations"),
        gc_time_s=ticks / freq,
        vm_start_epoch_ms=start if isinstance(start, int) else None,
    )


def find_hsperf_file(pid: int) -> str | None:
    """The JVM writes /tmp/hsperfdata_<user>/<pid>; the user may differ from ours."""
    for path in glob.glob(f"/tmp/hsperfdata_*/{pid}"):
        return path
    return None


def read_counters(path: str) -> dict[str, int | str] | None:
    try:
        with open(path, "rb") as f:
            return parse_hsperf(f.read())
    except (OSError, ValueError, struct.error):
        return None


def is_java_pid(pid: int) -> bool:
    return find_hsperf_file(pid) is not None and os.path.exists(f"/proc/{pid}")
