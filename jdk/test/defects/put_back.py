#!/usr/bin/env python3
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

"""Puts one group of issue 11's defects back into a copy of the tree, for run.sh.

Each edit must match the current code exactly once; when the code moves, the
edit fails loudly here and must be rewritten, rather than silently testing nothing.
Usage: put_back.py TREE GROUP   (GROUP: jvm | container)
"""

import sys
from pathlib import Path

FH = "jdk/src/hotspot/share/gc/g1/flexheap/"
PATCH = "jdk/patches/0003-flexheap-g1-decision-points-and-thread-registry.patch"
OSCONTAINER_PATCH = "jdk/patches/0005-flexheap-oscontainer-memory-controller-path.patch"

# group -> [(defect, file, the fixed code, the defect put back)]
EDITS = {
    "jvm": [
        ("1", PATCH,  # FlexHeap's default max heap turns compressed oops off past the coops limit
         "+        if (FLAG_IS_ERGO(UseCompressedOops) && override_coop_limit && !flexheap_max) {",
         # (flexheap_max still read: HotSpot builds with -Werror=unused-variable)
         "+        if (FLAG_IS_ERGO(UseCompressedOops) && override_coop_limit && (flexheap_max || !flexheap_max)) {"),
        ("2", FH + "flexHeapController.cpp",  # balance: the GC goal never shrinks
         "    const double want = b.rule == RuleGCGoal && !m.blind_rereading ? -delta * 0.5 : -delta;",
         "    const double want = b.rule == RuleGCGoal && !m.blind_rereading ? 0.0 : -delta;"),
        ("2", FH + "flexHeapController.cpp",  # paper: no stock sizing without I/O (Fig. 4 ratchets)
         "  if (s.io_available && !(prev.io > 0.0) && !(cur.io > 0.0)) {",
         "  if (false) {"),
        ("5", FH + "g1FlexHeap.cpp",  # the second decision of one safepoint starts its pause now: T_stw = 0
         "  jlong pause_begin_ns = MAX2(SafepointTracing::start_of_safepoint(), _last_pause_end_ns);",
         "  jlong pause_begin_ns = SafepointTracing::start_of_safepoint() < _last_pause_end_ns\n"
         "      ? start_ns : SafepointTracing::start_of_safepoint();"),
        ("8", FH + "g1FlexHeap.cpp",  # -Xms = -Xmx runs the controller and its tasks
         "  if (MinHeapSize == MaxHeapSize) {",
         "  if (false) {"),
        ("8", FH + "g1FlexHeapArguments.cpp",  # UseFlexHeap does not select G1
         "  if (!chosen && FLAG_IS_DEFAULT(UseG1GC)) {",
         "  if (false) {"),
        ("8", FH + "g1FlexHeap.cpp",  # the proactive task exists only if its interval starts > 0
         "  g1h->service_thread()->register_task(fh->_proactive);",
         "  if (FlexHeapProactiveGCInterval > 0) g1h->service_thread()->register_task(fh->_proactive);"),
    ],
    # Alone: with the jvm group's defect 8 the container's one CPU picks Serial and the JVM refuses to start.
    "container": [
        ("3", OSCONTAINER_PATCH,  # a cgroup path of "/" taken as no cgroup: the host's /proc/meminfo
         "+  return memory != nullptr ? memory->subsystem_path() : nullptr;",
         "+  return memory != nullptr && strcmp(memory->cgroup_path(), \"/\") != 0 ? memory->subsystem_path() : nullptr;"),
    ],
}


def main() -> None:
    tree, group = Path(sys.argv[1]), sys.argv[2]
    for defect, rel, fixed, broken in EDITS[group]:
        path = tree / rel
        text = path.read_text()
        if text.count(fixed) != 1:
            sys.exit(f"put_back.py: defect {defect}: the fixed code is not in {rel} exactly once; update this edit")
        path.write_text(text.replace(fixed, broken))
        print(f"defect {defect} put back in {rel}")


if __name__ == "__main__":
    main()
