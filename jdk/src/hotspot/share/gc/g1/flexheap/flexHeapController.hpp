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
#ifndef SHARE_GC_G1_FLEXHEAP_FLEXHEAPCONTROLLER_HPP
#define SHARE_GC_G1_FLEXHEAP_FLEXHEAPCONTROLLER_HPP

#include "gc/g1/flexheap/flexHeapBalance.hpp"
#include "gc/g1/flexheap/flexHeapCostModel.hpp"
#include "gc/g1/flexheap/flexHeapEvictionCredit.hpp"

#include <stddef.h>

// Pure logic: the G1 glue gathers a FlexHeapSample at the end of every GC pause,
// calls decide(), applies the decision with expand()/shrink() and reports what
// it applied with record_applied().

// Which controller decides. Paper: the paper's Fig. 4 state machine with
// Alg. 2/3 steps, exactly (FlexHeapPolicy=paper). Balance (default): sizes the
// heap toward the split where the marginal GC cost of less heap headroom
// equals the marginal I/O cost of less page cache, with the GC-CPU goal of
// JDK 26's G1 (GCTimeRatio) when I/O costs nothing.
enum class FlexHeapPolicyKind { Balance, Paper };

struct FlexHeapConfig {
  FlexHeapPolicyKind policy;    // FlexHeapPolicy (balance)
  double   gc_time_ratio;       // FlexHeapGCTimeRatio (24: a GC-CPU goal of 1/(1+24) = 4%, JDK 26's default)
  unsigned history_length;      // FlexHeapHistoryLength (default 10, clamped to 1..100)
  double   min_scale;           // FlexHeapMinScaleFactor (0.2)
  double   max_scale;           // FlexHeapMaxScaleFactor (2.0; raised to min_scale if lower)
  double   expand_percent;      // G1ExpandByPercentOfAvailable (20, clamped to 0..100)
  unsigned static_step_percent; // FlexHeapStaticStepPercent (0 = adaptive, clamped to 0..100)
  bool     cost_as_rate;        // FlexHeapCostAsRate (true)
  unsigned negligible_percent;  // FlexHeapNegligibleCostPercent (10; 0 = the paper's predicates alone)
  double   balance_window_s;    // balance: wall time the cost window covers (0 = FlexHeapBalanceWindow::DefaultSeconds)
  double   cache_reserve;       // balance: FlexHeapCacheReservePercent / 100, the share of the memory limit
                                // the heap leaves to the page cache (clamped to 0..0.9)
  double   rent_price_min_io;   // balance: FlexHeapRentPriceMinIOPercent / 100: an interval teaches the
                                // page-cache price only if its I/O cost reached this fraction of the GC
                                // goal; 0: every interval that reads, refaults counted while the cache
                                // fills (earlier builds). Clamped to 0..10
  bool     rent_filling_cache;  // balance: FlexHeapRentFillingCache (true): while the mutators read and stall
                                // at the GC goal or more and the page cache is still filling, growth into
                                // free memory pays the rent too; false: free memory is free (earlier builds)
  bool     rent_credit_drains;  // balance: FlexHeapRentCreditDrains (true): the rent is the GC cost above
                                // the goal net of the intervals below it; false: only intervals above
                                // the goal count (earlier builds)
  double   refault_evidence;    // balance: FlexHeapRefaultEvidencePercent / 100: reads since the cache filled,
                                // as a fraction of the cache, before their refault share sets the price
                                // (1.0; 0.1 in earlier builds; 0: at once). Clamped to 0..10
  bool     io_idle_cap;         // balance: FlexHeapIOCostIdleCap (true): C_io is at most the CPU time the
                                // process left idle in the interval (FlexHeapCostModel::idle_cpu)
  bool     conc_idle_cap;       // balance: FlexHeapConcCostIdleCap (false): C_conc is at most the concurrent
                                // GC CPU beyond the CPU time the process left idle in the interval
  double   balance_max_gc;      // balance: FlexHeapBalanceMaxGCPercent / 100 (0.08; 0: off): the balance rule's
                                // headroom is at least the one at which the GC cost is this share of the
                                // mutators' cores. Clamped to 0..1
  bool     activated_refaults;  // balance: FlexHeapActivatedRefaults (false): the refaults that count are the
                                // kernel's activations (FlexHeapSample::activate_bytes), x 2 RefaultSaturation
  double   rent_refault_saturation; // balance: FlexHeapRentRefaultSaturationPercent / 100: the refault share at
                                // which the rent's price of an evicted byte is a whole re-read (0: unset,
                                // RefaultSaturation). Clamped to 0.01..1
  bool     recent_phase_shift;  // balance: FlexHeapRecentPhaseShift (false): the cost window also restarts
                                // when its newest quarter shifts away from the rest (FlexHeapBalanceWindow)
  bool     shrink_needs_stalls; // balance: FlexHeapBalanceShrinkNeedsStalls (false): the balance rule shrinks only
                                // at a pause whose interval's I/O cost reached SignificantIOFractionOfGoal of the goal
  double   early_gc_survival;   // balance: FlexHeapEarlyGCSurvivalPercent / 100 (0.5; 0: off): an allocation pause
                                // that kept this share of the bytes allocated since the previous pause sets a floor
                                // of EarlyGCGrowth x those bytes of headroom, outside the page-cache rent
  bool     live_growth_rent_free; // balance: FlexHeapLiveGrowthRentFree (false): the old data's growth from one
                                  // Remark to the next is headroom above the least heap that the rent does not charge
};

