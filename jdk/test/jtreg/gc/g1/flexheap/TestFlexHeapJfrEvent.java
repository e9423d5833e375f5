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
import java.util.regex.*;
import jdk.jfr.EventType;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

public class TestFlexHeapJfrEvent {
    static final String EVENT = "jdk.FlexHeapDecision";
    static final Pattern LINE = Pattern.compile(
        "GC\\((\\d+)\\) decision state=(\\S+) action=(\\S+) bytes=(\\d+) reason=(\\S+) .*committed=(\\d+) S_io=(\\d+) pause=(\\S+)");

    public static void main(String[] args) throws Exception {
        Path on = Paths.get("flexheap-on.jfr");
        String out = FlexHeapTestSupport.java(FlexHeapTestSupport.withClasses(
                "-XX:+UseFlexHeap", "-Xms64m", "-Xmx512m", "-XX:G1HeapRegionSize=1m",
                "-XX:StartFlightRecording:filename=" + on, "-Xlog:gc+flexheap",
                "FlexHeapPhases", "3", "3", "2", FlexHeapTestSupport.dataFile().toString()))
            .shouldHaveExit(0).output();

        Map<String, MatchResult> lines = new HashMap<>();
        Matcher m = LINE.matcher(out);
        while (m.find()) {
            lines.put(m.group(1) + "/" + m.group(8), m.toMatchResult());
        }
        if (lines.isEmpty()) throw new RuntimeException("no decision lines in the log");

        List<RecordedEvent> events = read(on);
        if (events.isEmpty()) throw new RuntimeException("no " + EVENT + " events in " + on);
        int matched = 0;
        boolean grew = false;
        for (RecordedEvent e : events) {
            String key = e.getInt("gcId") + "/" + e.getString("pause");
            MatchResult l = lines.get(key);
            if (l == null) throw new RuntimeException("event without a log line: " + e);
            check(e, "state", e.getString("state"), l.group(2));
            check(e, "action", e.getString("action"), l.group(3));
            check(e, "applied", String.valueOf(e.getLong("applied")), l.group(4));
            check(e, "reason", e.getString("reason"), l.group(5));
            check(e, "committed", String.valueOf(e.getLong("committed")), l.group(6));
            check(e, "pageCache", String.valueOf(e.getLong("pageCache")), l.group(7));
            if (e.getDouble("gcCost") < 0 || e.getDouble("ioCost") < 0 || e.getDouble("totalCostAverage") < 0) {
                throw new RuntimeException("negative cost in " + e);
            }
            if (e.getDuration().isNegative()) throw new RuntimeException("negative duration in " + e);
            grew |= e.getString("action").equals("Grow") && e.getLong("applied") > 0;
            matched++;
        }
        // The recording starts before main(); only a decision at the very start could be missed.
        if (matched < lines.size() - 1) {
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
