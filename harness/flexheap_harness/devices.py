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

"""Device profiles (blkio/io throttling) and block-device resolution.

The disk of the test machine is fast; slower storage is emulated by throttling
the run's cgroup on the block device that holds the data directory. Numbers
follow the paper's NVMe vs SATA ratio (6x read, 4x write throughput). Rates use
the harness's one size convention: binary, MiB/s.

| profile | read MiB/s | write MiB/s | read IOPS | write IOPS |
|---------|------------|-------------|-----------|------------|
| host    | -          | -           | -         | -          |
| nvme    | 600        | 300         | 40000     | 20000      |
| sata    | 100        | 75          | 6700      | 5000       |

`custom:read=600m,write=300m,riops=40000,wiops=20000` builds any other profile
(rates with k/m/g = KiB/MiB/GiB per second; IOPS are plain integers).
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from .cgroups import IoLimit
from .sizes import SizeError, parse_size

SYS_DEV_BLOCK = Path("/sys/dev/block")
MIB = 1 << 20


@dataclass(frozen=True)
class DeviceProfile:
    name: str
    read_bps: int | None = None
    write_bps: int | None = None
    read_iops: int | None = None
    write_iops: int | None = None

    @property
    def throttled(self) -> bool:
        return any((self.read_bps, self.write_bps, self.read_iops, self.write_iops))

    def io_limit(self, device: str) -> IoLimit:
        return IoLimit(device, self.read_bps, self.write_bps, self.read_iops, self.write_iops)


PROFILES: dict[str, DeviceProfile] = {
    "host": DeviceProfile("host"),
    "nvme": DeviceProfile("nvme", 600 * MIB, 300 * MIB, 40_000, 20_000),
    "sata": DeviceProfile("sata", 100 * MIB, 75 * MIB, 6_700, 5_000),
}


def _field(key: str, value: str) -> int:
    """A custom profile field: rates are sizes per second (binary suffix required),
    IOPS are positive integers."""
    if key in ("read", "write"):
        return parse_size(value, f"device rate {key}=")
    if not value.isdigit() or int(value) <= 0:
        raise SizeError(f"device {key}={value!r} must be a positive whole number of I/Os per second")
    return int(value)


def parse_profile(text: str) -> DeviceProfile:
    key = text.strip().lower()
    if key in PROFILES:
        return PROFILES[key]
    if key.startswith("custom:"):
        fields: dict[str, int] = {}
        for kv in text.strip().split(":", 1)[1].split(","):
            k, _, v = kv.partition("=")
            k = k.strip().lower()
            names = {"read": "read_bps", "write": "write_bps", "riops": "read_iops", "wiops": "write_iops"}
            if k not in names or not v:
                raise SizeError(f"bad custom device field {kv!r}; use read=,write=,riops=,wiops=")
            fields[names[k]] = _field(k, v)
        if not fields:
            raise SizeError(f"custom device profile {text!r} sets nothing; e.g. custom:read=600m,riops=40000")
        return DeviceProfile(key, **fields)
    raise SizeError(f"unknown device profile {text!r}; choose from {', '.join(PROFILES)} or custom:read=..,write=..")


# ---------------------------------------------------------------- block device of a path


def _mount_source(path: str) -> str | None:
    """Source device of the mount that holds path (for overlay/btrfs st_dev with major 0)."""
    best, source = "", None
    real = os.path.realpath(path)
    import psutil  # here, not at the top: the CLI's --help runs without the harness's venv
    try:
        parts = psutil.disk_partitions(all=True)
    except OSError:
        return None
    for part in parts:
        mp = part.mountpoint
        inside = real == mp or real.startswith(mp.rstrip("/") + "/")
        if inside and len(mp) >= len(best) and part.device.startswith("/dev/"):
            best, source = mp, part.device
    return source


def whole_disk(dev: str, sys_dev_block: Path = SYS_DEV_BLOCK) -> str | None:
    """'M:m' of a partition -> 'M:m' of its disk (throttling needs the whole disk);
    a disk maps to itself; None when the kernel does not know it as a block device."""
    node = sys_dev_block / dev
    if not node.exists():
        return None
    if (node / "partition").exists():
        parent = node.resolve().parent
        try:
            return (parent / "dev").read_text().strip()
        except OSError:
            return None
    return dev


def device_name(dev: str, sys_dev_block: Path = SYS_DEV_BLOCK) -> str | None:
    """'254:0' -> 'vda' (name used in /proc/diskstats)."""
    node = sys_dev_block / dev
    return node.resolve().name if node.exists() else None


def block_device_of(path: str | os.PathLike[str]) -> str | None:
    """The whole-disk 'major:minor' holding path, or None (tmpfs, network fs)."""
    st = os.stat(path)
    major, minor = os.major(st.st_dev), os.minor(st.st_dev)
    if major == 0:
        src = _mount_source(str(path))
        if not src:
            return None
        try:
            rdev = os.stat(src).st_rdev
        except OSError:
            return None
        major, minor = os.major(rdev), os.minor(rdev)
    return whole_disk(f"{major}:{minor}")


def block_device_near(path: str | os.PathLike[str]) -> str | None:
    """The block device of path, or of its nearest existing parent (a service's data folder
    exists only once the service is prepared); None if there is none."""
    path = Path(path).absolute()
    while not path.exists() and path != path.parent:
        path = path.parent
    try:
        return block_device_of(path)
    except OSError:
        return None


# ---------------------------------------------------------------- read-ahead of the data device


def read_ahead_file(dev: str, sys_dev_block: Path = SYS_DEV_BLOCK) -> Path:
    return sys_dev_block / dev / "queue" / "read_ahead_kb"


def read_ahead_kb(dev: str | None, sys_dev_block: Path = SYS_DEV_BLOCK) -> int | None:
    """The whole disk dev's read-ahead in KiB (what an mmap fault reads around), or None."""
    if dev is None:
        return None
    try:
        return int(read_ahead_file(dev, sys_dev_block).read_text())
    except (OSError, ValueError):
        return None


