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
 * @summary Without any stall source (-XX:FlexHeapIOStallBackend=none), or with one and no I/O (auto), a
 *          program whose working set drops after a peak gets (at least half of) its memory back within 15 s
 *          instead of ratcheting at the peak. "balance" sizes by the GC time goal; "paper" is off without a
 *          stall source and, with one and no I/O cost, leaves each pause to G1's own sizing ("noIO,stock").
 * @library /lib
 * @build PeakThenChurn
 * @run main/timeout=300 TestFlexHeapNoStallSource balance none
 * @run main/timeout=300 TestFlexHeapNoStallSource paper none
 * @run main/timeout=300 TestFlexHeapNoStallSource balance auto
 * @run main/timeout=300 TestFlexHeapNoStallSource paper auto
 */
import java.util.*;
import java.util.regex.*;

public class TestFlexHeapNoStallSource {
    static long value(String out, String key) {
        Matcher m = Pattern.compile(key + " committed=(\\d+)").matcher(out);
        if (!m.find()) throw new RuntimeException("no '" + key + "' line");
        return Long.parseLong(m.group(1));
    }

    // The mean of gc_rate over the decisions logged after the peak (NaN if none).
    static double meanGcRateAfterPeak(String out) {
        int from = out.indexOf("PEAK committed=");
        Matcher m = Pattern.compile("decision .* gc_rate=([0-9.]+)").matcher(out.substring(Math.max(from, 0)));
        double sum = 0;
        int n = 0;
        while (m.find()) {
            sum += Double.parseDouble(m.group(1));
            n++;
        }
        return n > 0 ? sum / n : Double.NaN;
    }

    public static void main(String[] args) throws Exception {
        String policy = args[0];
        String backend = args[1];
        List<String> common = List.of("-Xms32m", "-Xmx1g", "-XX:G1HeapRegionSize=1m", "-Xlog:gc,gc+flexheap",
                                      "PeakThenChurn", "500", "15");
        List<String> flex = new ArrayList<>(List.of("-XX:+UseFlexHeap", "-XX:FlexHeapPolicy=" + policy,
                                                    "-XX:FlexHeapIOStallBackend=" + backend));
        flex.addAll(common);
        var run = FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(flex.toArray(new String[0])))
            .shouldHaveExit(0);
        String out = run.output();
        if (backend.equals("none")) {
            run.shouldContain("No I/O stall source");
        } else if (!FlexHeapTestSupport.hasStallSource(out)) {
            throw new jtreg.SkippedException("no I/O stall source on this host (need root for BPF or delay accounting)");
        } else if (policy.equals("paper") && !out.contains("reason=noIO,stock")) {
            throw new RuntimeException("no decision left to G1 ('noIO,stock') in a run without I/O");
        }
        String stock = FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(common.toArray(new String[0])))
            .shouldHaveExit(0).output();
        long peak = value(out, "PEAK");
        long end = value(out, "END");
        long stockEnd = value(stock, "END");
        System.out.println("FlexHeap " + policy + " (" + backend + "): peak " + (peak >> 20) + "M, end " + (end >> 20) + "M; stock G1 end "
                           + (stockEnd >> 20) + "M");
        // The ratchet this guards against kept the whole peak. Stock G1 returns to -Xms at the first Remark
        // (MaxHeapFreeRatio); the balance policy keeps what its GC time goal needs, so compare with the peak.
        // The release JVM's run holds the half. A debug JVM's pauses are several times the product's (asserts,
        // and a per-region cost that grows with the heap), so its GC rate in the churn sits in the goal's dead
        // band (0.75-1.25 x 1/(1+FlexHeapGCTimeRatio)) on some hosts: 240-302M of 1024M kept on one machine,
        // 969M on another, where every decision after the peak measured 3-11% of the CPU in GC. There the heap
        // may stay, but only if the GC goal held it: the decisions after the peak must average at least the
        // band's low edge, which a ratchet's cheap GCs do not.
        long allowed = FlexHeapTestSupport.isDebugBuild() ? peak * 3 / 4 : peak / 2;
        if (end > allowed) {
            double goalLow = 0.75 / (1 + 24);   // FlexHeapGCTimeRatio's default; GoalLowFraction
            double rate = meanGcRateAfterPeak(out);
            String why = "FlexHeap kept " + (end >> 20) + "M of its " + (peak >> 20) + "M peak, over "
                         + (allowed >> 20) + "M (stock G1: " + (stockEnd >> 20) + "M); mean gc_rate after the peak "
                         + String.format("%.4f", rate);
            if (!FlexHeapTestSupport.isDebugBuild() || !(rate >= goalLow)) {
                throw new RuntimeException(why + ", goal's low edge " + String.format("%.4f", goalLow));
            }
            System.out.println(why + ": the debug JVM's GC cost holds it (goal's low edge "
                               + String.format("%.4f", goalLow) + ")");
        }
    }
}
