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
 * @summary Inside a container's cgroup namespace (/proc/self/cgroup and the cgroup mount root read "/", as in
 *          Docker and Kubernetes), FlexHeap's page cache (S_io) is the page cache of the JVM's own memory
 *          cgroup, found as HotSpot's container support finds it, not the host's /proc/meminfo.
 *          Needs root, unshare(1) and mount(8).
 * @library /lib
 * @build FlexHeapPhases
 * @run main/timeout=300 TestFlexHeapContainerPageCache
 */
import java.nio.file.*;
import java.util.*;
import java.util.regex.*;

public class TestFlexHeapContainerPageCache {
    public static void main(String[] args) throws Exception {
        if (!FlexHeapTestSupport.isRoot() || !Files.isExecutable(Paths.get("/usr/bin/unshare"))) {
            throw new jtreg.SkippedException("needs root and unshare");
        }
        // Our memory cgroup: a child of the one this test runs in (v1 memory controller, else v2).
        Path parent = null;
        String key = null;
        for (String line : Files.readAllLines(Paths.get("/proc/self/cgroup"))) {
            String[] f = line.split(":", 3);
            if (Arrays.asList(f[1].split(",")).contains("memory")) {
                parent = Paths.get("/sys/fs/cgroup/memory" + f[2]);
                key = "total_cache";
            }
        }
        if (parent == null) {
            for (String line : Files.readAllLines(Paths.get("/proc/self/cgroup"))) {
                String[] f = line.split(":", 3);
                if (f[0].equals("0") && f[1].isEmpty()
                    && Files.readString(Paths.get("/sys/fs/cgroup/cgroup.controllers")).contains("memory")) {
                    parent = Paths.get("/sys/fs/cgroup" + f[2]);
                    key = "file";
                }
            }
        }
        if (parent == null || !Files.isDirectory(parent)) throw new jtreg.SkippedException("no memory cgroup");
        Path cg = parent.resolve("flexheap-jtreg-" + ProcessHandle.current().pid());
        try {
            Files.createDirectory(cg);
        } catch (Exception e) {
            throw new jtreg.SkippedException("cannot create a memory cgroup: " + e);
        }
        // Set false when the JVM has exited, or on any failure (the sampler must not outlive the test).
        final java.util.concurrent.atomic.AtomicBoolean running = new java.util.concurrent.atomic.AtomicBoolean(true);
        try {
            long limit = 768L << 20;
            Files.writeString(cg.resolve(key.equals("file") ? "memory.max" : "memory.limit_in_bytes"), "" + limit);
            String java = Paths.get(System.getProperty("test.jdk"), "bin", "java").toString();
            // Enter the cgroup, then new cgroup and mount namespaces with the cgroup file system mounted
            // afresh, as Docker and Kubernetes do: inside, /proc/self/cgroup says "/" and so does the mount root.
            String remount = key.equals("file")
                ? "umount -l /sys/fs/cgroup && mount -t cgroup2 none /sys/fs/cgroup"
                : "umount /sys/fs/cgroup/memory && mount -t cgroup -o memory memory /sys/fs/cgroup/memory";
            String cmd = "echo $$ > " + cg.resolve("cgroup.procs")
                + " && exec unshare --cgroup --mount --propagation private sh -c '" + remount
                + " && grep memory /proc/self/cgroup; exec " + java
                + " -cp " + System.getProperty("test.classes")
                + " -XX:+UseFlexHeap -Xmx256m -Xlog:gc+flexheap,os+container=debug -XX:FlexHeapIOStallBackend=none"
                // a new file, written inside the cgroup: its page cache is charged to it
                + " FlexHeapPhases 2 3 2 " + Paths.get("container-io.dat").toAbsolutePath() + " buffered 192'";
            Files.deleteIfExists(Paths.get("container-io.dat"));
            // The cgroup's own figure while the JVM runs (others may drop caches at any time, so compare
            // with what the cgroup said around the same time, not after the run). The sampler starts
            // before the JVM: a slow test VM (fastdebug, heap verification) once took its first sample
            // after the child had written its file, and the child's first decisions, made while the
            // cache was still empty, looked wrong.
            List<Long> samples = Collections.synchronizedList(new ArrayList<>());
            final String statKey = key;
            Thread sampler = new Thread(() -> {
                while (running.get()) {
                    try {
                        for (String line : Files.readAllLines(cg.resolve("memory.stat"))) {
                            if (line.startsWith(statKey + " ")) samples.add(Long.parseLong(line.substring(statKey.length() + 1).trim()));
                        }
                        Thread.sleep(50);
                    } catch (Exception e) {
                        return;
                    }
                }
            });
            sampler.start();
            while (samples.isEmpty() && sampler.isAlive()) Thread.sleep(10);
            Process p = new ProcessBuilder("sh", "-c", cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            int exit = p.waitFor();
            running.set(false);
            sampler.join();
            System.out.println(out);
            if (exit != 0) throw new RuntimeException("child exit " + exit);
            Matcher src = Pattern.compile("page cache \\(S_io\\) from (\\S+?);").matcher(out);
            if (!src.find()) throw new RuntimeException("no page-cache source line");
            if (src.group(1).equals("/proc/meminfo")) {
                throw new RuntimeException("page cache read from the host's /proc/meminfo inside a cgroup namespace");
            }
            List<FlexHeapTestSupport.Decision> ds = FlexHeapTestSupport.decisions(out);
            if (ds.isEmpty()) throw new RuntimeException("no decisions");
            long max = 0;
            for (FlexHeapTestSupport.Decision d : ds) max = Math.max(max, d.pageCache());
            if (max > limit) throw new RuntimeException("S_io " + max + " exceeds the cgroup's limit " + limit);
            if (samples.isEmpty()) throw new RuntimeException("no memory.stat samples of the cgroup");
            long lo = Collections.min(samples), hi = Collections.max(samples);
            long slack = 32L << 20;
            System.out.println("S_io of " + ds.size() + " decisions up to " + max + "; cgroup " + key + " in ["
                               + lo + ", " + hi + "] over " + samples.size() + " samples");
            for (FlexHeapTestSupport.Decision d : ds) {
                if (d.pageCache() > hi + slack || d.pageCache() + slack < lo) {
                    throw new RuntimeException("S_io " + d.pageCache() + " outside the cgroup's page cache [" + lo + ", "
                                               + hi + "] during the run: " + d);
                }
            }
            // ... and FlexHeap saw the cgroup's cache once it held the file (not an empty or other cgroup).
            if (max + slack < hi) {
                throw new RuntimeException("S_io never came near the cgroup's page cache: at most " + max + " against " + hi);
            }
        } finally {
            running.set(false);
            for (int i = 0; i < 50; i++) {
                try { Files.delete(cg); break; } catch (Exception e) { Thread.sleep(100); }
            }
        }
    }
}
