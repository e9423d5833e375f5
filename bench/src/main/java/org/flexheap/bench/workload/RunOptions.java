package org.flexheap.bench.workload;

/**
 * Tunables of `run` beyond the scale. The default batch rate makes the large-query
 * stream of M3/M4 last about as long as the small stream at the default scale here.
 */
public record RunOptions(long seed, double batchRate, int batchSize, boolean cold) {
    public static final long DEFAULT_SEED = 1;
    public static final double DEFAULT_BATCH_RATE = 0.5;

    public static RunOptions defaults() { return new RunOptions(DEFAULT_SEED, DEFAULT_BATCH_RATE, 0, false); }
}
