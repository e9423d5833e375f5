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

#include "gc/g1/flexheap/flexHeapIOStall.hpp"
#include "gc/g1/flexheap/flexHeapStep.hpp"
#include "gc/g1/flexheap/g1FlexHeap.hpp"
#include "gc/g1/flexheap/g1FlexHeapArguments.hpp"
#include "gc/g1/flexheap/g1FlexHeapProactiveGCTask.hpp"
#include "gc/g1/flexheap/g1FlexHeapSignals.hpp"
#include "gc/g1/g1CollectedHeap.inline.hpp"
#include "gc/g1/g1CollectorState.hpp"
#include "gc/g1/g1ConcurrentMark.inline.hpp"
#include "gc/g1/g1ConcurrentMarkThread.inline.hpp"
#include "gc/g1/g1GCPhaseTimes.hpp"
#include "gc/g1/g1HeapSizingPolicy.hpp"
#include "gc/g1/g1Policy.hpp"
#include "gc/shared/gcCause.hpp"
#include "gc/shared/gc_globals.hpp"
#include "gc/shared/gcId.hpp"
#include "jfr/jfrEvents.hpp"
#include "jvm_io.h"
#include "logging/log.hpp"
#include "runtime/atomic.hpp"
#include "runtime/globals_extension.hpp"
#include "runtime/javaThread.hpp"
#include "runtime/os.hpp"
#include "runtime/osThread.hpp"
#include "runtime/safepoint.hpp"
#include "services/threadService.hpp"
#include "utilities/align.hpp"

FlexHeapConfig G1FlexHeap::config() {
  const bool paper = G1FlexHeapArguments::is_paper_policy();
  FlexHeapConfig cfg = FlexHeapController::default_config(paper ? FlexHeapPolicyKind::Paper : FlexHeapPolicyKind::Balance);
  cfg.gc_time_ratio = (double)FlexHeapGCTimeRatio;
  cfg.cache_reserve = (double)FlexHeapCacheReservePercent / 100.0;
  cfg.rent_refault_saturation = (double)FlexHeapRentRefaultSaturationPercent / 100.0;
  cfg.history_length = FlexHeapHistoryLength;
  cfg.min_scale = FlexHeapMinScaleFactor;
  cfg.max_scale = FlexHeapMaxScaleFactor;
  cfg.expand_percent = (double)G1ExpandByPercentOfAvailable;
  cfg.static_step_percent = FlexHeapStaticStepPercent;
  // The balance policy logs its averages as rates; the paper's are per interval unless asked.
  cfg.cost_as_rate = paper ? FlexHeapCostAsRate : true;
  cfg.negligible_percent = FlexHeapNegligibleCostPercent;
  return cfg;
}

G1FlexHeap::G1FlexHeap(G1CollectedHeap* g1h, G1HeapSizingPolicy* g1_sizing, const FlexHeapConfig& cfg,
                       FlexHeapIOStall* iostall) :
  _g1h(g1h),
  _g1_sizing(g1_sizing),
  _controller(cfg),
  _iostall(iostall),
  _signals(new G1FlexHeapSignals(g1h, iostall)),
  _proactive(new G1FlexHeapProactiveGCTask(iostall, _signals)),
  _last_pause_end_ns(os::javaTimeNanos()),
  _last_stall_ns(iostall->total_stall_ns()),
  _used_at_pause_start(0),
  _own_marking(false),
  _expansion_ceiling(0),
  _marking_requested(false) {}

