package org.flexheap.bench.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PoissonArrivalsTest {
    @Test
    void meanRateAndExponentialGaps() {
        double rate = 4.0;
        int n = 20_000;
        double[] t = PoissonArrivals.times(n, rate, 99);
        double observedRate = n / t[n - 1];
        assertEquals(rate, observedRate, rate * 0.03, "observed rate");
        double mean = t[n - 1] / n, var = 0, prev = 0;
        for (double x : t) {
            assertTrue(x > prev, "arrivals must increase");
            var += Math.pow((x - prev) - mean, 2);
            prev = x;
        }
        double cv = Math.sqrt(var / n) / mean;
        assertEquals(1.0, cv, 0.05, "exponential gaps have coefficient of variation 1");
    }

    @Test
    void seededAndRepeatable() {
        assertArrayEquals(PoissonArrivals.times(50, 2, 5), PoissonArrivals.times(50, 2, 5));
    }
}
