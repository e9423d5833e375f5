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
