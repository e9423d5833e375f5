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

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;

/** Field layout shared by index build, queries and ingest. */
public final class IndexSchema {
    /** Searchable text; not stored, so search alone reads only postings and norms. */
    public static final String BODY = "body";
    /**
     * Stored copy of the text (like Elasticsearch's _source): loading a hit reads a
     * compressed stored-fields block from the index files, the per-hit I/O of top-k queries.
     */
    public static final String PAYLOAD = "payload";
    /** "base" for build-index documents, "ingest" for documents added by the ingest workload. */
    public static final String ORIGIN = "origin";
    public static final String ORIGIN_BASE = "base";
    public static final String ORIGIN_INGEST = "ingest";

    private IndexSchema() {}

    public static Analyzer analyzer() {
        return new StandardAnalyzer(); // lower-cases; no stop-word removal, like a real index
    }

    public static Document document(String text, String origin) {
        Document d = new Document();
        d.add(new TextField(BODY, text, Field.Store.NO));
        d.add(new StoredField(PAYLOAD, text));
        d.add(new StringField(ORIGIN, origin, Field.Store.NO));
        return d;
    }
}
