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

/**
 * Maps a vocabulary rank to a unique English-looking pseudo-word built from
 * consonant-vowel syllables. Frequent (low) ranks get short words, as in real text.
 */
public final class PseudoWords {
    private static final String CONSONANTS = "bcdfghjklmnprstvwz";
    private static final String VOWELS = "aeiou";
    private static final String[] SYLLABLES = buildSyllables();

    private PseudoWords() {}

    private static String[] buildSyllables() {
        String[] s = new String[CONSONANTS.length() * VOWELS.length()];
        int i = 0;
        for (char c : CONSONANTS.toCharArray()) {
            for (char v : VOWELS.toCharArray()) {
                s[i++] = "" + c + v;
            }
        }
        return s;
    }

    /**
     * Bijective base-k numeration over fixed-width syllables: every rank yields a
     * distinct syllable sequence, and fixed-width syllables parse uniquely, so words
     * are distinct. Every word has at least two letters.
     */
    public static String word(long rank) {
        if (rank < 0) throw new IllegalArgumentException("rank < 0");
        int k = SYLLABLES.length;
        StringBuilder sb = new StringBuilder(8);
        long n = rank + 1;
        while (n > 0) {
            n--;
            sb.insert(0, SYLLABLES[(int) (n % k)]);
            n /= k;
        }
        return sb.toString();
    }
}
