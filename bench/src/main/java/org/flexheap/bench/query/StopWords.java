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

import java.util.Set;

/** Common English function words, excluded from query classes of plain-text corpora. */
public final class StopWords {
    public static final Set<String> ENGLISH = Set.of(
            "a", "about", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been",
            "but", "by", "can", "could", "did", "do", "does", "for", "from", "had", "has", "have", "he",
            "her", "him", "his", "how", "i", "if", "in", "into", "is", "it", "its", "may", "me", "more",
            "most", "my", "no", "not", "of", "on", "one", "only", "or", "other", "our", "out", "she",
            "so", "some", "such", "than", "that", "the", "their", "them", "then", "there", "these",
            "they", "this", "those", "to", "up", "was", "we", "were", "what", "when", "where", "which",
            "who", "will", "with", "would", "you", "your");

    private StopWords() {}
}
