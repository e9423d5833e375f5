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

// This file is part of FlexHeap: the grow/shrink controller of the paper's section 4.4 (Fig. 4).
#include "gc/g1/flexheap/flexHeapController.hpp"

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

// Balance policy reasons: [rule: 0 balance, 1 gcGoal, 2 memLimit, 3 cacheRent, 4 earlyGC, 5 liveGrowth][outcome].
enum { BalanceGrow, BalanceGrowAtMax, BalanceShrink, BalanceShrinkAtMin, BalanceShrinkNoFree, BalanceSteady,
       BalanceHold };
enum { RuleBalance, RuleGCGoal, RuleMemLimit, RuleCacheRent, RuleEarlyGC, RuleLiveGrowth };
static const char* const flexheap_balance_reasons[6][7] = {
  { "balance,grow", "balance,grow,atMax", "balance,shrink", "balance,shrink,atMin",
    "balance,shrink,noFree", "balance,steady", "balance,hold" },
  { "gcGoal,grow",  "gcGoal,grow,atMax",  "gcGoal,shrink",  "gcGoal,shrink,atMin",
    "gcGoal,shrink,noFree",  "gcGoal,steady", "gcGoal,hold" },
  { "memLimit,grow", "memLimit,grow,atMax", "memLimit,shrink", "memLimit,shrink,atMin",
    "memLimit,shrink,noFree", "memLimit,steady", "memLimit,hold" },
  { "cacheRent,grow", "cacheRent,grow,atMax", "cacheRent,shrink", "cacheRent,shrink,atMin",
    "cacheRent,shrink,noFree", "cacheRent,steady", "cacheRent,hold" },
  { "earlyGC,grow", "earlyGC,grow,atMax", "earlyGC,shrink", "earlyGC,shrink,atMin",
    "earlyGC,shrink,noFree", "earlyGC,steady", "earlyGC,hold" },
  { "liveGrowth,grow", "liveGrowth,grow,atMax", "liveGrowth,shrink", "liveGrowth,shrink,atMin",
    "liveGrowth,shrink,noFree", "liveGrowth,steady", "liveGrowth,hold" }
};

const double FlexHeapController::SignificantIOFractionOfGoal = 0.25;
const double FlexHeapController::GoalLowFraction = 0.75;   // JDK 26: G1CPUUsageDeviationPercent 25
const double FlexHeapController::GoalHighFraction = 1.25;
const double FlexHeapController::GoalAimFraction = 1.0;
const double FlexHeapController::GoalFloorFraction = 0.25;
const double FlexHeapController::GoalShrinkHorizonWindows = 5.0;
const double FlexHeapController::TooSmallMemorySeconds = 30.0;
const double FlexHeapController::LiveSetFallFraction = 0.5;
const double FlexHeapController::LiveSetFallCommittedFraction = 0.25;
const double FlexHeapController::DeadBandFraction = 0.02;
const double FlexHeapController::RefaultSaturation = 0.1;
const double FlexHeapController::MaxRentPriceMinIO = 10.0;
const double FlexHeapController::MaxRefaultEvidence = 10.0;
const double FlexHeapController::EarlyGCGrowth = 2.0;
const double FlexHeapController::CacheFillingFreeFraction = 0.05;
const double FlexHeapController::BlindRefaultFraction = 0.5;
const double FlexHeapController::MarkingRequestSeconds = 5.0;
const double FlexHeapController::ReversalBandFraction = 0.10;
const double FlexHeapController::MaxCacheReserve = 0.9;

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

