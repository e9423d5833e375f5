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

package org.flexheap.bench.util;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Bytes this process caused to be fetched from storage ({@code /proc/self/io} read_bytes). */
public final class ProcIo {
    private static final Path IO = Path.of("/proc/self/io");

    private ProcIo() {}

    /** -1 when the kernel does not expose task I/O accounting. */
    public static long readBytes() {
        try {
            for (String line : Files.readAllLines(IO)) {
                if (line.startsWith("read_bytes:")) return Long.parseLong(line.substring(11).trim());
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }
}
