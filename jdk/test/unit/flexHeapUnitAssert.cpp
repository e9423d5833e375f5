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

// This file is part of FlexHeap: flexheap_assert() outside HotSpot. A failed
// invariant names itself on stderr and aborts, so the test that reached it
// fails, and a death test (EXPECT_DEATH) can expect it.
#include "gc/g1/flexheap/flexHeapAssert.hpp"

#include <cstdio>
#include <cstdlib>

void flexheap_assert_failed(const char* file, int line, const char* expression, const char* message) {
  std::fprintf(stderr, "%s:%d: flexheap_assert(%s) failed: %s\n", file, line, expression, message);
  std::abort();
}
