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
#include "gc/g1/flexheap/flexHeapEvictionCredit.hpp"

#include "gc/g1/flexheap/flexHeapMath.hpp"

#include <math.h>

const double FlexHeapEvictionCredit::MinReadBytes = 1024.0 * 1024.0;
const double FlexHeapEvictionCredit::Decay = 0.9;
const double FlexHeapEvictionCredit::EvidenceCacheFraction = 1.0;

FlexHeapEvictionCredit::FlexHeapEvictionCredit(double saturation) :
  _credit(0.0), _io(0.0), _read(0.0), _refault(0.0), _known_read(0.0), _known_total(0.0), _evidence(0.0),
  _saturation(saturation) {}

void FlexHeapEvictionCredit::add(double gc_excess, double c_io, double read_bytes, double refault_bytes,
                                 double cache) {
  if (gc_excess < 0.0) {
    _credit = flexheap_nonneg(_credit + gc_excess);
  } else {
    _credit += flexheap_nonneg(gc_excess);
  }
  _evidence = EvidenceCacheFraction * flexheap_nonneg(cache);
  if (!(read_bytes >= MinReadBytes)) {
    return;
  }
  _io = _io * Decay + flexheap_nonneg(c_io);
  _read = _read * Decay + read_bytes;
  _refault *= Decay;
  _known_read *= Decay;
  if (refault_bytes >= 0.0) {
    _refault += refault_bytes;
    _known_read += read_bytes;
    _known_total += read_bytes;
  } else {
    _known_total = 0.0;   // the cache is filling again: the next full cache needs its own evidence
  }
}

void FlexHeapEvictionCredit::spend(double bytes) {
  // nonneg, not a "< 0" test: an infinite price times 0 bytes is NaN, which
  // would otherwise stick in the credit and in every allowance after it.
  _credit = flexheap_nonneg(_credit - flexheap_nonneg(bytes) * price_per_byte());
}

double FlexHeapEvictionCredit::price_per_byte() const {
  if (_read <= 0.0) {
    return 0.0;
  }
  // No refault figures, or too few yet: every read counts (the paper's view).
  const bool known = _known_read > 0.0 && _known_total >= _evidence;
  const double recoverable = known ? FlexHeapBalanceWindow::recoverable(_refault / _known_read, _saturation) : 1.0;
  return _io / _read * recoverable;
}

double FlexHeapEvictionCredit::allowance() const {
  const double price = price_per_byte();
  return price > 0.0 ? _credit / price : -1.0;
}
