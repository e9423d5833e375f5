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

#include "gc/g1/flexheap/flexHeapBalance.hpp"
#include "gc/g1/flexheap/flexHeapIOStall.hpp"
#include "gc/g1/flexheap/g1FlexHeap.hpp"
#include "gc/g1/flexheap/g1FlexHeapOS.hpp"
#include "gc/g1/flexheap/g1FlexHeapSignals.hpp"
#include "gc/g1/g1CollectedHeap.hpp"
#include "gc/g1/g1ConcurrentMark.hpp"
#include "gc/g1/g1ConcurrentMarkThread.hpp"
#include "gc/g1/g1ConcurrentRefine.hpp"
#include "gc/g1/g1GCCounters.hpp"
#include "gc/g1/g1HeapRegion.hpp"
#include "gc/shared/gc_globals.hpp"
#include "gc/shared/suspendibleThreadSet.hpp"
#include "jfr/jfrEvents.hpp"
#include "logging/log.hpp"
#include "runtime/atomic.hpp"
#include "runtime/os.hpp"
#include "runtime/safepoint.hpp"
#include "runtime/thread.hpp"

#include <string.h>

G1FlexHeapSignals::G1FlexHeapSignals(G1CollectedHeap* g1h, FlexHeapIOStall* iostall) :
  G1ServiceTask("FlexHeap Signals Task"),
  _g1h(g1h),
  _iostall(iostall),
  _sample_stall(iostall->is_available() && iostall->is_slow()),
  _num_threads(0),
  _conc_cpu_ns(0),
  _page_cache(0),
  _refaults_valid(false),
  _refault_pages(0),
  _io_valid(false),
  _read_bytes(0),
  _stall_ns(0),
  _memory_limit(0),
  _non_heap(0),
  _proc_cpu_ns(-1),
  _proc_cpu_at_ns(0),
  _samples_since_resident(ResidentEverySamples),
  _consumed_refault_pages(0),
  _consumed_read_bytes(0),
  _consumed_proc_cpu_ns(-1),
  _consumed_proc_cpu_at_ns(0),
  _proc_busy(-1.0),
  _budget_limit(0),
  _budget_soft_max(0),
  _budget_ceiling(0) {
  G1FlexHeapOS::initialize();
}

void G1FlexHeapSignals::sample_files(bool join) {
  // Memory outside the heap is counted once a second (mincore over the heap).
  const bool count_outside = join && ++_samples_since_resident >= ResidentEverySamples;
  G1FlexHeapOS::Memory m;
  G1FlexHeapOS::sample_memory(count_outside, &m);
  const uint64_t stall = _sample_stall ? _iostall->total_stall_ns() : 0;
  const size_t limit = budget_limit();

  // Publish, never during a pause.
  SuspendibleThreadSetJoiner sts(join);
  if (m.cache.found) {
    _page_cache = (size_t)m.cache.value;
  }
  _refaults_valid = m.refault_pages.found;
  if (m.refault_pages.found) {
    _refault_pages = m.refault_pages.value;
  }
  _io_valid = m.read_bytes.found;
  if (m.read_bytes.found) {
    _read_bytes = m.read_bytes.value;
  }
  if (_sample_stall) {
    _stall_ns = stall;
  }
  _memory_limit = (size_t)limit;
  // Memory beyond the page cache and the heap's resident pages is what the
  // JVM (or its container) holds outside the heap: metaspace, code, threads,
  // GC data, direct buffers, other processes, and in a memory cgroup the
  // kernel memory it charges (page tables, slab: 8-13 MB on the demo). Counted
  // from anonymous memory alone, that kernel memory looked free, and every
  // grow took it again without rent. Committed heap pages that were never
  // touched are not resident, so the committed size would hide that much
  // native memory. Once a second; not before the heap is in use.
  if (count_outside && m.outside.found) {
    _samples_since_resident = 0;
    const size_t outside = (size_t)m.outside.value;
    const size_t resident = heap_resident_bytes();
    _non_heap = outside > resident ? outside - resident : 0;
  }
}

class G1FlexHeapResidentClosure : public G1HeapRegionClosure {
 public:
  size_t _resident;
  G1FlexHeapResidentClosure() : _resident(0) {}
  bool do_heap_region(G1HeapRegion* r) override {
    _resident += G1FlexHeapOS::resident_bytes((address)r->bottom(), G1HeapRegion::GrainBytes);
    return false;
  }
};

size_t G1FlexHeapSignals::heap_resident_bytes() const {
  // Joined to the suspendible thread set: no pause resizes the heap meanwhile.
  assert(Thread::current()->is_suspendible_thread(), "walks the regions outside a pause");
  G1FlexHeapResidentClosure cl;
  _g1h->heap_region_iterate(&cl);
  return cl._resident;
}

