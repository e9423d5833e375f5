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
#include "gc/g1/flexheap/flexHeapIOStall.hpp"
#include "gc/g1/flexheap/g1FlexHeap.hpp"
#include "gc/g1/flexheap/g1FlexHeapProactiveGCTask.hpp"
#include "gc/g1/flexheap/g1FlexHeapSignals.hpp"
#include "gc/g1/g1CollectedHeap.inline.hpp"
#include "gc/g1/g1ConcurrentMark.inline.hpp"
#include "gc/g1/g1ConcurrentMarkThread.inline.hpp"
#include "gc/g1/g1GCCounters.hpp"
#include "gc/shared/gcCause.hpp"
#include "gc/shared/gc_globals.hpp"
#include "gc/shared/suspendibleThreadSet.hpp"
#include "jvm_io.h"
#include "logging/log.hpp"
#include "runtime/globals.hpp"
#include "runtime/javaThread.inline.hpp"
#include "runtime/os.hpp"
#include "runtime/thread.inline.hpp"
#include "runtime/threadSMR.hpp"
#include "services/threadService.hpp"

G1FlexHeapProactiveGCTask::G1FlexHeapProactiveGCTask(FlexHeapIOStall* iostall, const G1FlexHeapSignals* signals) :
  G1ServiceTask("FlexHeap Proactive GC Task"),
  _iostall(iostall), _signals(signals),
  _rates(FlexHeapProactiveAllocWindow), _last_ns(0), _last_allocated(0),
  _last_stall_ns(0), _last_refault_bytes(0), _last_read_bytes(0), _streak(0), _primed(false) { }

jlong G1FlexHeapProactiveGCTask::total_allocated_bytes() {
  jlong total = ThreadService::exited_allocated_bytes();
  for (JavaThreadIteratorWithHandle jtiwh; JavaThread* t = jtiwh.next(); ) {
    total += t->cooked_allocated_bytes();
  }
  return total;
}

bool G1FlexHeapProactiveGCTask::blind_stalled(char* what, size_t len) {
  uint64_t refault, read;
  if (!_signals->cache_read_totals(&refault, &read)) {
    jio_snprintf(what, len, "no stall source, refaults unknown");
    return false;
  }
  // Counters only grow; a reset (a cgroup move) counts as nothing read.
  const double d_refault = (double)(refault - MIN2(_last_refault_bytes, refault));
  const double d_read = (double)(read - MIN2(_last_read_bytes, read));
  jio_snprintf(what, len, "no stall source; read %.1fMB, %.0f%% of it refaults",
               d_read / M, d_read > 0.0 ? 100.0 * d_refault / d_read : 0.0);
  return FlexHeapController::rereads_evicted_cache(d_read, d_refault);
}

void G1FlexHeapProactiveGCTask::request_gc() {
  G1CollectedHeap* g1h = G1CollectedHeap::heap();
  G1GCCounters counters;
  {
    // Block GC safepoints while taking the snapshot: a GC after it cancels
    // our request inside try_collect, so we never pile onto a running GC.
    SuspendibleThreadSetJoiner sts;
    counters = G1GCCounters(g1h);
  }
  if (!g1h->try_collect(GCCause::_g1_flexheap_proactive_collection, counters)) {
    log_debug(gc, flexheap)("proactive GC request denied (a GC ran meanwhile)");
  }
}

// Why no proactive pause now, or null: a cycle's Remark is already a
// decision point, and so is, for the task's own trigger, a GC within the last
// check interval. A marking the last decision asked for waits only for a
// running cycle: the GC that ran in the interval is the one that asked.
static const char* no_pause_needed(bool marking_requested, double interval_s) {
  G1CollectedHeap* g1h = G1CollectedHeap::heap();
  if (g1h->concurrent_mark()->cm_thread()->in_progress()) {
    return "a concurrent cycle is in progress";
  }
  if (!marking_requested && (double)g1h->time_since_last_collection().seconds() < interval_s) {
    return "a GC ran in the last interval";
  }
  return nullptr;
}

void G1FlexHeapProactiveGCTask::execute() {
  if (FlexHeapProactiveGCInterval == 0) {   // manageable: check again later
    _primed = false;
    schedule(1000);
    return;
  }
  const jlong now = os::javaTimeNanos();
  const jlong allocated = total_allocated_bytes();
  const uint64_t stall = _iostall->total_stall_ns();
  if (_primed && now > _last_ns) {
    double dt = (double)(now - _last_ns) / NANOSECS_PER_SEC;
    double rate = (double)MAX2(allocated - _last_allocated, (jlong)0) / dt;
    double stall_ratio = (double)(stall - MIN2(_last_stall_ns, stall)) / NANOSECS_PER_SEC / dt;
    // Rates are kept in MB/s: TruncatedSeq's sum of squares stays exact.
    double avg = _rates.avg() * M;
    bool low = _rates.num() > 0 && rate < 0.5 * avg;
    char why[128];
    bool stalled, very_stalled;
    if (_iostall->is_available()) {
      stalled = stall_ratio * 100.0 >= (double)FlexHeapProactiveStallPercent;
      very_stalled = stall_ratio * 100.0 >= (double)FlexHeapProactiveStallPercent * HighStallFactor;
      jio_snprintf(why, sizeof(why), "mutator I/O stall %.0f%% of the interval", stall_ratio * 100.0);
    } else {
      // Refaults only say the cache is re-read, not how long mutators wait:
      // never the single-interval trigger of a heavy stall.
      stalled = blind_stalled(why, sizeof(why));
      very_stalled = false;
    }
    if (low) {
      // Keep the reference rate of the busy phase: low samples do not enter
      // the window, so a long stall does not decay it. A heavy stall acts at
      // once.
      _streak = !stalled ? 0 : (very_stalled ? MAX2(_streak + 1, (uint)FlexHeapProactiveLowIntervals) : _streak + 1);
    } else {
      _rates.add(rate / M);
      _streak = 0;
    }
    log_debug(gc, flexheap)("proactive check: rate=%.1fMB/s avg=%.1fMB/s low=%d stalled=%d (%s) streak=%u",
                            rate / M, avg / M, low, stalled, why, _streak);
    const bool marking = G1CollectedHeap::heap()->flex_heap()->marking_requested();
    if (_streak >= FlexHeapProactiveLowIntervals || marking) {
      const char* skip = no_pause_needed(marking, dt);
      if (skip != nullptr) {
        log_debug(gc, flexheap)("proactive GC skipped: %s", skip);
      } else if (marking) {
        log_info(gc, flexheap)("proactive GC: starting the concurrent cycle the last decision asked for");
        request_gc();
      } else {
        log_info(gc, flexheap)("proactive GC: allocation %.1fMB/s below half of recent %.1fMB/s for %u intervals, %s",
                               rate / M, avg / M, _streak, why);
        request_gc();
      }
      _streak = 0;
    }
  }
  _last_ns = now;
  _last_allocated = allocated;
  _last_stall_ns = stall;
  if (!_iostall->is_available()) {
    _signals->cache_read_totals(&_last_refault_bytes, &_last_read_bytes);
  }
  _primed = true;
  schedule((jlong)FlexHeapProactiveGCInterval);
}
