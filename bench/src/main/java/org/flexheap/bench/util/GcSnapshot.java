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