class G1FlexHeapCPUClosure : public ThreadClosure {
 public:
  static const uint MaxThreads = 256;
  const Thread* _threads[MaxThreads];
  jlong _cpu[MaxThreads];
  uint _n;
  G1FlexHeapCPUClosure() : _n(0) {}
  void do_thread(Thread* t) override {
    if (t != nullptr && _n < MaxThreads) {
      _threads[_n] = t;
      _cpu[_n] = os::thread_cpu_time(t);
      _n++;
    }
  }
};

void G1FlexHeapSignals::sample_threads(bool join) {
  // Marking workers and their controller, refinement threads, the service
  // thread: G1's concurrent CPU of Eq. 3.
  SuspendibleThreadSetJoiner sts(join);
  G1FlexHeapCPUClosure cl;
  _g1h->concurrent_mark()->threads_do(&cl);
  cl.do_thread(_g1h->concurrent_mark()->cm_thread());
  _g1h->concurrent_refine()->threads_do(&cl);
  cl.do_thread(_g1h->service_thread());
  assert(cl._n <= MaxThreads, "bounded by the closure");

  ThreadCPU next[MaxThreads];
  for (uint i = 0; i < cl._n; i++) {
    const ThreadCPU* prev = nullptr;
    for (uint j = 0; j < _num_threads; j++) {
      if (_threads[j].thread == cl._threads[i]) { prev = &_threads[j]; break; }
    }
    // A thread started since the last sample (refinement threads come and
    // go) counts from zero.
    const jlong before = prev != nullptr ? MAX2(prev->cpu_ns, (jlong)0) : 0;
    const jlong d = cl._cpu[i] >= 0 ? cl._cpu[i] - before : 0;
    next[i].thread = cl._threads[i];
    next[i].cpu_ns = cl._cpu[i];
    next[i].ran = (prev != nullptr && prev->ran) || d > 0;
    if (d > 0) {
      _conc_cpu_ns += d;
    }
  }
  memcpy(_threads, next, sizeof(ThreadCPU) * cl._n);
  _num_threads = cl._n;
}

void G1FlexHeapSignals::sample_process_cpu(bool join) {
  const jlong cpu = G1FlexHeapOS::process_cpu_ns();
  const jlong at = os::javaTimeNanos();
  SuspendibleThreadSetJoiner sts(join);
  _proc_cpu_ns = cpu;
  _proc_cpu_at_ns = at;
}

void G1FlexHeapSignals::start() {
  // During heap initialization: no pause can run yet.
  sample_files(false /* join */);
  sample_threads(false /* join */);
  sample_process_cpu(false /* join */);
  _consumed_proc_cpu_ns = _proc_cpu_ns;
  _consumed_proc_cpu_at_ns = _proc_cpu_at_ns;
  _conc_cpu_ns = 0;             // what ran before the heap existed is not GC time
  for (uint i = 0; i < _num_threads; i++) {
    _threads[i].ran = false;
  }
  _consumed_refault_pages = _refault_pages;
  _consumed_read_bytes = _read_bytes;
  _budget_limit = _memory_limit;   // the start-up line says the first budget
  _budget_soft_max = soft_max_heap();
  _budget_ceiling = budget_ceiling(_budget_limit, _budget_soft_max);
  _g1h->service_thread()->register_task(this, SampleIntervalMs);
}

void G1FlexHeapSignals::execute() {
  sample_files(true /* join */);
  sample_threads(true /* join */);
  sample_process_cpu(true /* join */);
  watch_budget();
  schedule(SampleIntervalMs);
}

// HotSpot's view of the memory this JVM may use (the container's limit when
// there is one, else the machine's memory), lowered to cgroup v2's
// memory.high where that is set below it. Read at every sample: Kubernetes
// resizes a running container's limit in place.
size_t G1FlexHeapSignals::budget_limit() {
  const double throttle = (double)G1FlexHeapOS::memory_throttle_limit();
  return (size_t)flexheap_budget_limit((double)os::physical_memory(), throttle);
}

// SoftMaxHeapSize (manageable) when set below MaxHeapSize, no lower than
// MinHeapSize; 0 otherwise. jcmd's VM.set_flag takes bytes: "512m" sets 512,
// which would leave a one-region heap collecting without end.
size_t G1FlexHeapSignals::soft_max_heap() {
  const size_t soft = Atomic::load(&SoftMaxHeapSize);
  return soft < MaxHeapSize ? MAX2(soft, MinHeapSize) : 0;
}

size_t G1FlexHeapSignals::budget_ceiling(size_t limit, size_t soft_max) const {
  return flexheap_heap_ceiling((double)limit, (double)_non_heap, (double)FlexHeapCacheReservePercent / 100.0,
                               soft_max, G1HeapRegion::GrainBytes);
}

