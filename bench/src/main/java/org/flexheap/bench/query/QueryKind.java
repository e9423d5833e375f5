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