struct FlexHeapSample {         // one interval: end of STW i-1 .. end of STW i
  double   t_stw;               // pause that ended the interval (s)
  double   t_mut;               // time between the end of the previous pause and the start of this one (s)
  double   conc_cpu;            // CPU time of G1 concurrent threads (marking, refinement, service) in the interval (s)
  unsigned conc_threads;        // G: number of concurrent GC threads that ran in the interval
  unsigned cores;               // N
  unsigned mutators;            // M
  bool     io_available;        // false: no stall source, controller runs on GC cost alone
  double   io_stall;            // sum of mutator stall time in the interval (s)
  double   proc_cpu;            // CPU time of the whole process (user + system) in the interval (s), at the
                                // rate the signal sampler last measured; negative: unknown or not read
                                // (FlexHeapIOCostIdleCap and FlexHeapConcCostIdleCap off)
  size_t   committed;           // bytes, capacity()
  size_t   max_capacity;        // bytes, MaxHeapSize
  size_t   min_capacity;        // bytes, MinHeapSize (-Xms)
  size_t   region_size;         // bytes
  size_t   used;                // heap used at the START of the pause (peak occupancy of the interval)
  size_t   free_regions;        // after the GC
  size_t   eden_target_regions; // G1 young_list_target_length after the GC
  size_t   min_eden_regions;    // G1's smallest young generation (G1NewSizePercent of the heap)
  size_t   page_cache;          // S_io bytes (cgroup memory.stat file/cache, or /proc/meminfo Cached)
  size_t   used_after;          // heap used after the GC (live data plus what this GC could not reclaim)
  size_t   eden_used;           // eden in used_after: 0 after a young or full GC; at a Remark, what the
                                // mutators allocated since the last young GC
  bool     cache_signals;       // refault_bytes/read_bytes are valid (memory cgroup or /proc/vmstat readable)
  double   refault_bytes;       // page-cache refaults in the interval (workingset_refault_file x page size):
                                // reads a larger cache would have served
  double   read_bytes;          // bytes the JVM read from storage in the interval (/proc/self/io read_bytes)
  double   activate_bytes;      // refaults the kernel activated in the interval (workingset_activate_file x page
                                // size: reads a cache about twice as large would have hit); negative: not read
  size_t   memory_limit;        // bytes the JVM may use in all (container limit or machine memory); 0: unknown
  size_t   non_heap;            // bytes the JVM (or its container) holds outside the heap; with memory_limit
                                // it bounds the heap (FlexHeapDecision::ceiling)
  bool     allocation_pause;    // a young pause that allocation triggered (not System.gc(), a tool, WhiteBox,
                                // a periodic or proactive check, Remark or a full GC): only its costs say the
                                // heap is too small, so balance grows only here (as stock G1 does)
  bool     requested_pause;     // a pause a timer, a tool or the application asked for (periodic, proactive,
                                // System.gc(), jcmd, JVMTI, WhiteBox): no headroom would have avoided it, so
                                // its own cost stays out of the balance window (the interval's concurrent
                                // GC work still counts)
  bool     remark_pause;        // the Remark pause of a concurrent cycle: used_after less eden_used is the old
                                // data the marking started from, less the regions it found empty
};

