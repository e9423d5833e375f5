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

package org.flexheap.bench.query;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.util.BytesRef;
import org.flexheap.bench.index.IndexSchema;

/**
 * Splits the index's own terms into the paper's classes by document frequency:
 * high = top 1%, low = bottom 91%, medium = the rest, after removing what the
 * paper removes (stop words, single-character and non-alphabetic words).
 */
public final class QueryClasses {
    public static final double HIGH_FRACTION = 0.01;
    public static final double LOW_FRACTION = 0.91;

    public record TermStat(String term, int docFreq, long totalTermFreq) {}

    private final List<TermStat> high;
    private final List<TermStat> medium;
    private final List<TermStat> low;
    private final long excluded;

    private QueryClasses(List<TermStat> sorted, long excluded) {
        int n = sorted.size();
        int nHigh = (int) Math.ceil(n * HIGH_FRACTION);
        int nLow = (int) Math.floor(n * LOW_FRACTION);
        if (nHigh + nLow > n) nLow = n - nHigh;
        this.high = List.copyOf(sorted.subList(0, nHigh));
        this.medium = List.copyOf(sorted.subList(nHigh, n - nLow));
        this.low = List.copyOf(sorted.subList(n - nLow, n));
        this.excluded = excluded;
    }

    public static QueryClasses fromIndex(IndexReader reader, Collection<String> stopWords) throws IOException {
        Terms terms = MultiTerms.getTerms(reader, IndexSchema.BODY);
        List<TermStat> all = new ArrayList<>();
        long excluded = 0;
        if (terms != null) {
            TermsEnum te = terms.iterator();
            BytesRef b;
            java.util.Set<String> stops = new java.util.HashSet<>(stopWords);
            while ((b = te.next()) != null) {
                String t = b.utf8ToString();
                if (t.length() < 2 || !isAlphabetic(t) || stops.contains(t)) {
                    excluded++;
                    continue;
                }
                all.add(new TermStat(t, te.docFreq(), te.totalTermFreq()));
            }
        }
        if (all.size() < 3) throw new IllegalStateException("index has too few distinct terms to classify");
        // Descending doc freq; ties by term so the split is deterministic.
        all.sort(Comparator.comparingInt(TermStat::docFreq).reversed().thenComparing(TermStat::term));
        return new QueryClasses(all, excluded);
    }

    private static boolean isAlphabetic(String t) {
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c < 'a' || c > 'z') return false; // "English-like": plain a-z after lower-casing
        }
        return true;
    }

    public List<TermStat> terms(FrequencyClass c) {
        return switch (c) {
            case HIGH -> high;
            case MEDIUM -> medium;
            case LOW -> low;
        };
    }

    /** Seeded uniform draws from a class (a term may repeat, as in a real query log). */
    public List<String> sample(FrequencyClass c, int count, long seed) {
        List<TermStat> pool = terms(c);
        if (pool.isEmpty()) throw new IllegalStateException("class " + c + " is empty");
        SplittableRandom rnd = new SplittableRandom(seed ^ (0x5DEECE66DL * (c.ordinal() + 1)));
        List<String> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) out.add(pool.get(rnd.nextInt(pool.size())).term());
        return out;
    }

    /** Per class: term count, doc-freq range and share of all occurrences (the Fig. 6 shape). */
    public Map<String, Object> describe() {
        long total = 0;
        for (FrequencyClass c : FrequencyClass.values()) for (TermStat t : terms(c)) total += t.totalTermFreq();
        Map<String, Object> m = new LinkedHashMap<>();
        for (FrequencyClass c : FrequencyClass.values()) {
            List<TermStat> l = terms(c);
            long occ = 0;
            for (TermStat t : l) occ += t.totalTermFreq();
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("terms", l.size());
            d.put("max_doc_freq", l.isEmpty() ? 0 : l.get(0).docFreq());
            d.put("min_doc_freq", l.isEmpty() ? 0 : l.get(l.size() - 1).docFreq());
            d.put("occurrence_share", total == 0 ? 0.0 : (double) occ / total);
            m.put(c.name().toLowerCase(), d);
        }
        m.put("excluded_terms", excluded);
        return m;
    }
}
