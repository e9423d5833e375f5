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

#ifndef SHARE_GC_G1_FLEXHEAP_FLEXHEAPASSERT_HPP
#define SHARE_GC_G1_FLEXHEAP_FLEXHEAPASSERT_HPP

// flexheap_assert(p, msg): an invariant of FlexHeap's pure files (no HotSpot
// headers beside this one). In the JVM it is HotSpot's assert (fastdebug
// builds check it, product builds compile it away); in the unit tests
// (FLEXHEAP_UNIT_TEST) a failure reports the invariant and aborts, so a test
// fails, and a death test can expect it.
#ifdef FLEXHEAP_UNIT_TEST
void flexheap_assert_failed(const char* file, int line, const char* expression, const char* message);
#define flexheap_assert(p, msg)                                  \
  do {                                                           \
    if (!(p)) {                                                  \
      flexheap_assert_failed(__FILE__, __LINE__, #p, msg);       \
    }                                                            \
  } while (0)
#else
#include "utilities/debug.hpp"
#define flexheap_assert(p, msg) assert(p, "%s", msg)
#endif

#endif // SHARE_GC_G1_FLEXHEAP_FLEXHEAPASSERT_HPP
