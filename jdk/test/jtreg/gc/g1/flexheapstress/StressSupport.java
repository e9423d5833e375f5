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
