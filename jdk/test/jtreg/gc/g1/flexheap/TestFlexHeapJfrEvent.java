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
 * @summary Every FlexHeap decision is a jdk.FlexHeapDecision JFR event (on in the default settings)
 *          carrying the fields of its -Xlog:gc+flexheap line; without -XX:+UseFlexHeap there are none.
 * @library /lib
 * @build FlexHeapPhases
 * @run main/timeout=300 TestFlexHeapJfrEvent
 */
import java.nio.file.*;
import java.util.*;
import jdk.jfr.EventType;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

public class TestFlexHeapJfrEvent {
    static final String EVENT = "jdk.FlexHeapDecision";

    public static void main(String[] args) throws Exception {
        Path on = Paths.get("flexheap-on.jfr");
        String out = FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(
                "-XX:+UseFlexHeap", "-Xms64m", "-Xmx512m", "-XX:G1HeapRegionSize=1m",
                "-XX:StartFlightRecording:filename=" + on, "-Xlog:gc+flexheap",
                "FlexHeapPhases", "3", "3", "2", FlexHeapTestSupport.dataFile().toString()))
            .shouldHaveExit(0).output();

        Map<String, FlexHeapTestSupport.Decision> lines = new HashMap<>();
        for (FlexHeapTestSupport.Decision d : FlexHeapTestSupport.decisions(out)) {
            lines.put(d.gcId() + "/" + d.pause(), d);
        }
        if (lines.isEmpty()) throw new RuntimeException("no decision lines in the log");

        List<RecordedEvent> events = read(on);
        if (events.isEmpty()) throw new RuntimeException("no " + EVENT + " events in " + on);
        int matched = 0;
        boolean grew = false;
        int firstEventGc = Integer.MAX_VALUE, lastEventGc = Integer.MIN_VALUE;
        Set<String> seen = new HashSet<>();
        for (RecordedEvent e : events) {
            String key = e.getInt("gcId") + "/" + e.getString("pause");
            seen.add(key);
            firstEventGc = Math.min(firstEventGc, e.getInt("gcId"));
            lastEventGc = Math.max(lastEventGc, e.getInt("gcId"));
            FlexHeapTestSupport.Decision l = lines.get(key);
            if (l == null) throw new RuntimeException("event without a log line: " + e);
            check(e, "state", e.getString("state"), l.state());
            check(e, "action", e.getString("action"), l.action());
            check(e, "applied", String.valueOf(e.getLong("applied")), String.valueOf(l.bytes()));
            check(e, "reason", e.getString("reason"), l.reason());
            check(e, "committed", String.valueOf(e.getLong("committed")), String.valueOf(l.committed()));
            check(e, "pageCache", String.valueOf(e.getLong("pageCache")), String.valueOf(l.pageCache()));
            check(e, "policy", e.getString("policy"), l.policy());
            check(e, "target", String.valueOf(e.getLong("target")), String.valueOf(l.target()));
            check(e, "usedAfter", String.valueOf(e.getLong("usedAfter")), String.valueOf(l.usedAfter()));
            if (e.getDouble("gcRate") < 0 || e.getDouble("ioRate") < 0 || e.getDouble("refaultFraction") < 0
                || e.getDouble("refaultFraction") > 1) {
                throw new RuntimeException("rate or refault fraction out of range in " + e);
            }
            if (e.getDouble("gcCost") < 0 || e.getDouble("ioCost") < 0 || e.getDouble("totalCostAverage") < 0) {
                throw new RuntimeException("negative cost in " + e);
            }
            if (e.getDuration().isNegative()) throw new RuntimeException("negative duration in " + e);
            grew |= e.getString("action").equals("Grow") && e.getLong("applied") > 0;
            matched++;
        }
        // Only decisions before the recording started (JVM start-up: slow under heap
        // verification) or after it stopped (shutdown) may lack an event.
        for (Map.Entry<String, FlexHeapTestSupport.Decision> line : lines.entrySet()) {
            long gc = line.getValue().gcId();
            if (!seen.contains(line.getKey()) && gc > firstEventGc && gc < lastEventGc) {
                throw new RuntimeException("no event for decision " + line.getKey() + " between GC(" + firstEventGc
                                           + ") and GC(" + lastEventGc + "): " + matched + " events for "
                                           + lines.size() + " decision lines");
            }
        }
        if (matched < lines.size() / 2) {
            throw new RuntimeException(matched + " events for " + lines.size() + " decision lines");
        }
        if (!grew) throw new RuntimeException("no Grow event in an allocation phase");

        Path off = Paths.get("flexheap-off.jfr");
        FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(
                "-Xms64m", "-Xmx512m", "-XX:StartFlightRecording:filename=" + off,
                "FlexHeapPhases", "2", "0", "2", FlexHeapTestSupport.dataFile().toString()))
            .shouldHaveExit(0);
        if (!read(off).isEmpty()) throw new RuntimeException(EVENT + " events without -XX:+UseFlexHeap");
        System.out.println(matched + " events matched " + lines.size() + " decision lines");
    }

    static List<RecordedEvent> read(Path p) throws Exception {
        try (RecordingFile f = new RecordingFile(p)) {
            // The event type is in the recording's metadata either way: the JDK's metadata.bin knows it.
            if (f.readEventTypes().stream().map(EventType::getName).noneMatch(EVENT::equals)) {
                throw new RuntimeException(EVENT + " is not a known event type in " + p);
            }
        }
        return RecordingFile.readAllEvents(p).stream().filter(e -> e.getEventType().getName().equals(EVENT)).toList();
    }

    static void check(RecordedEvent e, String field, String actual, String expected) {
        if (!actual.equals(expected)) {
            throw new RuntimeException(field + "=" + actual + " but the log says " + expected + " in " + e);
        }
    }
}
