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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Response time from the scheduled arrival, on a schedule with a known queueing delay:
 * one client, an arrival every 1 ms, 2 ms of service each. Query i then starts at 2i ms
 * and ends at 2(i+1) ms, so its response time is i + 2 ms (growing linearly) while its
 * service time stays 2 ms. A clock started at dispatch (coordinated omission) would
 * report 2 ms for all of them.
 */
class OpenLoopTest {
    static final long MS = 1_000_000;

    /** Single-threaded virtual time: sleeping jumps to the deadline, service advances it. */
    static final class VirtualClock implements OpenLoop.Clock {
        long now = 1_000 * MS;

        @Override
        public synchronized long nanoTime() { return now; }

        @Override
        public synchronized void sleepUntil(long deadline) { now = Math.max(now, deadline); }

        synchronized void advance(long nanos) { now += nanos; }
    }

    static long[] everyMs(int n) {
        return IntStream.range(0, n).mapToLong(i -> i * MS).toArray();
    }

    @Test
    void responseTimeGrowsLinearlyWhenServiceIsSlowerThanArrivals() throws Exception {
        int n = 1000;
        VirtualClock clock = new VirtualClock();
        List<Integer> tasks = IntStream.range(0, n).boxed().toList();
        long[] response = new long[n];
        long[] service = new long[n];
        LatencyLog svc = new LatencyLog();
        LatencyLog rsp = new LatencyLog();
        Clients pool = new Clients();
        OpenLoop.start(pool, "test", 1, tasks, everyMs(n), clock.nanoTime(), clock,
                t -> clock.advance(2 * MS),
                (t, s, r) -> {
                    service[t] = s;
                    response[t] = r;
                    svc.add(s);
                    rsp.add(r);
                });
        pool.join();
        for (int i = 0; i < n; i++) {
            assertEquals(2 * MS, service[i], "service of " + i);
            assertEquals((i + 2) * MS, response[i], "response of " + i);
        }
        // The phase JSON's figures: responses are 2..1001 ms, one per ms.
        Map<String, Object> r = rsp.summary();
        assertEquals(1000L, r.get("count"));
        assertClose(501, r.get("p50_ms"));   // 500th of 1000
        assertClose(901, r.get("p90_ms"));
        assertClose(991, r.get("p99_ms"));
        assertClose(1000, r.get("p999_ms"));
        assertClose(1001, r.get("max_ms"));
        assertClose(501.5, r.get("mean_ms"));
        Map<String, Object> s = svc.summary();
        assertClose(2, s.get("p50_ms"));
        assertClose(2, s.get("max_ms"));
    }

    @Test
    void idleClientWaitsForTheArrivalAndResponseEqualsService() throws Exception {
        // Arrivals every 5 ms, service 2 ms: no queueing, response = service = 2 ms.
        int n = 50;
        VirtualClock clock = new VirtualClock();
        long start = clock.nanoTime();
        long[] due = IntStream.range(0, n).mapToLong(i -> 5 * i * MS).toArray();
        List<Long> startedAt = new ArrayList<>();
        LatencyLog rsp = new LatencyLog();
        Clients pool = new Clients();
        OpenLoop.start(pool, "test", 1, IntStream.range(0, n).boxed().toList(), due, start, clock,
                t -> {
                    startedAt.add(clock.nanoTime() - start);
                    clock.advance(2 * MS);
                },
                (t, s, r) -> rsp.add(r));
        pool.join();
        for (int i = 0; i < n; i++) assertEquals(due[i], startedAt.get(i), "starts at its arrival, not earlier");
        assertClose(2, rsp.summary().get("max_ms"));
        assertClose(2, rsp.summary().get("p50_ms"));
    }

