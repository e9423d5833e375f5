package org.flexheap.bench;

import java.nio.file.Path;
import java.util.Map;
import org.flexheap.bench.index.BuildParams;
import org.flexheap.bench.index.IndexBuilder;

/** Small synthetic indexes for tests: a few MB, built in a couple of seconds. */
public final class TestIndexes {
    private TestIndexes() {}

    public static BuildParams small(long seed) {
        return new BuildParams(3, seed, 20_000, BuildParams.DEFAULT_HEAD_EXPONENT, BuildParams.DEFAULT_TAIL_EXPONENT,
                BuildParams.DEFAULT_STOP_WORDS, 60, 2, null);
    }

    public static Map<String, Object> build(Path dir, BuildParams p) throws Exception {
        return new IndexBuilder(p, dir, 2).buildOrReuse();
    }
}
