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

/** One phase's measurements, serialised into the run JSON's "phases" list. */
public final class PhaseResult {
    private final Map<String, Object> fields = new LinkedHashMap<>();

    PhaseResult(String name, long queries, double seconds, LatencyLog lat, Probe.Delta d) {
        fields.put("name", name);
        fields.put("queries", queries);
        fields.put("duration_s", seconds);
        fields.put("throughput_qps", seconds > 0 ? queries / seconds : 0.0);
        fields.put("p50_ms", lat.percentileMillis(50));
        fields.put("p99_ms", lat.percentileMillis(99));
        // p50_ms/p99_ms above are service times; the full set (count, p50/p90/p99/p99.9, max, mean)
        // from the HdrHistogram. Phases with an arrival schedule (M3/M4) add "response_ms".
        fields.put("service_ms", lat.summary());
        fields.put("gc_count", d.gc().count());
        fields.put("gc_time_ms", d.gc().pauseMillis());
        fields.put("gc_concurrent_ms", d.gc().concurrentMillis());
        fields.put("gc_overhead_pct", seconds > 0 ? 100.0 * d.gc().pauseMillis() / (seconds * 1000) : 0.0);
        fields.put("read_bytes", d.readBytes());
        fields.put("start_epoch_ms", d.startEpochMs());
        fields.put("end_epoch_ms", d.endEpochMs());
    }

    PhaseResult put(String key, Object value) {
        fields.put(key, value);
        return this;
    }

    public Object get(String key) { return fields.get(key); }

    public String name() { return (String) fields.get("name"); }

    public long queries() { return ((Number) fields.get("queries")).longValue(); }

    public Map<String, Object> toMap() { return fields; }
}
