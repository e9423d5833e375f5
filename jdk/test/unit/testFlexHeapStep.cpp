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

// This file is part of FlexHeap: unit tests of the resize steps (Alg. 2, 3) and the logistic scale.
#include "gc/g1/flexheap/flexHeapStep.hpp"

#include <gtest/gtest.h>
#include <math.h>

static const size_t MiB = 1024 * 1024;

TEST(FlexHeapScale, LogisticShape) {
  const double at0 = 0.2 + 1.8 / (1.0 + exp(6.0));
  EXPECT_DOUBLE_EQ(at0, flexheap_scale(0.0, 0.2, 2.0));
  EXPECT_NEAR(0.2045, flexheap_scale(0.0, 0.2, 2.0), 1e-4);  // small change: near min
  EXPECT_DOUBLE_EQ(1.1, flexheap_scale(1.0, 0.2, 2.0));      // inflection: midpoint
  EXPECT_DOUBLE_EQ(2.0, flexheap_scale(1e9, 0.2, 2.0));      // large: max
  EXPECT_DOUBLE_EQ(2.0, flexheap_scale(INFINITY, 0.2, 2.0));
  EXPECT_DOUBLE_EQ(1.1, flexheap_scale(-1.0, 0.2, 2.0));     // |delta|
  EXPECT_DOUBLE_EQ(at0, flexheap_scale(NAN, 0.2, 2.0));
  EXPECT_LT(flexheap_scale(0.5, 0.2, 2.0), flexheap_scale(0.6, 0.2, 2.0));
  EXPECT_DOUBLE_EQ(1.0, flexheap_scale(3.0, 1.0, 1.0));      // degenerate range
}

// Alg. 2 -------------------------------------------------------------------

TEST(FlexHeapGrow, CommittedSmallerThanPercentOfUncommitted) {
  // uncommitted 900 MiB, 20% = 180 MiB > committed 100 MiB: base = 100 MiB
  EXPECT_EQ(100 * MiB, flexheap_grow_bytes(100 * MiB, 1000 * MiB, MiB, 20.0, 1.0, 0));
  EXPECT_EQ(200 * MiB, flexheap_grow_bytes(100 * MiB, 1000 * MiB, MiB, 20.0, 2.0, 0));
}

TEST(FlexHeapGrow, PercentOfUncommittedSmallerThanCommitted) {
  // uncommitted 400 MiB, 20% = 80 MiB < committed 600 MiB
  EXPECT_EQ(80 * MiB, flexheap_grow_bytes(600 * MiB, 1000 * MiB, MiB, 20.0, 1.0, 0));
  EXPECT_EQ(40 * MiB, flexheap_grow_bytes(600 * MiB, 1000 * MiB, MiB, 20.0, 0.5, 0));
}

TEST(FlexHeapGrow, AlignedUpToRegion) {
  // 100 MiB * 0.335 = 33.5 MiB -> 34 regions of 1 MiB
  EXPECT_EQ(34 * MiB, flexheap_grow_bytes(100 * MiB, 1000 * MiB, MiB, 20.0, 0.335, 0));
  // 4 MiB regions: 33.5 MiB -> 36 MiB
  EXPECT_EQ(36 * MiB, flexheap_grow_bytes(100 * MiB, 1000 * MiB, 4 * MiB, 20.0, 0.335, 0));
}

TEST(FlexHeapGrow, NearMaxClampsToUncommitted) {
  // uncommitted 5 MiB, 20% = 1 MiB, scale 2 -> 2 MiB
  EXPECT_EQ(2 * MiB, flexheap_grow_bytes(995 * MiB, 1000 * MiB, MiB, 20.0, 2.0, 0));
  // the percentage of all 5 MiB times a huge scale is clamped to the 5 MiB left
  EXPECT_EQ(5 * MiB, flexheap_grow_bytes(995 * MiB, 1000 * MiB, MiB, 100.0, 50.0, 0));
  // at max: nothing
  EXPECT_EQ(0u, flexheap_grow_bytes(1000 * MiB, 1000 * MiB, MiB, 20.0, 2.0, 0));
  EXPECT_EQ(0u, flexheap_grow_bytes(1001 * MiB, 1000 * MiB, MiB, 20.0, 2.0, 0));
}

