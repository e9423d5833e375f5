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
 * @summary Configurations FlexHeap cannot or need not act in: -Xms equal to -Xmx turns it off (said once,
 *          no decisions, no proactive task); with no collector chosen UseFlexHeap selects G1 even where
 *          ergonomics would pick Serial; FlexHeapPolicy, FlexHeapGCTimeRatio, FlexHeapRentPriceMinIOPercent,
 *          FlexHeapRefaultEvidencePercent, FlexHeapRentRefaultSaturationPercent, FlexHeapBalanceMaxGCPercent
 *          and FlexHeapEarlyGCSurvivalPercent are validated; FlexHeapRentRefaultSaturationPercent,
 *          FlexHeapRecentPhaseShift, FlexHeapBalanceShrinkNeedsStalls and FlexHeapLiveGrowthRentFree
 *          (off by default) are logged at start-up when given, and only then; paper mode sets its
 *          ergonomic defaults;
 *          FlexHeapIOCostIdleCap (on by default) keeps each C_io within the idle CPU time, from a
 *          process clock sampled off the pause (not at all with the cap off); FlexHeapConcCostIdleCap
 *          (off by default) reads that clock too and keeps each C_conc within the concurrent CPU
 *          beyond the idle CPU;
 *          FlexHeapActivatedRefaults (off by default) reads the kernel's activations at every decision;
 *          FlexHeapProactiveGCInterval can be turned on from 0 at run time.
 * @library /lib
 * @build SetProactiveInterval FlexHeapPhases
 * @run main/timeout=300 TestFlexHeapConfigurations
 */
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.*;

public class TestFlexHeapConfigurations {
    static String flag(String out, String name) {
        Matcher m = Pattern.compile("\\s" + name + "\\s+=\\s+(\\S+)").matcher(out);
        if (!m.find()) throw new RuntimeException("no " + name + " in\n" + out);
        return m.group(1);
    }

