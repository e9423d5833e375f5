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

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.flexheap.bench.query.QueryExecutor;
import org.flexheap.bench.query.QueryKind;

/**
 * Paper's concurrent mixes (M3, M4): small-query clients run their queries back to
 * back, while batches of large queries arrive as a Poisson process and are served
 * by the large-query clients. The phase ends when both streams are done.
 *
 * <p>Large queries are timed from their batch's scheduled arrival (response time) and
 * from the start of their service (service time), in separate histograms: the wait
 * for a free client is part of what a user of the service sees. The small stream is
 * a closed loop (no arrival schedule), so it has service time only.
 */
final class ConcurrentMixPhase {
    record Config(QueryKind small, List<QueryKind> large, double batchRate, int batchSize) {}

    private record Task(QueryKind kind, String term) {}

    private ConcurrentMixPhase() {}

    static PhaseResult run(SearchContext ctx, String name, Config cfg, Scale scale, long seed) throws Exception {
        int smallCount = scale.queries(cfg.small());
        List<String> smallTerms = ctx.classes.sample(cfg.small().frequency, smallCount, seed);
        List<Task> large = new ArrayList<>();
        for (QueryKind k : cfg.large()) {
            for (String t : ctx.classes.sample(k.frequency, scale.queries(k), seed + k.ordinal())) large.add(new Task(k, t));
        }
        Collections.shuffle(large, new Random(seed)); // H500k and M500k interleave within batches
        int batchSize = cfg.batchSize() > 0 ? cfg.batchSize() : RunOptions.BATCHES_PER_CLIENT * scale.largeClients();
        int batches = (large.size() + batchSize - 1) / batchSize;
        double[] arrivals = PoissonArrivals.times(batches, cfg.batchRate(), seed * 31 + 7);

        // Large queries: task i arrives with its batch; times from the schedule (OpenLoop).
        long[] due = new long[large.size()];
        for (int i = 0; i < due.length; i++) due[i] = (long) (arrivals[i / batchSize] * 1e9);

        Map<QueryKind, LatencyLog> service = new EnumMap<>(QueryKind.class);
        Map<QueryKind, LatencyLog> response = new EnumMap<>(QueryKind.class);
        service.put(cfg.small(), new LatencyLog());
        for (QueryKind k : cfg.large()) {
            service.put(k, new LatencyLog());
            response.put(k, new LatencyLog());
        }
        AtomicLong done = new AtomicLong();
        AtomicInteger nextSmall = new AtomicInteger();
        double[] smallEnd = {0};

        Probe probe = Probe.start(name);
        long t0 = System.nanoTime();
        Clients pool = new Clients();
        try (Progress p = new Progress(name, done, smallCount + large.size(), null, null)) {
            // Small stream: closed loop, each client's next query starts when its last one ends.
            pool.start(name + "-small", scale.smallClients(), (id, stop) -> {
                int i;
                while (!stop.get() && (i = nextSmall.getAndIncrement()) < smallCount) {
                    long q0 = System.nanoTime();
                    QueryExecutor.run(ctx.searcher, smallTerms.get(i), cfg.small().topN);
                    service.get(cfg.small()).add(System.nanoTime() - q0);
                    done.incrementAndGet();
                }
                synchronized (smallEnd) {
                    smallEnd[0] = Math.max(smallEnd[0], (System.nanoTime() - t0) / 1e9);
                }
            });
            // Large stream: open loop, batches arrive at their Poisson times whether or not
            // the clients are free.
            OpenLoop.start(pool, name + "-large", scale.largeClients(), large, due, t0, OpenLoop.SYSTEM,
                    t -> QueryExecutor.run(ctx.searcher, t.term(), t.kind().topN),
                    (t, serviceNs, responseNs) -> {
                        service.get(t.kind()).add(serviceNs);
                        response.get(t.kind()).add(responseNs);
                        done.incrementAndGet();
                    });
            pool.join();
        }
        long total = done.get();
        Probe.Delta d = probe.end(total);

        LatencyLog allService = new LatencyLog();
        LatencyLog allResponse = new LatencyLog();
        Map<String, Object> classes = new LinkedHashMap<>();
        for (Map.Entry<QueryKind, LatencyLog> e : service.entrySet()) {
            LatencyLog svc = e.getValue();
            LatencyLog rsp = response.get(e.getKey());
            allService.addAll(svc);
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("queries", svc.count());
            c.put("p50_ms", svc.percentileMillis(50));
            c.put("p99_ms", svc.percentileMillis(99));
            c.put("arrivals", rsp == null ? "closed-loop" : "poisson-batches");
            c.put("service_ms", svc.summary());
            if (rsp != null) {
                allResponse.addAll(rsp);
                c.put("response_ms", rsp.summary());
            }
            classes.put(e.getKey().name(), c);
        }
        List<Double> arrivalList = new ArrayList<>();
        for (double a : arrivals) arrivalList.add(Math.round(a * 1000) / 1000.0);
        return new PhaseResult(name, total, d.seconds(), allService, d)
                .put("response_ms", allResponse.summary())
                .put("small_clients", scale.smallClients())
                .put("large_clients", scale.largeClients())
                .put("small_end_s", smallEnd[0])
                .put("batch_rate_per_s", cfg.batchRate())
                .put("batch_size", batchSize)
                .put("batches", batches)
                .put("batch_arrivals_s", arrivalList)
                .put("classes", classes);
    }
}
