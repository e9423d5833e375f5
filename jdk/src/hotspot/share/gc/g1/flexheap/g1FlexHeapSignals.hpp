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

#ifndef SHARE_GC_G1_FLEXHEAP_G1FLEXHEAPSIGNALS_HPP
#define SHARE_GC_G1_FLEXHEAP_G1FLEXHEAPSIGNALS_HPP

#include "gc/g1/flexheap/g1FlexHeapOS.hpp"
#include "gc/g1/g1ServiceThread.hpp"
#include "memory/allocation.hpp"
#include "utilities/globalDefinitions.hpp"

class FlexHeapIOStall;
class G1CollectedHeap;
class Thread;

// The inputs of FlexHeap's decisions that are slow to read: the page cache of
// the JVM's memory cgroup, its refaults and its anonymous memory (memory.stat)
// or its usage (OSContainer::memory_usage_in_bytes(), kernel memory included),
// the memory limit (os::physical_memory()), the bytes the JVM
// read from storage (/proc/self/io), the CPU time of G1's concurrent threads
// (one clock per thread), the CPU time of the whole process (a clock the kernel sums over every
// thread) and, for the delay-accounting backend (one netlink query per
// thread), the mutator I/O stall. A G1 service task samples them
// every SampleIntervalMs and the pause reads the latest values, at most that
// old, instead of reading files and clocks while mutators wait. The reads of
// the operating system are G1FlexHeapOS's.
//
// The task publishes while joined to the suspendible thread set and the pause
// reads at a safepoint, so the two never run at the same time.
class G1FlexHeapSignals : public G1ServiceTask {
 public:
  static const jlong SampleIntervalMs = 250;
  // The heap's resident pages (mincore over the committed regions) are
  // counted every this many samples.
  static const uint ResidentEverySamples = 4;

  // What a decision consumes: deltas since the previous decision.
  struct Reading {
    jlong    conc_cpu_ns;       // CPU of G1's concurrent threads
    uint     conc_threads;      // how many of them ran
    size_t   page_cache;        // bytes, latest sample
    bool     cache_signals;     // refault and read figures are valid
    uint64_t refault_bytes;     // page-cache refaults x page size
    uint64_t read_bytes;        // /proc/self/io read_bytes
    bool     stall_sampled;     // stall_ns comes from the sampler
    uint64_t stall_ns;          // total mutator stall (monotonic), if sampled
    size_t   memory_limit;      // bytes: os::physical_memory(), the container's limit if there is one
    size_t   non_heap;          // bytes outside the page cache and the heap's resident pages (0: unknown)
    double   proc_busy;         // CPUs the process kept busy (CPU-s/s) from the sample before the previous
                                // decision to the latest; the last such rate if none came since; negative:
                                // unknown or not sampled
  };

 private:
  static const uint MaxThreads = 256;
  struct ThreadCPU {
    const Thread* thread;
    jlong cpu_ns;               // at the previous sample
    bool ran;                   // used CPU since the previous decision
  };

  G1CollectedHeap* const _g1h;
  FlexHeapIOStall* const _iostall;
  const bool _sample_stall;     // the stall source is too slow for a pause

  // Published by the sampler.
  ThreadCPU _threads[MaxThreads];
  uint _num_threads;
  jlong _conc_cpu_ns;           // accumulated since the previous decision
  size_t _page_cache;
  bool _refaults_valid;
  uint64_t _refault_pages;      // monotonic
  bool _io_valid;
  uint64_t _read_bytes;         // monotonic
  uint64_t _stall_ns;           // monotonic, if _sample_stall
  size_t _memory_limit;
  size_t _non_heap;             // memory beyond the page cache and the heap's resident pages, at the last count
  jlong _proc_cpu_ns;           // process CPU time at the latest sample (negative: unknown)
  jlong _proc_cpu_at_ns;        // when it was taken (os::javaTimeNanos)
  uint _samples_since_resident;
  // As of the previous decision.
  uint64_t _consumed_refault_pages;
  uint64_t _consumed_read_bytes;
  jlong _consumed_proc_cpu_ns;
  jlong _consumed_proc_cpu_at_ns;
  double _proc_busy;

  // join: publish inside the suspendible thread set (false only before the
  // heap is in use).
  void sample_files(bool join);
  void sample_threads(bool join);
  void sample_process_cpu(bool join);
  size_t heap_resident_bytes() const;

  // The budget FlexHeap splits, watched off the pause (watch_budget()).
  size_t _budget_limit;         // the memory limit at the last change
  size_t _budget_soft_max;      // SoftMaxHeapSize at the last change (0: unset)
  size_t _budget_ceiling;       // the heap ceiling logged at the last change
  static size_t budget_limit();
  size_t budget_ceiling(size_t limit, size_t soft_max) const;
  void watch_budget();

 public:
  G1FlexHeapSignals(G1CollectedHeap* g1h, FlexHeapIOStall* iostall);

  // Takes a first sample and starts the periodic task.
  void start();
  void execute() override;

  // At a pause: the latest values and the deltas since the previous call.
  Reading consume();

  // For the service thread's other tasks (the sampler runs on the same
  // thread, so no lock): the latest totals of page-cache refaults (bytes) and
  // of bytes read from storage; false if either is unknown.
  bool cache_read_totals(uint64_t* refault_bytes, uint64_t* read_bytes) const;

  // SoftMaxHeapSize (manageable) when set below MaxHeapSize; 0 otherwise.
  static size_t soft_max_heap();

  const char* page_cache_source() const { return G1FlexHeapOS::page_cache_source(); }
  bool samples_stall() const { return _sample_stall; }
};

#endif // SHARE_GC_G1_FLEXHEAP_G1FLEXHEAPSIGNALS_HPP
