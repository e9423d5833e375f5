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

package org.flexheap.bench.util;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/**
 * Cumulative GC counters. G1 exposes pause collectors ("G1 Young/Old Generation")
 * and a "G1 Concurrent GC" bean; its time is concurrent-cycle wall time overlapping
 * mutators, so it is kept apart from pause time used for GC overhead.
 */
public record GcSnapshot(long count, long pauseMillis, long concurrentMillis) {

    public static GcSnapshot now() {
        long count = 0, pause = 0, conc = 0;
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            long c = Math.max(0, b.getCollectionCount());
            long t = Math.max(0, b.getCollectionTime());
            if (b.getName().contains("Concurrent")) {
                conc += t;
            } else {
                count += c;
                pause += t;
            }
        }
        return new GcSnapshot(count, pause, conc);
    }

    public GcSnapshot minus(GcSnapshot before) {
        return new GcSnapshot(count - before.count, pauseMillis - before.pauseMillis,
                concurrentMillis - before.concurrentMillis);
    }
}