G1FlexHeap* G1FlexHeap::create(G1CollectedHeap* g1h, G1HeapSizingPolicy* g1_sizing) {
  if (!UseFlexHeap) {
    return nullptr;
  }
  assert(UseG1GC, "checked by G1FlexHeapArguments");
  assert(g1_sizing != nullptr, "G1's sizing policy exists before the heap is initialized");
  if (MinHeapSize == MaxHeapSize) {
    // A warning: services such as OpenSearch set -Xms = -Xmx by default, and
    // an operator who asked for FlexHeap must see that it is off.
    log_warning(gc, flexheap)("FlexHeap is off: the minimum heap equals the maximum heap (%zuM, -Xms = -Xmx), "
                              "so there is nothing to resize", MaxHeapSize / M);
    FLAG_SET_ERGO(UseFlexHeap, false);
    return nullptr;
  }
  FlexHeapIOStall* iostall = new FlexHeapIOStall();
  const FlexHeapConfig cfg = config();
  if (iostall->is_available()) {
    log_info(gc, flexheap)("I/O stall source: %s (%s)", iostall->backend(), iostall->reason());
  } else if (cfg.policy == FlexHeapPolicyKind::Paper) {
    // The paper's controller without C_io only ever grows (gcBias): never
    // worse than stock G1 means stock G1's sizing.
    log_warning(gc, flexheap)("No I/O stall source (%s); with FlexHeapPolicy=paper FlexHeap is off and "
                              "G1 sizes the heap itself", iostall->reason());
    delete iostall;
    FLAG_SET_ERGO(UseFlexHeap, false);
    return nullptr;
  } else {
    // Said once: the controller still runs, on GC cost alone.
    log_warning(gc, flexheap)("No I/O stall source (%s); FlexHeap sizes the heap on GC cost alone",
                              iostall->reason());
  }
  G1FlexHeap* fh = new G1FlexHeap(g1h, g1_sizing, cfg, iostall);
  fh->_signals->start();
  // Always registered: FlexHeapProactiveGCInterval is manageable from 0.
  g1h->service_thread()->register_task(fh->_proactive);
  char ceiling_note[128] = "";
  if (cfg.policy == FlexHeapPolicyKind::Balance) {
    jio_snprintf(ceiling_note, sizeof(ceiling_note),
                 "; the heap stays below it less the JVM's native memory and %u%% of it for the page cache",
                 FlexHeapCacheReservePercent);
  }
  log_info(gc, flexheap)("Policy %s; page cache (S_io) from %s%s; max heap %zuM, min heap %zuM, %u cores; "
                         "memory limit %zuM%s",
                         cfg.policy == FlexHeapPolicyKind::Paper ? "paper" : "balance",
                         fh->_signals->page_cache_source(),
                         fh->_signals->samples_stall() ? "; stall sampled off the pause" : "",
                         MaxHeapSize / M, MinHeapSize / M, (uint)os::active_processor_count(),
                         (size_t)os::physical_memory() / M, ceiling_note);
  // A tuning knob given says so, so that a log shows which controller sized the heap.
  if (cfg.policy == FlexHeapPolicyKind::Balance && !FLAG_IS_DEFAULT(FlexHeapRentRefaultSaturationPercent)) {
    log_info(gc, flexheap)("The page-cache rent prices an evicted byte as a whole re-read from a refault share "
                           "of %u%% on (FlexHeapRentRefaultSaturationPercent)",
                           FlexHeapRentRefaultSaturationPercent);
  }
  return fh;
}

// The FlexHeap to account the thread's stalls in, and its kernel tid; null
// for threads that are not Java threads visible to the application.
static G1FlexHeap* accounting_for(Thread* thread, pid_t* tid) {
  if (!UseFlexHeap || !thread->is_Java_thread()) {
    return nullptr;
  }
  JavaThread* jt = JavaThread::cast(thread);
  G1FlexHeap* fh = G1CollectedHeap::heap()->flex_heap();
  if (fh == nullptr || jt->is_hidden_from_external_view() || jt->osthread() == nullptr) {
    return nullptr;
  }
  *tid = (pid_t)jt->osthread()->thread_id();
  return fh;
}

void G1FlexHeap::on_thread_attach(Thread* thread) {
  pid_t tid;
  G1FlexHeap* fh = accounting_for(thread, &tid);
  if (fh != nullptr) {
    fh->_iostall->register_thread(tid);
  }
}

void G1FlexHeap::on_thread_detach(Thread* thread) {
  pid_t tid;
  G1FlexHeap* fh = accounting_for(thread, &tid);
  if (fh != nullptr) {
    fh->_iostall->unregister_thread(tid);
  }
}

void G1FlexHeap::record_pause_start() {
  assert_at_safepoint_on_vm_thread();
  _used_at_pause_start = _g1h->used();
}

bool G1FlexHeap::may_expand_for_humongous(uint regions) const {
  assert_heap_locked_or_at_safepoint(true /* should_be_vm_thread */);
  // In a pause the GC has freed what it could; refusing there would throw an
  // OutOfMemoryError that stock G1 would not.
  if (SafepointSynchronize::is_at_safepoint()) {
    return true;
  }
  const size_t ceiling = Atomic::load(&_expansion_ceiling);
  const size_t after = _g1h->capacity() + (size_t)regions * G1HeapRegion::GrainBytes;
  if (ceiling == 0 || after <= ceiling) {
    return true;
  }
  log_debug(gc, flexheap)("Humongous allocation of %u regions collects first: expanding to %zuM "
                          "would pass the memory ceiling %zuM", regions, after / M, ceiling / M);
  return false;
}

