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

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexCommit;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherFactory;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.Directory;
import org.flexheap.bench.corpus.DocumentStream;
import org.flexheap.bench.corpus.TextCorpus;
import org.flexheap.bench.corpus.ZipfDocuments;
import org.flexheap.bench.corpus.ZipfVocabulary;
import org.flexheap.bench.index.IndexDirectories;
import org.flexheap.bench.index.IndexSchema;
import org.flexheap.bench.index.Manifest;
import org.flexheap.bench.query.QueryClasses;
import org.flexheap.bench.query.QueryExecutor;
import org.flexheap.bench.query.QueryKind;

/**
 * Elasticsearch-like ingest + search: indexing threads add documents to the live
 * index (periodic near-real-time refresh, periodic commit, background merges) while
 * search clients query the refreshed searcher; then ingestion stops and search goes
 * on. Afterwards the index is rolled back to the built commit, so it still matches
 * its manifest.
 */
final class IngestWorkload {
    record Config(long refreshMs, long commitMs, double ramBufferMb) {
        static Config defaults() { return new Config(1000, 15_000, 64); }
    }

    private static final QueryKind[] SEARCH_MIX = {QueryKind.H50, QueryKind.M50, QueryKind.L50};

    private IngestWorkload() {}

    static List<PhaseResult> run(Path indexDir, Scale scale, long seed, Config cfg) throws Exception {
        Map<String, Object> manifest = SearchContext.requireManifest(indexDir);
        QueryClasses classes;
        try (SearchContext ctx = SearchContext.open(indexDir)) {
            classes = ctx.classes;
        }
        long baseDocs = Manifest.docs(manifest);
        long docsToAdd = scale.ingestDocs();
        int indexers = scale.smallClients();
        int searchers = scale.largeClients();
        List<PhaseResult> phases = new ArrayList<>();

        BaseCommitKeeper keeper = new BaseCommitKeeper();
        IndexWriterConfig iwc = new IndexWriterConfig(IndexSchema.analyzer())
                .setOpenMode(IndexWriterConfig.OpenMode.APPEND)
                .setIndexDeletionPolicy(keeper)
                .setRAMBufferSizeMB(cfg.ramBufferMb());
        try (Directory dir = IndexDirectories.openForSearch(indexDir)) {
            try (IndexWriter writer = new IndexWriter(dir, iwc);
                 DocumentStream docs = newDocs(manifest, baseDocs, docsToAdd)) {
                SearcherManager mgr = new SearcherManager(writer, new UncachedSearchers());
                try {
                    phases.add(ingestPhase(writer, mgr, docs, docsToAdd, indexers, searchers, classes, seed, cfg));
                    phases.add(searchPhase(mgr, scale, classes, seed + 1));
                } finally {
                    mgr.close();
                }
                writer.rollback(); // drop uncommitted work; committed ingest is undone below
            }
            restoreBase(dir, keeper.base());
        }
        return phases;
    }

    private static DocumentStream newDocs(Map<String, Object> manifest, long baseDocs, long n) {
        Map<String, Object> p = Manifest.params(manifest);
        if ("zipf".equals(p.get("corpus"))) {
            ZipfVocabulary v = new ZipfVocabulary(((Number) p.get("vocab")).intValue(),
                    ((Number) p.get("head_exponent")).doubleValue(), ((Number) p.get("tail_exponent")).doubleValue(),
                    ((Number) p.get("stop_words")).intValue());
            // Continue the same seeded corpus past the documents already indexed.
            return new ZipfDocuments(v, ((Number) p.get("seed")).longValue(),
                    ((Number) p.get("doc_words")).intValue()).stream(baseDocs, baseDocs + n);
        }
        return new TextCorpus(Path.of((String) p.get("corpus")), ((Number) p.get("doc_words")).intValue(), n);
    }

