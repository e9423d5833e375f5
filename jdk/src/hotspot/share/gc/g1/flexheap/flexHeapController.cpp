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


#include "gc/g1/flexheap/flexHeapController.hpp"

#include "gc/g1/flexheap/flexHeapAssert.hpp"
#include "gc/g1/flexheap/flexHeapMath.hpp"
#include "gc/g1/flexheap/flexHeapStep.hpp"

#include <math.h>

// Reasons, indexed by the guard that chose the action (0 costDown, 1 costUp;
// +2 when the negligible-cost rule turned the direction) and by the outcome
// of the step: [acted, 0 bytes because at the limit, 0 bytes because no free regions].
static const char* const flexheap_grow_reasons[4][2] = {
  { "costDown,growUsed",     "costDown,growUsed,atMax" },
  { "costUp,gcBias",         "costUp,gcBias,atMax" },
  { "costDown,ioNegligible", "costDown,ioNegligible,atMax" },
  { "costUp,ioNegligible",   "costUp,ioNegligible,atMax" }
};
static const char* const flexheap_shrink_reasons[4][3] = {
  { "costDown,ioFull",       "costDown,ioFull,atMin",       "costDown,ioFull,noFree" },
  { "costUp,ioBias",         "costUp,ioBias,atMin",         "costUp,ioBias,noFree" },
  { "costDown,gcNegligible", "costDown,gcNegligible,atMin", "costDown,gcNegligible,noFree" },
  { "costUp,gcNegligible",   "costUp,gcNegligible,atMin",   "costUp,gcNegligible,noFree" }
};

// Balance policy reasons: [rule][outcome].
enum { BalanceGrow, BalanceGrowAtMax, BalanceShrink, BalanceShrinkAtMin, BalanceShrinkNoFree, BalanceSteady,
       BalanceHold, NumBalanceOutcomes };
enum { RuleBalance, RuleGCGoal, RuleMemLimit, RuleCacheRent, RuleEarlyGC, NumBalanceRules };
static const char* const flexheap_balance_reasons[NumBalanceRules][NumBalanceOutcomes] = {
  { "balance,grow", "balance,grow,atMax", "balance,shrink", "balance,shrink,atMin",
    "balance,shrink,noFree", "balance,steady", "balance,hold" },
  { "gcGoal,grow",  "gcGoal,grow,atMax",  "gcGoal,shrink",  "gcGoal,shrink,atMin",
    "gcGoal,shrink,noFree",  "gcGoal,steady", "gcGoal,hold" },
  { "memLimit,grow", "memLimit,grow,atMax", "memLimit,shrink", "memLimit,shrink,atMin",
    "memLimit,shrink,noFree", "memLimit,steady", "memLimit,hold" },
  { "cacheRent,grow", "cacheRent,grow,atMax", "cacheRent,shrink", "cacheRent,shrink,atMin",
    "cacheRent,shrink,noFree", "cacheRent,steady", "cacheRent,hold" },
  { "earlyGC,grow", "earlyGC,grow,atMax", "earlyGC,shrink", "earlyGC,shrink,atMin",
    "earlyGC,shrink,noFree", "earlyGC,steady", "earlyGC,hold" }
};

// docs/controller.md gives the reason of each.
const double FlexHeapController::SignificantIOFractionOfGoal = 0.25;
const double FlexHeapController::GoalLowFraction = 0.75;   // JDK 26: G1CPUUsageDeviationPercent 25
const double FlexHeapController::GoalHighFraction = 1.25;
const double FlexHeapController::GoalShrinkHorizonWindows = 5.0;
const double FlexHeapController::GoalFloorFraction = 0.25;
const double FlexHeapController::BalanceMaxGCShare = 0.08;
const double FlexHeapController::LiveSetFallFraction = 0.5;
const double FlexHeapController::LiveSetFallCommittedFraction = 0.25;
const double FlexHeapController::TooSmallMemorySeconds = 30.0;
const double FlexHeapController::DeadBandFraction = 0.02;
const double FlexHeapController::ReversalBandFraction = 0.10;
const double FlexHeapController::RefaultSaturation = 0.1;
const double FlexHeapController::BlindRefaultFraction = 0.5;
const double FlexHeapController::CacheFillingFreeFraction = 0.05;
const double FlexHeapController::EarlyGCSurvivalFraction = 0.5;
const double FlexHeapController::EarlyGCGrowth = 2.0;
const double FlexHeapController::MarkingRequestSeconds = 5.0;
const double FlexHeapController::AllocationFallFraction = 0.5;
const double FlexHeapController::MaxCacheReserve = 0.9;

