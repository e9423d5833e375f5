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
 * Part of FlexHeap's tests: no I/O at all. Builds a live set of peak_mb, drops it, then allocates only
 * short-lived objects for churn_s seconds at about rate_mb MB/s (a service after its load peak), printing
 * the committed heap (Runtime.totalMemory) as it goes. Usage: PeakThenChurn <peak_mb> <churn_s> [rate_mb]
 */
import java.util.*;

public class PeakThenChurn {
    static volatile Object sink;

    public static void main(String[] args) throws Exception {
        int peakMb = Integer.parseInt(args[0]);
        double churn = Double.parseDouble(args[1]);
        long perTick = ((args.length > 2 ? Long.parseLong(args[2]) : 100) << 20) / 100;   // bytes per 10 ms
        List<byte[]> live = new ArrayList<>();
        Random r = new Random(5);
        while (live.size() < peakMb * 16) {
            live.add(new byte[64 << 10]);
            for (int i = 0; i < 8; i++) sink = new byte[1024 + r.nextInt(4096)];
        }
        System.out.println("PEAK committed=" + Runtime.getRuntime().totalMemory());
        live = null;
        long start = System.nanoTime();
        long end = start + (long) (churn * 1e9);
        long nextPrint = start;
        long tick = start;
        while (System.nanoTime() < end) {
            for (long b = 0; b < perTick; b += 4096) sink = new byte[1024 + r.nextInt(6144)];
            tick += 10_000_000L;
            long wait = tick - System.nanoTime();
            if (wait > 0) Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            if (System.nanoTime() >= nextPrint) {
                System.out.println("CHURN t=" + (System.nanoTime() - start) / 1_000_000 + "ms committed="
                                   + Runtime.getRuntime().totalMemory());
                nextPrint += 250_000_000L;
            }
        }
        System.out.println("END committed=" + Runtime.getRuntime().totalMemory());
    }
}
