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
/*
 * iostall: per-thread I/O-stall accounting (FlexHeap paper, Alg. 1).
 *
 * Time a registered thread spends switched out in uninterruptible sleep (D
 * state), accumulated per thread and in total. The JVM dlopen()s this library
 * only when -XX:+UseFlexHeap is on, registers each Java mutator's tid (as
 * gettid() returns it, also inside a container's pid namespace) at thread
 * start and unregisters it at exit, and reads the monotonic total at every
 * GC. All calls are thread safe and never block on I/O.
 */
#ifndef IOSTALL_H
#define IOSTALL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IOSTALL_API_VERSION 1

/* Most threads tracked at once (BPF map size); register fails beyond it. */
#define IOSTALL_MAX_THREADS 16384

enum iostall_backend {
	IOSTALL_AUTO = 0,      /* bpf, else delayacct, else psi, else none */
	IOSTALL_BPF = 1,       /* eBPF on tp_btf/sched_switch (paper Alg. 1) */
	IOSTALL_DELAYACCT = 2, /* kernel delay accounting, per-thread blkio delay */
	IOSTALL_NONE = 3,      /* always reports zero */
	IOSTALL_PSI = 4,       /* the own cgroup's I/O pressure (cgroup v2), unprivileged */
};

struct iostall;

/*
 * Open with the wanted backend. Never returns NULL for IOSTALL_AUTO (falls
 * back to IOSTALL_NONE); returns NULL if an explicit backend is unavailable.
 * In both cases a one-line reason for the outcome is written to why (may be
 * NULL), e.g. "bpf: loaded tp_btf/sched_switch" or
 * "delayacct: kernel.task_delayacct=0; bpf: permission denied (need CAP_BPF)".
 */
struct iostall *iostall_open(enum iostall_backend want, char *why, size_t why_len);
void iostall_close(struct iostall *st);

/* Backend in use: "bpf", "delayacct", "psi" or "none". */
const char *iostall_backend_name(const struct iostall *st);
enum iostall_backend iostall_backend(const struct iostall *st);

/*
 * Start/stop tracking a thread id of the caller's pid namespace (gettid()).
 * 0 on success, -errno on failure; -EXDEV (bpf, inside a pid namespace): the
 * thread lives in a pid namespace nested in the caller's.
 */
int iostall_register(struct iostall *st, pid_t tid);
int iostall_unregister(struct iostall *st, pid_t tid);

/* Stall ns accrued by a registered thread since it was registered; -errno if unknown. */
int64_t iostall_thread_ns(struct iostall *st, pid_t tid);

/*
 * Stall ns accrued by all threads ever registered (unregistered threads'
 * time is kept), so it never decreases: callers take deltas. No system call
 * and no lock, whatever the number of threads: meant for a GC pause. The
 * delayacct figure is as of its background refresh (every 100 ms). The psi
 * backend reads its file here (one pread): sample it off the pause.
 */
uint64_t iostall_total_ns(struct iostall *st);

/* Threads currently registered (for leak checks). */
int iostall_tracked(struct iostall *st);

/* Backend-specific entries currently held (BPF map entries; for leak checks). */
int iostall_map_entries(struct iostall *st);

/* dlsym()-friendly version check. */
int iostall_api_version(void);

#ifdef __cplusplus
}
#endif
#endif /* IOSTALL_H */
