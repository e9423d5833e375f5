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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.flexheap.bench.index.BuildParams;
import org.junit.jupiter.api.Test;

class ZipfVocabularyTest {
    private static final ZipfVocabulary DEFAULT = new ZipfVocabulary(BuildParams.DEFAULT_VOCAB,
            BuildParams.DEFAULT_HEAD_EXPONENT, BuildParams.DEFAULT_TAIL_EXPONENT, BuildParams.DEFAULT_STOP_WORDS);

    @Test
    void defaultLawHasFig6Shape() {
        // Paper Fig. 6: top 1% of words = 80% of occurrences, bottom 91% = 1%.
        double top = DEFAULT.topShare(0.01);
        double bottom = DEFAULT.bottomShare(0.91);
        assertTrue(Math.abs(top - 0.80) <= 0.02, "top-1% share " + top);
        assertTrue(Math.abs(bottom - 0.01) <= 0.002, "bottom-91% share " + bottom);
    }

    @Test
    void sampledWordsReproduceTheShape() {
        SplittableRandom rnd = new SplittableRandom(7);
        int n = 2_000_000;
        int topLimit = (int) Math.round(DEFAULT.size() * 0.01);
        int bottomFrom = DEFAULT.size() - (int) Math.round(DEFAULT.size() * 0.91);
        long top = 0, bottom = 0;
        for (int i = 0; i < n; i++) {
            int r = DEFAULT.sampleRank(rnd);
            if (r < topLimit) top++;
            if (r >= bottomFrom) bottom++;
        }
        assertEquals(DEFAULT.topShare(0.01), (double) top / n, 0.005);
        assertEquals(DEFAULT.bottomShare(0.91), (double) bottom / n, 0.001);
    }

    @Test
    void documentsAreDeterministicPerSeed() {
        ZipfVocabulary v = new ZipfVocabulary(5_000, 0.7, 2.35, 10);
        ZipfDocuments a = new ZipfDocuments(v, 42, 50);
        ZipfDocuments b = new ZipfDocuments(v, 42, 50);
        ZipfDocuments c = new ZipfDocuments(v, 43, 50);
        for (long i = 0; i < 100; i++) assertEquals(a.document(i), b.document(i));
        assertNotEquals(a.document(3), c.document(3));
        assertNotEquals(a.document(3), a.document(4));
    }

    @Test
    void pseudoWordsAreUniqueAndNeverSingleCharacter() {
        Set<String> seen = new HashSet<>();
        for (int r = 0; r < 300_000; r++) {
            String w = PseudoWords.word(r);
            assertTrue(w.length() >= 2 && w.chars().allMatch(ch -> ch >= 'a' && ch <= 'z'), w);
            assertTrue(seen.add(w), "duplicate word " + w + " at rank " + r);
        }
    }
}
