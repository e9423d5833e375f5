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

import java.util.List;
import org.flexheap.bench.query.QueryKind;

/**
 * The named workloads of `run`: single classes, the paper's mixes M1-M4 (Table 3), ingest, and
 * two without an index: the I/O-free {@code alloc} and the allocation-then-I/O {@code phases}.
 */
public enum Workload {
    H50(List.of(QueryKind.H50)),
    M50(List.of(QueryKind.M50)),
    L50(List.of(QueryKind.L50)),
    H500k(List.of(QueryKind.H500k)),
    M500k(List.of(QueryKind.M500k)),
    /** Sequential phases, all clients on one phase at a time. */
    M1(List.of(QueryKind.H50, QueryKind.M500k, QueryKind.L50, QueryKind.H500k, QueryKind.M50)),
    M2(List.of(QueryKind.H50, QueryKind.M500k, QueryKind.H500k)),
    /** Concurrent: first class is the continuous small stream, the rest arrive in Poisson batches. */
    M3(List.of(QueryKind.M50, QueryKind.M500k, QueryKind.H500k)),
    M4(List.of(QueryKind.L50, QueryKind.M500k, QueryKind.H500k)),
    ingest(List.of()),
    /** No index, no I/O: CPU-bound allocation phases with a large, then a small live set. */
    alloc(List.of()),
    /** No index: an allocation phase, then random reads of a data file larger than the budget. */
    phases(List.of());

    public final List<QueryKind> classes;

    Workload(List<QueryKind> classes) { this.classes = classes; }

    public boolean concurrent() { return this == M3 || this == M4; }

    /** False for the workloads that do not search a Lucene index. */
    public boolean needsIndex() { return this != alloc && this != phases; }

    public static Workload parse(String s) {
        for (Workload w : values()) if (w.name().equalsIgnoreCase(s)) return w;
        throw new IllegalArgumentException("unknown workload '" + s + "'; one of H50 M50 L50 H500k M500k M1 M2 M3 M4 ingest alloc phases");
    }

    public String describe() {
        return switch (this) {
            case ingest -> "indexing threads add documents (NRT refresh, commits, merges) while clients search; then search only";
            case alloc -> "no I/O: allocation with a large live set (live-large), then a small one (live-small), repeated";
            case phases -> "allocation with a large live set (alloc), then random reads of --data-file (io), repeated";
            case M3, M4 -> classes.get(0) + " clients run continuously while " + classes.get(1) + "+" + classes.get(2)
                    + " arrive in Poisson batches to the large-query clients";
            case M1, M2 -> "sequential phases " + String.join("-", classes.stream().map(Enum::name).toList());
            default -> classes.get(0) + " alone";
        };
    }
}