    static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) n++;
        return n;
    }

    public static void main(String[] args) throws Exception {
        String file = FlexHeapTestSupport.dataFile().toString();
        // -Xms = -Xmx: nothing to resize.
        String fixed = FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(
                "-XX:+UseFlexHeap", "-Xms256m", "-Xmx256m", "-Xlog:gc+flexheap=debug,gc+task=debug",
                "FlexHeapPhases", "2", "0", "0", file)).shouldHaveExit(0)
            .shouldNotContain(" decision ").shouldNotContain("FlexHeap Proactive GC Task")
            .shouldNotContain("FlexHeap Signals Task").output();
        if (count(fixed, "FlexHeap is off: the minimum heap equals the maximum heap") != 1) {
            throw new RuntimeException("-Xms = -Xmx not said exactly once");
        }
        // ... and said without any -Xlog: an operator who asked for FlexHeap sees that it is off.
        FlexHeapTestSupport.java(List.of("-XX:+UseFlexHeap", "-Xms256m", "-Xmx256m", "-version"))
            .shouldHaveExit(0).shouldContain("[warning][gc,flexheap] FlexHeap is off: the minimum heap equals");

        // One CPU: ergonomics would pick Serial; UseFlexHeap asks for G1.
        String one = FlexHeapTestSupport.java(List.of("-XX:+UseFlexHeap", "-XX:ActiveProcessorCount=1",
                "-Xlog:gc", "-XX:+PrintFlagsFinal", "-version")).shouldHaveExit(0)
            .shouldContain("UseFlexHeap selects the G1 collector").output();
        if (!flag(one, "UseG1GC").equals("true")) throw new RuntimeException("G1 not selected");
        String oneStock = FlexHeapTestSupport.java(List.of("-XX:ActiveProcessorCount=1", "-XX:+PrintFlagsFinal",
                "-version")).shouldHaveExit(0).output();
        if (!flag(oneStock, "UseSerialGC").equals("true")) {
            throw new RuntimeException("without FlexHeap one CPU should pick Serial; the check above means nothing");
        }
        // An explicit other collector is still refused.
        FlexHeapTestSupport.java(List.of("-XX:+UseSerialGC", "-XX:+UseFlexHeap", "-version"))
            .shouldContain("requires the G1 collector").shouldHaveExit(1);

        // FlexHeapPolicy and FlexHeapGCTimeRatio.
        FlexHeapTestSupport.java(List.of("-XX:+UseFlexHeap", "-XX:FlexHeapPolicy=bogus", "-version"))
            .shouldContain("FlexHeapPolicy (bogus) must be one of: balance, paper").shouldHaveExit(1);
        FlexHeapTestSupport.java(List.of("-XX:+UseFlexHeap", "-XX:FlexHeapGCTimeRatio=0", "-version"))
            .shouldContain("FlexHeapGCTimeRatio").shouldHaveExit(1);
        FlexHeapTestSupport.java(List.of("-XX:+UseFlexHeap", "-XX:FlexHeapGCTimeRatio=1001", "-version"))
            .shouldContain("FlexHeapGCTimeRatio").shouldHaveExit(1);
        FlexHeapTestSupport.java(List.of("-XX:+UseFlexHeap", "-XX:FlexHeapRentPriceMinIOPercent=1001", "-version"))
            .shouldContain("FlexHeapRentPriceMinIOPercent").shouldHaveExit(1);
        FlexHeapTestSupport.java(List.of("-XX:+UseFlexHeap", "-XX:FlexHeapRefaultEvidencePercent=1001", "-version"))
            .shouldContain("FlexHeapRefaultEvidencePercent").shouldHaveExit(1);
        FlexHeapTestSupport.java(List.of("-XX:+UseFlexHeap", "-XX:FlexHeapBalanceMaxGCPercent=101", "-version"))
            .shouldContain("FlexHeapBalanceMaxGCPercent").shouldHaveExit(1);
        FlexHeapTestSupport.java(List.of("-XX:+UseFlexHeap", "-XX:FlexHeapEarlyGCSurvivalPercent=101", "-version"))
            .shouldContain("FlexHeapEarlyGCSurvivalPercent").shouldHaveExit(1);
        FlexHeapTestSupport.java(List.of("-XX:+UseFlexHeap", "-XX:FlexHeapRentRefaultSaturationPercent=0", "-version"))
            .shouldContain("FlexHeapRentRefaultSaturationPercent").shouldHaveExit(1);
        FlexHeapTestSupport.java(List.of("-XX:+UseFlexHeap", "-XX:FlexHeapRentRefaultSaturationPercent=101", "-version"))
            .shouldContain("FlexHeapRentRefaultSaturationPercent").shouldHaveExit(1);
        // The experimental flags say so at start-up when given, and only then.
        FlexHeapTestSupport.java(List.of("-XX:+UseFlexHeap", "-XX:FlexHeapRentRefaultSaturationPercent=30",
                "-XX:+FlexHeapRecentPhaseShift", "-Xlog:gc+flexheap=info", "-version"))
            .shouldHaveExit(0).shouldContain("from a refault share of 30% on (FlexHeapRentRefaultSaturationPercent)")
            .shouldContain("(FlexHeapRecentPhaseShift)");
        FlexHeapTestSupport.java(List.of("-XX:+UseFlexHeap", "-Xlog:gc+flexheap=info", "-version"))
            .shouldHaveExit(0).shouldNotContain("FlexHeapRentRefaultSaturationPercent")
            .shouldNotContain("FlexHeapRecentPhaseShift")
            .shouldNotContain("FlexHeapBalanceShrinkNeedsStalls")
            .shouldNotContain("FlexHeapLiveGrowthRentFree");
        FlexHeapTestSupport.java(List.of("-XX:+UseFlexHeap", "-XX:+FlexHeapBalanceShrinkNeedsStalls",
                "-XX:+FlexHeapLiveGrowthRentFree", "-Xlog:gc+flexheap=info", "-version"))
            .shouldHaveExit(0)
            .shouldContain("only at a pause whose interval stalled on I/O (FlexHeapBalanceShrinkNeedsStalls)")
            .shouldContain("from one Remark to the next (FlexHeapLiveGrowthRentFree)");
        String balance = FlexHeapTestSupport.java(List.of("-XX:+UseFlexHeap", "-XX:+PrintFlagsFinal", "-version"))
            .shouldHaveExit(0).output();
        if (!flag(balance, "FlexHeapPolicy").equals("balance") || !flag(balance, "FlexHeapCostAsRate").equals("true")
            || !flag(balance, "FlexHeapGCTimeRatio").equals("24")
            || !flag(balance, "FlexHeapRentPriceMinIOPercent").equals("100")
            || !flag(balance, "FlexHeapRentFillingCache").equals("true")
            || !flag(balance, "FlexHeapRentCreditDrains").equals("true")
            || !flag(balance, "FlexHeapRefaultEvidencePercent").equals("100")
            || !flag(balance, "FlexHeapRentRefaultSaturationPercent").equals("10")
            || !flag(balance, "FlexHeapRecentPhaseShift").equals("false")
            || !flag(balance, "FlexHeapBalanceShrinkNeedsStalls").equals("false")
            || !flag(balance, "FlexHeapIOCostIdleCap").equals("true")
            || !flag(balance, "FlexHeapConcCostIdleCap").equals("false")
            || !flag(balance, "FlexHeapActivatedRefaults").equals("false")
            || !flag(balance, "FlexHeapBalanceMaxGCPercent").equals("8")
            || !flag(balance, "FlexHeapEarlyGCSurvivalPercent").equals("50")
            || !flag(balance, "FlexHeapLiveGrowthRentFree").equals("false")) {
            throw new RuntimeException("balance defaults wrong");
        }
        String paper = FlexHeapTestSupport.java(List.of("-XX:+UseFlexHeap", "-XX:FlexHeapPolicy=paper",
                "-XX:+PrintFlagsFinal", "-version")).shouldHaveExit(0).output();
        if (!flag(paper, "FlexHeapCostAsRate").equals("false") || !flag(paper, "FlexHeapNegligibleCostPercent").equals("0")) {
            throw new RuntimeException("paper mode did not set its ergonomic defaults");
        }
        String paperGiven = FlexHeapTestSupport.java(List.of("-XX:+UseFlexHeap", "-XX:FlexHeapPolicy=paper",
                "-XX:+FlexHeapCostAsRate", "-XX:FlexHeapNegligibleCostPercent=5", "-XX:+PrintFlagsFinal", "-version"))
            .shouldHaveExit(0).output();
        if (!flag(paperGiven, "FlexHeapCostAsRate").equals("true")
            || !flag(paperGiven, "FlexHeapNegligibleCostPercent").equals("5")) {
            throw new RuntimeException("paper mode overrode explicit flags");
        }

        // FlexHeapIOCostIdleCap: each decision's C_io is at most the CPU time the process left idle,
        // N * (T_mut + T_stw) - proc_cpu, from the process's own CPU clock (proc_cpu known and used).
        String capped = FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(
                "-XX:+UseFlexHeap", "-Xmx256m", "-XX:+FlexHeapIOCostIdleCap", "-Xlog:gc+flexheap=debug",
                "FlexHeapPhases", "1", "1", "2", file)).shouldHaveExit(0).output();
        Map<Long, Double> tstw = FlexHeapTestSupport.inputs(capped, "T_stw");
        Map<Long, Double> tmut = FlexHeapTestSupport.inputs(capped, "T_mut");
        Map<Long, Double> cores = FlexHeapTestSupport.inputs(capped, "N");
        Map<Long, Double> proc = FlexHeapTestSupport.inputs(capped, "proc_cpu");
        Map<Long, Double> idle = new HashMap<>();
        double cpu = 0.0;
        for (Map.Entry<Long, Double> e : proc.entrySet()) {
            cpu += Math.max(e.getValue(), 0.0);
            double wall = tstw.get(e.getKey()) + tmut.get(e.getKey());
            idle.put(e.getKey(), Math.max(cores.get(e.getKey()) * wall - e.getValue(), 0.0));
        }
        if (idle.isEmpty() || cpu <= 0.0) throw new RuntimeException("no proc_cpu in the inputs lines:\n" + capped);
        Matcher dec = Pattern.compile("GC\\((\\d+)\\) decision .* C_io=(\\S+) ").matcher(capped);
        int checked = 0;
        while (dec.find()) {
            Double bound = idle.get(Long.parseLong(dec.group(1)));
            if (bound == null) continue;
            if (Double.parseDouble(dec.group(2)) > bound + 1e-5) {
                throw new RuntimeException("GC(" + dec.group(1) + ") C_io " + dec.group(2) + " above the idle CPU " + bound);
            }
            checked++;
        }
        if (checked == 0) throw new RuntimeException("no decision to check");
        // The signal task samples the process clock (off the pause, every 250 ms): only decisions
        // before its second sample lack a rate, so most decisions have one.
        long known = proc.values().stream().filter(v -> v >= 0.0).count();
        if (known * 2 < proc.size()) {
            throw new RuntimeException("proc_cpu known at " + known + " of " + proc.size() + " decisions:\n" + capped);
        }
        // With the cap off the process clock is not sampled at all.
        String uncapped = FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(
                "-XX:+UseFlexHeap", "-Xmx256m", "-XX:-FlexHeapIOCostIdleCap", "-Xlog:gc+flexheap=debug",
                "FlexHeapPhases", "1", "1", "2", file)).shouldHaveExit(0).output();
        Map<Long, Double> procOff = FlexHeapTestSupport.inputs(uncapped, "proc_cpu");
        if (procOff.isEmpty() || procOff.values().stream().anyMatch(v -> v >= 0.0)) {
            throw new RuntimeException("proc_cpu read with FlexHeapIOCostIdleCap off:\n" + uncapped);
        }

        // FlexHeapConcCostIdleCap alone samples the process clock too, and each decision's C_conc is at
        // most the concurrent GC CPU beyond the idle CPU, max(0, conc_cpu - (N * (T_mut + T_stw) - proc_cpu)),
        // within the rounding of the six-decimal logged inputs.
        String conc = FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(
                "-XX:+UseFlexHeap", "-Xmx256m", "-XX:-FlexHeapIOCostIdleCap", "-XX:+FlexHeapConcCostIdleCap",
                "-Xlog:gc+flexheap=debug", "FlexHeapPhases", "1", "1", "2", file)).shouldHaveExit(0).output();
        Map<Long, Double> cStw = FlexHeapTestSupport.inputs(conc, "T_stw");
        Map<Long, Double> cMut = FlexHeapTestSupport.inputs(conc, "T_mut");
        Map<Long, Double> cN = FlexHeapTestSupport.inputs(conc, "N");
        Map<Long, Double> cConc = FlexHeapTestSupport.inputs(conc, "conc_cpu");
        Map<Long, Double> cProc = FlexHeapTestSupport.inputs(conc, "proc_cpu");
        if (cProc.values().stream().filter(v -> v >= 0.0).count() * 2 < cProc.size()) {
            throw new RuntimeException("proc_cpu not read with FlexHeapConcCostIdleCap alone:\n" + conc);
        }
        Matcher costs = Pattern.compile("GC\\((\\d+)\\) costs .*C_conc=(\\S+) ").matcher(conc);
        int gcChecked = 0;
        while (costs.find()) {
            long id = Long.parseLong(costs.group(1));
            Double p = cProc.get(id);
            if (p == null || p < 0.0) continue;
            double n = cN.get(id);
            double idleCpu = Math.max(n * (cStw.get(id) + cMut.get(id)) - p, 0.0);
            double bound = Math.max(cConc.get(id) - idleCpu, 0.0);
            if (Double.parseDouble(costs.group(2)) > bound + (n + 2) * 1e-6) {
                throw new RuntimeException("GC(" + id + ") C_conc " + costs.group(2) + " above " + bound + ":\n" + conc);
            }
            gcChecked++;
        }
        if (gcChecked == 0) throw new RuntimeException("no decision with proc_cpu to check:\n" + conc);

        // Without FlexHeapActivatedRefaults no activations are read ...
        if (FlexHeapTestSupport.inputs(capped, "activate_bytes").values().stream().anyMatch(v -> v >= 0.0)) {
            throw new RuntimeException("activations read with FlexHeapActivatedRefaults off:\n" + capped);
        }
        // ... with it, the log says from where, and every decision has them (memory.stat on
        // cgroup v2, else /proc/vmstat: Linux has had workingset_activate_file since 5.9).
        String act = FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(
                "-XX:+UseFlexHeap", "-Xmx256m", "-XX:+FlexHeapActivatedRefaults", "-Xlog:gc+flexheap=debug",
                "FlexHeapPhases", "1", "1", "2", file)).shouldHaveExit(0)
            .shouldContain("twice the refaults the kernel activated, from").output();
        Map<Long, Double> activated = FlexHeapTestSupport.inputs(act, "activate_bytes");
        if (activated.isEmpty() || activated.values().stream().anyMatch(v -> v < 0.0)) {
            throw new RuntimeException("activations not read at every decision:\n" + act);
        }

        // FlexHeapProactiveGCInterval: manageable, on from 0 at run time.
        String dyn = FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(
                "-XX:+UseFlexHeap", "-Xmx256m", "-XX:FlexHeapProactiveGCInterval=0", "-Xlog:gc+flexheap=debug",
                "SetProactiveInterval", "100", "3")).shouldHaveExit(0).output();
        int set = dyn.indexOf("INTERVAL SET");
        if (set < 0) throw new RuntimeException("the program did not set the flag");
        if (dyn.substring(0, set).contains("proactive check:")) {
            throw new RuntimeException("proactive checks ran with FlexHeapProactiveGCInterval=0");
        }
        if (count(dyn.substring(set), "proactive check:") < 5) {
            throw new RuntimeException("FlexHeapProactiveGCInterval set from 0 to 100 at run time did not start checks");
        }
    }
}