// One decision's view of its interval and of the cost window (stage 1).
struct FlexHeapController::Measure {
  double committed;      // bytes
  double used_after;     // bytes, at most committed
  double headroom;       // committed - used_after, at least one region
  double cache;          // page cache (bytes)
  double wall;           // the interval's wall time (s)
  double mut_cores;      // CPUs the mutators can use, at least 1
  double goal;           // the GC-CPU goal, a share of mut_cores
  double old_used;       // used_after less eden (bytes)
  double allocated;      // bytes the mutators allocated since the previous pause
  double kept;           // of them, bytes this pause kept
  bool   allocation_fell;    // an allocation pause whose interval allocated at below
                             // AllocationFallFraction of the previous one's rate
  double free_memory;    // memory neither heap nor page cache holds (with a memory limit)
  bool   cache_filling;  // free_memory above CacheFillingFreeFraction of the limit
  double a;              // the window's GC coefficient: GC cost per second x headroom
  double b;              // its recoverable I/O coefficient: recoverable I/O cost per second x cache
  double gc_share;       // GC cost per second of the mutators' CPUs
  double recoverable_share;  // recoverable I/O cost per second of the mutators' CPUs
  double window_read;    // bytes the window's intervals read
  bool   io_bound;       // the mutators stall on I/O (recoverable or not) at SignificantIOFractionOfGoal or more
  bool   blind_rereading;    // no stall source, and reads that re-read the cache's evictions
};

// The heap the rules leave (stages 3 and 4).
struct FlexHeapController::Bounds {
  int    rule;           // the rule that set target, for the reason
  double target;         // committed heap to step toward (bytes)
  double lowest;         // no shrink below: used_after + G1's eden target, or the least heap
  double least;          // no heap below: the used part, G1's smallest young generation, -Xms,
                         // and after an early GC twice its allocation
  bool   early_floor;    // the least heap is an early GC's
};

bool FlexHeapController::rereads_evicted_cache(double read_bytes, double refault_bytes) {
  if (!(read_bytes >= FlexHeapEvictionCredit::MinReadBytes)) {
    return false;
  }
  const double share = refault_bytes > 0.0 ? (refault_bytes < read_bytes ? refault_bytes / read_bytes : 1.0) : 0.0;
  return FlexHeapBalanceWindow::recoverable(share, RefaultSaturation) >= BlindRefaultFraction;
}

// A shrink of 0 bytes because the heap is at -Xms (less than a region above
// it), rather than for lack of free regions.
static bool flexheap_at_min(const FlexHeapSample& s) {
  return s.committed <= s.min_capacity || s.committed - s.min_capacity < s.region_size;
}

FlexHeapConfig FlexHeapController::default_config(FlexHeapPolicyKind policy) {
  FlexHeapConfig c = FlexHeapConfig();
  c.policy = policy;
  c.gc_time_ratio = 24.0;
  c.cache_reserve = 0.10;
  c.rent_refault_saturation = RefaultSaturation;
  c.balance_window_s = 0.0;
  c.history_length = 10;
  c.min_scale = 0.2;
  c.max_scale = 2.0;
  c.expand_percent = 20.0;
  c.static_step_percent = 0;
  c.cost_as_rate = policy == FlexHeapPolicyKind::Balance;
  c.negligible_percent = 0;
  return c;
}

static void flexheap_check_config(const FlexHeapConfig& c) {
  flexheap_assert(c.gc_time_ratio >= 1.0, "FlexHeapGCTimeRatio is at least 1");
  flexheap_assert(c.cache_reserve >= 0.0 && c.cache_reserve <= FlexHeapController::MaxCacheReserve,
                  "FlexHeapCacheReservePercent within its range");
  flexheap_assert(c.rent_refault_saturation > 0.0 && c.rent_refault_saturation <= 1.0,
                  "FlexHeapRentRefaultSaturationPercent within its range");
  flexheap_assert(c.history_length >= 1 && c.history_length <= FlexHeapCostHistory::MaxLength,
                  "FlexHeapHistoryLength within its range");
  flexheap_assert(c.min_scale >= 0.0 && c.max_scale >= c.min_scale, "FlexHeapMin/MaxScaleFactor ordered");
  flexheap_assert(c.expand_percent >= 0.0 && c.expand_percent <= 100.0, "G1ExpandByPercentOfAvailable within 0..100");
  flexheap_assert(c.static_step_percent <= 100 && c.negligible_percent <= 100, "percentages within 0..100");
}

static void flexheap_check_sample(const FlexHeapSample& s) {
  flexheap_assert(s.t_stw >= 0.0 && s.t_mut >= 0.0, "interval times are not negative (nor NaN)");
  flexheap_assert(s.conc_cpu >= 0.0 && s.io_stall >= 0.0, "CPU and stall times are not negative (nor NaN)");
  flexheap_assert(s.refault_bytes >= 0.0 && s.read_bytes >= 0.0, "read figures are not negative (nor NaN)");
  flexheap_assert(!(s.proc_cpu != s.proc_cpu), "the process CPU time is a number (negative: unknown)");
  flexheap_assert(s.region_size > 0, "G1 has regions");
  flexheap_assert(s.min_capacity <= s.committed && s.committed <= s.max_capacity,
                  "the committed heap is within [MinHeapSize, MaxHeapSize]");
}

