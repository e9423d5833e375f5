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

"""Sampling and log parsers, on recorded snippets in tests/data."""

import collections
import time
from pathlib import Path

import pytest

from flexheap_harness import cgroups, gclog, hsperf
from flexheap_harness.devices import (KEEP_READ_AHEAD, ReadAheadError, device_name, read_ahead, read_ahead_advice,
                                      read_ahead_kb, settle_read_ahead, whole_disk)
from flexheap_harness.runner import parse_phase_lines
from flexheap_harness.sampling import Sampler, cpu_percentages, psi_percentages

DATA = Path(__file__).parent / "data"


def text(name: str) -> str:
    return (DATA / name).read_text()


def cpu(**kw):
    names = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")
    return collections.namedtuple("scputimes", names)(**{n: kw.get(n, 0.0) for n in names})


def test_cpu_times_iowait_delta():
    # two psutil.cpu_times() readings 100 ticks apart
    a = cpu(user=100, idle=500, iowait=50, system=10)
    b = cpu(user=170, nice=7.2, idle=500.4, iowait=70, system=11, irq=1, softirq=0.4)
    pct = cpu_percentages(a, b)
    assert pct["iowait_pct"] == pytest.approx(20.0)
    assert pct["user_pct"] == pytest.approx(77.2)
    assert pct["system_pct"] == pytest.approx(2.4)


def test_cpu_times_no_progress_is_zero_not_division_error():
    a = cpu(user=1, iowait=2)
    assert cpu_percentages(a, a)["iowait_pct"] == 0.0


def test_psi_file_and_stall_share():
    v = cgroups.parse_pressure("some avg10=1.00 avg60=0.50 avg300=0.00 total=436\n"
                               "full avg10=0.00 avg60=0.00 avg300=0.00 total=428\n")
    assert v == {"some": 436, "full": 428}
    # 0.5 s of 'some' I/O stall in 2 s of wall time = 25 %
    pct = psi_percentages({"io_some": 1_000_000, "io_full": 0}, {"io_some": 1_500_000, "io_full": 0}, 2.0)
    assert pct == {"io_some_pct": 25.0, "io_full_pct": 0.0}
    assert psi_percentages({"io_some": 1}, {"io_some": 2}, 0) == {}


def test_refault_file_v1_hierarchical_then_v2():
    assert cgroups.refault_file(cgroups.parse_kv_stat(text("memory-stat-v1.txt"))) == 1787221  # total_ (hierarchical), not the leaf 738
    assert cgroups.refault_file({"workingset_refault_file": 7, "workingset_refault_anon": 3}) == 7
    assert cgroups.refault_file({"workingset_refault": 9}) == 9  # kernels < 5.9
    assert cgroups.refault_file({"cache": 1}) is None


def test_workingset_counts_need_refaults_and_activations_of_one_source():
    v2 = cgroups.parse_kv_stat(text("memory-stat-v2.txt"))
    assert cgroups.activate_file(v2) == 256
    assert cgroups.workingset_counts(v2) == (1024, 256)
    # cgroup v1's memory.stat has refaults but no activations: no share from it.
    assert cgroups.workingset_counts(cgroups.parse_kv_stat(text("memory-stat-v1.txt"))) is None
    assert cgroups.activate_file({"workingset_activate": 5}) == 5  # kernels < 5.9
    assert cgroups.workingset_counts({"workingset_activate_file": 5}) is None


class _WorkingsetCgroup:
    """A run cgroup whose memory.stat is empty and whose workingset counts come from a list."""

    def __init__(self, counts):
        self.counts = list(counts)

    def workingset(self, stat=None):
        assert stat is None or stat == {}, "the sampler passes the memory.stat it read"
        c, scope = self.counts.pop(0)
        return c, scope

    def refaults(self):
        return None

    def memory_stat(self):
        return {}

    def memory_usage(self):
        return None

    def io_bytes(self, _dev):
        return None

    def pressure(self):
        return {}, "none"


def test_sampler_activate_share_is_cumulative_and_single_scope(tmp_path):
    cg = _WorkingsetCgroup([
        ((1000, 100), "cgroup"),   # at start
        ((1000, 100), "cgroup"),   # no refaults yet: no share
        ((1400, 200), "cgroup"),   # 400 refaults, 100 activations
        ((2000, 250), "cgroup"),   # 1000 refaults, 150 activations since start
        ((9000, 900), "system"),   # another source: not comparable with the start's
    ])
    s = Sampler(tmp_path / "samples.csv", cg, None, lambda: [], time.time())
    s.start = lambda: None  # no thread; drive sample() by hand
    s._ws0, s.workingset_scope = cg.workingset()
    rows = [s.sample() for _ in range(4)]
    assert [r["activations"] for r in rows] == [0, 100, 150, None]
    assert [r["activate_share"] for r in rows] == [None, 0.25, 0.15, None]
    assert [r["workingset_scope"] for r in rows] == ["cgroup", "cgroup", "cgroup", None]


def test_memory_stat_v1_uses_hierarchical_totals():
    s = cgroups.parse_kv_stat(text("memory-stat-v1.txt"))
    assert cgroups.page_cache_bytes(s) == 1177608192  # total_cache, not the leaf's 'cache'
    assert cgroups.anon_bytes(s) == 1361117184


