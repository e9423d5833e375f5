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
 * Part of FlexHeap's tests: grows the heap with a retained live set and garbage, then keeps the live set
 * while threads block on O_DIRECT reads and the main thread asks for a full GC every 400 ms.
 * Usage: FullGCDuringIO <alloc_s> <io_s> <live_mb> <file>
 */
import java.nio.file.*;
import java.util.*;
import java.util.concurrent.atomic.AtomicLong;

public class FullGCDuringIO {
    static volatile Object sink;

    public static void main(String[] args) throws Exception {
        double allocSeconds = Double.parseDouble(args[0]);
        double ioSeconds = Double.parseDouble(args[1]);
        int liveMb = Integer.parseInt(args[2]);
        Path file = Paths.get(args[3]);
        FlexHeapPhases.ensureFile(file, 256L << 20);
        List<byte[]> live = new ArrayList<>();
        for (int i = 0; i < liveMb * 16; i++) live.add(new byte[64 << 10]);
        System.out.println("PHASE alloc start");
        long end = System.nanoTime() + (long) (allocSeconds * 1e9);
        Random r = new Random(3);
        List<byte[]> mid = new ArrayList<>();
        while (System.nanoTime() < end) {
            sink = new byte[1024 + r.nextInt(8192)];
            if (r.nextInt(100) < 3) { mid.add((byte[]) sink); if (mid.size() > 40000) mid.subList(0, 20000).clear(); }
        }
        mid = null;
        System.out.println("PHASE io start");
        AtomicLong reads = new AtomicLong();
        long ioEnd = System.nanoTime() + (long) (ioSeconds * 1e9);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            final int seed = t;
            Thread th = new Thread(() -> FlexHeapPhases.readBlocks(file, ioEnd, seed, reads, false));
            th.start();
            threads.add(th);
        }
        while (System.nanoTime() < ioEnd) {
            Thread.sleep(400);
            System.gc();
        }
        for (Thread th : threads) th.join();
        System.out.println("PHASE io end reads=" + reads.get() + " live=" + live.size());
    }
}
