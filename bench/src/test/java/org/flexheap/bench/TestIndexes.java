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
