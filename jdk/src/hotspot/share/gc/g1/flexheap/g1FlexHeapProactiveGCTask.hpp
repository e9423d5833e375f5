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

#ifndef SHARE_GC_G1_FLEXHEAP_G1FLEXHEAPPROACTIVEGCTASK_HPP
#define SHARE_GC_G1_FLEXHEAP_G1FLEXHEAPPROACTIVEGCTASK_HPP

#include "gc/g1/g1ServiceThread.hpp"
#include "utilities/numberSeq.hpp"

class FlexHeapIOStall;
class G1FlexHeapSignals;

// When mutators block on I/O they stop allocating, so the next GC, and with it
// FlexHeap's next decision, can be far away. Every FlexHeapProactiveGCInterval
// this task samples the allocation rate and the mutator stall time; after
// FlexHeapProactiveLowIntervals consecutive intervals whose rate fell below
// half the recent average while stalls were high (or a single one whose
// stall time is HighStallFactor times that threshold: a phase change to I/O
// should hand memory back within seconds), it requests a concurrent cycle:
// its concurrent-start pause and its Remark are decision points, and marking
// lets Remark free the old regions an idle phase leaves behind. Without a
// stall source an interval counts as stalled when the reads it made from
// storage re-read the page cache's recent evictions (the controller's blind
// rule): the one sign of an I/O phase that needs no privilege. It also
// starts at once a concurrent cycle a decision asked for (G1 would wait for
// the next young pause). With FlexHeapProactiveGCInterval=0 it only polls
// the flag once a second.
class G1FlexHeapProactiveGCTask : public G1ServiceTask {
  static const uint HighStallFactor = 4;
  FlexHeapIOStall* const _iostall;
  const G1FlexHeapSignals* const _signals;
  TruncatedSeq _rates;         // recent busy-interval allocation rates (MB/s)
  jlong _last_ns;
  jlong _last_allocated;
  uint64_t _last_stall_ns;
  uint64_t _last_refault_bytes;  // without a stall source
  uint64_t _last_read_bytes;
  uint _streak;                // consecutive low-allocation, high-stall intervals
  bool _primed;

  static jlong total_allocated_bytes();
  // Without a stall source: whether this interval re-read evicted cache
  // (sets *what for the log).
  bool blind_stalled(char* what, size_t len);
  void request_gc();

 public:
  G1FlexHeapProactiveGCTask(FlexHeapIOStall* iostall, const G1FlexHeapSignals* signals);
  void execute() override;
};

#endif // SHARE_GC_G1_FLEXHEAP_G1FLEXHEAPPROACTIVEGCTASK_HPP
