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

#ifndef SHARE_GC_G1_FLEXHEAP_FLEXHEAPBALANCE_HPP
#define SHARE_GC_G1_FLEXHEAP_FLEXHEAPBALANCE_HPP

#include <stddef.h>

// The balance policy's model (FlexHeapPolicy=balance, the default). Pure
// logic, unit tested outside HotSpot.
//
// GC cost falls as 1/headroom (headroom H = committed - used after the GC: a
// young GC runs every H bytes of allocation), and the part of the I/O stall
// that more page cache would avoid falls as 1/cache (C = page cache bytes).
// Each interval is reduced to two size-independent coefficients,
//   A = (GC cost per second) * H,  B = (recoverable I/O cost per second) * C,
// where "recoverable" is the share of the bytes read that were page-cache
// refaults. With H + C = T fixed by the budget, A/H + B/(T - H) is least at
//   H* = T * sqrt(A) / (sqrt(A) + sqrt(B))
// (the square-root rule of MemBalancer, with the page cache as the second
// heap). Because A and B do not depend on the size they were measured at,
// the window stays valid across resizes and one step can go all the way.
// Without a recoverable I/O cost the heap follows a GC-CPU goal instead, as
// JDK 26's G1 does with GCTimeRatio: H_goal = A / (goal * cores).
//
// The window is the newest intervals covering `seconds` of wall time (at
// least the newest one, at most MaxLength), not a fixed count: at a phase
// change intervals get long (an I/O phase allocates little), and a count of
// them would keep the previous phase's costs for many seconds.
//
// Even seconds are too many when one long interval shows another phase: the
// first I/O-bound interval after a GC-heavy phase would share the window with
// the GC cost of the phase before it, and the heap it holds would be given
// back over several more seconds while the page cache waits. So an interval
// of at least a quarter of the window whose I/O share of the cost differs by
// ShiftShare or more from the window's restarts the window (a phase shift).

class FlexHeapBalanceWindow {
 public:
  static const unsigned MaxLength = 100;

  // seconds <= 0 means DefaultSeconds.
  explicit FlexHeapBalanceWindow(double seconds);
  static const double DefaultSeconds;

  static const double ShiftShare;            // I/O share of the cost that marks a phase shift
  static const double ShiftMinWallFraction;  // of the window's seconds
  static const double ShiftMinCostRate;      // CPU s per s below which a share is noise

  // One interval: wall time (s), GC and I/O cost (CPU s), headroom and page
  // cache (bytes) at its start, and the bytes read and refaulted in it
  // (refault < 0: unknown, the interval does not count toward the refault share).
  // Returns true if the interval was a phase shift: the window now holds it alone.
  bool add(double wall, double c_gc, double c_io, double headroom, double cache,
           double read_bytes, double refault_bytes);
  // Forgets the GC cost of every interval so far, keeping their wall time
  // and I/O: the GC they paid says nothing about the data left.
  void forget_gc();
  unsigned count() const { return window_entries(); }  // intervals in the window
  double seconds() const { return _seconds; }          // the wall time the window covers

  double wall() const;            // summed wall time of the window (s)
  double gc_rate() const;         // sum(C_gc) / sum(wall)
  double io_rate() const;         // sum(C_io) / sum(wall)
  double gc_coefficient() const;  // A: sum(C_gc * H) / sum(wall)
  double io_coefficient() const;  // sum(C_io * C) / sum(wall); B = this * refault_fraction()
  double read_bytes() const;      // bytes read in the window's intervals that knew it (0 if none)
  // Share of the bytes read that refaulted, in [0, 1]; `unknown` if no
  // interval of the window knew it.
  double refault_fraction(double unknown) const;
  // Share of the reads that more page cache would save: the refault share
  // over `saturation`, capped at 1 (a share at or above it counts as all).
  static double recoverable(double refault_share, double saturation);

 private:
  double   _wall[MaxLength];
  double   _gc[MaxLength];
  double   _io[MaxLength];
  double   _gc_h[MaxLength];
  double   _io_c[MaxLength];
  double   _read[MaxLength];     // < 0: unknown
  double   _refault[MaxLength];
  double   _seconds;
  unsigned _count;    // entries stored, <= MaxLength
  unsigned _next;

  // Entries of the window, newest first: the newest ones until their wall
  // time reaches _seconds.
  unsigned window_entries() const;
  unsigned index(unsigned newest_first) const { return (_next + MaxLength - 1 - newest_first) % MaxLength; }
  double sum(const double* values) const;
  // Sums of the bytes read and refaulted over the intervals that knew them;
  // false if none did.
  bool known_reads(double* read, double* refault) const;
  // Whether an interval with these (non-negative) wall and costs shifts away
  // from the current window's cost mix.
  bool is_shift(double wall, double gc, double io) const;
};

// The GC cost over a longer horizon than the window: sums of cost, cost x
// headroom and wall time that decay as exp(-age / seconds), so every interval
// counts, however many there are. The GC goal shrinks only when this cost is
// below its band too: a concurrent cycle every few seconds swings a 2-s window
// across the band, and a shrink at each low swing brings the next cycle sooner
// (an OpenSearch node: heap 105 <-> 206 MB every ~8 s, twice the concurrent
// cycles of stock G1). Growth still answers the window alone.
class FlexHeapSlowGCRate {
 public:
  // seconds <= 0 (or NaN) means FlexHeapBalanceWindow::DefaultSeconds.
  explicit FlexHeapSlowGCRate(double seconds);
  void add(double wall, double c_gc, double headroom);
  void reset() { _wall = _gc = _gc_h = 0.0; }   // forget every interval
  double rate() const;          // decayed sum(C_gc) / decayed sum(wall)
  double coefficient() const;   // decayed sum(C_gc * H) / decayed sum(wall)
  double seconds() const { return _seconds; }

 private:
  double _seconds;
  double _wall;
  double _gc;
  double _gc_h;
};

// H* of the square-root rule for a flexible total T = H + C (bytes). 0 if A
// is 0, T if B is 0 (and A > 0).
double flexheap_balance_headroom(double gc_coefficient, double io_coefficient, double total);

// Headroom at which the GC cost per second is `share` of `cores` CPUs:
// A / (share * cores). 0 for a non-positive share or core count.
double flexheap_goal_headroom(double gc_coefficient, double share, double cores);

// Largest committed heap that leaves `reserve` (a share) of a memory limit to
// the page cache after `non_heap` bytes of the JVM's own memory:
// limit * (1 - reserve) - non_heap, at least 0. Neither model rule sees this
// cliff: the I/O cost of a smaller cache is extrapolated as 1/cache from the
// cache size measured, so a working set that fits until the last megabytes
// shows no cost until the heap has pushed it (and the JVM's own code) out,
// and the mutators stall in page faults where no GC can correct the size.
double flexheap_memory_ceiling(double limit, double non_heap, double reserve);

// The largest committed heap a budget leaves (bytes): the memory ceiling
// above when the limit is known (limit > 0), and soft_max (SoftMaxHeapSize,
// the operator's ceiling; 0: unset), whichever is lower, at least one
// region; 0 when neither is known.
size_t flexheap_heap_ceiling(double limit, double non_heap, double reserve, size_t soft_max, size_t region);

// The memory limit FlexHeap splits: the hard limit (the container's, else
// the machine's memory), or cgroup v2's memory.high (`throttle`) where it is
// set below it: above memory.high the kernel reclaims and throttles the
// container. A throttle of 0 is not set.
double flexheap_budget_limit(double hard, double throttle);

#endif // SHARE_GC_G1_FLEXHEAP_FLEXHEAPBALANCE_HPP
