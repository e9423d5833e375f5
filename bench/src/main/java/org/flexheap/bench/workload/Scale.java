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

import java.util.LinkedHashMap;
import java.util.Map;
import org.flexheap.bench.query.QueryKind;

/**
 * One factor F scales the paper's client and query counts (32 clients, 16+16 for
 * concurrent mixes, Table 2's query counts) down to this machine. Counts round to
 * the nearest integer with a floor (2 clients, 1 query) so every phase still runs.
 */
public record Scale(double factor, Integer clientOverride) {
    public static final double DEFAULT_FACTOR = 0.125; // 1/8: 32 -> 4 clients, 16+16 -> 2+2
    public static final int PAPER_CLIENTS = 32;
    /** Ingest workload (ours, not in the paper's Lucene table): documents added at F = 1. */
    public static final long PAPER_EQUIV_INGEST_DOCS = 4_000_000;
    /** Search-only phase after ingestion, queries at F = 1 (like H50's count). */
    public static final int PAPER_EQUIV_SEARCH_QUERIES = 40_000;

    public Scale {
        if (!(factor > 0)) throw new IllegalArgumentException("scale must be > 0");
        if (clientOverride != null && clientOverride < 2) throw new IllegalArgumentException("clients must be >= 2");
    }

    public int clients() {
        return clientOverride != null ? clientOverride : Math.max(2, (int) Math.round(PAPER_CLIENTS * factor));
    }

    /** Concurrent mixes split clients half small-query, half large-query, like the paper's 16+16. */
    public int smallClients() { return Math.max(1, clients() / 2); }

    public int largeClients() { return Math.max(1, clients() - smallClients()); }

    public int queries(QueryKind k) { return scaled(k.paperQueries); }

    public long ingestDocs() { return Math.max(1, Math.round(PAPER_EQUIV_INGEST_DOCS * factor)); }

    public int searchQueries() { return scaled(PAPER_EQUIV_SEARCH_QUERIES); }

    private int scaled(long n) { return (int) Math.max(1, Math.round(n * factor)); }

    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("scale", factor);
        m.put("clients", clients());
        m.put("concurrent_small_clients", smallClients());
        m.put("concurrent_large_clients", largeClients());
        for (QueryKind k : QueryKind.values()) m.put(k.name(), queries(k));
        m.put("ingest_docs", ingestDocs());
        m.put("search_after_ingest_queries", searchQueries());
        return m;
    }
}
