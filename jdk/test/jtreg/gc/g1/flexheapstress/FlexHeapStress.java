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
 * Part of FlexHeap's stress tests (issue 11): the workloads a child JVM runs.
 *
 *   spike <file> <io_s> <spike_mb>   an I/O phase (O_DIRECT reads, little allocation) that lets
 *                                    FlexHeap shrink, then at once a live set of spike_mb
 *   humongous <file> <io_s>          an I/O phase while another thread keeps allocating
 *                                    humongous arrays (some kept, most dropped)
 *   churn <threads> <batch>          start and join short threads, batch at a time
 *   phases <file> <cycles> <alloc_s> <io_s>   alternate allocation and I/O phases
 *
 * Prints "PHASE <name> start|end" lines and "STRESS OK" when done.
 */
import com.sun.nio.file.ExtendedOpenOption;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.*;
import java.util.*;
import java.util.concurrent.atomic.AtomicLong;

public class FlexHeapStress {
    static final int BLOCK = 4096;
    static volatile Object sink;

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "spike" -> spike(Paths.get(args[1]), Double.parseDouble(args[2]), Integer.parseInt(args[3]));
            case "humongous" -> humongous(Paths.get(args[1]), Double.parseDouble(args[2]));
            case "churn" -> churn(Integer.parseInt(args[1]), Integer.parseInt(args[2]));
            case "phases" -> phases(Paths.get(args[1]), Integer.parseInt(args[2]),
                                    Double.parseDouble(args[3]), Double.parseDouble(args[4]));
            default -> throw new IllegalArgumentException(args[0]);
        }
        System.out.println("STRESS OK");
    }

    static void spike(Path file, double ioSeconds, int spikeMb) throws Exception {
        ensureFile(file, 256L << 20);
        allocate(2.0, 64);              // a warm heap first: FlexHeap grows it
        io(file, ioSeconds, 2);         // then stalls: FlexHeap gives memory back
        System.out.println("PHASE spike start");
        List<byte[]> live = new ArrayList<>();
        for (int i = 0; i < spikeMb * 4; i++) live.add(new byte[256 << 10]);   // 256 KiB: not humongous
        System.out.println("PHASE spike end live_mb=" + live.size() / 4);
        sink = live;
    }

    static void humongous(Path file, double ioSeconds) throws Exception {
        ensureFile(file, 256L << 20);
        allocate(2.0, 64);
        long end = System.nanoTime() + (long) (ioSeconds * 1e9);
        AtomicLong count = new AtomicLong();
        Thread h = new Thread(() -> {
            Random r = new Random(3);
            List<byte[]> kept = new ArrayList<>();
            while (System.nanoTime() < end) {
                byte[] b = new byte[(1 << 20) + r.nextInt(3 << 20)];   // 1-4 MiB: humongous at 1 MiB regions
                count.incrementAndGet();
                if (r.nextInt(4) == 0) kept.add(b);
                if (kept.size() > 24) kept.subList(0, 12).clear();
                try { Thread.sleep(5); } catch (InterruptedException e) { return; }
            }
            sink = kept;
        }, "humongous-allocator");
        h.start();
        io(file, ioSeconds, 2);
        h.join();
        System.out.println("PHASE humongous end allocations=" + count.get());
    }

    static void churn(int threads, int batch) throws Exception {
        int done = 0;
        while (done < threads) {
            int k = Math.min(batch, threads - done);
            Thread[] ts = new Thread[k];
            for (int i = 0; i < k; i++) {
                ts[i] = new Thread(() -> sink = new byte[512]);
                ts[i].start();
            }
            for (Thread t : ts) t.join();
            done += k;
            if (done % 1000 == 0) {
                System.gc();    // a pause (and a decision) every 1000 threads
                System.out.println("CHURN " + done);
            }
        }
    }

    static void phases(Path file, int cycles, double allocSeconds, double ioSeconds) throws Exception {
        ensureFile(file, 256L << 20);
        for (int c = 0; c < cycles; c++) {
            allocate(allocSeconds, 96);
            io(file, ioSeconds, 2);
        }
    }

    /** Garbage around a live set of about liveMb. */
    static void allocate(double seconds, int liveMb) {
        System.out.println("PHASE alloc start");
        List<byte[]> live = new ArrayList<>();
        Random r = new Random(42);
        long end = System.nanoTime() + (long) (seconds * 1e9);
        int slots = liveMb * 128;      // 8 KiB average
        while (System.nanoTime() < end) {
            byte[] b = new byte[1024 + r.nextInt(14336)];
            sink = b;
            if (r.nextInt(100) < 5) {
                if (live.size() < slots) live.add(b); else live.set(r.nextInt(slots), b);
            }
        }
        System.out.println("PHASE alloc end");
    }

    static void io(Path file, double seconds, int threads) throws Exception {
        System.out.println("PHASE io start");
        long end = System.nanoTime() + (long) (seconds * 1e9);
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            final int seed = t;
            Thread th = new Thread(() -> readBlocks(file, end, seed), "io-reader-" + t);
            th.start();
            ts.add(th);
        }
        for (Thread t : ts) t.join();
        System.out.println("PHASE io end");
    }

    static void readBlocks(Path file, long end, int seed) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, ExtendedOpenOption.DIRECT)) {
            ByteBuffer buf = ByteBuffer.allocateDirect(BLOCK * 2).alignedSlice(BLOCK);
            long blocks = ch.size() / BLOCK;
            Random r = new Random(seed);
            while (System.nanoTime() < end) {
                buf.clear().limit(BLOCK);
                ch.read(buf, Math.floorMod(r.nextLong(), blocks) * BLOCK);
                sink = new byte[64];
            }
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    static void ensureFile(Path file, long size) throws Exception {
        if (Files.exists(file) && Files.size(file) >= size) return;
        byte[] chunk = new byte[1 << 20];
        new Random(7).nextBytes(chunk);
        Path tmp = Paths.get(file + ".tmp" + ProcessHandle.current().pid());
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            for (long off = 0; off < size; off += chunk.length) ch.write(ByteBuffer.wrap(chunk), off);
            ch.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
