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
 * Part of FlexHeap's tests: keeps the live set near the maximum heap while allocating, so that young
 * collections cannot satisfy allocations and G1 follows them with a full collection in the same
 * safepoint ("Pause Full (G1 Compaction Pause)"). Usage: FullGCPressure <seconds> <live_fraction>
 */
import java.util.*;

public class FullGCPressure {
    static volatile Object sink;

    public static void main(String[] args) throws Exception {
        double seconds = Double.parseDouble(args[0]);
        double fraction = Double.parseDouble(args[1]);
        long max = Runtime.getRuntime().maxMemory();
        int chunk = 256 << 10;
        int slots = (int) (max * fraction / chunk);
        byte[][] live = new byte[slots][];
        Random r = new Random(1);
        long end = System.nanoTime() + (long) (seconds * 1e9);
        long replaced = 0;
        int oomes = 0;
        while (System.nanoTime() < end) {
            try {
                live[r.nextInt(slots)] = new byte[chunk];
                sink = new byte[16 << 10];
                replaced++;
            } catch (OutOfMemoryError e) {
                Arrays.fill(live, 0, slots / 2, null);   // back off: the point is the full GCs, not the OOME
                oomes++;
            }
        }
        System.out.println("replaced " + replaced + " ooms " + oomes);
    }
}
