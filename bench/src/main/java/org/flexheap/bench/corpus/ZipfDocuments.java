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

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Seeded synthetic documents. Document {@code i} depends only on (seed, i), so the
 * corpus is identical however many threads index it and in whatever order.
 */
public final class ZipfDocuments {
    private final ZipfVocabulary vocabulary;
    private final long seed;
    private final int meanWords;

    public ZipfDocuments(ZipfVocabulary vocabulary, long seed, int meanWords) {
        if (meanWords < 2) throw new IllegalArgumentException("doc-words must be >= 2");
        this.vocabulary = vocabulary;
        this.seed = seed;
        this.meanWords = meanWords;
    }

    public ZipfVocabulary vocabulary() { return vocabulary; }

    /** Length varies uniformly in [W/2, 3W/2] so BM25 length normalisation matters. */
    public String document(long i) {
        SplittableRandom rnd = new SplittableRandom(mix(seed, i));
        int len = meanWords / 2 + rnd.nextInt(meanWords + 1);
        StringBuilder sb = new StringBuilder(len * 7);
        for (int w = 0; w < len; w++) {
            if (w > 0) sb.append(' ');
            sb.append(vocabulary.word(vocabulary.sampleRank(rnd)));
        }
        return sb.toString();
    }

    /** Documents {@code from, from+1, ...} up to (excluding) {@code to}. */
    public DocumentStream stream(long from, long to) {
        AtomicLong next = new AtomicLong(from);
        return () -> {
            long i = next.getAndIncrement();
            return i < to ? document(i) : null;
        };
    }

    private static long mix(long seed, long i) {
        long z = seed * 0x9E3779B97F4A7C15L + i;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
