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
import java.nio.file.Path;
import java.util.Optional;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.store.ReadAdvice;

/**
 * Opens an index for searching: FSDirectory.open (MMapDirectory on 64-bit Linux).
 * Stored fields are read at random, one small block per hit, but Lucene maps them
 * with NORMAL advice, so each cold hit page-faults the device's whole read-ahead
 * window (8 MB per hit on this VM's virtio disk instead of ~16 KB). We advise RANDOM
 * for them so I/O per query reflects the data a query needs. Set
 * {@code -Dflexheap.readAdvice=lucene} to keep Lucene's choice, or {@code random}
 * for every file.
 */
public final class IndexDirectories {
    public static final String PROPERTY = "flexheap.readAdvice";

    private IndexDirectories() {}

    public static String mode() {
        return System.getProperty(PROPERTY, "stored-random");
    }

    public static Directory openForSearch(Path indexDir) throws IOException {
        Directory d = FSDirectory.open(indexDir);
        if (d instanceof MMapDirectory m) {
            switch (mode()) {
                case "lucene" -> { }
                case "random" -> m.setReadAdvice((name, ctx) -> Optional.of(ReadAdvice.RANDOM));
                case "stored-random" -> m.setReadAdvice((name, ctx) ->
                        name.endsWith(".fdt") ? Optional.of(ReadAdvice.RANDOM) : Optional.empty());
                default -> throw new IllegalArgumentException(
                        "-D" + PROPERTY + " must be lucene, stored-random or random");
            }
        }
        return d;
    }
}
