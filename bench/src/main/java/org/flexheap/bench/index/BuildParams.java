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

import java.util.LinkedHashMap;
import java.util.Map;

/** Everything that determines an index's content; equal params mean a reusable index. */
public record BuildParams(long sizeMb, long seed, int vocab, double headExponent, double tailExponent,
                          int stopWords, int docWords, int segments, String corpus) {

    public static final int FORMAT = 1;
    public static final long DEFAULT_SEED = 42;
    public static final int DEFAULT_VOCAB = 200_000;
    /** Head/tail exponents giving Fig. 6's shape for the default vocabulary (see ZipfVocabularyTest). */
    public static final double DEFAULT_HEAD_EXPONENT = 0.7;
    public static final double DEFAULT_TAIL_EXPONENT = 2.35;
    public static final int DEFAULT_STOP_WORDS = 20;
    public static final int DEFAULT_DOC_WORDS = 300;
    public static final int DEFAULT_SEGMENTS = 1;

    public boolean synthetic() { return corpus == null; }

    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("format", FORMAT);
        m.put("size_mb", sizeMb);
        m.put("corpus", synthetic() ? "zipf" : corpus);
        m.put("seed", seed);
        m.put("vocab", vocab);
        m.put("head_exponent", headExponent);
        m.put("tail_exponent", tailExponent);
        m.put("stop_words", stopWords);
        m.put("doc_words", docWords);
        m.put("segments", segments);
        m.put("lucene", org.apache.lucene.util.Version.LATEST.toString());
        return m;
    }
}
