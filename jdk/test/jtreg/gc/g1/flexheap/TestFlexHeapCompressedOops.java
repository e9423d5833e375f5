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
 * @summary FlexHeap's default max heap (90% of the memory limit) stops at the compressed oops limit, as
 *          HotSpot's own ergonomics do: with a 64 GB limit the JVM keeps UseCompressedOops; an explicit
 *          -Xmx beyond the limit still turns compressed oops off, as in stock HotSpot.
 * @library /lib
 * @run main TestFlexHeapCompressedOops
 */
import java.util.List;
import java.util.regex.*;

public class TestFlexHeapCompressedOops {
    static String flag(String out, String name) {
        Matcher m = Pattern.compile("\\s" + name + "\\s+=\\s+(\\S+)").matcher(out);
        if (!m.find()) throw new RuntimeException("no " + name + " in\n" + out);
        return m.group(1);
    }

    static String run(String... args) throws Exception {
        List<String> l = new java.util.ArrayList<>(List.of(args));
        l.addAll(List.of("-XX:+PrintFlagsFinal", "-version"));
        return FlexHeapTestSupport.java(l).shouldHaveExit(0).output();
    }

    public static void main(String[] args) throws Exception {
        long g = 1L << 30;
        String flex = run("-XX:+UseFlexHeap", "-XX:MaxRAM=64g");
        long max = Long.parseLong(flag(flex, "MaxHeapSize"));
        if (!flag(flex, "UseCompressedOops").equals("true")) {
            throw new RuntimeException("-XX:+UseFlexHeap -XX:MaxRAM=64g lost compressed oops (MaxHeapSize " + max + ")");
        }
        if (max > 32 * g) throw new RuntimeException("MaxHeapSize " + max + " beyond the compressed oops limit");
        // Still FlexHeap's larger default, up to the limit: stock G1 takes 25% (16 GB) of 64 GB.
        long stock = Long.parseLong(flag(run("-XX:MaxRAM=64g"), "MaxHeapSize"));
        if (max <= stock) throw new RuntimeException("FlexHeap max heap " + max + " not above stock " + stock);
        // Below the limit nothing changes: 90% of 16 GB.
        long small = Long.parseLong(flag(run("-XX:+UseFlexHeap", "-XX:MaxRAM=16g"), "MaxHeapSize"));
        if (small < 0.89 * 16 * g || small > 0.91 * 16 * g) {
            throw new RuntimeException("FlexHeap max heap " + small + " is not ~90% of 16 GB");
        }
        // The user asks for more than the limit: as in stock HotSpot, compressed oops go.
        String big = run("-XX:+UseFlexHeap", "-XX:MaxRAM=64g", "-Xmx40g");
        if (!flag(big, "UseCompressedOops").equals("false")) {
            throw new RuntimeException("-Xmx40g kept compressed oops");
        }
        // An explicit MaxRAMPercentage is the user's choice, as in stock HotSpot.
        String pct = run("-XX:+UseFlexHeap", "-XX:MaxRAM=64g", "-XX:MaxRAMPercentage=90");
        if (!flag(pct, "UseCompressedOops").equals(flag(run("-XX:MaxRAM=64g", "-XX:MaxRAMPercentage=90"),
                                                         "UseCompressedOops"))) {
            throw new RuntimeException("explicit MaxRAMPercentage differs from stock HotSpot");
        }
    }
}