TEST(FlexHeapGrow, MinimumOneRegion) {
  // 20% of 900 MiB capped at committed 1 MiB, scale 0.2 -> 0.2 MiB -> min_expand 1 region
  EXPECT_EQ(MiB, flexheap_grow_bytes(MiB, 901 * MiB, MiB, 20.0, 0.2, 0));
  EXPECT_EQ(MiB, flexheap_grow_bytes(100 * MiB, 1000 * MiB, MiB, 0.0, 1.0, 0));
}

TEST(FlexHeapGrow, HeadroomLessThanARegion) {
  // exactly one region left
  EXPECT_EQ(4 * MiB, flexheap_grow_bytes(996 * MiB, 1000 * MiB, 4 * MiB, 20.0, 0.2, 0));
  // 2 MiB left with 4 MiB regions: G1 commits whole regions, nothing fits
  EXPECT_EQ(0u, flexheap_grow_bytes(1000 * MiB, 1002 * MiB, 4 * MiB, 20.0, 2.0, 0));
  // 6 MiB left: one whole region, never the unaligned rest
  EXPECT_EQ(4 * MiB, flexheap_grow_bytes(1000 * MiB, 1006 * MiB, 4 * MiB, 100.0, 2.0, 0));
}

TEST(FlexHeapGrow, StaticStep) {
  // 10% of uncommitted 900 MiB, the scale and the committed cap are ignored
  EXPECT_EQ(90 * MiB, flexheap_grow_bytes(100 * MiB, 1000 * MiB, MiB, 20.0, 2.0, 10));
  EXPECT_EQ(90 * MiB, flexheap_grow_bytes(100 * MiB, 1000 * MiB, MiB, 20.0, 0.2, 10));
  EXPECT_EQ(450 * MiB, flexheap_grow_bytes(100 * MiB, 1000 * MiB, MiB, 20.0, 1.0, 50));
  EXPECT_EQ(900 * MiB, flexheap_grow_bytes(100 * MiB, 1000 * MiB, MiB, 20.0, 1.0, 100));
  EXPECT_EQ(MiB, flexheap_grow_bytes(999 * MiB, 1000 * MiB, MiB, 20.0, 1.0, 1));  // min 1 region
}

TEST(FlexHeapGrow, ZeroRegionSizeOrBadScale) {
  EXPECT_EQ(0u, flexheap_grow_bytes(100 * MiB, 1000 * MiB, 0, 20.0, 1.0, 0));
  EXPECT_EQ(MiB, flexheap_grow_bytes(100 * MiB, 1000 * MiB, MiB, 20.0, NAN, 0));
  EXPECT_EQ(MiB, flexheap_grow_bytes(100 * MiB, 1000 * MiB, MiB, 20.0, -1.0, 0));
}

// Alg. 3 -------------------------------------------------------------------

TEST(FlexHeapShrink, FreeBelowOrAtEdenTargetGivesNothing) {
  EXPECT_EQ(0u, flexheap_shrink_bytes(100 * MiB, 10 * MiB, MiB, 5, 10, 1.0, 0));
  EXPECT_EQ(0u, flexheap_shrink_bytes(100 * MiB, 10 * MiB, MiB, 10, 10, 1.0, 0));
  EXPECT_EQ(MiB, flexheap_shrink_bytes(100 * MiB, 10 * MiB, MiB, 11, 10, 1.0, 0));
}

TEST(FlexHeapShrink, ScaledBudgetCappedAtOne) {
  // 50 free - 10 eden = 40 regions
  EXPECT_EQ(20 * MiB, flexheap_shrink_bytes(100 * MiB, 10 * MiB, MiB, 50, 10, 0.5, 0));
  EXPECT_EQ(40 * MiB, flexheap_shrink_bytes(100 * MiB, 10 * MiB, MiB, 50, 10, 1.0, 0));
  EXPECT_EQ(40 * MiB, flexheap_shrink_bytes(100 * MiB, 10 * MiB, MiB, 50, 10, 2.0, 0));
}

TEST(FlexHeapShrink, AlignedDownToRegion) {
  // 40 regions * 0.33 = 13.2 regions -> 13
  EXPECT_EQ(13 * MiB, flexheap_shrink_bytes(100 * MiB, 10 * MiB, MiB, 50, 10, 0.33, 0));
  // 4 regions * 0.2 = 0.8 regions -> 0
  EXPECT_EQ(0u, flexheap_shrink_bytes(100 * MiB, 10 * MiB, MiB, 14, 10, 0.2, 0));
}