// A mixed phase's candidates come from a marking of an earlier phase: the
// regions that died since then are returned by a new marking's Remark, not
// one mixed pause per proactive interval. Once our own proactive pause has
// started that marking, its candidates are current, and their mixed pauses
// evacuate the regions it found partly live.
bool G1FlexHeap::ends_mixed_phase() const {
  assert_at_safepoint_on_vm_thread();
  return !_own_marking && !_g1h->concurrent_mark()->cm_thread()->in_progress();
}

const char* G1FlexHeap::kind_name(PauseKind kind) {
  switch (kind) {
    case Young:  return "young";
    case Full:   return "full";
    case Remark: return "remark";
  }
  ShouldNotReachHere();
  return "unknown";
}

size_t G1FlexHeap::apply_grow(size_t bytes, PauseKind kind) {
  assert(is_aligned(bytes, G1HeapRegion::GrainBytes), "grow request %zu not region aligned", bytes);
  assert(_g1h->capacity() + bytes <= _g1h->max_capacity(), "grow request %zu beyond the max heap", bytes);
  size_t before = _g1h->capacity();
  double expand_ms = 0.0;
  _g1h->expand(bytes, _g1h->workers(), &expand_ms);
  if (kind == Young) {
    _g1h->phase_times()->record_expand_heap_time(expand_ms);
  }
  return _g1h->capacity() - before;
}

size_t G1FlexHeap::apply_shrink(size_t bytes, PauseKind kind) {
  assert(is_aligned(bytes, G1HeapRegion::GrainBytes), "shrink request %zu not region aligned", bytes);
  assert(bytes <= _g1h->capacity() - MinHeapSize, "shrink request %zu below the min heap", bytes);
  size_t before = _g1h->capacity();
  _g1h->shrink_for_flex_heap(bytes);
  // Full GC and Remark schedule the concurrent uncommit themselves right after.
  if (kind == Young) {
    _g1h->uncommit_regions_if_necessary();
  }
  return before - _g1h->capacity();
}

// Young pauses that allocation triggered: their GC cost shows the heap
// running short. Not: System.gc(), tools, WhiteBox, periodic and proactive
// GCs, metadata or code cache thresholds.
static bool is_allocation_cause(GCCause::Cause cause) {
  return cause == GCCause::_g1_inc_collection_pause ||
         cause == GCCause::_g1_humongous_allocation ||
         cause == GCCause::_allocation_failure;
}

// Pauses that come whatever the heap's size: a timer's, a tool's or the application's.
static bool is_requested_cause(GCCause::Cause cause) {
  return GCCause::is_explicit_full_gc(cause) ||
         cause == GCCause::_wb_young_gc ||
         cause == GCCause::_g1_periodic_collection ||
         cause == GCCause::_g1_flexheap_proactive_collection;
}

size_t G1FlexHeap::full_gc_floor(size_t allocation_word_size) const {
  // As G1HeapSizingPolicy::full_collection_resize_amount(): the pending
  // allocation counts as used, in whole regions if humongous.
  size_t allocation_bytes = allocation_word_size * HeapWordSize;
  if (_g1h->is_humongous(allocation_word_size)) {
    allocation_bytes = G1HeapRegion::align_up_to_region_byte_size(allocation_bytes);
  }
  const size_t used = _g1h->capacity() + allocation_bytes - _g1h->unused_committed_regions_in_bytes() -
                      _g1h->eden_regions_count() * G1HeapRegion::GrainBytes;
  const double used_share = 1.0 - (double)MinHeapFreeRatio / 100.0;
  const double desired = used_share > 0.0 ? (double)used / used_share : (double)MaxHeapSize;
  const size_t floor = (size_t)MIN2(desired, (double)MaxHeapSize);
  return clamp(align_up(floor, G1HeapRegion::GrainBytes), MinHeapSize, MaxHeapSize);
}

