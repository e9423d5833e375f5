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
 * @summary After a full GC during an I/O phase the heap keeps MinHeapFreeRatio free, as G1 does (no new
 *          OutOfMemoryError). The full GCs here are System.gc(), which FlexHeap resizes as stock G1 does;
 *          that FlexHeap's own shrink at a full GC it sizes stops at the floor is checked by the unit
 *          tests FlexHeapFullGcFloor.* (flexheap_bound_by_floor(), which the glue calls), since a
 *          non-explicit full GC with a shrink decision cannot be produced on demand.
 * @library /lib
 * @build FlexHeapPhases FullGCDuringIO
 * @run main/timeout=300 TestFlexHeapFullGCFloor
 */
import java.util.*;

public class TestFlexHeapFullGCFloor {
    public static void main(String[] args) throws Exception {
        long region = 1L << 20;
        int minFree = 60;
        String out = FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(
                "-XX:+UnlockExperimentalVMOptions", "-XX:+UseFlexHeap", "-XX:FlexHeapPolicy=paper",
                "-XX:FlexHeapStaticStepPercent=100",
                "-Xms32m", "-Xmx1g", "-XX:G1HeapRegionSize=1m",
                "-XX:MinHeapFreeRatio=" + minFree, "-XX:MaxHeapFreeRatio=90", "-Xlog:gc,gc+flexheap=debug",
                "FullGCDuringIO", "4", "8", "48", FlexHeapTestSupport.dataFile().toString()))
            .shouldHaveExit(0).output();
        if (!FlexHeapTestSupport.hasStallSource(out)) {
            throw new jtreg.SkippedException("no I/O stall source on this host (need root for BPF or delay accounting)");
        }
        int fulls = 0, bound = 0;
        for (FlexHeapTestSupport.Decision d : FlexHeapTestSupport.decisions(out)) {
            if (!d.pause().equals("full")) continue;
            fulls++;
            long free = d.committed() - d.usedAfter();
            if (free * 100 < (long) minFree * d.committed() - 100 * region) {
                throw new RuntimeException("after full GC(" + d.gcId() + ") only " + free + " of " + d.committed()
                                           + " bytes free, below MinHeapFreeRatio=" + minFree + ": " + d);
            }
            if (d.reason().contains("fullGcFloor") || d.action().equals("Shrink")) bound++;
        }
        if (fulls < 5) throw new RuntimeException("only " + fulls + " full GCs");
        if (bound == 0) throw new RuntimeException("no full GC where FlexHeap shrank or met the floor: the check means nothing");
        System.out.println(fulls + " full GCs, " + bound + " shrank or bound by the floor");
    }
}
