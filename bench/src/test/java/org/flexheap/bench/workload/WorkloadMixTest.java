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
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.flexheap.bench.TestIndexes;
import org.flexheap.bench.index.IndexBuilder;
import org.flexheap.bench.index.Manifest;
import org.flexheap.bench.query.QueryKind;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkloadMixTest {
    @TempDir
    static Path tmp;
    static Path index;
    static final Scale SCALE = new Scale(0.002, 4);

    @BeforeAll
    static void build() throws Exception {
        index = tmp.resolve("idx");
        TestIndexes.build(index, TestIndexes.small(21));
    }

    @Test
    void sequentialMixesRunPhasesInOrderWithScaledCounts() throws Exception {
        for (Workload w : List.of(Workload.M1, Workload.M2)) {
            Map<String, Object> r = WorkloadRunner.run(index, w, SCALE, RunOptions.defaults());
            assertEquals(true, r.get("ok"));
            List<Map<String, Object>> phases = phases(r);
            assertEquals(w.classes.size(), phases.size());
            for (int i = 0; i < phases.size(); i++) {
                QueryKind k = w.classes.get(i);
                assertEquals(k.name(), phases.get(i).get("name"), w + " phase " + i);
                assertEquals((long) Math.max(1, Math.round(k.paperQueries * 0.002)), num(phases.get(i), "queries"));
                assertEquals(4L, num(phases.get(i), "clients"));
                assertTrue(num(phases.get(i), "end_epoch_ms") >= num(phases.get(i), "start_epoch_ms"));
            }
            for (int i = 1; i < phases.size(); i++) {
                assertTrue(num(phases.get(i), "start_epoch_ms") >= num(phases.get(i - 1), "end_epoch_ms"),
                        "phases do not overlap");
            }
        }
        assertEquals(List.of("H50", "M500k", "L50", "H500k", "M50"),
                Workload.M1.classes.stream().map(Enum::name).toList());
    }

    @Test
    @SuppressWarnings("unchecked")
    void concurrentMixesServeSmallStreamAndPoissonBatches() throws Exception {
        for (Workload w : List.of(Workload.M3, Workload.M4)) {
            RunOptions opt = new RunOptions(3, 50.0, 0, false);
            Map<String, Object> r = WorkloadRunner.run(index, w, SCALE, opt);
            List<Map<String, Object>> phases = phases(r);
            assertEquals(1, phases.size());
            Map<String, Object> p = phases.get(0);
            assertEquals(w.name(), p.get("name"));
            assertEquals(2L, num(p, "small_clients"));
            assertEquals(2L, num(p, "large_clients"));
            Map<String, Object> classes = (Map<String, Object>) p.get("classes");
            long total = 0;
            for (QueryKind k : w.classes) {
                long n = num((Map<String, Object>) classes.get(k.name()), "queries");
                assertEquals(SCALE.queries(k), n, w + " " + k);
                total += n;
                Map<String, Object> c = (Map<String, Object>) classes.get(k.name());
                Map<String, Object> svc = (Map<String, Object>) c.get("service_ms");
                assertEquals(n, num(svc, "count"), w + " " + k + " service count");
                if (k == w.classes.get(0)) {
                    assertEquals("closed-loop", c.get("arrivals"));
                    assertTrue(!c.containsKey("response_ms"), "a closed loop has no arrival schedule");
                } else {
                    Map<String, Object> rsp = (Map<String, Object>) c.get("response_ms");
                    assertEquals(n, num(rsp, "count"), w + " " + k + " response count");
                    for (String q : List.of("p50_ms", "p90_ms", "p99_ms", "p999_ms", "max_ms")) {
                        assertTrue(dbl(rsp, q) >= dbl(svc, q) * 0.999, w + " " + k + " response >= service at " + q);
                    }
                }
            }
            Map<String, Object> rsp = (Map<String, Object>) p.get("response_ms");
            assertEquals(SCALE.queries(w.classes.get(1)) + SCALE.queries(w.classes.get(2)), num(rsp, "count"));
            assertEquals(total, num((Map<String, Object>) p.get("service_ms"), "count"));
            assertEquals(total, num(p, "queries"));
            long largeQueries = SCALE.queries(QueryKind.M500k) + SCALE.queries(QueryKind.H500k);
            int batchSize = RunOptions.BATCHES_PER_CLIENT * 2;
            assertEquals((largeQueries + batchSize - 1) / batchSize, num(p, "batches"), "batch size = 4 x large clients");
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void ingestedDocumentsBecomeSearchableAndIndexIsRestored() throws Exception {
        Scale scale = new Scale(0.0005, 2); // 2,000 documents, 20 search-only queries
        Map<String, Object> r = WorkloadRunner.run(index, Workload.ingest, scale, RunOptions.defaults());
        List<Map<String, Object>> phases = phases(r);
        assertEquals(List.of("ingest", "search"), phases.stream().map(p -> p.get("name")).toList());
        Map<String, Object> ingest = phases.get(0);
        assertEquals(2000L, num(ingest, "docs"));
        assertEquals(2000L, num(ingest, "searchable_ingested_docs"));
        assertTrue(((Number) ingest.get("docs_per_s")).doubleValue() > 0);
        assertEquals(20L, num(phases.get(1), "queries"));
        // Per phase: ingest docs/s (ingest phase), search q/s and search latency (both phases).
        for (Map<String, Object> p : phases) {
            assertTrue(dbl(p, "search_qps") > 0 || num(p, "queries") == 0, p.get("name") + " search_qps");
            assertEquals(dbl(p, "throughput_qps"), dbl(p, "search_qps"), 1e-9);
            Map<String, Object> svc = (Map<String, Object>) p.get("service_ms");
            assertEquals(num(p, "queries"), num(svc, "count"), p.get("name") + " one latency per search");
            assertTrue(dbl(svc, "p99_ms") >= dbl(svc, "p50_ms"));
            assertEquals(dbl(p, "p99_ms"), dbl(svc, "p99_ms"), 1e-9);
        }
        long built = Manifest.docs(Manifest.read(index));
        try (Directory d = FSDirectory.open(index); DirectoryReader reader = DirectoryReader.open(d)) {
            assertEquals(built, reader.maxDoc(), "index rolled back to the built commit");
        }
        assertEquals(true, new IndexBuilder(TestIndexes.small(21), index, 2).buildOrReuse().get("reused"));
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> phases(Map<String, Object> r) {
        return (List<Map<String, Object>>) r.get("phases");
    }

    static double dbl(Map<String, Object> m, String k) {
        return ((Number) m.get(k)).doubleValue();
    }

    static long num(Map<String, Object> m, String k) {
        return ((Number) m.get(k)).longValue();
    }
}
