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

// This file is part of FlexHeap: unit tests of the controller (Fig. 4 FSM and predicates).
#include "gc/g1/flexheap/flexHeapController.hpp"
#include "gc/g1/flexheap/flexHeapStep.hpp"

#include <gtest/gtest.h>
#include <math.h>

static const size_t MiB = 1024 * 1024;

// history 1, per-interval averages: avg_gc/avg_io are exactly the sample's
// C_gc/C_io, so each test controls the predicates directly.
static FlexHeapConfig config(unsigned history = 1, bool as_rate = false) {
  // These tests pin the paper's Fig. 4 controller: the flags' defaults for it
  // (scale 0.2..2, expand 20%, adaptive steps, the paper's predicates alone;
  // see FlexHeapNegligible below).
  FlexHeapConfig c = FlexHeapController::default_config(FlexHeapPolicyKind::Paper);
  c.history_length = history;
  c.cost_as_rate = as_rate;
  return c;
}

// C_gc = gc (t_stw * min(4 cores, 1 mutator), no concurrent cost), C_io = io
// (cap t_mut * N = 40 s is far away). Heap: 100 of 1000 MiB committed, -Xms 10 MiB,
// 1 MiB regions, 50 free regions, eden target 10.
static FlexHeapSample sample(double gc, double io) {
  FlexHeapSample s = FlexHeapSample();
  s.t_stw = gc;
  s.t_mut = 10.0;
  s.conc_cpu = 0.0;
  s.conc_threads = 0;
  s.cores = 4;
  s.mutators = 1;
  s.io_available = true;
  s.io_stall = io;
  s.committed = 100 * MiB;
  s.max_capacity = 1000 * MiB;
  s.min_capacity = 10 * MiB;
  s.region_size = MiB;
  s.used = 90 * MiB;
  s.free_regions = 50;
  s.eden_target_regions = 10;
  s.page_cache = 500 * MiB;
  return s;
}

// GC cost alone, as Fig. 4 runs without an I/O signal (gcBias always holds).
// With a stall source that measures no I/O at t-1 and t, G1 sizes the pause
// as stock G1 does instead (FlexHeapNoIO below).
static FlexHeapSample gc_only(double gc) {
  FlexHeapSample s = sample(gc, 0.0);
  s.io_available = false;
  return s;
}

// decide() and, like the glue, record what was applied (all of it).
static FlexHeapDecision step(FlexHeapController& c, const FlexHeapSample& s) {
  FlexHeapDecision d = c.decide(s);
  if (d.action != FlexHeapAction::None) {
    c.record_applied(d.action, d.bytes, s);
  }
  return d;
}

// Leaves the controller in WaitShrink after one shrink of 20 regions applied at
// page cache 500 MiB, with previous averages (gc, io) = (1, 2).
static void enter_wait_shrink(FlexHeapController& c) {
  step(c, sample(1.0, 1.0));                      // warmup
  FlexHeapDecision d = c.decide(sample(1.0, 2.0));  // costUp, ioBias
  ASSERT_EQ(FlexHeapAction::Shrink, d.action);
  ASSERT_EQ(FlexHeapState::WaitShrink, c.state());
  c.record_applied(FlexHeapAction::Shrink, 20 * MiB, sample(1.0, 2.0));
}

// Leaves the controller in WaitGrow after one grow of 50 MiB applied at used 90 MiB,
// with previous averages (gc, io) = (2, 0).
static void enter_wait_grow(FlexHeapController& c) {
  step(c, gc_only(1.0));                       // warmup
  FlexHeapDecision d = c.decide(gc_only(2.0));  // costUp, gcBias
  ASSERT_EQ(FlexHeapAction::Grow, d.action);
  c.record_applied(FlexHeapAction::Grow, 50 * MiB, gc_only(2.0));
}

#define EXPECT_REASON(expected, d) EXPECT_STREQ(expected, (d).reason)

// Warmup ---------------------------------------------------------------------

TEST(FlexHeapController, InitialStateAndWarmup) {
  FlexHeapController c(config());
  EXPECT_EQ(FlexHeapState::WaitGrow, c.state());
  FlexHeapDecision d = c.decide(sample(5.0, 5.0));
  EXPECT_REASON("warmup", d);
  EXPECT_EQ(FlexHeapAction::None, d.action);
  EXPECT_EQ(0u, d.bytes);
  EXPECT_EQ(FlexHeapState::WaitGrow, d.state);
  EXPECT_DOUBLE_EQ(0.0, d.scale);
  EXPECT_DOUBLE_EQ(10.0, d.avg_tot);
  EXPECT_FALSE(d.cost_down || d.grow_slack || d.io_slack || d.gc_bias);
  // The paper's mode has no rent rule: its fields say "unlimited" (-1), not 0.
  EXPECT_DOUBLE_EQ(-1.0, d.eviction_allowance);
  EXPECT_DOUBLE_EQ(-1.0, d.rent_free);
  // only the first decision is warmup
  FlexHeapDecision e = c.decide(sample(5.0, 5.0));
  EXPECT_STRNE("warmup", e.reason);
  EXPECT_DOUBLE_EQ(-1.0, e.eviction_allowance);
  EXPECT_DOUBLE_EQ(-1.0, e.rent_free);
}

// The 8 transitions of Fig. 4 ------------------------------------------------

