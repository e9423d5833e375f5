package org.flexheap.bench.workload;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.flexheap.bench.query.QueryClasses;
import org.flexheap.bench.query.QueryExecutor;
import org.flexheap.bench.query.QueryKind;
import org.flexheap.bench.util.PageCache;
import org.flexheap.bench.util.ProcIo;

/**
 * Storage read by one query on a cold page cache: evict the index, reopen it, touch
 * the terms index with a miss, then measure the query alone. On this large-RAM machine
 * a timed phase re-reads nothing (everything stays cached), so this is the per-query
 * I/O the paper's Table 2 reports under budgets of 5-10% of the index.
 */
final class ColdFootprint {
    private ColdFootprint() {}

    /** Per-query cold reads in bytes, sorted; empty when eviction or accounting is unavailable. */
    static long[] measure(Path indexDir, Map<String, Object> manifest, QueryClasses classes, QueryKind kind,
                          int samples, long seed) throws Exception {
        List<String> terms = classes.sample(kind.frequency, samples, seed ^ 0xC01DL);
        long[] reads = new long[samples];
        for (int i = 0; i < samples; i++) {
            if (PageCache.evict(indexDir) < 0 || ProcIo.readBytes() < 0) return new long[0];
            try (SearchContext ctx = SearchContext.reopen(indexDir, manifest, classes)) {
                QueryExecutor.run(ctx.searcher, "zzzzzzzzzzzz", kind.topN); // term-index miss: fixed open cost
                long before = ProcIo.readBytes();
                QueryExecutor.run(ctx.searcher, terms.get(i), kind.topN);
                reads[i] = ProcIo.readBytes() - before;
            }
        }
        Arrays.sort(reads);
        return reads;
    }
}
