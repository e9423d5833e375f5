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
 * Part of FlexHeap's tests: launch a child JVM of the JDK under test and read
 * its FlexHeap decisions back from the unified log.
 */
import java.io.*;
import java.nio.file.*;
import java.util.*;
import java.util.regex.*;

public class FlexHeapTestSupport {
    public record Result(int exit, String output) {
        public Result shouldHaveExit(int code) {
            if (exit != code) fail("exit " + exit + ", expected " + code);
            return this;
        }
        public Result shouldContain(String s) {
            if (!output.contains(s)) fail("output lacks '" + s + "'");
            return this;
        }
        public Result shouldNotContain(String s) {
            if (output.contains(s)) fail("output contains '" + s + "'");
            return this;
        }
        void fail(String why) {
            throw new RuntimeException(why + "\n----- child output -----\n" + tail(output, 8000));
        }
    }

    /** One "decision" line of -Xlog:gc+flexheap (policy, target, usedAfter: null/-1 in older lines). */
    public record Decision(double time, long gcId, String state, String action, long bytes, String reason,
                           long committed, long pageCache, String pause, String policy, long target,
                           long usedAfter) {}

    static String tail(String s, int n) { return s.length() <= n ? s : s.substring(s.length() - n); }

    public static Result java(List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(System.getProperty("test.jdk"), "bin", "java").toString());
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        int exit = p.waitFor();
        System.out.println("$ " + String.join(" ", cmd) + "\n" + tail(out, 4000));
        return new Result(exit, out);
    }

    // How often `what` occurs in `s`.
    public static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }

    public static List<String> withClasses(String... args) {
        List<String> l = new ArrayList<>(List.of("-cp", System.getProperty("test.classes")));
        l.addAll(List.of(args));
        return l;
    }

    static final Pattern DECISION = Pattern.compile(
        "\\[(\\d+\\.\\d+)s\\].*GC\\((\\d+)\\) decision state=(\\S+) action=(\\S+) bytes=(\\d+) reason=(\\S+) "
        + ".*committed=(\\d+) S_io=(\\d+) pause=(\\S+)"
        + "(?: policy=(\\S+) gc_rate=\\S+ io_rate=\\S+ refault=\\S+ target=(\\d+) used_after=(\\d+))?");

    public static List<Decision> decisions(String log) {
        List<Decision> l = new ArrayList<>();
        Matcher m = DECISION.matcher(log);
        while (m.find()) {
            l.add(new Decision(Double.parseDouble(m.group(1)), Long.parseLong(m.group(2)), m.group(3), m.group(4),
                               Long.parseLong(m.group(5)), m.group(6), Long.parseLong(m.group(7)),
                               Long.parseLong(m.group(8)), m.group(9), m.group(10),
                               m.group(11) == null ? -1 : Long.parseLong(m.group(11)),
                               m.group(12) == null ? -1 : Long.parseLong(m.group(12))));
        }
        return l;
    }

    /** The time stamp of the first log line containing marker (the workload prints PHASE lines). */
    public static double phaseTime(String log, String marker) {
        // PHASE lines are plain stdout; use the time of the next log line after them.
        int i = log.indexOf(marker);
        if (i < 0) throw new RuntimeException("no '" + marker + "' in output");
        Matcher m = Pattern.compile("\\[(\\d+\\.\\d+)s\\]").matcher(log);
        return m.find(i) ? Double.parseDouble(m.group(1)) : Double.MAX_VALUE;
    }

    /**
     * Checks that the heap committed at the last decision before {@code marker} (a phase change) fell by at
     * least half of its surplus over {@code xms} within {@code seconds} of it; prints both sizes. On a debug
     * JVM only the direction is checked (at least {@link #DEBUG_HAND_BACK} handed back in time): its pauses
     * take several times a release JVM's, and the GC cost FlexHeap measures from them keeps more heap (an
     * unverified fastdebug run handed back 168 of 415 MB within 5 s). The amount is the release suite's check.
     */
    public static void checkHandsBackHalfTheSurplus(String log, String marker, long xms, double seconds) {
        double change = phaseTime(log, marker);
        long atChange = -1;
        long lowest = Long.MAX_VALUE;
        for (Decision d : decisions(log)) {
            if (d.time() < change) atChange = d.committed();
            else if (d.time() <= change + seconds) lowest = Math.min(lowest, d.committed());
        }
        if (atChange < 0) throw new RuntimeException("no decision before '" + marker + "'");
        long surplus = atChange - xms;
        if (surplus < (64L << 20)) throw new RuntimeException("the heap grew only to " + atChange + ": nothing to hand back");
        System.out.println("committed " + (atChange >> 20) + "M at the change, lowest within " + seconds + " s "
                           + (lowest == Long.MAX_VALUE ? "none" : (lowest >> 20) + "M"));
        long needed = isDebugBuild() ? DEBUG_HAND_BACK : surplus / 2;
        if (lowest == Long.MAX_VALUE || atChange - lowest < needed) {
            throw new RuntimeException("handed back " + (lowest == Long.MAX_VALUE ? 0 : atChange - lowest) + " of "
                                       + surplus + " surplus bytes within " + seconds + " s of the phase change"
                                       + " (needed " + needed + (isDebugBuild() ? " on a debug JVM)" : ")"));
        }
    }

    /** Per GC id, the value of key=... on that GC's "inputs" debug line (-Xlog:gc+flexheap=debug). */
    public static Map<Long, Double> inputs(String log, String key) {
        Map<Long, Double> m = new HashMap<>();
        Matcher x = Pattern.compile("GC\\((\\d+)\\) inputs .*?\\b" + Pattern.quote(key) + "=([0-9.eE+-]+)").matcher(log);
        while (x.find()) m.put(Long.parseLong(x.group(1)), Double.parseDouble(x.group(2)));
        return m;
    }

    /** Per GC id, the pause time in ms that -Xlog:gc reports for pauses whose line contains kind. */
    public static Map<Long, Double> pauseMs(String log, String kind) {
        Map<Long, Double> m = new HashMap<>();
        Matcher x = Pattern.compile("GC\\((\\d+)\\) (Pause [^\\n]*?) (\\d+\\.\\d+)ms").matcher(log);
        while (x.find()) {
            if (x.group(2).contains(kind)) m.put(Long.parseLong(x.group(1)), Double.parseDouble(x.group(3)));
        }
        return m;
    }

    /**
     * Runs the JDK's java with args inside a new memory cgroup of limit bytes (a child of this process's
     * own; v1 memory controller or v2), as a container would; throws jtreg.SkippedException without root
     * or a writable memory cgroup.
     */
    public static Result javaInMemoryCgroup(long limit, List<String> args) throws Exception {
        if (!isRoot()) throw new jtreg.SkippedException("needs root for a memory cgroup");
        Path parent = null;
        boolean v2 = false;
        for (String line : Files.readAllLines(Paths.get("/proc/self/cgroup"))) {
            String[] f = line.split(":", 3);
            if (Arrays.asList(f[1].split(",")).contains("memory")) parent = Paths.get("/sys/fs/cgroup/memory" + f[2]);
        }
        if (parent == null) {
            for (String line : Files.readAllLines(Paths.get("/proc/self/cgroup"))) {
                String[] f = line.split(":", 3);
                if (f[0].equals("0") && f[1].isEmpty()) { parent = Paths.get("/sys/fs/cgroup" + f[2]); v2 = true; }
            }
        }
        if (parent == null || !Files.isDirectory(parent)) throw new jtreg.SkippedException("no memory cgroup");
        Path cg = parent.resolve("flexheap-jtreg-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
        try {
            Files.createDirectory(cg);
            Files.writeString(cg.resolve(v2 ? "memory.max" : "memory.limit_in_bytes"), "" + limit);
        } catch (Exception e) {
            try { Files.deleteIfExists(cg); } catch (Exception ignored) { }
            throw new jtreg.SkippedException("cannot set up a memory cgroup: " + e);
        }
        try {
            StringBuilder cmd = new StringBuilder("echo $$ > " + cg.resolve("cgroup.procs") + " && exec "
                + Paths.get(System.getProperty("test.jdk"), "bin", "java"));
            for (String a : args) cmd.append(" '").append(a).append("'");
            Process p = new ProcessBuilder("sh", "-c", cmd.toString()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            int exit = p.waitFor();
            System.out.println("$ [memory cgroup " + limit + "] " + cmd + "\n" + tail(out, 4000));
            return new Result(exit, out);
        } finally {
            for (int i = 0; i < 50; i++) {
                try { Files.delete(cg); break; } catch (Exception e) { Thread.sleep(100); }
            }
        }
    }

    /** -Xms of phaseChangeInCgroup's runs: the surplus it hands back is measured above it. */
    public static final long PHASE_CHANGE_XMS = 64L << 20;

    /**
     * Runs FlexHeapPhases in a 1 GiB memory cgroup with -Xms64m -Xmx900m, 1 MB regions and -Xlog:gc,gc+flexheap:
     * 6 s of heap-heavy allocation, then ioSecs of buffered reads of a new 640 MB file, four times round.
     * The file is written inside the cgroup, so its pages are charged there and compete with the heap; it is
     * deleted after. Returns the output of a run that exited 0; flags go before the defaults.
     */
    public static String phaseChangeInCgroup(String fileName, String ioSecs, String... flags) throws Exception {
        Path file = Paths.get(fileName).toAbsolutePath();
        Files.deleteIfExists(file);
        List<String> args = new ArrayList<>(Arrays.asList(flags));
        args.addAll(Arrays.asList("-Xms" + (PHASE_CHANGE_XMS >> 20) + "m", "-Xmx900m", "-XX:G1HeapRegionSize=1m",
                                  "-Xlog:gc,gc+flexheap", "FlexHeapPhases", "6", ioSecs, "4", file.toString(),
                                  "buffered", "640"));
        try {
            return javaInMemoryCgroup(1L << 30, withClasses(args.toArray(new String[0]))).shouldHaveExit(0).output();
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** What checkHandsBackHalfTheSurplus needs handed back on a debug JVM: sixteen 1 MB regions, not noise. */
    public static final long DEBUG_HAND_BACK = 16L << 20;

    /** A fastdebug or slowdebug JVM (the jdk.debug property of the JVM running the test). */
    public static boolean isDebugBuild() {
        return !System.getProperty("jdk.debug", "release").equals("release");
    }

    public static boolean isRoot() {
        try {
            return new String(Files.readAllBytes(Paths.get("/proc/self/status"))).matches("(?s).*\\nUid:\\s+0\\s.*");
        } catch (IOException e) {
            return false;
        }
    }

    public static boolean hasStallSource(String log) {
        return log.contains("I/O stall source:");
    }

    public static Path dataFile() {
        // O_DIRECT needs a real file system, not tmpfs
        String dir = System.getProperty("test.flexheap.datadir", "/var/tmp");
        return Paths.get(dir, "flexheap-jtreg-io.dat");
    }
}