// No GC cost asks for the heap (FlexHeapDecision::gc_goal_met): at a Remark
// or full GC the heap shrinks at least as far as stock G1 shrinks it there
// (to MaxHeapFreeRatio free), so that a JVM past its peak never holds more
// memory than stock G1 would. Returns whether G1's shrink replaced the step.
bool G1FlexHeap::shrink_as_g1(FlexHeapAction& action, size_t& request, size_t allocation_word_size) const {
  if (action == FlexHeapAction::Grow) {
    return false;
  }
  bool expand = false;
  const size_t amount = _g1_sizing->full_collection_resize_amount(expand, allocation_word_size);
  const size_t g1 = expand ? 0 : align_down(amount, G1HeapRegion::GrainBytes);
  const size_t ours = action == FlexHeapAction::Shrink ? request : 0;
  if (g1 <= ours) {
    return false;
  }
  assert(g1 <= _g1h->capacity() - MinHeapSize, "G1's shrink %zu stays above the min heap", g1);
  action = FlexHeapAction::Shrink;
  request = g1;
  return true;
}

// The interval's signals: from the end of the previous decision to now;
// mutators stopped when this safepoint began. A second decision in the same
// safepoint (a full GC after a young GC that could not satisfy an
// allocation) has no mutator time: all of it since the first is GC.
FlexHeapSample G1FlexHeap::sample(PauseKind kind, jlong start_ns, uint64_t* stall_now) {
  jlong pause_begin_ns = MAX2(SafepointTracing::start_of_safepoint(), _last_pause_end_ns);
  pause_begin_ns = MIN2(pause_begin_ns, start_ns);
  const G1FlexHeapSignals::Reading r = _signals->consume();
  *stall_now = r.stall_sampled ? r.stall_ns : _iostall->total_stall_ns();

  FlexHeapSample s = FlexHeapSample();
  s.t_stw = (double)(start_ns - pause_begin_ns) / NANOSECS_PER_SEC;
  s.t_mut = (double)(pause_begin_ns - _last_pause_end_ns) / NANOSECS_PER_SEC;
  s.conc_cpu = (double)r.conc_cpu_ns / NANOSECS_PER_SEC;
  s.conc_threads = r.conc_threads;
  s.cores = (unsigned)os::active_processor_count();
  s.mutators = (unsigned)MAX2(ThreadService::get_live_thread_count(), 1);
  s.io_available = _iostall->is_available();
  s.io_stall = (double)(*stall_now - MIN2(_last_stall_ns, *stall_now)) / NANOSECS_PER_SEC;
  // The sampler's busy rate (at most SampleIntervalMs old) over this interval.
  s.proc_cpu = r.proc_busy >= 0.0 ? r.proc_busy * (s.t_stw + s.t_mut) : -1.0;
  s.committed = _g1h->capacity();
  s.max_capacity = _g1h->max_capacity();
  s.min_capacity = MinHeapSize;
  s.region_size = G1HeapRegion::GrainBytes;
  s.used = kind == Remark ? _g1h->used() : MAX2(_used_at_pause_start, _g1h->used());
  s.used_after = _g1h->used();
  // Eden regions, the current allocation regions' unused ends included: 0
  // after a young or full GC, the eden filled during the marking at a Remark.
  s.eden_used = MIN2((size_t)_g1h->eden_regions_count() * G1HeapRegion::GrainBytes, s.used_after);
  s.free_regions = _g1h->num_free_regions();
  s.eden_target_regions = _g1h->policy()->young_list_target_length();
  // G1YoungGenSizer's default minimum (G1Policy does not expose its sizer).
  s.min_eden_regions = MAX2(_g1h->num_committed_regions() * G1NewSizePercent / 100, (uint)1);
  s.page_cache = r.page_cache;
  s.cache_signals = r.cache_signals;
  s.refault_bytes = (double)r.refault_bytes;
  s.read_bytes = (double)r.read_bytes;
  s.memory_limit = r.memory_limit;
  s.non_heap = r.non_heap;
  s.soft_max_heap = G1FlexHeapSignals::soft_max_heap();
  s.allocation_pause = kind == Young && is_allocation_cause(_g1h->gc_cause());
  s.requested_pause = kind != Remark && is_requested_cause(_g1h->gc_cause());
  s.remark = kind == Remark;
  assert(s.t_stw >= 0.0 && s.t_mut >= 0.0, "interval times are not negative");
  assert(s.committed >= MinHeapSize && s.committed <= MaxHeapSize,
         "committed %zu outside [%zu, %zu]", s.committed, MinHeapSize, MaxHeapSize);
  return s;
}

