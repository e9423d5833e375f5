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