FlexHeapController::FlexHeapController(const FlexHeapConfig& cfg) :
  _cfg(cfg),
  _history(cfg.history_length),
  _window(cfg.balance_window_s),
  _slow_gc(GoalShrinkHorizonWindows * _window.seconds()),   // _window is initialized first
  _eviction(cfg.rent_refault_saturation),
  _last(),
  _guard(),
  _since_marking(MarkingRequestSeconds),
  _recheck_marking(false),
  _rent_free_growth(-1.0),
  _has_applied(false),
  // Start in WaitGrow with no grow recorded, so growUsed holds: as if the
  // initial heap had been fully used, the way G1 starts small and grows.
  _state(FlexHeapState::WaitGrow),
  _has_prev(false),
  _prev(),
  _has_grow(false),
  _used_before_grow(0),
  _grow_bytes(0),
  _has_shrink(false),
  _page_cache_before_shrink(0),
  _shrink_bytes(0) {
  flexheap_check_config(cfg);
}

FlexHeapDecision FlexHeapController::decide(const FlexHeapSample& s) {
  flexheap_check_sample(s);
  FlexHeapDecision d = FlexHeapDecision();
  // No rent rule until the balance policy applies one: the paper's mode
  // logs -1 (unlimited), not 0, which would read as "no growth allowed".
  d.eviction_allowance = -1.0;
  d.rent_free = -1.0;
  d.c_stw  = FlexHeapCostModel::stw_cost(s.t_stw, s.cores, s.mutators);
  d.c_conc = FlexHeapCostModel::conc_cost(s.conc_cpu, s.conc_threads, s.cores, s.mutators, s.t_mut);
  // Without a stall source C_io is 0 and ioBias can never win (below).
  d.c_io   = s.io_available ? FlexHeapCostModel::io_cost(s.io_stall, s.t_mut, s.cores) : 0.0;
  const double wall = s.t_mut + s.t_stw;
  if (_cfg.policy == FlexHeapPolicyKind::Balance && s.proc_cpu >= 0.0) {
    // A stalled thread loses CPU only if no other thread could use it: the
    // balance policy counts no more I/O stall than the CPU time the process
    // left idle (the paper's Eq. 4 counts every stalled thread).
    const double idle = FlexHeapCostModel::idle_cpu(s.proc_cpu, wall, s.cores);
    d.c_io = d.c_io < idle ? d.c_io : idle;
  }
  d.c_gc   = FlexHeapCostModel::gc_cost(d.c_stw, d.c_conc);
  d.c_tot  = d.c_gc + d.c_io;

  _history.add(d.c_gc, d.c_io, wall);
  FlexHeapCostAverages cur = _history.averages(_cfg.cost_as_rate);
  d.avg_gc = cur.gc;
  d.avg_io = cur.io;
  d.avg_tot = cur.tot;
  d.state = _state;
  d.action = FlexHeapAction::None;

  if (_cfg.policy == FlexHeapPolicyKind::Balance) {
    decide_balance(s, d);
  } else {
    decide_paper(s, cur, d);
  }
  flexheap_assert(d.action == FlexHeapAction::None || d.bytes > 0, "an action has a size");
  flexheap_assert(d.bytes % s.region_size == 0, "steps are whole regions");
  flexheap_assert(d.action != FlexHeapAction::Grow || s.committed + d.bytes <= s.max_capacity,
                  "a grow stays within MaxHeapSize");
  flexheap_assert(d.action != FlexHeapAction::Shrink || s.committed - d.bytes >= s.min_capacity,
                  "a shrink stays within MinHeapSize");
  return d;
}

void FlexHeapController::decide_paper(const FlexHeapSample& s, const FlexHeapCostAverages& cur,
                                      FlexHeapDecision& d) {
  if (!_has_prev) {
    // No average at t-1 to compare with: nothing to decide yet.
    _has_prev = true;
    _prev = cur;
    d.reason = "warmup";
    return;
  }

  FlexHeapCostAverages prev = _prev;
  _prev = cur;
  d.prev_avg_tot = prev.tot;
  d.rel_gc  = FlexHeapCostModel::relative_change(prev.gc, cur.gc);
  d.rel_io  = FlexHeapCostModel::relative_change(prev.io, cur.io);
  d.rel_tot = FlexHeapCostModel::relative_change(prev.tot, cur.tot);

  // Fig. 4 predicates. Without a recorded step there is no slack to wait for.
  d.cost_down  = cur.tot <= prev.tot;
  d.grow_slack = _has_grow && s.used < _used_before_grow + _grow_bytes;
  d.io_slack   = _has_shrink && s.page_cache < _page_cache_before_shrink + _shrink_bytes;
  d.gc_bias    = !s.io_available || d.rel_gc >= d.rel_io;

  // No I/O cost at t-1 nor at t: the relative change of the I/O cost is
  // 0/0, which the paper leaves undefined. Taken as 0 (our zero-denominator
  // guard), every GC cost rise is gcBias and a cost fall in WaitGrow grows
  // again: Fig. 4 only grows, a ratchet toward the max heap that stock G1
  // never makes. With no I/O to trade GC time against, G1 sizes such a pause
  // as stock G1 does; the FSM goes on from its state with the first I/O
  // cost. (Without a stall source the paper policy is off: g1FlexHeap.cpp.)
  if (s.io_available && !(prev.io > 0.0) && !(cur.io > 0.0)) {
    d.stock_sizing = true;
    d.reason = "noIO,stock";
    return;
  }

  // Fig. 4 transitions: the action wanted and the state it leads to.
  PaperMove move = paper_transition(s, cur, d);
  // A new step replaces the slack record of its direction; record_applied()
  // sets it again from what the glue applied.
  if (move.want == FlexHeapAction::Grow) {
    _has_grow = false;
    paper_grow(s, move.guard, d);
  } else if (move.want == FlexHeapAction::Shrink) {
    _has_shrink = false;
    paper_shrink(s, move.guard, move.gc_negligible, d);
  }
  const FlexHeapState target = move.target;
  // A step of 0 bytes leaves the action None but the state still follows the
  // FSM, so the controller keeps its direction.
  _state = target;
  d.state = target;
}