def test_memory_stat_v2_file_and_anon():
    s = cgroups.parse_kv_stat(text("memory-stat-v2.txt"))
    assert cgroups.page_cache_bytes(s) == 314572800
    assert cgroups.anon_bytes(s) == 157286400


def test_memory_stat_v1_leaf_without_totals():
    s = cgroups.parse_kv_stat("cache 100\nrss 50\n")
    assert (cgroups.page_cache_bytes(s), cgroups.anon_bytes(s)) == (100, 50)


def test_io_stats_v1_and_v2():
    v2 = cgroups.parse_io_stat_v2(text("io-stat-v2.txt"))
    assert cgroups.io_bytes_for(v2, "254:0") == (1048576000, 52428800)
    assert cgroups.io_bytes_for(v2, None) == (1048580096, 52428800)
    v1 = cgroups.parse_blkio_v1(text("blkio-v1.txt"))
    assert cgroups.io_bytes_for(v1, "254:0") == (1360846848, 4096)
    assert cgroups.io_bytes_for({}, "254:0") == (0, 0)  # nothing moved yet


def test_mounts_and_self_cgroup_hybrid():
    # psutil.disk_partitions(all=True) entries: (device, mountpoint, fstype, opts)
    m = cgroups.parse_mounts(tuple(line.split()[:4]) for line in text("mounts-hybrid.txt").splitlines() if line)
    assert m["memory"] == "/sys/fs/cgroup/memory"
    assert m["blkio"] == "/sys/fs/cgroup/blkio"
    assert m["v2"] == "/sys/fs/cgroup/unified"
    own = cgroups.parse_self_cgroup(text("self-cgroup-v1.txt"))
    assert own["memory"].startswith("/process_api/")
    assert own["blkio"] == "/" and own["v2"] == "/"


def test_sys_dev_block_partition_resolves_to_disk(tmp_path):
    # /sys/dev/block/8:1 -> ../../devices/.../block/sda/sda1, with sda/dev = 8:0
    disk = tmp_path / "devices" / "block" / "sda"
    (disk / "sda1").mkdir(parents=True)
    (disk / "dev").write_text("8:0\n")
    (disk / "sda1" / "partition").write_text("1\n")
    (disk / "sda1" / "dev").write_text("8:1\n")
    links = tmp_path / "dev" / "block"
    links.mkdir(parents=True)
    (links / "8:1").symlink_to(disk / "sda1")
    (links / "8:0").symlink_to(disk)
    assert whole_disk("8:1", links) == "8:0"
    assert whole_disk("8:0", links) == "8:0"
    assert whole_disk("9:9", links) is None
    assert device_name("8:0", links) == "sda"


def test_a_large_read_ahead_kept_as_found_is_warned_about():
    assert "--read-ahead 128k" in read_ahead_advice(8192)
    assert "8192 KiB" in read_ahead_advice(8192)
    assert read_ahead_advice(1024) is None  # the boundary: 1 MiB is not large
    assert read_ahead_advice(1028) is not None
    assert settle_read_ahead(128 << 10, 8192, True) == (128 << 10, None)  # the run sets its own
    assert read_ahead_advice(None) is None  # no block device


def test_the_default_read_ahead_is_linux_128k_where_it_can_be_set():
    assert settle_read_ahead(None, 8192, True) == (128 << 10, None)
    assert settle_read_ahead(None, 128, True) == (128 << 10, None)  # set anyway: the record says so
    size, warning = settle_read_ahead(None, 8192, False)  # not root: kept, and said
    assert size is None and "8192 KiB" in warning and "keep it" in warning
    assert settle_read_ahead(None, 512, False) == (None, None)  # kept, and small enough to be quiet
    assert settle_read_ahead(None, None, False) == (None, None)  # no block device (tmpfs)
    size, warning = settle_read_ahead(KEEP_READ_AHEAD, 8192, True)  # --read-ahead keep
    assert size is None and "8192 KiB" in warning
    assert settle_read_ahead(KEEP_READ_AHEAD, 128, True) == (None, None)
    assert settle_read_ahead(1 << 20, 8192, True) == (1 << 20, None)  # asked for: as asked


def test_read_ahead_is_set_for_the_block_and_put_back(tmp_path):
    queue = tmp_path / "8:0" / "queue"
    queue.mkdir(parents=True)
    (queue / "read_ahead_kb").write_text("8192\n")
    with read_ahead("8:0", 128 << 10, tmp_path):
        assert read_ahead_kb("8:0", tmp_path) == 128
    assert read_ahead_kb("8:0", tmp_path) == 8192
    with pytest.raises(RuntimeError, match="run failed"):  # put back after a failed run too
        with read_ahead("8:0", 256 << 10, tmp_path):
            raise RuntimeError("run failed")
    assert read_ahead_kb("8:0", tmp_path) == 8192
    with read_ahead("8:0", None, tmp_path):  # not asked for: left alone
        assert read_ahead_kb("8:0", tmp_path) == 8192
    with pytest.raises(ReadAheadError, match="no block device"):
        with read_ahead(None, 128 << 10, tmp_path):
            pass
    with pytest.raises(ReadAheadError, match="cannot read"):
        with read_ahead("9:9", 128 << 10, tmp_path):
            pass


