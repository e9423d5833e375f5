package org.flexheap.bench.workload;

import java.util.SplittableRandom;

/** Arrival times of a Poisson process: exponential inter-arrival gaps with mean 1/rate, seeded. */
public final class PoissonArrivals {
    private PoissonArrivals() {}

    /** The first {@code n} arrival times, in seconds from the start. */
    public static double[] times(int n, double ratePerSecond, long seed) {
        if (!(ratePerSecond > 0)) throw new IllegalArgumentException("rate must be > 0");
        SplittableRandom rnd = new SplittableRandom(seed);
        double[] t = new double[n];
        double now = 0;
        for (int i = 0; i < n; i++) {
            now += -Math.log(1.0 - rnd.nextDouble()) / ratePerSecond; // 1-u in (0,1]: no log(0)
            t[i] = now;
        }
        return t;
    }
}
