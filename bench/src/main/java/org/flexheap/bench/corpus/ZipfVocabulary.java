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

/**
 * Word-frequency law shaped like the paper's Fig. 6 (top 1% of words carry ~80% of
 * occurrences, the bottom 91% carry ~1%). A single Zipf exponent cannot give both
 * (s=1.1 gets the head right but leaves ~9% in the tail), so, as observed for real
 * corpora, the law has two regimes: exponent {@code headExponent} up to the top 1%
 * of ranks and a steeper {@code tailExponent} after it, continuous at the break.
 */
public final class ZipfVocabulary {
    public static final double HEAD_FRACTION = 0.01;
    public static final double LOW_FRACTION = 0.91;

    private final int size;
    private final double headExponent;
    private final double tailExponent;
    private final int stopWords;
    private final double[] probabilities;
    private final String[] words;
    private final AliasSampler sampler;

    public ZipfVocabulary(int size, double headExponent, double tailExponent, int stopWords) {
        if (size < 200) throw new IllegalArgumentException("vocabulary must have at least 200 words");
        this.size = size;
        this.headExponent = headExponent;
        this.tailExponent = tailExponent;
        this.stopWords = stopWords;
        this.probabilities = weights(size, headExponent, tailExponent);
        this.sampler = new AliasSampler(probabilities);
        this.words = new String[size];
        for (int r = 0; r < size; r++) words[r] = PseudoWords.word(r);
    }

    private static double[] weights(int size, double s1, double s2) {
        int brk = Math.max(1, (int) Math.round(size * HEAD_FRACTION));
        double[] w = new double[size];
        double atBreak = Math.pow(brk, -s1);
        double sum = 0;
        for (int i = 0; i < size; i++) {
            int r = i + 1;
            w[i] = r <= brk ? Math.pow(r, -s1) : atBreak * Math.pow((double) r / brk, -s2);
            sum += w[i];
        }
        for (int i = 0; i < size; i++) w[i] /= sum;
        return w;
    }

    public int size() { return size; }
    public double headExponent() { return headExponent; }
    public double tailExponent() { return tailExponent; }
    public int stopWordCount() { return stopWords; }
    public String word(int rank) { return words[rank]; }
    public double probability(int rank) { return probabilities[rank]; }
    public boolean isStopWord(int rank) { return rank < stopWords; }

    /** Draws a rank. */
    public int sampleRank(SplittableRandom rnd) { return sampler.sample(rnd); }

    /** Share of all occurrences carried by the most frequent {@code fraction} of ranks. */
    public double topShare(double fraction) {
        int n = (int) Math.round(size * fraction);
        double s = 0;
        for (int i = 0; i < n; i++) s += probabilities[i];
        return s;
    }

    /** Share of all occurrences carried by the least frequent {@code fraction} of ranks. */
    public double bottomShare(double fraction) {
        int from = size - (int) Math.round(size * fraction);
        double s = 0;
        for (int i = from; i < size; i++) s += probabilities[i];
        return s;
    }
}
