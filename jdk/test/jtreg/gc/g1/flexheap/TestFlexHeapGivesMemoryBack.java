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
 * @summary With no I/O cost, FlexHeap gives back a past peak at least as fast and as far as stock G1 on the
 *          same JDK, in one run of both: a 700 MB live peak, then 25 s of light short-lived allocation (100 MB/s,
 *          enough for young GCs), no I/O, -Xmx1600m. With no stall source (none) and with one (auto). Stock G1 shrinks at the Remark of its
 *          next concurrent cycle (MaxHeapFreeRatio); FlexHeap must hold no more, from no later.
 * @library /lib
 * @build PeakThenChurn
 * @run main/timeout=400 TestFlexHeapGivesMemoryBack none
 * @run main/timeout=400 TestFlexHeapGivesMemoryBack auto
 */
import java.util.*;
import java.util.regex.*;

public class TestFlexHeapGivesMemoryBack {
    // Slack for "as far": a region rounding and the eden G1 is using when the program samples it.
    static final long SLACK = 32L << 20;
    // Slack for "as fast": the program samples the committed heap every 250 ms, and stock G1's
    // marking starts when old occupancy crosses its threshold, during or just after the peak
    // depending on the run. FlexHeap asks for a marking at the first young GC after the allocation
    // fell and starts it at its next check, so it waits for that GC, which its larger eden puts
    // further into the churn (docs/controller.md, rules 13 and 19). Either run's crossing moves
    // by up to ~2 s from run to run (FlexHeap's at 1.0-3.5 s, stock's at 1.25-4.25 s), so the
    // test fails FlexHeap only when it is further behind than that spread.
    static final long LATE_MS = 3000;

    static long end(String out) {
        Matcher m = Pattern.compile("END committed=(\\d+)").matcher(out);
        if (!m.find()) throw new RuntimeException("no END line in\n" + out);
        return Long.parseLong(m.group(1));
    }

    // The first time in the churn (ms) at which the committed heap is at most `bytes`; MAX_VALUE if never.
    static long firstAtMost(String out, long bytes) {
        Matcher m = Pattern.compile("CHURN t=(\\d+)ms committed=(\\d+)").matcher(out);
        while (m.find()) {
            if (Long.parseLong(m.group(2)) <= bytes) return Long.parseLong(m.group(1));
        }
        return Long.MAX_VALUE;
    }

    public static void main(String[] args) throws Exception {
        // A debug JVM's pauses are several times a release JVM's: its timings say nothing of FlexHeap's.
        if (FlexHeapTestSupport.isDebugBuild()) {
            throw new jtreg.SkippedException("a timing comparison: release JVMs only");
        }
        String backend = args[0];
        List<String> program = List.of("-Xmx1600m", "-XX:G1HeapRegionSize=1m", "-Xlog:gc,gc+flexheap",
                                       "PeakThenChurn", "700", "25", "100");
        List<String> flex = new ArrayList<>(List.of("-XX:+UseFlexHeap", "-XX:FlexHeapIOStallBackend=" + backend));
        flex.addAll(program);
        // Interleaved: stock, FlexHeap, stock; the stock figure is the larger of its two runs' ends.
        String stock1 = FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(program.toArray(new String[0])))
            .shouldHaveExit(0).output();
        var run = FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(flex.toArray(new String[0])))
            .shouldHaveExit(0);
        String stock2 = FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(program.toArray(new String[0])))
            .shouldHaveExit(0).output();
        String out = run.output();
        if (backend.equals("none")) {
            run.shouldContain("No I/O stall source");
        } else if (!FlexHeapTestSupport.hasStallSource(out)) {
            throw new jtreg.SkippedException("no I/O stall source on this host (need root for BPF or delay accounting)");
        }
        long stockEnd = Math.max(end(stock1), end(stock2));
        long stockAt = Math.max(firstAtMost(stock1, stockEnd + SLACK), firstAtMost(stock2, stockEnd + SLACK));
        long flexEnd = end(out);
        long flexAt = firstAtMost(out, stockEnd + SLACK);
        System.out.println("stock G1: end " + (end(stock1) >> 20) + "M and " + (end(stock2) >> 20) + "M, within "
                           + ((stockEnd + SLACK) >> 20) + "M at " + stockAt + " ms; FlexHeap (" + backend + "): end "
                           + (flexEnd >> 20) + "M, within it at " + (flexAt == Long.MAX_VALUE ? "never" : flexAt + " ms"));
        if (flexEnd > stockEnd + SLACK) {
            throw new RuntimeException("FlexHeap ends with " + (flexEnd >> 20) + "M committed, stock G1 with "
                                       + (stockEnd >> 20) + "M");
        }
        if (stockAt != Long.MAX_VALUE && flexAt > stockAt + LATE_MS) {
            throw new RuntimeException("FlexHeap got within " + ((stockEnd + SLACK) >> 20) + "M at " + flexAt
                                       + " ms of the churn, stock G1 at " + stockAt + " ms");
        }
    }
}
