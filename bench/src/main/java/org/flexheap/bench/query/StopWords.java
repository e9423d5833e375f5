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