TEST(FlexHeapFig4, WaitGrow_CostDownGrowSlack_Waits) {
  FlexHeapController c(config());
  enter_wait_grow(c);
  FlexHeapSample s = gc_only(2.0);  // costDown (equal)
  s.used = 100 * MiB;                    // < 90 + 50 MiB
  FlexHeapDecision d = c.decide(s);
  EXPECT_REASON("costDown,growSlack", d);
  EXPECT_EQ(FlexHeapAction::None, d.action);
  EXPECT_EQ(FlexHeapState::WaitGrow, d.state);
  EXPECT_TRUE(d.cost_down);
  EXPECT_TRUE(d.grow_slack);
  EXPECT_DOUBLE_EQ(0.0, d.scale);
}

TEST(FlexHeapFig4, WaitGrow_CostDownGrowUsed_Grows) {
  FlexHeapController c(config());
  step(c, gc_only(1.0));
  // No grow recorded yet: growUsed holds, as if the initial heap were full.
  FlexHeapDecision d = step(c, gc_only(0.5));
  EXPECT_REASON("costDown,growUsed", d);
  EXPECT_EQ(FlexHeapAction::Grow, d.action);
  EXPECT_EQ(FlexHeapState::WaitGrow, d.state);
  EXPECT_TRUE(d.cost_down);
  EXPECT_FALSE(d.grow_slack);
  EXPECT_GT(d.bytes, 0u);
  // cost fell by 50%: x = 0.5, a conservative scale below 1
  EXPECT_DOUBLE_EQ(flexheap_scale(-0.5, 0.2, 2.0), d.scale);
  EXPECT_LT(d.scale, 1.0);
  EXPECT_EQ(flexheap_grow_bytes(100 * MiB, 1000 * MiB, MiB, 20.0, d.scale, 0), d.bytes);
}

TEST(FlexHeapFig4, WaitGrow_CostUpGcBias_Grows) {
  FlexHeapController c(config());
  step(c, sample(1.0, 1.0));
  FlexHeapDecision d = c.decide(sample(2.0, 1.5));  // rel_gc 1 >= rel_io 0.5
  EXPECT_REASON("costUp,gcBias", d);
  EXPECT_EQ(FlexHeapAction::Grow, d.action);
  EXPECT_EQ(FlexHeapState::WaitGrow, d.state);
  EXPECT_FALSE(d.cost_down);
  EXPECT_TRUE(d.gc_bias);
  EXPECT_DOUBLE_EQ(1.0, d.rel_gc);
  EXPECT_DOUBLE_EQ(0.5, d.rel_io);
  EXPECT_DOUBLE_EQ(0.75, d.rel_tot);
  EXPECT_DOUBLE_EQ(flexheap_scale(0.75, 0.2, 2.0), d.scale);
  EXPECT_EQ(flexheap_grow_bytes(100 * MiB, 1000 * MiB, MiB, 20.0, d.scale, 0), d.bytes);
}

TEST(FlexHeapFig4, WaitGrow_CostUpIoBias_ShrinksToWaitShrink) {
  FlexHeapController c(config());
  step(c, sample(1.0, 1.0));
  FlexHeapDecision d = c.decide(sample(1.5, 2.0));  // rel_gc 0.5 < rel_io 1
  EXPECT_REASON("costUp,ioBias", d);
  EXPECT_EQ(FlexHeapAction::Shrink, d.action);
  EXPECT_EQ(FlexHeapState::WaitShrink, d.state);
  EXPECT_EQ(FlexHeapState::WaitShrink, c.state());
  EXPECT_FALSE(d.gc_bias);
  // rel_tot 0.75: scale < 1, applied to 40 shrinkable regions, aligned down
  EXPECT_DOUBLE_EQ(flexheap_scale(0.75, 0.2, 2.0), d.scale);
  EXPECT_EQ(flexheap_shrink_bytes(100 * MiB, 10 * MiB, MiB, 50, 10, d.scale, 0), d.bytes);
  EXPECT_GT(d.bytes, 0u);
  EXPECT_EQ(0u, d.bytes % MiB);
}

TEST(FlexHeapFig4, WaitShrink_CostDownIoSlack_Waits) {
  FlexHeapController c(config());
  enter_wait_shrink(c);
  FlexHeapSample s = sample(1.0, 2.0);  // costDown (equal)
  s.page_cache = 510 * MiB;              // < 500 + 20 MiB
  FlexHeapDecision d = c.decide(s);
  EXPECT_REASON("costDown,ioSlack", d);
  EXPECT_EQ(FlexHeapAction::None, d.action);
  EXPECT_EQ(FlexHeapState::WaitShrink, d.state);
  EXPECT_TRUE(d.io_slack);
}

TEST(FlexHeapFig4, WaitShrink_CostDownIoFull_Shrinks) {
  FlexHeapController c(config());
  enter_wait_shrink(c);
  FlexHeapSample s = sample(1.0, 1.0);  // costDown
  s.page_cache = 520 * MiB;              // the page cache took all 20 MiB
  FlexHeapDecision d = c.decide(s);
  EXPECT_REASON("costDown,ioFull", d);
  EXPECT_EQ(FlexHeapAction::Shrink, d.action);
  EXPECT_EQ(FlexHeapState::WaitShrink, d.state);
  EXPECT_FALSE(d.io_slack);
  EXPECT_GT(d.bytes, 0u);
}

