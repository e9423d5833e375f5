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

#ifndef SHARE_GC_G1_FLEXHEAP_G1FLEXHEAPOS_HPP
#define SHARE_GC_G1_FLEXHEAP_G1FLEXHEAPOS_HPP

#include "memory/allStatic.hpp"
#include "runtime/os.hpp"
#include "utilities/globalDefinitions.hpp"
#include "utilities/macros.hpp"

// FlexHeap's reads of the operating system, taken off the pause by
// G1FlexHeapSignals: the page cache, refaults and memory of the JVM's memory
// cgroup (else of the machine and the process), the bytes the process read
// from storage, the heap's resident pages, the memory.high throttle and the
// process's CPU time. Linux: os/linux/gc/g1/flexheap/g1FlexHeapOS_linux.cpp.
// Elsewhere nothing is known, which FlexHeap treats as no I/O signal.
class G1FlexHeapOS : AllStatic {
 public:
  // A figure from a statistics file; found says whether its line was there.
  struct Counter {
    uint64_t value;
    bool found;
  };

  struct Memory {
    Counter cache;              // page cache, bytes
    Counter refault_pages;      // page-cache refaults, monotonic
    Counter outside;            // bytes beyond the page cache: anonymous memory, or the
                                // memory cgroup's usage less the page cache (kernel memory included)
    Counter read_bytes;         // bytes the process read from storage, monotonic
  };

  // Finds the memory cgroup's statistics; once, before the first sample.
  static void initialize() NOT_LINUX({});

  // The file the page cache comes from, for the log.
  static const char* page_cache_source() NOT_LINUX({ return "none"; });

  // One sample. with_usage: count memory outside the page cache from the
  // memory cgroup's usage where there is one (a further read).
  static void sample_memory(bool with_usage, Memory* m) NOT_LINUX({ *m = Memory(); });

  // A container's throttle limit (cgroup v2 memory.high), in bytes; 0 if none.
  static size_t memory_throttle_limit() NOT_LINUX({ return 0; });

  // Bytes of [start, start + bytes) in memory; all of it where unknown.
  static size_t resident_bytes(address start, size_t bytes) NOT_LINUX({ return bytes; });

  // The process's CPU time, user and system, in ns; negative if unknown.
  static jlong process_cpu_ns() NOT_LINUX({
    double real; double user; double sys;
    return os::getTimesSecs(&real, &user, &sys) ? (jlong)((user + sys) * NANOSECS_PER_SEC) : -1;
  });
};

#endif // SHARE_GC_G1_FLEXHEAP_G1FLEXHEAPOS_HPP
