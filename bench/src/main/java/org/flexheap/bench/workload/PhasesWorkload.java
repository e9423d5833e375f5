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

package org.flexheap.bench.workload;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.flexheap.bench.util.PageCache;
import org.flexheap.bench.util.Sizes;

/**
 * The allocation-then-I/O program of the jtreg tests ({@code FlexHeapPhases}) as a measured
 * workload: a heap-heavy phase (a large live set and lots of garbage, no I/O), then random
 * block reads of a file larger than the memory budget (allocating almost nothing), repeated
 * {@code rounds} times. Phases have a fixed amount of work (bytes allocated, blocks read), so
 * their durations compare heap policies. Memory the heap gives back after the allocation
 * phase can become page cache for the reads (buffered reads, the default; {@code direct}
 * reads bypass the cache like the jtreg program's default). Phase names: {@code alloc},
 * {@code io}, then {@code alloc-2}, {@code io-2}, ...
 */
public final class PhasesWorkload {
    public record Config(Path dataFile, long fileBytes, long liveBytes, Long allocBytes, Long reads, int blockBytes,
                  boolean direct, int rounds, int mutationsPerOp) {
        public static final long DEFAULT_FILE = 3L << 30, DEFAULT_LIVE = 256L << 20;
        public static final int DEFAULT_BLOCK = 4096, DEFAULT_ROUNDS = 2, DEFAULT_MUTATIONS = 1;

        public static Config defaults(Path dataFile) {
            return new Config(dataFile, DEFAULT_FILE, DEFAULT_LIVE, null, null, DEFAULT_BLOCK, false, DEFAULT_ROUNDS,
                    DEFAULT_MUTATIONS);
        }

        public Config {
            if (dataFile == null) throw new IllegalArgumentException("phases needs --data-file FILE");
            if (blockBytes < 512 || Integer.bitCount(blockBytes) != 1) {
                throw new IllegalArgumentException("block size must be a power of two >= 512");
            }
            if (fileBytes < 16L * blockBytes) throw new IllegalArgumentException("file size must be >= 16 blocks");
            if (liveBytes < 0) throw new IllegalArgumentException("live size must be >= 0");
            if (rounds < 1) throw new IllegalArgumentException("rounds must be >= 1");
            if (reads != null && reads < 1) throw new IllegalArgumentException("reads must be >= 1");
            if (allocBytes != null && allocBytes < AllocationChurn.OP_BYTES) {
                throw new IllegalArgumentException("allocation per phase must be >= 64k");
            }
        }

        public long allocFor(Scale s) {
            return allocBytes != null ? allocBytes : Math.round(AllocWorkload.PAPER_EQUIV_ALLOC * s.factor());
        }

        public long readsFor(Scale s) { return reads != null ? reads : Math.max(1, Math.round(PAPER_EQUIV_READS * s.factor())); }
    }

    /** Block reads per I/O phase at scale 1 (200,000 at the default 0.125). */
    public static final long PAPER_EQUIV_READS = 1_600_000;

    private PhasesWorkload() {}

    static List<PhaseResult> run(Scale scale, long seed, Config cfg, boolean cold) throws Exception {
        ensureFile(cfg.dataFile(), cfg.fileBytes());
        if (cold) System.err.println("[phases] evicted " + cfg.dataFile() + ": " + PageCache.evictFile(cfg.dataFile()));
        List<PhaseResult> phases = new ArrayList<>();
        AllocationChurn churn = new AllocationChurn();
        for (int r = 1; r <= cfg.rounds(); r++) {
            String suffix = r == 1 ? "" : "-" + r;
            phases.add(AllocWorkload.phase(churn, "alloc" + suffix, cfg.liveBytes(), cfg.allocFor(scale),
                    scale.clients(), cfg.mutationsPerOp(), seed * 100 + 2L * r));
            churn.resize(0); // the live set dies with the phase, as in FlexHeapPhases
            phases.add(ioPhase("io" + suffix, cfg, cfg.readsFor(scale), scale.clients(), seed * 100 + 2L * r + 1));
        }
        return phases;
    }

