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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.flexheap.bench.TestIndexes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IndexBuildTest {
    @TempDir
    Path tmp;

    @Test
    void manifestMakesBuildIdempotent() throws Exception {
        Path dir = tmp.resolve("idx");
        Map<String, Object> first = TestIndexes.build(dir, TestIndexes.small(1));
        assertEquals(false, first.get("reused"));
        long docs = ((Number) first.get("docs")).longValue();
        assertTrue(docs > 1000, "docs " + docs);
        long bytes = ((Number) first.get("index_bytes")).longValue();
        assertTrue(bytes > 1_500_000 && bytes < 6_000_000, "roughly 3 MB, got " + bytes);
        String segmentsFile = latestSegments(dir);

        Map<String, Object> second = TestIndexes.build(dir, TestIndexes.small(1));
        assertEquals(true, second.get("reused"));
        assertEquals(segmentsFile, latestSegments(dir), "a reused index is not rewritten");
        assertEquals(first.get("docs"), second.get("docs"));

        Map<String, Object> other = TestIndexes.build(dir, TestIndexes.small(2));
        assertEquals(false, other.get("reused"), "different parameters rebuild");
        assertEquals(2L, ((Number) Manifest.params(Manifest.read(dir)).get("seed")).longValue());
        try (Directory d = FSDirectory.open(dir); DirectoryReader r = DirectoryReader.open(d)) {
            assertEquals(((Number) other.get("docs")).longValue(), r.maxDoc());
            assertTrue(r.leaves().size() <= 2, "force-merged to --segments");
        }
    }

    @Test
    void missingOrStaleManifestRebuilds() throws Exception {
        Path dir = tmp.resolve("idx2");
        TestIndexes.build(dir, TestIndexes.small(3));
        Files.delete(Manifest.path(dir));
        assertEquals(false, TestIndexes.build(dir, TestIndexes.small(3)).get("reused"));
        Files.writeString(Manifest.path(dir), "{not json");
        assertEquals(false, TestIndexes.build(dir, TestIndexes.small(3)).get("reused"));
        assertFalse(Files.exists(dir.resolve(Manifest.FILE + ".tmp")));
        assertNotEquals(null, Manifest.read(dir));
    }

    private static String latestSegments(Path dir) throws Exception {
        try (Directory d = FSDirectory.open(dir)) {
            return SegmentInfos.readLatestCommit(d).getSegmentsFileName();
        }
    }
}
