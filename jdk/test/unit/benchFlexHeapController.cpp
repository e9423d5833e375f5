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

// This file is part of FlexHeap: micro-benchmark of FlexHeapController::decide() (not a test).
#include "gc/g1/flexheap/flexHeapController.hpp"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ns() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

// A pseudo-random walk of costs and heap sizes, so every branch of the FSM runs.
static double run(FlexHeapPolicyKind policy, unsigned history, bool as_rate, long calls, unsigned long* checksum) {
  const size_t mib = 1024 * 1024;
  FlexHeapConfig cfg = FlexHeapController::default_config(policy);
  cfg.history_length = history;
  cfg.cost_as_rate = as_rate;
  cfg.negligible_percent = 10;
  FlexHeapController c(cfg);
  enum { NumSamples = 1024 };
  static FlexHeapSample samples[NumSamples];
  unsigned seed = 12345;
  for (int i = 0; i < NumSamples; i++) {
    FlexHeapSample s = FlexHeapSample();
    seed = seed * 1103515245u + 12345u;
    s.t_stw = 0.001 + (seed % 1000) * 1e-5;
    s.t_mut = 0.1 + (seed % 777) * 1e-3;
    s.conc_cpu = (seed % 300) * 1e-3;
    s.conc_threads = 1 + seed % 4;
    s.cores = 8;
    s.mutators = 1 + (seed >> 8) % 16;
    s.io_available = true;
    s.io_stall = ((seed >> 4) % 500) * 1e-3;
    s.committed = (256 + (seed >> 12) % 512) * mib;
    s.max_capacity = 1024 * mib;
    s.min_capacity = 64 * mib;
    s.region_size = mib;
    s.used = s.committed - (seed >> 6) % 64 * mib;
    s.free_regions = (seed >> 10) % 200;
    s.eden_target_regions = 50;
    s.page_cache = (1000 + (seed >> 3) % 1000) * mib;
    s.used_after = s.used / 2;
    s.cache_signals = true;
    s.read_bytes = (double)((seed >> 5) % 1000) * 4096.0;
    s.refault_bytes = s.read_bytes * ((seed >> 7) % 10) / 20.0;
    samples[i] = s;
  }
  unsigned long sum = 0;
  double start = now_ns();
  for (long i = 0; i < calls; i++) {
    const FlexHeapSample& s = samples[i & (NumSamples - 1)];
    FlexHeapDecision d = c.decide(s);
    if (d.action != FlexHeapAction::None) {
      c.record_applied(d.action, d.bytes, s);
    }
    sum += d.bytes + (unsigned long)d.state;
  }
  double elapsed = now_ns() - start;
  *checksum += sum;
  return elapsed / calls;
}

int main(int argc, char** argv) {
  long calls = argc > 1 ? atol(argv[1]) : 1000000;
  unsigned long checksum = 0;
  // Balance (the default): a window of up to FlexHeapBalanceWindow::MaxLength intervals.
  printf("decide(): %.1f ns/call over %ld calls (balance policy)\n",
         run(FlexHeapPolicyKind::Balance, 10, true, calls, &checksum), calls);
  const unsigned histories[] = { 10, 100 };
  for (unsigned h : histories) {
    for (int rate = 1; rate >= 0; rate--) {
      double ns = run(FlexHeapPolicyKind::Paper, h, rate != 0, calls, &checksum);
      printf("decide(): %.1f ns/call over %ld calls (paper policy, history %u, %s)\n",
             ns, calls, h, rate ? "rates" : "per-interval means");
    }
  }
  printf("(checksum %lu)\n", checksum);
  return 0;
}