    @Test
    void realClockResponseIncludesTheQueueingDelay() throws Exception {
        // The same schedule on the real clock (busy service of >= 2 ms). Whatever the load on
        // the machine, query i cannot end before 2(i+1) ms after the start and arrived at i ms,
        // so the k-th smallest response is >= k+1 ms: p50 >= 101 ms and max >= 201 ms for 200
        // queries. Service times stay near 2 ms.
        int n = 200;
        LatencyLog svc = new LatencyLog();
        LatencyLog rsp = new LatencyLog();
        Clients pool = new Clients();
        OpenLoop.start(pool, "test", 1, IntStream.range(0, n).boxed().toList(), everyMs(n), System.nanoTime(),
                OpenLoop.SYSTEM,
                t -> {
                    long end = System.nanoTime() + 2 * MS;
                    while (System.nanoTime() < end) Thread.onSpinWait();
                },
                (t, s, r) -> {
                    svc.add(s);
                    rsp.add(r);
                });
        pool.join();
        Map<String, Object> r = rsp.summary();
        Map<String, Object> s = svc.summary();
        assertEquals(200L, r.get("count"));
        assertTrue(ms(r, "p50_ms") >= 101 * 0.999, "response p50 " + r);
        assertTrue(ms(r, "max_ms") >= 201 * 0.999, "response max " + r);
        assertTrue(ms(s, "p50_ms") >= 2 * 0.999 && ms(s, "p50_ms") < 20, "service p50 " + s);
        assertTrue(ms(r, "p50_ms") > 10 * ms(s, "p50_ms"), "queueing dominates: " + r + " vs " + s);
    }

    @Test
    void twoClientsKeepUpWithArrivalsEvery1msAt2msEach() throws Exception {
        // Capacity 1 query/ms = the arrival rate: responses stay bounded (a few ms), they do not
        // grow with the query index as with one client. Loose bound: real threads on a busy machine.
        int n = 200;
        LatencyLog rsp = new LatencyLog();
        Clients pool = new Clients();
        OpenLoop.start(pool, "test", 2, IntStream.range(0, n).boxed().toList(), everyMs(n), System.nanoTime(),
                OpenLoop.SYSTEM,
                t -> {
                    long end = System.nanoTime() + 2 * MS;
                    while (System.nanoTime() < end) Thread.onSpinWait();
                },
                (t, s, r) -> rsp.add(r));
        pool.join();
        assertEquals(200L, rsp.summary().get("count"));
        assertTrue(ms(rsp.summary(), "p50_ms") >= 2 * 0.999, "never faster than service: " + rsp.summary());
    }

    @Test
    void rejectsDecreasingArrivalsAndMismatchedLengths() {
        Clients pool = new Clients();
        assertThrows(IllegalArgumentException.class, () -> OpenLoop.start(pool, "t", 1, List.of(1, 2),
                new long[] {5, 4}, 0, OpenLoop.SYSTEM, t -> { }, (t, s, r) -> { }));
        assertThrows(IllegalArgumentException.class, () -> OpenLoop.start(pool, "t", 1, List.of(1, 2),
                new long[] {5}, 0, OpenLoop.SYSTEM, t -> { }, (t, s, r) -> { }));
    }

    @Test
    void failureStopsTheClientsAndIsRethrown() {
        Clients pool = new Clients();
        OpenLoop.start(pool, "t", 2, IntStream.range(0, 10).boxed().toList(), everyMs(10), System.nanoTime(),
                OpenLoop.SYSTEM, t -> {
                    if (t == 3) throw new IllegalStateException("query 3 failed");
                }, (t, s, r) -> { });
        Exception e = assertThrows(IllegalStateException.class, pool::join);
        assertEquals("query 3 failed", e.getMessage());
    }

    static double ms(Map<String, Object> m, String k) {
        return ((Number) m.get(k)).doubleValue();
    }

    /** Within HdrHistogram's 3 significant digits. */
    static void assertClose(double expectedMs, Object actual) {
        double a = ((Number) actual).doubleValue();
        assertEquals(expectedMs, a, expectedMs * 1e-3 + 1e-9, "expected " + expectedMs + " ms, got " + a);
    }
}
