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

import org.flexheap.bench.util.GcSnapshot;
import org.flexheap.bench.util.ProcIo;

/**
 * Brackets a phase: wall time, GC and storage reads between start and end, and the
 * FLEXHEAP-PHASE marker lines the harness parses to mark phase boundaries.
 */
final class Probe {
    record Delta(GcSnapshot gc, long readBytes, long startEpochMs, long endEpochMs, double seconds) {}

    private final String name;
    private final long startNanos;
    private final long startEpochMs;
    private final GcSnapshot gc0;
    private final long io0;

    private Probe(String name) {
        this.name = name;
        this.gc0 = GcSnapshot.now();
        this.io0 = ProcIo.readBytes();
        this.startEpochMs = System.currentTimeMillis();
        this.startNanos = System.nanoTime();
        System.err.println("FLEXHEAP-PHASE " + name + " start " + startEpochMs);
    }

    static Probe start(String name) { return new Probe(name); }

    Delta end(long queries) {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        long endEpoch = System.currentTimeMillis();
        long io1 = ProcIo.readBytes();
        GcSnapshot gc = GcSnapshot.now().minus(gc0);
        double qps = seconds > 0 ? queries / seconds : 0;
        System.err.printf("FLEXHEAP-PHASE %s end %d %d %.1f%n", name, endEpoch, queries, qps);
        return new Delta(gc, io0 < 0 || io1 < 0 ? -1 : io1 - io0, startEpochMs, endEpoch, seconds);
    }
}
