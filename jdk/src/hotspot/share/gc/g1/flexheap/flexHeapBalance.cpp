/*
 * Copyright (c) 2026, FlexHeap contributors. All rights reserved.
 * DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
 *
 * This code is free software; you can redistribute it and/or modify it
 * under the terms of the GNU General Public License version 2 only, as
 * published by the Free Software Foundation.  Oracle designates this
 * particular file as subject to the "Classpath" exception as provided
 * by Oracle in the LICENSE file that accompanied this code.
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
 */

#include "gc/g1/flexheap/flexHeapBalance.hpp"

#include "gc/g1/flexheap/flexHeapMath.hpp"

#include <math.h>

const unsigned FlexHeapBalanceWindow::MaxLength;
const double FlexHeapBalanceWindow::DefaultSeconds = 2.0;
const double FlexHeapBalanceWindow::ShiftShare = 0.6;
const double FlexHeapBalanceWindow::ShiftMinWallFraction = 0.25;
const double FlexHeapBalanceWindow::ShiftMinCostRate = 0.02;

FlexHeapBalanceWindow::FlexHeapBalanceWindow(double seconds) :
  _seconds(seconds > 0.0 ? seconds : DefaultSeconds),
  _count(0),
  _next(0) {
  for (unsigned i = 0; i < MaxLength; i++) {
    _wall[i] = _gc[i] = _io[i] = _gc_h[i] = _io_c[i] = _refault[i] = 0.0;
    _read[i] = -1.0;
  }
}

// Whether a cost mix (wall, gc, io) differs enough from another one to be a
// phase shift; false if either costs too little to have a mix.
static bool flexheap_mix_shifts(double wall, double gc, double io, double o_wall, double o_gc, double o_io) {
  if (gc + io < FlexHeapBalanceWindow::ShiftMinCostRate * wall ||
      o_gc + o_io < FlexHeapBalanceWindow::ShiftMinCostRate * o_wall) {
    return false;
  }
  return fabs(io / (gc + io) - o_io / (o_gc + o_io)) >= FlexHeapBalanceWindow::ShiftShare;
}

bool FlexHeapBalanceWindow::is_shift(double wall, double gc, double io) const {
  if (_count == 0 || wall < ShiftMinWallFraction * _seconds) {
    return false;
  }
  // An idle window has no cost mix to shift from.
  return flexheap_mix_shifts(wall, gc, io, this->wall(), sum(_gc), sum(_io));
}

bool FlexHeapBalanceWindow::add(double wall, double c_gc, double c_io, double headroom, double cache,
                                double read_bytes, double refault_bytes) {
  double gc = flexheap_nonneg(c_gc);
  double io = flexheap_nonneg(c_io);
  wall = flexheap_nonneg(wall);
  bool shift = is_shift(wall, gc, io);
  if (shift) {
    _count = 0;   // the older intervals describe the previous phase
  }
  _wall[_next] = wall;
  _gc[_next] = gc;
  _io[_next] = io;
  _gc_h[_next] = gc * flexheap_nonneg(headroom);
  _io_c[_next] = io * flexheap_nonneg(cache);
  bool known = refault_bytes >= 0.0 && read_bytes >= 0.0;
  _read[_next] = known ? read_bytes : -1.0;
  _refault[_next] = known ? refault_bytes : 0.0;
  _next = (_next + 1) % MaxLength;
  if (_count < MaxLength) {
    _count++;
  }
  return shift;
}

void FlexHeapBalanceWindow::forget_gc() {
  for (unsigned n = 0; n < _count; n++) {
    _gc[index(n)] = 0.0;
    _gc_h[index(n)] = 0.0;
  }
}

unsigned FlexHeapBalanceWindow::window_entries() const {
  double wall = 0.0;
  unsigned n = 0;
  while (n < _count && (n == 0 || wall < _seconds)) {
    wall += _wall[index(n)];
    n++;
  }
  return n;
}

double FlexHeapBalanceWindow::sum(const double* values) const {
  // Oldest to newest, so the result does not depend on the ring position.
  double s = 0.0;
  for (unsigned n = window_entries(); n > 0; n--) {
    s += values[index(n - 1)];
  }
  return s;
}

double FlexHeapBalanceWindow::wall() const {
  return sum(_wall);
}

static double flexheap_per_wall(double total, double wall) {
  return wall > 0.0 ? total / wall : 0.0;
}