// The step G1 itself takes where the controller leaves a pause to it: an
// explicit full GC (System.gc(), jcmd, a heap dump, WhiteBox) says nothing
// about the workload's costs, and FlexHeapDecision::stock_sizing. JDK 25's
// G1 expands after a young GC and resizes by the free ratios at Remark and
// full GCs.
void G1FlexHeap::stock_step(PauseKind kind, size_t allocation_word_size, Step& st) const {
  bool expand = kind == Young;
  const size_t amount = kind == Young ? _g1_sizing->young_collection_expansion_amount()
                                      : _g1_sizing->full_collection_resize_amount(expand, allocation_word_size);
  st.action = amount == 0 ? FlexHeapAction::None : (expand ? FlexHeapAction::Grow : FlexHeapAction::Shrink);
  st.request = expand ? align_up(amount, G1HeapRegion::GrainBytes) : align_down(amount, G1HeapRegion::GrainBytes);
}

// After a full GC the heap keeps MinHeapFreeRatio free, as G1 does, so that
// the application can run at all (no new OutOfMemoryError): FlexHeap grows
// to that floor and shrinks no further than it.
void G1FlexHeap::bound_by_full_gc_floor(size_t allocation_word_size, Step& st) const {
  st.floor = full_gc_floor(allocation_word_size);
  bool grow = st.action == FlexHeapAction::Grow;
  size_t bytes = st.action == FlexHeapAction::None ? 0 : st.request;
  st.floor_bound = flexheap_bound_by_floor(grow, bytes, _g1h->capacity(), st.floor, G1HeapRegion::GrainBytes);
  if (st.floor_bound) {
    st.action = bytes == 0 ? FlexHeapAction::None : (grow ? FlexHeapAction::Grow : FlexHeapAction::Shrink);
    st.request = bytes;
  }
  assert(_g1h->capacity() + (st.action == FlexHeapAction::Grow ? st.request : 0) -
         (st.action == FlexHeapAction::Shrink ? st.request : 0) >= st.floor,
         "a step at a full GC ends at or above the MinHeapFreeRatio floor (%zu)", st.floor);
}

// The decision as G1 applies it: the controller's step, G1's own where it
// sizes the pause, bounded at a full GC, and never less returned than G1
// would (shrink_as_g1). Records what was applied in the controller.
G1FlexHeap::Step G1FlexHeap::apply(PauseKind kind, const FlexHeapDecision& d, const FlexHeapSample& s,
                                   size_t allocation_word_size) {
  Step st = Step();
  st.action = d.action;
  st.request = d.bytes;
  st.explicit_full = kind == Full && GCCause::is_explicit_full_gc(_g1h->gc_cause());
  const bool stock = st.explicit_full || d.stock_sizing;
  if (stock) {
    stock_step(kind, allocation_word_size, st);
  } else if (kind == Full) {
    bound_by_full_gc_floor(allocation_word_size, st);
  }
  st.g1_shrink = !stock && kind != Young && d.gc_goal_met && shrink_as_g1(st.action, st.request, allocation_word_size);
  const jlong apply_start_ns = os::javaTimeNanos();
  if (st.action == FlexHeapAction::Grow && st.request > 0) {
    st.applied = apply_grow(st.request, kind);
  } else if (st.action == FlexHeapAction::Shrink && st.request > 0) {
    st.applied = apply_shrink(st.request, kind);
  }
  if (kind == Full && !stock) {
    // G1's own computation checks FlexHeap's result (an explicit full GC
    // already applied exactly G1's amount).
    bool expand = false;
    size_t more = _g1_sizing->full_collection_resize_amount(expand, allocation_word_size);
    if (expand && more > 0 && _g1h->capacity() < MaxHeapSize) {
      size_t extra = apply_grow(MIN2(align_up(more, G1HeapRegion::GrainBytes), MaxHeapSize - _g1h->capacity()), kind);
      if (st.action == FlexHeapAction::Shrink) {
        st.applied = st.applied > extra ? st.applied - extra : 0;
      } else {
        st.action = FlexHeapAction::Grow;
        st.applied += extra;
      }
      st.floor_bound = true;
    }
  }
  // A shrink removes at most what it was asked to; only a failed expansion
  // can leave the heap below the floor.
  assert(kind != Full || stock || _g1h->capacity() >= st.floor ||
         (st.action == FlexHeapAction::Grow && st.applied < st.request),
         "committed %zu below the full-GC floor %zu after FlexHeap's step", _g1h->capacity(), st.floor);
  st.apply_ns = os::javaTimeNanos() - apply_start_ns;
  if (st.applied == 0) {
    st.action = FlexHeapAction::None;
  } else {
    _controller.record_applied(st.action, st.applied, s);
  }
  return st;
}

