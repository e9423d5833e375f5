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
