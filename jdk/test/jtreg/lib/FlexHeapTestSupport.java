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

    /** One "decision" line of -Xlog:gc+flexheap. */
    public record Decision(double time, long gcId, String state, String action, long bytes, String reason,
                           long committed, long pageCache, String pause) {}

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

    public static List<String> withClasses(String... args) {
        List<String> l = new ArrayList<>(List.of("-cp", System.getProperty("test.classes")));
        l.addAll(List.of(args));
        return l;
    }

    static final Pattern DECISION = Pattern.compile(
        "\\[(\\d+\\.\\d+)s\\].*GC\\((\\d+)\\) decision state=(\\S+) action=(\\S+) bytes=(\\d+) reason=(\\S+) "
        + ".*committed=(\\d+) S_io=(\\d+) pause=(\\S+)");

    public static List<Decision> decisions(String log) {
        List<Decision> l = new ArrayList<>();
        Matcher m = DECISION.matcher(log);
        while (m.find()) {
            l.add(new Decision(Double.parseDouble(m.group(1)), Long.parseLong(m.group(2)), m.group(3), m.group(4),
                               Long.parseLong(m.group(5)), m.group(6), Long.parseLong(m.group(7)),
                               Long.parseLong(m.group(8)), m.group(9)));
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

    public static boolean hasStallSource(String log) {
        return log.contains("I/O stall source:");
    }

    public static Path dataFile() {
        // O_DIRECT needs a real file system, not tmpfs
        String dir = System.getProperty("test.flexheap.datadir", "/var/tmp");
        return Paths.get(dir, "flexheap-jtreg-io.dat");
    }
}
