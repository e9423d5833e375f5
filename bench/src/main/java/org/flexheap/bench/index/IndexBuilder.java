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

package org.flexheap.bench.index;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.flexheap.bench.corpus.DocumentStream;
import org.flexheap.bench.corpus.TextCorpus;
import org.flexheap.bench.corpus.ZipfDocuments;
import org.flexheap.bench.corpus.ZipfVocabulary;
import org.flexheap.bench.query.StopWords;
import org.flexheap.bench.util.Json;

/**
 * Builds (or reuses) an index of roughly the requested size. The document count is
 * chosen by indexing a calibration sample in memory and extrapolating bytes/doc.
 */
public final class IndexBuilder {
    private static final int CALIBRATION_DOCS = 10_000;

    private final BuildParams params;
    private final Path indexDir;
    private final int threads;

    public IndexBuilder(BuildParams params, Path indexDir) {
        this(params, indexDir, Runtime.getRuntime().availableProcessors());
    }

    public IndexBuilder(BuildParams params, Path indexDir, int threads) {
        this.params = params;
        this.indexDir = indexDir;
        this.threads = Math.max(1, threads);
    }

    /** Returns the manifest; "reused" tells whether an existing index matched. */
    public Map<String, Object> buildOrReuse() throws IOException {
        Map<String, Object> existing = reusableManifest();
        if (existing != null) {
            Map<String, Object> m = new LinkedHashMap<>(existing);
            m.put("reused", true);
            log("index at " + indexDir + " matches its manifest; reusing it");
            return m;
        }
        return build();
    }

    /** A manifest whose params equal ours and whose index holds exactly its recorded docs. */
    Map<String, Object> reusableManifest() throws IOException {
        Map<String, Object> m = Manifest.read(indexDir);
        if (m == null || Manifest.params(m) == null) return null;
        if (!Json.write(Manifest.params(m)).equals(Json.write(params.toMap()))) {
            log("manifest parameters differ; rebuilding");
            return null;
        }
        try (Directory dir = FSDirectory.open(indexDir);
             DirectoryReader r = DirectoryReader.open(dir)) {
            if (r.maxDoc() != Manifest.docs(m) || r.numDocs() != r.maxDoc()) {
                log("index holds " + r.maxDoc() + " docs, manifest says " + Manifest.docs(m) + "; rebuilding");
                return null;
            }
        } catch (IOException e) {
            log("index unreadable (" + e.getMessage() + "); rebuilding");
            return null;
        }
        return m;
    }

    private Map<String, Object> build() throws IOException {
        Files.createDirectories(indexDir);
        Files.deleteIfExists(Manifest.path(indexDir)); // a crashed build must never look reusable
        ZipfVocabulary vocab = params.synthetic()
                ? new ZipfVocabulary(params.vocab(), params.headExponent(), params.tailExponent(), params.stopWords())
                : null;
        ZipfDocuments zipf = vocab == null ? null : new ZipfDocuments(vocab, params.seed(), params.docWords());

        double bytesPerDoc = calibrate(() -> open(zipf, 0, CALIBRATION_DOCS));
        long targetBytes = params.sizeMb() * 1024L * 1024L;
        long docs = Math.max(1, Math.round(targetBytes / bytesPerDoc));
        log(String.format("calibration: %.0f bytes/doc -> %,d docs for %,d MB", bytesPerDoc, docs, params.sizeMb()));

        long t0 = System.nanoTime();
        long added;
        long indexNanos;
        try (Directory dir = FSDirectory.open(indexDir);
             IndexWriter w = new IndexWriter(dir, writerConfig().setOpenMode(IndexWriterConfig.OpenMode.CREATE));
             DocumentStream stream = open(zipf, 0, docs)) {
            added = addAll(w, stream, docs);
            w.commit();
            indexNanos = System.nanoTime() - t0;
            log("force-merging to " + params.segments() + " segment(s)");
            w.forceMerge(params.segments());
            w.setLiveCommitData(Map.of("flexheap.docs", Long.toString(added)).entrySet());
            w.commit();
        }
        double buildSeconds = (System.nanoTime() - t0) / 1e9;
        long bytes = committedBytes(indexDir);
        int segments;
        try (Directory dir = FSDirectory.open(indexDir)) {
            segments = SegmentInfos.readLatestCommit(dir).size();
        }

        Map<String, Object> m = new LinkedHashMap<>();
        m.put("params", params.toMap());
        m.put("docs", added);
        m.put("index_bytes", bytes);
        m.put("segments", segments);
        m.put("calibration_bytes_per_doc", Math.round(bytesPerDoc));
        m.put("index_s", indexNanos / 1e9);
        m.put("build_s", buildSeconds);
        m.put("docs_per_s", added / (indexNanos / 1e9));
        m.put("mb_per_s", bytes / 1048576.0 / buildSeconds);
        m.put("threads", threads);
        m.put("stop_word_list", stopWordList(vocab));
        if (vocab != null) {
            m.put("vocab_top1pct_share", vocab.topShare(ZipfVocabulary.HEAD_FRACTION));
            m.put("vocab_bottom91pct_share", vocab.bottomShare(ZipfVocabulary.LOW_FRACTION));
        }
        m.put("created", Instant.now().toString());
        Manifest.write(indexDir, m);
        Map<String, Object> out = new LinkedHashMap<>(m);
        out.put("reused", false);
        return out;
    }

