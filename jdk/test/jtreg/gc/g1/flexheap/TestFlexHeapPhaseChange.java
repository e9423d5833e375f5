/*
 * Copyright (c) 2026, FlexHeap contributors. All rights reserved.
 * DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
 *
 * This code is free software; you can redistribute it and/or modify it
 * under the terms of the GNU General Public License version 2 only, as
 * published by the Free Software Foundation.  The FlexHeap contributors
 * designate this particular file as subject to the "Classpath" exception
 * as provided by Oracle in the LICENSE file that accompanied this code.
 *
 * This code is distributed in the hope that it will be useful, but WITHOUT
 * ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
 * FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General Public License
 * version 2 for more details (a copy is included in the LICENSE file that
 * accompanied this code).
 *
 * You should have received a copy of the GNU General Public License version
 * 2 along with this work; if not, write to the Free Software Foundation,
 * Inc., 51 Franklin St, Fifth Floor, Boston, MA 02110-1301 USA.
 *
 */

/*
 * @test
 * @summary At a phase change from heap-heavy to I/O-heavy, FlexHeap hands back at least half of the surplus
 *          heap (committed at the change minus -Xms) within 3 s. The program runs in a 1 GiB memory cgroup
 *          and reads a 640 MB file through the page cache, so the memory the heap holds is cache it misses.
 * @library /lib
 * @build FlexHeapPhases
 * @run main/timeout=300 TestFlexHeapPhaseChange
 */
public class TestFlexHeapPhaseChange {
    public static void main(String[] args) throws Exception {
        String out = FlexHeapTestSupport.phaseChangeInCgroup("phase-change-io.dat", "8", "-XX:+UseFlexHeap");
        if (!FlexHeapTestSupport.hasStallSource(out)) {
            throw new jtreg.SkippedException("no I/O stall source on this host (need root for BPF or delay accounting)");
        }
        FlexHeapTestSupport.checkHandsBackHalfTheSurplus(out, "PHASE io start",
                                                         FlexHeapTestSupport.PHASE_CHANGE_XMS, 3.0);
    }
}
