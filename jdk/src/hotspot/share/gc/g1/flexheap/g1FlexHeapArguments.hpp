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

#ifndef SHARE_GC_G1_FLEXHEAP_G1FLEXHEAPARGUMENTS_HPP
#define SHARE_GC_G1_FLEXHEAP_G1FLEXHEAPARGUMENTS_HPP

#include "memory/allStatic.hpp"
#include "utilities/globalDefinitions.hpp"

// FlexHeap's part of argument processing (runtime/arguments.cpp).
class G1FlexHeapArguments : AllStatic {
 public:
  // Before the collector is chosen: -XX:+UseFlexHeap with no collector
  // selected picks G1, where ergonomics would pick Serial (one CPU or less
  // than 1792 MB), since FlexHeap sizes G1's heap.
  static void select_gc();
  // After the collector is chosen: refuses any collector other than G1.
  static jint initialize();
  // In Arguments::set_heap_size(), after the compressed-oops override check:
  // makes FlexHeapMaxRAMPercentage the ergonomic MaxRAMPercentage when
  // FlexHeap is on and neither it nor -Xmx is given. Returns whether it did;
  // such a default stops at the compressed oops limit.
  static bool set_default_max_ram_percentage();

  static bool is_paper_policy();
};

#endif // SHARE_GC_G1_FLEXHEAP_G1FLEXHEAPARGUMENTS_HPP
