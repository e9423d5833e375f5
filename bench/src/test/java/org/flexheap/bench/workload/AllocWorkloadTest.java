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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class AllocWorkloadTest {
    static final long MB = 1L << 20;

    @Test
    void liveSetFollowsItsTargetUpAndDown() throws Exception {
        AllocationChurn c = new AllocationChurn();
        c.resize(64 * MB);
        c.run(2, 4 * MB, 2, 1, new LatencyLog(), new AtomicLong());
        assertEquals(64.0 * MB, c.liveBytes(), 0.05 * 64 * MB, "large live set");
        c.resize(8 * MB);
        assertEquals(8.0 * MB, c.liveBytes(), 0.05 * 8 * MB, "truncated to the small live set");
        c.run(2, 4 * MB, 2, 2, new LatencyLog(), new AtomicLong());
        assertEquals(8.0 * MB, c.liveBytes(), 0.05 * 8 * MB, "churn keeps its size");
        c.resize(0);
        assertEquals(0, c.liveBytes());
    }

    @Test
    void deterministicBySeed() throws Exception {
        long[] a = new long[3];
        long[] seeds = {5, 5, 6};
        for (int i = 0; i < 3; i++) {
            AllocationChurn c = new AllocationChurn();
            c.resize(4 * MB);
            AllocationChurn.Totals t = c.run(1, 2 * MB, 2, seeds[i], new LatencyLog(), new AtomicLong());
            a[i] = c.liveBytes() * 31 + t.ops();
        }
        assertEquals(a[0], a[1], "same seed, same live set and op count");
        assertNotEquals(a[0], a[2], "another seed, another live set");
    }

    @Test
    @SuppressWarnings("unchecked")
    void phasesReportWorkAndNoIo() throws Exception {
        var cfg = new AllocWorkload.Config(24 * MB, 2 * MB, 32 * MB, 2, 2);
        Map<String, Object> r = WorkloadRunner.run(null, Workload.alloc, new Scale(0.125, 2),
                RunOptions.defaults().withAlloc(cfg));
        assertEquals(true, r.get("ok"));
        List<Map<String, Object>> phases = (List<Map<String, Object>>) r.get("phases");
        assertEquals(List.of("live-large", "live-small", "live-large-2", "live-small-2"),
                phases.stream().map(p -> p.get("name")).toList());
        for (Map<String, Object> p : phases) {
            long ops = ((Number) p.get("ops")).longValue();
            long allocated = ((Number) p.get("allocated_bytes")).longValue();
            assertTrue(allocated >= 32 * MB && allocated < 32 * MB + 2 * 4 * AllocationChurn.OP_BYTES + 26 * MB,
                    p.get("name") + " allocated " + allocated);
            assertTrue(ops > 0 && ops <= 32 * MB / AllocationChurn.OP_BYTES + 2, "ops " + ops);
            assertEquals(ops, ((Number) p.get("queries")).longValue());
            assertEquals(ops, ((Number) ((Map<String, Object>) p.get("service_ms")).get("count")).longValue());
            assertTrue(((Number) p.get("throughput_qps")).doubleValue() > 0);
            long read = ((Number) p.get("read_bytes")).longValue();
            assertTrue(read <= 0, p.get("name") + " must not read storage: " + read);
        }
        assertEquals(24 * MB, ((Number) phases.get(0).get("live_target_bytes")).longValue());
        assertEquals(2 * MB, ((Number) phases.get(1).get("live_target_bytes")).longValue());
        assertEquals(null, r.get("index"));
    }
}
