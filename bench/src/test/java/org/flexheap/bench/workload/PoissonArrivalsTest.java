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