    private List<String> stopWordList(ZipfVocabulary vocab) {
        if (vocab == null) return List.copyOf(StopWords.ENGLISH);
        List<String> l = new ArrayList<>();
        for (int r = 0; r < vocab.stopWordCount(); r++) l.add(vocab.word(r));
        return l;
    }

    private DocumentStream open(ZipfDocuments zipf, long from, long to) {
        if (zipf != null) return zipf.stream(from, to);
        return new TextCorpus(Path.of(params.corpus()), params.docWords(), to - from);
    }

    private IndexWriterConfig writerConfig() {
        // Large flush buffer = fewer, larger segments, less merge work; bounded by the heap.
        double ramMb = Math.max(16, Math.min(256, Runtime.getRuntime().maxMemory() / 1048576.0 / 4));
        return new IndexWriterConfig(IndexSchema.analyzer()).setRAMBufferSizeMB(ramMb);
    }

    private double calibrate(Supplier<DocumentStream> sample) throws IOException {
        try (Directory dir = new ByteBuffersDirectory();
             IndexWriter w = new IndexWriter(dir, writerConfig());
             DocumentStream stream = sample.get()) {
            long n = addAll(w, stream, CALIBRATION_DOCS);
            w.forceMerge(1);
            w.commit();
            long bytes = 0;
            for (String f : dir.listAll()) bytes += dir.fileLength(f);
            if (n == 0) throw new IllegalArgumentException("corpus produced no documents");
            return (double) bytes / n;
        }
    }

    private long addAll(IndexWriter w, DocumentStream stream, long expected) throws IOException {
        AtomicLong count = new AtomicLong();
        long t0 = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            futures.add(pool.submit(() -> {
                String text;
                while ((text = stream.next()) != null) {
                    w.addDocument(IndexSchema.document(text, IndexSchema.ORIGIN_BASE));
                    long c = count.incrementAndGet();
                    if (c % 100_000 == 0 && expected > 200_000) {
                        double s = (System.nanoTime() - t0) / 1e9;
                        log(String.format("indexed %,d / %,d docs (%.0f docs/s)", c, expected, c / s));
                    }
                }
                return null;
            }));
        }
        pool.shutdown();
        try {
            for (Future<?> f : futures) f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof IOException io) throw io;
            if (c instanceof RuntimeException re) throw re;
            throw new IOException(c);
        }
        return count.get();
    }

    /** Bytes of the files referenced by the latest commit (ignores stray files). */
    public static long committedBytes(Path indexDir) throws IOException {
        try (Directory dir = FSDirectory.open(indexDir)) {
            long bytes = 0;
            for (String f : SegmentInfos.readLatestCommit(dir).files(true)) bytes += dir.fileLength(f);
            return bytes;
        }
    }

    private static void log(String msg) {
        System.err.println("[build-index] " + msg);
    }
}
