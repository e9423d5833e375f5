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

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.flexheap.bench.query.QueryKind;
import org.flexheap.bench.util.PageCache;

/** Runs a named workload on an index and returns the result document of `run`. */
public final class WorkloadRunner {
    private WorkloadRunner() {}

    /** {@code indexDir} may be null for the workloads that do not need one ({@link Workload#needsIndex()}). */
    public static Map<String, Object> run(Path indexDir, Workload w, Scale scale, RunOptions opt) throws Exception {
        System.err.printf("[run] %s (%s) scale=%s clients=%d seed=%d%n", w, w.describe(), scale.factor(),
                scale.clients(), opt.seed());
        if (w.needsIndex() && indexDir == null) throw new IllegalArgumentException(w + " needs --index DIR");
        if (opt.cold() && w.needsIndex()) {
            System.err.println("[run] evicted " + PageCache.evict(indexDir) + " index files from the page cache");
        }
        if (w == Workload.phases) {
            if (opt.phases() == null) throw new IllegalArgumentException("phases needs --data-file FILE");
            PhasesWorkload.ensureFile(opt.phases().dataFile(), opt.phases().fileBytes()); // not timed
        }
        long t0 = System.nanoTime();
        List<PhaseResult> phases = new ArrayList<>();
        if (w == Workload.alloc) {
            phases.addAll(AllocWorkload.run(scale, opt.seed(), opt.alloc()));
        } else if (w == Workload.phases) {
            phases.addAll(PhasesWorkload.run(scale, opt.seed(), opt.phases(), opt.cold()));
        } else if (w == Workload.ingest) {
            phases.addAll(IngestWorkload.run(indexDir, scale, opt.seed(), IngestWorkload.Config.defaults()));
        } else {
            try (SearchContext ctx = SearchContext.open(indexDir)) {
                if (w.concurrent()) {
                    var cfg = new ConcurrentMixPhase.Config(w.classes.get(0), w.classes.subList(1, w.classes.size()),
                            opt.batchRate(), opt.batchSize());
                    phases.add(ConcurrentMixPhase.run(ctx, w.name(), cfg, scale, opt.seed()));
                } else {
                    long phaseSeed = opt.seed();
                    for (QueryKind k : w.classes) {
                        phases.add(SequentialPhase.run(ctx, k, scale.queries(k), scale.clients(), phaseSeed++));
                    }
                }
            }
        }
        double total = (System.nanoTime() - t0) / 1e9;
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("workload", w.name());
        out.put("scale", scale.factor());
        out.put("ok", true);
        out.put("total_s", total);
        out.put("clients", scale.clients());
        out.put("seed", opt.seed());
        out.put("index", indexDir == null ? null : indexDir.toAbsolutePath().toString());
        if (w == Workload.alloc) out.put("alloc", describe(opt.alloc(), scale));
        if (w == Workload.phases) out.put("phases_config", describe(opt.phases(), scale));
        out.put("phases", phases.stream().map(PhaseResult::toMap).toList());
        out.put("jvm", JvmInfo.describe());
        return out;
    }

    private static Map<String, Object> describe(AllocWorkload.Config c, Scale scale) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("large_live_bytes", c.largeLiveBytes());
        m.put("small_live_bytes", c.smallLiveBytes());
        m.put("alloc_bytes_per_phase", c.allocFor(scale));
        m.put("rounds", c.rounds());
        m.put("mutations_per_op", c.mutationsPerOp());
        return m;
    }

    private static Map<String, Object> describe(PhasesWorkload.Config c, Scale scale) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("data_file", c.dataFile().toAbsolutePath().toString());
        m.put("file_bytes", c.fileBytes());
        m.put("live_bytes", c.liveBytes());
        m.put("alloc_bytes_per_phase", c.allocFor(scale));
        m.put("reads_per_phase", c.readsFor(scale));
        m.put("block_bytes", c.blockBytes());
        m.put("direct", c.direct());
        m.put("rounds", c.rounds());
        m.put("mutations_per_op", c.mutationsPerOp());
        return m;
    }
}