enum class FlexHeapState  { WaitGrow, WaitShrink };
enum class FlexHeapAction { None, Grow, Shrink };

struct FlexHeapDecision {
  FlexHeapState  state;         // state after this decision
  FlexHeapAction action;
  size_t         bytes;         // region-aligned, already clamped to [min_capacity, max_capacity]; 0 if None
  const char*    reason;        // static string: "warmup"; balance policy: "balance,grow|shrink|steady|hold"
                                // (I/O-driven), "gcGoal,grow|shrink|steady|hold" (GC-CPU goal; hold: a
                                // grow wanted at a pause that is not an allocation pause),
                                // "memLimit,..." (the ceiling cut the target) or "cacheRent,..."
                                // (the eviction credit cut a grow into the page cache), suffixed
                                // like the paper's; paper policy: the guard, e.g. "costUp,gcBias",
                                // "costDown,growUsed", "costDown,ioSlack", "costUp,gcNegligible",
                                // "noIO,stock" (stock_sizing below)
                                // (the direction turned by negligible_percent); a step of 0 bytes
                                // turns the action into None and appends ",atMax" (grow),
                                // ",atMin" or ",noFree" (shrink)
  // everything the log line and JFR need:
  double c_stw, c_conc, c_gc, c_io, c_tot;          // this interval (raw seconds)
  double avg_gc, avg_io, avg_tot, prev_avg_tot;      // moving averages at t and t-1 (rates if cost_as_rate)
  double rel_gc, rel_io, rel_tot;                    // relative changes between t-1 and t
  double scale;                                      // scale used for the step: logistic (capped at 1
                                                     // for a shrink), 1 in static mode, 0 if no step
  bool cost_down, grow_slack, io_slack, gc_bias;     // predicate values (false during warmup)
  // Balance policy (0 in paper mode):
  double gc_rate, io_rate;                           // GC and I/O cost per second of wall time (window)
  double refault_fraction;                           // recoverable share of the I/O cost: refault share of the
                                                     // bytes read / RefaultSaturation, capped at 1
  size_t target;                                     // committed heap the balance rule aims for
  size_t ceiling;                                    // largest committed heap the memory limit leaves room
                                                     // for (0: no limit known)
  double eviction_allowance;                         // bytes a grow may take from the page cache, paid by
                                                     // the GC cost above the goal (flexHeapEvictionCredit.hpp);
                                                     // < 0: unlimited (no price known, or no memory limit)
  double rent_free;                                  // bytes a grow may take without rent: free memory (unless
                                                     // the cache is filling it, FlexHeapRentFillingCache) or
                                                     // growth the least heap forces; < 0: no memory limit
  bool phase_shift;                                  // this interval restarted the cost window
                                                     // (FlexHeapBalanceWindow::add())
  bool live_set_fell;                                // balance: this pause found most of the live data
                                                     // gone (LiveSetFallFraction): the GC goal's slow
                                                     // horizon restarted and its step guard let go
  bool stock_sizing;                                 // paper policy, no I/O cost in the whole window: G1 sizes
                                                     // this pause as stock G1 does (reason "noIO,stock")
  bool start_marking;                                // the target is below the least heap the rule may shrink
                                                     // to (used_after + eden target, or + G1's smallest young
                                                     // generation above the committed heap): only a concurrent
                                                     // cycle's Remark can return the old regions a young GC
                                                     // left (the glue requests one)
};

