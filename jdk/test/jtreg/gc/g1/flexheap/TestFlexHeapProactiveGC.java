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
 * @summary FlexHeap's proactive GC task fires its own trigger when mutators stall on I/O
 *          and stop allocating, and not while they keep allocating.
 * @library /lib
 * @build FlexHeapPhases
 * @run main/timeout=300 TestFlexHeapProactiveGC
 */
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class TestFlexHeapProactiveGC {
    static final String CAUSE = "G1 FlexHeap Proactive Collection";
    // The task's own trigger (allocation fell while mutators stall). The task
    // also starts a concurrent cycle a decision asked for (FlexHeapDecision::
    // mark_soon), with the same GC cause, whatever the allocation rate: that
    // is not what this test checks (TestFlexHeapGivesMemoryBack does).
    static final String TRIGGER = "proactive GC: allocation ";
    static final String REQUESTED = "proactive GC: starting the concurrent cycle the last decision asked for";

    public static void main(String[] args) throws Exception {
        String file = FlexHeapTestSupport.dataFile().toString();
        String idle = FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(
                "-XX:+UseFlexHeap", "-Xmx512m", "-Xlog:gc,gc+flexheap",
                "FlexHeapPhases", "3", "9", "4", file)).shouldHaveExit(0).output();
        if (!FlexHeapTestSupport.hasStallSource(idle)) {
            throw new jtreg.SkippedException("no I/O stall source on this host (need root for BPF or delay accounting)");
        }
        int trigger = idle.indexOf(TRIGGER, Math.max(idle.indexOf("PHASE io start"), 0));
        if (trigger < 0 || idle.indexOf(CAUSE, trigger) < 0) {
            throw new RuntimeException("no proactive GC of the task's own trigger in the stall-heavy idle phase:\n" + idle);
        }
        String busy = FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(
                "-XX:+UseFlexHeap", "-Xmx512m", "-Xlog:gc,gc+flexheap=debug",
                "FlexHeapPhases", "3", "9", "4", file, "busy")).shouldHaveExit(0).output();
        System.out.println("busy run: " + FlexHeapTestSupport.count(busy, REQUESTED) + " concurrent cycles started for a decision's request");
        if (busy.contains(TRIGGER)) {
            // Only where the allocating thread really fell below half its
            // recent rate for FlexHeapProactiveLowIntervals checks in a row,
            // as on a host whose CPUs a parallel build took (seen with
            // VerifyBeforeGC/AfterGC): then the rule did what it says.
            int streak = maxStreak(busy.substring(Math.max(busy.indexOf("PHASE io start"), 0)));
            if (streak < LOW_INTERVALS) {
                throw new RuntimeException("proactive GC while the mutators kept allocating (longest low streak "
                                           + streak + " < " + LOW_INTERVALS + "):\n" + busy);
            }
            System.out.println("busy run: the allocation rate fell for " + streak
                               + " intervals in a row on this host, so its proactive GC was due");
        }
    }

    static final int LOW_INTERVALS = 3;   // FlexHeapProactiveLowIntervals' default

    // The longest run of consecutive "proactive check" lines with low=1 and stalled=1.
    static int maxStreak(String log) {
        Matcher m = Pattern.compile("proactive check: .* low=(\\d) stalled=(\\d)").matcher(log);
        int run = 0, max = 0;
        while (m.find()) {
            run = m.group(1).equals("1") && m.group(2).equals("1") ? run + 1 : 0;
            max = Math.max(max, run);
        }
        return max;
    }
}