double FlexHeapBalanceWindow::gc_rate() const        { return flexheap_per_wall(sum(_gc), wall()); }
double FlexHeapBalanceWindow::io_rate() const        { return flexheap_per_wall(sum(_io), wall()); }
double FlexHeapBalanceWindow::gc_coefficient() const { return flexheap_per_wall(sum(_gc_h), wall()); }
double FlexHeapBalanceWindow::io_coefficient() const { return flexheap_per_wall(sum(_io_c), wall()); }

double FlexHeapBalanceWindow::recoverable(double refault_share, double saturation) {
  if (!(saturation > 0.0) || refault_share >= saturation) {
    return 1.0;
  }
  return refault_share > 0.0 ? refault_share / saturation : 0.0;  // NaN too
}

bool FlexHeapBalanceWindow::known_reads(double* read, double* refault) const {
  bool any = false;
  *read = *refault = 0.0;
  for (unsigned n = window_entries(); n > 0; n--) {
    unsigned i = index(n - 1);
    if (_read[i] >= 0.0) {
      any = true;
      *read += _read[i];
      *refault += _refault[i];
    }
  }
  return any;
}

double FlexHeapBalanceWindow::read_bytes() const {
  double read, refault;
  known_reads(&read, &refault);
  return read;
}

double FlexHeapBalanceWindow::refault_fraction(double unknown) const {
  double read, refault;
  if (!known_reads(&read, &refault)) {
    return unknown;
  }
  if (!(read > 0.0)) {
    return 0.0;   // nothing was read: more cache cannot save anything
  }
  double f = refault / read;
  return f < 1.0 ? f : 1.0;
}

FlexHeapSlowGCRate::FlexHeapSlowGCRate(double seconds) :
  _seconds(seconds > 0.0 ? seconds : FlexHeapBalanceWindow::DefaultSeconds),
  _wall(0.0),
  _gc(0.0),
  _gc_h(0.0) {}

void FlexHeapSlowGCRate::add(double wall, double c_gc, double headroom) {
  wall = flexheap_nonneg(wall);
  const double gc = flexheap_nonneg(c_gc);
  // The interval's cost is spread over its wall time and decays within it
  // too, so one long interval weighs what the many short ones of the same
  // time would.
  const double keep = exp(-wall / _seconds);
  const double weight = wall > 0.0 ? _seconds * (1.0 - keep) / wall : 1.0;
  _wall = _wall * keep + wall * weight;
  _gc = _gc * keep + gc * weight;
  _gc_h = _gc_h * keep + gc * weight * flexheap_nonneg(headroom);
}

double FlexHeapSlowGCRate::rate() const        { return flexheap_per_wall(_gc, _wall); }
double FlexHeapSlowGCRate::coefficient() const { return flexheap_per_wall(_gc_h, _wall); }

double flexheap_balance_headroom(double gc_coefficient, double io_coefficient, double total) {
  double a = flexheap_nonneg(gc_coefficient);
  double b = flexheap_nonneg(io_coefficient);
  double t = flexheap_nonneg(total);
  if (a == 0.0) {
    return 0.0;
  }
  double ra = sqrt(a);
  return t * ra / (ra + sqrt(b));
}

double flexheap_goal_headroom(double gc_coefficient, double share, double cores) {
  if (!(share > 0.0) || !(cores > 0.0)) {
    return 0.0;
  }
  return flexheap_nonneg(gc_coefficient) / (share * cores);
}

double flexheap_memory_ceiling(double limit, double non_heap, double reserve) {
  const double r = flexheap_clamp(reserve, 0.0, 1.0);
  return flexheap_nonneg(flexheap_nonneg(limit) * (1.0 - r) - flexheap_nonneg(non_heap));
}

size_t flexheap_heap_ceiling(double limit, double non_heap, double reserve, size_t soft_max, size_t region) {
  if (!(limit > 0.0) && soft_max == 0) {
    return 0;
  }
  size_t ceiling = limit > 0.0 ? (size_t)flexheap_memory_ceiling(limit, non_heap, reserve) : soft_max;
  if (soft_max > 0 && soft_max < ceiling) {
    ceiling = soft_max;
  }
  return ceiling > region ? ceiling : region;
}

double flexheap_budget_limit(double hard, double throttle) {
  return throttle > 0.0 && throttle < hard ? throttle : hard;
}