class FlexHeapController {
 public:
  explicit FlexHeapController(const FlexHeapConfig& cfg);

  // One decision per interval, at the end of its pause.
  FlexHeapDecision decide(const FlexHeapSample& s);
  // The glue reports what it actually applied (expand can fail or be clamped),
  // after decide() of the same interval; this sets S_used_before_grow/S_grow or
  // S_io_before_shrink/S_shrink for the slack predicates, and puts the FSM in
  // WaitGrow/WaitShrink (a no-op unless the glue overrode the decision).
  // 0 bytes records nothing: the next costDown acts again.
  void record_applied(FlexHeapAction action, size_t applied_bytes, const FlexHeapSample& s);

  FlexHeapState state() const { return _state; }
  const FlexHeapConfig& config() const { return _cfg; }  // after clamping
  // FlexHeapIOCostIdleCap or FlexHeapConcCostIdleCap applies (balance only):
  // decide() then needs FlexHeapSample::proc_cpu, worth reading only then.
  bool caps_io_by_idle_cpu() const { return _cfg.policy == FlexHeapPolicyKind::Balance && _cfg.io_idle_cap; }
  bool caps_conc_by_idle_cpu() const { return _cfg.policy == FlexHeapPolicyKind::Balance && _cfg.conc_idle_cap; }
  bool uses_idle_cpu() const { return caps_io_by_idle_cpu() || caps_conc_by_idle_cpu(); }
  static const char* state_name(FlexHeapState s);
  static const char* action_name(FlexHeapAction a);
  static const char* policy_name(FlexHeapPolicyKind p);

  // Balance policy tuning (fixed; see flexHeapBalance.hpp for the model).
  // The recoverable I/O cost must reach this fraction of the GC-CPU goal
  // before it steers the heap: below it the GC goal rules, as in stock G1.
  static const double SignificantIOFractionOfGoal;
  // Within [GoalLowFraction, GoalHighFraction] x goal the GC goal rule does
  // not act; outside it aims for GoalAimFraction x goal (JDK 26's G1 uses the
  // same +-25% band around its GCTimeRatio target).
  static const double GoalLowFraction;
  static const double GoalHighFraction;
  static const double GoalAimFraction;
  // The GC goal shrinks only when the GC cost over this many balance windows
  // (FlexHeapSlowGCRate) is below its band as well as the window's.
  static const double GoalShrinkHorizonWindows;
  // A pause whose used_after less eden is below this fraction of the
  // previous pause's, with the drop at least LiveSetFallCommittedFraction of
  // the committed heap, found the live data of the phase before gone (a
  // Remark or full GC after a load peak): the GC cost the slow horizon
  // remembers came from that phase, so the horizon restarts and the GC goal
  // may shrink at once.
  static const double LiveSetFallFraction;
  static const double LiveSetFallCommittedFraction;
  // A headroom a GC-goal shrink reached and the GC cost then found above
  // the goal's band bounds the GC goal's shrinks for this much wall time (or
  // until a phase shift).
  static const double TooSmallMemorySeconds;
  // The I/O-driven rule never grows past the headroom at which the GC cost
  // would fall to this fraction of the goal: beyond it more heap buys nothing.
  static const double GoalFloorFraction;
  // Ignore a change smaller than this fraction of the committed heap.
  static const double DeadBandFraction;
  // A refault share of the bytes read at or above this counts as fully
  // recoverable I/O; below it in proportion. Refaults are counted only while
  // the kernel still holds a shadow entry of the evicted page, so the raw
  // share understates re-reads (random reads over a file a few times the
  // cache showed 3-14%); a scan that never re-reads stays near 0.
  static const double RefaultSaturation;
  // At most one concurrent-cycle request (FlexHeapDecision::start_marking)
  // per this much wall time.
  static const double MarkingRequestSeconds;
  // A step opposite to the last applied one must change the heap by at least
  // this fraction of the committed heap (the dead band otherwise).
  static const double ReversalBandFraction;
  // Largest cache_reserve: a heap must be able to take a tenth of the limit.
  static const double MaxCacheReserve;
  // Largest rent_price_min_io.
  static const double MaxRentPriceMinIO;
  // Largest refault_evidence.
  static const double MaxRefaultEvidence;
  // After an early young GC (early_gc_survival) the heap leaves at least
  // this many times the bytes allocated since the previous pause free: the
  // young generation doubles at each such GC until its objects can die.
  static const double EarlyGCGrowth;
  // Without a stall source the price of evicting cache is unknown; a window
  // that read at least FlexHeapEvictionCredit::MinReadBytes with a
  // recoverable refault fraction (refault share / RefaultSaturation) of at
  // least this shows the cache being re-read, and growth into it stops.
  static const double BlindRefaultFraction;
  // The blind rule's test: whether reading read_bytes from storage, of which
  // refault_bytes were pages the cache had evicted recently, shows a cache
  // too small for what is read again. The proactive GC's check uses it too
  // when there is no stall source.
  static bool rereads_evicted_cache(double read_bytes, double refault_bytes);
  // Free memory (neither heap nor page cache) above this fraction of the
  // memory limit at an interval's end means the cache was still filling:
  // nothing had been evicted, so the interval's refault share (near 0) says
  // nothing about the price of evicting.
  static const double CacheFillingFreeFraction;

