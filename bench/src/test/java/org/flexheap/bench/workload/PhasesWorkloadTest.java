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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PhasesWorkloadTest {
    static final long MB = 1L << 20;

    @TempDir
    Path tmp;

    @Test
    @SuppressWarnings("unchecked")
    void allocationThenReadsOfTheDataFile() throws Exception {
        Path data = tmp.resolve("sub/phases.dat");
        var cfg = new PhasesWorkload.Config(data, 8 * MB, 16 * MB, 16 * MB, 3000L, 4096, false, 2, 2);
        Map<String, Object> r = WorkloadRunner.run(null, Workload.phases, new Scale(0.125, 2),
                RunOptions.defaults().withPhases(cfg));
        assertEquals(true, r.get("ok"));
        assertEquals(8 * MB, Files.size(data), "data file created at its size");
        byte[] head = Files.readAllBytes(data);
        long zeros = 0;
        for (byte b : head) if (b == 0) zeros++;
        assertTrue(zeros < head.length / 100, "random content, not a sparse file: " + zeros);

        List<Map<String, Object>> phases = (List<Map<String, Object>>) r.get("phases");
        assertEquals(List.of("alloc", "io", "alloc-2", "io-2"), phases.stream().map(p -> p.get("name")).toList());
        for (Map<String, Object> p : phases) {
            if ("io".equals(p.get("kind"))) {
                assertEquals(3000L, ((Number) p.get("reads")).longValue());
                assertEquals(3000L, ((Number) p.get("queries")).longValue());
                assertEquals(3000L * 4096, ((Number) p.get("requested_bytes")).longValue());
                assertTrue(((Number) p.get("reads_per_s")).doubleValue() > 0);
            } else {
                assertEquals("alloc", p.get("kind"));
                assertTrue(((Number) p.get("allocated_bytes")).longValue() >= 16 * MB);
            }
            assertTrue(((Number) p.get("duration_s")).doubleValue() > 0);
        }
        Map<String, Object> conf = (Map<String, Object>) r.get("phases_config");
        assertEquals(data.toAbsolutePath().toString(), conf.get("data_file"));
        assertFalse(PhasesWorkload.ensureFile(data, 8 * MB), "an existing file is reused");
        assertTrue(PhasesWorkload.ensureFile(data, 9 * MB), "a smaller file is recreated");
        assertEquals(9 * MB, Files.size(data));
        try (var s = Files.list(data.getParent())) {
            assertEquals(1, s.count(), "no temporary file left behind");
        }
    }
}
