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
 */
/*
 * Part of FlexHeap's fault, container and stress tests: a small workload for a
 * JVM under test. Prints "WORKLOAD OK" when it completes.
 *
 *   alloc SECONDS LIVE_MB     allocate short-lived garbage around a live set, then System.gc()
 *   native MB SECONDS LIVE_MB hold MB of touched direct buffers (native memory outside the heap), then alloc
 *   threads N BATCH           start and join N short threads, BATCH at a time
 *   cache FILE MB STAT        read MB of FILE into the page cache, then System.gc() 5 times,
 *                             printing the cgroup's page cache from STAT (memory.stat) before and after each
 *   direct FILE SECONDS       random 4 KiB O_DIRECT reads of FILE in a new thread for SECONDS
 *                             (time blocked on storage), then System.gc(); prints the reader's
 *                             off-CPU time (wall less its CPU time), the reference a stall
 *                             backend is checked against
 *   idle SECONDS              sleep (for jcmd)
 */
import java.io.*;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.*;
import java.util.*;

public class FlexHeapWorkload {
    static volatile Object sink;

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "alloc" -> alloc(Double.parseDouble(args[1]), Integer.parseInt(args[2]));
            case "native" -> nativeThenAlloc(Integer.parseInt(args[1]), Double.parseDouble(args[2]),
                                             Integer.parseInt(args[3]));
            case "threads" -> threads(Integer.parseInt(args[1]), Integer.parseInt(args[2]));
            case "cache" -> cache(Paths.get(args[1]), Integer.parseInt(args[2]), Paths.get(args[3]));
            case "direct" -> direct(Paths.get(args[1]), Double.parseDouble(args[2]));
            case "idle" -> Thread.sleep((long) (Double.parseDouble(args[1]) * 1000));
            default -> throw new IllegalArgumentException(args[0]);
        }
        System.out.println("WORKLOAD OK");
    }

    static void alloc(double seconds, int liveMb) {
        List<byte[]> live = new ArrayList<>();
        for (int i = 0; i < liveMb; i++) live.add(new byte[1 << 20]);
        long end = System.nanoTime() + (long) (seconds * 1e9);
        Random r = new Random(1);
        while (System.nanoTime() < end) {
            for (int i = 0; i < 1000; i++) sink = new byte[64 + r.nextInt(4096)];
            if (!live.isEmpty()) live.set(r.nextInt(live.size()), new byte[1 << 20]);
        }
        System.gc();
        sink = live;
    }

    static void nativeThenAlloc(int mb, double seconds, int liveMb) {
        List<ByteBuffer> buffers = new ArrayList<>();
        for (int i = 0; i < mb; i++) {
            ByteBuffer b = ByteBuffer.allocateDirect(1 << 20);
            for (int off = 0; off < b.capacity(); off += 4096) b.put(off, (byte) 1);   // resident, not just reserved
            buffers.add(b);
        }
        alloc(seconds, liveMb);
        Reference.reachabilityFence(buffers);   // the native memory stays in use throughout
    }

    static void threads(int n, int batch) throws InterruptedException {
        int started = 0;
        while (started < n) {
            int k = Math.min(batch, n - started);
            Thread[] ts = new Thread[k];
            for (int i = 0; i < k; i++) {
                ts[i] = new Thread(() -> { sink = new byte[1024]; });
                ts[i].start();
            }
            for (Thread t : ts) t.join();
            started += k;
        }
        System.gc();
        System.out.println("THREADS " + started);
    }

    static long statValue(Path stat) throws IOException {
        // v1: "cache" (total_cache for hierarchies), v2: "file"
        long v = -1;
        for (String line : Files.readAllLines(stat)) {
            String[] f = line.split(" ");
            if (f[0].equals("total_cache") || f[0].equals("file")) v = Long.parseLong(f[1]);
            if (f[0].equals("cache") && v < 0) v = Long.parseLong(f[1]);
        }
        return v;
    }

    static void cache(Path file, int mb, Path stat) throws Exception {
        byte[] buf = new byte[1 << 20];
        try (InputStream in = Files.newInputStream(file)) {
            for (int i = 0; i < mb && in.read(buf) > 0; i++) { }
        }
        Thread.sleep(500);   // let readahead settle
        for (int i = 0; i < 5; i++) {
            for (int j = 0; j < 20; j++) sink = new byte[1 << 20];
            long before = statValue(stat);
            System.gc();
            System.out.println("CGCACHE " + before + " " + statValue(stat));
            Thread.sleep(100);
        }
    }

    static void direct(Path file, double seconds) throws Exception {
        long[] reads = new long[1];
        double[] offCpu = new double[1];
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Thread t = new Thread(() -> {
            long cpu0 = mx.getCurrentThreadCpuTime(), wall0 = System.nanoTime();
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ,
                                                   com.sun.nio.file.ExtendedOpenOption.DIRECT)) {
                ByteBuffer buf = ByteBuffer.allocateDirect(8192).alignedSlice(4096).limit(4096);
                long blocks = ch.size() / 4096;
                Random r = new Random(7);
                long end = System.nanoTime() + (long) (seconds * 1e9);
                while (System.nanoTime() < end) {
                    buf.clear();
                    ch.read(buf, (r.nextLong() & Long.MAX_VALUE) % blocks * 4096);
                    reads[0]++;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            // Off CPU = blocked on the device or waiting for a CPU; a fast device
            // leaves most of the time on the CPU (syscall), so a fixed share of
            // SECONDS is no reference for the stall a backend must count.
            offCpu[0] = ((System.nanoTime() - wall0) - (mx.getCurrentThreadCpuTime() - cpu0)) / 1e9;
        }, "direct-reader");
        t.start();
        t.join();
        System.gc();
        System.out.println("DIRECTREADS " + reads[0]);
        System.out.printf(Locale.ROOT, "DIRECTOFFCPU %.3f%n", offCpu[0]);
    }
}