TEST(FlexHeapFig4, WaitShrink_CostUpGcBias_GrowsToWaitGrow) {
  FlexHeapController c(config());
  enter_wait_shrink(c);
  FlexHeapDecision d = c.decide(sample(2.0, 2.0));  // rel_gc 1 >= rel_io 0
  EXPECT_REASON("costUp,gcBias", d);
  EXPECT_EQ(FlexHeapAction::Grow, d.action);
  EXPECT_EQ(FlexHeapState::WaitGrow, d.state);
  EXPECT_EQ(FlexHeapState::WaitGrow, c.state());
}

TEST(FlexHeapFig4, WaitShrink_CostUpIoBias_ShrinksAgain) {
  FlexHeapController c(config());
  enter_wait_shrink(c);
  FlexHeapSample s = sample(1.0, 3.0);  // rel_gc 0 < rel_io 0.5
  s.page_cache = 505 * MiB;              // slack does not matter on costUp
  FlexHeapDecision d = c.decide(s);
  EXPECT_REASON("costUp,ioBias", d);
  EXPECT_EQ(FlexHeapAction::Shrink, d.action);
  EXPECT_EQ(FlexHeapState::WaitShrink, d.state);
  EXPECT_TRUE(d.io_slack);
}

// Predicate boundaries -------------------------------------------------------

TEST(FlexHeapPredicates, CostDownBoundary) {
  const double prev = 2.0;
  const double next[] = { 2.0, nextafter(2.0, 3.0), nextafter(2.0, 1.0) };
  const bool down[] = { true, false, true };
  for (int i = 0; i < 3; i++) {
    FlexHeapController c(config());
    step(c, sample(prev, 0.0));
    FlexHeapDecision d = c.decide(sample(next[i], 0.0));
    EXPECT_EQ(down[i], d.cost_down) << "case " << i;
    EXPECT_DOUBLE_EQ(prev, d.prev_avg_tot);
  }
}

TEST(FlexHeapPredicates, GrowSlackBoundary) {
  // slack while used < used_before_grow (90 MiB) + grow (50 MiB) = 140 MiB
  const size_t used[] = { 140 * MiB - 1, 140 * MiB, 140 * MiB + 1 };
  const bool slack[] = { true, false, false };
  for (int i = 0; i < 3; i++) {
    FlexHeapController c(config());
    enter_wait_grow(c);
    FlexHeapSample s = gc_only(2.0);
    s.used = used[i];
    FlexHeapDecision d = c.decide(s);
    EXPECT_EQ(slack[i], d.grow_slack) << "case " << i;
    EXPECT_EQ(slack[i] ? FlexHeapAction::None : FlexHeapAction::Grow, d.action) << "case " << i;
  }
}

TEST(FlexHeapPredicates, IoSlackBoundary) {
  // slack while page_cache < 500 MiB + 20 MiB
  const size_t cache[] = { 520 * MiB - 1, 520 * MiB, 520 * MiB + 1 };
  const bool slack[] = { true, false, false };
  for (int i = 0; i < 3; i++) {
    FlexHeapController c(config());
    enter_wait_shrink(c);
    FlexHeapSample s = sample(1.0, 2.0);
    s.page_cache = cache[i];
    FlexHeapDecision d = c.decide(s);
    EXPECT_EQ(slack[i], d.io_slack) << "case " << i;
    EXPECT_EQ(slack[i] ? FlexHeapAction::None : FlexHeapAction::Shrink, d.action) << "case " << i;
  }
}

TEST(FlexHeapPredicates, GcBiasBoundary) {
  // from (gc, io) = (1, 1): rel_io is 1; rel_gc just below, equal, just above
  const double gc[] = { nextafter(2.0, 1.0), 2.0, nextafter(2.0, 3.0) };
  const bool bias[] = { false, true, true };
  for (int i = 0; i < 3; i++) {
    FlexHeapController c(config());
    step(c, sample(1.0, 1.0));
    FlexHeapDecision d = c.decide(sample(gc[i], 2.0));
    EXPECT_FALSE(d.cost_down);
    EXPECT_EQ(bias[i], d.gc_bias) << "case " << i;
    EXPECT_EQ(bias[i] ? FlexHeapAction::Grow : FlexHeapAction::Shrink, d.action) << "case " << i;
  }
}

TEST(FlexHeapPredicates, ZeroDenominatorGuards) {
  {
    // io 0 -> 0: rel_io 0, any rise of gc is gcBias
    FlexHeapController c(config());
    step(c, sample(1.0, 0.0));
    FlexHeapDecision d = c.decide(sample(1.5, 0.0));
    EXPECT_DOUBLE_EQ(0.0, d.rel_io);
    EXPECT_TRUE(d.gc_bias);
  }
  {
    // io 0 -> > 0: rel_io is large but finite and beats a doubling of gc
    FlexHeapController c(config());
    step(c, sample(1.0, 0.0));
    FlexHeapDecision d = c.decide(sample(2.0, 0.001));
    EXPECT_DOUBLE_EQ(FlexHeapCostModel::LargeRelativeChange, d.rel_io);
    EXPECT_FALSE(d.gc_bias);
    EXPECT_EQ(FlexHeapAction::Shrink, d.action);
  }
  {
    // both 0 -> > 0: equal large changes, gcBias (>=); the scale saturates
    FlexHeapController c(config());
    step(c, sample(0.0, 0.0));
    FlexHeapDecision d = c.decide(sample(1.0, 1.0));
    EXPECT_DOUBLE_EQ(FlexHeapCostModel::LargeRelativeChange, d.rel_gc);
    EXPECT_DOUBLE_EQ(FlexHeapCostModel::LargeRelativeChange, d.rel_tot);
    EXPECT_TRUE(d.gc_bias);
    EXPECT_DOUBLE_EQ(2.0, d.scale);
  }
  {
    // total 0 -> 0: no change, costDown, rel 0
    FlexHeapController c(config());
    step(c, sample(0.0, 0.0));
    FlexHeapDecision d = c.decide(sample(0.0, 0.0));
    EXPECT_TRUE(d.cost_down);
    EXPECT_DOUBLE_EQ(0.0, d.rel_tot);
    EXPECT_DOUBLE_EQ(0.0, d.rel_gc);
  }
}