// A new memory limit or SoftMaxHeapSize moves the heap's ceiling now, off
// the pause: one log line and one JFR event, the ceiling for humongous
// allocations outside a pause at once, and, if the committed heap is above
// the new ceiling, a GC whose decision shrinks under it (a young GC leaves
// eden's regions free; old data above the ceiling asks for a marking).
void G1FlexHeapSignals::watch_budget() {
  const size_t limit = Atomic::load(&_memory_limit);
  const size_t soft_max = soft_max_heap();
  if (limit == _budget_limit && soft_max == _budget_soft_max) {
    return;
  }
  if (soft_max > 0 && Atomic::load(&SoftMaxHeapSize) < MinHeapSize) {
    log_warning(gc, flexheap)("SoftMaxHeapSize=%zu bytes is below the minimum heap (%zuM): using the minimum heap. "
                              "VM.set_flag takes bytes", Atomic::load(&SoftMaxHeapSize), MinHeapSize / M);
  }
  const size_t old_ceiling = _budget_ceiling;
  const size_t ceiling = budget_ceiling(limit, soft_max);
  const size_t committed = _g1h->capacity();
  log_info(gc, flexheap)("Memory budget: limit %zuM -> %zuM, SoftMaxHeapSize %s%zuM -> %s%zuM; heap ceiling "
                         "%zuM -> %zuM, committed %zuM%s",
                         _budget_limit / M, limit / M, _budget_soft_max == 0 ? "unset " : "", _budget_soft_max / M,
                         soft_max == 0 ? "unset " : "", soft_max / M, old_ceiling / M, ceiling / M, committed / M,
                         committed > ceiling ? ": collecting to shrink under it" : "");
  EventFlexHeapBudget event;
  if (event.should_commit()) {
    event.set_oldLimit(_budget_limit);
    event.set_newLimit(limit);
    event.set_oldSoftMaxHeapSize(_budget_soft_max);
    event.set_newSoftMaxHeapSize(soft_max);
    event.set_oldCeiling(old_ceiling);
    event.set_newCeiling(ceiling);
    event.set_committed(committed);
    event.commit();
  }
  _budget_limit = limit;
  _budget_soft_max = soft_max;
  _budget_ceiling = ceiling;
  G1FlexHeap* fh = _g1h->flex_heap();
  if (fh != nullptr) {
    fh->set_expansion_ceiling(ceiling);
  }
  if (committed > ceiling) {
    G1GCCounters counters(_g1h);
    if (!_g1h->try_collect(GCCause::_g1_flexheap_proactive_collection, counters)) {
      log_debug(gc, flexheap)("budget GC request denied (a GC ran meanwhile)");
    }
  }
}

bool G1FlexHeapSignals::cache_read_totals(uint64_t* refault_bytes, uint64_t* read_bytes) const {
  assert(Thread::current() == _g1h->service_thread(), "published by the sampler on this thread");
  *refault_bytes = _refault_pages * os::vm_page_size();
  *read_bytes = _read_bytes;
  return _refaults_valid && _io_valid;
}

G1FlexHeapSignals::Reading G1FlexHeapSignals::consume() {
  assert_at_safepoint_on_vm_thread();
  Reading r;
  r.conc_cpu_ns = _conc_cpu_ns;
  r.conc_threads = 0;
  for (uint i = 0; i < _num_threads; i++) {
    if (_threads[i].ran) {
      r.conc_threads++;
      _threads[i].ran = false;
    }
  }
  _conc_cpu_ns = 0;
  r.page_cache = _page_cache;
  r.cache_signals = _refaults_valid && _io_valid;
  // Counters only grow; a reset (a cgroup move) counts as no refaults.
  r.refault_bytes = (_refault_pages - MIN2(_consumed_refault_pages, _refault_pages)) * os::vm_page_size();
  r.read_bytes = _read_bytes - MIN2(_consumed_read_bytes, _read_bytes);
  _consumed_refault_pages = _refault_pages;
  _consumed_read_bytes = _read_bytes;
  r.stall_sampled = _sample_stall;
  r.stall_ns = _stall_ns;
  r.memory_limit = _memory_limit;
  r.non_heap = _non_heap;
  // A rate over whole samples, applied to the decision's interval: between a
  // young pause and its Remark, often no sample apart, the last rate holds.
  if (_proc_cpu_ns >= 0 && _consumed_proc_cpu_ns >= 0 && _proc_cpu_at_ns > _consumed_proc_cpu_at_ns) {
    _proc_busy = (double)MAX2(_proc_cpu_ns - _consumed_proc_cpu_ns, (jlong)0) /
                 (double)(_proc_cpu_at_ns - _consumed_proc_cpu_at_ns);
  }
  if (_proc_cpu_ns >= 0) {
    _consumed_proc_cpu_ns = _proc_cpu_ns;
    _consumed_proc_cpu_at_ns = _proc_cpu_at_ns;
  }
  r.proc_busy = _proc_busy;
  return r;
}
