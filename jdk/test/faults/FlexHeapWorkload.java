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
 *   native MB SECONDS LIVE_MB hold MB of touched direct buffers (native memory outside the heap), wait 1.5 s, then alloc
 *   threads N BATCH           start and join N short threads, BATCH at a time
 *   cache FILE MB STAT        read MB of FILE into the page cache, then System.gc() 5 times,
 *                             printing the cgroup's page cache from STAT (memory.stat) before and after each
 *   direct FILE SECONDS       random 4 KiB O_DIRECT reads of FILE in a new thread for SECONDS
 *                             (time blocked on storage), then System.gc(); prints the reader's
 *                             off-CPU time (wall less its CPU time), the reference a stall
 *                             backend is checked against
 *   idle SECONDS              sleep (for jcmd)
 *   phases GO STEP...         the memory-budget cases (jdk/test/container/budget.sh): STEPs in
 *                             order; a step that lasts "until go" ends when the file GO.N appears
 *                             (N = 1, 2, ...: one file per such step, created by the test), or
 *                             exits 3 when it has not appeared within 90 s:
 *       io:FILE               read FILE over and over, 1 MB at a time, until go; "IOPASS N T"
 *                             after each whole pass
 *       heap:LIVE_MB:SECONDS  a live set of LIVE_MB in 32 KB arrays, one replaced for every
 *                             ~2 MB of short-lived arrays allocated as fast as one thread can;
 *                             for SECONDS, or until go when SECONDS is "go"; the live set is
 *                             dropped at the end of the step
 *       idle                  nothing, until go
 *                             prints "PHASE I NAME start|end T" around each step and, from a
 *                             daemon thread every 100 ms, "HEAP T COMMITTED USED MAX"
 *                             (Runtime's totalMemory, its in-use part, maxMemory); T is the
 *                             wall clock in ms since the epoch, as the test's own date +%s%3N
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
            case "phases" -> phases(args[1], Arrays.copyOfRange(args, 2, args.length));
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

    static void nativeThenAlloc(int mb, double seconds, int liveMb) throws InterruptedException {
        List<ByteBuffer> buffers = new ArrayList<>();
        for (int i = 0; i < mb; i++) {
            ByteBuffer b = ByteBuffer.allocateDirect(1 << 20);
            for (int off = 0; off < b.capacity(); off += 4096) b.put(off, (byte) 1);   // resident, not just reserved
            buffers.add(b);
        }
        // FlexHeap counts memory outside the heap once a second (docs/controller.md, memory ceiling): the
        // allocation starts after one count, as a service's heap grows after its start-up. A heap that
        // grows within the second a larger burst arrives in is the documented window, not this case.
        Thread.sleep(1500);
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

    // --- phases: the memory-budget cases -------------------------------------------

    static final long GO_WAIT_MS = 90_000;
    static int goCount;

    static long now() { return System.currentTimeMillis(); }

    // The next go file of the test has appeared (checked at most every 20 ms).
    static long goCheckedAt;
    static boolean go(String base, boolean block) throws InterruptedException {
        Path p = Paths.get(base + "." + (goCount + 1));
        long deadline = now() + GO_WAIT_MS;
        while (true) {
            long t = now();
            if (block || t - goCheckedAt >= 20) {
                goCheckedAt = t;
                if (Files.exists(p)) { goCount++; return true; }
                if (t > deadline && block) {
                    System.out.println("NO GO " + p + " within " + GO_WAIT_MS + " ms");
                    System.exit(3);
                }
            }
            if (!block) return false;
            Thread.sleep(10);
        }
    }

    static void phases(String goBase, String[] steps) throws Exception {
        Runtime rt = Runtime.getRuntime();
        Thread heap = new Thread(() -> {
            while (true) {
                long total = rt.totalMemory();
                System.out.println("HEAP " + now() + " " + total + " " + (total - rt.freeMemory()) + " " + rt.maxMemory());
                try { Thread.sleep(100); } catch (InterruptedException e) { return; }
            }
        }, "heap-sampler");
        heap.setDaemon(true);
        heap.start();
        for (int i = 0; i < steps.length; i++) {
            String[] f = steps[i].split(":");
            System.out.println("PHASE " + i + " " + f[0] + " start " + now());
            long deadline = Long.MAX_VALUE;   // ends at the next go file when no time is given
            if (f[0].equals("heap") && !f[2].equals("go")) deadline = now() + (long) (Double.parseDouble(f[2]) * 1000);
            final long until = deadline;
            switch (f[0]) {
                case "io" -> readUntilGo(Paths.get(f[1]), goBase);
                case "heap" -> hungry(Integer.parseInt(f[1]), () -> until != Long.MAX_VALUE ? now() >= until : go(goBase, false));
                case "idle" -> go(goBase, true);
                default -> throw new IllegalArgumentException(steps[i]);
            }
            System.out.println("PHASE " + i + " " + f[0] + " end " + now());
        }
    }

    interface Done { boolean done() throws Exception; }

    static void readUntilGo(Path file, String goBase) throws Exception {
        byte[] buf = new byte[1 << 20];
        long deadline = now() + GO_WAIT_MS;
        for (int pass = 1; ; pass++) {
            try (InputStream in = Files.newInputStream(file)) {
                while (in.read(buf) > 0) {
                    if (go(goBase, false)) return;
                }
            }
            System.out.println("IOPASS " + pass + " " + now());
            if (now() > deadline) { go(goBase, true); return; }   // exits 3 after its own wait
        }
    }

    // A live set plus fast churn: the GC wants a heap well above the live set.
    static void hungry(int liveMb, Done done) throws Exception {
        final int chunk = 32 << 10;
        byte[][] live = new byte[liveMb * ((1 << 20) / chunk)][];
        for (int i = 0; i < live.length; i++) live[i] = new byte[chunk];
        Random r = new Random(3);
        long allocated = 0;
        while (!done.done()) {
            for (int i = 0; i < 1000; i++) sink = new byte[64 + r.nextInt(4096)];
            if (live.length > 0) live[r.nextInt(live.length)] = new byte[chunk];
            allocated += 1000L * 2112 + chunk;
        }
        System.out.println("HUNGRY live=" + liveMb + "M allocated=" + (allocated >> 20) + "M");
        Reference.reachabilityFence(live);
    }
}
