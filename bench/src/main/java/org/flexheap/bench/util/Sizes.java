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

package org.flexheap.bench.util;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sizes on the command line, one convention: binary suffixes only ({@code k m g t}, optionally
 * followed by {@code iB} or {@code B}: 1k = 1 KiB = 1024 bytes). A bare number is an error, so
 * {@code 300} can never silently mean 300 bytes.
 */
public final class Sizes {
    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)([kmgt])(?:i?b)?");

    private Sizes() {}

    public static long parse(String text) {
        Matcher m = SIZE.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("size '" + text + "' needs a binary unit suffix: k, m, g or t (e.g. 3g)");
        }
        int shift = switch (m.group(2)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            default -> 40;
        };
        double bytes = Double.parseDouble(m.group(1)) * (1L << shift);
        if (bytes < 1 || bytes > Long.MAX_VALUE / 2) throw new IllegalArgumentException("size '" + text + "' out of range");
        return (long) bytes;
    }

    /** 3221225472 -> "3g", 1536 MiB -> "1.5g", 4096 -> "4k". */
    public static String format(long bytes) {
        String[] units = {"t", "g", "m", "k"};
        int[] shifts = {40, 30, 20, 10};
        for (int i = 0; i < units.length; i++) {
            if (bytes >= (1L << shifts[i])) {
                double v = (double) bytes / (1L << shifts[i]);
                return (v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.2f", v)) + units[i];
            }
        }
        return bytes + "b";
    }
}
