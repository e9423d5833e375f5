package org.flexheap.bench.workload;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.flexheap.bench.query.QueryKind;
import org.flexheap.bench.util.PageCache;

/** Runs a named workload on an index and returns the result document of `run`. */
public final class WorkloadRunner {
    private WorkloadRunner() {}

    public static Map<String, Object> run(Path indexDir, Workload w, Scale scale, RunOptions opt) throws Exception {
        System.err.printf("[run] %s (%s) scale=%s clients=%d seed=%d%n", w, w.describe(), scale.factor(),
                scale.clients(), opt.seed());
        if (opt.cold()) System.err.println("[run] evicted " + PageCache.evict(indexDir) + " index files from the page cache");
        long t0 = System.nanoTime();
        List<PhaseResult> phases = new ArrayList<>();
        if (w == Workload.ingest) {
            phases.addAll(IngestWorkload.run(indexDir, scale, opt.seed(), IngestWorkload.Config.defaults()));
        } else {
            try (SearchContext ctx = SearchContext.open(indexDir)) {
                if (w.concurrent()) {
                    var cfg = new ConcurrentMixPhase.Config(w.classes.get(0), w.classes.subList(1, w.classes.size()),
                            opt.batchRate(), opt.batchSize());
                    phases.add(ConcurrentMixPhase.run(ctx, w.name(), cfg, scale, opt.seed()));
                } else {
                    long phaseSeed = opt.seed();
                    for (QueryKind k : w.classes) {
                        phases.add(SequentialPhase.run(ctx, k, scale.queries(k), scale.clients(), phaseSeed++));
                    }
                }
            }
        }
        double total = (System.nanoTime() - t0) / 1e9;
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("workload", w.name());
        out.put("scale", scale.factor());
        out.put("ok", true);
        out.put("total_s", total);
        out.put("clients", scale.clients());
        out.put("seed", opt.seed());
        out.put("index", indexDir.toAbsolutePath().toString());
        out.put("phases", phases.stream().map(PhaseResult::toMap).toList());
        out.put("jvm", JvmInfo.describe());
        return out;
    }
}
