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
import java.util.Map;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.flexheap.bench.index.IndexDirectories;
import org.flexheap.bench.index.Manifest;
import org.flexheap.bench.query.QueryClasses;

/** An opened, verified index: reader, searcher and the query classes derived from it. */
public final class SearchContext implements AutoCloseable {
    final Path indexDir;
    final Map<String, Object> manifest;
    final Directory dir;
    final DirectoryReader reader;
    final IndexSearcher searcher;
    final QueryClasses classes;

    private SearchContext(Path indexDir, Map<String, Object> manifest, QueryClasses classes) throws IOException {
        this.indexDir = indexDir;
        this.manifest = manifest;
        this.dir = IndexDirectories.openForSearch(indexDir);
        this.reader = DirectoryReader.open(dir);
        if (reader.maxDoc() != Manifest.docs(manifest)) {
            close();
            throw new IllegalStateException("index at " + indexDir + " holds " + reader.maxDoc()
                    + " docs but its manifest says " + Manifest.docs(manifest)
                    + " (interrupted ingest run?); rerun build-index");
        }
        this.searcher = new IndexSearcher(reader);
        this.searcher.setQueryCache(null); // measure the index, not a result cache
        this.classes = classes != null ? classes : QueryClasses.fromIndex(reader, Manifest.stopWords(manifest));
    }

    public static Map<String, Object> requireManifest(Path indexDir) throws IOException {
        Map<String, Object> m = Manifest.read(indexDir);
        if (m == null) throw new IllegalStateException("no index manifest in " + indexDir + "; run build-index first");
        return m;
    }

    public static SearchContext open(Path indexDir) throws IOException {
        return new SearchContext(indexDir, requireManifest(indexDir), null);
    }

    /** Reopens the index reusing already computed classes (after evicting the page cache). */
    static SearchContext reopen(Path indexDir, Map<String, Object> manifest, QueryClasses classes) throws IOException {
        return new SearchContext(indexDir, manifest, classes);
    }

    public QueryClasses classes() { return classes; }

    @Override
    public void close() throws IOException {
        if (reader != null) reader.close();
        dir.close();
    }
}