// Zero-byte steps keep the direction ----------------------------------------

TEST(FlexHeapController, GrowAtMaxIsNoneButKeepsState) {
  FlexHeapController c(config());
  enter_wait_shrink(c);
  FlexHeapSample s = sample(2.0, 2.0);  // costUp, gcBias
  s.committed = s.max_capacity;
  FlexHeapDecision d = c.decide(s);
  EXPECT_REASON("costUp,gcBias,atMax", d);
  EXPECT_EQ(FlexHeapAction::None, d.action);
  EXPECT_EQ(0u, d.bytes);
  EXPECT_DOUBLE_EQ(0.0, d.scale);
  EXPECT_EQ(FlexHeapState::WaitGrow, d.state);
}

TEST(FlexHeapController, ShrinkWithoutBudgetIsNoneButKeepsState) {
  FlexHeapController c(config());
  step(c, sample(1.0, 1.0));
  FlexHeapSample s = sample(1.0, 2.0);  // costUp, ioBias
  s.free_regions = 8;                    // below the eden target of 10
  FlexHeapDecision d = c.decide(s);
  EXPECT_REASON("costUp,ioBias,noFree", d);
  EXPECT_EQ(FlexHeapAction::None, d.action);
  EXPECT_EQ(FlexHeapState::WaitShrink, d.state);
  // next costDown: no shrink recorded, ioFull, tries again; now at -Xms
  s = sample(1.0, 2.0);
  s.min_capacity = s.committed;
  d = c.decide(s);
  EXPECT_REASON("costDown,ioFull,atMin", d);
  EXPECT_EQ(FlexHeapAction::None, d.action);
  EXPECT_EQ(FlexHeapState::WaitShrink, d.state);
}

TEST(FlexHeapController, CostDownGrowAtMax) {
  FlexHeapController c(config());
  step(c, gc_only(1.0));
  FlexHeapSample s = gc_only(1.0);
  s.committed = s.max_capacity;
  EXPECT_REASON("costDown,growUsed,atMax", c.decide(s));
  EXPECT_EQ(FlexHeapState::WaitGrow, c.state());
}

// record_applied ---------------------------------------------------------------

TEST(FlexHeapController, RecordAppliedUsesWhatWasApplied) {
  FlexHeapController c(config());
  step(c, gc_only(1.0));
  FlexHeapDecision d = c.decide(gc_only(2.0));
  ASSERT_EQ(FlexHeapAction::Grow, d.action);
  // the glue could only commit 2 MiB: slack ends at 90 + 2 MiB
  c.record_applied(FlexHeapAction::Grow, 2 * MiB, gc_only(2.0));
  FlexHeapSample s = gc_only(2.0);
  s.used = 92 * MiB - 1;
  EXPECT_TRUE(c.decide(s).grow_slack);
  s.used = 92 * MiB;
  EXPECT_FALSE(c.decide(s).grow_slack);
}

TEST(FlexHeapController, FailedGrowRecordsNothing) {
  FlexHeapController c(config());
  enter_wait_grow(c);
  FlexHeapDecision d = c.decide(gc_only(3.0));  // costUp, gcBias: new grow
  ASSERT_EQ(FlexHeapAction::Grow, d.action);
  c.record_applied(FlexHeapAction::Grow, 0, gc_only(3.0));  // expand failed
  FlexHeapSample s = gc_only(3.0);
  s.used = 10 * MiB;  // would be slack under the old 90 + 50 MiB record
  d = c.decide(s);
  EXPECT_FALSE(d.grow_slack);
  EXPECT_REASON("costDown,growUsed", d);
}

TEST(FlexHeapController, StaleGrowRecordIsDropped) {
  FlexHeapController c(config());
  enter_wait_grow(c);                                   // record: 90 + 50 MiB
  step(c, sample(2.0, 3.0));                            // costUp, ioBias: shrink
  ASSERT_EQ(FlexHeapState::WaitShrink, c.state());
  FlexHeapSample s = sample(4.0, 3.0);                  // costUp, gcBias, but at max
  s.committed = s.max_capacity;
  ASSERT_STREQ("costUp,gcBias,atMax", step(c, s).reason);
  ASSERT_EQ(FlexHeapState::WaitGrow, c.state());
  s = sample(4.0, 3.0);                                 // costDown
  s.used = 100 * MiB;                                   // slack only under the stale record
  FlexHeapDecision d = c.decide(s);
  EXPECT_FALSE(d.grow_slack);
  EXPECT_EQ(FlexHeapAction::Grow, d.action);
}