// Fig. 4's transition from the predicates, turned around by the
// negligible-cost rule (FlexHeapNegligibleCostPercent, beyond the paper).
FlexHeapController::PaperMove FlexHeapController::paper_transition(const FlexHeapSample& s,
                                                                   const FlexHeapCostAverages& cur,
                                                                   FlexHeapDecision& d) const {
  PaperMove m;
  m.gc_negligible = false;
  if (d.cost_down) {
    m.guard = 0;
    m.target = _state;
    if (_state == FlexHeapState::WaitGrow) {
      m.want = d.grow_slack ? FlexHeapAction::None : FlexHeapAction::Grow;
      d.reason = "costDown,growSlack";
    } else {
      m.want = d.io_slack ? FlexHeapAction::None : FlexHeapAction::Shrink;
      d.reason = "costDown,ioSlack";
    }
  } else {
    m.guard = 1;
    m.want = d.gc_bias ? FlexHeapAction::Grow : FlexHeapAction::Shrink;
    m.target = d.gc_bias ? FlexHeapState::WaitGrow : FlexHeapState::WaitShrink;
  }
  // The relative changes of gcBias ignore magnitudes, so a GC cost of 0.1%
  // of the I/O cost can still win and grow the heap out of the page cache.
  // A step toward a negligible cost cannot gain more than that cost while it
  // takes memory from the dominant side: turn it around.
  const bool rule = _cfg.negligible_percent > 0 && s.io_available;
  const double fraction = _cfg.negligible_percent / 100.0;
  m.gc_negligible = rule && cur.gc < fraction * cur.io;
  const bool io_negligible = rule && cur.io < fraction * cur.gc;
  if (m.want == FlexHeapAction::Grow && m.gc_negligible) {
    m.want = FlexHeapAction::Shrink;
    m.target = FlexHeapState::WaitShrink;
    m.guard += 2;
  } else if (m.want == FlexHeapAction::Shrink && io_negligible) {
    m.want = FlexHeapAction::Grow;
    m.target = FlexHeapState::WaitGrow;
    m.guard += 2;
  }
  return m;
}

// Alg. 2: a logistic share of the uncommitted heap (or a static one).
void FlexHeapController::paper_grow(const FlexHeapSample& s, int guard, FlexHeapDecision& d) const {
  const double scale = _cfg.static_step_percent > 0 ? 1.0 : flexheap_scale(d.rel_tot, _cfg.min_scale, _cfg.max_scale);
  const size_t bytes = flexheap_grow_bytes(s.committed, s.max_capacity, s.region_size,
                                           _cfg.expand_percent, scale, _cfg.static_step_percent);
  d.reason = flexheap_grow_reasons[guard][bytes == 0 ? 1 : 0];
  if (bytes > 0) {
    d.action = FlexHeapAction::Grow;
    d.bytes = bytes;
    d.scale = scale;
  }
}

// Alg. 3: a logistic share of the free regions beyond G1's eden target.
void FlexHeapController::paper_shrink(const FlexHeapSample& s, int guard, bool gc_negligible,
                                      FlexHeapDecision& d) const {
  double scale = _cfg.static_step_percent > 0 ? 1.0 : flexheap_scale(d.rel_tot, _cfg.min_scale, _cfg.max_scale);
  if (scale > 1.0 || gc_negligible) {
    // A shrink cannot return more than its budget. With a negligible GC
    // cost it returns all of it: the budget keeps G1's eden target, and the
    // GC cost the step can add is what the rule calls negligible.
    scale = 1.0;
  }
  const size_t bytes = flexheap_shrink_bytes(s.committed, s.min_capacity, s.region_size,
                                             s.free_regions, s.eden_target_regions,
                                             scale, _cfg.static_step_percent);
  const int outcome = bytes > 0 ? 0 : (flexheap_at_min(s) ? 1 : 2);
  d.reason = flexheap_shrink_reasons[guard][outcome];
  if (bytes > 0) {
    d.action = FlexHeapAction::Shrink;
    d.bytes = bytes;
    d.scale = scale;
  }
}

void FlexHeapController::decide_balance(const FlexHeapSample& s, FlexHeapDecision& d) {
  const Measure m = measure(s, d);
  double headroom;
  const int rule = aim(m, d, &headroom);
  const Bounds b = bound(s, m, rule, headroom, d);
  step(s, m, b, d);
}

