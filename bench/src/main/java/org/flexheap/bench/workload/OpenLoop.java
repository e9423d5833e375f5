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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Open-loop service of tasks that arrive on a schedule, without coordinated omission.
 * Task {@code i} arrives at {@code start + due[i]}; clients serve the tasks in arrival
 * order (FIFO, like one shared queue), each no earlier than its arrival. Two times
 * are recorded per task: <em>service</em> time (start of service to completion) and
 * <em>response</em> time (scheduled arrival to completion). Response time includes
 * the wait in the queue, so a stall that holds the clients back (a long GC pause,
 * a starved page cache) shows up in every task that arrived meanwhile, not only in
 * the one that was running. The clock starts at the schedule, not at dispatch: a
 * late dispatcher or a late client cannot hide the wait.
 */
final class OpenLoop {
    /** Time source; tests substitute a virtual one. */
    interface Clock {
        long nanoTime();

        /** Returns at or after {@code deadline} (a {@link #nanoTime()} value). */
        void sleepUntil(long deadline) throws InterruptedException;
    }

    static final Clock SYSTEM = new Clock() {
        @Override
        public long nanoTime() { return System.nanoTime(); }

        @Override
        public void sleepUntil(long deadline) throws InterruptedException {
            long wait = deadline - System.nanoTime();
            if (wait > 0) TimeUnit.NANOSECONDS.sleep(wait);
        }
    };

    interface Service<T> {
        void serve(T task) throws Exception;
    }

    interface Sink<T> {
        void record(T task, long serviceNanos, long responseNanos);
    }

    /** How long a waiting client sleeps at most before it looks at the stop flag again. */
    private static final long STOP_CHECK_NANOS = 100_000_000;

    private OpenLoop() {}

    /**
     * Starts {@code clients} threads in {@code pool} that serve {@code tasks} in order;
     * {@code dueNanos[i]} is task i's arrival, in ns after {@code startNanos}, and must not
     * decrease. The caller joins the pool.
     */
    static <T> void start(Clients pool, String name, int clients, List<T> tasks, long[] dueNanos, long startNanos,
                          Clock clock, Service<T> service, Sink<T> sink) {
        if (dueNanos.length != tasks.size()) throw new IllegalArgumentException("one arrival time per task");
        for (int i = 1; i < dueNanos.length; i++) {
            if (dueNanos[i] < dueNanos[i - 1]) throw new IllegalArgumentException("arrival times must not decrease");
        }
        AtomicInteger next = new AtomicInteger();
        pool.start(name, clients, (id, stop) -> {
            int i;
            while (!stop.get() && (i = next.getAndIncrement()) < tasks.size()) {
                long due = startNanos + dueNanos[i];
                long now;
                while ((now = clock.nanoTime()) < due && !stop.get()) {
                    clock.sleepUntil(Math.min(due, now + STOP_CHECK_NANOS));
                }
                if (stop.get()) return;
                long s = clock.nanoTime();
                service.serve(tasks.get(i));
                long e = clock.nanoTime();
                sink.record(tasks.get(i), e - s, e - due);
            }
        });
    }
}
