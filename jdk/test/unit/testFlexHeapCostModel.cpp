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

// This file is part of FlexHeap: unit tests of the cost model (Eq. 1-4, moving averages).
#include "gc/g1/flexheap/flexHeapCostModel.hpp"
#include "gc/g1/flexheap/flexHeapMath.hpp"

#include <gtest/gtest.h>
#include <math.h>

// The clamps every pure file uses: NaN and -0 go to the lower bound, infinities to a bound.
TEST(FlexHeapMath, NonNegativeAndClampMapNaNToTheLowerBound) {
  EXPECT_DOUBLE_EQ(2.5, flexheap_nonneg(2.5));
  EXPECT_DOUBLE_EQ(0.0, flexheap_nonneg(-1.0));
  EXPECT_DOUBLE_EQ(0.0, flexheap_nonneg(NAN));
  EXPECT_DOUBLE_EQ(0.0, flexheap_nonneg(-INFINITY));
  EXPECT_FALSE(signbit(flexheap_nonneg(-0.0)));
  EXPECT_DOUBLE_EQ(3.0, flexheap_clamp(3.0, 1.0, 10.0));
  EXPECT_DOUBLE_EQ(1.0, flexheap_clamp(0.5, 1.0, 10.0));
  EXPECT_DOUBLE_EQ(10.0, flexheap_clamp(11.0, 1.0, 10.0));
  EXPECT_DOUBLE_EQ(1.0, flexheap_clamp(NAN, 1.0, 10.0));
  EXPECT_DOUBLE_EQ(10.0, flexheap_clamp(INFINITY, 1.0, 10.0));
  EXPECT_DOUBLE_EQ(1.0, flexheap_clamp(-INFINITY, 1.0, 10.0));
  EXPECT_DOUBLE_EQ(10.0, flexheap_clamp(10.0, 1.0, 10.0));
}

// Eq. 2: T_stw * min(N, M)
TEST(FlexHeapCostModel, StwCostUsesMinOfCoresAndMutators) {
  EXPECT_DOUBLE_EQ(0.6, FlexHeapCostModel::stw_cost(0.1, 8, 6));   // M < N
  EXPECT_DOUBLE_EQ(0.4, FlexHeapCostModel::stw_cost(0.1, 4, 16));  // N < M
  EXPECT_DOUBLE_EQ(0.5, FlexHeapCostModel::stw_cost(0.125, 4, 4)); // N == M
  EXPECT_DOUBLE_EQ(0.0, FlexHeapCostModel::stw_cost(0.1, 8, 0));
  EXPECT_DOUBLE_EQ(0.0, FlexHeapCostModel::stw_cost(-0.1, 8, 6));
  EXPECT_DOUBLE_EQ(0.0, FlexHeapCostModel::stw_cost(NAN, 8, 6));
}

// Eq. 3, the paper's example: N = 8, M = 6, G = 4. Only N - M = 2 cores are
// idle; with conc_cpu = 4 threads * t_mut the overhead is 2 * t_mut.
TEST(FlexHeapCostModel, ConcCostPaperEightCoreExample) {
  const double t_mut = 1.5;
  EXPECT_DOUBLE_EQ(2 * t_mut, FlexHeapCostModel::conc_cost(4 * t_mut, 4, 8, 6, t_mut));
}

TEST(FlexHeapCostModel, ConcCostFreeWhenThreadsFitOnCores) {
  EXPECT_DOUBLE_EQ(0.0, FlexHeapCostModel::conc_cost(4.0, 4, 8, 4, 1.0));  // M + G == N
  EXPECT_DOUBLE_EQ(0.0, FlexHeapCostModel::conc_cost(4.0, 2, 8, 4, 1.0));  // M + G < N
  // M + G == N is free even if the threads used more than the idle core time
  EXPECT_DOUBLE_EQ(0.0, FlexHeapCostModel::conc_cost(5.0, 4, 8, 4, 1.0));
  EXPECT_DOUBLE_EQ(1.0, FlexHeapCostModel::conc_cost(4.0, 5, 8, 4, 0.75)); // M + G == N + 1: 4 - 4 * 0.75
}

TEST(FlexHeapCostModel, ConcCostNoIdleCoresAndNeverNegative) {
  // M > N: no idle cores, all concurrent CPU time is overhead.
  EXPECT_DOUBLE_EQ(1.0, FlexHeapCostModel::conc_cost(1.0, 2, 4, 6, 10.0));
  // Less concurrent CPU than the idle capacity: 0, not negative.
  EXPECT_DOUBLE_EQ(0.0, FlexHeapCostModel::conc_cost(1.0, 4, 8, 6, 1.0));
  EXPECT_DOUBLE_EQ(0.0, FlexHeapCostModel::conc_cost(-1.0, 4, 8, 6, 1.0));
  // No unsigned wrap-around for huge counts.
  EXPECT_DOUBLE_EQ(3.0, FlexHeapCostModel::conc_cost(3.0, 0xffffffffu, 4, 8, 1.0));
}

// Eq. 4: min(stall, t_mut * N)
TEST(FlexHeapCostModel, IoCostIsCappedByCoreTime) {
  EXPECT_DOUBLE_EQ(1.0, FlexHeapCostModel::io_cost(1.0, 1.0, 2));  // below the cap
  EXPECT_DOUBLE_EQ(2.0, FlexHeapCostModel::io_cost(2.0, 1.0, 2));  // at the cap
  EXPECT_DOUBLE_EQ(2.0, FlexHeapCostModel::io_cost(3.0, 1.0, 2));  // capped
  EXPECT_DOUBLE_EQ(0.0, FlexHeapCostModel::io_cost(-3.0, 1.0, 2));
  EXPECT_DOUBLE_EQ(0.0, FlexHeapCostModel::io_cost(3.0, 0.0, 2));
}

