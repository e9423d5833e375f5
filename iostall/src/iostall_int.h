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
/* Library internals: one struct iostall, backends behind a small ops table. */
#ifndef IOSTALL_INT_H
#define IOSTALL_INT_H

#include <stdarg.h>
#include "iostall.h"

#define IOSTALL_EXPORT __attribute__((visibility("default")))

struct iostall;

struct iostall_ops {
	const char *name;
	enum iostall_backend id;
	int (*reg)(struct iostall *st, pid_t tid);
	int (*unreg)(struct iostall *st, pid_t tid);
	int64_t (*thread_ns)(struct iostall *st, pid_t tid);
	uint64_t (*total_ns)(struct iostall *st);
	int (*tracked)(struct iostall *st);
	int (*map_entries)(struct iostall *st);
	void (*close)(struct iostall *st);
};

struct iostall {
	const struct iostall_ops *ops;
	void *priv;
};

/* Each returns 0 and sets st->ops/priv, or -errno and writes why. */
int iostall_bpf_open(struct iostall *st, char *why, size_t len);
int iostall_delayacct_open(struct iostall *st, char *why, size_t len);
int iostall_psi_open(struct iostall *st, char *why, size_t len);

/* IOSTALL_DEBUG=1 in the environment. */
int iostall_debug(void);
/* Whether a thread id names a live task (needed to avoid stale entries). */
int iostall_tid_alive(pid_t tid);
/* Whether /proc belongs to our pid namespace (/proc/<tid> names our tids). */
int iostall_proc_is_ours(void);

#endif /* IOSTALL_INT_H */
