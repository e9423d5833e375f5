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

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.flexheap.bench.query.QueryExecutor;
import org.flexheap.bench.query.QueryKind;

/** One query class run by all clients together until its query count is exhausted. */
final class SequentialPhase {
    private SequentialPhase() {}

    static PhaseResult run(SearchContext ctx, QueryKind kind, int queries, int clients, long seed) throws Exception {
        List<String> terms = ctx.classes.sample(kind.frequency, queries, seed);
        AtomicInteger next = new AtomicInteger();
        AtomicLong done = new AtomicLong();
        AtomicLong hits = new AtomicLong();
        LatencyLog lat = new LatencyLog();
        Probe probe = Probe.start(kind.name());
        Clients pool = new Clients();
        try (Progress p = new Progress(kind.name(), done, queries, null, null)) {
            pool.start("client-" + kind.name(), clients, (id, stop) -> {
                int i;
                while (!stop.get() && (i = next.getAndIncrement()) < queries) {
                    long t0 = System.nanoTime();
                    QueryExecutor.Result r = QueryExecutor.run(ctx.searcher, terms.get(i), kind.topN);
                    lat.add(System.nanoTime() - t0);
                    hits.addAndGet(r.returned());
                    done.incrementAndGet();
                }
            }).join();
        }
        Probe.Delta d = probe.end(done.get());
        return new PhaseResult(kind.name(), done.get(), d.seconds(), lat, d)
                .put("class", kind.name())
                .put("clients", clients)
                .put("top_n", kind.topN)
                .put("hits_returned", hits.get());
    }
}
