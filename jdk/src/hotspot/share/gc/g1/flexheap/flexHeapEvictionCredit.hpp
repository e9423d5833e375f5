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

// This file is part of FlexHeap: the price of growing the heap into the page cache.
#ifndef SHARE_GC_G1_FLEXHEAP_FLEXHEAPEVICTIONCREDIT_HPP
#define SHARE_GC_G1_FLEXHEAP_FLEXHEAPEVICTIONCREDIT_HPP

#include "gc/g1/flexheap/flexHeapBalance.hpp"

// Pure logic: no HotSpot headers, no STL, no allocation. Compiles inside
// HotSpot and standalone (jdk/test/unit).
//
// Growth into the page cache is paid for in advance (ski rental).
//
// A heap that grows past the memory nobody uses evicts cached file pages. If
// a later phase reads them again each evicted byte is read back at the
// device's price; if none does the eviction was free. The controller cannot
// know which: a GC-heavy phase between two I/O phases (M1's M500k between H50
// and L50) shows no I/O cost while it runs, and both model rules then grow
// the heap through the cache that the next phase needs. So growth into the
// cache is paid for by the GC cost it is meant to save, already lost: the GC
// cost above the goal since the phase began buys the eviction of as many
// bytes as re-reading them would cost. Like renting skis until the rent paid
// equals the price, this costs at most about twice the better of growing at
// once and never growing, whatever the next phase does: a GC-heavy phase that
// lasts still gets its heap, a short one leaves the cache alone.
//
// The price of a byte is learned from the intervals that read: I/O cost per
// byte read (bytes-weighted, decaying), times the share of the reads that
// were refaults of recently evicted pages (over RefaultSaturation counts as
// all, as in the balance rule): a workload that never re-reads has a free
// cache. Until MinReadBytes have been read in one interval the price is
// unknown and growth is not limited: there is no cache worth keeping. The
// caller decides which intervals teach (read < 0: not this one) and whose
// refault share means something (refault < 0: unknown, e.g. a cache still
// filling; while no interval knew it, every read counts). A share is also too
// young to mean anything until the reads since the cache last filled reach
// `evidence` times the page cache: a page the cache has just evicted
// is re-read only after a while, and the first intervals of a full cache show
// no refaults however much the workload re-reads. Taken at its word, that
// one interval's share of 0 made the price 0 and the heap grew without limit
// (demo, M500k: 390 to 1010 MB in 0.4 s, the cache 806 to 86 MB, before any
// refault showed). A tenth of the cache was not enough either: random reads
// over data 12x the cache (M3 on the 10 GB index at 10%, sata) refault only
// once the pages evicted since the fill come round again, and 80 MB after
// the fill the share still read 0-1%; the price fell to 0-13% of its value,
// the heap took 100-260 MB of the cache for two seconds and the share then
// saturated. A page re-read at up to twice the cache's reach refaults within
// one cache of reads after the fill, so that is the evidence asked for
// (EvidenceCacheFraction).
//
// The rent is the GC cost above the goal net of the intervals below it: an
// interval is the time between two pauses, so one that a pause ends soon
// after the last is far above the goal even where the GC cost over seconds
// is not, and the bound above holds for GC time lost above the goal, not for
// its spikes.
class FlexHeapEvictionCredit {
 public:
  // `saturation`: the refault share that counts as all reads recoverable
  // (FlexHeapBalanceWindow::recoverable); <= 0 counts every read.
  explicit FlexHeapEvictionCredit(double saturation);

  // An interval teaches the price only if it read at least this much (bytes).
  static const double MinReadBytes;
  // Weight the price keeps of its past at each interval that teaches it.
  static const double Decay;
  // Share of the page cache the reads that knew their refaults must reach,
  // in all since the last interval that did not know them, before their
  // refault share counts.
  static const double EvidenceCacheFraction;

  // One interval: GC cost above the goal (CPU s; < 0 takes back rent down to
  // none; NaN adds nothing), its I/O
  // cost (CPU s), bytes read and refaulted (< 0: unknown), and the page cache
  // at its end (bytes; 0: any known read is evidence enough).
  void add(double gc_excess, double c_io, double read_bytes, double refault_bytes, double cache = 0.0);
  // A phase shift: rent paid in the last phase buys nothing in this one.
  void reset() { _credit = 0.0; }
  // The heap took `bytes` from the page cache: pay for them.
  void spend(double bytes);

  double credit() const { return _credit; }  // CPU s
  // CPU s to read back one evicted byte; 0 while unknown or when nothing re-reads.
  double price_per_byte() const;
  // Bytes the heap may take from the page cache now; negative: unlimited.
  double allowance() const;

 private:
  double _credit;       // CPU s of GC cost above the goal, not yet spent
  double _io;           // decaying sums over the intervals that taught the price
  double _read;
  double _refault;      // over the intervals that knew their refaults
  double _known_read;   // bytes those intervals read; 0: none knew
  double _known_total;  // bytes those intervals read since the last one that did not know, not decayed
  double _evidence;     // _known_total below this: the refault share is too young to count
  const double _saturation;
};

#endif // SHARE_GC_G1_FLEXHEAP_FLEXHEAPEVICTIONCREDIT_HPP
