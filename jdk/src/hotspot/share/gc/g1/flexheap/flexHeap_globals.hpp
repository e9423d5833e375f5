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

#ifndef SHARE_GC_G1_FLEXHEAP_FLEXHEAP_GLOBALS_HPP
#define SHARE_GC_G1_FLEXHEAP_FLEXHEAP_GLOBALS_HPP

// FlexHeap's flags: I/O-aware sizing of the G1 heap (-XX:+UseFlexHeap).
// Expanded inside GC_G1_FLAGS (gc/g1/g1_globals.hpp).

#define GC_FLEXHEAP_FLAGS(develop,                                          \
                          develop_pd,                                       \
                          product,                                          \
                          product_pd,                                       \
                          range,                                            \
                          constraint)                                       \
                                                                            \
  /* The flags an operator sets. */                                         \
                                                                            \
  product(bool, UseFlexHeap, false,                                         \
          "Size the G1 heap with FlexHeap: at every GC, grow or shrink "    \
          "the heap to reduce the sum of the CPU time lost to GC and to "   \
          "mutator I/O stalls, sharing memory with the page cache. "        \
          "Selects G1 if no collector is chosen")                           \
                                                                            \
  product(ccstr, FlexHeapPolicy, "balance",                                 \
          "FlexHeap's controller: balance (the heap size where the "        \
          "marginal GC and I/O costs meet, with a GC time goal when I/O "   \
          "costs nothing) or paper (the PLDI 2026 state machine)")          \
          constraint(FlexHeapPolicyConstraintFunc, AtParse)                 \
                                                                            \
  product(uint, FlexHeapGCTimeRatio, 24,                                    \
          "With FlexHeapPolicy=balance, the GC time goal when I/O costs "   \
          "nothing: at most 1/(1+FlexHeapGCTimeRatio) of the time in GC")   \
          range(1, 1000)                                                    \
                                                                            \
  product(uint, FlexHeapCacheReservePercent, 10,                            \
          "With FlexHeapPolicy=balance, the percentage of the memory "      \
          "limit (the container's, else the machine's) that the heap "      \
          "never takes: it stays with the page cache after the JVM's own "  \
          "native memory")                                                  \
          range(0, 90)                                                      \
                                                                            \
  product(double, FlexHeapMaxRAMPercentage, 90.0,                           \
          "With UseFlexHeap and no explicit maximum heap size, the "        \
          "maximum heap as a percentage of the (container) memory "         \
          "limit; like MaxRAMPercentage's default, it stops at the "        \
          "compressed oops limit")                                          \
          range(1.0, 100.0)                                                 \
                                                                            \
  product(uintx, FlexHeapProactiveGCInterval, 500, MANAGEABLE,              \
          "Milliseconds between FlexHeap's checks for a stall-bound, "      \
          "low-allocation phase that warrants a proactive GC. Zero "        \
          "disables proactive GC; it can be turned on at run time")         \
          range(0, max_jint)                                                \
                                                                            \
  product(ccstr, FlexHeapIOStallBackend, "auto",                            \
          "Source of mutator I/O stall time for FlexHeap: auto (bpf, "      \
          "else delayacct, else psi, else none), bpf, delayacct, psi (the " \
          "JVM's own cgroup v2 io.pressure, no privilege needed) or none")  \
          constraint(FlexHeapIOStallBackendConstraintFunc, AtParse)         \
                                                                            \
  product(ccstr, FlexHeapIOStallLibrary, nullptr,                           \
          "Path of the iostall library FlexHeap loads; default is "         \
          "lib/libiostall.so in the JDK")                                   \
                                                                            \
  /* Tuning knobs, for experiments. */                                      \
                                                                            \
  product(uint, FlexHeapRentRefaultSaturationPercent, 10, EXPERIMENTAL,     \
          "With FlexHeapPolicy=balance, the refault share of the reads, "   \
          "as a percentage, at and above which the page-cache rent prices " \
          "an evicted byte as a whole re-read; a smaller share prices it "  \
          "in proportion")                                                  \
          range(1, 100)                                                     \
                                                                            \
  product(uint, FlexHeapProactiveAllocWindow, 5, EXPERIMENTAL,              \
          "Number of allocation rate samples in the moving average that "   \
          "FlexHeap's proactive GC compares the current rate against")      \
          range(1, 100)                                                     \
                                                                            \
  product(uint, FlexHeapProactiveLowIntervals, 3, EXPERIMENTAL,             \
          "Consecutive low-allocation intervals with high I/O stall "       \
          "before FlexHeap triggers a proactive GC")                        \
          range(1, 100)                                                     \
                                                                            \
  product(uint, FlexHeapProactiveStallPercent, 25, EXPERIMENTAL,            \
          "Mutator I/O stall time, as a percentage of the check interval, " \
          "above which a low-allocation interval counts as stalled")        \
          range(1, 100000)                                                  \
                                                                            \
  /* The paper's controller (FlexHeapPolicy=paper). */                      \
                                                                            \
  product(uint, FlexHeapHistoryLength, 10, EXPERIMENTAL,                    \
          "With FlexHeapPolicy=paper, the number of GC intervals in the "   \
          "moving average of the total GC plus I/O cost that FlexHeap "     \
          "compares between decisions")                                     \
          range(1, 100)                                                     \
                                                                            \
  product(double, FlexHeapMinScaleFactor, 0.2, EXPERIMENTAL,                \
          "With FlexHeapPolicy=paper, the lower bound of the logistic "     \
          "scale applied to a resize step for small cost changes")          \
          range(0.0, 1.0)                                                   \
                                                                            \
  product(double, FlexHeapMaxScaleFactor, 2.0, EXPERIMENTAL,                \
          "With FlexHeapPolicy=paper, the upper bound of the logistic "     \
          "scale applied to a resize step for large cost changes")          \
          range(0.0, 10.0)                                                  \
          constraint(FlexHeapMaxScaleFactorConstraintFunc, AfterErgo)       \
                                                                            \
  product(bool, FlexHeapCostAsRate, false, EXPERIMENTAL,                    \
          "With FlexHeapPolicy=paper, compare GC and I/O costs as CPU "     \
          "time lost per second of each interval instead of as CPU time "   \
          "per interval (the paper's)")                                     \
                                                                            \
  product(uint, FlexHeapStaticStepPercent, 0, EXPERIMENTAL,                 \
          "With FlexHeapPolicy=paper, if non-zero, replace the adaptive "   \
          "resize step by this fixed percentage of the grow headroom or "   \
          "shrink budget")                                                  \
          range(0, 100)                                                     \
                                                                            \
  product(uint, FlexHeapNegligibleCostPercent, 0, EXPERIMENTAL,             \
          "With FlexHeapPolicy=paper, a cost average below this "           \
          "percentage of the other one is negligible: no growth for a "     \
          "negligible GC cost nor shrink for a negligible I/O cost. 0: "    \
          "the paper's predicates alone")                                   \
          range(0, 100)

// end of GC_FLEXHEAP_FLAGS

#endif // SHARE_GC_G1_FLEXHEAP_FLEXHEAP_GLOBALS_HPP
