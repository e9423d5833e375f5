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

/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Types shared by the BPF program and the library. */
#ifndef IOSTALL_SHARED_H
#define IOSTALL_SHARED_H

/* Must equal IOSTALL_MAX_THREADS in include/iostall.h (checked in C). */
#define IOSTALL_MAP_MAX 16384

/* Registered threads blocked in D state at once that the probe can time. */
#define IOSTALL_INFLIGHT_MAX 4096

/* Slots of the maybe_tracked filter, minus one (a power of two). */
#define IOSTALL_FILTER_MASK 0xffff

/* Slots of the probe's pending (in-flight stamps) filter, minus one. */
#define IOSTALL_PENDING_MASK 0x3ff

struct iostall_entry {
	__u64 total_ns;	/* D-state ns accrued since registration */
};

/* A registered thread switched out in D state, keyed by its host tid. */
struct iostall_inflight {
	__u64 start_ns;	/* switch-out stamp */
	__u32 key;	/* its key in the tracked map (registered tid) */
	__u32 pad;
};

#endif /* IOSTALL_SHARED_H */
