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
#include "gc/g1/flexheap/flexHeapCostModel.hpp"

#include "gc/g1/flexheap/flexHeapMath.hpp"

#include <stdint.h>

const double FlexHeapCostModel::LargeRelativeChange = 1e9;
const unsigned FlexHeapCostHistory::MaxLength;

double FlexHeapCostModel::stw_cost(double t_stw, unsigned n_cores, unsigned m_mutators) {
  unsigned lost = n_cores < m_mutators ? n_cores : m_mutators;
  return flexheap_nonneg(t_stw) * lost;
}

double FlexHeapCostModel::conc_cost(double conc_cpu, unsigned g_threads, unsigned n_cores,
                                    unsigned m_mutators, double t_mut) {
  if ((uint64_t)m_mutators + g_threads <= n_cores) {
    return 0.0;  // idle cores absorb all concurrent GC work
  }
  // Cores left idle by the mutators, as CPU time over the mutator phase.
  double idle = n_cores > m_mutators ? (double)(n_cores - m_mutators) * flexheap_nonneg(t_mut) : 0.0;
  return flexheap_nonneg(flexheap_nonneg(conc_cpu) - idle);
}

double FlexHeapCostModel::io_cost(double stall_sum, double t_mut, unsigned n_cores) {
  double stall = flexheap_nonneg(stall_sum);
  double cap = flexheap_nonneg(t_mut) * n_cores;
  return stall < cap ? stall : cap;
}

double FlexHeapCostModel::idle_cpu(double proc_cpu, double wall, unsigned n_cores) {
  return flexheap_nonneg(flexheap_nonneg(wall) * n_cores - flexheap_nonneg(proc_cpu));
}

double FlexHeapCostModel::gc_cost(double c_stw, double c_conc) {
  return flexheap_nonneg(c_stw) + flexheap_nonneg(c_conc);
}

double FlexHeapCostModel::relative_change(double prev, double cur) {
  if (!(prev > 0.0)) {
    return cur > 0.0 ? LargeRelativeChange : 0.0;
  }
  double rel = (flexheap_nonneg(cur) - prev) / prev;
  return rel < LargeRelativeChange ? rel : LargeRelativeChange;
}

FlexHeapCostHistory::FlexHeapCostHistory(unsigned length) :
  _length(length < 1 ? 1 : (length > MaxLength ? MaxLength : length)),
  _count(0),
  _next(0) {
  for (unsigned i = 0; i < MaxLength; i++) {
    _gc[i] = _io[i] = _wall[i] = 0.0;
  }
}

void FlexHeapCostHistory::add(double c_gc, double c_io, double wall) {
  _gc[_next] = flexheap_nonneg(c_gc);
  _io[_next] = flexheap_nonneg(c_io);
  _wall[_next] = flexheap_nonneg(wall);
  if (++_next == _length) {
    _next = 0;
  }
  if (_count < _length) {
    _count++;
  }
}

FlexHeapCostAverages FlexHeapCostHistory::averages(bool as_rate) const {
  FlexHeapCostAverages avg = { 0.0, 0.0, 0.0 };
  if (_count == 0) {
    return avg;
  }
  // Sum oldest to newest so the result does not depend on the ring position.
  double gc = 0.0, io = 0.0, wall = 0.0;
  unsigned i = (_next + _length - _count) % _length;
  for (unsigned n = 0; n < _count; n++) {
    gc += _gc[i];
    io += _io[i];
    wall += _wall[i];
    if (++i == _length) {
      i = 0;
    }
  }
  double denom = as_rate ? wall : (double)_count;
  if (denom > 0.0) {
    avg.gc = gc / denom;
    avg.io = io / denom;
  }
  avg.tot = avg.gc + avg.io;
  return avg;
}
