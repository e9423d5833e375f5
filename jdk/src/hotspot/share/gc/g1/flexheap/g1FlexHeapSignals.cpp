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
#include "gc/g1/flexheap/g1FlexHeapSignals.hpp"
#include "gc/g1/g1CollectedHeap.hpp"
#include "gc/g1/g1ConcurrentMark.hpp"
#include "gc/g1/g1ConcurrentMarkThread.hpp"
#include "gc/g1/g1ConcurrentRefine.hpp"
#include "gc/shared/suspendibleThreadSet.hpp"
#include "jvm_io.h"
#include "logging/log.hpp"
#include "runtime/os.hpp"
#include "runtime/safepoint.hpp"
#include "runtime/thread.hpp"
#ifdef LINUX
#include "cgroupSubsystem_linux.hpp"
#include "osContainer_linux.hpp"
#endif

#include <stdio.h>
#include <string.h>

#ifdef LINUX
// HotSpot's container support (os/linux/osContainer_linux.cpp): it resolves
// our memory cgroup from /proc/self/cgroup and /proc/self/mountinfo, inside
// cgroup namespaces and for v1 mount roots too.
extern CgroupSubsystem* cgroup_subsystem;
#endif

G1FlexHeapSignals::G1FlexHeapSignals(G1CollectedHeap* g1h, FlexHeapIOStall* iostall) :
  G1ServiceTask("FlexHeap Signals Task"),
  _g1h(g1h),
  _iostall(iostall),
  _sample_stall(iostall->is_available() && iostall->is_slow()),
  _cache_key("Cached:"),
  _refault_key("workingset_refault_file "),
  _num_threads(0),
  _conc_cpu_ns(0),
  _page_cache(0),
  _refaults_valid(false),
  _refault_pages(0),
  _io_valid(false),
  _read_bytes(0),
  _stall_ns(0),
  _consumed_refault_pages(0),
  _consumed_read_bytes(0) {
  _stat_path[0] = '\0';
  find_memory_stat();
}

void G1FlexHeapSignals::find_memory_stat() {
#ifdef LINUX
  if (cgroup_subsystem == nullptr || cgroup_subsystem->memory_controller() == nullptr) {
    return;
  }
  CgroupMemoryController* memory = cgroup_subsystem->memory_controller()->controller();
  const char* dir = memory != nullptr ? memory->subsystem_path() : nullptr;
  if (dir == nullptr) {
    return;
  }
  jio_snprintf(_stat_path, sizeof(_stat_path), "%s/memory.stat", dir);
  // The v2 root has no memory.stat: the system-wide figures are the same thing.
  if (!os::file_exists(_stat_path)) {
    _stat_path[0] = '\0';
    return;
  }
  const bool v1 = strcmp(cgroup_subsystem->container_type(), "cgroupv1") == 0;
  // v1: the hierarchical totals, equal to "cache" in a leaf cgroup and right
  // at the root too; v2 figures are hierarchical.
  _cache_key = v1 ? "total_cache " : "file ";
  _refault_key = v1 ? "total_workingset_refault_file " : "workingset_refault_file ";
#endif
}

// Values of up to two "key value" lines of a /proc or cgroup file.
static bool read_keys(const char* path, const char* key1, uint64_t* v1, const char* key2, uint64_t* v2,
                      bool* found2) {
  FILE* f = os::fopen(path, "r");
  if (f == nullptr) {
    return false;
  }
  const size_t len1 = strlen(key1);
  const size_t len2 = key2 != nullptr ? strlen(key2) : 0;
  bool found1 = false;
  *found2 = false;
  char line[256];
  while ((!found1 || (key2 != nullptr && !*found2)) && fgets(line, sizeof(line), f) != nullptr) {
    if (!found1 && strncmp(line, key1, len1) == 0) {
      *v1 = (uint64_t)strtoull(line + len1, nullptr, 10);
      found1 = true;
    } else if (key2 != nullptr && !*found2 && strncmp(line, key2, len2) == 0) {
      *v2 = (uint64_t)strtoull(line + len2, nullptr, 10);
      *found2 = true;
    }
  }
  fclose(f);
  return found1;
}

void G1FlexHeapSignals::sample_files(bool join) {
  uint64_t cache = 0;
  uint64_t refaults = 0;
  bool have_refaults = false;
  bool ok;
  if (_stat_path[0] != '\0') {
    ok = read_keys(_stat_path, _cache_key, &cache, _refault_key, &refaults, &have_refaults);
  } else {
    ok = read_keys("/proc/meminfo", "Cached:", &cache, nullptr, nullptr, &have_refaults);
    cache *= K;   // kB
    uint64_t unused;
    bool found;
    have_refaults = read_keys("/proc/vmstat", "workingset_refault_file ", &refaults, nullptr, &unused, &found);
  }
  uint64_t read_bytes = 0;
  bool found;
  const bool have_io = read_keys("/proc/self/io", "read_bytes: ", &read_bytes, nullptr, nullptr, &found);
  const uint64_t stall = _sample_stall ? _iostall->total_stall_ns() : 0;

  // Publish, never during a pause.
  SuspendibleThreadSetJoiner sts(join);
  if (ok) {
    _page_cache = (size_t)cache;
  }
  _refaults_valid = have_refaults;
  if (have_refaults) {
    _refault_pages = refaults;
  }
  _io_valid = have_io;
  if (have_io) {
    _read_bytes = read_bytes;
  }
  if (_sample_stall) {
    _stall_ns = stall;
  }
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

void G1FlexHeapSignals::start() {
  // During heap initialization: no pause can run yet.
  sample_files(false /* join */);
  sample_threads(false /* join */);
  _conc_cpu_ns = 0;             // what ran before the heap existed is not GC time
  for (uint i = 0; i < _num_threads; i++) {
    _threads[i].ran = false;
  }
  _consumed_refault_pages = _refault_pages;
  _consumed_read_bytes = _read_bytes;
  _g1h->service_thread()->register_task(this, SampleIntervalMs);
}

void G1FlexHeapSignals::execute() {
  sample_files(true /* join */);
  sample_threads(true /* join */);
  schedule(SampleIntervalMs);
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
  return r;
}
