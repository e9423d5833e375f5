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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs client threads and fails fast: the first exception stops every client and is
 * rethrown to the caller, so a failed query can never be reported as a good run.
 */
final class Clients {
    interface Body {
        void run(int clientId, AtomicBoolean stop) throws Exception;
    }

    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final List<Thread> threads = new ArrayList<>();

    AtomicBoolean stopFlag() { return stop; }

    Clients start(String name, int n, Body body) {
        for (int i = 0; i < n; i++) {
            int id = i;
            threads.add(Thread.ofPlatform().name(name + "-" + i).start(() -> {
                try {
                    body.run(id, stop);
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                    stop.set(true);
                }
            }));
        }
        return this;
    }

    void fail(Throwable t) {
        failure.compareAndSet(null, t);
        stop.set(true);
    }

    /** Joins every thread started so far; throws the first failure. */
    void join() throws Exception {
        for (Thread t : threads) t.join();
        Throwable t = failure.get();
        if (t instanceof Exception e) throw e;
        if (t instanceof Error e) throw e;
    }
}