 private:
  void decide_paper(const FlexHeapSample& s, const FlexHeapCostAverages& cur, FlexHeapDecision& d);
  void decide_balance(const FlexHeapSample& s, FlexHeapDecision& d);
  static double dead_band_of(const FlexHeapSample& s);

  FlexHeapConfig       _cfg;
  FlexHeapCostHistory  _history;
  FlexHeapBalanceWindow _window;
  FlexHeapSlowGCRate   _slow_gc;             // balance: the GC cost a GC-goal shrink must also see low
  bool                 _has_last;            // balance: _last_headroom/_last_cache are set
  double               _last_headroom;       // bytes of headroom after the previous pause (and its resize)
  double               _last_cache;          // page cache at the previous pause
  double               _last_old_used;       // used_after less eden at the previous pause (bytes)
  double               _wall_since_marking;  // wall time since the last start_marking
  double               _wall_since_step;     // wall time since the last applied step
  double               _too_small_headroom;  // balance: headroom a shrink reached whose GC cost was
                                             // above the goal's band (0: none within TooSmallMemorySeconds)
  double               _too_small_age;       // wall time since _too_small_headroom was seen
  FlexHeapEvictionCredit _eviction;          // balance: what growth into the page cache may cost
  double               _remark_old_used;     // balance: used_after less eden at the last Remark (< 0: none
                                             // since the start, the last phase shift or live-set fall)
  double               _live_growth;         // balance: how much that exceeded the Remark's before (bytes, >= 0)
  double               _rent_free_growth;    // balance: growth the rent does not pay for at the last
                                             // decision: the memory neither heap nor cache held, or
                                             // the growth the least heap forced if more (bytes;
                                             // < 0: no memory limit known)
  bool                 _has_applied;         // a step was applied; _state says its direction
  FlexHeapState        _state;
  bool                 _has_prev;            // an average at t-1 exists
  FlexHeapCostAverages _prev;
  bool                 _has_grow;            // a grow step is recorded
  size_t               _used_before_grow;
  size_t               _grow_bytes;
  bool                 _has_shrink;          // a shrink step is recorded
  size_t               _page_cache_before_shrink;
  size_t               _shrink_bytes;
};

#endif // SHARE_GC_G1_FLEXHEAP_FLEXHEAPCONTROLLER_HPP