TEST(FlexHeapController, RecordAppliedOverrideEntersItsWaitState) {
  // The glue may grow on its own (G1's free-ratio floor after a full GC).
  FlexHeapController c(config());
  enter_wait_shrink(c);
  c.record_applied(FlexHeapAction::Grow, 10 * MiB, sample(1.0, 2.0));
  EXPECT_EQ(FlexHeapState::WaitGrow, c.state());
  c.record_applied(FlexHeapAction::None, 10 * MiB, sample(1.0, 2.0));
  EXPECT_EQ(FlexHeapState::WaitGrow, c.state());
  c.record_applied(FlexHeapAction::Shrink, 10 * MiB, sample(1.0, 2.0));
  EXPECT_EQ(FlexHeapState::WaitShrink, c.state());
}

// Modes --------------------------------------------------------------------------

TEST(FlexHeapModes, StaticStep) {
  FlexHeapConfig cfg = config();
  cfg.static_step_percent = 10;
  {
    FlexHeapController c(cfg);
    step(c, gc_only(1.0));
    FlexHeapDecision d = c.decide(gc_only(100.0));  // huge change, no effect on the step
    EXPECT_EQ(FlexHeapAction::Grow, d.action);
    EXPECT_EQ(90 * MiB, d.bytes);                       // 10% of 900 MiB uncommitted
    EXPECT_DOUBLE_EQ(1.0, d.scale);
  }
  {
    FlexHeapController c(cfg);
    step(c, sample(1.0, 1.0));
    FlexHeapDecision d = c.decide(sample(1.0, 1.5));
    EXPECT_EQ(FlexHeapAction::Shrink, d.action);
    EXPECT_EQ(4 * MiB, d.bytes);                        // 10% of 40 regions
  }
}

TEST(FlexHeapModes, IoUnavailableRunsOnGcCostAlone) {
  // With a stall source this sequence shrinks (rel_io 3 > rel_gc 0.5)...
  {
    FlexHeapController c(config());
    step(c, sample(1.0, 1.0));
    EXPECT_EQ(FlexHeapAction::Shrink, c.decide(sample(1.5, 4.0)).action);
  }
  // ...without one, C_io is 0 whatever io_stall says, and only GC cost counts.
  FlexHeapController c(config());
  FlexHeapSample s = sample(1.0, 1.0);
  s.io_available = false;
  step(c, s);
  s = sample(1.5, 4.0);
  s.io_available = false;
  FlexHeapDecision d = c.decide(s);
  EXPECT_DOUBLE_EQ(0.0, d.c_io);
  EXPECT_DOUBLE_EQ(0.0, d.avg_io);
  EXPECT_DOUBLE_EQ(1.5, d.c_tot);
  EXPECT_TRUE(d.gc_bias);
  EXPECT_EQ(FlexHeapAction::Grow, d.action);
  EXPECT_EQ(FlexHeapState::WaitGrow, c.state());
  // gc falling with io "rising" is costDown, not a shrink
  s = sample(1.0, 30.0);
  s.io_available = false;
  d = c.decide(s);
  EXPECT_TRUE(d.cost_down);
  EXPECT_NE(FlexHeapAction::Shrink, d.action);
}

// Intervals of k seconds (k = 1, 2, 4) that each cost 0.125 k: the rate is
// constant, so with rates costDown holds; the per-interval mean doubles: costUp.
static FlexHeapDecision doubling_intervals(bool as_rate) {
  FlexHeapController c(config(10, as_rate));
  FlexHeapDecision d = FlexHeapDecision();
  for (double k = 1.0; k <= 4.0; k *= 2.0) {
    FlexHeapSample s = gc_only(0.0);
    s.t_stw = 0.125 * k;   // C_gc = t_stw * min(4, 1)
    s.t_mut = 0.875 * k;   // wall = k
    d = c.decide(s);
  }
  return d;
}

TEST(FlexHeapModes, RateVersusPerIntervalAveraging) {
  FlexHeapDecision rate = doubling_intervals(true);
  EXPECT_DOUBLE_EQ(0.125, rate.avg_tot);
  EXPECT_DOUBLE_EQ(0.125, rate.prev_avg_tot);
  EXPECT_TRUE(rate.cost_down);
  FlexHeapDecision mean = doubling_intervals(false);
  EXPECT_DOUBLE_EQ((0.125 + 0.25 + 0.5) / 3, mean.avg_tot);
  EXPECT_DOUBLE_EQ((0.125 + 0.25) / 2, mean.prev_avg_tot);
  EXPECT_FALSE(mean.cost_down);
}

TEST(FlexHeapController, CostFieldsFollowEquations) {
  FlexHeapController c(config());
  FlexHeapSample s = sample(0.0, 0.0);
  s.cores = 8; s.mutators = 6; s.conc_threads = 4;
  s.t_stw = 0.25; s.t_mut = 1.5; s.conc_cpu = 6.0;  // the paper's 8-core example
  s.io_stall = 100.0;                                // capped at 1.5 * 8
  FlexHeapDecision d = c.decide(s);
  EXPECT_DOUBLE_EQ(1.5, d.c_stw);
  EXPECT_DOUBLE_EQ(3.0, d.c_conc);
  EXPECT_DOUBLE_EQ(4.5, d.c_gc);
  EXPECT_DOUBLE_EQ(12.0, d.c_io);
  EXPECT_DOUBLE_EQ(16.5, d.c_tot);
}

