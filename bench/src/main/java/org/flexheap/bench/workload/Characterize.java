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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.flexheap.bench.query.QueryClasses;
import org.flexheap.bench.query.QueryKind;
import org.flexheap.bench.util.PageCache;

/**
 * Table 2 measured here: each query class alone, with its queries, GC overhead
 * (pause time / wall time) and storage read per query over the timed run (each class
 * starts with the index evicted from the page cache when {@code cold}), plus the
 * cold read of single queries (see {@link ColdFootprint}).
 */
public final class Characterize {
    /** Table 2 of the paper: GC overhead % and I/O per query (MB). */
    static final Map<QueryKind, double[]> PAPER = Map.of(
            QueryKind.H50, new double[] {0.1, 30},
            QueryKind.M50, new double[] {0.2, 10},
            QueryKind.L50, new double[] {0.7, 3},
            QueryKind.H500k, new double[] {21, 31},
            QueryKind.M500k, new double[] {30, 2});

    private Characterize() {}

    public static final int DEFAULT_FOOTPRINT_SAMPLES = 20;

    public static Map<String, Object> run(Path indexDir, Scale scale, long seed, boolean cold, int footprintSamples)
            throws Exception {
        Map<String, Object> manifest = SearchContext.requireManifest(indexDir);
        QueryClasses classes;
        try (SearchContext ctx = SearchContext.open(indexDir)) {
            classes = ctx.classes;
        }
        List<PhaseResult> rows = new ArrayList<>();
        for (QueryKind k : QueryKind.values()) {
            if (cold) {
                int n = PageCache.evict(indexDir);
                if (n < 0) System.err.println("[characterize] page-cache eviction unavailable; reads may be warm");
            }
            PhaseResult row;
            try (SearchContext ctx = SearchContext.reopen(indexDir, manifest, classes)) {
                row = SequentialPhase.run(ctx, k, scale.queries(k), scale.clients(), seed + k.ordinal());
            }
            if (footprintSamples > 0) {
                long[] f = ColdFootprint.measure(indexDir, manifest, classes, k, footprintSamples, seed + k.ordinal());
                if (f.length > 0) {
                    row.put("cold_read_per_query_median_bytes", f[f.length / 2]);
                    row.put("cold_read_per_query_mean_bytes", Arrays.stream(f).average().orElse(0));
                    row.put("cold_samples", f.length);
                }
            }
            rows.add(row);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("workload", "characterize");
        out.put("scale", scale.factor());
        out.put("ok", true);
        out.put("cold_start_per_class", cold);
        out.put("index", indexDir.toAbsolutePath().toString());
        out.put("index_bytes", manifest.get("index_bytes"));
        out.put("docs", manifest.get("docs"));
        out.put("classes", classes.describe());
        out.put("phases", rows.stream().map(PhaseResult::toMap).toList());
        out.put("jvm", JvmInfo.describe());
        out.put("table", table(rows));
        return out;
    }

    static String table(List<PhaseResult> rows) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("%-6s %9s %9s %9s %11s %12s %10s | %10s %12s%n", "class", "queries", "qps", "GC %",
                "read/q MB", "cold/q MB", "hits/q", "paper GC %", "paper MB/q"));
        for (PhaseResult r : rows) {
            QueryKind k = QueryKind.parse(r.name());
            double[] p = PAPER.get(k);
            long q = r.queries();
            long rb = ((Number) r.get("read_bytes")).longValue();
            Object cold = r.get("cold_read_per_query_mean_bytes");
            sb.append(String.format("%-6s %9d %9.1f %9.2f %11s %12s %10.0f | %10.1f %12.0f%n", k.name(), q,
                    ((Number) r.get("throughput_qps")).doubleValue(),
                    ((Number) r.get("gc_overhead_pct")).doubleValue(),
                    rb < 0 ? "n/a" : String.format("%.2f", rb / 1048576.0 / Math.max(1, q)),
                    cold == null ? "n/a" : String.format("%.2f", ((Number) cold).doubleValue() / 1048576.0),
                    ((Number) r.get("hits_returned")).doubleValue() / Math.max(1, q), p[0], p[1]));
        }
        return sb.toString();
    }
}