    private static PhaseResult ingestPhase(IndexWriter writer, SearcherManager mgr, DocumentStream docs,
                                           long docsToAdd, int indexers, int searchers, QueryClasses classes,
                                           long seed, Config cfg) throws Exception {
        AtomicLong added = new AtomicLong();
        AtomicLong queries = new AtomicLong();
        AtomicInteger indexersLeft = new AtomicInteger(indexers);
        LatencyLog lat = new LatencyLog();
        Probe probe = Probe.start("ingest");
        long t0 = System.nanoTime();
        Clients pool = new Clients();
        try (Progress p = new Progress("ingest", queries, 0, added::get, "docs indexed")) {
            pool.start("indexer", indexers, (id, stop) -> {
                try {
                    String text;
                    while (!stop.get() && (text = docs.next()) != null) {
                        writer.addDocument(IndexSchema.document(text, IndexSchema.ORIGIN_INGEST));
                        added.incrementAndGet();
                    }
                } finally {
                    indexersLeft.decrementAndGet();
                }
            });
            // Refresh and commit on their own schedule, as a search server would.
            pool.start("refresher", 1, (id, stop) -> {
                long lastCommit = System.nanoTime();
                while (!stop.get() && indexersLeft.get() > 0) {
                    Thread.sleep(cfg.refreshMs());
                    mgr.maybeRefresh();
                    if ((System.nanoTime() - lastCommit) / 1_000_000 >= cfg.commitMs()) {
                        writer.commit();
                        lastCommit = System.nanoTime();
                    }
                }
            });
            pool.start("searcher", searchers, (id, stop) -> {
                SplittableRandom rnd = new SplittableRandom(seed * 1000 + id);
                while (!stop.get() && indexersLeft.get() > 0) {
                    runOne(mgr, classes, rnd, lat);
                    queries.incrementAndGet();
                }
            });
            pool.join();
        }
        double ingestSeconds = (System.nanoTime() - t0) / 1e9;
        Probe.Delta d = probe.end(queries.get());
        mgr.maybeRefreshBlocking(); // everything added must now be visible
        long searchable;
        IndexSearcher s = mgr.acquire();
        try {
            searchable = s.count(new TermQuery(new Term(IndexSchema.ORIGIN, IndexSchema.ORIGIN_INGEST)));
        } finally {
            mgr.release(s);
        }
        return new PhaseResult("ingest", queries.get(), d.seconds(), lat, d)
                .put("docs", added.get())
                .put("docs_per_s", added.get() / ingestSeconds)
                .put("search_qps", d.seconds() > 0 ? queries.get() / d.seconds() : 0.0)
                .put("docs_planned", docsToAdd)
                .put("searchable_ingested_docs", searchable)
                .put("indexing_threads", indexers)
                .put("search_clients", searchers)
                .put("refresh_ms", cfg.refreshMs())
                .put("commit_ms", cfg.commitMs());
    }

    private static PhaseResult searchPhase(SearcherManager mgr, Scale scale, QueryClasses classes, long seed)
            throws Exception {
        int total = scale.searchQueries();
        AtomicInteger next = new AtomicInteger();
        AtomicLong done = new AtomicLong();
        LatencyLog lat = new LatencyLog();
        Probe probe = Probe.start("search");
        Clients pool = new Clients();
        try (Progress p = new Progress("search", done, total, null, null)) {
            pool.start("searcher", scale.clients(), (id, stop) -> {
                SplittableRandom rnd = new SplittableRandom(seed * 1000 + id);
                while (!stop.get() && next.getAndIncrement() < total) {
                    runOne(mgr, classes, rnd, lat);
                    done.incrementAndGet();
                }
            }).join();
        }
        Probe.Delta d = probe.end(done.get());
        return new PhaseResult("search", done.get(), d.seconds(), lat, d)
                .put("search_qps", d.seconds() > 0 ? done.get() / d.seconds() : 0.0)
                .put("clients", scale.clients());
    }

    /** One small query of a random class on the latest refreshed searcher. */
    private static void runOne(SearcherManager mgr, QueryClasses classes, SplittableRandom rnd, LatencyLog lat)
            throws IOException {
        QueryKind k = SEARCH_MIX[rnd.nextInt(SEARCH_MIX.length)];
        List<QueryClasses.TermStat> pool = classes.terms(k.frequency);
        String term = pool.get(rnd.nextInt(pool.size())).term();
        IndexSearcher s = mgr.acquire();
        try {
            long t0 = System.nanoTime();
            QueryExecutor.run(s, term, k.topN);
            lat.add(System.nanoTime() - t0);
        } finally {
            mgr.release(s);
        }
    }

    /** Searchers without a query cache: measure the index, not a result cache. */
    private static final class UncachedSearchers extends SearcherFactory {
        @Override
        public IndexSearcher newSearcher(IndexReader reader, IndexReader previous) {
            IndexSearcher s = new IndexSearcher(reader);
            s.setQueryCache(null);
            return s;
        }
    }

    /** Makes the built commit the latest again; the default policy then deletes the ingest files. */
    private static void restoreBase(Directory dir, IndexCommit base) throws IOException {
        IndexCommit target = null;
        for (IndexCommit c : DirectoryReader.listCommits(dir)) {
            if (c.getGeneration() == base.getGeneration()) target = c;
        }
        if (target == null) throw new IOException("base commit " + base.getSegmentsFileName() + " disappeared");
        IndexWriterConfig iwc = new IndexWriterConfig(IndexSchema.analyzer())
                .setOpenMode(IndexWriterConfig.OpenMode.APPEND)
                .setIndexCommit(target);
        try (IndexWriter w = new IndexWriter(dir, iwc)) {
            w.commit();
        }
        System.err.println("[ingest] index rolled back to the built commit " + target.getSegmentsFileName());
    }
}
