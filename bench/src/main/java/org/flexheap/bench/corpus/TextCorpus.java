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

package org.flexheap.bench.corpus;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A plain-text corpus (one file, or every regular file under a folder in name
 * order) cut into documents of a fixed number of whitespace-separated words.
 */
public final class TextCorpus implements DocumentStream {
    private final Iterator<Path> files;
    private final int wordsPerDoc;
    private final long maxDocs;
    private BufferedReader reader;
    private String[] pending = new String[0];
    private int pendingPos;
    private long produced;

    public TextCorpus(Path path, int wordsPerDoc, long maxDocs) {
        this.files = listFiles(path).iterator();
        this.wordsPerDoc = wordsPerDoc;
        this.maxDocs = maxDocs;
    }

    public static List<Path> listFiles(Path path) {
        if (Files.isRegularFile(path)) return List.of(path);
        try (Stream<Path> s = Files.walk(path)) {
            List<Path> out = new ArrayList<>(s.filter(Files::isRegularFile).sorted().toList());
            if (out.isEmpty()) throw new IllegalArgumentException("no files under " + path);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public synchronized String next() {
        if (produced >= maxDocs) return null;
        StringBuilder sb = new StringBuilder(wordsPerDoc * 7);
        int n = 0;
        while (n < wordsPerDoc) {
            String w = nextWord();
            if (w == null) break;
            if (n++ > 0) sb.append(' ');
            sb.append(w);
        }
        if (n == 0) return null;
        produced++;
        return sb.toString();
    }

    private String nextWord() {
        try {
            while (pendingPos >= pending.length) {
                String line = reader == null ? null : reader.readLine();
                if (line == null) {
                    if (reader != null) reader.close();
                    reader = null;
                    if (!files.hasNext()) return null;
                    // InputStreamReader replaces malformed bytes instead of failing on them.
                    reader = new BufferedReader(new InputStreamReader(
                            Files.newInputStream(files.next()), StandardCharsets.UTF_8));
                    continue;
                }
                String t = line.strip();
                pending = t.isEmpty() ? new String[0] : t.split("\\s+");
                pendingPos = 0;
            }
            return pending[pendingPos++];
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public synchronized void close() {
        try {
            if (reader != null) reader.close();
        } catch (IOException ignored) {
            // read-only; nothing to recover
        }
    }
}
