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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The I/O-free workload: phases of CPU-bound allocation whose live set changes, a large one
 * (GC-heavy: marking and mixed collections over hundreds of MB) then a small one, repeated
 * {@code rounds} times. No file is read or written; a heap policy has nothing to gain from
 * page cache here, so it shows the pure cost of its sizing (time and committed heap).
 * Phase names: {@code live-large}, {@code live-small}, then {@code live-large-2}, ...
 */
public final class AllocWorkload {
    /**
     * @param allocBytes allocation per phase ({@code null}: {@link #PAPER_EQUIV_ALLOC} x scale)
     * @param mutationsPerOp live-set slots replaced per 64 KiB op (old-generation garbage)
     */
    public record Config(long largeLiveBytes, long smallLiveBytes, Long allocBytes, int rounds, int mutationsPerOp) {
        public static final long DEFAULT_LARGE = 256L << 20, DEFAULT_SMALL = 32L << 20;
        public static final int DEFAULT_ROUNDS = 2, DEFAULT_MUTATIONS = 1;

        public static Config defaults() {
            return new Config(DEFAULT_LARGE, DEFAULT_SMALL, null, DEFAULT_ROUNDS, DEFAULT_MUTATIONS);
        }

        public Config {
            if (largeLiveBytes < 0 || smallLiveBytes < 0) throw new IllegalArgumentException("live sizes must be >= 0");
            if (rounds < 1) throw new IllegalArgumentException("rounds must be >= 1");
            if (mutationsPerOp < 0) throw new IllegalArgumentException("mutations must be >= 0");
            if (allocBytes != null && allocBytes < AllocationChurn.OP_BYTES) {
                throw new IllegalArgumentException("allocation per phase must be >= 64k");
            }
        }

        public long allocFor(Scale s) { return allocBytes != null ? allocBytes : Math.round(PAPER_EQUIV_ALLOC * s.factor()); }
    }

    /** Allocation per phase at scale 1 (8 GiB at the default 0.125). */
    public static final long PAPER_EQUIV_ALLOC = 64L << 30;

    private AllocWorkload() {}

    static List<PhaseResult> run(Scale scale, long seed, Config cfg) throws Exception {
        List<PhaseResult> phases = new ArrayList<>();
        AllocationChurn churn = new AllocationChurn();
        long alloc = cfg.allocFor(scale);
        for (int r = 1; r <= cfg.rounds(); r++) {
            String suffix = r == 1 ? "" : "-" + r;
            phases.add(phase(churn, "live-large" + suffix, cfg.largeLiveBytes(), alloc, scale.clients(),
                    cfg.mutationsPerOp(), seed * 100 + 2L * r));
            phases.add(phase(churn, "live-small" + suffix, cfg.smallLiveBytes(), alloc, scale.clients(),
                    cfg.mutationsPerOp(), seed * 100 + 2L * r + 1));
        }
        return phases;
    }

    /** One allocation phase with the live set resized to {@code liveBytes} at its start. */
    static PhaseResult phase(AllocationChurn churn, String name, long liveBytes, long allocBytes, int threads,
                             int mutations, long seed) throws Exception {
        AtomicLong done = new AtomicLong();
        LatencyLog lat = new LatencyLog();
        Probe probe = Probe.start(name);
        churn.resize(liveBytes);
        AllocationChurn.Totals t;
        try (Progress p = new Progress(name, done, allocBytes / AllocationChurn.OP_BYTES, null, null)) {
            t = churn.run(threads, allocBytes, mutations, seed, lat, done);
        }
        Probe.Delta d = probe.end(t.ops());
        return new PhaseResult(name, t.ops(), d.seconds(), lat, d)
                .put("kind", "alloc")
                .put("threads", threads)
                .put("ops", t.ops())
                .put("op_bytes", AllocationChurn.OP_BYTES)
                .put("allocated_bytes", t.allocatedBytes())
                .put("alloc_mb_per_s", d.seconds() > 0 ? t.allocatedBytes() / d.seconds() / (1 << 20) : 0.0)
                .put("live_target_bytes", liveBytes)
                .put("live_slots", churn.slots())
                .put("mutations_per_op", mutations);
    }
}
