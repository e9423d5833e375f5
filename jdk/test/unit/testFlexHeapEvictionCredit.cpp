/*
 * Copyright (c) 2026, FlexHeap contributors. All rights reserved.
 * DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
 *
 * This code is free software; you can redistribute it and/or modify it
 * under the terms of the GNU General Public License version 2 only, as
 * published by the Free Software Foundation.
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

// Unit tests of the eviction credit: the price of a page-cache byte and the
// GC rent that pays for it.
#include "gc/g1/flexheap/flexHeapEvictionCredit.hpp"

#include <gtest/gtest.h>
#include <math.h>

static const double MiB = 1024.0 * 1024.0;

TEST(FlexHeapEvictionCredit, UnknownPriceMeansUnlimited) {
  FlexHeapEvictionCredit e(0.1);
  EXPECT_DOUBLE_EQ(0.0, e.price_per_byte());
  EXPECT_LT(e.allowance(), 0.0);
  e.add(1.0, 0.0, 0.0, 0.0);     // rent, but nothing read yet
  EXPECT_DOUBLE_EQ(1.0, e.credit());
  EXPECT_LT(e.allowance(), 0.0);
}

TEST(FlexHeapEvictionCredit, AnIntervalTeachesThePriceFromMinReadBytes) {
  FlexHeapEvictionCredit e(0.1);
  e.add(0.0, 5.0, FlexHeapEvictionCredit::MinReadBytes - 1.0, -1.0);
  EXPECT_DOUBLE_EQ(0.0, e.price_per_byte());
  e.add(0.0, 1.0, FlexHeapEvictionCredit::MinReadBytes, -1.0);
  EXPECT_DOUBLE_EQ(1.0 / FlexHeapEvictionCredit::MinReadBytes, e.price_per_byte());
}

TEST(FlexHeapEvictionCredit, PriceIsBytesWeightedAndDecays) {
  FlexHeapEvictionCredit e(0.1);
  e.add(0.0, 1.0, 10.0 * MiB, -1.0);
  e.add(0.0, 1.0, 30.0 * MiB, -1.0);
  const double d = FlexHeapEvictionCredit::Decay;
  EXPECT_DOUBLE_EQ((1.0 * d + 1.0) / (10.0 * MiB * d + 30.0 * MiB), e.price_per_byte());
}

TEST(FlexHeapEvictionCredit, RefaultShareScalesThePriceAndSaturates) {
  FlexHeapEvictionCredit scan(0.1);                 // never re-reads: a free cache
  scan.add(1.0, 2.0, 10.0 * MiB, 0.0);
  EXPECT_DOUBLE_EQ(0.0, scan.price_per_byte());
  EXPECT_LT(scan.allowance(), 0.0);
  FlexHeapEvictionCredit half(0.1);                 // 5% refaults, saturation 10%: half the price
  half.add(0.0, 2.0, 10.0 * MiB, 0.5 * MiB);
  EXPECT_DOUBLE_EQ(0.5 * 2.0 / (10.0 * MiB), half.price_per_byte());
  FlexHeapEvictionCredit all(0.1);                  // 30%: saturated
  all.add(0.0, 2.0, 10.0 * MiB, 3.0 * MiB);
  EXPECT_DOUBLE_EQ(2.0 / (10.0 * MiB), all.price_per_byte());
}

TEST(FlexHeapEvictionCredit, GcBelowTheGoalTakesBackRent) {
  // Intervals between pauses: spikes above the goal where a pause follows
  // soon after the last, longer stretches below it. Net of those, the GC
  // cost never exceeded its goal, so no rent is left to pay for growth.
  FlexHeapEvictionCredit e(0.1);
  e.add(0.0, 1.0, 10.0 * MiB, -1.0);     // 0.1 CPU-s per MiB
  e.add(0.3, 0.0, 0.0, -1.0);
  e.add(-0.2, 0.0, 0.0, -1.0);
  EXPECT_NEAR(0.1, e.credit(), 1e-12);
  e.add(-0.5, 0.0, 0.0, -1.0);            // never below none
  EXPECT_DOUBLE_EQ(0.0, e.credit());
  e.add(0.3, 0.0, 0.0, -1.0);             // a spike after a long quiet stretch rents again
  EXPECT_NEAR(3.0 * MiB, e.allowance(), 1e-6);
  e.add(NAN, 0.0, 0.0, -1.0);             // an unknown cost changes nothing
  EXPECT_NEAR(0.3, e.credit(), 1e-12);
}

TEST(FlexHeapEvictionCredit, RentBuysBytesAndSpendingUsesItUp) {
  FlexHeapEvictionCredit e(0.1);
  e.add(0.0, 1.0, 10.0 * MiB, -1.0);     // 0.1 CPU-s per MiB
  e.add(-3.0, 0.0, 0.0, -1.0);           // GC below its goal pays nothing
  EXPECT_DOUBLE_EQ(0.0, e.credit());
  e.add(0.5, 0.0, 0.0, -1.0);
  EXPECT_NEAR(5.0 * MiB, e.allowance(), 1e-6);
  e.spend(2.0 * MiB);
  EXPECT_NEAR(3.0 * MiB, e.allowance(), 1e-6);
  e.spend(10.0 * MiB);                          // more than paid for: nothing left, never negative
  EXPECT_DOUBLE_EQ(0.0, e.credit());
  EXPECT_DOUBLE_EQ(0.0, e.allowance());
  e.add(0.5, 0.0, 0.0, -1.0);
  e.reset();                                    // a phase shift
  EXPECT_DOUBLE_EQ(0.0, e.credit());
}

TEST(FlexHeapEvictionCredit, NoSaturationCountsEveryRead) {
  FlexHeapEvictionCredit e(0.0);               // as FlexHeapBalanceWindow::recoverable: <= 0 counts all
  e.add(0.0, 2.0, 10.0 * MiB, 0.1 * MiB);
  EXPECT_DOUBLE_EQ(2.0 / (10.0 * MiB), e.price_per_byte());
}

TEST(FlexHeapEvictionCredit, NegativeAndNaNInputsCountAsZero) {
  FlexHeapEvictionCredit e(0.1);
  e.add(NAN, NAN, 10.0 * MiB, -1.0);
  EXPECT_DOUBLE_EQ(0.0, e.credit());
  EXPECT_DOUBLE_EQ(0.0, e.price_per_byte());
  e.add(0.0, 1.0, NAN, -1.0);
  EXPECT_DOUBLE_EQ(0.0, e.price_per_byte());
  e.spend(NAN);
  EXPECT_DOUBLE_EQ(0.0, e.credit());
}

TEST(FlexHeapEvictionCredit, InfiniteInputsNeverLeaveANaNCredit) {
  FlexHeapEvictionCredit e(0.1);
  e.add(INFINITY, INFINITY, 10.0 * MiB, -1.0);  // infinite credit and price
  e.spend(0.0);                                   // inf - 0 * inf is NaN
  EXPECT_FALSE(isnan(e.credit()));
  EXPECT_DOUBLE_EQ(0.0, e.credit());
  EXPECT_DOUBLE_EQ(0.0, e.allowance());
  e.add(1.0, 1.0, 10.0 * MiB, -1.0);
  EXPECT_FALSE(isnan(e.allowance()));
}

TEST(FlexHeapEvictionCredit, IntervalsWithoutRefaultFiguresDoNotDiluteTheShare) {
  // 10 MiB with 5% refaults (half the price at saturation 10%), then 10 MiB
  // whose refaults are unknown: the share stays 5%, not 2.5%.
  FlexHeapEvictionCredit e(0.1);
  e.add(0.0, 1.0, 10.0 * MiB, 0.5 * MiB);
  e.add(0.0, 1.0, 10.0 * MiB, -1.0);
  const double d = FlexHeapEvictionCredit::Decay;
  EXPECT_DOUBLE_EQ(0.5 * (1.0 * d + 1.0) / (10.0 * MiB * d + 10.0 * MiB), e.price_per_byte());
}

TEST(FlexHeapEvictionCredit, AnIntervalTheCallerExcludesTeachesNothingButPaysRent) {
  FlexHeapEvictionCredit e(0.1);
  e.add(0.0, 1.0, 10.0 * MiB, -1.0);
  const double price = e.price_per_byte();
  e.add(0.5, 0.001, -1.0, 8.0 * MiB);    // a GC-bound interval: read < 0 teaches nothing
  EXPECT_DOUBLE_EQ(price, e.price_per_byte());
  EXPECT_DOUBLE_EQ(0.5, e.credit());
}

TEST(FlexHeapEvictionCredit, ARefaultShareCountsOnlyOnceItsReadsReachTheEvidence) {
  // Evidence of a whole cache (EvidenceCacheFraction), here a small one of 80 MiB.
  // The I/O phase filled the cache: its refaults were unknown, every read counts.
  const double cache = 80.0 * MiB;
  const double d = FlexHeapEvictionCredit::Decay;
  FlexHeapEvictionCredit e(0.1);
  e.add(0.0, 1.0, 10.0 * MiB, -1.0, cache);
  EXPECT_DOUBLE_EQ(1.0 / (10.0 * MiB), e.price_per_byte());
  // The cache is full now, and the first reads show no refaults: 2 MiB of the
  // 80 a share needs. Every read still counts.
  e.add(0.5, 0.2, 2.0 * MiB, 0.0, cache);
  EXPECT_DOUBLE_EQ((1.0 * d + 0.2) / (10.0 * MiB * d + 2.0 * MiB), e.price_per_byte());
  EXPECT_GT(e.allowance(), 0.0);   // the rent still limits growth
  // 8 x 10 MiB more, still without refaults: 82 MiB known, the whole
  // cache: nothing re-reads (a scan), and the cache is free to take.
  for (int i = 0; i < 7; i++) e.add(0.0, 0.2, 10.0 * MiB, 0.0, cache);
  EXPECT_GT(e.price_per_byte(), 0.0);
  e.add(0.0, 0.2, 10.0 * MiB, 0.0, cache);
  EXPECT_DOUBLE_EQ(0.0, e.price_per_byte());
  EXPECT_LT(e.allowance(), 0.0);
  // The cache fills again (refaults unknown): the next full cache needs its
  // own evidence before a share counts, and the decayed 0% share waits.
  e.add(0.0, 1.0, 10.0 * MiB, -1.0, cache);
  e.add(0.0, 0.2, 2.0 * MiB, 0.0, cache);
  EXPECT_GT(e.price_per_byte(), 0.0);
  // Without a cache size any known read counts at once.
  FlexHeapEvictionCredit at_once(0.1);
  at_once.add(0.0, 1.0, 10.0 * MiB, -1.0);
  at_once.add(0.0, 0.2, 2.0 * MiB, 0.0);
  EXPECT_DOUBLE_EQ(0.0, at_once.price_per_byte());
}

TEST(FlexHeapEvictionCredit, ByDefaultAShareNeedsReadsOfAWholeCacheAfterTheFill) {
  // M3 on the 10 GB index at 10%, sata: random reads over data 12x the
  // 760 MiB cache. 80 MiB after the fill, the share is 1% (few evicted pages
  // have come round again): at a tenth of the cache as evidence (earlier
  // builds) that cut the price to a tenth and let the rent evict ten times as
  // much. At the whole cache every read still counts.
  const double cache = 760.0 * MiB;
  EXPECT_DOUBLE_EQ(1.0, FlexHeapEvictionCredit::EvidenceCacheFraction);
  FlexHeapEvictionCredit e(0.1);
  e.add(0.0, 1.0, 30.0 * MiB, -1.0, cache);   // the cache fills
  double io = 1.0, read = 30.0 * MiB;
  for (int i = 0; i < 8; i++) {
    e.add(0.05, 1.0, 10.0 * MiB, 0.1 * MiB, cache);
    io = io * FlexHeapEvictionCredit::Decay + 1.0;
    read = read * FlexHeapEvictionCredit::Decay + 10.0 * MiB;
  }
  EXPECT_DOUBLE_EQ(io / read, e.price_per_byte());   // every read counts, the 1% share not yet
  EXPECT_GT(e.allowance(), 0.0);
  // With no refault in a whole cache of reads, nothing re-reads (a scan):
  // the price falls to 0 and growth is free.
  FlexHeapEvictionCredit scan(0.1);
  scan.add(0.0, 1.0, 30.0 * MiB, -1.0, cache);
  for (int i = 0; i < 75; i++) scan.add(0.0, 1.0, 10.0 * MiB, 0.0, cache);
  EXPECT_GT(scan.price_per_byte(), 0.0);   // 750 MiB: not yet
  scan.add(0.0, 1.0, 10.0 * MiB, 0.0, cache);
  EXPECT_DOUBLE_EQ(0.0, scan.price_per_byte());
  EXPECT_LT(scan.allowance(), 0.0);
}
