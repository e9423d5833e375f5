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
 * @summary With -XX:FlexHeapIOStallBackend=psi, as a JVM without CAP_BPF or delay accounting gets from auto,
 *          FlexHeap takes the mutators' I/O stall from its own cgroup v2's io.pressure: the log names that
 *          file, and the I/O phase of a direct-I/O program shows a non-zero I/O cost. In the root cgroup,
 *          whose pressure is the whole machine's, the backend is refused with that reason.
 *          Needs root (to make a cgroup) and a cgroup v2 mount with PSI.
 * @library /lib
 * @build FlexHeapPhases
 * @run main/timeout=300 TestFlexHeapPsiStallSource
 */
import java.nio.file.*;
import java.util.*;
import java.util.regex.*;

public class TestFlexHeapPsiStallSource {
    static Path cgroup2Mount() throws Exception {
        for (String line : Files.readAllLines(Paths.get("/proc/self/mountinfo"))) {
            int sep = line.indexOf(" - ");
            if (sep > 0 && line.startsWith("cgroup2 ", sep + 3)) return Paths.get(line.split(" ")[4]);
        }
        return null;
    }

    public static void main(String[] args) throws Exception {
        Path mnt = cgroup2Mount();
        if (!FlexHeapTestSupport.isRoot() || mnt == null || !Files.exists(mnt.resolve("io.pressure"))) {
            throw new jtreg.SkippedException("needs root and a cgroup v2 mount with PSI");
        }
        Path cg = mnt.resolve("flexheap-jtreg-psi-" + ProcessHandle.current().pid());
        Files.createDirectory(cg);
        String out;
        Path file = FlexHeapTestSupport.dataFile();
        try {
            String cmd = "echo $$ > " + cg.resolve("cgroup.procs") + " && exec "
                + Paths.get(System.getProperty("test.jdk"), "bin", "java")
                + " -cp " + System.getProperty("test.classes")
                + " -XX:+UseFlexHeap -XX:FlexHeapIOStallBackend=psi -Xmx256m -Xlog:gc+flexheap"
                + " FlexHeapPhases 1 3 4 " + file;
            Process p = new ProcessBuilder("sh", "-c", cmd).redirectErrorStream(true).start();
            out = new String(p.getInputStream().readAllBytes());
            int exit = p.waitFor();
            System.out.println(FlexHeapTestSupport.tail(out, 6000));
            if (exit != 0) throw new RuntimeException("child exit " + exit);
        } finally {
            for (int i = 0; i < 50; i++) {
                try { Files.delete(cg); break; } catch (Exception e) { Thread.sleep(100); }
            }
        }
        String own = cg.resolve("io.pressure").toString();
        if (!out.contains("I/O stall source: psi (psi: " + own)) {
            throw new RuntimeException("the stall source is not this cgroup's io.pressure (" + own + ")");
        }
        double ioStart = FlexHeapTestSupport.phaseTime(out, "PHASE io start");
        Matcher m = Pattern.compile("\\[(\\d+\\.\\d+)s\\].* decision .* io_rate=([0-9.eE+-]+)").matcher(out);
        double maxIo = 0;
        int inIo = 0;
        while (m.find()) {
            if (Double.parseDouble(m.group(1)) >= ioStart) {
                inIo++;
                maxIo = Math.max(maxIo, Double.parseDouble(m.group(2)));
            }
        }
        System.out.println(inIo + " decisions in the I/O phase, largest io_rate " + maxIo);
        if (inIo == 0) throw new RuntimeException("no decision in the I/O phase");
        if (!(maxIo > 0)) throw new RuntimeException("4 threads in direct reads for 3 s, yet no I/O cost");

        // This test's own cgroup v2: if it is the root, the backend must refuse it and say why.
        String self = "";
        for (String line : Files.readAllLines(Paths.get("/proc/self/cgroup"))) {
            if (line.startsWith("0::")) self = line.substring(3);
        }
        if (self.equals("/")) {
            String root = FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(
                "-XX:+UseFlexHeap", "-XX:FlexHeapIOStallBackend=psi", "-Xlog:gc+flexheap", "-version")).output();
            if (!root.contains("No I/O stall source") || !root.contains("root cgroup")) {
                throw new RuntimeException("psi in the root cgroup was not refused with its reason");
            }
        }
    }
}