// Stage 1: the interval's costs into the window, and what the window says.
FlexHeapController::Measure FlexHeapController::measure(const FlexHeapSample& s, FlexHeapDecision& d) {
  Measure m;
  const double region = (double)s.region_size;
  m.committed = (double)s.committed;
  m.used_after = (double)(s.used_after < s.committed ? s.used_after : s.committed);
  // A full heap still has the GC's allocation region: never model less than one region.
  m.headroom = m.committed - m.used_after > region ? m.committed - m.used_after : region;
  const double eden = (double)(s.eden_used < s.used_after ? s.eden_used : s.used_after);
  const double old_used = (double)s.used_after - eden;
  m.cache = (double)s.page_cache;
  m.wall = s.t_mut + s.t_stw;
  if (!_last.valid) {
    // The interval before the first pause ran on the initial heap, empty at
    // its start: its headroom was the committed heap.
    _last.valid = true;
    _last.headroom = m.committed;
    _last.cache = m.cache;
    _last.old_used = old_used;
  }
  m.old_used = old_used;
  m.allocated = (double)s.used - _last.old_used;
  m.kept = m.used_after - _last.old_used;
  // Allocation pauses only: a requested pause or a Remark comes whatever the rate.
  const double alloc_rate = s.t_mut > 0.0 ? m.allocated / s.t_mut : 0.0;
  m.allocation_fell = s.allocation_pause && alloc_rate < AllocationFallFraction * _last.alloc_rate;
  if (s.allocation_pause) {
    _last.alloc_rate = alloc_rate;
  }
  // Most of the old data gone since the previous pause: a Remark or a full
  // GC found the load's peak over, and the GC cost of that peak says nothing
  // about the next phase: the slow horizon forgets it, and so does the window
  // where I/O costs nothing (below). Eden is left out on both sides, and a pause with no mutator time since
  // the last is no new phase.
  d.live_set_fell = s.t_mut > 0.0 && old_used < LiveSetFallFraction * _last.old_used &&
                    _last.old_used - old_used >= LiveSetFallCommittedFraction * m.committed;
  if (d.live_set_fell) {
    _slow_gc.reset();
  }
  // The interval's GC cost came from the headroom the previous pause left,
  // its I/O from the page cache then. A requested pause's own cost does not
  // fall with headroom: only the interval's concurrent work counts.
  const double window_gc = s.requested_pause ? d.c_conc : d.c_gc;
  const double read_bytes = s.cache_signals ? s.read_bytes : -1.0;
  const double refault_bytes = s.cache_signals ? s.refault_bytes : -1.0;
  d.phase_shift = _window.add(m.wall, window_gc, d.c_io, _last.headroom, _last.cache, read_bytes, refault_bytes);
  _slow_gc.add(m.wall, window_gc, _last.headroom);
  _guard.since_step += m.wall;
  _guard.too_small_age += m.wall;
  if (d.phase_shift || d.live_set_fell || _guard.too_small_age > TooSmallMemorySeconds) {
    _guard.too_small_headroom = 0.0;
  }
  _last.headroom = m.headroom;
  _last.cache = m.cache;
  _last.old_used = old_used;

  const double cores = (double)(s.cores < s.mutators ? s.cores : s.mutators);
  m.mut_cores = cores >= 1.0 ? cores : 1.0;
  m.goal = 1.0 / (1.0 + _cfg.gc_time_ratio);
  learn_rent(s, m, d, window_gc, read_bytes, refault_bytes);

  d.refault_fraction = FlexHeapBalanceWindow::recoverable(_window.refault_fraction(1.0), RefaultSaturation);
  d.io_rate = s.io_available ? _window.io_rate() : 0.0;
  m.io_bound = d.io_rate / m.mut_cores >= SignificantIOFractionOfGoal * m.goal;
  m.window_read = _window.read_bytes();
  m.blind_rereading = !s.io_available && s.cache_signals &&
                      rereads_evicted_cache(m.window_read, m.window_read * _window.refault_fraction(0.0));
  // Where I/O costs nothing, the GC cost of a peak found dead (and of the
  // marking that found it, this interval's) says nothing about the data left.
  if (d.live_set_fell && !m.io_bound && !m.blind_rereading) {
    _window.forget_gc();
  }
  d.gc_rate = _window.gc_rate();
  m.a = _window.gc_coefficient();
  m.b = s.io_available ? _window.io_coefficient() * d.refault_fraction : 0.0;
  m.gc_share = d.gc_rate / m.mut_cores;
  m.recoverable_share = d.io_rate * d.refault_fraction / m.mut_cores;
  return m;
}

