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
import java.util.Collection;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.CollectorManager;
import org.apache.lucene.search.HitQueue;
import org.apache.lucene.search.LeafCollector;
import org.apache.lucene.search.Scorable;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopDocsCollector;

/**
 * Top-N by score with the result queue allocated up front: N sentinel ScoreDocs per
 * query, whatever the hit count. This is how Lucene's score collector behaved before
 * 10.x (and why Elasticsearch caps from+size): a top-500,000 query holds ~14 MB of
 * heap while it runs, the GC pressure of the paper's large queries. All hits are
 * scored and counted.
 */
final class PrefilledTopScoreCollector extends TopDocsCollector<ScoreDoc> {
    private ScoreDoc top;

    PrefilledTopScoreCollector(int numHits) {
        super(new HitQueue(numHits, true));
        top = pq.top();
    }

    @Override
    public ScoreMode scoreMode() {
        return ScoreMode.COMPLETE;
    }

    @Override
    public LeafCollector getLeafCollector(LeafReaderContext context) {
        int docBase = context.docBase;
        return new LeafCollector() {
            private Scorable scorer;

            @Override
            public void setScorer(Scorable s) {
                scorer = s;
            }

            @Override
            public void collect(int doc) throws IOException {
                float score = scorer.score();
                totalHits++;
                // Docs arrive in increasing order, so a tie never beats the current entry.
                if (score <= top.score) return;
                top.doc = docBase + doc;
                top.score = score;
                top = pq.updateTop();
            }
        };
    }

    /** One collector per slice; slices merge like Lucene's own manager. */
    static CollectorManager<PrefilledTopScoreCollector, TopDocs> manager(int numHits) {
        return new CollectorManager<>() {
            @Override
            public PrefilledTopScoreCollector newCollector() {
                return new PrefilledTopScoreCollector(numHits);
            }

            @Override
            public TopDocs reduce(Collection<PrefilledTopScoreCollector> collectors) {
                if (collectors.size() == 1) return collectors.iterator().next().topDocs();
                TopDocs[] parts = new TopDocs[collectors.size()];
                int i = 0;
                for (PrefilledTopScoreCollector c : collectors) parts[i++] = c.topDocs();
                return TopDocs.merge(numHits, parts);
            }
        };
    }
}
