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
 * @summary A FlexHeap proactive pause that finds G1 about to run (or in) a mixed
 *          phase chosen by an earlier marking ends it and starts a concurrent
 *          cycle, as a user-requested concurrent GC does, instead of running one
 *          mixed pause per interval; once that cycle of its own has chosen the
 *          candidates, the next proactive pauses run their mixed GCs.
 * @library /lib
 * @build FlexHeapPhases
 * @run main/timeout=300 TestFlexHeapMixedPhaseAbort
 */
import java.util.regex.*;

public class TestFlexHeapMixedPhaseAbort {
    static final String CAUSE = "(G1 FlexHeap Proactive Collection)";
    static final String ABORT = "Initiate concurrent cycle (FlexHeap requested concurrent cycle)";

    public static void main(String[] args) throws Exception {
        String file = FlexHeapTestSupport.dataFile().toString();
        // Tenuring 0 puts the allocation phase's survivors in old regions; waste 0 and
        // liveness 100 make every marked old region with garbage a mixed-GC candidate.
        String log = FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(
                "-XX:+UseFlexHeap", "-Xmx512m", "-XX:G1HeapRegionSize=1m",
                "-XX:MaxTenuringThreshold=0", "-XX:+ExplicitGCInvokesConcurrent",
                "-XX:G1HeapWastePercent=0", "-XX:+UnlockExperimentalVMOptions",
                "-XX:G1MixedGCLiveThresholdPercent=100",
                "-Xlog:gc,gc+ergo=debug,gc+flexheap",
                "FlexHeapPhases", "3", "8", "4", file, "mixed")).shouldHaveExit(0).output();
        if (!FlexHeapTestSupport.hasStallSource(log)) {
            throw new jtreg.SkippedException("no I/O stall source on this host (need root for BPF or delay accounting)");
        }
        int pending = log.indexOf("PHASE mixed pending");
        int remark = log.lastIndexOf("Pause Remark", pending);
        if (pending < 0 || remark < 0) {
            throw new RuntimeException("set-up: no System.gc() concurrent cycle before the I/O phase");
        }
        if (log.substring(remark, pending).contains("request young-only gcs")) {
            throw new RuntimeException("set-up: the System.gc() cycle left no mixed-GC candidates");
        }
        Matcher m = Pattern.compile("GC\\((\\d+)\\) Pause Young \\(([^)]+)\\) " + Pattern.quote(CAUSE)).matcher(log);
        if (!m.find(pending)) {
            throw new RuntimeException("no proactive pause in the I/O phase");
        }
        String id = m.group(1);
        if (!m.group(2).equals("Concurrent Start")) {
            throw new RuntimeException("GC(" + id + "), the first proactive pause with a mixed phase pending, is '"
                                       + m.group(2) + "', not a concurrent start");
        }
        if (!log.contains("GC(" + id + ") " + ABORT)) {
            throw new RuntimeException("GC(" + id + ") lacks '" + ABORT + "'");
        }
        // The cycle GC(id) started chose candidates from the kept, partly live regions:
        // aborting again would mark them over and over and never evacuate them.
        int cleanup = log.indexOf("Pause Cleanup", m.end());
        if (cleanup < 0 || !m.find(cleanup)) {
            throw new RuntimeException("no proactive pause after the cycle GC(" + id + ") started");
        }
        if (log.substring(cleanup, m.start()).contains("request young-only gcs")) {
            throw new RuntimeException("set-up: the cycle GC(" + id + ") started left no mixed-GC candidates");
        }
        if (!m.group(2).contains("Mixed")) {
            throw new RuntimeException("GC(" + m.group(1) + "), the proactive pause after FlexHeap's own marking, is '"
                                       + m.group(2) + "', not a mixed GC");
        }
    }
}
