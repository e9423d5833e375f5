package org.flexheap.bench.corpus;

/** A thread-safe supply of document texts; {@code null} when exhausted. */
public interface DocumentStream extends AutoCloseable {
    String next();

    @Override
    default void close() {}
}