# Above this, an mmap fault reads so much around it that a larger page cache can read more
# bytes, not fewer (the kernel reads around faults only while a file's faults mostly hit).
LARGE_READ_AHEAD_KB = 1024
# What runs set the data device's read-ahead to unless told otherwise: Linux's default for a
# disk and Elasticsearch's advice, so a VM disk's 8 MiB does not decide which policy wins.
DEFAULT_READ_AHEAD = 128 << 10
KEEP_READ_AHEAD = 0  # --read-ahead keep: measure with the device's read-ahead as found


def read_ahead_settable(dev: str | None, sys_dev_block: Path = SYS_DEV_BLOCK) -> bool:
    """Whether this process may set dev's read-ahead (root, and /sys writable)."""
    return read_ahead_kb(dev, sys_dev_block) is not None and os.access(read_ahead_file(dev, sys_dev_block), os.W_OK)


def read_ahead_advice(found_kb: int | None) -> str | None:
    """A warning for runs that keep a data device's large read-ahead."""
    if found_kb is None or found_kb <= LARGE_READ_AHEAD_KB:
        return None
    return (f"the data device reads ahead {found_kb} KiB around every mmap fault and the runs keep it; then a "
            "larger page cache can read more, not less (M4 at 5% on sata read 5.4 GiB where 128 KiB read "
            "1.7 GiB), which favours policies with small caches. Linux's default and Elasticsearch's advice "
            "is 128 KiB, what the harness sets by default as root: --read-ahead 128k")


def settle_read_ahead(asked: int | None, found_kb: int | None, settable: bool) -> tuple[int | None, str | None]:
    """The read-ahead in bytes the runs set (None: leave the device's) and a warning to print.

    asked is --read-ahead: None for the default (128 KiB where it can be set, else the device's
    as found), KEEP_READ_AHEAD, or a size (already checked to be settable: exit 2 if not)."""
    if asked is None and found_kb is not None and settable:
        return DEFAULT_READ_AHEAD, None
    if asked is None or asked == KEEP_READ_AHEAD:
        return None, read_ahead_advice(found_kb)
    return asked, None


class ReadAheadError(RuntimeError):
    """--read-ahead was asked for and cannot be applied: nothing is measured."""


@contextlib.contextmanager
def read_ahead(dev: str | None, size: int | None, sys_dev_block: Path = SYS_DEV_BLOCK,
               warn: Callable[[str], None] = print) -> Iterator[None]:
    """The data device's read-ahead set to `size` bytes for the block and put back after.

    Read-ahead is the device's, not the run's: a VM disk may read 8 MiB around every mmap
    fault where a real NVMe or SATA disk reads 128 KiB, so a random reader such as Lucene
    pulls 60x the bytes it uses and no page cache size helps. None leaves it alone."""
    if size is None:
        yield
        return
    if dev is None:
        raise ReadAheadError("--read-ahead: the data directory is on no block device")
    path = read_ahead_file(dev, sys_dev_block)
    before = read_ahead_kb(dev, sys_dev_block)
    if before is None:
        raise ReadAheadError(f"--read-ahead: cannot read {path}")
    try:
        path.write_text(f"{size >> 10}\n")
    except OSError as e:
        raise ReadAheadError(f"--read-ahead: cannot set {path} ({e.strerror}); run as root or leave it out") from e
    try:
        yield
    finally:
        try:
            path.write_text(f"{before}\n")
        except OSError as e:  # never in place of the run's own outcome (or its Ctrl-C)
            warn(f"warning: cannot put {path} back to {before} KiB ({e.strerror}): set it by hand")