def test_read_ahead_that_cannot_be_put_back_warns_without_hiding_the_run_outcome(tmp_path):
    queue = tmp_path / "8:0" / "queue"
    queue.mkdir(parents=True)
    knob = queue / "read_ahead_kb"
    knob.write_text("8192\n")
    said = []
    with pytest.raises(KeyboardInterrupt):  # the run's own outcome, not the restore's OSError
        with read_ahead("8:0", 128 << 10, tmp_path, warn=said.append):
            knob.unlink()
            knob.mkdir()  # now unwritable as a file
            raise KeyboardInterrupt
    assert said and "cannot put" in said[0] and "8192 KiB" in said[0]


def test_hsperf_g1_counters():
    c = hsperf.parse_hsperf((DATA / "hsperfdata-g1.bin").read_bytes())
    h = hsperf.heap_counters(c)
    assert h.committed == 68157440 + 200278016  # young + old capacity
    assert h.used == 135412408 + 98304  # old + survivor (eden was empty)
    assert (h.young_gcs, h.full_gcs, h.concurrent_gcs) == (1, 0, 2)
    assert h.gc_time_s == pytest.approx((1224021 + 311855) / 1e9)
    assert h.vm_start_epoch_ms == 1795226882977
    assert c["sun.gc.collector.0.name"] == "G1 young collection pauses"


def test_hsperf_rejects_garbage():
    with pytest.raises(ValueError):
        hsperf.parse_hsperf(b"\0" * 64)


def test_gc_log_pauses():
    log = gclog.parse_file(DATA / "gc-g1.log")
    kinds = [p.kind for p in log.pauses]
    assert "Remark" in kinds and "Cleanup" in kinds
    full = [p for p in log.pauses if p.is_full]
    assert len(full) == 1 and full[0].kind == "Full (System.gc())"
    first = log.pauses[0]
    assert first.gc_id == 44 and first.uptime_s == pytest.approx(0.310)
    assert (first.before, first.after, first.committed) == (119 << 20, 62 << 20, 128 << 20)
    assert first.ms == pytest.approx(1.149)
    assert len(log.concurrent_cycles_ms) == 2
    s = log.summary()
    assert s["gc_full"] == 1 and s["gc_pauses"] == len(log.pauses)


def test_flexheap_decisions_tolerate_padding_and_extra_keys():
    log = gclog.parse_file(DATA / "gc-g1.log")
    assert [d.action for d in log.decisions] == ["shrink", "none", "grow"]
    d = log.decisions[0]
    assert d.gc_id == 12 and d.uptime_s == pytest.approx(2.345)
    assert d.fields["state"] == "WaitShrink" and d.fields["reason"] == "costUp,ioBias"
    assert d.number("bytes") == 67108864 and d.number("S_io") == 402653184
    assert log.decisions[1].fields["extra_key"] == "7"  # padded tag [gc,flexheap   ]
    assert log.flexheap_other[0].message == "iostall source=bpf"
    assert log.summary()["flexheap_shrink"] == 1


def test_gc_log_line_decorations_in_any_order():
    line = gclog.parse_line("[info][1234ms][gc,flexheap] GC(3) decision action=grow bytes=1")
    assert line is not None and line.uptime_s == pytest.approx(1.234)
    assert line.tags == ("gc", "flexheap") and line.level == "info"
    assert gclog.parse_line("no decorations") is None


def test_phase_markers():
    lines = [
        "noise",
        "FLEXHEAP-PHASE warm start 1000",
        "FLEXHEAP-PHASE warm end 3000 500 250.0",
        "FLEXHEAP-PHASE hot start 3000",
    ]
    p = parse_phase_lines(lines)
    assert p[0] == {"name": "warm", "start_epoch": 1.0, "end_epoch": 3.0, "queries": 500, "throughput_qps": 250.0}
    assert p[1]["name"] == "hot" and p[1]["end_epoch"] is None


def test_jfr_flexheap_decisions_from_jfr_print_json():
    from datetime import datetime, timezone

    from flexheap_harness import jfr
    ds = jfr.parse_json(text("jfr-decisions.json"))
    assert [d.gc_id for d in ds] == [3, 7]  # time order, not file order
    first = datetime(2026, 11, 21, 13, 37, 13, 688833, tzinfo=timezone.utc).timestamp()
    assert ds[0].epoch_s == pytest.approx(first)
    assert ds[1].fields["action"] == "shrink" and ds[1].fields["applied"] == 62914560
    assert ds[1].fields["duration"] == pytest.approx(41e-6) and "eventThread" not in ds[1].fields
    assert jfr.summary_counts(ds) == {"flexheap_decisions": 2, "flexheap_none": 1, "flexheap_shrink": 1}
    assert jfr.recording_flag("/r/f.jfr") == (
        "-XX:StartFlightRecording:settings=none,+jdk.FlexHeapDecision#enabled=true,filename=/r/f.jfr")
