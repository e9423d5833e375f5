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
 * @summary A long run alternating allocation and I/O phases: committed heap stays within
 *          [MinHeapSize, MaxHeapSize] at every decision, and direction reversals (grow after shrink
 *          or shrink after grow) are counted and bounded by a few per phase change.
 * @library /lib
 * @build FlexHeapStress StressSupport
 * @run main/timeout=600 TestFlexHeapAlternatingPhases
 */
public class TestFlexHeapAlternatingPhases {
    static final int CYCLES = 4;

    public static void main(String[] args) throws Exception {
        var r = FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(
                "-XX:+UseFlexHeap", "-Xms64m", "-Xmx768m", "-XX:G1HeapRegionSize=1m", "-Xlog:gc+flexheap",
                "FlexHeapStress", "phases", StressSupport.dataFile().toString(), "" + CYCLES, "5", "5"));
        String out = StressSupport.completed(r, "FlexHeap");
        var ds = FlexHeapTestSupport.decisions(out);
        if (ds.size() < 10) throw new RuntimeException("only " + ds.size() + " decisions");
        StressSupport.committedWithin(ds, 64L << 20, 768L << 20);
        int reversals = StressSupport.reversals(ds);
        int phaseChanges = 2 * CYCLES - 1;
        long grows = ds.stream().filter(d -> d.action().equals("Grow")).count();
        long shrinks = ds.stream().filter(d -> d.action().equals("Shrink")).count();
        System.out.println(ds.size() + " decisions, " + grows + " grows, " + shrinks + " shrinks, "
                           + reversals + " direction reversals over " + phaseChanges + " phase changes");
        int bound = 3 * phaseChanges + 4;
        if (reversals > bound) {
            throw new RuntimeException(reversals + " direction reversals, more than " + bound
                                       + " (3 per phase change + 4): the heap oscillates");
        }
    }
}