    /** Random block reads, {@code reads} in all, split over {@code threads}. */
    static PhaseResult ioPhase(String name, Config cfg, long reads, int threads, long seed) throws Exception {
        long blocks = cfg.fileBytes() / cfg.blockBytes();
        AtomicLong done = new AtomicLong();
        LatencyLog lat = new LatencyLog();
        Probe probe = Probe.start(name);
        Clients pool = new Clients();
        try (Progress p = new Progress(name, done, reads, null, null)) {
            pool.start(name + "-reader", threads, (id, stop) -> {
                long mine = reads / threads + (id < reads % threads ? 1 : 0);
                SplittableRandom rnd = new SplittableRandom(seed * 1_000_003 + id);
                try (FileChannel ch = cfg.direct()
                        ? FileChannel.open(cfg.dataFile(), StandardOpenOption.READ, ExtendedOpenOption.DIRECT)
                        : FileChannel.open(cfg.dataFile(), StandardOpenOption.READ)) {
                    ByteBuffer buf = ByteBuffer.allocateDirect(cfg.blockBytes() * 2).alignedSlice(cfg.blockBytes());
                    for (long i = 0; i < mine && !stop.get(); i++) {
                        long pos = rnd.nextLong(blocks) * cfg.blockBytes();
                        buf.clear().limit(cfg.blockBytes());
                        long t0 = System.nanoTime();
                        while (buf.hasRemaining()) {
                            if (ch.read(buf, pos + buf.position()) < 0) throw new IOException("short file at " + pos);
                        }
                        lat.add(System.nanoTime() - t0);
                        done.incrementAndGet();
                    }
                }
            }).join();
        }
        Probe.Delta d = probe.end(done.get());
        long requested = done.get() * cfg.blockBytes();
        return new PhaseResult(name, done.get(), d.seconds(), lat, d)
                .put("kind", "io")
                .put("threads", threads)
                .put("reads", done.get())
                .put("reads_per_s", d.seconds() > 0 ? done.get() / d.seconds() : 0.0)
                .put("block_bytes", cfg.blockBytes())
                .put("requested_bytes", requested)
                .put("device_read_fraction", d.readBytes() >= 0 && requested > 0 ? (double) d.readBytes() / requested : null)
                .put("file_bytes", cfg.fileBytes())
                .put("direct", cfg.direct());
    }

    /**
     * Creates {@code file} with {@code size} bytes of seeded random data when it is missing or
     * smaller (written to a temporary file beside it, synced, renamed, then evicted from the page
     * cache so the creation leaves no cached pages behind). A larger file is used as is: reads
     * stay within the first {@code size} bytes.
     */
    static boolean ensureFile(Path file, long size) throws IOException {
        file = file.toAbsolutePath();
        if (Files.isRegularFile(file) && Files.size(file) >= size) return false;
        Path dir = file.getParent();
        Files.createDirectories(dir);
        long usable = Files.getFileStore(dir).getUsableSpace();
        if (usable < size + (256L << 20)) {
            throw new IOException("not enough space in " + dir + " for a " + Sizes.format(size) + " data file ("
                    + Sizes.format(usable) + " usable)");
        }
        System.err.printf("[phases] creating %s (%s)%n", file, Sizes.format(size));
        long t0 = System.nanoTime();
        Path tmp = dir.resolve(file.getFileName() + ".tmp-" + ProcessHandle.current().pid());
        byte[] chunk = new byte[1 << 20];
        SplittableRandom rnd = new SplittableRandom(7);
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (long off = 0; off < size; off += chunk.length) {
                for (int i = 0; i < chunk.length; i += 8) {
                    long v = rnd.nextLong();
                    for (int k = 0; k < 8; k++) chunk[i + k] = (byte) (v >>> (8 * k));
                }
                ByteBuffer b = ByteBuffer.wrap(chunk, 0, (int) Math.min(chunk.length, size - off));
                while (b.hasRemaining()) ch.write(b, off + b.position());
            }
            ch.force(true);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        PageCache.evictFile(file);
        System.err.printf("[phases] created %s in %.1f s%n", file, (System.nanoTime() - t0) / 1e9);
        return true;
    }
}
