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

// This file is part of FlexHeap: clamps for the pure controller files, which
// include no HotSpot header (jdk/test/unit builds them alone), so HotSpot's
// MAX2 and clamp are not at hand. Both map NaN to the lower bound, so a
// corrupt sample or flag value never reaches a sizing decision as NaN.
#ifndef SHARE_GC_G1_FLEXHEAP_FLEXHEAPMATH_HPP
#define SHARE_GC_G1_FLEXHEAP_FLEXHEAPMATH_HPP

// x if it is positive, else 0 (also for NaN).
inline double flexheap_nonneg(double x) {
  return x > 0.0 ? x : 0.0;
}

// x within [lo, hi]; lo for NaN. Requires lo <= hi.
inline double flexheap_clamp(double x, double lo, double hi) {
  if (!(x > lo)) return lo;
  return x < hi ? x : hi;
}

#endif // SHARE_GC_G1_FLEXHEAP_FLEXHEAPMATH_HPP
