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
