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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class SizesTest {
    @Test
    void binarySuffixes() {
        assertEquals(3L << 30, Sizes.parse("3g"));
        assertEquals(3L << 30, Sizes.parse("3G"));
        assertEquals(3L << 30, Sizes.parse("3GiB"));
        assertEquals(384L << 20, Sizes.parse("384m"));
        assertEquals(4096, Sizes.parse("4k"));
        assertEquals(1536L << 20, Sizes.parse("1.5g"));
        assertEquals(1L << 40, Sizes.parse("1t"));
    }

    @Test
    void bareNumbersFractionsAndJunkAreErrors() {
        for (String bad : new String[] {"300", "0.5", "", "3x", "g", "-1g", "0k", "1e3m"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Sizes.parse(bad), bad);
            assertEquals(true, e.getMessage().contains("'" + bad + "'"), e.getMessage());
        }
    }

    @Test
    void formatRoundTrips() {
        assertEquals("3g", Sizes.format(3L << 30));
        assertEquals("1.50g", Sizes.format(1536L << 20));
        assertEquals("4k", Sizes.format(4096));
        assertEquals(384L << 20, Sizes.parse(Sizes.format(384L << 20)));
    }
}
