package org.flexheap.bench.workload;

import java.util.List;
import org.apache.lucene.index.IndexCommit;
import org.apache.lucene.index.IndexDeletionPolicy;

/**
 * Keeps the commit the writer opened on (the built index) plus the newest one, so the
 * ingest workload can roll the index back to exactly what build-index produced.
 */
final class BaseCommitKeeper extends IndexDeletionPolicy {
    private volatile IndexCommit base;

    @Override
    public void onInit(List<? extends IndexCommit> commits) {
        base = commits.get(commits.size() - 1);
        for (int i = 0; i < commits.size() - 1; i++) commits.get(i).delete();
    }

    @Override
    public void onCommit(List<? extends IndexCommit> commits) {
        for (int i = 0; i < commits.size() - 1; i++) {
            IndexCommit c = commits.get(i);
            if (c.getGeneration() != base.getGeneration()) c.delete();
        }
    }

    IndexCommit base() { return base; }
}
