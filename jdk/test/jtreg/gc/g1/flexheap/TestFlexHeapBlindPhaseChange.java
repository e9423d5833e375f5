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
 * @summary Without any I/O stall source (-XX:FlexHeapIOStallBackend=none), a phase change from heap-heavy to
 *          I/O-heavy still gets a proactive GC, triggered by the reads re-reading the page cache's recent
 *          evictions (memory.stat refaults), and FlexHeap hands back at least half of the surplus heap within
 *          5 s. Before, no GC ran in an I/O phase that allocates nothing, and the heap kept the cache out.
 * @library /lib
 * @build FlexHeapPhases
 * @run main/timeout=300 TestFlexHeapBlindPhaseChange
 */
public class TestFlexHeapBlindPhaseChange {
    public static void main(String[] args) throws Exception {
        // The allocation phase evicts the file's pages and the reads refault.
        String out = FlexHeapTestSupport.phaseChangeInCgroup("blind-phase-change-io.dat", "10",
                "-XX:+UseFlexHeap", "-XX:FlexHeapIOStallBackend=none");
        if (FlexHeapTestSupport.hasStallSource(out)) {
            throw new RuntimeException("FlexHeapIOStallBackend=none still found a stall source");
        }
        boolean blindGC = out.substring(out.indexOf("PHASE io start")).lines()
            .anyMatch(l -> l.contains("proactive GC: ") && l.contains("no stall source; read "));
        if (!blindGC) throw new RuntimeException("no proactive GC for a re-read cache in the I/O phase");
        FlexHeapTestSupport.checkHandsBackHalfTheSurplus(out, "PHASE io start",
                                                         FlexHeapTestSupport.PHASE_CHANGE_XMS, 5.0);
    }
}