// The balance rule wants less than what a young GC left used: the next young
// pause starts a concurrent cycle, whose Remark returns the dead old regions
// (as G1 does when occupancy crosses IHOP). In a mixed phase G1 would wait
// for its end, one mixed pause per proactive interval; our proactive pause
// drops the phase's candidates instead, once (see ends_mixed_phase()), as a
// user-requested concurrent cycle does (G1Policy::decide_on_concurrent_start_pause).
// A GC-goal request, whether a past peak's old data died, does not wait for
// G1's next young pause: the proactive task starts it, and its Remark may ask
// for one more cycle (docs/controller.md, rule 13). Not from a concurrent
// start pause: it is starting that cycle, and G1Policy asserts the request
// was consumed by its end.
void G1FlexHeap::request_marking(PauseKind kind, const FlexHeapDecision& d, const FlexHeapSample& s) {
  G1CollectorState* const state = _g1h->collector_state();
  // Who started the cycle whose candidates a later mixed phase holds (ends_mixed_phase()).
  if (kind == Young && state->in_concurrent_start_gc()) {
    _own_marking = _g1h->gc_cause() == GCCause::_g1_flexheap_proactive_collection;
  }
  // A GC-goal request (FlexHeapDecision::mark_soon) stands until a
  // concurrent-start pause takes it; a full GC drops it (G1 decides anew).
  bool requested = marking_requested() && kind != Full && !state->in_concurrent_start_gc();
  if (d.start_marking && kind == Young && !state->in_concurrent_start_gc() && !state->mark_or_rebuild_in_progress()) {
    if (!state->initiate_conc_mark_if_possible()) {
      state->set_initiate_conc_mark_if_possible(true);
      log_debug(gc, flexheap)("GC(%u) requesting a concurrent cycle: target %zuM, used %zuM",
                              GCId::current_or_undefined(), d.target / M, s.used_after / M);
    }
    requested = requested || d.mark_soon;   // also when G1 asked first
  } else if (d.mark_soon && kind == Remark) {
    // The proactive task starts it once this cycle is over; the candidates
    // of a marking asked to be redone are not current (ends_mixed_phase()).
    requested = true;
    _own_marking = false;
    log_debug(gc, flexheap)("GC(%u) requesting another concurrent cycle after this one", GCId::current_or_undefined());
  }
  Atomic::store(&_marking_requested, requested);
}

void G1FlexHeap::resize_at_pause_end(PauseKind kind, size_t allocation_word_size) {
  assert_at_safepoint_on_vm_thread();
  assert((kind == Full) == _g1h->collector_state()->in_full_gc(), "pause kind %s", kind_name(kind));
  EventFlexHeapDecision event;  // timed: its duration is the decision's cost
  const jlong start_ns = os::javaTimeNanos();
  uint64_t stall_now;
  const FlexHeapSample s = sample(kind, start_ns, &stall_now);
  const FlexHeapDecision d = _controller.decide(s);
  const jlong decide_ns = os::javaTimeNanos() - start_ns;
  set_expansion_ceiling(d.ceiling);
  assert(is_aligned(d.bytes, G1HeapRegion::GrainBytes), "decision %zu not region aligned", d.bytes);
  const Step st = apply(kind, d, s, allocation_word_size);
  request_marking(kind, d, s);
  assert(_g1h->capacity() >= MinHeapSize && _g1h->capacity() <= MaxHeapSize,
         "committed %zu outside [%zu, %zu]", _g1h->capacity(), MinHeapSize, MaxHeapSize);
  _last_stall_ns = stall_now;
  _last_pause_end_ns = os::javaTimeNanos();
  log_decision(kind, s, d, st, decide_ns, _last_pause_end_ns - start_ns, event);
}

