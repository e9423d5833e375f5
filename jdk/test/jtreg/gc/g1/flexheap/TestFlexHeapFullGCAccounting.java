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
 * @summary A full GC that follows a young GC in the same safepoint (an allocation the young GC could not
 *          satisfy) is GC time for FlexHeap: its decision's T_stw covers the full collection, not 0.
 * @library /lib
 * @build FullGCPressure
 * @run main/timeout=300 TestFlexHeapFullGCAccounting
 */
import java.util.*;

public class TestFlexHeapFullGCAccounting {
    public static void main(String[] args) throws Exception {
        String out = FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(
                "-XX:+UseFlexHeap", "-Xms32m", "-Xmx128m", "-XX:G1HeapRegionSize=1m",
                "-XX:FlexHeapIOStallBackend=none", "-Xlog:gc,gc+flexheap=debug",
                "FullGCPressure", "5", "0.7")).shouldHaveExit(0).output();
        Map<Long, Double> full = FlexHeapTestSupport.pauseMs(out, "G1 Compaction Pause");
        Map<Long, Double> tstw = FlexHeapTestSupport.inputs(out, "T_stw");
        if (full.isEmpty()) throw new RuntimeException("no full GC after a young GC in this run");
        // The decision runs inside the pause: at least half of the pause G1 reports is before it. One
        // GC may miss that when the OS preempts the VM thread after the decision (seen once in ~2,300
        // full GCs on a loaded 2-core machine); the defect booked every one of them as ~0.
        int checked = 0, short_ = 0;
        double pauseSum = 0, stwSum = 0;
        String example = null;
        for (Map.Entry<Long, Double> e : full.entrySet()) {
            Double t = tstw.get(e.getKey());
            if (t == null) throw new RuntimeException("no FlexHeap decision at full GC(" + e.getKey() + ")");
            pauseSum += e.getValue();
            stwSum += t * 1000.0;
            if (t * 1000.0 < 0.5 * e.getValue()) {
                short_++;
                example = "GC(" + e.getKey() + ") full pause " + e.getValue() + " ms booked as T_stw " + (t * 1000.0) + " ms";
            }
            checked++;
        }
        if (stwSum < 0.5 * pauseSum || short_ > Math.max(1, checked / 20)) {
            throw new RuntimeException(short_ + " of " + checked + " full GCs booked as less than half their pause ("
                                       + "T_stw " + stwSum + " ms of " + pauseSum + " ms in all), e.g. " + example);
        }
        System.out.println(checked + " full GCs inside a young GC's safepoint booked as GC time (" + short_
                           + " short: T_stw " + stwSum + " ms of " + pauseSum + " ms)");
    }
}
