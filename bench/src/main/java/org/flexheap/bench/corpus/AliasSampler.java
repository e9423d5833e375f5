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

package org.flexheap.bench.corpus;

import java.util.SplittableRandom;

/** Walker's alias method: O(1) draws from a fixed discrete distribution. */
final class AliasSampler {
    private final double[] prob;
    private final int[] alias;

    AliasSampler(double[] weights) {
        int n = weights.length;
        double sum = 0;
        for (double w : weights) sum += w;
        prob = new double[n];
        alias = new int[n];
        double[] scaled = new double[n];
        int[] small = new int[n];
        int[] large = new int[n];
        int ns = 0, nl = 0;
        for (int i = 0; i < n; i++) {
            scaled[i] = weights[i] * n / sum;
            if (scaled[i] < 1.0) small[ns++] = i; else large[nl++] = i;
        }
        while (ns > 0 && nl > 0) {
            int s = small[--ns];
            int l = large[--nl];
            prob[s] = scaled[s];
            alias[s] = l;
            scaled[l] = (scaled[l] + scaled[s]) - 1.0;
            if (scaled[l] < 1.0) small[ns++] = l; else large[nl++] = l;
        }
        while (nl > 0) prob[large[--nl]] = 1.0;
        while (ns > 0) prob[small[--ns]] = 1.0; // rounding leftovers
    }

    int sample(SplittableRandom rnd) {
        int i = rnd.nextInt(prob.length);
        return rnd.nextDouble() < prob[i] ? i : alias[i];
    }
}
