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
  product(bool, UseFlexHeap, false,                                         \
          "Size the G1 heap with FlexHeap: at every GC, grow or shrink "    \
          "the heap to reduce the sum of the CPU time lost to GC and to "   \
          "mutator I/O stalls, sharing memory with the page cache. "        \
          "Selects G1 if no collector is chosen")                           \
                                                                            \
  product(ccstr, FlexHeapPolicy, "balance",                                 \
          "FlexHeap's controller: balance (the heap size where the "        \
          "marginal GC and I/O costs meet, with a GC time goal when I/O "   \
          "costs nothing) or paper (the PLDI 2026 state machine; sets "     \
          "FlexHeapCostAsRate=false and FlexHeapNegligibleCostPercent=0 "   \
          "unless given)")                                                  \
          constraint(FlexHeapPolicyConstraintFunc, AtParse)                 \
                                                                            \
  product(uint, FlexHeapGCTimeRatio, 24,                                    \
          "With FlexHeapPolicy=balance, the GC time goal when I/O costs "   \
          "nothing: at most 1/(1+FlexHeapGCTimeRatio) of the time in GC")   \
          range(1, 1000)                                                    \
                                                                            \
  product(uint, FlexHeapHistoryLength, 10,                                  \
          "Number of GC intervals in the moving average of the total "      \
          "GC plus I/O cost that FlexHeap compares between decisions")      \
          range(1, 100)                                                     \
                                                                            \
  product(double, FlexHeapMinScaleFactor, 0.2,                              \
          "Lower bound of the logistic scale FlexHeap applies to a "        \
          "resize step for small changes of the total cost")                \
          range(0.0, 1.0)                                                   \
                                                                            \
  product(double, FlexHeapMaxScaleFactor, 2.0,                              \
          "Upper bound of the logistic scale FlexHeap applies to a "        \
          "resize step for large changes of the total cost")                \
          range(0.0, 10.0)                                                  \
          constraint(FlexHeapMaxScaleFactorConstraintFunc, AfterErgo)       \
                                                                            \
  product(bool, FlexHeapCostAsRate, true,                                   \
          "Compare GC and I/O costs as CPU time lost per second of each "   \
          "interval (time-weighted over the history) instead of as CPU "    \
          "time per interval; interval length changes with heap size")      \
                                                                            \
  product(uint, FlexHeapStaticStepPercent, 0,                               \
          "If non-zero, replace FlexHeap's adaptive resize step by this "   \
          "fixed percentage of the grow headroom or shrink budget")         \
          range(0, 100)                                                     \
                                                                            \
  product(uint, FlexHeapNegligibleCostPercent, 10,                          \
          "A cost average below this percentage of the other one is "       \
          "negligible: FlexHeap does not grow the heap for a negligible "   \
          "GC cost nor shrink it for a negligible I/O cost, since the "     \
          "step cannot gain more than that cost. 0: the paper's "           \
          "predicates alone")                                               \
          range(0, 100)                                                     \
                                                                            \
  product(uint, FlexHeapCacheReservePercent, 10,                            \
          "With FlexHeapPolicy=balance, the percentage of the memory "      \
          "limit (the container's, else the machine's) that the heap "     \
          "never takes: it stays with the page cache after the JVM's own " \
          "native memory, which the heap's growth would otherwise evict "   \
          "(the mutators then stall in page faults, code included)")       \
          range(0, 90)                                                      \
                                                                            \
  product(uint, FlexHeapRentPriceMinIOPercent, 100,                         \
          "With FlexHeapPolicy=balance, growth into the page cache is "     \
          "paid for at the price of reading evicted pages back, learned "   \
          "only from GC intervals whose I/O stall cost reached this "       \
          "percentage of the GC time goal, and only from their refaults "   \
          "once the cache is full. 0: from every interval that reads "      \
          "(builds before this flag)")                                      \
          range(0, 1000)                                                    \
                                                                            \
  product(bool, FlexHeapRentFillingCache, true,                             \
          "With FlexHeapPolicy=balance, while the mutators' I/O stall "     \
          "cost is at least the GC time goal, they read from storage and "  \
          "the page cache is still filling, growth into memory that "       \
          "neither the heap nor the cache holds yet is paid for like "      \
          "growth into the page cache: the cache was about to take it. "    \
          "false: free memory is free (builds before this flag)")           \
                                                                            \
  product(bool, FlexHeapRentCreditDrains, true,                             \
          "With FlexHeapPolicy=balance, the GC cost that pays for growth "  \
          "into the page cache is the cost above the GC time goal net of "  \
          "the intervals between pauses that stayed below it. false: only " \
          "intervals above the goal count (builds before this flag)")       \
                                                                            \
  product(bool, FlexHeapIOCostIdleCap, true,                                \
          "With FlexHeapPolicy=balance, count no more mutator I/O stall "   \
          "as lost CPU than the JVM left its CPUs idle in the interval "    \
          "(active processors times the interval, less the process's CPU "  \
          "time): a thread stalled while others keep every CPU busy loses " \
          "no CPU. false: every stalled thread counts (the paper's Eq. 4; " \
          "builds before this default)")                                    \
                                                                            \
  product(bool, FlexHeapConcCostIdleCap, false,                             \
          "With FlexHeapPolicy=balance, count concurrent GC CPU time as "   \
          "lost only beyond the CPU time the JVM left idle in the "         \
          "interval, and never more than Eq. 3 does: marking that runs "    \
          "while the mutators wait on I/O takes no CPU from them. false: "  \
          "Eq. 3 alone (idle cores estimated from the mutator count)")      \
                                                                            \
  product(uint, FlexHeapBalanceMaxGCPercent, 8,                             \
          "With FlexHeapPolicy=balance, the balance rule never shrinks "    \
          "the heap headroom below the one at which the window's GC cost "  \
          "is this percentage of the mutators' CPUs: its I/O model (the "   \
          "stall falls as 1/page cache) overstates what more cache saves "  \
          "on data far larger than the cache. 0: no bound (earlier "        \
          "builds)")                                                        \
          range(0, 100)                                                     \
                                                                            \
  product(bool, FlexHeapActivatedRefaults, false,                           \
          "With FlexHeapPolicy=balance, the share of the mutators' I/O "    \
          "stall a larger page cache could save is twice the share of "     \
          "reads the kernel activated (refaults whose reuse distance fits " \
          "in the cache's working set: reads a cache about twice as large " \
          "would hit; the 1/cache model says doubling saves half), capped " \
          "at all. From the memory cgroup's memory.stat on cgroup v2, else "\
          "/proc/vmstat (machine-wide: v1 has no per-cgroup activations). " \
          "false: a refault share of 10% or more counts as all")            \
                                                                            \
  product(bool, FlexHeapRecentPhaseShift, false,                            \
          "With FlexHeapPolicy=balance, also restart the cost window when " \
          "its newest intervals covering a quarter of it, taken together, " \
          "differ in I/O share of the cost as much as one long interval "   \
          "must (a GC-heavy phase after an I/O-bound one runs in short "    \
          "intervals). false: only one long interval restarts it")          \
                                                                            \
  product(bool, FlexHeapBalanceShrinkNeedsStalls, false,                    \
          "With FlexHeapPolicy=balance, the balance rule shrinks the heap " \
          "for the page cache only at a pause whose interval the mutators "  \
          "spent stalling on I/O (a quarter of the GC goal or more); an "   \
          "interval without stalls (a GC-heavy phase while the cost "       \
          "window still holds the last phase's reads) keeps the heap. "     \
          "false: any interval")                                            \
                                                                            \
  product(uint, FlexHeapRentRefaultSaturationPercent, 10,                   \
          "With FlexHeapPolicy=balance, the refault share of the reads, "   \
          "as a percentage, at and above which the page-cache rent prices " \
          "an evicted byte as a whole re-read; a smaller share prices it "  \
          "in proportion. 100: the refault share itself")                   \
          range(1, 100)                                                     \
                                                                            \
  product(uint, FlexHeapRefaultEvidencePercent, 100,                        \
          "With FlexHeapPolicy=balance, the reads since the page cache "    \
          "filled, as a percentage of the cache, before their refault "     \
          "share sets the price of growing into the cache; until then "     \
          "every read counts as one a larger cache could save. 10: "        \
          "builds before this flag")                                        \
          range(0, 1000)                                                    \
                                                                            \
  product(uint, FlexHeapEarlyGCSurvivalPercent, 50,                        \
          "With FlexHeapPolicy=balance, a young GC that allocation "        \
          "triggered and that kept at least this percentage of the bytes "  \
          "allocated since the previous GC ran before they could die: the " \
          "heap then grows to leave twice those bytes free, whatever the "  \
          "page-cache rent allows (a GC every few regions otherwise "       \
          "copies everything it collects). 0: off (builds before this "     \
          "flag)")                                                          \
          range(0, 100)                                                     \
                                                                            \
  product(bool, FlexHeapLiveGrowthRentFree, false,                          \
          "With FlexHeapPolicy=balance, the growth of the old data that "   \
          "a Remark found over the Remark before (a live set still being "  \
          "built) is headroom the page-cache rent does not charge, until "  \
          "the next Remark: that live set will evict the cache anyway. "    \
          "false: that growth is rented like any other")                    \
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
          "disables proactive GC; it can be turned on at run time. Below "  \
          "500, proactive pauses come closer together than the 0.5 s an "   \
          "interval must last to mark a phase shift, so the balance "       \
          "policy detects fewer shifts")                                    \
          range(0, max_jint)                                                \
                                                                            \
  product(uint, FlexHeapProactiveAllocWindow, 5,                            \
          "Number of allocation rate samples in the moving average that "   \
          "FlexHeap's proactive GC compares the current rate against")      \
          range(1, 100)                                                     \
                                                                            \
  product(uint, FlexHeapProactiveLowIntervals, 3,                           \
          "Consecutive low-allocation intervals with high I/O stall "       \
          "before FlexHeap triggers a proactive GC")                        \
          range(1, 100)                                                     \
                                                                            \
  product(uint, FlexHeapProactiveStallPercent, 25,                          \
          "Mutator I/O stall time, as a percentage of the check interval, " \
          "above which a low-allocation interval counts as stalled")        \
          range(1, 100000)                                                  \
                                                                            \
  product(ccstr, FlexHeapIOStallBackend, "auto",                            \
          "Source of mutator I/O stall time for FlexHeap: auto (bpf, "      \
          "else delayacct, else psi, else none), bpf, delayacct, psi (the " \
          "JVM's own cgroup v2 io.pressure, no privilege needed) or none")  \
                                                                            \
  product(ccstr, FlexHeapIOStallLibrary, nullptr,                           \
          "Path of the iostall library FlexHeap loads; default is "         \
          "lib/libiostall.so in the JDK")

// end of GC_FLEXHEAP_FLAGS

#endif // SHARE_GC_G1_FLEXHEAP_FLEXHEAP_GLOBALS_HPP
