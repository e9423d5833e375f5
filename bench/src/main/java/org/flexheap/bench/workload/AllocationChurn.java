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

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * CPU-bound allocation with a live set of a chosen size, and no I/O. Worker threads run
 * <em>ops</em>: each allocates about {@link #OP_BYTES} of short-lived arrays (touched and
 * hashed, so none can be optimised away) and replaces a few random live-set slots with
 * new objects, which makes old-generation garbage and keeps concurrent marking and mixed
 * collections busy. The live set is a graph (slots of linked nodes with payloads), so
 * marking traverses objects, not only large arrays. Everything depends on the seed:
 * each thread's choices come from its own generator.
 */
final class AllocationChurn {
    /** Bytes of short-lived arrays per op. */
    static final int OP_BYTES = 64 << 10;
    /** Payload sizes of live nodes and of garbage arrays. */
    static final int LIVE_MIN = 64, LIVE_MAX = 2048, GARBAGE_MIN = 16, GARBAGE_MAX = 4096;
    /** Nodes per slot: 1..MAX_CHAIN. */
    static final int MAX_CHAIN = 8;
    /** Header bytes of a node plus its payload array's header (compressed oops). */
    static final int NODE_OVERHEAD = 16 + 16;
    /** Expected bytes of one slot: mean chain length x (mean payload + overhead). */
    static final long SLOT_BYTES = (long) ((MAX_CHAIN + 1) / 2.0 * ((LIVE_MIN + LIVE_MAX) / 2.0 + NODE_OVERHEAD));

    static final class Node {
        final byte[] data;
        final Node next;

        Node(byte[] data, Node next) {
            this.data = data;
            this.next = next;
        }
    }

    record Totals(long ops, long allocatedBytes) {}

    private static volatile long sink;

    /** The live set; slots are replaced concurrently (plain reference stores, never torn). */
    private Node[] live = new Node[0];

    static int slotsFor(long liveBytes) {
        return (int) Math.min(Integer.MAX_VALUE - 8, liveBytes / SLOT_BYTES);
    }

    int slots() { return live.length; }

    /**
     * Resizes the live set to about {@code liveBytes}: shrinking drops the slots past the new
     * end (garbage at the next marking); growing leaves new slots empty for {@link #run} to fill.
     */
    void resize(long liveBytes) {
        live = Arrays.copyOf(live, slotsFor(liveBytes));
    }

    /** Approximate bytes reachable from the live set (walks it; for tests and reports). */
    long liveBytes() {
        long b = 0;
        for (Node n : live) {
            for (; n != null; n = n.next) b += n.data.length + NODE_OVERHEAD;
        }
        return b;
    }

    /**
     * Fills empty slots, then runs ops until {@code allocBytes} have been allocated in all,
     * split evenly over {@code threads}. Op latencies go to {@code lat}, {@code done} counts ops.
     */
    Totals run(int threads, long allocBytes, int mutationsPerOp, long seed, LatencyLog lat, AtomicLong done)
            throws Exception {
        Node[] slots = live;
        long perThread = Math.max(OP_BYTES, allocBytes / threads);
        AtomicLong ops = new AtomicLong();
        AtomicLong allocated = new AtomicLong();
        Clients pool = new Clients();
        pool.start("alloc", threads, (id, stop) -> {
            SplittableRandom rnd = new SplittableRandom(seed * 1_000_003 + id);
            long bytes = 0, hash = 0;
            // This thread's stripe of empty slots first: growing the live set is part of the phase.
            for (int i = id; i < slots.length && !stop.get(); i += threads) {
                if (slots[i] == null) {
                    slots[i] = chain(rnd);
                    bytes += SLOT_BYTES;
                }
            }
            while (!stop.get() && bytes < perThread) {
                long t0 = System.nanoTime();
                int got = 0;
                while (got < OP_BYTES) {
                    byte[] b = new byte[GARBAGE_MIN + rnd.nextInt(GARBAGE_MAX - GARBAGE_MIN)];
                    b[0] = (byte) got;
                    b[b.length - 1] = (byte) hash;
                    for (int k = 0; k < b.length; k += 64) hash = hash * 31 + b[k];
                    got += b.length + 16;
                }
                for (int m = 0; m < mutationsPerOp && slots.length > 0; m++) {
                    Node c = chain(rnd);
                    slots[rnd.nextInt(slots.length)] = c;
                    got += (int) SLOT_BYTES;
                }
                bytes += got;
                lat.add(System.nanoTime() - t0);
                ops.incrementAndGet();
                done.incrementAndGet();
            }
            allocated.addAndGet(bytes);
            sink += hash;
        });
        pool.join();
        return new Totals(ops.get(), allocated.get());
    }

    private static Node chain(SplittableRandom rnd) {
        Node n = null;
        int len = 1 + rnd.nextInt(MAX_CHAIN);
        for (int i = 0; i < len; i++) {
            byte[] d = new byte[LIVE_MIN + rnd.nextInt(LIVE_MAX - LIVE_MIN + 1)];
            d[0] = (byte) i;
            n = new Node(d, n);
        }
        return n;
    }
}