TEST(FlexHeapController, DefaultConfig) {
  // The flags' defaults: a GC-CPU goal of 4% (JDK 26's GCTimeRatio), rates in
  // the balance policy's averages and per-interval means in the paper's.
  for (FlexHeapPolicyKind p : { FlexHeapPolicyKind::Balance, FlexHeapPolicyKind::Paper }) {
    const FlexHeapConfig c = FlexHeapController::default_config(p);
    EXPECT_EQ(p, c.policy);
    EXPECT_DOUBLE_EQ(24.0, c.gc_time_ratio);
    EXPECT_DOUBLE_EQ(0.1, c.cache_reserve);
    EXPECT_DOUBLE_EQ(FlexHeapController::RefaultSaturation, c.rent_refault_saturation);
    EXPECT_DOUBLE_EQ(0.0, c.balance_window_s);
    EXPECT_EQ(10u, c.history_length);
    EXPECT_DOUBLE_EQ(0.2, c.min_scale);
    EXPECT_DOUBLE_EQ(2.0, c.max_scale);
    EXPECT_DOUBLE_EQ(20.0, c.expand_percent);
    EXPECT_EQ(0u, c.static_step_percent);
    EXPECT_EQ(p == FlexHeapPolicyKind::Balance, c.cost_as_rate);
    EXPECT_EQ(0u, c.negligible_percent);
  }
}

// The config is not clamped: the constructor asserts its invariants
// (flexheap_assert: the unit tests abort with its message, fastdebug JVMs too).
TEST(FlexHeapControllerDeathTest, ABadConfigIsCaught) {
  // The bounds themselves are valid, and the config is kept as given.
  FlexHeapConfig edge = config(FlexHeapCostHistory::MaxLength);
  edge.gc_time_ratio = 1.0;
  edge.max_scale = edge.min_scale;
  edge.expand_percent = 100.0;
  edge.static_step_percent = 100;
  edge.negligible_percent = 100;
  EXPECT_EQ(FlexHeapCostHistory::MaxLength, FlexHeapController(edge).config().history_length);
  EXPECT_EQ(100u, FlexHeapController(edge).config().static_step_percent);

  FlexHeapConfig cfg = config(0);
  EXPECT_DEATH(FlexHeapController c(cfg), "flexheap_assert.*FlexHeapHistoryLength within its range");
  cfg = config(FlexHeapCostHistory::MaxLength + 1);
  EXPECT_DEATH(FlexHeapController c(cfg), "flexheap_assert.*FlexHeapHistoryLength within its range");
  cfg = config();
  cfg.max_scale = 0.1;   // below min_scale 0.2
  EXPECT_DEATH(FlexHeapController c(cfg), "flexheap_assert.*FlexHeapMin/MaxScaleFactor ordered");
  cfg = config();
  cfg.expand_percent = 250.0;
  EXPECT_DEATH(FlexHeapController c(cfg), "flexheap_assert.*G1ExpandByPercentOfAvailable");
  cfg = config();
  cfg.static_step_percent = 500;
  EXPECT_DEATH(FlexHeapController c(cfg), "flexheap_assert.*percentages within 0..100");
  cfg = config();
  cfg.negligible_percent = 300;
  EXPECT_DEATH(FlexHeapController c(cfg), "flexheap_assert.*percentages within 0..100");
  cfg = config();
  cfg.gc_time_ratio = NAN;
  EXPECT_DEATH(FlexHeapController c(cfg), "flexheap_assert.*FlexHeapGCTimeRatio is at least 1");
  // A zero-initialized config is not a valid one: no saturation set.
  EXPECT_DEATH(FlexHeapController c{FlexHeapConfig()}, "flexheap_assert");
}

// decide() asserts the sample's invariants: the glue measures them, and a
// NaN or a heap outside [-Xms, -Xmx] is a bug there, not a cost of 0.
TEST(FlexHeapControllerDeathTest, ABadSampleIsCaught) {
  for (FlexHeapPolicyKind p : { FlexHeapPolicyKind::Paper, FlexHeapPolicyKind::Balance }) {
    FlexHeapConfig cfg = config();
    cfg.policy = p;
    FlexHeapController c(cfg);
    FlexHeapSample s = sample(1.0, 1.0);
    s.t_stw = NAN;
    EXPECT_DEATH(c.decide(s), "flexheap_assert.*interval times are not negative");
    s = sample(1.0, 1.0);
    s.t_mut = -1.0;
    EXPECT_DEATH(c.decide(s), "flexheap_assert.*interval times are not negative");
    s = sample(1.0, NAN);
    EXPECT_DEATH(c.decide(s), "flexheap_assert.*stall times are not negative");
    s = sample(1.0, 1.0);
    s.read_bytes = NAN;
    EXPECT_DEATH(c.decide(s), "flexheap_assert.*read figures are not negative");
    s = sample(1.0, 1.0);
    s.proc_cpu = NAN;
    EXPECT_DEATH(c.decide(s), "flexheap_assert.*process CPU time is a number");
    s = sample(1.0, 1.0);
    s.committed = s.max_capacity + MiB;
    EXPECT_DEATH(c.decide(s), "flexheap_assert.*committed heap is within");
    s = sample(1.0, 1.0);
    s.committed = s.min_capacity - MiB;
    EXPECT_DEATH(c.decide(s), "flexheap_assert.*committed heap is within");
    s = sample(1.0, 1.0);
    s.region_size = 0;
    EXPECT_DEATH(c.decide(s), "flexheap_assert.*G1 has regions");
    // A process CPU time below 0 is "unknown", not an error.
    s = sample(1.0, 1.0);
    s.proc_cpu = -1.0;
    c.decide(s);
  }
}

