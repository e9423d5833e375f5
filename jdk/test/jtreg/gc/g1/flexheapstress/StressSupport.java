/*
 * Part of FlexHeap's stress tests: shared checks on a child JVM's output.
 */
import java.nio.file.*;
import java.util.*;

public class StressSupport {
    static Path dataFile() {
        return FlexHeapTestSupport.dataFile().resolveSibling("flexheap-stress-io.dat");
    }

    /** A child JVM that completed its workload without an OutOfMemoryError or a crash. */
    static String completed(FlexHeapTestSupport.Result r, String what) {
        String out = r.output();
        if (out.contains("OutOfMemoryError")) {
            throw new RuntimeException(what + ": OutOfMemoryError\n" + FlexHeapTestSupport.tail(out, 6000));
        }
        if (out.contains("A fatal error has been detected") || r.exit() != 0 || !out.contains("STRESS OK")) {
            throw new RuntimeException(what + ": exit " + r.exit() + ", no STRESS OK\n" + FlexHeapTestSupport.tail(out, 6000));
        }
        return out;
    }

    /** Every decision's committed heap lies in [min, max]. */
    static void committedWithin(List<FlexHeapTestSupport.Decision> ds, long min, long max) {
        for (FlexHeapTestSupport.Decision d : ds) {
            if (d.committed() < min || d.committed() > max) {
                throw new RuntimeException("committed " + d.committed() + " outside [" + min + ", " + max + "] at " + d);
            }
        }
    }

    /** Changes of direction between consecutive Grow/Shrink actions. */
    static int reversals(List<FlexHeapTestSupport.Decision> ds) {
        String last = null;
        int n = 0;
        for (FlexHeapTestSupport.Decision d : ds) {
            String a = d.action();
            if (!a.equals("Grow") && !a.equals("Shrink")) continue;
            if (last != null && !last.equals(a)) n++;
            last = a;
        }
        return n;
    }
}
