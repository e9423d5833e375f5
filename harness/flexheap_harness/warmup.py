#
# Copyright (c) 2026, FlexHeap contributors. All rights reserved.
# DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
#
# This code is free software; you can redistribute it and/or modify it
# under the terms of the GNU General Public License version 2 only, as
# published by the Free Software Foundation.  The FlexHeap contributors
# designate this particular file as subject to the "Classpath" exception
# as provided by Oracle in the LICENSE file that accompanied this code.
#
# This code is distributed in the hope that it will be useful, but WITHOUT
# ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
# FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General Public License
# version 2 for more details (a copy is included in the LICENSE file that
# accompanied this code).
#
# You should have received a copy of the GNU General Public License version
# 2 along with this work; if not, write to the Free Software Foundation,
# Inc., 51 Franklin St, Fifth Floor, Boston, MA 02110-1301 USA.
#
#

"""The warm-up runs a comparison starts with (compare.run_comparison), in a module of its own so
that the CLI's parser, --help included, reads the default without compare's imports."""

# Why a comparison starts with a run it does not count: after a quiet spell the first run reads its
# data and the JDK from below the guest's page cache (drop_caches empties only that one: the host's
# cache and the device's stay warm for the runs after). Over the 56 comparisons stored under
# docs/results/data, the first run took 1.05x the median of the same policy's later runs (median),
# more than 1.10x in 27 of them, up to 3.3x: a penalty that always fell on the interleaving's first
# policy (most often the baseline).
DEFAULT_WARMUP = 1
