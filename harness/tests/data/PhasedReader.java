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

import java.io.*;
import java.nio.file.*;
import java.util.*;

/** Test workload: creates a file if missing, churns the heap, then reads the file in passes.
 *  Prints FLEXHEAP-PHASE markers like the bench jar. Args: file sizeMB passes [allocSeconds] */
public class PhasedReader {
    static void mark(String phase, String what, String extra) {
        System.err.println("FLEXHEAP-PHASE " + phase + " " + what + " " + System.currentTimeMillis() + extra);
    }

    public static void main(String[] a) throws Exception {
        Path file = Paths.get(a[0]);
        int sizeMb = Integer.parseInt(a[1]);
        int passes = Integer.parseInt(a[2]);
        double allocSeconds = a.length > 3 ? Double.parseDouble(a[3]) : 1.0;
        byte[] buf = new byte[1 << 20];
        if (!Files.exists(file) || Files.size(file) != (long) sizeMb << 20) {
            mark("create", "start", "");
            new Random(1).nextBytes(buf);
            try (OutputStream out = Files.newOutputStream(file)) {
                for (int i = 0; i < sizeMb; i++) out.write(buf);
            }
            mark("create", "end", " " + sizeMb + " " + sizeMb);
        }
        mark("alloc", "start", "");
        long t0 = System.nanoTime(), n = 0;
        List<byte[]> keep = new ArrayList<>();
        while (System.nanoTime() - t0 < allocSeconds * 1e9) {
            byte[] b = new byte[4096];
            if ((n++ & 63) == 0) keep.add(b);
            if (keep.size() > 8192) keep.subList(0, 4096).clear();
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        mark("alloc", "end", " " + n + " " + String.format("%.1f", n / secs));
        long checksum = 0;
        for (int p = 0; p < passes; p++) {
            mark("read" + p, "start", "");
            long t1 = System.nanoTime(), mb = 0;
            try (InputStream in = Files.newInputStream(file)) {
                int r;
                while ((r = in.read(buf)) > 0) { checksum += buf[0]; mb++; }
            }
            double s = (System.nanoTime() - t1) / 1e9;
            mark("read" + p, "end", " " + mb + " " + String.format("%.1f", mb / s));
        }
        System.out.println("checksum " + checksum);
    }
}