static FlexHeapConfig flexheap_sanitize(const FlexHeapConfig& cfg) {
  FlexHeapConfig c = cfg;
  if (!(c.gc_time_ratio >= 1.0)) c.gc_time_ratio = 1.0;
  if (c.history_length < 1) c.history_length = 1;
  if (c.history_length > FlexHeapCostHistory::MaxLength) c.history_length = FlexHeapCostHistory::MaxLength;
  c.min_scale = flexheap_nonneg(c.min_scale);
  if (!(c.max_scale >= c.min_scale)) c.max_scale = c.min_scale;
  c.expand_percent = flexheap_clamp(c.expand_percent, 0.0, 100.0);
  if (c.static_step_percent > 100) c.static_step_percent = 100;
  if (c.negligible_percent > 100) c.negligible_percent = 100;
  c.cache_reserve = flexheap_clamp(c.cache_reserve, 0.0, FlexHeapController::MaxCacheReserve);
  c.rent_price_min_io = flexheap_clamp(c.rent_price_min_io, 0.0, FlexHeapController::MaxRentPriceMinIO);
  c.refault_evidence = flexheap_clamp(c.refault_evidence, 0.0, FlexHeapController::MaxRefaultEvidence);
  c.balance_max_gc = flexheap_clamp(c.balance_max_gc, 0.0, 1.0);
  c.early_gc_survival = flexheap_clamp(c.early_gc_survival, 0.0, 1.0);   // NaN: 0, off
  c.rent_refault_saturation = c.rent_refault_saturation > 0.0
                            ? flexheap_clamp(c.rent_refault_saturation, 0.01, 1.0)
                            : FlexHeapController::RefaultSaturation;   // NaN too
  return c;
}

FlexHeapController::FlexHeapController(const FlexHeapConfig& cfg) :
  _cfg(flexheap_sanitize(cfg)),
  _history(_cfg.history_length),
  _window(_cfg.balance_window_s, _cfg.recent_phase_shift),
  _slow_gc(GoalShrinkHorizonWindows * _window.seconds()),   // _window is initialized first
  _has_last(false),
  _last_headroom(0.0),
  _last_cache(0.0),
  _last_old_used(0.0),
  _wall_since_marking(FlexHeapController::MarkingRequestSeconds),
  _wall_since_step(0.0),
  _too_small_headroom(0.0),
  _too_small_age(0.0),
  _eviction(_cfg.rent_refault_saturation, _cfg.rent_credit_drains, _cfg.refault_evidence),   // _cfg is initialized first
  _remark_old_used(-1.0),
  _live_growth(0.0),
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
  _shrink_bytes(0) {}

