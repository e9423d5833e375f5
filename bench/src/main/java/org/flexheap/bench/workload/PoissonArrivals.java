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
