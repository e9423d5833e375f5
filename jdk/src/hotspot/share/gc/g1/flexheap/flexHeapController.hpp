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

// This file is part of FlexHeap: the heap-sizing controller. Its model is
// docs/controller.md; this file and flexHeapController.cpp follow it.
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
  double   gc_time_ratio;       // FlexHeapGCTimeRatio (24: a GC-CPU goal of 1/(1+24) = 4%, JDK 26's default), >= 1
  double   cache_reserve;       // balance: FlexHeapCacheReservePercent / 100, in [0, MaxCacheReserve]
  double   rent_refault_saturation; // balance: FlexHeapRentRefaultSaturationPercent / 100, in (0, 1]
  double   balance_window_s;    // balance: wall time the cost window covers (0 = FlexHeapBalanceWindow::DefaultSeconds)
  // The paper's controller:
  unsigned history_length;      // FlexHeapHistoryLength, in [1, FlexHeapCostHistory::MaxLength]
  double   min_scale;           // FlexHeapMinScaleFactor, >= 0
  double   max_scale;           // FlexHeapMaxScaleFactor, >= min_scale
  double   expand_percent;      // G1ExpandByPercentOfAvailable, in [0, 100]
  unsigned static_step_percent; // FlexHeapStaticStepPercent (0 = adaptive), <= 100
  bool     cost_as_rate;        // FlexHeapCostAsRate (the paper: false; balance logs rates)
  unsigned negligible_percent;  // FlexHeapNegligibleCostPercent (0 = the paper's predicates alone), <= 100
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
                                // rate the signal sampler last measured; negative: unknown
  size_t   committed;           // bytes, capacity()
  size_t   max_capacity;        // bytes, MaxHeapSize
  size_t   min_capacity;        // bytes, MinHeapSize
  size_t   region_size;         // bytes
  size_t   used;                // heap used at the START of the pause (peak occupancy of the interval)
  size_t   free_regions;        // after the GC
  size_t   eden_target_regions; // G1 young_list_target_length after the GC
  size_t   min_eden_regions;    // G1's smallest young generation
  size_t   page_cache;          // S_io bytes (cgroup memory.stat file/cache, or /proc/meminfo Cached)
  size_t   used_after;          // heap used after the GC (live data plus what this GC could not reclaim)
  size_t   eden_used;           // eden in used_after: 0 after a young or full GC; at a Remark, what the
                                // mutators allocated since the last young GC
  bool     cache_signals;       // refault_bytes/read_bytes are valid (memory cgroup or /proc/vmstat readable)
  double   refault_bytes;       // page-cache refaults in the interval (workingset_refault_file x page size):
                                // reads a larger cache would have served
  double   read_bytes;          // bytes the JVM read from storage in the interval (/proc/self/io read_bytes)
  size_t   memory_limit;        // bytes the JVM may use in all (container limit or machine memory); 0: unknown
  size_t   non_heap;            // bytes the JVM (or its container) holds outside the heap; with memory_limit
                                // it bounds the heap (FlexHeapDecision::ceiling)
  size_t   soft_max_heap;       // SoftMaxHeapSize when set below MaxHeapSize, else 0: a ceiling too
  bool     allocation_pause;    // a young pause that allocation triggered (not System.gc(), a tool, WhiteBox,
                                // a periodic or proactive check, Remark or a full GC): only its costs say the
                                // heap is too small, so balance grows only here (as stock G1 does)
  bool     remark;              // the pause is a Remark
  bool     requested_pause;     // a pause a timer, a tool or the application asked for (periodic, proactive,
                                // System.gc(), jcmd, JVMTI, WhiteBox): no headroom would have avoided it, so
                                // its own cost stays out of the balance window (the interval's concurrent
                                // GC work still counts)
};

enum class FlexHeapState  { WaitGrow, WaitShrink };
enum class FlexHeapAction { None, Grow, Shrink };