void G1FlexHeap::log_decision(PauseKind kind, const FlexHeapSample& s, const FlexHeapDecision& d, const Step& st,
                              jlong decide_ns, jlong total_ns, EventFlexHeapDecision& event) const {
  const char* policy = FlexHeapController::policy_name(_controller.config().policy);
  const char* reason = d.reason != nullptr ? d.reason : "none";
  char reason_buf[96];
  if (st.explicit_full || st.floor_bound || st.g1_shrink || d.phase_shift || d.live_set_fell) {
    jio_snprintf(reason_buf, sizeof(reason_buf), "%s%s%s%s%s", st.explicit_full ? "explicitGc,stock" : reason,
                 st.floor_bound ? ",fullGcFloor" : "", st.g1_shrink ? ",g1Shrink" : "",
                 d.phase_shift ? ",phaseShift" : "", d.live_set_fell ? ",liveSetFell" : "");
    reason = reason_buf;
  }
  log_info(gc, flexheap)("GC(%u) decision state=%s action=%s bytes=%zu reason=%s C_gc=%.6f C_io=%.6f "
                         "C_tot_avg=%.6f committed=%zu S_io=%zu pause=%s policy=%s gc_rate=%.6f "
                         "io_rate=%.6f refault=%.4f target=%zu used_after=%zu ceiling=%zu evict_allowance=%.0f "
                         "rent_free=%.0f",
                         GCId::current_or_undefined(), FlexHeapController::state_name(d.state),
                         FlexHeapController::action_name(st.action),
                         st.applied, reason, d.c_gc, d.c_io, d.avg_tot, _g1h->capacity(), s.page_cache,
                         kind_name(kind), policy, d.gc_rate, d.io_rate, d.refault_fraction, d.target,
                         s.used_after, d.ceiling, d.eviction_allowance, d.rent_free);
  if (event.should_commit()) {
    event.set_gcId(GCId::current_or_undefined());
    event.set_pause(kind_name(kind));
    event.set_state(FlexHeapController::state_name(d.state));
    event.set_action(FlexHeapController::action_name(st.action));
    event.set_reason(reason);
    event.set_requested(st.request);
    event.set_applied(st.applied);
    event.set_gcCost(d.c_gc);
    event.set_ioCost(d.c_io);
    event.set_totalCostAverage(d.avg_tot);
    event.set_committed(_g1h->capacity());
    event.set_pageCache(s.page_cache);
    event.set_ioStallAvailable(s.io_available);
    event.set_policy(policy);
    event.set_gcRate(d.gc_rate);
    event.set_ioRate(d.io_rate);
    event.set_refaultFraction(d.refault_fraction);
    event.set_target(d.target);
    event.set_usedAfter(s.used_after);
    event.commit();
  }
  log_debug(gc, flexheap)("GC(%u) inputs T_stw=%.6f T_mut=%.6f conc_cpu=%.6f G=%u N=%u M=%u stall=%.6f proc_cpu=%.6f io=%s "
                          "used=%zu free_regions=%zu eden_target=%zu committed=%zu max=%zu min=%zu "
                          "refault_bytes=%.0f read_bytes=%.0f cache_signals=%d floor=%zu "
                          "memory_limit=%zu non_heap=%zu",
                          GCId::current_or_undefined(), s.t_stw, s.t_mut, s.conc_cpu, s.conc_threads, s.cores,
                          s.mutators, s.io_stall, s.proc_cpu, s.io_available ? _iostall->backend() : "none",
                          s.used, s.free_regions, s.eden_target_regions, s.committed, s.max_capacity,
                          s.min_capacity, s.refault_bytes, s.read_bytes, s.cache_signals, st.floor,
                          s.memory_limit, s.non_heap);
  log_debug(gc, flexheap)("GC(%u) costs C_stw=%.6f C_conc=%.6f C_gc=%.6f C_io=%.6f C_tot=%.6f "
                          "avg_gc=%.6f avg_io=%.6f avg_tot=%.6f prev_avg_tot=%.6f rel_gc=%.4f rel_io=%.4f "
                          "rel_tot=%.4f scale=%.3f costDown=%d growSlack=%d ioSlack=%d gcBias=%d "
                          "requested=%zu decide_us=%.1f apply_us=%.1f total_us=%.1f cost_us=%.1f",
                          GCId::current_or_undefined(), d.c_stw, d.c_conc, d.c_gc, d.c_io, d.c_tot,
                          d.avg_gc, d.avg_io, d.avg_tot, d.prev_avg_tot, d.rel_gc, d.rel_io, d.rel_tot,
                          d.scale, d.cost_down, d.grow_slack, d.io_slack, d.gc_bias, d.bytes,
                          (double)decide_ns / 1000.0, (double)st.apply_ns / 1000.0, (double)total_ns / 1000.0,
                          // the decision's own cost: signals, controller, request
                          (double)(total_ns - st.apply_ns) / 1000.0);
}