FlexHeapDecision FlexHeapController::decide(const FlexHeapSample& s) {
  FlexHeapDecision d = FlexHeapDecision();
  // No rent rule until the balance policy applies one: the paper's mode
  // logs -1 (unlimited), not 0, which would read as "no growth allowed".
  d.eviction_allowance = -1.0;
  d.rent_free = -1.0;
  d.c_stw  = FlexHeapCostModel::stw_cost(s.t_stw, s.cores, s.mutators);
  d.c_conc = FlexHeapCostModel::conc_cost(s.conc_cpu, s.conc_threads, s.cores, s.mutators, s.t_mut);
  // Without a stall source C_io is 0 and ioBias can never win (below).
  d.c_io   = s.io_available ? FlexHeapCostModel::io_cost(s.io_stall, s.t_mut, s.cores) : 0.0;
  double wall = flexheap_nonneg(s.t_mut) + flexheap_nonneg(s.t_stw);
  if (uses_idle_cpu() && s.proc_cpu >= 0.0) {
    const double idle = FlexHeapCostModel::idle_cpu(s.proc_cpu, wall, s.cores);
    if (caps_io_by_idle_cpu()) {
      // A stalled thread loses CPU only if no other thread could use it.
      d.c_io = d.c_io < idle ? d.c_io : idle;
    }
    if (caps_conc_by_idle_cpu()) {
      // Marking takes CPU from the mutators only where none was left idle:
      // the cost left after the measured idle time replaces Eq. 3's when it
      // is smaller. The idle time includes the pause's, when the concurrent
      // threads are suspended, so this can understate C_conc by up to
      // N * T_stw; Eq. 3 bounds it from above either way.
      const double beyond_idle = flexheap_nonneg(flexheap_nonneg(s.conc_cpu) - idle);
      d.c_conc = d.c_conc < beyond_idle ? d.c_conc : beyond_idle;
    }
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
  FlexHeapAction want;
  FlexHeapState target;
  int guard;  // row of the reason tables: 0 costDown, 1 costUp (+2 below)
  if (d.cost_down) {
    guard = 0;
    target = _state;
    if (_state == FlexHeapState::WaitGrow) {
      want = d.grow_slack ? FlexHeapAction::None : FlexHeapAction::Grow;
      d.reason = "costDown,growSlack";
    } else {
      want = d.io_slack ? FlexHeapAction::None : FlexHeapAction::Shrink;
      d.reason = "costDown,ioSlack";
    }
  } else {
    guard = 1;
    want = d.gc_bias ? FlexHeapAction::Grow : FlexHeapAction::Shrink;
    target = d.gc_bias ? FlexHeapState::WaitGrow : FlexHeapState::WaitShrink;
  }

  // Beyond the paper: the relative changes of gcBias ignore magnitudes, so a
  // GC cost of 0.1% of the I/O cost can still win and grow the heap out of
  // the page cache. A step toward a negligible cost cannot gain more than that
  // cost while it takes memory from the dominant side: turn it around.
  const bool rule = _cfg.negligible_percent > 0 && s.io_available;
  const double fraction = _cfg.negligible_percent / 100.0;
  const bool gc_negligible = rule && cur.gc < fraction * cur.io;
  const bool io_negligible = rule && cur.io < fraction * cur.gc;
  if (want == FlexHeapAction::Grow && gc_negligible) {
    want = FlexHeapAction::Shrink;
    target = FlexHeapState::WaitShrink;
    guard += 2;
  } else if (want == FlexHeapAction::Shrink && io_negligible) {
    want = FlexHeapAction::Grow;
    target = FlexHeapState::WaitGrow;
    guard += 2;
  }

  // A new step replaces the slack record of its direction; record_applied()
  // sets it again from what the glue applied.
  if (want == FlexHeapAction::Grow) {
    _has_grow = false;
    double scale = _cfg.static_step_percent > 0 ? 1.0
                 : flexheap_scale(d.rel_tot, _cfg.min_scale, _cfg.max_scale);
    size_t bytes = flexheap_grow_bytes(s.committed, s.max_capacity, s.region_size,
                                       _cfg.expand_percent, scale, _cfg.static_step_percent);
    d.reason = flexheap_grow_reasons[guard][bytes == 0 ? 1 : 0];
    if (bytes > 0) {
      d.action = FlexHeapAction::Grow;
      d.bytes = bytes;
      d.scale = scale;
    }
  } else if (want == FlexHeapAction::Shrink) {
    _has_shrink = false;
    double scale = _cfg.static_step_percent > 0 ? 1.0
                 : flexheap_scale(d.rel_tot, _cfg.min_scale, _cfg.max_scale);
    if (scale > 1.0 || gc_negligible) {
      // A shrink cannot return more than its budget. With a negligible GC
      // cost it returns all of it: the budget keeps G1's eden target, and the
      // GC cost the step can add is what the rule calls negligible.
      scale = 1.0;
    }
    size_t bytes = flexheap_shrink_bytes(s.committed, s.min_capacity, s.region_size,
                                         s.free_regions, s.eden_target_regions,
                                         scale, _cfg.static_step_percent);
    int outcome = 0;
    if (bytes == 0) {
      outcome = flexheap_at_min(s) ? 1 : 2;
    }
    d.reason = flexheap_shrink_reasons[guard][outcome];
    if (bytes > 0) {
      d.action = FlexHeapAction::Shrink;
      d.bytes = bytes;
      d.scale = scale;
    }
  }
  // A step of 0 bytes leaves the action None but the state still follows the
  // FSM, so the controller keeps its direction.
  _state = target;
  d.state = target;
}

double FlexHeapController::dead_band_of(const FlexHeapSample& s) {
  double band = DeadBandFraction * (double)s.committed;
  return band > (double)s.region_size ? band : (double)s.region_size;
}

void FlexHeapController::decide_balance(const FlexHeapSample& s, FlexHeapDecision& d) {
  const double region = (double)s.region_size;
  const double committed = (double)s.committed;
  const double used_after = (double)(s.used_after < s.committed ? s.used_after : s.committed);
  // A full heap still has the GC's allocation region: never model less than one region.
  const double headroom = committed - used_after > region ? committed - used_after : region;
  const double eden = (double)(s.eden_used < s.used_after ? s.eden_used : s.used_after);
  const double old_used = (double)s.used_after - eden;
  const double cache = (double)s.page_cache;
  const double wall = flexheap_nonneg(s.t_mut) + flexheap_nonneg(s.t_stw);

  if (!_has_last) {
    // The interval before the first pause ran on the initial heap, empty at
    // its start: its headroom was the committed heap. It counts: in a JVM that
    // idles until a periodic GC it is the one long, GC-free interval.
    _has_last = true;
    _last_headroom = committed;
    _last_cache = cache;
    _last_old_used = old_used;
  }
  // What the mutators allocated since the previous pause (its old data, eden
  // left out, to this pause's start) and how much of it this pause kept.
  const double allocated = (double)s.used - _last_old_used;
  const double kept = used_after - _last_old_used;
  // Most of the live data gone since the previous pause: a marking (or a
  // full GC) found the load's peak over. The young GCs' cost at the peak
  // (copying the data that has now died) says nothing about the heap the
  // next phase needs; without this the slow horizon held ~0.5 GiB of an empty
  // heap for 10 s after a 0.5-GiB peak, where stock G1 gives it back at the
  // Remark (TestFlexHeapNoStallSource).
  // Eden is left out on both sides: a Remark's used_after holds the eden
  // filled during the marking, which the next young GC empties without any
  // live data falling. A pause with no mutator time since the last (a full GC
  // right after a young GC that ran out of space) is no new phase either.
  d.live_set_fell = s.t_mut > 0.0 && old_used < LiveSetFallFraction * _last_old_used &&
                    _last_old_used - old_used >= LiveSetFallCommittedFraction * committed;
  if (d.live_set_fell) {
    _slow_gc.reset();
  }
  // The interval's GC cost was set by the headroom left after the previous
  // pause, and its I/O by the page cache then.
  // The model's GC cost falls as 1/headroom; a requested pause's does not.
  const double window_gc = s.requested_pause ? d.c_conc : d.c_gc;
  const double read_bytes = s.cache_signals ? s.read_bytes : -1.0;
  // FlexHeapActivatedRefaults: only the reads a cache about twice as large
  // would have hit count, weighed so that half the reads (what the 1/cache
  // model says doubling saves) make the share recoverable() maps to 1.
  const bool activations = _cfg.activated_refaults && s.activate_bytes >= 0.0;
  const double refault_bytes = !s.cache_signals ? -1.0
                             : activations ? 2.0 * RefaultSaturation * s.activate_bytes
                                           : s.refault_bytes;
  d.phase_shift = _window.add(wall, window_gc, d.c_io, _last_headroom, _last_cache, read_bytes, refault_bytes);
  _slow_gc.add(wall, window_gc, _last_headroom);
  _wall_since_step += wall;
  _too_small_age += wall;
  if (d.phase_shift || d.live_set_fell || _too_small_age > TooSmallMemorySeconds) {
    _too_small_headroom = 0.0;
  }
  // The old data a Remark found, against the Remark before: a live set still
  // being built grows from one to the next (the phase program's alloc-2,
  // 150 MiB in 0.26 s), where a GC-heavy phase whose old data dies between
  // markings (M2's M500k) stays level. A phase shift the cost window sees, or
  // a live-set fall, forgets the Remark before; the window does not always
  // see one between an I/O phase and the allocation after it (alloc-2 was
  // compared with the I/O phase's last Remark). The old data is G1's old
  // regions' occupancy, dead objects included, not the marked live bytes.
  if (d.phase_shift || d.live_set_fell) {
    _remark_old_used = -1.0;
    _live_growth = 0.0;
  }
  if (s.remark_pause) {
    _live_growth = _remark_old_used >= 0.0 && old_used > _remark_old_used ? old_used - _remark_old_used : 0.0;
    _remark_old_used = old_used;
  }
  _last_headroom = headroom;
  _last_cache = cache;
  _last_old_used = old_used;

  const double cores = (double)(s.cores < s.mutators ? s.cores : s.mutators);
  const double mut_cores = cores >= 1.0 ? cores : 1.0;
  const double goal = 1.0 / (1.0 + _cfg.gc_time_ratio);
  // The GC cost above the goal is the rent that pays for growth into the page cache.
  if (d.phase_shift) {
    _eviction.reset();
  }
  // The price of evicting a byte is what a phase that re-reads pays for it.
  // An interval whose stalls stay below the GC goal is not such a phase: its
  // threads are busy elsewhere (a GC-bound phase's refaults cost it 30-80x
  // less per byte than the I/O-bound phase's after it, measured on M1), and
  // teaching the price from it lets the rent evict what the next phase needs.
  // Memory still free at the interval's end means the cache was filling, not
  // evicting: its refault share (near 0) says nothing about the price.
  const double goal_cost = goal * mut_cores * wall;  // CPU s the GC goal allows in the interval
  // Memory neither the heap nor the page cache holds (with a memory limit only).
  const double free_memory = (double)s.memory_limit - (double)s.non_heap - committed - cache;
  const bool price_from_all = _cfg.rent_price_min_io <= 0.0;
  const bool teaches = price_from_all || d.c_io >= _cfg.rent_price_min_io * goal_cost;
  const bool cache_filling = s.memory_limit > 0 && free_memory > CacheFillingFreeFraction * (double)s.memory_limit;
  const bool filling = !price_from_all && cache_filling;
  _eviction.add(window_gc - goal_cost, d.c_io, teaches ? read_bytes : -1.0, filling ? -1.0 : refault_bytes, cache);
  // Without refault figures every stall counts as one more cache could save (the paper's view):
  // an unknown share is 1, which recoverable() maps to 1.
  d.refault_fraction = FlexHeapBalanceWindow::recoverable(_window.refault_fraction(1.0), RefaultSaturation);
  d.gc_rate = _window.gc_rate();
  d.io_rate = s.io_available ? _window.io_rate() : 0.0;
  const double a = _window.gc_coefficient();
  const double b = s.io_available ? _window.io_coefficient() * d.refault_fraction : 0.0;
  const double recoverable_share = d.io_rate * d.refault_fraction / mut_cores;
  const double gc_share = d.gc_rate / mut_cores;
  // Without a stall source, the one sign of an I/O phase: reads that re-read
  // the cache's recent evictions (the proactive GC asks for a pause on it).
  const double window_read = _window.read_bytes();
  const bool blind_rereading = !s.io_available && s.cache_signals &&
                               rereads_evicted_cache(window_read, window_read * _window.refault_fraction(0.0));

  int rule;
  double target_headroom;
  if (recoverable_share >= SignificantIOFractionOfGoal * goal) {
    rule = RuleBalance;
    target_headroom = flexheap_balance_headroom(a, b, headroom + cache);
    double cap = flexheap_goal_headroom(a, GoalFloorFraction * goal, mut_cores);
    if (target_headroom > cap) {
      target_headroom = cap;
    }
    // FlexHeapBalanceMaxGCPercent: trade no more GC than this for modelled I/O.
    const double least_headroom = flexheap_goal_headroom(a, _cfg.balance_max_gc, mut_cores);
    if (target_headroom < least_headroom) {
      target_headroom = least_headroom;
    }
  } else {
    rule = RuleGCGoal;
    target_headroom = headroom;
    const bool io_bound = d.io_rate / mut_cores >= SignificantIOFractionOfGoal * goal;
    // The guards below are for a steady cost that is GC alone.
    const bool unguarded = io_bound || blind_rereading || d.live_set_fell;
    if (gc_share > GoalHighFraction * goal) {
      target_headroom = flexheap_goal_headroom(a, GoalAimFraction * goal, mut_cores);
      // Growing back after a shrink: the headroom the window's GC cost came
      // from was too small for the goal. (A grow after a grow is the load
      // rising, and says nothing about smaller sizes.)
      if (_has_applied && _state == FlexHeapState::WaitShrink) {
        _too_small_headroom = d.gc_rate > 0.0 ? a / d.gc_rate : headroom;
        _too_small_age = 0.0;
      }
    } else if (gc_share < GoalLowFraction * goal &&
               (unguarded || (_slow_gc.rate() / mut_cores < GoalLowFraction * goal &&
                              (!_has_applied || _wall_since_step >= _window.seconds())))) {
      // A shrink needs the GC cost low over the slow horizon too, and a
      // window that has seen the current size; it goes no further than the
      // higher of the two costs allows, nor below GoalHighFraction x a
      // headroom that a shrink recently found too small: the GC cost is not 1/H
      // all the way down (below some size G1 starts a concurrent cycle
      // after every few young GCs), and stepping back and forth across that
      // size costs more than either side of it.
      // Mutators that stall on I/O (recoverable or not: a scan; without a
      // stall source, reads that re-read evicted cache) get the memory
      // back at once, and so does a heap whose live data just fell (the
      // window decides: the slow horizon restarted at this pause and holds
      // only its interval, often the few ms from a concurrent start to its
      // Remark with the marking's CPU in it).
      const double slow_a = unguarded ? 0.0 : _slow_gc.coefficient();
      target_headroom = flexheap_goal_headroom(slow_a > a ? slow_a : a, GoalAimFraction * goal, mut_cores);
      if (!unguarded && _too_small_headroom > 0.0 && target_headroom < GoalHighFraction * _too_small_headroom) {
        target_headroom = GoalHighFraction * _too_small_headroom;
      }
      if (target_headroom > headroom) {
        target_headroom = headroom;
      }
    }
  }

  // The least heap G1 runs in: the used part, G1's smallest young generation
  // and -Xms. Growth to it is forced, whatever the rule says.
  double least = used_after + (double)s.min_eden_regions * region;
  if (least < (double)s.min_capacity) {
    least = (double)s.min_capacity;
  }
  // An early young GC: allocation triggered it and it kept most of what was
  // allocated since the pause before, so those objects were still in use
  // (an in-flight working set larger than the young generation: M2's M500k
  // queries each hold a 500k-hit queue). Below that size the GC cost is not
  // 1/headroom: each GC copies about all it collects, and the rent, which
  // prices growth by the 1/headroom model, held the heap at G1's smallest
  // young generation through 51 such GCs in 1.5 s of one run (M2 at 5% on
  // sata; 53-88 a run, stock G1 ~16). The headroom doubles at each early
  // GC, like forced growth: not charged, and the ceiling still bounds it.
  bool early_floor = false;
  if (_cfg.early_gc_survival > 0.0 && s.allocation_pause && allocated >= region &&
      kept >= _cfg.early_gc_survival * allocated) {
    const double early = used_after + EarlyGCGrowth * allocated;
    if (early > least) {
      least = early;
      early_floor = true;
    }
  }
  // A shrink keeps room for G1's eden target too, but growth is not forced
  // by it: G1 sizes the young generation up to G1MaxNewSizePercent of the
  // heap, so a floor of used + eden target rises with every step it forces.
  // On the demo (M1, 1.2 GiB) that floor grew the heap from 250 to 724 MB in
  // M500k, 10-15 MB a pause past what the cache rent allowed, and L50
  // re-read the ~300 MiB of cache it evicted.
  double lowest = used_after + (double)s.eden_target_regions * region;
  if (lowest > committed) {
    lowest = committed;
  }
  if (lowest < least) {
    lowest = least;
  }
  const double dead_band = dead_band_of(s);
  double target = used_after + target_headroom;
  // Whatever the rule wants, the heap leaves the JVM's own memory and a
  // reserve of page cache inside the memory limit (flexheap_memory_ceiling()).
  if (s.memory_limit > 0) {
    const double ceiling = flexheap_memory_ceiling((double)s.memory_limit, (double)s.non_heap, _cfg.cache_reserve);
    d.ceiling = (size_t)ceiling > s.region_size ? (size_t)ceiling : s.region_size;
    if (target > (double)d.ceiling) {
      target = (double)d.ceiling;
      rule = RuleMemLimit;
    }
  }
  // Growth past the memory nobody uses evicts page cache: only as much as the
  // GC cost already lost above the goal would pay to read back
  // (flexHeapEvictionCredit.hpp). The least heap below still applies, and
  // what it forces is not the rule's choice: a growing live set evicts the
  // cache whatever the rent says, so that growth is not charged and the rent
  // buys headroom above it. Charging it would spend the rent on the live set
  // and hold the heap at G1's smallest young generation, a GC every few regions.
  _rent_free_growth = -1.0;   // d's rent fields start at -1 in decide()
  if (s.memory_limit > 0) {
    const double forced = least - committed;
    // Free memory is free only if the cache is not about to take it: while
    // the mutators stall on reads at the GC goal or more, a cache still
    // filling grows into it, and a heap that took it first makes those reads
    // miss. The GC goal grew the heap 14-18 times in the first 20 s of M3 on
    // sata, to twice g1-50's peak, before the cache filled and the refaults
    // shrank it back: 3% slower than g1-90 and vg1 (10 GB index, 10%).
    // Stalls without reads (fsync, writeback) fill no cache: where the read
    // figures are known, the window must have read what teaches a price.
    const bool reads_fill = !s.cache_signals || window_read >= FlexHeapEvictionCredit::MinReadBytes;
    const bool cache_takes_free = _cfg.rent_filling_cache && cache_filling && reads_fill &&
                                  d.io_rate / mut_cores >= goal;
    const double free_for_heap = cache_takes_free ? 0.0 : free_memory;
    _rent_free_growth = free_for_heap > forced ? free_for_heap : forced;
    // FlexHeapLiveGrowthRentFree: a live set that grew by _live_growth from
    // one marking to the next is likely to grow as much again before the
    // next, and to evict the cache whatever the rent says. Renting that
    // growth held the phase program's alloc-2 at G1's smallest young
    // generation above it, a young GC every 5 ms for 1.5 s, while the live
    // set evicted the cache anyway (782 MiB to 46).
    bool live_growth_free = false;
    if (_cfg.live_growth_rent_free && _live_growth > 0.0) {
      const double live_free = least + _live_growth - committed;
      if (live_free > _rent_free_growth) {
        _rent_free_growth = live_free;
        live_growth_free = true;
      }
    }
    if (_rent_free_growth < 0.0) {
      _rent_free_growth = 0.0;
    }
    d.rent_free = _rent_free_growth;
    d.eviction_allowance = _eviction.allowance();
    // Without a stall source no interval teaches the price and the rent is
    // unlimited: the GC goal alone grew the heap through a cache the next
    // phase re-read, as JDK 26's G1 does (4x the bytes read on the demo,
    // measured). Refaults still show a cache that is read again: then only
    // free memory and the least heap's growth are taken.
    if (blind_rereading) {
      d.eviction_allowance = 0.0;
    }
    if (d.eviction_allowance >= 0.0 && target > committed + _rent_free_growth + d.eviction_allowance) {
      target = committed + _rent_free_growth + d.eviction_allowance;
      // The early-GC floor or the live set's growth raised what the rent lets grow: say so.
      rule = live_growth_free ? RuleLiveGrowth : early_floor ? RuleEarlyGC : RuleCacheRent;
    }
  }
  // Wanting less than the floor means the heap's used part must shrink: after
  // a young GC it still holds the previous phase's dead old objects, which
  // only a concurrent cycle's Remark returns. Ask for one, at most every
  // MarkingRequestSeconds, since the old data may be live after all; a phase
  // shift is when the previous phase's data has just died, so it may ask at once.
  _wall_since_marking += wall;
  if (d.phase_shift) {
    _wall_since_marking = MarkingRequestSeconds;
  }
  if (target < lowest - dead_band && _wall_since_marking >= MarkingRequestSeconds) {
    d.start_marking = true;
    _wall_since_marking = 0.0;
  }
  if (early_floor && target < least) {
    rule = RuleEarlyGC;
  }
  if (target < lowest) target = lowest;
  if (target > (double)s.max_capacity) target = (double)s.max_capacity;
  // The ceiling bounds every target, the least heap's too, and a heap above
  // it (G1 expanded at a pause's allocation retry, or the JVM's native memory
  // grew) shrinks back: a heap held at the ceiling collects more often, one
  // past it makes the cgroup reclaim the JVM's own code until it thrashes, or
  // gets it OOM-killed.
  if (d.ceiling > 0 && target > (double)d.ceiling) {
    target = (double)d.ceiling;
    rule = RuleMemLimit;
  }
  d.target = (size_t)target;

  const double delta = target - committed;
  // Reversing the last applied step needs a larger change: the target moves
  // with used_after while a phase builds its live set, and small opposite
  // steps at every pause would make the heap oscillate.
  // Getting back under the ceiling is not an oscillation: no reversal band.
  const bool over_ceiling = d.ceiling > 0 && committed > (double)d.ceiling && delta < 0.0;
  const bool reverses = _has_applied && !over_ceiling && ((delta > 0.0) != (_state == FlexHeapState::WaitGrow));
  const double band = reverses && ReversalBandFraction * committed > dead_band ? ReversalBandFraction * committed
                                                                                : dead_band;
  // FlexHeapBalanceShrinkNeedsStalls: the balance rule gives the page cache
  // memory that the mutators are reading into now. The cost window holds an
  // I/O-bound phase's reads for up to its length after a GC-heavy phase
  // begins (its intervals are 10-40 ms), and there the rule shrank the heap
  // that the page-cache rent had just let grow, so that the rent bought it
  // again (M2's M500k at 5% on sata: 142 MiB in six shrinks, 92 MiB charged).
  // Holding them cut M2's GC pause time by a sixth but not its total time,
  // nor the demo's: off by default.
  const bool shrink_waits = _cfg.shrink_needs_stalls && rule == RuleBalance && !over_ceiling &&
                            d.c_io < SignificantIOFractionOfGoal * goal_cost;
  int outcome;
  if (fabs(delta) < band) {
    outcome = BalanceSteady;
  } else if (delta < 0.0 && shrink_waits) {
    outcome = BalanceHold;
  } else if (delta > 0.0 && !s.allocation_pause) {
    // An explicit, periodic or proactive GC, Remark or a full GC: its cost
    // says nothing about allocation outrunning the heap.
    outcome = BalanceHold;
  } else if (delta > 0.0) {
    // At most double per decision (the model extrapolates from the current
    // size): Alg. 2's min(100% of the uncommitted heap, committed), region-aligned.
    size_t bytes = flexheap_grow_bytes(s.committed, s.max_capacity, s.region_size, 100.0, 1.0, 0);
    const size_t want = flexheap_round_up((size_t)delta, s.region_size);
    if (want < bytes) {
      bytes = want;
    }
    outcome = bytes > 0 ? BalanceGrow : BalanceGrowAtMax;
    if (bytes > 0) {
      d.action = FlexHeapAction::Grow;
      d.bytes = bytes;
      _state = FlexHeapState::WaitGrow;
    }
  } else {
    // The GC goal shrinks halfway, as gently as stock G1; an I/O-driven or
    // memory-limit shrink goes all the way, since the page cache is waiting
    // for the memory. Without a stall source, reads that re-read the cache's
    // recent evictions are the one sign that it is: halfway steps at one
    // proactive GC every 1.5 s took 3 s to return half of an 820 MiB surplus
    // (TestFlexHeapBlindPhaseChange), while the reads refaulted.
    double want = rule == RuleGCGoal && !blind_rereading ? -delta * 0.5 : -delta;
    // Over the ceiling the shrink may take G1's eden target down to the
    // smallest young generation G1 allows: more young GCs, not a thrashing cgroup.
    size_t eden_reserve = s.eden_target_regions;
    if (over_ceiling) {
      const size_t smallest = s.min_eden_regions > 0 ? s.min_eden_regions : 1;
      eden_reserve = smallest < eden_reserve ? smallest : eden_reserve;
    }
    size_t budget = flexheap_shrink_bytes(s.committed, s.min_capacity, s.region_size,
                                          s.free_regions, eden_reserve, 1.0, 0);
    size_t bytes = flexheap_round_down((size_t)want, s.region_size);
    if (bytes > budget) {
      bytes = budget;
    }
    if (bytes > 0) {
      outcome = BalanceShrink;
      d.action = FlexHeapAction::Shrink;
      d.bytes = bytes;
      _state = FlexHeapState::WaitShrink;
    } else {
      outcome = flexheap_at_min(s) ? BalanceShrinkAtMin : BalanceShrinkNoFree;
    }
  }
  d.scale = d.action == FlexHeapAction::None ? 0.0 : 1.0;
  d.reason = flexheap_balance_reasons[rule][outcome];
  d.state = _state;
}

void FlexHeapController::record_applied(FlexHeapAction action, size_t applied_bytes,
                                        const FlexHeapSample& s) {
  // An applied action puts the FSM in its wait state (Fig. 4), also when the
  // glue acted on its own (e.g. G1's free-ratio floor after a full GC).
  if (applied_bytes > 0) {
    _has_applied = true;
    _wall_since_step = 0.0;
  }
  if (action == FlexHeapAction::Grow && _rent_free_growth >= 0.0 && (double)applied_bytes > _rent_free_growth) {
    // Balance: the part of the step beyond the free memory and the forced
    // growth was taken from the page cache by choice.
    _eviction.spend((double)applied_bytes - _rent_free_growth);
    _rent_free_growth = 0.0;
  }
  if (_has_last && applied_bytes > 0) {
    // Balance: the next interval runs with the resized headroom.
    double h = _last_headroom + (action == FlexHeapAction::Grow ? (double)applied_bytes : -(double)applied_bytes);
    _last_headroom = h > (double)s.region_size ? h : (double)s.region_size;
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
