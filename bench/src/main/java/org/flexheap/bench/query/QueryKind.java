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

/** A query class of Table 2: word frequency class x number of results fetched. */
public enum QueryKind {
    H50(FrequencyClass.HIGH, 50, 40_000),
    M50(FrequencyClass.MEDIUM, 50, 80_000),
    L50(FrequencyClass.LOW, 50, 240_000),
    H500k(FrequencyClass.HIGH, 500_000, 300),
    M500k(FrequencyClass.MEDIUM, 500_000, 6_000);

    /** Hits whose stored fields are loaded: a result page (small queries only). */
    public static final int PAGE = 50;

    public final FrequencyClass frequency;
    public final int topN;
    /** Query count in the paper's Table 2. */
    public final int paperQueries;

    QueryKind(FrequencyClass frequency, int topN, int paperQueries) {
        this.frequency = frequency;
        this.topN = topN;
        this.paperQueries = paperQueries;
    }

    public boolean large() { return topN > PAGE; }

    public static QueryKind parse(String s) {
        for (QueryKind k : values()) if (k.name().equalsIgnoreCase(s)) return k;
        throw new IllegalArgumentException("unknown query class " + s);
    }
}
