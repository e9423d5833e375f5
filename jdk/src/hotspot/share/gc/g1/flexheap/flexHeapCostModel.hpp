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

// This file is part of FlexHeap: the cost model of the paper's section 4.2-4.4 (Eq. 1-4).
#ifndef SHARE_GC_G1_FLEXHEAP_FLEXHEAPCOSTMODEL_HPP
#define SHARE_GC_G1_FLEXHEAP_FLEXHEAPCOSTMODEL_HPP

// Pure logic: no HotSpot headers, no STL, no allocation. Compiles inside
// HotSpot and standalone (jdk/test/unit).

// CPU time (seconds) that mutators lose in one interval, the time from the end
// of pause i-1 to the end of pause i. Negative or NaN inputs count as zero.
class FlexHeapCostModel {
 public:
  // Eq. 2: T_stw * min(N, M).
  static double stw_cost(double t_stw, unsigned n_cores, unsigned m_mutators);
  // Eq. 3: if M + G > N, the concurrent GC CPU time beyond the idle cores,
  // max(0, conc_cpu - max(0, (N - M) * t_mut)); otherwise 0.
  static double conc_cost(double conc_cpu, unsigned g_threads, unsigned n_cores,
                          unsigned m_mutators, double t_mut);
  // Eq. 4: min(stall_sum, t_mut * N).
  static double io_cost(double stall_sum, double t_mut, unsigned n_cores);
  // CPU time the process left idle in an interval of `wall` seconds on N
  // cores: max(0, N * wall - proc_cpu). An upper bound of the idle time in
  // the interval's mutator phase, as the pause's own idle time is in it too.
  static double idle_cpu(double proc_cpu, double wall, unsigned n_cores);
  // Eq. 1: C_gc = C_stw + C_conc.
  static double gc_cost(double c_stw, double c_conc);

  // Value a relative change takes when the previous value is 0 and the
  // current one is not: large, but finite so it still compares and logs.
  static const double LargeRelativeChange;
  // Delta^rel x = (cur - prev) / prev (paper 4.4). Guards (lead's decision):
  // prev <= 0 and cur <= 0 -> 0; prev <= 0 and cur > 0 -> LargeRelativeChange;
  // the result is also capped at LargeRelativeChange (tiny denominators).
  static double relative_change(double prev, double cur);
};

// Moving averages of C_gc, C_io and C_tot over the last `length` intervals,
// in a fixed ring buffer.
struct FlexHeapCostAverages {
  double gc;
  double io;
  double tot;   // gc + io
};

class FlexHeapCostHistory {
 public:
  static const unsigned MaxLength = 100;

  // length is clamped to [1, MaxLength].
  explicit FlexHeapCostHistory(unsigned length);

  // One interval: its costs (s) and its wall time t_mut + t_stw (s).
  void add(double c_gc, double c_io, double wall);
  unsigned length() const { return _length; }
  unsigned count() const { return _count; }

  // as_rate: time-weighted rates, sum(cost) / sum(wall) over the window (0 if
  // the summed wall time is not positive); the interval length grows with the
  // heap, so a rate compares heap sizes fairly (lead's decision, flag
  // FlexHeapCostAsRate). Otherwise the plain mean of the per-interval costs
  // (paper-literal). All zero while empty.
  FlexHeapCostAverages averages(bool as_rate) const;

 private:
  double   _gc[MaxLength];
  double   _io[MaxLength];
  double   _wall[MaxLength];
  unsigned _length;
  unsigned _count;  // valid entries, <= _length
  unsigned _next;   // slot the next add() writes
};

#endif // SHARE_GC_G1_FLEXHEAP_FLEXHEAPCOSTMODEL_HPP