TEST(FlexHeapController, Names) {
  EXPECT_STREQ("WaitGrow", FlexHeapController::state_name(FlexHeapState::WaitGrow));
  EXPECT_STREQ("WaitShrink", FlexHeapController::state_name(FlexHeapState::WaitShrink));
  EXPECT_STREQ("None", FlexHeapController::action_name(FlexHeapAction::None));
  EXPECT_STREQ("Grow", FlexHeapController::action_name(FlexHeapAction::Grow));
  EXPECT_STREQ("Shrink", FlexHeapController::action_name(FlexHeapAction::Shrink));
}

// Beyond the paper: FlexHeapNegligibleCostPercent turns a step toward a cost
// that is below that percentage of the other cost.
static FlexHeapConfig negligible(unsigned percent) {
  FlexHeapConfig c = config();
  c.negligible_percent = percent;
  return c;
}

TEST(FlexHeapNegligible, GcBiasWithNegligibleGcShrinks) {
  // gc 0.01 -> 0.02 (+100%), io 5 -> 5 (0%): the paper grows (gcBias) ...
  FlexHeapController paper(negligible(0));
  step(paper, sample(0.01, 5.0));
  FlexHeapDecision p = paper.decide(sample(0.02, 5.0));
  EXPECT_EQ(FlexHeapAction::Grow, p.action);
  EXPECT_STREQ("costUp,gcBias", p.reason);
  // ... but C_gc is 0.4% of C_io: with 10% it shrinks and waits for the page cache.
  FlexHeapController c(negligible(10));
  step(c, sample(0.01, 5.0));
  FlexHeapDecision d = step(c, sample(0.02, 5.0));
  EXPECT_EQ(FlexHeapAction::Shrink, d.action);
  EXPECT_STREQ("costUp,gcNegligible", d.reason);
  EXPECT_EQ(FlexHeapState::WaitShrink, d.state);
  EXPECT_EQ(FlexHeapState::WaitShrink, c.state());
  // The step is Alg. 3's whole budget: free regions beyond the eden target.
  EXPECT_DOUBLE_EQ(1.0, d.scale);
  EXPECT_EQ(40 * MiB, d.bytes);
}

TEST(FlexHeapNegligible, IoBiasShrinkWithNegligibleGcTakesTheWholeBudget) {
  // gc 0.01 -> 0.01, io 5 -> 6 (+20%): ioBias in both modes.
  FlexHeapController paper(negligible(0));
  step(paper, sample(0.01, 5.0));
  FlexHeapDecision p = paper.decide(sample(0.01, 6.0));
  EXPECT_STREQ("costUp,ioBias", p.reason);
  EXPECT_LT(p.scale, 1.0);                           // logistic of a small change
  EXPECT_EQ(flexheap_shrink_bytes(100 * MiB, 10 * MiB, MiB, 50, 10, p.scale, 0), p.bytes);
  EXPECT_LT(p.bytes, 40 * MiB);
  FlexHeapController c(negligible(10));
  step(c, sample(0.01, 5.0));
  FlexHeapDecision d = c.decide(sample(0.01, 6.0));
  EXPECT_STREQ("costUp,ioBias", d.reason);
  EXPECT_DOUBLE_EQ(1.0, d.scale);
  EXPECT_EQ(40 * MiB, d.bytes);                      // 50 free - 10 eden target regions
  // Comparable costs: the paper's logistic scale.
  FlexHeapController c2(negligible(10));
  step(c2, sample(1.0, 5.0));
  FlexHeapDecision d2 = c2.decide(sample(1.0, 6.0));
  EXPECT_STREQ("costUp,ioBias", d2.reason);
  EXPECT_LT(d2.scale, 1.0);
}

TEST(FlexHeapNegligible, BoundaryIsStrict) {
  // C_gc exactly 10% of C_io is not negligible: the paper's gcBias stands.
  FlexHeapController c(negligible(10));
  step(c, sample(0.4, 5.0));
  FlexHeapDecision d = c.decide(sample(0.5, 5.0));
  EXPECT_EQ(FlexHeapAction::Grow, d.action);
  EXPECT_STREQ("costUp,gcBias", d.reason);
  // Just below: turned.
  FlexHeapController c2(negligible(10));
  step(c2, sample(0.4, 5.0));
  FlexHeapDecision d2 = c2.decide(sample(0.499, 5.0));
  EXPECT_EQ(FlexHeapAction::Shrink, d2.action);
}

TEST(FlexHeapNegligible, GrowUsedWithNegligibleGcShrinks) {
  // WaitGrow, costDown, growUsed: the paper grows again; a negligible GC cost shrinks.
  FlexHeapController c(negligible(10));
  step(c, sample(0.01, 6.0));
  FlexHeapDecision d = step(c, sample(0.01, 5.0));  // costDown, no grow recorded -> growUsed
  EXPECT_EQ(FlexHeapAction::Shrink, d.action);
  EXPECT_STREQ("costDown,gcNegligible", d.reason);
  EXPECT_EQ(FlexHeapState::WaitShrink, d.state);
}