// Stage 1, the rent's part: the GC cost above the goal pays for growth into
// the page cache, at the price of reading evicted pages back
// (flexHeapEvictionCredit.hpp). Only an interval whose stalls reach the GC
// goal teaches that price, and its refaults count only once the cache is
// full: free memory at the interval's end means the cache was filling.
void FlexHeapController::learn_rent(const FlexHeapSample& s, Measure& m, const FlexHeapDecision& d,
                                    double window_gc, double read_bytes, double refault_bytes) {
  if (d.phase_shift) {
    _eviction.reset();
  }
  const double goal_cost = m.goal * m.mut_cores * m.wall;  // CPU s the GC goal allows in the interval
  m.free_memory = (double)s.memory_limit - (double)s.non_heap - m.committed - m.cache;
  m.cache_filling = s.memory_limit > 0 && m.free_memory > CacheFillingFreeFraction * (double)s.memory_limit;
  const bool teaches = d.c_io >= goal_cost;
  _eviction.add(window_gc - goal_cost, d.c_io, teaches ? read_bytes : -1.0,
                m.cache_filling ? -1.0 : refault_bytes, m.cache);
}

// Stage 2: the headroom a rule aims at. With recoverable I/O the square-root
// split of heap headroom and page cache; without it the GC-CPU goal.
int FlexHeapController::aim(const Measure& m, FlexHeapDecision& d, double* headroom) {
  _guard.marking_tells = false;
  if (m.recoverable_share < SignificantIOFractionOfGoal * m.goal) {
    return aim_gc_goal(m, d, headroom);
  }
  double h = flexheap_balance_headroom(m.a, m.b, m.headroom + m.cache);
  // More heap than GC at GoalFloorFraction x goal buys nothing ...
  const double most = flexheap_goal_headroom(m.a, GoalFloorFraction * m.goal, m.mut_cores);
  // ... and the 1/cache model overstates what more cache saves on data far
  // larger than the cache: trade no more GC than BalanceMaxGCShare for it.
  const double least = flexheap_goal_headroom(m.a, BalanceMaxGCShare, m.mut_cores);
  h = h < most ? h : most;
  *headroom = h > least ? h : least;
  return RuleBalance;
}

// Stage 2 without recoverable I/O: GC at the goal, within a +-25% band.
// Growth answers the window; a shrink also needs the slow horizon low and a
// window that has seen the current size, and stops short of a headroom a
// shrink recently found too small. I/O stalls, re-reads without a stall
// source and a fallen live set lift those guards: the memory is wanted now.
int FlexHeapController::aim_gc_goal(const Measure& m, const FlexHeapDecision& d, double* headroom) {
  *headroom = m.headroom;
  const bool unguarded = m.io_bound || m.blind_rereading || d.live_set_fell;
  const bool low = m.gc_share < GoalLowFraction * m.goal;
  const bool settled = _slow_gc.rate() / m.mut_cores < GoalLowFraction * m.goal &&
                       (!_has_applied || _guard.since_step >= _window.seconds());
  // GC is cheap now, or the allocation that made it costly fell, but the
  // horizon remembers a costlier past: whether that past's old data is still
  // live only a marking tells (its Remark finds the live set fallen, or not),
  // so one is asked for where there is old data to find.
  _guard.marking_tells = (low || m.allocation_fell) && !unguarded && !settled &&
                         m.old_used >= LiveSetFallCommittedFraction * m.committed;
  if (m.gc_share > GoalHighFraction * m.goal) {
    *headroom = flexheap_goal_headroom(m.a, m.goal, m.mut_cores);
    // Growing back after a shrink: the headroom the window's GC cost came
    // from was too small for the goal.
    if (_has_applied && _state == FlexHeapState::WaitShrink) {
      _guard.too_small_headroom = d.gc_rate > 0.0 ? m.a / d.gc_rate : m.headroom;
      _guard.too_small_age = 0.0;
    }
    return RuleGCGoal;
  }
  if (low && (unguarded || settled)) {
    const double slow_a = unguarded ? 0.0 : _slow_gc.coefficient();
    double h = flexheap_goal_headroom(slow_a > m.a ? slow_a : m.a, m.goal, m.mut_cores);
    if (!unguarded && _guard.too_small_headroom > 0.0 && h < GoalHighFraction * _guard.too_small_headroom) {
      h = GoalHighFraction * _guard.too_small_headroom;
    }
    *headroom = h < m.headroom ? h : m.headroom;
  }
  return RuleGCGoal;
}

