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
#ifndef SHARE_GC_G1_FLEXHEAP_FLEXHEAPSTEP_HPP
#define SHARE_GC_G1_FLEXHEAP_FLEXHEAPSTEP_HPP

#include <stddef.h>

// bytes rounded down / up to whole regions (unchanged if region_size is 0).
size_t flexheap_round_down(size_t bytes, size_t region_size);
size_t flexheap_round_up(size_t bytes, size_t region_size);

// Logistic step scale, the S-shaped form of OpenJDK 26's G1 heap sizing:
// sigmoid(x) = 1 / (1 + exp(-6 * (x - 1))) (inflection at a 100% change,
// steepness 6), scale = min_scale + (max_scale - min_scale) * sigmoid(x),
// with x = |delta|, delta the relative change of the total cost. NaN counts as 0.
double flexheap_scale(double delta, double min_scale, double max_scale);

// Alg. 2, bytes to commit. uncommitted = max - committed; the base is
// min(expand_percent% of uncommitted, committed), or, if static_step_percent > 0,
// static_step_percent% of uncommitted (paper 6.4 "static steps"; scale ignored).
// The scaled base is bounded to [min(region, uncommitted), uncommitted], then
// aligned up to a region and capped at the whole regions of headroom (G1 commits
// whole regions, so headroom below one region yields 0). 0 if region_size is 0.
size_t flexheap_grow_bytes(size_t committed, size_t max_capacity, size_t region_size,
                           double expand_percent, double scale,
                           unsigned static_step_percent);

// Alg. 3, bytes to uncommit. Budget = (free_regions - eden_target_regions)
// regions (0 if fewer free regions than the eden target), times the scale capped
// at 1.0 (a shrink cannot return more than the free regions beyond the eden
// target), or times static_step_percent% if that is > 0. Aligned down to a
// region and limited so that committed - result >= min_capacity.
size_t flexheap_shrink_bytes(size_t committed, size_t min_capacity, size_t region_size,
                             size_t free_regions, size_t eden_target_regions,
                             double scale, unsigned static_step_percent);

// A step at a full GC that FlexHeap sizes, bounded below by `floor`: the
// committed size at which G1 keeps MinHeapFreeRatio free (so the application
// can run at all: no OutOfMemoryError that stock G1 would not throw). Below
// the floor the step grows to it, whatever was decided; a shrink stops at it.
// A floor is a bound on the result, not only on decisions where G1 would
// expand: a shrink that starts above the floor can end below it.
// `grow` and `bytes` describe the decided step (bytes 0: none) and carry the
// bounded one; returns whether the floor changed it.
bool flexheap_bound_by_floor(bool& grow, size_t& bytes, size_t committed, size_t floor, size_t region_size);

#endif // SHARE_GC_G1_FLEXHEAP_FLEXHEAPSTEP_HPP