TEST(FlexHeapNegligible, IoBiasWithNegligibleIoGrows) {
  // gc 5 -> 5, io 0.01 -> 0.02 (+100%): the paper shrinks (ioBias); I/O is negligible: grow.
  FlexHeapController paper(negligible(0));
  step(paper, sample(5.0, 0.01));
  EXPECT_EQ(FlexHeapAction::Shrink, paper.decide(sample(5.0, 0.02)).action);
  FlexHeapController c(negligible(10));
  step(c, sample(5.0, 0.01));
  FlexHeapDecision d = step(c, sample(5.0, 0.02));
  EXPECT_EQ(FlexHeapAction::Grow, d.action);
  EXPECT_STREQ("costUp,ioNegligible", d.reason);
  EXPECT_EQ(FlexHeapState::WaitGrow, c.state());
}

TEST(FlexHeapNegligible, ComparableCostsFollowThePaper) {
  // Both costs above 10% of each other: exactly the paper's decisions.
  FlexHeapController c(negligible(10));
  FlexHeapController paper(negligible(0));
  const double gc[] = { 1.0, 1.5, 1.2, 2.0, 1.0, 0.8 };
  const double io[] = { 2.0, 2.1, 3.0, 2.0, 2.5, 1.0 };
  for (int i = 0; i < 6; i++) {
    FlexHeapDecision a = step(c, sample(gc[i], io[i]));
    FlexHeapDecision b = step(paper, sample(gc[i], io[i]));
    EXPECT_EQ(b.action, a.action) << "interval " << i;
    EXPECT_EQ(b.bytes, a.bytes) << "interval " << i;
    EXPECT_STREQ(b.reason, a.reason) << "interval " << i;
  }
}

TEST(FlexHeapNegligible, WaitingIsUnchanged) {
  // A wait (None) stays a wait: only a step's direction is turned.
  FlexHeapController c(negligible(10));
  step(c, sample(0.01, 5.0));
  step(c, sample(0.02, 5.0));                       // shrink (gcNegligible), page cache 500 MiB
  FlexHeapSample s = sample(0.01, 4.0);             // costDown, page cache not grown: ioSlack
  FlexHeapDecision d = c.decide(s);
  EXPECT_EQ(FlexHeapAction::None, d.action);
  EXPECT_STREQ("costDown,ioSlack", d.reason);
}

TEST(FlexHeapNegligible, NoStallSourceKeepsGcAlone) {
  // Without a stall source C_io is 0: the rule does not apply and gcBias grows.
  FlexHeapController c(negligible(10));
  FlexHeapSample a = sample(0.01, 5.0); a.io_available = false;
  FlexHeapSample b = sample(0.02, 5.0); b.io_available = false;
  step(c, a);
  FlexHeapDecision d = c.decide(b);
  EXPECT_EQ(FlexHeapAction::Grow, d.action);
  EXPECT_STREQ("costUp,gcBias", d.reason);
}

// No I/O cost with a stall source ----------------------------------------------

TEST(FlexHeapNoIO, NoIoCostLeavesSizingToG1) {
  // A stall source, no I/O at t-1 nor at t, GC cost doubling: taken as
  // relIO = 0, Fig. 4 grows at every pause (the ratchet of issue 11, point 2);
  // instead G1 sizes the pause as stock G1 does, and the FSM keeps its state.
  FlexHeapController c(config());
  step(c, sample(1.0, 0.0));
  for (int i = 0; i < 5; i++) {
    FlexHeapDecision d = step(c, sample(2.0 + i, 0.0));
    EXPECT_TRUE(d.stock_sizing);
    EXPECT_STREQ("noIO,stock", d.reason);
    EXPECT_EQ(FlexHeapAction::None, d.action);
    EXPECT_EQ(FlexHeapState::WaitGrow, c.state());
  }
}

TEST(FlexHeapNoIO, TheFirstIoCostBringsFig4Back) {
  FlexHeapController c(config());
  step(c, sample(1.0, 0.0));
  EXPECT_TRUE(step(c, sample(1.0, 0.0)).stock_sizing);
  FlexHeapDecision d = step(c, sample(1.0, 0.5));  // io 0 -> 0.5: ioBias
  EXPECT_FALSE(d.stock_sizing);
  EXPECT_EQ(FlexHeapAction::Shrink, d.action);
  d = step(c, sample(1.0, 0.0));                   // io 0.5 -> 0: Fig. 4 decides (t-1 had I/O)
  EXPECT_FALSE(d.stock_sizing);
}

TEST(FlexHeapNoIO, WithoutAStallSourceFig4RunsOnGcAlone) {
  // No stall source: gcBias always holds, as the paper runs without an I/O
  // signal (the glue switches the paper policy off then; the controller
  // itself does not leave the pause to G1).
  FlexHeapController c(config());
  step(c, gc_only(1.0));
  FlexHeapDecision d = step(c, gc_only(2.0));
  EXPECT_FALSE(d.stock_sizing);
  EXPECT_EQ(FlexHeapAction::Grow, d.action);
}

TEST(FlexHeapNoIO, TheBalancePolicyNeverLeavesSizingToG1) {
  FlexHeapConfig cfg = config();
  cfg.policy = FlexHeapPolicyKind::Balance;
  FlexHeapController c(cfg);
  for (int i = 0; i < 4; i++) {
    EXPECT_FALSE(step(c, sample(1.0 + i, 0.0)).stock_sizing);
  }
}

