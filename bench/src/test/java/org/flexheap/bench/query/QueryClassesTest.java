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

package org.flexheap.bench.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.flexheap.bench.TestIndexes;
import org.flexheap.bench.index.IndexSchema;
import org.flexheap.bench.index.Manifest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueryClassesTest {
    @TempDir
    static Path tmp;
    static Path index;

    @BeforeAll
    static void build() throws Exception {
        index = tmp.resolve("idx");
        TestIndexes.build(index, TestIndexes.small(11));
    }

    @Test
    void classesAreDisjointOrderedAndExcludeStopWords() throws Exception {
        List<String> stops = Manifest.stopWords(Manifest.read(index));
        assertEquals(20, stops.size());
        try (Directory d = FSDirectory.open(index); DirectoryReader r = DirectoryReader.open(d)) {
            QueryClasses c = QueryClasses.fromIndex(r, stops);
            List<QueryClasses.TermStat> high = c.terms(FrequencyClass.HIGH);
            List<QueryClasses.TermStat> med = c.terms(FrequencyClass.MEDIUM);
            List<QueryClasses.TermStat> low = c.terms(FrequencyClass.LOW);
            assertFalse(high.isEmpty() || med.isEmpty() || low.isEmpty());
            int n = high.size() + med.size() + low.size();
            assertEquals(Math.ceil(n * 0.01), high.size(), 1.0);
            assertEquals(Math.floor(n * 0.91), low.size(), 1.0);

            Set<String> seen = new HashSet<>();
            for (List<QueryClasses.TermStat> l : List.of(high, med, low)) {
                for (QueryClasses.TermStat t : l) {
                    assertTrue(seen.add(t.term()), "term in two classes: " + t.term());
                    assertFalse(stops.contains(t.term()), "stop word classified: " + t.term());
                    assertTrue(t.term().length() >= 2);
                }
            }
            assertTrue(min(high) >= max(med), "high docFreq >= medium docFreq");
            assertTrue(min(med) >= max(low), "medium docFreq >= low docFreq");
            assertTrue(min(high) > max(low));
            assertEquals(c.sample(FrequencyClass.MEDIUM, 100, 5), c.sample(FrequencyClass.MEDIUM, 100, 5));
        }
    }

    @Test
    void smallQueriesLoadStoredPayloadOfTheirHits() throws Exception {
        try (Directory d = FSDirectory.open(index); DirectoryReader r = DirectoryReader.open(d)) {
            QueryClasses c = QueryClasses.fromIndex(r, Manifest.stopWords(Manifest.read(index)));
            String term = c.terms(FrequencyClass.HIGH).get(0).term();
            QueryExecutor.Result res = QueryExecutor.run(new IndexSearcher(r), term, 50);
            assertEquals(50, res.returned());
            assertEquals(c.terms(FrequencyClass.HIGH).get(0).docFreq(), res.totalHits(), "hits counted exactly");
            assertTrue(res.bytesLoaded() > 50 * 10, "stored payloads were read");
        }
    }

    @Test
    void top500kReturnsMinOf500kAndHits() throws Exception {
        try (Directory d = new ByteBuffersDirectory()) {
            int docs = 500_010;
            try (IndexWriter w = new IndexWriter(d, new IndexWriterConfig(IndexSchema.analyzer()).setRAMBufferSizeMB(64))) {
                for (int i = 0; i < docs; i++) {
                    Document doc = new Document();
                    doc.add(new TextField(IndexSchema.BODY, i % 1000 == 0 ? "common rare" : "common", Field.Store.NO));
                    w.addDocument(doc);
                }
            }
            try (DirectoryReader r = DirectoryReader.open(d)) {
                IndexSearcher s = new IndexSearcher(r);
                QueryExecutor.Result common = QueryExecutor.run(s, "common", 500_000);
                assertEquals(500_000, common.returned());
                assertEquals(docs, common.totalHits());
                QueryExecutor.Result rare = QueryExecutor.run(s, "rare", 500_000);
                assertEquals(501, rare.returned());
                assertEquals(0, rare.bytesLoaded(), "large queries load no stored fields");
            }
        }
    }

    private static int min(List<QueryClasses.TermStat> l) {
        return l.stream().mapToInt(QueryClasses.TermStat::docFreq).min().orElseThrow();
    }

    private static int max(List<QueryClasses.TermStat> l) {
        return l.stream().mapToInt(QueryClasses.TermStat::docFreq).max().orElseThrow();
    }
}
