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
 * @summary FlexHeap flags: range and constraint checks, G1 only, the 90% default max heap.
 * @library /lib
 * @run main TestFlexHeapFlags
 */
import java.util.List;
import java.util.regex.*;

public class TestFlexHeapFlags {
    static long maxHeap(String out) {
        Matcher m = Pattern.compile("size_t MaxHeapSize\\s+=\\s+(\\d+)").matcher(out);
        if (!m.find()) throw new RuntimeException("no MaxHeapSize in\n" + out);
        return Long.parseLong(m.group(1));
    }

    public static void main(String[] args) throws Exception {
        FlexHeapTestSupport.java(List.of("-XX:+UnlockExperimentalVMOptions", "-XX:+UseFlexHeap", "-XX:FlexHeapHistoryLength=0", "-version"))
            .shouldContain("FlexHeapHistoryLength").shouldHaveExit(1);
        FlexHeapTestSupport.java(List.of("-XX:+UnlockExperimentalVMOptions", "-XX:+UseFlexHeap", "-XX:FlexHeapMinScaleFactor=0.8",
                                         "-XX:FlexHeapMaxScaleFactor=0.5", "-version"))
            .shouldContain("must be greater than or equal to FlexHeapMinScaleFactor").shouldHaveExit(1);
        FlexHeapTestSupport.java(List.of("-XX:+UnlockExperimentalVMOptions", "-XX:+UseFlexHeap", "-XX:FlexHeapStaticStepPercent=101", "-version"))
            .shouldContain("FlexHeapStaticStepPercent").shouldHaveExit(1);
        FlexHeapTestSupport.java(List.of("-XX:+UnlockExperimentalVMOptions", "-XX:+UseFlexHeap", "-XX:FlexHeapNegligibleCostPercent=101", "-version"))
            .shouldContain("FlexHeapNegligibleCostPercent").shouldHaveExit(1);
        FlexHeapTestSupport.java(List.of("-XX:+UseParallelGC", "-XX:+UseFlexHeap", "-version"))
            .shouldContain("requires the G1 collector").shouldHaveExit(1);
        FlexHeapTestSupport.java(List.of("-XX:+UseSerialGC", "-XX:+UseFlexHeap", "-version"))
            .shouldContain("requires the G1 collector").shouldHaveExit(1);
        // A bad backend name is refused at parse time, as a bad FlexHeapPolicy is.
        FlexHeapTestSupport.java(List.of("-XX:+UseFlexHeap", "-XX:FlexHeapIOStallBackend=bogus", "-version"))
            .shouldContain("FlexHeapIOStallBackend (bogus) must be one of").shouldHaveExit(1);
        // The stall source can be turned off; FlexHeap then says it runs on GC cost alone.
        FlexHeapTestSupport.java(List.of("-XX:+UseFlexHeap", "-XX:FlexHeapIOStallBackend=none", "-version"))
            .shouldContain("on GC cost alone").shouldHaveExit(0);

        long budget = 1L << 30;
        long flex = maxHeap(FlexHeapTestSupport.java(List.of("-XX:+UseFlexHeap", "-XX:MaxRAM=1g",
                "-XX:+PrintFlagsFinal", "-version")).shouldHaveExit(0).output());
        if (flex < budget * 0.88 || flex > budget * 0.91) {   // 90%, aligned up to a region
            throw new RuntimeException("FlexHeap default max heap " + flex + " is not ~90% of " + budget);
        }
        long stock = maxHeap(FlexHeapTestSupport.java(List.of("-XX:MaxRAM=1g",
                "-XX:+PrintFlagsFinal", "-version")).shouldHaveExit(0).output());
        if (stock >= flex) throw new RuntimeException("stock G1 max heap " + stock + " not below FlexHeap's " + flex);
        long explicit = maxHeap(FlexHeapTestSupport.java(List.of("-XX:+UseFlexHeap", "-XX:MaxRAM=1g", "-Xmx256m",
                "-XX:+PrintFlagsFinal", "-version")).shouldHaveExit(0).output());
        if (explicit != 256L << 20) throw new RuntimeException("-Xmx256m gave " + explicit);
    }
}
