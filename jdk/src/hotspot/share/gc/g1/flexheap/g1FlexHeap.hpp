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

#ifndef SHARE_GC_G1_FLEXHEAP_G1FLEXHEAP_HPP
#define SHARE_GC_G1_FLEXHEAP_G1FLEXHEAP_HPP

#include "gc/g1/flexheap/flexHeapController.hpp"
#include "memory/allocation.hpp"
#include "runtime/atomic.hpp"
#include "utilities/globalDefinitions.hpp"

class EventFlexHeapDecision;
class FlexHeapIOStall;
class G1CollectedHeap;
class G1FlexHeapProactiveGCTask;
class G1FlexHeapSignals;
class G1HeapSizingPolicy;
class Thread;

// FlexHeap's heap sizing for G1 (-XX:+UseFlexHeap), owned by G1CollectedHeap
// in place of G1HeapSizingPolicy. At the end of every young, mixed, full and
// remark pause it gathers the interval's signals, asks the controller and
// applies its decision with G1's own expand() and shrink(). G1's sizing
// policy, which it replaces, still sizes the pauses FlexHeap leaves to stock
// G1 and bounds its shrinks at Remark and full GCs.
class G1FlexHeap : public CHeapObj<mtGC> {
 public:
  enum PauseKind { Young, Full, Remark };

 private:
  G1CollectedHeap* const _g1h;
  G1HeapSizingPolicy* const _g1_sizing;
  FlexHeapController _controller;
  FlexHeapIOStall* const _iostall;
  G1FlexHeapSignals* const _signals;
  G1FlexHeapProactiveGCTask* const _proactive;
  jlong _last_pause_end_ns;     // end of the previous decision
  uint64_t _last_stall_ns;
  size_t _used_at_pause_start;
  bool _own_marking;            // the last concurrent cycle began at our proactive pause
  volatile size_t _expansion_ceiling; // the last decision's memory ceiling (0: none)
  volatile bool _marking_requested;   // a decision asked for a concurrent cycle that has not started

  G1FlexHeap(G1CollectedHeap* g1h, G1HeapSizingPolicy* g1_sizing, const FlexHeapConfig& cfg,
             FlexHeapIOStall* iostall);

  static FlexHeapConfig config();
  static const char* kind_name(PauseKind kind);
  size_t apply_grow(size_t bytes, PauseKind kind);
  size_t apply_shrink(size_t bytes, PauseKind kind);
  // After a full GC: the least committed heap that keeps MinHeapFreeRatio
  // free, as G1HeapSizingPolicy::full_collection_resize_amount() computes it.
  size_t full_gc_floor(size_t allocation_word_size) const;
  bool shrink_as_g1(FlexHeapAction& action, size_t& request, size_t allocation_word_size) const;

  // One decision's step as applied (resize_at_pause_end).
  struct Step {
    FlexHeapAction action;      // None if nothing was applied
    size_t request;             // bytes asked of G1
    size_t applied;             // bytes G1 committed or uncommitted
    size_t floor;               // the full-GC floor (0: not a full GC)
    bool explicit_full;         // an explicit full GC, sized as stock G1
    bool floor_bound;           // the full-GC floor changed the step
    bool g1_shrink;             // G1's shrink replaced a smaller one
    jlong apply_ns;
  };
  FlexHeapSample sample(PauseKind kind, jlong start_ns, uint64_t* stall_now);
  void stock_step(PauseKind kind, size_t allocation_word_size, Step& st) const;
  void bound_by_full_gc_floor(size_t allocation_word_size, Step& st) const;
  Step apply(PauseKind kind, const FlexHeapDecision& d, const FlexHeapSample& s, size_t allocation_word_size);
  void request_marking(PauseKind kind, const FlexHeapDecision& d, const FlexHeapSample& s);
  void log_decision(PauseKind kind, const FlexHeapSample& s, const FlexHeapDecision& d, const Step& st,
                    jlong decide_ns, jlong total_ns, EventFlexHeapDecision& event) const;

 public:
  // Called from G1CollectedHeap::initialize(). Null when FlexHeap is off or
  // has nothing to do (-Xms equal to -Xmx; FlexHeapPolicy=paper without an
  // I/O stall source, where G1's own sizing is used), said once in the log.
  static G1FlexHeap* create(G1CollectedHeap* g1h, G1HeapSizingPolicy* g1_sizing);

  // From G1BarrierSet::on_thread_attach/detach, for every thread: Java
  // threads register their kernel tid for I/O-stall accounting.
  static void on_thread_attach(Thread* thread);
  static void on_thread_detach(Thread* thread);

  // Heap occupancy when a young or full pause starts (S_used of growSlack).
  void record_pause_start();

  // The unified decision point (paper 4.1): end of every young, mixed, full
  // and remark pause. Replaces G1HeapSizingPolicy's expansion and shrinking.
  void resize_at_pause_end(PauseKind kind, size_t allocation_word_size);

  // Whether a mutator's humongous allocation may expand the heap by `regions`
  // (G1CollectedHeap::humongous_obj_allocate): not past the memory ceiling
  // outside a pause, where G1 would otherwise grow the heap behind FlexHeap's
  // back until the cgroup thrashes. A pause may always expand.
  bool may_expand_for_humongous(uint regions) const;

  // Whether a proactive pause with a mixed phase pending ends that phase and
  // starts a concurrent cycle instead (G1Policy::decide_on_concurrent_start_pause).
  bool ends_mixed_phase() const;

  FlexHeapIOStall* iostall() const { return _iostall; }

  // Whether a decision asked for a concurrent cycle that no pause has
  // started yet: G1 starts it at the next young pause, which a large eden
  // and a low allocation rate can put seconds away; the proactive task
  // starts it sooner (G1FlexHeapProactiveGCTask).
  bool marking_requested() const { return Atomic::load(&_marking_requested); }

  // The memory ceiling a humongous allocation outside a pause may not pass
  // (may_expand_for_humongous()): set by each decision, and at once by a
  // new memory budget (G1FlexHeapSignals::watch_budget()).
  void set_expansion_ceiling(size_t ceiling) { Atomic::store(&_expansion_ceiling, ceiling); }
};

#endif // SHARE_GC_G1_FLEXHEAP_G1FLEXHEAP_HPP
