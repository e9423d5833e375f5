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

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/** Prints a human-friendly progress line to stderr every few seconds while a phase runs. */
final class Progress implements AutoCloseable {
    private static final long PERIOD_MS = Long.getLong("flexheap.progressMs", 5000);
    private final Thread thread;

    Progress(String name, AtomicLong done, long total, LongSupplier extra, String extraLabel) {
        long t0 = System.nanoTime();
        thread = Thread.ofPlatform().daemon().name("progress-" + name).start(() -> {
            try {
                while (true) {
                    Thread.sleep(PERIOD_MS);
                    double s = (System.nanoTime() - t0) / 1e9;
                    long d = done.get();
                    String of = total > 0 ? " / " + total : "";
                    String ex = extra == null ? "" : String.format(", %d %s", extra.getAsLong(), extraLabel);
                    System.err.printf("[%s] %.0fs: %d%s queries (%.1f q/s)%s%n", name, s, d, of, d / s, ex);
                }
            } catch (InterruptedException e) {
                // phase over
            }
        });
    }

    @Override
    public void close() {
        thread.interrupt();
    }
}
