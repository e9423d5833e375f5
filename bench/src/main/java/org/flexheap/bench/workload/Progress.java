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
