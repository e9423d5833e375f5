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
 * @summary Humongous allocations (1-4 MiB arrays, 1 MiB regions) while FlexHeap shrinks the heap in an
 *          I/O phase: no OutOfMemoryError, no crash, committed heap within [-Xms, -Xmx].
 * @library /lib
 * @build FlexHeapStress StressSupport
 * @run main/timeout=300 TestFlexHeapHumongousShrink
 */
public class TestFlexHeapHumongousShrink {
    public static void main(String[] args) throws Exception {
        var r = FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(
                "-XX:+UseFlexHeap", "-Xms32m", "-Xmx384m", "-XX:G1HeapRegionSize=1m", "-Xlog:gc+flexheap,gc",
                "FlexHeapStress", "humongous", StressSupport.dataFile().toString(), "10"));
        String out = StressSupport.completed(r, "FlexHeap");
        var ds = FlexHeapTestSupport.decisions(out);
        if (ds.isEmpty()) throw new RuntimeException("no decisions logged");
        StressSupport.committedWithin(ds, 32L << 20, 384L << 20);
        double io = FlexHeapTestSupport.phaseTime(out, "PHASE io start");
        long shrinks = ds.stream().filter(d -> d.time() > io && d.action().equals("Shrink")).count();
        long humongousGcs = out.lines().filter(l -> l.contains("G1 Humongous Allocation")).count();
        System.out.println(ds.size() + " decisions, " + shrinks + " shrinks during humongous allocation, "
                           + humongousGcs + " humongous-allocation GCs");
    }
}
