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
 *          ergonomics would pick Serial; FlexHeapPolicy, FlexHeapIOStallBackend and FlexHeapGCTimeRatio are
 *          validated at parse time; exactly the eight product flags show without unlocking, every tuning
 *          knob needs -XX:+UnlockExperimentalVMOptions and is validated and logged at start-up when given;
 *          each C_io stays within the idle CPU time, from a process clock sampled off the pause;
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

    public static void main(String[] args) throws Exception {
        String file = FlexHeapTestSupport.dataFile().toString();
        // -Xms = -Xmx: nothing to resize.
        String fixed = FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(
                "-XX:+UseFlexHeap", "-Xms256m", "-Xmx256m", "-Xlog:gc+flexheap=debug,gc+task=debug",
                "FlexHeapPhases", "2", "0", "0", file)).shouldHaveExit(0)
            .shouldNotContain(" decision ").shouldNotContain("FlexHeap Proactive GC Task")
            .shouldNotContain("FlexHeap Signals Task").output();
        if (FlexHeapTestSupport.count(fixed, "FlexHeap is off: the minimum heap equals the maximum heap") != 1) {
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

        // FlexHeapPolicy, FlexHeapIOStallBackend and FlexHeapGCTimeRatio, at parse time.
        FlexHeapTestSupport.java(List.of("-XX:+UseFlexHeap", "-XX:FlexHeapPolicy=bogus", "-version"))
            .shouldContain("FlexHeapPolicy (bogus) must be one of: balance, paper").shouldHaveExit(1);
        FlexHeapTestSupport.java(List.of("-XX:+UseFlexHeap", "-XX:FlexHeapIOStallBackend=bfp", "-version"))
            .shouldContain("FlexHeapIOStallBackend (bfp) must be one of: auto, bpf, delayacct, psi, none")
            .shouldHaveExit(1);
        FlexHeapTestSupport.java(List.of("-XX:+UseFlexHeap", "-XX:FlexHeapGCTimeRatio=0", "-version"))
            .shouldContain("FlexHeapGCTimeRatio").shouldHaveExit(1);
        FlexHeapTestSupport.java(List.of("-XX:+UseFlexHeap", "-XX:FlexHeapGCTimeRatio=1001", "-version"))
            .shouldContain("FlexHeapGCTimeRatio").shouldHaveExit(1);

        // The product flags, and only those, without unlocking.
        String balance = FlexHeapTestSupport.java(List.of("-XX:+UseFlexHeap", "-XX:+PrintFlagsFinal", "-version"))
            .shouldHaveExit(0).output();
        List<String> product = List.of("UseFlexHeap", "FlexHeapPolicy", "FlexHeapGCTimeRatio",
                "FlexHeapCacheReservePercent", "FlexHeapMaxRAMPercentage", "FlexHeapProactiveGCInterval",
                "FlexHeapIOStallBackend", "FlexHeapIOStallLibrary");
        Matcher names = Pattern.compile("\\s((?:Use)?FlexHeap\\w*)\\s+=").matcher(balance);
        List<String> shown = new java.util.ArrayList<>();
        while (names.find()) shown.add(names.group(1));
        if (!new java.util.HashSet<>(shown).equals(new java.util.HashSet<>(product)) || shown.size() != product.size()) {
            throw new RuntimeException("product flags shown without unlocking: " + shown + ", want " + product);
        }
        if (!flag(balance, "FlexHeapPolicy").equals("balance") || !flag(balance, "FlexHeapGCTimeRatio").equals("24")
            || !flag(balance, "FlexHeapCacheReservePercent").equals("10")
            || !flag(balance, "FlexHeapIOStallBackend").equals("auto")
            || !flag(balance, "FlexHeapProactiveGCInterval").equals("500")) {
            throw new RuntimeException("balance defaults wrong");
        }
        // A tuning knob needs unlocking, as G1's own experimental flags do ...
        FlexHeapTestSupport.java(List.of("-XX:+UseFlexHeap", "-XX:FlexHeapRentRefaultSaturationPercent=30", "-version"))
            .shouldContain("must be enabled via -XX:+UnlockExperimentalVMOptions").shouldHaveExit(1);
        // ... is range checked ...
        FlexHeapTestSupport.java(List.of("-XX:+UnlockExperimentalVMOptions", "-XX:+UseFlexHeap",
                "-XX:FlexHeapRentRefaultSaturationPercent=0", "-version"))
            .shouldContain("FlexHeapRentRefaultSaturationPercent").shouldHaveExit(1);
        FlexHeapTestSupport.java(List.of("-XX:+UnlockExperimentalVMOptions", "-XX:+UseFlexHeap",
                "-XX:FlexHeapRentRefaultSaturationPercent=101", "-version"))
            .shouldContain("FlexHeapRentRefaultSaturationPercent").shouldHaveExit(1);
        // ... and said at start-up when given, and only then.
        FlexHeapTestSupport.java(List.of("-XX:+UnlockExperimentalVMOptions", "-XX:+UseFlexHeap",
                "-XX:FlexHeapRentRefaultSaturationPercent=30", "-Xlog:gc+flexheap=info", "-version"))
            .shouldHaveExit(0).shouldContain("from a refault share of 30% on (FlexHeapRentRefaultSaturationPercent)");
        FlexHeapTestSupport.java(List.of("-XX:+UseFlexHeap", "-Xlog:gc+flexheap=info", "-version"))
            .shouldHaveExit(0).shouldNotContain("FlexHeapRentRefaultSaturationPercent");
        // The paper's own knobs have the paper's values by default.
        String paper = FlexHeapTestSupport.java(List.of("-XX:+UnlockExperimentalVMOptions", "-XX:+UseFlexHeap",
                "-XX:FlexHeapPolicy=paper", "-XX:+PrintFlagsFinal", "-version")).shouldHaveExit(0).output();
        if (!flag(paper, "FlexHeapCostAsRate").equals("false") || !flag(paper, "FlexHeapNegligibleCostPercent").equals("0")
            || !flag(paper, "FlexHeapHistoryLength").equals("10")) {
            throw new RuntimeException("paper defaults wrong");
        }

        // Each decision's C_io is at most the CPU time the process left idle,
        // N * (T_mut + T_stw) - proc_cpu, from the process's own CPU clock (proc_cpu known and used).
        String capped = FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(
                "-XX:+UseFlexHeap", "-Xmx256m", "-Xlog:gc+flexheap=debug",
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
        // FlexHeapProactiveGCInterval: manageable, on from 0 at run time.
        String dyn = FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(
                "-XX:+UseFlexHeap", "-Xmx256m", "-XX:FlexHeapProactiveGCInterval=0", "-Xlog:gc+flexheap=debug",
                "SetProactiveInterval", "100", "3")).shouldHaveExit(0).output();
        int set = dyn.indexOf("INTERVAL SET");
        if (set < 0) throw new RuntimeException("the program did not set the flag");
        if (dyn.substring(0, set).contains("proactive check:")) {
            throw new RuntimeException("proactive checks ran with FlexHeapProactiveGCInterval=0");
        }
        if (FlexHeapTestSupport.count(dyn.substring(set), "proactive check:") < 5) {
            throw new RuntimeException("FlexHeapProactiveGCInterval set from 0 to 100 at run time did not start checks");
        }
    }
}
