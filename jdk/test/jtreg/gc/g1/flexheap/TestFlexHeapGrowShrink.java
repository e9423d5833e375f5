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
 * @summary With FlexHeap the heap grows under allocation pressure, shrinks when mutators stall on I/O
 *          and allocate little, and never goes below -Xms or the eden target. "paper"
 *          (-XX:FlexHeapPolicy=paper) runs the paper's predicates alone and logs the paper's reasons
 *          (costUp/costDown with gcBias, ioBias, growUsed ...); "negligible" is paper mode with the
 *          negligible-cost rule (reason gcNegligible); "balance" is the default policy.
 * @library /lib
 * @build FlexHeapPhases
 * @run main/timeout=300 TestFlexHeapGrowShrink paper
 * @run main/timeout=300 TestFlexHeapGrowShrink negligible
 * @run main/timeout=300 TestFlexHeapGrowShrink balance
 */
import java.util.List;
import java.util.regex.*;

public class TestFlexHeapGrowShrink {
    public static void main(String[] args) throws Exception {
        boolean paper = args[0].equals("paper");
        boolean balance = args[0].equals("balance");
        long xms = 96L << 20;
        String out = FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(
                "-XX:+UnlockExperimentalVMOptions", "-XX:+UseFlexHeap", "-XX:FlexHeapPolicy=" + (balance ? "balance" : "paper"),
                "-XX:FlexHeapNegligibleCostPercent=" + (paper ? 0 : 10),
                "-Xms96m", "-Xmx1g", "-XX:G1HeapRegionSize=1m",
                "-Xlog:gc+flexheap=debug,gc", "FlexHeapPhases", "5", "14", "4",
                FlexHeapTestSupport.dataFile().toString()))
            .shouldHaveExit(0).output();
        if (!FlexHeapTestSupport.hasStallSource(out)) {
            throw new jtreg.SkippedException("no I/O stall source on this host (need root for BPF or delay accounting)");
        }
        List<FlexHeapTestSupport.Decision> ds = FlexHeapTestSupport.decisions(out);
        double ioStart = FlexHeapTestSupport.phaseTime(out, "PHASE io start");
        long grownBytes = ds.stream().filter(d -> d.time() < ioStart && d.action().equals("Grow"))
                            .mapToLong(d -> d.bytes()).sum();
        if (grownBytes < (64L << 20)) {
            throw new RuntimeException("heap grew only " + grownBytes + " bytes in the allocation phase");
        }
        long shrinks = ds.stream().filter(d -> d.time() > ioStart && d.action().equals("Shrink")
                                               && (balance || d.reason().contains("ioBias")
                                                   || (!paper && d.reason().contains("gcNegligible")))).count();
        if (shrinks == 0) throw new RuntimeException("no " + (balance ? "" : paper ? "ioBias " : "ioBias/gcNegligible ")
                                                     + "shrink in the I/O phase");
        if (paper && out.contains("Negligible")) throw new RuntimeException("negligible-cost rule ran with 0%");
        String expected = balance ? "balance" : "paper";
        for (FlexHeapTestSupport.Decision d : ds) {
            if (!expected.equals(d.policy())) throw new RuntimeException("decision without policy=" + expected + ": " + d);
        }
        if (!balance) {
            // The paper's reasons, as its Fig. 4 names them.
            boolean costUp = ds.stream().anyMatch(d -> d.reason().startsWith("costUp,gcBias")
                                                       || d.reason().startsWith("costUp,ioBias"));
            boolean costDown = ds.stream().anyMatch(d -> d.reason().startsWith("costDown,"));
            if (!costUp || !costDown) throw new RuntimeException("paper mode lacks the paper's reasons (costUp/costDown)");
        }
        for (FlexHeapTestSupport.Decision d : ds) {
            if (d.committed() < xms) throw new RuntimeException("committed " + d.committed() + " below -Xms at " + d);
        }
        if (balance) return;
        // Alg. 3: a shrink only returns free regions beyond G1's eden target.
        Matcher m = Pattern.compile("inputs .* free_regions=(\\d+) eden_target=(\\d+)[^\\n]*\\n[^\\n]*costs .* requested=(\\d+)")
                           .matcher(out);
        int checked = 0;
        Matcher shrinkLine = Pattern.compile("action=Shrink bytes=(\\d+)").matcher(out);
        while (m.find()) {
            long budget = Math.max(0, Long.parseLong(m.group(1)) - Long.parseLong(m.group(2))) << 20;
            long requested = Long.parseLong(m.group(3));
            String block = out.substring(Math.max(0, m.start() - 400), m.start());
            if (block.contains("action=Shrink") && requested > budget) {
                throw new RuntimeException("shrink request " + requested + " exceeds free-beyond-eden " + budget);
            }
            checked++;
        }
        if (checked == 0) throw new RuntimeException("no debug decision inputs in the log");
    }
}
