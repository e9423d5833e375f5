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
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Evicts one index's (or one data file's) pages from the kernel page cache with
 * posix_fadvise(DONTNEED), so a measurement starts cold without dropping every
 * other process's cache. Pages still mapped by an open reader are not evicted,
 * so call this with the index closed.
 */
public final class PageCache {
    private static final int O_RDONLY = 0;
    private static final int POSIX_FADV_DONTNEED = 4;

    private PageCache() {}

    /** Evicts the regular files of {@code dir}; returns how many were advised, or -1 if the native calls are unavailable. */
    public static int evict(Path dir) {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(Files::isRegularFile).toList();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return dontNeed(files);
    }

    /** Evicts one file; true when the kernel accepted the advice. */
    public static boolean evictFile(Path file) {
        return dontNeed(List.of(file)) == 1;
    }

    private static int dontNeed(List<Path> files) {
        try {
            Linker linker = Linker.nativeLinker();
            var lookup = linker.defaultLookup();
            MethodHandle open = linker.downcallHandle(lookup.find("open").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT,
                            ValueLayout.JAVA_INT),
                    Linker.Option.firstVariadicArg(2));
            MethodHandle fadvise = linker.downcallHandle(lookup.find("posix_fadvise").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG,
                            ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
            MethodHandle close = linker.downcallHandle(lookup.find("close").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
            int n = 0;
            try (Arena arena = Arena.ofConfined()) {
                for (Path f : files) {
                    MemorySegment name = arena.allocateFrom(f.toString());
                    int fd = (int) open.invokeExact(name, O_RDONLY, 0);
                    if (fd < 0) continue;
                    int rc = (int) fadvise.invokeExact(fd, 0L, 0L, POSIX_FADV_DONTNEED);
                    int ignored = (int) close.invokeExact(fd);
                    if (rc == 0) n++;
                }
            }
            return n;
        } catch (Throwable t) {
            return -1;
        }
    }
}
