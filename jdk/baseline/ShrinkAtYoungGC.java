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
 * A 20-second G1 program for jdk/baseline/check-jdk26.sh: 6 s with a large live
 * set (300 MB by default) and a high allocation rate (the heap grows), then 14 s
 * with almost nothing live and a steady allocation rate (GC CPU use is tiny).
 * OpenJDK 26's G1 shrinks the heap at young GCs in the second phase when its GC
 * CPU use stays below the GCTimeRatio target; OpenJDK 25's G1 shrinks only at
 * remark and full GCs (by MaxHeapFreeRatio), never at a young pause.
 *
 * Usage: java ShrinkAtYoungGC.java [seconds [live-MB]]   (default 20 s, 300 MB)
 */
import java.util.ArrayDeque;

public class ShrinkAtYoungGC {
    static volatile Object sink;

    public static void main(String[] args) throws InterruptedException {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 20.0;
        int liveMb = args.length > 1 ? Integer.parseInt(args[1]) : 300;
        long start = System.nanoTime();
        long growEnd = start + (long) (seconds * 0.3e9);
        long end = start + (long) (seconds * 1e9);

        // Phase 1: keep liveMb live in 64 KB arrays (FIFO), churn 1 KB garbage.
        ArrayDeque<byte[]> live = new ArrayDeque<>();
        final int chunk = 64 << 10;
        final int liveChunks = (liveMb << 20) / chunk;
        while (System.nanoTime() < growEnd) {
            live.addLast(new byte[chunk]);
            if (live.size() > liveChunks) {
                live.removeFirst();
            }
            for (int i = 0; i < 64; i++) {
                sink = new byte[1024];
            }
        }
        System.out.println("phase 1 done: live set " + (live.size() * (long) chunk >> 20) + " MB");
        live = null;

        // Phase 2: ~300 MB/s of short-lived garbage: 4 MB, then a 10 ms sleep.
        long allocated = 0;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 4096; i++) {
                sink = new byte[1024];
            }
            allocated += 4096 * 1024;
            Thread.sleep(10);
        }
        System.out.println("phase 2 done: allocated " + (allocated >> 20) + " MB");
    }
}
