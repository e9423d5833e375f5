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
 * @summary An allocation spike to 380 MB live of a 512 MB max heap (about the most stock G1 holds with 1 MiB
 *          regions and 256 KiB arrays) right after an I/O phase let FlexHeap shrink
 *          the heap: no OutOfMemoryError where stock G1 with the same max heap succeeds.
 * @library /lib
 * @build FlexHeapStress StressSupport
 * @run main/timeout=300 TestFlexHeapSpikeAfterIO
 */
import java.util.List;

public class TestFlexHeapSpikeAfterIO {
    public static void main(String[] args) throws Exception {
        String file = StressSupport.dataFile().toString();
        List<String> common = List.of("-Xms32m", "-Xmx512m", "-XX:G1HeapRegionSize=1m", "-Xlog:gc",
                                      "FlexHeapStress", "spike", file, "8", "380");
        var stock = FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(
                concat(List.of("-XX:+UseG1GC"), common).toArray(String[]::new)));
        if (stock.exit() != 0 || stock.output().contains("OutOfMemoryError")) {
            throw new jtreg.SkippedException("stock G1 cannot run the spike here either (exit " + stock.exit() + ")");
        }
        var flex = FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(
                concat(List.of("-XX:+UseFlexHeap", "-Xlog:gc+flexheap"), common).toArray(String[]::new)));
        String out = StressSupport.completed(flex, "FlexHeap");
        var ds = FlexHeapTestSupport.decisions(out);
        StressSupport.committedWithin(ds, 32L << 20, 512L << 20);
        double spike = FlexHeapTestSupport.phaseTime(out, "PHASE spike start");
        long peakBefore = ds.stream().filter(d -> d.time() < spike).mapToLong(d -> d.committed()).max().orElse(0);
        long atSpike = ds.stream().filter(d -> d.time() < spike).reduce((a, b) -> b).map(d -> d.committed()).orElse(0L);
        System.out.println("committed: peak before the spike " + (peakBefore >> 20) + "M, when it started "
                           + (atSpike >> 20) + "M; " + ds.size() + " decisions"
                           + (atSpike < peakBefore ? "" : " (the I/O phase did not shrink the heap)"));
    }

    static List<String> concat(List<String> a, List<String> b) {
        var l = new java.util.ArrayList<>(a);
        l.addAll(b);
        return l;
    }
}