struct FlexHeapDecision {
  FlexHeapState  state;         // state after this decision
  FlexHeapAction action;
  size_t         bytes;         // region-aligned, already clamped to [min_capacity, max_capacity]; 0 if None
  const char*    reason;        // static string: balance policy "<rule>,<outcome>" with rule one of
                                // balance (I/O-driven), gcGoal, memLimit (the ceiling cut the target),
                                // cacheRent (the eviction credit cut a grow into the page cache) or
                                // earlyGC, and outcome grow, shrink, steady or hold, suffixed ",atMax",
                                // ",atMin" or ",noFree" for a step of 0 bytes; paper policy: "warmup",
                                // the guard, e.g. "costUp,gcBias", or "noIO,stock" (stock_sizing below)
  // everything the log line and JFR need:
  double c_stw, c_conc, c_gc, c_io, c_tot;          // this interval (raw seconds)
  double avg_gc, avg_io, avg_tot, prev_avg_tot;      // moving averages at t and t-1 (rates if cost_as_rate)
  double rel_gc, rel_io, rel_tot;                    // relative changes between t-1 and t
  double scale;                                      // scale used for the step: logistic (capped at 1
                                                     // for a shrink), 1 in static mode, 0 if no step
  bool cost_down, grow_slack, io_slack, gc_bias;     // predicate values (false during warmup)
  // Balance policy (0 in paper mode):
  double gc_rate, io_rate;                           // GC and I/O cost per second of wall time (window)
  double refault_fraction;                           // recoverable share of the I/O cost
  size_t target;                                     // committed heap the balance rule aims for
  size_t ceiling;                                    // largest committed heap the memory limit and
                                                     // SoftMaxHeapSize leave room for (0: neither known)
  double eviction_allowance;                         // bytes a grow may take from the page cache, paid by
                                                     // the GC cost above the goal (flexHeapEvictionCredit.hpp);
                                                     // < 0: unlimited (no price known, or no memory limit)
  double rent_free;                                  // bytes a grow may take without rent; < 0: no memory limit
  bool phase_shift;                                  // this interval restarted the cost window
  bool live_set_fell;                                // this pause found most of the live data gone
  bool gc_goal_met;                                  // balance: I/O steers nothing and the GC cost is within
                                                     // or below the goal's band: no GC cost asks for the
                                                     // heap, so the glue may return memory at a Remark or
                                                     // full GC as far as stock G1 would
  bool stock_sizing;                                 // paper policy, no I/O cost in the whole window: G1 sizes
                                                     // this pause as stock G1 does (reason "noIO,stock")
  bool mark_soon;                                    // start_marking for the GC goal (no I/O cost): whether a
                                                     // past peak's old data died; the glue starts it without
                                                     // waiting for G1's next young pause
  bool start_marking;                                // the target is below the least heap the heap's used part
                                                     // allows: only a concurrent cycle's Remark can return the
                                                     // old regions a young GC left (the glue requests one)
};

class FlexHeapController {
 public:
  explicit FlexHeapController(const FlexHeapConfig& cfg);

  // One decision per interval, at the end of its pause.
  FlexHeapDecision decide(const FlexHeapSample& s);
  // The glue reports what it actually applied (expand can fail or be clamped),
  // after decide() of the same interval. 0 bytes records nothing.
  void record_applied(FlexHeapAction action, size_t applied_bytes, const FlexHeapSample& s);

  // The flags' defaults for a policy (what the JVM passes without -XX options).
  static FlexHeapConfig default_config(FlexHeapPolicyKind policy);

  FlexHeapState state() const { return _state; }
  const FlexHeapConfig& config() const { return _cfg; }
  static const char* state_name(FlexHeapState s);
  static const char* action_name(FlexHeapAction a);
  static const char* policy_name(FlexHeapPolicyKind p);

  // The balance policy's constants; docs/controller.md gives each its reason.
  static const double SignificantIOFractionOfGoal;  // recoverable I/O below this x goal steers nothing
  static const double GoalLowFraction;              // the GC goal's band: no step within
  static const double GoalHighFraction;             //   [GoalLowFraction, GoalHighFraction] x goal
  static const double GoalShrinkHorizonWindows;     // the slow horizon, in balance windows
  static const double GoalFloorFraction;            // the I/O rule grows no further than GC at this x goal
  static const double BalanceMaxGCShare;            // the I/O rule shrinks no further than GC at this share
  static const double LiveSetFallFraction;          // old data below this x the last pause's ...
  static const double LiveSetFallCommittedFraction; // ... and fallen by this x committed: the peak is over
  static const double TooSmallMemorySeconds;        // how long a headroom found too small bounds shrinks
  static const double DeadBandFraction;             // changes below this x committed are ignored
  static const double ReversalBandFraction;         // a step against the last one needs this x committed
  static const double RefaultSaturation;            // a refault share at or above this counts as all
  static const double BlindRefaultFraction;         // no stall source: recoverable share that shows re-reads
  static const double CacheFillingFreeFraction;     // free memory above this x limit: the cache is filling
  static const double EarlyGCSurvivalFraction;      // an allocation GC that kept this share of the
  static const double EarlyGCGrowth;                //   allocation leaves this x the allocation free
  static const double MarkingRequestSeconds;        // at most one concurrent-cycle request per this long
  static const double AllocationFallFraction;       // an interval allocating below this x the previous
                                                    //   one's rate may have ended a phase
  static const double MaxCacheReserve;              // the largest cache_reserve

