package org.flexheap.bench.workload;

import java.util.Arrays;

/** Thread-safe, append-only list of per-query latencies in nanoseconds. */
final class LatencyLog {
    private long[] nanos = new long[1024];
    private int size;

    synchronized void add(long n) {
        if (size == nanos.length) nanos = Arrays.copyOf(nanos, size * 2);
        nanos[size++] = n;
    }

    synchronized int size() { return size; }

    synchronized void addAll(LatencyLog other) {
        long[] o;
        int n;
        synchronized (other) {
            o = other.nanos;
            n = other.size;
        }
        for (int i = 0; i < n; i++) add(o[i]);
    }

    /** Nearest-rank percentile in milliseconds; 0 when empty. */
    synchronized double percentileMillis(double p) {
        if (size == 0) return 0;
        long[] sorted = Arrays.copyOf(nanos, size);
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * size);
        return sorted[Math.max(0, Math.min(size - 1, rank - 1))] / 1e6;
    }
}
