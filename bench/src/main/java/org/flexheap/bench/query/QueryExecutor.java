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

import java.io.IOException;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopScoreDocCollectorManager;
import org.apache.lucene.index.StoredFields;
import org.flexheap.bench.index.IndexSchema;

/**
 * Runs one single-term query. Hits are counted exactly (like Elasticsearch's
 * track_total_hits=true), so a frequent term reads its whole postings list: this is
 * what makes high-frequency queries I/O heavy. Small queries then load the stored
 * payload of their hits (a result page); large ones keep up to 500,000 hits on the
 * heap in a pre-allocated queue (see {@link PrefilledTopScoreCollector}) and load nothing.
 */
public final class QueryExecutor {

    /** What a query returned; {@code bytesLoaded} keeps stored-field reads from being optimised away. */
    public record Result(long totalHits, int returned, long bytesLoaded) {}

    private QueryExecutor() {}

    public static Result run(IndexSearcher searcher, String term, int topN) throws IOException {
        TermQuery q = new TermQuery(new Term(IndexSchema.BODY, term));
        // Like IndexSearcher.search(query, n): never ask for more hits than documents.
        int n = Math.max(1, Math.min(topN, searcher.getIndexReader().maxDoc()));
        TopDocs top = topN <= QueryKind.PAGE
                ? searcher.search(q, new TopScoreDocCollectorManager(n, Integer.MAX_VALUE))
                : searcher.search(q, PrefilledTopScoreCollector.manager(n));
        long loaded = 0;
        if (topN <= QueryKind.PAGE) {
            StoredFields fields = searcher.storedFields();
            for (ScoreDoc sd : top.scoreDocs) {
                String payload = fields.document(sd.doc).get(IndexSchema.PAYLOAD);
                if (payload == null) throw new IOException("hit " + sd.doc + " has no stored payload");
                loaded += payload.length();
            }
        }
        return new Result(top.totalHits.value(), top.scoreDocs.length, loaded);
    }
}