TEST(FlexHeapCostModel, IdleCpuIsCoreTimeLessProcessCpu) {
  EXPECT_DOUBLE_EQ(0.5, FlexHeapCostModel::idle_cpu(1.5, 1.0, 2));
  EXPECT_DOUBLE_EQ(0.0, FlexHeapCostModel::idle_cpu(2.5, 1.0, 2));  // tick rounding above N * wall
  EXPECT_DOUBLE_EQ(2.0, FlexHeapCostModel::idle_cpu(-1.0, 1.0, 2)); // nonsense CPU counts as none
  EXPECT_DOUBLE_EQ(0.0, FlexHeapCostModel::idle_cpu(NAN, NAN, 2));
}

// Eq. 1
TEST(FlexHeapCostModel, GcCostIsStwPlusConc) {
  double c_stw = FlexHeapCostModel::stw_cost(0.25, 8, 6);             // 1.5
  double c_conc = FlexHeapCostModel::conc_cost(6.0, 4, 8, 6, 1.5);    // 3.0
  EXPECT_DOUBLE_EQ(4.5, FlexHeapCostModel::gc_cost(c_stw, c_conc));
}

TEST(FlexHeapCostModel, RelativeChange) {
  EXPECT_DOUBLE_EQ(1.0, FlexHeapCostModel::relative_change(1.0, 2.0));
  EXPECT_DOUBLE_EQ(-0.5, FlexHeapCostModel::relative_change(2.0, 1.0));
  EXPECT_DOUBLE_EQ(0.0, FlexHeapCostModel::relative_change(2.0, 2.0));
  // zero-denominator guards
  EXPECT_DOUBLE_EQ(0.0, FlexHeapCostModel::relative_change(0.0, 0.0));
  EXPECT_DOUBLE_EQ(1e9, FlexHeapCostModel::relative_change(0.0, 1e-12));
  EXPECT_EQ(FlexHeapCostModel::LargeRelativeChange, FlexHeapCostModel::relative_change(0.0, 5.0));
  // a tiny denominator does not overflow to infinity
  EXPECT_EQ(FlexHeapCostModel::LargeRelativeChange, FlexHeapCostModel::relative_change(1e-300, 1.0));
  EXPECT_TRUE(isfinite(FlexHeapCostModel::relative_change(1e-310, 1e300)));
}

TEST(FlexHeapCostHistory, MeanOverWindow) {
  FlexHeapCostHistory h(2);
  h.add(1.0, 0.5, 1.0);
  FlexHeapCostAverages a = h.averages(false);
  EXPECT_DOUBLE_EQ(1.0, a.gc);
  EXPECT_DOUBLE_EQ(0.5, a.io);
  EXPECT_DOUBLE_EQ(1.5, a.tot);
  h.add(3.0, 1.5, 1.0);
  a = h.averages(false);
  EXPECT_DOUBLE_EQ(2.0, a.gc);
  EXPECT_DOUBLE_EQ(1.0, a.io);
  h.add(5.0, 0.0, 1.0);  // the first interval leaves the window
  a = h.averages(false);
  EXPECT_DOUBLE_EQ(4.0, a.gc);
  EXPECT_DOUBLE_EQ(0.75, a.io);
  EXPECT_DOUBLE_EQ(4.75, a.tot);
  EXPECT_EQ(2u, h.count());
}

TEST(FlexHeapCostHistory, RateIsTimeWeighted) {
  FlexHeapCostHistory h(10);
  h.add(1.0, 0.0, 1.0);
  h.add(1.0, 2.0, 3.0);
  FlexHeapCostAverages a = h.averages(true);
  EXPECT_DOUBLE_EQ(0.5, a.gc);   // 2 s / 4 s, not the mean of 1 and 1/3
  EXPECT_DOUBLE_EQ(0.5, a.io);
  EXPECT_DOUBLE_EQ(1.0, a.tot);
}

TEST(FlexHeapCostHistory, ZeroWallTimeAndEmpty) {
  FlexHeapCostHistory h(3);
  EXPECT_DOUBLE_EQ(0.0, h.averages(true).tot);
  EXPECT_DOUBLE_EQ(0.0, h.averages(false).tot);
  h.add(1.0, 1.0, 0.0);
  EXPECT_DOUBLE_EQ(0.0, h.averages(true).tot);   // guarded, not NaN/inf
  EXPECT_DOUBLE_EQ(2.0, h.averages(false).tot);
}

TEST(FlexHeapCostHistory, LengthIsClamped) {
  EXPECT_EQ(1u, FlexHeapCostHistory(0).length());
  EXPECT_EQ(100u, FlexHeapCostHistory(1000).length());
  FlexHeapCostHistory h(100);
  for (int i = 0; i < 250; i++) {
    h.add(i < 150 ? 100.0 : 1.0, 0.0, 1.0);  // only the last 100 (all 1.0) count
  }
  EXPECT_EQ(100u, h.count());
  EXPECT_DOUBLE_EQ(1.0, h.averages(false).gc);
}