  // Whether reading read_bytes from storage, of which refault_bytes were
  // pages the cache had evicted recently, shows a cache too small for what
  // is read again. The proactive GC's check uses it when there is no stall source.
  static bool rereads_evicted_cache(double read_bytes, double refault_bytes);

 private:
  // The balance policy in four stages (docs/controller.md): measure the
  // interval, aim at a headroom, bound the heap, step toward it.
  struct Measure;
  struct Bounds;
  void decide_balance(const FlexHeapSample& s, FlexHeapDecision& d);
  Measure measure(const FlexHeapSample& s, FlexHeapDecision& d);
  void learn_rent(const FlexHeapSample& s, Measure& m, const FlexHeapDecision& d,
                  double window_gc, double read_bytes, double refault_bytes);
  int aim(const Measure& m, FlexHeapDecision& d, double* headroom);
  int aim_gc_goal(const Measure& m, const FlexHeapDecision& d, double* headroom);
  Bounds bound(const FlexHeapSample& s, const Measure& m, int rule, double headroom, FlexHeapDecision& d);
  void rent(const FlexHeapSample& s, const Measure& m, Bounds& b, FlexHeapDecision& d);
  static double dead_band(const FlexHeapSample& s);
  void step(const FlexHeapSample& s, const Measure& m, const Bounds& b, FlexHeapDecision& d);
  void decide_paper(const FlexHeapSample& s, const FlexHeapCostAverages& cur, FlexHeapDecision& d);
  struct PaperMove {
    FlexHeapAction want;
    FlexHeapState  target;
    int            guard;          // row of the reason tables: 0 costDown, 1 costUp, +2 turned
    bool           gc_negligible;
  };
  PaperMove paper_transition(const FlexHeapSample& s, const FlexHeapCostAverages& cur, FlexHeapDecision& d) const;
  void paper_grow(const FlexHeapSample& s, int guard, FlexHeapDecision& d) const;
  void paper_shrink(const FlexHeapSample& s, int guard, bool gc_negligible, FlexHeapDecision& d) const;

  // What the previous pause left: the next interval ran with it.
  struct LastPause {
    bool   valid;
    double headroom;   // bytes of headroom after the pause and its resize
    double cache;      // page cache at the pause
    double old_used;   // used_after less eden at the pause (bytes)
    double alloc_rate; // bytes allocated per mutator second before the last allocation pause
  };
  // The GC goal's guards against shrinking into a size that proved too small.
  struct GoalGuard {
    double too_small_headroom;  // a headroom a shrink reached whose GC cost was above the band (0: none)
    double too_small_age;       // wall time since it was seen
    double since_step;          // wall time since the last applied step
    bool   marking_tells;       // GC is low but the slow horizon holds the heap: a marking would
                                // tell whether the old data it remembers is still live
  };

  FlexHeapConfig        _cfg;
  FlexHeapCostHistory   _history;
  // Balance policy state.
  FlexHeapBalanceWindow _window;
  FlexHeapSlowGCRate    _slow_gc;            // the GC cost a GC-goal shrink must also see low
  FlexHeapEvictionCredit _eviction;          // what growth into the page cache may cost
  LastPause             _last;
  GoalGuard             _guard;
  double                _since_marking;      // wall time since the last start_marking
  bool                  _recheck_marking;    // the GC goal asked for a marking: its Remark may ask again
  double                _rent_free_growth;   // growth the rent does not charge at the last decision
                                             // (bytes; < 0: no memory limit known)
  bool                  _has_applied;        // a step was applied; _state says its direction
  FlexHeapState         _state;
  // Paper policy state (Fig. 4's slack predicates).
  bool                  _has_prev;           // an average at t-1 exists
  FlexHeapCostAverages  _prev;
  bool                  _has_grow;           // a grow step is recorded
  size_t                _used_before_grow;
  size_t                _grow_bytes;
  bool                  _has_shrink;         // a shrink step is recorded
  size_t                _page_cache_before_shrink;
  size_t                _shrink_bytes;
};

#endif // SHARE_GC_G1_FLEXHEAP_FLEXHEAPCONTROLLER_HPP
