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

#ifndef SHARE_GC_G1_FLEXHEAP_FLEXHEAPIOSTALL_HPP
#define SHARE_GC_G1_FLEXHEAP_FLEXHEAPIOSTALL_HPP

#include "memory/allocation.hpp"
#include "utilities/globalDefinitions.hpp"

struct iostall;

// The JVM side of iostall (iostall/include/iostall.h): per-thread I/O-stall
// accounting. The library is dlopen()ed only with UseFlexHeap, so a JDK
// without it, or a host without BPF, delay accounting or a cgroup v2 with
// PSI, still runs: FlexHeap then decides on GC cost alone. Owned by G1FlexHeap.
class FlexHeapIOStall : public CHeapObj<mtGC> {
  typedef int (*tid_fn)(struct iostall*, pid_t);
  typedef uint64_t (*total_ns_fn)(struct iostall*);

  struct iostall* _handle;      // the iostall instance, null if unavailable
  const char* _backend;
  char _reason[512];
  volatile uint _register_failures;
  tid_fn _register;
  tid_fn _unregister;
  total_ns_fn _total_ns;

  void open();

 public:
  // Loads the library and opens the backend named by FlexHeapIOStallBackend.
  FlexHeapIOStall();

  bool is_available() const { return _handle != nullptr; }
  const char* backend() const { return _backend; }
  const char* reason() const { return _reason; }
  // The backend's total costs a system call or more to read (delayacct: one
  // kernel round trip per thread, psi: a file read): read it off the pause
  // (G1FlexHeapSignals).
  bool is_slow() const;

  void register_thread(pid_t tid);
  void unregister_thread(pid_t tid);
  // Monotonic stall ns over all threads ever registered; 0 when unavailable.
  uint64_t total_stall_ns();

  static bool valid_backend_name(const char* name);
};

#endif // SHARE_GC_G1_FLEXHEAP_FLEXHEAPIOSTALL_HPP
