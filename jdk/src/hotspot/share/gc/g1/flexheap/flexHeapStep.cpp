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

// This file is part of FlexHeap: the resize step sizes of the paper's section 4.5 (Alg. 2, 3).
#include "gc/g1/flexheap/flexHeapStep.hpp"

#include "gc/g1/flexheap/flexHeapMath.hpp"

#include <math.h>

// Helpers carry a prefix: inside HotSpot the precompiled header is visible.
size_t flexheap_round_down(size_t bytes, size_t region_size) {
  return region_size == 0 ? bytes : bytes - bytes % region_size;
}

size_t flexheap_round_up(size_t bytes, size_t region_size) {
  size_t down = flexheap_round_down(bytes, region_size);
  return down == bytes ? bytes : down + region_size;
}

// A non-negative byte count as size_t, limited to `limit` (also maps NaN to 0).
static size_t flexheap_to_bytes(double bytes, size_t limit) {
  if (!(bytes > 0.0)) {
    return 0;
  }
  return bytes >= (double)limit ? limit : (size_t)bytes;
}

double flexheap_scale(double delta, double min_scale, double max_scale) {
  const double x = flexheap_nonneg(fabs(delta));   // NaN: 0
  double sigmoid = 1.0 / (1.0 + exp(-6.0 * (x - 1.0)));
  return min_scale + (max_scale - min_scale) * sigmoid;
}

size_t flexheap_grow_bytes(size_t committed, size_t max_capacity, size_t region_size,
                           double expand_percent, double scale,
                           unsigned static_step_percent) {
  if (region_size == 0 || committed >= max_capacity) {
    return 0;
  }
  size_t uncommitted = max_capacity - committed;
  double resize;
  if (static_step_percent > 0) {
    resize = static_step_percent / 100.0 * (double)uncommitted;
  } else {
    double expand_via_pct = expand_percent / 100.0 * (double)uncommitted;
    double base = expand_via_pct < (double)committed ? expand_via_pct : (double)committed;
    resize = base * scale;
  }
  size_t min_expand = region_size < uncommitted ? region_size : uncommitted;
  size_t bytes = flexheap_to_bytes(resize, uncommitted);
  if (bytes < min_expand) {
    bytes = min_expand;
  }
  size_t headroom = flexheap_round_down(uncommitted, region_size);
  bytes = flexheap_round_up(bytes, region_size);
  return bytes < headroom ? bytes : headroom;
}

size_t flexheap_shrink_bytes(size_t committed, size_t min_capacity, size_t region_size,
                             size_t free_regions, size_t eden_target_regions,
                             double scale, unsigned static_step_percent) {
  if (region_size == 0 || committed <= min_capacity) {
    return 0;
  }
  size_t regions = free_regions > eden_target_regions ? free_regions - eden_target_regions : 0;
  size_t budget = regions * region_size;
  double factor;
  if (static_step_percent > 0) {
    factor = static_step_percent / 100.0;
  } else {
    factor = scale >= 1.0 ? 1.0 : scale;  // NaN stays NaN and becomes 0 bytes
  }
  size_t room = flexheap_round_down(committed - min_capacity, region_size);
  size_t bytes = flexheap_round_down(flexheap_to_bytes((double)budget * factor, budget), region_size);
  return bytes < room ? bytes : room;
}

bool flexheap_bound_by_floor(bool& grow, size_t& bytes, size_t committed, size_t floor, size_t region_size) {
  if (committed < floor && (!grow || bytes == 0 || committed + bytes < floor)) {
    grow = true;
    bytes = flexheap_round_up(floor - committed, region_size);
    return true;
  }
  if (!grow && bytes > 0 && committed - bytes < floor) {
    bytes = committed > floor ? flexheap_round_down(committed - floor, region_size) : 0;
    return true;
  }
  return false;
}
