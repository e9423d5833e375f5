package org.flexheap.bench.workload;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.flexheap.bench.query.QueryExecutor;
import org.flexheap.bench.query.QueryKind;

/**
 * Paper's concurrent mixes (M3, M4): small-query clients run their queries back to
 * back, while batches of large queries arrive as a Poisson process and are served
 * by the large-query clients. The phase ends when both streams are done.
 */
final class ConcurrentMixPhase {
    record Config(QueryKind small, List<QueryKind> large, double batchRate, int batchSize) {}

    private record Task(QueryKind kind, String term) {}

    private static final Task POISON = new Task(null, null);

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

        Map<QueryKind, LatencyLog> lat = new EnumMap<>(QueryKind.class);
        Map<QueryKind, AtomicLong> count = new EnumMap<>(QueryKind.class);
        lat.put(cfg.small(), new LatencyLog());
        count.put(cfg.small(), new AtomicLong());
        for (QueryKind k : cfg.large()) {
            lat.put(k, new LatencyLog());
            count.put(k, new AtomicLong());
        }
        AtomicLong done = new AtomicLong();
        AtomicInteger nextSmall = new AtomicInteger();
        LinkedBlockingQueue<Task> queue = new LinkedBlockingQueue<>();
        double[] smallEnd = {0};

        Probe probe = Probe.start(name);
        long t0 = System.nanoTime();
        Clients pool = new Clients();
        try (Progress p = new Progress(name, done, smallCount + large.size(), null, null)) {
            pool.start(name + "-small", scale.smallClients(), (id, stop) -> {
                int i;
                while (!stop.get() && (i = nextSmall.getAndIncrement()) < smallCount) {
                    long q0 = System.nanoTime();
                    QueryExecutor.run(ctx.searcher, smallTerms.get(i), cfg.small().topN);
                    lat.get(cfg.small()).add(System.nanoTime() - q0);
                    count.get(cfg.small()).incrementAndGet();
                    done.incrementAndGet();
                }
                synchronized (smallEnd) {
                    smallEnd[0] = Math.max(smallEnd[0], (System.nanoTime() - t0) / 1e9);
                }
            });
            pool.start(name + "-large", scale.largeClients(), (id, stop) -> {
                while (!stop.get()) {
                    Task t = queue.poll(100, TimeUnit.MILLISECONDS);
                    if (t == null) continue;
                    if (t == POISON) return;
                    long q0 = System.nanoTime();
                    QueryExecutor.run(ctx.searcher, t.term(), t.kind().topN);
                    lat.get(t.kind()).add(System.nanoTime() - q0);
                    count.get(t.kind()).incrementAndGet();
                    done.incrementAndGet();
                }
            });
            // Dispatcher: releases each batch at its Poisson arrival time.
            try {
                for (int b = 0; b < batches && !pool.stopFlag().get(); b++) {
                    long due = t0 + (long) (arrivals[b] * 1e9);
                    long wait = due - System.nanoTime();
                    if (wait > 0) TimeUnit.NANOSECONDS.sleep(wait);
                    int from = b * batchSize;
                    queue.addAll(large.subList(from, Math.min(large.size(), from + batchSize)));
                }
            } catch (InterruptedException e) {
                pool.fail(e);
            }
            for (int i = 0; i < scale.largeClients(); i++) queue.add(POISON);
            pool.join();
        }
        long total = done.get();
        Probe.Delta d = probe.end(total);

        LatencyLog all = new LatencyLog();
        Map<String, Object> classes = new LinkedHashMap<>();
        for (Map.Entry<QueryKind, LatencyLog> e : lat.entrySet()) {
            all.addAll(e.getValue());
            Map<String, Object> c = new LinkedHashMap<>();
            long n = count.get(e.getKey()).get();
            c.put("queries", n);
            c.put("p50_ms", e.getValue().percentileMillis(50));
            c.put("p99_ms", e.getValue().percentileMillis(99));
            classes.put(e.getKey().name(), c);
        }
        List<Double> arrivalList = new ArrayList<>();
        for (double a : arrivals) arrivalList.add(Math.round(a * 1000) / 1000.0);
        return new PhaseResult(name, total, d.seconds(), all, d)
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
