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

package org.flexheap.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.flexheap.bench.util.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {
    @TempDir
    Path tmp;

    @Test
    @SuppressWarnings("unchecked")
    void buildThenRunWritesResultJson() throws Exception {
        Path idx = tmp.resolve("idx");
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int rc = Main.run(new String[] {"build-index", "--index", idx.toString(), "--size-mb", "2", "--vocab", "20000",
                "--doc-words", "60"}, new PrintStream(buf, true, StandardCharsets.UTF_8));
        assertEquals(0, rc);
        Map<String, Object> manifest = (Map<String, Object>) Json.parse(buf.toString(StandardCharsets.UTF_8));
        assertTrue(((Number) manifest.get("docs")).longValue() > 0);

        Path out = tmp.resolve("res/h50.json");
        rc = Main.run(new String[] {"run", "--index", idx.toString(), "--workload", "H50", "--scale", "0.001",
                "--out", out.toString()}, System.out);
        assertEquals(0, rc);
        Map<String, Object> res = (Map<String, Object>) Json.parse(Files.readString(out));
        assertEquals("H50", res.get("workload"));
        assertEquals(true, res.get("ok"));
        Map<String, Object> phase = ((List<Map<String, Object>>) res.get("phases")).get(0);
        for (String k : List.of("name", "queries", "duration_s", "throughput_qps", "p50_ms", "p99_ms", "gc_count",
                "gc_time_ms", "read_bytes")) {
            assertTrue(phase.containsKey(k), k);
        }
        assertTrue(((Map<String, Object>) res.get("jvm")).containsKey("max_heap"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void indexFreeWorkloadsRunWithoutAnIndex() throws Exception {
        Path out = tmp.resolve("alloc.json");
        assertEquals(0, Main.run(new String[] {"run", "--workload", "alloc", "--live-size", "8m", "--small-live-size",
                "1m", "--alloc-size", "8m", "--rounds", "1", "--clients", "2", "--out", out.toString()}, System.out));
        Map<String, Object> res = (Map<String, Object>) Json.parse(Files.readString(out));
        assertEquals("alloc", res.get("workload"));
        assertEquals(List.of("live-large", "live-small"),
                ((List<Map<String, Object>>) res.get("phases")).stream().map(p -> p.get("name")).toList());

        out = tmp.resolve("phases.json");
        assertEquals(0, Main.run(new String[] {"run", "--workload", "phases", "--data-file",
                tmp.resolve("d.dat").toString(), "--file-size", "1m", "--live-size", "4m", "--alloc-size", "4m",
                "--reads", "100", "--rounds", "1", "--out", out.toString()}, System.out));
        res = (Map<String, Object>) Json.parse(Files.readString(out));
        assertEquals(List.of("alloc", "io"),
                ((List<Map<String, Object>>) res.get("phases")).stream().map(p -> p.get("name")).toList());
    }

    @Test
    void indexFreeWorkloadOptionsAreValidated() {
        String[][] bad = {
            {"run", "--workload", "phases"},                                          // no --data-file
            {"run", "--workload", "phases", "--data-file", "x", "--file-size", "300"}, // no unit
            {"run", "--workload", "alloc", "--live-size", "0.5"},
            {"run", "--workload", "alloc", "--rounds", "0"},
            {"run", "--workload", "alloc", "--data-file", "x"},                        // not an alloc option
            {"run", "--workload", "M1", "--index", "x", "--live-size", "8m"},          // not an M1 option
            {"run", "--workload", "phases", "--data-file", "x", "--block-size", "3k"},
        };
        for (String[] a : bad) assertEquals(2, Main.run(a, System.out), String.join(" ", a));
    }

    @Test
    void failuresExitNonZeroWithOkFalse() throws Exception {
        assertEquals(2, Main.run(new String[] {"run", "--index", tmp.toString(), "--workload", "M9"}, System.out));
        assertEquals(2, Main.run(new String[] {"build-index", "--index", tmp.toString()}, System.out));
        assertEquals(2, Main.run(new String[] {"run", "--index", tmp.toString(), "--workload", "H50", "--bogus", "1"},
                System.out));
        Path out = tmp.resolve("fail.json");
        assertEquals(1, Main.run(new String[] {"run", "--index", tmp.resolve("none").toString(), "--workload", "H50",
                "--out", out.toString()}, System.out));
        assertTrue(Files.readString(out).contains("\"ok\": false"));
    }
}
