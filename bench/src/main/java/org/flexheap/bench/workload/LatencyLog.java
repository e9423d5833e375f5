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

import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Per-query latencies in nanoseconds: client threads record into an HdrHistogram
 * {@link Recorder} (wait-free, no lock between clients); the phase reads the
 * accumulated {@link Histogram} when it is over. Values keep 3 significant digits
 * (0.1% resolution) at any magnitude; the histogram resizes itself.
 */
final class LatencyLog {
    static final int SIGNIFICANT_DIGITS = 3;

    private final Recorder recorder = new Recorder(SIGNIFICANT_DIGITS);
    private final Histogram total = new Histogram(SIGNIFICANT_DIGITS);

    /** Records one latency; callable from any thread. Negative values count as 0. */
    void add(long nanos) {
        recorder.recordValue(Math.max(0, nanos));
    }

    /** Everything recorded so far (moves the recorder's interval into the total). */
    synchronized Histogram histogram() {
        total.add(recorder.getIntervalHistogram());
        return total;
    }

    synchronized long count() { return histogram().getTotalCount(); }

    void addAll(LatencyLog other) {
        Histogram h;
        synchronized (other) {
            h = other.histogram().copy();
        }
        synchronized (this) {
            histogram().add(h);
        }
    }

    /** Percentile (0-100) in milliseconds: the histogram's value at it, 0 when empty. */
    synchronized double percentileMillis(double p) {
        Histogram h = histogram();
        return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(p) / 1e6;
    }

    /**
     * The figures every phase reports: count, p50/p90/p99/p99.9, max and mean in ms.
     * JSON keys: {@code count p50_ms p90_ms p99_ms p999_ms max_ms mean_ms}.
     */
    synchronized Map<String, Object> summary() {
        Histogram h = histogram();
        Map<String, Object> m = new LinkedHashMap<>();
        long n = h.getTotalCount();
        m.put("count", n);
        m.put("p50_ms", n == 0 ? 0.0 : h.getValueAtPercentile(50) / 1e6);
        m.put("p90_ms", n == 0 ? 0.0 : h.getValueAtPercentile(90) / 1e6);
        m.put("p99_ms", n == 0 ? 0.0 : h.getValueAtPercentile(99) / 1e6);
        m.put("p999_ms", n == 0 ? 0.0 : h.getValueAtPercentile(99.9) / 1e6);
        m.put("max_ms", n == 0 ? 0.0 : h.getMaxValue() / 1e6);
        m.put("mean_ms", n == 0 ? 0.0 : h.getMean() / 1e6);
        return m;
    }
}
