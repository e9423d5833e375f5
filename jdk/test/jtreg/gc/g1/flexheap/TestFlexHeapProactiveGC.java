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
 * @summary FlexHeap's proactive GC fires when mutators stall on I/O and stop allocating,
 *          and not while they keep allocating.
 * @library /lib
 * @build FlexHeapPhases
 * @run main/timeout=300 TestFlexHeapProactiveGC
 */
public class TestFlexHeapProactiveGC {
    static final String CAUSE = "G1 FlexHeap Proactive Collection";

    public static void main(String[] args) throws Exception {
        String file = FlexHeapTestSupport.dataFile().toString();
        String idle = FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(
                "-XX:+UseFlexHeap", "-Xmx512m", "-Xlog:gc,gc+flexheap",
                "FlexHeapPhases", "3", "9", "4", file)).shouldHaveExit(0).output();
        if (!FlexHeapTestSupport.hasStallSource(idle)) {
            throw new jtreg.SkippedException("no I/O stall source on this host (need root for BPF or delay accounting)");
        }
        int at = idle.indexOf("PHASE io start");
        if (idle.indexOf(CAUSE, at) < 0) {
            throw new RuntimeException("no proactive GC in the stall-heavy idle phase");
        }
        FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(
                "-XX:+UseFlexHeap", "-Xmx512m", "-Xlog:gc,gc+flexheap",
                "FlexHeapPhases", "3", "9", "4", file, "busy")).shouldHaveExit(0)
            .shouldNotContain(CAUSE);
    }
}