// Stage 3: the heap the target may be. The least heap G1 runs in is forced
// growth; the memory ceiling bounds everything; growth into the page cache
// pays rent; a target below the used part asks for a concurrent cycle.
FlexHeapController::Bounds FlexHeapController::bound(const FlexHeapSample& s, const Measure& m, int rule,
                                                     double headroom, FlexHeapDecision& d) {
  const double region = (double)s.region_size;
  Bounds b;
  b.rule = rule;
  b.least = m.used_after + (double)s.min_eden_regions * region;
  if (b.least < (double)s.min_capacity) {
    b.least = (double)s.min_capacity;
  }
  // An early young GC (allocation triggered it and it kept most of what was
  // allocated since the pause before) copies about all it collects: below
  // that size the GC cost is not 1/headroom. The headroom doubles, forced.
  b.early_floor = false;
  if (s.allocation_pause && m.allocated >= region && m.kept >= EarlyGCSurvivalFraction * m.allocated) {
    const double early = m.used_after + EarlyGCGrowth * m.allocated;
    if (early > b.least) {
      b.least = early;
      b.early_floor = true;
    }
  }
  // A shrink keeps room for G1's eden target too; growth is not forced by
  // it, since G1 sizes that target from the heap it is given.
  b.lowest = m.used_after + (double)s.eden_target_regions * region;
  b.lowest = b.lowest < m.committed ? b.lowest : m.committed;
  b.lowest = b.lowest > b.least ? b.lowest : b.least;
  b.target = m.used_after + headroom;
  // The memory limit less the JVM's native memory and the cache reserve, or
  // SoftMaxHeapSize (G1 passes it only where it must expand to avoid an
  // OutOfMemoryError), whichever is lower.
  d.ceiling = flexheap_heap_ceiling((double)s.memory_limit, (double)s.non_heap, _cfg.cache_reserve,
                                    s.soft_max_heap, s.region_size);
  if (d.ceiling > 0 && b.target > (double)d.ceiling) {
    b.target = (double)d.ceiling;
    b.rule = RuleMemLimit;
  }
  _rent_free_growth = -1.0;   // no rent without a memory limit
  if (s.memory_limit > 0) {
    rent(s, m, b, d);
  }
  _since_marking = d.phase_shift ? MarkingRequestSeconds : _since_marking + m.wall;
  const bool marking_tells = rule == RuleGCGoal && _guard.marking_tells;
  const bool marking_wanted = b.target < b.lowest - dead_band(s) || marking_tells;
  // The first Remark after such a request may have found part of the old
  // data live that is not: a dead old object that pointed into the young
  // generation kept what it pointed to alive through the concurrent start
  // (G1's nepotism). Its cycle scrubs the dead objects, so one more marking,
  // started after this cycle, tells.
  const bool recheck = s.remark && _recheck_marking && rule == RuleGCGoal;
  if (s.remark) {
    _recheck_marking = false;
  }
  if ((marking_wanted && _since_marking >= MarkingRequestSeconds) || recheck) {
    d.start_marking = true;
    d.mark_soon = marking_tells || recheck;
    _since_marking = 0.0;
    _recheck_marking = !s.remark && marking_tells;
  }
  if (b.early_floor && b.target < b.least) {
    b.rule = RuleEarlyGC;
  }
  b.target = b.target > b.lowest ? b.target : b.lowest;
  b.target = b.target < (double)s.max_capacity ? b.target : (double)s.max_capacity;
  // The ceiling bounds the least heap too: one past it makes the cgroup
  // reclaim the JVM's own code until it thrashes, or OOM-kills it.
  if (d.ceiling > 0 && b.target > (double)d.ceiling) {
    b.target = (double)d.ceiling;
    b.rule = RuleMemLimit;
  }
  d.target = (size_t)b.target;
  return b;
}

// Stage 3, the rent: growth past the memory nobody uses evicts page cache,
// and only as much as the GC cost already lost above the goal would pay to
// read back. Free memory is free unless an I/O-bound phase's cache is still
// filling it; growth the least heap forces is not charged either.
void FlexHeapController::rent(const FlexHeapSample& s, const Measure& m, Bounds& b, FlexHeapDecision& d) {
  const double forced = b.least - m.committed;
  // Stalls without reads (fsync, writeback) fill no cache.
  const bool reads_fill = !s.cache_signals || m.window_read >= FlexHeapEvictionCredit::MinReadBytes;
  const bool cache_takes_free = m.cache_filling && reads_fill && d.io_rate / m.mut_cores >= m.goal;
  const double free_for_heap = cache_takes_free ? 0.0 : m.free_memory;
  _rent_free_growth = flexheap_nonneg(free_for_heap > forced ? free_for_heap : forced);
  d.rent_free = _rent_free_growth;
  // Without a stall source no interval teaches the price and the rent is
  // unlimited, unless reads show the cache being re-read.
  d.eviction_allowance = m.blind_rereading ? 0.0 : _eviction.allowance();
  if (d.eviction_allowance >= 0.0 && b.target > m.committed + _rent_free_growth + d.eviction_allowance) {
    b.target = m.committed + _rent_free_growth + d.eviction_allowance;
    b.rule = b.early_floor ? RuleEarlyGC : RuleCacheRent;
  }
}

double FlexHeapController::dead_band(const FlexHeapSample& s) {
  const double band = DeadBandFraction * (double)s.committed;
  return band > (double)s.region_size ? band : (double)s.region_size;
}

