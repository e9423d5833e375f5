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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import org.flexheap.bench.util.Json;

/** The JSON file beside an index recording how it was built and what it holds. */
public final class Manifest {
    public static final String FILE = "flexheap-manifest.json";

    private Manifest() {}

    public static Path path(Path indexDir) { return indexDir.resolve(FILE); }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> read(Path indexDir) throws IOException {
        Path p = path(indexDir);
        if (!Files.isRegularFile(p)) return null;
        try {
            return (Map<String, Object>) Json.parse(Files.readString(p, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException | ClassCastException e) {
            return null; // corrupt manifest: treat as absent, forcing a rebuild
        }
    }

    /** Written via a temp file + rename so a crash never leaves a half manifest. */
    public static void write(Path indexDir, Map<String, Object> manifest) throws IOException {
        Path tmp = indexDir.resolve(FILE + ".tmp");
        Files.writeString(tmp, Json.write(manifest) + "\n", StandardCharsets.UTF_8);
        Files.move(tmp, path(indexDir), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> params(Map<String, Object> manifest) {
        return (Map<String, Object>) manifest.get("params");
    }

    @SuppressWarnings("unchecked")
    public static List<String> stopWords(Map<String, Object> manifest) {
        Object o = manifest.get("stop_word_list");
        return o == null ? List.of() : (List<String>) o;
    }

    public static long docs(Map<String, Object> manifest) {
        return ((Number) manifest.get("docs")).longValue();
    }
}
