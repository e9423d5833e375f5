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

/**
 * Tunables of `run` beyond the scale. Large queries of M3/M4 arrive in batches of
 * {@code batchSize} (0 = 4 per large-query client, so bursts queue up) at a Poisson
 * rate of {@code batchRate} per second; the defaults spread the large stream over
 * about a minute at the default scale, the order of the small stream's length here.
 */
public record RunOptions(long seed, double batchRate, int batchSize, boolean cold, AllocWorkload.Config alloc,
                         PhasesWorkload.Config phases) {
    public static final long DEFAULT_SEED = 1;
    public static final double DEFAULT_BATCH_RATE = 1.5;
    public static final int BATCHES_PER_CLIENT = 4;

    public RunOptions(long seed, double batchRate, int batchSize, boolean cold) {
        this(seed, batchRate, batchSize, cold, AllocWorkload.Config.defaults(), null);
    }

    public static RunOptions defaults() { return new RunOptions(DEFAULT_SEED, DEFAULT_BATCH_RATE, 0, false); }

    public RunOptions withAlloc(AllocWorkload.Config c) { return new RunOptions(seed, batchRate, batchSize, cold, c, phases); }

    public RunOptions withPhases(PhasesWorkload.Config c) { return new RunOptions(seed, batchRate, batchSize, cold, alloc, c); }
}
