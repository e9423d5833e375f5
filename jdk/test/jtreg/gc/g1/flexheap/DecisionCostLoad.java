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
 * Part of FlexHeap's benchmarks (jdk/test/decision-cost.sh): N threads that read a file block and sleep
 * (about 1000 reads per second in all), and a main thread that allocates, so that young GCs (decision points) come at a
 * steady pace while N Java threads are registered for stall accounting.
 * Usage: DecisionCostLoad <threads> <seconds> <file>
 */
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.*;
import java.util.*;

public class DecisionCostLoad {
    static volatile Object sink;
    static volatile boolean done;

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        double seconds = Double.parseDouble(args[1]);
        Path file = Paths.get(args[2]);
        FlexHeapPhases.ensureFile(file, 64L << 20);
        // About 1000 wake-ups per second in all, so that the allocating main thread keeps a core.
        final long pause = Math.max(20, n);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            final int seed = i;
            Thread t = new Thread(() -> {
                Random r = new Random(seed);
                ByteBuffer b = ByteBuffer.allocate(4096);
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                    while (!done) {
                        b.clear();
                        ch.read(b, (long) r.nextInt(16384) * 4096);
                        Thread.sleep(pause);
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            t.setDaemon(true);
            t.start();
            threads.add(t);
        }
        long end = System.nanoTime() + (long) (seconds * 1e9);
        List<byte[]> keep = new ArrayList<>();
        Random r = new Random(1);
        while (System.nanoTime() < end) {
            byte[] x = new byte[1024 + r.nextInt(4096)];
            sink = x;
            if (r.nextInt(200) == 0) { keep.add(x); if (keep.size() > 20000) keep.subList(0, 10000).clear(); }
        }
        done = true;
        System.out.println("threads " + n + " done");
    }
}