TEST(FlexHeapShrink, MinCapacityFloor) {
  // budget 40 MiB, but only 10 MiB above -Xms
  EXPECT_EQ(10 * MiB, flexheap_shrink_bytes(100 * MiB, 90 * MiB, MiB, 50, 10, 1.0, 0));
  // exactly the room left
  EXPECT_EQ(40 * MiB, flexheap_shrink_bytes(100 * MiB, 60 * MiB, MiB, 50, 10, 1.0, 0));
  // unaligned -Xms: 9.5 MiB room -> 9 MiB, committed - result stays >= min
  size_t min = 90 * MiB + MiB / 2;
  size_t bytes = flexheap_shrink_bytes(100 * MiB, min, MiB, 50, 10, 1.0, 0);
  EXPECT_EQ(9 * MiB, bytes);
  ASSERT_LE(bytes, 100 * MiB);
  EXPECT_GE(100 * MiB - bytes, min);
  // at or below -Xms
  EXPECT_EQ(0u, flexheap_shrink_bytes(100 * MiB, 100 * MiB, MiB, 50, 10, 1.0, 0));
  EXPECT_EQ(0u, flexheap_shrink_bytes(100 * MiB, 200 * MiB, MiB, 50, 10, 1.0, 0));
}

TEST(FlexHeapShrink, StaticStep) {
  EXPECT_EQ(10 * MiB, flexheap_shrink_bytes(100 * MiB, 10 * MiB, MiB, 50, 10, 0.2, 25));
  EXPECT_EQ(10 * MiB, flexheap_shrink_bytes(100 * MiB, 10 * MiB, MiB, 50, 10, 2.0, 25));
  EXPECT_EQ(40 * MiB, flexheap_shrink_bytes(100 * MiB, 10 * MiB, MiB, 50, 10, 0.2, 100));
}

TEST(FlexHeapShrink, ZeroRegionSizeOrBadScale) {
  EXPECT_EQ(0u, flexheap_shrink_bytes(100 * MiB, 10 * MiB, 0, 50, 10, 1.0, 0));
  EXPECT_EQ(0u, flexheap_shrink_bytes(100 * MiB, 10 * MiB, MiB, 50, 10, NAN, 0));
  EXPECT_EQ(0u, flexheap_shrink_bytes(100 * MiB, 10 * MiB, MiB, 50, 10, -1.0, 0));
}

// The MinHeapFreeRatio floor after a full GC -------------------------------

struct FloorCase {
  bool grow; size_t bytes; size_t committed; size_t floor;  // the decided step and the heap
  bool bound; bool grow_after; size_t bytes_after;           // what the floor makes of it
};

static void expect_floor(const FloorCase& c) {
  bool grow = c.grow;
  size_t bytes = c.bytes;
  EXPECT_EQ(c.bound, flexheap_bound_by_floor(grow, bytes, c.committed, c.floor, MiB))
      << "committed " << c.committed / MiB << "M, floor " << c.floor / MiB << "M";
  EXPECT_EQ(c.grow_after, grow);
  EXPECT_EQ(c.bytes_after, bytes);
}

TEST(FlexHeapFullGcFloor, AShrinkThatStartsAboveTheFloorStopsAtIt) {
  // 800 MiB committed, the floor 600 MiB: a 500 MiB shrink would leave 300 MiB.
  // (The defect: the floor overrode only decisions where G1 would expand, so
  // this shrink went through.)
  expect_floor({false, 500 * MiB, 800 * MiB, 600 * MiB, true, false, 200 * MiB});
}

TEST(FlexHeapFullGcFloor, BelowTheFloorEveryDecisionGrowsToIt) {
  expect_floor({false, 100 * MiB, 500 * MiB, 600 * MiB, true, true, 100 * MiB});  // a shrink
  expect_floor({false, 0, 500 * MiB, 600 * MiB, true, true, 100 * MiB});          // no step
  expect_floor({true, 30 * MiB, 500 * MiB, 600 * MiB, true, true, 100 * MiB});    // a grow that falls short
}

TEST(FlexHeapFullGcFloor, StepsThatEndAtOrAboveTheFloorAreKept) {
  expect_floor({true, 300 * MiB, 500 * MiB, 600 * MiB, false, true, 300 * MiB});
  expect_floor({false, 200 * MiB, 800 * MiB, 600 * MiB, false, false, 200 * MiB});  // ends at the floor
  expect_floor({false, 0, 800 * MiB, 600 * MiB, false, false, 0});
}

TEST(FlexHeapFullGcFloor, AtTheFloorAShrinkBecomesNone) {
  expect_floor({false, 64 * MiB, 600 * MiB, 600 * MiB, true, false, 0});
}