// Stage 4: a step toward the target. Small changes wait; reversing the last
// step needs a larger one (no oscillation); growth waits for an allocation
// pause and at most doubles the heap; the GC goal shrinks halfway, an
// I/O-driven or memory-limit shrink all the way.
void FlexHeapController::step(const FlexHeapSample& s, const Measure& m, const Bounds& b, FlexHeapDecision& d) {
  const double delta = b.target - m.committed;
  // Getting back under the ceiling is not an oscillation.
  const bool over_ceiling = d.ceiling > 0 && m.committed > (double)d.ceiling && delta < 0.0;
  const bool reverses = _has_applied && !over_ceiling && ((delta > 0.0) != (_state == FlexHeapState::WaitGrow));
  const double reversal = ReversalBandFraction * m.committed;
  const double band = reverses && reversal > dead_band(s) ? reversal : dead_band(s);
  int outcome;
  if (fabs(delta) < band) {
    outcome = BalanceSteady;
  } else if (delta > 0.0 && !s.allocation_pause) {
    outcome = BalanceHold;   // a requested GC, Remark or full GC: no sign of allocation outrunning the heap
  } else if (delta > 0.0) {
    size_t bytes = flexheap_grow_bytes(s.committed, s.max_capacity, s.region_size, 100.0, 1.0, 0);
    const size_t want = flexheap_round_up((size_t)delta, s.region_size);
    bytes = want < bytes ? want : bytes;
    outcome = bytes > 0 ? BalanceGrow : BalanceGrowAtMax;
    if (bytes > 0) {
      d.action = FlexHeapAction::Grow;
      d.bytes = bytes;
      _state = FlexHeapState::WaitGrow;
    }
  } else {
    const double want = b.rule == RuleGCGoal && !m.blind_rereading ? -delta * 0.5 : -delta;
    // Over the ceiling the shrink may take G1's eden target down to its
    // smallest young generation: more young GCs, not a thrashing cgroup.
    size_t eden_reserve = s.eden_target_regions;
    if (over_ceiling) {
      const size_t smallest = s.min_eden_regions > 0 ? s.min_eden_regions : 1;
      eden_reserve = smallest < eden_reserve ? smallest : eden_reserve;
    }
    const size_t budget = flexheap_shrink_bytes(s.committed, s.min_capacity, s.region_size,
                                                s.free_regions, eden_reserve, 1.0, 0);
    size_t bytes = flexheap_round_down((size_t)want, s.region_size);
    bytes = bytes < budget ? bytes : budget;
    outcome = bytes > 0 ? BalanceShrink : (flexheap_at_min(s) ? BalanceShrinkAtMin : BalanceShrinkNoFree);
    if (bytes > 0) {
      d.action = FlexHeapAction::Shrink;
      d.bytes = bytes;
      _state = FlexHeapState::WaitShrink;
    }
  }
  d.gc_goal_met = b.rule == RuleGCGoal && !m.io_bound && !m.blind_rereading &&
                  m.gc_share <= GoalHighFraction * m.goal;
  d.scale = d.action == FlexHeapAction::None ? 0.0 : 1.0;
  d.reason = flexheap_balance_reasons[b.rule][outcome];
  d.state = _state;
}

void FlexHeapController::record_applied(FlexHeapAction action, size_t applied_bytes,
                                        const FlexHeapSample& s) {
  // An applied action puts the FSM in its wait state (Fig. 4), also when the
  // glue acted on its own (e.g. G1's free-ratio floor after a full GC).
  if (applied_bytes > 0) {
    _has_applied = true;
    _guard.since_step = 0.0;
  }
  if (action == FlexHeapAction::Grow && _rent_free_growth >= 0.0 && (double)applied_bytes > _rent_free_growth) {
    // Balance: the part of the step beyond the free memory and the forced
    // growth was taken from the page cache by choice.
    _eviction.spend((double)applied_bytes - _rent_free_growth);
    _rent_free_growth = 0.0;
  }
  if (_last.valid && applied_bytes > 0) {
    // Balance: the next interval runs with the resized headroom.
    const double h = _last.headroom + (action == FlexHeapAction::Grow ? (double)applied_bytes : -(double)applied_bytes);
    _last.headroom = h > (double)s.region_size ? h : (double)s.region_size;
  }
  if (action == FlexHeapAction::Grow) {
    if (applied_bytes > 0) _state = FlexHeapState::WaitGrow;
    _has_grow = applied_bytes > 0;
    _used_before_grow = s.used;
    _grow_bytes = applied_bytes;
  } else if (action == FlexHeapAction::Shrink) {
    if (applied_bytes > 0) _state = FlexHeapState::WaitShrink;
    _has_shrink = applied_bytes > 0;
    _page_cache_before_shrink = s.page_cache;
    _shrink_bytes = applied_bytes;
  }
}

const char* FlexHeapController::state_name(FlexHeapState s) {
  switch (s) {
    case FlexHeapState::WaitGrow:   return "WaitGrow";
    case FlexHeapState::WaitShrink: return "WaitShrink";
  }
  return "unknown";
}

const char* FlexHeapController::policy_name(FlexHeapPolicyKind p) {
  switch (p) {
    case FlexHeapPolicyKind::Balance: return "balance";
    case FlexHeapPolicyKind::Paper:   return "paper";
  }
  return "unknown";
}

const char* FlexHeapController::action_name(FlexHeapAction a) {
  switch (a) {
    case FlexHeapAction::None:   return "None";
    case FlexHeapAction::Grow:   return "Grow";
    case FlexHeapAction::Shrink: return "Shrink";
  }
  return "unknown";
}
