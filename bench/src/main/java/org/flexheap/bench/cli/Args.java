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

package org.flexheap.bench.cli;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.flexheap.bench.util.Sizes;

/** {@code --name value} options and {@code --flag} switches, rejecting unknown names. */
final class Args {
    private final Map<String, String> values = new HashMap<>();
    private final Set<String> used = new HashSet<>();

    Args(String[] argv, int from, Set<String> flags) {
        for (int i = from; i < argv.length; i++) {
            String a = argv[i];
            if (!a.startsWith("--")) throw new UsageException("unexpected argument '" + a + "'");
            String name = a.substring(2);
            int eq = name.indexOf('=');
            if (eq >= 0) {
                values.put(name.substring(0, eq), name.substring(eq + 1));
            } else if (flags.contains(name)) {
                values.put(name, "true");
            } else {
                if (i + 1 >= argv.length) throw new UsageException("option --" + name + " needs a value");
                values.put(name, argv[++i]);
            }
        }
    }

    String string(String name, String def) {
        used.add(name);
        return values.getOrDefault(name, def);
    }

    String required(String name) {
        String v = string(name, null);
        if (v == null) throw new UsageException("missing --" + name);
        return v;
    }

    long longValue(String name, long def) {
        String v = string(name, null);
        try {
            return v == null ? def : Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + " expects an integer, got '" + v + "'");
        }
    }

    int intValue(String name, int def) {
        long v = longValue(name, def);
        if (v > Integer.MAX_VALUE || v < Integer.MIN_VALUE) throw new UsageException("--" + name + " out of range");
        return (int) v;
    }

    double doubleValue(String name, double def) {
        String v = string(name, null);
        try {
            return v == null ? def : Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + " expects a number, got '" + v + "'");
        }
    }

    /** A size with a binary suffix (3g, 384m, 4k); {@code def} bytes when absent. */
    long size(String name, long def) {
        Long v = optionalSize(name);
        return v == null ? def : v;
    }

    Long optionalSize(String name) {
        String v = string(name, null);
        if (v == null) return null;
        try {
            return Sizes.parse(v);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--" + name + ": " + e.getMessage());
        }
    }

    boolean flag(String name) {
        return Boolean.parseBoolean(string(name, "false"));
    }

    /** Call after reading every option: catches typos such as --segment. */
    void rejectUnused() {
        for (String k : values.keySet()) {
            if (!used.contains(k)) throw new UsageException("unknown option --" + k);
        }
    }

    static final class UsageException extends RuntimeException {
        UsageException(String msg) { super(msg); }
    }
}
