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
 * Part of FlexHeap's tests: a workload with an allocation phase (a growing
 * live set and lots of garbage: GC pressure, no I/O) followed by an I/O phase
 * (threads reading random blocks of a file with O_DIRECT, so every read
 * blocks on the device, while allocating almost nothing).
 *
 * Usage: FlexHeapPhases <alloc_s> <io_s> <io_threads> <file> [busy|buffered [file_mb]|mixed]
 *   busy: keep allocating hard during the I/O phase too.
 *   mixed: keep half of the allocation phase's live set and end the phase with
 *          System.gc() (run it with -XX:+ExplicitGCInvokesConcurrent), so G1 has
 *          marked old regions with garbage, a mixed phase pending, when I/O starts.
 *   buffered: read through the page cache instead of O_DIRECT (a file of file_mb, default 256),
 *             so memory the heap gives back can become page cache.
 */
import com.sun.nio.file.ExtendedOpenOption;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.*;
import java.util.*;
import java.util.concurrent.atomic.AtomicLong;

public class FlexHeapPhases {
    static final int BLOCK = 4096;
    static volatile Object sink;

    public static void main(String[] args) throws Exception {
        double allocSeconds = Double.parseDouble(args[0]);
        double ioSeconds = Double.parseDouble(args[1]);
        int ioThreads = Integer.parseInt(args[2]);
        Path file = Paths.get(args[3]);
        boolean busy = args.length > 4 && args[4].equals("busy");
        boolean buffered = args.length > 4 && args[4].equals("buffered");
        boolean mixed = args.length > 4 && args[4].equals("mixed");
        long fileMb = args.length > 5 ? Long.parseLong(args[5]) : 256;
        ensureFile(file, fileMb << 20);

        System.out.println("PHASE alloc start");
        List<byte[]> live = allocate(allocSeconds);
        System.out.println("PHASE alloc end live=" + live.size());
        List<byte[]> kept = new ArrayList<>();
        if (mixed) {
            for (int i = 0; i < live.size(); i += 2) kept.add(live.get(i));
            live = null;
            System.gc();   // a whole concurrent cycle: its Cleanup leaves mixed-GC candidates
            System.out.println("PHASE mixed pending kept=" + kept.size());
        }
        live = null;

        System.out.println("PHASE io start");
        AtomicLong reads = new AtomicLong();
        long end = System.nanoTime() + (long) (ioSeconds * 1e9);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < ioThreads; t++) {
            final int seed = t;
            Thread th = new Thread(() -> readBlocks(file, end, seed, reads, buffered), "io-reader-" + t);
            th.start();
            threads.add(th);
        }
        if (busy) {
            allocate(ioSeconds);
        }
        for (Thread th : threads) th.join();
        System.out.println("PHASE io end reads=" + reads.get() + " kept=" + kept.size());
    }

    static List<byte[]> allocate(double seconds) {
        List<byte[]> live = new ArrayList<>();
        Random r = new Random(42);
        long end = System.nanoTime() + (long) (seconds * 1e9);
        while (System.nanoTime() < end) {
            byte[] b = new byte[1024 + r.nextInt(16384)];
            sink = b;
            if (r.nextInt(100) < 2) {
                live.add(b);
                if (live.size() > 20000) live.subList(0, 10000).clear();
            }
        }
        return live;
    }

    static void readBlocks(Path file, long end, int seed, AtomicLong reads, boolean buffered) {
        try (FileChannel ch = buffered ? FileChannel.open(file, StandardOpenOption.READ)
                                       : FileChannel.open(file, StandardOpenOption.READ, ExtendedOpenOption.DIRECT)) {
            ByteBuffer buf = ByteBuffer.allocateDirect(BLOCK * 2).alignedSlice(BLOCK);
            buf.limit(BLOCK);
            long blocks = ch.size() / BLOCK;
            Random r = new Random(seed);
            while (System.nanoTime() < end) {
                buf.clear().limit(BLOCK);
                ch.read(buf, (Math.floorMod(r.nextLong(), blocks)) * BLOCK);
                reads.incrementAndGet();
            }
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    static void ensureFile(Path file, long size) throws Exception {
        if (Files.exists(file) && Files.size(file) >= size) return;
        byte[] chunk = new byte[1 << 20];
        new Random(7).nextBytes(chunk);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            for (long off = 0; off < size; off += chunk.length) ch.write(ByteBuffer.wrap(chunk), off);
            ch.force(true);
        }
    }
}
