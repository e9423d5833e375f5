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

/*
 * @test
 * @summary 10,000 threads start and exit under FlexHeap (100 at a time): the JVM's stall registry and
 *          the iostall library's per-thread entries stay bounded by the live threads, not by all threads
 *          ever started: at most 2,000 tracked at any time, at most 100 at exit, at most 200 map entries.
 *          The counts come from jdk/test/faults/iostall_shim.c wrapping the JDK's own libiostall.so.
 * @library /lib
 * @build FlexHeapStress StressSupport
 * @run main/timeout=600 TestFlexHeapThreadChurn
 */
import java.nio.file.*;
import java.util.*;
import java.util.regex.*;

public class TestFlexHeapThreadChurn {
    static final int THREADS = 10_000, BATCH = 100;

    public static void main(String[] args) throws Exception {
        Path jdk = Paths.get(System.getProperty("test.jdk"));
        Path real = jdk.resolve("lib/libiostall.so");
        Path root = Paths.get(System.getProperty("test.src")).resolve("../../../../../..").normalize();
        Path shimSrc = root.resolve("jdk/test/faults/iostall_shim.c");
        Path shim = Paths.get("libiostall_shim.so").toAbsolutePath();
        Path stats = Paths.get("shim-stats.txt").toAbsolutePath();
        if (!Files.exists(real)) throw new jtreg.SkippedException("no " + real);
        Process cc = new ProcessBuilder("gcc", "-O2", "-fPIC", "-shared", "-fvisibility=hidden",
                "-I" + root.resolve("iostall/include"), "-o", shim.toString(), shimSrc.toString(), "-ldl", "-lpthread")
                .inheritIO().start();
        if (cc.waitFor() != 0) throw new RuntimeException("cannot build " + shimSrc);

        List<String> cmd = new ArrayList<>(List.of("-cp", System.getProperty("test.classes"),
                "-XX:+UseFlexHeap", "-Xmx256m", "-Xlog:gc+flexheap",
                "-XX:FlexHeapIOStallLibrary=" + shim, "FlexHeapStress", "churn", "" + THREADS, "" + BATCH));
        cmd.add(0, jdk.resolve("bin/java").toString());
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("IOSTALL_SHIM_MODE", "wrap");
        pb.environment().put("IOSTALL_SHIM_REAL", real.toString());
        pb.environment().put("IOSTALL_SHIM_STATS", stats.toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        int exit = p.waitFor();
        System.out.println(FlexHeapTestSupport.tail(out, 3000));
        StressSupport.completed(new FlexHeapTestSupport.Result(exit, out), "FlexHeap");
        if (!out.contains("I/O stall source:")) {
            throw new jtreg.SkippedException("no stall backend (no registrations to count)");
        }
        String s = Files.readString(stats).trim();
        System.out.println("shim at exit: " + s);
        Map<String, Long> v = new HashMap<>();
        Matcher m = Pattern.compile("(\\w+)=(-?\\d+)").matcher(s);
        while (m.find()) v.put(m.group(1), Long.parseLong(m.group(2)));
        long registered = v.get("registered"), tracked = v.get("tracked"), peak = v.get("peak");
        long entries = v.get("map_entries"), failed = v.get("failed");
        if (registered < THREADS) throw new RuntimeException("only " + registered + " registrations for " + THREADS + " threads");
        if (failed != 0) throw new RuntimeException(failed + " registrations failed");
        // A thread unregisters in its own teardown, after join() returned, so on a loaded machine a
        // few batches overlap; a registry that grows with the threads ever started goes far beyond.
        if (peak > THREADS / 5) throw new RuntimeException("peak tracked " + peak + " > " + THREADS / 5 + ": grows with the threads started");
        if (tracked > 100) throw new RuntimeException(tracked + " threads still tracked at exit");
        if (entries > 200) throw new RuntimeException(entries + " iostall map entries at exit");
    }
}
